/* SPDX-License-Identifier: MIT */
/* wl_seat: keyboard, pointer and touch from a dispman_input. */
#ifndef DISPMAN_WAYLAND_SEAT_H
#define DISPMAN_WAYLAND_SEAT_H

#include "server.h"

#include <dispman/input.h>

struct surface;

int seat_init(struct server *srv);
void seat_finish(struct server *srv);
int seat_set_input(struct server *srv, struct dispman_input *input);
/* Capabilities advertised besides the input's (WL_SEAT_CAPABILITY_* mask). */
void seat_set_caps(struct server *srv, uint32_t wl_caps);
/* One event as if from the input (dispman_wayland_inject_input(), checked there). */
void seat_inject(struct server *srv, const struct dispman_input_event *ev);
/* The surface with keyboard focus (NULL: none); the clipboard follows it. */
struct surface *seat_keyboard_focus(struct server *srv);
/* The next serial of the display. */
uint32_t seat_next_serial(struct server *srv);

/*
 * A pointer grab (drag and drop, popup grabs): while one is set, pointer motion and buttons
 * go to it instead of to the surface under the pointer (which gets a leave when the grab
 * starts and an enter when it ends). Positions are output coordinates.
 */
struct seat_pointer_grab {
	void (*motion)(struct seat_pointer_grab *grab, uint32_t ms, double x, double y);
	void (*button)(struct seat_pointer_grab *grab, uint32_t ms, uint32_t button,
		bool pressed);
	/* the seat ends the grab (its input went away, or another grab replaced it) */
	void (*cancel)(struct seat_pointer_grab *grab);
};
/* Starts grab (a grab already set is cancelled first). */
void seat_pointer_grab(struct server *srv, struct seat_pointer_grab *grab);
/* Ends grab if it is the current one; the pointer focus goes to what is under it. */
void seat_pointer_ungrab(struct server *srv, struct seat_pointer_grab *grab);
/* The surface with pointer focus while at least one button is down (the start of an
 * implicit grab, which a drag must come from), else NULL; *x, *y: the pointer's output
 * position. */
struct surface *seat_pointer_pressed_on(struct server *srv, double *x, double *y);

#endif
