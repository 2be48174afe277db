/* SPDX-License-Identifier: MIT */
/* Where xdg_positioner's rules put a popup (positioner.h). */
#include "positioner.h"

#include "xdg-shell-server-protocol.h"

static bool edge_left(uint32_t v)   /* anchor and gravity share their values */
{
	return v == XDG_POSITIONER_ANCHOR_LEFT || v == XDG_POSITIONER_ANCHOR_TOP_LEFT ||
		v == XDG_POSITIONER_ANCHOR_BOTTOM_LEFT;
}

static bool edge_right(uint32_t v)
{
	return v == XDG_POSITIONER_ANCHOR_RIGHT || v == XDG_POSITIONER_ANCHOR_TOP_RIGHT ||
		v == XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT;
}

static bool edge_top(uint32_t v)
{
	return v == XDG_POSITIONER_ANCHOR_TOP || v == XDG_POSITIONER_ANCHOR_TOP_LEFT ||
		v == XDG_POSITIONER_ANCHOR_TOP_RIGHT;
}

static bool edge_bottom(uint32_t v)
{
	return v == XDG_POSITIONER_ANCHOR_BOTTOM || v == XDG_POSITIONER_ANCHOR_BOTTOM_LEFT ||
		v == XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT;
}

/* The popup's position on one axis from the anchor rectangle (start a, length al), the
 * popup's length len, the anchor's and gravity's side (-1 start, 1 end, 0 centre). */
static int32_t axis_place(int32_t a, int32_t al, int anchor, int gravity, int32_t len,
	int32_t off)
{
	int32_t p = anchor < 0 ? a : anchor > 0 ? a + al : a + al / 2;
	p += gravity < 0 ? -len : gravity > 0 ? 0 : -len / 2;
	return p + off;
}

static int side_x(uint32_t v)
{
	return edge_left(v) ? -1 : edge_right(v) ? 1 : 0;
}

static int side_y(uint32_t v)
{
	return edge_top(v) ? -1 : edge_bottom(v) ? 1 : 0;
}

/*
 * One axis of the constraint adjustment, in the parent's geometry coordinates: *pos and
 * *len the popup's, [lo, hi) the output's; flip, slide and resize as the rules allow.
 */
static void axis_constrain(int32_t *pos, int32_t *len, int32_t lo, int32_t hi, int32_t a,
	int32_t al, int anchor, int gravity, int32_t off, bool flip, bool slide, bool resize)
{
	if (*pos >= lo && *pos + *len <= hi)
		return;
	if (flip) {
		int32_t p = axis_place(a, al, -anchor, -gravity, *len, -off);
		if (p >= lo && p + *len <= hi) {
			*pos = p;
			return;
		}
	}
	if (slide) {
		if (*pos + *len > hi)
			*pos = hi - *len;
		if (*pos < lo)
			*pos = lo;      /* the start wins when both ends are out */
		if (*pos + *len <= hi)
			return;
	}
	if (resize) {
		int32_t s = *pos < lo ? lo : *pos, e = *pos + *len > hi ? hi : *pos + *len;
		if (e > s) {
			*pos = s;
			*len = e - s;
		}
	}
}

struct box positioner_place(const struct positioner_rules *r, const struct box *bounds)
{
	const struct box *a = &r->anchor_rect;
	int32_t w = r->w, h = r->h;
	int32_t px = axis_place(a->x, a->w, side_x(r->anchor), side_x(r->gravity), w, r->off_x);
	int32_t py = axis_place(a->y, a->h, side_y(r->anchor), side_y(r->gravity), h, r->off_y);
	uint32_t c = r->constraints;
	axis_constrain(&px, &w, bounds->x, bounds->x + bounds->w, a->x, a->w, side_x(r->anchor),
		side_x(r->gravity), r->off_x, c & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X,
		c & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X,
		c & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X);
	axis_constrain(&py, &h, bounds->y, bounds->y + bounds->h, a->y, a->h, side_y(r->anchor),
		side_y(r->gravity), r->off_y, c & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y,
		c & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y,
		c & XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y);
	return (struct box){ px, py, w, h };
}
