/* SPDX-License-Identifier: MIT */
#include "wl-pair.h"

#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <wayland-server-core.h>

#include "mock-drm.h"
#include "unit-main.h"

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

struct dispman_wayland_stats wl_pair_stats(struct dispman_wayland *wl)
{
	struct dispman_wayland_stats st;
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	CHECK(dispman_wayland_get_stats(wl, &st) == 0);
	return st;
}

void wl_pair_start(struct dispman_device **dev, struct dispman_wayland **wl,
	struct wl_display **client)
{
	mock_drm_setup_vkms_like();
	int fd = mock_drm_open();
	CHECK(fd >= 0);
	*dev = dispman_device_create_for_fd(fd);
	CHECK(*dev != NULL);
	*wl = dispman_wayland_create(*dev, dispman_device_get_first_connected_output(*dev));
	CHECK(*wl != NULL);
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	CHECK(wl_client_create(dispman_wayland_get_display(*wl), sv[0]) != NULL);
	*client = wl_display_connect_to_fd(sv[1]);
	CHECK(*client != NULL);
}

void wl_pair_pump(struct dispman_wayland *wl, struct wl_display *client)
{
	struct wl_display *server = dispman_wayland_get_display(wl);
	struct wl_event_loop *loop = wl_display_get_event_loop(server);
	for (int i = 0; i < 8; i++) {
		wl_display_flush(client);
		wl_event_loop_dispatch(loop, 0);
		wl_display_flush_clients(server);
		if (wl_display_get_error(client))
			continue;
		while (wl_display_prepare_read(client) != 0)
			wl_display_dispatch_pending(client);
		struct pollfd p = { .fd = wl_display_get_fd(client), .events = POLLIN };
		if (poll(&p, 1, 0) > 0)
			wl_display_read_events(client);
		else
			wl_display_cancel_read(client);
		wl_display_dispatch_pending(client);
	}
}

static void bind_global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
	uint32_t version)
{
	for (const struct wl_pair_want *w = data; w && w->iface; w++) {
		if (strcmp(iface, w->iface->name) != 0)
			continue;
		void **slot = w->out;
		unsigned i = 0, max = w->max ? w->max : 1;
		while (i < max && slot[i])
			i++;
		if (i == max)
			return;
		slot[i] = wl_registry_bind(r, name, w->iface,
			version < w->version ? version : w->version);
		if (w->listener)
			wl_proxy_add_listener(slot[i], (void (**)(void))w->listener, w->data);
		return;
	}
}

static void bind_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener bind_listener = { bind_global, bind_global_remove };

struct wl_registry *wl_pair_bind(struct dispman_wayland *wl, struct wl_display *client,
	const struct wl_pair_want *want)
{
	struct wl_registry *r = wl_display_get_registry(client);
	CHECK(r != NULL);
	wl_registry_add_listener(r, &bind_listener, (void *)want);
	wl_pair_pump(wl, client);
	/* WANT is the caller's and may be gone when a global comes later */
	wl_registry_set_user_data(r, NULL);
	return r;
}

struct wl_buffer *wl_pair_shm_buffer(struct wl_shm *shm, int32_t w, int32_t h)
{
	size_t size = (size_t)w * (size_t)h * 4;
	int fd = memfd_create("wl-pair", MFD_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, (off_t)size) == 0);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
	struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4,
		WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return b;
}

void wl_pair_stop(struct dispman_device **dev, struct dispman_wayland **wl,
	struct wl_display **client)
{
	wl_display_disconnect(*client);
	dispman_wayland_destroy(*wl);
	dispman_device_destroy(*dev);
	*client = NULL;
	*wl = NULL;
	*dev = NULL;
}
