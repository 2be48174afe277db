/* SPDX-License-Identifier: MIT */
/* A layer: buffer, rectangles, alpha, blend, placement (layer.c). */
#ifndef DISPMAN_LAYER_H
#define DISPMAN_LAYER_H

#include <stdbool.h>
#include <stdint.h>

#include <dispman/dispman.h>

#include "list.h"

struct dispman_buffer;
struct dispman_device;
struct dispman_output;
struct plane;

struct dispman_layer {
	struct dispman_output *out;
	struct dispman_buffer *buf;
	bool src_set, dst_set;
	uint32_t src_x, src_y, src_w, src_h; /* 16.16 */
	int32_t dst_x, dst_y;
	uint32_t dst_w, dst_h;
	int z;
	int32_t hot_x, hot_y;  /* cursor hotspot in buffer pixels (HOTSPOT_X/Y) */
	uint16_t alpha;
	enum dispman_blend_mode blend;
	bool visible;
	unsigned serial; /* creation order */
	/* where the last accepted commit put it (proposal_record()) */
	struct dispman_placement placement;
	struct plane *plane;
	struct list link;    /* dispman_output.layers */
	/* alloc.c / compose.c */
	unsigned content_serial;  /* bumped by every dispman_layer_set_buffer() */
	unsigned rate_serial;     /* content_serial seen by the last commit */
	unsigned update_rate;     /* 0..256: how often the buffer changes per commit (EMA) */
	unsigned composed_serial; /* content_serial in the composition buffer */
	bool composited;          /* placement COMPOSITED: in the composition buffer */
	/* camera copy path: its buffer holds a CPU copy, and why (FORMAT: no plane takes the
	 * camera's format; IMPORT: the display and the camera share no memory); else NONE */
	enum dispman_placement_reason copy_reason;
	bool geom_dirty;          /* rectangles changed since the last accepted commit */
	int32_t composed_box[4];  /* compose.c: x1, y1, x2, y2 where it was last drawn */
};

/* Effective rectangles (defaults applied). */
void layer_get_src(const struct dispman_layer *layer, uint32_t *x, uint32_t *y, uint32_t *w,
	uint32_t *h);
void layer_get_dst(const struct dispman_layer *layer, int32_t *x, int32_t *y, uint32_t *w,
	uint32_t *h);
/* What layer.c keeps per device (dev->layers, its body layer.c's): allocated at device
 * creation, freed at its destruction once its layers are gone (nothing when not allocated). */
int layer_init(struct dispman_device *dev);
void layer_finish(struct dispman_device *dev);
void layer_destroy_internal(struct dispman_layer *layer);
/* Destroy every layer of the output (the output is being destroyed). */
void layer_destroy_all(struct dispman_output *out);
/* The stacking order: la is below lb (lower z; at equal z, created first). */
bool layer_below(const struct dispman_layer *la, const struct dispman_layer *lb);

#endif
