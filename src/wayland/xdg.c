/* SPDX-License-Identifier: MIT */
/*
 * xdg_wm_base v5. Toplevels are placed by the window policy (server.policy): the kiosk's
 * configures a toplevel without a parent full-screen and centres its window geometry on
 * the output (a smaller one on black), and gives a toplevel with a parent (a dialog) the
 * size it chooses, centred over its parent and stacked above it; the free policy leaves
 * toplevels at their own size at (0, 0) or where the embedder placed them. Popups are
 * placed by their positioner's rules relative to the parent's window geometry and kept
 * inside the output (flip, then slide, then resize, per axis, as the rules allow); a
 * reactive one is placed again, with a new configure, when its parent moves or resizes or
 * the output's size changes and that changes its box. A
 * grabbing popup takes the keyboard (tree.c) and a press outside its client, or a new
 * toplevel that maps, dismisses the grab chain with popup_done, topmost first. A
 * toplevel's activated state follows the keyboard focus; under the free policy a press
 * raises the toplevel under it.
 */
#include "xdg.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "positioner.h"
#include "surface.h"

#include "xdg-shell-server-protocol.h"

#define XDG_WM_BASE_VERSION 5

static void post_error(struct server *srv, struct wl_resource *res, uint32_t code,
	const char *msg)
{
	server_post_error(srv, res, code, "%s", msg);
}

/* ---- positioner ---- */

struct positioner {
	struct positioner_rules rules;
};

static struct positioner_rules *rules_of(struct wl_resource *res)
{
	return &((struct positioner *)wl_resource_get_user_data(res))->rules;
}

static void positioner_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void positioner_free(struct wl_resource *res)
{
	free(wl_resource_get_user_data(res));
}

static void positioner_set_size(struct wl_client *c, struct wl_resource *res, int32_t w,
	int32_t h)
{
	if (w < 1 || h < 1) {
		wl_resource_post_error(res, XDG_POSITIONER_ERROR_INVALID_INPUT,
			"positioner size %dx%d is not positive", w, h);
		return;
	}
	rules_of(res)->w = w;
	rules_of(res)->h = h;
}

static void positioner_set_anchor_rect(struct wl_client *c, struct wl_resource *res, int32_t x,
	int32_t y, int32_t w, int32_t h)
{
	if (w < 0 || h < 0) {
		wl_resource_post_error(res, XDG_POSITIONER_ERROR_INVALID_INPUT,
			"anchor rectangle %dx%d is negative", w, h);
		return;
	}
	rules_of(res)->anchor_rect = (struct box){ x, y, w, h };
	rules_of(res)->anchor_rect_set = true;
}

static void positioner_set_anchor(struct wl_client *c, struct wl_resource *res, uint32_t a)
{
	if (a > XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT) {
		wl_resource_post_error(res, XDG_POSITIONER_ERROR_INVALID_INPUT,
			"anchor %u is not an xdg_positioner.anchor", a);
		return;
	}
	rules_of(res)->anchor = a;
}

static void positioner_set_gravity(struct wl_client *c, struct wl_resource *res, uint32_t g)
{
	if (g > XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT) {
		wl_resource_post_error(res, XDG_POSITIONER_ERROR_INVALID_INPUT,
			"gravity %u is not an xdg_positioner.gravity", g);
		return;
	}
	rules_of(res)->gravity = g;
}

static void positioner_set_constraint_adjustment(struct wl_client *c, struct wl_resource *res,
	uint32_t bits)
{
	rules_of(res)->constraints = bits;
}

static void positioner_set_offset(struct wl_client *c, struct wl_resource *res, int32_t x,
	int32_t y)
{
	rules_of(res)->off_x = x;
	rules_of(res)->off_y = y;
}

static void positioner_set_reactive(struct wl_client *c, struct wl_resource *res)
{
	rules_of(res)->reactive = true;
}

static void positioner_set_parent_size(struct wl_client *c, struct wl_resource *res, int32_t w,
	int32_t h)
{
	/* the parent's size is the compositor's own to know here: parents do not resize
	 * between the popup's request and its placement */
}

static void positioner_set_parent_configure(struct wl_client *c, struct wl_resource *res,
	uint32_t serial)
{
}

static const struct xdg_positioner_interface positioner_impl = {
	.destroy = positioner_destroy,
	.set_size = positioner_set_size,
	.set_anchor_rect = positioner_set_anchor_rect,
	.set_anchor = positioner_set_anchor,
	.set_gravity = positioner_set_gravity,
	.set_constraint_adjustment = positioner_set_constraint_adjustment,
	.set_offset = positioner_set_offset,
	.set_reactive = positioner_set_reactive,
	.set_parent_size = positioner_set_parent_size,
	.set_parent_configure = positioner_set_parent_configure,
};

/* ---- placement ---- */

static void window_geometry(struct shell_surface *x, struct box *g)
{
	*g = x->geometry;
	if (g->w <= 0 || g->h <= 0) {
		int32_t w = 0, h = 0;
		if (x->surface && x->surface->current.buffer)
			surface_get_size(x->surface, &w, &h);
		*g = (struct box){ 0, 0, w, h };
	}
}

static bool is_main(struct shell_surface *x)
{
	return !x->popup && !x->parent;
}

/* The output's box (layout coordinates) the toplevel or popup x goes on: the one its
 * root toplevel asked for (output.c decides). */
static struct box toplevel_area(struct shell_surface *x)
{
	while (x->parent)
		x = x->parent;
	return output_area_for(x->srv, x->want_output);
}

