/* SPDX-License-Identifier: MIT */
/*
 * YUV layers composed on the CPU (src/compose-yuv.c), and the plane API around them:
 * dispman_layer_set_needs_plane() and dispman_output_get_plane_count(), against the mock
 * libdrm's vkms-like device (no plane takes YUV there, as on vkms).
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <string.h>

#include "compose-yuv.h"

static uint32_t pattern(uint32_t x, uint32_t y, uint32_t color)
{
	return color ^ ((x * 0x10101u + y * 0x100u) & 0x00ffffffu);
}

/* BT.601 limited range: white, black, grey, red, and one pixel pair sharing chroma. */
static void test_convert(void **state)
{
	(void)state;
	static const struct {
		uint8_t y, u, v;
		uint32_t rgb;
	} cases[] = {
		{ 235, 128, 128, 0xffffff }, { 16, 128, 128, 0x000000 },
		{ 126, 128, 128, 0x808080 }, { 81, 90, 240, 0xff0000 },
	};
	for (size_t i = 0; i < UNIT_ARRAY_LEN(cases); i++) {
		uint8_t y = cases[i].y, u = cases[i].u, v = cases[i].v;
		const uint8_t yuyv[4] = { y, u, y, v }, uyvy[4] = { u, y, v, y };
		const uint8_t yvyu[4] = { y, v, y, u }, vyuy[4] = { v, y, u, y };
		const uint8_t *src[] = { yuyv, uyvy, yvyu, vyuy };
		const uint32_t fmt[] = { DRM_FORMAT_YUYV, DRM_FORMAT_UYVY, DRM_FORMAT_YVYU,
			DRM_FORMAT_VYUY };
		for (int k = 0; k < 4; k++) {
			uint32_t out[2] = { 0 };
			assert_int_equal(compose_yuv_convert(fmt[k], src[k], 4, 2, 1,
				(uint8_t *)out, 8), 8);
			assert_int_equal(out[0] & 0xffffff, cases[i].rgb);
			assert_int_equal(out[1] & 0xffffff, cases[i].rgb);
		}
	}
	/* refused: RGB, rows too short on either side */
	uint8_t in[8] = { 0 };
	uint32_t out[4];
	assert_int_equal(compose_yuv_convert(DRM_FORMAT_XRGB8888, in, 8, 2, 1, (uint8_t *)out,
		16), 0);
	assert_int_equal(compose_yuv_convert(DRM_FORMAT_YUYV, in, 2, 2, 1, (uint8_t *)out, 16),
		0);
	assert_int_equal(compose_yuv_convert(DRM_FORMAT_YUYV, in, 8, 4, 1, (uint8_t *)out, 8),
		0);
	assert_false(compose_yuv_format(DRM_FORMAT_NV12));
}

/* A YUYV buffer of one colour (Y, U, V), w x h. */
static struct dispman_buffer *yuyv_buffer(struct unit_fixture *f, uint32_t w, uint32_t h,
	uint8_t y, uint8_t u, uint8_t v)
{
	struct dispman_buffer *buf = dispman_buffer_create_dumb(f->dev, w, h, DRM_FORMAT_YUYV);
	assert_non_null(buf);
	uint8_t *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(buf, (void **)&data, &stride), 0);
	for (uint32_t r = 0; r < h; r++)
		for (uint32_t x = 0; x < w; x += 2)
			memcpy(data + (size_t)r * stride + x * 2, (uint8_t[]){ y, u, y, v }, 4);
	return buf;
}

/* The 32x16 rectangle at (100, 50) is want, the base pattern around it. */
static void check_rect(struct unit_fixture *f, uint32_t want)
{
	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), 0);
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(frame, &data, &stride), 0);
	for (uint32_t y = 40; y < 80; y++) {
		const uint32_t *row = (const uint32_t *)(const void *)((char *)data +
			(size_t)y * stride);
		for (uint32_t x = 90; x < 140; x++) {
			bool inside = x >= 100 && x < 132 && y >= 50 && y < 66;
			uint32_t exp = inside ? want : pattern(x, y, 0) & 0xffffff;
			assert_int_equal(row[x] & 0xffffff, exp);
		}
	}
	dispman_buffer_unref(frame);
}

