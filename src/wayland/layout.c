/* SPDX-License-Identifier: MIT */
/* The outputs' layout as pure functions (layout.h). */
#include "layout.h"

void layout_arrange(enum dispman_wayland_layout layout, struct box *boxes, size_t n)
{
	int64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		boxes[i].y = 0;
		if (layout == DISPMAN_WAYLAND_LAYOUT_MIRROR) {
			boxes[i].x = 0;
			continue;
		}
		boxes[i].x = x > INT32_MAX ? INT32_MAX : (int32_t)x;
		if (boxes[i].w > 0)
			x += boxes[i].w;
	}
}

static bool in_box(const struct box *b, double x, double y)
{
	return b->w > 0 && b->h > 0 && x >= b->x && y >= b->y && x < (double)b->x + b->w &&
		y < (double)b->y + b->h;
}

int layout_box_at(const struct box *boxes, size_t n, double x, double y)
{
	for (size_t i = 0; i < n; i++)
		if (in_box(&boxes[i], x, y))
			return (int)i;
	return -1;
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int layout_clamp(const struct box *boxes, size_t n, double *x, double *y)
{
	int at = layout_box_at(boxes, n, *x, *y);
	if (at >= 0)
		return at;
	int best = -1;
	double best_d = 0, bx = 0, by = 0;
	for (size_t i = 0; i < n; i++) {
		const struct box *b = &boxes[i];
		if (b->w <= 0 || b->h <= 0)
			continue;
		double cx = clampd(*x, b->x, (double)b->x + b->w - 1);
		double cy = clampd(*y, b->y, (double)b->y + b->h - 1);
		double d = (cx - *x) * (cx - *x) + (cy - *y) * (cy - *y);
		if (best < 0 || d < best_d) {
			best = (int)i;
			best_d = d;
			bx = cx;
			by = cy;
		}
	}
	if (best >= 0) {
		*x = bx;
		*y = by;
	}
	return best;
}
