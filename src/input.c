/* SPDX-License-Identifier: MIT */
/*
 * dispman_input: libinput (udev or path backend) behind the device's epoll fd. Events are
 * translated into struct dispman_input_event with positions in the pixels of one output;
 * keysyms and text come from xkbcommon when the build has it. The pointer may drive a
 * cursor layer.
 *
 * Two fds go into the device's epoll: libinput's own fd, and an eventfd that wakes the
 * dispatch when libinput queued events without its fd becoming readable (the DEVICE_ADDED
 * events of libinput_path_add_device() and libinput_udev_assign_seat()).
 */
#include <errno.h>

#include "clock.h"
#include "device.h"
#include "event.h"
#include "input-private.h"
#include "layer.h"
#include "log.h"
#include "output.h"
#include "seat.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#if HAVE_LIBINPUT
#include <libinput.h>
#include <libudev.h>
#endif
#if HAVE_XKBCOMMON
#include <xkbcommon/xkbcommon.h>
#endif

/* ---- pure helpers (tests/unit/test-input.c) ---- */

double input_clamp(double v, uint32_t size)
{
	if (size == 0 || !(v > 0.0)) /* also maps NaN to 0 */
		return 0.0;
	double max = (double)(size - 1);
	return v > max ? max : v;
}

bool pointer_area_resize(struct pointer_area *p, uint32_t w, uint32_t h)
{
	if (p->w == w && p->h == h)
		return false;
	bool first = p->w == 0 || p->h == 0;
	p->w = w;
	p->h = h;
	if (first) {
		p->x = (double)(w / 2);
		p->y = (double)(h / 2);
	}
	p->x = input_clamp(p->x, w);
	p->y = input_clamp(p->y, h);
	return true;
}

void pointer_area_move(struct pointer_area *p, double dx, double dy)
{
	p->x = input_clamp(p->x + dx, p->w);
	p->y = input_clamp(p->y + dy, p->h);
}

void pointer_area_warp(struct pointer_area *p, double x, double y)
{
	p->x = input_clamp(x, p->w);
	p->y = input_clamp(y, p->h);
}

void pointer_area_cursor_origin(const struct pointer_area *p, int hot_x, int hot_y,
	int32_t *x, int32_t *y)
{
	/* Positions are in [0, size - 1], so truncation is a floor. */
	*x = (int32_t)p->x - hot_x;
	*y = (int32_t)p->y - hot_y;
}

#if HAVE_LIBINPUT

enum dispman_input_event_type input_event_type_from_libinput(int type)
{
	switch ((enum libinput_event_type)type) {
	case LIBINPUT_EVENT_DEVICE_ADDED:
		return DISPMAN_INPUT_DEVICE_ADDED;
	case LIBINPUT_EVENT_DEVICE_REMOVED:
		return DISPMAN_INPUT_DEVICE_REMOVED;
	case LIBINPUT_EVENT_KEYBOARD_KEY:
		return DISPMAN_INPUT_KEY;
	case LIBINPUT_EVENT_POINTER_MOTION:
		return DISPMAN_INPUT_POINTER_MOTION;
	case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
		return DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE;
	case LIBINPUT_EVENT_POINTER_BUTTON:
		return DISPMAN_INPUT_POINTER_BUTTON;
	case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
	case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
	case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
		return DISPMAN_INPUT_POINTER_AXIS;
	case LIBINPUT_EVENT_TOUCH_DOWN:
		return DISPMAN_INPUT_TOUCH_DOWN;
	case LIBINPUT_EVENT_TOUCH_MOTION:
		return DISPMAN_INPUT_TOUCH_MOTION;
	case LIBINPUT_EVENT_TOUCH_UP:
		return DISPMAN_INPUT_TOUCH_UP;
	case LIBINPUT_EVENT_TOUCH_CANCEL:
		return DISPMAN_INPUT_TOUCH_CANCEL;
	case LIBINPUT_EVENT_TOUCH_FRAME:
		return DISPMAN_INPUT_TOUCH_FRAME;
	default:
		return 0;
	}
}

