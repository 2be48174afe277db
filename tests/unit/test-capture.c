/* SPDX-License-Identifier: MIT */
/*
 * Writeback capture on the mock libdrm: the composed pixels come back, the vkms clone rule
 * (Virtual and Writeback refused on one CRTC at once) is worked around, a device whose
 * encoders are clones captures without detaching the output, and the error paths.
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <string.h>

#include "private.h"

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

static uint32_t pattern(uint32_t x, uint32_t y, uint32_t color)
{
	return color ^ ((x * 0x10101u + y * 0x100u) & 0x00ffffffu);
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
			bad += (row[x] & 0xffffff) != (pattern(x, y, color) & 0xffffff);
	}
	assert_int_equal(bad, 0);
}

static void test_pixels(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *buf = unit_show_first_frame(f, 0x204080);
	struct mock_drm_counters before = counters();
	struct dispman_stats s0;
	dispman_device_get_stats(f->dev, &s0);

	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), 0);
	assert_non_null(frame);
	check_pattern(frame, 1024, 768, 0x204080);
	assert_int_equal(counters().writebacks, before.writebacks + 1);

	/* The clone rule: both connectors at once was refused (TEST_ONLY), so the writeback
	 * connector got the CRTC alone, then the output was given back: two modesets. */
	struct mock_drm_counters after = counters();
	assert_int_equal(after.failed_commits, before.failed_commits + 1);
	assert_int_equal(after.modesets, before.modesets + 2);
	struct dispman_stats s;
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

	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), 0);
	assert_int_equal(dispman_buffer_map(frame, &data, &stride), 0);
	for (uint32_t y = 40; y < 80; y++) {
		const uint32_t *row = (const uint32_t *)(const void *)((char *)data +
			(size_t)y * stride);
		for (uint32_t x = 90; x < 140; x++) {
			bool inside = x >= 100 && x < 132 && y >= 50 && y < 66;
			uint32_t want = inside ? 0xff8000 : pattern(x, y, 0) & 0xffffff;
			assert_int_equal(row[x] & 0xffffff, want);
		}
	}
	dispman_buffer_unref(frame);
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
	assert_int_equal(f->dev->n_writebacks, 1);
	assert_int_equal(f->dev->writebacks[0].connector_id, wb);
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

static void test_no_writeback(void **state)
{
	struct unit_fixture *f = *state;
	unit_build_plain_device();
	unit_open_device(f);
	assert_int_equal(f->dev->n_writebacks, 0);
	struct dispman_buffer *buf = unit_show_first_frame(f, 0);
	struct dispman_buffer *frame = (void *)1;
	unit_log_clear();
	assert_int_equal(dispman_output_capture(f->out, &frame), -ENOTSUP);
	assert_null(frame);
	assert_error_logged("no writeback connector");
	dispman_buffer_unref(buf);
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
		{ "capture@pixels", test_pixels, unit_setup_vkms, unit_teardown, NULL },
		{ "capture@other-mode", test_other_mode, unit_setup_vkms, unit_teardown, NULL },
		{ "capture@overlay-composed", test_overlay_composed, unit_setup_vkms,
			unit_teardown, NULL },
		{ "capture@clones-allowed", test_clones_allowed, unit_setup_empty, unit_teardown,
			NULL },
		{ "capture@no-writeback", test_no_writeback, unit_setup_empty, unit_teardown,
			NULL },
		{ "capture@not-enabled", test_not_enabled, unit_setup_vkms, unit_teardown, NULL },
	};
	enum { N = UNIT_ARRAY_LEN(fixed) + UNIT_ARRAY_LEN(capture_failures) };
	struct CMUnitTest tests[N];
	size_t n = 0;
	for (size_t i = 0; i < UNIT_ARRAY_LEN(fixed); i++)
		tests[n++] = fixed[i];
	for (size_t i = 0; i < UNIT_ARRAY_LEN(capture_failures); i++)
		tests[n++] = (struct CMUnitTest){ capture_failures[i].name, test_capture_failure,
			unit_setup_vkms, unit_teardown, (void *)&capture_failures[i] };
	return unit_main("capture", tests, n, argc, argv);
}
