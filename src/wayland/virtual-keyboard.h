/* SPDX-License-Identifier: MIT */
/* zwp_virtual_keyboard_manager_v1: keys from clients (wtype), off unless allowed. */
#ifndef DISPMAN_WAYLAND_VIRTUAL_KEYBOARD_H
#define DISPMAN_WAYLAND_VIRTUAL_KEYBOARD_H

#include "server.h"

int virtual_keyboard_init(struct server *srv);
void virtual_keyboard_finish(struct server *srv);
/* Offer the global (allow) or withdraw it; keyboards made before keep working. Returns 0
 * or -ENOMEM. */
int virtual_keyboard_allow(struct server *srv, bool allow);

#endif
