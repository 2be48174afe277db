/* SPDX-License-Identifier: MIT */
/* Buffers: dumb, GBM, imported dma-bufs; pixel format facts (buffer.c). */
#ifndef DISPMAN_BUFFER_H
#define DISPMAN_BUFFER_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <dispman/dispman.h>

#include "list.h"

struct dispman_device;
struct gbm_bo;

enum buffer_kind {
	BUFFER_DUMB,
	BUFFER_GBM,
	BUFFER_DMABUF,
};

struct format_info {
	uint32_t fourcc;
	uint8_t n_planes;
	uint8_t cpp[3];  /* bytes per pixel (per block for packed YUV) in each plane */
	uint8_t hsub, vsub;
	bool has_alpha;
};

const struct format_info *format_info_find(uint32_t fourcc);

typedef void (*buffer_shown_func)(struct dispman_buffer *buf, const struct timespec *ts,
	void *data);


/*
 * The body of struct dispman_buffer is buffer.c's: only buffer.c writes its fields. The
 * other modules read a buffer through the getters below (const pointer in, value out). The
 * one thing another module sets is the shown callback: the camera (buffer_set_shown_callback());
 * output.c calls it (buffer_notify_shown()).
 */
uint32_t buffer_width(const struct dispman_buffer *buf);
uint32_t buffer_height(const struct dispman_buffer *buf);
uint32_t buffer_format(const struct dispman_buffer *buf);
uint64_t buffer_modifier(const struct dispman_buffer *buf);
/* Its framebuffer; 0: the kernel made none (see dispman_buffer_create_dumb()). */
uint32_t buffer_fb_id(const struct dispman_buffer *buf);
/* Bytes per row of plane p (p < 4). */
uint32_t buffer_pitch(const struct dispman_buffer *buf, unsigned p);
/* Same size, format, modifier, and a framebuffer or not: what the planner sees of both. */
bool buffer_same_shape(const struct dispman_buffer *a, const struct dispman_buffer *b);
/* Its device; NULL once the device is destroyed. */
struct dispman_device *buffer_device(const struct dispman_buffer *buf);
/* Only one reference is held (its creator's: no layer, flip or application holds it). */
bool buffer_unshared(const struct dispman_buffer *buf);
/* The GEM handle of plane p (p < 4), and the fd an import dup'ed for it (-1 otherwise):
 * for the unit tests (handle sharing, fd ownership). */
uint32_t buffer_handle(const struct dispman_buffer *buf, unsigned p);
int buffer_fd(const struct dispman_buffer *buf, unsigned p);

/*
 * dispman_buffer_import_dmabuf() for a caller with a fallback: the kernel refusing the
 * import (PRIME import, AddFB2) is logged at kernel_level instead of as an error.
 */
struct dispman_buffer *buffer_import_dmabuf(struct dispman_device *dev,
	const struct dispman_dmabuf_desc *desc, enum dispman_log_level kernel_level);
/*
 * dispman_buffer_map_plane() without the NULL check: the CPU compositor reads every plane
 * of a multi-planar YUV layer through it (compose-yuv.c). 0, -EINVAL (no such plane),
 * -ENODEV, -ENOTSUP (not linear) or the errno of the export or mmap; each logged.
 */
int buffer_map_plane(struct dispman_buffer *buf, unsigned plane, void **data,
	uint32_t *stride);
/* Free kernel resources of all buffers still alive (device teardown). */
void buffer_orphan_all(struct dispman_device *dev);
void buffer_release(struct dispman_buffer *buf);
/* Internal hook called from the page-flip handler when a flip put buf on screen: camera.c
 * (the latency of its frames; camera-buffers.c clears it) only. */
void buffer_set_shown_callback(struct dispman_buffer *buf, buffer_shown_func cb, void *data);
/* A flip put buf on screen at ts: calls its shown callback, if any. output.c only. */
void buffer_notify_shown(struct dispman_buffer *buf, const struct timespec *ts);
/* It has a shown callback (output.c looks for a frame's new buffers only among those). */
bool buffer_has_shown_callback(const struct dispman_buffer *buf);

#endif
