/* SPDX-License-Identifier: MIT */
/*
 * The camera's CPU copy path on its own (src/camera-convert.c): no device, no V4L2 node.
 * Every convertible format is converted from frames built here and checked pixel by pixel
 * against a floating-point BT.601 (limited range) reference, within 1 per channel; row
 * pitches and strides wider than the rows are honoured and the padding left alone; what
 * cannot be converted or copied writes nothing.
 */
#include "camera-convert.h"

#include "unit-main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/videodev2.h>

/* a failed check fails the case (cmocka), after saying what differed */
#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		fail(); \
	} \
} while (0)

static int ref_channel(double v)
{
	long r = lround(v);
	return r < 0 ? 0 : r > 255 ? 255 : (int)r;
}

/* The reference: BT.601 limited range in floating point. */
static uint32_t ref_xrgb(int y, int u, int v)
{
	double c = 1.164383 * (y - 16), d = u - 128, e = v - 128;
	return 0xff000000u | (uint32_t)ref_channel(c + 1.596027 * e) << 16 |
		(uint32_t)ref_channel(c - 0.391762 * d - 0.812968 * e) << 8 |
		(uint32_t)ref_channel(c + 2.017232 * d);
}

static bool close_to(uint32_t got, uint32_t want)
{
	for (int s = 0; s < 32; s += 8) {
		int a = (int)(got >> s & 0xff), b = (int)(want >> s & 0xff);
		if (abs(a - b) > 1)
			return false;
	}
	return true;
}

#define W 8
#define H 4
#define PITCH 40    /* source rows wider than W pixels of any format here */
#define OSTRIDE 48  /* XRGB rows of 12 pixels: 4 of padding */
#define PAD 0x5au

/* The Y, U, V of pixel (x, y) of the test frame: a spread over the whole range. */
static void yuv_at(uint32_t x, uint32_t y, int *Y, int *U, int *V)
{
	*Y = (int)((x * 37 + y * 71) % 256);
	*U = (int)((x / 2 * 53 + y * 29 + 7) % 256);
	*V = (int)((x / 2 * 97 + y * 13 + 200) % 256);
}

static struct v4l2_stream_format fmt(uint32_t fourcc, uint32_t pitch0, uint32_t pitch1)
{
	struct v4l2_stream_format f = { .v4l2_fourcc = fourcc, .width = W, .height = H };
	f.planes[0].pitch = pitch0;
	f.planes[1].pitch = pitch1;
	return f;
}

/* Convert, then check every pixel against want(x, y) and the padding against PAD. */
static void check_frame(const char *name, const struct v4l2_stream_format *f,
	const uint8_t *p0, const uint8_t *p1, uint32_t (*want)(uint32_t, uint32_t))
{
	uint8_t out[OSTRIDE * H];
	memset(out, PAD, sizeof(out));
	uint64_t n = camera_convert_xrgb(f, p0, p1, out, OSTRIDE);
	CHECK(n == (uint64_t)W * H * 4, "%s: %llu bytes written, want %d", name,
		(unsigned long long)n, W * H * 4);
	int bad = 0;
	for (uint32_t y = 0; y < H; y++) {
		for (uint32_t x = 0; x < W; x++) {
			uint32_t got;
			memcpy(&got, out + y * OSTRIDE + x * 4, 4);
			if (!close_to(got, want(x, y)) && bad++ < 3)
				CHECK(false, "%s: pixel %u,%u is %08x, want %08x", name, x, y, got,
					want(x, y));
		}
		for (uint32_t i = W * 4; i < OSTRIDE; i++)
			CHECK(out[y * OSTRIDE + i] == PAD, "%s: padding of row %u written", name,
				y);
	}
	CHECK(bad == 0, "%s: %d pixels differ from the reference", name, bad);
	printf("%s: %d of %d pixels within 1 of the BT.601 reference\n", name, W * H - bad,
		W * H);
}

static uint32_t want_yuv(uint32_t x, uint32_t y)
{
	int Y, U, V;
	yuv_at(x, y, &Y, &U, &V);
	return ref_xrgb(Y, U, V);
}

