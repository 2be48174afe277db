/* SPDX-License-Identifier: MIT */
/*
 * Plane assignment and the composition fallback (doc/allocation.md): the device side of
 * the planner.
 *
 * The planner itself (src/plan.c) is a pure function: this file builds its inputs from the
 * device (the output's visible layers bottom to top, the planes its CRTC can use in
 * stacking order, what the kernel taught us), writes its result into a proposal (a value,
 * proposal.h: the planes and layers keep their committed state) and checks it with one
 * TEST_ONLY commit. When the kernel says no, the search learns (no scaling on this device,
 * at most N planes after ENOSPC) or bans the placed layer of lowest priority and plans
 * again, within a budget of tests and time. An unchanged shape proposes the last accepted
 * assignment again without any TEST_ONLY commit.
 */
#include "alloc.h"

#include <errno.h>

#include "buffer.h"
#include "clock.h"
#include "compose.h"
#include "crtc.h"
#include "device.h"
#include "layer.h"
#include "log.h"
#include "output.h"
#include "plan.h"
#include "plane.h"
#include "proposal.h"
#include "rect.h"
#include "request.h"
#include "transform.h"

#include <drm_fourcc.h>
#include <stdlib.h>
#include <time.h>

#define DEFAULT_MAX_TESTS 16
#define DEFAULT_MAX_USEC 16000

_Static_assert(PLAN_MOD_ANY == DRM_FORMAT_MOD_INVALID, "plan.h's any-modifier");

/* One output's search: the planner's input and result, the device objects behind them
 * (index i of ent is index i of pl and res) and the proposal it writes. */
struct ctx {
	struct dispman_device *dev;
	struct dispman_output *out;
	struct proposal *prop;
	struct proposed_layer **ent;   /* the planned layers' places, bottom to top */
	struct proposed_layer *comp;   /* the composition layer's place */
	struct plan_layer *pl;
	struct plan_layer_result *res;
	size_t n;
	struct plane *planes[PLAN_MAX_PLANES]; /* [0] the primary, then by stacking order */
	size_t index[PLAN_MAX_PLANES];         /* planes[j] is dev->planes[index[j]] */
	struct plan_plane pp[PLAN_MAX_PLANES];
	size_t n_planes;
	struct plan_input in;
	struct plan_result r;
};

/* What the allocator keeps per device (dispman_device.alloc: alloc_init() to
 * alloc_finish()). */
struct alloc_state {
	/* search budget (0: default) */
	unsigned max_tests;
	unsigned max_usec;
	/* what the kernel taught us */
	size_t plane_cap;    /* most planes per CRTC accepted after ENOSPC, 0: unknown */
	bool no_scaling;     /* a TEST_ONLY commit refused scaled planes */
	bool stale;          /* a layer off the planes moved: search once it stops */
};

int alloc_init(struct dispman_device *dev)
{
	struct alloc_state *st = calloc(1, sizeof(*st));
	if (!st) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating the allocator's state");
		return -ENOMEM;
	}
	device_set_alloc_state(dev, st);
	return 0;
}

void alloc_finish(struct dispman_device *dev)
{
	free(device_alloc_state(dev));
	device_set_alloc_state(dev, NULL);
}

int dispman_device_set_alloc_budget(struct dispman_device *dev, unsigned max_tests,
	unsigned max_usec)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	struct alloc_state *a = device_alloc_state(dev);
	a->max_tests = max_tests;
	a->max_usec = max_usec;
	return 0;
}

static int cmp_layers(const void *a, const void *b)
{
	const struct dispman_layer *la = *(struct dispman_layer *const *)a;
	const struct dispman_layer *lb = *(struct dispman_layer *const *)b;
	return layer_below(la, lb) ? -1 : layer_below(lb, la);
}

/* The layer shows something, if on screen: visible, a live buffer, not transparent. */
static bool layer_shown(const struct dispman_layer *l)
{
	const struct dispman_buffer *buf = layer_buffer(l);
	return layer_visible(l) && buf && buffer_device(buf) && layer_alpha(l) != 0;
}

