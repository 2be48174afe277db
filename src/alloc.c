/* SPDX-License-Identifier: MIT */
/*
 * Plane assignment and the composition fallback (doc/allocation.md).
 *
 * Per output, the visible layers sorted bottom to top are split into layers on planes and
 * layers drawn by the CPU into one composition buffer, which always sits on the primary
 * plane, below every other plane. So the stacking stays right when no composited layer
 * above a layer on a plane overlaps it; a layer that would have to sit between composited
 * layers it overlaps is composited too (reason STACKING).
 *
 * Which layers get planes: each layer gets a bit mask of the planes that can show it
 * (format, modifier, possible CRTCs, scaling, plane alpha and blend mode, cursor size,
 * primary covering the CRTC, zpos). Layers are then added in priority order (buffers that
 * change most often first, then larger ones, then higher ones), each with the layers above
 * it that it overlaps, and kept when an order-preserving matching onto the planes still
 * exists. The result is checked with one TEST_ONLY commit; when the kernel says no, the
 * search learns (no scaling on this device, at most N planes after ENOSPC) or drops the
 * lowest-priority layer and tests again, within a budget of tests and time. An unchanged
 * shape reuses the last accepted assignment without any TEST_ONLY commit.
 */
#include "private.h"

#include <drm_fourcc.h>
#include <stdlib.h>
#include <time.h>

#define DEFAULT_MAX_TESTS 16
#define DEFAULT_MAX_USEC 16000
#define MAX_PLANES 64

struct rect {
	int32_t x0, y0, x1, y1;
};

struct entry {
	struct dispman_layer *layer;
	struct rect vis;          /* destination clipped to the screen */
	uint64_t compat;          /* bit j: plane j of ctx.planes can show the layer */
	enum dispman_placement_reason reason; /* best reason why a plane could not */
	bool scaled;
	bool readable;            /* the CPU compositor can draw it */
	bool banned;              /* refused by the kernel or out of budget: composite it */
	enum dispman_placement_reason ban_reason;
	bool want;                /* the selection wants a plane for it */
	bool on, saved, grp;      /* scratch of plan() and select_layers() */
	bool blocked;             /* needs a layer above it on a plane that cannot have one */
	/* result of plan() */
	int plane;                /* index into ctx.planes, -1: not on a plane */
	enum dispman_placement_reason why;
	unsigned zpos;
};

struct ctx {
	struct dispman_device *dev;
	struct dispman_output *out;
	struct entry *e;          /* sorted bottom to top */
	size_t n;
	size_t *order;            /* indices into e by priority */
	struct plane *planes[MAX_PLANES]; /* [0] the primary, then by stacking order */
	size_t n_planes;
	size_t cap;               /* most planes usable, primary included */
	int32_t width, height;
	bool comp;                /* result of plan(): composition buffer on the primary */
	size_t used;              /* result of plan(): planes used, primary included */
};

int dispman_device_set_alloc_budget(struct dispman_device *dev, unsigned max_tests,
	unsigned max_usec)
{
	if (!dev) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: device is NULL", __func__);
		return -EINVAL;
	}
	dev->alloc_max_tests = max_tests;
	dev->alloc_max_usec = max_usec;
	return 0;
}

static int cmp_layers(const void *a, const void *b)
{
	const struct dispman_layer *la = *(struct dispman_layer *const *)a;
	const struct dispman_layer *lb = *(struct dispman_layer *const *)b;
	if (la->z != lb->z)
		return la->z < lb->z ? -1 : 1;
	return la->serial < lb->serial ? -1 : la->serial > lb->serial;
}

