/* SPDX-License-Identifier: MIT */
/*
 * The frame path: mapped surfaces -> dispman layers -> one commit per page flip and output
 * -> frame callbacks and presentation feedback from the flip. Each output runs its own
 * frame cycle; in the extended layout a toplevel's surfaces are layers of its output, in
 * the mirror layout the other outputs get layers of their own showing the same buffers.
 */
#ifndef DISPMAN_WAYLAND_SCENE_H
#define DISPMAN_WAYLAND_SCENE_H

#include "server.h"

/* Sets up the repaint. Returns 0. */
int scene_init(struct server *srv);
/* Ends every output's frame cycle (scene_output_finish()). */
void scene_finish(struct server *srv);
/* Sets the output's frame callback and makes its first commit (the screen goes black, flips
 * start). Returns 0 or a negative errno (logged). */
int scene_output_init(struct output *o);
/* Ends the output's frame cycle: its frame callback and mirror layers go; callbacks of its
 * frame in flight wait for another output's. */
void scene_output_finish(struct output *o);
/* After the device's dispatch: ends the frames whose flips arrived, repaints if needed. */
void scene_after_flip(struct server *srv);
/* Late repaints (dispman_wayland_set_repaint_window(), repaint.c): window_us < 0 off, 0
 * learned, > 0 fixed. Returns 0 or a negative errno. */
int scene_set_repaint_window(struct server *srv, int32_t window_us);
/* A capture's (or modeset's) restoring commit ended o's frame cycle without a flip event. */
void scene_after_capture(struct output *o);

#endif
