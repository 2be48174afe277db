/* SPDX-License-Identifier: MIT */
/*
 * The one rectangle of the library and the compositor: a screen rectangle, half-open,
 * [x0, x1) x [y0, y1), with its clipping, intersection and union. Every clipper (the
 * planner's input, the CPU compositor, the request builder, the Wayland damage) goes
 * through these (the source of a plane is cut with its destination by transform_clip(),
 * transform.c, which turns it as the plane does). No libdrm, no device; unit-tested alone (tests/unit/test-rect.c).
 */
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

static inline int32_t rect_clamp(int64_t v, int32_t lo, int32_t hi)
{
	return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

/*
 * The rectangle at (x, y) of w x h, cut to the screen [0, sw) x [0, sh) (sw, sh >= 0).
 * Its corners are always inside the screen: nothing left gives an empty rectangle there
 * (x0 == x1 or y0 == y1). Computed in 64 bits: no overflow for any input.
 */
static inline struct rect rect_clip(int32_t x, int32_t y, uint32_t w, uint32_t h, int32_t sw,
	int32_t sh)
{
	struct rect r;
	int64_t x1 = (int64_t)x + w, y1 = (int64_t)y + h;
	if (x >= 0 && y >= 0 && x1 <= sw && y1 <= sh) /* inside: as it is (the usual case) */
		return (struct rect){ x, y, (int32_t)x1, (int32_t)y1 };
	r.x0 = rect_clamp(x, 0, sw);
	r.y0 = rect_clamp(y, 0, sh);
	r.x1 = rect_clamp(x1, r.x0, sw);
	r.y1 = rect_clamp(y1, r.y0, sh);
	return r;
}

/* The part both hold; empty (x0 == x1 or y0 == y1) when they do not overlap. */
static inline struct rect rect_intersect(const struct rect *a, const struct rect *b)
{
	struct rect r = {
		a->x0 > b->x0 ? a->x0 : b->x0, a->y0 > b->y0 ? a->y0 : b->y0,
		a->x1 < b->x1 ? a->x1 : b->x1, a->y1 < b->y1 ? a->y1 : b->y1,
	};
	if (r.x1 < r.x0)
		r.x1 = r.x0;
	if (r.y1 < r.y0)
		r.y1 = r.y0;
	return r;
}

/* The smallest rectangle that holds both; an empty one adds nothing. */
static inline struct rect rect_union(const struct rect *a, const struct rect *b)
{
	if (rect_empty(b))
		return *a;
	if (rect_empty(a))
		return *b;
	return (struct rect){
		a->x0 < b->x0 ? a->x0 : b->x0, a->y0 < b->y0 ? a->y0 : b->y0,
		a->x1 > b->x1 ? a->x1 : b->x1, a->y1 > b->y1 ? a->y1 : b->y1,
	};
}

#endif