static bool overlap(const struct rect *a, const struct rect *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static uint64_t now_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void read_zpos(struct dispman_device *dev, struct plane *p)
{
	if (p->zpos_read)
		return;
	p->zpos_read = true;
	p->zpos_min = p->zpos_max = 0;
	if (!p->props.zpos)
		return;
	drmModePropertyRes *prop = drmModeGetProperty(dev->fd, p->props.zpos);
	if (prop && (prop->flags & DRM_MODE_PROP_RANGE) && prop->count_values >= 2) {
		p->zpos_min = prop->values[0];
		p->zpos_max = prop->values[1];
	}
	drmModeFreeProperty(prop);
	uint64_t cur;
	if (!p->zpos_mutable && props_get_value(dev->fd, p->id, DRM_MODE_OBJECT_PLANE, "zpos",
			&cur) == 0)
		p->zpos_min = p->zpos_max = cur;
}

/* Stacking key of a plane: its zpos when it has one, else primary < overlays < cursor. */
static uint64_t plane_key(const struct plane *p, size_t index)
{
	if (p->props.zpos)
		return (p->zpos_min << 16) | index;
	uint64_t rank = p->type == DRM_PLANE_TYPE_PRIMARY ? 0 :
		p->type == DRM_PLANE_TYPE_CURSOR ? 2 : 1;
	return (rank << 32) | index;
}

static size_t collect_planes(struct ctx *c)
{
	struct dispman_device *dev = c->dev;
	struct crtc *crtc = c->out->crtc;
	uint32_t bit = 1u << crtc->index;
	struct plane *primary = NULL;
	uint64_t keys[MAX_PLANES];
	size_t n = 1;
	for (size_t i = 0; i < dev->n_planes; i++) {
		struct plane *p = &dev->planes[i];
		if (!(p->possible_crtcs & bit) || p->pending_output)
			continue;
		read_zpos(dev, p);
		if (p->type == DRM_PLANE_TYPE_PRIMARY) {
			if (!primary || p->cur_crtc_id == crtc->id)
				primary = p;
			continue;
		}
		if (n >= MAX_PLANES)
			continue;
		/* insertion by stacking key */
		uint64_t key = plane_key(p, i);
		size_t j = n;
		while (j > 1 && keys[j - 1] > key) {
			keys[j] = keys[j - 1];
			c->planes[j] = c->planes[j - 1];
			j--;
		}
		keys[j] = key;
		c->planes[j] = p;
		n++;
	}
	if (!primary)
		return 0;
	c->planes[0] = primary;
	return n;
}

static void clip_rect(const struct dispman_layer *layer, int32_t w, int32_t h, struct rect *r)
{
	int32_t dx, dy;
	uint32_t dw, dh;
	layer_get_dst(layer, &dx, &dy, &dw, &dh);
	int64_t x1 = (int64_t)dx + dw, y1 = (int64_t)dy + dh;
	r->x0 = dx < 0 ? 0 : dx > w ? w : dx;
	r->y0 = dy < 0 ? 0 : dy > h ? h : dy;
	r->x1 = (int32_t)(x1 < r->x0 ? r->x0 : x1 > w ? w : x1);
	r->y1 = (int32_t)(y1 < r->y0 ? r->y0 : y1 > h ? h : y1);
}

/*
 * Rectangles nothing can show: a source not inside its buffer (the kernel refuses it with
 * ENOSPC and the compositor would sample beyond the buffer), a source under one pixel (the
 * compositor's 16.16 scale would be 0), a destination beyond 16-bit coordinates (the
 * compositor's and most drivers' range). Logs what was wrong.
 */
static enum dispman_placement_reason check_geometry(const struct dispman_output *out,
	const struct dispman_layer *l)
{
	uint32_t sx, sy, sw, sh, dw, dh;
	int32_t dx, dy;
	layer_get_src(l, &sx, &sy, &sw, &sh);
	layer_get_dst(l, &dx, &dy, &dw, &dh);
	uint64_t bw = (uint64_t)l->buf->width << 16, bh = (uint64_t)l->buf->height << 16;
	if (sw < 0x10000 || sh < 0x10000 || (uint64_t)sx + sw > bw || (uint64_t)sy + sh > bh) {
		dispman_log(DISPMAN_LOG_WARNING, "%s: layer z=%d not shown: source %.2fx%.2f at "
			"(%.2f, %.2f) is not inside its %ux%u buffer (or under one pixel)", out->name,
			l->z, sw / 65536.0, sh / 65536.0, sx / 65536.0, sy / 65536.0, l->buf->width,
			l->buf->height);
		return DISPMAN_REASON_SOURCE;
	}
	int64_t x1 = (int64_t)dx + dw, y1 = (int64_t)dy + dh;
	if (dw > DISPMAN_MAX_COORD || dh > DISPMAN_MAX_COORD || dx < -DISPMAN_MAX_COORD ||
	    dy < -DISPMAN_MAX_COORD || x1 > DISPMAN_MAX_COORD || y1 > DISPMAN_MAX_COORD) {
		dispman_log(DISPMAN_LOG_WARNING, "%s: layer z=%d not shown: destination %ux%u at "
			"(%d, %d) reaches beyond %d pixels", out->name, l->z, dw, dh, dx, dy,
			DISPMAN_MAX_COORD);
		return DISPMAN_REASON_DESTINATION;
	}
	return DISPMAN_REASON_NONE;
}

static int reason_rank(enum dispman_placement_reason r)
{
	switch (r) {
	case DISPMAN_REASON_FORMAT: return 1;
	case DISPMAN_REASON_MODIFIER: return 2;
	case DISPMAN_REASON_SCALING: return 3;
	case DISPMAN_REASON_ALPHA: return 4;
	case DISPMAN_REASON_NO_PLANE: return 5;
	default: return 0;
	}
}

static enum dispman_placement_reason check_plane(const struct ctx *c, const struct plane *plane,
	bool primary, const struct entry *e)
{
	const struct dispman_layer *layer = e->layer;
	const struct dispman_buffer *buf = layer->buf;
	/* no framebuffer: the kernel refused one for the format (composition only) */
	if (!buf->fb_id || !plane_has_format(plane, buf->format))
		return DISPMAN_REASON_FORMAT;
	if (!plane_has_format_modifier(plane, buf->format, buf->modifier))
		return DISPMAN_REASON_MODIFIER;
	uint32_t sx, sy, sw, sh, dw, dh;
	int32_t dx, dy;
	layer_get_src(layer, &sx, &sy, &sw, &sh);
	layer_get_dst(layer, &dx, &dy, &dw, &dh);
	if (e->scaled) {
		/* at most 16x either way, like the kernel's helpers allow at best */
		uint64_t w16 = (uint64_t)dw << 16, h16 = (uint64_t)dh << 16;
		if (c->dev->alloc_no_scaling || (uint64_t)sw > w16 * 16 || (uint64_t)sw * 16 < w16 ||
		    (uint64_t)sh > h16 * 16 || (uint64_t)sh * 16 < h16)
			return DISPMAN_REASON_SCALING;
	}
	const struct format_info *fi = format_info_find(buf->format);
	bool has_alpha = fi && fi->has_alpha;
	if (layer->alpha != 0xffff && !plane->props.alpha)
		return DISPMAN_REASON_ALPHA;
	if (has_alpha && layer->blend != DISPMAN_BLEND_PREMULTIPLIED &&
	    !(plane->props.pixel_blend_mode && plane->has_blend[layer->blend]))
		return DISPMAN_REASON_ALPHA;
	if (plane->type == DRM_PLANE_TYPE_CURSOR &&
	    (dw > c->dev->limits.cursor_width || dh > c->dev->limits.cursor_height))
		return DISPMAN_REASON_NO_PLANE;
	/* Many primary planes (vkms') must cover the CRTC exactly. */
	if (primary && (dx != 0 || dy != 0 || dw != (uint32_t)c->width ||
	    dh != (uint32_t)c->height))
		return DISPMAN_REASON_NO_PLANE;
	return DISPMAN_REASON_NONE;
}

static void compute_compat(struct ctx *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->e[i];
		e->compat = 0;
		e->reason = DISPMAN_REASON_NO_PLANE;
		int best = 0;
		for (size_t j = 0; j < c->n_planes; j++) {
			enum dispman_placement_reason r = check_plane(c, c->planes[j], j == 0, e);
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

/* Whether plane j can come next above a plane of zpos *last; sets *z. */
static bool zpos_next(const struct plane *p, bool first, unsigned last, unsigned *z)
{
	if (!p->props.zpos) {
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
 * From e[].want and e[].banned, place layers: e[].plane, e[].why, c->comp, c->used.
 * Layers that cannot keep a plane (stacking, no plane left) lose it, repeatedly, until
 * the result is consistent.
 */
static void plan(struct ctx *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->e[i];
		c->e[i].on = e->want && !e->banned && e->compat;
		e->why = e->banned ? e->ban_reason : !e->compat ? e->reason :
			e->blocked ? DISPMAN_REASON_STACKING : DISPMAN_REASON_NO_PLANE;
	}
	for (;;) {
		for (size_t i = c->n; i-- > 0;) {
			if (!c->e[i].on)
				continue;
			for (size_t k = i + 1; k < c->n; k++) {
				if (!c->e[k].on && c->e[k].readable && overlap(&c->e[i].vis, &c->e[k].vis)) {
					c->e[i].on = false;
					c->e[i].why = DISPMAN_REASON_STACKING;
					break;
				}
			}
		}
		bool comp = false;
		for (size_t i = 0; i < c->n; i++)
			comp = comp || (!c->e[i].on && c->e[i].readable);
		size_t first = 0;
		if (!comp && c->n > 0 && c->e[0].on && (c->e[0].compat & 1))
			first = 1; /* the bottom layer takes the primary plane */
		else
			comp = true; /* the composition buffer does (black when empty) */
		for (size_t i = 0; i < c->n; i++)
			c->e[i].plane = -1;
		unsigned z = 0;
		zpos_next(c->planes[0], true, 0, &z);
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
			for (; j < c->n_planes && used < c->cap; j++)
				if ((e->compat & (1ull << j)) && zpos_next(c->planes[j], false, z, &zz))
					break;
			if (j >= c->n_planes || used >= c->cap) {
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

/* Grow the set of layers on planes in priority order, each with what it needs above it. */
static void select_layers(struct ctx *c)
{
	for (size_t i = 0; i < c->n; i++)
		c->e[i].want = c->e[i].blocked = false;
	plan(c);
	bool changed = true;
	for (size_t pass = 0; changed && pass < c->n; pass++) {
		changed = false;
		for (size_t o = 0; o < c->n; o++) {
			size_t idx = c->order[o];
			struct entry *e = &c->e[idx];
			if (e->plane >= 0 || e->banned || !e->compat)
				continue;
			for (size_t i = 0; i < c->n; i++)
				c->e[i].saved = c->e[i].want;
			size_t before = count_placed(c);
			/* the layer and every layer above it that it overlaps, transitively */
			bool ok = true;
			e->want = true;
			for (size_t i = 0; i < c->n; i++)
				c->e[i].grp = false;
			c->e[idx].grp = true;
			for (size_t k = idx + 1; k < c->n && ok; k++) {
				struct entry *a = &c->e[k];
				if (a->plane >= 0 || !a->readable)
					continue;
				bool hit = false;
				for (size_t m = idx; m < k && !hit; m++)
					hit = c->e[m].grp && overlap(&c->e[m].vis, &a->vis);
				if (!hit)
					continue;
				c->e[k].grp = true;
				if (a->banned || !a->compat)
					ok = false;
				e->blocked = !ok;
				a->want = true;
			}
			if (ok) {
				plan(c);
				ok = e->plane >= 0 && count_placed(c) > before;
				for (size_t i = 0; i < c->n && ok; i++)
					ok = !(c->e[i].saved && c->e[i].plane < 0 && c->e[i].want);
			}
			if (ok) {
				changed = true;
				continue;
			}
			for (size_t i = 0; i < c->n; i++)
				c->e[i].want = c->e[i].saved;
			plan(c);
		}
	}
}

/* qsort_r's comparison: the context is the ctx, so that devices on other threads can sort
 * at the same time. */
static int cmp_priority(const void *a, const void *b, void *arg)
{
	const struct ctx *c = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	const struct entry *ea = &c->e[ia], *eb = &c->e[ib];
	unsigned ra = ea->layer->update_rate, rb = eb->layer->update_rate;
	/* rates within 1/8 of each other count as equal: then bigger, then higher */
	if (ra / 32 != rb / 32)
		return ra > rb ? -1 : 1;
	int64_t aa = (int64_t)(ea->vis.x1 - ea->vis.x0) * (ea->vis.y1 - ea->vis.y0);
	int64_t ab = (int64_t)(eb->vis.x1 - eb->vis.x0) * (eb->vis.y1 - eb->vis.y0);
	if (aa != ab)
		return aa > ab ? -1 : 1;
	return ia > ib ? -1 : ia < ib;
}

/* Write the plan into the planes (pending state) and the layers' placements. */
static int apply_plan(struct ctx *c)
{
	struct dispman_output *out = c->out;
	for (size_t j = 0; j < c->n_planes; j++) {
		c->planes[j]->pending_output = NULL;
		c->planes[j]->pending_layer = NULL;
	}
	struct dispman_layer *comp = NULL;
	if (c->comp) {
		comp = compose_get_layer(out);
		if (!comp)
			return -ENOMEM;
		comp->plane = c->planes[0];
		c->planes[0]->pending_output = out;
		c->planes[0]->pending_layer = comp;
		unsigned z = 0;
		zpos_next(c->planes[0], true, 0, &z);
		c->planes[0]->pending_zpos = z;
	} else if (out->comp) {
		compose_peek_layer(out)->plane = NULL;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->e[i];
		struct dispman_layer *layer = e->layer;
		layer->plane = NULL;
		layer->composited = false;
		if (e->plane >= 0) {
			struct plane *p = c->planes[e->plane];
			p->pending_output = out;
			p->pending_layer = layer;
			p->pending_zpos = e->zpos;
			layer->plane = p;
			layer->placement = (struct dispman_placement){
				.state = DISPMAN_PLACEMENT_ON_PLANE,
				.plane_id = p->id,
			};
		} else if (e->readable) {
			layer->composited = true;
			layer->placement = (struct dispman_placement){
				.state = DISPMAN_PLACEMENT_COMPOSITED,
				.reason = e->why,
			};
		} else {
			layer->placement = (struct dispman_placement){
				.state = DISPMAN_PLACEMENT_NOT_SHOWN,
				.reason = e->compat ? e->why : e->reason,
			};
		}
	}
	return 0;
}

static void reset_output(struct dispman_output *out)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &out->layers) {
		struct dispman_layer *layer = container_of(pos, struct dispman_layer, link);
		layer->plane = NULL;
		layer->composited = false;
		layer->placement = (struct dispman_placement){
			.state = DISPMAN_PLACEMENT_NOT_SHOWN,
			.reason = DISPMAN_REASON_INVISIBLE,
		};
	}
	if (out->comp)
		compose_peek_layer(out)->plane = NULL;
}

static size_t sorted_layers(struct dispman_output *out, struct dispman_layer ***res)
{
	size_t n = 0;
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &out->layers)
		n++;
	*res = calloc(n ? n : 1, sizeof(**res));
	if (!*res)
		return SIZE_MAX;
	n = 0;
	list_for_each_safe(pos, tmp, &out->layers)
		(*res)[n++] = container_of(pos, struct dispman_layer, link);
	qsort(*res, n, sizeof(**res), cmp_layers);
	return n;
}

static int test_request(struct dispman_device *dev, uint32_t flags)
{
	struct atomic_req r;
	int ret = req_init(&r);
	if (ret < 0)
		return ret;
	commit_build_request(dev, &r);
	ret = req_commit(dev, &r, DRM_MODE_ATOMIC_TEST_ONLY | flags, NULL);
	req_finish(&r);
	return ret;
}

/* Search the assignment of one output; the planes of earlier outputs are already set. */
static int search_output(struct dispman_device *dev, struct dispman_output *out,
	uint32_t flags, unsigned *tests, uint64_t deadline, unsigned max_tests)
{
	reset_output(out);
	if (!out->enabled || !out->crtc || !out->mode)
		return 0;
	struct dispman_layer **all;
	size_t n_all = sorted_layers(out, &all);
	if (n_all == SIZE_MAX)
		return -ENOMEM;
	struct ctx c = {
		.dev = dev,
		.out = out,
		.width = out->mode->info.hdisplay,
		.height = out->mode->info.vdisplay,
		.cap = dev->alloc_plane_cap ? dev->alloc_plane_cap : SIZE_MAX,
	};
	int ret = 0;
	c.e = calloc(n_all ? n_all : 1, sizeof(*c.e));
	c.order = calloc(n_all ? n_all : 1, sizeof(*c.order));
	if (!c.e || !c.order) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n_all; i++) {
		struct dispman_layer *l = all[i];
		if (!l->visible || !l->buf || !l->buf->dev || l->alpha == 0)
			continue;
		struct entry *e = &c.e[c.n];
		e->layer = l;
		clip_rect(l, c.width, c.height, &e->vis);
		if (e->vis.x0 >= e->vis.x1 || e->vis.y0 >= e->vis.y1)
			continue; /* wholly off-screen */
		enum dispman_placement_reason bad = check_geometry(out, l);
		if (bad != DISPMAN_REASON_NONE) {
			l->placement.reason = bad; /* NOT_SHOWN, from reset_output() */
			continue;
		}
		uint32_t sx, sy, sw, sh, dw, dh;
		int32_t dx, dy;
		layer_get_src(l, &sx, &sy, &sw, &sh);
		layer_get_dst(l, &dx, &dy, &dw, &dh);
		e->scaled = sw != (uint64_t)dw << 16 || sh != (uint64_t)dh << 16;
		e->readable = compose_can_read(l->buf);
		c.order[c.n] = c.n;
		c.n++;
	}
	c.n_planes = collect_planes(&c);
	if (c.n_planes == 0) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: no primary plane for CRTC %u", out->name,
			out->crtc->id);
		ret = -ENODEV;
		goto out;
	}
	compute_compat(&c);
	qsort_r(c.order, c.n, sizeof(*c.order), cmp_priority, &c);

	for (;;) {
		select_layers(&c);
		ret = apply_plan(&c);
		if (ret < 0)
			goto out;
		size_t placed = count_placed(&c);
		/* the first test always runs: the time budget bounds the retries */
		if (*tests >= max_tests || (*tests > 0 && now_usec() > deadline)) {
			if (placed == 0 && c.comp)
				break; /* the fallback: commit it untested */
			dispman_log(DISPMAN_LOG_DEBUG, "%s: search budget spent after %u tests, "
				"composing the rest", out->name, *tests);
			for (size_t i = 0; i < c.n; i++) {
				if (!c.e[i].banned && c.e[i].compat) {
					c.e[i].banned = true;
					c.e[i].ban_reason = DISPMAN_REASON_BUDGET;
				}
			}
			continue;
		}
		(*tests)++;
		ret = test_request(dev, flags);
		if (ret == 0)
			break;
		if (!commit_error_is_answer(-ret))
			goto out;
		if (placed == 0)
			goto out; /* even the composition buffer alone is refused */
		bool scaled = false;
		for (size_t i = 0; i < c.n; i++)
			scaled = scaled || (c.e[i].plane >= 0 && c.e[i].scaled);
		if (scaled && !dev->alloc_no_scaling) {
			dispman_log(DISPMAN_LOG_DEBUG, "%s: TEST_ONLY refused scaled planes: not "
				"scaling on planes of this device any more", out->name);
			dev->alloc_no_scaling = true;
			compute_compat(&c);
			continue;
		}
		if (ret == -ENOSPC && c.used > 1) {
			dev->alloc_plane_cap = c.used - 1;
			c.cap = dev->alloc_plane_cap;
			dispman_log(DISPMAN_LOG_DEBUG, "%s: ENOSPC with %zu planes, using at most %zu",
				out->name, c.used, c.cap);
			continue;
		}
		/* drop the placed layer of lowest priority */
		for (size_t o = c.n; o-- > 0;) {
			struct entry *e = &c.e[c.order[o]];
			if (e->plane >= 0) {
				e->banned = true;
				e->ban_reason = DISPMAN_REASON_KERNEL_REJECTED;
				break;
			}
		}
	}
	ret = 0;
	for (size_t i = 0; i < c.n; i++)
		if (c.e[i].plane < 0)
			dispman_log(DISPMAN_LOG_DEBUG, "%s: layer z=%d %s (reason %d)", out->name,
				c.e[i].layer->z, c.e[i].readable ? "composited" : "not shown",
				(int)c.e[i].layer->placement.reason);
out:
	free(c.e);
	free(c.order);
	free(all);
	return ret;
}

static void update_rates(struct dispman_output *out)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &out->layers) {
		struct dispman_layer *l = container_of(pos, struct dispman_layer, link);
		bool changed = l->content_serial != l->rate_serial;
		l->rate_serial = l->content_serial;
		l->update_rate = l->update_rate - l->update_rate / 8 + (changed ? 32 : 0);
	}
}

