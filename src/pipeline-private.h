/* SPDX-License-Identifier: MIT */
/*
 * The pipeline module's own state, shared by its files only: pipeline.c (the snapshot, the
 * display side, the cameras a device has), pipeline-camera.c (a camera's side: media graph,
 * video node, buffers), pipeline-write.c (text, JSON, DOT) and pipeline-publish.c (the
 * socket of a running program).
 */
#ifndef DISPMAN_PIPELINE_PRIVATE_H
#define DISPMAN_PIPELINE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dispman/pipeline.h>

#include "device.h"

#define PIPELINE_NONE ((size_t)-1)

struct dispman_pipeline {
	char *device;                          /* the card's path, "" when unknown */
	char *driver;                          /* the DRM driver's name */
	struct dispman_pipeline_node **nodes;  /* n_nodes of cap_nodes */
	size_t n_nodes, cap_nodes;
	struct dispman_pipeline_link **links;
	size_t n_links, cap_links;
	bool oom;                              /* an allocation failed: the snapshot is refused */
};

/* A new node of type with its strings copied (NULL stays NULL); its index, or PIPELINE_NONE
 * (p->oom set) when out of memory. */
size_t pipeline_add_node(struct dispman_pipeline *p, enum dispman_pipeline_node_type type,
	uint32_t id, const char *name, const char *kind, const char *device);
/* The node of index i to fill in (i from pipeline_add_node(), not PIPELINE_NONE). */
struct dispman_pipeline_node *pipeline_node(struct dispman_pipeline *p, size_t i);
/* A new link source -> sink (nothing when either is PIPELINE_NONE); NULL when none was made. */
struct dispman_pipeline_link *pipeline_add_link(struct dispman_pipeline *p,
	enum dispman_pipeline_link_type type, size_t source, size_t sink, bool active);
/* Copies pads onto node i (n of them). */
void pipeline_set_pads(struct dispman_pipeline *p, size_t i,
	const struct dispman_pipeline_pad *pads, size_t n);
/* The index of the node of type and id, or PIPELINE_NONE. */
size_t pipeline_find(const struct dispman_pipeline *p, enum dispman_pipeline_node_type type,
	uint32_t id);

/* What the display side needs of a camera's part of the graph: its layer and the buffer
 * nodes that layer may show. */
#define PIPELINE_CAM_BUFS 40
struct pipeline_cam {
	struct dispman_layer *layer;
	uint32_t id;
	size_t n;
	size_t node[PIPELINE_CAM_BUFS];
	const struct dispman_buffer *buf[PIPELINE_CAM_BUFS];
};

struct dispman_camera;
/* pipeline-camera.c (built with V4L2): the camera's (camera-graph.h) media graph, video node, camera node and
 * buffer nodes with their links, into p; fills *out. */
void pipeline_add_camera(struct dispman_pipeline *p, struct dispman_camera *cam, uint32_t id,
	struct pipeline_cam *out);

/* pipeline-publish.c: the published socket's state, inside struct pipeline_state. */
struct pipeline_publish;
void pipeline_publish_free(struct pipeline_publish *pub);
/* The state of dev's pipeline, made on first use; NULL when out of memory (logged). */
struct pipeline_state *pipeline_state_get(struct dispman_device *dev);
struct pipeline_publish **pipeline_state_publish(struct pipeline_state *st);

#endif
