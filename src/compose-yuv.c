/* SPDX-License-Identifier: MIT */
/*
 * YUV layers composed on the CPU: a camera or video layer in YUV that lost its plane (a
 * composited UI overlaps it on a device with few planes, or no plane takes YUV at all) is
 * converted to XRGB8888 for the pixman compositor (compose.c) instead of vanishing. Packed
 * 4:2:2 (YUYV and its orders), semi-planar (NV12, NV21, NV16, NV61, NV24) and planar
 * (YUV420, YVU420, YUV422, YUV444) formats, every plane read through its own mapping
 * (buffer_map_plane()); chroma is repeated over the pixels it covers (no filtering), as the
 * camera's CPU path (camera-convert.c) does. BT.601 limited range with the same integer
 * coefficients (yuv.h): the library sets no COLOR_ENCODING or COLOR_RANGE on planes, so
 * this is also what a plane would show by the kernel's defaults.
 */
#include "compose-yuv.h"

#include <drm_fourcc.h>
#include <stdlib.h>

#include <dispman/dispman.h>

#include "buffer.h"
#include "yuv.h"

/* The layout of a multi-planar format: chroma subsampling and where U and V are. */
struct planar_layout {
	uint8_t n_planes;   /* 2: Y and interleaved chroma; 3: Y, then two chroma planes */
	uint8_t hsub, vsub;
	uint8_t u, v;       /* 2 planes: byte of U and V in each chroma pair; 3: their plane */
};

static bool planar_layout(uint32_t drm_fourcc, struct planar_layout *l)
{
	switch (drm_fourcc) {
	case DRM_FORMAT_NV12: *l = (struct planar_layout){ 2, 2, 2, 0, 1 }; return true;
	case DRM_FORMAT_NV21: *l = (struct planar_layout){ 2, 2, 2, 1, 0 }; return true;
	case DRM_FORMAT_NV16: *l = (struct planar_layout){ 2, 2, 1, 0, 1 }; return true;
	case DRM_FORMAT_NV61: *l = (struct planar_layout){ 2, 2, 1, 1, 0 }; return true;
	case DRM_FORMAT_NV24: *l = (struct planar_layout){ 2, 1, 1, 0, 1 }; return true;
	case DRM_FORMAT_YUV420: *l = (struct planar_layout){ 3, 2, 2, 1, 2 }; return true;
	case DRM_FORMAT_YVU420: *l = (struct planar_layout){ 3, 2, 2, 2, 1 }; return true;
	case DRM_FORMAT_YUV422: *l = (struct planar_layout){ 3, 2, 1, 1, 2 }; return true;
	case DRM_FORMAT_YUV444: *l = (struct planar_layout){ 3, 1, 1, 1, 2 }; return true;
	default: return false;
	}
}

bool compose_yuv_format(uint32_t drm_fourcc)
{
	struct planar_layout l;
	switch (drm_fourcc) {
	case DRM_FORMAT_YUYV:
	case DRM_FORMAT_YVYU:
	case DRM_FORMAT_UYVY:
	case DRM_FORMAT_VYUY:
		return true;
	default:
		return planar_layout(drm_fourcc, &l);
	}
}

uint64_t compose_yuv_convert_planes(uint32_t drm_fourcc, const uint8_t *const planes[3],
	const uint32_t pitches[3], uint32_t width, uint32_t height, uint8_t *out,
	uint32_t ostride)
{
	struct planar_layout l;
	if (!planar_layout(drm_fourcc, &l) || (uint64_t)width * 4 > ostride || width > pitches[0])
		return 0;
	uint32_t cw = (width + l.hsub - 1) / l.hsub; /* chroma samples per row */
	for (unsigned p = 1; p < l.n_planes; p++)
		if ((uint64_t)cw * (l.n_planes == 2 ? 2 : 1) > pitches[p])
			return 0;
	for (uint32_t y = 0; y < height; y++) {
		const uint8_t *ys = planes[0] + (size_t)y * pitches[0];
		uint32_t cy = y / l.vsub;
		uint32_t *row = (uint32_t *)(void *)(out + (size_t)y * ostride);
		if (l.n_planes == 2) {
			const uint8_t *c = planes[1] + (size_t)cy * pitches[1];
			for (uint32_t x = 0; x < width; x++) {
				const uint8_t *pair = c + (size_t)(x / l.hsub) * 2;
				row[x] = yuv_to_xrgb(ys[x], pair[l.u], pair[l.v]);
			}
		} else {
			const uint8_t *us = planes[l.u] + (size_t)cy * pitches[l.u];
			const uint8_t *vs = planes[l.v] + (size_t)cy * pitches[l.v];
			for (uint32_t x = 0; x < width; x++)
				row[x] = yuv_to_xrgb(ys[x], us[x / l.hsub], vs[x / l.hsub]);
		}
	}
	return (uint64_t)width * height * 4;
}

