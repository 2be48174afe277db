/* SPDX-License-Identifier: MIT */
/* Introspection: the KMS pipeline as text, JSON or a Graphviz graph. */
#include <errno.h>
#include <xf86drm.h>

#include "crtc.h"
#include "device.h"
#include "log.h"
#include "output.h"
#include "plane.h"

#include <drm_fourcc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* A small emitter that prints nested objects as indented text or as JSON. */
struct em {
	FILE *f;
	bool json;
	int depth;
	bool first[32];
	bool in_array[32];
};

static void em_indent(struct em *em)
{
	for (int i = 0; i < em->depth; i++)
		fputs("  ", em->f);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Starts a member; key is ignored inside arrays. */
static void em_key(struct em *em, const char *key)
{
	if (em->json) {
		if (!em->first[em->depth])
			fputc(',', em->f);
		em->first[em->depth] = false;
		fputc('\n', em->f);
		em_indent(em);
		if (!em->in_array[em->depth]) {
			json_string(em->f, key);
			fputs(": ", em->f);
		}
	} else {
		em_indent(em);
		if (em->in_array[em->depth])
			fputs("- ", em->f);
		else
			fprintf(em->f, "%s: ", key);
	}
}

static void em_open(struct em *em, const char *key, bool array)
{
	if (em->json) {
		em_key(em, key);
		fputc(array ? '[' : '{', em->f);
	} else {
		/* "key:" or "-" alone on its line: no trailing whitespace */
		em_indent(em);
		if (em->in_array[em->depth])
			fputs("-\n", em->f);
		else
			fprintf(em->f, "%s:\n", key);
	}
	if (em->depth < (int)ARRAY_SIZE(em->first) - 1)
		em->depth++;
	em->first[em->depth] = true;
	em->in_array[em->depth] = array;
}

static void em_close(struct em *em)
{
	bool array = em->in_array[em->depth];
	bool empty = em->first[em->depth];
	em->depth--;
	if (em->json) {
		if (!empty) {
			fputc('\n', em->f);
			em_indent(em);
		}
		fputc(array ? ']' : '}', em->f);
	}
}

static void em_str(struct em *em, const char *key, const char *value)
{
	em_key(em, key);
	if (em->json)
		json_string(em->f, value ? value : "");
	else
		fprintf(em->f, "%s\n", value ? value : "");
}

static void em_uint(struct em *em, const char *key, uint64_t value)
{
	em_key(em, key);
	fprintf(em->f, em->json ? "%" PRIu64 : "%" PRIu64 "\n", value);
}

static void em_int(struct em *em, const char *key, int64_t value)
{
	em_key(em, key);
	fprintf(em->f, em->json ? "%" PRId64 : "%" PRId64 "\n", value);
}

static void em_bool(struct em *em, const char *key, bool value)
{
	em_key(em, key);
	fprintf(em->f, em->json ? "%s" : "%s\n", value ? "true" : "false");
}

static void em_crtc_mask(struct em *em, struct dispman_device *dev, const char *key,
	uint32_t mask)
{
	em_open(em, key, true);
	for (size_t i = 0; i < device_n_crtcs(dev); i++)
		if (mask & (1u << crtc_index(device_crtc(dev, i))))
			em_uint(em, NULL, crtc_id(device_crtc(dev, i)));
	em_close(em);
}

static void format_name(uint32_t fourcc, char out[64])
{
	char *name = drmGetFormatName(fourcc);
	if (name) {
		snprintf(out, 64, "%s", name);
		free(name);
	} else {
		snprintf(out, 64, "0x%08x", fourcc);
	}
}

static void modifier_name(uint64_t mod, char out[128])
{
	char *name = drmGetFormatModifierName(mod);
	if (name) {
		snprintf(out, 128, "%s", name);
		free(name);
	} else {
		snprintf(out, 128, "0x%016" PRIx64, mod);
	}
}

static const char *prop_type_name(drmModePropertyRes *prop)
{
	if (drm_property_type_is(prop, DRM_MODE_PROP_SIGNED_RANGE))
		return "signed range";
	if (drm_property_type_is(prop, DRM_MODE_PROP_RANGE))
		return "range";
	if (drm_property_type_is(prop, DRM_MODE_PROP_ENUM))
		return "enum";
	if (drm_property_type_is(prop, DRM_MODE_PROP_BITMASK))
		return "bitmask";
	if (drm_property_type_is(prop, DRM_MODE_PROP_BLOB))
		return "blob";
	if (drm_property_type_is(prop, DRM_MODE_PROP_OBJECT))
		return "object";
	return "unknown";
}

static const char *object_type_name(uint64_t type)
{
	switch (type) {
	case DRM_MODE_OBJECT_CRTC: return "CRTC";
	case DRM_MODE_OBJECT_CONNECTOR: return "connector";
	case DRM_MODE_OBJECT_ENCODER: return "encoder";
	case DRM_MODE_OBJECT_MODE: return "mode";
	case DRM_MODE_OBJECT_PROPERTY: return "property";
	case DRM_MODE_OBJECT_FB: return "framebuffer";
	case DRM_MODE_OBJECT_BLOB: return "blob";
	case DRM_MODE_OBJECT_PLANE: return "plane";
	case DRM_MODE_OBJECT_ANY: return "any";
	default: return "unknown";
	}
}

/* The property's flags other than its type: ", atomic, immutable, pending" (or ""). */
static void prop_flag_names(drmModePropertyRes *prop, char out[64])
{
	snprintf(out, 64, "%s%s%s", (prop->flags & DRM_MODE_PROP_ATOMIC) ? ", atomic" : "",
		(prop->flags & DRM_MODE_PROP_IMMUTABLE) ? ", immutable" : "",
		(prop->flags & DRM_MODE_PROP_PENDING) ? ", pending" : "");
}

/* Appends printf output to buf of size n at *len, truncating. */
static void appendf(char *buf, size_t n, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void appendf(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	if (*len >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	*len = r < 0 ? n : *len + (size_t)r > n ? n : *len + (size_t)r;
}

static const char *enum_name(drmModePropertyRes *prop, uint64_t value)
{
	for (int i = 0; i < prop->count_enums; i++)
		if (prop->enums[i].value == value)
			return prop->enums[i].name;
	return NULL;
}

static void bitmask_names(drmModePropertyRes *prop, uint64_t value, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < prop->count_enums; i++)
		if (prop->enums[i].value < 64 && (value & (1ull << prop->enums[i].value)))
			appendf(buf, n, &len, "%s%s", len ? "|" : "", prop->enums[i].name);
}

static void mode_flag_names(const drmModeModeInfo *mi, char *buf, size_t n)
{
	static const struct { uint32_t bit; const char *name; } flags[] = {
		{ DRM_MODE_FLAG_PHSYNC, "phsync" }, { DRM_MODE_FLAG_NHSYNC, "nhsync" },
		{ DRM_MODE_FLAG_PVSYNC, "pvsync" }, { DRM_MODE_FLAG_NVSYNC, "nvsync" },
		{ DRM_MODE_FLAG_INTERLACE, "interlace" }, { DRM_MODE_FLAG_DBLSCAN, "dblscan" },
		{ DRM_MODE_FLAG_CSYNC, "csync" }, { DRM_MODE_FLAG_PCSYNC, "pcsync" },
		{ DRM_MODE_FLAG_NCSYNC, "ncsync" }, { DRM_MODE_FLAG_HSKEW, "hskew" },
		{ DRM_MODE_FLAG_DBLCLK, "dblclk" }, { DRM_MODE_FLAG_CLKDIV2, "clkdiv2" },
	};
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (mi->flags & flags[i].bit)
			appendf(buf, n, &len, "%s%s", len ? " " : "", flags[i].name);
}

static void mode_type_names(const drmModeModeInfo *mi, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	if (mi->type & DRM_MODE_TYPE_PREFERRED)
		appendf(buf, n, &len, "preferred");
	if (mi->type & DRM_MODE_TYPE_DRIVER)
		appendf(buf, n, &len, "%sdriver", len ? " " : "");
	if (mi->type & DRM_MODE_TYPE_USERDEF)
		appendf(buf, n, &len, "%suserdef", len ? " " : "");
}

static uint64_t mode_refresh_mhz(const drmModeModeInfo *mi)
{
	if (!mi->htotal || !mi->vtotal)
		return 0;
	uint64_t mhz = (uint64_t)mi->clock * 1000000u / mi->htotal / mi->vtotal;
	if (mi->flags & DRM_MODE_FLAG_INTERLACE)
		mhz *= 2;
	if (mi->flags & DRM_MODE_FLAG_DBLSCAN)
		mhz /= 2;
	if (mi->vscan > 1)
		mhz /= mi->vscan;
	return mhz;
}

/*
 * A mode with its timings: in JSON an object with the kernel's fields (as drm_info
 * prints them) plus refresh_mhz and names of flags and type; in text one line
 * "1024x768@60.003 preferred: 65000 kHz, h 1024 1048 1184 1344 0, v 768 771 777 806 0,
 * flags nhsync nvsync, type preferred driver".
 */
static void em_mode(struct em *em, const char *key, const drmModeModeInfo *mi)
{
	char flags[128], type[64], line[320];
	mode_flag_names(mi, flags, sizeof(flags));
	mode_type_names(mi, type, sizeof(type));
	uint64_t mhz = mode_refresh_mhz(mi);
	char name[DRM_DISPLAY_MODE_LEN + 1];
	snprintf(name, sizeof(name), "%s", mi->name);
	if (!em->json) {
		snprintf(line, sizeof(line), "%ux%u@%" PRIu64 ".%03" PRIu64 "%s: %u kHz, "
			"h %u %u %u %u %u, v %u %u %u %u %u, flags %s, type %s",
			mi->hdisplay, mi->vdisplay, mhz / 1000, mhz % 1000,
			(mi->type & DRM_MODE_TYPE_PREFERRED) ? " preferred" : "", mi->clock,
			mi->hdisplay, mi->hsync_start, mi->hsync_end, mi->htotal, mi->hskew,
			mi->vdisplay, mi->vsync_start, mi->vsync_end, mi->vtotal, mi->vscan,
			flags[0] ? flags : "none", type[0] ? type : "none");
		em_str(em, key, line);
		return;
	}
	em_open(em, key, false);
	em_str(em, "name", name);
	em_uint(em, "clock", mi->clock);
	em_uint(em, "hdisplay", mi->hdisplay);
	em_uint(em, "hsync_start", mi->hsync_start);
	em_uint(em, "hsync_end", mi->hsync_end);
	em_uint(em, "htotal", mi->htotal);
	em_uint(em, "hskew", mi->hskew);
	em_uint(em, "vdisplay", mi->vdisplay);
	em_uint(em, "vsync_start", mi->vsync_start);
	em_uint(em, "vsync_end", mi->vsync_end);
	em_uint(em, "vtotal", mi->vtotal);
	em_uint(em, "vscan", mi->vscan);
	em_uint(em, "vrefresh", mi->vrefresh);
	em_uint(em, "refresh_mhz", mhz);
	em_uint(em, "flags", mi->flags);
	em_str(em, "flag_names", flags);
	em_uint(em, "type", mi->type);
	em_str(em, "type_names", type);
	em_bool(em, "preferred", mi->type & DRM_MODE_TYPE_PREFERRED);
	em_close(em);
}

/* The decoded content of the blobs drm_info decodes too; NULL blob: nothing. */
static void em_blob_data(struct em *em, struct dispman_device *dev, drmModePropertyRes *prop,
	uint64_t value)
{
	if (!value || value > UINT32_MAX)
		return;
	drmModePropertyBlobRes *blob = drmModeGetPropertyBlob(device_fd(dev), (uint32_t)value);
	if (!blob)
		return;
	char name[128];
	if (strcmp(prop->name, "IN_FORMATS") == 0 &&
	    blob->length >= sizeof(struct drm_format_modifier_blob)) {
		const struct drm_format_modifier_blob *h = blob->data;
		const uint32_t *fmts = (const uint32_t *)(const void *)((const char *)blob->data +
			h->formats_offset);
		const struct drm_format_modifier *mods = (const void *)((const char *)blob->data +
			h->modifiers_offset);
		if ((uint64_t)h->formats_offset + (uint64_t)h->count_formats * 4 > blob->length ||
		    (uint64_t)h->modifiers_offset + (uint64_t)h->count_modifiers * sizeof(*mods) >
		    blob->length)
			goto out;
		em_open(em, "data", true);
		for (uint32_t m = 0; m < h->count_modifiers; m++) {
			em_open(em, NULL, false);
			em_uint(em, "modifier", mods[m].modifier);
			modifier_name(mods[m].modifier, name);
			em_str(em, "modifier_name", name);
			em_open(em, "formats", true);
			for (uint32_t f = 0; f < 64 && mods[m].offset + f < h->count_formats; f++)
				if (mods[m].formats & (1ull << f))
					em_uint(em, NULL, fmts[mods[m].offset + f]);
			em_close(em);
			em_close(em);
		}
		em_close(em);
	} else if (strcmp(prop->name, "WRITEBACK_PIXEL_FORMATS") == 0) {
		em_open(em, "data", true);
		for (uint32_t i = 0; i + 4 <= blob->length; i += 4)
			em_uint(em, NULL, ((const uint32_t *)blob->data)[i / 4]);
		em_close(em);
	} else if (strcmp(prop->name, "MODE_ID") == 0 && blob->length == sizeof(drmModeModeInfo)) {
		em_mode(em, "data", blob->data);
	}
out:
	drmModeFreePropertyBlob(blob);
}

/*
 * One property. JSON: {"id", "type", "flags", "flags_raw", "raw_value", "value" (signed for
 * a signed range), "enums"/"range"/"object_type" (the property's spec), "enum" or "bits"
 * (the names of the value), "data" (decoded blobs)}. Text: one line
 * "NAME: value [type flags; spec]".
 */
/* What a property is, from its type flags. */
struct prop_kind {
	bool is_enum, is_bits, is_srange, is_range, is_obj, is_blob;
};

/* Text: one line, the value (enum or bit names) then [type, flags; range or enums]. */
static void em_property_text(struct em *em, drmModePropertyRes *prop, uint64_t value,
	const struct prop_kind *k, const char *flags, const char *names)
{
	char line[1024];
	size_t len = 0;
	if (k->is_enum && names[0])
		appendf(line, sizeof(line), &len, "%s", names);
	else if (k->is_bits)
		appendf(line, sizeof(line), &len, "%s (0x%" PRIx64 ")", names[0] ? names : "none",
			value);
	else if (k->is_srange)
		appendf(line, sizeof(line), &len, "%" PRId64, (int64_t)value);
	else
		appendf(line, sizeof(line), &len, "%" PRIu64, value);
	appendf(line, sizeof(line), &len, " [%s%s", prop_type_name(prop), flags);
	if (k->is_range && prop->count_values >= 2)
		appendf(line, sizeof(line), &len, "; %" PRIu64 "..%" PRIu64,
			(uint64_t)prop->values[0], (uint64_t)prop->values[1]);
	if (k->is_srange && prop->count_values >= 2)
		appendf(line, sizeof(line), &len, "; %" PRId64 "..%" PRId64,
			(int64_t)prop->values[0], (int64_t)prop->values[1]);
	if (k->is_obj && prop->count_values >= 1)
		appendf(line, sizeof(line), &len, "; %s", object_type_name(prop->values[0]));
	if (k->is_enum || k->is_bits) {
		appendf(line, sizeof(line), &len, ";");
		for (int i = 0; i < prop->count_enums; i++)
			appendf(line, sizeof(line), &len, " %s=%" PRIu64, prop->enums[i].name,
				(uint64_t)prop->enums[i].value);
	}
	appendf(line, sizeof(line), &len, "]");
	em_str(em, prop->name, line);
}

/* JSON: range, object type and enums of a property. */
static void em_property_domain(struct em *em, drmModePropertyRes *prop,
	const struct prop_kind *k)
{
	if ((k->is_range || k->is_srange) && prop->count_values >= 2) {
		em_open(em, "range", false);
		if (k->is_srange) {
			em_int(em, "min", (int64_t)prop->values[0]);
			em_int(em, "max", (int64_t)prop->values[1]);
		} else {
			em_uint(em, "min", prop->values[0]);
			em_uint(em, "max", prop->values[1]);
		}
		em_close(em);
	}
	if (k->is_obj && prop->count_values >= 1)
		em_str(em, "object_type", object_type_name(prop->values[0]));
	if (k->is_enum || k->is_bits) {
		em_open(em, "enums", true);
		for (int i = 0; i < prop->count_enums; i++) {
			em_open(em, NULL, false);
			em_str(em, "name", prop->enums[i].name);
			em_uint(em, "value", prop->enums[i].value);
			em_close(em);
		}
		em_close(em);
	}
}

static void em_property(struct em *em, struct dispman_device *dev, drmModePropertyRes *prop,
	uint64_t value)
{
	char flags[64], names[256];
	struct prop_kind k = {
		.is_enum = drm_property_type_is(prop, DRM_MODE_PROP_ENUM),
		.is_bits = drm_property_type_is(prop, DRM_MODE_PROP_BITMASK),
		.is_srange = drm_property_type_is(prop, DRM_MODE_PROP_SIGNED_RANGE),
		.is_range = drm_property_type_is(prop, DRM_MODE_PROP_RANGE),
		.is_obj = drm_property_type_is(prop, DRM_MODE_PROP_OBJECT),
		.is_blob = drm_property_type_is(prop, DRM_MODE_PROP_BLOB),
	};
	prop_flag_names(prop, flags);
	names[0] = 0;
	if (k.is_enum) {
		const char *n = enum_name(prop, value);
		snprintf(names, sizeof(names), "%s", n ? n : "");
	} else if (k.is_bits) {
		bitmask_names(prop, value, names, sizeof(names));
	}
	if (!em->json) {
		em_property_text(em, prop, value, &k, flags, names);
		return;
	}
	em_open(em, prop->name, false);
	em_uint(em, "id", prop->prop_id);
	em_str(em, "type", prop_type_name(prop));
	em_open(em, "flags", true);
	if (prop->flags & DRM_MODE_PROP_ATOMIC)
		em_str(em, NULL, "atomic");
	if (prop->flags & DRM_MODE_PROP_IMMUTABLE)
		em_str(em, NULL, "immutable");
	if (prop->flags & DRM_MODE_PROP_PENDING)
		em_str(em, NULL, "pending");
	em_close(em);
	em_uint(em, "flags_raw", prop->flags);
	em_uint(em, "raw_value", value);
	if (k.is_srange)
		em_int(em, "value", (int64_t)value);
	else
		em_uint(em, "value", value);
	if (k.is_enum)
		em_str(em, "enum", names);
	if (k.is_bits)
		em_str(em, "bits", names);
	em_property_domain(em, prop, &k);
	if (k.is_blob)
		em_blob_data(em, dev, prop, value);
	em_close(em);
}

static int em_properties(struct em *em, struct dispman_device *dev, uint32_t id, uint32_t type)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(device_fd(dev), id, type);
	if (!props) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "describe: no properties for object %u",
			id);
		return -err;
	}
	em_open(em, "properties", false);
	for (uint32_t i = 0; i < props->count_props; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(device_fd(dev), props->props[i]);
		if (!prop)
			continue;
		em_property(em, dev, prop, props->prop_values[i]);
		drmModeFreeProperty(prop);
	}
	em_close(em);
	drmModeFreeObjectProperties(props);
	return 0;
}