/* Stacking key of a plane: its zpos when it has one, else primary < overlays < cursor. */
static uint64_t plane_key(const struct plane *p, size_t index)
{
	if (plane_props(p)->zpos)
		return (plane_zpos_min(p) << 16) | index;
	int type = plane_type(p);
	uint64_t rank = type == DRM_PLANE_TYPE_PRIMARY ? 0 : type == DRM_PLANE_TYPE_CURSOR ? 2 : 1;
	return (rank << 32) | index;
}

static size_t collect_planes(struct ctx *c)
{
	struct dispman_device *dev = c->dev;
	struct crtc *crtc = output_crtc(c->out);
	uint32_t bit = 1u << crtc_index(crtc);
	struct plane *primary = NULL;
	size_t primary_index = 0;
	uint64_t keys[PLAN_MAX_PLANES];
	size_t n = 1;
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		struct plane *p = device_plane(dev, i);
		if (!(plane_possible_crtcs(p) & bit) || c->prop->planes[i].layer)
			continue; /* another CRTC's, or an earlier output's in this proposal */
		plane_read_zpos(dev, p);
		if (plane_type(p) == DRM_PLANE_TYPE_PRIMARY) {
			if (!primary || plane_cur_crtc_id(p) == crtc_id(crtc)) {
				primary = p;
				primary_index = i;
			}
			continue;
		}
		if (n >= PLAN_MAX_PLANES)
			continue;
		/* insertion by stacking key */
		uint64_t key = plane_key(p, i);
		size_t j = n;
		while (j > 1 && keys[j - 1] > key) {
			keys[j] = keys[j - 1];
			c->planes[j] = c->planes[j - 1];
			c->index[j] = c->index[j - 1];
			j--;
		}
		keys[j] = key;
		c->planes[j] = p;
		c->index[j] = i;
		n++;
	}
	if (!primary)
		return 0;
	c->planes[0] = primary;
	c->index[0] = primary_index;
	return n;
}

static void clip_rect(const struct dispman_layer *layer, int32_t w, int32_t h, struct rect *r)
{
	*r = layer_scanout_rect(layer, w, h);
}

/* Where a layer shows on a w x h screen; empty when it is not shown. */
static struct rect shown_rect(const struct dispman_layer *l, int32_t w, int32_t h)
{
	struct rect r = { 0 };
	if (layer_shown(l))
		clip_rect(l, w, h, &r);
	return r;
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
	const struct dispman_buffer *buf = layer_buffer(l);
	uint64_t bw = (uint64_t)buffer_width(buf) << 16, bh = (uint64_t)buffer_height(buf) << 16;
	if (sw < 0x10000 || sh < 0x10000 || (uint64_t)sx + sw > bw || (uint64_t)sy + sh > bh) {
		dispman_log(DISPMAN_LOG_WARNING, "%s: layer z=%d not shown: source %.2fx%.2f at "
			"(%.2f, %.2f) is not inside its %ux%u buffer (or under one pixel)",
			output_name(out), layer_z(l), sw / 65536.0, sh / 65536.0, sx / 65536.0,
			sy / 65536.0, buffer_width(buf), buffer_height(buf));
		return DISPMAN_REASON_SOURCE;
	}
	int64_t x1 = (int64_t)dx + dw, y1 = (int64_t)dy + dh;
	if (dw > DISPMAN_MAX_COORD || dh > DISPMAN_MAX_COORD || dx < -DISPMAN_MAX_COORD ||
	    dy < -DISPMAN_MAX_COORD || x1 > DISPMAN_MAX_COORD || y1 > DISPMAN_MAX_COORD) {
		dispman_log(DISPMAN_LOG_WARNING, "%s: layer z=%d not shown: destination %ux%u at "
			"(%d, %d) reaches beyond %d pixels", output_name(out), layer_z(l), dw, dh,
			dx, dy, DISPMAN_MAX_COORD);
		return DISPMAN_REASON_DESTINATION;
	}
	return DISPMAN_REASON_NONE;
}

