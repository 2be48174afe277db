/* SPDX-License-Identifier: MIT */
/*
 * wl_seat from a dispman_input: keyboard (xkb keymap from xkbcommon's defaults or
 * $XKB_DEFAULT_*; focus on the top toplevel), pointer (focus on the surface under it, kept
 * on the one that got the press while a button is held: the implicit grab) and
 * touch (each touch point stays with the surface it went down on). Event positions from
 * dispman_input are output pixels; they are sent surface-local.
 */
#include "seat.h"

#include "cursor.h"
#include "output.h"
#include "surface.h"
#include "tree.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

#define MAX_TOUCH 16

struct seat {
	struct server *srv;
	struct dispman_input *input;
	uint32_t extra_caps;            /* WL_SEAT_CAPABILITY_*: seat_set_caps() */
	uint32_t virtual_caps;          /* of allowed virtual devices: seat_set_virtual_caps() */
	struct wl_global *global;
	struct wl_list seats, pointers, keyboards, touches; /* resource links */
	struct xkb_context *xkb;
	struct xkb_keymap *keymap;
	struct xkb_state *state;
	int keymap_fd;
	uint32_t keymap_size;
	struct wl_array keys;           /* pressed evdev key codes */
	uint32_t mods[4];               /* depressed, latched, locked, group */
	struct surface *pointer_focus, *kb_focus;
	uint32_t pointer_enter_serial;  /* of the enter sent to pointer_focus */
	struct surface *touch_focus[MAX_TOUCH];
	double px, py;
	bool pointer_seen;              /* a pointer event gave (px, py) */
	double fsx, fsy;                /* the last position sent to pointer_focus */
	struct wl_event_source *repick; /* idle: pick the pointer focus again */
	unsigned buttons;               /* pointer buttons down */
	uint32_t press_serial;          /* of the last wl_pointer.button press sent */
	struct seat_pointer_grab *grab; /* NULL: pointer events go to the focus */
	struct wl_listener surface_destroy, map_changed, grab_request;
	/* a virtual keyboard's keymap that foreign_client's wl_keyboards have instead of the
	 * seat's (NULL: none has another) */
	const struct seat_keymap *foreign;
	struct wl_client *foreign_client;
};

static void release_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static uint32_t caps(struct seat *seat)
{
	return (seat->input ? WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_POINTER |
		WL_SEAT_CAPABILITY_TOUCH : 0) | seat->extra_caps | seat->virtual_caps;
}

static uint32_t next_serial(struct seat *seat)
{
	return wl_display_next_serial(seat->srv->display);
}

#define for_each_of_client(res, list, client) \
	wl_resource_for_each(res, list) if (wl_resource_get_client(res) == (client))

static struct wl_client *client_of(struct surface *s)
{
	return s ? wl_resource_get_client(s->resource) : NULL;
}

/* ---- keyboard ---- */

static void send_modifiers(struct seat *seat, struct wl_resource *kb, uint32_t serial)
{
	wl_keyboard_send_modifiers(kb, serial, seat->mods[0], seat->mods[1], seat->mods[2],
		seat->mods[3]);
}

static void keyboard_enter(struct seat *seat, struct surface *s)
{
	struct wl_resource *kb;
	uint32_t serial = next_serial(seat);
	for_each_of_client(kb, &seat->keyboards, client_of(s)) {
		wl_keyboard_send_enter(kb, serial, s->resource, &seat->keys);
		send_modifiers(seat, kb, serial);
	}
}

