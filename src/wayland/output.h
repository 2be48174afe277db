/* SPDX-License-Identifier: MIT */
/* wl_output: the served output's mode, size and name. */
#ifndef DISPMAN_WAYLAND_OUTPUT_H
#define DISPMAN_WAYLAND_OUTPUT_H

#include "server.h"

int output_init_global(struct server *srv);
/* The output's mode may have changed (a hotplug re-probe, a reconnect): takes the current
 * mode's size and refresh, and tells every bound wl_output. Returns true when the size
 * changed (toplevels need a new configure); false also while the output is disabled. */
bool output_update_mode(struct server *srv);

#endif
