/* SPDX-License-Identifier: MIT */
/*
 * wl_output and zxdg_output_manager_v1: each served output's mode, physical size, name and
 * place in the layout; which output a toplevel goes on; wl_surface.enter and leave.
 */
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dispman/input.h>

#include "cursor.h"
#include "layout.h"
#include "surface.h"

#include "xdg-output-unstable-v1-server-protocol.h"

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

struct output *output_from_resource(struct wl_resource *res)
{
	if (!res || !wl_resource_instance_of(res, &wl_output_interface, &output_impl))
		return NULL;
	return wl_resource_get_user_data(res);
}

static void send_geometry(struct output *o, struct wl_resource *res)
{
	uint32_t wmm = 0, hmm = 0;
	dispman_output_get_physical_size(o->out, &wmm, &hmm);
	wl_output_send_geometry(res, o->x, o->y, (int32_t)wmm, (int32_t)hmm,
		WL_OUTPUT_SUBPIXEL_UNKNOWN, "libdispman", dispman_output_get_name(o->out),
		(int32_t)dispman_output_get_transform(o->out));
}

static void output_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct output *o = data;
	struct wl_resource *res = wl_resource_create(client, &wl_output_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(res, &output_impl, o, output_unlink);
	if (!o) {
		/* bound before the client saw the global's removal: inert, told nothing */
		wl_list_init(wl_resource_get_link(res));
		return;
	}
	wl_list_insert(&o->resources, wl_resource_get_link(res));
	send_geometry(o, res);
	/* the mode as the panel has it; o's size is the viewer's (the transform applied) */
	bool turned = (dispman_output_get_transform(o->out) & 1) != 0;
	wl_output_send_mode(res, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED,
		turned ? o->height : o->width, turned ? o->width : o->height,
		(int32_t)o->refresh_mhz);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION)
		wl_output_send_scale(res, 1);
	if (version >= WL_OUTPUT_NAME_SINCE_VERSION)
		wl_output_send_name(res, dispman_output_get_name(o->out));
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(res);
	/* a surface already shown on it enters it for this client too */
	struct surface *s;
	wl_list_for_each(s, &o->srv->surfaces, link) {
		bool on = o->srv->layout == DISPMAN_WAYLAND_LAYOUT_MIRROR ? s->entered :
			s->entered_output == o;
		if (on && wl_resource_get_client(s->resource) == client)
			wl_surface_send_enter(s->resource, res);
	}
}

/* ---- xdg-output ---- */

static void xdg_output_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zxdg_output_v1_interface xdg_output_impl = {
	.destroy = xdg_output_destroy,
};

static void xdg_output_send_place(struct output *o, struct wl_resource *xo)
{
	/* unscaled: logical = the mode turned by the output's transform */
	zxdg_output_v1_send_logical_position(xo, o->x, o->y);
	zxdg_output_v1_send_logical_size(xo, o->width, o->height);
}

static void manager_get_xdg_output(struct wl_client *c, struct wl_resource *res, uint32_t id,
	struct wl_resource *output)
{
	int ver = wl_resource_get_version(res);
	struct wl_resource *xo = wl_resource_create(c, &zxdg_output_v1_interface, ver, id);
	if (!xo) {
		wl_client_post_no_memory(c);
		return;
	}
	struct output *o = output_from_resource(output);
	wl_resource_set_implementation(xo, &xdg_output_impl, o, server_unlink_resource);
	if (!o) {
		/* of an output gone: inert, never told anything */
		wl_list_init(wl_resource_get_link(xo));
		return;
	}
	wl_list_insert(&o->xdg_resources, wl_resource_get_link(xo));
	xdg_output_send_place(o, xo);
	const char *name = dispman_output_get_name(o->out);
	if (ver >= ZXDG_OUTPUT_V1_NAME_SINCE_VERSION) {
		zxdg_output_v1_send_name(xo, name);
		zxdg_output_v1_send_description(xo, "libdispman output");
	}
	/* from v3 the wl_output's done closes the batch */
	if (ver < 3)
		zxdg_output_v1_send_done(xo);
	else if (wl_resource_get_version(output) >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(output);
}

static void manager_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zxdg_output_manager_v1_interface manager_impl = {
	.destroy = manager_destroy,
	.get_xdg_output = manager_get_xdg_output,
};

static void manager_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c, &zxdg_output_manager_v1_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &manager_impl, data, NULL);
}

/* ---- the layout ---- */

struct output *output_first(struct server *srv)
{
	if (wl_list_empty(&srv->output_list))
		return NULL;
	return wl_container_of(srv->output_list.next, (struct output *)NULL, link);
}

