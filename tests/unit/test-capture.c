/* SPDX-License-Identifier: MIT */
/*
 * Writeback capture on the mock libdrm: the composed pixels come back, the vkms clone rule
 * (Virtual and Writeback refused on one CRTC at once) is worked around, a device whose
 * encoders are clones captures without detaching the output, and the error paths.
 *
 * The clone rule is vkms' answer, not the mock's: the tests on the vkms-like device state it
 * as a scripted verdict (setup_vkms_clones_refused).
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "buffer.h"
#include "device.h"
#include "output.h"
#include "writeback.h"

static struct mock_drm_counters counters(void)
{
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	return c;
}

static uint64_t prop(uint32_t obj, const char *name)
{
	uint64_t v = 0;
	assert_true(mock_drm_get_prop(obj, name, &v));
	return v;
}

/* vkms refuses its Virtual and Writeback connectors on one CRTC ("failed valid clone
 * check"): any commit that leaves both on the CRTC fails with EINVAL. */
static int clone_verdict = -1;

static int setup_vkms_clones_refused(void **state)
{
	unit_setup_vkms(state);
	clone_verdict = mock_drm_script_commit(&(struct mock_drm_match){ .props = {
		{ MOCK_VKMS_VIRTUAL, "CRTC_ID", MOCK_VKMS_CRTC },
		{ MOCK_VKMS_WRITEBACK, "CRTC_ID", MOCK_VKMS_CRTC } } }, EINVAL);
	return 0;
}

/* Every pixel of frame (XRGB8888) equals the pattern, alpha byte aside. */
static void check_pattern(struct dispman_buffer *frame, uint32_t w, uint32_t h, uint32_t color)
{
	assert_int_equal(dispman_buffer_get_width(frame), w);
	assert_int_equal(dispman_buffer_get_height(frame), h);
	assert_int_equal(dispman_buffer_get_format(frame), DRM_FORMAT_XRGB8888);
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(frame, &data, &stride), 0);
	size_t bad = 0;
	for (uint32_t y = 0; y < h; y++) {
		const uint32_t *row = (const uint32_t *)(const void *)((char *)data +
			(size_t)y * stride);
		for (uint32_t x = 0; x < w; x++)
			bad += (row[x] & 0xffffff) != (unit_pattern(x, y, color) & 0xffffff);
	}
	assert_int_equal(bad, 0);
}

static void test_pixels(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *buf = unit_show_first_frame(f, 0x204080);
	struct mock_drm_counters before = counters();
	struct dispman_stats s0 = { .size = sizeof(s0) };
	dispman_device_get_stats(f->dev, &s0);

	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), 0);
	assert_non_null(frame);
	check_pattern(frame, 1024, 768, 0x204080);
	assert_int_equal(counters().writebacks, before.writebacks + 1);

	/* The clone rule: both connectors at once was refused (TEST_ONLY), so the writeback
	 * connector got the CRTC alone, then the output was given back: two modesets. */
	struct mock_drm_counters after = counters();
	assert_int_equal(mock_drm_script_hits(clone_verdict), 1);
	assert_int_equal(after.failed_commits, before.failed_commits + 1);
	assert_int_equal(after.modesets, before.modesets + 2);
	struct dispman_stats s = { .size = sizeof(s) };
	dispman_device_get_stats(f->dev, &s);
	assert_int_equal(s.modesets, s0.modesets + 2);
	assert_int_equal(prop(MOCK_VKMS_VIRTUAL, "CRTC_ID"), MOCK_VKMS_CRTC);
	assert_int_equal(prop(MOCK_VKMS_WRITEBACK, "CRTC_ID"), 0);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(buf));
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);

	/* Page flips go on afterwards. */
	struct dispman_buffer *next = unit_pattern_buffer(f->dev, 1024, 768,
		DRM_FORMAT_XRGB8888, 0x0000ff);
	assert_int_equal(dispman_output_set_buffer(f->out, next), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);

	/* A second capture sees the new frame; the first is the caller's. */
	struct dispman_buffer *frame2 = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame2), 0);
	check_pattern(frame2, 1024, 768, 0x0000ff);
	check_pattern(frame, 1024, 768, 0x204080);
	dispman_buffer_unref(frame);
	dispman_buffer_unref(frame2);
	dispman_buffer_unref(next);
	dispman_buffer_unref(buf);
}

