/* SPDX-License-Identifier: MIT */
/*
 * dispman_wayland_serve_new_outputs() over the mock device with two CRTCs and a second
 * connector that is unplugged at start (issue 27): a client in the same process sees one
 * wl_output; the connector plugged in (the mock's status and a re-probe), a second
 * wl_output global appears, placed right of the first with the new output's mode; unplugged
 * again, the global is removed. Off (the default), plugging it in adds nothing. And a
 * virtual pointer made with that output (create_virtual_pointer_with_output): its absolute
 * motion lands on that output, where the client's toplevel full-screen on it gets
 * wl_pointer.enter at the point asked for. And a toplevel full-screen on that output
 * (set_fullscreen with its wl_output) goes to the first output when it is unplugged and
 * back to it when it is plugged in again (a new global for the same connector).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <wayland-client.h>
#include <wayland-server-core.h>

#include <dispman/wayland.h>

#include "mock-drm.h"
#include "unit-main.h"
#include "wl-pair.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

struct fixture {
	struct dispman_device *dev;
	struct dispman_wayland *wl;
	struct wl_display *client;
	struct wl_registry *registry;
	uint32_t conn2;
	uint32_t names[4];              /* wl_output global names seen, in order */
	int n_names;
	int removed;                    /* of them, removed since */
	struct wl_output *second;
	int32_t second_x, second_w, second_h;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct zwlr_virtual_pointer_manager_v1 *pointers;
	uint32_t configure_serial;
	int32_t conf_w, conf_h;         /* the toplevel's last configure */
	int32_t enter_x, enter_y;       /* -1: no wl_pointer.enter */
};

static void out_geometry(void *d, struct wl_output *o, int32_t x, int32_t y, int32_t pw,
	int32_t ph, int32_t sub, const char *make, const char *model, int32_t transform)
{
	struct fixture *f = d;
	f->second_x = x;
}

static void out_mode(void *d, struct wl_output *o, uint32_t flags, int32_t w, int32_t h,
	int32_t r)
{
	struct fixture *f = d;
	f->second_w = w;
	f->second_h = h;
}

static void out_done(void *d, struct wl_output *o) {}
static void out_scale(void *d, struct wl_output *o, int32_t s) {}
static const struct wl_output_listener out_listener = { out_geometry, out_mode, out_done,
	out_scale };

static void global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
	uint32_t version)
{
	struct fixture *f = data;
	if (strcmp(iface, wl_compositor_interface.name) == 0)
		f->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(iface, wl_shm_interface.name) == 0)
		f->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (strcmp(iface, xdg_wm_base_interface.name) == 0)
		f->wm = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
	else if (strcmp(iface, wl_seat_interface.name) == 0)
		f->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
	else if (strcmp(iface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
		f->pointers = wl_registry_bind(r, name, &zwlr_virtual_pointer_manager_v1_interface,
			2);
	if (strcmp(iface, wl_output_interface.name) != 0 || f->n_names == 4)
		return;
	f->names[f->n_names++] = name;
	if (f->n_names == 2) {
		f->second = wl_registry_bind(r, name, &wl_output_interface, 2);
		wl_output_add_listener(f->second, &out_listener, f);
	}
}

static void global_remove(void *data, struct wl_registry *r, uint32_t name)
{
	struct fixture *f = data;
	for (int i = 0; i < f->n_names; i++)
		if (f->names[i] == name)
			f->removed++;
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

/* The vkms-like mock, plus a second CRTC with its primary plane and a Virtual connector
 * for it, unplugged. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	CHECK(f);
	mock_drm_setup_vkms_like();
	mock_drm_add_crtc();
	drmModeModeInfo mode = mock_drm_mode(800, 600, 60, true);
	f->conn2 = mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_VIRTUAL,
		.status = DRM_MODE_DISCONNECTED,
		.modes = &mode,
		.num_modes = 1,
		.possible_crtcs = 2,
	});
	static const uint32_t xr24 = 0x34325258; /* DRM_FORMAT_XRGB8888 */
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY,
		.possible_crtcs = 2,
		.formats = &xr24,
		.num_formats = 1,
	});
	int fd = mock_drm_open();
	CHECK(fd >= 0);
	f->dev = dispman_device_create_for_fd(fd);
	CHECK(f->dev);
	f->wl = dispman_wayland_create(f->dev, dispman_device_get_first_connected_output(f->dev));
	CHECK(f->wl);
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	CHECK(wl_client_create(dispman_wayland_get_display(f->wl), sv[0]) != NULL);
	f->client = wl_display_connect_to_fd(sv[1]);
	CHECK(f->client);
	f->registry = wl_display_get_registry(f->client);
	wl_registry_add_listener(f->registry, &registry_listener, f);
	wl_pair_pump(f->wl, f->client);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	if (f->second)
		wl_output_destroy(f->second);
	if (f->pointer)
		wl_pointer_destroy(f->pointer);
	if (f->pointers)
		zwlr_virtual_pointer_manager_v1_destroy(f->pointers);
	if (f->seat)
		wl_seat_destroy(f->seat);
	if (f->wm)
		xdg_wm_base_destroy(f->wm);
	if (f->shm)
		wl_shm_destroy(f->shm);
	if (f->compositor)
		wl_compositor_destroy(f->compositor);
	wl_registry_destroy(f->registry);
	wl_pair_stop(&f->dev, &f->wl, &f->client);
	mock_drm_reset();
	free(f);
	return 0;
}