static struct plan_plane plane_to_plan(const struct plane *p)
{
	int type = plane_type(p);
	const struct plane_props *props = plane_props(p);
	struct plan_plane pp = {
		.type = type == DRM_PLANE_TYPE_PRIMARY ? PLAN_PLANE_PRIMARY :
			type == DRM_PLANE_TYPE_CURSOR ? PLAN_PLANE_CURSOR : PLAN_PLANE_OVERLAY,
		.has_zpos = props->zpos != 0,
		.zpos_min = plane_zpos_min(p),
		.zpos_max = plane_zpos_max(p),
		.has_alpha = props->alpha != 0,
		.has_blend_mode = props->pixel_blend_mode != 0,
		.rotations = plane_rotations(p),
	};
	pp.formats = plane_formats(p, &pp.n_formats);
	for (size_t i = 0; i < ARRAY_SIZE(pp.blend); i++)
		pp.blend[i] = plane_has_blend(p, (enum dispman_blend_mode)i);
	return pp;
}

/* A layer's rectangles on the scanout (the output's transform applied) into pl, as the
 * planner sees them (the source as the plane reads it); its geometry into g. */
static void layer_rects(const struct dispman_layer *l, struct transform_geom *g,
	struct plan_layer *pl)
{
	layer_scanout(l, g);
	bool swap = transform_swaps(g->t);
	pl->src_w = swap ? g->src_h : g->src_w;
	pl->src_h = swap ? g->src_w : g->src_h;
	pl->dst_x = g->dst_x;
	pl->dst_y = g->dst_y;
	pl->dst_w = g->dst_w;
	pl->dst_h = g->dst_h;
}

/* The planner's view of a layer on a screen of w x h; vis is its clipped destination. */
static struct plan_layer layer_to_plan(const struct dispman_layer *l, const struct rect *vis)
{
	const struct dispman_buffer *buf = layer_buffer(l);
	const struct format_info *fi = format_info_find(buffer_format(buf));
	struct plan_layer pl = {
		.vis = *vis,
		.format = buffer_format(buf),
		.modifier = buffer_modifier(buf),
		.has_fb = buffer_fb_id(buf) != 0,
		.has_alpha = fi && fi->has_alpha,
		.alpha = layer_alpha(l),
		.blend = layer_blend(l),
		.update_rate = layer_update_rate(l),
		.needs_plane = layer_needs_plane(l),
	};
	struct transform_geom g;
	layer_rects(l, &g, &pl);
	pl.rotation = g.t == DISPMAN_TRANSFORM_NORMAL ? 0 : transform_drm_rotation(g.t);
	return pl;
}

/* What the search learned from the kernel so far, and the device's cursor size. */
static struct plan_limits plan_limits_of(const struct dispman_device *dev)
{
	const struct dispman_limits *dl = device_limits(dev);
	const struct alloc_state *a = device_alloc_state(dev);
	return (struct plan_limits){
		.plane_cap = a->plane_cap,
		.no_scaling = a->no_scaling,
		.cursor_width = dl->cursor_width,
		.cursor_height = dl->cursor_height,
	};
}

static size_t count_placed(const struct ctx *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		n += c->res[i].plane >= 0;
	return n;
}

/* What the proposal says plane j of the search shows. */
static struct proposed_plane *proposed(const struct ctx *c, size_t j)
{
	return &c->prop->planes[c->index[j]];
}

/* Write the plan into the proposal: the output's planes and its layers' places. */
static void apply_plan(struct ctx *c)
{
	for (size_t j = 0; j < c->n_planes; j++)
		proposed(c, j)->layer = NULL;
	c->comp->plane = NULL;
	if (c->r.comp) {
		c->comp->plane = c->planes[0];
		c->comp->placement = (struct dispman_placement){
			.state = DISPMAN_PLACEMENT_ON_PLANE,
			.plane_id = plane_id(c->planes[0]),
		};
		*proposed(c, 0) = (struct proposed_plane){
			.layer = c->comp->layer,
			.zpos = c->r.comp_zpos,
		};
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct plan_layer_result *e = &c->res[i];
		struct proposed_layer *ent = c->ent[i];
		ent->plane = NULL;
		if (e->plane >= 0) {
			struct plane *p = c->planes[e->plane];
			*proposed(c, (size_t)e->plane) = (struct proposed_plane){
				.layer = ent->layer,
				.zpos = e->zpos,
			};
			ent->plane = p;
			ent->placement = (struct dispman_placement){
				.state = DISPMAN_PLACEMENT_ON_PLANE,
				.plane_id = plane_id(p),
			};
		} else {
			ent->placement = (struct dispman_placement){
				.state = c->pl[i].readable ? DISPMAN_PLACEMENT_COMPOSITED :
					DISPMAN_PLACEMENT_NOT_SHOWN,
				.reason = e->reason,
			};
		}
	}
}

