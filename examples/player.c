/*
 * examples/player: a video file full-screen on the primary plane, and the live
 * camera as a picture-in-picture on an overlay plane, zero-copy.
 *
 *   player [options] VIDEO
 *     --device PATH        KMS device (default: $DISPMAN_DEVICE, then discovery)
 *     --camera PATH        V4L2 capture node (default /dev/video0; "none": no PiP)
 *     --camera-size WxH    camera frame size (default 320x180)
 *     --pip X,Y            PiP position (default: bottom right, 32 px margin)
 *     --frames N           stop after N displayed frames (default: run until q/Esc)
 *     --screenshot FILE    on exit, read the screen back (dispman_output_capture; .png
 *                          or PPM)
 *     --then CMD           on exit, stop the camera (its last frame stays shown), take the
 *                          screenshot, then run the shell command CMD while that frame is
 *                          on screen (a test's screendump); its failure fails the player
 *     --loop               restart the video at its end
 *     --input PATH         read keys from this evdev node (repeatable; default: the
 *                          udev seat, which needs udevd)
 *
 * It publishes its pipeline graph: `dispman-info --pipeline --pid PID` shows the camera's
 * media entity, its buffers, and the plane (or composition buffer) each layer is on now.
 *
 * Keys (through libinput, where the build and the machine have it): arrows move
 * the PiP, +/- change the camera size, p toggles the PiP, q or Esc quits.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <drm_fourcc.h>
#include <dispman/camera.h>
#include <dispman/dispman.h>
#include <dispman/input.h>
#include <dispman/pipeline.h>

#include "config.h"
#include "image.h"
#include "video.h"

/* Keys need the input module (built with libinput; without it the API fails). */
#if HAVE_LIBINPUT
#define PLAYER_KEYS 1
#include <linux/input-event-codes.h>
#else
#define PLAYER_KEYS 0
#endif

#define VIDEO_BUFFERS 3

static const uint32_t cam_sizes[][2] = { { 320, 180 }, { 640, 360 }, { 640, 480 } };

