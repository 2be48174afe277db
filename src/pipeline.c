/* SPDX-License-Identifier: MIT */
/*
 * The pipeline as one graph (dispman_pipeline_create()): a snapshot of nodes and links,
 * built from the camera side (pipeline-camera.c) down to the connectors. The display side
 * is read here: layers and where the last accepted commit put them, the composition buffer
 * of each output, and the planes, CRTCs, encoders and connectors as the kernel has them now.
 *
 * The device's cameras come from the camera module (camera-graph.h). The published socket
 * (pipeline-publish.c) lives in a struct pipeline_state the device holds
 * (device_pipeline_state()) and that a device listener frees with the device.
 */
#include "pipeline-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "buffer.h"
#if HAVE_V4L2
#include "camera-graph.h"
#endif
#include "compose.h"
#include "crtc.h"
#include "layer.h"
#include "log.h"
#include "output.h"
#include "plane.h"
#include "util.h"

struct pipeline_state {
	struct dispman_device *dev;
	struct device_listener listener;
	struct pipeline_publish *publish;
};

static void state_destroyed(struct device_listener *l)
{
	struct pipeline_state *st = container_of(l, struct pipeline_state, listener);
	device_remove_listener(&st->listener);
	device_set_pipeline_state(st->dev, NULL);
	pipeline_publish_free(st->publish);
	free(st);
}

struct pipeline_state *pipeline_state_get(struct dispman_device *dev)
{
	struct pipeline_state *st = device_pipeline_state(dev);
	if (st)
		return st;
	st = calloc(1, sizeof(*st));
	if (!st) {
		dispman_log(DISPMAN_LOG_ERROR, "pipeline: out of memory");
		return NULL;
	}
	st->dev = dev;
	st->listener.destroyed = state_destroyed;
	device_add_listener(dev, &st->listener);
	device_set_pipeline_state(dev, st);
	return st;
}

struct pipeline_publish **pipeline_state_publish(struct pipeline_state *st)
{
	return &st->publish;
}

/* ---------------------------------------------------------------------------------- */
/* Building a snapshot */

static char *dup_or_null(struct dispman_pipeline *p, const char *s)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		p->oom = true;
	return d;
}

size_t pipeline_add_node(struct dispman_pipeline *p, enum dispman_pipeline_node_type type,
	uint32_t id, const char *name, const char *kind, const char *device)
{
	if (p->n_nodes == p->cap_nodes) {
		size_t cap = p->cap_nodes ? p->cap_nodes * 2 : 32;
		struct dispman_pipeline_node **n = realloc(p->nodes, cap * sizeof(*n));
		if (!n) {
			p->oom = true;
			return PIPELINE_NONE;
		}
		p->nodes = n;
		p->cap_nodes = cap;
	}
	struct dispman_pipeline_node *node = calloc(1, sizeof(*node));
	if (!node) {
		p->oom = true;
		return PIPELINE_NONE;
	}
	node->type = type;
	node->id = id;
	node->name = dup_or_null(p, name);
	node->kind = dup_or_null(p, kind);
	node->device = dup_or_null(p, device);
	p->nodes[p->n_nodes] = node;
	return p->n_nodes++;
}

struct dispman_pipeline_node *pipeline_node(struct dispman_pipeline *p, size_t i)
{
	return p->nodes[i];
}

void pipeline_set_pads(struct dispman_pipeline *p, size_t i,
	const struct dispman_pipeline_pad *pads, size_t n)
{
	if (i == PIPELINE_NONE || !n)
		return;
	struct dispman_pipeline_pad **arr = calloc(n, sizeof(*arr));
	if (!arr) {
		p->oom = true;
		return;
	}
	for (size_t k = 0; k < n; k++) {
		arr[k] = malloc(sizeof(*arr[k]));
		if (!arr[k]) {
			p->oom = true;
			break;
		}
		*arr[k] = pads[k];
	}
	p->nodes[i]->pads = (const struct dispman_pipeline_pad *const *)arr;
	p->nodes[i]->n_pads = n;
}

