/* SPDX-License-Identifier: MIT */
/*
 * zwp_virtual_keyboard_manager_v1 (version 1): a client (wtype) sends an XKB keymap and
 * keys, which reach the surface with keyboard focus as if from the seat's keyboard. The
 * global exists only while allowed (virtual-input.c: any client that can connect could
 * type into the kiosk's application otherwise). The client's keymap is
 * compiled with xkbcommon (a broken one is refused) and written again into a sealed memfd
 * of ours, which the seat sends to the focused client before the keys (seat.h); the
 * seat's own keymap goes back to that client afterwards. Keys are input for idle and
 * blanking like the seat's. Keys still down when a virtual keyboard goes are released.
 */
#include "virtual-keyboard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

#include "seat.h"

#include "virtual-keyboard-unstable-v1-server-protocol.h"

/* keymaps larger than this are refused (Debian's default us keymap: about 60 KiB) */
#define MAX_KEYMAP_SIZE (1u << 20)
/* keys a virtual keyboard may hold down at once */
#define MAX_KEYS_DOWN 64

struct vkbd_manager {
	struct server *srv;
	struct xkb_context *xkb;
	struct wl_list keyboards;       /* vkbd.link */
};

struct vkbd {
	struct vkbd_manager *mgr;
	struct wl_resource *resource;
	struct wl_list link;
	struct seat_keymap km;          /* km.fd < 0: no keymap yet */
	uint32_t keys[MAX_KEYS_DOWN];   /* evdev codes down */
	unsigned nkeys;
};

static bool key_down(struct vkbd *vk, uint32_t key, unsigned *at)
{
	for (unsigned i = 0; i < vk->nkeys; i++) {
		if (vk->keys[i] == key) {
			*at = i;
			return true;
		}
	}
	return false;
}

static uint32_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

/* Keys still down are released and the focused client gets the seat's keymap back. */
static void vkbd_drop_keymap(struct vkbd *vk)
{
	struct server *srv = vk->mgr->srv;
	if (vk->km.fd < 0)
		return;
	uint32_t ms = now_ms();
	while (vk->nkeys > 0)
		seat_virtual_key(srv, &vk->km, ms, vk->keys[--vk->nkeys], false);
	seat_forget_keymap(srv, &vk->km);
	close(vk->km.fd);
	vk->km.fd = -1;
	vk->km.size = 0;
}

/* The client's keymap, compiled (NULL: refused, logged). */
static struct xkb_keymap *read_keymap(struct vkbd_manager *mgr, uint32_t format, int fd,
	uint32_t size)
{
	if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) {
		wlog(DISPMAN_LOG_WARNING, "virtual keyboard: keymap format %u is not xkb v1",
			format);
		return NULL;
	}
	if (size == 0 || size > MAX_KEYMAP_SIZE) {
		wlog(DISPMAN_LOG_WARNING, "virtual keyboard: keymap size %u out of range (1 to "
			"%u)", size, MAX_KEYMAP_SIZE);
		return NULL;
	}
	if (!mgr->xkb) {
		wlog(DISPMAN_LOG_WARNING, "virtual keyboard: no xkb context");
		return NULL;
	}
	void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		wlog(DISPMAN_LOG_WARNING, "virtual keyboard: cannot map the keymap: %s",
			strerror(errno));
		return NULL;
	}
	/* the text may or may not end with its NUL within size */
	size_t len = strnlen(map, size);
	struct xkb_keymap *keymap = xkb_keymap_new_from_buffer(mgr->xkb, map, len,
		XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
	munmap(map, size);
	if (!keymap)
		wlog(DISPMAN_LOG_WARNING, "virtual keyboard: the keymap does not compile");
	return keymap;
}

