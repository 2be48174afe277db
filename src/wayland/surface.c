/* SPDX-License-Identifier: MIT */
/*
 * wl_compositor, wl_surface, wl_region, wl_subcompositor and wp_viewporter: the
 * double-buffered surface state (pending -> cached for synchronized subsurfaces ->
 * current) and the stacking of subsurfaces.
 */
#include "surface.h"

#include "buffer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "presentation-time-server-protocol.h"
#include "viewporter-server-protocol.h"

static const struct wl_surface_interface surface_impl;

struct surface *surface_from_resource(struct wl_resource *res)
{
	return wl_resource_get_user_data(res);
}

struct surface *surface_checked_from_resource(struct wl_resource *res)
{
	if (!wl_resource_instance_of(res, &wl_surface_interface, &surface_impl))
		return NULL;
	return wl_resource_get_user_data(res);
}

static void surface_state_init(struct surface_state *st)
{
	memset(st, 0, sizeof(*st));
	wl_list_init(&st->frames);
	wl_list_init(&st->feedbacks);
	st->scale = 1;
	st->src_x = st->src_y = st->src_w = st->src_h = -1;
	st->dst_w = st->dst_h = -1;
	st->input_infinite = true;
	wl_array_init(&st->input);
}

/* Sends discarded to every feedback of the list and destroys it. */
static void surface_discard_feedbacks(struct server *srv, struct wl_list *list)
{
	struct feedback *f, *tmp;
	wl_list_for_each_safe(f, tmp, list, link) {
		wp_presentation_feedback_send_discarded(f->resource);
		srv->stats.discarded++;
		wl_resource_destroy(f->resource);
	}
}

/* Drops the state's buffer hold, callbacks (destroyed unsent) and feedbacks (discarded). */
static void surface_state_finish(struct server *srv, struct surface_state *st)
{
	if (st->buffer)
		buffer_unhold(st->buffer);
	st->buffer = NULL;
	struct wl_resource *cb, *tmp;
	wl_resource_for_each_safe(cb, tmp, &st->frames)
		wl_resource_destroy(cb);
	surface_discard_feedbacks(srv, &st->feedbacks);
	wl_array_release(&st->input);
	wl_array_init(&st->input);
}

/* Moves what `from` set onto `to` (from becomes empty). */
static void surface_state_merge(struct surface_state *to, struct surface_state *from)
{
	if (from->attached) {
		if (to->buffer)
			buffer_unhold(to->buffer);
		to->buffer = from->buffer;
		from->buffer = NULL;
		to->attached = true;
		to->dx = from->dx;
		to->dy = from->dy;
		from->attached = false;
	}
	if (from->offset_set) {
		to->dx = from->dx;
		to->dy = from->dy;
		to->offset_set = true;
		from->offset_set = false;
	}
	from->dx = from->dy = 0;
	box_union(&to->damage, &from->damage);
	to->damage_all = to->damage_all || from->damage_all;
	from->damage = (struct box){ 0 };
	from->damage_all = false;
	wl_list_insert_list(to->frames.prev, &from->frames);
	wl_list_init(&from->frames);
	wl_list_insert_list(to->feedbacks.prev, &from->feedbacks);
	wl_list_init(&from->feedbacks);
	if (from->scale_set) {
		to->scale = from->scale;
		to->scale_set = true;
		from->scale_set = false;
	}
	if (from->transform_set) {
		to->transform = from->transform;
		to->transform_set = true;
		from->transform_set = false;
	}
	if (from->viewport_changed) {
		to->src_x = from->src_x;
		to->src_y = from->src_y;
		to->src_w = from->src_w;
		to->src_h = from->src_h;
		to->dst_w = from->dst_w;
		to->dst_h = from->dst_h;
		to->viewport_changed = true;
		from->viewport_changed = false;
	}
	if (from->input_set) {
		wl_array_release(&to->input);
		to->input = from->input;
		to->input_infinite = from->input_infinite;
		to->input_set = true;
		wl_array_init(&from->input);
		from->input_set = false;
	}
}

bool surface_accepts_input(const struct surface *s, double sx, double sy)
{
	if (s->current.input_infinite)
		return true;
	/* the last rectangle that holds the point says whether it is in */
	bool in = false;
	const struct region_op *op;
	wl_array_for_each(op, &s->current.input)
		if (sx >= op->x && sy >= op->y && sx < (double)op->x + op->w &&
		    sy < (double)op->y + op->h)
			in = op->add;
	return in;
}