/* Another mode: the capture has the mode's size. */
static void test_other_mode(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_mode m = { .width = 640, .height = 480 };
	assert_int_equal(dispman_output_enable(f->out, &m), 0);
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888,
		0x123456);
	assert_int_equal(dispman_output_set_buffer(f->out, buf), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), 0);
	check_pattern(frame, 640, 480, 0x123456);
	dispman_buffer_unref(frame);
	dispman_buffer_unref(buf);
}

/* An opaque ARGB layer on an overlay plane is in the captured frame. */
static void test_overlay_composed(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0x000000);
	struct dispman_buffer *top = dispman_buffer_create_dumb(f->dev, 32, 16,
		DRM_FORMAT_ARGB8888);
	assert_non_null(top);
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(top, &data, &stride), 0);
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 32; x++)
			((uint32_t *)(void *)((char *)data + (size_t)y * stride))[x] = 0xffff8000;
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, top), 0);
	dispman_layer_set_destination(layer, 100, 50, 0, 0);
	dispman_layer_set_z(layer, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);

	unit_check_rect(f, 0xff8000);
	dispman_buffer_unref(top);
	dispman_buffer_unref(base);
}

/* Encoders that are clones: the writeback connector joins the output, which stays attached. */
static void test_clones_allowed(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888 };
	drmModeModeInfo mode = mock_drm_mode(320, 240, 60, true);
	mock_drm_add_crtc();
	mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_VIRTUAL,
		.modes = &mode,
		.num_modes = 1,
		.possible_clones = 0x3,
	});
	uint32_t wb = mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_WRITEBACK,
		.possible_clones = 0x3,
	});
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY,
		.formats = formats,
		.num_formats = 1,
	});
	unit_open_device(f);
	assert_int_equal(device_n_writebacks(f->dev), 1);
	assert_int_equal(writeback_connector_id(device_writeback(f->dev, 0)), wb);
	struct dispman_buffer *buf = unit_show_first_frame(f, 0x556677);
	struct mock_drm_counters before = counters();
	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), 0);
	check_pattern(frame, 320, 240, 0x556677);
	assert_int_equal(counters().failed_commits, before.failed_commits);
	assert_int_equal(prop(dispman_output_get_connector_id(f->out), "CRTC_ID"),
		dispman_output_get_crtc_id(f->out));
	assert_int_equal(prop(wb, "CRTC_ID"), 0);
	assert_false(unit_log_find(DISPMAN_LOG_DEBUG, "writeback connector alone"));
	dispman_buffer_unref(frame);
	dispman_buffer_unref(buf);
}

/* Without writeback the CPU path composes the committed frame; forcing writeback fails. */
static void test_no_writeback(void **state)
{
	struct unit_fixture *f = *state;
	unit_build_plain_device();
	unit_open_device(f);
	assert_int_equal(device_n_writebacks(f->dev), 0);
	struct dispman_buffer *buf = unit_show_first_frame(f, 0x336699);
	struct dispman_buffer *frame = (void *)1;
	enum dispman_capture_path used = DISPMAN_CAPTURE_WRITEBACK;
	unit_log_clear();
	assert_int_equal(dispman_output_capture_with(f->out, DISPMAN_CAPTURE_WRITEBACK, &frame,
		&used), -ENOTSUP);
	assert_null(frame);
	assert_int_equal(used, DISPMAN_CAPTURE_AUTO);
	assert_error_logged("no writeback connector");
	unsigned commits = counters().commits;
	assert_int_equal(dispman_output_capture_with(f->out, DISPMAN_CAPTURE_AUTO, &frame, &used),
		0);
	assert_int_equal(used, DISPMAN_CAPTURE_CPU);
	check_pattern(frame, 1024, 768, 0x336699);
	assert_int_equal(counters().commits, commits); /* no commit for a CPU capture */
	dispman_buffer_unref(frame);
	assert_int_equal(dispman_output_capture(f->out, &frame), 0);
	check_pattern(frame, 1024, 768, 0x336699);
	dispman_buffer_unref(frame);
	assert_int_equal(dispman_output_capture_with(f->out, (enum dispman_capture_path)7,
		&frame, &used), -EINVAL);
	assert_error_logged("unknown capture path");
	dispman_buffer_unref(buf);
}

