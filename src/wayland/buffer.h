/* SPDX-License-Identifier: MIT */
/* wl_buffer: shm, dma-buf and single-pixel buffers, their holds and release; wl_shm and wp_single_pixel_buffer_manager_v1. */
#ifndef DISPMAN_WAYLAND_BUFFER_H
#define DISPMAN_WAYLAND_BUFFER_H

#include "server.h"

enum buffer_type {
	BUFFER_SHM,
	BUFFER_DMABUF,
	BUFFER_SINGLE_PIXEL,
};

/*
 * One wl_buffer. holds counts the reasons the compositor still reads it: the surfaces
 * whose current state names it, and (dmabuf, single-pixel, zero-copy shm) the frame on
 * screen, or (copied shm) the dumb copies of it on screen. wl_buffer.release is sent when holds drops to 0. The
 * struct lives until both the resource is gone and holds is 0.
 */
enum buffer_shm_path {
	SHM_PATH_UNDECIDED,
	SHM_PATH_ZERO_COPY,             /* dbuf is the client's pool, scanned out as it is */
	SHM_PATH_COPY,                  /* copied into the surface's dumb buffers (shm.c) */
};

struct buffer {
	struct server *srv;
	struct wl_resource *resource;   /* NULL once the client destroyed it */
	struct wl_listener destroy;
	enum buffer_type type;
	int32_t width, height;
	/* dmabuf and single-pixel: imported once; shm: its pool's pages through udmabuf
	 * (zero-copy), imported at its first upload, or NULL (copied) */
	struct dispman_buffer *dbuf;
	enum buffer_shm_path shm_path;  /* shm: decided at its first upload */
	uint32_t offset, stride;        /* dmabuf: plane 0's, as the client gave them */
	bool opaque;                    /* format without alpha */
	unsigned holds;
	bool committed;                 /* committed since the last release */
	bool on_screen;                 /* dbuf holds one reference on screen */
	struct wl_list link;            /* server.buffers */
};

int buffer_init_globals(struct server *srv);
/* After every client is gone: frees the buffers the frame on screen still held. */
void buffer_finish(struct server *srv);
/* The buffer of a wl_buffer resource (created here on first use for shm); NULL when the
 * resource is no buffer this compositor knows. */
struct buffer *buffer_from_resource(struct server *srv, struct wl_resource *res);
void buffer_hold(struct buffer *b);
/* Drops a hold; the last one sends wl_buffer.release (and frees a destroyed buffer). */
void buffer_unhold(struct buffer *b);
/* dmabuf: create the resource for an imported buffer (its reference is taken). NULL on
 * ENOMEM. */
struct buffer *buffer_create_dmabuf(struct server *srv, struct wl_client *client, uint32_t id,
	struct dispman_buffer *dbuf);
/* shm: takes dbuf (the caller's reference) as the buffer's own, released with it like a
 * dma-buf's. 0, or a negative errno (logged; dbuf is then the caller's still). */
int buffer_set_dbuf(struct buffer *b, struct dispman_buffer *dbuf);
/* The frame that shows b's dispman_buffer was committed: hold it until it leaves. */
void buffer_screen_committed(struct buffer *b);
/* The DRM fourcc of a wl_shm format (0 for one the compositor does not take). */
uint32_t buffer_shm_fourcc(uint32_t wl_shm_format);

#endif