static size_t sorted_layers(struct dispman_output *out, struct dispman_layer ***res)
{
	size_t n = 0;
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, output_layers(out))
		n++;
	*res = calloc(n ? n : 1, sizeof(**res));
	if (!*res)
		return SIZE_MAX;
	n = 0;
	list_for_each_safe(pos, tmp, output_layers(out))
		(*res)[n++] = layer_from_link(pos);
	qsort(*res, n, sizeof(**res), cmp_layers);
	return n;
}

/*
 * Places the output's layers in the proposal, bottom to top (the first returned, *n_all of
 * them), each not shown (INVISIBLE) until the plan says otherwise, then its composition
 * layer (c->comp, off). Returns NULL on ENOMEM.
 */
static struct proposed_layer *place_output(struct ctx *c, size_t *n_all)
{
	struct dispman_layer **all;
	size_t n = sorted_layers(c->out, &all);
	if (n == SIZE_MAX)
		return NULL;
	struct proposed_layer *first = &c->prop->layers[c->prop->n_layers];
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++)
		ok = proposal_add_layer(c->prop, all[i]) != NULL;
	if (ok && output_compositor(c->out)) {
		c->comp = proposal_add_layer(c->prop, compose_peek_layer(c->out));
		ok = c->comp != NULL;
	}
	free(all);
	*n_all = n;
	return ok ? first : NULL;
}

static int test_request(struct dispman_device *dev, const struct proposal *prop,
	uint32_t flags)
{
	struct atomic_req r;
	int ret = req_init(dev, &r);
	if (ret < 0)
		return ret;
	/* a search tests the whole assignment: every plane's full state */
	req_build(dev, prop, &r); /* not prop->diff: a search */
	ret = req_commit(dev, &r, DRM_MODE_ATOMIC_TEST_ONLY | flags, NULL);
	req_finish(dev, &r);
	return ret;
}

/*
 * The planner's input for one output: its visible layers (of the n_all placed at ents,
 * bottom to top) and the planes it can use.
 */
static int build_input(struct ctx *c, struct proposed_layer *ents, size_t n_all)
{
	struct dispman_output *out = c->out;
	int32_t w = output_mode(out)->hdisplay, h = output_mode(out)->vdisplay;
	c->ent = calloc(n_all ? n_all : 1, sizeof(*c->ent));
	c->pl = calloc(n_all ? n_all : 1, sizeof(*c->pl));
	c->res = calloc(n_all ? n_all : 1, sizeof(*c->res));
	if (!c->ent || !c->pl || !c->res)
		return -ENOMEM;
	for (size_t i = 0; i < n_all; i++) {
		struct dispman_layer *l = ents[i].layer;
		struct rect vis = shown_rect(l, w, h);
		if (rect_empty(&vis))
			continue; /* not shown, or wholly off-screen */
		enum dispman_placement_reason bad = check_geometry(out, l);
		if (bad != DISPMAN_REASON_NONE) {
			ents[i].placement.reason = bad; /* NOT_SHOWN, from place_output() */
			continue;
		}
		c->ent[c->n] = &ents[i];
		c->pl[c->n] = layer_to_plan(l, &vis);
		c->pl[c->n].readable = compose_can_read(layer_buffer(l));
		c->n++;
	}
	c->n_planes = collect_planes(c);
	if (c->n_planes == 0) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: no primary plane for CRTC %u", output_name(out),
			crtc_id(output_crtc(out)));
		return -ENODEV;
	}
	for (size_t j = 0; j < c->n_planes; j++)
		c->pp[j] = plane_to_plan(c->planes[j]);
	c->in = (struct plan_input){
		.layers = c->pl,
		.n_layers = c->n,
		.planes = c->pp,
		.n_planes = c->n_planes,
		.width = w,
		.height = h,
		.limits = plan_limits_of(c->dev),
	};
	c->r = (struct plan_result){ .layers = c->res };
	return 0;
}

/*
 * After a refused TEST_ONLY commit (ret), change the planner's input: no scaling, fewer
 * planes, or the placed layer of lowest priority banned.
 */
