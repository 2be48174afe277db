/* SPDX-License-Identifier: MIT */
/* A KMS plane: its capabilities and committed state (plane.c). */
#ifndef DISPMAN_PLANE_H
#define DISPMAN_PLANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dispman/dispman.h>

#include "plan.h"
#include "props.h"

struct dispman_device;
struct dispman_layer;
struct plane;

/* The kernel's plane id, read: its type, properties, formats, blend values, what it shows
 * now. NULL with errno set when it cannot. lifecycle.c only, as plane_destroy(). */
struct plane *plane_create(struct dispman_device *dev, uint32_t id);
void plane_destroy(struct plane *plane);

/*
 * The body of struct plane is plane.c's: only plane.c writes its fields. The other
 * modules read a plane through the getters below (const pointer in, value out); what it
 * records has one writer each: plane_set_kernel_state() (master.c, and plane_create()),
 * plane_record_commit() (proposal.c), plane_read_zpos() (alloc.c).
 */
uint32_t plane_id(const struct plane *plane);
int plane_type(const struct plane *plane); /* DRM_PLANE_TYPE_* */
/* bit i: the CRTC of index i (crtc_index()) can use it */
uint32_t plane_possible_crtcs(const struct plane *plane);
/* its property ids, 0 for a property it lacks */
const struct plane_props *plane_props(const struct plane *plane);
/* its (format, modifier) pairs, *n of them; DRM_FORMAT_MOD_INVALID: the implicit layout */
const struct plan_format *plane_formats(const struct plane *plane, size_t *n);
/* its zpos can be set (a zpos property, not immutable) */
bool plane_zpos_mutable(const struct plane *plane);
/* its zpos range: valid after plane_read_zpos(), 0 for a plane without zpos */
uint64_t plane_zpos_min(const struct plane *plane);
uint64_t plane_zpos_max(const struct plane *plane);
/* the "rotation" values it takes (DRM_MODE_ROTATE_*, DRM_MODE_REFLECT_* bits); 0: none */
uint32_t plane_rotations(const struct plane *plane);
/* its pixel blend mode property has mode, and the value that names it (valid if it has) */
bool plane_has_blend(const struct plane *plane, enum dispman_blend_mode mode);
uint64_t plane_blend_value(const struct plane *plane, enum dispman_blend_mode mode);

/* Committed state: what the last accepted commit set (plane_record_commit()); the
 * framebuffer and CRTC also what the kernel says (plane_set_kernel_state()). */
/* the layer it shows: NULL when off or not ours; its output is layer_output() */
struct dispman_layer *plane_cur_layer(const struct plane *plane);
unsigned plane_cur_zpos(const struct plane *plane);
uint32_t plane_cur_fb_id(const struct plane *plane);
uint32_t plane_cur_crtc_id(const struct plane *plane);
/* The rectangles a plane shows, as its properties take them: source 16.16 in the buffer,
 * destination (CRTC_*) in the mode's pixels. */
struct plane_rect {
	uint32_t src_x, src_y, src_w, src_h;
	int32_t crtc_x, crtc_y;
	uint32_t crtc_w, crtc_h;
};
/* The rectangles the last accepted commit set on it (plane_record_rect()); NULL when
 * unknown (off, or the kernel's state read at start or after another DRM master). */
const struct plane_rect *plane_cur_rect(const struct plane *plane);
/* the committed state uses it: a layer, a framebuffer or a CRTC */
bool plane_in_use(const struct plane *plane);

bool plane_has_format(const struct plane *plane, uint32_t format);
/* What the kernel says the plane shows (at start, or after another DRM master): its
 * committed framebuffer and CRTC, UINT32_MAX for unknown (the next commit sets them). The
 * frame path's own commits are recorded by proposal_record(). */
void plane_set_kernel_state(struct plane *plane, uint32_t fb_id, uint32_t crtc_id);
/* Records what an accepted commit set on the plane: the layer it shows (NULL: off or not
 * ours), its zpos, framebuffer and CRTC. proposal.c (proposal_record()) only. */
void plane_record_commit(struct plane *plane, struct dispman_layer *layer, unsigned zpos,
	uint32_t fb_id, uint32_t crtc_id);
/* Records the rectangles an accepted commit set on the plane (NULL: unknown). proposal.c
 * (proposal_record()) only; plane_record_commit() with no layer and
 * plane_set_kernel_state() forget them. */
void plane_record_rect(struct plane *plane, const struct plane_rect *rect);
/* Reads the plane's zpos range (plane_zpos_min(), plane_zpos_max()) once, on first use:
 * alloc.c (before planning), the only caller. */
void plane_read_zpos(struct dispman_device *dev, struct plane *plane);
/* modifier DRM_FORMAT_MOD_INVALID matches any modifier of the format. */
bool plane_has_format_modifier(const struct plane *plane, uint32_t format, uint64_t modifier);
/* One of the n planes takes (format, modifier); cursor planes count only when cursor. */
bool planes_take(struct plane *const *planes, size_t n, uint32_t format, uint64_t modifier,
	bool cursor);
const char *plane_type_name(int type);

#endif