bool surface_has_content(struct surface *s)
{
	return s->current.buffer && s->current.buffer->width > 0 && s->role != ROLE_NONE &&
		s->role != ROLE_CURSOR && s->role != ROLE_DND_ICON;
}

/* Surface size in surface coordinates: the viewport's destination, else its source size,
 * else the buffer over the scale. */
void surface_get_size(const struct surface *s, int32_t *w, int32_t *h)
{
	const struct surface_state *c = &s->current;
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
		if (c->transform & 1) { /* turned by 90 or 270: the surface is the buffer turned */
			int32_t t = *w;
			*w = *h;
			*h = t;
		}
	}
}

void surface_unmap(struct surface *s)
{
	if (s->layer) {
		dispman_layer_destroy(s->layer);
		s->layer = NULL;
		s->srv->layers--;
	}
	s->shown = NULL;
	if (s->mapped) {
		s->mapped = false;
		wl_signal_emit(&s->srv->events.map_changed, s);
	}
	server_schedule_repaint(s->srv);
}

/*
 * Where a commit's frame callbacks and feedback wait for a frame: in an extended layout of
 * several outputs, with the output that shows the surface (its frame answers them, however
 * fast the others flip); else, or before the surface was shown, in the server's lists (the
 * next frame of an output that shows a toplevel: scene.c).
 */
static void waiting_lists(struct surface *s, struct wl_list **frames, struct wl_list **fbs)
{
	struct server *srv = s->srv;
	struct output *o = s->output;
	if (o && !o->disconnected && srv->layout == DISPMAN_WAYLAND_LAYOUT_EXTEND &&
	    wl_list_length(&srv->output_list) > 1) {
		*frames = &o->frames_waiting;
		*fbs = &o->fb_waiting;
		return;
	}
	*frames = &srv->frames_waiting;
	*fbs = &srv->fb_waiting;
}

/* The surface's feedback in list (waiting for a frame) is superseded: discarded. */
static void discard_older(struct server *srv, struct wl_list *list, struct surface *s)
{
	struct feedback *f, *tmp;
	wl_list_for_each_safe(f, tmp, list, link) {
		if (f->surface == s) {
			wp_presentation_feedback_send_discarded(f->resource);
			srv->stats.discarded++;
			wl_resource_destroy(f->resource);
		}
	}
}

/* Applies a committed state to the current state. */
static void surface_commit_state(struct surface *s, struct surface_state *from)
{
	struct server *srv = s->srv;
	struct surface_state *c = &s->current;
	bool new_buffer = from->attached;
	struct buffer *old = c->buffer;
	bool moved = new_buffer || from->offset_set;
	s->commit_dx = moved ? from->dx : 0;
	s->commit_dy = moved ? from->dy : 0;
	if (new_buffer && from->buffer && !from->buffer->resource) {
		/* destroyed by the client before the commit: same as attaching nothing */
		buffer_unhold(from->buffer);
		from->buffer = NULL;
	}
	/* frames and feedbacks go to the next repaint, not to the surface */
	struct wl_list *frames, *fbs;
	waiting_lists(s, &frames, &fbs);
	wl_list_insert_list(frames->prev, &from->frames);
	wl_list_init(&from->frames);
	if (!wl_list_empty(&from->feedbacks)) {
		/* an older feedback of this surface not yet repainted is superseded */
		discard_older(srv, &srv->fb_waiting, s);
		struct output *o;
		wl_list_for_each(o, &srv->output_list, link)
			discard_older(srv, &o->fb_waiting, s);
		wl_list_insert_list(fbs->prev, &from->feedbacks);
		wl_list_init(&from->feedbacks);
	}
	if (from->damage_all || (from->damage.w > 0 && (from->viewport_changed ||
	    c->src_w > 0 || c->dst_w > 0 || c->scale != 1 || c->transform != 0)))
		c->damage_all = true;
	else
		box_union(&c->damage, &from->damage);
	from->damage = (struct box){ 0 };
	from->damage_all = false;
	struct surface_state tmp_from = *from;
	wl_list_init(&tmp_from.frames);
	wl_list_init(&tmp_from.feedbacks);
	surface_state_merge(c, &tmp_from);
	from->attached = false;
	from->buffer = NULL;
	from->offset_set = false;
	from->dx = from->dy = 0;
	c->offset_set = false;
	from->scale_set = false;
	from->transform_set = false;
	from->viewport_changed = false;
	from->input_set = false;
	wl_array_init(&from->input); /* moved to c */
	if (new_buffer || c->damage_all || c->damage.w > 0)
		s->content_changed = true;
	if (new_buffer && c->buffer) {
		c->buffer->committed = true;
		if (old && c->buffer != old)
			c->damage_all = c->damage_all ||
				old->width != c->buffer->width || old->height != c->buffer->height;
		else if (!old)
			c->damage_all = true;
	}
	if (new_buffer && !c->buffer && (s->layer || s->mapped))
		surface_unmap(s);
}

