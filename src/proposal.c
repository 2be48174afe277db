/* SPDX-License-Identifier: MIT */
/*
 * The proposed plane assignment (proposal.h): its storage, the committed assignment read
 * back for a frame that reuses it, and the recording of an accepted one. Those two are
 * each other's inverse: a field added to the committed state goes into both.
 */
#include "proposal.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "buffer.h"
#include "compose.h"
#include "crtc.h"
#include "device.h"
#include "layer.h"
#include "list.h"
#include "log.h"
#include "output.h"
#include "plane.h"
#include "transform.h"

/* What proposal.c keeps per device (dispman_device.proposal: proposal_state_init() to
 * proposal_state_finish()). */
struct proposal_state {
	/* which planes the committed state uses (bit i: plane_in_use() of plane i), written
	 * by proposal_record(), so that a frame keeping the shape visits only those; valid
	 * when live_known */
	uint64_t live;
	size_t n_live; /* the planes in live */
	bool live_known;
	/* every plane in use shows a layer (a plane left on by someone else does not),
	 * written by the walks of proposal_record() that visit every plane in use: the
	 * condition of a walk of the changed planes alone */
	bool all_layered;
};

int proposal_state_init(struct dispman_device *dev)
{
	struct proposal_state *st = calloc(1, sizeof(*st));
	if (!st) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating the proposal state");
		return -ENOMEM;
	}
	device_set_proposal_state(dev, st);
	return 0;
}

void proposal_state_finish(struct dispman_device *dev)
{
	free(device_proposal_state(dev));
	device_set_proposal_state(dev, NULL);
}

bool proposal_live_planes(const struct dispman_device *dev, uint64_t *mask)
{
	*mask = device_proposal_state(dev)->live;
	return device_proposal_state(dev)->live_known;
}

/* No plane shows anything, no layer placed. */
static void proposal_clear(struct proposal *prop)
{
	for (size_t i = 0; i < prop->n_planes; i++)
		prop->planes[i] = (struct proposed_plane){ 0 };
	prop->n_layers = 0;
}

/* layer's place in a search's proposal, or NULL when it does not place it (or layer is
 * NULL). */
static const struct proposed_layer *proposal_find_layer(const struct proposal *prop,
	const struct dispman_layer *layer)
{
	for (size_t i = 0; layer && i < prop->n_layers; i++)
		if (prop->layers[i].layer == layer)
			return &prop->layers[i];
	return NULL;
}

/* Nothing proposed, nothing allocated; the scope stays. */
static void proposal_reset(struct proposal *prop)
{
	prop->kept = prop->diff = prop->geometry = prop->changed = false;
	prop->planes = prop->inline_planes;
	prop->layers = prop->inline_layers;
	prop->n_planes = prop->n_layers = prop->max_layers = 0;
}

void proposal_init(struct proposal *prop, const struct commit_scope *scope)
{
	prop->scope = scope;
	proposal_reset(prop);
}

void proposal_keep_committed(struct proposal *prop)
{
	prop->kept = true; /* nothing to free: fresh from proposal_init() */
}

int proposal_start_search(struct proposal *prop, const struct dispman_device *dev)
{
	proposal_finish(prop);
	size_t n = 0;
	for (size_t i = 0; i < device_n_outputs(dev); i++) {
		struct list *pos, *tmp;
		list_for_each_safe(pos, tmp, output_layers(device_output(dev, i)))
			n++;
		n++; /* its composition layer */
	}
	/* not the whole struct: its inline room need not be cleared */
	prop->n_planes = device_n_planes(dev);
	prop->n_layers = 0;
	prop->max_layers = n;
	prop->planes = prop->n_planes <= PROPOSAL_INLINE_PLANES ? prop->inline_planes :
		calloc(prop->n_planes, sizeof(*prop->planes));
	prop->layers = n <= PROPOSAL_INLINE_LAYERS ? prop->inline_layers :
		calloc(n, sizeof(*prop->layers));
	if (!prop->planes || !prop->layers) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory for a plane assignment");
		return -ENOMEM;
	}
	proposal_clear(prop);
	return 0;
}

