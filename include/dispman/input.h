/* SPDX-License-Identifier: MIT */
/**
 * @file
 * libdispman input: keyboard, pointer and touch events from libinput, delivered from
 * dispman_device_dispatch(), with positions in the coordinates of one output.
 *
 * Include this header to use it (it includes <dispman/dispman.h>).
 *
 * Coordinates: the input keeps a pointer position in the pixel coordinates of its target
 * output (dispman_input_set_output()), clamped to [0, width - 1] x [0, height - 1] of that
 * output's current mode (the preferred mode while the output is disabled). It starts at the
 * centre of the output. Relative motion moves it; absolute motion puts it where the device
 * points, scaled to the mode's size. Touch points are scaled the same way (and clamped the
 * same way) but do not move the pointer.
 *
 * Devices: the udev backend follows a seat (devices come and go with udev); the path backend
 * opens the event nodes it is given. Both need the udev properties (ID_INPUT_KEYBOARD,
 * ID_INPUT_MOUSE, ID_INPUT_TOUCHSCREEN, ...) that udevd's input_id builtin sets: libinput
 * ignores an event node that has none ("not tagged as supported input device").
 * Event nodes are opened through the device's seat when the device was opened through one
 * (libseat: seatd or logind, see dispman_device_open()), so no root is needed then; the
 * input's devices are paused and reopened with the seat's switches. Otherwise they are
 * opened directly with open(2), and the process needs read/write access to them (root,
 * or the "input" group).
 */
#ifndef DISPMAN_INPUT_H
#define DISPMAN_INPUT_H

#include <dispman/dispman.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dispman_input;

enum dispman_input_event_type {
	DISPMAN_INPUT_DEVICE_ADDED = 1,
	DISPMAN_INPUT_DEVICE_REMOVED,
	DISPMAN_INPUT_KEY,
	DISPMAN_INPUT_POINTER_MOTION,          /* relative motion: dx, dy; x, y after it */
	DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE, /* x, y: the new pointer position */
	DISPMAN_INPUT_POINTER_BUTTON,
	DISPMAN_INPUT_POINTER_AXIS,
	DISPMAN_INPUT_TOUCH_DOWN,
	DISPMAN_INPUT_TOUCH_MOTION,
	DISPMAN_INPUT_TOUCH_UP,
	DISPMAN_INPUT_TOUCH_CANCEL,
	DISPMAN_INPUT_TOUCH_FRAME,             /* ends a set of touch events of one scan */
};

enum dispman_input_state {
	DISPMAN_INPUT_RELEASED = 0,
	DISPMAN_INPUT_PRESSED = 1,
};

/* Device capabilities (dispman_input_event.device_caps). */
#define DISPMAN_INPUT_CAP_KEYBOARD (1u << 0)
#define DISPMAN_INPUT_CAP_POINTER (1u << 1)
#define DISPMAN_INPUT_CAP_TOUCH (1u << 2)

/* Keyboard modifiers in effect (dispman_input_event.modifiers); 0 without xkbcommon. */
#define DISPMAN_INPUT_MOD_SHIFT (1u << 0)
#define DISPMAN_INPUT_MOD_CTRL (1u << 1)
#define DISPMAN_INPUT_MOD_ALT (1u << 2)
#define DISPMAN_INPUT_MOD_LOGO (1u << 3)

enum dispman_input_axis_source {
	DISPMAN_INPUT_AXIS_WHEEL = 1,
	DISPMAN_INPUT_AXIS_FINGER,      /* touchpad two-finger scrolling */
	DISPMAN_INPUT_AXIS_CONTINUOUS,  /* e.g. button scrolling */
};

/**
 * One input event. Fields not listed for an event's type are 0. Strings are owned by the
 * library and valid during the callback only.
 */
struct dispman_input_event {
	enum dispman_input_event_type type;
	uint64_t time_usec;       /* CLOCK_MONOTONIC, microseconds */
	const char *device_name;  /* e.g. "AT Translated Set 2 keyboard"; never NULL */
	const char *device_sysname; /* e.g. "event3"; never NULL */
	uint32_t device_caps;     /* DISPMAN_INPUT_CAP_* of the event's device */
	uint32_t modifiers;       /* DISPMAN_INPUT_MOD_* in effect before this event */

	/* KEY */
	uint32_t key;             /* KEY_* from <linux/input-event-codes.h> */
	enum dispman_input_state state; /* KEY and POINTER_BUTTON */
	uint32_t keysym;          /* XKB keysym (xkbcommon-keysyms.h); 0 without xkbcommon */
	char text[8];             /* UTF-8 of a pressed key, NUL-terminated; "" if none */

	/*
	 * Position in output pixels. POINTER_*: the pointer position after the event.
	 * TOUCH_DOWN, TOUCH_MOTION: the touch point. TOUCH_UP, TOUCH_CANCEL: the slot's last
	 * point.
	 */
	double x, y;
	/* POINTER_MOTION: the motion after acceleration (applied to x, y) and before. */
	double dx, dy;
	double dx_unaccel, dy_unaccel;

