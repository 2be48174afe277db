/* SPDX-License-Identifier: MIT */
/*
 * The planner (plan.h): layers of one output onto its planes, a pure function.
 *
 * The visible layers, sorted bottom to top, are split into layers on planes and layers
 * drawn by the CPU into one composition buffer, which always sits on the primary plane,
 * below every other plane. So the stacking stays right when no composited layer above a
 * layer on a plane overlaps it; a layer that would have to sit between composited layers it
 * overlaps is composited too (reason STACKING).
 *
 * Each layer gets a bit mask of the planes that can show it (format, modifier, scaling,
 * plane alpha and blend mode, cursor size, primary covering the CRTC; zpos is checked when
 * placing). Layers are then added in priority order (buffers that change most often first,
 * then larger ones, then higher ones), each with the layers above it that it overlaps, and
 * kept when an order-preserving matching onto the planes still exists.
 */
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	const struct plan_layer *l;
	uint64_t compat;          /* bit j: plane j can show the layer */
	enum dispman_placement_reason reason; /* best reason why a plane could not */
	bool scaled;
	bool want;                /* the selection wants a plane for it */
	bool on, saved, grp;      /* scratch of place() and select_layers() */
	bool blocked;             /* needs a layer above it on a plane that cannot have one */
	int plane;                /* result: index into planes, -1: not on a plane */
	enum dispman_placement_reason why;
	unsigned zpos;
};

struct ctx {
	const struct plan_input *in;
	struct entry *e;          /* bottom to top */
	size_t n;
	size_t *order;            /* indices into e by priority */
	size_t cap;               /* most planes usable, primary included */
	bool comp;
	unsigned comp_zpos;
	size_t used;
};

bool plan_layer_scaled(const struct plan_layer *l)
{
	return l->src_w != (uint64_t)l->dst_w << 16 || l->src_h != (uint64_t)l->dst_h << 16;
}

static bool has_format(const struct plan_plane *p, uint32_t format)
{
	for (size_t i = 0; i < p->n_formats; i++)
		if (p->formats[i].format == format)
			return true;
	return false;
}

static bool has_format_modifier(const struct plan_plane *p, uint32_t format, uint64_t mod)
{
	for (size_t i = 0; i < p->n_formats; i++)
		if (p->formats[i].format == format &&
		    (mod == PLAN_MOD_ANY || p->formats[i].modifier == mod))
			return true;
	return false;
}

static int reason_rank(enum dispman_placement_reason r)
{
	switch (r) {
	case DISPMAN_REASON_FORMAT: return 1;
	case DISPMAN_REASON_MODIFIER: return 2;
	case DISPMAN_REASON_SCALING: return 3;
	case DISPMAN_REASON_ROTATION: return 4;
	case DISPMAN_REASON_ALPHA: return 5;
	case DISPMAN_REASON_NO_PLANE: return 6;
	default: return 0;
	}
}

static enum dispman_placement_reason check_scaling(const struct plan_input *in,
	const struct plan_layer *l)
{
	if (plan_layer_scaled(l)) {
		/* at most 16x either way, like the kernel's helpers allow at best */
		uint64_t w16 = (uint64_t)l->dst_w << 16, h16 = (uint64_t)l->dst_h << 16;
		if (in->limits.no_scaling || (uint64_t)l->src_w > w16 * 16 ||
		    (uint64_t)l->src_w * 16 < w16 || (uint64_t)l->src_h > h16 * 16 ||
		    (uint64_t)l->src_h * 16 < h16)
			return DISPMAN_REASON_SCALING;
	}
	return DISPMAN_REASON_NONE;
}

static enum dispman_placement_reason check_place(const struct plan_input *in,
	const struct plan_plane *p, bool primary, const struct plan_layer *l)
{
	if (p->type == PLAN_PLANE_CURSOR &&
	    (l->dst_w > in->limits.cursor_width || l->dst_h > in->limits.cursor_height))
		return DISPMAN_REASON_NO_PLANE;
	/* Many primary planes (vkms') must cover the CRTC exactly. */
	if (primary && (l->dst_x != 0 || l->dst_y != 0 || l->dst_w != (uint32_t)in->width ||
	    l->dst_h != (uint32_t)in->height))
		return DISPMAN_REASON_NO_PLANE;
	return DISPMAN_REASON_NONE;
}

enum dispman_placement_reason plan_check_plane(const struct plan_input *in,
	const struct plan_plane *p, bool primary, const struct plan_layer *l)
{
	/* no framebuffer: the kernel refused one for the format (composition only) */
	if (!l->has_fb || !has_format(p, l->format))
		return DISPMAN_REASON_FORMAT;
	if (!has_format_modifier(p, l->format, l->modifier))
		return DISPMAN_REASON_MODIFIER;
	enum dispman_placement_reason r = check_scaling(in, l);
	if (r != DISPMAN_REASON_NONE)
		return r;
	/* turned by the plane: every bit of the rotation value it needs (0: not turned) */
	if (l->rotation && (l->rotation & ~p->rotations))
		return DISPMAN_REASON_ROTATION;
	if (l->alpha != 0xffff && !p->has_alpha)
		return DISPMAN_REASON_ALPHA;
	if (l->has_alpha && l->blend != DISPMAN_BLEND_PREMULTIPLIED &&
	    !(p->has_blend_mode && (unsigned)l->blend < 3 && p->blend[l->blend]))
		return DISPMAN_REASON_ALPHA;
	return check_place(in, p, primary, l);
}

