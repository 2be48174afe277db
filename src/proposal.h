/* SPDX-License-Identifier: MIT */
/*
 * A proposed plane assignment (proposal.c): the kernel state one commit would make, as a
 * value. The frame path owns one per commit (commit.c): alloc.c fills it (a search, or the
 * committed assignment again), the request builder reads it (request.c, const), and only
 * an accepted commit records it into the planes and layers (proposal_record()). A refused
 * TEST_ONLY or commit leaves the objects as the last accepted commit left them.
 */
#ifndef DISPMAN_PROPOSAL_H
#define DISPMAN_PROPOSAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dispman/dispman.h>

#include "output.h"
#include "plane.h"

struct dispman_device;
struct dispman_layer;

/* What one plane shows; its output is layer->out, its CRTC that output's. */
struct proposed_plane {
	struct dispman_layer *layer; /* NULL: the plane is off */
	unsigned zpos;
};

/* One layer's place: on a plane, drawn into the composition buffer, or not shown. */
struct proposed_layer {
	struct dispman_layer *layer;
	struct plane *plane;                /* NULL unless placement.state is ON_PLANE */
	struct dispman_placement placement; /* COMPOSITED: drawn by compose.c */
};

/* One output in a commit's request (commit_scope.outputs[i] is device_output(dev, i)). */
struct scope_output {
	bool in;            /* its connector and CRTC are in the request (select_outputs()) */
	uint32_t mode_blob; /* the MODE_ID blob of its new mode (prepare_blobs()), 0: none */
};

/*
 * What one commit's request covers (commit.c decides it, select_outputs(), and makes the
 * mode blobs, prepare_blobs()): a value of that commit, which commit.c owns and hands down
 * with its proposal (proposal.scope) to the request builder, the recording and the
 * allocator. Nothing of it outlives the commit, and nothing of it is kept in the outputs.
 */
struct commit_scope {
	/* the request covers the whole device (a new shape or a modeset): every live output
	 * and every plane */
	bool full;
	size_t n_in; /* outputs whose in is set */
	struct scope_output *outputs; /* index i is device_output(dev, i) */
	size_t n_outputs;
};

/* What proposal.c keeps per device between commits (device_proposal_state(), its body
 * proposal.c's: the planes the committed state uses, proposal_walk_start()); allocated at device
 * creation, freed at its destruction (by lifecycle.c; nothing when not allocated). */
int proposal_state_init(struct dispman_device *dev);
void proposal_state_finish(struct dispman_device *dev);
/* The planes the committed state uses (bit i: plane i), as proposal_record() last recorded
 * them; false when unknown (before the first record, or beyond PROPOSAL_LIVE_PLANES). */
bool proposal_live_planes(const struct dispman_device *dev, uint64_t *mask);

/* the planes a changed walk holds: of the moved and the new buffer lists (each
 * LAYER_MOVED_MAX long) */
#define PROPOSAL_CHANGED_PLANES 32
/* A device of usual size fits in the proposal itself: no allocation per commit. */
#define PROPOSAL_INLINE_PLANES 32
#define PROPOSAL_INLINE_LAYERS 64

struct proposal {
	/* what the commit's request covers (commit.c's, which outlives the proposal) */
	const struct commit_scope *scope;
	/* The committed assignment again, unchanged (a frame that reuses the shape): planes
	 * and layers are not filled, the readers below read the committed state instead, and
	 * recording it updates only the planes' framebuffers. No copy in, no copy back. */
	bool kept;
	/* How the request is built (alloc_prepare() sets them, the builder, the recording and
	 * alloc_done() read them). diff: kept, and no modeset: each plane gets only the
	 * properties whose values differ from its committed state (a new FB_ID, a moved
	 * layer's changed rectangles); else every plane in the request gets its full state. */
	bool diff;
	/* diff, and some layers on planes have new rectangles, which go into the request
	 * without a TEST_ONLY commit (alloc_check_geometry() found that the plan holds) */
	bool geometry;
	/* diff, and the planes of the layers that moved or got a new buffer are known
	 * (proposal_find_changed()): the request and the record visit those alone */
	bool changed;
	size_t n_changed;
	struct plane *changed_planes[PROPOSAL_CHANGED_PLANES];
	struct proposed_plane *planes; /* index i is device_plane(dev, i); unused when kept */
	size_t n_planes;
	/* every layer the proposal places (a search: all of the device's, and each output's
	 * composition layer), one output's together */
	struct proposed_layer *layers;
	size_t n_layers, max_layers;
	/* where planes and layers point when they fit (so a proposal is never copied) */
	struct proposed_plane inline_planes[PROPOSAL_INLINE_PLANES];
	struct proposed_layer inline_layers[PROPOSAL_INLINE_LAYERS];
};

/* An empty proposal for the commit that covers scope: nothing proposed, nothing allocated
 * (proposal_finish() is fine). */
void proposal_init(struct proposal *prop, const struct commit_scope *scope);
/* device_output(dev, i) is in the request of prop (its connector and CRTC are set), and the
 * MODE_ID blob prepared for it (0: none). */
static inline bool proposal_has_output(const struct proposal *prop, size_t i)
{
	return prop->scope->outputs[i].in;
}

