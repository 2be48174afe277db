/* SPDX-License-Identifier: MIT */
/*
 * What the pipeline graph (pipeline.c) reads of the cameras (camera-graph.c): the cameras of
 * a device, and a copy of what one of them is doing now. The camera module keeps its list
 * per device (device_camera_registry()), filled by camera.c alone.
 */
#ifndef DISPMAN_CAMERA_GRAPH_H
#define DISPMAN_CAMERA_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dispman/camera.h>

#define CAMERA_GRAPH_BUFS 40

struct camera_graph_buf {
	const struct dispman_buffer *buf;
	const char *state;            /* "driver", "layer", "cpu", "copy target" (static) */
};

struct camera_graph {
	char path[64], card[32];
	int fd;                       /* the capture node, owned by the camera */
	bool streaming, failed, copy;
	enum dispman_camera_memory memory; /* EXPORT, IMPORT or COPY */
	uint32_t format, width, height; /* DRM fourcc of the frames the layer shows */
	struct dispman_layer *layer;
	size_t n_bufs;                /* the display buffers the layer may show */
	struct camera_graph_buf bufs[CAMERA_GRAPH_BUFS];
};

/* The camera was created / is being destroyed: camera.c only. Out of memory, a camera is
 * left out of the list (logged). */
void camera_graph_added(struct dispman_camera *cam);
void camera_graph_removed(struct dispman_camera *cam);
/* The device's cameras, *n of them (NULL when none); owned by the camera module. */
struct dispman_camera *const *camera_graph_cameras(struct dispman_device *dev, size_t *n);
/* What cam is doing now, into *out. */
void camera_graph_get(struct dispman_camera *cam, struct camera_graph *out);

#endif
