/* SPDX-License-Identifier: MIT */
/*
 * xdg_positioner.set_reactive (src/wayland/xdg.c) against a client in the same process (a
 * socket pair), on a compositor over the mock device: a reactive popup whose parent moves
 * (dispman_wayland_place_surface() under the free policy) or resizes (the kiosk policy
 * centres a smaller main toplevel, so a new size moves it) so far that the popup would
 * leave the output gets a new xdg_popup.configure with the position slid back inside; a
 * popup with the same rules without set_reactive gets none and keeps its box; a move that
 * leaves the reactive popup's box as it was sends nothing either.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <wayland-client.h>
#include <wayland-server-core.h>

#include <dispman/wayland.h>

#include "mock-drm.h"
#include "wl-pair.h"
#include "unit-main.h"
#include "xdg-shell-client-protocol.h"

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

struct fixture {
	struct dispman_device *dev;
	struct dispman_wayland *wl;
	struct wl_display *client;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm;
	struct wl_output *output;
	int32_t out_w, out_h;
};

/* A toplevel or a popup, with what its configures said. */
struct window {
	struct wl_surface *surface;
	struct xdg_surface *xsurface;
	struct xdg_toplevel *toplevel;
	struct xdg_popup *popup;
	struct wl_buffer *buffer;
	uint32_t serial;                /* the last xdg_surface.configure's, unacked */
	int popup_configures;
	int32_t x, y, w, h;             /* the last xdg_popup.configure */
};

/* Requests to the compositor, events back (and its repaints), a few times over. */
static void pump(struct fixture *f)
{
	wl_pair_pump(f->wl, f->client);
}

static void wm_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void out_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t pw,
	int32_t ph, int32_t subpixel, const char *make, const char *model, int32_t transform)
{
}

static void out_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h,
	int32_t refresh)
{
	struct fixture *f = data;
	if (flags & WL_OUTPUT_MODE_CURRENT) {
		f->out_w = w;
		f->out_h = h;
	}
}

static void out_done(void *data, struct wl_output *o)
{
}

static void out_scale(void *data, struct wl_output *o, int32_t factor)
{
}

static const struct wl_output_listener out_listener = {
	out_geometry, out_mode, out_done, out_scale,
};

static void start(struct fixture *f, enum dispman_wayland_window_policy policy)
{
	memset(f, 0, sizeof(*f));
	wl_pair_start(&f->dev, &f->wl, &f->client);
	CHECK(dispman_wayland_set_window_policy(f->wl, policy) == 0);
	f->registry = wl_pair_bind(f->wl, f->client, (const struct wl_pair_want[]){
		{ &wl_compositor_interface, 4, &f->compositor },
		{ &wl_shm_interface, 1, &f->shm },
		{ &xdg_wm_base_interface, 3, &f->wm, 0, &wm_listener, f },
		{ &wl_output_interface, 2, &f->output, 0, &out_listener, f },
		{ 0 } });
	CHECK(f->compositor && f->shm && f->wm && f->output);
	CHECK(f->out_w > 0 && f->out_h > 0);
}

static void window_free(struct window *w)
{
	if (w->popup)
		xdg_popup_destroy(w->popup);
	if (w->toplevel)
		xdg_toplevel_destroy(w->toplevel);
	xdg_surface_destroy(w->xsurface);
	wl_surface_destroy(w->surface);
	if (w->buffer)
		wl_buffer_destroy(w->buffer);
}

static void stop(struct fixture *f)
{
	wl_output_destroy(f->output);
	xdg_wm_base_destroy(f->wm);
	wl_shm_destroy(f->shm);
	wl_compositor_destroy(f->compositor);
	wl_registry_destroy(f->registry);
	wl_pair_stop(&f->dev, &f->wl, &f->client);
	CHECK(mock_drm_live_objects() == 0);
	mock_drm_reset();
}

static void xsurface_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	((struct window *)data)->serial = serial;
}