static void learn_refusal(struct ctx *c, int ret)
{
	struct alloc_state *a = device_alloc_state(c->dev);
	bool scaled = false;
	for (size_t i = 0; i < c->n; i++)
		scaled = scaled || (c->res[i].plane >= 0 && plan_layer_scaled(&c->pl[i]));
	if (scaled && !a->no_scaling) {
		dispman_log(DISPMAN_LOG_DEBUG, "%s: TEST_ONLY refused scaled planes: not "
			"scaling on planes of this device any more", output_name(c->out));
		a->no_scaling = true;
		c->in.limits.no_scaling = true;
		return;
	}
	if (ret == -ENOSPC && c->r.used > 1) {
		a->plane_cap = c->r.used - 1;
		c->in.limits.plane_cap = a->plane_cap;
		dispman_log(DISPMAN_LOG_DEBUG, "%s: ENOSPC with %zu planes, using at most %zu",
			output_name(c->out), c->r.used, a->plane_cap);
		return;
	}
	/* ban the placed layer of lowest priority */
	size_t worst = SIZE_MAX;
	for (size_t i = 0; i < c->n; i++)
		if (c->res[i].plane >= 0 && (worst == SIZE_MAX ||
		    c->res[i].priority > c->res[worst].priority))
			worst = i;
	if (worst != SIZE_MAX) {
		c->pl[worst].banned = true;
		c->pl[worst].ban_reason = DISPMAN_REASON_KERNEL_REJECTED;
	}
}

/*
 * Search the assignment of one output into prop, where the planes of earlier outputs are
 * already set. A refused test changes only prop: the next plan overwrites this output's part.
 */
static int search_output(struct dispman_device *dev, struct proposal *prop,
	struct dispman_output *out, uint32_t flags, unsigned *tests, uint64_t deadline,
	unsigned max_tests)
{
	struct ctx c = { .dev = dev, .out = out, .prop = prop };
	size_t n_all;
	struct proposed_layer *ents = place_output(&c, &n_all);
	if (!ents)
		return -ENOMEM;
	if (!output_enabled(out) || !output_crtc(out) || !output_mode(out))
		return 0;
	if (!c.comp)
		return -ENOMEM; /* alloc_prepare() makes it */
	int ret = build_input(&c, ents, n_all);
	if (ret < 0)
		goto out;
	for (;;) {
		ret = plan_compute(&c.in, &c.r);
		if (ret < 0)
			goto out;
		apply_plan(&c);
		size_t placed = count_placed(&c);
		/* the first test always runs: the time budget bounds the retries */
		if (*tests >= max_tests || (*tests > 0 && clock_usec() > deadline)) {
			if (placed == 0 && c.r.comp)
				break; /* the fallback: commit it untested */
			dispman_log(DISPMAN_LOG_DEBUG, "%s: search budget spent after %u tests, "
				"composing the rest", output_name(out), *tests);
			for (size_t i = 0; i < c.n; i++) {
				if (!c.pl[i].banned && c.res[i].placeable) {
					c.pl[i].banned = true;
					c.pl[i].ban_reason = DISPMAN_REASON_BUDGET;
				}
			}
			continue;
		}
		(*tests)++;
		ret = test_request(dev, prop, flags);
		if (ret == 0)
			break;
		if (!req_error_is_answer(-ret))
			goto out;
		if (placed == 0)
			goto out; /* even the composition buffer alone is refused */
		learn_refusal(&c, ret);
	}
	ret = 0;
	for (size_t i = 0; i < c.n; i++)
		if (c.res[i].plane < 0)
			dispman_log(DISPMAN_LOG_DEBUG, "%s: layer z=%d %s (reason %d)",
				output_name(out), layer_z(c.ent[i]->layer),
				c.pl[i].readable ? "composited" : "not shown",
				(int)c.ent[i]->placement.reason);
out:
	free(c.ent);
	free(c.pl);
	free(c.res);
	return ret;
}

/* Draw the layers prop composites on out (in: in the request), when its composition layer
 * is on a plane. */