static inline uint32_t proposal_mode_blob(const struct proposal *prop, size_t i)
{
	return prop->scope->outputs[i].mode_blob;
}
/* For a search: room for every plane and layer of dev, nothing proposed. Returns 0 or
 * -ENOMEM (then proposal_finish() is still fine). */
int proposal_start_search(struct proposal *prop, const struct dispman_device *dev);
/* For a frame that reuses the shape: the committed assignment (what proposal_record()
 * last recorded) again, unchanged (prop->kept). prop is fresh from proposal_init(). */
void proposal_keep_committed(struct proposal *prop);
void proposal_finish(struct proposal *prop);
/* Places layer (not shown, INVISIBLE, until changed). NULL (logged) only for a layer created
 * after proposal_init(), which made room for every layer of the device. */
struct proposed_layer *proposal_add_layer(struct proposal *prop, struct dispman_layer *layer);
/* What plane p, device_plane(dev, i), shows in the proposal (NULL: off) and at which zpos, kept
 * or searched. Inline: the request builder asks for every plane of every frame. */
static inline struct dispman_layer *proposal_plane_layer(const struct proposal *prop,
	const struct plane *p, size_t i)
{
	return prop->kept ? plane_cur_layer(p) : prop->planes[i].layer;
}

static inline unsigned proposal_plane_zpos(const struct proposal *prop, const struct plane *p,
	size_t i)
{
	return prop->kept ? plane_cur_zpos(p) : prop->planes[i].zpos;
}
/*
 * The planes a request or a record of prop must visit: every plane of dev; for a kept
 * proposal only those the committed state uses (proposal_live_planes()), when known; and
 * for a kept proposal without a modeset (prop->diff) only the planes of the layers that
 * moved or got a new buffer (layer_moved_list(), layer_new_buffer_list()), when both lists
 * are whole, every plane in use shows a layer and fewer change than are in use: the only
 * planes whose state such a frame changes (prop->changed, from proposal_find_changed()).
 * A plane it skips keeps its committed state. Usage:
 *   struct plane_walk w;
 *   proposal_walk_start(&w, prop, dev);
 *   for (struct plane *p; (p = proposal_walk_next(&w, &i));) ...
 * i is the plane's index, except in a changed walk (then SIZE_MAX: a kept proposal reads
 * nothing by index).
 */
/* planes the live mask can name (its bits); a device with more always walks them all */
#define PROPOSAL_LIVE_PLANES 64

struct plane_walk {
	uint64_t mask; /* when !all: the planes left */
	size_t next, n;
	bool all;
	bool changed;                /* prop->changed: planes[next..n) are the walk */
	struct plane *const *planes; /* device_planes(), or prop->changed_planes */
};

void proposal_walk_start(struct plane_walk *w, const struct proposal *prop,
	const struct dispman_device *dev);

static inline struct plane *proposal_walk_next(struct plane_walk *w, size_t *i)
{
	if (w->changed) {
		*i = SIZE_MAX;
		return w->next < w->n ? w->planes[w->next++] : NULL;
	}
	if (w->all) {
		*i = w->next++;
		return *i < w->n ? w->planes[*i] : NULL;
	}
	if (!w->mask)
		return NULL;
	*i = (size_t)__builtin_ctzll(w->mask);
	w->mask &= w->mask - 1;
	return w->planes[*i];
}

/* For a frame whose request sends only what changed (prop->diff, after the composition):
 * notes the planes that change, when they can be known (see proposal_walk_start()),
 * setting prop->changed. */
void proposal_find_changed(struct proposal *prop, const struct dispman_device *dev);

/* The plane the proposal puts layer on (NULL: none, or a layer it does not place), and
 * whether it composites layer, kept or searched. */
struct plane *proposal_layer_plane(const struct proposal *prop,
	const struct dispman_layer *layer);
bool proposal_layer_composited(const struct proposal *prop, const struct dispman_layer *layer);
/*
 * Whether the request of this proposal sets plane p, whose layer in the proposal
 * (proposal_plane_layer()) is on output out (NULL: p is off in it): every plane when the
 * commit covers the device (prop->scope->full), else the planes of the outputs in it
 * (proposal_has_output(): proposed on one, or, off, shown on its CRTC by the committed
 * state: proposal_covers_plane_off()). Inline, for the walks of every frame.
 */
bool proposal_covers_plane_off(const struct proposal *prop, const struct dispman_device *dev,
	const struct plane *p);
static inline bool proposal_covers_plane_of(const struct proposal *prop,
	const struct dispman_device *dev, const struct plane *p,
	const struct dispman_output *out)
{
	if (prop->scope->full)
		return true;
	if (out)
		return proposal_has_output(prop, output_index(out));
	return proposal_covers_plane_off(prop, dev, p);
}
/* The kernel accepted the commit of prop: its planes (those it covers) and layers now show
 * it, with the rectangles its request set (req_build()): every plane's unless prop->diff,
 * then those of the layers that moved (layer_geom_dirty()). The one recorder of every
 * frame. */
void proposal_record(const struct proposal *prop, struct dispman_device *dev);

#endif