static void fill(struct dispman_buffer *b, uint32_t (*px)(uint32_t x, uint32_t y))
{
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(b, &data, &stride), 0);
	for (uint32_t y = 0; y < dispman_buffer_get_height(b); y++)
		for (uint32_t x = 0; x < dispman_buffer_get_width(b); x++)
			((uint32_t *)(void *)((char *)data + (size_t)y * stride))[x] = px(x, y);
}

/* An opaque checkerboard in an ARGB buffer. */
static uint32_t px_checker(uint32_t x, uint32_t y)
{
	return ((x / 8 + y / 8) & 1) ? 0xff102030u : 0xff000000u | (x * 0x30507u + y * 0x1100u);
}

static uint32_t px_soft(uint32_t x, uint32_t y)
{
	uint32_t a = (x * 8 + y) & 0xff;
	return a << 24 | ((a / 2) << 16) | ((a / 3) << 8) | (a / 4);
}

static uint32_t px_opaque(uint32_t x, uint32_t y)
{
	return 0xff000000u | (y * 0x10203u) | x;
}

/* The frame differs from another in that many pixels (alpha byte aside). */
static size_t diff_frames(struct dispman_buffer *a, struct dispman_buffer *b)
{
	void *da, *db;
	uint32_t sa, sb;
	assert_int_equal(dispman_buffer_get_width(a), dispman_buffer_get_width(b));
	assert_int_equal(dispman_buffer_get_height(a), dispman_buffer_get_height(b));
	assert_int_equal(dispman_buffer_map(a, &da, &sa), 0);
	assert_int_equal(dispman_buffer_map(b, &db, &sb), 0);
	size_t bad = 0;
	for (uint32_t y = 0; y < dispman_buffer_get_height(a); y++) {
		const uint32_t *ra = (const uint32_t *)(const void *)((char *)da + (size_t)y * sa);
		const uint32_t *rb = (const uint32_t *)(const void *)((char *)db + (size_t)y * sb);
		for (uint32_t x = 0; x < dispman_buffer_get_width(a); x++)
			bad += (ra[x] & 0xffffff) != (rb[x] & 0xffffff);
	}
	return bad;
}

static struct dispman_layer *add_layer(struct unit_fixture *f, struct dispman_buffer *b,
	int32_t x, int32_t y, int z)
{
	struct dispman_layer *l = dispman_layer_create(f->out);
	assert_non_null(l);
	assert_int_equal(dispman_layer_set_buffer(l, b), 0);
	dispman_layer_set_destination(l, x, y, 0, 0);
	dispman_layer_set_z(l, z);
	return l;
}

/*
 * The same committed frame through both paths: opaque overlays on planes (one partly off
 * screen), and layers composited on the CPU (plane alpha and straight-alpha blending,
 * which the vkms-like planes lack). The mock's writeback copies planes opaque (it is no
 * blender), so per-pixel alpha on a plane is compared with real vkms in the guest
 * (tests/integration/capture.c, capture-paths: the same scene with transparent holes).
 */
