/* SPDX-License-Identifier: MIT */
/* Introspection: the KMS pipeline as text, JSON or a Graphviz graph. */
#include "private.h"

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
	for (size_t i = 0; i < dev->n_crtcs; i++)
		if (mask & (1u << dev->crtcs[i].index))
			em_uint(em, NULL, dev->crtcs[i].id);
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

static void em_property_value(struct em *em, drmModePropertyRes *prop, uint64_t value)
{
	char buf[256];
	if (drm_property_type_is(prop, DRM_MODE_PROP_ENUM)) {
		for (int i = 0; i < prop->count_enums; i++) {
			if (prop->enums[i].value == value) {
				em_str(em, prop->name, prop->enums[i].name);
				return;
			}
		}
	} else if (drm_property_type_is(prop, DRM_MODE_PROP_BITMASK)) {
		size_t len = 0;
		buf[0] = 0;
		for (int i = 0; i < prop->count_enums; i++) {
			if (prop->enums[i].value < 64 && (value & (1ull << prop->enums[i].value)))
				len += (size_t)snprintf(buf + len, len < sizeof(buf) ? sizeof(buf) - len : 0,
					"%s%s", len ? "|" : "", prop->enums[i].name);
			if (len >= sizeof(buf))
				break;
		}
		em_str(em, prop->name, buf);
		return;
	} else if (drm_property_type_is(prop, DRM_MODE_PROP_SIGNED_RANGE)) {
		em_int(em, prop->name, (int64_t)value);
		return;
	}
	em_uint(em, prop->name, value);
}

static int em_properties(struct em *em, struct dispman_device *dev, uint32_t id, uint32_t type)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(dev->fd, id, type);
	if (!props) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "describe: no properties for object %u",
			id);
		return -err;
	}
	em_open(em, "properties", false);
	for (uint32_t i = 0; i < props->count_props; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(dev->fd, props->props[i]);
		if (!prop)
			continue;
		em_property_value(em, prop, props->prop_values[i]);
		drmModeFreeProperty(prop);
	}
	em_close(em);
	drmModeFreeObjectProperties(props);
	return 0;
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

static int describe_tree(struct dispman_device *dev, drmModeRes *res, struct em *em)
{
	char name[128];
	int ret = 0;
	if (em->json)
		fputc('{', em->f);

	drmVersion *ver = drmGetVersion(dev->fd);
	em_str(em, "driver", ver && ver->name ? ver->name : "");
	drmFreeVersion(ver);
	em_open(em, "connectors", true);
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(dev->fd, res->connectors[i]);
		if (!c)
			continue;
		em_open(em, NULL, false);
		em_uint(em, "id", c->connector_id);
		snprintf(name, sizeof(name), "%s-%u", connector_type_name(c->connector_type),
			c->connector_type_id);
		em_str(em, "name", name);
		em_bool(em, "writeback", c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK);
		em_str(em, "status", connection_name(c->connection));
		em_uint(em, "width_mm", c->mmWidth);
		em_uint(em, "height_mm", c->mmHeight);
		em_open(em, "encoders", true);
		for (int e = 0; e < c->count_encoders; e++)
			em_uint(em, NULL, c->encoders[e]);
		em_close(em);
		em_open(em, "modes", true);
		for (int m = 0; m < c->count_modes; m++) {
			const drmModeModeInfo *mi = &c->modes[m];
			uint64_t mhz = mi->htotal && mi->vtotal ?
				(uint64_t)mi->clock * 1000000u / mi->htotal / mi->vtotal : 0;
			snprintf(name, sizeof(name), "%ux%u@%" PRIu64 ".%03" PRIu64 "%s",
				mi->hdisplay, mi->vdisplay, mhz / 1000, mhz % 1000,
				(mi->type & DRM_MODE_TYPE_PREFERRED) ? " preferred" : "");
			em_str(em, NULL, name);
		}
		em_close(em);
		int r = em_properties(em, dev, c->connector_id, DRM_MODE_OBJECT_CONNECTOR);
		ret = ret ? ret : r;
		em_close(em);
		drmModeFreeConnector(c);
	}
	em_close(em);

	em_open(em, "encoders", true);
	for (int i = 0; i < res->count_encoders; i++) {
		drmModeEncoder *e = drmModeGetEncoder(dev->fd, res->encoders[i]);
		if (!e)
			continue;
		em_open(em, NULL, false);
		em_uint(em, "id", e->encoder_id);
		em_str(em, "type", encoder_type_name(e->encoder_type));
		em_uint(em, "crtc_id", e->crtc_id);
		em_crtc_mask(em, dev, "possible_crtcs", e->possible_crtcs);
		em_close(em);
		drmModeFreeEncoder(e);
	}
	em_close(em);

	em_open(em, "crtcs", true);
	for (size_t i = 0; i < dev->n_crtcs; i++) {
		drmModeCrtc *c = drmModeGetCrtc(dev->fd, dev->crtcs[i].id);
		em_open(em, NULL, false);
		em_uint(em, "id", dev->crtcs[i].id);
		em_uint(em, "index", dev->crtcs[i].index);
		if (c) {
			if (c->mode_valid)
				snprintf(name, sizeof(name), "%ux%u", c->mode.hdisplay, c->mode.vdisplay);
			else
				snprintf(name, sizeof(name), "off");
			em_str(em, "mode", name);
			drmModeFreeCrtc(c);
		}
		int r = em_properties(em, dev, dev->crtcs[i].id, DRM_MODE_OBJECT_CRTC);
		ret = ret ? ret : r;
		em_close(em);
	}
	em_close(em);

	em_open(em, "planes", true);
	for (size_t i = 0; i < dev->n_planes; i++) {
		const struct plane *p = &dev->planes[i];
		em_open(em, NULL, false);
		em_uint(em, "id", p->id);
		em_str(em, "type", plane_type_name(p->type));
		em_crtc_mask(em, dev, "possible_crtcs", p->possible_crtcs);
		em_open(em, "formats", true);
		for (size_t f = 0; f < p->n_formats; f++) {
			bool seen = false;
			for (size_t g = 0; g < f && !seen; g++)
				seen = p->formats[g].format == p->formats[f].format;
			if (seen)
				continue;
			format_name(p->formats[f].format, name);
			em_str(em, NULL, name);
		}
		em_close(em);
		em_open(em, "modifiers", true);
		for (size_t f = 0; f < p->n_formats; f++) {
			bool seen = false;
			for (size_t g = 0; g < f && !seen; g++)
				seen = p->formats[g].modifier == p->formats[f].modifier;
			if (seen)
				continue;
			modifier_name(p->formats[f].modifier, name);
			em_str(em, NULL, name);
		}
		em_close(em);
		int r = em_properties(em, dev, p->id, DRM_MODE_OBJECT_PLANE);
		ret = ret ? ret : r;
		em_close(em);
	}
	em_close(em);

	if (em->json)
		fputs("\n}\n", em->f);
	return ret;
}