/* The toplevel's window geometry origin on the output, by the policy. */
static void toplevel_window_origin(struct shell_surface *x, const struct box *g, int32_t *wx,
	int32_t *wy)
{
	struct server *srv = x->srv;
	/* the output it is on, in layout coordinates (output.c) */
	struct box a = toplevel_area(x);
	if (srv->policy == DISPMAN_WAYLAND_POLICY_FREE) {
		if (x->want_fullscreen) {
			*wx = a.x + (g->w < a.w ? (a.w - g->w) / 2 : 0);
			*wy = a.y + (g->h < a.h ? (a.h - g->h) / 2 : 0);
		} else if (x->want_maximized) {
			*wx = a.x;
			*wy = a.y;
		} else {
			*wx = a.x + (x->placed ? x->place_x : 0);
			*wy = a.y + (x->placed ? x->place_y : 0);
		}
		return;
	}
	if (is_main(x)) {
		/* full-screen: smaller windows centred on black, larger ones cropped */
		*wx = a.x + (g->w < a.w ? (a.w - g->w) / 2 : 0);
		*wy = a.y + (g->h < a.h ? (a.h - g->h) / 2 : 0);
		return;
	}
	/* a dialog: centred over its parent's window, kept on the output where it fits */
	int32_t px = a.x, py = a.y, pw = a.w, ph = a.h;
	struct shell_surface *p = x->parent;
	if (p && p->surface) {
		struct box pg;
		window_geometry(p, &pg);
		int32_t ox, oy;
		if (xdg_surface_origin(p, &ox, &oy)) {
			px = ox + pg.x;
			py = oy + pg.y;
			pw = pg.w;
			ph = pg.h;
		}
	}
	*wx = px + (pw - g->w) / 2;
	*wy = py + (ph - g->h) / 2;
	if (*wx + g->w > a.x + a.w)
		*wx = a.x + a.w - g->w;
	if (*wy + g->h > a.y + a.h)
		*wy = a.y + a.h - g->h;
	if (*wx < a.x)
		*wx = a.x;
	if (*wy < a.y)
		*wy = a.y;
}

bool xdg_surface_origin(struct shell_surface *x, int32_t *ox, int32_t *oy)
{
	struct box g;
	window_geometry(x, &g);
	if (!x->popup) {
		int32_t wx, wy;
		toplevel_window_origin(x, &g, &wx, &wy);
		*ox = wx - g.x;
		*oy = wy - g.y;
		return true;
	}
	struct shell_surface *p = x->parent;
	if (!p || !p->surface || x->done)
		return false;
	int32_t pox, poy;
	if (!xdg_surface_origin(p, &pox, &poy))
		return false;
	struct box pg;
	window_geometry(p, &pg);
	*ox = pox + pg.x + x->popup_box.x - g.x;
	*oy = poy + pg.y + x->popup_box.y - g.y;
	return true;
}

/* The popup's box relative to its parent's window geometry, from its rules, kept inside
 * the output as the constraint adjustments allow. */
static void popup_place(struct shell_surface *x)
{
	/* the output in the parent's geometry coordinates */
	struct box a = toplevel_area(x);
	struct box bounds = { 0, 0, a.w, a.h };
	struct shell_surface *p = x->parent;
	int32_t pox, poy;
	if (p && xdg_surface_origin(p, &pox, &poy)) {
		struct box pg;
		window_geometry(p, &pg);
		bounds.x = a.x - (pox + pg.x);
		bounds.y = a.y - (poy + pg.y);
	}
	x->popup_box = positioner_place(&x->rules, &bounds);
}

/* ---- configure ---- */

static void add_state(struct wl_array *states, uint32_t st)
{
	uint32_t *p = wl_array_add(states, sizeof(*p));
	if (p)
		*p = st;
}

/* The toplevel that holds the keyboard focus f, itself or through one of its popups. */
static struct shell_surface *toplevel_of_focus(struct surface *f)
{
	struct shell_surface *x = f ? f->xdg : NULL;
	while (x && x->popup)
		x = x->parent;
	return x;
}

static void send_configure(struct shell_surface *x)
{
	struct server *srv = x->srv;
	if (!x->role_resource)
		return;
	bool first = x->configure_serial == 0;
	x->configure_serial = wl_display_next_serial(srv->display);
	/* a client may ack any configure it got, not only the last one: keep the unacked */
	if (x->n_unacked == sizeof(x->unacked) / sizeof(x->unacked[0])) {
		memmove(x->unacked, x->unacked + 1, sizeof(x->unacked) - sizeof(x->unacked[0]));
		x->n_unacked--;
	}
	x->unacked[x->n_unacked++] = x->configure_serial;
	if (!x->popup) {
		int ver = wl_resource_get_version(x->role_resource);
		bool free_policy = srv->policy == DISPMAN_WAYLAND_POLICY_FREE;
		if (first && ver >= XDG_TOPLEVEL_WM_CAPABILITIES_SINCE_VERSION) {
			/* full-screen is the one window state a kiosk changes; the free
			 * policy also maximizes */
			struct wl_array caps;
			wl_array_init(&caps);
			add_state(&caps, XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN);
			if (free_policy)
				add_state(&caps, XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE);
			xdg_toplevel_send_wm_capabilities(x->role_resource, &caps);
			wl_array_release(&caps);
		}
		bool fullscreen = !free_policy ? is_main(x) : x->want_fullscreen;
		bool maximized = free_policy && !fullscreen && x->want_maximized;
		/* activated: the toplevel has the keyboard focus (a new one gets it when it
		 * maps, and the configure that says so follows) */
		x->activated = x->focused;
		struct wl_array states;
		wl_array_init(&states);
		if (fullscreen)
			add_state(&states, XDG_TOPLEVEL_STATE_FULLSCREEN);
		if (maximized)
			add_state(&states, XDG_TOPLEVEL_STATE_MAXIMIZED);
		if (x->activated)
			add_state(&states, XDG_TOPLEVEL_STATE_ACTIVATED);
		if (ver >= XDG_TOPLEVEL_STATE_TILED_LEFT_SINCE_VERSION && fullscreen) {
			add_state(&states, XDG_TOPLEVEL_STATE_TILED_LEFT);
			add_state(&states, XDG_TOPLEVEL_STATE_TILED_RIGHT);
			add_state(&states, XDG_TOPLEVEL_STATE_TILED_TOP);
			add_state(&states, XDG_TOPLEVEL_STATE_TILED_BOTTOM);
		}
		if (x->resizing && free_policy)
			add_state(&states, XDG_TOPLEVEL_STATE_RESIZING);
		struct box a = toplevel_area(x);
		if (ver >= XDG_TOPLEVEL_CONFIGURE_BOUNDS_SINCE_VERSION)
			xdg_toplevel_send_configure_bounds(x->role_resource, a.w, a.h);
		bool sized = fullscreen || maximized;
		/* the free policy: the size an interactive resize chose, else the client's */
		int32_t w = sized ? a.w : free_policy ? x->size_w : 0;
		int32_t h = sized ? a.h : free_policy ? x->size_h : 0;
		xdg_toplevel_send_configure(x->role_resource, w, h, &states);
		wl_array_release(&states);
	} else {
		popup_place(x);
		xdg_popup_send_configure(x->role_resource, x->popup_box.x, x->popup_box.y,
			x->popup_box.w, x->popup_box.h);
	}
	xdg_surface_send_configure(x->resource, x->configure_serial);
}

