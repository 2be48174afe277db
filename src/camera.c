/*
 * dispman_camera: V4L2 frames shown on a layer without a CPU copy.
 *
 * Buffer life cycle (zero-copy paths). Each V4L2 buffer has one display
 * buffer (struct dispman_buffer) with its framebuffer, made once:
 *   DRIVER  -- DQBUF -->  LAYER (the layer's buffer; maybe not committed yet)
 *   LAYER   -- a newer frame replaces it --> back to DRIVER at once if the
 *              display never got it (dropped), else it waits for the release
 *              callback, which the core fires after the flip that replaced it.
 * So a buffer is re-queued to the driver only when neither the layer nor any
 * committed or on-screen frame of the output refers to it.
 *
 * Copy path (ALLOW_COPY): V4L2 MMAP buffers are mapped, each frame is copied
 * into one of three dumb buffers and the V4L2 buffer goes back at once. When
 * no plane takes the camera's format, frames are converted to XRGB8888
 * (placement reason FORMAT); when a plane takes it but the display and the
 * camera share no memory (neither zero-copy path worked: virtio-gpu cannot
 * import foreign dma-bufs, say, and the camera took no display buffer), rows
 * are copied as they are (reason IMPORT).
 *
 * Path order: the camera's buffers exported to the display, then display
 * buffers imported by the camera, then (ALLOW_COPY) the CPU copy. A path that
 * fails while another remains is logged at info level, not as an error.
 */
#include <drm_fourcc.h>
#include <errno.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

#include <dispman/camera.h>

#include "clock.h"
#include "log.h"
#include "event.h"
#include "device.h"
#include "dispatch.h"
#include "output.h"
#include "buffer.h"
#include "layer.h"
#include "camera-convert.h"
#include "camera-private.h"
#include "sized.h"
#include "camera-graph.h"

#define MAX_ERRORS_IN_A_ROW 30

static int queue_buf(struct cam_buf *b)
{
	struct dispman_camera *cam = b->cam;
	if (b->state == CAM_BUF_DRIVER) {
		dispman_log(DISPMAN_LOG_ERROR, "camera %s: buffer %u is already queued",
			cam->v4l2.path, b->index);
		return -EINVAL;
	}
	if (cam->failed || !cam->v4l2.streaming) {
		b->state = CAM_BUF_CPU;
		return 0;
	}
	int r = v4l2_queue(&cam->v4l2, b->index, b->fds);
	b->state = r == 0 ? CAM_BUF_DRIVER : CAM_BUF_CPU;
	b->committed = b->shown = false;
	return r;
}

static void camera_fail(struct dispman_camera *cam, int err);

/* Give a frame back to the driver if neither the layer nor the screen has it (released:
 * the output's release callback said the screen no longer does). */
static void try_requeue(struct cam_buf *b, bool released)
{
	struct dispman_camera *cam = b->cam;
	if (b->state != CAM_BUF_LAYER || b == cam->current)
		return;
	if (!released && output_holds_buffer(layer_output(cam->layer), b->buf)) {
		b->committed = true;
		return; /* the release callback comes back here */
	}
	if (!b->shown && !b->committed)
		cam->stats.frames_dropped++;
	int r = queue_buf(b);
	if (r < 0)
		camera_fail(cam, r);
}

static void on_release(struct dispman_buffer *buf, void *data)
{
	struct cam_buf *b = data;
	(void)buf;
	b->committed = true;
	try_requeue(b, true);
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)timespec_ns(t);
}

/* A frame reached the screen: through the composition buffer when the layer had no plane
 * in the commit that showed it (the CPU drew its destination area). */
static void count_composed(struct dispman_camera *cam)
{
	struct dispman_placement p;
	if (!cam->layer || dispman_layer_get_placement(cam->layer, &p) < 0 ||
	    p.state != DISPMAN_PLACEMENT_COMPOSITED)
		return;
	int32_t x, y;
	uint32_t w, h;
	layer_get_dst(cam->layer, &x, &y, &w, &h);
	cam->stats.frames_composed++;
	cam->stats.bytes_composed += (uint64_t)w * h * 4;
}