struct dispman_pipeline_link *pipeline_add_link(struct dispman_pipeline *p,
	enum dispman_pipeline_link_type type, size_t source, size_t sink, bool active)
{
	if (source == PIPELINE_NONE || sink == PIPELINE_NONE)
		return NULL;
	if (p->n_links == p->cap_links) {
		size_t cap = p->cap_links ? p->cap_links * 2 : 64;
		struct dispman_pipeline_link **l = realloc(p->links, cap * sizeof(*l));
		if (!l) {
			p->oom = true;
			return NULL;
		}
		p->links = l;
		p->cap_links = cap;
	}
	struct dispman_pipeline_link *link = calloc(1, sizeof(*link));
	if (!link) {
		p->oom = true;
		return NULL;
	}
	link->type = type;
	link->source = source;
	link->sink = sink;
	link->active = active;
	p->links[p->n_links++] = link;
	return link;
}

size_t pipeline_find(const struct dispman_pipeline *p, enum dispman_pipeline_node_type type,
	uint32_t id)
{
	for (size_t i = 0; i < p->n_nodes; i++)
		if (p->nodes[i]->type == type && p->nodes[i]->id == id)
			return i;
	return PIPELINE_NONE;
}

static void buffer_facts(struct dispman_pipeline_node *n, const struct dispman_buffer *buf)
{
	if (!buf)
		return;
	n->fb_id = buffer_fb_id(buf);
	n->format = buffer_format(buf);
	n->width = buffer_width(buf);
	n->height = buffer_height(buf);
}

/* The planes, with what the kernel says each shows now. */
static void add_planes(struct dispman_pipeline *p, struct dispman_device *dev)
{
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		const struct plane *pl = device_plane(dev, i);
		char name[32];
		snprintf(name, sizeof(name), "plane %u", plane_id(pl));
		size_t k = pipeline_add_node(p, DISPMAN_PIPELINE_PLANE, plane_id(pl), name,
			plane_type_name(plane_type(pl)), p->device);
		if (k == PIPELINE_NONE)
			return;
		struct dispman_pipeline_node *n = pipeline_node(p, k);
		drmModePlane *kp = drmModeGetPlane(device_fd(dev), plane_id(pl));
		if (kp) {
			n->fb_id = kp->fb_id;
			n->active = kp->fb_id != 0;
			drmModeFreePlane(kp);
		}
	}
}

/* CRTCs (and plane -> CRTC links: active where the plane is on it now). */
static void add_crtcs(struct dispman_pipeline *p, struct dispman_device *dev)
{
	for (size_t i = 0; i < device_n_crtcs(dev); i++) {
		const struct crtc *c = device_crtc(dev, i);
		drmModeCrtc *kc = drmModeGetCrtc(device_fd(dev), crtc_id(c));
		char name[32];
		snprintf(name, sizeof(name), "crtc %u", crtc_id(c));
		size_t k = pipeline_add_node(p, DISPMAN_PIPELINE_CRTC, crtc_id(c), name,
			kc && kc->mode_valid ? "on" : "off", p->device);
		if (k != PIPELINE_NONE && kc) {
			pipeline_node(p, k)->active = kc->mode_valid;
			pipeline_node(p, k)->width = kc->mode_valid ? kc->mode.hdisplay : 0;
			pipeline_node(p, k)->height = kc->mode_valid ? kc->mode.vdisplay : 0;
		}
		if (kc)
			drmModeFreeCrtc(kc);
		for (size_t j = 0; j < device_n_planes(dev) && k != PIPELINE_NONE; j++) {
			const struct plane *pl = device_plane(dev, j);
			if (!(plane_possible_crtcs(pl) & (1u << crtc_index(c))))
				continue;
			drmModePlane *kp = drmModeGetPlane(device_fd(dev), plane_id(pl));
			bool on = kp && kp->crtc_id == crtc_id(c) && kp->fb_id;
			if (kp)
				drmModeFreePlane(kp);
			pipeline_add_link(p, DISPMAN_PIPELINE_LINK_CRTC,
				pipeline_find(p, DISPMAN_PIPELINE_PLANE, plane_id(pl)), k, on);
		}
	}
}

