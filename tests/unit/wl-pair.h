/* SPDX-License-Identifier: MIT */
/*
 * A compositor and a client in one process, for the unit tests of libdispman-wayland: the
 * compositor over the mock device (vkms-like), on its first connected output, and a client
 * connected to it by a socket pair. Shared by the tests that speak Wayland to it
 * (test-virtual-input.c, test-xdg-lenient.c, test-xdg-reactive.c,
 * test-wayland-subsurface.c). Failures fail the cmocka test.
 */
#ifndef DISPMAN_TEST_WL_PAIR_H
#define DISPMAN_TEST_WL_PAIR_H

#include <wayland-client.h>

#include <dispman/wayland.h>

/* Sets up the mock, opens the device, makes the compositor and connects the client. */
void wl_pair_start(struct dispman_device **dev, struct dispman_wayland **wl,
	struct wl_display **client);
/* Requests to the compositor and events back, eight rounds; after a protocol error the
 * client reads nothing more. */
void wl_pair_pump(struct dispman_wayland *wl, struct wl_display *client);
/* Disconnects the client, destroys the compositor and the device (all set to NULL). The
 * mock is left as it is: the caller checks or resets it. */
void wl_pair_stop(struct dispman_device **dev, struct dispman_wayland **wl,
	struct wl_display **client);

#endif
