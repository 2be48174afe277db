/* SPDX-License-Identifier: MIT */
/*
 * A still Wayland client for the kiosk's operation tests (kiosk-ops.sh): a toplevel that
 * paints, at every configured size, a pattern a test can recompute from the position
 * alone: pixel (x, y) = 0xRRGGBB with R = x & 0xff, G = y & 0xff, B = (x * 3 + y * 5) &
 * 0xff. With --inhibit it holds a zwp_idle_inhibitor_v1 on its surface. Each buffer it
 * commits is logged on stdout ("painted W H"), and each key its wl_keyboard gets ("key
 * CODE STATE"); it runs until killed or closed.
 *
 *   kiosk-paint [--inhibit]
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "check.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "test-client.h"

static struct test_client tc = { .name = "kiosk-paint" };
static struct zwp_idle_inhibit_manager_v1 *inhibit_manager;

static uint32_t pattern(uint32_t x, uint32_t y)
{
	return ((x & 0xff) << 16) | ((y & 0xff) << 8) | ((x * 3 + y * 5) & 0xff);
}

static void fill(uint32_t *px, int32_t w, int32_t h)
{
	for (int32_t y = 0; y < h; y++)
		for (int32_t x = 0; x < w; x++)
			px[(size_t)y * (size_t)w + (size_t)x] = pattern((uint32_t)x, (uint32_t)y);
}

/* each configure: the pattern at the configured size (640x480 when the compositor leaves
 * it to the client) */
static void paint(struct test_client *c)
{
	int32_t w = c->cfg_w > 0 ? c->cfg_w : 640, h = c->cfg_h > 0 ? c->cfg_h : 480;
	test_client_show(c, test_client_buffer(c, w, h, WL_SHM_FORMAT_XRGB8888, 0, fill), w, h);
	test_log("painted %d %d", w, h);
}

static void kb_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd,
	uint32_t size)
{
	close(fd);
}

static void kb_enter(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
	struct wl_array *keys)
{
}

static void kb_leave(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
}

static void kb_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time,
	uint32_t key, uint32_t state)
{
	test_log("key %u %u", key, state);
}

static void kb_modifiers(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t dep,
	uint32_t lat, uint32_t lock, uint32_t group)
{
}

static void kb_repeat(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
}

static const struct wl_keyboard_listener kb_listener = {
	kb_keymap, kb_enter, kb_leave, kb_key, kb_modifiers, kb_repeat,
};

static void global(struct test_client *c, struct wl_registry *r, uint32_t name, const char *iface)
{
	if (strcmp(iface, zwp_idle_inhibit_manager_v1_interface.name) == 0)
		inhibit_manager = wl_registry_bind(r, name, &zwp_idle_inhibit_manager_v1_interface,
			1);
}

int main(int argc, char **argv)
{
	bool inhibit = argc > 1 && strcmp(argv[1], "--inhibit") == 0;
	tc.keyboard_listener = &kb_listener;
	tc.global = global;
	tc.configure = paint;
	test_client_connect(&tc);
	CHECK(!inhibit || inhibit_manager, "kiosk-paint: no zwp_idle_inhibit_manager_v1");
	test_client_toplevel(&tc, "kiosk-paint");
	if (inhibit)
		zwp_idle_inhibit_manager_v1_create_inhibitor(inhibit_manager, tc.surface);
	wl_surface_commit(tc.surface);
	test_client_run(&tc);
	return 0;
}
