/* SPDX-License-Identifier: MIT */
/*
 * Plane assignment, self-contained so that it can be replaced: layers sorted by z, the
 * lowest on the primary plane, the following ones on overlay planes in plane order, the
 * top one on the cursor plane if it fits. Layers that find no plane are reported through
 * their placement, never dropped silently. Composition is not implemented yet.
 */
#include "private.h"

#include <drm_fourcc.h>
#include <stdlib.h>

static int cmp_layers(const void *a, const void *b)
{
	const struct dispman_layer *la = *(struct dispman_layer *const *)a;
	const struct dispman_layer *lb = *(struct dispman_layer *const *)b;
	if (la->z != lb->z)
		return la->z < lb->z ? -1 : 1;
	return la->serial < lb->serial ? -1 : la->serial > lb->serial;
}

static enum dispman_placement_reason check_plane(struct dispman_device *dev,
	const struct plane *plane, const struct dispman_layer *layer)
{
	const struct dispman_buffer *buf = layer->buf;
	if (!plane_has_format(plane, buf->format))
		return DISPMAN_REASON_FORMAT;
	if (!plane_has_format_modifier(plane, buf->format, buf->modifier))
		return DISPMAN_REASON_MODIFIER;
	uint32_t sx, sy, sw, sh, dw, dh;
	int32_t dx, dy;
	layer_get_src(layer, &sx, &sy, &sw, &sh);
	layer_get_dst(layer, &dx, &dy, &dw, &dh);
	if ((sw & 0xffff) || (sh & 0xffff) || sw >> 16 != dw || sh >> 16 != dh)
		return DISPMAN_REASON_SCALING; /* no plane is assumed to scale */
	if (plane->type == DRM_PLANE_TYPE_CURSOR &&
	    (dw > dev->limits.cursor_width || dh > dev->limits.cursor_height))
		return DISPMAN_REASON_NO_PLANE;
	return DISPMAN_REASON_NONE;
}

static void place(struct dispman_layer *layer, struct plane *plane, struct dispman_output *out,
	unsigned zpos)
{
	plane->pending_output = out;
	plane->pending_layer = layer;
	plane->pending_zpos = zpos;
	layer->plane = plane;
	layer->placement = (struct dispman_placement){
		.state = DISPMAN_PLACEMENT_ON_PLANE,
		.plane_id = plane->id,
		.reason = DISPMAN_REASON_NONE,
	};
}

