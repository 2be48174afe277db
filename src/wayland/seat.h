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
/* Capabilities of the virtual devices clients may make (virtual-keyboard.c), also
 * advertised. */
void seat_set_virtual_caps(struct server *srv, uint32_t wl_caps);
/* One event as if from the input (dispman_wayland_inject_input(), checked there). */
void seat_inject(struct server *srv, const struct dispman_input_event *ev);
/* The pointer's position in output pixels (where the last pointer event put it; 0, 0
 * before any). */
void seat_pointer_position(struct server *srv, double *x, double *y);
/* The surface with keyboard focus (NULL: none); the clipboard follows it. */
struct surface *seat_keyboard_focus(struct server *srv);
/* The next serial of the display. */
uint32_t seat_next_serial(struct server *srv);

/* A pointer grab (drag and drop, popup grabs, xdg.c's interactive move and resize):
 * struct seat_pointer_grab, in server.h (xdg.c, which seat.c reaches through tree.c, asks
 * for its grabs with events.grab_request instead of calling seat.c). */
/* Starts grab (a grab already set is cancelled first). */
void seat_pointer_grab(struct server *srv, struct seat_pointer_grab *grab);
/* Ends grab if it is the current one; the pointer focus goes to what is under it. */
void seat_pointer_ungrab(struct server *srv, struct seat_pointer_grab *grab);
/* The surface with pointer focus while at least one button is down (the start of an
 * implicit grab, which a drag must come from), else NULL; *x, *y: the pointer's output
 * position. */
struct surface *seat_pointer_pressed_on(struct server *srv, double *x, double *y);

/*
 * Keys of a virtual keyboard (virtual-keyboard.c), read with its own keymap: an XKB v1
 * keymap in a sealed file of size bytes, owned by the caller. The focused client's
 * wl_keyboards are sent km before its first key or modifiers; they get the seat's keymap
 * and modifiers back at the next key of the seat's own input, when the keyboard focus
 * leaves them, or at seat_forget_keymap(km).
 */
struct seat_keymap {
	int fd;
	uint32_t size;
};
/* A key to the focused client; it is input (events.input) first, which may consume it.
 * Returns whether it was delivered (false: consumed, or no focus). */
bool seat_virtual_key(struct server *srv, const struct seat_keymap *km, uint32_t ms,
	uint32_t key, bool pressed);
/* Modifiers (depressed, latched, locked, group) to the focused client. */
void seat_virtual_modifiers(struct server *srv, const struct seat_keymap *km,
	const uint32_t mods[4]);
/* km goes away (or changes): the client that has it gets the seat's keymap back. */
void seat_forget_keymap(struct server *srv, const struct seat_keymap *km);

#endif
