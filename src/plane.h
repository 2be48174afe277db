/* SPDX-License-Identifier: MIT */
/* A KMS plane: its capabilities and committed state (plane.c). */
#ifndef DISPMAN_PLANE_H
#define DISPMAN_PLANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "props.h"

struct dispman_device;
struct dispman_layer;

struct plane {
	uint32_t id;
	int type; /* DRM_PLANE_TYPE_* */
	uint32_t possible_crtcs;
	struct plane_props props;
	struct plan_format *formats; /* (format, modifier) pairs */
	size_t n_formats;
	bool zpos_mutable;
	uint64_t blend_values[3]; /* indexed by enum dispman_blend_mode */
	bool has_blend[3];

	/* committed state: what the last accepted commit set (plane_record_commit()); crtc and
	 * fb also what the kernel says (plane_set_kernel_state()) */
	uint32_t cur_crtc_id;
	uint32_t cur_fb_id;
	struct dispman_layer *cur_layer; /* NULL: off or not ours; its output is cur_layer->out */
	unsigned cur_zpos;
	/* zpos range, read on first use (plane_read_zpos()) */
	bool zpos_read;
	uint64_t zpos_min, zpos_max;
};

int plane_init(struct dispman_device *dev, struct plane *plane, uint32_t id);
void plane_finish(struct plane *plane);
bool plane_has_format(const struct plane *plane, uint32_t format);
/* What the kernel says the plane shows (at start, or after another DRM master): its
 * committed framebuffer and CRTC, UINT32_MAX for unknown (the next commit sets them). The
 * frame path's own commits are recorded by proposal_record(). */
void plane_set_kernel_state(struct plane *plane, uint32_t fb_id, uint32_t crtc_id);
/* Records what an accepted commit set on the plane: the layer it shows (NULL: off or not
 * ours), its zpos, framebuffer and CRTC. proposal.c (proposal_record()) only. */
void plane_record_commit(struct plane *plane, struct dispman_layer *layer, unsigned zpos,
	uint32_t fb_id, uint32_t crtc_id);
/* Reads the plane's zpos range (zpos_min, zpos_max) once, on first use: alloc.c (before
 * planning), the only caller. */
void plane_read_zpos(struct dispman_device *dev, struct plane *plane);
/* modifier DRM_FORMAT_MOD_INVALID matches any modifier of the format. */
bool plane_has_format_modifier(const struct plane *plane, uint32_t format, uint64_t modifier);
/* One of the n planes takes (format, modifier); cursor planes count only when cursor. */
bool planes_take(const struct plane *planes, size_t n, uint32_t format, uint64_t modifier,
	bool cursor);
const char *plane_type_name(int type);

#endif