void proposal_finish(struct proposal *prop)
{
	if (prop->planes != prop->inline_planes)
		free(prop->planes);
	if (prop->layers != prop->inline_layers)
		free(prop->layers);
	proposal_reset(prop);
}

struct proposed_layer *proposal_add_layer(struct proposal *prop, struct dispman_layer *layer)
{
	if (prop->n_layers >= prop->max_layers) {
		dispman_log(DISPMAN_LOG_ERROR, "a layer created since the plane assignment began");
		return NULL;
	}
	struct proposed_layer *e = &prop->layers[prop->n_layers++];
	*e = (struct proposed_layer){
		.layer = layer,
		.placement = {
			.state = DISPMAN_PLACEMENT_NOT_SHOWN,
			.reason = DISPMAN_REASON_INVISIBLE,
		},
	};
	return e;
}

_Static_assert(PROPOSAL_CHANGED_PLANES >= 2 * LAYER_MOVED_MAX,
	"a changed walk holds the planes of both lists");

void proposal_find_changed(struct proposal *prop, const struct dispman_device *dev)
{
	const struct proposal_state *ps = device_proposal_state(dev);
	struct dispman_layer *const *moved, *const *fresh;
	size_t n_moved, n_fresh;
	prop->changed = false;
	if (!prop->diff || !prop->kept || !ps->live_known || !ps->all_layered ||
	    !layer_moved_list(dev, &moved, &n_moved) ||
	    !layer_new_buffer_list(dev, &fresh, &n_fresh))
		return;
	/* as many as the planes in use (every layer a new buffer): the walk of those */
	if (n_moved + n_fresh >= ps->n_live)
		return;
	size_t n = 0;
	/* a moved layer is on the first list, which is whole: once */
	for (size_t i = 0; i < n_moved; i++)
		if (layer_plane(moved[i]))
			prop->changed_planes[n++] = layer_plane(moved[i]);
	for (size_t i = 0; i < n_fresh; i++)
		if (!layer_geom_dirty(fresh[i]) && layer_plane(fresh[i]))
			prop->changed_planes[n++] = layer_plane(fresh[i]);
	prop->n_changed = n;
	prop->changed = true;
}

void proposal_walk_start(struct plane_walk *w, const struct proposal *prop,
	const struct dispman_device *dev)
{
	w->next = 0;
	if (prop->changed) {
		w->changed = true;
		w->all = false;
		w->mask = 0; /* unread on this walk; set, for the compiler's flow analysis */
		w->n = prop->n_changed;
		w->planes = prop->changed_planes;
		return;
	}
	/* field by field: a walk of every frame */
	const struct proposal_state *ps = device_proposal_state(dev);
	w->changed = false;
	w->all = !prop->kept || !ps->live_known; /* never known beyond the mask */
	w->mask = ps->live;
	w->n = device_n_planes(dev);
	w->planes = device_planes(dev);
}

struct plane *proposal_layer_plane(const struct proposal *prop,
	const struct dispman_layer *layer)
{
	if (prop->kept)
		return layer ? layer_plane(layer) : NULL;
	const struct proposed_layer *e = proposal_find_layer(prop, layer);
	return e ? e->plane : NULL;
}

bool proposal_layer_composited(const struct proposal *prop, const struct dispman_layer *layer)
{
	if (prop->kept)
		return layer_composited(layer);
	const struct proposed_layer *e = proposal_find_layer(prop, layer);
	return e && e->placement.state == DISPMAN_PLACEMENT_COMPOSITED;
}


