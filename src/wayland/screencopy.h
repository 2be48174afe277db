/* SPDX-License-Identifier: MIT */
/* zwlr_screencopy_manager_v1: screenshots (grim) into wl_shm buffers and linear dma-bufs,
 * through dispman_output_capture(). */
#ifndef DISPMAN_WAYLAND_SCREENCOPY_H
#define DISPMAN_WAYLAND_SCREENCOPY_H

#include "server.h"

/* Creates the global. Returns 0 or -ENOMEM. */
int screencopy_init(struct server *srv);
/* After every client is gone: frees what is left. */
void screencopy_finish(struct server *srv);

#endif
