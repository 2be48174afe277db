/* SPDX-License-Identifier: MIT */
/*
 * The pointer area of the input module (input-private.h): the pointer position kept within
 * an output's pixels, and the cursor's origin from its hot spot. Pure (no device, no
 * libinput): built with or without libinput, and tested alone by tests/unit/test-input.c.
 */
#include "input-private.h"
#include "transform.h"

double input_clamp(double v, uint32_t size)
{
	if (size == 0 || !(v > 0.0)) /* also maps NaN to 0 */
		return 0.0;
	double max = (double)(size - 1);
	return v > max ? max : v;
}

bool pointer_area_resize(struct pointer_area *p, uint32_t w, uint32_t h)
{
	if (p->w == w && p->h == h)
		return false;
	bool first = p->w == 0 || p->h == 0;
	p->w = w;
	p->h = h;
	if (first) {
		p->x = (double)(w / 2);
		p->y = (double)(h / 2);
	}
	p->x = input_clamp(p->x, w);
	p->y = input_clamp(p->y, h);
	return true;
}

void pointer_area_move(struct pointer_area *p, double dx, double dy)
{
	p->x = input_clamp(p->x + dx, p->w);
	p->y = input_clamp(p->y + dy, p->h);
}

void pointer_area_warp(struct pointer_area *p, double x, double y)
{
	p->x = input_clamp(x, p->w);
	p->y = input_clamp(y, p->h);
}

void pointer_area_cursor_origin(const struct pointer_area *p, int hot_x, int hot_y,
	int32_t *x, int32_t *y)
{
	/* Positions are in [0, size - 1], so truncation is a floor. */
	*x = (int32_t)p->x - hot_x;
	*y = (int32_t)p->y - hot_y;
}

void pointer_area_screen_size(const struct pointer_area *p, enum dispman_transform t,
	uint32_t *w, uint32_t *h)
{
	bool swap = transform_swaps(t);
	*w = swap ? p->h : p->w;
	*h = swap ? p->w : p->h;
}

void pointer_area_from_screen(const struct pointer_area *p, enum dispman_transform t,
	double sx, double sy, double *x, double *y)
{
	uint32_t sw, sh;
	pointer_area_screen_size(p, t, &sw, &sh);
	double vx, vy;
	transform_point(transform_invert(t), sx, sy, sw, sh, &vx, &vy);
	*x = input_clamp(vx, p->w);
	*y = input_clamp(vy, p->h);
}
