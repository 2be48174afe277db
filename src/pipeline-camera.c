/* SPDX-License-Identifier: MIT */
/*
 * A camera's part of the pipeline graph: the entities, pads and links of its media device
 * reachable from the entity that owns its video node, the video node, the camera and its
 * buffers with the way each travels (exported, imported, copied by the CPU). Reads the
 * camera module's state (camera-private.h) and changes nothing.
 */
#include "pipeline-private.h"

#include <linux/media.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "buffer.h"
#include "camera-graph.h"
#include "layer.h"
#include "log.h"
#include "media.h"
#include "output.h"

/* MEDIA_LNK_FL_LINK_TYPE is (0xf << 28), an int overflow: the same mask, unsigned */
#define LINK_TYPE_MASK 0xf0000000u

static const struct media_pad *find_pad(const struct media_graph *g, uint32_t id)
{
	for (size_t i = 0; i < g->n_pads; i++)
		if (g->pads[i].id == id)
			return &g->pads[i];
	return NULL;
}

/* Marks in keep[] the entities connected to entity index start through data links. */
static void connected(const struct media_graph *g, size_t start, bool *keep)
{
	keep[start] = true;
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t l = 0; l < g->n_links; l++) {
			if ((g->links[l].flags & LINK_TYPE_MASK) != (uint32_t)MEDIA_LNK_FL_DATA_LINK)
				continue;
			const struct media_pad *a = find_pad(g, g->links[l].source_id);
			const struct media_pad *b = find_pad(g, g->links[l].sink_id);
			if (!a || !b)
				continue;
			size_t ia = SIZE_MAX, ib = SIZE_MAX;
			for (size_t e = 0; e < g->n_entities; e++) {
				if (g->entities[e].id == a->entity_id)
					ia = e;
				if (g->entities[e].id == b->entity_id)
					ib = e;
			}
			if (ia == SIZE_MAX || ib == SIZE_MAX || keep[ia] == keep[ib])
				continue;
			keep[ia] = keep[ib] = true;
			grew = true;
		}
	}
}

/* The media graph part of the camera; returns the video node's index (PIPELINE_NONE when
 * the node could not even be stat'ed). */
static size_t add_media(struct dispman_pipeline *p, const struct camera_graph *cam, uint32_t id)
{
	struct stat st;
	if (fstat(cam->fd, &st) < 0 || !S_ISCHR(st.st_mode))
		return PIPELINE_NONE;
	uint32_t maj = major(st.st_rdev), min = minor(st.st_rdev);
	struct media_graph g;
	uint32_t intf = 0;
	int r = media_find_video(maj, min, &g, &intf);
	size_t video = pipeline_add_node(p, DISPMAN_PIPELINE_VIDEO_NODE, r == 0 ? intf : 0,
		cam->path, "V4L2 video", cam->path);
	if (video == PIPELINE_NONE) {
		if (r == 0)
			media_graph_free(&g);
		return video;
	}
	pipeline_node(p, video)->major = maj;
	pipeline_node(p, video)->minor = min;
	pipeline_node(p, video)->camera = id;
	pipeline_node(p, video)->active = cam->streaming;
	if (r < 0)
		return video;
	bool *keep = calloc(g.n_entities + 1, sizeof(*keep));
	if (!keep) {
		p->oom = true;
		media_graph_free(&g);
		return video;
	}
	/* the entities that own the interface (interface links), and what connects to them */
	for (size_t l = 0; l < g.n_links; l++) {
		if ((g.links[l].flags & LINK_TYPE_MASK) != (uint32_t)MEDIA_LNK_FL_INTERFACE_LINK ||
		    g.links[l].source_id != intf)
			continue;
		for (size_t e = 0; e < g.n_entities; e++)
			if (g.entities[e].id == g.links[l].sink_id)
				connected(&g, e, keep);
	}
	for (size_t e = 0; e < g.n_entities; e++) {
		if (!keep[e] || pipeline_find(p, DISPMAN_PIPELINE_MEDIA_ENTITY,
				g.entities[e].id) != PIPELINE_NONE)
			continue; /* another camera of the same media device has it already */
		size_t k = pipeline_add_node(p, DISPMAN_PIPELINE_MEDIA_ENTITY, g.entities[e].id,
			g.entities[e].name, media_function_name(g.entities[e].function), g.path);
		if (k == PIPELINE_NONE)
			break;
		struct dispman_pipeline_pad pads[64];
		size_t n = 0;
		for (size_t i = 0; i < g.n_pads && n < 64; i++)
			if (g.pads[i].entity_id == g.entities[e].id)
				pads[n++] = (struct dispman_pipeline_pad){ .id = g.pads[i].id,
					.index = g.pads[i].index, .source = g.pads[i].source };
		pipeline_set_pads(p, k, pads, n);
		pipeline_node(p, k)->active = true;
	}
	for (size_t l = 0; l < g.n_links; l++) {
		uint32_t type = g.links[l].flags & LINK_TYPE_MASK;
		if (type == (uint32_t)MEDIA_LNK_FL_INTERFACE_LINK && g.links[l].source_id == intf) {
			struct dispman_pipeline_link *lk = pipeline_add_link(p,
				DISPMAN_PIPELINE_LINK_INTERFACE, pipeline_find(p,
				DISPMAN_PIPELINE_MEDIA_ENTITY, g.links[l].sink_id), video,
				g.links[l].flags & MEDIA_LNK_FL_ENABLED);
			if (lk)
				lk->flags = g.links[l].flags;
		} else if (type == (uint32_t)MEDIA_LNK_FL_DATA_LINK) {
			const struct media_pad *a = find_pad(&g, g.links[l].source_id);
			const struct media_pad *b = find_pad(&g, g.links[l].sink_id);
			if (!a || !b)
				continue;
			size_t sa = pipeline_find(p, DISPMAN_PIPELINE_MEDIA_ENTITY, a->entity_id);
			size_t sb = pipeline_find(p, DISPMAN_PIPELINE_MEDIA_ENTITY, b->entity_id);
			struct dispman_pipeline_link *lk = pipeline_add_link(p,
				DISPMAN_PIPELINE_LINK_MEDIA, sa, sb,
				g.links[l].flags & MEDIA_LNK_FL_ENABLED);
			if (lk) {
				lk->source_pad = a->index;
				lk->sink_pad = b->index;
				lk->flags = g.links[l].flags;
			}
		}
	}
	free(keep);
	media_graph_free(&g);
	return video;
}

