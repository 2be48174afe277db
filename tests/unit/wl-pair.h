/* SPDX-License-Identifier: MIT */
/*
 * A compositor and a client in one process, for the unit tests of libdispman-wayland: the
 * compositor over the mock device (vkms-like), on its first connected output, and a client
 * connected to it by a socket pair, and the client's globals bound from a table. Shared by
 * the tests that speak Wayland to it (test-wayland-*.c, test-xdg-*.c,
 * test-virtual-input.c). Failures fail the cmocka test.
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
/* One global a test binds: the first MAX (0 counts as 1) globals of IFACE go into the
 * proxy pointers at OUT (OUT[0], OUT[1], ...), each bound at VERSION or the compositor's
 * own when lower, with LISTENER and DATA added when LISTENER is set. */
struct wl_pair_want {
	const struct wl_interface *iface;
	uint32_t version;
	void *out;
	unsigned max;
	const void *listener;
	void *data;
};
/* A registry of the client after one pump, the globals in WANT (ended by an entry whose
 * iface is NULL) bound; later globals are not bound. The caller destroys the registry. */
struct wl_registry *wl_pair_bind(struct dispman_wayland *wl, struct wl_display *client,
	const struct wl_pair_want *want);
/* A w x h XRGB8888 wl_buffer (stride w * 4) in a memfd pool of its own, zero-filled;
 * the pool and its fd are gone when this returns, the buffer is the caller's. */
struct wl_buffer *wl_pair_shm_buffer(struct wl_shm *shm, int32_t w, int32_t h);
/* The compositor's counters (dispman_wayland_get_stats()); a failure fails the test. */
struct dispman_wayland_stats wl_pair_stats(struct dispman_wayland *wl);
/* Disconnects the client, destroys the compositor and the device (all set to NULL). The
 * mock is left as it is: the caller checks or resets it. */
void wl_pair_stop(struct dispman_device **dev, struct dispman_wayland **wl,
	struct wl_display **client);

#endif
