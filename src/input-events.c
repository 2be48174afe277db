/* SPDX-License-Identifier: MIT */
/*
 * The input's events (input-private.h): libinput's events read from its context and
 * translated into struct dispman_input_event, with positions in the pixels of the target
 * output (input-cursor.c), and keysyms, text and modifiers from xkbcommon when the build
 * has it.
 */
#include <errno.h>
#include <unistd.h>

#include "clock.h"
#include "input-private.h" /* config.h first: HAVE_XKBCOMMON */
#include "log.h"
#include "util.h"

#include <libinput.h>
#if HAVE_XKBCOMMON
#include <xkbcommon/xkbcommon.h>
#endif

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
		/* the panel's pixels, turned to the viewer's by the output's transform */
		uint32_t w, h;
		pointer_area_screen_size(&input->pointer, input->transform, &w, &h);
		pointer_area_from_screen(&input->pointer, input->transform,
			libinput_event_touch_get_x_transformed(t, w),
			libinput_event_touch_get_y_transformed(t, h), &e->x, &e->y);
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
	e.output = input_target_output(input);
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
		{
			/* the panel's pixels, turned to the viewer's */
			uint32_t w, h;
			double x, y;
			pointer_area_screen_size(ptr, input->transform, &w, &h);
			pointer_area_from_screen(ptr, input->transform,
				libinput_event_pointer_get_absolute_x_transformed(p, w),
				libinput_event_pointer_get_absolute_y_transformed(p, h), &x, &y);
			pointer_area_warp(ptr, x, y);
		}
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

int input_handle_events(int fd, uint32_t events, void *data)
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
	input_cursor_follow(input);
	return handled;
}

void input_xkb_init(struct dispman_input *input)
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

void input_xkb_finish(struct dispman_input *input)
{
#if HAVE_XKBCOMMON
	xkb_state_unref(input->xkb_state);
	xkb_keymap_unref(input->keymap);
	xkb_context_unref(input->xkb_ctx);
#else
	(void)input;
#endif
}