	/* POINTER_BUTTON */
	uint32_t button;          /* BTN_* */

	/* POINTER_AXIS: scroll amounts (libinput units: 15 per wheel click); v120 for wheels:
	 * 120 per click, finer for high-resolution wheels. Positive is down / right. */
	enum dispman_input_axis_source axis_source;
	double axis_x, axis_y;
	double axis_v120_x, axis_v120_y;

	/* TOUCH_*: slot of the device (-1 on single-touch devices) and of the seat. */
	int32_t slot;
	int32_t seat_slot;

	/* The output whose coordinates x and y are in; NULL when there is none. */
	struct dispman_output *output;
};

/**
 * Called from dispman_device_dispatch() for every event. ev and everything it points to
 * are valid during the call only. Do not destroy the input from the callback.
 */
typedef void (*dispman_input_callback)(struct dispman_input *input,
	const struct dispman_input_event *ev, void *data);

/**
 * Create an input on the libinput udev backend for a seat. seat: read during the call
 * only; NULL means "seat0". Needs udevd (devices are enumerated and followed through the
 * udev database and its monitor).
 *
 * The input registers its fds with dev; events are delivered from
 * dispman_device_dispatch(dev). The device stays owned by the caller. Destroy the input
 * first; if the device is destroyed first, the input unregisters from it, delivers nothing
 * more, and may only be destroyed.
 *
 * Returns an input the caller owns (free with dispman_input_destroy()) or NULL with errno:
 * ENOTSUP (built without libinput), EINVAL, ENOMEM, or the errno of libinput or udev.
 */
struct dispman_input *dispman_input_create_udev(struct dispman_device *dev, const char *seat);

/**
 * Create an input on the libinput path backend with explicit event nodes such as
 * "/dev/input/event3". paths (n entries, n may be 0) and its strings are read during the
 * call only. Ownership and delivery as dispman_input_create_udev().
 *
 * Returns NULL with errno: ENOTSUP (built without libinput), EINVAL, ENOMEM, the errno of
 * open(2) for a node that cannot be opened, or ENODEV for a node libinput does not take
 * (see the udev note at the top of this header).
 */
struct dispman_input *dispman_input_create_path(struct dispman_device *dev,
	const char *const *paths, size_t n);

/**
 * Add one event node to an input of the path backend (path read during the call only).
 * Returns 0, -EINVAL (an input of the udev backend), -ENODEV or the errno of open(2).
 */
int dispman_input_add_device(struct dispman_input *input, const char *path);

/** Close every device and unregister from the device's dispatch. NULL is fine. */
void dispman_input_destroy(struct dispman_input *input);

/**
 * Set (cb NULL: remove) the event callback; data is passed back, never owned. Returns 0,
 * -EINVAL (input NULL) or -ENOTSUP (built without libinput).
 */
int dispman_input_set_callback(struct dispman_input *input, dispman_input_callback cb,
	void *data);

/**
 * The output whose mode maps absolute positions and bounds the pointer. out must belong to
 * the input's device and stays owned by it. NULL restores the default: the first enabled
 * output, else the first connected one, chosen again at each event. Returns 0 or -EINVAL
 * (input NULL, or an output of another device).
 */
int dispman_input_set_output(struct dispman_input *input, struct dispman_output *out);

/** The pointer position in output pixels; either pointer may be NULL. */
void dispman_input_get_pointer_position(struct dispman_input *input, double *x, double *y);

/**
 * Move the pointer to (x, y), clamped to the output, without an event. A cursor layer
 * follows at the next commit (no commit is requested). Returns 0, -EINVAL (input NULL, x or
 * y not finite: the pointer stays) or -ENOTSUP (built without libinput).
 */
int dispman_input_warp_pointer(struct dispman_input *input, double x, double y);

/**
 * Let the pointer drive a cursor layer: after each batch of pointer motion the layer's
 * destination is moved to (pointer - hot spot), keeping its size, and
 * dispman_device_commit() is called. The layer stays owned by its output; it must be on the
 * input's target output. Destroying the layer unsets it. When the target output is
 * unplugged (hotplug), the pointer keeps its position and the cursor layer its place; both
 * follow the output's mode again when it comes back. The
 * layer is placed at the current pointer position at once, to be shown by the next commit.
 * The hot spot also becomes the layer's cursor hotspot (dispman_layer_set_cursor_hotspot()).
 * layer NULL stops it. Returns 0 or -EINVAL (input NULL, or a layer of another device).
 */
int dispman_input_set_cursor_layer(struct dispman_input *input, struct dispman_layer *layer,
	int hot_x, int hot_y);

#ifdef __cplusplus
}
#endif

#endif
