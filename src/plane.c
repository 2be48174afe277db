/* SPDX-License-Identifier: MIT */
#include "plane.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "device.h"
#include "log.h"
#include "props.h"
#include "util.h"

/* The kernel's plane: what it can do, and what it shows (committed state). Only this file
 * writes it (plane.h names the callers of each writer). */
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
	uint32_t rotations; /* the "rotation" bits it takes (bitmask property), 0: none */

	/* committed state: what the last accepted commit set (plane_record_commit()); crtc and
	 * fb also what the kernel says (plane_set_kernel_state()) */
	uint32_t cur_crtc_id;
	uint32_t cur_fb_id;
	struct dispman_layer *cur_layer; /* NULL: off or not ours; its output is cur_layer's */
	unsigned cur_zpos;
	struct plane_rect cur_rect; /* valid when cur_rect_known */
	bool cur_rect_known;
	/* zpos range, read on first use (plane_read_zpos()) */
	bool zpos_read;
	uint64_t zpos_min, zpos_max;
};

static int add_format(struct plane *plane, size_t *cap, uint32_t format, uint64_t modifier)
{
	if (plane->n_formats == *cap) {
		size_t new_cap = *cap ? *cap * 2 : 16;
		struct plan_format *f = realloc(plane->formats, new_cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		plane->formats = f;
		*cap = new_cap;
	}
	plane->formats[plane->n_formats++] = (struct plan_format){ format, modifier };
	return 0;
}

static int read_in_formats(struct dispman_device *dev, struct plane *plane, uint32_t blob_id,
	size_t *cap)
{
	drmModePropertyBlobRes *blob = drmModeGetPropertyBlob(device_fd(dev), blob_id);
	if (!blob) {
		dispman_log(DISPMAN_LOG_WARNING, "plane %u: cannot read IN_FORMATS blob %u",
			plane->id, blob_id);
		return -ENOENT;
	}
	int ret = 0;
	const struct drm_format_modifier_blob *hdr = blob->data;
	if (blob->length < sizeof(*hdr) ||
	    hdr->formats_offset + (uint64_t)hdr->count_formats * sizeof(uint32_t) > blob->length ||
	    hdr->modifiers_offset + (uint64_t)hdr->count_modifiers *
			sizeof(struct drm_format_modifier) > blob->length) {
		dispman_log(DISPMAN_LOG_WARNING, "plane %u: malformed IN_FORMATS blob", plane->id);
		drmModeFreePropertyBlob(blob);
		return -EINVAL;
	}
	const uint32_t *formats = (const uint32_t *)(const void *)
		((const char *)blob->data + hdr->formats_offset);
	const struct drm_format_modifier *mods = (const struct drm_format_modifier *)(const void *)
		((const char *)blob->data + hdr->modifiers_offset);
	for (uint32_t m = 0; m < hdr->count_modifiers && ret == 0; m++) {
		for (uint32_t bit = 0; bit < 64 && ret == 0; bit++) {
			if (!(mods[m].formats & (1ull << bit)))
				continue;
			uint64_t idx = mods[m].offset + bit;
			if (idx >= hdr->count_formats)
				continue;
			ret = add_format(plane, cap, formats[idx], mods[m].modifier);
		}
	}
	drmModeFreePropertyBlob(blob);
	return ret;
}

static void plane_free(struct plane *plane)
{
	free(plane->formats);
	free(plane);
}

/* plane_create()'s reading of the kernel's plane; 0 or a negative errno. */
static int plane_read(struct dispman_device *dev, struct plane *plane, uint32_t id)
{
	plane->id = id;
	drmModePlane *p = drmModeGetPlane(device_fd(dev), id);
	if (!p) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot get plane %u", id);
		return -err;
	}
	plane->possible_crtcs = p->possible_crtcs;
	plane_set_kernel_state(plane, p->fb_id, p->crtc_id);

	int ret = props_get_plane(device_fd(dev), id, &plane->props);
	if (ret < 0)
		goto out;

	uint64_t type = DRM_PLANE_TYPE_OVERLAY;
	if (props_get_value(device_fd(dev), id, DRM_MODE_OBJECT_PLANE, "type", &type) < 0)
		dispman_log(DISPMAN_LOG_WARNING, "plane %u has no type property, assuming overlay",
			id);
	plane->type = (int)type;

	size_t cap = 0;
	uint64_t blob_id = 0;
	if (plane->props.in_formats &&
	    props_get_value(device_fd(dev), id, DRM_MODE_OBJECT_PLANE, "IN_FORMATS",
		    &blob_id) == 0 &&
	    blob_id != 0 && read_in_formats(dev, plane, (uint32_t)blob_id, &cap) == 0) {
		/* formats and modifiers from the blob */
	} else {
		plane->n_formats = 0;
		for (uint32_t i = 0; i < p->count_formats; i++) {
			ret = add_format(plane, &cap, p->formats[i], DRM_FORMAT_MOD_LINEAR);
			if (ret == 0)
				ret = add_format(plane, &cap, p->formats[i], DRM_FORMAT_MOD_INVALID);
			if (ret < 0) {
				dispman_log(DISPMAN_LOG_ERROR, "plane %u: out of memory", id);
				goto out;
			}
		}
	}
	ret = 0;

	if (plane->props.zpos)
		plane->zpos_mutable = !props_is_immutable(device_fd(dev), plane->props.zpos);
	if (plane->props.pixel_blend_mode) {
		static const char *const names[] = { "Pre-multiplied", "Coverage", "None" };
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			plane->has_blend[i] = props_get_enum_value(device_fd(dev),
				plane->props.pixel_blend_mode, names[i], &plane->blend_values[i]) == 0;
	}
	if (plane->props.rotation) {
		/* a bitmask property: each name's value is its bit (DRM_MODE_ROTATE_0 is bit 0) */
		static const char *const names[] = { "rotate-0", "rotate-90", "rotate-180",
			"rotate-270", "reflect-x", "reflect-y" };
		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			uint64_t bit;
			if (props_get_enum_value(device_fd(dev), plane->props.rotation, names[i],
			    &bit) == 0 && bit < 32)
				plane->rotations |= 1u << bit;
		}
	}
