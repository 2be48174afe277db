/* SPDX-License-Identifier: MIT */
/*
 * YUV layers composed on the CPU: a camera or video layer in a packed 4:2:2 format that
 * lost its plane (a composited UI overlaps it on a device with few planes, or no plane
 * takes YUV at all) is converted to XRGB8888 for the pixman compositor (compose.c) instead
 * of vanishing. BT.601 limited range with the same integer coefficients as the camera's
 * CPU path (camera-convert.c). Two-plane formats (NV12) are not taken: a multi-plane
 * buffer cannot be mapped by dispman_buffer_map().
 */
#include "compose-yuv.h"

#include <drm_fourcc.h>
#include <stdlib.h>

#include <dispman/dispman.h>

#include "buffer.h"
#include "yuv.h"

bool compose_yuv_format(uint32_t drm_fourcc)
{
	switch (drm_fourcc) {
	case DRM_FORMAT_YUYV:
	case DRM_FORMAT_YVYU:
	case DRM_FORMAT_UYVY:
	case DRM_FORMAT_VYUY:
		return true;
	default:
		return false;
	}
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

bool compose_yuv_can_read(struct dispman_buffer *buf)
{
	if (!compose_yuv_format(buffer_format(buf)))
		return false;
	uint64_t modifier = buffer_modifier(buf);
	if (modifier != DRM_FORMAT_MOD_LINEAR && modifier != DRM_FORMAT_MOD_INVALID)
		return false;
	return dispman_buffer_map(buf, NULL, NULL) == 0;
}

#if HAVE_PIXMAN
pixman_image_t *compose_yuv_image(struct dispman_buffer *buf, uint64_t *bytes)
{
	void *data;
	uint32_t stride;
	if (bytes)
		*bytes = 0;
	if (!compose_yuv_format(buffer_format(buf)) || dispman_buffer_map(buf, &data, &stride) < 0)
		return NULL;
	uint32_t w = buffer_width(buf), h = buffer_height(buf);
	pixman_image_t *img = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, (int)w, (int)h,
		NULL, 0);
	if (!img)
		return NULL;
	uint64_t n = compose_yuv_convert(buffer_format(buf), data, stride, w, h,
		(uint8_t *)pixman_image_get_data(img), (uint32_t)pixman_image_get_stride(img));
	if (!n) {
		pixman_image_unref(img);
		return NULL;
	}
	if (bytes)
		*bytes = n;
	return img;
}
#endif