/* The connector's status changed and the device probed again, then a few rounds. */
static void plug(struct fixture *f, bool in)
{
	CHECK(mock_drm_set_connector_status(f->conn2, in ? DRM_MODE_CONNECTED :
		DRM_MODE_DISCONNECTED) == 0);
	CHECK(dispman_device_probe(f->dev) == 1);
	wl_pair_pump(f->wl, f->client);
	wl_pair_pump(f->wl, f->client);
}

static void test_added_and_removed(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(dispman_wayland_serve_new_outputs(f->wl, true), 0);
	assert_int_equal(f->n_names, 1);
	plug(f, true);
	assert_int_equal(f->n_names, 2);
	assert_int_equal(f->removed, 0);
	assert_non_null(f->second);
	assert_int_equal(f->second_x, 1024); /* right of the first (1024x768) */
	assert_int_equal(f->second_w, 800);
	assert_int_equal(f->second_h, 600);
	plug(f, false);
	assert_int_equal(f->removed, 1);
	/* plugged in again: a new global */
	plug(f, true);
	assert_int_equal(f->n_names, 3);
	assert_int_equal(f->removed, 1);
}

static void test_off_by_default(void **state)
{
	struct fixture *f = *state;
	plug(f, true);
	assert_int_equal(f->n_names, 1);
	assert_int_equal(dispman_wayland_serve_new_outputs(NULL, true), -EINVAL);
}

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	((struct fixture *)data)->configure_serial = serial;
}
static const struct xdg_surface_listener xs_listener = { xs_configure };

static void p_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
	wl_fixed_t x, wl_fixed_t y)
{
	struct fixture *f = d;
	f->enter_x = wl_fixed_to_int(x);
	f->enter_y = wl_fixed_to_int(y);
}
static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s) {}
static void p_motion(void *d, struct wl_pointer *p, uint32_t t, wl_fixed_t x, wl_fixed_t y) {}
static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t t, uint32_t b,
	uint32_t st) {}
static void p_axis(void *d, struct wl_pointer *p, uint32_t t, uint32_t a, wl_fixed_t v) {}
static const struct wl_pointer_listener p_listener = { p_enter, p_leave, p_motion, p_button,
	p_axis };

/* The second output plugged in; a toplevel full-screen on it showing an 800x600 buffer; a
 * virtual pointer with that output moved to (400, 300) of an 800x600 extent. */
