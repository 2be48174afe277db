/*
 * Camera integration tests on vivid + vkms (run in the test guest).
 *
 *   camera CASE [--device PATH] [--video /dev/video0]   (device default: DISPMAN_TEST_DEVICE,
 *   else dispman_device_open(NULL): DISPMAN_DEVICE, then discovery)
 *
 * Cases:
 *   pattern-export  vivid's frames (driver buffers exported to KMS) appear at the
 *                   layer's position, read back through capture pixel by pixel;
 *                   skipped (exit 77) where the display cannot import the camera's
 *                   dma-bufs (tried: PRIME import of a vivid buffer)
 *   pattern-import  the same with display buffers queued to the driver (DMABUF)
 *   auto-path       the automatic mode takes the first zero-copy path that works on
 *                   this display: export where it imports vivid's buffers, else import,
 *                   saying so at info level and logging no error; pixels checked
 *   copy-no-share   export pinned with ALLOW_COPY: where the display cannot import,
 *                   frames are CPU copies (stats COPY, placement ON_PLANE/IMPORT), and
 *                   exported zero-copy where it can; pixels checked
 *   copy-forced     DISPMAN_CAMERA_MEMORY_COPY: the CPU copy path on any display
 *   cycle-300       300 frames zero-copy (vivid at 15 a second): no CPU byte copied,
 *                   every buffer cycles through the driver, none lost, none queued
 *                   twice, no driver gap
 *   copy-fallback   a format no plane takes (YUYV) is converted on the CPU and says so
 *   yuv-under-ui    a YUYV camera under an overlapping UI that must be composed (scaled):
 *                   the camera's pixels stay visible where the UI is transparent (capture)
 *   buf-error       frames the driver flags broken are counted, the stream goes on
 *   disconnect      the device vanishes mid-stream: error callback, last frame kept,
 *                   the display keeps running
 *   fatal-error     a fatal streaming error: error callback, display keeps running
 *   streamon-error  STREAMON fails: start() reports it, nothing leaks
 *   reqbufs-error   REQBUFS fails: create() reports it, nothing leaks
 *   formats         the node's formats and sizes, and which a plane scans out
 *   bad-config      invalid configurations are refused with EINVAL/ENOENT/ENOTSUP
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <linux/videodev2.h>
#include <sys/mman.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <dispman/camera.h>
#include <dispman/dispman.h>

#define BG 0xff203040u
#define CAM_X 96
#define CAM_Y 80
#define CAM_W 320
#define CAM_H 180

#include "check.h"
#include "screendump.h"

static const char *video_path = "/dev/video0";

struct ctx {
	struct dispman_device *dev;
	struct dispman_output *out;
	const struct dispman_mode *mode;
	struct dispman_buffer *bg;
	struct dispman_layer *layer;
	struct dispman_camera *cam;
	int errors;
	int last_error;
	uint32_t frames;
	uint32_t index_count[32];
	uint32_t last_seq;
	bool seq_ok;
	bool seen_seq;
};

static void on_error(struct dispman_camera *cam, int err, void *data)
{
	struct ctx *c = data;
	(void)cam;
	c->errors++;
	c->last_error = err;
	printf("error callback: %s\n", strerror(-err));
}

static void on_frame(struct dispman_camera *cam, uint32_t index, uint32_t seq, bool error,
	void *data)
{
	struct ctx *c = data;
	(void)cam;
	(void)error;
	c->frames++;
	if (index < 32)
		c->index_count[index]++;
	if (c->seen_seq && seq != c->last_seq + 1)
		c->seq_ok = false;
	c->seen_seq = true;
	c->last_seq = seq;
}

static void setup(struct ctx *c, const char *device)
{
	memset(c, 0, sizeof(*c));
	c->seq_ok = true;
	c->dev = dispman_device_open(device);
	CHECK(c->dev, "cannot open the display device: %s", strerror(errno));
	c->out = dispman_device_get_first_connected_output(c->dev);
	CHECK(c->out, "no connected output");
	CHECK(dispman_output_enable(c->out, NULL) == 0, "enable");
	c->mode = dispman_output_get_preferred_mode(c->out);
	c->bg = dispman_buffer_create_dumb(c->dev, c->mode->width, c->mode->height,
		DRM_FORMAT_XRGB8888);
	CHECK(c->bg, "background buffer: %s", strerror(errno));
	uint32_t *px, stride;
	CHECK(dispman_buffer_map(c->bg, (void **)&px, &stride) == 0, "map");
	for (uint32_t y = 0; y < c->mode->height; y++)
		for (uint32_t x = 0; x < c->mode->width; x++)
			px[y * stride / 4 + x] = BG;
	CHECK(dispman_output_set_buffer(c->out, c->bg) == 0, "set_buffer");
	c->layer = dispman_layer_create(c->out);
	CHECK(c->layer, "layer");
	dispman_layer_set_z(c->layer, 10);
	dispman_layer_set_destination(c->layer, CAM_X, CAM_Y, CAM_W, CAM_H);
	CHECK(dispman_device_commit(c->dev) == 0, "first commit");
}

static void teardown(struct ctx *c)
{
	dispman_camera_destroy(c->cam);
	dispman_buffer_unref(c->bg);
	dispman_device_destroy(c->dev);
}

static uint32_t n_buffers = 4;

static struct dispman_camera *make_camera(struct ctx *c, enum dispman_camera_memory mem,
	uint32_t fourcc, uint32_t flags)
{
	struct dispman_camera_config cfg = { .size = sizeof(cfg),
		.path = video_path, .width = CAM_W, .height = CAM_H, .fourcc = fourcc,
		.n_buffers = n_buffers, .memory = mem, .flags = flags,
	};
	struct dispman_camera *cam = dispman_camera_create(c->layer, &cfg);
	if (cam) {
		dispman_camera_set_error_callback(cam, on_error, c);
		dispman_camera_set_frame_callback(cam, on_frame, c);
	}
	return cam;
}

/* Dispatch until `frames` camera frames arrived (or errors), at most timeout_s. */
static void run_frames(struct ctx *c, uint32_t frames, int timeout_s)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (c->frames < frames && !c->errors) {
		int r = dispman_device_dispatch(c->dev, 500);
		CHECK(r >= 0, "dispatch: %s", strerror(-r));
		clock_gettime(CLOCK_MONOTONIC, &t);
		CHECK(t.tv_sec - t0.tv_sec < timeout_s, "only %u of %u frames in %d s",
			c->frames, frames, timeout_s);
	}
}

