/* SPDX-License-Identifier: MIT */
/* A layer: buffer, rectangles, alpha, blend, placement (layer.c). */
#ifndef DISPMAN_LAYER_H
#define DISPMAN_LAYER_H

#include <stdbool.h>
#include <stdint.h>

#include <dispman/dispman.h>

#include "list.h"

struct transform_geom;

struct dispman_buffer;
struct dispman_device;
struct dispman_output;
struct plane;

/*
 * The body of struct dispman_layer is layer.c's. Other modules read a layer through the
 * getters below, and record what they own of it through the setters, each with one caller.
 */

/* What the application set (the public setters): output, buffer, stacking, blending. */
struct dispman_output *layer_output(const struct dispman_layer *layer);
struct dispman_buffer *layer_buffer(const struct dispman_layer *layer);
int layer_z(const struct dispman_layer *layer);
uint16_t layer_alpha(const struct dispman_layer *layer);
enum dispman_blend_mode layer_blend(const struct dispman_layer *layer);
bool layer_visible(const struct dispman_layer *layer);
/* Cursor hotspot in buffer pixels (HOTSPOT_X/Y). */
void layer_get_hotspot(const struct dispman_layer *layer, int32_t *x, int32_t *y);
/* Effective rectangles (defaults applied). */
void layer_get_src(const struct dispman_layer *layer, uint32_t *x, uint32_t *y, uint32_t *w,
	uint32_t *h);
void layer_get_dst(const struct dispman_layer *layer, int32_t *x, int32_t *y, uint32_t *w,
	uint32_t *h);
/* Moves the destination to (x, y), keeping its size: an explicit one stays explicit, a
 * buffer-sized one follows the buffer (dispman_layer_set_destination()). input-cursor.c. */
int layer_move(struct dispman_layer *layer, int32_t x, int32_t y);
/* How its buffer's content is turned (dispman_layer_set_transform()). */
enum dispman_transform layer_transform(const struct dispman_layer *layer);
/* It is an output's composition layer (layer_create_composition()): in the mode's space. */
bool layer_is_composition(const struct dispman_layer *layer);
/* The layer of an entry of dispman_output.layers. */
struct dispman_layer *layer_from_link(struct list *link);

/* Where the last accepted commit put it: its plane (NULL: none), its placement, and whether
 * it is in the composition buffer (placement COMPOSITED). */
struct plane *layer_plane(const struct dispman_layer *layer);
const struct dispman_placement *layer_placement(const struct dispman_layer *layer);
bool layer_composited(const struct dispman_layer *layer);
/* Records them after an accepted commit: proposal.c (proposal_record()) only. */
void layer_record_placement(struct dispman_layer *layer, struct plane *plane,
	const struct dispman_placement *placement);

/* How often the buffer changes per commit, 0..256 (an average over the prepared commits
 * of its output, output_prepared_commits()). */
unsigned layer_update_rate(const struct dispman_layer *layer);
/* dispman_layer_set_needs_plane(): the planner places it before the others */
bool layer_needs_plane(const struct dispman_layer *layer);
/* Its rectangles changed since the last accepted commit of its output. */
bool layer_geom_dirty(const struct dispman_layer *layer);
/* An accepted commit of its output took them: alloc.c (alloc_done()) only. */
void layer_geometry_committed(struct dispman_layer *layer);
/* The layers listed as moved (layer_moved_list()) at most */
#define LAYER_MOVED_MAX 16
/* The device's layers whose rectangles changed (layer_geom_dirty()), in *list (n of them,
 * owned by layer.c, valid until a layer setter or layer_geometry_committed() runs).
 * Returns false when more changed than the list holds: then walk every layer. */
bool layer_moved_list(const struct dispman_device *dev, struct dispman_layer *const **list,
	size_t *n);
/* An accepted commit of its output took its buffer, which was set on it
 * (dispman_layer_set_buffer(), or a composition layer's layer_set_composition_buffer())
 * since the last one: alloc.c (alloc_done()) only. */
void layer_buffer_committed(struct dispman_layer *layer);
/* layer_buffer_committed() of every layer on the new buffer list, at once; nothing when
 * the list is not whole (alloc.c). */
void layer_new_buffers_committed(struct dispman_device *dev);
/* The device's layers with a new buffer (layer_buffer_committed() not yet called), as
 * layer_moved_list() lists the moved ones (at most LAYER_MOVED_MAX; same ownership and
 * validity). Returns false when more have one than the list holds: then walk every
 * plane. */
bool layer_new_buffer_list(const struct dispman_device *dev,
	struct dispman_layer *const **list, size_t *n);
/* A composited layer (layer_composited()) got a buffer or new rectangles since
 * layer_compose_clean(), which alloc.c calls once every output composed them: a frame
 * that keeps the assignment and finds this false has nothing to draw. */
bool layer_compose_dirty(const struct dispman_device *dev);
/*
 * A commit of dev starts and ends (commit.c): in between no layer's rectangles change, so
 * that the frame path computes each layer's rectangles on the scanout once
 * (transform-layer.c's layer_scanout() and layer_scanout_clipped()), not once per stage.
 */
void layer_frame_begin(struct dispman_device *dev);
void layer_frame_end(struct dispman_device *dev);
/* Inside a commit: layer's rectangles on the scanout (clipped: cut to its output's mode)
 * as computed earlier in the same commit, into g; false when not computed yet (or outside a
 * commit). */
bool layer_scanout_cached(const struct dispman_layer *layer, bool clipped,
	struct transform_geom *g);
/* Inside a commit: keeps g, layer's rectangles on the scanout, for layer_scanout_cached();
 * outside one, nothing. */
void layer_scanout_keep(const struct dispman_layer *layer, bool clipped,
	const struct transform_geom *g);
void layer_compose_clean(struct dispman_device *dev);

/* The camera's copy path: its buffer holds a CPU copy, and why (FORMAT, IMPORT), which
 * dispman_layer_get_placement() reports; DISPMAN_REASON_NONE: not a copy. camera.c only. */
void layer_set_copy_reason(struct dispman_layer *layer, enum dispman_placement_reason why);

/* Composition (compose.c only): what of the layer the composition buffer holds. */
/* Its buffer's content is the one last drawn. */
bool layer_content_composed(const struct dispman_layer *layer);
/* Where it was last drawn: x1, y1, x2, y2. */
const int32_t *layer_composed_box(const struct dispman_layer *layer);
/* Notes that its current content was drawn at (x1, y1)-(x2, y2). */
void layer_note_composed(struct dispman_layer *layer, int32_t x1, int32_t y1, int32_t x2,
	int32_t y2);
/* An output's composition layer: not in out->layers, alpha 0xffff, visible; its buffer,
 * set by layer_set_composition_buffer(), is not referenced. NULL when out of memory. */
struct dispman_layer *layer_create_composition(struct dispman_output *out);
void layer_set_composition_buffer(struct dispman_layer *layer, struct dispman_buffer *buf);
void layer_destroy_composition(struct dispman_layer *layer);

/* What layer.c keeps per device (device_layer_state(), its body layer.c's): allocated at device
 * creation, freed at its destruction once its layers are gone (nothing when not allocated). */
int layer_init(struct dispman_device *dev);
void layer_finish(struct dispman_device *dev);
void layer_destroy_internal(struct dispman_layer *layer);
/* Destroy every layer of the output (the output is being destroyed). */
void layer_destroy_all(struct dispman_output *out);
/* The stacking order: la is below lb (lower z; at equal z, created first). */
bool layer_below(const struct dispman_layer *la, const struct dispman_layer *lb);

#endif
