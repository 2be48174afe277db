/* SPDX-License-Identifier: MIT */
/* KMS property ids of connectors, CRTCs and planes (props.c). */
#ifndef DISPMAN_PROPS_H
#define DISPMAN_PROPS_H

#include <stdbool.h>
#include <stdint.h>

struct connector_props {
	uint32_t crtc_id;
	uint32_t dpms;
	uint32_t link_status;
	uint32_t writeback_fb_id;
	uint32_t writeback_out_fence_ptr;
	uint32_t writeback_pixel_formats;
};

struct crtc_props {
	uint32_t active;
	uint32_t mode_id;
	uint32_t out_fence_ptr;
	uint32_t vrr_enabled;
};

struct plane_props {
	uint32_t alpha;
	uint32_t crtc_h;
	uint32_t crtc_id;
	uint32_t crtc_w;
	uint32_t crtc_x;
	uint32_t crtc_y;
	uint32_t fb_id;
	uint32_t hotspot_x;     /* virtualized cursor planes (virtio-gpu, vmwgfx, qxl) */
	uint32_t hotspot_y;
	uint32_t in_fence_fd;
	uint32_t in_formats;
	uint32_t pixel_blend_mode;
	uint32_t rotation;
	uint32_t src_h;
	uint32_t src_w;
	uint32_t src_x;
	uint32_t src_y;
	uint32_t type;
	uint32_t zpos;
};

int props_get_connector(int fd, uint32_t id, struct connector_props *props);
int props_get_crtc(int fd, uint32_t id, struct crtc_props *props);
int props_get_plane(int fd, uint32_t id, struct plane_props *props);
/* Current value of a property by name; -ENOENT when the object has none by that name. */
int props_get_value(int fd, uint32_t obj_id, uint32_t obj_type, const char *name,
	uint64_t *value);
/* Value of an enum entry of property prop_id; -ENOENT when absent. */
int props_get_enum_value(int fd, uint32_t prop_id, const char *name, uint64_t *value);
/* Whether the property is immutable (read-only); false when unknown. */
bool props_is_immutable(int fd, uint32_t prop_id);

#endif
