/* SPDX-License-Identifier: MIT */
/*
 * Small conveniences every example wrote by hand: fill a buffer with one colour, move a
 * layer, names for placement states and reasons, an output's size by value. Built on the
 * public API (and layer_move()); nothing here is on the frame path.
 */
#include <drm_fourcc.h>
#include <errno.h>

#include <dispman/dispman.h>

#include "layer.h"
#include "log.h"
#include "output.h"
#include "transform.h"

int dispman_buffer_fill(struct dispman_buffer *buf, uint32_t argb)
{
	if (refuse_null(buf, "buf"))
		return -EINVAL;
	uint32_t fmt = dispman_buffer_get_format(buf), v;
	switch (fmt) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
		v = argb;
		break;
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
		v = (argb & 0xff00ff00u) | (argb >> 16 & 0xff) | (argb & 0xff) << 16;
		break;
	default:
		dispman_log(DISPMAN_LOG_ERROR, "fill: format %.4s is not a 32-bit RGB format",
			(const char *)&fmt);
		return -ENOTSUP;
	}
	void *data;
	uint32_t stride;
	int r = dispman_buffer_map(buf, &data, &stride);
	if (r < 0)
		return r;
	uint32_t w = dispman_buffer_get_width(buf), h = dispman_buffer_get_height(buf);
	for (uint32_t y = 0; y < h; y++) {
		uint32_t *row = (uint32_t *)(void *)((char *)data + (size_t)y * stride);
		for (uint32_t x = 0; x < w; x++)
			row[x] = v;
	}
	return 0;
}

int dispman_layer_move(struct dispman_layer *layer, int32_t x, int32_t y)
{
	if (refuse_null(layer, "layer"))
		return -EINVAL;
	return layer_move(layer, x, y);
}

const char *dispman_placement_state_name(enum dispman_placement_state state)
{
	switch (state) {
	case DISPMAN_PLACEMENT_NOT_SHOWN: return "not shown";
	case DISPMAN_PLACEMENT_ON_PLANE: return "on a plane";
	case DISPMAN_PLACEMENT_COMPOSITED: return "composited";
	}
	return "unknown";
}

const char *dispman_placement_reason_name(enum dispman_placement_reason reason)
{
	switch (reason) {
	case DISPMAN_REASON_NONE: return "none";
	case DISPMAN_REASON_FORMAT: return "format";
	case DISPMAN_REASON_MODIFIER: return "modifier";
	case DISPMAN_REASON_SCALING: return "scaling";
	case DISPMAN_REASON_NO_PLANE: return "no plane left";
	case DISPMAN_REASON_KERNEL_REJECTED: return "rejected by the kernel";
	case DISPMAN_REASON_INVISIBLE: return "invisible";
	case DISPMAN_REASON_ALPHA: return "alpha or blend mode";
	case DISPMAN_REASON_STACKING: return "stacking";
	case DISPMAN_REASON_BUDGET: return "search budget";
	case DISPMAN_REASON_SOURCE: return "source rectangle";
	case DISPMAN_REASON_DESTINATION: return "destination rectangle";
	case DISPMAN_REASON_IMPORT: return "camera memory not shared";
	case DISPMAN_REASON_ROTATION: return "rotation";
	}
	return "unknown";
}

struct dispman_size dispman_output_get_size(struct dispman_output *out)
{
	struct dispman_size s = { 0, 0 };
	if (refuse_null(out, "out"))
		return s;
	const struct dispman_mode *m = dispman_output_get_current_mode(out);
	if (m) {
		bool swap = transform_swaps(output_transform(out));
		s.width = swap ? m->height : m->width;
		s.height = swap ? m->width : m->height;
	}
	return s;
}

struct dispman_buffer *dispman_output_create_buffer(struct dispman_output *out)
{
	if (refuse_null(out, "out")) {
		errno = EINVAL;
		return NULL;
	}
	struct dispman_size s = dispman_output_get_size(out);
	if (!s.width || !s.height) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: disabled, no size to make a buffer of "
			"(dispman_output_enable() first)", dispman_output_get_name(out));
		errno = EINVAL;
		return NULL;
	}
	return dispman_buffer_create_dumb(dispman_output_get_device(out), s.width, s.height,
		DRM_FORMAT_XRGB8888);
}