/* The subsurface or any ancestor is synchronized. */
static bool effectively_sync(struct surface *s)
{
	for (struct surface *p = s; p && p->sub; p = p->sub->parent)
		if (p->sub->sync)
			return true;
	return false;
}

/* The positions of s's subsurfaces, part of s's state: from its commit (pending) or from
 * its cached commit (cached), applied or moved into its cache. */
enum position_step { POS_APPLY_PENDING, POS_APPLY_CACHED, POS_CACHE_PENDING };

static void child_positions(struct surface *s, enum position_step step)
{
	struct stack_entry *e;
	wl_list_for_each(e, &s->stack, link) {
		struct subsurface *sub = e->surface != s ? e->surface->sub : NULL;
		if (!sub)
			continue;
		if (step == POS_CACHE_PENDING && sub->pending_pos) {
			sub->cached_x = sub->pending_x;
			sub->cached_y = sub->pending_y;
			sub->cached_pos = true;
			sub->pending_pos = false;
		} else if (step == POS_APPLY_PENDING && sub->pending_pos) {
			sub->x = sub->pending_x;
			sub->y = sub->pending_y;
			sub->pending_pos = false;
		} else if (step == POS_APPLY_CACHED && sub->cached_pos) {
			sub->x = sub->cached_x;
			sub->y = sub->cached_y;
			sub->cached_pos = false;
		}
	}
}

static void apply_cached_children(struct surface *s)
{
	struct stack_entry *e;
	wl_list_for_each(e, &s->stack, link) {
		if (e->surface == s)
			continue;
		struct subsurface *sub = e->surface->sub;
		if (sub && sub->has_cache) {
			surface_commit_state(e->surface, &sub->cached);
			child_positions(e->surface, POS_APPLY_CACHED);
			sub->has_cache = false;
		}
		apply_cached_children(e->surface);
	}
}

/* Protocol checks of a state about to be committed; false when an error was posted. */
static bool state_valid(struct surface *s, struct surface_state *st)
{
	struct server *srv = s->srv;
	struct buffer *b = st->attached ? st->buffer : s->current.buffer;
	int32_t scale = st->scale_set ? st->scale : s->current.scale;
	if (!b || !b->resource)
		return true;
	if (scale > 1 && (b->width % scale || b->height % scale) &&
	    wl_resource_get_version(s->resource) >= 6) {
		wl_resource_post_error(s->resource, WL_SURFACE_ERROR_INVALID_SIZE,
			"buffer %dx%d is not a multiple of the scale %d", b->width, b->height,
			scale);
		srv->stats.protocol_errors++;
		return false;
	}
	const struct surface_state *v = st->viewport_changed ? st : &s->current;
	if (s->viewport && v->src_w > 0) {
		double bw = (double)b->width / scale, bh = (double)b->height / scale;
		int32_t t = st->transform_set ? st->transform : s->current.transform;
		if (t & 1) { /* the viewport's source is in the turned buffer's coordinates */
			double tmp = bw;
			bw = bh;
			bh = tmp;
		}
		if (v->src_x + v->src_w > bw || v->src_y + v->src_h > bh) {
			wl_resource_post_error(s->viewport, WP_VIEWPORT_ERROR_OUT_OF_BUFFER,
				"source rectangle %gx%g+%g+%g lies outside the %dx%d buffer",
				v->src_w, v->src_h, v->src_x, v->src_y, b->width, b->height);
			srv->stats.protocol_errors++;
			return false;
		}
		if (v->dst_w <= 0 && (v->src_w != floor(v->src_w) || v->src_h != floor(v->src_h))) {
			wl_resource_post_error(s->viewport, WP_VIEWPORT_ERROR_BAD_SIZE,
				"source size %gx%g is not integer and no destination is set",
				v->src_w, v->src_h);
			srv->stats.protocol_errors++;
			return false;
		}
	}
	return true;
}