struct player {
	struct dispman_device *dev;
	struct dispman_output *out;
	const struct dispman_mode *mode;
	struct video *video;
	double fps;
	struct dispman_layer *video_layer;
	struct dispman_buffer *vbuf[VIDEO_BUFFERS];
	bool vbuf_busy[VIDEO_BUFFERS];
	int vbuf_cur; /* on the video layer, -1: none */
	struct dispman_layer *pip;
	struct dispman_camera *cam;
	const char *cam_path;
	size_t cam_size;
	int32_t pip_x, pip_y;
	bool pip_visible;
	bool pip_pos_set;
	uint64_t flips, video_frames;
	double t0, last_flip;
	bool need_frame;
	bool quit;
	bool video_ended;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double ts_sec(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

static void on_release(struct dispman_buffer *buf, void *data)
{
	struct player *p = data;
	for (int i = 0; i < VIDEO_BUFFERS; i++)
		if (p->vbuf[i] == buf)
			p->vbuf_busy[i] = false;
}

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	struct player *p = data;
	(void)out;
	(void)seq;
	p->flips++;
	p->last_flip = ts_sec(t);
	if (p->t0 == 0)
		p->t0 = p->last_flip;
	p->need_frame = true;
}

static void on_camera_error(struct dispman_camera *cam, int err, void *data)
{
	struct player *p = data;
	(void)cam;
	fprintf(stderr, "player: camera stopped: %s; hiding the PiP\n", strerror(-err));
	dispman_layer_set_visible(p->pip, false);
}

/* Show the next video frame when it is due and a buffer is free. */
static int show_video_frame(struct player *p)
{
	double due = p->t0 + (double)p->video_frames / p->fps;
	/* Not due yet: commit the same scene so that the next vblank still
	 * brings a frame callback (the clock this loop runs on). */
	if (p->video_ended || (p->video_frames > 0 && p->last_flip + 0.5 / 60.0 < due))
		return dispman_device_commit(p->dev);
	int i;
	for (i = 0; i < VIDEO_BUFFERS; i++)
		if (!p->vbuf_busy[i] && i != p->vbuf_cur)
			break;
	if (i == VIDEO_BUFFERS) /* all on screen or about to be: wait for a release */
		return dispman_device_commit(p->dev);
	void *data;
	uint32_t stride;
	int r = dispman_buffer_map(p->vbuf[i], &data, &stride);
	if (r < 0)
		return r;
	r = video_next(p->video, data, stride, p->mode->width, p->mode->height);
	if (r < 0)
		return -EIO;
	if (r == 0) { /* the clip ended: keep the last frame and the vblank clock */
		p->video_ended = true;
		return dispman_device_commit(p->dev);
	}
	p->vbuf_busy[i] = true;
	p->vbuf_cur = i;
	p->video_frames++;
	dispman_layer_set_buffer(p->video_layer, p->vbuf[i]);
	return dispman_device_commit(p->dev);
}

static int start_camera(struct player *p)
{
	dispman_camera_destroy(p->cam);
	p->cam = NULL;
	if (!p->cam_path)
		return 0;
	struct dispman_camera_config cfg = { .size = sizeof(cfg),
		.path = p->cam_path,
		.width = cam_sizes[p->cam_size][0],
		.height = cam_sizes[p->cam_size][1],
		.flags = DISPMAN_CAMERA_ALLOW_COPY,
	};
	p->cam = dispman_camera_create(p->pip, &cfg);
	if (!p->cam) {
		fprintf(stderr, "player: no camera PiP: %s\n", strerror(errno));
		return -errno;
	}
	uint32_t w, h;
	dispman_camera_get_format(p->cam, NULL, &w, &h);
	if (!p->pip_pos_set) {
		p->pip_x = (int32_t)p->mode->width - (int32_t)w - 32;
		p->pip_y = (int32_t)p->mode->height - (int32_t)h - 32;
	}
	int r = dispman_layer_set_destination(p->pip, p->pip_x, p->pip_y, w, h);
	if (r < 0) {
		fprintf(stderr, "player: --pip %d,%d: %s\n", p->pip_x, p->pip_y, strerror(-r));
		return r;
	}
	dispman_camera_set_error_callback(p->cam, on_camera_error, p);
	return dispman_camera_start(p->cam);
}

static void print_pip(struct player *p)
{
	uint32_t w = 0, h = 0;
	if (p->cam)
		dispman_camera_get_format(p->cam, NULL, &w, &h);
	printf("player: pip %d,%d %ux%u %s\n", p->pip_x, p->pip_y, w, h,
		p->pip_visible ? "visible" : "hidden");
	fflush(stdout);
}

#if PLAYER_KEYS
static void move_pip(struct player *p, int dx, int dy)
{
	uint32_t w = 0, h = 0;
	if (p->cam)
		dispman_camera_get_format(p->cam, NULL, &w, &h);
	p->pip_x += dx;
	p->pip_y += dy;
	if (p->pip_x < 0)
		p->pip_x = 0;
	if (p->pip_y < 0)
		p->pip_y = 0;
	if (p->pip_x + (int32_t)w > (int32_t)p->mode->width)
		p->pip_x = (int32_t)p->mode->width - (int32_t)w;
	if (p->pip_y + (int32_t)h > (int32_t)p->mode->height)
		p->pip_y = (int32_t)p->mode->height - (int32_t)h;
	p->pip_pos_set = true;
	dispman_layer_set_destination(p->pip, p->pip_x, p->pip_y, w, h);
	dispman_device_commit(p->dev);
	print_pip(p);
}

static void on_input(struct dispman_input *input, const struct dispman_input_event *ev,
	void *data)
{
	struct player *p = data;
	(void)input;
	if (ev->type != DISPMAN_INPUT_KEY || ev->state != DISPMAN_INPUT_PRESSED)
		return;
	switch (ev->key) {
	case KEY_LEFT: move_pip(p, -16, 0); break;
	case KEY_RIGHT: move_pip(p, 16, 0); break;
	case KEY_UP: move_pip(p, 0, -16); break;
	case KEY_DOWN: move_pip(p, 0, 16); break;
	case KEY_KPPLUS: case KEY_EQUAL:
		if (p->cam_size + 1 < sizeof(cam_sizes) / sizeof(cam_sizes[0])) {
			p->cam_size++;
			start_camera(p);
			move_pip(p, 0, 0); /* keep it on screen */
		}
		break;
	case KEY_KPMINUS: case KEY_MINUS:
		if (p->cam_size > 0) {
			p->cam_size--;
			start_camera(p);
			move_pip(p, 0, 0);
		}
		break;
	case KEY_P:
		p->pip_visible = !p->pip_visible;
		dispman_layer_set_visible(p->pip, p->pip_visible);
		dispman_device_commit(p->dev);
		print_pip(p);
		break;
	case KEY_Q: case KEY_ESC:
		p->quit = true;
		break;
	default:
		break;
	}
}
#endif

static void usage(void)
{
	fprintf(stderr, "usage: player [--device PATH] [--camera PATH|none] [--camera-size WxH] "
		"[--pip X,Y] [--frames N] [--screenshot FILE] [--then CMD] [--loop] VIDEO\n");
}

struct options {
	const char *device, *shot, *file, *then;
	uint64_t max_frames;
	bool loop;
	const char *inputs[8];
	size_t n_inputs;
};

/* --camera-size WxH: one of cam_sizes. */
static bool parse_cam_size(const char *v, size_t *index)
{
	uint32_t w, h;
	size_t k, n = sizeof(cam_sizes) / sizeof(cam_sizes[0]);
	if (sscanf(v, "%ux%u", &w, &h) != 2)
		return false;
	for (k = 0; k < n && (cam_sizes[k][0] != w || cam_sizes[k][1] != h); k++)
		;
	if (k == n) {
		fprintf(stderr, "player: camera sizes: 320x180, 640x360, 640x480\n");
		return false;
	}
	*index = k;
	return true;
}

/* An option with a value (argv[i + 1]); returns false when it is wrong. */
static bool parse_option(const char *a, const char *v, struct player *p, struct options *o)
{
	if (!strcmp(a, "--device"))
		o->device = v;
	else if (!strcmp(a, "--camera"))
		p->cam_path = strcmp(v, "none") ? v : NULL;
	else if (!strcmp(a, "--camera-size"))
		return parse_cam_size(v, &p->cam_size);
	else if (!strcmp(a, "--pip"))
		return p->pip_pos_set = sscanf(v, "%d,%d", &p->pip_x, &p->pip_y) == 2;
	else if (!strcmp(a, "--frames"))
		o->max_frames = strtoull(v, NULL, 10);
	else if (!strcmp(a, "--screenshot"))
		o->shot = v;
	else if (!strcmp(a, "--then"))
		o->then = v;
	else if (!strcmp(a, "--input") && o->n_inputs < 8)
		o->inputs[o->n_inputs++] = v;
	else
		return false;
	return true;
}

/* Returns false (after the usage line) on a bad command line. */
static bool parse_args(int argc, char **argv, struct player *p, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (!strcmp(a, "--loop"))
			o->loop = true;
		else if (a[0] != '-' && !o->file)
			o->file = a;
		else if (i + 1 < argc)
			ok = parse_option(a, argv[++i], p, o);
		else
			ok = false;
		if (!ok) {
			usage();
			return false;
		}
	}
	if (!o->file)
		usage();
	return o->file != NULL;
}