/* ---- the input object ---- */

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

static int open_restricted(const char *path, int flags, void *data)
{
	struct dispman_input *input = data;
	/* through the device's seat when it has one (seat.h), so that no root is needed */
	struct seat *seat = input->dev ? input->dev->seat : NULL;
	int fd = seat ? seat_open_node(seat, path) : open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		int err = seat ? -fd : errno;
		input->open_err = err;
		if (seat && !input->path_backend &&
		    (!seat_is_enabled(seat) || err == EPERM || err == EACCES))
			/* the seat is being disabled (a VT switch), its event may not have come
			 * yet: libinput is suspended then, and its udev backend opens every
			 * device of the seat again on resume */
			dispman_log_errno(DISPMAN_LOG_INFO, err, "input: %s not opened now, the "
				"seat refused it (being disabled?): it is opened again when the "
				"seat is enabled", path);
		else
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: cannot open %s", path);
		return -err;
	}
	return fd;
}

static void close_restricted(int fd, void *data)
{
	struct dispman_input *input = data;
	/* without the device, its seat and the seat's devices are gone already */
	seat_close_node(input->dev ? input->dev->seat : NULL, fd);
}

static const struct libinput_interface li_interface = {
	.open_restricted = open_restricted,
	.close_restricted = close_restricted,
};

DISPMAN_PRINTF(3, 0)
static void li_log(struct libinput *li, enum libinput_log_priority priority, const char *fmt,
	va_list args)
{
	enum dispman_log_level level = DISPMAN_LOG_DEBUG;
	if (priority >= LIBINPUT_LOG_PRIORITY_ERROR)
		level = DISPMAN_LOG_ERROR;
	else if (priority >= LIBINPUT_LOG_PRIORITY_INFO)
		level = DISPMAN_LOG_INFO;
	if (!log_enabled(level))
		return;
	char msg[512];
	vsnprintf(msg, sizeof(msg), fmt, args);
	size_t len = strlen(msg);
	if (len > 0 && msg[len - 1] == '\n')
		msg[len - 1] = '\0';
	log_print(level, "libinput: %s", msg);
}

/* The output positions refer to, and the pointer area resized to its mode. */
static struct dispman_output *target_output(struct dispman_input *input)
{
	if (!input->dev)
		return NULL;
	struct dispman_output *out = input->output;
	size_t n = dispman_device_get_output_count(input->dev);
	for (size_t i = 0; !out && i < n; i++) {
		struct dispman_output *o = dispman_device_get_output(input->dev, i);
		if (dispman_output_is_enabled(o))
			out = o;
	}
	for (size_t i = 0; !out && i < n; i++) {
		struct dispman_output *o = dispman_device_get_output(input->dev, i);
		if (dispman_output_get_status(o) == DISPMAN_CONNECTED)
			out = o;
	}
	const struct dispman_mode *mode = NULL;
	if (out) {
		mode = dispman_output_get_current_mode(out);
		if (!mode && dispman_output_get_mode_count(out) > 0)
			mode = dispman_output_get_preferred_mode(out);
	}
	/* An output unplugged by hotplug has no modes: keep the last area until it returns. */
	if (mode && pointer_area_resize(&input->pointer, mode->width, mode->height))
		input->cursor_dirty = input->cursor != NULL;
	return out;
}

static void place_cursor(struct dispman_input *input)
{
	struct dispman_layer *layer = input->cursor;
	int32_t x, y;
	pointer_area_cursor_origin(&input->pointer, input->hot_x, input->hot_y, &x, &y);
	/* Keep the size: an explicit one stays explicit, a buffer-sized one follows the buffer. */
	dispman_layer_set_destination(layer, x, y, layer->dst_set ? layer->dst_w : 0,
		layer->dst_set ? layer->dst_h : 0);
}