static void surface_commit(struct wl_client *client, struct wl_resource *res)
{
	struct surface *s = surface_from_resource(res);
	struct server *srv = s->srv;
	srv->stats.surface_commits++;
	if (!state_valid(s, &s->pending))
		return;
	if (s->sub && effectively_sync(s)) {
		surface_state_merge(&s->sub->cached, &s->pending);
		child_positions(s, POS_CACHE_PENDING);
		s->sub->has_cache = true;
		return;
	}
	surface_commit_state(s, &s->pending);
	child_positions(s, POS_APPLY_PENDING);
	apply_cached_children(s);
	if (s->role_commit)
		s->role_commit(s, s->role_data);
	/* what is under the pointer may have changed: the seat picks again now (input finds
	 * surfaces from the committed state), before the client's next request */
	if (s->mapped)
		wl_signal_emit(&srv->events.map_changed, s);
	server_schedule_repaint(srv);
}

static void surface_destroy_req(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void surface_attach(struct wl_client *client, struct wl_resource *res,
	struct wl_resource *buffer, int32_t x, int32_t y)
{
	struct surface *s = surface_from_resource(res);
	struct buffer *b = NULL;
	bool v5 = wl_resource_get_version(res) >= WL_SURFACE_OFFSET_SINCE_VERSION;
	if (v5 && (x || y)) {
		wl_resource_post_error(res, WL_SURFACE_ERROR_INVALID_OFFSET,
			"attach with offset %d,%d: wl_surface 5 takes it with wl_surface.offset",
			x, y);
		s->srv->stats.protocol_errors++;
		return;
	}
	if (buffer) {
		b = buffer_from_resource(s->srv, buffer);
		if (!b) {
			wl_resource_post_error(res, WL_DISPLAY_ERROR_INVALID_OBJECT,
				"wl_buffer %u is not a buffer this compositor knows",
				wl_resource_get_id(buffer));
			s->srv->stats.protocol_errors++;
			return;
		}
		/* a role may refuse buffers for now (xdg-shell before the first ack) */
		if (s->role_refuses_buffer && s->role_refuses_buffer(s, s->role_data))
			return;
		buffer_hold(b);
	}
	if (s->pending.buffer)
		buffer_unhold(s->pending.buffer);
	s->pending.buffer = b;
	s->pending.attached = true;
	if (!v5) {
		s->pending.dx = x;
		s->pending.dy = y;
	}
}

/* wl_surface.offset (v5): where the pending buffer goes relative to the current one. */
static void surface_offset(struct wl_client *client, struct wl_resource *res, int32_t x,
	int32_t y)
{
	struct surface *s = surface_from_resource(res);
	s->pending.dx = x;
	s->pending.dy = y;
	s->pending.offset_set = true;
}

static void add_damage(struct surface_state *st, int32_t x, int32_t y, int32_t w, int32_t h)
{
	if (w <= 0 || h <= 0)
		return;
	/* clamp huge values so that the union cannot overflow */
	if (x < -(1 << 20) || y < -(1 << 20) || x > (1 << 20) || y > (1 << 20) ||
	    w > (1 << 20) || h > (1 << 20)) {
		st->damage_all = true;
		return;
	}
	struct box r = { x, y, w, h };
	box_union(&st->damage, &r);
}

static void surface_damage(struct wl_client *client, struct wl_resource *res, int32_t x,
	int32_t y, int32_t w, int32_t h)
{
	struct surface *s = surface_from_resource(res);
	int32_t sc = s->current.scale > 0 ? s->current.scale : 1;
	if (sc > 1 && (w > (1 << 20) / sc || h > (1 << 20) / sc)) {
		s->pending.damage_all = true;
		return;
	}
	add_damage(&s->pending, x * sc, y * sc, w * sc, h * sc);
}

static void surface_damage_buffer(struct wl_client *client, struct wl_resource *res, int32_t x,
	int32_t y, int32_t w, int32_t h)
{
	add_damage(&surface_from_resource(res)->pending, x, y, w, h);
}

static void surface_frame(struct wl_client *client, struct wl_resource *res, uint32_t id)
{
	struct surface *s = surface_from_resource(res);
	struct wl_resource *cb = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (!cb) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(cb, NULL, NULL, server_unlink_resource);
	wl_list_insert(s->pending.frames.prev, wl_resource_get_link(cb));
}

static void surface_set_opaque_region(struct wl_client *client, struct wl_resource *res,
	struct wl_resource *region)
{
	/* a hint for the composer only; the planes are told opacity by the format */
}

static const struct wl_region_interface region_impl;

static void surface_set_input_region(struct wl_client *client, struct wl_resource *res,
	struct wl_resource *region)
{
	struct surface *s = surface_from_resource(res);
	struct surface_state *p = &s->pending;
	p->input.size = 0;
	p->input_infinite = region == NULL;
	p->input_set = true;
	if (!region)
		return;
	struct wl_array *ops = wl_resource_get_user_data(region);
	void *copy = ops->size ? wl_array_add(&p->input, ops->size) : NULL;
	if (ops->size && !copy) {
		wl_client_post_no_memory(client);
		return;
	}
	if (copy)
		memcpy(copy, ops->data, ops->size);
}

static void surface_set_buffer_transform(struct wl_client *client, struct wl_resource *res,
	int32_t transform)
{
	struct surface *s = surface_from_resource(res);
	if (transform < 0 || transform > WL_OUTPUT_TRANSFORM_FLIPPED_270) {
		wl_resource_post_error(res, WL_SURFACE_ERROR_INVALID_TRANSFORM,
			"transform %d is not a wl_output.transform", transform);
		s->srv->stats.protocol_errors++;
		return;
	}
	/* double-buffered: applied by the next commit (scene.c gives it to the layer) */
	s->pending.transform = transform;
	s->pending.transform_set = true;
}

static void surface_set_buffer_scale(struct wl_client *client, struct wl_resource *res,
	int32_t scale)
{
	struct surface *s = surface_from_resource(res);
	if (scale < 1) {
		wl_resource_post_error(res, WL_SURFACE_ERROR_INVALID_SCALE,
			"buffer scale %d is not positive", scale);
		s->srv->stats.protocol_errors++;
		return;
	}
	s->pending.scale = scale;
	s->pending.scale_set = true;
}

static const struct wl_surface_interface surface_impl = {
	.destroy = surface_destroy_req,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_opaque_region,
	.set_input_region = surface_set_input_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage_buffer,
	.offset = surface_offset,
};

static void subsurface_orphan(struct subsurface *sub);

static void surface_resource_destroy(struct wl_resource *res)
{
	struct surface *s = surface_from_resource(res);
	struct server *srv = s->srv;
	wl_signal_emit(&s->destroy_signal, s);
	/* subsurfaces of this surface lose their parent (and are unmapped) */
	struct stack_entry *e, *tmp;
	wl_list_for_each_safe(e, tmp, &s->stack, link) {
		if (e->surface != s && e->surface->sub)
			subsurface_orphan(e->surface->sub);
	}
	if (s->sub) {
		s->sub->surface = NULL;
		if (s->sub->parent) {
			wl_list_remove(&s->sub->entry.link);
			wl_list_init(&s->sub->entry.link);
		}
		surface_state_finish(srv, &s->sub->cached);
		s->sub = NULL;
	}
	/* feedback of this surface waiting for a frame: it will not be shown (those of
	 * frames in flight: scene.c's listener) */
	struct feedback *f, *ftmp;
	wl_list_for_each_safe(f, ftmp, &srv->fb_waiting, link)
		if (f->surface == s)
			f->surface = NULL;
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link)
		wl_list_for_each(f, &o->fb_waiting, link)
			if (f->surface == s)
				f->surface = NULL;
	wl_signal_emit(&srv->events.surface_destroy, s);
	s->entered = false;     /* no leave for a surface being destroyed */
	surface_unmap(s);
	surface_state_finish(srv, &s->pending);
	surface_state_finish(srv, &s->current);
	wl_list_remove(&s->link);
	free(s);
}