static int compose_output(struct dispman_output *out, bool full)
{
	struct dispman_layer *cl = compose_peek_layer(out); /* peek: never makes a buffer */
	if (!out->committing || !out->enabled || !cl || !cl->plane)
		return 0;
	struct dispman_layer **all;
	size_t n_all = sorted_layers(out, &all);
	if (n_all == SIZE_MAX)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < n_all; i++)
		if (all[i]->composited)
			all[n++] = all[i];
	int ret = compose_render(out, all, n, full);
	free(all);
	return ret;
}

/*
 * Whether the committed assignment still holds after only rectangles changed (layer
 * setters of source and destination): the same layers are shown, each layer on a plane
 * can still use it (size, scaling, cursor limits, the primary covering the CRTC) and no
 * composited layer above a layer on a plane overlaps it. The kernel may still refuse the
 * new rectangles (bandwidth, driver limits): see alloc_done(). Notes in dev->alloc_stale
 * that a layer off the planes moved, so that the assignment is searched again once the
 * rectangles stop changing (it may fit a plane now).
 */
static bool geometry_holds(struct dispman_device *dev)
{
	for (size_t o = 0; o < dev->n_outputs; o++) {
		struct dispman_output *out = dev->outputs[o];
		if (!out->enabled || !out->crtc || !out->mode)
			continue;
		struct dispman_layer **all;
		size_t n = sorted_layers(out, &all);
		if (n == SIZE_MAX)
			return false;
		struct ctx c = {
			.dev = dev,
			.out = out,
			.width = out->mode->info.hdisplay,
			.height = out->mode->info.vdisplay,
		};
		struct rect *vis = calloc(n ? n : 1, sizeof(*vis));
		bool ok = vis != NULL;
		for (size_t i = 0; i < n && ok; i++) {
			struct dispman_layer *l = all[i];
			enum dispman_placement_reason why = l->placement.reason;
			bool in_plan = l->plane || l->composited ||
				(l->placement.state == DISPMAN_PLACEMENT_NOT_SHOWN &&
				 why != DISPMAN_REASON_INVISIBLE && why != DISPMAN_REASON_SOURCE &&
				 why != DISPMAN_REASON_DESTINATION);
			bool shown = l->visible && l->buf && l->buf->dev && l->alpha != 0;
			if (shown)
				clip_rect(l, c.width, c.height, &vis[i]);
			shown = shown && vis[i].x0 < vis[i].x1 && vis[i].y0 < vis[i].y1;
			if (shown != in_plan) {
				ok = false;
				break;
			}
			if (!in_plan || !l->geom_dirty)
				continue;
			if (check_geometry(out, l) != DISPMAN_REASON_NONE) {
				ok = false;
				break;
			}
			if (!l->plane) {
				dev->alloc_stale = true;
				continue;
			}
			struct entry e = { .layer = l };
			uint32_t sx, sy, sw, sh, dw, dh;
			int32_t dx, dy;
			layer_get_src(l, &sx, &sy, &sw, &sh);
			layer_get_dst(l, &dx, &dy, &dw, &dh);
			e.scaled = sw != (uint64_t)dw << 16 || sh != (uint64_t)dh << 16;
			ok = check_plane(&c, l->plane, l->plane->type == DRM_PLANE_TYPE_PRIMARY, &e) ==
				DISPMAN_REASON_NONE;
		}
		/* stacking: the composition buffer is below every plane */
		for (size_t i = 0; i < n && ok; i++) {
			if (!all[i]->plane)
				continue;
			for (size_t k = i + 1; k < n && ok; k++)
				ok = !(all[k]->composited && (all[i]->geom_dirty || all[k]->geom_dirty) &&
					overlap(&vis[i], &vis[k]));
		}
		free(vis);
		free(all);
		if (!ok)
			return false;
	}
	return true;
}

