/* SPDX-License-Identifier: MIT */
/* A rectangle in integer coordinates, x, y, width, height; empty when w or h is 0. The
 * compositor's damage is kept in these (wl_surface.damage is given this way). */
#ifndef DISPMAN_WAYLAND_BOX_H
#define DISPMAN_WAYLAND_BOX_H

#include <stdint.h>

struct box {
	int32_t x, y, w, h;
};

/* a length of at most INT32_MAX (the far edge of a box may lie beyond INT32_MAX) */
static inline int32_t box_len(int64_t len)
{
	return len > INT32_MAX ? INT32_MAX : (int32_t)len;
}

/*
 * a becomes the smallest box that holds a and b (an empty b changes nothing). Edges are
 * summed in 64 bits: a client's damage at x = INT32_MAX with a width overflowed int32
 * (found by tests/fuzz); a width that does not fit is cut to INT32_MAX.
 */
static inline void box_union(struct box *a, const struct box *b)
{
	if (b->w <= 0 || b->h <= 0)
		return;
	if (a->w <= 0 || a->h <= 0) {
		*a = *b;
		return;
	}
	int32_t x1 = a->x < b->x ? a->x : b->x, y1 = a->y < b->y ? a->y : b->y;
	int64_t ax2 = (int64_t)a->x + a->w, bx2 = (int64_t)b->x + b->w;
	int64_t ay2 = (int64_t)a->y + a->h, by2 = (int64_t)b->y + b->h;
	int64_t x2 = ax2 > bx2 ? ax2 : bx2, y2 = ay2 > by2 ? ay2 : by2;
	*a = (struct box){ x1, y1, box_len(x2 - x1), box_len(y2 - y1) };
}

/* a is cut to [0, w) x [0, h); empty (all 0) when nothing is left. */
static inline void box_clip(struct box *a, int32_t w, int32_t h)
{
	int64_t x1 = a->x < 0 ? 0 : a->x, y1 = a->y < 0 ? 0 : a->y;
	int64_t x2 = (int64_t)a->x + a->w > w ? w : (int64_t)a->x + a->w;
	int64_t y2 = (int64_t)a->y + a->h > h ? h : (int64_t)a->y + a->h;
	if (x2 <= x1 || y2 <= y1)
		*a = (struct box){ 0 };
	else
		*a = (struct box){ (int32_t)x1, (int32_t)y1, (int32_t)(x2 - x1), (int32_t)(y2 - y1) };
}

#endif