out:
	drmModeFreePlane(p);
	return ret;
}

struct plane *plane_create(struct dispman_device *dev, uint32_t id)
{
	struct plane *plane = calloc(1, sizeof(*plane));
	if (!plane) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory reading planes");
		errno = ENOMEM;
		return NULL;
	}
	int ret = plane_read(dev, plane, id);
	if (ret < 0) {
		plane_free(plane);
		errno = -ret;
		return NULL;
	}
	return plane;
}

void plane_destroy(struct plane *plane)
{
	if (plane)
		plane_free(plane);
}

uint32_t plane_id(const struct plane *plane)
{
	return plane->id;
}

int plane_type(const struct plane *plane)
{
	return plane->type;
}

uint32_t plane_possible_crtcs(const struct plane *plane)
{
	return plane->possible_crtcs;
}

const struct plane_props *plane_props(const struct plane *plane)
{
	return &plane->props;
}

const struct plan_format *plane_formats(const struct plane *plane, size_t *n)
{
	*n = plane->n_formats;
	return plane->formats;
}

bool plane_zpos_mutable(const struct plane *plane)
{
	return plane->zpos_mutable;
}

uint64_t plane_zpos_min(const struct plane *plane)
{
	return plane->zpos_min;
}

uint64_t plane_zpos_max(const struct plane *plane)
{
	return plane->zpos_max;
}

uint32_t plane_rotations(const struct plane *plane)
{
	return plane->rotations;
}

bool plane_has_blend(const struct plane *plane, enum dispman_blend_mode mode)
{
	return (size_t)mode < ARRAY_SIZE(plane->has_blend) && plane->has_blend[mode];
}

