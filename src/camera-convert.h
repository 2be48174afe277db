/* SPDX-License-Identifier: MIT */
/*
 * The camera's CPU copy path, pixels only: one frame copied as it is or converted to
 * XRGB8888. Knows nothing of the device or the camera; the unit test drives it alone.
 */
#ifndef DISPMAN_CAMERA_CONVERT_H
#define DISPMAN_CAMERA_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "v4l2.h"

/* The V4L2 formats camera_convert_xrgb() converts: YUYV, UYVY, NV12(M), RGB24, BGR24. */
bool camera_convertible(uint32_t v4l2_fourcc);

/*
 * Copy height rows of row_bytes from src (pitch bytes apart) to out (ostride apart).
 * Returns the bytes written, 0 (nothing written) when a row is wider than either pitch.
 */
uint64_t camera_copy_rows(const uint8_t *src, uint32_t pitch, uint32_t row_bytes,
	uint32_t height, uint8_t *out, uint32_t ostride);

/*
 * Convert one frame of format f (camera_convertible()) to XRGB8888 in out, ostride bytes
 * per row, BT.601 limited range. p0 is the first plane; p1 the chroma plane of NV12
 * (unused otherwise). Returns the bytes written, 0 when out's rows are too short or the
 * format is not convertible.
 */
uint64_t camera_convert_xrgb(const struct v4l2_stream_format *f, const uint8_t *p0,
	const uint8_t *p1, uint8_t *out, uint32_t ostride);

#endif