/* Let pending flips land. */
static void settle(struct ctx *c)
{
	for (int i = 0; i < 5; i++)
		dispman_device_dispatch(c->dev, 50);
}

static void print_stats(struct dispman_camera *cam)
{
	struct dispman_camera_stats s = { .size = sizeof(s) };
	dispman_camera_get_stats(cam, &s);
	printf("stats: captured %llu shown %llu dropped %llu broken %llu copied %llu bytes, "
		"gaps %llu, %u buffers (%u queued), %s, latency mean %.1f ms max %.1f ms (%llu samples)\n",
		(unsigned long long)s.frames_captured, (unsigned long long)s.frames_shown,
		(unsigned long long)s.frames_dropped, (unsigned long long)s.frames_error,
		(unsigned long long)s.bytes_copied, (unsigned long long)s.sequence_gaps,
		s.n_buffers, s.buffers_queued, s.zero_copy ? "zero-copy" : "CPU copy",
		s.latency_samples ? (double)s.latency_ns_sum / (double)s.latency_samples / 1e6 : 0.0,
		(double)s.latency_ns_max / 1e6, (unsigned long long)s.latency_samples);
	printf("stats: composed by the CPU %llu frames, %llu bytes\n",
		(unsigned long long)s.frames_composed, (unsigned long long)s.bytes_composed);
}

/*
 * Read the screen back and compare: inside the camera rectangle it must equal
 * `frame` (the buffer the layer shows, XRGB8888), everywhere else the
 * background. Returns the number of differing pixels.
 */
static uint64_t compare_screen(struct ctx *c, struct dispman_buffer *frame, uint32_t *distinct)
{
	struct dispman_buffer *shot = NULL;
	int r = dispman_output_capture(c->out, &shot);
	CHECK(r == 0, "capture: %s", strerror(-r));
	uint32_t *sp, sstride, *fp = NULL, fstride = 0;
	CHECK(dispman_buffer_map(shot, (void **)&sp, &sstride) == 0, "map capture");
	CHECK(dispman_buffer_map(frame, (void **)&fp, &fstride) == 0, "map camera frame");
	uint64_t bad = 0;
	uint32_t colours[64], n_colours = 0;
	for (uint32_t y = 0; y < c->mode->height; y++)
		for (uint32_t x = 0; x < c->mode->width; x++) {
			uint32_t got = sp[y * sstride / 4 + x] & 0xffffff, want;
			bool in = x >= CAM_X && x < CAM_X + CAM_W && y >= CAM_Y && y < CAM_Y + CAM_H;
			if (in) {
				want = fp[(y - CAM_Y) * fstride / 4 + (x - CAM_X)] & 0xffffff;
				bool known = false;
				for (uint32_t i = 0; i < n_colours; i++)
					known = known || colours[i] == want;
				if (!known && n_colours < 64)
					colours[n_colours++] = want;
			} else {
				want = BG & 0xffffff;
			}
			if (got != want && bad++ < 3)
				printf("  differs at %u,%u: got %06x want %06x\n", x, y, got, want);
		}
	dispman_buffer_unref(shot);
	*distinct = n_colours;
	if (n_colours < 8) { /* say what the frame holds: vivid's bars or something else */
		printf("  the camera frame's colours:");
		for (uint32_t i = 0; i < n_colours; i++)
			printf(" %06x", colours[i]);
		printf("\n");
	}
	return bad;
}

/*
 * Whether the display can import the camera's dma-bufs, found by trying: one vivid MMAP
 * buffer exported (VIDIOC_EXPBUF) and imported with drmPrimeFDToHandle (virtio-gpu says
 * ENODEV). Decided by the device's answer, not by its driver's name.
 */
static bool display_imports_camera(struct dispman_device *dev)
{
	int vfd = open(video_path, O_RDWR);
	CHECK(vfd >= 0, "open %s: %s", video_path, strerror(errno));
	struct v4l2_capability cap;
	CHECK(ioctl(vfd, VIDIOC_QUERYCAP, &cap) == 0, "QUERYCAP");
	uint32_t caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
	uint32_t type = caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
		V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_requestbuffers req = { .count = 1, .type = type, .memory = V4L2_MEMORY_MMAP };
	CHECK(ioctl(vfd, VIDIOC_REQBUFS, &req) == 0 && req.count >= 1, "REQBUFS: %s",
		strerror(errno));
	struct v4l2_exportbuffer exp = { .type = type, .index = 0, .flags = O_RDWR | O_CLOEXEC };
	CHECK(ioctl(vfd, VIDIOC_EXPBUF, &exp) == 0, "EXPBUF: %s", strerror(errno));
	uint32_t handle = 0;
	int r = drmPrimeFDToHandle(dispman_device_get_drm_fd(dev), exp.fd, &handle);
	int err = errno;
	if (r == 0)
		drmCloseBufferHandle(dispman_device_get_drm_fd(dev), handle);
	close(exp.fd);
	req.count = 0;
	ioctl(vfd, VIDIOC_REQBUFS, &req);
	close(vfd);
	printf("the display %s the camera's dma-bufs%s%s\n", r == 0 ? "imports" : "cannot import",
		r == 0 ? "" : ": ", r == 0 ? "" : strerror(err));
	return r == 0;
}

/* The zero-copy path this display pair can use. */
static enum dispman_camera_memory native_path(struct ctx *c)
{
	return display_imports_camera(c->dev) ? DISPMAN_CAMERA_MEMORY_EXPORT :
		DISPMAN_CAMERA_MEMORY_IMPORT;
}

/* Library log lines at error level, and info lines, seen during a case. */
static int log_errors;
static char log_infos[2048];

