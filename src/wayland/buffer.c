/* SPDX-License-Identifier: MIT */
/*
 * wl_buffers: their lifetime (holds -> wl_buffer.release), wl_shm's formats, and
 * wp_single_pixel_buffer_manager_v1. The copies of shm content are shm.c's, the zero-copy
 * import of an shm pool udmabuf.c's.
 */
#include "buffer.h"

#include <assert.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "single-pixel-buffer-v1-server-protocol.h"

static void buffer_free(struct buffer *b)
{
	wl_list_remove(&b->link);
	if (b->dbuf) {
		dispman_buffer_set_release_callback(b->dbuf, NULL, NULL);
		dispman_buffer_unref(b->dbuf);
	}
	free(b);
}

static void buffer_destroy_notify(struct wl_listener *l, void *data)
{
	struct buffer *b = wl_container_of(l, b, destroy);
	wl_list_remove(&b->destroy.link);
	b->resource = NULL;
	if (b->holds == 0)
		buffer_free(b);
}

void buffer_hold(struct buffer *b)
{
	b->holds++;
}

void buffer_unhold(struct buffer *b)
{
	assert(b->holds > 0); /* every unhold pairs with a hold */
	if (b->holds == 0) {
		wlog(DISPMAN_LOG_ERROR, "buffer hold count underflow");
		return;
	}
	if (--b->holds > 0)
		return;
	if (b->resource && b->committed) {
		wl_buffer_send_release(b->resource);
		b->srv->stats.releases++;
	}
	b->committed = false;
	if (!b->resource)
		buffer_free(b);
}

static struct buffer *buffer_new(struct server *srv, struct wl_resource *res,
	enum buffer_type type)
{
	struct buffer *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->srv = srv;
	b->resource = res;
	b->type = type;
	b->destroy.notify = buffer_destroy_notify;
	wl_resource_add_destroy_listener(res, &b->destroy);
	wl_list_insert(&srv->buffers, &b->link);
	return b;
}

uint32_t buffer_shm_fourcc(uint32_t f)
{
	if (f == WL_SHM_FORMAT_ARGB8888)
		return DRM_FORMAT_ARGB8888;
	if (f == WL_SHM_FORMAT_XRGB8888)
		return DRM_FORMAT_XRGB8888;
	return f;
}

struct buffer *buffer_from_resource(struct server *srv, struct wl_resource *res)
{
	struct wl_listener *l = wl_resource_get_destroy_listener(res, buffer_destroy_notify);
	if (l)
	{
		struct buffer *b;
		return wl_container_of(l, b, destroy);
	}
	struct wl_shm_buffer *shm = wl_shm_buffer_get(res);
	if (!shm)
		return NULL;
	struct buffer *b = buffer_new(srv, res, BUFFER_SHM);
	if (!b)
		return NULL;
	b->width = wl_shm_buffer_get_width(shm);
	b->height = wl_shm_buffer_get_height(shm);
	uint32_t f = buffer_shm_fourcc(wl_shm_buffer_get_format(shm));
	b->opaque = f == DRM_FORMAT_XRGB8888 || f == DRM_FORMAT_XBGR8888 ||
		f == DRM_FORMAT_RGB565;
	return b;
}

/* ---- dma-buf and single-pixel wl_buffers (own resources) ---- */

static void dbuf_released(struct dispman_buffer *dbuf, void *data)
{
	struct buffer *b = data;
	if (!b->on_screen)
		return;
	b->on_screen = false;
	buffer_unhold(b);
}

void buffer_screen_committed(struct buffer *b)
{
	if (b->on_screen)
		return;
	b->on_screen = true;
	buffer_hold(b);
}

int buffer_set_dbuf(struct buffer *b, struct dispman_buffer *dbuf)
{
	int r = dispman_buffer_set_release_callback(dbuf, dbuf_released, b);
	if (r < 0) {
		/* without it the client would never get its buffer back */
		wlog(DISPMAN_LOG_ERROR, "wl_buffer %u: no release callback: %s",
			b->resource ? wl_resource_get_id(b->resource) : 0, strerror(-r));
		return r;
	}
	b->dbuf = dbuf;
	return 0;
}

