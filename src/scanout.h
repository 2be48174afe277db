/* SPDX-License-Identifier: MIT */
/*
 * A layer's rectangles on the scanout (transform.h computes them; layer.c keeps them for
 * the rest of a commit): a header of its own, so that both use it without including each
 * other.
 */
#ifndef DISPMAN_SCANOUT_H
#define DISPMAN_SCANOUT_H

#include <stdint.h>

#include <dispman/dispman.h>

/* A layer's rectangles on the scanout. */
struct transform_geom {
	uint32_t src_x, src_y, src_w, src_h; /* 16.16, in buffer coordinates */
	int32_t dst_x, dst_y;                /* in the mode's space */
	uint32_t dst_w, dst_h;
	enum dispman_transform t;            /* what the plane does to the source */
};

#endif
