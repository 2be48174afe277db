/* SPDX-License-Identifier: MIT */
/*
 * Late repaints (dispman_wayland_set_repaint_window()): a repaint waits on a timer until
 * its output's next vblank less a repaint window, so that the client commits made in the
 * meantime go out in the same frame, and a commit made while a flip is pending shows at
 * the vblank after that flip rather than a refresh later. Off by default: repaints run
 * from an idle callback as soon as something changed (server.c) and right after a flip.
 */
#ifndef DISPMAN_WAYLAND_REPAINT_H
#define DISPMAN_WAYLAND_REPAINT_H

#include "server.h"

/* window_us < 0: off; 0: learned (auto); > 0: that many microseconds; paint: the scene's
 * repaint of every dirty output that is free, which the timer runs. Returns 0, -ERANGE
 * (more than one second), or a negative errno (no timer). */
int late_repaint_set(struct server *srv, int32_t window_us,
	void (*paint)(struct server *srv));
/* A repaint is due (dirty outputs): true when it was put on the timer (the caller paints
 * nothing now); false when it runs now (late_repaint_run()): late repaints off, an output whose vblank
 * cannot be predicted or whose flips do not wait for one, or a deadline already close. */
bool late_repaint_schedule(struct server *srv);
/* The paint function now, timed for the learned window (a repaint run at once). */
void late_repaint_run(struct server *srv);
/* The timer and the state go (compositor destroyed). */
void late_repaint_finish(struct server *srv);

#endif
