/* SPDX-License-Identifier: MIT */
/*
 * zwp_virtual_keyboard_manager_v1 (src/wayland/virtual-keyboard.c) and
 * zwlr_virtual_pointer_manager_v1 (src/wayland/virtual-pointer.c) against a client in the
 * same process (a socket pair), on a compositor over the mock device: the globals and the
 * seat's keyboard and pointer are there only while allowed; an axis or axis source that
 * wl_pointer does not have is a protocol error; every pointer request without a surface
 * under the pointer is taken without error, and a pointer destroyed with a button down lets
 * go; with a virtual input socket instead, only its clients see the globals, the name
 * cannot be taken twice and the socket and its lock go with the compositor; a key or modifiers before a keymap, or
 * after one that does not compile, is the no_keymap protocol error; a good keymap is taken
 * and keys without a focused surface are not delivered (nor crash); a keyboard destroyed
 * with keys down lets go. No fd (keymaps are memfds) nor mock object is left.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <wayland-client.h>
#include <wayland-server-core.h>
#include <xkbcommon/xkbcommon.h>

#include <dispman/wayland.h>

#include "mock-drm.h"
#include "wl-pair.h"
#include "unit-main.h"
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

struct fixture {
	struct dispman_device *dev;
	struct dispman_wayland *wl;
	struct wl_display *client;
	struct wl_registry *registry;
	struct wl_seat *seat;
	struct zwp_virtual_keyboard_manager_v1 *manager;
	struct zwlr_virtual_pointer_manager_v1 *pointers;
	uint32_t caps;
	int fds;                        /* open before start() */
};

/* Open memfds and sockets (the keymaps' files, the connection): the fds this test's code
 * paths make, unlike the mock's, which it keeps across cases. */
