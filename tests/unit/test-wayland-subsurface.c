/* SPDX-License-Identifier: MIT */
/*
 * Subsurface state and input regions (src/wayland/surface.c, tree.c) seen through the
 * pointer of a client in the same process (a socket pair), on a compositor over the mock
 * device: a 100x100 toplevel at (0, 0) with a 20x20 desynchronized subsurface.
 * - position: wl_subsurface.set_position takes effect with the parent's commit, not the
 *   subsurface's own;
 * - input-region: an empty input region lets the pointer through to the parent; added and
 *   subtracted rectangles decide in order (the last one holding the point).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>
#include <wayland-server-core.h>

#include <dispman/input.h>
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
	struct wl_subcompositor *subcompositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct xdg_wm_base *wm;
	struct wl_surface *parent, *child;
	struct xdg_surface *xsurface;
	struct xdg_toplevel *toplevel;
	struct wl_subsurface *sub;
	struct wl_buffer *big, *small;
	uint32_t configure_serial;
	struct wl_surface *focus;       /* wl_pointer enter/leave */
	double fx, fy;                  /* the last enter or motion */
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
	f->fx = wl_fixed_to_double(x);
	f->fy = wl_fixed_to_double(y);
}

static void p_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
	struct fixture *f = data;
	if (f->focus == s)
		f->focus = NULL;
}

static void p_motion(void *data, struct wl_pointer *p, uint32_t ms, wl_fixed_t x, wl_fixed_t y)
{
	struct fixture *f = data;
	f->fx = wl_fixed_to_double(x);
	f->fy = wl_fixed_to_double(y);
}

static void p_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t ms,
	uint32_t button, uint32_t state)
{
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
	((struct fixture *)data)->configure_serial = serial;
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

static struct wl_buffer *make_buffer(struct fixture *f, int32_t size)
{
	return wl_pair_shm_buffer(f->shm, size, size);
}

static void move_pointer(struct fixture *f, double x, double y)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	struct dispman_input_event ev = {
		.type = DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE,
		.device_caps = DISPMAN_INPUT_CAP_POINTER,
		.device_name = "test", .device_sysname = "test",
		.x = x, .y = y,
		.time_usec = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u,
	};
	CHECK(dispman_wayland_inject_input(f->wl, &ev) == 0);
	pump(f);
}

static void start(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	wl_pair_start(&f->dev, &f->wl, &f->client);
	CHECK(dispman_wayland_set_window_policy(f->wl, DISPMAN_WAYLAND_POLICY_FREE) == 0);
	CHECK(dispman_wayland_set_seat_capabilities(f->wl, DISPMAN_INPUT_CAP_POINTER) == 0);
	f->registry = wl_pair_bind(f->wl, f->client, (const struct wl_pair_want[]){
		{ &wl_compositor_interface, 4, &f->compositor },
		{ &wl_subcompositor_interface, 1, &f->subcompositor },
		{ &wl_shm_interface, 1, &f->shm },
		{ &wl_seat_interface, 1, &f->seat },
		{ &xdg_wm_base_interface, 1, &f->wm },
		{ 0 } });
	CHECK(f->compositor && f->subcompositor && f->shm && f->seat && f->wm);
	f->pointer = wl_seat_get_pointer(f->seat);
	wl_pointer_add_listener(f->pointer, &pointer_listener, f);
	f->big = make_buffer(f, 100);
	f->small = make_buffer(f, 20);

	/* the toplevel, configured and acked, then its buffer */
	f->parent = wl_compositor_create_surface(f->compositor);
	f->xsurface = xdg_wm_base_get_xdg_surface(f->wm, f->parent);
	xdg_surface_add_listener(f->xsurface, &xsurface_listener, f);
	f->toplevel = xdg_surface_get_toplevel(f->xsurface);
	xdg_toplevel_add_listener(f->toplevel, &toplevel_listener, f);
	wl_surface_commit(f->parent);
	pump(f);
	CHECK(f->configure_serial != 0);
	xdg_surface_ack_configure(f->xsurface, f->configure_serial);
	wl_surface_attach(f->parent, f->big, 0, 0);
	wl_surface_commit(f->parent);
	/* the subsurface at (0, 0), desynchronized */
	f->child = wl_compositor_create_surface(f->compositor);
	f->sub = wl_subcompositor_get_subsurface(f->subcompositor, f->child, f->parent);
	wl_subsurface_set_desync(f->sub);
	wl_surface_attach(f->child, f->small, 0, 0);
	wl_surface_commit(f->child);
	wl_surface_commit(f->parent);
	pump(f);
}