static void on_shown(struct dispman_buffer *buf, const struct timespec *ts, void *data)
{
	struct cam_buf *b = data;
	struct dispman_camera_stats *s = &b->cam->stats;
	(void)buf;
	if (b->shown)
		return;
	b->shown = b->committed = true;
	s->frames_shown++;
	count_composed(b->cam);
	uint64_t flip = ns_of(ts);
	/* The frame's start: the driver's capture time when it is plausible (before the
	 * commit that queued the frame: vivid's are nominal, start + sequence * period), else
	 * that commit's time. No commit of this output came since: one waits for its flip. */
	uint64_t commit = (uint64_t)output_commit_time(layer_output(b->cam->layer));
	uint64_t t0 = b->ts_ns && b->ts_ns <= commit ? b->ts_ns : commit;
	if (flip < t0) {
		/* Some drivers (vkms) stamp the flip with the vblank before the one
		 * that completed it: then that vblank is one refresh period later
		 * (without a known period, the event's arrival). */
		uint64_t period = output_period_ns(layer_output(b->cam->layer));
		if (period) {
			flip += period;
		} else {
			flip = (uint64_t)clock_ns();
		}
	}
	if (t0 && flip >= t0) {
		uint64_t lat = flip - t0;
		s->latency_samples++;
		s->latency_ns_last = lat;
		s->latency_ns_sum += lat;
		if (lat > s->latency_ns_max)
			s->latency_ns_max = lat;
	}
}

static void camera_fail(struct dispman_camera *cam, int err)
{
	if (cam->failed)
		return;
	cam->failed = true;
	dispman_log(DISPMAN_LOG_ERROR, "camera %s: stream failed: %s; keeping the last frame",
		cam->v4l2.path, strerror(-err));
	if (cam->source) {
		event_source_remove(cam->source);
		cam->source = NULL;
	}
	if (cam->v4l2.streaming)
		v4l2_stream_off(&cam->v4l2);
	for (uint32_t i = 0; i < cam->n_bufs; i++)
		if (cam->bufs[i].state == CAM_BUF_DRIVER)
			cam->bufs[i].state = CAM_BUF_CPU;
	if (cam->error_cb) {
		cam->in_callback = true;
		cam->error_cb(cam, err, cam->error_data);
		cam->in_callback = false;
	}
}

/* Copy or convert one frame into the dumb buffer dst. Returns bytes written. */
static uint64_t convert_frame(struct dispman_camera *cam, struct cam_buf *b,
	struct dispman_buffer *dst)
{
	const struct v4l2_stream_format *f = &cam->v4l2.fmt;
	uint8_t *out;
	uint32_t ostride;
	if (dispman_buffer_map(dst, (void **)&out, &ostride) < 0)
		return 0;
	const uint8_t *p0 = (const uint8_t *)b->map[0] + f->planes[0].offset;
	if (cam->copy_same) {
		const struct format_info *fi = format_info_find(f->drm_fourcc);
		uint32_t row = fi ? f->width * fi->cpp[0] / fi->hsub : 0;
		return camera_copy_rows(p0, f->planes[0].pitch, row, f->height, out, ostride);
	}
	const uint8_t *p1 = f->n_mem > 1 ? (const uint8_t *)b->map[1] :
		(const uint8_t *)b->map[0] + f->planes[1].offset;
	return camera_convert_xrgb(f, p0, p1, out, ostride);
}

static void show_copy(struct dispman_camera *cam, struct cam_buf *b)
{
	struct dispman_buffer *dst = NULL;
	for (int i = 0; i < COPY_TARGETS && !dst; i++)
		if (cam->targets[i] != layer_buffer(cam->layer) &&
		    !output_holds_buffer(layer_output(cam->layer), cam->targets[i]))
			dst = cam->targets[i];
	if (!dst) {
		cam->stats.frames_dropped++;
	} else {
		cam->stats.bytes_copied += convert_frame(cam, b, dst);
		cam->stats.frames_shown++; /* converted frames are shown by the next flip */
		count_composed(cam);
		dispman_layer_set_buffer(cam->layer, dst);
	}
	int r = queue_buf(b);
	if (r < 0)
		camera_fail(cam, r);
}