static int describe_dot(struct dispman_device *dev, drmModeRes *res, FILE *f)
{
	char name[128];
	drmVersion *ver = drmGetVersion(dev->fd);
	fputs("digraph kms {\n\trankdir=LR\n\tnode [shape=record]\n", f);
	fprintf(f, "\tlabel=\"%s\"\n", ver && ver->name ? ver->name : "");
	drmFreeVersion(ver);
	for (size_t i = 0; i < dev->n_planes; i++) {
		const struct plane *p = &dev->planes[i];
		fprintf(f, "\tplane_%u [label=\"{plane %u|%s|", p->id, p->id,
			plane_type_name(p->type));
		for (size_t fi = 0; fi < p->n_formats; fi++) {
			bool seen = false;
			for (size_t g = 0; g < fi && !seen; g++)
				seen = p->formats[g].format == p->formats[fi].format;
			if (!seen) {
				format_name(p->formats[fi].format, name);
				fprintf(f, "%s%s", fi ? " " : "", name);
			}
		}
		fprintf(f, "}\", style=filled, fillcolor=%s]\n",
			p->cur_fb_id ? "lightgreen" : "white");
		for (size_t c = 0; c < dev->n_crtcs; c++) {
			if (!(p->possible_crtcs & (1u << dev->crtcs[c].index)))
				continue;
			bool active = p->cur_crtc_id == dev->crtcs[c].id;
			fprintf(f, "\tplane_%u -> crtc_%u [style=%s]\n", p->id, dev->crtcs[c].id,
				active ? "bold" : "dashed");
		}
	}
	for (size_t i = 0; i < dev->n_crtcs; i++) {
		drmModeCrtc *c = drmModeGetCrtc(dev->fd, dev->crtcs[i].id);
		if (c && c->mode_valid)
			snprintf(name, sizeof(name), "%ux%u", c->mode.hdisplay, c->mode.vdisplay);
		else
			snprintf(name, sizeof(name), "off");
		if (c)
			drmModeFreeCrtc(c);
		fprintf(f, "\tcrtc_%u [label=\"{CRTC %u|%s}\", style=filled, fillcolor=lightblue]\n",
			dev->crtcs[i].id, dev->crtcs[i].id, name);
	}
	for (int i = 0; i < res->count_encoders; i++) {
		drmModeEncoder *e = drmModeGetEncoder(dev->fd, res->encoders[i]);
		if (!e)
			continue;
		fprintf(f, "\tencoder_%u [label=\"{encoder %u|%s}\"]\n", e->encoder_id,
			e->encoder_id, encoder_type_name(e->encoder_type));
		for (size_t c = 0; c < dev->n_crtcs; c++) {
			if (!(e->possible_crtcs & (1u << dev->crtcs[c].index)))
				continue;
			fprintf(f, "\tcrtc_%u -> encoder_%u [style=%s]\n", dev->crtcs[c].id,
				e->encoder_id, e->crtc_id == dev->crtcs[c].id ? "bold" : "dashed");
		}
		drmModeFreeEncoder(e);
	}
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(dev->fd, res->connectors[i]);
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
	if (!dev || !out || (unsigned)format > DISPMAN_DESCRIBE_DOT) {
		dispman_log(DISPMAN_LOG_ERROR, "describe: invalid arguments");
		return -EINVAL;
	}
	drmModeRes *res = drmModeGetResources(dev->fd);
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
