/* SPDX-License-Identifier: MIT */
/*
 * The seat's pointer (src/wayland/seat.c) seen through a client in the same process (a
 * socket pair), on a compositor over the mock device with the free window policy: two
 * 100x100 toplevels, A at (0, 0) and B at (200, 0).
 * - implicit-grab: pressed on A, the pointer stays A's while the button is held (motion in
 *   A's coordinates, outside it too, no enter on B); at the release A hears leave, B enter;
 * - press-on-nothing: pressed outside both, no surface gets the pointer until the release;
 * - move: xdg_toplevel.move with the press's serial: A hears leave, follows the pointer
 *   until the release, then has the pointer at the same place on it; a stale serial moves
 *   nothing;
 * - resize: xdg_toplevel.resize from the top left corner: configures with the new size and
 *   the resizing state, the window's left and top edges follow the pointer, the release
 *   ends the resizing state; a bad edge is a protocol error;
 * - move-window-gone: the window goes during its move; the release still ends the grab;
 * - drag-icon-offset: a drag icon's wl_surface.offset (wl_surface 5) moves it from the
 *   pointer (on its plane of the mock device); attach with an offset is an error at 5.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/input-event-codes.h>
#include <wayland-client.h>
#include <wayland-server-core.h>

#include <dispman/input.h>
#include <dispman/wayland.h>

#include "mock-drm.h"
#include "wl-pair.h"
#include "unit-main.h"
#include "xdg-shell-client-protocol.h"

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

struct window {
	struct fixture *f;
	struct wl_surface *surface;
	struct xdg_surface *xsurface;
	struct xdg_toplevel *toplevel;
	struct wl_buffer *buffer;
	uint32_t configure_serial;
	int32_t cw, ch;                 /* the last toplevel configure's size */
	bool resizing;                  /* the last configure said resizing */
	int configures;
};

struct fixture {
	struct dispman_device *dev;
	struct dispman_wayland *wl;
	struct wl_display *client;
	struct wl_client *server_client;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct xdg_wm_base *wm;
	struct wl_data_device_manager *ddm;
	struct window a, b;
	struct wl_surface *focus;       /* wl_pointer enter/leave */
	double fx, fy;                  /* the last enter or motion */
	double px, py;                  /* where the test put the pointer */
	int enters, leaves, motions;
	uint32_t button_serial;         /* of the last wl_pointer.button */
};

static void pump(struct fixture *f)
{
	wl_pair_pump(f->wl, f->client);
}

static void p_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
	wl_fixed_t x, wl_fixed_t y)
{
	struct fixture *f = data;
	f->focus = s;
	f->enters++;
	f->fx = wl_fixed_to_double(x);
	f->fy = wl_fixed_to_double(y);
}

static void p_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
	struct fixture *f = data;
	f->leaves++;
	if (f->focus == s)
		f->focus = NULL;
}

static void p_motion(void *data, struct wl_pointer *p, uint32_t ms, wl_fixed_t x, wl_fixed_t y)
{
	struct fixture *f = data;
	f->motions++;
	f->fx = wl_fixed_to_double(x);
	f->fy = wl_fixed_to_double(y);
}

static void p_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t ms,
	uint32_t button, uint32_t state)
{
	((struct fixture *)data)->button_serial = serial;
}

static void p_axis(void *data, struct wl_pointer *p, uint32_t ms, uint32_t axis, wl_fixed_t v)
{
}

static const struct wl_pointer_listener pointer_listener = {
	.enter = p_enter, .leave = p_leave, .motion = p_motion, .button = p_button,
	.axis = p_axis,
};

static void xsurface_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	((struct window *)data)->configure_serial = serial;
}

static const struct xdg_surface_listener xsurface_listener = { xsurface_configure };

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
	struct window *win = data;
	win->cw = w;
	win->ch = h;
	win->configures++;
	win->resizing = false;
	uint32_t *st;
	wl_array_for_each(st, states)
		if (*st == XDG_TOPLEVEL_STATE_RESIZING)
			win->resizing = true;
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
}

static const struct xdg_toplevel_listener toplevel_listener = {
	toplevel_configure, toplevel_close,
};

static struct wl_buffer *make_buffer(struct fixture *f, int32_t w, int32_t h)
{
	return wl_pair_shm_buffer(f->shm, w, h);
}

static void inject(struct fixture *f, struct dispman_input_event ev)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ev.device_caps = DISPMAN_INPUT_CAP_POINTER;
	ev.device_name = "test";
	ev.device_sysname = "test";
	ev.time_usec = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	CHECK(dispman_wayland_inject_input(f->wl, &ev) == 0);
	pump(f);
}