struct output *output_find(struct server *srv, struct dispman_output *out)
{
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link)
		if (o->out == out)
			return o;
	return NULL;
}

struct box output_box(const struct output *o)
{
	return (struct box){ o->x, o->y, o->width, o->height };
}

/* The first output's numbers are the server's (the modules that serve one output). */
static void sync_first(struct server *srv)
{
	struct output *f = output_first(srv);
	if (!f)
		return;
	srv->out = f->out;
	srv->width = f->width;
	srv->height = f->height;
	srv->refresh_mhz = f->refresh_mhz;
}

void output_arrange(struct server *srv)
{
	size_t n = (size_t)wl_list_length(&srv->output_list), i = 0;
	struct box *boxes = calloc(n ? n : 1, sizeof(*boxes));
	if (!boxes)
		return;
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link)
		boxes[i++] = (struct box){ 0, 0, o->width, o->height };
	layout_arrange(srv->layout, boxes, n);
	i = 0;
	wl_list_for_each(o, &srv->output_list, link) {
		struct box b = boxes[i++];
		if (b.x == o->x && b.y == o->y)
			continue;
		o->x = b.x;
		o->y = b.y;
		struct wl_resource *res;
		wl_resource_for_each(res, &o->resources) {
			send_geometry(o, res);
			if (wl_resource_get_version(res) >= WL_OUTPUT_DONE_SINCE_VERSION)
				wl_output_send_done(res);
		}
		wl_resource_for_each(res, &o->xdg_resources) {
			xdg_output_send_place(o, res);
			if (wl_resource_get_version(res) < 3)
				zxdg_output_v1_send_done(res);
		}
	}
	free(boxes);
	sync_first(srv);
}

static struct output *output_by_id(struct server *srv, uint32_t id)
{
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link)
		if (o->id == id)
			return o;
	return NULL;
}

struct output *output_for(struct server *srv, uint32_t want_id)
{
	struct output *o = srv->layout == DISPMAN_WAYLAND_LAYOUT_EXTEND ?
		output_by_id(srv, want_id) : NULL;
	if (o && !o->disconnected)
		return o;
	wl_list_for_each(o, &srv->output_list, link)
		if (!o->disconnected)
			return o;
	return output_first(srv);
}

struct box output_area_for(struct server *srv, uint32_t want_id)
{
	struct output *o = output_for(srv, want_id);
	return o ? output_box(o) : (struct box){ 0, 0, srv->width, srv->height };
}

bool output_update_mode(struct output *o)
{
	struct server *srv = o->srv;
	const struct dispman_mode *m = dispman_output_get_current_mode(o->out);
	/* the layout is the viewer's size (the mode turned by the output's transform);
	 * wl_output.mode says the panel's */
	struct dispman_size view = dispman_output_get_size(o->out);
	if (!m || ((int32_t)view.width == o->width && (int32_t)view.height == o->height &&
		   m->refresh_mhz == o->refresh_mhz))
		return false;
	bool resized = (int32_t)view.width != o->width || (int32_t)view.height != o->height;
	o->width = (int32_t)view.width;
	o->height = (int32_t)view.height;
	o->refresh_mhz = m->refresh_mhz;
	wlog(DISPMAN_LOG_INFO, "%s now %dx%d@%u mHz", dispman_output_get_name(o->out),
		o->width, o->height, o->refresh_mhz);
	struct wl_resource *res;
	wl_resource_for_each(res, &o->resources) {
		wl_output_send_mode(res, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED,
			(int32_t)m->width, (int32_t)m->height, (int32_t)o->refresh_mhz);
		if (wl_resource_get_version(res) >= WL_OUTPUT_DONE_SINCE_VERSION)
			wl_output_send_done(res);
	}
	wl_resource_for_each(res, &o->xdg_resources) {
		zxdg_output_v1_send_logical_size(res, o->width, o->height);
		if (wl_resource_get_version(res) < 3)
			zxdg_output_v1_send_done(res);
	}
	output_arrange(srv);
	sync_first(srv);
	return resized;
}

/* ---- the pointer across the layout ---- */

