/* SPDX-License-Identifier: MIT */
/* Queries over the scene: the toplevels with their popups and subsurfaces, as last repainted. */
#ifndef DISPMAN_WAYLAND_TREE_H
#define DISPMAN_WAYLAND_TREE_H

#include "server.h"

struct surface;

/* The topmost surface shown at output position (x, y) with its surface-local coordinates,
 * or NULL: from the committed state (what the next repaint shows), and its input region. */
struct surface *tree_surface_at(struct server *srv, double x, double y, double *sx,
	double *sy);
/* Where s's origin is on the output, from the committed state as tree_surface_at() finds
 * it; false for a surface not placed (no shell role, or under one that is not shown). */
bool tree_surface_origin(struct surface *s, int32_t *ox, int32_t *oy);
/* The topmost mapped toplevel (not a popup), or NULL. */
struct surface *tree_top_toplevel(struct server *srv);
/* Where the keyboard goes: the topmost mapped grabbing popup, else the top toplevel. */
struct surface *tree_keyboard_target(struct server *srv);

#endif
