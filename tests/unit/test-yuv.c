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
	assert_true(compose_yuv_format(DRM_FORMAT_NV12));
	assert_false(compose_yuv_format(DRM_FORMAT_P010)); /* 16-bit samples: not taken */
}

/* The reference: BT.601 limited range, written from the standard's matrix in integers. */
static uint32_t bt601(int y, int u, int v)
{
	int c = 298 * (y - 16), d = u - 128, e = v - 128;
	int r = (c + 409 * e + 128) >> 8, g = (c - 100 * d - 208 * e + 128) >> 8;
	int b = (c + 516 * d + 128) >> 8;
	r = r < 0 ? 0 : r > 255 ? 255 : r;
	g = g < 0 ? 0 : g > 255 ? 255 : g;
	b = b < 0 ? 0 : b > 255 ? 255 : b;
	return (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

/*
 * A 4x4 picture of four 2x2 blocks, red, white, black and grey (each block one chroma
 * sample; the grey block's luma varies), as NV12, NV21 and YUV420 with pitches wider than
 * the rows: every format gives the same known XRGB pixels. Then a 3x3 picture (odd sizes:
 * the last chroma sample covers one column and one row), and the refusals.
 */
static void test_nv12_convert(void **state)
{
	(void)state;
	/* per block (bx, by): Y, U, V, and the pixel it must give */
	static const struct { uint8_t y, u, v; uint32_t rgb; } blk[2][2] = {
		{ { 81, 90, 240, 0xff0000 }, { 235, 128, 128, 0xffffff } },
		{ { 16, 128, 128, 0x000000 }, { 126, 128, 128, 0x808080 } },
	};
	enum { YP = 8, CP = 6 }; /* luma and chroma pitches, wider than the rows */
	uint8_t yp[4 * YP], nv12[2 * CP], nv21[2 * CP], up[2 * CP], vp[2 * CP];
	memset(yp, 0xee, sizeof(yp));
	memset(nv12, 0xee, sizeof(nv12));
	memset(nv21, 0xee, sizeof(nv21));
	for (int by = 0; by < 2; by++)
		for (int bx = 0; bx < 2; bx++) {
			for (int y = 0; y < 2; y++)
				for (int x = 0; x < 2; x++)
					yp[(by * 2 + y) * YP + bx * 2 + x] = blk[by][bx].y;
			nv12[by * CP + bx * 2] = nv21[by * CP + bx * 2 + 1] = blk[by][bx].u;
			nv12[by * CP + bx * 2 + 1] = nv21[by * CP + bx * 2] = blk[by][bx].v;
			up[by * CP + bx] = blk[by][bx].u;
			vp[by * CP + bx] = blk[by][bx].v;
		}
	const struct { uint32_t fourcc; const uint8_t *p1, *p2; } fmts[] = {
		{ DRM_FORMAT_NV12, nv12, NULL }, { DRM_FORMAT_NV21, nv21, NULL },
		{ DRM_FORMAT_YUV420, up, vp }, { DRM_FORMAT_YVU420, vp, up },
	};
	const uint32_t pitches[3] = { YP, CP, CP };
	for (size_t k = 0; k < UNIT_ARRAY_LEN(fmts); k++) {
		uint32_t out[4 * 5];
		memset(out, 0, sizeof(out));
		const uint8_t *planes[3] = { yp, fmts[k].p1, fmts[k].p2 };
		assert_int_equal(compose_yuv_convert_planes(fmts[k].fourcc, planes, pitches, 4, 4,
			(uint8_t *)out, 5 * 4), 4 * 4 * 4);
		for (int y = 0; y < 4; y++) {
			for (int x = 0; x < 4; x++)
				assert_int_equal(out[y * 5 + x], 0xff000000u | blk[y / 2][x / 2].rgb);
			assert_int_equal(out[y * 5 + 4], 0); /* past the width: untouched */
		}
	}
	/* the luma varies inside one chroma sample's 2x2 block: each pixel its own Y */
	const uint8_t ys[4] = { 235, 16, 126, 81 }, uv[2] = { 90, 240 };
	const uint8_t *planes[3] = { ys, uv, NULL };
	uint32_t pitch2[3] = { 2, 2, 0 }, out2[4];
	assert_int_equal(compose_yuv_convert_planes(DRM_FORMAT_NV12, planes, pitch2, 2, 2,
		(uint8_t *)out2, 8), 16);
	for (int i = 0; i < 4; i++)
		assert_int_equal(out2[i] & 0xffffff, bt601(ys[i], 90, 240));
	assert_int_equal(out2[3] & 0xffffff, 0xff0000);
	/* odd sizes: 3x3 NV12, 2x2 chroma samples, the last covering one column / row */
	uint8_t y3[9], c3[8];
	for (int i = 0; i < 9; i++)
		y3[i] = (uint8_t)(40 + 20 * i);
	for (int i = 0; i < 8; i++)
		c3[i] = (uint8_t)(60 + 17 * i);
	const uint8_t *p3[3] = { y3, c3, NULL };
	const uint32_t pitch3[3] = { 3, 4, 0 };
	uint32_t out3[9];
	assert_int_equal(compose_yuv_convert_planes(DRM_FORMAT_NV12, p3, pitch3, 3, 3,
		(uint8_t *)out3, 12), 36);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++) {
			const uint8_t *pair = c3 + (y / 2) * 4 + (x / 2) * 2;
			assert_int_equal(out3[y * 3 + x] & 0xffffff, bt601(y3[y * 3 + x], pair[0],
				pair[1]));
		}
	/* refused: a packed or RGB format, a luma, chroma or output row that does not fit */
	assert_int_equal(compose_yuv_convert_planes(DRM_FORMAT_YUYV, p3, pitch3, 3, 3,
		(uint8_t *)out3, 12), 0);
	assert_int_equal(compose_yuv_convert_planes(DRM_FORMAT_XRGB8888, p3, pitch3, 3, 3,
		(uint8_t *)out3, 12), 0);
	const uint32_t short_luma[3] = { 2, 4, 0 }, short_chroma[3] = { 3, 3, 0 };
	assert_int_equal(compose_yuv_convert_planes(DRM_FORMAT_NV12, p3, short_luma, 3, 3,
		(uint8_t *)out3, 12), 0);
	assert_int_equal(compose_yuv_convert_planes(DRM_FORMAT_NV12, p3, short_chroma, 3, 3,
		(uint8_t *)out3, 12), 0);
	assert_int_equal(compose_yuv_convert_planes(DRM_FORMAT_NV12, p3, pitch3, 3, 3,
		(uint8_t *)out3, 11), 0);
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
	unit_check_rect(f, 0xff0000);
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
	unit_check_rect(f, 0xffffff);
	dispman_layer_destroy(layer);
	dispman_buffer_unref(yuv);
	dispman_buffer_unref(base);
}

/* An NV12 dumb buffer of one colour (Y, U, V), w x h, written through each plane. */
static struct dispman_buffer *nv12_buffer(struct unit_fixture *f, uint32_t w, uint32_t h,
	uint8_t y, uint8_t u, uint8_t v)
{
	struct dispman_buffer *buf = dispman_buffer_create_dumb(f->dev, w, h, DRM_FORMAT_NV12);
	assert_non_null(buf);
	uint8_t *luma, *chroma;
	uint32_t ls, cs;
	assert_int_equal(dispman_buffer_map_plane(buf, 0, (void **)&luma, &ls), 0);
	assert_int_equal(dispman_buffer_map_plane(buf, 1, (void **)&chroma, &cs), 0);
	for (uint32_t r = 0; r < h; r++)
		memset(luma + (size_t)r * ls, y, w);
	for (uint32_t r = 0; r < h / 2; r++)
		for (uint32_t x = 0; x < w; x += 2)
			memcpy(chroma + (size_t)r * cs + x, (uint8_t[]){ u, v }, 2);
	return buf;
}

/*
 * No plane takes NV12: the layer is composited (reason FORMAT), both planes read and
 * converted; the device's stats count the composition and its pixels (the layer is
 * opaque: drawn once, no black under it); the camera-like update of the same buffer with
 * new content is redrawn.
 */
static void test_nv12_composited(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	struct dispman_buffer *nv12 = nv12_buffer(f, 32, 16, 81, 90, 240);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, nv12), 0);
	dispman_layer_set_destination(layer, 100, 50, 0, 0);
	dispman_layer_set_z(layer, 1);
	struct dispman_stats s0 = { .size = sizeof(s0) }, s1 = { .size = sizeof(s1) };
	assert_int_equal(dispman_device_get_stats(f->dev, &s0), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	struct dispman_placement p;
	assert_int_equal(dispman_layer_get_placement(layer, &p), 0);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_COMPOSITED);
	assert_int_equal(p.reason, DISPMAN_REASON_FORMAT);
	unit_check_rect(f, 0xff0000);
	assert_int_equal(dispman_device_get_stats(f->dev, &s1), 0);
	assert_int_equal(s1.compositions, s0.compositions + 1);
	const struct dispman_mode *m = dispman_output_get_current_mode(f->out);
	/* a first composition draws the whole buffer: every pixel once */
	assert_int_equal(s1.composed_pixels - s0.composed_pixels,
		(uint64_t)m->width * m->height);
	/* new content in the same buffer, set again: only its rectangle is redrawn */
	uint8_t *luma, *chroma;
	uint32_t ls, cs;
	assert_int_equal(dispman_buffer_map_plane(nv12, 0, (void **)&luma, &ls), 0);
	assert_int_equal(dispman_buffer_map_plane(nv12, 1, (void **)&chroma, &cs), 0);
	for (uint32_t r = 0; r < 16; r++)
		memset(luma + (size_t)r * ls, 235, 32);
	for (uint32_t r = 0; r < 8; r++)
		memset(chroma + (size_t)r * cs, 128, 32);
	assert_int_equal(dispman_layer_set_buffer(layer, nv12), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	unit_check_rect(f, 0xffffff);
	dispman_layer_destroy(layer);
	dispman_buffer_unref(nv12);
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
		{ "yuv@nv12-convert", test_nv12_convert, NULL, NULL, NULL },
		{ "yuv@nv12-composited", test_nv12_composited, unit_setup_vkms, unit_teardown,
			NULL },
		{ "yuv@plane-count", test_plane_count, unit_setup_vkms, unit_teardown, NULL },
		{ "yuv@needs-plane", test_needs_plane, unit_setup_vkms, unit_teardown, NULL },
	};
	return unit_main("yuv", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