static uint32_t device_caps(struct libinput_device *d)
{
	uint32_t caps = 0;
	if (libinput_device_has_capability(d, LIBINPUT_DEVICE_CAP_KEYBOARD))
		caps |= DISPMAN_INPUT_CAP_KEYBOARD;
	if (libinput_device_has_capability(d, LIBINPUT_DEVICE_CAP_POINTER))
		caps |= DISPMAN_INPUT_CAP_POINTER;
	if (libinput_device_has_capability(d, LIBINPUT_DEVICE_CAP_TOUCH))
		caps |= DISPMAN_INPUT_CAP_TOUCH;
	return caps;
}

static uint32_t current_modifiers(struct dispman_input *input)
{
	uint32_t mods = 0;
#if HAVE_XKBCOMMON
	static const struct {
		const char *name;
		uint32_t bit;
	} names[] = {
		{ XKB_MOD_NAME_SHIFT, DISPMAN_INPUT_MOD_SHIFT },
		{ XKB_MOD_NAME_CTRL, DISPMAN_INPUT_MOD_CTRL },
		{ XKB_MOD_NAME_ALT, DISPMAN_INPUT_MOD_ALT },
		{ XKB_MOD_NAME_LOGO, DISPMAN_INPUT_MOD_LOGO },
	};
	if (!input->xkb_state)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (xkb_state_mod_name_is_active(input->xkb_state, names[i].name,
			XKB_STATE_MODS_EFFECTIVE) > 0)
			mods |= names[i].bit;
#endif
	return mods;
}

static void translate_key(struct dispman_input *input, struct libinput_event_keyboard *k,
	struct dispman_input_event *e)
{
	e->time_usec = libinput_event_keyboard_get_time_usec(k);
	e->key = libinput_event_keyboard_get_key(k);
	bool pressed = libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED;
	e->state = pressed ? DISPMAN_INPUT_PRESSED : DISPMAN_INPUT_RELEASED;
#if HAVE_XKBCOMMON
	if (!input->xkb_state)
		return;
	xkb_keycode_t code = e->key + 8; /* evdev to XKB keycodes */
	e->keysym = xkb_state_key_get_one_sym(input->xkb_state, code);
	if (pressed) {
		xkb_state_key_get_utf8(input->xkb_state, code, e->text, sizeof(e->text));
		unsigned char c = (unsigned char)e->text[0];
		if (c < 0x20 || c == 0x7f) /* Return, Escape, BackSpace...: keysym only */
			e->text[0] = '\0';
	}
	/* The seat's count makes a key held on two keyboards one press for XKB. */
	uint32_t count = libinput_event_keyboard_get_seat_key_count(k);
	if ((pressed && count == 1) || (!pressed && count == 0))
		xkb_state_update_key(input->xkb_state, code, pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
#endif
}

static void translate_axis(struct libinput_event_pointer *p, enum libinput_event_type type,
	struct dispman_input_event *e)
{
	e->time_usec = libinput_event_pointer_get_time_usec(p);
	e->axis_source = type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL ? DISPMAN_INPUT_AXIS_WHEEL :
		type == LIBINPUT_EVENT_POINTER_SCROLL_FINGER ? DISPMAN_INPUT_AXIS_FINGER :
		DISPMAN_INPUT_AXIS_CONTINUOUS;
	bool wheel = type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL;
	if (libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL)) {
		e->axis_y = libinput_event_pointer_get_scroll_value(p,
			LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL);
		if (wheel)
			e->axis_v120_y = libinput_event_pointer_get_scroll_value_v120(p,
				LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL);
	}
	if (libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL)) {
		e->axis_x = libinput_event_pointer_get_scroll_value(p,
			LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL);
		if (wheel)
			e->axis_v120_x = libinput_event_pointer_get_scroll_value_v120(p,
				LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL);
	}
}