void xdg_configure(struct shell_surface *x)
{
	if (x->configure_serial && x->role_resource)
		send_configure(x);
}

/* Reactive popups (xdg_positioner.set_reactive) are placed again when what constrains them
 * changed (their parent moved or resized, the output's size): a new configure for each whose
 * box changed, parents before their popups (the list's order). Others keep their box. */
static void reconstrain_reactive(struct server *srv)
{
	struct shell_surface *x;
	wl_list_for_each(x, &srv->toplevels, link) {
		if (!x->popup || !x->rules.reactive || x->done || !x->configure_serial ||
		    !x->role_resource)
			continue;
		struct box old = x->popup_box;
		popup_place(x);
		if (memcmp(&old, &x->popup_box, sizeof(old)) != 0)
			send_configure(x);
	}
}

void xdg_reconfigure_all(struct server *srv)
{
	struct shell_surface *x;
	wl_list_for_each(x, &srv->toplevels, link)
		if (!x->popup && x->configure_serial && x->role_resource)
			send_configure(x);
	reconstrain_reactive(srv);
	server_schedule_repaint(srv);
}

/* ---- popup grabs ---- */

static struct wl_client *client_of(struct shell_surface *x)
{
	return wl_resource_get_client(x->resource);
}

/* popup_done to every grabbing popup, topmost first (the list is bottom to top). */
static void dismiss_grabs(struct server *srv, struct wl_client *keep)
{
	struct shell_surface *x;
	bool any = false;
	wl_list_for_each_reverse(x, &srv->toplevels, link) {
		if (!x->popup || !x->grab || x->done || !x->role_resource)
			continue;
		if (keep && client_of(x) == keep)
			continue;
		xdg_popup_send_popup_done(x->role_resource);
		x->done = true;
		any = true;
		if (x->surface && (x->surface->layer || x->surface->mapped))
			surface_unmap(x->surface);
	}
	if (any)
		server_schedule_repaint(srv);
}

static bool grab_active(struct server *srv)
{
	struct shell_surface *x;
	wl_list_for_each(x, &srv->toplevels, link)
		if (x->popup && x->grab && !x->done && x->role_resource)
			return true;
	return false;
}

/* The press and keyboard focus listeners, with the server behind them, and the module's
 * one setting. */
/* An interactive move or resize (xdg_toplevel.move, .resize), a pointer grab of the seat's. */
struct move_grab {
	struct seat_pointer_grab grab;
	struct shell_surface *x;        /* NULL: none runs (or the toplevel went) */
	uint32_t edges;                 /* enum xdg_toplevel_resize_edge; 0: a move */
	double px, py;                  /* the pointer at the start, output coordinates */
	struct box start;               /* the window geometry then: place_x/y and size */
};

struct press_listener {
	struct wl_listener l;           /* first: server.xdg_press points here */
	struct wl_listener focus, map;
	struct wl_event_source *dismiss; /* idle: end the popup grabs */
	struct server *srv;
	bool lenient;                   /* xdg_set_lenient() */
	struct move_grab move;
};

static struct press_listener *press_listener_of(struct server *srv)
{
	return srv->xdg_press ? wl_container_of(srv->xdg_press, (struct press_listener *)NULL,
		l) : NULL;
}

static void dismiss_idle(void *data)
{
	struct press_listener *pl = data;
	pl->dismiss = NULL;
	dismiss_grabs(pl->srv, NULL);
}

/* A surface mapped, moved or resized (the repaint reports it): reactive popups are placed
 * again. A toplevel that maps takes the keyboard from the grab's owner: the grab chain
 * ends (after the repaint that mapped it, which reports this). */
static void on_map_changed(struct wl_listener *l, void *data)
{
	struct press_listener *pl = wl_container_of(l, pl, map);
	struct surface *s = data;
	struct shell_surface *x = s->xdg;
	if (x && s->mapped)
		reconstrain_reactive(pl->srv); /* it moved or resized: its popups may have to */
	if (!x || x->popup || s->role != ROLE_XDG_TOPLEVEL)
		return;
	if (!s->mapped) {
		x->seen_mapped = false;
		return;
	}
	if (x->seen_mapped)
		return;
	x->seen_mapped = true;
	if (grab_active(pl->srv) && !pl->dismiss)
		pl->dismiss = wl_event_loop_add_idle(pl->srv->loop, dismiss_idle, pl);
}