/*
 * The camera's fd is readable: one frame is ready. One DQBUF per call, without a second
 * one to learn that the queue is empty: epoll is level-triggered, so a further ready
 * frame calls this again at once, and replaces this one on the layer if no commit took
 * it yet (counted as dropped), so that the newest frame is shown.
 */
static int handle_frames(int fd, uint32_t events, void *data)
{
	struct dispman_camera *cam = data;
	(void)fd;
	(void)events; /* vb2 reports EPOLLERR for an empty queue too: DQBUF tells */

	uint32_t index, seq;
	bool error;
	uint64_t ts;
	int r = v4l2_dequeue(&cam->v4l2, &index, &seq, &error, &ts);
	if (r == -EAGAIN)
		return 0;
	if (r < 0) {
		camera_fail(cam, r);
		return 0;
	}
	if (index >= cam->n_bufs) {
		camera_fail(cam, -EIO);
		return 0;
	}
	struct cam_buf *b = &cam->bufs[index];
	if (b->state != CAM_BUF_DRIVER) {
		dispman_log(DISPMAN_LOG_ERROR, "camera %s: the driver returned buffer %u, "
			"which was not queued", cam->v4l2.path, index);
		camera_fail(cam, -EIO);
		return 0;
	}
	b->state = CAM_BUF_CPU;
	if (cam->have_seq && seq > cam->last_seq + 1)
		cam->stats.sequence_gaps += seq - cam->last_seq - 1;
	cam->have_seq = true;
	cam->last_seq = seq;
	if (cam->frame_cb)
		cam->frame_cb(cam, index, seq, error, cam->frame_data);
	if (error) {
		cam->stats.frames_error++;
		if (++cam->errors_in_a_row >= MAX_ERRORS_IN_A_ROW) {
			camera_fail(cam, -EIO);
			return 0;
		}
		if ((r = queue_buf(b)) < 0)
			camera_fail(cam, r);
		return 0;
	}
	cam->errors_in_a_row = 0;
	cam->stats.frames_captured++;
	b->ts_ns = 0;
	if (cam->copy) {
		show_copy(cam, b);
	} else {
		struct cam_buf *prev = cam->current;
		cam->current = b;
		b->state = CAM_BUF_LAYER;
		dispman_layer_set_buffer(cam->layer, b->buf);
		if (prev)
			try_requeue(prev, false);
	}
	if (!(cam->flags & DISPMAN_CAMERA_MANUAL_COMMIT)) {
		/* the layer's output only (another output's frame is its own business, and
		 * one output's new buffers are its FB_IDs alone); from this handler:
		 * queued, made after the handlers (device_run_queued()) */
		r = dispman_output_commit(layer_output(cam->layer));
		if (r < 0 && r != -EACCES && r != -EPERM)
			dispman_log(DISPMAN_LOG_WARNING, "camera %s: commit failed: %s",
				cam->v4l2.path, strerror(-r));
	}
	/* the driver's capture time; on_shown() checks it against the commit's (no clock read
	 * here) */
	b->ts_ns = ts;
	return 0;
}

static int choose_format(struct dispman_camera *cam, const struct dispman_camera_config *cfg,
	uint32_t *v4l2_fourcc)
{
	uint32_t fmts[128];
	int n = v4l2_list_formats(&cam->v4l2, fmts, 128);
	if (n < 0)
		return n;
	if (cfg->fourcc) {
		uint32_t want = 0;
		for (int i = 0; i < n && !want; i++)
			if (v4l2_to_drm_fourcc(fmts[i]) == cfg->fourcc)
				want = fmts[i];
		if (!want) {
			dispman_log(DISPMAN_LOG_ERROR, "camera %s: the driver offers no format "
				"matching DRM %.4s", cam->v4l2.path, (const char *)&cfg->fourcc);
			return -ENOTSUP;
		}
		if (!camera_display_takes(cam->dev, cfg->fourcc)) {
			if (!(cfg->flags & DISPMAN_CAMERA_ALLOW_COPY) ||
			    !camera_convertible(want)) {
				dispman_log(DISPMAN_LOG_ERROR, "camera %s: no plane takes %.4s "
					"(and no CPU conversion allowed or possible)",
					cam->v4l2.path, (const char *)&cfg->fourcc);
				return -ENOTSUP;
			}
			cam->copy = true;
		}
		*v4l2_fourcc = want;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		uint32_t drm = v4l2_to_drm_fourcc(fmts[i]);
		/* single memory plane formats only, for now */
		if (drm && format_info_find(drm) && camera_display_takes(cam->dev, drm)) {
			*v4l2_fourcc = fmts[i];
			return 0;
		}
	}
	if (cfg->flags & DISPMAN_CAMERA_ALLOW_COPY) {
		for (int i = 0; i < n; i++)
			if (camera_convertible(fmts[i])) {
				*v4l2_fourcc = fmts[i];
				cam->copy = true;
				return 0;
			}
	}
	dispman_log(DISPMAN_LOG_ERROR, "camera %s: none of its %d formats can be scanned out "
		"by a plane", cam->v4l2.path, n);
	return -ENOTSUP;
}