/* The device, its first connected output, the two layers and the video buffers. */
static bool setup_display(struct player *p, const struct options *o)
{
	uint32_t vw, vh;
	video_get_info(p->video, &vw, &vh, &p->fps);
	p->dev = dispman_device_open(o->device);
	if (!p->dev) {
		fprintf(stderr, "player: no display device: %s\n", strerror(errno));
		return false;
	}
	p->out = dispman_device_get_first_connected_output(p->dev);
	if (!p->out || dispman_output_enable(p->out, NULL) < 0) {
		fprintf(stderr, "player: no connected output\n");
		return false;
	}
	p->mode = dispman_output_get_current_mode(p->out);
	if (!p->mode)
		p->mode = dispman_output_get_preferred_mode(p->out);
	printf("player: %s %ux%u@%.2f Hz, video %s %ux%u at %.2f fps\n",
		dispman_output_get_name(p->out), p->mode->width, p->mode->height,
		p->mode->refresh_mhz / 1000.0, o->file, vw, vh, p->fps);
	dispman_output_set_frame_callback(p->out, on_frame, p);
	p->video_layer = dispman_layer_create(p->out);
	p->pip = dispman_layer_create(p->out);
	if (!p->video_layer || !p->pip)
		return false;
	dispman_layer_set_z(p->video_layer, 0);
	dispman_layer_set_z(p->pip, 1);
	for (int i = 0; i < VIDEO_BUFFERS; i++) {
		p->vbuf[i] = dispman_buffer_create_dumb(p->dev, p->mode->width, p->mode->height,
			DRM_FORMAT_XRGB8888);
		if (!p->vbuf[i])
			return false;
		dispman_buffer_set_release_callback(p->vbuf[i], on_release, p);
	}
	return true;
}

static struct dispman_input *open_input(struct player *p, const struct options *o)
{
#if PLAYER_KEYS
	struct dispman_input *input = o->n_inputs ?
		dispman_input_create_path(p->dev, o->inputs, o->n_inputs) :
		dispman_input_create_udev(p->dev, NULL);
	if (input)
		dispman_input_set_callback(input, on_input, p);
	else
		printf("player: no keyboard (libinput: %s); running without keys\n",
			strerror(errno));
	return input;
#else
	(void)p;
	if (o->n_inputs)
		fprintf(stderr, "player: built without libinput: --input ignored\n");
	return NULL;
#endif
}

