/* SPDX-License-Identifier: MIT */
/*
 * zwlr_screencopy_manager_v1 (version 3): a client asks for a frame of an output it names
 * (or of a region of it), is told the buffers it may give (a wl_shm buffer, XRGB8888, the
 * output's or the region's size; from version 3 also a linear XRGB8888 dma-buf of that
 * size, made through the compositor's own zwp_linux_dmabuf_v1, when its format table has
 * that pair), and sends a copy. Copies are made from an idle callback, all those waiting
 * for one output with one dispman_output_capture() of it (writeback where its CRTC has a
 * writeback connector, else the library's CPU composition of its own planes), then the
 * pixels go into each client's buffer: into shm through its pool, into a dma-buf by the
 * CPU through an mmap of its fd between DMA_BUF_IOCTL_SYNC start and end (a dma-buf that
 * cannot be mapped fails the frame, logged). copy_with_damage waits until the scene was
 * repainted since the manager's previous copy and reports the whole region as damaged.
 */
#include "screencopy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <linux/dma-buf.h>
#include <xf86drm.h>

#include "buffer.h"
#include "dmabuf.h"
#include "output.h"
#include "scene.h"

#include "wlr-screencopy-unstable-v1-server-protocol.h"

/* a copy_with_damage waiting for a repaint looks again after this long */
#define DAMAGE_POLL_MS 50

struct screencopy {
	struct server *srv;
	struct wl_global *global;
	struct wl_list queued;          /* sc_frame.link: copies asked for, not made yet */
	struct wl_event_source *idle;   /* the copies' run, when queued */
	struct wl_event_source *timer;  /* copy_with_damage's look for a repaint */
};

/* A manager resource's state; frames keep it (refs) after the resource is gone. */
struct sc_manager {
	struct screencopy *sc;
	struct wl_resource *resource;   /* NULL once destroyed */
	unsigned refs;
	bool copied;                    /* a copy was made through it */
	uint64_t copied_at;             /* srv->stats.repaints at that copy */
};

struct sc_frame {
	struct screencopy *sc;
	struct sc_manager *mgr;
	struct wl_resource *resource;
	struct wl_resource *buffer;     /* the target, while queued */
	struct buffer *dmabuf;          /* the target's, when it is a dma-buf */
	struct wl_listener buffer_destroy;
	struct wl_list link;            /* screencopy.queued, or itself */
	struct dispman_output *out;     /* the output captured (the device's: outlives us) */
	int32_t x, y, w, h;             /* the region, in output pixels */
	bool used;
	bool with_damage;
	bool in_run;                    /* due at the start of the current run_copies() */
	bool dmabuf_offered;            /* a linux_dmabuf event was sent */
};

static void manager_unref(struct sc_manager *m)
{
	if (--m->refs == 0 && !m->resource)
		free(m);
}

static void frame_dequeue(struct sc_frame *f)
{
	wl_list_remove(&f->link);
	wl_list_init(&f->link);
	if (f->buffer) {
		wl_list_remove(&f->buffer_destroy.link);
		f->buffer = NULL;
		f->dmabuf = NULL;
	}
}

static void frame_resource_destroy(struct wl_resource *res)
{
	struct sc_frame *f = wl_resource_get_user_data(res);
	frame_dequeue(f);
	manager_unref(f->mgr);
	free(f);
}

/* The target wl_buffer went away before the copy: the copy fails. */
static void on_buffer_destroy(struct wl_listener *l, void *data)
{
	struct sc_frame *f = wl_container_of(l, f, buffer_destroy);
	frame_dequeue(f);
	zwlr_screencopy_frame_v1_send_failed(f->resource);
}

/* Whether a queued frame may be copied now (copy_with_damage: the scene changed). */
static bool frame_due(const struct sc_frame *f)
{
	return !f->with_damage || !f->mgr->copied ||
		f->sc->srv->stats.repaints != f->mgr->copied_at;
}

/* The region of frame (x, y, w, h) from the captured XRGB8888 frame to dst (rows of
 * dst_stride bytes), opaque alpha when alpha. */
