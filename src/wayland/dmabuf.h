/* SPDX-License-Identifier: MIT */
/* zwp_linux_dmabuf_v1: the format table and feedback from the planes, and the import of client dma-bufs. */
#ifndef DISPMAN_WAYLAND_DMABUF_H
#define DISPMAN_WAYLAND_DMABUF_H

#include "server.h"

int dmabuf_init_global(struct server *srv);
void dmabuf_finish(struct server *srv);
/* Whether the global is there and its format table has fmt in DRM_FORMAT_MOD_LINEAR (a
 * buffer a client can make and the compositor can write with the CPU). */
bool dmabuf_linear_offered(struct server *srv, uint32_t fmt);

#endif