static void log_handler(enum dispman_log_level level, const char *fmt, va_list args, void *data)
{
	(void)data;
	char line[512];
	vsnprintf(line, sizeof(line), fmt, args);
	fprintf(stderr, "dispman[%d]: %s\n", level, line);
	if (level == DISPMAN_LOG_ERROR)
		log_errors++;
	if (level == DISPMAN_LOG_INFO && strlen(log_infos) + strlen(line) + 2 < sizeof(log_infos)) {
		strcat(log_infos, line);
		strcat(log_infos, "\n");
	}
}

static void capture_log(void)
{
	log_errors = 0;
	log_infos[0] = 0;
	dispman_log_set_handler(log_handler, NULL);
	dispman_log_set_level(DISPMAN_LOG_INFO);
}

static const char *memory_str(enum dispman_camera_memory m)
{
	switch (m) {
	case DISPMAN_CAMERA_MEMORY_EXPORT: return "export";
	case DISPMAN_CAMERA_MEMORY_IMPORT: return "import";
	case DISPMAN_CAMERA_MEMORY_COPY: return "copy";
	default: return "auto";
	}
}

/*
 * The camera layer's placement: on a plane with want_reason where the display has an
 * overlay plane, else (virtio-gpu: a primary and a cursor per CRTC, nothing for a
 * picture-in-picture) composited on the CPU. Decided by the device's planes.
 */
static void check_camera_placement(struct ctx *c, enum dispman_placement_reason want_reason)
{
	int fd = dispman_device_get_drm_fd(c->dev);
	bool overlay = false;
	drmModePlaneRes *res = drmModeGetPlaneResources(fd);
	CHECK(res, "plane resources");
	for (uint32_t i = 0; i < res->count_planes && !overlay; i++) {
		drmModeObjectProperties *props = drmModeObjectGetProperties(fd, res->planes[i],
			DRM_MODE_OBJECT_PLANE);
		for (uint32_t k = 0; props && k < props->count_props; k++) {
			drmModePropertyRes *p = drmModeGetProperty(fd, props->props[k]);
			if (p && !strcmp(p->name, "type") &&
			    props->prop_values[k] == DRM_PLANE_TYPE_OVERLAY)
				overlay = true;
			drmModeFreeProperty(p);
		}
		drmModeFreeObjectProperties(props);
	}
	drmModeFreePlaneResources(res);
	struct dispman_placement pl;
	CHECK(dispman_layer_get_placement(c->layer, &pl) == 0, "placement");
	printf("placement: state %d plane %u reason %d (the display has %s overlay plane)\n",
		pl.state, pl.plane_id, pl.reason, overlay ? "an" : "no");
	if (overlay)
		CHECK(pl.state == DISPMAN_PLACEMENT_ON_PLANE && pl.reason == want_reason,
			"placement state %d reason %d, expected on a plane with reason %d",
			pl.state, pl.reason, want_reason);
	else
		CHECK(pl.state == DISPMAN_PLACEMENT_COMPOSITED, "placement state %d without an "
			"overlay plane, expected composited", pl.state);
}

/*
 * Stream 20 frames through a camera made with mem and flags, then check that it ran on
 * want (stats and placement), what it copied, and the pixels on screen.
 */
static void check_path(struct ctx *c, enum dispman_camera_memory mem, uint32_t flags,
	enum dispman_camera_memory want, enum dispman_placement_reason want_reason)
{
	c->cam = make_camera(c, mem, DRM_FORMAT_XRGB8888, flags);
	CHECK(c->cam, "camera (%s): %s", memory_str(mem), strerror(errno));
	struct dispman_camera_stats s = { .size = sizeof(s) };
	dispman_camera_get_stats(c->cam, &s);
	printf("asked for %s%s: runs on %s (%s)\n", memory_str(mem),
		flags & DISPMAN_CAMERA_ALLOW_COPY ? " with ALLOW_COPY" : "", memory_str(s.memory),
		s.zero_copy ? "zero-copy" : "CPU copy");
	CHECK(s.memory == want, "path %s, expected %s", memory_str(s.memory), memory_str(want));
	CHECK(s.zero_copy == (want != DISPMAN_CAMERA_MEMORY_COPY), "zero_copy %d on %s",
		s.zero_copy, memory_str(s.memory));
	CHECK(dispman_camera_start(c->cam) == 0, "start");
	run_frames(c, 20, 180);
	CHECK(dispman_camera_stop(c->cam) == 0, "stop");
	settle(c);
	print_stats(c->cam);
	dispman_camera_get_stats(c->cam, &s);
	CHECK(s.frames_shown >= 1, "no frame reached the screen");
	if (want == DISPMAN_CAMERA_MEMORY_COPY)
		CHECK(s.bytes_copied >= (uint64_t)CAM_W * CAM_H * 4, "copy path copied %llu bytes",
			(unsigned long long)s.bytes_copied);
	else
		CHECK(s.bytes_copied == 0, "zero-copy path copied %llu bytes",
			(unsigned long long)s.bytes_copied);
	check_camera_placement(c, want_reason);
	/* the stats say what the display side cost: composed frames only when composited */
	struct dispman_placement cp;
	CHECK(dispman_layer_get_placement(c->layer, &cp) == 0, "placement");
	if (cp.state == DISPMAN_PLACEMENT_COMPOSITED)
		CHECK(s.frames_composed >= 1 && s.bytes_composed >= s.frames_composed * 4,
			"composited camera: %llu frames composed", (unsigned long long)s.frames_composed);
	else
		CHECK(s.frames_composed == 0, "camera on a plane: %llu frames composed",
			(unsigned long long)s.frames_composed);
	struct dispman_buffer *frame = NULL;
	CHECK(dispman_layer_get_buffer(c->layer, &frame) == 0 && frame, "layer has no buffer");
	CHECK(dispman_buffer_get_format(frame) == DRM_FORMAT_XRGB8888, "frame format");
	uint32_t distinct;
	uint64_t bad = compare_screen(c, frame, &distinct);
	dispman_buffer_unref(frame);
	printf("read back %ux%u camera pixels plus background: %llu differ, %u colours\n",
		CAM_W, CAM_H, (unsigned long long)bad, distinct);
	CHECK(bad == 0, "%llu pixels differ", (unsigned long long)bad);
	CHECK(distinct >= 8, "not vivid's pattern (%u colours)", distinct);
	CHECK(c->errors == 0, "unexpected error callback");
}

