/* SPDX-License-Identifier: MIT */
/*
 * A Wayland client that shows what is typed to it, for the virtual keyboard test
 * (kiosk-vkbd.sh): a full-screen toplevel in one colour whose wl_keyboard reads keys with
 * xkbcommon and the keymap it was last sent, as any application does. It logs to FILE, one
 * line each: "painted W H", "keymap N SIZE" (the Nth keymap and its size), "enter", "leave",
 * and after each key press that makes text "text ALL" (everything typed so far); from its
 * wl_pointer "pointer-enter X Y" and "button CODE PRESSED X Y" (surface coordinates, the
 * last motion's). It runs until killed or closed.
 *
 *   kiosk-typed FILE
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

#include "xdg-shell-client-protocol.h"

static FILE *logf_;
static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm;
static struct wl_seat *seat;
static struct wl_keyboard *keyboard;
static struct wl_pointer *pointer;
static double ptr_x, ptr_y;
static struct xkb_context *xkb;
static struct xkb_keymap *keymap;
static struct xkb_state *state;
static unsigned keymaps;
static char text[4096];
static size_t text_len;
static int32_t cfg_w, cfg_h;
static bool closed;

static void die(const char *what)
{
	fprintf(stderr, "kiosk-typed: %s\n", what);
	exit(1);
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(logf_, fmt, ap);
	va_end(ap);
	fputc('\n', logf_);
	fflush(logf_);
}

static void buffer_release(void *data, struct wl_buffer *b)
{
	wl_buffer_destroy(b);
}

static const struct wl_buffer_listener buffer_listener = { buffer_release };

static void paint(struct wl_surface *surface, int32_t w, int32_t h)
{
	size_t stride = (size_t)w * 4, size = stride * (size_t)h;
	int fd = memfd_create("kiosk-typed", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		die("memfd");
	uint32_t *px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (px == MAP_FAILED)
		die("mmap");
	for (size_t i = 0; i < size / 4; i++)
		px[i] = 0x204080;
	munmap(px, size);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
	struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, w, h, (int32_t)stride,
		WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_buffer_add_listener(b, &buffer_listener, NULL);
	wl_surface_attach(surface, b, 0, 0);
	wl_surface_damage_buffer(surface, 0, 0, w, h);
	wl_surface_commit(surface);
	note("painted %d %d", w, h);
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
	note("keymap %u %u%s", keymaps, size, state ? "" : " (unusable)");
}

static void kb_enter(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
	struct wl_array *keys)
{
	note("enter");
}

static void kb_leave(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	note("leave");
}

static void kb_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time,
	uint32_t key, uint32_t st)
{
	if (st != WL_KEYBOARD_KEY_STATE_PRESSED || !state)
		return;
	char buf[16];
	int n = xkb_state_key_get_utf8(state, key + 8, buf, sizeof(buf));
	if (n <= 0 || text_len + (size_t)n >= sizeof(text))
		return;
	memcpy(text + text_len, buf, (size_t)n);
	text_len += (size_t)n;
	text[text_len] = 0;
	note("text %s", text);
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
	note("pointer-enter %.1f %.1f", ptr_x, ptr_y);
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
	note("button %u %u %.1f %.1f", button, st, ptr_x, ptr_y);
}

static void ptr_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis,
	wl_fixed_t value)
{
}

static const struct wl_pointer_listener ptr_listener = {
	.enter = ptr_enter, .leave = ptr_leave, .motion = ptr_motion, .button = ptr_button,
	.axis = ptr_axis,
};

static void seat_caps(void *data, struct wl_seat *s, uint32_t caps)
{
	if ((caps & WL_SEAT_CAPABILITY_POINTER) && !pointer) {
		pointer = wl_seat_get_pointer(s);
		wl_pointer_add_listener(pointer, &ptr_listener, NULL);
	}
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !keyboard) {
		keyboard = wl_seat_get_keyboard(s);
		wl_keyboard_add_listener(keyboard, &kb_listener, NULL);
	}
}

static void seat_name(void *data, struct wl_seat *s, const char *name)
{
}

static const struct wl_seat_listener seat_listener = { seat_caps, seat_name };

static void wm_ping(void *data, struct xdg_wm_base *b, uint32_t serial)
{
	xdg_wm_base_pong(b, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	xdg_surface_ack_configure(xs, serial);
	paint(data, cfg_w > 0 ? cfg_w : 640, cfg_h > 0 ? cfg_h : 480);
}

static const struct xdg_surface_listener xs_listener = { xs_configure };

static void tl_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
	cfg_w = w;
	cfg_h = h;
}

static void tl_close(void *data, struct xdg_toplevel *t)
{
	closed = true;
}

static const struct xdg_toplevel_listener tl_listener = { tl_configure, tl_close };

static void global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
	uint32_t version)
{
	if (strcmp(iface, wl_compositor_interface.name) == 0)
		compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(iface, wl_shm_interface.name) == 0)
		shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (strcmp(iface, xdg_wm_base_interface.name) == 0)
		wm = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
	else if (strcmp(iface, wl_seat_interface.name) == 0 && !seat) {
		seat = wl_registry_bind(r, name, &wl_seat_interface, 4);
		wl_seat_add_listener(seat, &seat_listener, NULL);
	}
}

static void global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

int main(int argc, char **argv)
{
	if (argc != 2)
		die("usage: kiosk-typed FILE");
	logf_ = fopen(argv[1], "w");
	if (!logf_)
		die("cannot open the log");
	xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (!xkb)
		die("no xkb context");
	struct wl_display *d = wl_display_connect(NULL);
	if (!d)
		die("cannot connect");
	struct wl_registry *reg = wl_display_get_registry(d);
	wl_registry_add_listener(reg, &registry_listener, NULL);
	wl_display_roundtrip(d);
	if (!compositor || !shm || !wm)
		die("missing wl_compositor, wl_shm or xdg_wm_base");
	xdg_wm_base_add_listener(wm, &wm_listener, NULL);
	struct wl_surface *surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(wm, surface);
	xdg_surface_add_listener(xs, &xs_listener, surface);
	struct xdg_toplevel *tl = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(tl, &tl_listener, NULL);
	xdg_toplevel_set_title(tl, "kiosk-typed");
	wl_surface_commit(surface);
	while (!closed && wl_display_dispatch(d) >= 0)
		;
	wl_display_disconnect(d);
	return 0;
}
