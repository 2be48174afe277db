/* SPDX-License-Identifier: MIT */
#include "camera-convert.h"

#include <string.h>
#include <linux/videodev2.h>

#include "yuv.h"

bool camera_convertible(uint32_t v4l2_fourcc)
{
	switch (v4l2_fourcc) {
	case V4L2_PIX_FMT_YUYV: case V4L2_PIX_FMT_UYVY: case V4L2_PIX_FMT_NV12:
	case V4L2_PIX_FMT_NV12M: case V4L2_PIX_FMT_RGB24: case V4L2_PIX_FMT_BGR24:
		return true;
	default:
		return false;
	}
}

uint64_t camera_copy_rows(const uint8_t *src, uint32_t pitch, uint32_t row_bytes,
	uint32_t height, uint8_t *out, uint32_t ostride)
{
	if (!row_bytes || row_bytes > ostride || row_bytes > pitch)
		return 0;
	for (uint32_t y = 0; y < height; y++)
		memcpy(out + (size_t)y * ostride, src + (size_t)y * pitch, row_bytes);
	return (uint64_t)row_bytes * height;
}


/* One row of width pixels from s (and, for NV12, the chroma row uv) into row. */
static void convert_row(uint32_t fourcc, uint32_t width, const uint8_t *s, const uint8_t *uv,
	uint32_t *row)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_YUYV:
		for (uint32_t x = 0; x + 1 < width; x += 2, s += 4) {
			row[x] = yuv_to_xrgb(s[0], s[1], s[3]);
			row[x + 1] = yuv_to_xrgb(s[2], s[1], s[3]);
		}
		break;
	case V4L2_PIX_FMT_UYVY:
		for (uint32_t x = 0; x + 1 < width; x += 2, s += 4) {
			row[x] = yuv_to_xrgb(s[1], s[0], s[2]);
			row[x + 1] = yuv_to_xrgb(s[3], s[0], s[2]);
		}
		break;
	case V4L2_PIX_FMT_NV12:
	case V4L2_PIX_FMT_NV12M:
		for (uint32_t x = 0; x < width; x++)
			row[x] = yuv_to_xrgb(s[x], uv[x & ~1u], uv[x | 1u]);
		break;
	case V4L2_PIX_FMT_RGB24: /* R, G, B in memory */
		for (uint32_t x = 0; x < width; x++, s += 3)
			row[x] = 0xff000000u | (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
		break;
	default: /* BGR24: B, G, R in memory */
		for (uint32_t x = 0; x < width; x++, s += 3)
			row[x] = 0xff000000u | (uint32_t)s[2] << 16 | (uint32_t)s[1] << 8 | s[0];
		break;
	}
}

uint64_t camera_convert_xrgb(const struct v4l2_stream_format *f, const uint8_t *p0,
	const uint8_t *p1, uint8_t *out, uint32_t ostride)
{
	if (!camera_convertible(f->v4l2_fourcc) || (uint64_t)f->width * 4 > ostride)
		return 0;
	bool nv12 = f->v4l2_fourcc == V4L2_PIX_FMT_NV12 || f->v4l2_fourcc == V4L2_PIX_FMT_NV12M;
	for (uint32_t y = 0; y < f->height; y++) {
		const uint8_t *uv = nv12 ? p1 + (size_t)(y / 2) * f->planes[1].pitch : NULL;
		convert_row(f->v4l2_fourcc, f->width, p0 + (size_t)y * f->planes[0].pitch, uv,
			(uint32_t *)(void *)(out + (size_t)y * ostride));
	}
	return (uint64_t)f->width * f->height * 4;
}