bool proposal_covers_plane_off(const struct proposal *prop, const struct dispman_device *dev,
	const struct plane *p)
{
	uint32_t cur_crtc_id = plane_cur_crtc_id(p);
	if (!cur_crtc_id)
		return false; /* on no CRTC, and none of this request's */
	for (size_t o = 0; o < device_n_outputs(dev); o++) {
		const struct dispman_output *out = device_output(dev, o);
		const struct crtc *cur = output_cur_crtc(out);
		if (proposal_has_output(prop, o) && cur && crtc_id(cur) == cur_crtc_id)
			return true;
	}
	return false;
}

void proposal_record(const struct proposal *prop, struct dispman_device *dev)
{
	bool all_rects = !prop->diff;
	/* a kept proposal: the same planes show the same layers (new framebuffers, and a
	 * new CRTC after a modeset), and the planes it skips stay as they are */
	struct plane_walk w;
	proposal_walk_start(&w, prop, dev);
	struct proposal_state *ps = device_proposal_state(dev);
	uint64_t live = w.all ? 0 : ps->live;
	bool all_layered = true;
	size_t pi;
	for (struct plane *p; (p = proposal_walk_next(&w, &pi));) {
		struct dispman_layer *layer = proposal_plane_layer(prop, p, pi);
		if (!layer && !plane_in_use(p))
			continue; /* off, and staying off: nothing to record */
		if (proposal_covers_plane_of(prop, dev, p, layer ? layer_output(layer) : NULL)) {
			plane_record_commit(p, layer, proposal_plane_zpos(prop, p, pi),
				layer ? buffer_fb_id(layer_buffer(layer)) : 0,
				layer ? crtc_id(output_crtc(layer_output(layer))) : 0);
			/* the rectangles the request wrote (req_build()): all of them unless
			 * the frame kept the shape, then those of the layers that moved */
			if (layer && (all_rects || layer_geom_dirty(layer))) {
				struct transform_geom g;
				layer_scanout_clipped(layer, &g);
				plane_record_rect(p, &(struct plane_rect){
					.src_x = g.src_x, .src_y = g.src_y,
					.src_w = g.src_w, .src_h = g.src_h,
					.crtc_x = g.dst_x, .crtc_y = g.dst_y,
					.crtc_w = g.dst_w, .crtc_h = g.dst_h,
				});
			}
		}
		if (w.changed)
			continue; /* it shows its layer still: in use, as the mask has it */
		uint64_t bit = pi < PROPOSAL_LIVE_PLANES ? 1ull << pi : 0;
		if (plane_in_use(p))
			live |= bit;
		else
			live &= ~bit;
		all_layered = all_layered && (!plane_in_use(p) || plane_cur_layer(p));
	}
	if (w.changed)
		return; /* the layers keep their places, the planes their use */
	ps->all_layered = all_layered;
	if (live != ps->live)
		ps->n_live = (size_t)__builtin_popcountll(live);
	ps->live = live;
	ps->live_known = device_n_planes(dev) <= PROPOSAL_LIVE_PLANES;
	if (prop->kept)
		return; /* the layers keep their places */
	for (size_t o = 0; o < device_n_outputs(dev); o++)
		output_set_top_composited(device_output(dev, o), NULL);
	for (size_t i = 0; i < prop->n_layers; i++) {
		const struct proposed_layer *e = &prop->layers[i];
		/* a layer is on a plane exactly when its placement says so, and that plane
		 * shows it */
		assert((e->placement.state == DISPMAN_PLACEMENT_ON_PLANE) == (e->plane != NULL));
		assert(!e->plane || plane_cur_layer(e->plane) == e->layer);
		layer_record_placement(e->layer, e->plane, &e->placement);
		if (e->placement.state == DISPMAN_PLACEMENT_COMPOSITED) {
			struct dispman_output *out = layer_output(e->layer);
			struct dispman_layer *top = output_top_composited(out);
			if (!top || layer_below(top, e->layer))
				output_set_top_composited(out, e->layer);
		}
	}
}