static int case_auto_path(const char *device)
{
	struct ctx c;
	setup(&c, device);
	bool imports = display_imports_camera(c.dev);
	capture_log();
	check_path(&c, DISPMAN_CAMERA_MEMORY_AUTO, 0, imports ? DISPMAN_CAMERA_MEMORY_EXPORT :
		DISPMAN_CAMERA_MEMORY_IMPORT, DISPMAN_REASON_NONE);
	CHECK(log_errors == 0, "%d error lines on the automatic path", log_errors);
	if (!imports)
		CHECK(strstr(log_infos, "cannot use the camera's buffers"),
			"the fallback was not said at info level");
	teardown(&c);
	dispman_log_set_handler(NULL, NULL);
	printf("PASS\n");
	return 0;
}

static int case_copy_no_share(const char *device)
{
	struct ctx c;
	setup(&c, device);
	bool imports = display_imports_camera(c.dev);
	capture_log();
	check_path(&c, DISPMAN_CAMERA_MEMORY_EXPORT, DISPMAN_CAMERA_ALLOW_COPY,
		imports ? DISPMAN_CAMERA_MEMORY_EXPORT : DISPMAN_CAMERA_MEMORY_COPY,
		imports ? DISPMAN_REASON_NONE : DISPMAN_REASON_IMPORT);
	CHECK(log_errors == 0, "%d error lines with a fallback left", log_errors);
	if (!imports)
		CHECK(strstr(log_infos, "trying CPU copies"), "the fallback was not said at info "
			"level");
	teardown(&c);
	dispman_log_set_handler(NULL, NULL);
	printf("PASS\n");
	return 0;
}

static int case_copy_forced(const char *device)
{
	struct ctx c;
	setup(&c, device);
	struct dispman_camera *no = make_camera(&c, DISPMAN_CAMERA_MEMORY_COPY,
		DRM_FORMAT_XRGB8888, 0);
	CHECK(!no && errno == EINVAL, "MEMORY_COPY without ALLOW_COPY: %p errno %d", (void *)no,
		errno);
	check_path(&c, DISPMAN_CAMERA_MEMORY_COPY, DISPMAN_CAMERA_ALLOW_COPY,
		DISPMAN_CAMERA_MEMORY_COPY, DISPMAN_REASON_IMPORT);
	teardown(&c);
	printf("PASS\n");
	return 0;
}

static int case_pattern(const char *device, enum dispman_camera_memory mem)
{
	struct ctx c;
	setup(&c, device);
	if (mem == DISPMAN_CAMERA_MEMORY_EXPORT && !display_imports_camera(c.dev)) {
		printf("n/a: the export path needs a display that imports the camera's "
			"dma-bufs\n");
		teardown(&c);
		return 77;
	}
	c.cam = make_camera(&c, mem, DRM_FORMAT_XRGB8888, 0);
	CHECK(c.cam, "camera: %s", strerror(errno));
	struct dispman_camera_stats s = { .size = sizeof(s) };
	dispman_camera_get_stats(c.cam, &s);
	CHECK(s.zero_copy && s.memory == mem, "expected the zero-copy path %d, got %d (%s)",
		mem, s.memory, s.zero_copy ? "zero-copy" : "copy");
	struct dispman_stats ds0 = { .size = sizeof(ds0) }, ds1 = { .size = sizeof(ds1) };
	dispman_device_get_stats(c.dev, &ds0);
	CHECK(dispman_camera_start(c.cam) == 0, "start");
	run_frames(&c, 20, 120);
	dispman_device_get_stats(c.dev, &ds1);
	CHECK(dispman_camera_stop(c.cam) == 0, "stop");
	settle(&c);
	check_camera_placement(&c, DISPMAN_REASON_NONE);
	/* On a plane, after the first frame (a new shape: the layer had no buffer) each
	 * frame only brings a new buffer to the camera's plane: the short frame path, no
	 * search. Composited (no overlay plane), every frame is drawn: never that path. */
	uint64_t commits = ds1.commits - ds0.commits, shorts = ds1.buffer_commits -
		ds0.buffer_commits, searches = ds1.searches - ds0.searches;
	struct dispman_placement pl;
	CHECK(dispman_layer_get_placement(c.layer, &pl) == 0, "placement");
	printf("commits while streaming: %llu, of them the short frame path: %llu; searches: "
		"%llu (camera %s)\n", (unsigned long long)commits, (unsigned long long)shorts,
		(unsigned long long)searches,
		pl.state == DISPMAN_PLACEMENT_ON_PLANE ? "on a plane" : "not on a plane");
	if (pl.state == DISPMAN_PLACEMENT_ON_PLANE)
		CHECK(commits >= 10 && shorts + 2 >= commits && searches <= 2,
			"camera frames did not take the short frame path: %llu of %llu commits, "
			"%llu searches", (unsigned long long)shorts, (unsigned long long)commits,
			(unsigned long long)searches);
	else
		CHECK(commits >= 10 && shorts == 0, "%llu of %llu composited camera frames took "
			"the short frame path", (unsigned long long)shorts,
			(unsigned long long)commits);
	print_stats(c.cam);
	dispman_camera_get_stats(c.cam, &s);
	CHECK(s.bytes_copied == 0, "%llu bytes copied on the zero-copy path",
		(unsigned long long)s.bytes_copied);
	CHECK(s.frames_shown >= 1, "no frame reached the screen");

	/* The frame on screen is the layer's buffer: the camera's own memory. */
	struct dispman_buffer *frame = NULL;
	CHECK(dispman_layer_get_buffer(c.layer, &frame) == 0 && frame, "layer has no buffer");
	uint32_t distinct;
	uint64_t bad = compare_screen(&c, frame, &distinct);
	dispman_buffer_unref(frame);
	printf("read back %ux%u camera pixels at %d,%d plus background: %llu differ, "
		"%u distinct colours in the camera frame\n", CAM_W, CAM_H, CAM_X, CAM_Y,
		(unsigned long long)bad, distinct);
	CHECK(bad == 0, "%llu pixels differ", (unsigned long long)bad);
	/* vivid's default test pattern: colour bars and a text overlay. */
	CHECK(distinct >= 8, "the camera frame is not vivid's pattern (%u colours)", distinct);
	CHECK(c.errors == 0, "unexpected error callback");
	teardown(&c);
	printf("PASS\n");
	return 0;
}