/* 4:2:0: the chroma of the 2x2 block. */
static uint32_t want_yuv420(uint32_t x, uint32_t y)
{
	int Y, U, V, dummy;
	yuv_at(x, y, &Y, &dummy, &dummy);
	yuv_at(x, y & ~1u, &dummy, &U, &V);
	return ref_xrgb(Y, U, V);
}

static uint32_t want_rgb(uint32_t x, uint32_t y)
{
	return 0xff000000u | (x * 31 & 0xff) << 16 | (y * 67 & 0xff) << 8 | ((x + y) * 13 & 0xff);
}

static void test_packed_yuv(void **state)
{
	(void)state;
	uint8_t yuyv[PITCH * H], uyvy[PITCH * H];
	memset(yuyv, 0xee, sizeof(yuyv));
	memset(uyvy, 0xee, sizeof(uyvy));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x += 2) {
			int Y0, Y1, U, V;
			yuv_at(x, y, &Y0, &U, &V);
			yuv_at(x + 1, y, &Y1, &U, &V);
			uint8_t *a = yuyv + y * PITCH + x * 2, *b = uyvy + y * PITCH + x * 2;
			uint8_t y0 = (uint8_t)Y0, y1 = (uint8_t)Y1, u = (uint8_t)U, v = (uint8_t)V;
			a[0] = y0, a[1] = u, a[2] = y1, a[3] = v;
			b[0] = u, b[1] = y0, b[2] = v, b[3] = y1;
		}
	struct v4l2_stream_format f = fmt(V4L2_PIX_FMT_YUYV, PITCH, 0);
	check_frame("YUYV", &f, yuyv, NULL, want_yuv);
	f = fmt(V4L2_PIX_FMT_UYVY, PITCH, 0);
	check_frame("UYVY", &f, uyvy, NULL, want_yuv);
}

static void test_nv12(void **state)
{
	(void)state;
	uint8_t luma[PITCH * H], chroma[PITCH * H / 2];
	memset(luma, 0xee, sizeof(luma));
	memset(chroma, 0xee, sizeof(chroma));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			int Y, U, V;
			yuv_at(x, y, &Y, &U, &V);
			luma[y * PITCH + x] = (uint8_t)Y;
			if (!(x & 1) && !(y & 1)) {
				chroma[y / 2 * PITCH + x] = (uint8_t)U;
				chroma[y / 2 * PITCH + x + 1] = (uint8_t)V;
			}
		}
	struct v4l2_stream_format f = fmt(V4L2_PIX_FMT_NV12, PITCH, PITCH);
	check_frame("NV12", &f, luma, chroma, want_yuv420);
	f = fmt(V4L2_PIX_FMT_NV12M, PITCH, PITCH);
	check_frame("NV12M", &f, luma, chroma, want_yuv420);
}

static void test_rgb(void **state)
{
	(void)state;
	uint8_t rgb[PITCH * H], bgr[PITCH * H];
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			uint32_t c = want_rgb(x, y);
			uint8_t r = (uint8_t)(c >> 16), g = (uint8_t)(c >> 8), b = (uint8_t)c;
			uint8_t *p = rgb + y * PITCH + x * 3, *q = bgr + y * PITCH + x * 3;
			p[0] = r, p[1] = g, p[2] = b;
			q[0] = b, q[1] = g, q[2] = r;
		}
	struct v4l2_stream_format f = fmt(V4L2_PIX_FMT_RGB24, PITCH, 0);
	check_frame("RGB24", &f, rgb, NULL, want_rgb);
	f = fmt(V4L2_PIX_FMT_BGR24, PITCH, 0);
	check_frame("BGR24", &f, bgr, NULL, want_rgb);
}

