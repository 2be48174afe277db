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
#include "output.h"
#include "repaint.h"
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

/* Give one mapped surface's content to its layer on o at x, y (layout coordinates) and
 * stacking slot *z (advanced when placed); a setter the library refuses is reported and
 * leaves the surface as is. A surface whose layer is on another output leaves it first. */
static void place_surface(struct output *o, struct surface *s, int32_t x, int32_t y, int *z)
{
	struct server *srv = o->srv;
	if (s->layer && s->output != o)
		surface_unmap(s);
	struct dispman_buffer *show = NULL;
	struct buffer *b = s->current.buffer;
	if (b->type == BUFFER_SHM)
		show = shm_upload(s);
	else
		show = b->dbuf;
	if (!show)
		return;
	if (!s->layer) {
		s->layer = dispman_layer_create(o->out);
		if (!s->layer) {
			wlog(DISPMAN_LOG_ERROR, "cannot create a layer for surface %u",
				wl_resource_get_id(s->resource));
			return;
		}
		srv->layers++;
		s->output = o;
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
	/* on the output: the layout's coordinates less its place */
	int32_t dst[4] = { x - o->x, y - o->y, w, h };
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
			dispman_layer_set_destination(s->layer, dst[0], dst[1], (uint32_t)w,
				(uint32_t)h);
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

/* Give one surface's content to its layer on o; recurse into its subsurfaces. */
static void place_tree(struct output *o, struct surface *s, int32_t x, int32_t y, int *z,
	bool parent_mapped)
{
	struct stack_entry *e;
	bool mapped = parent_mapped && surface_has_content(s);
	wl_list_for_each(e, &s->stack, link) {
		if (e->surface != s) {
			struct subsurface *sub = e->surface->sub;
			place_tree(o, e->surface, x + (sub ? sub->x : 0), y + (sub ? sub->y : 0),
				z, mapped);
			continue;
		}
		if (!mapped) {
			if (s->mapped || s->layer)
				surface_unmap(s);
			continue;
		}
		place_surface(o, s, x, y, z);
	}
}

/* ---- mirror: the other outputs' layers show what the surface's own layer shows ---- */

struct mirror_layer {
	struct surface *surface;
	struct dispman_layer *layer;
	struct dispman_buffer *shown;
	uint32_t src[4];
	int32_t dst[4];
	int z;
	int32_t transform;
	bool fresh;                     /* no setter run yet */
	bool used;                      /* placed by this repaint */
	struct wl_list link;            /* output.mirror_layers */
};

static struct mirror_layer *mirror_layer_get(struct output *o, struct surface *s)
{
	struct mirror_layer *m;
	wl_list_for_each(m, &o->mirror_layers, link)
		if (m->surface == s)
			return m;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->layer = dispman_layer_create(o->out);
	if (!m->layer) {
		wlog(DISPMAN_LOG_ERROR, "cannot create a mirror layer for surface %u on %s",
			wl_resource_get_id(s->resource), dispman_output_get_name(o->out));
		free(m);
		return NULL;
	}
	o->srv->layers++;
	m->surface = s;
	m->fresh = true;
	wl_list_insert(&o->mirror_layers, &m->link);
	return m;
}

static void mirror_layer_free(struct output *o, struct mirror_layer *m)
{
	dispman_layer_destroy(m->layer);
	o->srv->layers--;
	wl_list_remove(&m->link);
	free(m);
}

/* The same setters as the surface's own layer got at its last placement. */
static void mirror_surface(struct output *o, struct surface *s, int *z)
{
	struct mirror_layer *m = mirror_layer_get(o, s);
	if (!m)
		return;
	m->used = true;
	int r = 0;
	if (m->fresh || m->shown != s->shown)
		r = dispman_layer_set_buffer(m->layer, s->shown);
	m->shown = s->shown;
	if (r == 0 && (m->fresh || m->transform != s->current.transform))
		r = dispman_layer_set_transform(m->layer,
			(enum dispman_transform)s->current.transform);
	m->transform = s->current.transform;
	if (r == 0 && (m->fresh || memcmp(m->src, s->l_src, sizeof(m->src)) != 0))
		r = dispman_layer_set_source(m->layer, s->l_src[0], s->l_src[1], s->l_src[2],
			s->l_src[3]);
	memcpy(m->src, s->l_src, sizeof(m->src));
	/* the mirror layout puts every output at (0, 0): the same destination */
	if (r == 0 && (m->fresh || memcmp(m->dst, s->l_dst, sizeof(m->dst)) != 0))
		r = dispman_layer_set_destination(m->layer, s->l_dst[0], s->l_dst[1],
			(uint32_t)s->l_dst[2], (uint32_t)s->l_dst[3]);
	memcpy(m->dst, s->l_dst, sizeof(m->dst));
	if (r == 0 && (m->fresh || m->z != *z))
		r = dispman_layer_set_z(m->layer, *z);
	m->z = (*z)++;
	m->fresh = false;
	if (r < 0) {
		wlog(DISPMAN_LOG_ERROR, "surface %u: its mirror on %s refused: %s",
			wl_resource_get_id(s->resource), dispman_output_get_name(o->out),
			strerror(-r));
		o->srv->stats.layer_errors++;
		m->used = false; /* freed after this repaint, made again at the next */
	}
}

static void mirror_tree(struct output *o, struct surface *s, int *z)
{
	struct stack_entry *e;
	wl_list_for_each(e, &s->stack, link) {
		if (e->surface != s)
			mirror_tree(o, e->surface, z);
		else if (s->mapped && s->layer && s->shown)
			mirror_surface(o, s, z);
	}
}

/* Mirror layers of surfaces no longer shown go. */
static void mirror_sweep(struct output *o)
{
	struct mirror_layer *m, *tmp;
	wl_list_for_each_safe(m, tmp, &o->mirror_layers, link) {
		if (!m->used)
			mirror_layer_free(o, m);
		else
			m->used = false;
	}
}

/* A surface goes: its mirror layers, and its feedback's link to it in frames in flight. */
static void on_surface_destroy(struct wl_listener *l, void *data)
{
	struct server *srv = wl_container_of(l, srv, scene_surface_destroy);
	struct surface *s = data;
	struct output *o;
	s->entered_output = NULL; /* no leave for a surface being destroyed */
	wl_list_for_each(o, &srv->output_list, link) {
		struct feedback *f;
		wl_list_for_each(f, &o->fb_inflight, link)
			if (f->surface == s)
				f->surface = NULL;
		wl_list_for_each(f, &o->fb_waiting, link)
			if (f->surface == s)
				f->surface = NULL;
		struct mirror_layer *m, *tmp;
		wl_list_for_each_safe(m, tmp, &o->mirror_layers, link)
			if (m->surface == s)
				mirror_layer_free(o, m);
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

static void send_feedback(struct output *o, struct wl_list *list, bool presented)
{
	struct server *srv = o->srv;
	struct feedback *f, *tmp;
	wl_list_for_each_safe(f, tmp, list, link) {
		if (presented) {
			struct wl_client *client = wl_resource_get_client(f->resource);
			struct wl_resource *r;
			wl_resource_for_each(r, &o->resources) {
				if (wl_resource_get_client(r) == client)
					wp_presentation_feedback_send_sync_output(f->resource, r);
			}
			uint64_t sec = (uint64_t)o->flip_time.tv_sec;
			uint32_t refresh_ns = o->refresh_mhz ?
				(uint32_t)(1000000000000ull / o->refresh_mhz) : 0;
			/* A driver without a vblank counter (every flip carries sequence 0:
			 * the library's pacing counts with timestamps) does not hold flips to
			 * vblank either (virtio-gpu): claim neither vsync nor a counter then. */
			struct dispman_output_stats ps = { .size = sizeof(ps) };
			bool vblank = dispman_output_get_stats(o->out, &ps) == 0 &&
				ps.clock != DISPMAN_PACING_TIMESTAMP;
			uint64_t seq = vblank ? o->flip_seq : 0;
			uint32_t flags = WP_PRESENTATION_FEEDBACK_KIND_HW_COMPLETION;
			if (vblank)
				flags |= WP_PRESENTATION_FEEDBACK_KIND_VSYNC |
					WP_PRESENTATION_FEEDBACK_KIND_HW_CLOCK;
			if (f->zero_copy)
				flags |= WP_PRESENTATION_FEEDBACK_KIND_ZERO_COPY;
			wp_presentation_feedback_send_presented(f->resource, (uint32_t)(sec >> 32),
				(uint32_t)sec, (uint32_t)o->flip_time.tv_nsec, refresh_ns,
				(uint32_t)(seq >> 32), (uint32_t)seq, flags);
			srv->stats.presented++;
		} else {
			wp_presentation_feedback_send_discarded(f->resource);
			srv->stats.discarded++;
		}
		wl_resource_destroy(f->resource);
	}
}

/* Whether the toplevel t is shown on o by its own layers (else, mirrored, by o's mirror
 * layers; else not at all). */
static bool toplevel_owner(struct output *o, struct shell_surface *t)
{
	while (t->parent)
		t = t->parent;
	return output_for(o->srv, t->want_output) == o;
}

/* Whether o shows a toplevel (by its own layers, or mirrored by its mirror layers). */
static bool shows_toplevel(struct output *o)
{
	struct shell_surface *t;
	wl_list_for_each(t, &o->srv->toplevels, link)
		if (t->surface && (toplevel_owner(o, t) ||
				   o->srv->layout == DISPMAN_WAYLAND_LAYOUT_MIRROR))
			return true;
	return false;
}

/*
 * Whether o's frame takes the frame callbacks and feedback waiting: when it shows a
 * toplevel, or when no output that can repaint does and o is the first connected one. An
 * output showing nothing (a second head beside the application's) must not: its empty
 * frame would end the callbacks before the output that shows the client's buffer flipped
 * to it, and a double-buffered client would draw again with both buffers still held.
 */
static bool takes_frames(struct output *o)
{
	struct server *srv = o->srv;
	if (wl_list_length(&srv->output_list) < 2 || shows_toplevel(o))
		return true;
	struct output *other;
	wl_list_for_each(other, &srv->output_list, link)
		if (other != o && !other->disconnected && !other->blanked &&
		    shows_toplevel(other))
			return false;
	return output_for(srv, 0) == o;
}

/* The frame callbacks and feedback o's frame answers, appended to frames and fbs: those
 * of the surfaces it shows (o's waiting lists), and when it takes_frames() the server's
 * and those of unplugged outputs (their surfaces go elsewhere). */
static void take_waiting(struct output *o, bool takes, struct wl_list *frames,
	struct wl_list *fbs)
{
	struct server *srv = o->srv;
	wl_list_insert_list(frames->prev, &o->frames_waiting);
	wl_list_init(&o->frames_waiting);
	wl_list_insert_list(fbs->prev, &o->fb_waiting);
	wl_list_init(&o->fb_waiting);
	if (!takes)
		return;
	wl_list_insert_list(frames->prev, &srv->frames_waiting);
	wl_list_init(&srv->frames_waiting);
	wl_list_insert_list(fbs->prev, &srv->fb_waiting);
	wl_list_init(&srv->fb_waiting);
	struct output *other;
	wl_list_for_each(other, &srv->output_list, link) {
		if (other == o || !other->disconnected)
			continue;
		wl_list_insert_list(frames->prev, &other->frames_waiting);
		wl_list_init(&other->frames_waiting);
		wl_list_insert_list(fbs->prev, &other->fb_waiting);
		wl_list_init(&other->fb_waiting);
	}
}

/* One output's frame: its surfaces to its layers, one commit; the frame callbacks and
 * feedback waiting go with it (take_waiting()). */
static void paint_output(struct output *o)
{
	struct server *srv = o->srv;
	if (o->flip_pending || o->blanked || o->disconnected)
		return;
	bool mirror = srv->layout == DISPMAN_WAYLAND_LAYOUT_MIRROR, owns = false;
	int z = 1;
	struct shell_surface *t;
	wl_list_for_each(t, &srv->toplevels, link) {
		int32_t x = 0, y = 0;
		if (!t->surface)
			continue;
		if (!toplevel_owner(o, t)) {
			if (mirror)
				mirror_tree(o, t->surface, &z);
			continue;
		}
		owns = true;
		bool shown = xdg_surface_origin(t, &x, &y);
		place_tree(o, t->surface, x, y, &z, t->configured && shown);
	}
	mirror_sweep(o);
	o->dirty = false;
	/* mirrored: the other outputs show what o's layers show from now on */
	if (mirror && owns && wl_list_length(&srv->output_list) > 1)
		server_schedule_others(srv, o);
	bool takes = takes_frames(o);
	int ret = dispman_output_commit(o->out);
	srv->stats.repaints++;
	bool own = !wl_list_empty(&o->frames_waiting) || !wl_list_empty(&o->fb_waiting);
	if (ret < 0 && !takes && !own)
		wlog(DISPMAN_LOG_ERROR, "commit failed (%s)", strerror(-ret));
	if (ret < 0 && !takes && !own)
		return;
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "commit failed (%s): frame callbacks sent without a flip",
			strerror(-ret));
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		uint32_t ms = (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
		struct wl_list frames, fbs;
		wl_list_init(&frames);
		wl_list_init(&fbs);
		take_waiting(o, takes, &frames, &fbs);
		send_frame_callbacks(&frames, ms, &srv->stats.frame_callbacks);
		send_feedback(o, &fbs, false);
		return;
	}
	bool zero_copy = false;
	wl_list_for_each(t, &srv->toplevels, link) {
		if (t->surface && toplevel_owner(o, t))
			tree_committed(srv, t->surface, &zero_copy);
	}
	if (zero_copy)
		srv->stats.zero_copy_frames++;
	o->flip_pending = true;
	struct wl_list fbs;
	wl_list_init(&fbs);
	take_waiting(o, takes, &o->frames_inflight, &fbs);
	struct feedback *f;
	wl_list_for_each(f, &fbs, link)
		f->zero_copy = f->surface && f->surface->zero_copy;
	wl_list_insert_list(o->fb_inflight.prev, &fbs);
}

/* paint_output() with srv->repainting set: the map changes it makes are the repaint's */
static void repaint_output(struct output *o)
{
	o->srv->repainting = true;
	paint_output(o);
	o->srv->repainting = false;
}

/* Every output that is free and has something to show. */
static void paint_dirty(struct server *srv)
{
	struct output *o;
	srv->dirty = false;
	wl_list_for_each(o, &srv->output_list, link)
		if (o->dirty)
			repaint_output(o);
}

/* The idle repaint: now, or with late repaints on its outputs' deadlines (repaint.c). */
static void repaint(struct server *srv)
{
	if (!srv->late)
		paint_dirty(srv);
	else if (!late_repaint_schedule(srv))
		late_repaint_run(srv);
}

int scene_set_repaint_window(struct server *srv, int32_t window_us)
{
	return late_repaint_set(srv, window_us, paint_dirty);
}

static void on_flip(struct dispman_output *out, uint64_t sequence, const struct timespec *time,
	void *data)
{
	struct output *o = data;
	o->flip_done = true;
	o->flip_seq = sequence;
	o->flip_time = *time;
	o->srv->stats.flips++;
}

/* One output's flip arrived: its frame's callbacks, then its next frame if anything is
 * waiting. */
static void output_after_flip(struct output *o)
{
	struct server *srv = o->srv;
	if (!o->flip_done)
		return;
	o->flip_done = false;
	o->flip_pending = false;
	uint32_t ms = (uint32_t)(o->flip_time.tv_sec * 1000 + o->flip_time.tv_nsec / 1000000);
	send_frame_callbacks(&o->frames_inflight, ms, &srv->stats.frame_callbacks);
	send_feedback(o, &o->fb_inflight, true);
	/* late repaints: a dirty output's repaint waits for its deadline, or runs now timed
	 * (repaint.c) */
	if (o->dirty && srv->late) {
		if (!late_repaint_schedule(srv))
			late_repaint_run(srv);
		return;
	}
	if (o->dirty || !wl_list_empty(&o->frames_waiting) || !wl_list_empty(&o->fb_waiting) ||
	    ((!wl_list_empty(&srv->frames_waiting) || !wl_list_empty(&srv->fb_waiting)) &&
	     takes_frames(o)))
		repaint_output(o);
}

/* After the device's dispatch: the library released the old buffers; now each flipped
 * output's frame callbacks, then its next frame. */
void scene_after_flip(struct server *srv)
{
	struct output *o, *tmp;
	wl_list_for_each_safe(o, tmp, &srv->output_list, link)
		output_after_flip(o);
}

void scene_after_capture(struct output *o)
{
	/* flips that arrived inside the capture end the frame cycle as usual; the restoring
	 * modeset leaves no flip pending on our side */
	if (o->flip_done) {
		output_after_flip(o);
	} else if (o->flip_pending) {
		o->flip_pending = false;
		o->flip_done = true;
		clock_gettime(CLOCK_MONOTONIC, &o->flip_time);
		output_after_flip(o);
	}
}

int scene_output_init(struct output *o)
{
	int ret = dispman_output_set_frame_callback(o->out, on_flip, o);
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "cannot set the frame callback of %s: %s",
			dispman_output_get_name(o->out), strerror(-ret));
		return ret;
	}
	/* a first (modeset) commit: the screen goes black and flips start */
	ret = dispman_output_commit(o->out);
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "first commit on %s failed: %s",
			dispman_output_get_name(o->out), strerror(-ret));
		dispman_output_set_frame_callback(o->out, NULL, NULL);
		return ret;
	}
	o->flip_pending = true;
	return 0;
}