enum dispman_placement_reason plan_check_geometry(const struct plan_input *in,
	const struct plan_plane *p, bool primary, const struct plan_layer *l)
{
	enum dispman_placement_reason r = check_scaling(in, l);
	return r != DISPMAN_REASON_NONE ? r : check_place(in, p, primary, l);
}

static void compute_compat(struct ctx *c)
{
	const struct plan_input *in = c->in;
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->e[i];
		e->compat = 0;
		e->reason = DISPMAN_REASON_NO_PLANE;
		int best = 0;
		for (size_t j = 0; j < in->n_planes; j++) {
			enum dispman_placement_reason r = plan_check_plane(in, &in->planes[j], j == 0,
				e->l);
			if (r == DISPMAN_REASON_NONE) {
				e->compat |= 1ull << j;
			} else if (j == 0 && r == DISPMAN_REASON_NO_PLANE) {
				continue; /* the primary wants the whole screen: no news */
			} else if (reason_rank(r) > best) {
				best = reason_rank(r);
				e->reason = r;
			}
		}
	}
}

/* Whether plane p can come next above a plane of zpos last (first: the bottom); sets *z. */
static bool zpos_next(const struct plan_plane *p, bool first, unsigned last, unsigned *z)
{
	if (!p->has_zpos) {
		*z = first ? 0 : last + 1;
		return true;
	}
	uint64_t want = first ? p->zpos_min : (uint64_t)last + 1;
	if (want < p->zpos_min)
		want = p->zpos_min;
	if (want > p->zpos_max)
		return false;
	*z = (unsigned)want;
	return true;
}

/*
 * From e[].want and the bans, place layers: e[].plane, e[].why, c->comp, c->used. Layers
 * that cannot keep a plane (stacking, no plane left) lose it, repeatedly, until the result
 * is consistent.
 */
static void place(struct ctx *c)
{
	const struct plan_input *in = c->in;
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->e[i];
		e->on = e->want && !e->l->banned && e->compat;
		e->why = e->l->banned ? e->l->ban_reason : !e->compat ? e->reason :
			e->blocked ? DISPMAN_REASON_STACKING : DISPMAN_REASON_NO_PLANE;
	}
	for (;;) {
		for (size_t i = c->n; i-- > 0;) {
			if (!c->e[i].on)
				continue;
			for (size_t k = i + 1; k < c->n; k++) {
				if (!c->e[k].on && c->e[k].l->readable &&
				    rect_overlap(&c->e[i].l->vis, &c->e[k].l->vis)) {
					c->e[i].on = false;
					c->e[i].why = DISPMAN_REASON_STACKING;
					break;
				}
			}
		}
		bool comp = false;
		for (size_t i = 0; i < c->n; i++)
			comp = comp || (!c->e[i].on && c->e[i].l->readable);
		size_t first = 0;
		if (!comp && c->n > 0 && c->e[0].on && (c->e[0].compat & 1))
			first = 1; /* the bottom layer takes the primary plane */
		else
			comp = true; /* the composition buffer does (black when empty) */
		for (size_t i = 0; i < c->n; i++)
			c->e[i].plane = -1;
		unsigned z = 0;
		zpos_next(&in->planes[0], true, 0, &z);
		c->comp_zpos = z;
		if (first) {
			c->e[0].plane = 0;
			c->e[0].zpos = z;
		}
		size_t last = 0, used = 1;
		bool redo = false;
		for (size_t i = first; i < c->n && !redo; i++) {
			if (!c->e[i].on)
				continue;
			struct entry *e = &c->e[i];
			size_t j = last + 1;
			unsigned zz = 0;
			for (; j < in->n_planes && used < c->cap; j++)
				if ((e->compat & (1ull << j)) &&
				    zpos_next(&in->planes[j], false, z, &zz))
					break;
			if (j >= in->n_planes || used >= c->cap) {
				c->e[i].on = false;
				e->why = DISPMAN_REASON_NO_PLANE;
				redo = true;
				break;
			}
			e->plane = (int)j;
			e->zpos = zz;
			z = zz;
			last = j;
			used++;
		}
		if (redo)
			continue;
		c->comp = comp;
		c->used = used;
		return;
	}
}

static size_t count_placed(const struct ctx *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		n += c->e[i].plane >= 0;
	return n;
}

/* Whether adding e[idx] and what it needs above it keeps a consistent plan with more
 * layers on planes and no wanted layer of before lost; leaves the plan placed either way. */