/* The whole Y, U, V cube on a grid, one YUYV pixel pair at a time. */
static void test_full_range(void **state)
{
	(void)state;
	int bad = 0, n = 0;
	for (int Y = 0; Y < 256; Y += 15)
		for (int U = 0; U < 256; U += 15)
			for (int V = 0; V < 256; V += 15) {
				uint8_t src[4] = { (uint8_t)Y, (uint8_t)U, (uint8_t)Y, (uint8_t)V };
				uint32_t out[2];
				struct v4l2_stream_format f = fmt(V4L2_PIX_FMT_YUYV, 4, 0);
				f.width = 2, f.height = 1;
				camera_convert_xrgb(&f, src, NULL, (uint8_t *)out, 8);
				n++;
				if (!close_to(out[0], ref_xrgb(Y, U, V)) && bad++ < 3)
					CHECK(false, "Y %d U %d V %d: %08x, want %08x", Y, U, V,
						out[0], ref_xrgb(Y, U, V));
			}
	CHECK(bad == 0, "%d of %d colours differ from the reference", bad, n);
	printf("full range: %d of %d colours within 1 of the reference\n", n - bad, n);
	uint32_t black, white;
	uint8_t k[4] = { 16, 128, 16, 128 }, w[4] = { 235, 128, 235, 128 };
	struct v4l2_stream_format f = fmt(V4L2_PIX_FMT_YUYV, 4, 0);
	f.width = 2, f.height = 1;
	uint32_t pair[2];
	camera_convert_xrgb(&f, k, NULL, (uint8_t *)pair, 8);
	black = pair[0];
	camera_convert_xrgb(&f, w, NULL, (uint8_t *)pair, 8);
	white = pair[0];
	CHECK(black == 0xff000000u, "Y 16 is %08x, not black", black);
	CHECK(white == 0xffffffffu, "Y 235 is %08x, not white", white);
}

static void test_refusals(void **state)
{
	(void)state;
	uint8_t src[PITCH * H] = { 0 }, out[OSTRIDE * H];
	memset(out, PAD, sizeof(out));
	struct v4l2_stream_format f = fmt(V4L2_PIX_FMT_MJPEG, PITCH, 0);
	CHECK(!camera_convertible(V4L2_PIX_FMT_MJPEG), "MJPEG called convertible");
	CHECK(camera_convert_xrgb(&f, src, NULL, out, OSTRIDE) == 0, "MJPEG converted");
	f = fmt(V4L2_PIX_FMT_YUYV, PITCH, 0);
	CHECK(camera_convert_xrgb(&f, src, NULL, out, W * 4 - 1) == 0,
		"converted into rows shorter than the frame");
	CHECK(camera_copy_rows(src, 16, 17, H, out, OSTRIDE) == 0,
		"copied rows wider than the source pitch");
	CHECK(camera_copy_rows(src, PITCH, OSTRIDE + 1, H, out, OSTRIDE) == 0,
		"copied rows wider than the destination stride");
	CHECK(camera_copy_rows(src, PITCH, 0, H, out, OSTRIDE) == 0, "copied empty rows");
	for (size_t i = 0; i < sizeof(out); i++)
		if (out[i] != PAD) {
			CHECK(false, "a refused call wrote byte %zu", i);
			break;
		}
	printf("refusals: MJPEG, short rows and wide rows write nothing\n");
}

static void test_copy_rows(void **state)
{
	(void)state;
	uint8_t src[PITCH * H], out[OSTRIDE * H];
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 3);
	memset(out, PAD, sizeof(out));
	uint32_t row = W * 4;
	uint64_t n = camera_copy_rows(src, PITCH, row, H, out, OSTRIDE);
	CHECK(n == (uint64_t)row * H, "copy_rows wrote %llu bytes, want %u",
		(unsigned long long)n, row * H);
	int bad = 0;
	for (uint32_t y = 0; y < H; y++) {
		bad += memcmp(out + y * OSTRIDE, src + y * PITCH, row) != 0;
		for (uint32_t i = row; i < OSTRIDE; i++)
			bad += out[y * OSTRIDE + i] != PAD;
	}
	CHECK(bad == 0, "copy_rows: %d rows or paddings wrong", bad);
	printf("copy_rows: %u rows of %u bytes, pitch %u -> stride %u\n", H, row, PITCH, OSTRIDE);
}

#define CASE(name, fn) { "camera-convert@" name, fn, NULL, NULL, NULL }

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		CASE("packed-yuv", test_packed_yuv),
		CASE("nv12", test_nv12),
		CASE("rgb", test_rgb),
		CASE("full-range", test_full_range),
		CASE("copy-rows", test_copy_rows),
		CASE("refusals", test_refusals),
	};
	return unit_main("camera-convert", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