void alloc_check_geometry(struct dispman_device *dev)
{
	if (dev->shape_dirty || dev->force_modeset)
		return;
	if (!dev->geometry_dirty) {
		/* a layer off the planes moved and the rectangles stopped changing: it may
		 * fit a plane now */
		if (dev->alloc_stale)
			dev->shape_dirty = true;
		return;
	}
	if (!geometry_holds(dev)) {
		dispman_log(DISPMAN_LOG_DEBUG, "new rectangles break the plane assignment: "
			"searching again");
		dev->shape_dirty = true;
	}
}

int alloc_prepare(struct dispman_device *dev, uint32_t flags)
{
	for (size_t i = 0; i < dev->n_outputs; i++)
		if (dev->outputs[i]->committing)
			update_rates(dev->outputs[i]);
	bool search = dev->shape_dirty;
	dev->alloc_reused = false;
	dev->alloc_geometry = false;
	if (search) {
		dev->alloc_stale = false;
		dev->stats.searches++;
		for (size_t i = 0; i < dev->n_planes; i++) {
			dev->planes[i].pending_output = NULL;
			dev->planes[i].pending_layer = NULL;
		}
		/* composition buffers are made before the clock starts */
		for (size_t i = 0; i < dev->n_outputs; i++)
			if (dev->outputs[i]->enabled && dev->outputs[i]->mode &&
			    !compose_get_layer(dev->outputs[i]))
				return -ENOMEM;
		unsigned max_tests = dev->alloc_max_tests ? dev->alloc_max_tests : DEFAULT_MAX_TESTS;
		unsigned max_usec = dev->alloc_max_usec ? dev->alloc_max_usec : DEFAULT_MAX_USEC;
		uint64_t deadline = now_usec() + max_usec;
		unsigned tests = 0;
		for (size_t i = 0; i < dev->n_outputs; i++) {
			int ret = search_output(dev, dev->outputs[i], flags, &tests, deadline,
				max_tests);
			if (ret < 0)
				return ret;
		}
		dispman_log(DISPMAN_LOG_DEBUG, "plane assignment searched with %u TEST_ONLY "
			"commits", tests);
	}
	for (size_t i = 0; i < dev->n_outputs; i++) {
		int ret = compose_output(dev->outputs[i], search);
		if (ret < 0)
			return ret;
	}
	/* Same shape as the last accepted commit: only the framebuffers change (the kernel
	 * keeps the rest), unless a modeset is part of this commit. */
	dev->alloc_reused = !search && !(flags & DRM_MODE_ATOMIC_ALLOW_MODESET);
	/* only rectangles changed and alloc_check_geometry() found the assignment holds:
	 * the new rectangles go into the request without a test */
	dev->alloc_geometry = dev->alloc_reused && dev->geometry_dirty;
	return 0;
}

