/* SPDX-License-Identifier: MIT */
/*
 * The camera module's own state, shared by its files only: camera.c (life cycle, frames,
 * stats), camera-buffers.c (the memory paths: export, import, CPU copy) and
 * camera-convert.c (the copy path's pixels).
 */
#ifndef DISPMAN_CAMERA_PRIVATE_H
#define DISPMAN_CAMERA_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <dispman/camera.h>

#include "device.h"
#include "v4l2.h"

struct event_source;

#define COPY_TARGETS 3

enum cam_buf_state {
	CAM_BUF_DRIVER,   /* queued to the V4L2 driver */
	CAM_BUF_CPU,      /* dequeued, owned by the camera (copy path, or failed queue) */
	CAM_BUF_LAYER,    /* dequeued, on the layer or on screen */
};

struct cam_buf {
	struct dispman_camera *cam;
	uint32_t index;
	enum cam_buf_state state;
	struct dispman_buffer *buf;  /* zero-copy: the display buffer of this frame */
	int fds[V4L2_MAX_PLANES];    /* import path: dma-bufs queued to the driver */
	void *map[V4L2_MAX_PLANES];  /* copy path: CPU view of MMAP memory */
	size_t map_len[V4L2_MAX_PLANES];
	uint64_t ts_ns;
	bool committed;              /* reached a commit (in use by the output) */
	bool shown;                  /* a page flip put it on screen */
};

struct dispman_camera {
	struct dispman_device *dev;  /* NULL once the device was destroyed first */
	struct dispman_layer *layer; /* NULL once the layer (or device) was destroyed first */
	struct device_listener listener; /* on dev: hears of the layer's and device's end */
	struct v4l2_dev v4l2;
	uint32_t flags;
	bool copy;                   /* CPU copy path */
	bool copy_same;              /* the copy keeps the camera's format (rows copied) */
	enum dispman_placement_reason copy_reason; /* FORMAT or IMPORT */
	struct cam_buf bufs[V4L2_MAX_BUFFERS];
	uint32_t n_bufs;
	struct cam_buf *current;     /* the frame on the layer (zero-copy) */
	struct dispman_buffer *targets[COPY_TARGETS];
	struct event_source *source;
	struct dispman_camera_stats stats;
	unsigned errors_in_a_row;
	bool failed;
	bool in_callback;
	dispman_camera_error_callback error_cb;
	void *error_data;
	dispman_camera_frame_callback frame_cb;
	void *frame_data;
	bool have_seq;
	uint32_t last_seq;
};

/* camera-buffers.c */

/* A non-cursor plane of the device takes fourcc with the LINEAR modifier. */
bool camera_display_takes(struct dispman_device *dev, uint32_t fourcc);
/*
 * Make count buffers for the camera's format on the first memory path that works: the
 * camera's buffers exported to the display, display buffers imported by the camera (as
 * config->memory allows), then the CPU copy if allowed (cam->copy already set: only that).
 * Sets cam->stats.memory, and cam->copy with its reason when the copy is taken. A failure
 * while another path remains is logged at info level. The display buffers' release and
 * shown callbacks are not hooked here. Returns 0 or a negative errno.
 */
int camera_setup_paths(struct dispman_camera *cam, const struct dispman_camera_config *cfg,
	uint32_t count);
/* Unhook and drop every buffer of the camera, display and V4L2 ones. */
void camera_free_buffers(struct dispman_camera *cam);
const char *camera_memory_name(enum dispman_camera_memory m);

#endif
