/* SPDX-License-Identifier: MIT */
/* The frame path: mapped surfaces -> dispman layers -> one commit per page flip -> frame callbacks and presentation feedback from the flip. */
#ifndef DISPMAN_WAYLAND_SCENE_H
#define DISPMAN_WAYLAND_SCENE_H

#include "server.h"

/* Sets up the repaint and the output's frame callback; the first commit (the screen goes
 * black, flips start). Returns 0 or a negative errno (logged). */
int scene_init(struct server *srv);
void scene_finish(struct server *srv);
/* After the device's dispatch: ends the frame whose flip arrived, repaints if needed. */
void scene_after_flip(struct server *srv);
/* A capture's restoring modeset ended the frame cycle without a flip event. */
void scene_after_capture(struct server *srv);

#endif
