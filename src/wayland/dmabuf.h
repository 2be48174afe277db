/* SPDX-License-Identifier: MIT */
/* zwp_linux_dmabuf_v1: the format table and feedback from the planes, and the import of client dma-bufs. */
#ifndef DISPMAN_WAYLAND_DMABUF_H
#define DISPMAN_WAYLAND_DMABUF_H

#include "server.h"

int dmabuf_init_global(struct server *srv);
void dmabuf_finish(struct server *srv);

#endif