int dispman_camera_query_formats(struct dispman_device *dev, const char *path,
	struct dispman_camera_format *formats, size_t max)
{
	struct v4l2_dev v;
	uint32_t fmts[128], sizes[32][2];
	size_t n = 0;

	if (refuse_null(dev, "dev") || refuse_null(path, "path") ||
	    (max && refuse_null(formats, "formats")))
		return -EINVAL;
	int r = v4l2_open(&v, path);
	if (r < 0)
		return r;
	int nf = v4l2_list_formats(&v, fmts, 128);
	for (int i = 0; i < nf && n < max; i++) {
		int ns = v4l2_list_sizes(&v, fmts[i], sizes, 32);
		uint32_t drm = v4l2_to_drm_fourcc(fmts[i]);
		for (int k = 0; k < ns && n < max; k++) {
			formats[n] = (struct dispman_camera_format){
				.v4l2_fourcc = fmts[i], .drm_fourcc = drm,
				.width = sizes[k][0], .height = sizes[k][1],
				.scanout = drm && camera_display_takes(dev, drm),
				.convertible = camera_convertible(fmts[i]),
			};
			n++;
		}
	}
	v4l2_close(&v);
	return nf < 0 ? nf : (int)n;
}

/*
 * The camera's layer or device is being destroyed before the camera: stop streaming, drop
 * every buffer (the display keeps its own references to those it still holds) and forget
 * the layer. The camera stays until dispman_camera_destroy(), inert: start returns -ENODEV.
 */
static void detach(struct dispman_camera *cam, const char *what)
{
	dispman_log(DISPMAN_LOG_DEBUG, "camera %s: its %s was destroyed first; the camera is "
		"inert until dispman_camera_destroy()", cam->v4l2.path, what);
	dispman_camera_stop(cam);
	camera_free_buffers(cam);
	cam->current = NULL;
	cam->layer = NULL;
	camera_graph_removed(cam); /* cam->dev is still valid here */
}

static void layer_destroyed(struct device_listener *l, struct dispman_layer *layer)
{
	struct dispman_camera *cam = container_of(l, struct dispman_camera, listener);
	if (cam->layer == layer)
		detach(cam, "layer");
}

/* Called first thing in dispman_device_destroy(), the listener already unlinked. */
static void device_destroyed(struct device_listener *l)
{
	struct dispman_camera *cam = container_of(l, struct dispman_camera, listener);
	if (cam->layer)
		detach(cam, "device");
	cam->dev = NULL;
}

static void hook_buffer(struct cam_buf *b)
{
	dispman_buffer_set_release_callback(b->buf, on_release, b);
	buffer_set_shown_callback(b->buf, on_shown, b);
}