static void copy_rows(const struct sc_frame *f, char *dst, size_t dst_stride, bool alpha,
	const void *src, uint32_t src_stride)
{
	for (int32_t row = 0; row < f->h; row++) {
		const uint32_t *s = (const uint32_t *)(const void *)((const char *)src +
			(size_t)(f->y + row) * src_stride) + f->x;
		uint32_t *d = (uint32_t *)(void *)(dst + (size_t)row * dst_stride);
		if (alpha) {
			for (int32_t x = 0; x < f->w; x++)
				d[x] = s[x] | 0xff000000u;
		} else {
			memcpy(d, s, (size_t)f->w * 4);
		}
	}
}

/* DMA_BUF_IOCTL_SYNC (start or end of a CPU write) on fd: 0 or a negative errno. */
static int dmabuf_sync(int fd, uint64_t flags)
{
	struct dma_buf_sync sync = { .flags = flags | DMA_BUF_SYNC_WRITE };
	return drmIoctl(fd, DMA_BUF_IOCTL_SYNC, &sync) == 0 ? 0 : -errno;
}

/* The region into the client's dma-buf b (linear, single-plane, checked when the copy
 * was asked for): its fd mapped for writing here, the copy bracketed by
 * DMA_BUF_IOCTL_SYNC. Returns false (logged) when the dma-buf cannot be written. */