static const char *encoder_kind(uint32_t type)
{
	static const char *const names[] = {
		"none", "DAC", "TMDS", "LVDS", "TVDAC", "virtual", "DSI", "DPMST", "DPI",
	};
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

static size_t crtc_node_of_index(struct dispman_pipeline *p, struct dispman_device *dev,
	unsigned index)
{
	for (size_t c = 0; c < device_n_crtcs(dev); c++)
		if (crtc_index(device_crtc(dev, c)) == index)
			return pipeline_find(p, DISPMAN_PIPELINE_CRTC, crtc_id(device_crtc(dev, c)));
	return PIPELINE_NONE;
}

/* Encoders (CRTC -> encoder) and connectors (encoder -> connector). A connector's CRTC is
 * its CRTC_ID property (atomic state), which also tells the writeback connector's. */
static void add_encoders_connectors(struct dispman_pipeline *p, struct dispman_device *dev,
	drmModeRes *res)
{
	for (int i = 0; i < res->count_encoders; i++) {
		drmModeEncoder *e = drmModeGetEncoder(device_fd(dev), res->encoders[i]);
		if (!e)
			continue;
		char name[32];
		snprintf(name, sizeof(name), "encoder %u", e->encoder_id);
		size_t k = pipeline_add_node(p, DISPMAN_PIPELINE_ENCODER, e->encoder_id, name,
			encoder_kind(e->encoder_type), p->device);
		if (k != PIPELINE_NONE)
			pipeline_node(p, k)->active = e->crtc_id != 0;
		for (unsigned c = 0; c < 32 && k != PIPELINE_NONE; c++)
			if (e->possible_crtcs & (1u << c)) {
				size_t cn = crtc_node_of_index(p, dev, c);
				pipeline_add_link(p, DISPMAN_PIPELINE_LINK_ENCODER, cn, k,
					cn != PIPELINE_NONE &&
					pipeline_node(p, cn)->id == e->crtc_id);
			}
		drmModeFreeEncoder(e);
	}
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(device_fd(dev), res->connectors[i]);
		if (!c)
			continue;
		char name[48];
		snprintf(name, sizeof(name), "%s-%u", connector_type_name(c->connector_type),
			c->connector_type_id);
		bool wb = c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
		const char *status = c->connection == DRM_MODE_CONNECTED ? "connected" :
			c->connection == DRM_MODE_DISCONNECTED ? "disconnected" : "unknown";
		size_t k = pipeline_add_node(p, wb ? DISPMAN_PIPELINE_WRITEBACK :
			DISPMAN_PIPELINE_CONNECTOR, c->connector_id, name, status, p->device);
		/* the CRTC driving it: the CRTC_ID property */
		uint64_t crtc = 0;
		drmModeObjectProperties *props = drmModeObjectGetProperties(device_fd(dev),
			c->connector_id, DRM_MODE_OBJECT_CONNECTOR);
		for (uint32_t j = 0; props && j < props->count_props; j++) {
			drmModePropertyRes *pr = drmModeGetProperty(device_fd(dev), props->props[j]);
			if (pr && strcmp(pr->name, "CRTC_ID") == 0)
				crtc = props->prop_values[j];
			drmModeFreeProperty(pr);
		}
		drmModeFreeObjectProperties(props);
		if (k != PIPELINE_NONE)
			pipeline_node(p, k)->active = crtc != 0;
		for (int e = 0; e < c->count_encoders && k != PIPELINE_NONE; e++) {
			size_t en = pipeline_find(p, DISPMAN_PIPELINE_ENCODER, c->encoders[e]);
			bool on = false;
			if (crtc && en != PIPELINE_NONE) {
				drmModeEncoder *enc = drmModeGetEncoder(device_fd(dev), c->encoders[e]);
				/* the encoder the CRTC goes through: the connector's own one, or
				 * the only one it has */
				on = c->encoder_id == c->encoders[e] ||
					(c->count_encoders == 1 && enc &&
					 crtc_find(dev, (uint32_t)crtc) &&
					 (enc->possible_crtcs & (1u << crtc_index(crtc_find(dev,
						(uint32_t)crtc)))));
				drmModeFreeEncoder(enc);
			}
			pipeline_add_link(p, DISPMAN_PIPELINE_LINK_CONNECTOR, en, k, on);
		}
		drmModeFreeConnector(c);
	}
}

