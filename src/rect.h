/* SPDX-License-Identifier: MIT */
/* A screen rectangle, half-open: [x0, x1) x [y0, y1). No libdrm, no device. */
#ifndef DISPMAN_RECT_H
#define DISPMAN_RECT_H

#include <stdbool.h>
#include <stdint.h>

struct rect {
	int32_t x0, y0, x1, y1;
};

static inline bool rect_overlap(const struct rect *a, const struct rect *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static inline bool rect_empty(const struct rect *r)
{
	return r->x0 >= r->x1 || r->y0 >= r->y1;
}

#endif