static int open_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	CHECK(d != NULL);
	struct dirent *e;
	while ((e = readdir(d))) {
		char path[300], target[256];
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		ssize_t len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (strncmp(target, "/memfd:", 7) == 0 || strncmp(target, "socket:", 7) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* Requests to the compositor, events back, a few times over. */
static void pump(struct fixture *f)
{
	wl_pair_pump(f->wl, f->client);
}

static void seat_caps(void *data, struct wl_seat *s, uint32_t caps)
{
	((struct fixture *)data)->caps = caps;
}

static void seat_name(void *data, struct wl_seat *s, const char *name)
{
}

static const struct wl_seat_listener seat_listener = { seat_caps, seat_name };

static void global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
	uint32_t version)
{
	struct fixture *f = data;
	if (strcmp(iface, wl_seat_interface.name) == 0) {
		f->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
		wl_seat_add_listener(f->seat, &seat_listener, f);
	} else if (strcmp(iface, zwp_virtual_keyboard_manager_v1_interface.name) == 0) {
		f->manager = wl_registry_bind(r, name, &zwp_virtual_keyboard_manager_v1_interface,
			1);
	} else if (strcmp(iface, zwlr_virtual_pointer_manager_v1_interface.name) == 0) {
		f->pointers = wl_registry_bind(r, name, &zwlr_virtual_pointer_manager_v1_interface,
			2);
	}
}

static void global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

static void start(struct fixture *f, bool allow)
{
	memset(f, 0, sizeof(*f));
	f->fds = open_fds();
	wl_pair_start(&f->dev, &f->wl, &f->client);
	if (allow)
		CHECK(dispman_wayland_set_virtual_input(f->wl, true) == 0);
	f->registry = wl_display_get_registry(f->client);
	wl_registry_add_listener(f->registry, &registry_listener, f);
	pump(f);
}

static void stop(struct fixture *f)
{
	if (f->manager)
		wl_proxy_destroy((struct wl_proxy *)f->manager);
	if (f->pointers)
		zwlr_virtual_pointer_manager_v1_destroy(f->pointers);
	if (f->seat)
		wl_seat_destroy(f->seat);
	wl_registry_destroy(f->registry);
	wl_pair_stop(&f->dev, &f->wl, &f->client);
	/* the mock holds nothing; the keymaps' memfds and the sockets are closed */
	CHECK(mock_drm_live_objects() == 0);
	mock_drm_reset();
	int now = open_fds();
	if (now != f->fds)
		fail_msg("%d memfds and sockets open, %d before", now, f->fds);
}

/* A file holding text (size: its length, plus the NUL when with_nul). */
static int text_file(const char *text, bool with_nul, uint32_t *size)
{
	int fd = memfd_create("test-keymap", MFD_CLOEXEC);
	CHECK(fd >= 0);
	size_t len = strlen(text) + (with_nul ? 1 : 0);
	CHECK(write(fd, text, len) == (ssize_t)len);
	*size = (uint32_t)len;
	return fd;
}

/* The default keymap as text (the seat's, from xkbcommon's defaults). */
static char *default_keymap(void)
{
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	CHECK(ctx != NULL);
	struct xkb_keymap *km = xkb_keymap_new_from_names(ctx, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS);
	CHECK(km != NULL);
	char *s = xkb_keymap_get_as_string(km, XKB_KEYMAP_FORMAT_TEXT_V1);
	xkb_keymap_unref(km);
	xkb_context_unref(ctx);
	CHECK(s != NULL);
	return s;
}

static uint64_t virtual_keys(struct fixture *f)
{
	return wl_pair_stats(f->wl).virtual_keys;
}

static void test_off_by_default(void **state)
{
	struct fixture f;
	start(&f, false);
	CHECK(f.seat != NULL);
	CHECK(f.manager == NULL);
	CHECK(f.pointers == NULL);
	CHECK((f.caps & (WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_POINTER)) == 0);
	stop(&f);
	/* allowed, then withdrawn: gone again for a new client */
	start(&f, true);
	CHECK(f.manager != NULL);
	CHECK(f.pointers != NULL);
	CHECK(f.caps & WL_SEAT_CAPABILITY_KEYBOARD);
	CHECK(f.caps & WL_SEAT_CAPABILITY_POINTER);
	CHECK(dispman_wayland_set_virtual_input(f.wl, false) == 0);
	pump(&f);
	CHECK((f.caps & (WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_POINTER)) == 0);
	stop(&f);
	CHECK(dispman_wayland_set_virtual_input(NULL, true) == -EINVAL);
}

static void test_key_before_keymap(void **state)
{
	struct fixture f;
	start(&f, true);
	CHECK(f.manager != NULL);
	struct zwp_virtual_keyboard_v1 *vk =
		zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(f.manager, f.seat);
	zwp_virtual_keyboard_v1_key(vk, 0, 30, WL_KEYBOARD_KEY_STATE_PRESSED);
	pump(&f);
	CHECK(wl_display_get_error(f.client) == EPROTO);
	const struct wl_interface *iface = NULL;
	CHECK(wl_display_get_protocol_error(f.client, &iface, NULL) ==
		ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP);
	CHECK(iface == &zwp_virtual_keyboard_v1_interface);
	zwp_virtual_keyboard_v1_destroy(vk);
	stop(&f);
}

static void test_bad_keymap(void **state)
{
	struct fixture f;
	start(&f, true);
	struct zwp_virtual_keyboard_v1 *vk =
		zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(f.manager, f.seat);
	uint32_t size;
	int fd = text_file("xkb_keymap { this is not a keymap", false, &size);
	zwp_virtual_keyboard_v1_keymap(vk, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
	close(fd);
	pump(&f);
	CHECK(wl_display_get_error(f.client) == 0); /* refused, logged, no error yet */
	zwp_virtual_keyboard_v1_modifiers(vk, 1, 0, 0, 0);
	pump(&f);
	CHECK(wl_display_get_protocol_error(f.client, NULL, NULL) ==
		ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP);
	zwp_virtual_keyboard_v1_destroy(vk);
	stop(&f);
}

static void test_good_keymap(void **state)
{
	struct fixture f;
	start(&f, true);
	struct zwp_virtual_keyboard_v1 *vk =
		zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(f.manager, f.seat);
	char *text = default_keymap();
	uint32_t size;
	/* without its NUL, as some clients send it */
	int fd = text_file(text, false, &size);
	free(text);
	zwp_virtual_keyboard_v1_keymap(vk, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
	zwp_virtual_keyboard_v1_modifiers(vk, 0, 0, 0, 0);
	/* no surface has the focus: taken, not delivered */
	zwp_virtual_keyboard_v1_key(vk, 0, 30, WL_KEYBOARD_KEY_STATE_PRESSED);
	zwp_virtual_keyboard_v1_key(vk, 0, 30, WL_KEYBOARD_KEY_STATE_RELEASED);
	zwp_virtual_keyboard_v1_key(vk, 0, 31, 7); /* no such state: ignored */
	zwp_virtual_keyboard_v1_key(vk, 0, 32, WL_KEYBOARD_KEY_STATE_PRESSED);
	pump(&f);
	CHECK(wl_display_get_error(f.client) == 0);
	CHECK(virtual_keys(&f) == 0);
	/* a second keyboard, a keymap of another format: refused */
	struct zwp_virtual_keyboard_v1 *vk2 =
		zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(f.manager, f.seat);
	zwp_virtual_keyboard_v1_keymap(vk2, WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP, fd, size);
	zwp_virtual_keyboard_v1_destroy(vk2);
	close(fd);
	/* destroyed with key 32 down */
	zwp_virtual_keyboard_v1_destroy(vk);
	pump(&f);
	CHECK(wl_display_get_error(f.client) == 0);
	stop(&f);
}

/* A protocol error of the virtual pointer interface, with code. */
static void check_pointer_error(struct fixture *f, uint32_t code)
{
	pump(f);
	CHECK(wl_display_get_error(f->client) == EPROTO);
	const struct wl_interface *iface = NULL;
	CHECK(wl_display_get_protocol_error(f->client, &iface, NULL) == code);
	CHECK(iface == &zwlr_virtual_pointer_v1_interface);
}

static void test_pointer_bad_axis(void **state)
{
	struct fixture f;
	start(&f, true);
	struct zwlr_virtual_pointer_v1 *vp =
		zwlr_virtual_pointer_manager_v1_create_virtual_pointer(f.pointers, f.seat);
	zwlr_virtual_pointer_v1_axis(vp, 0, 2, wl_fixed_from_int(15));
	check_pointer_error(&f, ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS);
	zwlr_virtual_pointer_v1_destroy(vp);
	stop(&f);
	start(&f, true);
	vp = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(f.pointers, NULL);
	zwlr_virtual_pointer_v1_axis_discrete(vp, 0, 7, wl_fixed_from_int(15), 1);
	check_pointer_error(&f, ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS);
	zwlr_virtual_pointer_v1_destroy(vp);
	stop(&f);
}

static void test_pointer_bad_source(void **state)
{
	struct fixture f;
	start(&f, true);
	struct zwlr_virtual_pointer_v1 *vp =
		zwlr_virtual_pointer_manager_v1_create_virtual_pointer(f.pointers, f.seat);
	zwlr_virtual_pointer_v1_axis_source(vp, 4);
	check_pointer_error(&f, ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE);
	zwlr_virtual_pointer_v1_destroy(vp);
	stop(&f);
}

static void test_pointer_requests(void **state)
{
	struct fixture f;
	start(&f, true);
	struct zwlr_virtual_pointer_v1 *vp =
		zwlr_virtual_pointer_manager_v1_create_virtual_pointer_with_output(f.pointers,
			f.seat, NULL);
	zwlr_virtual_pointer_v1_motion(vp, 0, wl_fixed_from_int(-5000), wl_fixed_from_int(9000));
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 5, 5, 0, 0); /* empty extent: ignored */
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 100, 50, 200, 100);
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 900, 900, 200, 100); /* kept inside */
	zwlr_virtual_pointer_v1_frame(vp);
	zwlr_virtual_pointer_v1_button(vp, 0, 0x110, WL_POINTER_BUTTON_STATE_PRESSED);
	zwlr_virtual_pointer_v1_button(vp, 0, 0x110, WL_POINTER_BUTTON_STATE_PRESSED);
	zwlr_virtual_pointer_v1_button(vp, 0, 0x111, 9); /* no such state: ignored */
	zwlr_virtual_pointer_v1_axis_source(vp, WL_POINTER_AXIS_SOURCE_FINGER);
	zwlr_virtual_pointer_v1_axis(vp, 0, WL_POINTER_AXIS_VERTICAL_SCROLL,
		wl_fixed_from_int(10));
	zwlr_virtual_pointer_v1_axis_stop(vp, 0, WL_POINTER_AXIS_VERTICAL_SCROLL);
	zwlr_virtual_pointer_v1_axis_discrete(vp, 0, WL_POINTER_AXIS_HORIZONTAL_SCROLL,
		wl_fixed_from_int(15), 1);
	zwlr_virtual_pointer_v1_frame(vp);
	/* a second pointer; the first destroyed with its button down */
	struct zwlr_virtual_pointer_v1 *vp2 =
		zwlr_virtual_pointer_manager_v1_create_virtual_pointer(f.pointers, NULL);
	zwlr_virtual_pointer_v1_destroy(vp);
	pump(&f);
	CHECK(wl_display_get_error(f.client) == 0);
	/* the compositor goes first, the pointer with a button down still there */
	zwlr_virtual_pointer_v1_button(vp2, 0, 0x112, WL_POINTER_BUTTON_STATE_PRESSED);
	pump(&f);
	CHECK(wl_display_get_error(f.client) == 0);
	/* the proxy goes on the client side only: the compositor still has the pointer when
	 * it is destroyed, and releases its button then (ASan: nothing used after free) */
	wl_proxy_destroy((struct wl_proxy *)vp2);
	stop(&f);
}