static size_t assign_output(struct dispman_device *dev, struct dispman_output *out,
	size_t max_overlays)
{
	size_t n = 0, used = 0;
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &out->layers) {
		struct dispman_layer *layer = container_of(pos, struct dispman_layer, link);
		layer->plane = NULL;
		layer->placement = (struct dispman_placement){
			.state = DISPMAN_PLACEMENT_NOT_SHOWN,
			.reason = DISPMAN_REASON_INVISIBLE,
		};
		if (layer->visible && layer->buf && layer->buf->fb_id)
			n++;
	}
	if (!out->enabled || !out->crtc || n == 0)
		return 0;
	struct dispman_layer **sorted = calloc(n, sizeof(*sorted));
	if (!sorted) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: out of memory assigning planes", out->name);
		list_for_each_safe(pos, tmp, &out->layers)
			container_of(pos, struct dispman_layer, link)->placement.reason =
				DISPMAN_REASON_NO_PLANE;
		return 0;
	}
	n = 0;
	list_for_each_safe(pos, tmp, &out->layers) {
		struct dispman_layer *layer = container_of(pos, struct dispman_layer, link);
		if (layer->visible && layer->buf && layer->buf->fb_id)
			sorted[n++] = layer;
	}
	qsort(sorted, n, sizeof(*sorted), cmp_layers);

	uint32_t bit = 1u << out->crtc->index;
	struct plane *primary = NULL;
	for (size_t i = 0; i < dev->n_planes; i++) {
		struct plane *p = &dev->planes[i];
		if (p->type != DRM_PLANE_TYPE_PRIMARY || !(p->possible_crtcs & bit) ||
		    p->pending_output)
			continue;
		if (!primary || p->cur_crtc_id == out->crtc->id)
			primary = p;
	}
	size_t next_plane = 0;
	unsigned zpos = 0;
	for (size_t i = 0; i < n; i++) {
		struct dispman_layer *layer = sorted[i];
		enum dispman_placement_reason reason = DISPMAN_REASON_NO_PLANE;
		if (primary) {
			reason = check_plane(dev, primary, layer);
			if (reason == DISPMAN_REASON_NONE) {
				place(layer, primary, out, zpos++);
				primary = NULL;
			} else {
				layer->placement.reason = reason;
			}
			continue;
		}
		if (used >= max_overlays) {
			layer->placement.reason = DISPMAN_REASON_KERNEL_REJECTED;
			continue;
		}
		struct plane *chosen = NULL;
		for (size_t j = next_plane; j < dev->n_planes && !chosen; j++) {
			struct plane *p = &dev->planes[j];
			if (p->type != DRM_PLANE_TYPE_OVERLAY || !(p->possible_crtcs & bit) ||
			    p->pending_output)
				continue;
			enum dispman_placement_reason r = check_plane(dev, p, layer);
			if (r == DISPMAN_REASON_NONE) {
				chosen = p;
				next_plane = j + 1;
			} else if (reason == DISPMAN_REASON_NO_PLANE) {
				reason = r;
			}
		}
		if (!chosen && i == n - 1) {
			for (size_t j = 0; j < dev->n_planes && !chosen; j++) {
				struct plane *p = &dev->planes[j];
				if (p->type != DRM_PLANE_TYPE_CURSOR || !(p->possible_crtcs & bit) ||
				    p->pending_output)
					continue;
				enum dispman_placement_reason r = check_plane(dev, p, layer);
				if (r == DISPMAN_REASON_NONE)
					chosen = p;
				else if (reason == DISPMAN_REASON_NO_PLANE)
					reason = r;
			}
		}
		if (chosen) {
			place(layer, chosen, out, zpos++);
			used++;
		} else {
			layer->placement.reason = reason;
			dispman_log(DISPMAN_LOG_DEBUG, "%s: layer z=%d not shown (reason %d)",
				out->name, layer->z, (int)reason);
		}
	}
	free(sorted);
	return used;
}

size_t alloc_assign(struct dispman_device *dev, size_t max_overlays)
{
	for (size_t i = 0; i < dev->n_planes; i++) {
		dev->planes[i].pending_output = NULL;
		dev->planes[i].pending_layer = NULL;
	}
	size_t max_used = 0;
	for (size_t i = 0; i < dev->n_outputs; i++) {
		size_t used = assign_output(dev, dev->outputs[i], max_overlays);
		if (used > max_used)
			max_used = used;
	}
	return max_used;
}

void alloc_apply(struct dispman_device *dev, struct atomic_req *r)
{
	for (size_t i = 0; i < dev->n_planes; i++) {
		struct plane *p = &dev->planes[i];
		struct dispman_layer *layer = p->pending_layer;
		if (!layer) {
			if (p->cur_fb_id || p->cur_crtc_id) {
				req_add(r, p->id, p->props.fb_id, 0);
				req_add(r, p->id, p->props.crtc_id, 0);
			}
			continue;
		}
		uint32_t sx, sy, sw, sh, dw, dh;
		int32_t dx, dy;
		layer_get_src(layer, &sx, &sy, &sw, &sh);
		layer_get_dst(layer, &dx, &dy, &dw, &dh);
		req_add(r, p->id, p->props.fb_id, layer->buf->fb_id);
		req_add(r, p->id, p->props.crtc_id, p->pending_output->crtc->id);
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
	}
}
