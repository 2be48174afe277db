/* SPDX-License-Identifier: MIT */
/* wp_presentation: feedback objects attached to a surface's next commit. */
#ifndef DISPMAN_WAYLAND_PRESENTATION_H
#define DISPMAN_WAYLAND_PRESENTATION_H

#include "server.h"

int presentation_init_global(struct server *srv);

#endif
