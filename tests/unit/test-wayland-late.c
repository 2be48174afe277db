/* SPDX-License-Identifier: MIT */
/*
 * Late repaints (dispman_wayland_set_repaint_window(), src/wayland/repaint.c) against a
 * client in the same process, on a compositor over the mock device whose flips are stamped
 * with the commit's own clock (mock_drm_set_flips_now()): two surface commits made early
 * in a refresh, each read and handled by the compositor before the next, go out in ONE
 * atomic commit when the repaint waits for the next vblank less the window (fixed or
 * learned), and in two when it runs at once (off, the default).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>
#include <wayland-server-core.h>

#include <dispman/dispman.h>
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
	uint32_t serial;
};

static void pump(struct fixture *f)
{
	wl_pair_pump(f->wl, f->client);
}

static void wm_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void xsurface_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	((struct fixture *)data)->serial = serial;
}

static const struct xdg_surface_listener xsurface_listener = { xsurface_configure };

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static unsigned applied(void)
{
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	return c.applied_commits;
}

/* Pumps for about ms milliseconds (the compositor's timers run). */
static void pump_for(struct fixture *f, int ms)
{
	int64_t end = now_ns() + (int64_t)ms * 1000000;
	while (now_ns() < end) {
		pump(f);
		usleep(500);
	}
}

/* Waits until the output's next vblank is at least 14 ms away (a flip just happened). */
static void wait_early_in_refresh(struct fixture *f, struct dispman_output *out)
{
	for (int i = 0; i < 400; i++) {
		struct timespec next;
		CHECK(dispman_output_get_next_vblank(out, &next) == 0);
		int64_t left = (int64_t)next.tv_sec * 1000000000 + next.tv_nsec - now_ns();
		if (left >= 14000000)
			return;
		usleep(200);
	}
	fail_msg("no moment early in a refresh");
}

struct late_case {
	const char *name;
	int32_t window_us;      /* dispman_wayland_set_repaint_window() */
	unsigned commits;       /* atomic commits for the two surface commits */
};

static const struct late_case cases[] = {
	{ "late@off-two-commits", -1, 2 },
	{ "late@fixed-one-commit", 2000, 1 },
	{ "late@auto-one-commit", 0, 1 },
};

static void test_late(void **state)
{
	const struct late_case *tc = *state;
	struct fixture f;
	memset(&f, 0, sizeof(f));
	wl_pair_start(&f.dev, &f.wl, &f.client);
	mock_drm_set_flips_now(true);
	struct dispman_output *out = dispman_device_get_first_connected_output(f.dev);
	f.registry = wl_pair_bind(f.wl, f.client, (const struct wl_pair_want[]){
		{ &wl_compositor_interface, 4, &f.compositor },
		{ &wl_shm_interface, 1, &f.shm },
		{ &xdg_wm_base_interface, 3, &f.wm, 0, &wm_listener, &f },
		{ 0 } });
	CHECK(f.compositor && f.shm && f.wm);

	/* a mapped toplevel with a 64x64 shm buffer */
	struct wl_surface *s = wl_compositor_create_surface(f.compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(f.wm, s);
	xdg_surface_add_listener(xs, &xsurface_listener, &f);
	struct xdg_toplevel *top = xdg_surface_get_toplevel(xs);
	wl_surface_commit(s);
	pump(&f);
	CHECK(f.serial != 0);
	xdg_surface_ack_configure(xs, f.serial);
	int fd = memfd_create("test-wayland-late", MFD_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, 64 * 64 * 4) == 0);
	struct wl_shm_pool *pool = wl_shm_create_pool(f.shm, fd, 64 * 64 * 4);
	struct wl_buffer *buf = wl_shm_pool_create_buffer(pool, 0, 64, 64, 64 * 4,
		WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	/* a few frames: flips stamped with our clock, the library's vblank counter and cost */
	for (int i = 0; i < 3; i++) {
		wl_surface_attach(s, buf, 0, 0);
		wl_surface_damage_buffer(s, 0, 0, 64, 64);
		wl_surface_commit(s);
		pump_for(&f, 20);
	}
	struct dispman_output_stats st = { .size = sizeof(st) };
	CHECK(dispman_output_get_stats(out, &st) == 0);
	CHECK(st.clock == DISPMAN_PACING_SEQUENCE);
	CHECK(dispman_wayland_set_repaint_window(f.wl, tc->window_us) == 0);

	/* one more frame right now (the flip is stamped now): the next vblank a period on */
	wl_surface_attach(s, buf, 0, 0);
	wl_surface_damage_buffer(s, 0, 0, 64, 64);
	wl_surface_commit(s);
	pump_for(&f, 25);
	wait_early_in_refresh(&f, out);
	unsigned before = applied();
	struct dispman_wayland_stats ws0 = wl_pair_stats(f.wl);
	/* two commits, each handled by the compositor before the next */
	for (int i = 0; i < 2; i++) {
		wl_surface_attach(s, buf, 0, 0);
		wl_surface_damage_buffer(s, 0, 0, 64, 64);
		wl_surface_commit(s);
		pump(&f);
	}
	uint64_t cost = 0;
	dispman_output_get_commit_cost(out, &cost);
	if (tc->window_us >= 0 && applied() != before) /* on the timer: nothing committed yet */
		fail_msg("committed at once (the library's commit cost: %.2f ms)", (double)cost / 1e6);
	pump_for(&f, 30);
	struct dispman_wayland_stats ws1 = wl_pair_stats(f.wl);
	if (applied() - before != tc->commits)
		fail_msg("%u atomic commits for two surface commits, want %u",
			applied() - before, tc->commits);
	CHECK(ws1.late_repaints - ws0.late_repaints == (tc->window_us >= 0 ? 1u : 0u));
	CHECK(dispman_wayland_set_repaint_window(f.wl, 1000001) == -ERANGE);
	CHECK(dispman_wayland_set_repaint_window(NULL, 0) == -EINVAL);

	xdg_toplevel_destroy(top);
	xdg_surface_destroy(xs);
	wl_surface_destroy(s);
	wl_buffer_destroy(buf);
	xdg_wm_base_destroy(f.wm);
	wl_shm_destroy(f.shm);
	wl_compositor_destroy(f.compositor);
	wl_registry_destroy(f.registry);
	pump(&f);
	wl_pair_stop(&f.dev, &f.wl, &f.client);
	CHECK(mock_drm_live_objects() == 0);
	mock_drm_reset();
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[UNIT_ARRAY_LEN(cases)];
	for (size_t i = 0; i < UNIT_ARRAY_LEN(cases); i++)
		tests[i] = (struct CMUnitTest){ cases[i].name, test_late, NULL, NULL,
			(void *)&cases[i] };
	return unit_main("late", tests, UNIT_ARRAY_LEN(cases), argc, argv);
}
