/* SPDX-License-Identifier: MIT */
/* One pixel from BT.601 limited-range YUV to XRGB8888, in integers: the camera's copy path
 * (camera-convert.c) and the CPU compositor's YUV layers (compose-yuv.c) both use it. */
#ifndef DISPMAN_YUV_H
#define DISPMAN_YUV_H

#include <stdint.h>

static inline uint8_t yuv_clamp8(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static inline uint32_t yuv_to_xrgb(int y, int u, int v)
{
	int c = 298 * (y - 16), d = u - 128, e = v - 128;
	return 0xff000000u | (uint32_t)yuv_clamp8((c + 409 * e + 128) >> 8) << 16 |
	       (uint32_t)yuv_clamp8((c - 100 * d - 208 * e + 128) >> 8) << 8 |
	       (uint32_t)yuv_clamp8((c + 516 * d + 128) >> 8);
}

#endif