/* The keyboard focus moved: toplevels whose activated state changed are configured. */
static void on_keyboard_focus(struct wl_listener *l, void *data)
{
	struct press_listener *pl = wl_container_of(l, pl, focus);
	struct shell_surface *a = toplevel_of_focus(data), *x;
	wl_list_for_each(x, &pl->srv->toplevels, link) {
		if (x->popup)
			continue;
		x->focused = x == a;
		if (x->role_resource && x->configure_serial && x->activated != x->focused)
			send_configure(x);
	}
}

static bool descends_from(const struct shell_surface *o, const struct shell_surface *x)
{
	for (const struct shell_surface *q = o->parent; q; q = q->parent)
		if (q == x)
			return true;
	return false;
}

/* The free policy's click to raise: the toplevel under a press goes on top, with its
 * dialogs and popups above it in their order, and takes the keyboard. */
static void raise_pressed(struct server *srv, struct surface *target)
{
	struct surface *s = target;
	while (s && s->role == ROLE_SUBSURFACE && s->sub)
		s = s->sub->parent;
	struct shell_surface *x = s ? s->xdg : NULL;
	while (x && x->popup)
		x = x->parent;
	if (!x || !x->role_resource)
		return;
	struct wl_list moved;
	wl_list_init(&moved);
	struct shell_surface *o, *tmp;
	bool on_top = true;
	wl_list_for_each_reverse(o, &srv->toplevels, link) {
		if (o == x)
			break;
		if (!descends_from(o, x))
			on_top = false;
	}
	if (on_top)
		return;
	wl_list_for_each_safe(o, tmp, &srv->toplevels, link) {
		if (o == x || descends_from(o, x)) {
			wl_list_remove(&o->link);
			wl_list_insert(moved.prev, &o->link);
		}
	}
	wl_list_insert_list(srv->toplevels.prev, &moved);
	server_schedule_repaint(srv);
	/* the seat gives the keyboard to the new top */
	wl_signal_emit(&srv->events.map_changed, x->surface);
}

/* A press: outside the grabbing client it ends the grab (and is not delivered). */
static void on_press(struct wl_listener *l, void *data)
{
	struct server_press *press = data;
	struct press_listener *pl = wl_container_of(l, pl, l);
	struct server *srv = pl->srv;
	if (!grab_active(srv)) {
		if (srv->policy == DISPMAN_WAYLAND_POLICY_FREE && press->target)
			raise_pressed(srv, press->target);
		return;
	}
	struct shell_surface *x, *top = NULL;
	wl_list_for_each_reverse(x, &srv->toplevels, link) {
		if (x->popup && x->grab && !x->done && x->role_resource) {
			top = x;
			break;
		}
	}
	struct wl_client *grabber = client_of(top);
	if (press->target && wl_resource_get_client(press->target->resource) == grabber) {
		/* inside the client: delivered, and the grab stays; the client closes its
		 * popups itself if it wants (as under wlroots). Dismissing and delivering
		 * both would hand it a press after popup_done. */
		return;
	}
	dismiss_grabs(srv, NULL);
	press->consumed = true;
}

/* ---- toplevel ---- */

static void role_destroy(struct wl_client *c, struct wl_resource *res)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (x && x->popup) {
		/* only the topmost popup of a chain may go */
		struct shell_surface *o;
		wl_list_for_each(o, &x->srv->toplevels, link) {
			if (o != x && o->popup && o->parent == x && o->role_resource && !o->done) {
				post_error(x->srv, x->resource,
					XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP,
					"a popup destroyed before its child popups");
				return;
			}
		}
	}
	wl_resource_destroy(res);
}

static void move_grab_forget(struct shell_surface *x);

static void role_resource_destroy(struct wl_resource *res)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (!x)
		return;
	x->role_resource = NULL;
	move_grab_forget(x);
	wl_list_remove(&x->link);
	wl_list_init(&x->link);
	x->configured = false;
	x->configure_serial = 0;
	x->n_unacked = 0;
	/* children (dialogs, popups) lose their parent */
	struct shell_surface *o;
	wl_list_for_each(o, &x->srv->toplevels, link)
		if (o->parent == x)
			o->parent = NULL;
	if (x->surface) {
		if (x->surface->layer || x->surface->mapped)
			surface_unmap(x->surface);
		x->surface->role = ROLE_NONE;
	}
	x->parent = NULL;
	x->grab = false;
	x->done = false;
	server_schedule_repaint(x->srv);
}

static struct shell_surface *toplevel_from(struct wl_resource *res)
{
	return wl_resource_get_user_data(res);
}

static void toplevel_set_parent(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *parent_res)
{
	struct shell_surface *x = toplevel_from(res);
	struct shell_surface *p = parent_res ? toplevel_from(parent_res) : NULL;
	if (!x)
		return;
	for (struct shell_surface *q = p; q; q = q->parent) {
		if (q == x) {
			post_error(x->srv, res, XDG_TOPLEVEL_ERROR_INVALID_PARENT,
				"the parent would be the toplevel itself or its descendant");
			return;
		}
	}
	if (p == x->parent)
		return;
	bool was_main = is_main(x);
	x->parent = p;
	/* a dialog goes above its parent */
	if (p && x->configure_serial) {
		wl_list_remove(&x->link);
		wl_list_insert(x->srv->toplevels.prev, &x->link);
	}
	if (x->configure_serial && was_main != is_main(x))
		send_configure(x);
	server_schedule_repaint(x->srv);
}

static void toplevel_set_string(struct wl_client *c, struct wl_resource *res, const char *s)
{
}

/* The app_id names the toplevel's layer in the pipeline graph (cut to the layer name's
 * limit). */
