/* SPDX-License-Identifier: MIT */
/*
 * Property-id cache: for each object kind, a name-sorted table maps property names to
 * the offset of their id in a struct of ids; lookups use bsearch.
 */
#include "log.h"
#include "util.h"
#include "props.h"

#include <errno.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include <stdlib.h>
#include <string.h>

struct prop_info {
	const char *name;
	size_t offset;
};

#define CONN(name, field) { name, offsetof(struct connector_props, field) }
static const struct prop_info connector_info[] = {
	/* sorted by name (strcmp) */
	CONN("CRTC_ID", crtc_id),
	CONN("DPMS", dpms),
	CONN("WRITEBACK_FB_ID", writeback_fb_id),
	CONN("WRITEBACK_OUT_FENCE_PTR", writeback_out_fence_ptr),
	CONN("WRITEBACK_PIXEL_FORMATS", writeback_pixel_formats),
	CONN("link-status", link_status),
};
#undef CONN

#define CRTC(name, field) { name, offsetof(struct crtc_props, field) }
static const struct prop_info crtc_info[] = {
	CRTC("ACTIVE", active),
	CRTC("MODE_ID", mode_id),
	CRTC("OUT_FENCE_PTR", out_fence_ptr),
	CRTC("VRR_ENABLED", vrr_enabled),
};
#undef CRTC

#define PLANE(name, field) { name, offsetof(struct plane_props, field) }
static const struct prop_info plane_info[] = {
	PLANE("CRTC_H", crtc_h),
	PLANE("CRTC_ID", crtc_id),
	PLANE("CRTC_W", crtc_w),
	PLANE("CRTC_X", crtc_x),
	PLANE("CRTC_Y", crtc_y),
	PLANE("FB_ID", fb_id),
	PLANE("HOTSPOT_X", hotspot_x),
	PLANE("HOTSPOT_Y", hotspot_y),
	PLANE("IN_FENCE_FD", in_fence_fd),
	PLANE("IN_FORMATS", in_formats),
	PLANE("SRC_H", src_h),
	PLANE("SRC_W", src_w),
	PLANE("SRC_X", src_x),
	PLANE("SRC_Y", src_y),
	PLANE("alpha", alpha),
	PLANE("pixel blend mode", pixel_blend_mode),
	PLANE("rotation", rotation),
	PLANE("type", type),
	PLANE("zpos", zpos),
};
#undef PLANE

static int cmp_prop_info(const void *key, const void *elem)
{
	const struct prop_info *info = elem;
	return strcmp(key, info->name);
}

static int scan_props(int fd, uint32_t id, uint32_t type, const struct prop_info *info,
	size_t n, void *result)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, id, type);
	if (!props) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot get properties of object %u", id);
		return -err;
	}
	for (uint32_t i = 0; i < props->count_props; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(fd, props->props[i]);
		if (!prop) {
			dispman_log(DISPMAN_LOG_WARNING, "cannot get property %u of object %u",
				props->props[i], id);
			continue;
		}
		const struct prop_info *p = bsearch(prop->name, info, n, sizeof(info[0]),
			cmp_prop_info);
		if (p)
			*(uint32_t *)(void *)((char *)result + p->offset) = prop->prop_id;
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	return 0;
}

int props_get_connector(int fd, uint32_t id, struct connector_props *props)
{
	memset(props, 0, sizeof(*props));
	return scan_props(fd, id, DRM_MODE_OBJECT_CONNECTOR, connector_info,
		ARRAY_SIZE(connector_info), props);
}

int props_get_crtc(int fd, uint32_t id, struct crtc_props *props)
{
	memset(props, 0, sizeof(*props));
	return scan_props(fd, id, DRM_MODE_OBJECT_CRTC, crtc_info, ARRAY_SIZE(crtc_info), props);
}

int props_get_plane(int fd, uint32_t id, struct plane_props *props)
{
	memset(props, 0, sizeof(*props));
	return scan_props(fd, id, DRM_MODE_OBJECT_PLANE, plane_info, ARRAY_SIZE(plane_info),
		props);
}

int props_get_value(int fd, uint32_t obj_id, uint32_t obj_type, const char *name,
	uint64_t *value)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj_id, obj_type);
	if (!props) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot get properties of object %u",
			obj_id);
		return -err;
	}
	int ret = -ENOENT;
	for (uint32_t i = 0; i < props->count_props && ret == -ENOENT; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(fd, props->props[i]);
		if (!prop)
			continue;
		if (strcmp(prop->name, name) == 0) {
			*value = props->prop_values[i];
			ret = 0;
		}
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	return ret;
}

int props_get_enum_value(int fd, uint32_t prop_id, const char *name, uint64_t *value)
{
	drmModePropertyRes *prop = drmModeGetProperty(fd, prop_id);
	if (!prop)
		return -ENOENT;
	int ret = -ENOENT;
	for (int i = 0; i < prop->count_enums; i++) {
		if (strcmp(prop->enums[i].name, name) == 0) {
			*value = prop->enums[i].value;
			ret = 0;
			break;
		}
	}
	drmModeFreeProperty(prop);
	return ret;
}

bool props_is_immutable(int fd, uint32_t prop_id)
{
	drmModePropertyRes *prop = drmModeGetProperty(fd, prop_id);
	if (!prop)
		return false;
	bool immutable = (prop->flags & DRM_MODE_PROP_IMMUTABLE) != 0;
	drmModeFreeProperty(prop);
	return immutable;
}
