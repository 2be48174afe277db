/* SPDX-License-Identifier: MIT */
/*
 * The cameras of each device and what they do, for the pipeline graph (camera-graph.h).
 * The list lives in the device (device_camera_registry()) and is freed by a device
 * listener with it.
 */
#include "camera-graph.h"

#include <drm_fourcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera-private.h"
#include "device.h"
#include "layer.h"
#include "log.h"
#include "util.h"

struct camera_registry {
	struct dispman_device *dev;
	struct device_listener listener;
	struct dispman_camera **cams;
	size_t n, cap;
};

static void registry_destroyed(struct device_listener *l)
{
	struct camera_registry *r = container_of(l, struct camera_registry, listener);
	device_remove_listener(&r->listener);
	device_set_camera_registry(r->dev, NULL);
	free(r->cams);
	free(r);
}

void camera_graph_added(struct dispman_camera *cam)
{
	struct camera_registry *r = device_camera_registry(cam->dev);
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			goto oom;
		r->dev = cam->dev;
		r->listener.destroyed = registry_destroyed;
		device_add_listener(cam->dev, &r->listener);
		device_set_camera_registry(cam->dev, r);
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 4;
		struct dispman_camera **c = realloc(r->cams, cap * sizeof(*c));
		if (!c)
			goto oom;
		r->cams = c;
		r->cap = cap;
	}
	r->cams[r->n++] = cam;
	return;
oom:
	dispman_log(DISPMAN_LOG_ERROR, "camera %s: out of memory: left out of the pipeline "
		"graph", cam->v4l2.path);
}

void camera_graph_removed(struct dispman_camera *cam)
{
	struct camera_registry *r = device_camera_registry(cam->dev);
	for (size_t i = 0; r && i < r->n; i++) {
		if (r->cams[i] == cam) {
			memmove(&r->cams[i], &r->cams[i + 1], (r->n - i - 1) * sizeof(cam));
			r->n--;
			return;
		}
	}
}

struct dispman_camera *const *camera_graph_cameras(struct dispman_device *dev, size_t *n)
{
	struct camera_registry *r = device_camera_registry(dev);
	*n = r ? r->n : 0;
	return r ? r->cams : NULL;
}

static const char *state_name(enum cam_buf_state s)
{
	switch (s) {
	case CAM_BUF_DRIVER: return "driver";
	case CAM_BUF_LAYER: return "layer";
	default: return "cpu";
	}
}

void camera_graph_get(struct dispman_camera *cam, struct camera_graph *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", cam->v4l2.path);
	snprintf(out->card, sizeof(out->card), "%s", cam->v4l2.card);
	out->fd = cam->v4l2.fd;
	out->streaming = cam->v4l2.streaming;
	out->failed = cam->failed;
	out->copy = cam->copy;
	out->memory = cam->copy ? DISPMAN_CAMERA_MEMORY_COPY : cam->stats.memory;
	out->format = cam->copy && !cam->copy_same ? DRM_FORMAT_XRGB8888 :
		cam->v4l2.fmt.drm_fourcc;
	out->width = cam->v4l2.fmt.width;
	out->height = cam->v4l2.fmt.height;
	out->layer = cam->layer;
	if (cam->copy) {
		for (int i = 0; i < COPY_TARGETS; i++)
			if (cam->targets[i] && out->n_bufs < CAMERA_GRAPH_BUFS)
				out->bufs[out->n_bufs++] = (struct camera_graph_buf){
					cam->targets[i], "copy target" };
		return;
	}
	for (uint32_t i = 0; i < cam->n_bufs && out->n_bufs < CAMERA_GRAPH_BUFS; i++)
		if (cam->bufs[i].buf)
			out->bufs[out->n_bufs++] = (struct camera_graph_buf){ cam->bufs[i].buf,
				state_name(cam->bufs[i].state) };
}