uint64_t plane_blend_value(const struct plane *plane, enum dispman_blend_mode mode)
{
	return (size_t)mode < ARRAY_SIZE(plane->blend_values) ? plane->blend_values[mode] : 0;
}

struct dispman_layer *plane_cur_layer(const struct plane *plane)
{
	return plane->cur_layer;
}

unsigned plane_cur_zpos(const struct plane *plane)
{
	return plane->cur_zpos;
}

uint32_t plane_cur_fb_id(const struct plane *plane)
{
	return plane->cur_fb_id;
}

uint32_t plane_cur_crtc_id(const struct plane *plane)
{
	return plane->cur_crtc_id;
}

bool plane_in_use(const struct plane *plane)
{
	return plane->cur_layer || plane->cur_fb_id || plane->cur_crtc_id;
}

void plane_set_kernel_state(struct plane *plane, uint32_t fb_id, uint32_t crtc_id)
{
	plane->cur_fb_id = fb_id;
	plane->cur_crtc_id = crtc_id;
	plane->cur_rect_known = false;
}

const struct plane_rect *plane_cur_rect(const struct plane *plane)
{
	return plane->cur_rect_known ? &plane->cur_rect : NULL;
}

void plane_record_rect(struct plane *plane, const struct plane_rect *rect)
{
	plane->cur_rect_known = rect != NULL;
	if (rect)
		plane->cur_rect = *rect;
}

void plane_read_zpos(struct dispman_device *dev, struct plane *p)
{
	if (p->zpos_read)
		return;
	p->zpos_read = true;
	p->zpos_min = p->zpos_max = 0;
	if (!p->props.zpos)
		return;
	drmModePropertyRes *prop = drmModeGetProperty(device_fd(dev), p->props.zpos);
	if (prop && (prop->flags & DRM_MODE_PROP_RANGE) && prop->count_values >= 2) {
		p->zpos_min = prop->values[0];
		p->zpos_max = prop->values[1];
	}
	drmModeFreeProperty(prop);
	uint64_t cur;
	if (!p->zpos_mutable &&
	    props_get_value(device_fd(dev), p->id, DRM_MODE_OBJECT_PLANE, "zpos", &cur) == 0)
		p->zpos_min = p->zpos_max = cur;
}

void plane_record_commit(struct plane *plane, struct dispman_layer *layer, unsigned zpos,
	uint32_t fb_id, uint32_t crtc_id)
{
	plane->cur_layer = layer;
	plane->cur_zpos = zpos;
	plane->cur_fb_id = fb_id;
	plane->cur_crtc_id = crtc_id;
	if (!layer)
		plane->cur_rect_known = false;
}

bool plane_has_format(const struct plane *plane, uint32_t format)
{
	for (size_t i = 0; i < plane->n_formats; i++)
		if (plane->formats[i].format == format)
			return true;
	return false;
}

bool plane_has_format_modifier(const struct plane *plane, uint32_t format, uint64_t modifier)
{
	for (size_t i = 0; i < plane->n_formats; i++) {
		if (plane->formats[i].format != format)
			continue;
		if (modifier == DRM_FORMAT_MOD_INVALID || plane->formats[i].modifier == modifier)
			return true;
	}
	return false;
}

bool planes_take(struct plane *const *planes, size_t n, uint32_t format, uint64_t modifier,
	bool cursor)
{
	for (size_t i = 0; i < n; i++)
		if ((cursor || planes[i]->type != DRM_PLANE_TYPE_CURSOR) &&
		    plane_has_format_modifier(planes[i], format, modifier))
			return true;
	return false;
}

const char *plane_type_name(int type)
{
	switch (type) {
	case DRM_PLANE_TYPE_PRIMARY:
		return "primary";
	case DRM_PLANE_TYPE_OVERLAY:
		return "overlay";
	case DRM_PLANE_TYPE_CURSOR:
		return "cursor";
	default:
		return "unknown";
	}
}