static bool copy_to_dmabuf(struct sc_frame *f, struct buffer *b, const void *src,
	uint32_t src_stride)
{
	int fd = -1;
	int ret = dispman_buffer_export_dmabuf(b->dbuf, &fd);
	if (ret < 0) {
		wlog(DISPMAN_LOG_WARNING, "screencopy: no fd of the client's dma-buf: %s",
			strerror(-ret));
		return false;
	}
	size_t len = (size_t)b->offset + (size_t)b->stride * (size_t)f->h;
	off_t size = lseek(fd, 0, SEEK_END);
	void *m = MAP_FAILED;
	if (size >= 0 && (uint64_t)size < len) {
		wlog(DISPMAN_LOG_WARNING, "screencopy: the client's dma-buf has %lld bytes, the "
			"frame needs %zu", (long long)size, len);
		ret = -EINVAL;
	} else if ((m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
		   MAP_FAILED) {
		ret = -errno;
		wlog(DISPMAN_LOG_WARNING, "screencopy: cannot map the client's dma-buf for "
			"writing: %s", strerror(-ret));
	} else if ((ret = dmabuf_sync(fd, DMA_BUF_SYNC_START)) < 0) {
		wlog(DISPMAN_LOG_WARNING, "screencopy: DMA_BUF_IOCTL_SYNC start on the client's "
			"dma-buf failed: %s", strerror(-ret));
	} else {
		copy_rows(f, (char *)m + b->offset, b->stride,
			dispman_buffer_get_format(b->dbuf) == DRM_FORMAT_ARGB8888, src, src_stride);
		if ((ret = dmabuf_sync(fd, DMA_BUF_SYNC_END)) < 0)
			wlog(DISPMAN_LOG_WARNING, "screencopy: DMA_BUF_IOCTL_SYNC end on the "
				"client's dma-buf failed: %s", strerror(-ret));
		ret = 0;
	}
	if (m != MAP_FAILED)
		munmap(m, len);
	close(fd);
	return ret == 0;
}

/* The region of frame (x, y, w, h) from the captured XRGB8888 frame into the client's
 * buffer, checked when the copy was asked for (and again here: the pool may have shrunk).
 * Returns false when the buffer cannot be written. */
static bool copy_pixels(struct sc_frame *f, const void *src, uint32_t src_stride,
	uint32_t src_w, uint32_t src_h)
{
	if ((uint32_t)(f->x + f->w) > src_w || (uint32_t)(f->y + f->h) > src_h)
		return false;
	if (f->dmabuf)
		return copy_to_dmabuf(f, f->dmabuf, src, src_stride);
	struct wl_shm_buffer *shm = wl_shm_buffer_get(f->buffer);
	if (!shm)
		return false;
	uint32_t fmt = wl_shm_buffer_get_format(shm);
	int32_t stride = wl_shm_buffer_get_stride(shm);
	wl_shm_buffer_begin_access(shm);
	copy_rows(f, wl_shm_buffer_get_data(shm), (size_t)stride, fmt == WL_SHM_FORMAT_ARGB8888,
		src, src_stride);
	wl_shm_buffer_end_access(shm);
	return true;
}

static void frame_done(struct sc_frame *f, struct dispman_buffer *cap, const void *data,
	uint32_t stride, const struct timespec *now)
{
	struct server *srv = f->sc->srv;
	bool ok = cap && copy_pixels(f, data, stride, dispman_buffer_get_width(cap),
		dispman_buffer_get_height(cap));
	frame_dequeue(f);
	if (!ok) {
		zwlr_screencopy_frame_v1_send_failed(f->resource);
		return;
	}
	zwlr_screencopy_frame_v1_send_flags(f->resource, 0);
	if (f->with_damage)
		zwlr_screencopy_frame_v1_send_damage(f->resource, 0, 0, (uint32_t)f->w,
			(uint32_t)f->h);
	uint64_t sec = (uint64_t)now->tv_sec;
	zwlr_screencopy_frame_v1_send_ready(f->resource, (uint32_t)(sec >> 32), (uint32_t)sec,
		(uint32_t)now->tv_nsec);
	f->mgr->copied = true;
	f->mgr->copied_at = srv->stats.repaints;
	srv->stats.screencopies++;
}

static void schedule(struct screencopy *sc);

/* One capture of out for the frames of this run that copy it; each of them leaves the run. */
static void capture_for(struct screencopy *sc, struct dispman_output *out)
{
	struct server *srv = sc->srv;
	struct dispman_buffer *cap = NULL;
	void *pixels = NULL;
	uint32_t stride = 0;
	int ret = dispman_output_capture(out, &cap);
	if (ret < 0)
		wlog(DISPMAN_LOG_ERROR, "screencopy: capture of %s failed: %s",
			dispman_output_get_name(out), strerror(-ret));
	struct output *o = output_find(srv, out);
	if (o)
		scene_after_capture(o);
	if (ret == 0 && (ret = dispman_buffer_map(cap, &pixels, &stride)) < 0)
		wlog(DISPMAN_LOG_ERROR, "screencopy: cannot map the frame: %s", strerror(-ret));
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t repaints = srv->stats.repaints;
	struct sc_frame *f, *tmp;
	wl_list_for_each_safe(f, tmp, &sc->queued, link) {
		if (!f->in_run || f->out != out)
			continue;
		f->in_run = false;
		/* repaints made inside the capture must not make a waiting frame due */
		if (f->with_damage && f->mgr->copied && f->mgr->copied_at == repaints)
			continue;
		frame_done(f, ret == 0 ? cap : NULL, pixels, stride, &now);
	}
	dispman_buffer_unref(cap);
}

/* Make every due copy, one capture per output; those waiting for damage look again
 * later. */
static void run_copies(void *data)
{
	struct screencopy *sc = data;
	struct server *srv = sc->srv;
	sc->idle = NULL;
	bool waiting = false;
	struct sc_frame *f;
	wl_list_for_each(f, &sc->queued, link) {
		f->in_run = frame_due(f);
		waiting = waiting || !f->in_run;
	}
	for (;;) {
		struct dispman_output *out = NULL;
		wl_list_for_each(f, &sc->queued, link) {
			if (f->in_run) {
				out = f->out;
				break;
			}
		}
		if (!out)
			break;
		capture_for(sc, out);
	}
	if (waiting || !wl_list_empty(&sc->queued))
		wl_event_source_timer_update(sc->timer, DAMAGE_POLL_MS);
	wl_display_flush_clients(srv->display);
}

static int on_timer(void *data)
{
	struct screencopy *sc = data;
	struct sc_frame *f;
	wl_list_for_each(f, &sc->queued, link) {
		if (frame_due(f)) {
			schedule(sc);
			return 0;
		}
	}
	if (!wl_list_empty(&sc->queued))
		wl_event_source_timer_update(sc->timer, DAMAGE_POLL_MS);
	return 0;
}

static void schedule(struct screencopy *sc)
{
	if (!sc->idle)
		sc->idle = wl_event_loop_add_idle(sc->srv->loop, run_copies, sc);
}

static void frame_copy_common(struct wl_resource *res, struct wl_resource *buffer,
	bool with_damage)
{
	struct sc_frame *f = wl_resource_get_user_data(res);
	struct server *srv = f->sc->srv;
	if (f->used) {
		server_post_error(srv, res, ZWLR_SCREENCOPY_FRAME_V1_ERROR_ALREADY_USED,
			"the frame was already copied");
		return;
	}
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	struct buffer *db = NULL;
	if (!shm) {
		db = buffer_from_resource(srv, buffer);
		if (db && db->type != BUFFER_DMABUF)
			db = NULL;
	}
	if (!shm && !db) {
		server_post_error(srv, res, ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER,
			"want a wl_shm buffer or a zwp_linux_dmabuf_v1 one");
		return;
	}
	if (shm) {
		uint32_t fmt = wl_shm_buffer_get_format(shm);
		if ((fmt != WL_SHM_FORMAT_XRGB8888 && fmt != WL_SHM_FORMAT_ARGB8888) ||
		    wl_shm_buffer_get_width(shm) != f->w || wl_shm_buffer_get_height(shm) != f->h ||
		    wl_shm_buffer_get_stride(shm) < f->w * 4) {
			server_post_error(srv, res, ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER,
				"want a wl_shm buffer, XRGB8888 or ARGB8888, %dx%d, stride at "
				"least %d", f->w, f->h, f->w * 4);
			return;
		}
	} else {
		uint32_t fmt = dispman_buffer_get_format(db->dbuf);
		uint64_t mod = dispman_buffer_get_modifier(db->dbuf);
		if (!f->dmabuf_offered || (fmt != DRM_FORMAT_XRGB8888 &&
		    fmt != DRM_FORMAT_ARGB8888) ||
		    (mod != DRM_FORMAT_MOD_LINEAR && mod != DRM_FORMAT_MOD_INVALID) ||
		    dispman_buffer_get_plane_count(db->dbuf) != 1 ||
		    db->width != f->w || db->height != f->h || db->stride < (uint32_t)f->w * 4) {
			server_post_error(srv, res, ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER,
				"want a dma-buf%s, linear XRGB8888 or ARGB8888, %dx%d, stride at "
				"least %d", f->dmabuf_offered ? "" : " (none was offered)",
				f->w, f->h, f->w * 4);
			return;
		}
	}
	f->used = true;
	f->with_damage = with_damage;
	f->buffer = buffer;
	f->dmabuf = db;
	f->buffer_destroy.notify = on_buffer_destroy;
	wl_resource_add_destroy_listener(buffer, &f->buffer_destroy);
	wl_list_insert(f->sc->queued.prev, &f->link);
	if (frame_due(f))
		schedule(f->sc);
	else
		wl_event_source_timer_update(f->sc->timer, DAMAGE_POLL_MS);
}

static void frame_copy(struct wl_client *c, struct wl_resource *res, struct wl_resource *buffer)
{
	frame_copy_common(res, buffer, false);
}

static void frame_copy_with_damage(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *buffer)
{
	frame_copy_common(res, buffer, true);
}

static void frame_destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zwlr_screencopy_frame_v1_interface frame_impl = {
	.copy = frame_copy,
	.destroy = frame_destroy_req,
	.copy_with_damage = frame_copy_with_damage,
};

/* A new frame of the region (x, y, w, h) of the output of wl_output resource output,
 * clipped to it; an empty region, an output gone or one that is off makes a frame that
 * fails at once. */
static void frame_create(struct wl_resource *mgr_res, uint32_t id, struct wl_resource *output,
	int32_t x, int32_t y, int32_t w, int32_t h)
{
	struct sc_manager *m = wl_resource_get_user_data(mgr_res);
	struct wl_client *c = wl_resource_get_client(mgr_res);
	struct sc_frame *f = calloc(1, sizeof(*f));
	struct wl_resource *res = f ? wl_resource_create(c, &zwlr_screencopy_frame_v1_interface,
		wl_resource_get_version(mgr_res), id) : NULL;
	if (!res) {
		free(f);
		wl_client_post_no_memory(c);
		return;
	}
	f->sc = m->sc;
	f->mgr = m;
	m->refs++;
	f->resource = res;
	wl_list_init(&f->link);
	wl_resource_set_implementation(res, &frame_impl, f, frame_resource_destroy);
	struct output *o = output_from_resource(output);
	/* clip in 64 bits: the client's numbers may be anything */
	int64_t x0 = x > 0 ? x : 0, y0 = y > 0 ? y : 0;
	int64_t x1 = (int64_t)x + w, y1 = (int64_t)y + h;
	if (o && x1 > o->width)
		x1 = o->width;
	if (o && y1 > o->height)
		y1 = o->height;
	if (!o || w <= 0 || h <= 0 || x1 <= x0 || y1 <= y0 ||
	    !dispman_output_is_enabled(o->out)) {
		f->used = true; /* a copy now would be a protocol error: it has failed */
		zwlr_screencopy_frame_v1_send_failed(res);
		return;
	}
	f->out = o->out;
	f->x = (int32_t)x0;
	f->y = (int32_t)y0;
	f->w = (int32_t)(x1 - x0);
	f->h = (int32_t)(y1 - y0);
	zwlr_screencopy_frame_v1_send_buffer(res, WL_SHM_FORMAT_XRGB8888, (uint32_t)f->w,
		(uint32_t)f->h, (uint32_t)f->w * 4);
	if (wl_resource_get_version(res) >= ZWLR_SCREENCOPY_FRAME_V1_LINUX_DMABUF_SINCE_VERSION &&
	    dmabuf_linear_offered(m->sc->srv, DRM_FORMAT_XRGB8888)) {
		f->dmabuf_offered = true;
		zwlr_screencopy_frame_v1_send_linux_dmabuf(res, DRM_FORMAT_XRGB8888,
			(uint32_t)f->w, (uint32_t)f->h);
	}
	if (wl_resource_get_version(res) >= ZWLR_SCREENCOPY_FRAME_V1_BUFFER_DONE_SINCE_VERSION)
		zwlr_screencopy_frame_v1_send_buffer_done(res);
}

static void manager_capture_output(struct wl_client *c, struct wl_resource *res, uint32_t id,
	int32_t overlay_cursor, struct wl_resource *output)
{
	frame_create(res, id, output, 0, 0, INT32_MAX, INT32_MAX);
}

static void manager_capture_output_region(struct wl_client *c, struct wl_resource *res,
	uint32_t id, int32_t overlay_cursor, struct wl_resource *output, int32_t x, int32_t y,
	int32_t w, int32_t h)
{
	frame_create(res, id, output, x, y, w, h);
}

static void manager_destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zwlr_screencopy_manager_v1_interface manager_impl = {
	.capture_output = manager_capture_output,
	.capture_output_region = manager_capture_output_region,
	.destroy = manager_destroy_req,
};

static void manager_resource_destroy(struct wl_resource *res)
{
	struct sc_manager *m = wl_resource_get_user_data(res);
	m->resource = NULL;
	if (m->refs == 0)
		free(m);
}

static void manager_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct sc_manager *m = calloc(1, sizeof(*m));
	struct wl_resource *res = m ? wl_resource_create(c, &zwlr_screencopy_manager_v1_interface,
		(int)version, id) : NULL;
	if (!res) {
		free(m);
		wl_client_post_no_memory(c);
		return;
	}
	m->sc = data;
	m->resource = res;
	wl_resource_set_implementation(res, &manager_impl, m, manager_resource_destroy);
}

int screencopy_init(struct server *srv)
{
	struct screencopy *sc = calloc(1, sizeof(*sc));
	if (!sc)
		return -ENOMEM;
	sc->srv = srv;
	wl_list_init(&sc->queued);
	sc->timer = wl_event_loop_add_timer(srv->loop, on_timer, sc);
	sc->global = sc->timer ? wl_global_create(srv->display,
		&zwlr_screencopy_manager_v1_interface, 3, sc, manager_bind) : NULL;
	if (!sc->global) {
		if (sc->timer)
			wl_event_source_remove(sc->timer);
		free(sc);
		return -ENOMEM;
	}
	srv->screencopy = sc;
	return 0;
}

void screencopy_finish(struct server *srv)
{
	struct screencopy *sc = srv->screencopy;
	if (!sc)
		return;
	struct sc_frame *f, *tmp;
	wl_list_for_each_safe(f, tmp, &sc->queued, link)
		frame_dequeue(f);
	if (sc->idle)
		wl_event_source_remove(sc->idle);
	wl_event_source_remove(sc->timer);
	wl_global_destroy(sc->global);
	free(sc);
	srv->screencopy = NULL;
}