void scene_output_finish(struct output *o)
{
	dispman_output_set_frame_callback(o->out, NULL, NULL);
	struct mirror_layer *m, *tmp;
	wl_list_for_each_safe(m, tmp, &o->mirror_layers, link)
		mirror_layer_free(o, m);
	struct wl_resource *cb, *cbt;
	/* its frame's callbacks wait for another output's frame */
	wl_resource_for_each_safe(cb, cbt, &o->frames_inflight) {
		wl_list_remove(wl_resource_get_link(cb));
		wl_list_insert(o->srv->frames_waiting.prev, wl_resource_get_link(cb));
	}
	wl_list_insert_list(o->srv->fb_waiting.prev, &o->fb_inflight);
	wl_list_init(&o->fb_inflight);
	/* and those of its surfaces waiting for its next frame */
	wl_list_insert_list(o->srv->frames_waiting.prev, &o->frames_waiting);
	wl_list_init(&o->frames_waiting);
	wl_list_insert_list(o->srv->fb_waiting.prev, &o->fb_waiting);
	wl_list_init(&o->fb_waiting);
}

int scene_init(struct server *srv)
{
	srv->repaint = repaint;
	srv->scene_surface_destroy.notify = on_surface_destroy;
	wl_signal_add(&srv->events.surface_destroy, &srv->scene_surface_destroy);
	return 0;
}

void scene_finish(struct server *srv)
{
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link)
		scene_output_finish(o);
	if (srv->repaint)
		wl_list_remove(&srv->scene_surface_destroy.link);
	srv->repaint = NULL;
}