/* No plane takes YUYV: the layer is composited (reason FORMAT) and its colour converted,
 * where before it was not shown. */
static void test_composited(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	struct dispman_buffer *yuv = yuyv_buffer(f, 32, 16, 81, 90, 240);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, yuv), 0);
	dispman_layer_set_destination(layer, 100, 50, 0, 0);
	dispman_layer_set_z(layer, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	struct dispman_placement p;
	assert_int_equal(dispman_layer_get_placement(layer, &p), 0);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_COMPOSITED);
	assert_int_equal(p.reason, DISPMAN_REASON_FORMAT);
	check_rect(f, 0xff0000);
	/* new content in the same buffer, set again: redrawn */
	uint8_t *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(yuv, (void **)&data, &stride), 0);
	for (uint32_t r = 0; r < 16; r++)
		for (uint32_t x = 0; x < 32; x += 2)
			memcpy(data + (size_t)r * stride + x * 2, (uint8_t[]){ 235, 128, 235, 128 },
				4);
	assert_int_equal(dispman_layer_set_buffer(layer, yuv), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	check_rect(f, 0xffffff);
	dispman_layer_destroy(layer);
	dispman_buffer_unref(yuv);
	dispman_buffer_unref(base);
}

/* The vkms-like device: 1 primary, 8 overlays, 1 cursor, all on its one CRTC. */
static void test_plane_count(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_output_get_plane_count(f->out, DISPMAN_PLANE_PRIMARY), 1);
	assert_int_equal(dispman_output_get_plane_count(f->out, DISPMAN_PLANE_OVERLAY), 8);
	assert_int_equal(dispman_output_get_plane_count(f->out, DISPMAN_PLANE_CURSOR), 1);
	unit_log_clear();
	assert_int_equal(dispman_output_get_plane_count(f->out, (enum dispman_plane_kind)3),
		-EINVAL);
	assert_error_logged("unknown plane kind");
	assert_int_equal(dispman_output_get_plane_count(NULL, DISPMAN_PLANE_PRIMARY), -EINVAL);
}

/*
 * Ten layers on 8 overlays and a cursor plane: the one that needs a plane keeps one even though it is the
 * smallest and never changes (without it, the size order leaves it composited).
 */
static void test_needs_plane(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	struct dispman_buffer *big = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_XRGB8888, 1);
	struct dispman_buffer *small = unit_pattern_buffer(f->dev, 8, 8, DRM_FORMAT_XRGB8888, 2);
	struct dispman_layer *layers[10];
	for (int i = 0; i < 10; i++) {
		layers[i] = dispman_layer_create(f->out);
		assert_int_equal(dispman_layer_set_buffer(layers[i], i == 0 ? small : big), 0);
		dispman_layer_set_destination(layers[i], 90 * i, 100, 0, 0);
		dispman_layer_set_z(layers[i], i + 1);
	}
	struct dispman_placement p;
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(dispman_layer_get_placement(layers[0], &p), 0);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_COMPOSITED);
	assert_int_equal(dispman_layer_set_needs_plane(layers[0], true), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(dispman_layer_get_placement(layers[0], &p), 0);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_ON_PLANE);
	assert_int_equal(dispman_layer_set_needs_plane(NULL, true), -EINVAL);
	for (int i = 0; i < 10; i++)
		dispman_layer_destroy(layers[i]);
	dispman_buffer_unref(small);
	dispman_buffer_unref(big);
	dispman_buffer_unref(base);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "yuv@convert", test_convert, NULL, NULL, NULL },
		{ "yuv@composited", test_composited, unit_setup_vkms, unit_teardown, NULL },
		{ "yuv@plane-count", test_plane_count, unit_setup_vkms, unit_teardown, NULL },
		{ "yuv@needs-plane", test_needs_plane, unit_setup_vkms, unit_teardown, NULL },
	};
	return unit_main("yuv", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
