/* SPDX-License-Identifier: MIT */
/* Ctrl+Alt+F1..F12 switch virtual terminals through the device's seat
 * (dispman_wayland_set_vt_switch()). */
#ifndef DISPMAN_WAYLAND_VT_SWITCH_H
#define DISPMAN_WAYLAND_VT_SWITCH_H

#include <stdbool.h>

#include "server.h"

/* Turn the key bindings on or off. Returns 0 or -ENOMEM. */
int vt_switch_enable(struct server *srv, bool enable);
/* Before the seat goes. */
void vt_switch_finish(struct server *srv);

#endif
