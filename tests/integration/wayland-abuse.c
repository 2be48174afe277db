/* SPDX-License-Identifier: MIT */
/*
 * A protocol-abusing Wayland client for dispman-kiosk's guest tests: each case sends one
 * malformed request on its own connection and exits 0 only when the compositor answered
 * with the expected protocol error (interface and code), i.e. only this client was cut off.
 *
 *   wayland-abuse CASE      (WAYLAND_DISPLAY names the compositor)
 *
 * Cases: shm-pool-beyond-file, shm-buffer-beyond-pool, dmabuf-bad-modifier,
 * dmabuf-missing-plane, dmabuf-plane-index, dmabuf-out-of-bounds, viewport-out-of-buffer,
 * unconfigured-buffer, crash-mid-frame (commits a buffer and a frame callback, then dies
 * with SIGKILL: the test then checks the compositor kept nothing of it).
 */
#include <drm_fourcc.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define FAIL(...) \
	do { \
		fprintf(stderr, "FAIL: " __VA_ARGS__); \
		fputc('\n', stderr); \
		exit(1); \
	} while (0)

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm;
static struct zwp_linux_dmabuf_v1 *dmabuf;
static struct wp_viewporter *viewporter;

static void global(void *data, struct wl_registry *reg, uint32_t name, const char *iface,
	uint32_t version)
{
	if (strcmp(iface, "wl_compositor") == 0)
		compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	else if (strcmp(iface, "wl_shm") == 0)
		shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	else if (strcmp(iface, "xdg_wm_base") == 0)
		wm = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
	else if (strcmp(iface, "zwp_linux_dmabuf_v1") == 0)
		dmabuf = wl_registry_bind(reg, name, &zwp_linux_dmabuf_v1_interface, 4);
	else if (strcmp(iface, "wp_viewporter") == 0)
		viewporter = wl_registry_bind(reg, name, &wp_viewporter_interface, 1);
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

static int memfd(size_t size)
{
	int fd = memfd_create("wayland-abuse", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		FAIL("memfd: %s", strerror(errno));
	return fd;
}

static struct wl_buffer *shm_buffer(int w, int h)
{
	size_t size = (size_t)w * (size_t)h * 4;
	int fd = memfd(size);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
	struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4,
		WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return b;
}

static uint32_t configure_serial;

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	configure_serial = serial;
}

static const struct xdg_surface_listener xs_listener = { xs_configure };

static void tl_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
}

static void tl_close(void *data, struct xdg_toplevel *t)
{
}

static const struct xdg_toplevel_listener tl_listener = { tl_configure, tl_close };