/* Sets the capture node's frame interval to num/den s (VIDIOC_S_PARM) and returns the
 * one it had in *old. vivid keeps it in the device across opens; a webcam input starts
 * at 1/5 s. */
static void set_frame_interval(uint32_t num, uint32_t den, struct v4l2_fract *old)
{
	int vfd = open(video_path, O_RDWR);
	CHECK(vfd >= 0, "open %s: %s", video_path, strerror(errno));
	struct v4l2_streamparm p = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	CHECK(ioctl(vfd, VIDIOC_G_PARM, &p) == 0, "G_PARM: %s", strerror(errno));
	if (old)
		*old = p.parm.capture.timeperframe;
	p.parm.capture.timeperframe = (struct v4l2_fract){ .numerator = num, .denominator = den };
	CHECK(ioctl(vfd, VIDIOC_S_PARM, &p) == 0, "S_PARM %u/%u: %s", num, den, strerror(errno));
	printf("frame interval %u/%u s (asked %u/%u)\n", p.parm.capture.timeperframe.numerator,
		p.parm.capture.timeperframe.denominator, num, den);
	close(vfd);
}

static int case_cycle(const char *device)
{
	struct ctx c;
	setup(&c, device);
	n_buffers = 6; /* headroom for a slow (emulated, shared) display */
	/* 300 frames at vivid's 5 a second took 61 s on every profile: at 15 a second,
	 * 20 s (the CI time budget). What is checked does not depend on the rate. */
	struct v4l2_fract ival;
	set_frame_interval(1, 15, &ival);
	c.cam = make_camera(&c, DISPMAN_CAMERA_MEMORY_AUTO, DRM_FORMAT_XRGB8888, 0);
	CHECK(c.cam, "camera: %s", strerror(errno));
	CHECK(dispman_camera_start(c.cam) == 0, "start");
	run_frames(&c, 300, 600);
	struct dispman_camera_stats s = { .size = sizeof(s) };
	dispman_camera_get_stats(c.cam, &s);
	print_stats(c.cam);
	printf("dequeues per buffer:");
	for (uint32_t i = 0; i < s.n_buffers; i++)
		printf(" %u", c.index_count[i]);
	printf("\n");
	CHECK(c.errors == 0, "error callback: %s", strerror(-c.last_error));
	CHECK(s.bytes_copied == 0, "CPU copied %llu bytes", (unsigned long long)s.bytes_copied);
	CHECK(s.frames_captured >= 300, "captured %llu", (unsigned long long)s.frames_captured);
	/* none lost: every buffer keeps coming back */
	for (uint32_t i = 0; i < s.n_buffers; i++)
		CHECK(c.index_count[i] >= 300 / s.n_buffers / 4, "buffer %u came back only %u times",
			i, c.index_count[i]);
	/* The driver skips a frame only when it has no buffer queued: with
	 * buffers coming back after each flip that is rare; a leak of buffers
	 * would starve it for good. (Seen: 0 on an idle machine, 23 of 300
	 * with 4 buffers while three other guests ran.) */
	printf("driver sequence gaps: %llu (%s)\n", (unsigned long long)s.sequence_gaps,
		c.seq_ok ? "none" : "some");
	CHECK(s.sequence_gaps <= 300 / 10, "the driver skipped %llu frames",
		(unsigned long long)s.sequence_gaps);
	/* every captured frame is accounted for: shown, dropped, or still held */
	uint64_t held = s.frames_captured - s.frames_shown - s.frames_dropped;
	CHECK(s.frames_shown + s.frames_dropped <= s.frames_captured && held <= 3,
		"frames unaccounted for: captured %llu, shown %llu, dropped %llu",
		(unsigned long long)s.frames_captured, (unsigned long long)s.frames_shown,
		(unsigned long long)s.frames_dropped);
	CHECK(s.buffers_queued + held >= s.n_buffers - 1 && s.buffers_queued <= s.n_buffers,
		"%u of %u buffers queued with %llu held", s.buffers_queued, s.n_buffers,
		(unsigned long long)held);
	CHECK(s.frames_shown >= 100, "only %llu frames shown", (unsigned long long)s.frames_shown);
	teardown(&c);
	set_frame_interval(ival.numerator, ival.denominator, NULL);
	printf("PASS\n");
	return 0;
}

static int case_copy(const char *device)
{
	struct ctx c;
	setup(&c, device);
	/* vkms takes no YUV format: without ALLOW_COPY this must be refused. */
	struct dispman_camera *no = make_camera(&c, DISPMAN_CAMERA_MEMORY_AUTO, DRM_FORMAT_YUYV, 0);
	CHECK(!no && errno == ENOTSUP, "YUYV without ALLOW_COPY: %p errno %d", (void *)no, errno);
	c.cam = make_camera(&c, DISPMAN_CAMERA_MEMORY_AUTO, DRM_FORMAT_YUYV,
		DISPMAN_CAMERA_ALLOW_COPY);
	CHECK(c.cam, "camera: %s", strerror(errno));
	CHECK(dispman_camera_start(c.cam) == 0, "start");
	run_frames(&c, 10, 120);
	dispman_camera_stop(c.cam);
	settle(&c);
	struct dispman_camera_stats s = { .size = sizeof(s) };
	dispman_camera_get_stats(c.cam, &s);
	print_stats(c.cam);
	CHECK(!s.zero_copy, "the copy path says zero-copy");
	check_camera_placement(&c, DISPMAN_REASON_FORMAT);
	CHECK(s.bytes_copied >= (uint64_t)CAM_W * CAM_H * 4, "bytes_copied %llu",
		(unsigned long long)s.bytes_copied);
	struct dispman_buffer *frame = NULL;
	CHECK(dispman_layer_get_buffer(c.layer, &frame) == 0 && frame, "layer has no buffer");
	CHECK(dispman_buffer_get_format(frame) == DRM_FORMAT_XRGB8888, "converted format");
	uint32_t distinct;
	uint64_t bad = compare_screen(&c, frame, &distinct);
	dispman_buffer_unref(frame);
	printf("converted frame on screen: %llu pixels differ, %u colours\n",
		(unsigned long long)bad, distinct);
	CHECK(bad == 0 && distinct >= 8, "converted frame not on screen");
	teardown(&c);
	printf("PASS\n");
	return 0;
}