static void move_pointer(struct fixture *f, double x, double y)
{
	f->px = x;
	f->py = y;
	inject(f, (struct dispman_input_event){ .type = DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE,
		.x = x, .y = y });
}

static void button(struct fixture *f, bool pressed)
{
	inject(f, (struct dispman_input_event){ .type = DISPMAN_INPUT_POINTER_BUTTON,
		.button = BTN_LEFT, .x = f->px, .y = f->py,
		.state = pressed ? DISPMAN_INPUT_PRESSED : DISPMAN_INPUT_RELEASED });
}

static void window_start(struct fixture *f, struct window *w, int32_t x, int32_t y)
{
	w->f = f;
	w->surface = wl_compositor_create_surface(f->compositor);
	w->xsurface = xdg_wm_base_get_xdg_surface(f->wm, w->surface);
	xdg_surface_add_listener(w->xsurface, &xsurface_listener, w);
	w->toplevel = xdg_surface_get_toplevel(w->xsurface);
	xdg_toplevel_add_listener(w->toplevel, &toplevel_listener, w);
	wl_surface_commit(w->surface);
	pump(f);
	CHECK(w->configure_serial != 0);
	xdg_surface_ack_configure(w->xsurface, w->configure_serial);
	w->buffer = make_buffer(f, 100, 100);
	wl_surface_attach(w->surface, w->buffer, 0, 0);
	wl_surface_commit(w->surface);
	pump(f);
	struct wl_resource *res = wl_client_get_object(f->server_client,
		wl_proxy_get_id((struct wl_proxy *)w->surface));
	CHECK(res != NULL);
	CHECK(dispman_wayland_place_surface(f->wl, res, x, y) == 0);
	pump(f);
}

static void window_stop(struct window *w)
{
	if (!w->surface)
		return;
	xdg_toplevel_destroy(w->toplevel);
	xdg_surface_destroy(w->xsurface);
	wl_surface_destroy(w->surface);
	wl_buffer_destroy(w->buffer);
}

static void start(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	wl_pair_start(&f->dev, &f->wl, &f->client);
	struct wl_list *clients = wl_display_get_client_list(dispman_wayland_get_display(f->wl));
	f->server_client = wl_client_from_link(clients->next);
	CHECK(dispman_wayland_set_window_policy(f->wl, DISPMAN_WAYLAND_POLICY_FREE) == 0);
	CHECK(dispman_wayland_set_seat_capabilities(f->wl, DISPMAN_INPUT_CAP_POINTER) == 0);
	f->registry = wl_pair_bind(f->wl, f->client, (const struct wl_pair_want[]){
		{ &wl_compositor_interface, 5, &f->compositor },
		{ &wl_data_device_manager_interface, 3, &f->ddm },
		{ &wl_shm_interface, 1, &f->shm },
		{ &wl_seat_interface, 1, &f->seat },
		{ &xdg_wm_base_interface, 1, &f->wm },
		{ 0 } });
	CHECK(f->compositor && f->shm && f->seat && f->wm);
	f->pointer = wl_seat_get_pointer(f->seat);
	wl_pointer_add_listener(f->pointer, &pointer_listener, f);
	window_start(f, &f->a, 0, 0);
	window_start(f, &f->b, 200, 0);
}

static void stop(struct fixture *f)
{
	window_stop(&f->a);
	window_stop(&f->b);
	wl_pointer_destroy(f->pointer);
	wl_seat_destroy(f->seat);
	if (f->ddm)
		wl_data_device_manager_destroy(f->ddm);
	xdg_wm_base_destroy(f->wm);
	wl_shm_destroy(f->shm);
	wl_compositor_destroy(f->compositor);
	wl_registry_destroy(f->registry);
	pump(f);
	wl_pair_stop(&f->dev, &f->wl, &f->client);
	mock_drm_reset();
}

