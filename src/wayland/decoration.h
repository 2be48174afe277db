/* SPDX-License-Identifier: MIT */
/* zxdg_decoration_manager_v1: every kiosk toplevel is told its decoration is the server's
 * (which draws none), so clients leave their own frames off. */
#ifndef DISPMAN_WAYLAND_DECORATION_H
#define DISPMAN_WAYLAND_DECORATION_H

#include "server.h"

int decoration_init_global(struct server *srv);

#endif