static void test_virtual_pointer_on_output(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(dispman_wayland_set_virtual_input(f->wl, true), 0);
	assert_int_equal(dispman_wayland_serve_new_outputs(f->wl, true), 0);
	plug(f, true);
	CHECK(f->compositor && f->shm && f->wm && f->seat && f->pointers && f->second);
	f->pointer = wl_seat_get_pointer(f->seat);
	f->enter_x = f->enter_y = -1;
	wl_pointer_add_listener(f->pointer, &p_listener, f);

	struct wl_surface *s = wl_compositor_create_surface(f->compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(f->wm, s);
	xdg_surface_add_listener(xs, &xs_listener, f);
	struct xdg_toplevel *t = xdg_surface_get_toplevel(xs);
	xdg_toplevel_set_fullscreen(t, f->second);
	wl_surface_commit(s);
	wl_pair_pump(f->wl, f->client);
	CHECK(f->configure_serial != 0);
	xdg_surface_ack_configure(xs, f->configure_serial);
	int mfd = memfd_create("on-output", MFD_CLOEXEC);
	CHECK(mfd >= 0 && ftruncate(mfd, 800 * 600 * 4) == 0);
	struct wl_shm_pool *pool = wl_shm_create_pool(f->shm, mfd, 800 * 600 * 4);
	struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, 800, 600, 800 * 4,
		WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(mfd);
	wl_surface_attach(s, b, 0, 0);
	wl_surface_damage(s, 0, 0, 800, 600);
	wl_surface_commit(s);
	wl_pair_pump(f->wl, f->client);
	wl_pair_pump(f->wl, f->client);

	struct zwlr_virtual_pointer_v1 *vp =
		zwlr_virtual_pointer_manager_v1_create_virtual_pointer_with_output(f->pointers,
			f->seat, f->second);
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 400, 300, 800, 600);
	zwlr_virtual_pointer_v1_frame(vp);
	wl_pair_pump(f->wl, f->client);
	assert_int_equal(f->enter_x, 400);
	assert_int_equal(f->enter_y, 300);
	zwlr_virtual_pointer_v1_destroy(vp);
	xdg_toplevel_destroy(t);
	xdg_surface_destroy(xs);
	wl_surface_destroy(s);
	wl_buffer_destroy(b);
	wl_pair_pump(f->wl, f->client);
}

static void tl_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
	struct fixture *f = data;
	f->conf_w = w;
	f->conf_h = h;
}
static void tl_close(void *data, struct xdg_toplevel *t) {}
static const struct xdg_toplevel_listener tl_listener = { tl_configure, tl_close };

/* A toplevel full-screen on the plugged-in output: configured 800x600; unplugged, with the
 * first output's 1024x768; plugged in again, 800x600 again. */
static void test_fullscreen_back_on_replug(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(dispman_wayland_serve_new_outputs(f->wl, true), 0);
	plug(f, true);
	CHECK(f->compositor && f->wm && f->second);
	struct wl_surface *s = wl_compositor_create_surface(f->compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(f->wm, s);
	xdg_surface_add_listener(xs, &xs_listener, f);
	struct xdg_toplevel *t = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(t, &tl_listener, f);
	xdg_toplevel_set_fullscreen(t, f->second);
	wl_surface_commit(s);
	wl_pair_pump(f->wl, f->client);
	CHECK(f->configure_serial != 0);
	xdg_surface_ack_configure(xs, f->configure_serial);
	assert_int_equal(f->conf_w, 800);
	assert_int_equal(f->conf_h, 600);
	plug(f, false);
	assert_int_equal(f->removed, 1);
	assert_int_equal(f->conf_w, 1024);
	assert_int_equal(f->conf_h, 768);
	plug(f, true);
	assert_int_equal(f->n_names, 3); /* a new global */
	assert_int_equal(f->conf_w, 800);
	assert_int_equal(f->conf_h, 600);
	xdg_toplevel_destroy(t);
	xdg_surface_destroy(xs);
	wl_surface_destroy(s);
	wl_pair_pump(f->wl, f->client);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "new-outputs@added-and-removed", test_added_and_removed, setup, teardown, NULL },
		{ "new-outputs@off-by-default", test_off_by_default, setup, teardown, NULL },
		{ "new-outputs@virtual-pointer-on-output", test_virtual_pointer_on_output, setup,
			teardown, NULL },
		{ "new-outputs@fullscreen-back-on-replug", test_fullscreen_back_on_replug, setup,
			teardown, NULL },
	};
	return unit_main("new-outputs", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