static void toplevel_set_app_id(struct wl_client *c, struct wl_resource *res, const char *s)
{
	struct shell_surface *x = toplevel_from(res);
	if (!x || !x->surface)
		return;
	snprintf(x->surface->name, sizeof(x->surface->name), "%s", s ? s : "");
	x->surface->name_changed = true;
}

static void toplevel_show_window_menu(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *seat, uint32_t serial, int32_t x, int32_t y)
{
}

/* ---- interactive move and resize (the free policy) ---- */

static int32_t clamp_size(int32_t v, int32_t min, int32_t max)
{
	if (max > 0 && v > max)
		v = max;
	if (v < min)
		v = min;
	return v < 1 ? 1 : v;
}

/* The pointer moved by (dx, dy) since the start: a move places the window geometry there;
 * a resize moves the edges it holds (the opposite ones stay), places the window at once
 * (its left or top edge) and asks the client for the new size. */
static void move_grab_motion(struct seat_pointer_grab *g, uint32_t ms, double px, double py)
{
	struct move_grab *m = wl_container_of(g, m, grab);
	struct shell_surface *x = m->x;
	if (!x)
		return;
	int32_t dx = (int32_t)(px - m->px), dy = (int32_t)(py - m->py);
	struct box b = m->start;
	if (!m->edges) {
		b.x += dx;
		b.y += dy;
	} else {
		int32_t right = b.x + b.w, bottom = b.y + b.h;
		if (m->edges & XDG_TOPLEVEL_RESIZE_EDGE_LEFT) {
			b.w = clamp_size(b.w - dx, x->min_w, x->max_w);
			b.x = right - b.w;
		} else if (m->edges & XDG_TOPLEVEL_RESIZE_EDGE_RIGHT) {
			b.w = clamp_size(b.w + dx, x->min_w, x->max_w);
		}
		if (m->edges & XDG_TOPLEVEL_RESIZE_EDGE_TOP) {
			b.h = clamp_size(b.h - dy, x->min_h, x->max_h);
			b.y = bottom - b.h;
		} else if (m->edges & XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM) {
			b.h = clamp_size(b.h + dy, x->min_h, x->max_h);
		}
	}
	bool moved = !x->placed || x->place_x != b.x || x->place_y != b.y;
	x->placed = true;
	x->place_x = b.x;
	x->place_y = b.y;
	if (m->edges && (x->size_w != b.w || x->size_h != b.h)) {
		x->size_w = b.w;
		x->size_h = b.h;
		send_configure(x);
	}
	if (moved)
		server_schedule_repaint(x->srv);
}

static void move_grab_button(struct seat_pointer_grab *g, uint32_t ms, uint32_t button,
	bool pressed)
{
	/* the seat ends the grab at the last release (release_ends) */
}

/* The grab ended (the last button released, or the seat cancelled it). */
static void move_grab_cancel(struct seat_pointer_grab *g)
{
	struct move_grab *m = wl_container_of(g, m, grab);
	struct shell_surface *x = m->x;
	m->x = NULL;
	if (x && x->resizing) {
		x->resizing = false;
		send_configure(x); /* without the resizing state */
	}
}

/* The toplevel goes: its grab moves nothing more (the seat ends it at the release). */
static void move_grab_forget(struct shell_surface *x)
{
	struct press_listener *pl = press_listener_of(x->srv);
	if (pl && pl->move.x == x) {
		x->resizing = false;
		pl->move.x = NULL;
	}
}

/* A move (edges 0) or resize from the implicit grab of the press that sent serial. The
 * kiosk policy places windows itself and ignores both; so does the free policy for a
 * full-screen or maximized toplevel. */
static void start_move(struct wl_resource *res, uint32_t serial, uint32_t edges)
{
	struct shell_surface *x = toplevel_from(res);
	struct press_listener *pl = x ? press_listener_of(x->srv) : NULL;
	if (!pl || !x->surface || !x->configured || x->srv->policy != DISPMAN_WAYLAND_POLICY_FREE ||
	    x->want_fullscreen || x->want_maximized || pl->move.x) {
		wlog(DISPMAN_LOG_DEBUG, "xdg_toplevel.%s ignored (the kiosk policy, a full-screen "
			"or maximized window, or one already runs)", edges ? "resize" : "move");
		return;
	}
	struct move_grab *m = &pl->move;
	m->grab = (struct seat_pointer_grab){ .motion = move_grab_motion,
		.button = move_grab_button, .cancel = move_grab_cancel, .release_ends = true };
	struct server_grab_request req = { .surface = x->surface, .serial = serial,
		.grab = &m->grab };
	wl_signal_emit(&x->srv->events.grab_request, &req);
	if (!req.started)
		return;
	struct box g;
	window_geometry(x, &g);
	m->x = x;
	m->edges = edges;
	m->px = req.x;
	m->py = req.y;
	m->start = (struct box){ x->placed ? x->place_x : 0, x->placed ? x->place_y : 0,
		g.w, g.h };
	if (edges) {
		x->resizing = true;
		x->size_w = g.w;
		x->size_h = g.h;
		send_configure(x);
	}
}

static void toplevel_move(struct wl_client *c, struct wl_resource *res, struct wl_resource *seat,
	uint32_t serial)
{
	start_move(res, serial, 0);
}

static void toplevel_resize(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *seat, uint32_t serial, uint32_t edges)
{
	struct shell_surface *x = toplevel_from(res);
	if (!x)
		return;
	if (edges == XDG_TOPLEVEL_RESIZE_EDGE_NONE || edges > 15 ||
	    (edges & 3) == 3 || (edges & 12) == 12) {
		server_post_error(x->srv, res, XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE,
			"resize edge %u is not one of the enum's", edges);
		return;
	}
	start_move(res, serial, edges);
}

