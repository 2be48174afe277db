/* SPDX-License-Identifier: MIT */
/*
 * A compositor on the two-head mock (unit_add_two_heads(), each head 640x480 with a
 * primary and a 64x64 cursor plane) in the extended layout (issue 27):
 *
 * cursor-crosses: the pointer (injected relative motion) moves from the first output to
 *   the second: the drawn cursor (the built-in arrow, hotspot 0,0: no XCursor theme is
 *   found) is on the second head's cursor plane at the pointer's place on that head, and
 *   the first head's cursor plane shows nothing; back on the first, the other way round.
 * frames-per-output: toplevel A full-screen on the first output, B on the second; with the
 *   flips held, B commits a new buffer with a frame callback and presentation feedback:
 *   the first head's flip answers neither; the second head's flip sends the callback's
 *   done and the feedback's presented, whose sync_output is the second wl_output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <wayland-client.h>
#include <wayland-server-core.h>

#include <dispman/input.h>
#include <dispman/wayland.h>

#include "config.h"
#include "mock-drm.h"
#include "presentation-time-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include "unit.h"
#include "wl-pair.h"

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

struct fixture {
	struct dispman_device *dev;
	struct dispman_wayland *wl;
	struct dispman_input *input;
	struct wl_display *client;
	uint32_t crtc[2], cursor[2];
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm;
	struct wp_presentation *presentation;
	struct wl_output *outputs[2];
	int n_outputs;
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
	f->registry = wl_pair_bind(f->wl, f->client, (const struct wl_pair_want[]){
		{ &wl_compositor_interface, 4, &f->compositor },
		{ &wl_shm_interface, 1, &f->shm },
		{ &xdg_wm_base_interface, 1, &f->wm },
		{ &wp_presentation_interface, 1, &f->presentation },
		{ &wl_output_interface, 2, f->outputs, 2 },
		{ 0 } });
	f->n_outputs = !!f->outputs[0] + !!f->outputs[1];
	CHECK(f->compositor && f->shm && f->wm && f->presentation && f->n_outputs == 2);
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
	for (int i = 0; i < f->n_outputs; i++)
		wl_output_destroy(f->outputs[i]);
	wp_presentation_destroy(f->presentation);
	xdg_wm_base_destroy(f->wm);
	wl_shm_destroy(f->shm);
	wl_compositor_destroy(f->compositor);
	wl_registry_destroy(f->registry);
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

/* ---- frames-per-output ---- */

struct win {
	struct wl_surface *surface;
	struct xdg_surface *xs;
	struct xdg_toplevel *tl;
	uint32_t serial;
};

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	((struct win *)data)->serial = serial;
}
static const struct xdg_surface_listener xs_listener = { xs_configure };

static struct wl_buffer *buffer(struct fixture *f, int32_t w, int32_t h)
{
	return wl_pair_shm_buffer(f->shm, w, h);
}

/* A toplevel full-screen on the output, mapped with a 640x480 buffer. */
static void map_on(struct fixture *f, struct win *w, struct wl_output *on,
	struct wl_buffer *b)
{
	w->surface = wl_compositor_create_surface(f->compositor);
	w->xs = xdg_wm_base_get_xdg_surface(f->wm, w->surface);
	xdg_surface_add_listener(w->xs, &xs_listener, w);
	w->tl = xdg_surface_get_toplevel(w->xs);
	xdg_toplevel_set_fullscreen(w->tl, on);
	wl_surface_commit(w->surface);
	wl_pair_pump(f->wl, f->client);
	CHECK(w->serial != 0);
	xdg_surface_ack_configure(w->xs, w->serial);
	wl_surface_attach(w->surface, b, 0, 0);
	wl_surface_damage(w->surface, 0, 0, 640, 480);
	wl_surface_commit(w->surface);
	wl_pair_pump(f->wl, f->client);
}

static void win_destroy(struct win *w)
{
	xdg_toplevel_destroy(w->tl);
	xdg_surface_destroy(w->xs);
	wl_surface_destroy(w->surface);
}

static void frame_done(void *data, struct wl_callback *cb, uint32_t t)
{
	(*(int *)data)++;
	wl_callback_destroy(cb);
}
static const struct wl_callback_listener frame_listener = { frame_done };

struct fb_state {
	int presented, discarded;
	struct wl_output *sync;
};

static void fb_sync_output(void *data, struct wp_presentation_feedback *fb,
	struct wl_output *o)
{
	((struct fb_state *)data)->sync = o;
}
static void fb_presented(void *data, struct wp_presentation_feedback *fb, uint32_t hi,
	uint32_t lo, uint32_t nsec, uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo,
	uint32_t flags)
{
	((struct fb_state *)data)->presented++;
	wp_presentation_feedback_destroy(fb);
}
static void fb_discarded(void *data, struct wp_presentation_feedback *fb)
{
	((struct fb_state *)data)->discarded++;
	wp_presentation_feedback_destroy(fb);
}
static const struct wp_presentation_feedback_listener fb_listener = { fb_sync_output,
	fb_presented, fb_discarded };

static void test_frames_per_output(void **state)
{
	struct fixture *f = *state;
	struct win a = { 0 }, b = { 0 };
	struct wl_buffer *bufs[3] = { buffer(f, 640, 480), buffer(f, 640, 480),
		buffer(f, 640, 480) };
	map_on(f, &a, f->outputs[0], bufs[0]);
	map_on(f, &b, f->outputs[1], bufs[1]);
	for (int i = 0; i < 4; i++)
		wl_pair_pump(f->wl, f->client);

	/* flips held: B's next frame, with a callback and feedback */
	mock_drm_set_flip_delay(true);
	int done = 0;
	struct fb_state fb = { 0 };
	wl_callback_add_listener(wl_surface_frame(b.surface), &frame_listener, &done);
	wp_presentation_feedback_add_listener(wp_presentation_feedback(f->presentation,
		b.surface), &fb_listener, &fb);
	wl_surface_attach(b.surface, bufs[2], 0, 0);
	wl_surface_damage(b.surface, 0, 0, 640, 480);
	wl_surface_commit(b.surface);
	wl_pair_pump(f->wl, f->client);
	/* the first head flips: nothing for B */
	mock_drm_release_crtc_flips(f->crtc[0]);
	wl_pair_pump(f->wl, f->client);
	wl_pair_pump(f->wl, f->client);
	assert_int_equal(done, 0);
	assert_int_equal(fb.presented + fb.discarded, 0);
	/* the second head flips: B's frame is on screen */
	for (int i = 0; i < 4 && !done; i++) {
		mock_drm_release_crtc_flips(f->crtc[1]);
		wl_pair_pump(f->wl, f->client);
	}
	assert_int_equal(done, 1);
	assert_int_equal(fb.presented, 1);
	assert_ptr_equal(fb.sync, f->outputs[1]);
	mock_drm_set_flip_delay(false);
	mock_drm_release_flips();
	win_destroy(&a);
	win_destroy(&b);
	for (int i = 0; i < 3; i++)
		wl_buffer_destroy(bufs[i]);
	wl_pair_pump(f->wl, f->client);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "outputs@cursor-crosses", test_cursor_crosses, setup, teardown, NULL },
		{ "outputs@frames-per-output", test_frames_per_output, setup, teardown, NULL },
	};
	return unit_main("outputs", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