/* Device caps (drmGetCap) under the names drm_info uses; caps the kernel does not know
 * are left out. */
static void em_caps(struct em *em, struct dispman_device *dev)
{
	static const struct { uint64_t cap; const char *name; } caps[] = {
		{ DRM_CAP_DUMB_BUFFER, "DUMB_BUFFER" },
		{ DRM_CAP_VBLANK_HIGH_CRTC, "VBLANK_HIGH_CRTC" },
		{ DRM_CAP_DUMB_PREFERRED_DEPTH, "DUMB_PREFERRED_DEPTH" },
		{ DRM_CAP_DUMB_PREFER_SHADOW, "DUMB_PREFER_SHADOW" },
		{ DRM_CAP_PRIME, "PRIME" },
		{ DRM_CAP_TIMESTAMP_MONOTONIC, "TIMESTAMP_MONOTONIC" },
		{ DRM_CAP_ASYNC_PAGE_FLIP, "ASYNC_PAGE_FLIP" },
		{ DRM_CAP_CURSOR_WIDTH, "CURSOR_WIDTH" },
		{ DRM_CAP_CURSOR_HEIGHT, "CURSOR_HEIGHT" },
		{ DRM_CAP_ADDFB2_MODIFIERS, "ADDFB2_MODIFIERS" },
		{ DRM_CAP_PAGE_FLIP_TARGET, "PAGE_FLIP_TARGET" },
		{ DRM_CAP_CRTC_IN_VBLANK_EVENT, "CRTC_IN_VBLANK_EVENT" },
		{ DRM_CAP_SYNCOBJ, "SYNCOBJ" },
		{ DRM_CAP_SYNCOBJ_TIMELINE, "SYNCOBJ_TIMELINE" },
		{ 0x15, "ATOMIC_ASYNC_PAGE_FLIP" }, /* DRM_CAP_ATOMIC_ASYNC_PAGE_FLIP, Linux 6.8 */
	};
	em_open(em, "caps", false);
	for (size_t i = 0; i < ARRAY_SIZE(caps); i++) {
		uint64_t v;
		if (drmGetCap(device_fd(dev), caps[i].cap, &v) == 0)
			em_uint(em, caps[i].name, v);
	}
	em_close(em);
	/* Client caps: the ones the library set at open, and the two it leaves off, asked by
	 * setting them to their current value 0 (which any kernel that knows them accepts). */
	em_open(em, "client_caps", false);
	em_bool(em, "STEREO_3D", drmSetClientCap(device_fd(dev), DRM_CLIENT_CAP_STEREO_3D, 0) == 0);
	em_bool(em, "UNIVERSAL_PLANES", true);
	em_bool(em, "ATOMIC", true);
	em_bool(em, "ASPECT_RATIO",
		drmSetClientCap(device_fd(dev), DRM_CLIENT_CAP_ASPECT_RATIO, 0) == 0);
	em_bool(em, "WRITEBACK_CONNECTORS", device_writeback_cap(dev));
	em_bool(em, "CURSOR_PLANE_HOTSPOT", device_cursor_hotspot_cap(dev));
	em_close(em);
}