static void send_keymap(struct wl_resource *kb, int fd, uint32_t size)
{
	if (fd >= 0)
		wl_keyboard_send_keymap(kb, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
	else
		wl_keyboard_send_keymap(kb, WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP, -1, 0);
}

/* The client that has a virtual keyboard's keymap gets the seat's keymap and modifiers
 * back. */
static void restore_keymap(struct seat *seat)
{
	if (!seat->foreign)
		return;
	struct wl_resource *kb;
	uint32_t serial = next_serial(seat);
	for_each_of_client(kb, &seat->keyboards, seat->foreign_client) {
		send_keymap(kb, seat->keymap_fd, seat->keymap_size);
		send_modifiers(seat, kb, serial);
	}
	seat->foreign = NULL;
	seat->foreign_client = NULL;
}

static void keyboard_set_focus(struct seat *seat, struct surface *s)
{
	if (seat->kb_focus == s)
		return;
	struct wl_resource *kb;
	restore_keymap(seat);
	if (seat->kb_focus) {
		uint32_t serial = next_serial(seat);
		for_each_of_client(kb, &seat->keyboards, client_of(seat->kb_focus))
			wl_keyboard_send_leave(kb, serial, seat->kb_focus->resource);
	}
	seat->kb_focus = s;
	if (s)
		keyboard_enter(seat, s);
	wl_signal_emit(&seat->srv->events.keyboard_focus, s);
}

static const struct wl_keyboard_interface keyboard_impl = {
	.release = release_req,
};

static void seat_get_keyboard(struct wl_client *c, struct wl_resource *res, uint32_t id)
{
	struct seat *seat = wl_resource_get_user_data(res);
	struct wl_resource *kb = wl_resource_create(c, &wl_keyboard_interface,
		wl_resource_get_version(res), id);
	if (!kb) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(kb, &keyboard_impl, seat, server_unlink_resource);
	wl_list_insert(&seat->keyboards, wl_resource_get_link(kb));
	if (seat->foreign && c == seat->foreign_client)
		send_keymap(kb, seat->foreign->fd, seat->foreign->size);
	else
		send_keymap(kb, seat->keymap_fd, seat->keymap_size);
	if (wl_resource_get_version(kb) >= WL_KEYBOARD_REPEAT_INFO_SINCE_VERSION)
		wl_keyboard_send_repeat_info(kb, 25, 600);
	if (seat->kb_focus && client_of(seat->kb_focus) == c) {
		uint32_t serial = next_serial(seat);
		wl_keyboard_send_enter(kb, serial, seat->kb_focus->resource, &seat->keys);
		send_modifiers(seat, kb, serial);
	}
}

static void handle_key(struct seat *seat, const struct dispman_input_event *ev)
{
	bool down = ev->state == DISPMAN_INPUT_PRESSED;
	uint32_t *k, *end = (uint32_t *)((char *)seat->keys.data + seat->keys.size);
	bool found = false;
	for (k = seat->keys.data; k < end; k++) {
		if (*k == ev->key) {
			found = true;
			if (!down) {
				*k = end[-1];
				seat->keys.size -= sizeof(uint32_t);
			}
			break;
		}
	}
	if (down && !found) {
		uint32_t *n = wl_array_add(&seat->keys, sizeof(uint32_t));
		if (n)
			*n = ev->key;
	}
	uint32_t ms = (uint32_t)(ev->time_usec / 1000);
	struct wl_resource *kb;
	restore_keymap(seat);
	uint32_t serial = next_serial(seat);
	if (seat->kb_focus)
		for_each_of_client(kb, &seat->keyboards, client_of(seat->kb_focus))
			wl_keyboard_send_key(kb, serial, ms, ev->key, down ?
				WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
	if (!seat->state)
		return;
	xkb_state_update_key(seat->state, ev->key + 8, down ? XKB_KEY_DOWN : XKB_KEY_UP);
	uint32_t m[4] = {
		xkb_state_serialize_mods(seat->state, XKB_STATE_MODS_DEPRESSED),
		xkb_state_serialize_mods(seat->state, XKB_STATE_MODS_LATCHED),
		xkb_state_serialize_mods(seat->state, XKB_STATE_MODS_LOCKED),
		xkb_state_serialize_layout(seat->state, XKB_STATE_LAYOUT_EFFECTIVE),
	};
	if (memcmp(m, seat->mods, sizeof(m)) == 0)
		return;
	memcpy(seat->mods, m, sizeof(m));
	if (seat->kb_focus)
		for_each_of_client(kb, &seat->keyboards, client_of(seat->kb_focus))
			send_modifiers(seat, kb, serial);
}

/* ---- pointer ---- */

static void pointer_set_cursor(struct wl_client *c, struct wl_resource *res, uint32_t serial,
	struct wl_resource *surface, int32_t hx, int32_t hy)
{
	struct seat *seat = wl_resource_get_user_data(res);
	/* only the client with pointer focus, and not with a serial older than its enter */
	if (!seat->pointer_focus || client_of(seat->pointer_focus) != c ||
	    serial - seat->pointer_enter_serial > UINT32_MAX / 2)
		return;
	cursor_set_surface(seat->srv, res, surface ? surface_from_resource(surface) : NULL,
		hx, hy);
}

static const struct wl_pointer_interface pointer_impl = {
	.set_cursor = pointer_set_cursor,
	.release = release_req,
};

static void seat_get_pointer(struct wl_client *c, struct wl_resource *res, uint32_t id)
{
	struct seat *seat = wl_resource_get_user_data(res);
	struct wl_resource *p = wl_resource_create(c, &wl_pointer_interface,
		wl_resource_get_version(res), id);
	if (!p) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(p, &pointer_impl, seat, server_unlink_resource);
	wl_list_insert(&seat->pointers, wl_resource_get_link(p));
}

static void pointer_frame(struct seat *seat, struct wl_client *client)
{
	struct wl_resource *p;
	for_each_of_client(p, &seat->pointers, client)
		if (wl_resource_get_version(p) >= WL_POINTER_FRAME_SINCE_VERSION)
			wl_pointer_send_frame(p);
}

/* The focused surface s hears the pointer at (sx, sy), its own coordinates. */
static void send_focus_motion(struct seat *seat, struct surface *s, uint32_t ms, double sx,
	double sy)
{
	struct wl_resource *p;
	seat->fsx = sx;
	seat->fsy = sy;
	for_each_of_client(p, &seat->pointers, client_of(s))
		wl_pointer_send_motion(p, ms, wl_fixed_from_double(sx), wl_fixed_from_double(sy));
}

/* Moves the pointer focus to what is under (x, y); sends enter/leave. */
static struct surface *pointer_update(struct seat *seat, double x, double y, double *sx,
	double *sy)
{
	struct surface *s = tree_surface_at(seat->srv, x, y, sx, sy);
	if (s == seat->pointer_focus)
		return s;
	struct wl_resource *p;
	uint32_t serial = next_serial(seat);
	if (seat->pointer_focus) {
		struct wl_client *old = client_of(seat->pointer_focus);
		for_each_of_client(p, &seat->pointers, old)
			wl_pointer_send_leave(p, serial, seat->pointer_focus->resource);
		pointer_frame(seat, old);
	}
	seat->pointer_focus = s;
	seat->pointer_enter_serial = serial;
	seat->fsx = *sx;
	seat->fsy = *sy;
	cursor_focus_changed(seat->srv);
	if (s) {
		for_each_of_client(p, &seat->pointers, client_of(s))
			wl_pointer_send_enter(p, serial, s->resource, wl_fixed_from_double(*sx),
				wl_fixed_from_double(*sy));
	}
	return s;
}

/* While a button is held (the implicit grab), the focus stays on the surface that got the
 * press: (x, y) in its coordinates, even outside it. NULL: the press was on nothing, or the
 * focus went away (it hears nothing more until the last button is released). */
static struct surface *implicit_grab_focus(struct seat *seat, double x, double y, double *sx,
	double *sy)
{
	struct surface *s = seat->pointer_focus;
	int32_t ox, oy;
	if (!s)
		return NULL;
	if (!tree_surface_origin(s, &ox, &oy)) {
		/* not placed any more (its role went): as where it was last shown */
		ox = s->x;
		oy = s->y;
	}
	*sx = x - ox;
	*sy = y - oy;
	return s;
}

/* After an event of the implicit grab (held: a button was down before it): at the release
 * of the last button the focus goes to what is under the pointer, with leave and enter. */
static void end_implicit_grab(struct seat *seat, bool held, struct surface *was)
{
	if (!held || seat->buttons > 0 || seat->grab)
		return;
	double sx, sy;
	struct surface *now = pointer_update(seat, seat->px, seat->py, &sx, &sy);
	if (now && now != was)
		pointer_frame(seat, client_of(now));
}

static void handle_pointer(struct seat *seat, const struct dispman_input_event *ev)
{
	uint32_t ms = (uint32_t)(ev->time_usec / 1000);
	double sx = 0, sy = 0;
	seat->px = ev->x;
	seat->py = ev->y;
	seat->pointer_seen = true;
	bool pressed = ev->state == DISPMAN_INPUT_PRESSED;
	/* a button held before this event: the implicit grab */
	bool held = seat->buttons > 0;
	if (ev->type == DISPMAN_INPUT_POINTER_BUTTON) {
		if (pressed)
			seat->buttons++;
		else if (seat->buttons > 0)
			seat->buttons--;
	}
	if (seat->grab) {
		struct seat_pointer_grab *g = seat->grab;
		if (ev->type == DISPMAN_INPUT_POINTER_BUTTON)
			g->button(g, ms, ev->button, pressed);
		else if (ev->type != DISPMAN_INPUT_POINTER_AXIS)
			g->motion(g, ms, ev->x, ev->y);
		if (seat->grab == g && g->release_ends && seat->buttons == 0) {
			seat_pointer_ungrab(seat->srv, g);
			g->cancel(g);
		}
		return;
	}
	struct surface *s;
	if (held)
		s = implicit_grab_focus(seat, ev->x, ev->y, &sx, &sy);
	else
		s = pointer_update(seat, ev->x, ev->y, &sx, &sy);
	if (ev->type == DISPMAN_INPUT_POINTER_BUTTON && pressed && !held) {
		struct server_press press = { .target = s };
		wl_signal_emit(&seat->srv->events.press, &press);
		if (press.consumed)
			return;
		/* the press may have closed popups: the focus is what is under it now */
		s = pointer_update(seat, ev->x, ev->y, &sx, &sy);
	}
	if (!s) {
		end_implicit_grab(seat, held, NULL);
		return;
	}
	struct wl_client *client = client_of(s);
	struct wl_resource *p;
	switch (ev->type) {
	case DISPMAN_INPUT_POINTER_MOTION:
	case DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE:
		send_focus_motion(seat, s, ms, sx, sy);
		break;
	case DISPMAN_INPUT_POINTER_BUTTON: {
		uint32_t serial = next_serial(seat);
		if (pressed)
			seat->press_serial = serial;
		for_each_of_client(p, &seat->pointers, client)
			wl_pointer_send_button(p, serial, ms, ev->button,
				ev->state == DISPMAN_INPUT_PRESSED ?
				WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
		break;
	}
	case DISPMAN_INPUT_POINTER_AXIS:
		for_each_of_client(p, &seat->pointers, client) {
			if (wl_resource_get_version(p) >= WL_POINTER_AXIS_SOURCE_SINCE_VERSION)
				wl_pointer_send_axis_source(p, ev->axis_source ==
					DISPMAN_INPUT_AXIS_FINGER ? WL_POINTER_AXIS_SOURCE_FINGER :
					ev->axis_source == DISPMAN_INPUT_AXIS_CONTINUOUS ?
					WL_POINTER_AXIS_SOURCE_CONTINUOUS :
					WL_POINTER_AXIS_SOURCE_WHEEL);
			if (ev->axis_y != 0)
				wl_pointer_send_axis(p, ms, WL_POINTER_AXIS_VERTICAL_SCROLL,
					wl_fixed_from_double(ev->axis_y));
			if (ev->axis_x != 0)
				wl_pointer_send_axis(p, ms, WL_POINTER_AXIS_HORIZONTAL_SCROLL,
					wl_fixed_from_double(ev->axis_x));
		}
		break;
	default:
		break;
	}
	pointer_frame(seat, client);
	end_implicit_grab(seat, held, s);
}

/* ---- touch ---- */

static const struct wl_touch_interface touch_impl = {
	.release = release_req,
};

static void seat_get_touch(struct wl_client *c, struct wl_resource *res, uint32_t id)
{
	struct seat *seat = wl_resource_get_user_data(res);
	struct wl_resource *t = wl_resource_create(c, &wl_touch_interface,
		wl_resource_get_version(res), id);
	if (!t) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(t, &touch_impl, seat, server_unlink_resource);
	wl_list_insert(&seat->touches, wl_resource_get_link(t));
}

static void handle_touch(struct seat *seat, const struct dispman_input_event *ev)
{
	uint32_t ms = (uint32_t)(ev->time_usec / 1000);
	int32_t id = ev->seat_slot;
	struct wl_resource *t;
	if (ev->type == DISPMAN_INPUT_TOUCH_FRAME || ev->type == DISPMAN_INPUT_TOUCH_CANCEL) {
		/* to every client that has a touch point */
		for (int i = 0; i < MAX_TOUCH; i++) {
			struct surface *s = seat->touch_focus[i];
			if (!s)
				continue;
			bool dup = false;
			for (int j = 0; j < i; j++)
				dup = dup || (seat->touch_focus[j] &&
					client_of(seat->touch_focus[j]) == client_of(s));
			if (dup)
				continue;
			for_each_of_client(t, &seat->touches, client_of(s)) {
				if (ev->type == DISPMAN_INPUT_TOUCH_FRAME)
					wl_touch_send_frame(t);
				else
					wl_touch_send_cancel(t);
			}
		}
		if (ev->type == DISPMAN_INPUT_TOUCH_CANCEL)
			memset(seat->touch_focus, 0, sizeof(seat->touch_focus));
		/* points that went up are forgotten after their frame */
		return;
	}
	if (id < 0 || id >= MAX_TOUCH)
		return;
	if (ev->type == DISPMAN_INPUT_TOUCH_DOWN) {
		double sx, sy;
		struct surface *s = tree_surface_at(seat->srv, ev->x, ev->y, &sx, &sy);
		struct server_press press = { .target = s };
		wl_signal_emit(&seat->srv->events.press, &press);
		if (press.consumed)
			s = NULL;
		seat->touch_focus[id] = s;
		if (!s)
			return;
		uint32_t serial = next_serial(seat);
		for_each_of_client(t, &seat->touches, client_of(s))
			wl_touch_send_down(t, serial, ms, s->resource, id, wl_fixed_from_double(sx),
				wl_fixed_from_double(sy));
		return;
	}
	struct surface *s = seat->touch_focus[id];
	if (!s)
		return;
	if (ev->type == DISPMAN_INPUT_TOUCH_MOTION) {
		for_each_of_client(t, &seat->touches, client_of(s))
			wl_touch_send_motion(t, ms, id, wl_fixed_from_double(ev->x - s->x),
				wl_fixed_from_double(ev->y - s->y));
	} else if (ev->type == DISPMAN_INPUT_TOUCH_UP) {
		uint32_t serial = next_serial(seat);
		for_each_of_client(t, &seat->touches, client_of(s))
			wl_touch_send_up(t, serial, ms, id);
		/* keep the focus until the frame: send the frame to this client too */
		for_each_of_client(t, &seat->touches, client_of(s))
			wl_touch_send_frame(t);
		seat->touch_focus[id] = NULL;
	}
}

/* ---- wl_seat ---- */

static void on_input(struct dispman_input *input, const struct dispman_input_event *ev,
	void *data)
{
	struct seat *seat = data;
	struct dispman_input_event moved;
	if (ev->type != DISPMAN_INPUT_DEVICE_ADDED && ev->type != DISPMAN_INPUT_DEVICE_REMOVED) {
		struct server_input in = { .ev = ev };
		wl_signal_emit(&seat->srv->events.input, &in);
		if (in.consumed)
			return;
	}
	switch (ev->type) {
	case DISPMAN_INPUT_KEY:
		handle_key(seat, ev);
		break;
	case DISPMAN_INPUT_POINTER_MOTION:
	case DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE:
	case DISPMAN_INPUT_POINTER_BUTTON:
	case DISPMAN_INPUT_POINTER_AXIS:
		cursor_device(seat->srv, 0, true);
		/* across the outputs of an extended layout (output.c) */
		handle_pointer(seat, output_pointer_event(seat->srv, ev, &moved));
		break;
	case DISPMAN_INPUT_DEVICE_ADDED:
	case DISPMAN_INPUT_DEVICE_REMOVED:
		cursor_device(seat->srv, ev->device_caps, ev->type == DISPMAN_INPUT_DEVICE_ADDED);
		break;
	case DISPMAN_INPUT_TOUCH_DOWN:
	case DISPMAN_INPUT_TOUCH_MOTION:
	case DISPMAN_INPUT_TOUCH_UP:
	case DISPMAN_INPUT_TOUCH_CANCEL:
	case DISPMAN_INPUT_TOUCH_FRAME:
		handle_touch(seat, ev);
		break;
	default:
		break;
	}
	wl_display_flush_clients(seat->srv->display);
}

static void seat_release(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wl_seat_interface seat_impl = {
	.get_pointer = seat_get_pointer,
	.get_keyboard = seat_get_keyboard,
	.get_touch = seat_get_touch,
	.release = seat_release,
};

static void seat_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct seat *seat = data;
	struct wl_resource *res = wl_resource_create(c, &wl_seat_interface, (int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &seat_impl, seat, server_unlink_resource);
	wl_list_insert(&seat->seats, wl_resource_get_link(res));
	wl_seat_send_capabilities(res, caps(seat));
	if (version >= WL_SEAT_NAME_SINCE_VERSION)
		wl_seat_send_name(res, "seat0");
}

static void keymap_init(struct seat *seat)
{
	seat->keymap_fd = -1;
	seat->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (seat->xkb)
		seat->keymap = xkb_keymap_new_from_names(seat->xkb, NULL,
			XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!seat->keymap) {
		wlog(DISPMAN_LOG_WARNING, "no xkb keymap: keyboards get none");
		return;
	}
	seat->state = xkb_state_new(seat->keymap);
	char *str = xkb_keymap_get_as_string(seat->keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
	if (!str)
		return;
	size_t len = strlen(str) + 1;
	int fd = memfd_create("dispman-wayland-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd >= 0 && write(fd, str, len) == (ssize_t)len) {
		fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
		seat->keymap_fd = fd;
		seat->keymap_size = (uint32_t)len;
	} else if (fd >= 0) {
		close(fd);
	}
	free(str);
}

static void on_surface_destroy(struct wl_listener *l, void *data);
static void on_map_changed(struct wl_listener *l, void *data);
static void on_grab_request(struct wl_listener *l, void *data);

int seat_init(struct server *srv)
{
	struct seat *seat = calloc(1, sizeof(*seat));
	if (!seat)
		return -ENOMEM;
	seat->srv = srv;
	wl_list_init(&seat->seats);
	wl_list_init(&seat->pointers);
	wl_list_init(&seat->keyboards);
	wl_list_init(&seat->touches);
	wl_array_init(&seat->keys);
	keymap_init(seat);
	seat->global = wl_global_create(srv->display, &wl_seat_interface, 7, seat, seat_bind);
	seat->surface_destroy.notify = on_surface_destroy;
	wl_signal_add(&srv->events.surface_destroy, &seat->surface_destroy);
	seat->map_changed.notify = on_map_changed;
	wl_signal_add(&srv->events.map_changed, &seat->map_changed);
	seat->grab_request.notify = on_grab_request;
	wl_signal_add(&srv->events.grab_request, &seat->grab_request);
	srv->seat = seat;
	return seat->global ? 0 : -ENOMEM;
}

void seat_finish(struct server *srv)
{
	struct seat *seat = srv->seat;
	if (!seat)
		return;
	if (seat->input)
		dispman_input_set_callback(seat->input, NULL, NULL);
	wl_list_remove(&seat->surface_destroy.link);
	wl_list_remove(&seat->map_changed.link);
	wl_list_remove(&seat->grab_request.link);
	if (seat->repick)
		wl_event_source_remove(seat->repick);
	if (seat->keymap_fd >= 0)
		close(seat->keymap_fd);
	xkb_state_unref(seat->state);
	xkb_keymap_unref(seat->keymap);
	xkb_context_unref(seat->xkb);
	wl_array_release(&seat->keys);
	free(seat);
	srv->seat = NULL;
}

static void send_caps(struct seat *seat)
{
	struct wl_resource *res;
	wl_resource_for_each(res, &seat->seats)
		wl_seat_send_capabilities(res, caps(seat));
}

int seat_set_input(struct server *srv, struct dispman_input *input)
{
	struct seat *seat = srv->seat;
	int r;
	if (input) {
		if ((r = dispman_input_set_output(input, srv->out)) < 0 ||
		    (r = dispman_input_set_callback(input, on_input, seat)) < 0) {
			wlog(DISPMAN_LOG_ERROR, "cannot serve wl_seat from this input: %s",
				strerror(-r));
			dispman_input_set_callback(input, NULL, NULL);
			return r;
		}
	}
	if (seat->input && seat->input != input) {
		dispman_input_set_callback(seat->input, NULL, NULL);
		seat->buttons = 0;
		if (seat->grab) {
			struct seat_pointer_grab *g = seat->grab;
			seat->grab = NULL;
			g->cancel(g);
		}
	}
	seat->input = input;
	cursor_set_input(srv, input);
	send_caps(seat);
	return 0;
}

void seat_set_caps(struct server *srv, uint32_t wl_caps)
{
	srv->seat->extra_caps = wl_caps;
	send_caps(srv->seat);
}

void seat_set_virtual_caps(struct server *srv, uint32_t wl_caps)
{
	srv->seat->virtual_caps = wl_caps;
	send_caps(srv->seat);
}

void seat_inject(struct server *srv, const struct dispman_input_event *ev)
{
	on_input(NULL, ev, srv->seat);
}

static void on_surface_destroy(struct wl_listener *l, void *data)
{
	struct seat *seat = wl_container_of(l, seat, surface_destroy);
	struct surface *s = data;
	if (seat->pointer_focus == s) {
		seat->pointer_focus = NULL;
		cursor_focus_changed(seat->srv);
	}
	if (seat->kb_focus == s) {
		restore_keymap(seat);
		seat->kb_focus = NULL;
	}
	for (int i = 0; i < MAX_TOUCH; i++) {
		if (seat->touch_focus[i] != s)
			continue;
		/* the point is lifted off the surface that goes: its client hears the up */
		struct wl_resource *t;
		uint32_t serial = next_serial(seat);
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		uint32_t ms = (uint32_t)((uint64_t)ts.tv_sec * 1000u +
			(uint64_t)ts.tv_nsec / 1000000u);
		for_each_of_client(t, &seat->touches, client_of(s)) {
			wl_touch_send_up(t, serial, ms, i);
			wl_touch_send_frame(t);
		}
		seat->touch_focus[i] = NULL;
	}
}

static uint32_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

/* After the repaint that mapped, unmapped or moved surfaces: what is under a pointer that
 * did not move may have changed. Enter/leave as a motion would, or a motion when the
 * surface under it moved. */
static void repick_pointer(void *data)
{
	struct seat *seat = data;
	seat->repick = NULL;
	if (seat->grab || !seat->pointer_seen)
		return;
	if (seat->buttons > 0) {
		/* the implicit grab keeps the focus (none, if the press was on nothing); a
		 * focus that moved hears where the pointer now is on it */
		double gx, gy;
		struct surface *f = implicit_grab_focus(seat, seat->px, seat->py, &gx, &gy);
		if (!f || (gx == seat->fsx && gy == seat->fsy))
			return;
		send_focus_motion(seat, f, now_ms(), gx, gy);
		pointer_frame(seat, client_of(f));
		return;
	}
	struct surface *old = seat->pointer_focus;
	double sx = 0, sy = 0;
	struct surface *s = pointer_update(seat, seat->px, seat->py, &sx, &sy);
	if (!s)
		return;
	if (s == old && (sx != seat->fsx || sy != seat->fsy)) {
		send_focus_motion(seat, s, now_ms(), sx, sy);
	} else if (s == old) {
		return;
	}
	pointer_frame(seat, client_of(s));
}

/* A surface was mapped, unmapped, moved or restacked: the keyboard goes to the top toplevel, the
 * pointer focus is picked again (after the repaint when it comes from one). */
static void on_map_changed(struct wl_listener *l, void *data)
{
	struct seat *seat = wl_container_of(l, seat, map_changed);
	keyboard_set_focus(seat, tree_keyboard_target(seat->srv));
	if (seat->pointer_focus && !seat->pointer_focus->mapped) {
		/* the client still has the surface: it hears that the pointer left it */
		struct surface *gone = seat->pointer_focus;
		struct wl_resource *p;
		uint32_t serial = next_serial(seat);
		for_each_of_client(p, &seat->pointers, client_of(gone))
			wl_pointer_send_leave(p, serial, gone->resource);
		pointer_frame(seat, client_of(gone));
		seat->pointer_focus = NULL;
		cursor_focus_changed(seat->srv);
	}
	struct server *srv = seat->srv;
	if (seat->pointer_seen && !srv->repainting) {
		/* outside a repaint (a commit, a restack): the surface under the pointer is
		 * found from the committed state (tree.c), so pick now, before the client's
		 * next request (a wl_display.sync) is answered */
		if (seat->repick) {
			wl_event_source_remove(seat->repick);
			seat->repick = NULL;
		}
		repick_pointer(seat);
		return;
	}
	if (seat->pointer_seen && !seat->repick)
		seat->repick = wl_event_loop_add_idle(seat->srv->loop, repick_pointer, seat);
}

void seat_pointer_grab(struct server *srv, struct seat_pointer_grab *grab)
{
	struct seat *seat = srv->seat;
	if (seat->grab && seat->grab != grab) {
		struct seat_pointer_grab *old = seat->grab;
		seat->grab = NULL;
		old->cancel(old);
	}
	if (seat->pointer_focus) {
		struct wl_resource *p;
		struct wl_client *old = client_of(seat->pointer_focus);
		uint32_t serial = next_serial(seat);
		for_each_of_client(p, &seat->pointers, old)
			wl_pointer_send_leave(p, serial, seat->pointer_focus->resource);
		pointer_frame(seat, old);
		seat->pointer_focus = NULL;
		cursor_focus_changed(seat->srv);
	}
	seat->grab = grab;
}

void seat_pointer_ungrab(struct server *srv, struct seat_pointer_grab *grab)
{
	struct seat *seat = srv->seat;
	if (!seat || seat->grab != grab)
		return;
	seat->grab = NULL;
	double sx, sy;
	struct surface *s = pointer_update(seat, seat->px, seat->py, &sx, &sy);
	if (s)
		pointer_frame(seat, client_of(s));
}

/* A client's grab from the implicit grab of its press (xdg_toplevel.move and .resize): only
 * with the serial of the press that holds it, on that client's surface, and no other grab. */
static void on_grab_request(struct wl_listener *l, void *data)
{
	struct seat *seat = wl_container_of(l, seat, grab_request);
	struct server_grab_request *req = data;
	if (seat->grab || seat->buttons == 0 || !seat->pointer_focus || !req->surface ||
	    req->serial != seat->press_serial ||
	    client_of(seat->pointer_focus) != client_of(req->surface)) {
		wlog(DISPMAN_LOG_DEBUG, "a pointer grab without a button held since the press "
			"of serial %u on the client's surface: ignored", req->serial);
		return;
	}
	req->x = seat->px;
	req->y = seat->py;
	seat_pointer_grab(seat->srv, req->grab);
	req->started = true;
}

struct surface *seat_pointer_pressed_on(struct server *srv, double *x, double *y)
{
	struct seat *seat = srv->seat;
	*x = seat->px;
	*y = seat->py;
	return seat->buttons > 0 ? seat->pointer_focus : NULL;
}

void seat_pointer_position(struct server *srv, double *x, double *y)
{
	*x = srv->seat->px;
	*y = srv->seat->py;
}

struct surface *seat_keyboard_focus(struct server *srv)
{
	return srv->seat ? srv->seat->kb_focus : NULL;
}

uint32_t seat_next_serial(struct server *srv)
{
	return wl_display_next_serial(srv->display);
}

/* ---- keys of virtual keyboards (virtual-keyboard.c) ---- */

/* The focused client's wl_keyboards get km unless they have it already; false: no
 * focus. */
static bool use_keymap(struct seat *seat, const struct seat_keymap *km)
{
	if (!seat->kb_focus)
		return false;
	struct wl_client *c = client_of(seat->kb_focus);
	if (seat->foreign == km && seat->foreign_client == c)
		return true;
	restore_keymap(seat);
	struct wl_resource *kb;
	for_each_of_client(kb, &seat->keyboards, c)
		send_keymap(kb, km->fd, km->size);
	seat->foreign = km;
	seat->foreign_client = c;
	return true;
}

bool seat_virtual_key(struct server *srv, const struct seat_keymap *km, uint32_t ms,
	uint32_t key, bool pressed)
{
	struct seat *seat = srv->seat;
	struct dispman_input_event ev = {
		.type = DISPMAN_INPUT_KEY,
		.time_usec = (uint64_t)ms * 1000,
		.device_name = "virtual keyboard",
		.device_sysname = "virtual",
		.device_caps = DISPMAN_INPUT_CAP_KEYBOARD,
		.key = key,
		.state = pressed ? DISPMAN_INPUT_PRESSED : DISPMAN_INPUT_RELEASED,
	};
	struct server_input in = { .ev = &ev };
	wl_signal_emit(&srv->events.input, &in);
	if (in.consumed || !use_keymap(seat, km))
		return false;
	struct wl_resource *kb;
	uint32_t serial = next_serial(seat);
	for_each_of_client(kb, &seat->keyboards, seat->foreign_client)
		wl_keyboard_send_key(kb, serial, ms, key, pressed ?
			WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
	return true;
}

void seat_virtual_modifiers(struct server *srv, const struct seat_keymap *km,
	const uint32_t mods[4])
{
	struct seat *seat = srv->seat;
	if (!use_keymap(seat, km))
		return;
	struct wl_resource *kb;
	uint32_t serial = next_serial(seat);
	for_each_of_client(kb, &seat->keyboards, seat->foreign_client)
		wl_keyboard_send_modifiers(kb, serial, mods[0], mods[1], mods[2], mods[3]);
}

void seat_forget_keymap(struct server *srv, const struct seat_keymap *km)
{
	struct seat *seat = srv->seat;
	if (seat && seat->foreign == km)
		restore_keymap(seat);
}