/* The config's values, refused with a log line each; 0 or -EINVAL. */
static int check_config(const struct dispman_layer *layer,
	const struct dispman_camera_config *cfg)
{
	if (!layer || !cfg->path) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: layer, config and config->path are "
			"required");
		return -EINVAL;
	}
	if (cfg->n_buffers == 1 || cfg->n_buffers > V4L2_MAX_BUFFERS) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: n_buffers %u is not in 2..%d",
			cfg->n_buffers, V4L2_MAX_BUFFERS);
		return -EINVAL;
	}
	if ((unsigned)cfg->memory > DISPMAN_CAMERA_MEMORY_COPY) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: unknown memory path %d", (int)cfg->memory);
		return -EINVAL;
	}
	if (cfg->flags & ~(uint32_t)(DISPMAN_CAMERA_ALLOW_COPY | DISPMAN_CAMERA_MANUAL_COMMIT)) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: unknown flags 0x%x", cfg->flags);
		return -EINVAL;
	}
	if (cfg->memory == DISPMAN_CAMERA_MEMORY_COPY &&
	    !(cfg->flags & DISPMAN_CAMERA_ALLOW_COPY)) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: DISPMAN_CAMERA_MEMORY_COPY needs "
			"DISPMAN_CAMERA_ALLOW_COPY");
		return -EINVAL;
	}
	return 0;
}

/* A camera of layer, no node opened yet, every buffer with the CPU. */
static struct dispman_camera *camera_alloc(struct dispman_layer *layer, uint32_t flags)
{
	struct dispman_camera *cam = calloc(1, sizeof(*cam));
	if (!cam)
		return NULL;
	cam->layer = layer;
	cam->dev = output_device(layer_output(layer));
	cam->flags = flags;
	cam->v4l2.fd = -1;
	for (uint32_t i = 0; i < V4L2_MAX_BUFFERS; i++) {
		cam->bufs[i].cam = cam;
		cam->bufs[i].index = i;
		cam->bufs[i].state = CAM_BUF_CPU;
		for (int p = 0; p < V4L2_MAX_PLANES; p++)
			cam->bufs[i].fds[p] = -1;
	}
	return cam;
}

/* Format, size and buffers of the opened node, as cfg asks; 0 or a negative errno. */
static int camera_configure(struct dispman_camera *cam,
	const struct dispman_camera_config *cfg)
{
	uint32_t v4l2_fourcc = 0;
	int r = choose_format(cam, cfg, &v4l2_fourcc);
	if (r < 0)
		return r;
	if (cam->copy) {
		cam->copy_reason = DISPMAN_REASON_FORMAT;
	} else if (cfg->memory == DISPMAN_CAMERA_MEMORY_COPY) {
		cam->copy = true;
		cam->copy_reason = DISPMAN_REASON_IMPORT; /* asked for: as if nothing shared */
	}
	uint32_t w = cfg->width, h = cfg->height;
	if (!w || !h) {
		if ((r = v4l2_get_format(&cam->v4l2)) < 0)
			return r;
		w = w ? w : cam->v4l2.fmt.width;
		h = h ? h : cam->v4l2.fmt.height;
	}
	if ((r = v4l2_set_format(&cam->v4l2, v4l2_fourcc, w, h)) < 0)
		return r;
	if ((r = camera_setup_paths(cam, cfg, cfg->n_buffers ? cfg->n_buffers : 4)) < 0)
		return r;
	for (uint32_t i = 0; i < cam->n_bufs; i++)
		if (cam->bufs[i].buf)
			hook_buffer(&cam->bufs[i]);
	return 0;
}

struct dispman_camera *dispman_camera_create(struct dispman_layer *layer,
	const struct dispman_camera_config *user_cfg)
{
	if (refuse_null(layer, "layer") || refuse_null(user_cfg, "config"))
		return NULL;
	struct dispman_camera_config config = { 0 };
	/* a struct that grows: take what the caller's size covers, the rest is 0 */
	int r = sized_copy_in(&config, sizeof(config), user_cfg, "dispman_camera_config");
	if (r == 0)
		r = check_config(layer, &config);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	struct dispman_camera *cam = camera_alloc(layer, config.flags);
	if (!cam) {
		errno = ENOMEM;
		return NULL;
	}
	if ((r = v4l2_open(&cam->v4l2, config.path)) < 0 ||
	    (r = camera_configure(cam, &config)) < 0) {
		camera_free_buffers(cam);
		v4l2_close(&cam->v4l2);
		free(cam);
		errno = -r;
		return NULL;
	}
	cam->listener.destroyed = device_destroyed;
	cam->listener.layer_destroyed = layer_destroyed;
	device_add_listener(cam->dev, &cam->listener);
	cam->stats.n_buffers = cam->n_bufs;
	cam->stats.zero_copy = !cam->copy;
	layer_set_copy_reason(layer, cam->copy ? cam->copy_reason : DISPMAN_REASON_NONE);
	camera_graph_added(cam); /* the pipeline graph lists it */
	dispman_log(DISPMAN_LOG_INFO, "camera %s (%s): %.4s %ux%u, %u buffers, %s%s", config.path,
		cam->v4l2.card, (const char *)&cam->v4l2.fmt.v4l2_fourcc, cam->v4l2.fmt.width,
		cam->v4l2.fmt.height, cam->n_bufs, cam->copy ? "" : "zero-copy, ",
		cam->copy && !cam->copy_same ? "CPU conversion to XRGB8888" :
		camera_memory_name(cam->stats.memory));
	return cam;
}

