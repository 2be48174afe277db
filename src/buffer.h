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

struct dispman_buffer {
	struct dispman_device *dev; /* NULL once the device is destroyed */
	int refcount;
	enum buffer_kind kind;
	uint32_t width, height, format;
	uint64_t modifier;
	uint32_t n_planes;
	uint32_t handles[4];
	uint32_t pitches[4];
	uint32_t offsets[4];
	int fds[4];          /* owned dup'ed fds of an import, -1 otherwise */
	bool owns_handles;   /* close GEM handles on free (not for GBM) */
	uint32_t fb_id;
	void *map;
	size_t map_size;
	uint64_t dumb_size;
#if HAVE_GBM
	struct gbm_bo *bo;
#endif
	dispman_buffer_release_callback release_cb;
	void *release_data;
	/* internal: a page flip put the buffer on screen (camera latency) */
	buffer_shown_func shown_cb;
	void *shown_data;
	struct list link; /* dispman_device.buffers */
};

/*
 * dispman_buffer_import_dmabuf() for a caller with a fallback: the kernel refusing the
 * import (PRIME import, AddFB2) is logged at kernel_level instead of as an error.
 */
struct dispman_buffer *buffer_import_dmabuf(struct dispman_device *dev,
	const struct dispman_dmabuf_desc *desc, enum dispman_log_level kernel_level);
/* Free kernel resources of all buffers still alive (device teardown). */
void buffer_orphan_all(struct dispman_device *dev);
void buffer_release(struct dispman_buffer *buf);
/* Internal hook called from the page-flip handler when a flip put buf on screen. */
void buffer_set_shown_callback(struct dispman_buffer *buf, buffer_shown_func cb, void *data);

#endif
