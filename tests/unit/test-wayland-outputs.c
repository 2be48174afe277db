/* SPDX-License-Identifier: MIT */
/*
 * A compositor on the two-head mock (unit_add_two_heads(), each head 640x480 with a
 * primary and a 64x64 cursor plane) in the extended layout (issue 27):
 *
 * cursor-crosses: the pointer (injected relative motion) moves from the first output to
 *   the second: the drawn cursor (the built-in arrow, hotspot 0,0: no XCursor theme is
 *   found) is on the second head's cursor plane at the pointer's place on that head, and
 *   the first head's cursor plane shows nothing; back on the first, the other way round.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <wayland-client.h>
#include <wayland-server-core.h>

#include <dispman/input.h>
#include <dispman/wayland.h>

#include "config.h"
#include "mock-drm.h"
#include "unit.h"
#include "wl-pair.h"

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

struct fixture {
	struct dispman_device *dev;
	struct dispman_wayland *wl;
	struct dispman_input *input;
	struct wl_display *client;
	uint32_t crtc[2], cursor[2];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	CHECK(f);
	/* no XCursor theme: the built-in arrow, its hotspot at (0, 0) */
	setenv("XCURSOR_PATH", "/nonexistent", 1);
	mock_drm_reset();
	drmModeModeInfo m = mock_drm_mode(640, 480, 60, true);
	unit_add_two_heads((drmModeModeInfo[2]){ m, m }, f->crtc, NULL);
	static const uint32_t ar24 = DRM_FORMAT_ARGB8888;
	for (int i = 0; i < 2; i++)
		f->cursor[i] = mock_drm_add_plane(&(struct mock_drm_plane_info){
			.type = DRM_PLANE_TYPE_CURSOR, .possible_crtcs = 1u << i,
			.formats = &ar24, .num_formats = 1 });
	mock_drm_set_cap(DRM_CAP_CURSOR_WIDTH, 64);
	mock_drm_set_cap(DRM_CAP_CURSOR_HEIGHT, 64);
	int fd = mock_drm_open();
	CHECK(fd >= 0);
	f->dev = dispman_device_create_for_fd(fd);
	CHECK(f->dev);
	f->wl = dispman_wayland_create(f->dev, dispman_device_get_output(f->dev, 0));
	CHECK(f->wl);
	CHECK(dispman_wayland_set_layout(f->wl, DISPMAN_WAYLAND_LAYOUT_EXTEND) == 0);
	CHECK(dispman_wayland_add_output(f->wl, dispman_device_get_output(f->dev, 1)) == 0);
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	CHECK(wl_client_create(dispman_wayland_get_display(f->wl), sv[0]) != NULL);
	f->client = wl_display_connect_to_fd(sv[1]);
	CHECK(f->client);
	wl_pair_pump(f->wl, f->client);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	if (f->input) {
		dispman_wayland_set_input(f->wl, NULL);
		dispman_input_destroy(f->input);
	}
	wl_pair_stop(&f->dev, &f->wl, &f->client);
	mock_drm_reset();
	unsetenv("XCURSOR_PATH");
	free(f);
	return 0;
}

#if HAVE_LIBINPUT
static void motion(struct fixture *f, double dx, double dy)
{
	struct dispman_input_event ev = { .type = DISPMAN_INPUT_POINTER_MOTION, .dx = dx,
		.dy = dy };
	CHECK(dispman_wayland_inject_input(f->wl, &ev) == 0);
	wl_pair_pump(f->wl, f->client);
}

/* The cursor plane of head i: its framebuffer (0: none) and its place on the CRTC. */
static uint64_t cursor_fb(struct fixture *f, int i, int64_t *x, int64_t *y)
{
	uint64_t fb = 0, cx = 0, cy = 0, crtc = 0;
	CHECK(mock_drm_get_prop(f->cursor[i], "FB_ID", &fb));
	CHECK(mock_drm_get_prop(f->cursor[i], "CRTC_X", &cx));
	CHECK(mock_drm_get_prop(f->cursor[i], "CRTC_Y", &cy));
	CHECK(mock_drm_get_prop(f->cursor[i], "CRTC_ID", &crtc));
	if (fb)
		CHECK(crtc == f->crtc[i]);
	*x = (int64_t)cx;
	*y = (int64_t)cy;
	return fb;
}

static void test_cursor_crosses(void **state)
{
	struct fixture *f = *state;
	f->input = dispman_input_create_path(f->dev, NULL, 0);
	CHECK(f->input);
	CHECK(dispman_wayland_set_input(f->wl, f->input) == 0);
	int64_t x, y;
	/* to the layout's top-left corner, then 60 pixels into the second head, 20 down */
	motion(f, -5000, -5000);
	motion(f, 640 + 60, 20);
	assert_int_not_equal(cursor_fb(f, 1, &x, &y), 0);
	assert_int_equal(x, 60);
	assert_int_equal(y, 20);
	assert_int_equal(cursor_fb(f, 0, &x, &y), 0);
	/* it follows on that head */
	motion(f, 15, 5);
	assert_int_not_equal(cursor_fb(f, 1, &x, &y), 0);
	assert_int_equal(x, 75);
	assert_int_equal(y, 25);
	/* back on the first head, 100 pixels left of its right edge */
	motion(f, -175, 0);
	assert_int_not_equal(cursor_fb(f, 0, &x, &y), 0);
	assert_int_equal(x, 540);
	assert_int_equal(y, 25);
	assert_int_equal(cursor_fb(f, 1, &x, &y), 0);
}
#else
static void test_cursor_crosses(void **state)
{
	(void)state;
	skip();
}
#endif

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "outputs@cursor-crosses", test_cursor_crosses, setup, teardown, NULL },
	};
	return unit_main("outputs", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