static int compose_output(const struct proposal *prop, struct dispman_output *out, bool in,
	bool full)
{
	/* peek: never makes a buffer */
	if (!in || !output_enabled(out) ||
	    !proposal_layer_plane(prop, compose_peek_layer(out)))
		return 0;
	struct dispman_layer **drawn;
	size_t all = sorted_layers(out, &drawn); /* bottom to top */
	if (all == SIZE_MAX)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < all; i++)
		if (proposal_layer_composited(prop, drawn[i]))
			drawn[n++] = drawn[i];
	int ret = compose_render(out, drawn, n, full);
	free(drawn);
	return ret;
}

/* One layer of the committed assignment, its rectangles new: can it stay where it is? */
static bool layer_holds(struct dispman_device *dev, struct dispman_output *out,
	const struct plan_input *in, struct dispman_layer *l)
{
	const struct dispman_placement *placed = layer_placement(l);
	struct plane *plane = layer_plane(l);
	enum dispman_placement_reason why = placed->reason;
	bool in_plan = plane || layer_composited(l) ||
		(placed->state == DISPMAN_PLACEMENT_NOT_SHOWN &&
		 why != DISPMAN_REASON_INVISIBLE && why != DISPMAN_REASON_SOURCE &&
		 why != DISPMAN_REASON_DESTINATION);
	struct rect vis = shown_rect(l, in->width, in->height);
	if (rect_empty(&vis) == in_plan)
		return false; /* it appears or disappears */
	if (!in_plan || !layer_geom_dirty(l))
		return true;
	if (check_geometry(out, l) != DISPMAN_REASON_NONE)
		return false;
	if (!plane) {
		device_alloc_state(dev)->stale = true;
		return true;
	}
	/* only the rectangles changed (anything else that plan_check_plane() reads changes the
	 * shape): what they decide */
	struct transform_geom g;
	struct plan_layer pl = { 0 };
	layer_rects(l, &g, &pl);
	int type = plane_type(plane);
	const struct plan_plane pp = {
		.type = type == DRM_PLANE_TYPE_CURSOR ? PLAN_PLANE_CURSOR : PLAN_PLANE_OVERLAY,
	};
	return plan_check_geometry(in, &pp, type == DRM_PLANE_TYPE_PRIMARY, &pl) ==
		DISPMAN_REASON_NONE;
}

/*
 * The stacking of a moved layer d: the composition buffer is below every plane, so no
 * composited layer above a layer on a plane may overlap it. Checks the pairs d is in,
 * by the stacking order itself (layer_below()): nothing is sorted or allocated.
 */
static bool stacking_holds(struct dispman_output *out, struct dispman_layer *d, int32_t w,
	int32_t h)
{
	bool d_plane = layer_plane(d) != NULL, d_comp = layer_composited(d);
	if (!d_plane && !d_comp)
		return true;
	/* on a plane above every composited layer: nothing to overlap (the usual sprite) */
	struct dispman_layer *top = output_top_composited(out);
	if (d_plane && (!top || layer_below(top, d)))
		return true;
	struct rect rd = shown_rect(d, w, h);
	if (rect_empty(&rd))
		return true;
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, output_layers(out)) {
		struct dispman_layer *x = layer_from_link(pos);
		bool conflict = d_plane ? layer_composited(x) && layer_below(d, x) :
			layer_plane(x) && layer_below(x, d);
		if (!conflict)
			continue;
		struct rect rx = shown_rect(x, w, h);
		if (rect_overlap(&rd, &rx))
			return false;
	}
	return true;
}

/*
 * Whether the committed assignment still holds after only rectangles changed (layer
 * setters of source and destination): the same layers are shown, each layer on a plane
 * can still use it (size, scaling, cursor limits, the primary covering the CRTC) and no
 * composited layer above a layer on a plane overlaps it. The kernel may still refuse the
 * new rectangles (bandwidth, driver limits): see alloc_done(). Notes (alloc_state.stale)
 * that a layer off the planes moved, so that the assignment is searched again once the
 * rectangles stop changing (it may fit a plane now).
 */