static void test_cpu_equals_writeback(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0x204080);
	struct dispman_buffer *checker = dispman_buffer_create_dumb(f->dev, 64, 48,
		DRM_FORMAT_ARGB8888);
	struct dispman_buffer *soft = dispman_buffer_create_dumb(f->dev, 40, 40,
		DRM_FORMAT_ARGB8888);
	struct dispman_buffer *opaque = dispman_buffer_create_dumb(f->dev, 100, 100,
		DRM_FORMAT_XRGB8888);
	assert_non_null(checker);
	assert_non_null(soft);
	assert_non_null(opaque);
	fill(checker, px_checker);
	fill(soft, px_soft);
	fill(opaque, px_opaque);
	struct dispman_layer *l1 = add_layer(f, checker, 100, 50, 1);
	struct dispman_layer *l2 = add_layer(f, opaque, -10, 700, 2);
	struct dispman_layer *l3 = add_layer(f, soft, 300, 300, 3);
	dispman_layer_set_blend_mode(l3, DISPMAN_BLEND_COVERAGE);
	struct dispman_layer *l4 = add_layer(f, opaque, 500, 100, 4);
	dispman_layer_set_alpha(l4, 0x8000);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	struct dispman_placement pl;
	assert_int_equal(dispman_layer_get_placement(l1, &pl), 0);
	assert_int_equal(pl.state, DISPMAN_PLACEMENT_ON_PLANE);
	assert_int_equal(dispman_layer_get_placement(l2, &pl), 0);
	assert_int_equal(pl.state, DISPMAN_PLACEMENT_ON_PLANE);
	assert_int_equal(dispman_layer_get_placement(l4, &pl), 0);
	assert_int_equal(pl.state, DISPMAN_PLACEMENT_COMPOSITED);

	struct dispman_buffer *wb = NULL, *cpu = NULL;
	enum dispman_capture_path used;
	assert_int_equal(dispman_output_capture_with(f->out, DISPMAN_CAPTURE_AUTO, &wb, &used), 0);
	assert_int_equal(used, DISPMAN_CAPTURE_WRITEBACK);
	assert_int_equal(dispman_output_capture_with(f->out, DISPMAN_CAPTURE_CPU, &cpu, &used), 0);
	assert_int_equal(used, DISPMAN_CAPTURE_CPU);
	assert_int_equal(diff_frames(wb, cpu), 0);

	/* Not a trivial frame: each layer is in it. */
	struct dispman_buffer *plain = NULL;
	dispman_layer_set_visible(l1, false);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(dispman_output_capture_with(f->out, DISPMAN_CAPTURE_CPU, &plain, NULL),
		0);
	assert_true(diff_frames(plain, cpu) > 1000);
	dispman_buffer_unref(plain);
	dispman_buffer_unref(wb);
	dispman_buffer_unref(cpu);
	dispman_buffer_unref(checker);
	dispman_buffer_unref(soft);
	dispman_buffer_unref(opaque);
	dispman_buffer_unref(base);
}

/* The CPU capture's pixel at (x, y) of a layer at (lx, ly) showing pattern color. */
static void check_px(struct dispman_buffer *frame, int32_t lx, int32_t ly, uint32_t x,
	uint32_t y, uint32_t color)
{
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(frame, &data, &stride), 0);
	const uint32_t *row = (const uint32_t *)(const void *)((char *)data +
		(size_t)(ly + (int32_t)y) * stride);
	assert_int_equal(row[lx + (int32_t)x] & 0xffffff, unit_pattern(x, y, color) & 0xffffff);
}

/*
 * Frames that only swap buffers of the same shape reuse the output's scene (the queued
 * frame's own, or a copy of the one on screen) with the new buffers: the CPU capture of
 * each shows each layer's buffer of that frame, also after a move (a new scene) and a
 * frame that swaps nothing.
 */
static void test_cpu_kept_frames(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0x204080);
	struct dispman_buffer *a[3], *b[3];
	uint32_t ca[3] = { 0x112233, 0x445566, 0x778899 }, cb[3] = { 0xaa0000, 0x00bb00, 0x0000cc };
	for (int i = 0; i < 3; i++) {
		a[i] = unit_pattern_buffer(f->dev, 64, 48, DRM_FORMAT_XRGB8888, ca[i]);
		b[i] = unit_pattern_buffer(f->dev, 100, 100, DRM_FORMAT_XRGB8888, cb[i]);
	}
	int32_t ax = 100, ay = 50;
	struct dispman_layer *la = add_layer(f, a[0], ax, ay, 1);
	struct dispman_layer *lb = add_layer(f, b[0], 400, 300, 2);
	int ia = 0, ib = 0;
	for (int frame = 0; frame < 12; frame++) {
		if (frame == 6) { /* a move: a new scene, then buffer swaps again */
			ax = 120;
			ay = 70;
			dispman_layer_set_destination(la, ax, ay, 0, 0);
		} else if (frame > 0 && frame != 9) { /* frame 9 swaps nothing */
			ia = (ia + 1) % 3;
			assert_int_equal(dispman_layer_set_buffer(la, a[ia]), 0);
			if (frame % 2) {
				ib = (ib + 1) % 3;
				assert_int_equal(dispman_layer_set_buffer(lb, b[ib]), 0);
			}
		}
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(unit_drain(f->dev), 1);
		struct dispman_buffer *cpu = NULL;
		enum dispman_capture_path used;
		assert_int_equal(dispman_output_capture_with(f->out, DISPMAN_CAPTURE_CPU, &cpu,
			&used), 0);
		assert_int_equal(used, DISPMAN_CAPTURE_CPU);
		check_px(cpu, ax, ay, 5, 7, ca[ia]);
		check_px(cpu, ax, ay, 63, 47, ca[ia]);
		check_px(cpu, 400, 300, 9, 3, cb[ib]);
		check_px(cpu, 0, 0, 20, 20, 0x204080); /* the base layer */
		dispman_buffer_unref(cpu);
	}
	for (int i = 0; i < 3; i++) {
		dispman_buffer_unref(a[i]);
		dispman_buffer_unref(b[i]);
	}
	dispman_buffer_unref(base);
}

