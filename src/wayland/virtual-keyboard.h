/* SPDX-License-Identifier: MIT */
/* zwp_virtual_keyboard_manager_v1: keys from clients (wtype), off unless allowed. */
#ifndef DISPMAN_WAYLAND_VIRTUAL_KEYBOARD_H
#define DISPMAN_WAYLAND_VIRTUAL_KEYBOARD_H

#include "server.h"

int virtual_keyboard_init(struct server *srv);
void virtual_keyboard_finish(struct server *srv);
/* Binds a client to zwp_virtual_keyboard_manager_v1: the global's bind function, data
 * srv->vkbd (virtual-input.c creates the global). */
void virtual_keyboard_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id);

#endif