const struct dispman_input_event *output_pointer_event(struct server *srv,
	const struct dispman_input_event *ev, struct dispman_input_event *copy)
{
	size_t n = (size_t)wl_list_length(&srv->output_list);
	if (srv->layout != DISPMAN_WAYLAND_LAYOUT_EXTEND || n < 2) {
		cursor_pointer_at(srv, NULL, 0, 0); /* the input places the cursor */
		return ev;
	}
	struct box boxes[16];
	if (n > sizeof(boxes) / sizeof(boxes[0]))
		n = sizeof(boxes) / sizeof(boxes[0]);
	size_t i = 0;
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link) {
		if (i == n)
			break;
		/* a disconnected output holds no pointer */
		boxes[i++] = o->disconnected ? (struct box){ 0 } : output_box(o);
	}
	struct output *first = output_first(srv);
	*copy = *ev;
	if (ev->type == DISPMAN_INPUT_POINTER_MOTION) {
		if (!srv->pointer_in_layout) {
			/* from where the input had it before this motion */
			srv->pointer_lx = first->x + ev->x - ev->dx;
			srv->pointer_ly = first->y + ev->y - ev->dy;
		}
		srv->pointer_lx += ev->dx;
		srv->pointer_ly += ev->dy;
	} else if (ev->type == DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE || !srv->pointer_in_layout) {
		/* an absolute device points on the first output */
		srv->pointer_lx = first->x + ev->x;
		srv->pointer_ly = first->y + ev->y;
	}
	srv->pointer_in_layout = true;
	int at = layout_clamp(boxes, n, &srv->pointer_lx, &srv->pointer_ly);
	copy->x = srv->pointer_lx;
	copy->y = srv->pointer_ly;
	/* the drawn cursor goes on the output under the pointer */
	struct output *under = NULL;
	i = 0;
	wl_list_for_each(o, &srv->output_list, link)
		if (at >= 0 && i++ == (size_t)at)
			under = o;
	if (under)
		cursor_pointer_at(srv, under, srv->pointer_lx, srv->pointer_ly);
	return copy;
}

/* ---- wl_surface.enter and leave ---- */

static void send_enter_leave(struct surface *s, struct output *o, bool enter)
{
	struct wl_client *c = wl_resource_get_client(s->resource);
	struct wl_resource *res;
	wl_resource_for_each(res, &o->resources) {
		if (wl_resource_get_client(res) != c)
			continue;
		if (enter)
			wl_surface_send_enter(s->resource, res);
		else
			wl_surface_send_leave(s->resource, res);
	}
}

/* A surface was mapped, unmapped or moved: it enters the output its layer is on (every
 * output, mirrored) and leaves the one it was on. */
static void on_map_changed(struct wl_listener *l, void *data)
{
	struct surface *s = data;
	struct server *srv = s->srv;
	struct output *o;
	if (srv->layout == DISPMAN_WAYLAND_LAYOUT_MIRROR) {
		if (s->mapped == s->entered)
			return;
		s->entered = s->mapped;
		wl_list_for_each(o, &srv->output_list, link)
			send_enter_leave(s, o, s->entered);
		return;
	}
	struct output *now = s->mapped ? s->output : NULL;
	if (now == s->entered_output)
		return;
	if (s->entered_output)
		send_enter_leave(s, s->entered_output, false);
	if (now)
		send_enter_leave(s, now, true);
	s->entered_output = now;
	s->entered = now != NULL;
}

/* ---- outputs ---- */

struct output *output_add(struct server *srv, struct dispman_output *out, int *err)
{
	int ret;
	if (!dispman_output_is_enabled(out)) {
		ret = dispman_output_enable(out, NULL);
		if (ret < 0) {
			wlog(DISPMAN_LOG_ERROR, "cannot enable output %s: %s",
				dispman_output_get_name(out), strerror(-ret));
			*err = ret;
			return NULL;
		}
	}
	struct output *o = calloc(1, sizeof(*o));
	if (!o) {
		*err = -ENOMEM;
		return NULL;
	}
	o->srv = srv;
	o->out = out;
	o->id = 0;
	/* the connector of an output unplugged before: its id again */
	const char *name = dispman_output_get_name(out);
	for (size_t i = 0; name && i < sizeof(srv->gone_ids) / sizeof(srv->gone_ids[0]); i++) {
		struct gone_id *g = &srv->gone_ids[i];
		if (g->id && strcmp(g->name, name) == 0) {
			o->id = g->id;
			g->id = 0;
		}
	}
	if (!o->id)
		o->id = ++srv->next_output_id;
	wl_list_init(&o->resources);
	wl_list_init(&o->xdg_resources);
	wl_list_init(&o->frames_inflight);
	wl_list_init(&o->fb_inflight);
	wl_list_init(&o->frames_waiting);
	wl_list_init(&o->fb_waiting);
	wl_list_init(&o->mirror_layers);
	const struct dispman_mode *mode = dispman_output_get_current_mode(out);
	/* the layout is the viewer's: the mode turned by the output's transform */
	struct dispman_size view = dispman_output_get_size(out);
	o->width = (int32_t)view.width;
	o->height = (int32_t)view.height;
	o->refresh_mhz = mode ? mode->refresh_mhz : 0;
	o->global = wl_global_create(srv->display, &wl_output_interface, 4, o, output_bind);
	if (!o->global) {
		free(o);
		*err = -ENOMEM;
		return NULL;
	}
	wl_list_insert(srv->output_list.prev, &o->link);
	output_arrange(srv);
	return o;
}