/* The CPU path shows what was committed, not the pending state, and survives the layer. */
static void test_cpu_committed_state(void **state)
{
	struct unit_fixture *f = *state;
	unit_build_plain_device();
	unit_open_device(f);
	struct dispman_buffer *base = unit_show_first_frame(f, 0x102030);
	struct dispman_buffer *top = dispman_buffer_create_dumb(f->dev, 32, 32,
		DRM_FORMAT_XRGB8888);
	assert_non_null(top);
	fill(top, px_opaque);
	struct dispman_layer *l = add_layer(f, top, 10, 10, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	struct dispman_buffer *first = NULL, *second = NULL;
	assert_int_equal(dispman_output_capture(f->out, &first), 0);
	/* pending changes and a destroyed layer do not change the frame on screen */
	dispman_layer_set_destination(l, 500, 500, 0, 0);
	dispman_layer_destroy(l);
	struct dispman_buffer *other = unit_pattern_buffer(f->dev, 1024, 768,
		DRM_FORMAT_XRGB8888, 0xffffff);
	assert_int_equal(dispman_output_set_buffer(f->out, other), 0);
	assert_int_equal(dispman_output_capture(f->out, &second), 0);
	assert_int_equal(diff_frames(first, second), 0);
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(first, &data, &stride), 0);
	const uint32_t *row = (const uint32_t *)(const void *)((char *)data + 20 * stride);
	assert_int_equal(row[20] & 0xffffff, px_opaque(10, 10) & 0xffffff);
	assert_int_equal(row[50] & 0xffffff, unit_pattern(50, 20, 0x102030) & 0xffffff);
	dispman_buffer_unref(first);
	dispman_buffer_unref(second);
	dispman_buffer_unref(other);
	dispman_buffer_unref(top);
	dispman_buffer_unref(base);
}

/* A buffer the CPU cannot read on a plane: the CPU path says so. */
static void test_cpu_unreadable(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888 };
	static const uint64_t mods[] = { DRM_FORMAT_MOD_LINEAR, 0x0100000000000001ull };
	drmModeModeInfo mode = mock_drm_mode(320, 240, 60, true);
	mock_drm_set_cap(DRM_CAP_ADDFB2_MODIFIERS, 1);
	mock_drm_add_crtc();
	mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_HDMIA, .modes = &mode, .num_modes = 1 });
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY, .formats = formats, .num_formats = 1,
		.modifiers = mods, .num_modifiers = 2 });
	unit_open_device(f);
	int fd = unit_memfd(320 * 240 * 4);
	struct dispman_dmabuf_desc desc = {
		.width = 320, .height = 240, .fourcc = DRM_FORMAT_XRGB8888,
		.modifier = 0x0100000000000001ull, .n_planes = 1,
		.fds = { fd }, .pitches = { 320 * 4 },
	};
	struct dispman_buffer *tiled = dispman_buffer_import_dmabuf(f->dev, &desc);
	close(fd);
	assert_non_null(tiled);
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	assert_int_equal(dispman_output_set_buffer(f->out, tiled), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	struct dispman_buffer *frame = (void *)1;
	unit_log_clear();
	assert_int_equal(dispman_output_capture(f->out, &frame), -ENOTSUP);
	assert_null(frame);
	assert_error_logged("cannot compose");
	dispman_buffer_unref(tiled);
}

/*
 * A live app: every frame callback commits the next frame. The capture takes the frame
 * that was in flight when it was called, the callbacks keep running during it, and the
 * app's commits go on afterwards.
 */
struct live {
	struct unit_fixture *f;
	struct dispman_buffer *bufs[2];
	int frames;
};

static void live_frame(struct dispman_output *out, uint64_t seq, const struct timespec *ts,
	void *data)
{
	(void)seq;
	(void)ts;
	struct live *lv = data;
	lv->frames++;
	assert_int_equal(dispman_output_set_buffer(out, lv->bufs[lv->frames & 1]), 0);
	assert_int_equal(dispman_output_commit(out), 0);
}

