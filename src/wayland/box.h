/* SPDX-License-Identifier: MIT */
/* A rectangle in integer coordinates, x, y, width, height; empty when w or h is 0. The
 * compositor's damage is kept in these (wl_surface.damage is given this way). */
#ifndef DISPMAN_WAYLAND_BOX_H
#define DISPMAN_WAYLAND_BOX_H

#include <stdint.h>

struct box {
	int32_t x, y, w, h;
};

/* a becomes the smallest box that holds a and b (an empty b changes nothing). */
static inline void box_union(struct box *a, const struct box *b)
{
	if (b->w <= 0 || b->h <= 0)
		return;
	if (a->w <= 0 || a->h <= 0) {
		*a = *b;
		return;
	}
	int32_t x1 = a->x < b->x ? a->x : b->x, y1 = a->y < b->y ? a->y : b->y;
	int32_t x2 = a->x + a->w > b->x + b->w ? a->x + a->w : b->x + b->w;
	int32_t y2 = a->y + a->h > b->y + b->h ? a->y + a->h : b->y + b->h;
	*a = (struct box){ x1, y1, x2 - x1, y2 - y1 };
}

/* a is cut to [0, w) x [0, h); empty (all 0) when nothing is left. */
static inline void box_clip(struct box *a, int32_t w, int32_t h)
{
	int32_t x1 = a->x < 0 ? 0 : a->x, y1 = a->y < 0 ? 0 : a->y;
	int32_t x2 = a->x + a->w > w ? w : a->x + a->w;
	int32_t y2 = a->y + a->h > h ? h : a->y + a->h;
	if (x2 <= x1 || y2 <= y1)
		*a = (struct box){ 0 };
	else
		*a = (struct box){ x1, y1, x2 - x1, y2 - y1 };
}

#endif
