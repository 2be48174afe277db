/* SPDX-License-Identifier: MIT */
/* zwlr_virtual_pointer_manager_v1: pointer input from clients (wayvnc), off unless allowed. */
#ifndef DISPMAN_WAYLAND_VIRTUAL_POINTER_H
#define DISPMAN_WAYLAND_VIRTUAL_POINTER_H

#include "server.h"

int virtual_pointer_init(struct server *srv);
void virtual_pointer_finish(struct server *srv);
/* Binds a client to zwlr_virtual_pointer_manager_v1 (version 2): the global's bind
 * function, data srv->vptr (virtual-input.c creates the global). */
void virtual_pointer_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id);

#endif