static const struct xdg_surface_listener xsurface_listener = { xsurface_configure };

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
}

static const struct xdg_toplevel_listener toplevel_listener = {
	toplevel_configure, toplevel_close,
};

static void popup_configure(void *data, struct xdg_popup *p, int32_t x, int32_t y, int32_t w,
	int32_t h)
{
	struct window *win = data;
	win->popup_configures++;
	win->x = x;
	win->y = y;
	win->w = w;
	win->h = h;
}

static void popup_done(void *data, struct xdg_popup *p)
{
}

static void popup_repositioned(void *data, struct xdg_popup *p, uint32_t token)
{
}

static const struct xdg_popup_listener popup_listener = {
	popup_configure, popup_done, popup_repositioned,
};

/* An opaque w x h shm buffer. */
static struct wl_buffer *buffer(struct fixture *f, int32_t w, int32_t h)
{
	return wl_pair_shm_buffer(f->shm, w, h);
}

/* The first configure acked, a w x h buffer committed: mapped at the next repaint. */
static void map_window(struct fixture *f, struct window *w, int32_t bw, int32_t bh)
{
	wl_surface_commit(w->surface);
	pump(f);
	CHECK(w->serial != 0);
	xdg_surface_ack_configure(w->xsurface, w->serial);
	w->serial = 0;
	w->buffer = buffer(f, bw, bh);
	wl_surface_attach(w->surface, w->buffer, 0, 0);
	wl_surface_damage_buffer(w->surface, 0, 0, bw, bh);
	wl_surface_commit(w->surface);
	pump(f);
}

static void toplevel(struct fixture *f, struct window *w, int32_t bw, int32_t bh)
{
	memset(w, 0, sizeof(*w));
	w->surface = wl_compositor_create_surface(f->compositor);
	w->xsurface = xdg_wm_base_get_xdg_surface(f->wm, w->surface);
	xdg_surface_add_listener(w->xsurface, &xsurface_listener, w);
	w->toplevel = xdg_surface_get_toplevel(w->xsurface);
	xdg_toplevel_add_listener(w->toplevel, &toplevel_listener, w);
	map_window(f, w, bw, bh);
}

/* A 100x50 popup of parent, at the anchor rectangle's bottom-left corner, towards gravity,
 * slid along x to stay inside the output; reactive or not. */
static void popup(struct fixture *f, struct window *w, struct window *parent, int32_t ax,
	int32_t ay, enum xdg_positioner_gravity gravity, bool reactive)
{
	memset(w, 0, sizeof(*w));
	struct xdg_positioner *pos = xdg_wm_base_create_positioner(f->wm);
	xdg_positioner_set_size(pos, 100, 50);
	xdg_positioner_set_anchor_rect(pos, ax, ay, 20, 20);
	xdg_positioner_set_anchor(pos, XDG_POSITIONER_ANCHOR_BOTTOM_LEFT);
	xdg_positioner_set_gravity(pos, gravity);
	xdg_positioner_set_constraint_adjustment(pos,
		XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X);
	if (reactive)
		xdg_positioner_set_reactive(pos);
	w->surface = wl_compositor_create_surface(f->compositor);
	w->xsurface = xdg_wm_base_get_xdg_surface(f->wm, w->surface);
	xdg_surface_add_listener(w->xsurface, &xsurface_listener, w);
	w->popup = xdg_surface_get_popup(w->xsurface, parent->xsurface, pos);
	xdg_popup_add_listener(w->popup, &popup_listener, w);
	xdg_positioner_destroy(pos);
	map_window(f, w, 100, 50);
	CHECK(w->popup_configures == 1);
}

/* Free policy: the embedder moves the parent; a reactive popup that would leave the output
 * is slid back in with a new configure, a non-reactive one keeps its first box. */
