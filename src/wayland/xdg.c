/* SPDX-License-Identifier: MIT */
/*
 * xdg_wm_base as a kiosk shell: every toplevel is configured full-screen with the output's
 * size and stacked above the earlier ones; popups sit at their positioner's anchor
 * relative to their parent, above everything.
 */
#include "xdg.h"

#include "box.h"
#include "surface.h"

#include <errno.h>
#include <stdlib.h>

#include "xdg-shell-server-protocol.h"

struct positioner {
	int32_t w, h;
	struct box anchor;
	int32_t off_x, off_y;
};

static void post_error(struct server *srv, struct wl_resource *res, uint32_t code,
	const char *msg)
{
	server_post_error(srv, res, code, "%s", msg);
}

/* ---- positioner ---- */

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
	struct positioner *p = wl_resource_get_user_data(res);
	if (w < 1 || h < 1) {
		wl_resource_post_error(res, XDG_POSITIONER_ERROR_INVALID_INPUT,
			"positioner size %dx%d is not positive", w, h);
		return;
	}
	p->w = w;
	p->h = h;
}

static void positioner_set_anchor_rect(struct wl_client *c, struct wl_resource *res, int32_t x,
	int32_t y, int32_t w, int32_t h)
{
	struct positioner *p = wl_resource_get_user_data(res);
	if (w < 0 || h < 0) {
		wl_resource_post_error(res, XDG_POSITIONER_ERROR_INVALID_INPUT,
			"anchor rectangle %dx%d is negative", w, h);
		return;
	}
	p->anchor = (struct box){ x, y, w, h };
}

static void positioner_set_u32(struct wl_client *c, struct wl_resource *res, uint32_t v)
{
}

static void positioner_set_offset(struct wl_client *c, struct wl_resource *res, int32_t x,
	int32_t y)
{
	struct positioner *p = wl_resource_get_user_data(res);
	p->off_x = x;
	p->off_y = y;
}

static void positioner_set_reactive(struct wl_client *c, struct wl_resource *res)
{
}

static void positioner_set_parent_size(struct wl_client *c, struct wl_resource *res, int32_t w,
	int32_t h)
{
}

static const struct xdg_positioner_interface positioner_impl = {
	.destroy = positioner_destroy,
	.set_size = positioner_set_size,
	.set_anchor_rect = positioner_set_anchor_rect,
	.set_anchor = positioner_set_u32,
	.set_gravity = positioner_set_u32,
	.set_constraint_adjustment = positioner_set_u32,
	.set_offset = positioner_set_offset,
	.set_reactive = positioner_set_reactive,
	.set_parent_size = positioner_set_parent_size,
	.set_parent_configure = positioner_set_u32,
};

/* ---- toplevel ---- */

static void role_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void role_resource_destroy(struct wl_resource *res)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (!x)
		return;
	x->role_resource = NULL;
	wl_list_remove(&x->link);
	wl_list_init(&x->link);
	x->configured = false;
	if (x->surface) {
		if (x->surface->layer || x->surface->mapped)
			surface_unmap(x->surface);
		x->surface->role = ROLE_NONE;
		x->surface->xdg = NULL;
		/* the xdg_surface may get a new role: keep it linked to the surface */
		x->surface->xdg = x;
	}
	server_schedule_repaint(x->srv);
}

static void toplevel_set_parent(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *parent)
{
}

static void toplevel_set_string(struct wl_client *c, struct wl_resource *res, const char *s)
{
}

static void toplevel_show_window_menu(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *seat, uint32_t serial, int32_t x, int32_t y)
{
}

static void toplevel_move(struct wl_client *c, struct wl_resource *res, struct wl_resource *seat,
	uint32_t serial)
{
}

static void toplevel_resize(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *seat, uint32_t serial, uint32_t edges)
{
}

static void toplevel_set_size(struct wl_client *c, struct wl_resource *res, int32_t w, int32_t h)
{
}

static void toplevel_void(struct wl_client *c, struct wl_resource *res)
{
}

static void toplevel_set_fullscreen(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *output)
{
}