static void toplevel_set_max_size(struct wl_client *c, struct wl_resource *res, int32_t w,
	int32_t h)
{
	struct shell_surface *x = toplevel_from(res);
	if (w < 0 || h < 0) {
		post_error(x->srv, res, XDG_TOPLEVEL_ERROR_INVALID_SIZE, "negative maximum size");
		return;
	}
	x->max_w = w;
	x->max_h = h;
}

static void toplevel_set_min_size(struct wl_client *c, struct wl_resource *res, int32_t w,
	int32_t h)
{
	struct shell_surface *x = toplevel_from(res);
	if (w < 0 || h < 0) {
		post_error(x->srv, res, XDG_TOPLEVEL_ERROR_INVALID_SIZE, "negative minimum size");
		return;
	}
	x->min_w = w;
	x->min_h = h;
}

static void toplevel_void(struct wl_client *c, struct wl_resource *res)
{
	/* minimize: a kiosk has none; the configure answers with the toplevel's state as
	 * it is */
	struct shell_surface *x = toplevel_from(res);
	if (x && x->configure_serial)
		send_configure(x);
}

/* The free policy maximizes (the output's size at its top left corner); the kiosk's keeps
 * its own state and says so in the configure. */
static void toplevel_set_maximized(struct wl_client *c, struct wl_resource *res)
{
	struct shell_surface *x = toplevel_from(res);
	if (!x)
		return;
	x->want_maximized = true;
	if (x->configure_serial)
		send_configure(x);
	server_schedule_repaint(x->srv);
}

static void toplevel_unset_maximized(struct wl_client *c, struct wl_resource *res)
{
	struct shell_surface *x = toplevel_from(res);
	if (!x)
		return;
	x->want_maximized = false;
	if (x->configure_serial)
		send_configure(x);
	server_schedule_repaint(x->srv);
}

static void toplevel_set_fullscreen(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *output)
{
	struct shell_surface *x = toplevel_from(res);
	x->want_fullscreen = true;
	/* on that output (output.c places it; an output gone or unknown: the first) */
	struct output *o = output_from_resource(output);
	uint32_t want = o ? o->id : 0;
	bool moved = want != x->want_output;
	x->want_output = want;
	if (x->configure_serial)
		send_configure(x);
	if (moved)
		server_schedule_repaint(x->srv);
}

static void toplevel_unset_fullscreen(struct wl_client *c, struct wl_resource *res)
{
	struct shell_surface *x = toplevel_from(res);
	x->want_fullscreen = false;
	if (x->configure_serial)
		send_configure(x);
}

static const struct xdg_toplevel_interface toplevel_impl = {
	.destroy = role_destroy,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_string,
	.set_app_id = toplevel_set_app_id,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_max_size,
	.set_min_size = toplevel_set_min_size,
	.set_maximized = toplevel_set_maximized,
	.unset_maximized = toplevel_unset_maximized,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_unset_fullscreen,
	.set_minimized = toplevel_void,
};

/* ---- popup ---- */

static void popup_grab(struct wl_client *c, struct wl_resource *res, struct wl_resource *seat,
	uint32_t serial)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (!x)
		return;
	if (x->surface && x->surface->mapped) {
		post_error(x->srv, res, XDG_POPUP_ERROR_INVALID_GRAB,
			"grab after the popup was mapped");
		return;
	}
	struct shell_surface *p = x->parent;
	if (p && p->popup && !p->grab && !p->done) {
		/* a grabbing popup's parent must be a toplevel or a grabbing popup */
		post_error(x->srv, res, XDG_POPUP_ERROR_INVALID_GRAB,
			"grab on a popup whose parent popup has no grab");
		return;
	}
	x->grab = true;
}

static void popup_reposition(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *positioner, uint32_t token)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (!x)
		return;
	const struct positioner_rules *r = rules_of(positioner);
	if (r->w < 1 || !r->anchor_rect_set) {
		post_error(x->srv, x->resource, XDG_WM_BASE_ERROR_INVALID_POSITIONER,
			"incomplete positioner");
		return;
	}
	x->rules = *r;
	xdg_popup_send_repositioned(res, token);
	send_configure(x);
}

static const struct xdg_popup_interface popup_impl = {
	.destroy = role_destroy,
	.grab = popup_grab,
	.reposition = popup_reposition,
};

/* ---- xdg_surface ---- */

static void xsurface_destroy(struct wl_client *c, struct wl_resource *res)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (x->role_resource) {
		post_error(x->srv, res, XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT,
			"xdg_surface destroyed before its role object");
		return;
	}
	wl_resource_destroy(res);
}

static void xsurface_resource_destroy(struct wl_resource *res)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	wl_signal_emit(&x->destroy_signal, x);
	move_grab_forget(x);
	if (x->role_resource) {
		wl_resource_set_user_data(x->role_resource, NULL);
		wl_list_remove(&x->link);
		struct shell_surface *o;
		wl_list_for_each(o, &x->srv->toplevels, link)
			if (o->parent == x)
				o->parent = NULL;
	}
	if (x->surface) {
		wl_list_remove(&x->surface_destroy.link);
		if (x->surface->layer || x->surface->mapped)
			surface_unmap(x->surface);
		x->surface->xdg = NULL;
		x->surface->role_commit = NULL;
		x->surface->role_refuses_buffer = NULL;
		x->surface->role_data = NULL;
		x->surface->role = ROLE_NONE;
	}
	server_schedule_repaint(x->srv);
	free(x);
}

static bool take_role(struct shell_surface *x, struct wl_resource *res, enum surface_role role)
{
	if (!x->surface) {
		post_error(x->srv, res, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
			"the wl_surface is gone");
		return false;
	}
	if (x->role_resource || (x->surface->role != ROLE_NONE && x->surface->role != role)) {
		post_error(x->srv, res, XDG_WM_BASE_ERROR_ROLE, "the surface already has a role");
		return false;
	}
	if (x->surface->current.buffer) {
		post_error(x->srv, res, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
			"the surface has a buffer before its role");
		return false;
	}
	return true;
}