/* A wl_output global of an output gone: removed at once (clients get global_remove) and
 * destroyed a while later, so that a client binding it meanwhile gets an inert resource
 * rather than an error (libwayland's advice for globals that go). */
struct gone_global {
	struct wl_global *global;
	struct wl_event_source *timer;
	struct wl_list link;            /* server.gone_globals */
};

static void gone_global_free(struct gone_global *g)
{
	wl_global_destroy(g->global);
	if (g->timer)
		wl_event_source_remove(g->timer);
	wl_list_remove(&g->link);
	free(g);
}

static int on_gone_global_timer(void *data)
{
	gone_global_free(data);
	return 0;
}

static void global_retire(struct server *srv, struct wl_global *global)
{
	struct gone_global *g = calloc(1, sizeof(*g));
	if (g)
		g->timer = wl_event_loop_add_timer(srv->loop, on_gone_global_timer, g);
	if (!g || !g->timer) {
		free(g);
		wl_global_destroy(global); /* out of memory: at once, as before */
		return;
	}
	wl_global_set_user_data(global, NULL);
	wl_global_remove(global);
	g->global = global;
	wl_list_insert(&srv->gone_globals, &g->link);
	wl_event_source_timer_update(g->timer, 5000);
}

/* An output served since a hotplug goes: its connector's name keeps its id (the oldest
 * entry makes room). */
static void remember_id(struct server *srv, const struct output *o)
{
	const char *name = dispman_output_get_name(o->out);
	size_t n = sizeof(srv->gone_ids) / sizeof(srv->gone_ids[0]), at = 0;
	if (!name || strlen(name) >= sizeof(srv->gone_ids[0].name))
		return;
	bool found = false;
	for (size_t i = 0; i < n && !found; i++) {
		found = srv->gone_ids[i].id && strcmp(srv->gone_ids[i].name, name) == 0;
		at = found ? i : at;
	}
	for (size_t i = 0; i < n && !found; i++)
		if (srv->gone_ids[i].id < srv->gone_ids[at].id)
			at = i; /* an empty one (id 0), else the oldest */
	snprintf(srv->gone_ids[at].name, sizeof(srv->gone_ids[at].name), "%s", name);
	srv->gone_ids[at].id = o->id;
}

void output_remove(struct output *o)
{
	struct server *srv = o->srv;
	struct surface *s;
	cursor_output_removed(srv, o);
	wl_list_for_each(s, &srv->surfaces, link)
		if (s->output == o && (s->mapped || s->layer))
			surface_unmap(s);
	wl_list_for_each(s, &srv->surfaces, link) {
		if (s->output == o)
			s->output = NULL;
		if (s->entered_output == o)
			s->entered_output = NULL;
	}
	struct wl_resource *res, *tmp;
	wl_resource_for_each_safe(res, tmp, &o->resources) {
		wl_resource_set_user_data(res, NULL);
		wl_list_remove(wl_resource_get_link(res));
		wl_list_init(wl_resource_get_link(res));
	}
	wl_resource_for_each_safe(res, tmp, &o->xdg_resources) {
		wl_resource_set_user_data(res, NULL);
		wl_list_remove(wl_resource_get_link(res));
		wl_list_init(wl_resource_get_link(res));
	}
	if (o->global && o->hotplugged)
		remember_id(srv, o);
	if (o->global && o->hotplugged)
		global_retire(srv, o->global);
	else if (o->global)
		wl_global_destroy(o->global);
	wl_list_remove(&o->link);
	free(o);
	output_arrange(srv);
}

void output_finish(struct server *srv)
{
	struct output *o, *tmp;
	wl_list_for_each_safe(o, tmp, &srv->output_list, link) {
		o->hotplugged = false; /* the globals go at once */
		output_remove(o);
	}
	struct gone_global *g, *gt;
	if (srv->gone_globals.next)
		wl_list_for_each_safe(g, gt, &srv->gone_globals, link)
			gone_global_free(g);
	if (srv->surface_map.link.next)
		wl_list_remove(&srv->surface_map.link);
}

int output_init_global(struct server *srv)
{
	srv->surface_map.notify = on_map_changed;
	wl_signal_add(&srv->events.map_changed, &srv->surface_map);
	if (!wl_global_create(srv->display, &zxdg_output_manager_v1_interface, 3, srv,
		    manager_bind))
		return -ENOMEM;
	return 0;
}
