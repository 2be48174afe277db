/* SPDX-License-Identifier: MIT */
/*
 * The input module's own state, shared by its files only: input.c (life cycle, libinput
 * context, public setters), input-events.c (libinput events translated, xkbcommon),
 * input-cursor.c (the output positions refer to, the cursor layer), input-pointer.c (the
 * pointer area, pure) and, in a build without libinput, input-stub.c.
 *
 * The pure helpers are also tested alone by tests/unit/test-input.c: pointer position
 * keeping and the mapping of libinput event types.
 */
#ifndef DISPMAN_INPUT_PRIVATE_H
#define DISPMAN_INPUT_PRIVATE_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include <dispman/dispman.h>
#include <dispman/input.h>

#include "device.h"

/* ---- pure helpers (input-pointer.c; tests/unit/test-input.c) ---- */

/* The pointer position within an area of w x h pixels. */
struct pointer_area {
	double x, y;
	uint32_t w, h; /* 0 x 0: no output yet */
};

/* Clamp v to [0, size - 1] (to 0 when size is 0). */
double input_clamp(double v, uint32_t size);
/*
 * Give the area a new size: the first non-empty size centres the pointer, later sizes clamp
 * it. Returns true when the size changed.
 */
bool pointer_area_resize(struct pointer_area *p, uint32_t w, uint32_t h);
void pointer_area_move(struct pointer_area *p, double dx, double dy);
void pointer_area_warp(struct pointer_area *p, double x, double y);
/*
 * Where a point of the screen as the panel scans it out, (sx, sy) in the mode's pixels (the
 * area's size turned back by t, the output's transform), is in the area (the viewer's
 * space), clamped to it: touch screens and absolute pointers report the former.
 */
void pointer_area_from_screen(const struct pointer_area *p, enum dispman_transform t,
	double sx, double sy, double *x, double *y);
/* The mode's size of the area (its size turned back by t): what absolute devices span. */
void pointer_area_screen_size(const struct pointer_area *p, enum dispman_transform t,
	uint32_t *w, uint32_t *h);
/* Top-left corner of a cursor whose hot spot is at the pointer. */
void pointer_area_cursor_origin(const struct pointer_area *p, int hot_x, int hot_y,
	int32_t *x, int32_t *y);

/*
 * The dispman event type for a libinput event type (enum libinput_event_type as an int), or
 * 0 for events the library does not deliver (gestures, tablets, switches, the legacy
 * LIBINPUT_EVENT_POINTER_AXIS which duplicates the scroll events). Always 0 without
 * libinput (input-stub.c).
 */
enum dispman_input_event_type input_event_type_from_libinput(int type);

/* ---- the input object (built with libinput only) ---- */

struct udev;
struct libinput;
struct event_source;
#if HAVE_XKBCOMMON
struct xkb_context;
struct xkb_keymap;
struct xkb_state;
#endif

#define MAX_TOUCH_SLOTS 16

struct dispman_input {
	struct dispman_device *dev;   /* NULL once the device was destroyed */
	struct device_listener listener;
	struct udev *udev;
	struct libinput *li;
	bool path_backend;
	int wake_fd;
	struct event_source *li_source;
	struct event_source *wake_source;
	int open_err; /* errno of the last failed open_restricted() */

	dispman_input_callback cb;
	void *cb_data;

	struct dispman_output *output; /* set explicitly, or NULL for the default */
	struct pointer_area pointer;
	enum dispman_transform transform; /* the target output's (input_target_output()) */
	double touch_x[MAX_TOUCH_SLOTS], touch_y[MAX_TOUCH_SLOTS]; /* by seat slot */

	struct dispman_layer *cursor;
	int hot_x, hot_y;
	bool cursor_dirty;

#if HAVE_XKBCOMMON
	struct xkb_context *xkb_ctx;
	struct xkb_keymap *keymap;
	struct xkb_state *xkb_state;
#endif
};

/* input-events.c */

/*
 * The event source handler of both fds (libinput's, the wake eventfd): dispatch libinput,
 * deliver its events to the callback, then move the cursor layer. Returns the number of
 * events delivered or a negative errno.
 */
int input_handle_events(int fd, uint32_t events, void *data);
/* The default XKB keymap and its state; without them (logged) keys come without keysyms. */
void input_xkb_init(struct dispman_input *input);
void input_xkb_finish(struct dispman_input *input);

/* input-cursor.c */

/*
 * The output positions refer to (set explicitly, else the first enabled, else the first
 * connected one), with the pointer area resized to its mode. NULL without one.
 */
struct dispman_output *input_target_output(struct dispman_input *input);
/* After pointer motion: move the cursor layer to the pointer and commit, if it moved. */
void input_cursor_follow(struct dispman_input *input);

#endif