static void xsurface_get_toplevel(struct wl_client *c, struct wl_resource *res, uint32_t id)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (!take_role(x, res, ROLE_XDG_TOPLEVEL))
		return;
	x->role_resource = wl_resource_create(c, &xdg_toplevel_interface,
		wl_resource_get_version(res), id);
	if (!x->role_resource) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(x->role_resource, &toplevel_impl, x, role_resource_destroy);
	x->popup = false;
	x->surface->role = ROLE_XDG_TOPLEVEL;
	wl_list_insert(x->srv->toplevels.prev, &x->link);
}

static void xsurface_get_popup(struct wl_client *c, struct wl_resource *res, uint32_t id,
	struct wl_resource *parent_res, struct wl_resource *positioner_res)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (!take_role(x, res, ROLE_XDG_POPUP))
		return;
	struct shell_surface *parent = parent_res ? wl_resource_get_user_data(parent_res) : NULL;
	const struct positioner_rules *r = rules_of(positioner_res);
	if (r->w < 1 || !r->anchor_rect_set) {
		post_error(x->srv, res, XDG_WM_BASE_ERROR_INVALID_POSITIONER,
			"incomplete positioner (no size or no anchor rectangle)");
		return;
	}
	x->role_resource = wl_resource_create(c, &xdg_popup_interface,
		wl_resource_get_version(res), id);
	if (!x->role_resource) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(x->role_resource, &popup_impl, x, role_resource_destroy);
	x->popup = true;
	x->parent = parent;
	x->rules = *r;
	x->grab = false;
	x->done = false;
	x->surface->role = ROLE_XDG_POPUP;
	wl_list_insert(x->srv->toplevels.prev, &x->link);
	if (!parent)
		wlog(DISPMAN_LOG_INFO, "popup %u without a parent: not shown (no other protocol "
			"gives it one here)", wl_resource_get_id(res));
}

static void xsurface_set_window_geometry(struct wl_client *c, struct wl_resource *res, int32_t x,
	int32_t y, int32_t w, int32_t h)
{
	struct shell_surface *xs = wl_resource_get_user_data(res);
	if (!xs->role_resource) {
		post_error(xs->srv, res, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
			"set_window_geometry without a role");
		return;
	}
	if (w <= 0 || h <= 0) {
		post_error(xs->srv, res, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
			"window geometry with a size that is not positive");
		return;
	}
	xs->pending_geometry = (struct box){ x, y, w, h };
	xs->pending_geometry_set = true;
}

static void xsurface_ack_configure(struct wl_client *c, struct wl_resource *res, uint32_t serial)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (!x->role_resource) {
		post_error(x->srv, res, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
			"ack_configure without a role");
		return;
	}
	unsigned i = 0;
	while (i < x->n_unacked && x->unacked[i] != serial)
		i++;
	if (i == x->n_unacked) {
		/* older serials than the 16 kept are taken: only a serial never sent (or
		 * acked already) is an error */
		if (x->n_unacked < sizeof(x->unacked) / sizeof(x->unacked[0]) || !x->configured) {
			server_post_error(x->srv, res, XDG_SURFACE_ERROR_INVALID_SERIAL,
				"ack_configure with serial %u, not one sent and unacked", serial);
			return;
		}
		x->configured = true;
		return;
	}
	/* this one and every older one are acked */
	memmove(x->unacked, x->unacked + i + 1, (x->n_unacked - i - 1) * sizeof(x->unacked[0]));
	x->n_unacked -= i + 1;
	x->configured = true;
}

static const struct xdg_surface_interface xsurface_impl = {
	.destroy = xsurface_destroy,
	.get_toplevel = xsurface_get_toplevel,
	.get_popup = xsurface_get_popup,
	.set_window_geometry = xsurface_set_window_geometry,
	.ack_configure = xsurface_ack_configure,
};

static bool lenient(struct server *srv)
{
	struct press_listener *pl = srv->xdg_press ?
		wl_container_of(srv->xdg_press, pl, l) : NULL;
	return pl && pl->lenient;
}

/* A client's destroy listener marks it as logged once (lenient mode); the listener is its
 * only state, freed with the client. */
static void lenient_client_gone(struct wl_listener *l, void *data)
{
	wl_list_remove(&l->link);
	free(l);
}

static void log_lenient_once(struct shell_surface *x)
{
	struct wl_client *c = wl_resource_get_client(x->resource);
	if (wl_client_get_destroy_listener(c, lenient_client_gone))
		return;
	struct wl_listener *l = calloc(1, sizeof(*l));
	if (l) {
		l->notify = lenient_client_gone;
		wl_client_add_destroy_listener(c, l);
	}
	pid_t pid = 0;
	wl_client_get_credentials(c, &pid, NULL, NULL);
	wlog(DISPMAN_LOG_DEBUG, "client (pid %d) committed a buffer before acking the first "
		"configure of xdg_surface %u: taken as the ack (lenient configure; logged once "
		"per client)", (int)pid, wl_resource_get_id(x->resource));
}

/* surface_role_refuses_buffer: no buffer before the first configure is acked (unless
 * lenient: the commit decides then) */
static bool refuses_buffer(struct surface *s, void *data)
{
	struct shell_surface *x = data;
	if (x->configured || !x->resource || lenient(x->srv))
		return false;
	post_error(x->srv, x->resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
		"buffer attached before the first configure was acknowledged");
	return true;
}