static const char *encoder_type_name(uint32_t type)
{
	static const char *const names[] = {
		"none", "DAC", "TMDS", "LVDS", "TVDAC", "virtual", "DSI", "DPMST", "DPI",
	};
	return type < ARRAY_SIZE(names) ? names[type] : "unknown";
}

static const char *connection_name(drmModeConnection c)
{
	switch (c) {
	case DRM_MODE_CONNECTED:
		return "connected";
	case DRM_MODE_DISCONNECTED:
		return "disconnected";
	default:
		return "unknown";
	}
}

static void em_version(struct em *em, struct dispman_device *dev)
{
	drmVersion *ver = drmGetVersion(device_fd(dev));
	em_str(em, "driver", ver && ver->name ? ver->name : "");
	em_open(em, "version", false);
	em_str(em, "desc", ver && ver->desc ? ver->desc : "");
	em_str(em, "date", ver && ver->date ? ver->date : "");
	em_int(em, "major", ver ? ver->version_major : 0);
	em_int(em, "minor", ver ? ver->version_minor : 0);
	em_int(em, "patch", ver ? ver->version_patchlevel : 0);
	em_close(em);
	drmFreeVersion(ver);
}

/* One connector object; returns em_properties()'s result. */
static int em_connector(struct em *em, struct dispman_device *dev, drmModeConnector *c)
{
	char name[128];
	em_open(em, NULL, false);
	em_uint(em, "id", c->connector_id);
	snprintf(name, sizeof(name), "%s-%u", connector_type_name(c->connector_type),
		c->connector_type_id);
	em_str(em, "name", name);
	em_uint(em, "type", c->connector_type);
	em_uint(em, "type_id", c->connector_type_id);
	em_bool(em, "writeback", c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK);
	em_str(em, "status", connection_name(c->connection));
	em_uint(em, "width_mm", c->mmWidth);
	em_uint(em, "height_mm", c->mmHeight);
	em_uint(em, "subpixel", c->subpixel);
	em_uint(em, "encoder_id", c->encoder_id);
	em_open(em, "encoders", true);
	for (int e = 0; e < c->count_encoders; e++)
		em_uint(em, NULL, c->encoders[e]);
	em_close(em);
	em_open(em, "modes", true);
	for (int m = 0; m < c->count_modes; m++)
		em_mode(em, NULL, &c->modes[m]);
	em_close(em);
	int r = em_properties(em, dev, c->connector_id, DRM_MODE_OBJECT_CONNECTOR);
	em_close(em);
	return r;
}