static void test_live_app(void **state)
{
	struct unit_fixture *f = *state;
	bool cpu = f->param != NULL;
	if (cpu) {
		unit_build_plain_device();
		unit_open_device(f);
	}
	struct live lv = { .f = f };
	lv.bufs[0] = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, 0x00ff00);
	lv.bufs[1] = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, 0xff0000);
	mock_drm_set_flip_delay(true);
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	assert_int_equal(dispman_output_set_buffer(f->out, lv.bufs[0]), 0);
	dispman_output_set_frame_callback(f->out, live_frame, &lv);
	assert_int_equal(dispman_device_commit(f->dev), 0); /* a modeset: not held */
	assert_int_equal(unit_dispatch(f->dev, 1000), 1);
	/* a few frames of the running app */
	for (int i = 1; i < 5; i++) {
		assert_int_equal(mock_drm_release_flips(), 1);
		assert_int_equal(unit_dispatch(f->dev, 1000), 1);
	}
	assert_int_equal(lv.frames, 5);
	/* frame 5 is on screen, frame 6 (bufs[1]... bufs[5 & 1]) in flight */
	int in_flight = lv.frames & 1;
	mock_drm_set_flip_delay(false); /* the vblank comes while the capture waits */
	mock_drm_release_flips();
	struct dispman_buffer *frame = NULL;
	enum dispman_capture_path used;
	unit_log_clear();
	assert_int_equal(dispman_output_capture_with(f->out, DISPMAN_CAPTURE_AUTO, &frame, &used),
		0);
	assert_int_equal(used, cpu ? DISPMAN_CAPTURE_CPU : DISPMAN_CAPTURE_WRITEBACK);
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	check_pattern(frame, 1024, 768, in_flight ? 0xff0000 : 0x00ff00);
	/* the callback ran for the flip during the capture, and its commit was made after */
	assert_int_equal(lv.frames, 6);
	assert_int_equal(counters().pending_flips, 0);
	assert_int_equal(unit_dispatch(f->dev, 1000), 1);
	assert_int_equal(lv.frames, 7);
	dispman_output_set_frame_callback(f->out, NULL, NULL);
	unit_drain(f->dev);
	dispman_buffer_unref(frame);
	dispman_buffer_unref(lv.bufs[0]);
	dispman_buffer_unref(lv.bufs[1]);
}

/*
 * The app commits a frame while the previous one is still in flight (so the library queues
 * it), then asks for a capture: the capture is of that newest frame, not of the one that
 * was in flight, and no commit is left waiting afterwards.
 */
static void test_queued_before(void **state)
{
	struct unit_fixture *f = *state;
	if (f->param) {
		unit_build_plain_device();
		unit_open_device(f);
	}
	struct dispman_buffer *b[3] = {
		unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, 0x00ff00),
		unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, 0xff0000),
		unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, 0x0000ff),
	};
	mock_drm_set_flip_delay(true);
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	assert_int_equal(dispman_output_set_buffer(f->out, b[0]), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0); /* a modeset: its event comes */
	assert_int_equal(unit_dispatch(f->dev, 1000), 1); /* b[0] on screen */
	struct mock_drm_counters c0 = counters();
	assert_int_equal(dispman_output_set_buffer(f->out, b[1]), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0); /* b[1] in flight */
	assert_int_equal(dispman_output_set_buffer(f->out, b[2]), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0); /* b[2] queued behind it */
	assert_int_equal(counters().commits, c0.commits + 1);
	mock_drm_set_flip_delay(false);
	mock_drm_release_flips();
	struct dispman_buffer *frame = NULL;
	unit_log_clear();
	assert_int_equal(dispman_output_capture(f->out, &frame), 0);
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	check_pattern(frame, 1024, 768, 0x0000ff);
	assert_int_equal(counters().pending_flips, 0);
	unit_drain(f->dev);
	dispman_buffer_unref(frame);
	for (int i = 0; i < 3; i++)
		dispman_buffer_unref(b[i]);
}

static void test_not_enabled(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), -EINVAL);
	assert_null(frame);
	assert_error_logged("not enabled and committed");

	/* Enabled but not committed yet. */
	unit_log_clear();
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	assert_int_equal(dispman_output_capture(f->out, &frame), -EINVAL);
	assert_error_logged("not enabled and committed");
	assert_int_equal(dispman_output_capture(f->out, NULL), -EINVAL);
	assert_int_equal(counters().commits, 0);
}