int dispman_camera_start(struct dispman_camera *cam)
{
	int r;
	if (refuse_null(cam, "cam"))
		return -EINVAL;
	if (!cam->layer) {
		dispman_log(DISPMAN_LOG_ERROR, "camera %s: its layer or device was destroyed",
			cam->v4l2.path);
		return -ENODEV;
	}
	if (cam->failed) {
		dispman_log(DISPMAN_LOG_ERROR, "camera %s: the stream failed; create a new camera",
			cam->v4l2.path);
		return -EIO;
	}
	if (cam->v4l2.streaming)
		return 0;
	cam->v4l2.streaming = true; /* so that queue_buf queues */
	for (uint32_t i = 0; i < cam->n_bufs; i++) {
		struct cam_buf *b = &cam->bufs[i];
		if (b->state == CAM_BUF_CPU && (r = queue_buf(b)) < 0) {
			cam->v4l2.streaming = false;
			goto fail;
		}
	}
	cam->v4l2.streaming = false;
	/* A failed STREAMON leaves the queued buffers queued (vb2): a later
	 * start only has to retry STREAMON. */
	if ((r = v4l2_stream_on(&cam->v4l2)) < 0)
		return r;
	cam->source = event_source_add(cam->dev, cam->v4l2.fd, EPOLLIN, handle_frames, cam);
	if (!cam->source) {
		r = -errno;
		v4l2_stream_off(&cam->v4l2);
		goto fail;
	}
	return 0;
fail:
	/* STREAMOFF took the buffers back from the driver. */
	for (uint32_t i = 0; i < cam->n_bufs; i++)
		if (cam->bufs[i].state == CAM_BUF_DRIVER)
			cam->bufs[i].state = CAM_BUF_CPU;
	return r;
}

int dispman_camera_stop(struct dispman_camera *cam)
{
	int r = 0;
	if (refuse_null(cam, "cam"))
		return -EINVAL;
	if (cam->source) {
		event_source_remove(cam->source);
		cam->source = NULL;
	}
	if (cam->v4l2.streaming)
		r = v4l2_stream_off(&cam->v4l2);
	for (uint32_t i = 0; i < cam->n_bufs; i++)
		if (cam->bufs[i].state == CAM_BUF_DRIVER)
			cam->bufs[i].state = CAM_BUF_CPU;
	return r;
}

static bool flip_pending(struct dispman_device *dev)
{
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		if (output_flip_pending(device_output(dev, i)))
			return true;
	return false;
}