static void em_encoder(struct em *em, struct dispman_device *dev, const drmModeEncoder *e)
{
	em_open(em, NULL, false);
	em_uint(em, "id", e->encoder_id);
	em_str(em, "type", encoder_type_name(e->encoder_type));
	em_uint(em, "type_code", e->encoder_type);
	em_uint(em, "crtc_id", e->crtc_id);
	em_crtc_mask(em, dev, "possible_crtcs", e->possible_crtcs);
	em_uint(em, "possible_crtcs_mask", e->possible_crtcs);
	em_uint(em, "possible_clones", e->possible_clones);
	em_close(em);
}

/* CRTC i of the device; returns em_properties()'s result. */
static int em_crtc(struct em *em, struct dispman_device *dev, size_t i)
{
	uint32_t id = crtc_id(device_crtc(dev, i));
	drmModeCrtc *c = drmModeGetCrtc(device_fd(dev), id);
	em_open(em, NULL, false);
	em_uint(em, "id", id);
	em_uint(em, "index", crtc_index(device_crtc(dev, i)));
	if (c) {
		em_uint(em, "fb_id", c->buffer_id);
		em_uint(em, "x", c->x);
		em_uint(em, "y", c->y);
		em_int(em, "gamma_size", c->gamma_size);
		if (c->mode_valid)
			em_mode(em, "mode", &c->mode);
		else
			em_str(em, "mode", "off");
		drmModeFreeCrtc(c);
	}
	int r = em_properties(em, dev, id, DRM_MODE_OBJECT_CRTC);
	em_close(em);
	return r;
}