struct second_client {
	struct wl_display *d;
	struct wl_registry *registry;
	struct wl_seat *seat;
	struct zwp_virtual_keyboard_manager_v1 *manager;
	struct zwlr_virtual_pointer_manager_v1 *pointers;
	uint32_t caps;
};

static void global2(void *data, struct wl_registry *r, uint32_t name, const char *iface,
	uint32_t version)
{
	struct second_client *c = data;
	if (strcmp(iface, zwp_virtual_keyboard_manager_v1_interface.name) == 0)
		c->manager = wl_registry_bind(r, name, &zwp_virtual_keyboard_manager_v1_interface,
			1);
	else if (strcmp(iface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
		c->pointers = wl_registry_bind(r, name,
			&zwlr_virtual_pointer_manager_v1_interface, 1);
}

static const struct wl_registry_listener registry2_listener = { global2, global_remove };

/* The compositor and a second client connected by path, a few rounds. */
static void pump2(struct fixture *f, struct second_client *c)
{
	for (int i = 0; i < 8; i++) {
		wl_display_flush(c->d);
		pump(f);
		while (wl_display_prepare_read(c->d) != 0)
			wl_display_dispatch_pending(c->d);
		struct pollfd p = { .fd = wl_display_get_fd(c->d), .events = POLLIN };
		if (poll(&p, 1, 0) > 0)
			wl_display_read_events(c->d);
		else
			wl_display_cancel_read(c->d);
		wl_display_dispatch_pending(c->d);
	}
}

static void test_socket(void **state)
{
	char dir[] = "/tmp/test-virtual-input-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char *old = getenv("XDG_RUNTIME_DIR") ? strdup(getenv("XDG_RUNTIME_DIR")) : NULL;
	setenv("XDG_RUNTIME_DIR", dir, 1);
	struct fixture f;
	start(&f, false);
	CHECK(dispman_wayland_add_virtual_input_socket(NULL, "vi") == NULL && errno == EINVAL);
	CHECK(dispman_wayland_add_virtual_input_socket(f.wl, NULL) == NULL && errno == EINVAL);
	CHECK(dispman_wayland_add_virtual_input_socket(f.wl, "") == NULL && errno == EINVAL);
	CHECK(dispman_wayland_add_virtual_input_socket(f.wl, "a/b") == NULL && errno == EINVAL);
	const char *name = dispman_wayland_add_virtual_input_socket(f.wl, "vi");
	CHECK(name != NULL && strcmp(name, "vi") == 0);
	/* taken: by this compositor as by another */
	CHECK(dispman_wayland_add_virtual_input_socket(f.wl, "vi") == NULL &&
		errno == EADDRINUSE);
	char path[300];
	snprintf(path, sizeof(path), "%s/vi", dir);
	struct stat st;
	CHECK(stat(path, &st) == 0 && S_ISSOCK(st.st_mode));
	pump(&f);
	/* the compositor's own socket's client: no global, though the seat has both devices */
	CHECK(f.manager == NULL && f.pointers == NULL);
	CHECK((f.caps & (WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_POINTER)) ==
		(WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_POINTER));
	/* the virtual input socket's client: both */
	struct second_client c = { 0 };
	c.d = wl_display_connect("vi");
	CHECK(c.d != NULL);
	c.registry = wl_display_get_registry(c.d);
	wl_registry_add_listener(c.registry, &registry2_listener, &c);
	pump2(&f, &c);
	CHECK(c.manager != NULL && c.pointers != NULL);
	struct zwlr_virtual_pointer_v1 *vp =
		zwlr_virtual_pointer_manager_v1_create_virtual_pointer(c.pointers, NULL);
	zwlr_virtual_pointer_v1_motion(vp, 0, wl_fixed_from_int(3), wl_fixed_from_int(4));
	zwlr_virtual_pointer_v1_destroy(vp);
	pump2(&f, &c);
	CHECK(wl_display_get_error(c.d) == 0);
	zwp_virtual_keyboard_manager_v1_destroy(c.manager);
	zwlr_virtual_pointer_manager_v1_destroy(c.pointers);
	wl_registry_destroy(c.registry);
	wl_display_disconnect(c.d);
	pump(&f);
	stop(&f);
	/* the socket and its lock went with the compositor */
	CHECK(stat(path, &st) < 0 && errno == ENOENT);
	strcat(path, ".lock");
	CHECK(stat(path, &st) < 0 && errno == ENOENT);
	CHECK(rmdir(dir) == 0);
	if (old)
		setenv("XDG_RUNTIME_DIR", old, 1);
	else
		unsetenv("XDG_RUNTIME_DIR");
	free(old);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "virtual-keyboard@off-by-default", test_off_by_default, NULL, NULL, NULL },
		{ "virtual-keyboard@key-before-keymap", test_key_before_keymap, NULL, NULL, NULL },
		{ "virtual-keyboard@bad-keymap", test_bad_keymap, NULL, NULL, NULL },
		{ "virtual-keyboard@good-keymap", test_good_keymap, NULL, NULL, NULL },
		{ "virtual-keyboard@pointer-bad-axis", test_pointer_bad_axis, NULL, NULL, NULL },
		{ "virtual-keyboard@pointer-bad-source", test_pointer_bad_source, NULL, NULL,
			NULL },
		{ "virtual-keyboard@pointer-requests", test_pointer_requests, NULL, NULL, NULL },
		{ "virtual-keyboard@socket", test_socket, NULL, NULL, NULL },
	};
	return unit_main("virtual-keyboard", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
