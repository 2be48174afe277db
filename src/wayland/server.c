/* SPDX-License-Identifier: MIT */
/*
 * The compositor's core: the event loop, wl_output, and the frame cycle. One frame is
 * committed to the device per page flip: surface commits mark the scene dirty; a repaint
 * (from an idle callback, or right after the flip that ends the previous frame) gives every
 * mapped surface's buffer to its layer, restacks, and commits. The flip event then sends
 * the frame callbacks and presentation feedback of that frame, after the library has
 * released the buffers that left the screen (so a client never sees "done" before the
 * release of the buffer it wants to reuse).
 */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "presentation-time-server-protocol.h"

/* The library's log handler is the sink; this keeps one format for both. */
void kiosk_log(enum dispman_log_level level, const char *fmt, ...)
{
	static int max = -1;
	if (max < 0) {
		const char *d = getenv("DISPMAN_DEBUG");
		max = d && strcmp(d, "1") == 0 ? DISPMAN_LOG_DEBUG : DISPMAN_LOG_ERROR;
		const char *w = getenv("DISPMAN_WAYLAND_LOG");
		if (w)
			max = atoi(w);
	}
	if ((int)level > max)
		return;
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	static const char *const names[] = { "", "error", "warning", "info", "debug" };
	fprintf(stderr, "dispman-wayland %s: ", names[level <= DISPMAN_LOG_DEBUG ? level : 0]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	errno = e;
}

void krect_union(struct krect *a, const struct krect *b)
{
	if (b->w <= 0 || b->h <= 0)
		return;
	if (a->w <= 0 || a->h <= 0) {
		*a = *b;
		return;
	}
	int32_t x1 = a->x < b->x ? a->x : b->x, y1 = a->y < b->y ? a->y : b->y;
	int32_t x2 = a->x + a->w > b->x + b->w ? a->x + a->w : b->x + b->w;
	int32_t y2 = a->y + a->h > b->y + b->h ? a->y + a->h : b->y + b->h;
	*a = (struct krect){ x1, y1, x2 - x1, y2 - y1 };
}

void krect_clip(struct krect *a, int32_t w, int32_t h)
{
	int32_t x1 = a->x < 0 ? 0 : a->x, y1 = a->y < 0 ? 0 : a->y;
	int32_t x2 = a->x + a->w > w ? w : a->x + a->w;
	int32_t y2 = a->y + a->h > h ? h : a->y + a->h;
	if (x2 <= x1 || y2 <= y1)
		*a = (struct krect){ 0 };
	else
		*a = (struct krect){ x1, y1, x2 - x1, y2 - y1 };
}

/* ---- wl_output ---- */

static void output_release_req(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wl_output_interface output_impl = {
	.release = output_release_req,
};

static void output_unlink(struct wl_resource *res)
{
	wl_list_remove(wl_resource_get_link(res));
}

static void output_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct kserver *srv = data;
	struct wl_resource *res = wl_resource_create(client, &wl_output_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(res, &output_impl, srv, output_unlink);
	wl_list_insert(&srv->outputs, wl_resource_get_link(res));
	uint32_t wmm = 0, hmm = 0;
	dispman_output_get_physical_size(srv->out, &wmm, &hmm);
	wl_output_send_geometry(res, 0, 0, (int32_t)wmm, (int32_t)hmm,
		WL_OUTPUT_SUBPIXEL_UNKNOWN, "libdispman", dispman_output_get_name(srv->out),
		WL_OUTPUT_TRANSFORM_NORMAL);
	wl_output_send_mode(res, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED, srv->width,
		srv->height, (int32_t)srv->refresh_mhz);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION)
		wl_output_send_scale(res, 1);
	if (version >= WL_OUTPUT_NAME_SINCE_VERSION)
		wl_output_send_name(res, dispman_output_get_name(srv->out));
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(res);
}

/* ---- scene ---- */

struct ksurface *kserver_top_toplevel(struct kserver *srv)
{
	struct kxdg_surface *x;
	wl_list_for_each_reverse(x, &srv->toplevels, link) {
		if (!x->popup && x->surface && x->surface->mapped)
			return x->surface;
	}
	return NULL;
}

static bool point_in(const struct ksurface *s, double x, double y)
{
	return s->mapped && x >= s->x && y >= s->y && x < s->x + s->w && y < s->y + s->h;
}

static struct ksurface *tree_at(struct ksurface *s, double x, double y)
{
	struct kstack_entry *e;
	wl_list_for_each_reverse(e, &s->stack, link) {
		struct ksurface *hit = e->surface == s ? (point_in(s, x, y) ? s : NULL) :
			tree_at(e->surface, x, y);
		if (hit)
			return hit;
	}
	return NULL;
}

struct ksurface *kserver_surface_at(struct kserver *srv, double x, double y, double *sx,
	double *sy)
{
	struct kxdg_surface *t;
	wl_list_for_each_reverse(t, &srv->toplevels, link) {
		if (!t->surface || !t->surface->mapped)
			continue;
		struct ksurface *hit = tree_at(t->surface, x, y);
		if (hit) {
			*sx = x - hit->x;
			*sy = y - hit->y;
			return hit;
		}
	}
	return NULL;
}

void ksurface_unmap(struct ksurface *s)
{
	if (s->layer) {
		dispman_layer_destroy(s->layer);
		s->layer = NULL;
		s->srv->layers--;
	}
	s->shown = NULL;
	if (s->mapped) {
		s->mapped = false;
		seat_focus_changed(s->srv);
	}
	kserver_schedule_repaint(s->srv);
}

/* Surface size in surface coordinates: the viewport's destination, else its source size,
 * else the buffer over the scale. */
static void surface_size(const struct ksurface *s, int32_t *w, int32_t *h)
{
	const struct kstate *c = &s->current;
	if (c->dst_w > 0) {
		*w = c->dst_w;
		*h = c->dst_h;
	} else if (c->src_w > 0) {
		*w = (int32_t)c->src_w;
		*h = (int32_t)c->src_h;
	} else {
		int32_t sc = c->scale > 0 ? c->scale : 1;
		*w = c->buffer->width / sc;
		*h = c->buffer->height / sc;
	}
}

/*
 * A layer setter refused what a surface asked for (err, a negative errno): log it, take the
 * surface off the screen for this frame, and where the client's numbers are the cause
 * (-ERANGE: a source or destination the library cannot hold) end the client with a
 * protocol error. Other errors are the compositor's own and only logged.
 */
static void layer_refused(struct ksurface *s, const char *setter, int err)
{
	struct kserver *srv = s->srv;
	uint32_t id = wl_resource_get_id(s->resource);
	klog(DISPMAN_LOG_ERROR, "surface %u: %s refused: %s; the surface is not shown", id,
		setter, strerror(-err));
	srv->stats.layer_errors++;
	if (err == -ERANGE) {
		wl_resource_post_error(s->resource, WL_SURFACE_ERROR_INVALID_SIZE,
			"surface %u: %s out of range (%s)", id,
			strcmp(setter, "dispman_layer_set_source") == 0 ? "viewport source" :
									 "position or size",
			strerror(-err));
		srv->stats.protocol_errors++;
	}
	ksurface_unmap(s);
}

/* The viewport's source in 16.16 (0 0 0 0: the whole buffer); -ERANGE beyond 32 bits. */
static int source_fixed(const struct kstate *c, uint32_t src[4])
{
	memset(src, 0, 4 * sizeof(*src));
	if (c->src_w <= 0)
		return 0;
	if (c->src_x < 0 || c->src_y < 0 || (c->src_x + c->src_w) * 65536.0 > UINT32_MAX ||
	    (c->src_y + c->src_h) * 65536.0 > UINT32_MAX)
		return -ERANGE;
	src[0] = (uint32_t)(c->src_x * 65536.0);
	src[1] = (uint32_t)(c->src_y * 65536.0);
	src[2] = (uint32_t)(c->src_w * 65536.0);
	src[3] = (uint32_t)(c->src_h * 65536.0);
	return 0;
}

/* Give one mapped surface's content to its layer at x, y and stacking slot *z (advanced
 * when placed); a setter the library refuses is reported and leaves the surface as is. */
static void place_surface(struct kserver *srv, struct ksurface *s, int32_t x, int32_t y, int *z)
{
	struct dispman_buffer *show = NULL;
	struct kbuffer *b = s->current.buffer;
	if (b->type == KBUFFER_SHM)
		show = surface_upload_shm(s);
	else
		show = b->dbuf;
	if (!show)
		return;
	if (!s->layer) {
		s->layer = dispman_layer_create(srv->out);
		if (!s->layer) {
			klog(DISPMAN_LOG_ERROR, "cannot create a layer for surface %u",
				wl_resource_get_id(s->resource));
			return;
		}
		srv->layers++;
	}
	bool was_mapped = s->mapped;
	s->mapped = true;
	int r;
	if (show != s->shown || s->content_changed) {
		if ((r = dispman_layer_set_buffer(s->layer, show)) < 0) {
			layer_refused(s, "dispman_layer_set_buffer", r);
			return;
		}
	}
	s->content_changed = false;
	s->shown = show;
	const struct kstate *c = &s->current;
	uint32_t src[4];
	if ((r = source_fixed(c, src)) < 0) {
		layer_refused(s, "dispman_layer_set_source", r);
		return;
	}
	int32_t w, h;
	surface_size(s, &w, &h);
	int32_t dst[4] = { x, y, w, h };
	if (!was_mapped || memcmp(src, s->l_src, sizeof(src)) != 0) {
		r = dispman_layer_set_source(s->layer, src[0], src[1], src[2], src[3]);
		if (r < 0) {
			layer_refused(s, "dispman_layer_set_source", r);
			return;
		}
		memcpy(s->l_src, src, sizeof(src));
	}
	if (!was_mapped || memcmp(dst, s->l_dst, sizeof(dst)) != 0) {
		r = w < 0 || h < 0 ? -ERANGE :
			dispman_layer_set_destination(s->layer, x, y, (uint32_t)w, (uint32_t)h);
		if (r < 0) {
			layer_refused(s, "dispman_layer_set_destination", r);
			return;
		}
		memcpy(s->l_dst, dst, sizeof(dst));
	}
	if (!was_mapped || s->l_z != *z) {
		if ((r = dispman_layer_set_z(s->layer, *z)) < 0) {
			layer_refused(s, "dispman_layer_set_z", r);
			return;
		}
	}
	s->l_z = (*z)++;
	s->x = x;
	s->y = y;
	s->w = w;
	s->h = h;
	if (!was_mapped)
		seat_focus_changed(srv);
}

/* Give one surface's content to its layer; recurse into its subsurfaces. */
static void place_tree(struct kserver *srv, struct ksurface *s, int32_t x, int32_t y, int *z,
	bool parent_mapped)
{
	struct kstack_entry *e;
	bool mapped = parent_mapped && ksurface_is_mapped(s);
	wl_list_for_each(e, &s->stack, link) {
		if (e->surface != s) {
			struct ksubsurface *sub = e->surface->sub;
			place_tree(srv, e->surface, x + (sub ? sub->x : 0), y + (sub ? sub->y : 0),
				z, mapped);
			continue;
		}
		if (!mapped) {
			if (s->mapped || s->layer)
				ksurface_unmap(s);
			continue;
		}
		place_surface(srv, s, x, y, z);
	}
}

/* After a successful commit: the buffers now in the frame get their screen holds. */
static void tree_committed(struct kserver *srv, struct ksurface *s, bool *zero_copy)
{
	struct kstack_entry *e;
	wl_list_for_each(e, &s->stack, link) {
		if (e->surface != s) {
			tree_committed(srv, e->surface, zero_copy);
			continue;
		}
		s->zero_copy = false;
		if (!s->layer || !s->shown)
			continue;
		struct dispman_placement pl;
		if (dispman_layer_get_placement(s->layer, &pl) < 0 ||
		    pl.state == DISPMAN_PLACEMENT_NOT_SHOWN)
			continue;
		struct kbuffer *b = s->current.buffer;
		if (b && b->type == KBUFFER_SHM) {
			kslots_committed(s);
		} else if (b && b->dbuf == s->shown) {
			kbuffer_screen_committed(b);
			if (pl.state == DISPMAN_PLACEMENT_ON_PLANE && b->type == KBUFFER_DMABUF) {
				s->zero_copy = true;
				*zero_copy = true;
			}
		}
		klog(DISPMAN_LOG_DEBUG, "surface %u: %s%s plane %u (reason %d)",
			wl_resource_get_id(s->resource),
			b && b->type == KBUFFER_DMABUF ? "dma-buf " : "",
			pl.state == DISPMAN_PLACEMENT_ON_PLANE ? "on" : "composited, not on",
			pl.plane_id, (int)pl.reason);
	}
}

static void send_frame_callbacks(struct wl_list *list, uint32_t ms, uint64_t *count)
{
	struct wl_resource *cb, *tmp;
	wl_resource_for_each_safe(cb, tmp, list) {
		wl_callback_send_done(cb, ms);
		wl_resource_destroy(cb);
		(*count)++;
	}
}

static void send_feedback(struct kserver *srv, struct wl_list *list, bool presented)
{
	struct kfeedback *f, *tmp;
	wl_list_for_each_safe(f, tmp, list, link) {
		if (presented) {
			struct wl_client *client = wl_resource_get_client(f->resource);
			struct wl_resource *o;
			wl_resource_for_each(o, &srv->outputs) {
				if (wl_resource_get_client(o) == client)
					wp_presentation_feedback_send_sync_output(f->resource, o);
			}
			uint64_t sec = (uint64_t)srv->flip_time.tv_sec;
			uint32_t refresh_ns = srv->refresh_mhz ?
				(uint32_t)(1000000000000ull / srv->refresh_mhz) : 0;
			/* A driver without a vblank counter (every flip carries sequence 0:
			 * the library's pacing counts with timestamps) does not hold flips to
			 * vblank either (virtio-gpu): claim neither vsync nor a counter then. */
			struct dispman_output_stats ps = { .size = sizeof(ps) };
			bool vblank = dispman_output_get_stats(srv->out, &ps) == 0 &&
				ps.clock != DISPMAN_PACING_TIMESTAMP;
			uint64_t seq = vblank ? srv->flip_seq : 0;
			uint32_t flags = WP_PRESENTATION_FEEDBACK_KIND_HW_COMPLETION;
			if (vblank)
				flags |= WP_PRESENTATION_FEEDBACK_KIND_VSYNC |
					WP_PRESENTATION_FEEDBACK_KIND_HW_CLOCK;
			if (f->zero_copy)
				flags |= WP_PRESENTATION_FEEDBACK_KIND_ZERO_COPY;
			wp_presentation_feedback_send_presented(f->resource, (uint32_t)(sec >> 32),
				(uint32_t)sec, (uint32_t)srv->flip_time.tv_nsec, refresh_ns,
				(uint32_t)(seq >> 32), (uint32_t)seq, flags);
			srv->stats.presented++;
		} else {
			wp_presentation_feedback_send_discarded(f->resource);
			srv->stats.discarded++;
		}
		wl_resource_destroy(f->resource);
	}
}

static void repaint(struct kserver *srv)
{
	if (srv->flip_pending)
		return;
	int z = 1;
	struct kxdg_surface *t;
	wl_list_for_each(t, &srv->toplevels, link) {
		if (t->surface)
			place_tree(srv, t->surface, t->popup ? t->px : 0, t->popup ? t->py : 0, &z,
				t->configured);
	}
	srv->dirty = false;
	int ret = dispman_output_commit(srv->out);
	srv->stats.repaints++;
	if (ret < 0) {
		klog(DISPMAN_LOG_ERROR, "commit failed (%s): frame callbacks sent without a flip",
			strerror(-ret));
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		uint32_t ms = (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
		send_frame_callbacks(&srv->frames_waiting, ms, &srv->stats.frame_callbacks);
		send_feedback(srv, &srv->fb_waiting, false);
		return;
	}
	bool zero_copy = false;
	wl_list_for_each(t, &srv->toplevels, link) {
		if (t->surface)
			tree_committed(srv, t->surface, &zero_copy);
	}
	if (zero_copy)
		srv->stats.zero_copy_frames++;
	struct kfeedback *f;
	wl_list_for_each(f, &srv->fb_waiting, link)
		f->zero_copy = f->surface && f->surface->zero_copy;
	wl_list_insert_list(srv->frames_inflight.prev, &srv->frames_waiting);
	wl_list_init(&srv->frames_waiting);
	wl_list_insert_list(srv->fb_inflight.prev, &srv->fb_waiting);
	wl_list_init(&srv->fb_waiting);
	srv->flip_pending = true;
}

static void idle_repaint(void *data)
{
	struct kserver *srv = data;
	srv->idle = NULL;
	repaint(srv);
}

void kserver_schedule_repaint(struct kserver *srv)
{
	srv->dirty = true;
	if (srv->flip_pending || srv->idle)
		return;
	srv->idle = wl_event_loop_add_idle(srv->loop, idle_repaint, srv);
}

static void on_flip(struct dispman_output *out, uint64_t sequence, const struct timespec *time,
	void *data)
{
	struct kserver *srv = data;
	srv->flip_done = true;
	srv->flip_seq = sequence;
	srv->flip_time = *time;
	srv->stats.flips++;
}

/* After the device's dispatch: the library released the old buffers; now the frame's
 * callbacks, then the next frame if anything is waiting. */
static void after_flip(struct kserver *srv)
{
	if (!srv->flip_done)
		return;
	srv->flip_done = false;
	srv->flip_pending = false;
	uint32_t ms = (uint32_t)(srv->flip_time.tv_sec * 1000 + srv->flip_time.tv_nsec / 1000000);
	send_frame_callbacks(&srv->frames_inflight, ms, &srv->stats.frame_callbacks);
	send_feedback(srv, &srv->fb_inflight, true);
	if (srv->dirty || !wl_list_empty(&srv->frames_waiting) || !wl_list_empty(&srv->fb_waiting))
		repaint(srv);
}

static int on_device_fd(int fd, uint32_t mask, void *data)
{
	struct kserver *srv = data;
	int ret = dispman_device_dispatch(srv->dev, 0);
	if (ret < 0)
		klog(DISPMAN_LOG_ERROR, "device dispatch: %s", strerror(-ret));
	after_flip(srv);
	return 0;
}

/* ---- public API ---- */

struct dispman_wayland {
	struct kserver srv;
	struct wl_listener client_listener;
	unsigned n_clients;
};

static void on_client_destroy(struct wl_listener *l, void *data)
{
	struct dispman_wayland **owner = (void *)(l + 1);
	(*owner)->n_clients--;
	wl_list_remove(&l->link);
	free(l);
}

static void on_client_create(struct wl_listener *l, void *data)
{
	struct dispman_wayland *wl = wl_container_of(l, wl, client_listener);
	struct wl_client *client = data;
	struct wl_listener *d = calloc(1, sizeof(*d) + sizeof(wl));
	if (!d)
		return;
	*(struct dispman_wayland **)(void *)(d + 1) = wl;
	d->notify = on_client_destroy;
	wl_client_add_destroy_listener(client, d);
	wl->n_clients++;
}

/* The server's device, output and empty lists (nothing that can fail). */
static void server_init_lists(struct kserver *srv, struct dispman_device *dev,
	struct dispman_output *out)
{
	srv->dev = dev;
	srv->out = out;
	srv->format_table_fd = -1;
	wl_list_init(&srv->surfaces);
	wl_list_init(&srv->toplevels);
	wl_list_init(&srv->buffers);
	wl_list_init(&srv->orphan_slots);
	wl_list_init(&srv->frames_waiting);
	wl_list_init(&srv->frames_inflight);
	wl_list_init(&srv->fb_waiting);
	wl_list_init(&srv->fb_inflight);
	wl_list_init(&srv->outputs);
}

struct dispman_wayland *dispman_wayland_create(struct dispman_device *dev,
	struct dispman_output *out)
{
	if (!dev || !out || dispman_output_get_device(out) != dev) {
		klog(DISPMAN_LOG_ERROR, "dispman_wayland_create: %s", !dev || !out ?
			"NULL device or output" : "output of another device");
		errno = EINVAL;
		return NULL;
	}
	struct dispman_wayland *wl = calloc(1, sizeof(*wl));
	if (!wl) {
		errno = ENOMEM;
		return NULL;
	}
	struct kserver *srv = &wl->srv;
	server_init_lists(srv, dev, out);

	int ret;
	if (!dispman_output_is_enabled(out)) {
		ret = dispman_output_enable(out, NULL);
		if (ret < 0) {
			klog(DISPMAN_LOG_ERROR, "cannot enable output %s: %s",
				dispman_output_get_name(out), strerror(-ret));
			free(wl);
			errno = -ret;
			return NULL;
		}
	}
	const struct dispman_mode *mode = dispman_output_get_current_mode(out);
	srv->width = (int32_t)mode->width;
	srv->height = (int32_t)mode->height;
	srv->refresh_mhz = mode->refresh_mhz;

	srv->display = wl_display_create();
	if (!srv->display) {
		free(wl);
		errno = ENOMEM;
		return NULL;
	}
	srv->loop = wl_display_get_event_loop(srv->display);
	wl->client_listener.notify = on_client_create;
	wl_display_add_client_created_listener(srv->display, &wl->client_listener);

	ret = -ENOMEM;
	if (!wl_global_create(srv->display, &wl_output_interface, 4, srv, output_bind))
		goto fail;
	if ((ret = surface_init_globals(srv)) < 0 || (ret = xdg_init_global(srv)) < 0 ||
	    (ret = buffer_init_globals(srv)) < 0 || (ret = dmabuf_init_global(srv)) < 0 ||
	    (ret = presentation_init_global(srv)) < 0 || (ret = seat_init(srv)) < 0)
		goto fail;

	srv->dev_source = wl_event_loop_add_fd(srv->loop, dispman_device_get_fd(dev),
		WL_EVENT_READABLE, on_device_fd, srv);
	if (!srv->dev_source) {
		ret = -errno;
		goto fail;
	}
	if ((ret = dispman_output_set_frame_callback(out, on_flip, srv)) < 0) {
		klog(DISPMAN_LOG_ERROR, "cannot set the frame callback of %s: %s",
			dispman_output_get_name(out), strerror(-ret));
		goto fail;
	}
	/* a first (modeset) commit: the screen goes black and flips start */
	ret = dispman_output_commit(out);
	if (ret < 0) {
		klog(DISPMAN_LOG_ERROR, "first commit on %s failed: %s",
			dispman_output_get_name(out), strerror(-ret));
		goto fail;
	}
	srv->flip_pending = true;
	return wl;
fail:
	dispman_wayland_destroy(wl);
	errno = ret < 0 ? -ret : EINVAL;
	return NULL;
}

void dispman_wayland_destroy(struct dispman_wayland *wl)
{
	if (!wl)
		return;
	struct kserver *srv = &wl->srv;
	dispman_output_set_frame_callback(srv->out, NULL, NULL);
	if (srv->display)
		wl_display_destroy_clients(srv->display);
	if (srv->idle)
		wl_event_source_remove(srv->idle);
	if (srv->dev_source)
		wl_event_source_remove(srv->dev_source);
	seat_finish(srv);
	dmabuf_finish(srv);
	buffer_finish(srv);
	if (srv->display) {
		wl_list_remove(&wl->client_listener.link);
		wl_display_destroy(srv->display);
	}
	free(wl);
}

const char *dispman_wayland_add_socket(struct dispman_wayland *wl, const char *name)
{
	if (!getenv("XDG_RUNTIME_DIR")) {
		klog(DISPMAN_LOG_ERROR, "XDG_RUNTIME_DIR is not set: no place for a socket");
		errno = ENOENT;
		return NULL;
	}
	if (name) {
		if (wl_display_add_socket(wl->srv.display, name) < 0) {
			klog(DISPMAN_LOG_ERROR, "cannot listen on %s: %s", name, strerror(errno));
			return NULL;
		}
		return name;
	}
	const char *n = wl_display_add_socket_auto(wl->srv.display);
	if (!n)
		klog(DISPMAN_LOG_ERROR, "cannot create a Wayland socket: %s", strerror(errno));
	return n;
}

struct wl_display *dispman_wayland_get_display(struct dispman_wayland *wl)
{
	return wl->srv.display;
}

int dispman_wayland_get_fd(struct dispman_wayland *wl)
{
	return wl_event_loop_get_fd(wl->srv.loop);
}

int dispman_wayland_dispatch(struct dispman_wayland *wl, int timeout_ms)
{
	wl_display_flush_clients(wl->srv.display);
	int ret = wl_event_loop_dispatch(wl->srv.loop, timeout_ms);
	wl_display_flush_clients(wl->srv.display);
	if (ret < 0 && errno != EINTR)
		return -errno;
	return 0;
}

int dispman_wayland_capture(struct dispman_wayland *wl, struct dispman_buffer **frame)
{
	struct kserver *srv = &wl->srv;
	int ret = dispman_output_capture(srv->out, frame);
	if (ret < 0)
		klog(DISPMAN_LOG_ERROR, "capture failed: %s", strerror(-ret));
	/* flips that arrived inside the capture end the frame cycle as usual; the restoring
	 * modeset leaves no flip pending on our side */
	if (srv->flip_done) {
		after_flip(srv);
	} else if (srv->flip_pending) {
		srv->flip_pending = false;
		srv->flip_done = true;
		clock_gettime(CLOCK_MONOTONIC, &srv->flip_time);
		after_flip(srv);
	}
	return ret;
}

int dispman_wayland_set_input(struct dispman_wayland *wl, struct dispman_input *input)
{
	if (!wl)
		return -EINVAL;
	return seat_set_input(&wl->srv, input);
}

int dispman_wayland_get_stats(struct dispman_wayland *wl, struct dispman_wayland_stats *stats)
{
	if (!wl || !stats) {
		klog(DISPMAN_LOG_ERROR, "dispman_wayland_get_stats: %s is NULL",
			!wl ? "the compositor" : "stats");
		return -EINVAL;
	}
	size_t want;
	memcpy(&want, stats, sizeof(want));
	if (want < sizeof(size_t)) {
		klog(DISPMAN_LOG_ERROR, "struct dispman_wayland_stats: size %zu; set it to "
			"sizeof(struct dispman_wayland_stats)", want);
		return -EINVAL;
	}
	struct kserver *srv = &wl->srv;
	struct dispman_wayland_stats all = srv->stats;
	all.clients = wl->n_clients;
	all.surfaces = (uint64_t)wl_list_length(&srv->surfaces);
	all.buffers = (uint64_t)wl_list_length(&srv->buffers);
	all.layers = srv->layers;
	size_t n = want < sizeof(all) ? want : sizeof(all);
	all.size = n;
	memcpy(stats, &all, n);
	return 0;
}