/* The plane's kernel state now (drmModeGetPlane), as drm_info has it. */
static void em_plane_state(struct em *em, struct dispman_device *dev, uint32_t id)
{
	drmModePlane *kp = drmModeGetPlane(device_fd(dev), id);
	if (!kp)
		return;
	em_uint(em, "crtc_id", kp->crtc_id);
	em_uint(em, "fb_id", kp->fb_id);
	em_uint(em, "crtc_x", kp->crtc_x);
	em_uint(em, "crtc_y", kp->crtc_y);
	em_uint(em, "x", kp->x);
	em_uint(em, "y", kp->y);
	em_uint(em, "gamma_size", kp->gamma_size);
	em_open(em, "format_codes", true);
	for (uint32_t f = 0; f < kp->count_formats; f++)
		em_uint(em, NULL, kp->formats[f]);
	em_close(em);
	drmModeFreePlane(kp);
}

/* The plane's formats and modifiers, each named once. */
static void em_plane_formats(struct em *em, const struct plane *p)
{
	char name[128];
	size_t n;
	const struct plan_format *formats = plane_formats(p, &n);
	em_open(em, "formats", true);
	for (size_t f = 0; f < n; f++) {
		bool seen = false;
		for (size_t g = 0; g < f && !seen; g++)
			seen = formats[g].format == formats[f].format;
		if (seen)
			continue;
		format_name(formats[f].format, name);
		em_str(em, NULL, name);
	}
	em_close(em);
	/* A plane without a readable IN_FORMATS has no modifier list (the library then
	 * assumes LINEAR or the kernel's implicit layout, stored as the pseudo-modifier
	 * DRM_FORMAT_MOD_INVALID): print none rather than "INVALID". */
	bool implicit = false;
	for (size_t f = 0; f < n; f++)
		implicit = implicit || formats[f].modifier == DRM_FORMAT_MOD_INVALID;
	em_bool(em, "in_formats", !implicit);
	em_open(em, "modifiers", true);
	for (size_t f = 0; f < n && !implicit; f++) {
		bool seen = false;
		for (size_t g = 0; g < f && !seen; g++)
			seen = formats[g].modifier == formats[f].modifier;
		if (seen)
			continue;
		modifier_name(formats[f].modifier, name);
		em_str(em, NULL, name);
	}
	em_close(em);
}