static void compositor_create_surface(struct wl_client *client, struct wl_resource *res,
	uint32_t id)
{
	struct server *srv = wl_resource_get_user_data(res);
	struct surface *s = calloc(1, sizeof(*s));
	if (!s) {
		wl_client_post_no_memory(client);
		return;
	}
	s->resource = wl_resource_create(client, &wl_surface_interface,
		wl_resource_get_version(res), id);
	if (!s->resource) {
		free(s);
		wl_client_post_no_memory(client);
		return;
	}
	s->srv = srv;
	surface_state_init(&s->pending);
	surface_state_init(&s->current);
	wl_list_init(&s->stack);
	wl_list_init(&s->slots);
	s->self.surface = s;
	wl_list_insert(&s->stack, &s->self.link);
	wl_signal_init(&s->destroy_signal);
	wl_list_insert(srv->surfaces.prev, &s->link);
	wl_resource_set_implementation(s->resource, &surface_impl, s, surface_resource_destroy);
}

/* ---- wl_region: its add and subtract requests in order (struct region_op in a wl_array),
 * copied by set_input_region (the region may go before the commit) */

#define REGION_MAX_OPS 4096

static void region_destroy(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void region_free(struct wl_resource *res)
{
	struct wl_array *ops = wl_resource_get_user_data(res);
	wl_array_release(ops);
	free(ops);
}

static void region_op(struct wl_resource *res, int32_t x, int32_t y, int32_t w, int32_t h,
	bool add)
{
	struct wl_array *ops = wl_resource_get_user_data(res);
	if (w <= 0 || h <= 0)
		return;
	if (ops->size / sizeof(struct region_op) >= REGION_MAX_OPS) {
		/* no client needs that many: keep the memory bounded */
		wl_resource_post_no_memory(res);
		return;
	}
	struct region_op *op = wl_array_add(ops, sizeof(*op));
	if (!op) {
		wl_resource_post_no_memory(res);
		return;
	}
	*op = (struct region_op){ x, y, w, h, add };
}

static void region_add(struct wl_client *client, struct wl_resource *res, int32_t x, int32_t y,
	int32_t w, int32_t h)
{
	region_op(res, x, y, w, h, true);
}

static void region_subtract(struct wl_client *client, struct wl_resource *res, int32_t x,
	int32_t y, int32_t w, int32_t h)
{
	region_op(res, x, y, w, h, false);
}

static const struct wl_region_interface region_impl = {
	.destroy = region_destroy,
	.add = region_add,
	.subtract = region_subtract,
};

static void compositor_create_region(struct wl_client *client, struct wl_resource *res,
	uint32_t id)
{
	struct wl_array *ops = calloc(1, sizeof(*ops));
	struct wl_resource *r = ops ? wl_resource_create(client, &wl_region_interface, 1, id) :
		NULL;
	if (!r) {
		free(ops);
		wl_client_post_no_memory(client);
		return;
	}
	wl_array_init(ops);
	wl_resource_set_implementation(r, &region_impl, ops, region_free);
}

static const struct wl_compositor_interface compositor_impl = {
	.create_surface = compositor_create_surface,
	.create_region = compositor_create_region,
};

static void compositor_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(client, &wl_compositor_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(res, &compositor_impl, data, NULL);
}

/* ---- wl_subcompositor ---- */

static struct subsurface *sub_from(struct wl_resource *res)
{
	return wl_resource_get_user_data(res);
}

static void subsurface_orphan(struct subsurface *sub)
{
	if (!sub->parent)
		return;
	wl_list_remove(&sub->entry.link);
	wl_list_init(&sub->entry.link);
	sub->parent = NULL;
	if (sub->surface)
		surface_unmap(sub->surface);
}

static void subsurface_destroy_req(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void subsurface_resource_destroy(struct wl_resource *res)
{
	struct subsurface *sub = sub_from(res);
	if (!sub)
		return;
	subsurface_orphan(sub);
	if (sub->surface) {
		struct surface *s = sub->surface;
		surface_state_finish(s->srv, &sub->cached);
		s->sub = NULL;
		s->role = ROLE_NONE;
		surface_unmap(s);
	}
	free(sub);
}

static void subsurface_set_position(struct wl_client *client, struct wl_resource *res, int32_t x,
	int32_t y)
{
	struct subsurface *sub = sub_from(res);
	if (!sub)
		return;
	/* applied by the parent's next commit */
	sub->pending_x = x;
	sub->pending_y = y;
	sub->pending_pos = true;
}

static void subsurface_place(struct wl_resource *res, struct wl_resource *sibling_res,
	bool above)
{
	struct subsurface *sub = sub_from(res);
	if (!sub || !sub->parent || !sub->surface)
		return;
	struct surface *sib = surface_from_resource(sibling_res);
	struct stack_entry *target = NULL;
	if (sib == sub->parent)
		target = &sib->self;
	else if (sib->sub && sib->sub->parent == sub->parent && sib != sub->surface)
		target = &sib->sub->entry;
	if (!target) {
		wl_resource_post_error(res, WL_SUBSURFACE_ERROR_BAD_SURFACE,
			"surface %u is neither the parent nor a sibling",
			wl_resource_get_id(sibling_res));
		sub->surface->srv->stats.protocol_errors++;
		return;
	}
	wl_list_remove(&sub->entry.link);
	if (above)
		wl_list_insert(&target->link, &sub->entry.link);
	else
		wl_list_insert(target->link.prev, &sub->entry.link);
	/* restacked: the seat picks the surface under the pointer again (at once when no
	 * repaint is pending: positions are the last repaint's, the order is the new one) */
	if (sub->surface->mapped)
		wl_signal_emit(&sub->surface->srv->events.map_changed, sub->surface);
	server_schedule_repaint(sub->surface->srv);
}

static void subsurface_place_above(struct wl_client *client, struct wl_resource *res,
	struct wl_resource *sibling)
{
	subsurface_place(res, sibling, true);
}

static void subsurface_place_below(struct wl_client *client, struct wl_resource *res,
	struct wl_resource *sibling)
{
	subsurface_place(res, sibling, false);
}

static void subsurface_set_sync(struct wl_client *client, struct wl_resource *res)
{
	struct subsurface *sub = sub_from(res);
	if (sub)
		sub->sync = true;
}

static void subsurface_set_desync(struct wl_client *client, struct wl_resource *res)
{
	struct subsurface *sub = sub_from(res);
	if (!sub || !sub->sync)
		return;
	sub->sync = false;
	if (sub->surface && !effectively_sync(sub->surface) && sub->has_cache) {
		surface_commit_state(sub->surface, &sub->cached);
		child_positions(sub->surface, POS_APPLY_CACHED);
		sub->has_cache = false;
		server_schedule_repaint(sub->surface->srv);
	}
}

static const struct wl_subsurface_interface subsurface_impl = {
	.destroy = subsurface_destroy_req,
	.set_position = subsurface_set_position,
	.place_above = subsurface_place_above,
	.place_below = subsurface_place_below,
	.set_sync = subsurface_set_sync,
	.set_desync = subsurface_set_desync,
};

static bool is_ancestor(struct surface *maybe, struct surface *s)
{
	for (struct surface *p = s; p; p = p->sub ? p->sub->parent : NULL)
		if (p == maybe)
			return true;
	return false;
}

static void subcompositor_get_subsurface(struct wl_client *client, struct wl_resource *res,
	uint32_t id, struct wl_resource *surface_res, struct wl_resource *parent_res)
{
	struct server *srv = wl_resource_get_user_data(res);
	struct surface *s = surface_from_resource(surface_res);
	struct surface *parent = surface_from_resource(parent_res);
	if (s->role != ROLE_NONE || s->sub) {
		wl_resource_post_error(res, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE,
			"surface %u already has a role", wl_resource_get_id(surface_res));
		srv->stats.protocol_errors++;
		return;
	}
	if (is_ancestor(s, parent)) {
		wl_resource_post_error(res, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE,
			"surface %u cannot be a subsurface of itself or its descendant",
			wl_resource_get_id(surface_res));
		srv->stats.protocol_errors++;
		return;
	}
	struct subsurface *sub = calloc(1, sizeof(*sub));
	if (!sub) {
		wl_client_post_no_memory(client);
		return;
	}
	sub->resource = wl_resource_create(client, &wl_subsurface_interface, 1, id);
	if (!sub->resource) {
		free(sub);
		wl_client_post_no_memory(client);
		return;
	}
	sub->surface = s;
	sub->parent = parent;
	sub->sync = true;
	surface_state_init(&sub->cached);
	sub->entry.surface = s;
	wl_list_insert(parent->stack.prev, &sub->entry.link); /* top of the parent's stack */
	s->sub = sub;
	s->role = ROLE_SUBSURFACE;
	wl_resource_set_implementation(sub->resource, &subsurface_impl, sub,
		subsurface_resource_destroy);
}

static void subcompositor_destroy(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wl_subcompositor_interface subcompositor_impl = {
	.destroy = subcompositor_destroy,
	.get_subsurface = subcompositor_get_subsurface,
};

static void subcompositor_bind(struct wl_client *client, void *data, uint32_t version,
	uint32_t id)
{
	struct wl_resource *res = wl_resource_create(client, &wl_subcompositor_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(res, &subcompositor_impl, data, NULL);
}

/* ---- wp_viewporter ---- */

/* A viewport's user data: it outlives neither its resource nor, as a link, its surface. */
struct viewport {
	struct wl_resource *resource;
	struct surface *surface;       /* NULL once the surface is gone */
	struct wl_listener surface_destroy;
};

static struct surface *viewport_surface(struct wl_resource *res)
{
	struct viewport *vp = wl_resource_get_user_data(res);
	return vp->surface;
}

static void viewport_destroy_req(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void viewport_resource_destroy(struct wl_resource *res)
{
	struct viewport *vp = wl_resource_get_user_data(res);
	struct surface *s = vp->surface;
	if (s) {
		wl_list_remove(&vp->surface_destroy.link);
		s->viewport = NULL;
		s->pending.src_x = s->pending.src_y = s->pending.src_w = s->pending.src_h = -1;
		s->pending.dst_w = s->pending.dst_h = -1;
		s->pending.viewport_changed = true;
	}
	free(vp);
}

static void viewport_on_surface_destroy(struct wl_listener *l, void *data)
{
	struct viewport *vp = wl_container_of(l, vp, surface_destroy);
	wl_list_remove(&l->link);
	vp->surface = NULL;
}

static void viewport_set_source(struct wl_client *client, struct wl_resource *res,
	wl_fixed_t x, wl_fixed_t y, wl_fixed_t w, wl_fixed_t h)
{
	struct surface *s = viewport_surface(res);
	if (!s) {
		wl_resource_post_error(res, WP_VIEWPORT_ERROR_NO_SURFACE, "the surface is gone");
		return;
	}
	bool unset = x == wl_fixed_from_int(-1) && y == wl_fixed_from_int(-1) &&
		w == wl_fixed_from_int(-1) && h == wl_fixed_from_int(-1);
	if (!unset && (x < 0 || y < 0 || w <= 0 || h <= 0)) {
		wl_resource_post_error(res, WP_VIEWPORT_ERROR_BAD_VALUE,
			"source rectangle %gx%g+%g+%g is invalid", wl_fixed_to_double(w),
			wl_fixed_to_double(h), wl_fixed_to_double(x), wl_fixed_to_double(y));
		s->srv->stats.protocol_errors++;
		return;
	}
	if (!s->pending.viewport_changed) {
		s->pending.dst_w = s->current.dst_w;
		s->pending.dst_h = s->current.dst_h;
	}
	s->pending.src_x = unset ? -1 : wl_fixed_to_double(x);
	s->pending.src_y = unset ? -1 : wl_fixed_to_double(y);
	s->pending.src_w = unset ? -1 : wl_fixed_to_double(w);
	s->pending.src_h = unset ? -1 : wl_fixed_to_double(h);
	s->pending.viewport_changed = true;
}

static void viewport_set_destination(struct wl_client *client, struct wl_resource *res,
	int32_t w, int32_t h)
{
	struct surface *s = viewport_surface(res);
	if (!s) {
		wl_resource_post_error(res, WP_VIEWPORT_ERROR_NO_SURFACE, "the surface is gone");
		return;
	}
	bool unset = w == -1 && h == -1;
	if (!unset && (w <= 0 || h <= 0)) {
		wl_resource_post_error(res, WP_VIEWPORT_ERROR_BAD_VALUE,
			"destination size %dx%d is invalid", w, h);
		s->srv->stats.protocol_errors++;
		return;
	}
	if (!s->pending.viewport_changed) {
		s->pending.src_x = s->current.src_x;
		s->pending.src_y = s->current.src_y;
		s->pending.src_w = s->current.src_w;
		s->pending.src_h = s->current.src_h;
	}
	s->pending.dst_w = w;
	s->pending.dst_h = h;
	s->pending.viewport_changed = true;
}

static const struct wp_viewport_interface viewport_impl = {
	.destroy = viewport_destroy_req,
	.set_source = viewport_set_source,
	.set_destination = viewport_set_destination,
};

static void viewporter_get_viewport(struct wl_client *client, struct wl_resource *res,
	uint32_t id, struct wl_resource *surface_res)
{
	struct surface *s = surface_from_resource(surface_res);
	if (s->viewport) {
		wl_resource_post_error(res, WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS,
			"surface %u already has a viewport", wl_resource_get_id(surface_res));
		s->srv->stats.protocol_errors++;
		return;
	}
	struct viewport *vp = calloc(1, sizeof(*vp));
	if (vp)
		vp->resource = wl_resource_create(client, &wp_viewport_interface, 1, id);
	if (!vp || !vp->resource) {
		free(vp);
		wl_client_post_no_memory(client);
		return;
	}
	vp->surface = s;
	vp->surface_destroy.notify = viewport_on_surface_destroy;
	wl_signal_add(&s->destroy_signal, &vp->surface_destroy);
	s->viewport = vp->resource;
	wl_resource_set_implementation(vp->resource, &viewport_impl, vp,
		viewport_resource_destroy);
}

static void viewporter_destroy(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wp_viewporter_interface viewporter_impl = {
	.destroy = viewporter_destroy,
	.get_viewport = viewporter_get_viewport,
};

static void viewporter_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(client, &wp_viewporter_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(res, &viewporter_impl, data, NULL);
}

int surface_init_globals(struct server *srv)
{
	if (!wl_global_create(srv->display, &wl_compositor_interface, 5, srv, compositor_bind) ||
	    !wl_global_create(srv->display, &wl_subcompositor_interface, 1, srv,
		    subcompositor_bind) ||
	    !wl_global_create(srv->display, &wp_viewporter_interface, 1, srv, viewporter_bind))
		return -ENOMEM;
	return 0;
}