/*
 * A YUV camera (vivid in YUYV, converted on the CPU: no plane of vkms or virtio-gpu takes
 * YUV) under a UI layer that overlaps it and must be composed (its buffer is scaled 2x, which
 * vkms planes cannot do; virtio-gpu has no overlay at all): the top half of the UI is
 * transparent, the bottom half opaque. The screen, read back (writeback on vkms), shows the
 * camera's frame where the UI is transparent, the UI where it is opaque, the background
 * around: the camera does not vanish under the composition.
 */
static int case_yuv_under_ui(const char *device)
{
	struct ctx c;
	setup(&c, device);
	c.cam = make_camera(&c, DISPMAN_CAMERA_MEMORY_AUTO, DRM_FORMAT_YUYV,
		DISPMAN_CAMERA_ALLOW_COPY);
	CHECK(c.cam, "YUYV camera: %s", strerror(errno));
	const uint32_t uw = CAM_W / 2, uh = CAM_H / 2, ui = 0x2060a0;
	struct dispman_buffer *bar = dispman_buffer_create_dumb(c.dev, uw, uh, DRM_FORMAT_ARGB8888);
	CHECK(bar, "UI buffer: %s", strerror(errno));
	uint32_t *bp, bs;
	CHECK(dispman_buffer_map(bar, (void **)&bp, &bs) == 0, "map UI");
	for (uint32_t y = 0; y < uh; y++)
		for (uint32_t x = 0; x < uw; x++)
			bp[y * bs / 4 + x] = y < uh / 2 ? 0 : 0xff000000u | ui;
	struct dispman_layer *ui_layer = dispman_layer_create(c.out);
	CHECK(ui_layer, "UI layer");
	CHECK(dispman_layer_set_buffer(ui_layer, bar) == 0, "set UI buffer");
	/* over the whole camera rectangle, scaled 2x */
	dispman_layer_set_destination(ui_layer, CAM_X, CAM_Y, CAM_W, CAM_H);
	dispman_layer_set_z(ui_layer, 20);
	CHECK(dispman_camera_start(c.cam) == 0, "start");
	run_frames(&c, 10, 120);
	dispman_camera_stop(c.cam);
	settle(&c);
	print_stats(c.cam);
	struct dispman_placement pc, pu;
	CHECK(dispman_layer_get_placement(c.layer, &pc) == 0, "camera placement");
	CHECK(dispman_layer_get_placement(ui_layer, &pu) == 0, "UI placement");
	printf("camera layer: %s (%s); UI layer: %s (%s)\n",
		dispman_placement_state_name(pc.state), dispman_placement_reason_name(pc.reason),
		dispman_placement_state_name(pu.state), dispman_placement_reason_name(pu.reason));
	CHECK(pu.state == DISPMAN_PLACEMENT_COMPOSITED, "the UI layer was not composed");
	CHECK(pc.state != DISPMAN_PLACEMENT_NOT_SHOWN, "the camera layer is not shown");
	struct dispman_buffer *frame = NULL;
	CHECK(dispman_layer_get_buffer(c.layer, &frame) == 0 && frame, "layer has no buffer");
	CHECK(dispman_buffer_get_format(frame) == DRM_FORMAT_XRGB8888, "converted format");
	struct dispman_buffer *shot = NULL;
	enum dispman_capture_path used;
	int r = dispman_output_capture_with(c.out, DISPMAN_CAPTURE_AUTO, &shot, &used);
	CHECK(r == 0, "capture: %s", strerror(-r));
	printf("captured by %s\n", used == DISPMAN_CAPTURE_WRITEBACK ? "writeback" : "the CPU");
	uint32_t *sp, ss, *fp, fs;
	CHECK(dispman_buffer_map(shot, (void **)&sp, &ss) == 0, "map capture");
	CHECK(dispman_buffer_map(frame, (void **)&fp, &fs) == 0, "map camera frame");
	/* the rows where the scaled UI's bilinear filter blends its two halves are left out */
	const uint32_t edge = CAM_H / 2, margin = 4;
	uint64_t bad_cam = 0, bad_ui = 0, bad_bg = 0, cam_px = 0;
	uint32_t colours[16], n_colours = 0;
	for (uint32_t y = 0; y < c.mode->height; y++)
		for (uint32_t x = 0; x < c.mode->width; x++) {
			uint32_t got = sp[y * ss / 4 + x] & 0xffffff;
			bool in = x >= CAM_X && x < CAM_X + CAM_W && y >= CAM_Y && y < CAM_Y + CAM_H;
			if (!in) {
				bad_bg += got != (BG & 0xffffff);
				continue;
			}
			uint32_t cy = y - CAM_Y;
			if (cy + margin >= edge && cy < edge + margin)
				continue;
			if (cy < edge) {
				uint32_t want = fp[cy * fs / 4 + (x - CAM_X)] & 0xffffff;
				cam_px++;
				if (got != want && bad_cam++ < 3)
					printf("  camera pixel %u,%u: got %06x want %06x\n", x, y, got, want);
				bool known = false;
				for (uint32_t i = 0; i < n_colours; i++)
					known = known || colours[i] == want;
				if (!known && n_colours < 16)
					colours[n_colours++] = want;
			} else if (got != ui && bad_ui++ < 3) {
				printf("  UI pixel %u,%u: got %06x want %06x\n", x, y, got, ui);
			}
		}
	printf("under the transparent UI: %llu camera pixels, %llu differ, %u colours; "
		"opaque UI: %llu differ; background: %llu differ\n", (unsigned long long)cam_px,
		(unsigned long long)bad_cam, n_colours, (unsigned long long)bad_ui,
		(unsigned long long)bad_bg);
	CHECK(bad_cam == 0 && n_colours >= 4, "the camera is not visible under the UI");
	CHECK(bad_ui == 0, "the UI is not on top");
	CHECK(bad_bg == 0, "the background is wrong");
	/* where the host can screendump the device (virtio-gpu: the capture above is the
	 * CPU's), the screen itself must equal that capture */
	if (screendump_available(dispman_device_get_path(c.dev))) {
		const char *dir = getenv("DISPMAN_VM_OUT");
		char path[512];
		snprintf(path, sizeof(path), "%s/camera-yuv-under-ui.ppm", dir ? dir : "/tmp");
		CHECK(screendump_take(0, path) == 0, "screendump");
		struct rgb_image img;
		CHECK(ppm_read(path, &img) == 0, "read %s", path);
		uint32_t fx = 0, fy = 0;
		size_t diff = rgb_image_diff_xrgb(&img, sp, ss, c.mode->width, c.mode->height,
			&fx, &fy);
		rgb_image_free(&img);
		printf("QEMU's screendump of head 0 against the capture: %zu pixels differ\n", diff);
		CHECK(diff == 0, "the screen differs from the capture (first at %u,%u)", fx, fy);
	}
	dispman_buffer_unref(shot);
	dispman_buffer_unref(frame);
	dispman_layer_destroy(ui_layer);
	dispman_buffer_unref(bar);
	teardown(&c);
	printf("PASS\n");
	return 0;
}