/* One plane; returns em_properties()'s result. */
static int em_plane(struct em *em, struct dispman_device *dev, const struct plane *p)
{
	em_open(em, NULL, false);
	em_uint(em, "id", plane_id(p));
	em_str(em, "type", plane_type_name(plane_type(p)));
	em_crtc_mask(em, dev, "possible_crtcs", plane_possible_crtcs(p));
	em_uint(em, "possible_crtcs_mask", plane_possible_crtcs(p));
	em_plane_state(em, dev, plane_id(p));
	em_plane_formats(em, p);
	int r = em_properties(em, dev, plane_id(p), DRM_MODE_OBJECT_PLANE);
	em_close(em);
	return r;
}

static int describe_tree(struct dispman_device *dev, drmModeRes *res, struct em *em)
{
	int ret = 0, r;
	if (em->json)
		fputc('{', em->f);
	em_version(em, dev);
	em_caps(em, dev);
	em_open(em, "fb_size", false);
	em_uint(em, "min_width", res->min_width);
	em_uint(em, "max_width", res->max_width);
	em_uint(em, "min_height", res->min_height);
	em_uint(em, "max_height", res->max_height);
	em_close(em);
	em_open(em, "connectors", true);
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(device_fd(dev), res->connectors[i]);
		if (!c)
			continue;
		r = em_connector(em, dev, c);
		ret = ret ? ret : r;
		drmModeFreeConnector(c);
	}
	em_close(em);
	em_open(em, "encoders", true);
	for (int i = 0; i < res->count_encoders; i++) {
		drmModeEncoder *e = drmModeGetEncoder(device_fd(dev), res->encoders[i]);
		if (!e)
			continue;
		em_encoder(em, dev, e);
		drmModeFreeEncoder(e);
	}
	em_close(em);
	em_open(em, "crtcs", true);
	for (size_t i = 0; i < device_n_crtcs(dev); i++) {
		r = em_crtc(em, dev, i);
		ret = ret ? ret : r;
	}
	em_close(em);
	em_open(em, "planes", true);
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		r = em_plane(em, dev, device_plane(dev, i));
		ret = ret ? ret : r;
	}
	em_close(em);
	if (em->json)
		fputs("\n}\n", em->f);
	return ret;
}

