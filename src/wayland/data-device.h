/* SPDX-License-Identifier: MIT */
/*
 * The clipboard and drag and drop (wl_data_device_manager v3) and the primary selection
 * (zwp_primary_selection_device_manager_v1): one selection of each kind for the seat,
 * offered to the client with keyboard focus whenever it changes; drag and drop follows the
 * pointer over the clients' surfaces and ends on the button's release.
 */
#ifndef DISPMAN_WAYLAND_DATA_DEVICE_H
#define DISPMAN_WAYLAND_DATA_DEVICE_H

#include "server.h"

/* Creates both globals and listens for the seat's focus. 0 or -ENOMEM. */
int data_device_init(struct server *srv);
void data_device_finish(struct server *srv);

#endif