/* The first frame, then frames until q, a signal, --frames or the clip's end. */
static bool play(struct player *p, uint64_t max_frames)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	p->t0 = 0;
	p->last_flip = ts_sec(&now);
	if (show_video_frame(p) < 0) {
		fprintf(stderr, "player: cannot show the first frame\n");
		return false;
	}
	print_pip(p);
	printf("player: ready\n");
	fflush(stdout);
	while (!p->quit && !interrupted && (!max_frames || p->flips < max_frames)) {
		int r = dispman_device_dispatch(p->dev, 1000);
		if (r < 0) {
			fprintf(stderr, "player: dispatch: %s\n", strerror(-r));
			break;
		}
		if (p->need_frame) {
			p->need_frame = false;
			if (show_video_frame(p) < 0)
				break;
		}
		if (p->video_ended && !max_frames)
			break;
	}
	return true;
}

static void report(struct player *p)
{
	printf("player: %llu flips, %llu video frames\n", (unsigned long long)p->flips,
		(unsigned long long)p->video_frames);
	if (!p->cam)
		return;
	struct dispman_camera_stats cs = { .size = sizeof(cs) };
	dispman_camera_get_stats(p->cam, &cs);
	printf("player: camera %s: %llu captured, %llu shown, %llu dropped, %llu broken, "
		"%llu bytes copied by the CPU (%s), mean latency %.1f ms\n", p->cam_path,
		(unsigned long long)cs.frames_captured, (unsigned long long)cs.frames_shown,
		(unsigned long long)cs.frames_dropped, (unsigned long long)cs.frames_error,
		(unsigned long long)cs.bytes_copied, cs.zero_copy ? "zero-copy" : "CPU conversion",
		cs.latency_samples ? (double)cs.latency_ns_sum / (double)cs.latency_samples / 1e6 :
		0.0);
	struct dispman_placement pl;
	if (dispman_layer_get_placement(p->pip, &pl) == 0)
		printf("player: PiP layer %s (plane %u)\n",
			pl.state == DISPMAN_PLACEMENT_ON_PLANE ? "on a plane" :
			pl.state == DISPMAN_PLACEMENT_COMPOSITED ? "composited" : "not shown",
			pl.plane_id);
}

/* --screenshot and --then; returns false when one failed. */
static bool finish(struct player *p, const struct options *o)
{
	if (o->then && p->cam) {
		/* the screen must not change between the screenshot and CMD */
		int r = dispman_camera_stop(p->cam);
		if (r < 0)
			fprintf(stderr, "player: camera stop: %s\n", strerror(-r));
	}
	if (o->shot) {
		struct dispman_buffer *frame = NULL;
		int r = dispman_output_capture(p->out, &frame);
		if (r < 0)
			fprintf(stderr, "player: screenshot: %s\n", strerror(-r));
		else if (image_write(frame, o->shot) == 0)
			printf("player: screenshot written to %s\n", o->shot);
		dispman_buffer_unref(frame);
		if (r < 0)
			return false;
	}
	if (o->then) {
		fflush(stdout);
		int r = system(o->then);
		if (r != 0) {
			fprintf(stderr, "player: '%s' failed (status %#x)\n", o->then, (unsigned)r);
			return false;
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	struct player p = { .cam_path = "/dev/video0", .pip_visible = true, .vbuf_cur = -1 };
	struct options o = { 0 };
	if (!parse_args(argc, argv, &p, &o))
		return 2;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	p.video = video_open(o.file, o.loop);
	if (!p.video)
		return 1;
	int rc = 1;
	if (setup_display(&p, &o)) {
		start_camera(&p);
		/* `dispman-info --pipeline --pid PID` shows where the video and the camera go */
		if (dispman_device_publish_pipeline(p.dev) == 0)
			printf("player: pipeline published on %s\n",
				dispman_device_get_pipeline_socket(p.dev));
		struct dispman_input *input = open_input(&p, &o);
		if (play(&p, o.max_frames)) {
			report(&p);
			rc = finish(&p, &o) ? 0 : 1;
		}
#if PLAYER_KEYS
		dispman_input_destroy(input);
#else
		(void)input;
#endif
	}
	dispman_camera_destroy(p.cam);
	for (int i = 0; i < VIDEO_BUFFERS; i++)
		dispman_buffer_unref(p.vbuf[i]);
	dispman_device_destroy(p.dev);
	video_close(p.video);
	return rc;
}