static int describe_dot(struct dispman_device *dev, drmModeRes *res, FILE *f)
{
	char name[128];
	drmVersion *ver = drmGetVersion(device_fd(dev));
	fputs("digraph kms {\n\trankdir=LR\n\tnode [shape=record]\n", f);
	fprintf(f, "\tlabel=\"%s\"\n", ver && ver->name ? ver->name : "");
	drmFreeVersion(ver);
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		const struct plane *p = device_plane(dev, i);
		uint32_t id = plane_id(p);
		fprintf(f, "\tplane_%u [label=\"{plane %u|%s|", id, id,
			plane_type_name(plane_type(p)));
		size_t n;
		const struct plan_format *formats = plane_formats(p, &n);
		for (size_t fi = 0; fi < n; fi++) {
			bool seen = false;
			for (size_t g = 0; g < fi && !seen; g++)
				seen = formats[g].format == formats[fi].format;
			if (!seen) {
				format_name(formats[fi].format, name);
				fprintf(f, "%s%s", fi ? " " : "", name);
			}
		}
		fprintf(f, "}\", style=filled, fillcolor=%s]\n",
			plane_cur_fb_id(p) ? "lightgreen" : "white");
		for (size_t c = 0; c < device_n_crtcs(dev); c++) {
			const struct crtc *crtc = device_crtc(dev, c);
			if (!(plane_possible_crtcs(p) & (1u << crtc_index(crtc))))
				continue;
			bool active = plane_cur_crtc_id(p) == crtc_id(crtc);
			fprintf(f, "\tplane_%u -> crtc_%u [style=%s]\n", id, crtc_id(crtc),
				active ? "bold" : "dashed");
		}
	}
	for (size_t i = 0; i < device_n_crtcs(dev); i++) {
		uint32_t id = crtc_id(device_crtc(dev, i));
		drmModeCrtc *c = drmModeGetCrtc(device_fd(dev), id);
		if (c && c->mode_valid)
			snprintf(name, sizeof(name), "%ux%u", c->mode.hdisplay, c->mode.vdisplay);
		else
			snprintf(name, sizeof(name), "off");
		if (c)
			drmModeFreeCrtc(c);
		fprintf(f, "\tcrtc_%u [label=\"{CRTC %u|%s}\", style=filled, fillcolor=lightblue]\n",
			id, id, name);
	}
	for (int i = 0; i < res->count_encoders; i++) {
		drmModeEncoder *e = drmModeGetEncoder(device_fd(dev), res->encoders[i]);
		if (!e)
			continue;
		fprintf(f, "\tencoder_%u [label=\"{encoder %u|%s}\"]\n", e->encoder_id,
			e->encoder_id, encoder_type_name(e->encoder_type));
		for (size_t c = 0; c < device_n_crtcs(dev); c++) {
			if (!(e->possible_crtcs & (1u << crtc_index(device_crtc(dev, c)))))
				continue;
			uint32_t id = crtc_id(device_crtc(dev, c));
			fprintf(f, "\tcrtc_%u -> encoder_%u [style=%s]\n", id, e->encoder_id,
				e->crtc_id == id ? "bold" : "dashed");
		}
		drmModeFreeEncoder(e);
	}
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(device_fd(dev), res->connectors[i]);
		if (!c)
			continue;
		fprintf(f, "\tconnector_%u [label=\"{connector %u|%s-%u|%s}\", style=filled, "
			"fillcolor=%s]\n", c->connector_id, c->connector_id,
			connector_type_name(c->connector_type), c->connector_type_id,
			connection_name(c->connection),
			c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK ? "khaki" : "lightyellow");
		for (int e = 0; e < c->count_encoders; e++)
			fprintf(f, "\tencoder_%u -> connector_%u [style=%s]\n", c->encoders[e],
				c->connector_id, c->encoders[e] == c->encoder_id ? "bold" : "dashed");
		drmModeFreeConnector(c);
	}
	fputs("}\n", f);
	return 0;
}

int dispman_device_describe(struct dispman_device *dev, enum dispman_describe_format format,
	FILE *out)
{
	if (refuse_null(dev, "dev") || refuse_null(out, "out"))
		return -EINVAL;
	if ((unsigned)format > DISPMAN_DESCRIBE_DOT) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: unknown format %d", __func__, (int)format);
		return -EINVAL;
	}
	drmModeRes *res = drmModeGetResources(device_fd(dev));
	if (!res) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "describe: cannot get KMS resources");
		return -err;
	}
	int ret;
	if (format == DISPMAN_DESCRIBE_DOT) {
		ret = describe_dot(dev, res, out);
	} else {
		struct em em = { .f = out, .json = format == DISPMAN_DESCRIBE_JSON };
		em.first[0] = true;
		ret = describe_tree(dev, res, &em);
	}
	drmModeFreeResources(res);
	if (fflush(out) != 0 || ferror(out)) {
		int err = errno ? errno : EIO;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "describe: write failed");
		return -err;
	}
	return ret;
}
