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

#include <dispman/dispman.h>

struct dispman_device;
struct dispman_layer;
struct plane;

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

/* A device of usual size fits in the proposal itself: no allocation per commit. */
#define PROPOSAL_INLINE_PLANES 32
#define PROPOSAL_INLINE_LAYERS 64

struct proposal {
	struct proposed_plane *planes; /* index i is dev->planes[i] */
	size_t n_planes;
	/* every layer the proposal places (a search: all of the device's, and each output's
	 * composition layer), one output's together */
	struct proposed_layer *layers;
	size_t n_layers, max_layers;
	/* where planes and layers point when they fit (so a proposal is never copied) */
	struct proposed_plane inline_planes[PROPOSAL_INLINE_PLANES];
	struct proposed_layer inline_layers[PROPOSAL_INLINE_LAYERS];
};

/* Room for every plane and layer of dev, nothing proposed. Returns 0 or -ENOMEM (then
 * proposal_finish() is still fine). */
int proposal_init(struct proposal *prop, const struct dispman_device *dev);
void proposal_finish(struct proposal *prop);
/* No plane shows anything, no layer placed. */
void proposal_clear(struct proposal *prop);
/* Places layer (not shown, INVISIBLE, until changed). NULL (logged) only for a layer created
 * after proposal_init(), which made room for every layer of the device. */
struct proposed_layer *proposal_add_layer(struct proposal *prop, struct dispman_layer *layer);
/* layer's place, or NULL when the proposal does not place it (or layer is NULL). */
const struct proposed_layer *proposal_find_layer(const struct proposal *prop,
	const struct dispman_layer *layer);
/* The committed assignment again (what proposal_record() last recorded), for a frame that
 * reuses it. */
void proposal_from_committed(struct proposal *prop, const struct dispman_device *dev);
/*
 * Whether the request of this proposal sets plane i: every plane when the commit covers
 * the device (dev->commit_full), else the planes of the outputs it commits (proposed on one,
 * or shown on its CRTC by the committed state).
 */
bool proposal_covers_plane(const struct proposal *prop, const struct dispman_device *dev,
	size_t i);
/* The kernel accepted the commit of prop: its planes (those it covers) and layers now show
 * it. */
void proposal_record(const struct proposal *prop, struct dispman_device *dev);

#endif
