/* SPDX-License-Identifier: MIT */
/* wl_output: the served output's mode, size and name. */
#ifndef DISPMAN_WAYLAND_OUTPUT_H
#define DISPMAN_WAYLAND_OUTPUT_H

#include "server.h"

int output_init_global(struct server *srv);

#endif
