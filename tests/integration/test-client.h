/* SPDX-License-Identifier: MIT */
/*
 * The set-up the guest tests' own Wayland clients share (kiosk-paint, kiosk-typed,
 * wayland-input, wayland-cursor): the globals, one xdg toplevel that acks its configures,
 * shm buffers, a line log. Each program keeps its own listeners for what it tests (seat,
 * output, extra globals) and sets them in struct test_client before the calls. Every
 * failure prints "FAIL: ..." and exits 1 (check.h).
 */
#ifndef DISPMAN_TEST_CLIENT_H
#define DISPMAN_TEST_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

struct test_client {
	const char *name;               /* for the memfds' and the failures' names */
	struct wl_display *display;
	struct wl_compositor *compositor;       /* v4 */
	struct wl_subcompositor *subcompositor; /* NULL unless offered */
	struct wl_shm *shm;
	struct xdg_wm_base *wm;                 /* v1, answers pings */
	struct wl_seat *seat;                   /* the first, at seat_version (default 4) */
	struct wl_keyboard *keyboard;           /* bound by the seat listener here */
	struct wl_pointer *pointer;             /* likewise */
	struct wl_output *output;               /* the first, v2; NULL without output_listener */
	struct wl_surface *surface;             /* the toplevel's */
	struct xdg_surface *xsurface;
	struct xdg_toplevel *toplevel;
	int32_t cfg_w, cfg_h;                   /* the last xdg_toplevel.configure */
	bool configured;                        /* an xdg_surface.configure was acked */
	bool closed;                            /* xdg_toplevel.close */

	/* Set before test_client_connect(): */
	uint32_t seat_version;                  /* 0: 4 */
	/* the seat's own listener (NULL: the one here, which binds the keyboard and the
	 * pointer with these listeners, each once when the seat has it; the seat is not
	 * bound when all three are NULL) */
	const struct wl_seat_listener *seat_listener;
	const struct wl_keyboard_listener *keyboard_listener;
	const struct wl_pointer_listener *pointer_listener;
	const struct wl_output_listener *output_listener; /* NULL: no wl_output */
	/* any other global, offered to the program (may be NULL) */
	void (*global)(struct test_client *c, struct wl_registry *reg, uint32_t name,
		const char *iface);
	/* Set before test_client_toplevel(): called after each configure is acked (NULL:
	 * nothing more) */
	void (*configure)(struct test_client *c);
};

/* wl_pointer events a test does not look at, for its listener. */
void test_pointer_frame(void *data, struct wl_pointer *p);
void test_pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source);
void test_pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis);
void test_pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t v);

/* The file at path as text (up to 128 KiB, in a buffer the next call reuses), or NULL. */
char *test_slurp(const char *path);
/* How many times what occurs in s. */
int test_count(const char *s, const char *what);

/* Lines of text into path ("-": stdout), each flushed. */
void test_log_open(const char *path);
void test_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Connects to $WAYLAND_DISPLAY, binds the globals, one roundtrip; fails without
 * wl_compositor, wl_shm or xdg_wm_base. */
void test_client_connect(struct test_client *c);
/* A toplevel titled title (its surface not committed yet). */
void test_client_toplevel(struct test_client *c, const char *title);
/* The toplevel's initial commit, then dispatch until its first configure is acked. */
void test_client_wait_configure(struct test_client *c);
/* Commits the toplevel's surface with a frame callback and dispatches until it is done
 * (the compositor showed it). */
void test_client_commit_wait_frame(struct test_client *c);
/* Dispatches until the connection ends or the toplevel is closed; then disconnects. */
void test_client_run(struct test_client *c);

/* A w x h shm buffer of format (4 bytes a pixel) filled with colour, or by fill (colour
 * ignored) when fill is not NULL. The caller owns it. */
struct wl_buffer *test_client_buffer(struct test_client *c, int32_t w, int32_t h,
	uint32_t format, uint32_t colour, void (*fill)(uint32_t *px, int32_t w, int32_t h));
/* The buffer attached to the toplevel (damaged whole) and committed; the buffer is
 * destroyed when the compositor releases it. */
void test_client_show(struct test_client *c, struct wl_buffer *b, int32_t w, int32_t h);

#endif
