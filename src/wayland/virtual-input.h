/* SPDX-License-Identifier: MIT */
/*
 * Who may use virtual input (virtual-keyboard.c, virtual-pointer.c): every client
 * (dispman_wayland_set_virtual_input()) or only the clients of sockets of its own
 * (dispman_wayland_add_virtual_input_socket()); the others do not see the globals.
 */
#ifndef DISPMAN_WAYLAND_VIRTUAL_INPUT_H
#define DISPMAN_WAYLAND_VIRTUAL_INPUT_H

#include "server.h"

int virtual_input_init(struct server *srv);
void virtual_input_finish(struct server *srv);
/* Every client may (allow) or only those of the virtual input sockets. 0 or -ENOMEM. */
int virtual_input_allow(struct server *srv, bool allow);
/* Listens on $XDG_RUNTIME_DIR/name; its clients see the virtual input globals. 0 or a
 * negative errno (logged). */
int virtual_input_add_socket(struct server *srv, const char *name);

#endif