static void add_buffer(struct dispman_pipeline *p, const struct camera_graph *cam, uint32_t id,
	size_t camera, const struct dispman_buffer *buf, const char *state,
	enum dispman_pipeline_link_type how, struct pipeline_cam *out)
{
	uint32_t bid = 1;
	for (size_t i = 0; i < p->n_nodes; i++)
		bid += p->nodes[i]->type == DISPMAN_PIPELINE_BUFFER;
	char name[32];
	snprintf(name, sizeof(name), "buffer %u", bid);
	size_t k = pipeline_add_node(p, DISPMAN_PIPELINE_BUFFER, bid, name,
		state, cam->path);
	if (k == PIPELINE_NONE)
		return;
	struct dispman_pipeline_node *n = pipeline_node(p, k);
	n->fb_id = buffer_fb_id(buf);
	n->format = buffer_format(buf);
	n->width = buffer_width(buf);
	n->height = buffer_height(buf);
	n->camera = id;
	n->active = buf == layer_buffer(cam->layer) ||
		output_holds_buffer(layer_output(cam->layer), buf);
	pipeline_add_link(p, how, camera, k, true);
	if (out->n < PIPELINE_CAM_BUFS) {
		out->node[out->n] = k;
		out->buf[out->n] = buf;
		out->n++;
	}
}

void pipeline_add_camera(struct dispman_pipeline *p, struct dispman_camera *camera, uint32_t id,
	struct pipeline_cam *out)
{
	struct camera_graph *cam = malloc(sizeof(*cam));
	memset(out, 0, sizeof(*out));
	if (!cam) {
		p->oom = true;
		return;
	}
	camera_graph_get(camera, cam);
	out->layer = cam->layer;
	out->id = id;
	size_t video = add_media(p, cam, id);
	static const char *const memory[] = { "auto", "export", "import", "copy" };
	size_t k = pipeline_add_node(p, DISPMAN_PIPELINE_CAMERA, id, cam->card,
		(unsigned)cam->memory < 4 ? memory[cam->memory] : "unknown", cam->path);
	if (k != PIPELINE_NONE) {
		struct dispman_pipeline_node *n = pipeline_node(p, k);
		n->format = cam->format;
		n->width = cam->width;
		n->height = cam->height;
		n->memory = cam->memory;
		n->zero_copy = !cam->copy;
		n->active = cam->streaming && !cam->failed;
		n->camera = id;
		pipeline_add_link(p, DISPMAN_PIPELINE_LINK_STREAM, video, k, n->active);
		for (size_t i = 0; i < cam->n_bufs; i++)
			add_buffer(p, cam, id, k, cam->bufs[i].buf, cam->bufs[i].state,
				cam->copy ? DISPMAN_PIPELINE_LINK_COPY :
				cam->memory == DISPMAN_CAMERA_MEMORY_IMPORT ?
				DISPMAN_PIPELINE_LINK_IMPORT : DISPMAN_PIPELINE_LINK_EXPORT, out);
	}
	free(cam);
}