/* Failures on the way leave the output as it was and nothing behind. */
struct capture_failure {
	const char *name;
	const char *func;
	int nth;
	int err;
};

static const struct capture_failure capture_failures[] = {
	/* the dumb buffer for the frame */
	{ "capture@fail-create-dumb", "DRM_IOCTL_MODE_CREATE_DUMB", 1, ENOMEM },
	/* the writeback commit itself (after the refused TEST_ONLY) */
	{ "capture@fail-writeback-commit", "drmModeAtomicCommit/apply", 1, ENOMEM },
	/* the restore commit */
	{ "capture@fail-restore", "drmModeAtomicCommit/apply", 2, EIO },
};

static void test_capture_failure(void **state)
{
	struct unit_fixture *f = *state;
	const struct capture_failure *tc = f->param;
	struct dispman_buffer *buf = unit_show_first_frame(f, 0x10);
	struct mock_drm_counters before = counters();
	unit_log_clear();
	mock_drm_fail_nth(tc->func, tc->nth, tc->err);
	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), -tc->err);
	assert_null(frame);
	assert_error_logged(NULL);
	/* Nothing of the capture is left. */
	struct mock_drm_counters c = counters();
	assert_int_equal(c.live_fbs, before.live_fbs);
	assert_int_equal(c.live_dumb_buffers, before.live_dumb_buffers);
	assert_int_equal(c.live_gem_handles, before.live_gem_handles);
	assert_int_equal(c.live_blobs, before.live_blobs);
	/* The output is routed back (unless the restore itself failed) and works on. */
	if (strcmp(tc->name, "capture@fail-restore") != 0)
		assert_int_equal(prop(MOCK_VKMS_VIRTUAL, "CRTC_ID"), MOCK_VKMS_CRTC);
	dispman_buffer_unref(buf);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest fixed[] = {
		{ "capture@pixels", test_pixels, setup_vkms_clones_refused, unit_teardown, NULL },
		{ "capture@other-mode", test_other_mode, setup_vkms_clones_refused,
			unit_teardown, NULL },
		{ "capture@overlay-composed", test_overlay_composed, setup_vkms_clones_refused,
			unit_teardown, NULL },
		{ "capture@clones-allowed", test_clones_allowed, unit_setup_empty, unit_teardown,
			NULL },
		{ "capture@no-writeback", test_no_writeback, unit_setup_empty, unit_teardown,
			NULL },
		{ "capture@not-enabled", test_not_enabled, setup_vkms_clones_refused,
			unit_teardown, NULL },
		{ "capture@cpu-equals-writeback", test_cpu_equals_writeback, setup_vkms_clones_refused,
			unit_teardown, NULL },
		{ "capture@cpu-kept-frames", test_cpu_kept_frames, unit_setup_vkms, unit_teardown,
			NULL },
		{ "capture@cpu-committed-state", test_cpu_committed_state, unit_setup_empty,
			unit_teardown, NULL },
		{ "capture@cpu-unreadable", test_cpu_unreadable, unit_setup_empty, unit_teardown,
			NULL },
		{ "capture@live-writeback", test_live_app, setup_vkms_clones_refused,
			unit_teardown, NULL },
		{ "capture@live-cpu", test_live_app, unit_setup_empty, unit_teardown, "cpu" },
		{ "capture@queued-before-writeback", test_queued_before, setup_vkms_clones_refused,
			unit_teardown, NULL },
		{ "capture@queued-before-cpu", test_queued_before, unit_setup_empty, unit_teardown,
			"cpu" },
	};
	enum { N = UNIT_ARRAY_LEN(fixed) + UNIT_ARRAY_LEN(capture_failures) };
	struct CMUnitTest tests[N];
	size_t n = 0;
	for (size_t i = 0; i < UNIT_ARRAY_LEN(fixed); i++)
		tests[n++] = fixed[i];
	for (size_t i = 0; i < UNIT_ARRAY_LEN(capture_failures); i++)
		tests[n++] = (struct CMUnitTest){ capture_failures[i].name, test_capture_failure,
			setup_vkms_clones_refused, unit_teardown, (void *)&capture_failures[i] };
	return unit_main("capture", tests, n, argc, argv);
}