static void xdg_surface_committed(struct surface *s, void *data)
{
	struct shell_surface *x = data;
	if (!x->role_resource)
		return;
	if (x->pending_geometry_set) {
		x->geometry = x->pending_geometry;
		x->pending_geometry_set = false;
	}
	if (!x->configured && s->current.buffer) {
		if (!lenient(x->srv)) {
			post_error(x->srv, x->resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
				"buffer committed before the first configure was acknowledged");
			return;
		}
		/* as if the configure sent (or the first, sent now) had been acked; its
		 * serial stays acceptable to a late ack_configure */
		log_lenient_once(x);
		if (!x->configure_serial)
			send_configure(x);
		x->configured = true;
		return;
	}
	if (!x->configure_serial)
		send_configure(x);
}

/* ---- xdg_wm_base ---- */

static void wm_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void wm_create_positioner(struct wl_client *c, struct wl_resource *res, uint32_t id)
{
	struct positioner *p = calloc(1, sizeof(*p));
	struct wl_resource *pr = p ? wl_resource_create(c, &xdg_positioner_interface,
		wl_resource_get_version(res), id) : NULL;
	if (!pr) {
		free(p);
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(pr, &positioner_impl, p, positioner_free);
}

static void on_surface_destroy(struct wl_listener *l, void *data)
{
	struct shell_surface *x = wl_container_of(l, x, surface_destroy);
	wl_list_remove(&l->link);
	wl_list_init(&l->link);
	x->surface = NULL;
}

static void wm_get_xdg_surface(struct wl_client *c, struct wl_resource *res, uint32_t id,
	struct wl_resource *surface_res)
{
	struct server *srv = wl_resource_get_user_data(res);
	struct surface *s = surface_from_resource(surface_res);
	if (s->xdg || (s->role != ROLE_NONE)) {
		post_error(srv, res, XDG_WM_BASE_ERROR_ROLE,
			"the surface already has an xdg_surface or another role");
		return;
	}
	if (s->current.buffer || s->pending.buffer) {
		/* attached or committed: both are errors (xdg_surface's description) */
		post_error(srv, res, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
			"the surface already has a buffer");
		return;
	}
	struct shell_surface *x = calloc(1, sizeof(*x));
	if (x)
		x->resource = wl_resource_create(c, &xdg_surface_interface,
			wl_resource_get_version(res), id);
	if (!x || !x->resource) {
		free(x);
		wl_client_post_no_memory(c);
		return;
	}
	x->surface = s;
	x->srv = srv;
	wl_list_init(&x->link);
	wl_signal_init(&x->destroy_signal);
	x->surface_destroy.notify = on_surface_destroy;
	wl_signal_add(&s->destroy_signal, &x->surface_destroy);
	s->xdg = x;
	s->role_commit = xdg_surface_committed;
	s->role_refuses_buffer = refuses_buffer;
	s->role_data = x;
	wl_resource_set_implementation(x->resource, &xsurface_impl, x, xsurface_resource_destroy);
}

static void wm_pong(struct wl_client *c, struct wl_resource *res, uint32_t serial)
{
}

static const struct xdg_wm_base_interface wm_impl = {
	.destroy = wm_destroy,
	.create_positioner = wm_create_positioner,
	.get_xdg_surface = wm_get_xdg_surface,
	.pong = wm_pong,
};

static void wm_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c, &xdg_wm_base_interface, (int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &wm_impl, data, NULL);
}

struct shell_surface *xdg_toplevel_of(struct wl_resource *surface)
{
	struct surface *s = surface_checked_from_resource(surface);
	if (!s || s->role != ROLE_XDG_TOPLEVEL || !s->xdg || s->xdg->popup)
		return NULL;
	return s->xdg;
}

int xdg_init_global(struct server *srv)
{
	struct press_listener *pl = calloc(1, sizeof(*pl));
	if (!pl)
		return -ENOMEM;
	pl->l.notify = on_press;
	pl->focus.notify = on_keyboard_focus;
	pl->map.notify = on_map_changed;
	pl->srv = srv;
	wl_signal_add(&srv->events.press, &pl->l);
	wl_signal_add(&srv->events.keyboard_focus, &pl->focus);
	wl_signal_add(&srv->events.map_changed, &pl->map);
	srv->xdg_press = &pl->l;
	srv->xdg_global = wl_global_create(srv->display, &xdg_wm_base_interface,
		XDG_WM_BASE_VERSION, srv, wm_bind);
	return srv->xdg_global ? 0 : -ENOMEM;
}

int xdg_set_version(struct server *srv, uint32_t version)
{
	if (version < 1 || version > XDG_WM_BASE_VERSION) {
		wlog(DISPMAN_LOG_ERROR, "xdg_wm_base version %u: this compositor serves 1 to %d",
			version, XDG_WM_BASE_VERSION);
		return -EINVAL;
	}
	struct wl_global *g = wl_global_create(srv->display, &xdg_wm_base_interface,
		(int)version, srv, wm_bind);
	if (!g)
		return -ENOMEM;
	/* clients bound to the old global keep their objects; new ones see the new one */
	wl_global_destroy(srv->xdg_global);
	srv->xdg_global = g;
	return 0;
}

void xdg_set_lenient(struct server *srv, bool on)
{
	if (!srv->xdg_press)
		return;
	struct press_listener *pl = wl_container_of(srv->xdg_press, pl, l);
	pl->lenient = on;
}

void xdg_finish(struct server *srv)
{
	if (!srv->xdg_press)
		return;
	struct press_listener *pl = wl_container_of(srv->xdg_press, pl, l);
	wl_list_remove(&pl->l.link);
	wl_list_remove(&pl->focus.link);
	wl_list_remove(&pl->map.link);
	if (pl->dismiss)
		wl_event_source_remove(pl->dismiss);
	free(pl);
	srv->xdg_press = NULL;
}
