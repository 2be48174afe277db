/* SPDX-License-Identifier: MIT */
/*
 * The small helpers (src/helpers.c): fill, move, placement names, the output's size and a
 * full-screen buffer, against the mock libdrm's vkms-like device.
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <string.h>

#include "layer.h"

static uint32_t pixel(struct dispman_buffer *buf, uint32_t x, uint32_t y)
{
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(buf, &data, &stride), 0);
	return ((const uint32_t *)(const void *)((const char *)data + (size_t)y * stride))[x];
}

static void test_fill(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *x = dispman_buffer_create_dumb(f->dev, 16, 8, DRM_FORMAT_XRGB8888);
	struct dispman_buffer *b = dispman_buffer_create_dumb(f->dev, 16, 8, DRM_FORMAT_XBGR8888);
	struct dispman_buffer *r = dispman_buffer_create_dumb(f->dev, 16, 8, DRM_FORMAT_RGB565);
	assert_non_null(x);
	assert_non_null(b);
	assert_non_null(r);
	assert_int_equal(dispman_buffer_fill(x, 0x80112233), 0);
	assert_int_equal(pixel(x, 0, 0), 0x80112233);
	assert_int_equal(pixel(x, 15, 7), 0x80112233);
	assert_int_equal(dispman_buffer_fill(b, 0x80112233), 0);
	assert_int_equal(pixel(b, 15, 7), 0x80332211);
	unit_log_clear();
	assert_int_equal(dispman_buffer_fill(r, 0), -ENOTSUP);
	assert_error_logged("not a 32-bit RGB format");
	dispman_buffer_unref(x);
	dispman_buffer_unref(b);
	dispman_buffer_unref(r);
}

static void test_move(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_layer *l = dispman_layer_create(f->out);
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, 32, 16, DRM_FORMAT_XRGB8888, 0);
	assert_int_equal(dispman_layer_set_buffer(l, buf), 0);
	assert_int_equal(dispman_layer_set_destination(l, 1, 2, 64, 32), 0);
	assert_int_equal(dispman_layer_move(l, 100, 50), 0);
	int32_t x, y;
	uint32_t w, h;
	layer_get_dst(l, &x, &y, &w, &h);
	assert_int_equal(x, 100);
	assert_int_equal(y, 50);
	assert_int_equal(w, 64);
	assert_int_equal(h, 32);
	dispman_layer_destroy(l);
	dispman_buffer_unref(buf);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(dispman_placement_state_name(DISPMAN_PLACEMENT_ON_PLANE),
		"on a plane");
	assert_string_equal(dispman_placement_state_name(DISPMAN_PLACEMENT_COMPOSITED),
		"composited");
	assert_string_equal(dispman_placement_state_name((enum dispman_placement_state)99),
		"unknown");
	assert_string_equal(dispman_placement_reason_name(DISPMAN_REASON_NO_PLANE),
		"no plane left");
	assert_string_equal(dispman_placement_reason_name((enum dispman_placement_reason)99),
		"unknown");
	/* every reason up to the last has a name of its own */
	for (int r = DISPMAN_REASON_NONE; r <= DISPMAN_REASON_ROTATION; r++)
		assert_string_not_equal(dispman_placement_reason_name(
			(enum dispman_placement_reason)r), "unknown");
	assert_string_equal(dispman_placement_reason_name(
		(enum dispman_placement_reason)(DISPMAN_REASON_ROTATION + 1)), "unknown");
}

static void test_size(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_size s = dispman_output_get_size(f->out);
	assert_int_equal(s.width, 0);
	assert_int_equal(s.height, 0);
	unit_log_clear();
	errno = 0;
	assert_null(dispman_output_create_buffer(f->out));
	assert_int_equal(errno, EINVAL);
	assert_error_logged("disabled");
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	s = dispman_output_get_size(f->out);
	assert_int_equal(s.width, 1024);
	assert_int_equal(s.height, 768);
	struct dispman_buffer *buf = dispman_output_create_buffer(f->out);
	assert_non_null(buf);
	assert_int_equal(dispman_buffer_get_width(buf), 1024);
	assert_int_equal(dispman_buffer_get_format(buf), DRM_FORMAT_XRGB8888);
	dispman_buffer_unref(buf);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "helpers@fill", test_fill, unit_setup_vkms, unit_teardown, NULL },
		{ "helpers@move", test_move, unit_setup_vkms, unit_teardown, NULL },
		{ "helpers@names", test_names, NULL, NULL, NULL },
		{ "helpers@size", test_size, unit_setup_vkms, unit_teardown, NULL },
	};
	return unit_main("helpers", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
