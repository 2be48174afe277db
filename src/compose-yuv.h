/* SPDX-License-Identifier: MIT */
/*
 * YUV layers for the CPU compositor (compose-yuv.c): a layer whose YUV buffer got no plane
 * is converted to XRGB8888 (BT.601 limited range, as the camera's CPU path) and drawn like
 * any other, rather than left off the screen.
 */
#ifndef DISPMAN_COMPOSE_YUV_H
#define DISPMAN_COMPOSE_YUV_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

struct dispman_buffer;

/*
 * The DRM formats the CPU compositor converts: YUYV, YVYU, UYVY, VYUY (packed 4:2:2:
 * compose_yuv_convert()); NV12, NV21, NV16, NV61, NV24, YUV420, YVU420, YUV422, YUV444
 * (multi-planar: compose_yuv_convert_planes()).
 */
bool compose_yuv_format(uint32_t drm_fourcc);

/*
 * Convert width x height pixels of format (compose_yuv_format()) from src (pitch bytes
 * per row) to XRGB8888 in out (ostride bytes per row). Returns the bytes written, 0 when
 * the format is not taken or a row does not fit either pitch.
 */
uint64_t compose_yuv_convert(uint32_t drm_fourcc, const uint8_t *src, uint32_t pitch,
	uint32_t width, uint32_t height, uint8_t *out, uint32_t ostride);

/*
 * Convert width x height pixels of a multi-planar format (NV12, NV21, NV16, NV61, NV24,
 * YUV420, YVU420, YUV422, YUV444) to XRGB8888 in out (ostride bytes per row): planes[p]
 * is plane p's first byte, pitches[p] its bytes per row (planes[2] unused for the
 * two-plane formats). Chroma is repeated over the pixels it covers (hsub x vsub), BT.601
 * limited range. Returns the bytes written, 0 when the format is not one of those or a
 * row does not fit its pitch.
 */
uint64_t compose_yuv_convert_planes(uint32_t drm_fourcc, const uint8_t *const planes[3],
	const uint32_t pitches[3], uint32_t width, uint32_t height, uint8_t *out,
	uint32_t ostride);

/* buf is a linear, CPU-mappable buffer (every plane of it) of a format compose_yuv_convert() takes. */
bool compose_yuv_can_read(struct dispman_buffer *buf);

#if HAVE_PIXMAN
#include <pixman.h>
/*
 * A new x8r8g8b8 image of buf's size holding buf converted (the caller unrefs it; its
 * pixels are freed with it), or NULL (not readable, out of memory). *bytes (may be NULL)
 * receives the bytes converted.
 */
pixman_image_t *compose_yuv_image(struct dispman_buffer *buf, uint64_t *bytes);
#endif

#endif