bool alloc_done(struct dispman_device *dev, bool ok)
{
	bool geometry = dev->alloc_geometry;
	dev->alloc_reused = false;
	dev->alloc_geometry = false;
	if (!ok) {
		/* a refused commit left shape_dirty set: the next one searches again; a refused
		 * untested geometry change is searched and committed again at once */
		if (geometry)
			dev->stats.geometry_refused++;
		return geometry;
	}
	if (geometry)
		dev->stats.geometry_commits++;
	bool pending = false;
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		if (out->committing || dev->commit_full)
			compose_commit_done(out);
		struct list *pos, *tmp;
		list_for_each_safe(pos, tmp, &out->layers) {
			struct dispman_layer *l = container_of(pos, struct dispman_layer, link);
			if (out->committing || dev->commit_full)
				l->geom_dirty = false;
			pending = pending || l->geom_dirty;
		}
	}
	dev->geometry_dirty = pending;
	return false;
}

/* Clip the destination to the screen and the source with it (16.16, same ratio). */
static void clip_to_screen(int32_t w, int32_t h, uint32_t *sx, uint32_t *sy, uint32_t *sw,
	uint32_t *sh, int32_t *dx, int32_t *dy, uint32_t *dw, uint32_t *dh)
{
	struct rect v;
	int64_t x1 = (int64_t)*dx + *dw, y1 = (int64_t)*dy + *dh;
	v.x0 = *dx < 0 ? 0 : *dx;
	v.y0 = *dy < 0 ? 0 : *dy;
	v.x1 = (int32_t)(x1 > w ? w : x1);
	v.y1 = (int32_t)(y1 > h ? h : y1);
	if (v.x0 == *dx && v.y0 == *dy && v.x1 == x1 && v.y1 == y1)
		return;
	if (v.x1 <= v.x0 || v.y1 <= v.y0 || !*dw || !*dh)
		return; /* wholly off-screen layers never get a plane */
	uint64_t nx = (uint64_t)*sx + (uint64_t)(v.x0 - *dx) * *sw / *dw;
	uint64_t ny = (uint64_t)*sy + (uint64_t)(v.y0 - *dy) * *sh / *dh;
	uint64_t nw = (uint64_t)(v.x1 - v.x0) * *sw / *dw;
	uint64_t nh = (uint64_t)(v.y1 - v.y0) * *sh / *dh;
	*sx = (uint32_t)nx;
	*sy = (uint32_t)ny;
	*sw = (uint32_t)nw;
	*sh = (uint32_t)nh;
	*dx = v.x0;
	*dy = v.y0;
	*dw = (uint32_t)(v.x1 - v.x0);
	*dh = (uint32_t)(v.y1 - v.y0);
}

