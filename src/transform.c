/* SPDX-License-Identifier: MIT */
/*
 * Transforms as wl_output.transform defines them (weston's and wlroots' convention): the
 * point (x, y) of an upright w x h picture goes to
 *   NORMAL (x, y)          90 (h - y, x)          180 (w - x, h - y)     270 (y, w - x)
 *   FLIPPED (w - x, y)     FLIPPED_90 (h - y, w - x)
 *   FLIPPED_180 (x, h - y) FLIPPED_270 (y, x)
 * A layer's rectangles on a transformed output are turned with these (transform_geometry())
 * and the plane's "rotation" value (transform_drm_rotation()) or the CPU compositor's
 * sampling (transform_source_matrix()) turns its pixels. Pure: no device, no libdrm.
 */
#include "transform.h"

#include <string.h>

#include "rect.h"

bool transform_valid(int t)
{
	return t >= DISPMAN_TRANSFORM_NORMAL && t <= DISPMAN_TRANSFORM_FLIPPED_270;
}

bool transform_swaps(enum dispman_transform t)
{
	return ((unsigned)t & 1u) != 0;
}

void transform_point(enum dispman_transform t, double x, double y, double w, double h,
	double *ox, double *oy)
{
	double rx, ry;
	switch (t) {
	case DISPMAN_TRANSFORM_90: rx = h - y; ry = x; break;
	case DISPMAN_TRANSFORM_180: rx = w - x; ry = h - y; break;
	case DISPMAN_TRANSFORM_270: rx = y; ry = w - x; break;
	case DISPMAN_TRANSFORM_FLIPPED: rx = w - x; ry = y; break;
	case DISPMAN_TRANSFORM_FLIPPED_90: rx = h - y; ry = w - x; break;
	case DISPMAN_TRANSFORM_FLIPPED_180: rx = x; ry = h - y; break;
	case DISPMAN_TRANSFORM_FLIPPED_270: rx = y; ry = x; break;
	default: rx = x; ry = y; break;
	}
	*ox = rx;
	*oy = ry;
}

static void point64(enum dispman_transform t, int64_t x, int64_t y, int64_t w, int64_t h,
	int64_t *ox, int64_t *oy)
{
	switch (t) {
	case DISPMAN_TRANSFORM_90: *ox = h - y; *oy = x; break;
	case DISPMAN_TRANSFORM_180: *ox = w - x; *oy = h - y; break;
	case DISPMAN_TRANSFORM_270: *ox = y; *oy = w - x; break;
	case DISPMAN_TRANSFORM_FLIPPED: *ox = w - x; *oy = y; break;
	case DISPMAN_TRANSFORM_FLIPPED_90: *ox = h - y; *oy = w - x; break;
	case DISPMAN_TRANSFORM_FLIPPED_180: *ox = x; *oy = h - y; break;
	case DISPMAN_TRANSFORM_FLIPPED_270: *ox = y; *oy = x; break;
	default: *ox = x; *oy = y; break;
	}
}

void transform_box(enum dispman_transform t, const int64_t b[4], int64_t w, int64_t h,
	int64_t out[4])
{
	int64_t x0, y0, x1, y1;
	point64(t, b[0], b[1], w, h, &x0, &y0);
	point64(t, b[0] + b[2], b[1] + b[3], w, h, &x1, &y1);
	out[0] = x0 < x1 ? x0 : x1;
	out[1] = y0 < y1 ? y0 : y1;
	out[2] = x0 < x1 ? x1 - x0 : x0 - x1;
	out[3] = y0 < y1 ? y1 - y0 : y0 - y1;
}

enum dispman_transform transform_invert(enum dispman_transform t)
{
	if (t == DISPMAN_TRANSFORM_90)
		return DISPMAN_TRANSFORM_270;
	if (t == DISPMAN_TRANSFORM_270)
		return DISPMAN_TRANSFORM_90;
	return t; /* 180 and the mirrors undo themselves */
}

enum dispman_transform transform_compose(enum dispman_transform a, enum dispman_transform b)
{
	/* Where a then b take three points of an asymmetric picture names the result. */
	static const int64_t pts[3][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 } };
	const int64_t w = 10, h = 20;
	int64_t want[3][2];
	for (size_t i = 0; i < 3; i++) {
		int64_t x, y;
		point64(a, pts[i][0], pts[i][1], w, h, &x, &y);
		int64_t aw = transform_swaps(a) ? h : w, ah = transform_swaps(a) ? w : h;
		point64(b, x, y, aw, ah, &want[i][0], &want[i][1]);
	}
	for (int c = DISPMAN_TRANSFORM_NORMAL; c <= DISPMAN_TRANSFORM_FLIPPED_270; c++) {
		bool same = true;
		for (size_t i = 0; i < 3 && same; i++) {
			int64_t x, y;
			point64((enum dispman_transform)c, pts[i][0], pts[i][1], w, h, &x, &y);
			same = x == want[i][0] && y == want[i][1];
		}
		if (same)
			return (enum dispman_transform)c;
	}
	return DISPMAN_TRANSFORM_NORMAL; /* not reached: the eight form a group */
}