/* A toplevel that got and acked its first configure. */
static struct wl_surface *toplevel(struct wl_display *d, bool ack)
{
	struct wl_surface *s = wl_compositor_create_surface(compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(wm, s);
	xdg_surface_add_listener(xs, &xs_listener, NULL);
	struct xdg_toplevel *t = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(t, &tl_listener, NULL);
	wl_surface_commit(s);
	while (!configure_serial)
		if (wl_display_dispatch(d) < 0)
			FAIL("connection lost before the first configure");
	if (ack)
		xdg_surface_ack_configure(xs, configure_serial);
	return s;
}

static struct zwp_linux_buffer_params_v1 *params_with(int fd, uint32_t plane, uint32_t stride,
	uint64_t mod)
{
	struct zwp_linux_buffer_params_v1 *p = zwp_linux_dmabuf_v1_create_params(dmabuf);
	zwp_linux_buffer_params_v1_add(p, fd, plane, 0, stride, (uint32_t)(mod >> 32),
		(uint32_t)mod);
	return p;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		FAIL("usage: wayland-abuse CASE");
	const char *c = argv[1];
	struct wl_display *d = wl_display_connect(NULL);
	if (!d)
		FAIL("cannot connect to the compositor: %s", strerror(errno));
	struct wl_registry *reg = wl_display_get_registry(d);
	wl_registry_add_listener(reg, &registry_listener, NULL);
	wl_display_roundtrip(d);
	if (!compositor || !shm || !wm || !dmabuf || !viewporter)
		FAIL("a global is missing");

	const struct wl_interface *want_iface = NULL;
	uint32_t want_code = 0;
	if (strcmp(c, "shm-pool-beyond-file") == 0) {
		/* a pool of 1 MiB on a file of 4 KiB: reading it faults (SIGBUS) */
		int fd = memfd(4096);
		struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, 1 << 20);
		struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, 256, 256, 1024,
			WL_SHM_FORMAT_XRGB8888);
		struct wl_surface *s = toplevel(d, true);
		wl_surface_attach(s, b, 0, 0);
		wl_surface_damage(s, 0, 0, 256, 256);
		wl_surface_commit(s);
		want_iface = &wl_buffer_interface;
		want_code = WL_SHM_ERROR_INVALID_FD;
	} else if (strcmp(c, "shm-buffer-beyond-pool") == 0) {
		int fd = memfd(4096);
		struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, 4096);
		wl_shm_pool_create_buffer(pool, 0, 256, 256, 1024, WL_SHM_FORMAT_XRGB8888);
		want_iface = &wl_shm_pool_interface;
		want_code = WL_SHM_ERROR_INVALID_STRIDE;
	} else if (strcmp(c, "dmabuf-bad-modifier") == 0) {
		int fd = memfd(64 * 64 * 4);
		struct zwp_linux_buffer_params_v1 *p = params_with(fd, 0, 256,
			0x00ffffffffffff01ull);
		zwp_linux_buffer_params_v1_create_immed(p, 64, 64, DRM_FORMAT_XRGB8888, 0);
		want_iface = &zwp_linux_buffer_params_v1_interface;
		want_code = ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT;
	} else if (strcmp(c, "dmabuf-missing-plane") == 0) {
		int fd = memfd(64 * 64 * 4);
		struct zwp_linux_buffer_params_v1 *p = params_with(fd, 1, 256,
			DRM_FORMAT_MOD_LINEAR);
		zwp_linux_buffer_params_v1_create(p, 64, 64, DRM_FORMAT_XRGB8888, 0);
		want_iface = &zwp_linux_buffer_params_v1_interface;
		want_code = ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE;
	} else if (strcmp(c, "dmabuf-plane-index") == 0) {
		int fd = memfd(64 * 64 * 4);
		params_with(fd, 7, 256, DRM_FORMAT_MOD_LINEAR);
		want_iface = &zwp_linux_buffer_params_v1_interface;
		want_code = ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_IDX;
	} else if (strcmp(c, "dmabuf-out-of-bounds") == 0) {
		int fd = memfd(4096);
		struct zwp_linux_buffer_params_v1 *p = params_with(fd, 0, 256,
			DRM_FORMAT_MOD_LINEAR);
		zwp_linux_buffer_params_v1_create(p, 64, 64, DRM_FORMAT_XRGB8888, 0);
		want_iface = &zwp_linux_buffer_params_v1_interface;
		want_code = ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS;
	} else if (strcmp(c, "viewport-out-of-buffer") == 0) {
		/* the buffer (100x100) is smaller than the surface's source rectangle */
		struct wl_surface *s = toplevel(d, true);
		struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, s);
		wp_viewport_set_source(vp, 0, 0, wl_fixed_from_int(500), wl_fixed_from_int(500));
		wl_surface_attach(s, shm_buffer(100, 100), 0, 0);
		wl_surface_commit(s);
		want_iface = &wp_viewport_interface;
		want_code = WP_VIEWPORT_ERROR_OUT_OF_BUFFER;
	} else if (strcmp(c, "unconfigured-buffer") == 0) {
		struct wl_surface *s = toplevel(d, false);
		wl_surface_attach(s, shm_buffer(64, 64), 0, 0);
		wl_surface_commit(s);
		want_iface = &xdg_surface_interface;
		want_code = XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER;
	} else if (strcmp(c, "crash-mid-frame") == 0) {
		struct wl_surface *s = toplevel(d, true);
		struct wl_surface *sub_s = wl_compositor_create_surface(compositor);
		wl_surface_attach(s, shm_buffer(320, 200), 0, 0);
		wl_surface_damage(s, 0, 0, 320, 200);
		wl_surface_frame(s);
		wl_surface_commit(s);
		wl_display_roundtrip(d);
		/* a second frame in flight, then death */
		wl_surface_attach(s, shm_buffer(320, 200), 0, 0);
		wl_surface_damage(s, 0, 0, 320, 200);
		wl_surface_frame(s);
		wl_surface_commit(s);
		wl_surface_attach(sub_s, shm_buffer(8, 8), 0, 0);
		wl_display_flush(d);
		kill(getpid(), SIGKILL);
		FAIL("still alive after SIGKILL");
	} else {
		FAIL("unknown case %s", c);
	}

	while (wl_display_roundtrip(d) >= 0)
		;
	int err = wl_display_get_error(d);
	const struct wl_interface *iface = NULL;
	uint32_t id = 0;
	uint32_t code = wl_display_get_protocol_error(d, &iface, &id);
	if (err != EPROTO)
		FAIL("%s: connection ended with %s, not a protocol error", c, strerror(err));
	if (iface != want_iface || code != want_code)
		FAIL("%s: protocol error %s#%u code %u, want %s code %u", c,
			iface ? iface->name : "?", id, code, want_iface->name, want_code);
	printf("%s: got %s error %u as expected\n", c, iface->name, code);
	wl_display_disconnect(d);
	return 0;
}