static int case_fault(const char *device, const char *what)
{
	struct ctx c;
	setup(&c, device);
	c.cam = make_camera(&c, DISPMAN_CAMERA_MEMORY_AUTO, DRM_FORMAT_XRGB8888, 0);
	CHECK(c.cam, "camera: %s", strerror(errno));
	CHECK(dispman_camera_start(c.cam) == 0, "start");
	run_frames(&c, 5, 120);
	struct dispman_camera_stats before = { .size = sizeof(before) };
	dispman_camera_get_stats(c.cam, &before);

	if (!strcmp(what, "buf-error")) {
		for (int i = 0; i < 3; i++) {
			CHECK(dispman_camera_set_control(c.cam, "inject_v4l2_buf_flag_error", 1) == 0,
				"inject");
			run_frames(&c, c.frames + 2, 60);
		}
		run_frames(&c, c.frames + 5, 60);
		struct dispman_camera_stats s = { .size = sizeof(s) };
		dispman_camera_get_stats(c.cam, &s);
		print_stats(c.cam);
		CHECK(s.frames_error >= 1, "no broken frame counted");
		CHECK(c.errors == 0, "a broken frame stopped the stream");
		CHECK(s.frames_captured > before.frames_captured, "the stream stopped");
	} else {
		const char *ctl = !strcmp(what, "disconnect") ? "disconnect" :
			"inject_fatal_streaming_error";
		/* the frame on screen before the fault */
		CHECK(dispman_camera_set_control(c.cam, ctl, 1) == 0, "inject %s", ctl);
		struct timespec t0, t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while (!c.errors) {
			CHECK(dispman_device_dispatch(c.dev, 200) >= 0, "dispatch");
			clock_gettime(CLOCK_MONOTONIC, &t);
			CHECK(t.tv_sec - t0.tv_sec < 30, "no error callback after %s", ctl);
		}
		printf("error callback after %s: %s\n", ctl, strerror(-c.last_error));
		print_stats(c.cam);
		/* the display keeps running: flips still complete, the last frame stays */
		struct dispman_stats ds0 = { .size = sizeof(ds0) }, ds1 = { .size = sizeof(ds1) };
		dispman_device_get_stats(c.dev, &ds0);
		for (int i = 0; i < 5; i++) {
			CHECK(dispman_device_commit(c.dev) == 0, "commit after the fault");
			settle(&c);
		}
		dispman_device_get_stats(c.dev, &ds1);
		CHECK(ds1.flips > ds0.flips, "the display stopped flipping");
		struct dispman_buffer *frame = NULL;
		CHECK(dispman_layer_get_buffer(c.layer, &frame) == 0 && frame,
			"the layer lost its last frame");
		uint32_t distinct;
		uint64_t bad = compare_screen(&c, frame, &distinct);
		dispman_buffer_unref(frame);
		printf("last frame still on screen: %llu pixels differ\n", (unsigned long long)bad);
		CHECK(bad == 0 && distinct >= 8, "the last frame is not on screen");
		/* starting again must fail cleanly, not crash */
		CHECK(dispman_camera_start(c.cam) < 0, "restart after a fatal error succeeded");
	}
	teardown(&c);
	printf("PASS\n");
	return 0;
}