static bool output_geometry_holds(struct dispman_device *dev, struct dispman_output *out)
{
	const struct plan_input in = {
		.width = output_mode(out)->hdisplay,
		.height = output_mode(out)->vdisplay,
		.limits = plan_limits_of(dev),
	};
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, output_layers(out))
		if (!layer_holds(dev, out, &in, layer_from_link(pos)))
			return false;
	list_for_each_safe(pos, tmp, output_layers(out)) {
		struct dispman_layer *l = layer_from_link(pos);
		if (layer_geom_dirty(l) && !stacking_holds(out, l, in.width, in.height))
			return false;
	}
	return true;
}

/* An output whose layers the geometry check visits: enabled, with a CRTC and a mode. */
static bool output_placed(const struct dispman_output *out)
{
	return output_enabled(out) && output_crtc(out) && output_mode(out);
}

static bool geometry_holds(struct dispman_device *dev)
{
	struct dispman_layer *const *moved;
	size_t n;
	if (!layer_moved_list(dev, &moved, &n)) {
		/* more layers moved than listed: every layer of every output */
		for (size_t o = 0; o < device_n_outputs(dev); o++) {
			struct dispman_output *out = device_output(dev, o);
			if (output_placed(out) && !output_geometry_holds(dev, out))
				return false;
		}
		return true;
	}
	/* Only the moved layers: a layer whose rectangles did not change shows as the
	 * committed state has it (anything else that changes that changes the shape). */
	for (size_t i = 0; i < n; i++) {
		struct dispman_layer *l = moved[i];
		struct dispman_output *out = layer_output(l);
		if (!output_placed(out))
			continue;
		const struct plan_input in = {
			.width = output_mode(out)->hdisplay,
			.height = output_mode(out)->vdisplay,
			.limits = plan_limits_of(dev),
		};
		if (!layer_holds(dev, out, &in, l) ||
		    !stacking_holds(out, l, in.width, in.height))
			return false;
	}
	return true;
}

void alloc_check_geometry(struct dispman_device *dev)
{
	if (device_shape_dirty(dev) || device_modeset_forced(dev))
		return;
	if (!device_geometry_dirty(dev)) {
		/* a layer off the planes moved and the rectangles stopped changing: it may
		 * fit a plane now */
		if (device_alloc_state(dev)->stale)
			device_shape_changed(dev);
		return;
	}
	if (!geometry_holds(dev)) {
		dispman_log(DISPMAN_LOG_DEBUG, "new rectangles break the plane assignment: "
			"searching again");
		device_shape_changed(dev);
	}
}

bool alloc_assignment_holds(const struct dispman_device *dev)
{
	return !device_shape_dirty(dev) && !device_modeset_forced(dev) &&
		!device_geometry_dirty(dev) && !device_alloc_state(dev)->stale;
}

int alloc_prepare(struct dispman_device *dev, uint32_t flags, struct proposal *prop)
{
	/* a commit of these outputs: their layers' update rates count it (layer.c) */
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		if (proposal_has_output(prop, i))
			output_count_prepared(device_output(dev, i));
	bool search = device_shape_dirty(dev);
	if (search) {
		device_alloc_state(dev)->stale = false;
		device_stats(dev)->searches++;
		if (proposal_start_search(prop, dev) < 0)
			return -ENOMEM;
		/* composition buffers are made before the clock starts */
		for (size_t i = 0; i < device_n_outputs(dev); i++) {
			struct dispman_output *out = device_output(dev, i);
			if (output_enabled(out) && output_mode(out) && !compose_get_layer(out))
				return -ENOMEM;
		}
		const struct alloc_state *a = device_alloc_state(dev);
		unsigned max_tests = a->max_tests ? a->max_tests : DEFAULT_MAX_TESTS;
		unsigned max_usec = a->max_usec ? a->max_usec : DEFAULT_MAX_USEC;
		uint64_t deadline = clock_usec() + max_usec;
		unsigned tests = 0;
		for (size_t i = 0; i < device_n_outputs(dev); i++) {
			int ret = search_output(dev, prop, device_output(dev, i), flags, &tests,
				deadline, max_tests);
			if (ret < 0)
				return ret;
		}
		dispman_log(DISPMAN_LOG_DEBUG, "plane assignment searched with %u TEST_ONLY "
			"commits", tests);
	} else {
		proposal_keep_committed(prop);
	}
	/* A frame that keeps the assignment draws only when a composited layer changed
	 * (its buffer or its rectangles: layer.c notes it), without visiting the others. */
	for (size_t i = 0; (search || layer_compose_dirty(dev)) && i < device_n_outputs(dev);
	     i++) {
		int ret = compose_output(prop, device_output(dev, i), proposal_has_output(prop, i),
			search);
		if (ret < 0)
			return ret;
	}
	/* Same shape as the last accepted commit: only the framebuffers change (the kernel
	 * keeps the rest), unless a modeset is part of this commit. */
	prop->diff = !search && !(flags & DRM_MODE_ATOMIC_ALLOW_MODESET);
	/* only rectangles changed and alloc_check_geometry() found the assignment holds:
	 * the new rectangles go into the request without a test */
	prop->geometry = prop->diff && device_geometry_dirty(dev);
	proposal_find_changed(prop, dev); /* after the composition, which sets its buffer */
	return 0;
}