static size_t find_cam(const struct pipeline_cam *cams, size_t n,
	const struct dispman_layer *layer)
{
	for (size_t i = 0; i < n; i++)
		if (cams[i].layer == layer)
			return i;
	return PIPELINE_NONE;
}

/* One layer: its node, the camera buffers it shows, and where it went. */
static void add_layer(struct dispman_pipeline *p, struct dispman_output *out,
	struct dispman_layer *layer, uint32_t id, size_t comp,
	const struct pipeline_cam *cams, size_t n_cams)
{
	char name[32 + DISPMAN_LAYER_NAME_MAX];
	const char *label = dispman_layer_get_name(layer);
	if (label)
		snprintf(name, sizeof(name), "layer %u (%s)", id, label);
	else
		snprintf(name, sizeof(name), "layer %u", id);
	const struct dispman_placement *pl = layer_placement(layer);
	static const char *const states[] = { "not shown", "on a plane", "composited" };
	size_t k = pipeline_add_node(p, DISPMAN_PIPELINE_LAYER, id, name,
		(unsigned)pl->state < 3 ? states[pl->state] : "unknown", output_name(out));
	if (k == PIPELINE_NONE)
		return;
	struct dispman_pipeline_node *n = pipeline_node(p, k);
	buffer_facts(n, layer_buffer(layer));
	n->placement = *pl;
	n->connector_id = output_connector_id(out);
	n->z = layer_z(layer);
	uint32_t w, h;
	layer_get_dst(layer, &n->x, &n->y, &w, &h);
	n->width = w;
	n->height = h;
	n->active = pl->state != DISPMAN_PLACEMENT_NOT_SHOWN;
	size_t c = find_cam(cams, n_cams, layer);
	if (c != PIPELINE_NONE) {
		n->camera = cams[c].id;
		for (size_t b = 0; b < cams[c].n; b++)
			pipeline_add_link(p, DISPMAN_PIPELINE_LINK_SHOW, cams[c].node[b], k,
				cams[c].buf[b] == layer_buffer(layer));
	}
	if (pl->state == DISPMAN_PLACEMENT_ON_PLANE)
		pipeline_add_link(p, DISPMAN_PIPELINE_LINK_PLANE, k,
			pipeline_find(p, DISPMAN_PIPELINE_PLANE, pl->plane_id), true);
	else if (pl->state == DISPMAN_PLACEMENT_COMPOSITED)
		pipeline_add_link(p, DISPMAN_PIPELINE_LINK_COMPOSED, k, comp, true);
}

/* The output's composition buffer, when it has one: its node, and the plane it is on. */
static size_t add_composition(struct dispman_pipeline *p, struct dispman_output *out,
	uint32_t id)
{
	struct dispman_layer *cl = compose_peek_layer(out);
	if (!cl)
		return PIPELINE_NONE;
	char name[32];
	snprintf(name, sizeof(name), "composition %u", id);
	size_t k = pipeline_add_node(p, DISPMAN_PIPELINE_COMPOSITION, id, name, "CPU (pixman)",
		output_name(out));
	if (k == PIPELINE_NONE)
		return k;
	struct dispman_pipeline_node *n = pipeline_node(p, k);
	buffer_facts(n, layer_buffer(cl));
	n->connector_id = output_connector_id(out);
	n->placement = *layer_placement(cl);
	const struct plane *on = layer_plane(cl);
	n->active = on != NULL && layer_placement(cl)->state == DISPMAN_PLACEMENT_ON_PLANE;
	if (n->active)
		pipeline_add_link(p, DISPMAN_PIPELINE_LINK_PLANE, k,
			pipeline_find(p, DISPMAN_PIPELINE_PLANE, plane_id(on)), true);
	return k;
}