static void wlbuffer_destroy(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wl_buffer_interface wlbuffer_impl = {
	.destroy = wlbuffer_destroy,
};

static struct buffer *buffer_create_own(struct server *srv, struct wl_client *client,
	uint32_t id, struct dispman_buffer *dbuf, enum buffer_type type)
{
	struct wl_resource *res = wl_resource_create(client, &wl_buffer_interface, 1, id);
	if (!res)
		return NULL;
	wl_resource_set_implementation(res, &wlbuffer_impl, NULL, NULL);
	struct buffer *b = buffer_new(srv, res, type);
	if (!b) {
		wl_resource_destroy(res);
		return NULL;
	}
	b->width = (int32_t)dispman_buffer_get_width(dbuf);
	b->height = (int32_t)dispman_buffer_get_height(dbuf);
	uint32_t f = dispman_buffer_get_format(dbuf);
	b->opaque = f == DRM_FORMAT_XRGB8888 || f == DRM_FORMAT_XBGR8888;
	if (buffer_set_dbuf(b, dbuf) < 0) {
		wl_resource_destroy(res);
		return NULL;
	}
	return b;
}

struct buffer *buffer_create_dmabuf(struct server *srv, struct wl_client *client, uint32_t id,
	struct dispman_buffer *dbuf)
{
	return buffer_create_own(srv, client, id, dbuf, BUFFER_DMABUF);
}

/* ---- wp_single_pixel_buffer_manager_v1 ---- */

static uint8_t unorm8(uint32_t v)
{
	return (uint8_t)(v >> 24);
}

static void spb_create(struct wl_client *client, struct wl_resource *res, uint32_t id,
	uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
	struct server *srv = wl_resource_get_user_data(res);
	struct dispman_buffer *dbuf = dispman_buffer_create_dumb(srv->dev, 1, 1,
		DRM_FORMAT_ARGB8888);
	void *data;
	if (!dbuf || dispman_buffer_map(dbuf, &data, NULL) < 0) {
		dispman_buffer_unref(dbuf);
		wl_client_post_no_memory(client);
		return;
	}
	*(uint32_t *)data = (uint32_t)unorm8(a) << 24 | (uint32_t)unorm8(r) << 16 |
		(uint32_t)unorm8(g) << 8 | unorm8(b);
	struct buffer *kb = buffer_create_own(srv, client, id, dbuf, BUFFER_SINGLE_PIXEL);
	if (!kb) {
		dispman_buffer_unref(dbuf);
		wl_client_post_no_memory(client);
		return;
	}
	kb->opaque = a == 0xffffffffu;
}

static void spb_destroy(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wp_single_pixel_buffer_manager_v1_interface spb_impl = {
	.destroy = spb_destroy,
	.create_u32_rgba_buffer = spb_create,
};

static void spb_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(client,
		&wp_single_pixel_buffer_manager_v1_interface, (int)version, id);
	if (!res) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(res, &spb_impl, data, NULL);
}

int buffer_init_globals(struct server *srv)
{
	if (wl_display_init_shm(srv->display) < 0)
		return -ENOMEM;
	wl_display_add_shm_format(srv->display, WL_SHM_FORMAT_XBGR8888);
	wl_display_add_shm_format(srv->display, WL_SHM_FORMAT_ABGR8888);
	wl_display_add_shm_format(srv->display, WL_SHM_FORMAT_RGB565);
	if (!wl_global_create(srv->display, &wp_single_pixel_buffer_manager_v1_interface, 1, srv,
		    spb_bind))
		return -ENOMEM;
	return 0;
}

/* After every client is gone: buffers still held by the frame on screen. */
void buffer_finish(struct server *srv)
{
	struct buffer *b, *tmp;
	wl_list_for_each_safe(b, tmp, &srv->buffers, link) {
		if (b->resource)
			wl_list_remove(&b->destroy.link);
		buffer_free(b);
	}
}
