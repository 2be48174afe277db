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

	/* committed state: what the last accepted commit set (proposal_record()); crtc and fb
	 * also after another master (refresh_plane_state()) */
	uint32_t cur_crtc_id;
	uint32_t cur_fb_id;
	struct dispman_layer *cur_layer; /* NULL: off or not ours; its output is cur_layer->out */
	unsigned cur_zpos;
	/* alloc.c: zpos range, read on first use */
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
/* modifier DRM_FORMAT_MOD_INVALID matches any modifier of the format. */
bool plane_has_format_modifier(const struct plane *plane, uint32_t format, uint64_t modifier);
/* One of the n planes takes (format, modifier); cursor planes count only when cursor. */
bool planes_take(const struct plane *planes, size_t n, uint32_t format, uint64_t modifier,
	bool cursor);
const char *plane_type_name(int type);

#endif