uint32_t transform_drm_rotation(enum dispman_transform t)
{
	/* wl_output's 90 turns the picture clockwise, the kernel's rotate-90 counter-clockwise */
	static const uint32_t rot[4] = { TRANSFORM_DRM_ROTATE_0, TRANSFORM_DRM_ROTATE_270,
		TRANSFORM_DRM_ROTATE_180, TRANSFORM_DRM_ROTATE_90 };
	if (!transform_valid((int)t))
		return TRANSFORM_DRM_ROTATE_0;
	uint32_t v = rot[(unsigned)t & 3u];
	if ((unsigned)t & 4u)
		v |= TRANSFORM_DRM_REFLECT_X;
	return v;
}

static const char *const names[] = { "normal", "90", "180", "270", "flipped", "flipped-90",
	"flipped-180", "flipped-270" };

const char *transform_name(int t)
{
	return transform_valid(t) ? names[t] : NULL;
}

int transform_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < 8; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	if (strcmp(name, "0") == 0)
		return DISPMAN_TRANSFORM_NORMAL;
	if (strcmp(name, "flipped-0") == 0)
		return DISPMAN_TRANSFORM_FLIPPED;
	return -1;
}

void transform_geometry(enum dispman_transform out_t, enum dispman_transform buf_t,
	int32_t view_w, int32_t view_h, struct transform_geom *g)
{
	int64_t d[4] = { g->dst_x, g->dst_y, g->dst_w, g->dst_h }, m[4];
	transform_box(out_t, d, view_w, view_h, m);
	g->dst_x = (int32_t)m[0];
	g->dst_y = (int32_t)m[1];
	g->dst_w = (uint32_t)m[2];
	g->dst_h = (uint32_t)m[3];
	g->t = transform_compose(transform_invert(buf_t), out_t);
}

bool transform_clip(struct transform_geom *g, int32_t w, int32_t h)
{
	int64_t x0 = g->dst_x, y0 = g->dst_y;
	int64_t x1 = x0 + g->dst_w, y1 = y0 + g->dst_h;
	struct rect c = rect_clip(g->dst_x, g->dst_y, g->dst_w, g->dst_h, w, h);
	if (rect_empty(&c) || !g->dst_w || !g->dst_h)
		return false;
	int64_t cx0 = c.x0, cy0 = c.y0, cx1 = c.x1, cy1 = c.y1;
	if (cx0 == x0 && cy0 == y0 && cx1 == x1 && cy1 == y1)
		return true;
	/* The source as the plane turns it (a box of the turned source rectangle, sw x sh
	 * turned), cut as the destination is, and turned back. */
	bool sw_ = transform_swaps(g->t);
	int64_t tw = sw_ ? g->src_h : g->src_w, th = sw_ ? g->src_w : g->src_h;
	int64_t s[4] = { (cx0 - x0) * tw / g->dst_w, (cy0 - y0) * th / g->dst_h,
		(cx1 - cx0) * tw / g->dst_w, (cy1 - cy0) * th / g->dst_h }, o[4];
	transform_box(transform_invert(g->t), s, tw, th, o);
	g->src_x += (uint32_t)o[0];
	g->src_y += (uint32_t)o[1];
	g->src_w = (uint32_t)o[2];
	g->src_h = (uint32_t)o[3];
	g->dst_x = (int32_t)cx0;
	g->dst_y = (int32_t)cy0;
	g->dst_w = (uint32_t)(cx1 - cx0);
	g->dst_h = (uint32_t)(cy1 - cy0);
	return true;
}

void transform_source_matrix(const struct transform_geom *g, double m[6])
{
	/* destination (u, v) -> the turned source (scaled) -> the source, turned back */
	bool sw_ = transform_swaps(g->t);
	double tw = (sw_ ? g->src_h : g->src_w) / 65536.0;
	double th = (sw_ ? g->src_w : g->src_h) / 65536.0;
	double kx = g->dst_w ? tw / g->dst_w : 0, ky = g->dst_h ? th / g->dst_h : 0;
	enum dispman_transform inv = transform_invert(g->t);
	double p[3][2];
	static const double uv[3][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 } };
	for (size_t i = 0; i < 3; i++)
		transform_point(inv, uv[i][0] * kx, uv[i][1] * ky, tw, th, &p[i][0], &p[i][1]);
	m[0] = p[1][0] - p[0][0];
	m[1] = p[2][0] - p[0][0];
	m[2] = p[0][0] + g->src_x / 65536.0;
	m[3] = p[1][1] - p[0][1];
	m[4] = p[2][1] - p[0][1];
	m[5] = p[0][1] + g->src_y / 65536.0;
}