void alloc_apply(struct dispman_device *dev, struct atomic_req *r)
{
	for (size_t i = 0; i < dev->n_planes; i++) {
		struct plane *p = &dev->planes[i];
		struct dispman_layer *layer = p->pending_layer;
		if (!commit_covers_plane(dev, p))
			continue; /* another output's, with a flip pending */
		if (!layer) {
			if (p->cur_fb_id || p->cur_crtc_id) {
				req_add(r, p->id, p->props.fb_id, 0);
				req_add(r, p->id, p->props.crtc_id, 0);
			}
			continue;
		}
		struct dispman_output *out = p->pending_output;
		if (dev->alloc_reused && !(dev->alloc_geometry && layer->geom_dirty)) {
			if (p->cur_fb_id != layer->buf->fb_id)
				req_add(r, p->id, p->props.fb_id, layer->buf->fb_id);
			continue;
		}
		uint32_t sx, sy, sw, sh, dw, dh;
		int32_t dx, dy;
		layer_get_src(layer, &sx, &sy, &sw, &sh);
		layer_get_dst(layer, &dx, &dy, &dw, &dh);
		if (out->mode)
			clip_to_screen(out->mode->info.hdisplay, out->mode->info.vdisplay,
				&sx, &sy, &sw, &sh, &dx, &dy, &dw, &dh);
		req_add(r, p->id, p->props.fb_id, layer->buf->fb_id);
		req_add(r, p->id, p->props.crtc_id, out->crtc->id);
		req_add(r, p->id, p->props.src_x, sx);
		req_add(r, p->id, p->props.src_y, sy);
		req_add(r, p->id, p->props.src_w, sw);
		req_add(r, p->id, p->props.src_h, sh);
		req_add(r, p->id, p->props.crtc_x, (uint64_t)(int64_t)dx);
		req_add(r, p->id, p->props.crtc_y, (uint64_t)(int64_t)dy);
		req_add(r, p->id, p->props.crtc_w, dw);
		req_add(r, p->id, p->props.crtc_h, dh);
		if (p->props.alpha)
			req_add(r, p->id, p->props.alpha, layer->alpha);
		if (p->props.pixel_blend_mode && p->has_blend[layer->blend])
			req_add(r, p->id, p->props.pixel_blend_mode, p->blend_values[layer->blend]);
		if (p->zpos_mutable)
			req_add(r, p->id, p->props.zpos, p->pending_zpos);
		if (p->props.hotspot_x && p->props.hotspot_y) {
			req_add(r, p->id, p->props.hotspot_x, (uint64_t)(int64_t)layer->hot_x);
			req_add(r, p->id, p->props.hotspot_y, (uint64_t)(int64_t)layer->hot_y);
		}
	}
}