static void translate_touch(struct dispman_input *input, struct libinput_event_touch *t,
	enum libinput_event_type type, struct dispman_input_event *e)
{
	e->time_usec = libinput_event_touch_get_time_usec(t);
	if (type == LIBINPUT_EVENT_TOUCH_FRAME)
		return;
	e->slot = libinput_event_touch_get_slot(t);
	e->seat_slot = libinput_event_touch_get_seat_slot(t);
	bool known = e->seat_slot >= 0 && e->seat_slot < MAX_TOUCH_SLOTS;
	if (type == LIBINPUT_EVENT_TOUCH_DOWN || type == LIBINPUT_EVENT_TOUCH_MOTION) {
		uint32_t w = input->pointer.w, h = input->pointer.h;
		e->x = input_clamp(libinput_event_touch_get_x_transformed(t, w), w);
		e->y = input_clamp(libinput_event_touch_get_y_transformed(t, h), h);
		if (known) {
			input->touch_x[e->seat_slot] = e->x;
			input->touch_y[e->seat_slot] = e->y;
		}
	} else if (known) {
		e->x = input->touch_x[e->seat_slot];
		e->y = input->touch_y[e->seat_slot];
	} else {
		e->x = e->y = 0.0;
	}
}

/* Translate one libinput event and hand it to the callback. Returns 1 if delivered. */
static int deliver(struct dispman_input *input, struct libinput_event *ev)
{
	enum libinput_event_type type = libinput_event_get_type(ev);
	struct dispman_input_event e = { 0 };
	e.type = input_event_type_from_libinput((int)type);
	if (e.type == 0)
		return 0;
	struct libinput_device *d = libinput_event_get_device(ev);
	const char *name = libinput_device_get_name(d);
	const char *sysname = libinput_device_get_sysname(d);
	e.device_name = name ? name : "";
	e.device_sysname = sysname ? sysname : "";
	e.device_caps = device_caps(d);
	e.modifiers = current_modifiers(input);
	e.output = target_output(input);
	struct pointer_area *ptr = &input->pointer;
	struct libinput_event_pointer *p;

	switch (type) {
	case LIBINPUT_EVENT_DEVICE_ADDED:
	case LIBINPUT_EVENT_DEVICE_REMOVED:
		e.time_usec = clock_usec();
		break;
	case LIBINPUT_EVENT_KEYBOARD_KEY:
		translate_key(input, libinput_event_get_keyboard_event(ev), &e);
		break;
	case LIBINPUT_EVENT_POINTER_MOTION:
		p = libinput_event_get_pointer_event(ev);
		e.time_usec = libinput_event_pointer_get_time_usec(p);
		e.dx = libinput_event_pointer_get_dx(p);
		e.dy = libinput_event_pointer_get_dy(p);
		e.dx_unaccel = libinput_event_pointer_get_dx_unaccelerated(p);
		e.dy_unaccel = libinput_event_pointer_get_dy_unaccelerated(p);
		pointer_area_move(ptr, e.dx, e.dy);
		input->cursor_dirty = input->cursor != NULL;
		break;
	case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
		p = libinput_event_get_pointer_event(ev);
		e.time_usec = libinput_event_pointer_get_time_usec(p);
		pointer_area_warp(ptr, libinput_event_pointer_get_absolute_x_transformed(p, ptr->w),
			libinput_event_pointer_get_absolute_y_transformed(p, ptr->h));
		input->cursor_dirty = input->cursor != NULL;
		break;
	case LIBINPUT_EVENT_POINTER_BUTTON:
		p = libinput_event_get_pointer_event(ev);
		e.time_usec = libinput_event_pointer_get_time_usec(p);
		e.button = libinput_event_pointer_get_button(p);
		e.state = libinput_event_pointer_get_button_state(p) ==
			LIBINPUT_BUTTON_STATE_PRESSED ? DISPMAN_INPUT_PRESSED : DISPMAN_INPUT_RELEASED;
		break;
	case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
	case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
	case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
		translate_axis(libinput_event_get_pointer_event(ev), type, &e);
		break;
	default:
		translate_touch(input, libinput_event_get_touch_event(ev), type, &e);
		break;
	}
	if (e.type >= DISPMAN_INPUT_POINTER_MOTION && e.type <= DISPMAN_INPUT_POINTER_AXIS) {
		e.x = ptr->x;
		e.y = ptr->y;
	}
	if (input->cb)
		input->cb(input, &e, input->cb_data);
	return 1;
}