/* The accepted commit of prop took the new buffers of its outputs' layers: off the list
 * (layer_new_buffer_list()), the others' stay on it. */
static void buffers_committed(struct dispman_device *dev, const struct proposal *prop)
{
	bool full = prop->scope->full;
	struct dispman_layer *const *list;
	size_t n;
	if (layer_new_buffer_list(dev, &list, &n)) {
		/* the usual commit: of every listed layer's output (of every output) */
		bool every = full || prop->scope->n_in == device_n_outputs(dev);
		size_t covered = 0;
		while (!every && covered < n &&
		       proposal_has_output(prop, output_index(layer_output(list[covered]))))
			covered++;
		if (every || covered == n) {
			layer_new_buffers_committed(dev);
			return;
		}
		/* backwards: layer_buffer_committed() moves the last one into its place */
		for (size_t i = n; i-- > 0;) {
			struct dispman_layer *l = list[i];
			if (full || proposal_has_output(prop, output_index(layer_output(l))))
				layer_buffer_committed(l);
		}
		return;
	}
	for (size_t i = 0; i < device_n_outputs(dev); i++) {
		struct dispman_output *out = device_output(dev, i);
		if (!full && !proposal_has_output(prop, i))
			continue;
		struct list *pos, *tmp;
		list_for_each_safe(pos, tmp, output_layers(out))
			layer_buffer_committed(layer_from_link(pos));
		struct dispman_layer *comp = compose_peek_layer(out);
		if (comp)
			layer_buffer_committed(comp);
	}
}

bool alloc_done(struct dispman_device *dev, const struct proposal *prop, bool ok)
{
	bool full = prop->scope->full;
	bool geometry = prop->geometry;
	if (!ok) {
		/* a refused commit left the shape dirty: the next one searches again; a refused
		 * untested geometry change is searched and committed again at once */
		if (geometry)
			device_stats(dev)->geometry_refused++;
		return geometry;
	}
	if (geometry)
		device_stats(dev)->geometry_commits++;
	bool all = true; /* every output composed in this commit */
	for (size_t i = 0; i < device_n_outputs(dev); i++) {
		if (proposal_has_output(prop, i) || full)
			compose_commit_done(device_output(dev, i));
		else
			all = false;
	}
	if (all)
		layer_compose_clean(dev);
	buffers_committed(dev, prop);
	if (!device_geometry_dirty(dev))
		return false; /* no layer's rectangles changed (layer.c sets both) */
	bool pending = false;
	struct dispman_layer *const *moved;
	size_t n;
	if (layer_moved_list(dev, &moved, &n)) {
		/* backwards: layer_geometry_committed() moves the last one into its place */
		for (size_t i = n; i-- > 0;) {
			struct dispman_layer *l = moved[i];
			if (full || proposal_has_output(prop, output_index(layer_output(l))))
				layer_geometry_committed(l);
			else
				pending = true;
		}
		device_set_geometry_dirty(dev, pending);
		return false;
	}
	for (size_t i = 0; i < device_n_outputs(dev); i++) {
		struct list *pos, *tmp;
		list_for_each_safe(pos, tmp, output_layers(device_output(dev, i))) {
			struct dispman_layer *l = layer_from_link(pos);
			if (proposal_has_output(prop, i) || full)
				layer_geometry_committed(l);
			pending = pending || layer_geom_dirty(l);
		}
	}
	device_set_geometry_dirty(dev, pending);
	return false;
}
