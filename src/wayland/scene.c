/* SPDX-License-Identifier: MIT */
/*
 * The frame path. One frame is committed to the device per page flip: surface commits mark
 * the scene dirty; a repaint (from an idle callback, or right after the flip that ends the
 * previous frame) gives every mapped surface's buffer to its layer, restacks, and commits.
 * The flip event then sends the frame callbacks and presentation feedback of that frame,
 * after the library has released the buffers that left the screen (so a client never sees
 * "done" before the release of the buffer it wants to reuse).
 */
#include "scene.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "shm.h"
#include "surface.h"
#include "xdg.h"

#include "presentation-time-server-protocol.h"

/*
 * A layer setter refused what a surface asked for (err, a negative errno): log it, take the
 * surface off the screen for this frame, and where the client's numbers are the cause
 * (-ERANGE: a source or destination the library cannot hold) end the client with a
 * protocol error. Other errors are the compositor's own and only logged.
 */
static void layer_refused(struct surface *s, const char *setter, int err)
{
	struct server *srv = s->srv;
	uint32_t id = wl_resource_get_id(s->resource);
	wlog(DISPMAN_LOG_ERROR, "surface %u: %s refused: %s; the surface is not shown", id,
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
	surface_unmap(s);
}

/* The viewport's source in 16.16 (0 0 0 0: the whole buffer); -ERANGE beyond 32 bits. */
static int source_fixed(const struct surface_state *c, uint32_t src[4])
{
	memset(src, 0, 4 * sizeof(*src));
	if (c->src_w <= 0)
		return 0;
	if (c->src_x < 0 || c->src_y < 0 || (c->src_x + c->src_w) * 65536.0 > UINT32_MAX ||
	    (c->src_y + c->src_h) * 65536.0 > UINT32_MAX)
		return -ERANGE;
	double x = c->src_x, y = c->src_y, w = c->src_w, h = c->src_h;
	if (c->transform != WL_OUTPUT_TRANSFORM_NORMAL && c->buffer) {
		/* the viewport's source is in the surface's coordinates, the buffer turned
		 * back: take it to the buffer's (wl_output.transform, corners mapped) */
		double bw = c->buffer->width, bh = c->buffer->height;
		double sw = c->transform & 1 ? bh : bw, sh = c->transform & 1 ? bw : bh;
		double p[2][2] = { { x, y }, { x + w, y + h } };
		for (int i = 0; i < 2; i++) {
			double px = p[i][0], py = p[i][1];
			switch (c->transform) {
			case WL_OUTPUT_TRANSFORM_90: p[i][0] = sh - py; p[i][1] = px; break;
			case WL_OUTPUT_TRANSFORM_180: p[i][0] = sw - px; p[i][1] = sh - py; break;
			case WL_OUTPUT_TRANSFORM_270: p[i][0] = py; p[i][1] = sw - px; break;
			case WL_OUTPUT_TRANSFORM_FLIPPED: p[i][0] = sw - px; break;
			case WL_OUTPUT_TRANSFORM_FLIPPED_90: p[i][0] = sh - py; p[i][1] = sw - px; break;
			case WL_OUTPUT_TRANSFORM_FLIPPED_180: p[i][1] = sh - py; break;
			case WL_OUTPUT_TRANSFORM_FLIPPED_270: p[i][0] = py; p[i][1] = px; break;
			default: break;
			}
		}
		x = fmin(p[0][0], p[1][0]);
		y = fmin(p[0][1], p[1][1]);
		w = fabs(p[1][0] - p[0][0]);
		h = fabs(p[1][1] - p[0][1]);
	}
	src[0] = (uint32_t)(x * 65536.0);
	src[1] = (uint32_t)(y * 65536.0);
	src[2] = (uint32_t)(w * 65536.0);
	src[3] = (uint32_t)(h * 65536.0);
	return 0;
}

/* Give one mapped surface's content to its layer at x, y and stacking slot *z (advanced
 * when placed); a setter the library refuses is reported and leaves the surface as is. */
static void place_surface(struct server *srv, struct surface *s, int32_t x, int32_t y, int *z)
{
	struct dispman_buffer *show = NULL;
	struct buffer *b = s->current.buffer;
	if (b->type == BUFFER_SHM)
		show = shm_upload(s);
	else
		show = b->dbuf;
	if (!show)
		return;
	if (!s->layer) {
		s->layer = dispman_layer_create(srv->out);
		if (!s->layer) {
			wlog(DISPMAN_LOG_ERROR, "cannot create a layer for surface %u",
				wl_resource_get_id(s->resource));
			return;
		}
		srv->layers++;
		s->name_changed = s->name[0] != '\0';
	}
	if (s->name_changed) {
		dispman_layer_set_name(s->layer, s->name);
		s->name_changed = false;
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
	const struct surface_state *c = &s->current;
	uint32_t src[4];
	if ((r = source_fixed(c, src)) < 0) {
		layer_refused(s, "dispman_layer_set_source", r);
		return;
	}
	/* wl_surface.set_buffer_transform: a buffer drawn turned the output's way is scanned
	 * out as it is (the library turns only what is not) */
	if ((r = dispman_layer_set_transform(s->layer, (enum dispman_transform)c->transform)) < 0) {
		layer_refused(s, "dispman_layer_set_transform", r);
		return;
	}
	int32_t w, h;
	surface_get_size(s, &w, &h);
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
	bool moved = s->x != x || s->y != y || s->w != w || s->h != h;
	s->x = x;
	s->y = y;
	s->w = w;
	s->h = h;
	if (!was_mapped || moved)
		wl_signal_emit(&srv->events.map_changed, s);
}

/* Give one surface's content to its layer; recurse into its subsurfaces. */
static void place_tree(struct server *srv, struct surface *s, int32_t x, int32_t y, int *z,
	bool parent_mapped)
{
	struct stack_entry *e;
	bool mapped = parent_mapped && surface_has_content(s);
	wl_list_for_each(e, &s->stack, link) {
		if (e->surface != s) {
			struct subsurface *sub = e->surface->sub;
			place_tree(srv, e->surface, x + (sub ? sub->x : 0), y + (sub ? sub->y : 0),
				z, mapped);
			continue;
		}
		if (!mapped) {
			if (s->mapped || s->layer)
				surface_unmap(s);
			continue;
		}
		place_surface(srv, s, x, y, z);
	}
}

/* After a successful commit: the buffers now in the frame get their screen holds. */
static void tree_committed(struct server *srv, struct surface *s, bool *zero_copy)
{
	struct stack_entry *e;
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
		struct buffer *b = s->current.buffer;
		if (b && b->type == BUFFER_SHM) {
			shm_slots_committed(s);
		} else if (b && b->dbuf == s->shown) {
			buffer_screen_committed(b);
		}
		/* a client's own memory on a plane: a dma-buf, or an shm pool (udmabuf) */
		bool client_mem = b && b->dbuf && b->dbuf == s->shown &&
			b->type != BUFFER_SINGLE_PIXEL;
		if (pl.state == DISPMAN_PLACEMENT_ON_PLANE && client_mem) {
			s->zero_copy = true;
			*zero_copy = true;
		}
		wlog(DISPMAN_LOG_DEBUG, "surface %u: %s%s plane %u (reason %d)",
			wl_resource_get_id(s->resource),
			b && b->type == BUFFER_DMABUF ? "dma-buf " :
			b && b->type == BUFFER_SHM ? (client_mem ? "shm zero-copy " : "shm copy ") :
						      "",
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

static void send_feedback(struct server *srv, struct wl_list *list, bool presented)
{
	struct feedback *f, *tmp;
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

static void repaint(struct server *srv)
{
	if (srv->flip_pending || srv->blanked || srv->disconnected)
		return;
	int z = 1;
	struct shell_surface *t;
	wl_list_for_each(t, &srv->toplevels, link) {
		int32_t x = 0, y = 0;
		if (!t->surface)
			continue;
		bool shown = xdg_surface_origin(t, &x, &y);
		place_tree(srv, t->surface, x, y, &z, t->configured && shown);
	}
	srv->dirty = false;
	int ret = dispman_output_commit(srv->out);
	srv->stats.repaints++;
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "commit failed (%s): frame callbacks sent without a flip",
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
	struct feedback *f;
	wl_list_for_each(f, &srv->fb_waiting, link)
		f->zero_copy = f->surface && f->surface->zero_copy;
	wl_list_insert_list(srv->frames_inflight.prev, &srv->frames_waiting);
	wl_list_init(&srv->frames_waiting);
	wl_list_insert_list(srv->fb_inflight.prev, &srv->fb_waiting);
	wl_list_init(&srv->fb_waiting);
	srv->flip_pending = true;
}

static void on_flip(struct dispman_output *out, uint64_t sequence, const struct timespec *time,
	void *data)
{
	struct server *srv = data;
	srv->flip_done = true;
	srv->flip_seq = sequence;
	srv->flip_time = *time;
	srv->stats.flips++;
}

/* After the device's dispatch: the library released the old buffers; now the frame's
 * callbacks, then the next frame if anything is waiting. */
void scene_after_flip(struct server *srv)
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


void scene_after_capture(struct server *srv)
{
	/* flips that arrived inside the capture end the frame cycle as usual; the restoring
	 * modeset leaves no flip pending on our side */
	if (srv->flip_done) {
		scene_after_flip(srv);
	} else if (srv->flip_pending) {
		srv->flip_pending = false;
		srv->flip_done = true;
		clock_gettime(CLOCK_MONOTONIC, &srv->flip_time);
		scene_after_flip(srv);
	}
}

int scene_init(struct server *srv)
{
	srv->repaint = repaint;
	int ret = dispman_output_set_frame_callback(srv->out, on_flip, srv);
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "cannot set the frame callback of %s: %s",
			dispman_output_get_name(srv->out), strerror(-ret));
		return ret;
	}
	/* a first (modeset) commit: the screen goes black and flips start */
	ret = dispman_output_commit(srv->out);
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "first commit on %s failed: %s",
			dispman_output_get_name(srv->out), strerror(-ret));
		return ret;
	}
	srv->flip_pending = true;
	return 0;
}

void scene_finish(struct server *srv)
{
	dispman_output_set_frame_callback(srv->out, NULL, NULL);
	srv->repaint = NULL;
}