/* Errors at stream set-up: the driver's injected failure reaches the caller. */
static int case_setup_error(const char *device, const char *what)
{
	struct ctx c;
	setup(&c, device);
	if (!strcmp(what, "streamon-error")) {
		c.cam = make_camera(&c, DISPMAN_CAMERA_MEMORY_AUTO, DRM_FORMAT_XRGB8888, 0);
		CHECK(c.cam, "camera: %s", strerror(errno));
		CHECK(dispman_camera_set_control(c.cam, "inject_vidioc_streamon_error", 1) == 0,
			"inject");
		int r = dispman_camera_start(c.cam);
		printf("start with an injected STREAMON error: %s\n", strerror(-r));
		CHECK(r < 0, "start succeeded");
		/* the next start works: the buffers came back */
		CHECK(dispman_camera_start(c.cam) == 0, "second start");
		run_frames(&c, 5, 120);
	} else {
		/* pinned: the automatic mode would take the next path (probed before the
		 * error is armed: the probe itself calls REQBUFS) */
		enum dispman_camera_memory path = native_path(&c);
		/* vivid's REQBUFS error is armed through a control of an open node */
		int fd = open(video_path, O_RDWR);
		CHECK(fd >= 0, "open %s", video_path);
		struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
		uint32_t id = 0;
		while (!id && ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0) {
			if (!strcmp((const char *)q.name, "Inject VIDIOC_REQBUFS Error"))
				id = q.id;
			q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
		}
		CHECK(id, "vivid has no REQBUFS error control");
		struct v4l2_control ctl = { .id = id, .value = 1 };
		CHECK(ioctl(fd, VIDIOC_S_CTRL, &ctl) == 0, "arm REQBUFS error");
		close(fd);
		c.cam = make_camera(&c, path, DRM_FORMAT_XRGB8888, 0);
		printf("create with an injected REQBUFS error: %s\n", c.cam ? "ok" : strerror(errno));
		CHECK(!c.cam, "create succeeded");
		c.cam = make_camera(&c, path, DRM_FORMAT_XRGB8888, 0);
		CHECK(c.cam, "second create: %s", strerror(errno));
	}
	teardown(&c);
	printf("PASS\n");
	return 0;
}

static int case_formats(const char *device)
{
	struct ctx c;
	setup(&c, device);
	struct dispman_camera_format f[512];
	int n = dispman_camera_query_formats(c.dev, video_path, f, 512);
	CHECK(n > 0, "query: %s", strerror(-n));
	int xr24 = -1, yuyv = -1, scanout = 0;
	for (int i = 0; i < n; i++) {
		scanout += f[i].scanout;
		if (f[i].v4l2_fourcc == V4L2_PIX_FMT_XBGR32 && xr24 < 0)
			xr24 = i;
		if (f[i].v4l2_fourcc == V4L2_PIX_FMT_YUYV && yuyv < 0)
			yuyv = i;
	}
	printf("%d format/size entries, %d a plane scans out\n", n, scanout);
	for (int i = 0; i < n && i < 6; i++)
		printf("  %.4s -> %.4s %ux%u%s%s\n", (const char *)&f[i].v4l2_fourcc,
			f[i].drm_fourcc ? (const char *)&f[i].drm_fourcc : "none", f[i].width,
			f[i].height, f[i].scanout ? " scanout" : "",
			f[i].convertible ? " convertible" : "");
	CHECK(xr24 >= 0 && f[xr24].drm_fourcc == DRM_FORMAT_XRGB8888 && f[xr24].scanout,
		"vivid's XBGR32 is not listed as scanout XRGB8888");
	CHECK(yuyv >= 0 && f[yuyv].drm_fourcc == DRM_FORMAT_YUYV && !f[yuyv].scanout &&
		f[yuyv].convertible, "vivid's YUYV: vkms cannot scan it out, the CPU can convert");
	CHECK(f[xr24].width > 0 && f[xr24].height > 0, "no size");
	CHECK(dispman_camera_query_formats(c.dev, "/dev/null", f, 512) == -ENOTTY, "/dev/null");
	teardown(&c);
	printf("PASS\n");
	return 0;
}

static int case_bad_config(const char *device)
{
	struct ctx c;
	setup(&c, device);
	struct dispman_camera_config cfg = { .size = sizeof(cfg), .path = video_path };
	errno = 0;
	CHECK(!dispman_camera_create(NULL, &cfg) && errno == EINVAL, "NULL layer");
	CHECK(!dispman_camera_create(c.layer, NULL) && errno == EINVAL, "NULL config");
	cfg.n_buffers = 1;
	CHECK(!dispman_camera_create(c.layer, &cfg) && errno == EINVAL, "1 buffer");
	cfg.n_buffers = 0;
	cfg.path = "/dev/does-not-exist";
	CHECK(!dispman_camera_create(c.layer, &cfg) && errno == ENOENT, "missing node");
	cfg.path = "/dev/null";
	CHECK(!dispman_camera_create(c.layer, &cfg) && errno == ENOTTY, "not V4L2: %s",
		strerror(errno));
	cfg.path = video_path;
	cfg.fourcc = DRM_FORMAT_ARGB2101010;
	CHECK(!dispman_camera_create(c.layer, &cfg) && errno == ENOTSUP, "unknown format");
	cfg.fourcc = 0;
	cfg.memory = (enum dispman_camera_memory)7;
	CHECK(!dispman_camera_create(c.layer, &cfg) && errno == EINVAL, "bad memory");
	teardown(&c);
	printf("PASS\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *device = check_device(), *name = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--device") && i + 1 < argc)
			device = argv[++i];
		else if (!strcmp(argv[i], "--video") && i + 1 < argc)
			video_path = argv[++i];
		else
			name = argv[i];
	}
	if (!name)
		FAIL("usage: camera CASE [--device PATH] [--video PATH]");
	if (!strcmp(name, "pattern-export"))
		return case_pattern(device, DISPMAN_CAMERA_MEMORY_EXPORT);
	if (!strcmp(name, "pattern-import"))
		return case_pattern(device, DISPMAN_CAMERA_MEMORY_IMPORT);
	if (!strcmp(name, "auto-path"))
		return case_auto_path(device);
	if (!strcmp(name, "copy-no-share"))
		return case_copy_no_share(device);
	if (!strcmp(name, "copy-forced"))
		return case_copy_forced(device);
	if (!strcmp(name, "cycle-300"))
		return case_cycle(device);
	if (!strcmp(name, "copy-fallback"))
		return case_copy(device);
	if (!strcmp(name, "yuv-under-ui"))
		return case_yuv_under_ui(device);
	if (!strcmp(name, "buf-error") || !strcmp(name, "disconnect") ||
	    !strcmp(name, "fatal-error"))
		return case_fault(device, name);
	if (!strcmp(name, "streamon-error") || !strcmp(name, "reqbufs-error"))
		return case_setup_error(device, name);
	if (!strcmp(name, "formats"))
		return case_formats(device);
	if (!strcmp(name, "bad-config"))
		return case_bad_config(device);
	FAIL("unknown case %s", name);
}
