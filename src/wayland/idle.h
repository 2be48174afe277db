/* SPDX-License-Identifier: MIT */
/* Idleness: ext_idle_notifier_v1 (swayidle), zwp_idle_inhibit_manager_v1, and blanking the
 * output after a time without input (dispman_wayland_set_blank_timeout()). */
#ifndef DISPMAN_WAYLAND_IDLE_H
#define DISPMAN_WAYLAND_IDLE_H

#include "server.h"

/* Creates both globals and listens to the seat's input. Returns 0 or -ENOMEM. */
int idle_init(struct server *srv);
/* After every client is gone. Leaves the output as it is (blanked or not). */
void idle_finish(struct server *srv);
/* Blank after ms without input (0: never); restarts the count. Returns 0. */
int idle_set_blank_timeout(struct server *srv, uint32_t ms);

#endif