static int handle_events(int fd, uint32_t events, void *data)
{
	struct dispman_input *input = data;
	if (fd == input->wake_fd) {
		uint64_t count;
		if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
			dispman_log_errno(DISPMAN_LOG_WARNING, errno, "input: eventfd read failed");
	}
	int ret = libinput_dispatch(input->li);
	if (ret < 0) {
		dispman_log_errno(DISPMAN_LOG_ERROR, -ret, "input: libinput_dispatch failed");
		return ret;
	}
	int handled = 0;
	struct libinput_event *ev;
	while ((ev = libinput_get_event(input->li))) {
		handled += deliver(input, ev);
		libinput_event_destroy(ev);
	}
	if (input->cursor && input->cursor_dirty) {
		input->cursor_dirty = false;
		place_cursor(input);
		ret = dispman_device_commit(input->dev);
		if (ret < 0 && ret != -EACCES) /* a lost master is logged once by the device */
			dispman_log(DISPMAN_LOG_ERROR, "input: commit after cursor motion failed: %s",
				strerror(-ret));
	}
	return handled;
}

/* Make the next dispatch drain events libinput queued without its fd becoming readable. */
static void wake(struct dispman_input *input)
{
	uint64_t one = 1;
	if (write(input->wake_fd, &one, sizeof(one)) < 0)
		dispman_log_errno(DISPMAN_LOG_WARNING, errno, "input: eventfd write failed");
}

