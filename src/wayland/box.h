/* SPDX-License-Identifier: MIT */
/* A rectangle in integer coordinates, x, y, width, height; empty when w or h is 0 or
 * less. The compositor's damage is kept in these (wl_surface.damage is given this way);
 * the arithmetic is the library's one rectangle module (src/rect.h). */
#ifndef DISPMAN_WAYLAND_BOX_H
#define DISPMAN_WAYLAND_BOX_H

#include <stdint.h>

#include "../rect.h"

struct box {
	int32_t x, y, w, h;
};

/* b as a rect, its far edges saturated at INT32_MAX (a client's damage may be anywhere) */
static inline struct rect box_rect(const struct box *b)
{
	return (struct rect){ b->x, b->y, rect_clamp((int64_t)b->x + b->w, INT32_MIN, INT32_MAX),
		rect_clamp((int64_t)b->y + b->h, INT32_MIN, INT32_MAX) };
}

static inline struct box rect_box(const struct rect *r)
{
	if (rect_empty(r))
		return (struct box){ 0 };
	/* from INT32_MIN to INT32_MAX does not fit a width: cut to INT32_MAX (found by
	 * tests/fuzz: wl_surface.damage at x = INT32_MAX overflowed the old sum) */
	return (struct box){ r->x0, r->y0, rect_clamp((int64_t)r->x1 - r->x0, 0, INT32_MAX),
		rect_clamp((int64_t)r->y1 - r->y0, 0, INT32_MAX) };
}

/* a becomes the smallest box that holds a and b (an empty b changes nothing). */
static inline void box_union(struct box *a, const struct box *b)
{
	if (b->w <= 0 || b->h <= 0)
		return;
	if (a->w <= 0 || a->h <= 0) {
		*a = *b;
		return;
	}
	struct rect ra = box_rect(a), rb = box_rect(b);
	struct rect u = rect_union(&ra, &rb);
	*a = rect_box(&u);
}

/* a is cut to [0, w) x [0, h); empty (all 0) when nothing is left. */
static inline void box_clip(struct box *a, int32_t w, int32_t h)
{
	if (a->w <= 0 || a->h <= 0) {
		*a = (struct box){ 0 };
		return;
	}
	struct rect r = rect_clip(a->x, a->y, (uint32_t)a->w, (uint32_t)a->h, w, h);
	*a = rect_box(&r);
}

#endif