static void test_implicit_grab(void **state)
{
	struct fixture f;
	start(&f);
	move_pointer(&f, 50, 50);
	CHECK(f.focus == f.a.surface);
	button(&f, true);
	/* out of A, over nothing, then over B: still A's, in A's coordinates */
	move_pointer(&f, 150, 60);
	CHECK(f.focus == f.a.surface);
	CHECK(f.fx == 150 && f.fy == 60);
	int enters = f.enters, leaves = f.leaves;
	move_pointer(&f, 250, 70);
	CHECK(f.focus == f.a.surface);
	CHECK(f.fx == 250 && f.fy == 70);
	CHECK(f.enters == enters && f.leaves == leaves);
	/* the release goes to A, then A hears leave and B enter at B's (50, 70) */
	button(&f, false);
	CHECK(f.leaves == leaves + 1 && f.enters == enters + 1);
	CHECK(f.focus == f.b.surface);
	CHECK(f.fx == 50 && f.fy == 70);
	/* without a button the focus follows the pointer again */
	move_pointer(&f, 10, 10);
	CHECK(f.focus == f.a.surface);
	stop(&f);
}

static void test_press_on_nothing(void **state)
{
	struct fixture f;
	start(&f);
	move_pointer(&f, 150, 50);
	CHECK(f.focus == NULL);
	button(&f, true);
	int motions = f.motions;
	move_pointer(&f, 50, 50);
	CHECK(f.focus == NULL && f.enters == 0 && f.motions == motions);
	button(&f, false);
	CHECK(f.focus == f.a.surface && f.enters == 1);
	CHECK(f.fx == 50 && f.fy == 50);
	stop(&f);
}

static void test_move(void **state)
{
	struct fixture f;
	start(&f);
	move_pointer(&f, 5, 5);
	button(&f, true);
	CHECK(f.focus == f.a.surface && f.button_serial != 0);
	/* a serial that is not the press's: nothing */
	xdg_toplevel_move(f.a.toplevel, f.seat, f.button_serial + 1);
	pump(&f);
	CHECK(f.focus == f.a.surface);
	xdg_toplevel_move(f.a.toplevel, f.seat, f.button_serial);
	pump(&f);
	CHECK(f.focus == NULL); /* the grab's leave */
	move_pointer(&f, 35, 25);
	move_pointer(&f, 65, 45);
	CHECK(f.focus == NULL);
	button(&f, false);
	/* A is at (60, 40) now: the pointer at (5, 5) on it */
	CHECK(f.focus == f.a.surface);
	CHECK(f.fx == 5 && f.fy == 5);
	move_pointer(&f, 155, 135);
	CHECK(f.focus == f.a.surface && f.fx == 95 && f.fy == 95);
	move_pointer(&f, 30, 30);
	CHECK(f.focus == NULL);
	stop(&f);
}

static void test_resize(void **state)
{
	struct fixture f;
	start(&f);
	move_pointer(&f, 2, 3);
	button(&f, true);
	int configures = f.a.configures;
	xdg_toplevel_resize(f.a.toplevel, f.seat, f.button_serial,
		XDG_TOPLEVEL_RESIZE_EDGE_TOP_LEFT);
	pump(&f);
	CHECK(f.focus == NULL);
	CHECK(f.a.configures == configures + 1 && f.a.resizing);
	CHECK(f.a.cw == 100 && f.a.ch == 100);
	/* the top left corner 30 right and 20 down: 70x80, the right and bottom edges stay */
	move_pointer(&f, 32, 23);
	CHECK(f.a.resizing && f.a.cw == 70 && f.a.ch == 80);
	button(&f, false);
	CHECK(!f.a.resizing && f.a.cw == 70 && f.a.ch == 80);
	/* the client has not drawn the new size: its 100x100 buffer is at (30, 20) */
	CHECK(f.focus == f.a.surface && f.fx == 2 && f.fy == 3);
	move_pointer(&f, 29, 40);
	CHECK(f.focus == NULL);
	/* the client takes the size: the bottom right corner is where it was */
	xdg_surface_ack_configure(f.a.xsurface, f.a.configure_serial);
	struct wl_buffer *b = make_buffer(&f, 70, 80);
	wl_surface_attach(f.a.surface, b, 0, 0);
	wl_surface_commit(f.a.surface);
	pump(&f);
	move_pointer(&f, 99, 99);
	CHECK(f.focus == f.a.surface && f.fx == 69 && f.fy == 79);
	move_pointer(&f, 101, 50);
	CHECK(f.focus == NULL);
	/* a resize edge outside the enum: a protocol error */
	move_pointer(&f, 50, 50);
	button(&f, true);
	xdg_toplevel_resize(f.a.toplevel, f.seat, f.button_serial, 3);
	pump(&f);
	CHECK(wl_display_get_error(f.client) == EPROTO);
	wl_buffer_destroy(b);
	stop(&f);
}

/* The toplevel and its xdg_surface go during a move: the grab moves nothing more and ends
 * at the release (ASan: nothing of theirs is touched after). */