static void init_xkb(struct dispman_input *input)
{
#if HAVE_XKBCOMMON
	input->xkb_ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (input->xkb_ctx)
		/* NULL names: the default RMLVO (XKB_DEFAULT_* environment, else "us"). */
		input->keymap = xkb_keymap_new_from_names(input->xkb_ctx, NULL,
			XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (input->keymap)
		input->xkb_state = xkb_state_new(input->keymap);
	if (!input->xkb_state)
		dispman_log(DISPMAN_LOG_WARNING,
			"input: no XKB keymap (is xkb-data installed?): keys without keysyms");
#else
	(void)input;
#endif
}

/* The seat went away (VT or session switch; seatd revokes our evdev fds) or came back:
 * libinput closes its devices and opens them again through open_restricted(). */
static void seat_changed(struct device_listener *l, bool enabled)
{
	struct dispman_input *input = container_of(l, struct dispman_input, listener);
	if (enabled) {
		if (libinput_resume(input->li) < 0)
			dispman_log(DISPMAN_LOG_ERROR, "input: libinput_resume failed after the "
				"seat came back");
	} else {
		libinput_suspend(input->li);
	}
}

/* The device goes first: unregister from it, keep libinput until dispman_input_destroy(). */
static void device_destroyed(struct device_listener *l)
{
	struct dispman_input *input = container_of(l, struct dispman_input, listener);
	dispman_log(DISPMAN_LOG_DEBUG, "input: its device was destroyed first; the input is "
		"inert until dispman_input_destroy()");
	event_source_remove(input->li_source);
	event_source_remove(input->wake_source);
	input->li_source = input->wake_source = NULL;
	input->dev = NULL;
	input->output = NULL;
	input->cursor = NULL;
}

static void layer_destroyed(struct device_listener *l, struct dispman_layer *layer)
{
	struct dispman_input *input = container_of(l, struct dispman_input, listener);
	if (input->cursor == layer) {
		input->cursor = NULL;
		input->cursor_dirty = false;
	}
}

static void destroy_input(struct dispman_input *input)
{
	if (input->dev)
		device_remove_listener(&input->listener);
	event_source_remove(input->li_source);
	event_source_remove(input->wake_source);
	if (input->li)
		libinput_unref(input->li);
	if (input->udev)
		udev_unref(input->udev);
	if (input->wake_fd >= 0)
		close(input->wake_fd);
#if HAVE_XKBCOMMON
	xkb_state_unref(input->xkb_state);
	xkb_keymap_unref(input->keymap);
	xkb_context_unref(input->xkb_ctx);
#endif
	free(input);
}

/* Common part of both constructors; returns NULL with errno set. */
static struct dispman_input *create_input(struct dispman_device *dev, bool path_backend)
{
	if (!dev) {
		dispman_log(DISPMAN_LOG_ERROR, "input: no device");
		errno = EINVAL;
		return NULL;
	}
	struct dispman_input *input = calloc(1, sizeof(*input));
	if (!input) {
		dispman_log(DISPMAN_LOG_ERROR, "input: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	input->dev = dev;
	input->path_backend = path_backend;
	input->wake_fd = -1;
	input->listener.destroyed = device_destroyed;
	input->listener.layer_destroyed = layer_destroyed;
	input->listener.seat_changed = seat_changed;
	device_add_listener(dev, &input->listener);
	int err;

	input->udev = udev_new();
	if (!input->udev) {
		err = errno ? errno : ENOMEM;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: udev_new failed");
		goto fail;
	}
	input->li = path_backend ? libinput_path_create_context(&li_interface, input) :
		libinput_udev_create_context(&li_interface, input, input->udev);
	if (!input->li) {
		err = errno ? errno : ENOMEM;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: cannot create a libinput context");
		goto fail;
	}
	libinput_log_set_handler(input->li, li_log);
	libinput_log_set_priority(input->li, log_enabled(DISPMAN_LOG_DEBUG) ?
		LIBINPUT_LOG_PRIORITY_DEBUG : LIBINPUT_LOG_PRIORITY_INFO);

	input->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (input->wake_fd < 0) {
		err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: eventfd failed");
		goto fail;
	}
	input->li_source = event_source_add(dev, libinput_get_fd(input->li), EPOLLIN,
		handle_events, input);
	if (!input->li_source) {
		err = errno;
		goto fail; /* logged by event_source_add() */
	}
	input->wake_source = event_source_add(dev, input->wake_fd, EPOLLIN, handle_events, input);
	if (!input->wake_source) {
		err = errno;
		goto fail;
	}
	init_xkb(input);
	target_output(input); /* centre the pointer on the output */
	return input;

fail:
	destroy_input(input);
	errno = err;
	return NULL;
}

struct dispman_input *dispman_input_create_udev(struct dispman_device *dev, const char *seat)
{
	struct dispman_input *input = create_input(dev, false);
	if (!input)
		return NULL;
	if (!seat)
		seat = "seat0";
	if (libinput_udev_assign_seat(input->li, seat) != 0) {
		int err = errno ? errno : EIO;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: cannot assign seat %s", seat);
		destroy_input(input);
		errno = err;
		return NULL;
	}
	wake(input);
	return input;
}

int dispman_input_add_device(struct dispman_input *input, const char *path)
{
	if (!input || !path || !input->path_backend) {
		dispman_log(DISPMAN_LOG_ERROR, "input: add_device needs an input of the path "
			"backend and a path");
		return -EINVAL;
	}
	input->open_err = 0;
	struct libinput_device *d = libinput_path_add_device(input->li, path);
	if (!d) {
		int err = input->open_err ? input->open_err : ENODEV;
		if (err == ENODEV)
			dispman_log(DISPMAN_LOG_ERROR, "input: libinput does not take %s (not an "
				"event node, or no ID_INPUT_* udev properties)", path);
		return -err;
	}
	wake(input);
	return 0;
}

struct dispman_input *dispman_input_create_path(struct dispman_device *dev,
	const char *const *paths, size_t n)
{
	if (n > 0 && !paths) {
		dispman_log(DISPMAN_LOG_ERROR, "input: %zu paths but no array", n);
		errno = EINVAL;
		return NULL;
	}
	struct dispman_input *input = create_input(dev, true);
	if (!input)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int ret = dispman_input_add_device(input, paths[i]);
		if (ret < 0) {
			destroy_input(input);
			errno = -ret;
			return NULL;
		}
	}
	return input;
}

void dispman_input_destroy(struct dispman_input *input)
{
	if (input)
		destroy_input(input);
}

int dispman_input_set_callback(struct dispman_input *input, dispman_input_callback cb,
	void *data)
{
	if (!input) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: input is NULL", __func__);
		return -EINVAL;
	}
	input->cb = cb;
	input->cb_data = data;
	return 0;
}

int dispman_input_set_output(struct dispman_input *input, struct dispman_output *out)
{
	if (!input) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: input is NULL", __func__);
		return -EINVAL;
	}
	if (out && out->dev != input->dev) {
		dispman_log(DISPMAN_LOG_ERROR, "input: output %s belongs to another device",
			out->name);
		return -EINVAL;
	}
	input->output = out;
	target_output(input);
	return 0;
}