/* keymap as text in a sealed memfd (-1: failed, logged). */
static int write_keymap(struct xkb_keymap *keymap, uint32_t *size)
{
	char *str = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
	if (!str)
		return -1;
	size_t len = strlen(str) + 1;
	int fd = memfd_create("dispman-wayland-virtual-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd >= 0 && write(fd, str, len) == (ssize_t)len && len <= UINT32_MAX) {
		fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
		*size = (uint32_t)len;
	} else {
		wlog(DISPMAN_LOG_WARNING, "virtual keyboard: cannot store the keymap: %s",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	free(str);
	return fd;
}

static void vkbd_keymap(struct wl_client *c, struct wl_resource *res, uint32_t format,
	int32_t fd, uint32_t size)
{
	struct vkbd *vk = wl_resource_get_user_data(res);
	struct xkb_keymap *keymap = read_keymap(vk->mgr, format, fd, size);
	close(fd);
	/* the old keymap goes whether or not the new one is good: keys read with it are over */
	vkbd_drop_keymap(vk);
	if (!keymap)
		return;
	vk->km.fd = write_keymap(keymap, &vk->km.size);
	xkb_keymap_unref(keymap);
}

static void vkbd_key(struct wl_client *c, struct wl_resource *res, uint32_t time,
	uint32_t key, uint32_t state)
{
	struct vkbd *vk = wl_resource_get_user_data(res);
	struct server *srv = vk->mgr->srv;
	if (vk->km.fd < 0) {
		server_post_error(srv, res, ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP,
			"key before a keymap");
		return;
	}
	if (state != WL_KEYBOARD_KEY_STATE_PRESSED && state != WL_KEYBOARD_KEY_STATE_RELEASED) {
		wlog(DISPMAN_LOG_DEBUG, "virtual keyboard: key state %u ignored", state);
		return;
	}
	bool pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED;
	unsigned at;
	bool down = key_down(vk, key, &at);
	if (pressed == down)
		return; /* pressed twice, or released while up: nothing changes */
	if (pressed) {
		if (vk->nkeys == MAX_KEYS_DOWN) {
			wlog(DISPMAN_LOG_WARNING, "virtual keyboard: more than %d keys down: key "
				"%u ignored", MAX_KEYS_DOWN, key);
			return;
		}
		vk->keys[vk->nkeys++] = key;
	} else {
		vk->keys[at] = vk->keys[--vk->nkeys];
	}
	if (seat_virtual_key(srv, &vk->km, time, key, pressed))
		srv->stats.virtual_keys++;
}

static void vkbd_modifiers(struct wl_client *c, struct wl_resource *res, uint32_t depressed,
	uint32_t latched, uint32_t locked, uint32_t group)
{
	struct vkbd *vk = wl_resource_get_user_data(res);
	if (vk->km.fd < 0) {
		server_post_error(vk->mgr->srv, res, ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP,
			"modifiers before a keymap");
		return;
	}
	const uint32_t mods[4] = { depressed, latched, locked, group };
	seat_virtual_modifiers(vk->mgr->srv, &vk->km, mods);
}

static void destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zwp_virtual_keyboard_v1_interface vkbd_impl = {
	.keymap = vkbd_keymap,
	.key = vkbd_key,
	.modifiers = vkbd_modifiers,
	.destroy = destroy_req,
};

static void vkbd_destroy(struct wl_resource *res)
{
	struct vkbd *vk = wl_resource_get_user_data(res);
	vkbd_drop_keymap(vk);
	wl_list_remove(&vk->link);
	free(vk);
}

static void create_keyboard(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *seat, uint32_t id)
{
	struct vkbd_manager *mgr = wl_resource_get_user_data(res);
	struct vkbd *vk = calloc(1, sizeof(*vk));
	struct wl_resource *r = vk ? wl_resource_create(c, &zwp_virtual_keyboard_v1_interface,
		wl_resource_get_version(res), id) : NULL;
	if (!r) {
		free(vk);
		wl_client_post_no_memory(c);
		return;
	}
	vk->mgr = mgr;
	vk->resource = r;
	vk->km.fd = -1;
	wl_list_insert(&mgr->keyboards, &vk->link);
	wl_resource_set_implementation(r, &vkbd_impl, vk, vkbd_destroy);
	wlog(DISPMAN_LOG_INFO, "a client made a virtual keyboard");
}

static const struct zwp_virtual_keyboard_manager_v1_interface manager_impl = {
	.create_virtual_keyboard = create_keyboard,
};

void virtual_keyboard_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c,
		&zwp_virtual_keyboard_manager_v1_interface, (int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &manager_impl, data, NULL);
}

int virtual_keyboard_init(struct server *srv)
{
	struct vkbd_manager *mgr = calloc(1, sizeof(*mgr));
	if (!mgr)
		return -ENOMEM;
	mgr->srv = srv;
	wl_list_init(&mgr->keyboards);
	mgr->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (!mgr->xkb)
		wlog(DISPMAN_LOG_WARNING, "virtual keyboard: no xkb context: keymaps are refused");
	srv->vkbd = mgr;
	return 0;
}

void virtual_keyboard_finish(struct server *srv)
{
	struct vkbd_manager *mgr = srv->vkbd;
	if (!mgr)
		return;
	/* the clients are gone (dispman_wayland_destroy()); any keyboard left lets go */
	struct vkbd *vk, *tmp;
	wl_list_for_each_safe(vk, tmp, &mgr->keyboards, link)
		wl_resource_destroy(vk->resource);
	xkb_context_unref(mgr->xkb);
	free(mgr);
	srv->vkbd = NULL;
}
