/* SPDX-License-Identifier: MIT */
/*
 * A Wayland client that shows what is typed to it, for the virtual keyboard test
 * (kiosk-vkbd.sh): a full-screen toplevel in one colour whose wl_keyboard reads keys with
 * xkbcommon and the keymap it was last sent, as any application does. It logs to FILE, one
 * line each: "painted W H", "keymap N SIZE" (the Nth keymap and its size), "enter", "leave",
 * "key CODE STATE" for every key event (evdev code, 1 pressed, 0 released), and after each
 * key press that makes text "text ALL" (everything typed so far); from its
 * wl_pointer "pointer-enter X Y" and "button CODE PRESSED X Y" (surface coordinates, the
 * last motion's). It runs until killed or closed.
 *
 *   kiosk-typed FILE
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

#include "check.h"
#include "test-client.h"

static struct test_client tc = { .name = "kiosk-typed" };
static struct xkb_context *xkb;
static struct xkb_keymap *keymap;
static struct xkb_state *state;
static unsigned keymaps;
static char text[4096];
static size_t text_len;
static double ptr_x, ptr_y;

/* each configure: one colour at the configured size (640x480 when left to the client) */
static void paint(struct test_client *c)
{
	int32_t w = c->cfg_w > 0 ? c->cfg_w : 640, h = c->cfg_h > 0 ? c->cfg_h : 480;
	test_client_show(c, test_client_buffer(c, w, h, WL_SHM_FORMAT_XRGB8888, 0x204080, NULL),
		w, h);
	test_log("painted %d %d", w, h);
}

static void kb_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd,
	uint32_t size)
{
	keymaps++;
	xkb_state_unref(state);
	xkb_keymap_unref(keymap);
	state = NULL;
	keymap = NULL;
	if (format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) {
		char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			keymap = xkb_keymap_new_from_buffer(xkb, map, strnlen(map, size),
				XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
			munmap(map, size);
		}
		if (keymap)
			state = xkb_state_new(keymap);
	}
	close(fd);
	test_log("keymap %u %u%s", keymaps, size, state ? "" : " (unusable)");
}

static void kb_enter(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
	struct wl_array *keys)
{
	test_log("enter");
}

static void kb_leave(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	test_log("leave");
}

static void kb_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time,
	uint32_t key, uint32_t st)
{
	test_log("key %u %u", key, st);
	if (st != WL_KEYBOARD_KEY_STATE_PRESSED || !state)
		return;
	char buf[16];
	int n = xkb_state_key_get_utf8(state, key + 8, buf, sizeof(buf));
	if (n <= 0 || text_len + (size_t)n >= sizeof(text))
		return;
	memcpy(text + text_len, buf, (size_t)n);
	text_len += (size_t)n;
	text[text_len] = 0;
	test_log("text %s", text);
}

static void kb_modifiers(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t dep,
	uint32_t lat, uint32_t lock, uint32_t group)
{
	if (state)
		xkb_state_update_mask(state, dep, lat, lock, 0, 0, group);
}

static void kb_repeat(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
}

static const struct wl_keyboard_listener kb_listener = {
	kb_keymap, kb_enter, kb_leave, kb_key, kb_modifiers, kb_repeat,
};

static void ptr_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
	wl_fixed_t x, wl_fixed_t y)
{
	ptr_x = wl_fixed_to_double(x);
	ptr_y = wl_fixed_to_double(y);
	test_log("pointer-enter %.1f %.1f", ptr_x, ptr_y);
}

static void ptr_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
}

static void ptr_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x,
	wl_fixed_t y)
{
	ptr_x = wl_fixed_to_double(x);
	ptr_y = wl_fixed_to_double(y);
}

static void ptr_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time,
	uint32_t button, uint32_t st)
{
	test_log("button %u %u %.1f %.1f", button, st, ptr_x, ptr_y);
}

static void ptr_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis,
	wl_fixed_t value)
{
}

static const struct wl_pointer_listener ptr_listener = {
	.enter = ptr_enter, .leave = ptr_leave, .motion = ptr_motion, .button = ptr_button,
	.axis = ptr_axis, .frame = test_pointer_frame, .axis_source = test_pointer_axis_source,
	.axis_stop = test_pointer_axis_stop, .axis_discrete = test_pointer_axis_discrete,
};

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: kiosk-typed FILE");
	test_log_open(argv[1]);
	xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	CHECK(xkb, "kiosk-typed: no xkb context");
	tc.keyboard_listener = &kb_listener;
	tc.pointer_listener = &ptr_listener;
	tc.configure = paint;
	test_client_connect(&tc);
	test_client_toplevel(&tc, "kiosk-typed");
	wl_surface_commit(tc.surface);
	test_client_run(&tc);
	return 0;
}