static const struct xdg_toplevel_interface toplevel_impl = {
	.destroy = role_destroy,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_string,
	.set_app_id = toplevel_set_string,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_size,
	.set_min_size = toplevel_set_size,
	.set_maximized = toplevel_void,
	.unset_maximized = toplevel_void,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_void,
	.set_minimized = toplevel_void,
};

static void send_configure(struct shell_surface *x)
{
	struct server *srv = x->srv;
	if (!x->role_resource)
		return;
	x->configure_serial = wl_display_next_serial(srv->display);
	if (!x->popup) {
		struct wl_array states;
		wl_array_init(&states);
		uint32_t *st = wl_array_add(&states, 2 * sizeof(uint32_t));
		if (st) {
			st[0] = XDG_TOPLEVEL_STATE_FULLSCREEN;
			st[1] = XDG_TOPLEVEL_STATE_ACTIVATED;
		}
		xdg_toplevel_send_configure(x->role_resource, srv->width, srv->height, &states);
		wl_array_release(&states);
	}
	xdg_surface_send_configure(x->resource, x->configure_serial);
}

/* ---- popup ---- */

static void popup_grab(struct wl_client *c, struct wl_resource *res, struct wl_resource *seat,
	uint32_t serial)
{
}

static void popup_reposition(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *positioner, uint32_t token)
{
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
	if (x->role_resource) {
		wl_resource_set_user_data(x->role_resource, NULL);
		wl_list_remove(&x->link);
	}
	if (x->surface) {
		wl_list_remove(&x->surface_destroy.link);
		if (x->surface->layer || x->surface->mapped)
			surface_unmap(x->surface);
		x->surface->xdg = NULL;
		x->surface->role_commit = NULL;
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
	struct positioner *p = wl_resource_get_user_data(positioner_res);
	if (p->w < 1 || p->anchor.w < 0) {
		post_error(x->srv, res, XDG_WM_BASE_ERROR_INVALID_POSITIONER,
			"incomplete positioner");
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
	x->surface->role = ROLE_XDG_POPUP;
	int32_t rx = p->anchor.x + p->off_x, ry = p->anchor.y + p->anchor.h + p->off_y;
	x->px = rx + (parent && parent->popup ? parent->px : 0);
	x->py = ry + (parent && parent->popup ? parent->py : 0);
	wl_list_insert(x->srv->toplevels.prev, &x->link);
	xdg_popup_send_configure(x->role_resource, rx, ry, p->w, p->h);
}

static void xsurface_set_window_geometry(struct wl_client *c, struct wl_resource *res, int32_t x,
	int32_t y, int32_t w, int32_t h)
{
}

static void xsurface_ack_configure(struct wl_client *c, struct wl_resource *res, uint32_t serial)
{
	struct shell_surface *x = wl_resource_get_user_data(res);
	if (!x->role_resource) {
		post_error(x->srv, res, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
			"ack_configure without a role");
		return;
	}
	if (serial != x->configure_serial && !x->configured) {
		post_error(x->srv, res, XDG_SURFACE_ERROR_INVALID_SERIAL,
			"ack_configure with a serial never sent");
		return;
	}
	x->configured = true;
}

static const struct xdg_surface_interface xsurface_impl = {
	.destroy = xsurface_destroy,
	.get_toplevel = xsurface_get_toplevel,
	.get_popup = xsurface_get_popup,
	.set_window_geometry = xsurface_set_window_geometry,
	.ack_configure = xsurface_ack_configure,
};

static void xdg_surface_committed(struct surface *s, void *data)
{
	struct shell_surface *x = data;
	if (!x->role_resource)
		return;
	if (!x->configured && s->current.buffer) {
		post_error(x->srv, x->resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
			"buffer committed before the first configure was acknowledged");
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
	p->anchor.w = -1;
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
	if (s->current.buffer) {
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
	x->surface_destroy.notify = on_surface_destroy;
	wl_signal_add(&s->destroy_signal, &x->surface_destroy);
	s->xdg = x;
	s->role_commit = xdg_surface_committed;
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

int xdg_init_global(struct server *srv)
{
	if (!wl_global_create(srv->display, &xdg_wm_base_interface, 3, srv, wm_bind))
		return -ENOMEM;
	return 0;
}