void dispman_input_get_pointer_position(struct dispman_input *input, double *x, double *y)
{
	target_output(input);
	if (x)
		*x = input->pointer.x;
	if (y)
		*y = input->pointer.y;
}

int dispman_input_warp_pointer(struct dispman_input *input, double x, double y)
{
	if (!input) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: input is NULL", __func__);
		return -EINVAL;
	}
	if (!isfinite(x) || !isfinite(y)) {
		dispman_log(DISPMAN_LOG_ERROR, "input: cannot warp the pointer to (%g, %g)", x, y);
		return -EINVAL;
	}
	target_output(input);
	pointer_area_warp(&input->pointer, x, y);
	if (input->cursor)
		place_cursor(input);
	return 0;
}

int dispman_input_set_cursor_layer(struct dispman_input *input, struct dispman_layer *layer,
	int hot_x, int hot_y)
{
	if (!input) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: input is NULL", __func__);
		return -EINVAL;
	}
	if (layer && layer->out->dev != input->dev) {
		dispman_log(DISPMAN_LOG_ERROR, "input: cursor layer belongs to another device");
		return -EINVAL;
	}
	input->cursor = layer;
	input->hot_x = hot_x;
	input->hot_y = hot_y;
	input->cursor_dirty = false;
	if (layer) {
		/* virtualized cursor planes take the hotspot too (HOTSPOT_X/Y) */
		dispman_layer_set_cursor_hotspot(layer, hot_x, hot_y);
		target_output(input);
		place_cursor(input);
	}
	return 0;
}

#else /* !HAVE_LIBINPUT: the API exists and says so. */

enum dispman_input_event_type input_event_type_from_libinput(int type)
{
	return 0;
}

static void *unsupported(void)
{
	dispman_log(DISPMAN_LOG_ERROR, "input: libdispman was built without libinput");
	errno = ENOTSUP;
	return NULL;
}

struct dispman_input *dispman_input_create_udev(struct dispman_device *dev, const char *seat)
{
	return unsupported();
}

struct dispman_input *dispman_input_create_path(struct dispman_device *dev,
	const char *const *paths, size_t n)
{
	return unsupported();
}

int dispman_input_add_device(struct dispman_input *input, const char *path)
{
	unsupported();
	return -ENOTSUP;
}

void dispman_input_destroy(struct dispman_input *input)
{
}

int dispman_input_set_callback(struct dispman_input *input, dispman_input_callback cb,
	void *data)
{
	unsupported();
	return -ENOTSUP;
}

int dispman_input_set_output(struct dispman_input *input, struct dispman_output *out)
{
	unsupported();
	return -ENOTSUP;
}

void dispman_input_get_pointer_position(struct dispman_input *input, double *x, double *y)
{
	if (x)
		*x = 0.0;
	if (y)
		*y = 0.0;
}

int dispman_input_warp_pointer(struct dispman_input *input, double x, double y)
{
	unsupported();
	return -ENOTSUP;
}

int dispman_input_set_cursor_layer(struct dispman_input *input, struct dispman_layer *layer,
	int hot_x, int hot_y)
{
	unsupported();
	return -ENOTSUP;
}

#endif
