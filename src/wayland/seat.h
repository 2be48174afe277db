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
/* The surface with keyboard focus (NULL: none); the clipboard follows it. */
struct surface *seat_keyboard_focus(struct server *srv);
/* The next serial of the display. */
uint32_t seat_next_serial(struct server *srv);

#endif