static void test_parent_moved(void **state)
{
	struct fixture f;
	start(&f, DISPMAN_WAYLAND_POLICY_FREE);
	struct window top, reactive, fixed;
	toplevel(&f, &top, 200, 100);
	/* both below the anchor's bottom-left corner (180, 100), extending right */
	popup(&f, &reactive, &top, 180, 80, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT, true);
	popup(&f, &fixed, &top, 180, 80, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT, false);
	CHECK(reactive.x == 180 && reactive.y == 100 && reactive.w == 100 && reactive.h == 50);
	CHECK(fixed.x == 180 && fixed.y == 100);

	/* a move that keeps both inside: no new configure */
	struct wl_display *server = dispman_wayland_get_display(f.wl);
	struct wl_client *c = wl_client_from_link(wl_display_get_client_list(server)->next);
	struct wl_resource *top_res = wl_client_get_object(c,
		wl_proxy_get_id((struct wl_proxy *)top.surface));
	CHECK(top_res != NULL);
	CHECK(dispman_wayland_place_surface(f.wl, top_res, 10, 10) == 0);
	pump(&f);
	CHECK(reactive.popup_configures == 1);
	CHECK(fixed.popup_configures == 1);

	/* 250 from the right edge: the popup's right edge would be 30 past it */
	CHECK(dispman_wayland_place_surface(f.wl, top_res, f.out_w - 250, 0) == 0);
	pump(&f);
	CHECK(reactive.popup_configures == 2);
	CHECK(reactive.x == 150 && reactive.y == 100 && reactive.w == 100 && reactive.h == 50);
	CHECK(reactive.serial != 0); /* with its xdg_surface.configure */
	CHECK(fixed.popup_configures == 1);
	CHECK(fixed.serial == 0);

	/* back: placed again where its rules want it */
	CHECK(dispman_wayland_place_surface(f.wl, top_res, 0, 0) == 0);
	pump(&f);
	CHECK(reactive.popup_configures == 3);
	CHECK(reactive.x == 180 && reactive.y == 100);
	CHECK(fixed.popup_configures == 1);

	window_free(&fixed);
	window_free(&reactive);
	window_free(&top);
	pump(&f);
	stop(&f);
}

/* Kiosk policy: a main toplevel smaller than the output is centred, so a new size moves
 * it; a reactive popup left of its left edge is slid back inside the output. */
static void test_parent_resized(void **state)
{
	struct fixture f;
	start(&f, DISPMAN_WAYLAND_POLICY_KIOSK);
	struct window top, reactive, fixed;
	toplevel(&f, &top, 200, 100);
	/* left of the parent: x = -100 in its window geometry, on the output while the
	 * parent is centred */
	popup(&f, &reactive, &top, 0, 80, XDG_POSITIONER_GRAVITY_BOTTOM_LEFT, true);
	popup(&f, &fixed, &top, 0, 80, XDG_POSITIONER_GRAVITY_BOTTOM_LEFT, false);
	CHECK(reactive.x == -100 && reactive.y == 100);
	CHECK(fixed.x == -100 && fixed.y == 100);

	/* wider: the parent's left edge 12 px from the output's */
	struct wl_buffer *wide = buffer(&f, f.out_w - 24, 100);
	wl_surface_attach(top.surface, wide, 0, 0);
	wl_surface_damage_buffer(top.surface, 0, 0, f.out_w - 24, 100);
	wl_surface_commit(top.surface);
	pump(&f);
	CHECK(reactive.popup_configures == 2);
	CHECK(reactive.x == -12 && reactive.y == 100 && reactive.w == 100);
	CHECK(fixed.popup_configures == 1);
	CHECK(fixed.x == -100);

	window_free(&fixed);
	window_free(&reactive);
	window_free(&top);
	wl_buffer_destroy(wide);
	pump(&f);
	stop(&f);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "xdg-reactive@parent-moved", test_parent_moved, NULL, NULL, NULL },
		{ "xdg-reactive@parent-resized", test_parent_resized, NULL, NULL, NULL },
	};
	return unit_main("xdg-reactive", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