uint64_t compose_yuv_convert(uint32_t drm_fourcc, const uint8_t *src, uint32_t pitch,
	uint32_t width, uint32_t height, uint8_t *out, uint32_t ostride)
{
	/* byte positions of Y0, U, Y1, V in each 4-byte group */
	int y0, u, y1, v;
	switch (drm_fourcc) {
	case DRM_FORMAT_YUYV: y0 = 0; u = 1; y1 = 2; v = 3; break;
	case DRM_FORMAT_YVYU: y0 = 0; v = 1; y1 = 2; u = 3; break;
	case DRM_FORMAT_UYVY: u = 0; y0 = 1; v = 2; y1 = 3; break;
	case DRM_FORMAT_VYUY: v = 0; y0 = 1; u = 2; y1 = 3; break;
	default: return 0;
	}
	uint32_t even = width & ~1u;
	if ((uint64_t)width * 4 > ostride || (uint64_t)(even + (width & 1u) * 2) * 2 > pitch)
		return 0;
	for (uint32_t y = 0; y < height; y++) {
		const uint8_t *s = src + (size_t)y * pitch;
		uint32_t *row = (uint32_t *)(void *)(out + (size_t)y * ostride);
		uint32_t x = 0;
		for (; x < even; x += 2, s += 4) {
			row[x] = yuv_to_xrgb(s[y0], s[u], s[v]);
			row[x + 1] = yuv_to_xrgb(s[y1], s[u], s[v]);
		}
		if (x < width) /* an odd width: the last group's first pixel */
			row[x] = yuv_to_xrgb(s[y0], s[u], s[v]);
	}
	return (uint64_t)width * height * 4;
}

/* Each plane of buf (all 1, 2 or 3 of them) mapped for reading; 0 or a negative errno. */
static int map_planes(struct dispman_buffer *buf, const uint8_t *planes[3], uint32_t pitches[3])
{
	const struct format_info *fi = format_info_find(buffer_format(buf));
	unsigned n = fi ? fi->n_planes : 1;
	for (unsigned p = 0; p < 3; p++) {
		planes[p] = NULL;
		pitches[p] = 0;
	}
	for (unsigned p = 0; p < n && p < 3; p++) {
		void *data;
		int ret = buffer_map_plane(buf, p, &data, &pitches[p]);
		if (ret < 0)
			return ret;
		planes[p] = data;
	}
	return 0;
}

bool compose_yuv_can_read(struct dispman_buffer *buf)
{
	if (!compose_yuv_format(buffer_format(buf)))
		return false;
	uint64_t modifier = buffer_modifier(buf);
	if (modifier != DRM_FORMAT_MOD_LINEAR && modifier != DRM_FORMAT_MOD_INVALID)
		return false;
	const uint8_t *planes[3];
	uint32_t pitches[3];
	return map_planes(buf, planes, pitches) == 0;
}

#if HAVE_PIXMAN
pixman_image_t *compose_yuv_image(struct dispman_buffer *buf, uint64_t *bytes)
{
	const uint8_t *planes[3];
	uint32_t pitches[3];
	if (bytes)
		*bytes = 0;
	uint32_t fourcc = buffer_format(buf);
	if (!compose_yuv_format(fourcc) || map_planes(buf, planes, pitches) < 0)
		return NULL;
	uint32_t w = buffer_width(buf), h = buffer_height(buf);
	pixman_image_t *img = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, (int)w, (int)h,
		NULL, 0);
	if (!img)
		return NULL;
	uint8_t *out = (uint8_t *)pixman_image_get_data(img);
	uint32_t ostride = (uint32_t)pixman_image_get_stride(img);
	uint64_t n = planes[1] ?
		compose_yuv_convert_planes(fourcc, planes, pitches, w, h, out, ostride) :
		compose_yuv_convert(fourcc, planes[0], pitches[0], w, h, out, ostride);
	if (!n) {
		pixman_image_unref(img);
		return NULL;
	}
	if (bytes)
		*bytes = n;
	return img;
}
#endif