void dispman_camera_destroy(struct dispman_camera *cam)
{
	if (!cam)
		return;
	if (cam->in_callback) {
		dispman_log(DISPMAN_LOG_ERROR, "camera %s: destroy called from the error callback; "
			"destroy it after dispatch returned", cam->v4l2.path);
		return;
	}
	if (!cam->layer) {
		/* detached: buffers gone, stream stopped, out of the graph (detach()) */
		if (cam->dev)
			device_remove_listener(&cam->listener);
		v4l2_close(&cam->v4l2);
		free(cam);
		return;
	}
	camera_graph_removed(cam);
	dispman_camera_stop(cam);
	/* Take the frame off the layer, then wait until the display let go of
	 * every camera buffer: the next flip (at most a few frames) does it. Only while
	 * a flip is pending: without one nothing would change (a commit asked for from a
	 * callback is queued, and made after the callbacks, by dispatch). */
	bool ours = false;
	for (uint32_t i = 0; i < cam->n_bufs; i++)
		ours = ours || (cam->bufs[i].buf && layer_buffer(cam->layer) == cam->bufs[i].buf);
	for (int i = 0; i < COPY_TARGETS; i++)
		ours = ours || (cam->targets[i] && layer_buffer(cam->layer) == cam->targets[i]);
	if (ours) {
		dispman_layer_set_buffer(cam->layer, NULL);
		dispman_output_commit(layer_output(cam->layer));
	}
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		bool busy = false;
		if (!cam->layer)
			break; /* a frame callback destroyed the layer: detach() dropped all */
		for (uint32_t i = 0; i < cam->n_bufs; i++)
			busy = busy || (cam->bufs[i].buf &&
				output_holds_buffer(layer_output(cam->layer), cam->bufs[i].buf));
		for (int i = 0; i < COPY_TARGETS; i++)
			busy = busy || (cam->targets[i] &&
				output_holds_buffer(layer_output(cam->layer), cam->targets[i]));
		if (!busy)
			break;
		if (!flip_pending(cam->dev)) {
			dispman_log(DISPMAN_LOG_DEBUG, "camera %s: the display still holds a frame "
				"and no flip is pending; it keeps its own reference", cam->v4l2.path);
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > 1000) {
			dispman_log(DISPMAN_LOG_WARNING, "camera %s: the display still holds a "
				"frame after 1 s; it keeps its own reference", cam->v4l2.path);
			break;
		}
		if (drm_dispatch(cam->dev, 100) < 0)
			break;
	}
	/* Buffers the display still holds keep their own references: unhook. */
	camera_free_buffers(cam);
	v4l2_close(&cam->v4l2);
	if (cam->layer)
		layer_set_copy_reason(cam->layer, DISPMAN_REASON_NONE);
	if (cam->dev)
		device_remove_listener(&cam->listener);
	free(cam);
}

int dispman_camera_get_stats(struct dispman_camera *cam, struct dispman_camera_stats *stats)
{
	if (refuse_null(cam, "cam"))
		return -EINVAL;
	struct dispman_camera_stats s = cam->stats;
	s.buffers_queued = 0;
	for (uint32_t i = 0; i < cam->n_bufs; i++)
		s.buffers_queued += cam->bufs[i].state == CAM_BUF_DRIVER;
	return sized_copy_out(stats, &s, sizeof(s), "dispman_camera_stats");
}

int dispman_camera_set_frame_callback(struct dispman_camera *cam,
	dispman_camera_frame_callback cb, void *data)
{
	if (refuse_null(cam, "cam"))
		return -EINVAL;
	cam->frame_cb = cb;
	cam->frame_data = data;
	return 0;
}

void dispman_camera_get_format(struct dispman_camera *cam, uint32_t *fourcc, uint32_t *width,
	uint32_t *height)
{
	if (refuse_null(cam, "cam")) {
		if (fourcc)
			*fourcc = 0;
		if (width)
			*width = 0;
		if (height)
			*height = 0;
		return;
	}
	if (fourcc)
		*fourcc = cam->copy && !cam->copy_same ? DRM_FORMAT_XRGB8888 :
			cam->v4l2.fmt.drm_fourcc;
	if (width)
		*width = cam->v4l2.fmt.width;
	if (height)
		*height = cam->v4l2.fmt.height;
}

int dispman_camera_set_error_callback(struct dispman_camera *cam,
	dispman_camera_error_callback cb, void *data)
{
	if (refuse_null(cam, "cam"))
		return -EINVAL;
	cam->error_cb = cb;
	cam->error_data = data;
	return 0;
}

int dispman_camera_set_control(struct dispman_camera *cam, const char *name, int64_t value)
{
	if (refuse_null(cam, "cam"))
		return -EINVAL;
	if (!name) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: control name is NULL");
		return -EINVAL;
	}
	return v4l2_set_control_by_name(&cam->v4l2, name, value);
}