static void stop(struct fixture *f)
{
	wl_subsurface_destroy(f->sub);
	wl_surface_destroy(f->child);
	xdg_toplevel_destroy(f->toplevel);
	xdg_surface_destroy(f->xsurface);
	wl_surface_destroy(f->parent);
	wl_buffer_destroy(f->big);
	wl_buffer_destroy(f->small);
	wl_pointer_destroy(f->pointer);
	wl_seat_destroy(f->seat);
	xdg_wm_base_destroy(f->wm);
	wl_shm_destroy(f->shm);
	wl_subcompositor_destroy(f->subcompositor);
	wl_compositor_destroy(f->compositor);
	wl_registry_destroy(f->registry);
	pump(f);
	wl_pair_stop(&f->dev, &f->wl, &f->client);
	mock_drm_reset();
}

static void test_position(void **state)
{
	struct fixture f;
	start(&f);
	move_pointer(&f, 5, 5);
	CHECK(f.focus == f.child);
	/* the subsurface's own commit does not move it (it is the parent's state) */
	wl_subsurface_set_position(f.sub, 50, 50);
	wl_surface_commit(f.child);
	pump(&f);
	move_pointer(&f, 55, 55);
	CHECK(f.focus == f.parent);
	CHECK(f.fx == 55 && f.fy == 55);
	move_pointer(&f, 6, 6);
	CHECK(f.focus == f.child);
	/* the parent's commit does */
	wl_surface_commit(f.parent);
	pump(&f);
	move_pointer(&f, 56, 56);
	CHECK(f.focus == f.child);
	CHECK(f.fx == 6 && f.fy == 6);
	move_pointer(&f, 5, 5);
	CHECK(f.focus == f.parent);
	stop(&f);
}

static void set_region(struct fixture *f, const int32_t (*rects)[5], size_t n)
{
	struct wl_region *r = wl_compositor_create_region(f->compositor);
	for (size_t i = 0; i < n; i++) {
		if (rects[i][4])
			wl_region_add(r, rects[i][0], rects[i][1], rects[i][2], rects[i][3]);
		else
			wl_region_subtract(r, rects[i][0], rects[i][1], rects[i][2], rects[i][3]);
	}
	wl_surface_set_input_region(f->child, r);
	wl_region_destroy(r); /* the surface keeps its copy */
	wl_surface_commit(f->child);
	pump(f);
}

static void test_input_region(void **state)
{
	struct fixture f;
	start(&f);
	/* empty: the pointer goes through to the parent */
	set_region(&f, NULL, 0);
	move_pointer(&f, 5, 5);
	CHECK(f.focus == f.parent);
	/* add 20x20, subtract 5x5 at (5, 5): the hole is the parent's */
	static const int32_t holed[][5] = { { 0, 0, 20, 20, 1 }, { 5, 5, 5, 5, 0 } };
	set_region(&f, holed, 2);
	move_pointer(&f, 3, 3);
	CHECK(f.focus == f.child);
	move_pointer(&f, 7, 7);
	CHECK(f.focus == f.parent);
	CHECK(f.fx == 7 && f.fy == 7);
	/* an add after the subtract fills the hole again */
	static const int32_t refilled[][5] = {
		{ 0, 0, 20, 20, 1 }, { 5, 5, 5, 5, 0 }, { 6, 6, 2, 2, 1 },
	};
	set_region(&f, refilled, 3);
	move_pointer(&f, 7, 6);
	CHECK(f.focus == f.child);
	/* NULL: the whole surface again */
	wl_surface_set_input_region(f.child, NULL);
	wl_surface_commit(f.child);
	pump(&f);
	move_pointer(&f, 9, 9);
	CHECK(f.focus == f.child);
	stop(&f);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "subsurface@position", test_position, NULL, NULL, NULL },
		{ "subsurface@input-region", test_input_region, NULL, NULL, NULL },
	};
	return unit_main("subsurface", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