static void add_layers(struct dispman_pipeline *p, struct dispman_device *dev,
	const struct pipeline_cam *cams, size_t n_cams)
{
	uint32_t layer_id = 0, comp_id = 0;
	for (size_t o = 0; o < device_n_outputs(dev); o++) {
		struct dispman_output *out = device_output(dev, o);
		if (list_empty(output_layers(out)) && !compose_peek_layer(out))
			continue;
		size_t comp = add_composition(p, out, comp_id + 1);
		if (comp != PIPELINE_NONE)
			comp_id++;
		struct list *pos, *tmp;
		list_for_each_safe(pos, tmp, output_layers(out))
			add_layer(p, out, layer_from_link(pos), ++layer_id, comp, cams, n_cams);
	}
}

void dispman_pipeline_destroy(struct dispman_pipeline *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_nodes; i++) {
		struct dispman_pipeline_node *n = p->nodes[i];
		free((char *)n->name);
		free((char *)n->kind);
		free((char *)n->device);
		for (size_t k = 0; k < n->n_pads; k++)
			free((void *)n->pads[k]);
		free((void *)n->pads);
		free(n);
	}
	for (size_t i = 0; i < p->n_links; i++)
		free(p->links[i]);
	free(p->nodes);
	free(p->links);
	free(p->device);
	free(p->driver);
	free(p);
}

struct dispman_pipeline *dispman_pipeline_create(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	drmModeRes *res = drmModeGetResources(device_fd(dev));
	if (!res) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "pipeline: cannot get KMS resources");
		errno = err;
		return NULL;
	}
	struct dispman_pipeline *p = calloc(1, sizeof(*p));
	if (!p) {
		drmModeFreeResources(res);
		dispman_log(DISPMAN_LOG_ERROR, "pipeline: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	const char *path = dispman_device_get_path(dev);
	p->device = dup_or_null(p, path ? path : "");
	drmVersion *ver = drmGetVersion(device_fd(dev));
	p->driver = dup_or_null(p, ver && ver->name ? ver->name : "");
	drmFreeVersion(ver);

	size_t n_cams = 0;
#if HAVE_V4L2
	struct dispman_camera *const *cams = camera_graph_cameras(dev, &n_cams);
#endif
	struct pipeline_cam *info = n_cams ? calloc(n_cams, sizeof(*info)) : NULL;
	if (n_cams && !info)
		p->oom = true;
#if HAVE_V4L2
	for (size_t i = 0; info && i < n_cams; i++)
		pipeline_add_camera(p, cams[i], (uint32_t)i + 1, &info[i]);
#endif
	/* planes first among the display nodes: layers link to them */
	add_planes(p, dev);
	add_layers(p, dev, info, info ? n_cams : 0);
	add_crtcs(p, dev);
	add_encoders_connectors(p, dev, res);
	free(info);
	drmModeFreeResources(res);
	if (p->oom) {
		dispman_pipeline_destroy(p);
		dispman_log(DISPMAN_LOG_ERROR, "pipeline: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	return p;
}

size_t dispman_pipeline_get_node_count(const struct dispman_pipeline *pipeline)
{
	if (refuse_null(pipeline, "pipeline"))
		return 0;
	return pipeline->n_nodes;
}

const struct dispman_pipeline_node *dispman_pipeline_get_node(
	const struct dispman_pipeline *pipeline, size_t i)
{
	if (refuse_null(pipeline, "pipeline"))
		return NULL;
	if (i >= pipeline->n_nodes) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: node %zu of %zu", __func__, i,
			pipeline->n_nodes);
		errno = ERANGE;
		return NULL;
	}
	return pipeline->nodes[i];
}

size_t dispman_pipeline_get_link_count(const struct dispman_pipeline *pipeline)
{
	if (refuse_null(pipeline, "pipeline"))
		return 0;
	return pipeline->n_links;
}

const struct dispman_pipeline_link *dispman_pipeline_get_link(
	const struct dispman_pipeline *pipeline, size_t i)
{
	if (refuse_null(pipeline, "pipeline"))
		return NULL;
	if (i >= pipeline->n_links) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: link %zu of %zu", __func__, i,
			pipeline->n_links);
		errno = ERANGE;
		return NULL;
	}
	return pipeline->links[i];
}