static void test_move_window_gone(void **state)
{
	struct fixture f;
	start(&f);
	move_pointer(&f, 5, 5);
	button(&f, true);
	xdg_toplevel_move(f.a.toplevel, f.seat, f.button_serial);
	pump(&f);
	CHECK(f.focus == NULL);
	xdg_toplevel_destroy(f.a.toplevel);
	xdg_surface_destroy(f.a.xsurface);
	pump(&f);
	move_pointer(&f, 230, 30);
	CHECK(f.focus == NULL);
	button(&f, false);
	/* the grab ended: the pointer is B's */
	CHECK(f.focus == f.b.surface && f.fx == 30 && f.fy == 30);
	CHECK(wl_display_get_error(f.client) == 0);
	wl_surface_destroy(f.a.surface);
	wl_buffer_destroy(f.a.buffer);
	f.a = (struct window){ 0 };
	stop(&f);
}

/* The plane showing a w x h framebuffer: its CRTC_X and CRTC_Y; false if none does. */
static bool plane_at(uint32_t w, uint32_t h, int64_t *x, int64_t *y)
{
	for (uint32_t i = 1; i <= 64; i++) {
		uint32_t id = (uint32_t)MOCK_DRM_PLANE << 24 | i; /* the mock's plane ids */
		uint64_t fb, cw, ch, cx, cy;
		if (!mock_drm_get_prop(id, "FB_ID", &fb) || !fb ||
		    !mock_drm_get_prop(id, "CRTC_W", &cw) || cw != w ||
		    !mock_drm_get_prop(id, "CRTC_H", &ch) || ch != h ||
		    !mock_drm_get_prop(id, "CRTC_X", &cx) || !mock_drm_get_prop(id, "CRTC_Y", &cy))
			continue;
		*x = (int32_t)cx;
		*y = (int32_t)cy;
		return true;
	}
	return false;
}

/* A drag icon's wl_surface.offset (wl_surface 5) moves it from the pointer; an attach
 * with an offset is a protocol error from version 5. */
static void test_drag_icon_offset(void **state)
{
	struct fixture f;
	start(&f);
	CHECK(f.ddm && wl_proxy_get_version((struct wl_proxy *)f.compositor) == 5);
	struct wl_data_device *dd = wl_data_device_manager_get_data_device(f.ddm, f.seat);
	move_pointer(&f, 50, 50);
	button(&f, true);
	struct wl_surface *icon = wl_compositor_create_surface(f.compositor);
	struct wl_buffer *ib = make_buffer(&f, 12, 10);
	wl_data_device_start_drag(dd, NULL, f.a.surface, icon, f.button_serial);
	wl_surface_attach(icon, ib, 0, 0);
	wl_surface_commit(icon);
	pump(&f);
	int64_t x = -1, y = -1;
	CHECK(plane_at(12, 10, &x, &y));
	CHECK(x == 50 && y == 50);
	/* offset alone (no new buffer) moves it by (-3, -4) */
	wl_surface_offset(icon, -3, -4);
	wl_surface_commit(icon);
	pump(&f);
	CHECK(plane_at(12, 10, &x, &y) && x == 47 && y == 46);
	/* a commit without an offset leaves it there, also with the pointer moved */
	wl_surface_damage_buffer(icon, 0, 0, 12, 10);
	wl_surface_commit(icon);
	move_pointer(&f, 60, 70);
	CHECK(plane_at(12, 10, &x, &y) && x == 57 && y == 66);
	button(&f, false);
	CHECK(!plane_at(12, 10, &x, &y));
	/* attach's offset is an error at version 5 */
	wl_surface_attach(icon, ib, 1, 0);
	pump(&f);
	CHECK(wl_display_get_error(f.client) == EPROTO);
	wl_surface_destroy(icon);
	wl_buffer_destroy(ib);
	wl_data_device_destroy(dd);
	stop(&f);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "seat@implicit-grab", test_implicit_grab, NULL, NULL, NULL },
		{ "seat@press-on-nothing", test_press_on_nothing, NULL, NULL, NULL },
		{ "seat@move", test_move, NULL, NULL, NULL },
		{ "seat@resize", test_resize, NULL, NULL, NULL },
		{ "seat@move-window-gone", test_move_window_gone, NULL, NULL, NULL },
		{ "seat@drag-icon-offset", test_drag_icon_offset, NULL, NULL, NULL },
	};
	return unit_main("seat", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