static bool try_add(struct ctx *c, size_t idx)
{
	struct entry *e = &c->e[idx];
	for (size_t i = 0; i < c->n; i++)
		c->e[i].saved = c->e[i].want;
	size_t before = count_placed(c);
	/* the layer and every layer above it that it overlaps, transitively */
	bool ok = true;
	e->want = true;
	for (size_t i = 0; i < c->n; i++)
		c->e[i].grp = false;
	e->grp = true;
	for (size_t k = idx + 1; k < c->n && ok; k++) {
		struct entry *a = &c->e[k];
		if (a->plane >= 0 || !a->l->readable)
			continue;
		bool hit = false;
		for (size_t m = idx; m < k && !hit; m++)
			hit = c->e[m].grp && rect_overlap(&c->e[m].l->vis, &a->l->vis);
		if (!hit)
			continue;
		a->grp = true;
		if (a->l->banned || !a->compat)
			ok = false;
		e->blocked = !ok;
		a->want = true;
	}
	if (ok) {
		place(c);
		ok = e->plane >= 0 && count_placed(c) > before;
		for (size_t i = 0; i < c->n && ok; i++)
			ok = !(c->e[i].saved && c->e[i].plane < 0 && c->e[i].want);
	}
	if (ok)
		return true;
	for (size_t i = 0; i < c->n; i++)
		c->e[i].want = c->e[i].saved;
	place(c);
	return false;
}

/* Grow the set of layers on planes in priority order, each with what it needs above it. */
static void select_layers(struct ctx *c)
{
	for (size_t i = 0; i < c->n; i++)
		c->e[i].want = c->e[i].blocked = false;
	place(c);
	bool changed = true;
	for (size_t pass = 0; changed && pass < c->n; pass++) {
		changed = false;
		for (size_t o = 0; o < c->n; o++) {
			struct entry *e = &c->e[c->order[o]];
			if (e->plane >= 0 || e->l->banned || !e->compat)
				continue;
			if (try_add(c, c->order[o]))
				changed = true;
		}
	}
}

/* qsort_r's comparison: the context is the ctx, so that plans run on several threads. */
static int cmp_priority(const void *a, const void *b, void *arg)
{
	const struct ctx *c = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	const struct plan_layer *la = c->e[ia].l, *lb = c->e[ib].l;
	if (la->needs_plane != lb->needs_plane) /* asked for a plane: first */
		return la->needs_plane ? -1 : 1;
	unsigned ra = la->update_rate, rb = lb->update_rate;
	/* rates within 1/8 of each other count as equal: then bigger, then higher */
	if (ra / 32 != rb / 32)
		return ra > rb ? -1 : 1;
	int64_t aa = (int64_t)(la->vis.x1 - la->vis.x0) * (la->vis.y1 - la->vis.y0);
	int64_t ab = (int64_t)(lb->vis.x1 - lb->vis.x0) * (lb->vis.y1 - lb->vis.y0);
	if (aa != ab)
		return aa > ab ? -1 : 1;
	return ia > ib ? -1 : ia < ib;
}

int plan_compute(const struct plan_input *in, struct plan_result *res)
{
	if (!in || !res || !in->planes || in->n_planes == 0 || in->n_planes > PLAN_MAX_PLANES ||
	    (in->n_layers && (!in->layers || !res->layers)))
		return -EINVAL;
	struct ctx c = {
		.in = in,
		.n = in->n_layers,
		.cap = in->limits.plane_cap ? in->limits.plane_cap : SIZE_MAX,
	};
	c.e = calloc(c.n ? c.n : 1, sizeof(*c.e));
	c.order = calloc(c.n ? c.n : 1, sizeof(*c.order));
	if (!c.e || !c.order) {
		free(c.e);
		free(c.order);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c.n; i++) {
		c.e[i].l = &in->layers[i];
		c.order[i] = i;
	}
	compute_compat(&c);
	qsort_r(c.order, c.n, sizeof(*c.order), cmp_priority, &c);
	select_layers(&c);
	/* every byte of the result defined, padding included: a caller may compare or copy
	 * results as bytes */
	memset(res->layers, 0, c.n * sizeof(*res->layers));
	for (size_t o = 0; o < c.n; o++)
		res->layers[c.order[o]].priority = o;
	for (size_t i = 0; i < c.n; i++) {
		const struct entry *e = &c.e[i];
		res->layers[i].plane = e->plane;
		res->layers[i].placeable = e->compat != 0;
		res->layers[i].zpos = e->plane >= 0 ? e->zpos : 0;
		/* a composited layer says why it is not on a plane; one not shown says why no
		 * plane can take it when none can */
		res->layers[i].reason = e->plane >= 0 ? DISPMAN_REASON_NONE :
			e->l->readable || e->compat ? e->why : e->reason;
	}
	res->comp = c.comp;
	res->comp_zpos = c.comp_zpos;
	res->used = c.used;
	free(c.e);
	free(c.order);
	return 0;
}
