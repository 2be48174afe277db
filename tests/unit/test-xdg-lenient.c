/* SPDX-License-Identifier: MIT */
/*
 * dispman_wayland_set_lenient_configure() against a client in the same process (a socket
 * pair), on a compositor over the mock device. The client makes an xdg toplevel and
 * commits a buffer without acking the first configure (before its initial commit, or after
 * it with the configure unacked): by default that is xdg_surface.unconfigured_buffer;
 * lenient, the toplevel maps (a layer, a configure received, no error) and a late ack of
 * the configure is still taken.
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
	struct wl_surface *surface;
	struct xdg_surface *xsurface;
	struct xdg_toplevel *toplevel;
	struct wl_buffer *buffer;
	uint32_t configure_serial;
	unsigned configures;
};

static void pump(struct fixture *f)
{
	wl_pair_pump(f->wl, f->client);
}

static void xsurface_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct fixture *f = data;
	f->configure_serial = serial;
	f->configures++;
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

static void start(struct fixture *f, bool lenient)
{
	memset(f, 0, sizeof(*f));
	wl_pair_start(&f->dev, &f->wl, &f->client);
	CHECK(dispman_wayland_set_window_policy(f->wl, DISPMAN_WAYLAND_POLICY_FREE) == 0);
	if (lenient)
		CHECK(dispman_wayland_set_lenient_configure(f->wl, true) == 0);
	f->registry = wl_pair_bind(f->wl, f->client, (const struct wl_pair_want[]){
		{ &wl_compositor_interface, 4, &f->compositor },
		{ &wl_shm_interface, 1, &f->shm },
		{ &xdg_wm_base_interface, 1, &f->wm },
		{ 0 } });
	CHECK(f->compositor && f->shm && f->wm);

	/* a 64x64 XRGB8888 buffer */
	int mfd = memfd_create("lenient", MFD_CLOEXEC);
	CHECK(mfd >= 0);
	CHECK(ftruncate(mfd, 64 * 64 * 4) == 0);
	struct wl_shm_pool *pool = wl_shm_create_pool(f->shm, mfd, 64 * 64 * 4);
	f->buffer = wl_shm_pool_create_buffer(pool, 0, 64, 64, 64 * 4, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(mfd);

	f->surface = wl_compositor_create_surface(f->compositor);
	f->xsurface = xdg_wm_base_get_xdg_surface(f->wm, f->surface);
	xdg_surface_add_listener(f->xsurface, &xsurface_listener, f);
	f->toplevel = xdg_surface_get_toplevel(f->xsurface);
	xdg_toplevel_add_listener(f->toplevel, &toplevel_listener, f);
}

static void stop(struct fixture *f)
{
	/* after a protocol error the requests go nowhere, and the proxies are freed */
	xdg_toplevel_destroy(f->toplevel);
	xdg_surface_destroy(f->xsurface);
	wl_surface_destroy(f->surface);
	wl_buffer_destroy(f->buffer);
	xdg_wm_base_destroy(f->wm);
	wl_shm_destroy(f->shm);
	wl_compositor_destroy(f->compositor);
	wl_registry_destroy(f->registry);
	pump(f);
	wl_pair_stop(&f->dev, &f->wl, &f->client);
	mock_drm_reset();
}

/* The client's connection died of xdg_surface.unconfigured_buffer. */
static void check_unconfigured_buffer_error(struct fixture *f)
{
	CHECK(wl_display_get_error(f->client) == EPROTO);
	const struct wl_interface *iface = NULL;
	uint32_t id = 0;
	uint32_t code = wl_display_get_protocol_error(f->client, &iface, &id);
	CHECK(iface == &xdg_surface_interface);
	CHECK(code == XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER);
	CHECK(wl_pair_stats(f->wl).protocol_errors == 1);
}

/* The toplevel was configured and is on the screen, no error. */
static void check_mapped(struct fixture *f)
{
	CHECK(wl_display_get_error(f->client) == 0);
	CHECK(f->configures >= 1);
	struct dispman_wayland_stats st = wl_pair_stats(f->wl);
	CHECK(st.protocol_errors == 0);
	CHECK(st.layers == 1);
	CHECK(st.repaints >= 1);
}

/* The initial commit carries the buffer (no configure was sent yet). */
static void commit_with_buffer_first(struct fixture *f)
{
	wl_surface_attach(f->surface, f->buffer, 0, 0);
	wl_surface_damage_buffer(f->surface, 0, 0, 64, 64);
	wl_surface_commit(f->surface);
	pump(f);
}

/* The initial commit, then a buffer without acking the configure it brought. */
static void commit_before_ack(struct fixture *f)
{
	wl_surface_commit(f->surface);
	pump(f);
	CHECK(f->configures == 1);
	wl_surface_attach(f->surface, f->buffer, 0, 0);
	wl_surface_damage_buffer(f->surface, 0, 0, 64, 64);
	wl_surface_commit(f->surface);
	pump(f);
}

static void test_strict_initial(void **state)
{
	struct fixture f;
	start(&f, false);
	commit_with_buffer_first(&f);
	check_unconfigured_buffer_error(&f);
	CHECK(wl_pair_stats(f.wl).layers == 0);
	stop(&f);
}

static void test_strict_unacked(void **state)
{
	struct fixture f;
	start(&f, false);
	commit_before_ack(&f);
	check_unconfigured_buffer_error(&f);
	CHECK(wl_pair_stats(f.wl).layers == 0);
	stop(&f);
}

static void test_lenient_initial(void **state)
{
	struct fixture f;
	start(&f, true);
	commit_with_buffer_first(&f);
	check_mapped(&f);
	/* the configure sent with it may still be acked */
	xdg_surface_ack_configure(f.xsurface, f.configure_serial);
	wl_surface_commit(f.surface);
	pump(&f);
	check_mapped(&f);
	stop(&f);
}

static void test_lenient_unacked(void **state)
{
	struct fixture f;
	start(&f, true);
	commit_before_ack(&f);
	check_mapped(&f);
	xdg_surface_ack_configure(f.xsurface, f.configure_serial);
	wl_surface_commit(f.surface);
	pump(&f);
	check_mapped(&f);
	/* and turned off again, the next surface's early buffer is an error */
	CHECK(dispman_wayland_set_lenient_configure(f.wl, false) == 0);
	struct wl_surface *s2 = wl_compositor_create_surface(f.compositor);
	struct xdg_surface *x2 = xdg_wm_base_get_xdg_surface(f.wm, s2);
	struct xdg_toplevel *t2 = xdg_surface_get_toplevel(x2);
	wl_surface_attach(s2, f.buffer, 0, 0);
	wl_surface_commit(s2);
	pump(&f);
	check_unconfigured_buffer_error(&f);
	xdg_toplevel_destroy(t2);
	xdg_surface_destroy(x2);
	wl_surface_destroy(s2);
	stop(&f);
}

static void test_null(void **state)
{
	CHECK(dispman_wayland_set_lenient_configure(NULL, true) == -EINVAL);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "xdg-lenient@strict-initial-commit", test_strict_initial, NULL, NULL, NULL },
		{ "xdg-lenient@strict-unacked", test_strict_unacked, NULL, NULL, NULL },
		{ "xdg-lenient@lenient-initial-commit", test_lenient_initial, NULL, NULL, NULL },
		{ "xdg-lenient@lenient-unacked", test_lenient_unacked, NULL, NULL, NULL },
		{ "xdg-lenient@null", test_null, NULL, NULL, NULL },
	};
	return unit_main("xdg-lenient", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
