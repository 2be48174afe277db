/* SPDX-License-Identifier: MIT */
/*
 * wl_buffers: their lifetime (holds -> wl_buffer.release), wl_shm uploads into per-surface
 * dumb buffers (the damaged rectangle only), and wp_single_pixel_buffer_manager_v1.
 */
#include "internal.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <stdlib.h>

#include "single-pixel-buffer-v1-server-protocol.h"

static void kbuffer_free(struct kbuffer *b)
{
	wl_list_remove(&b->link);
	if (b->dbuf) {
		dispman_buffer_set_release_callback(b->dbuf, NULL, NULL);
		dispman_buffer_unref(b->dbuf);
	}
	free(b);
}

static void kbuffer_destroy_notify(struct wl_listener *l, void *data)
{
	struct kbuffer *b = wl_container_of(l, b, destroy);
	wl_list_remove(&b->destroy.link);
	b->resource = NULL;
	if (b->holds == 0)
		kbuffer_free(b);
}

void kbuffer_hold(struct kbuffer *b)
{
	b->holds++;
}

void kbuffer_unhold(struct kbuffer *b)
{
	if (b->holds == 0) {
		klog(DISPMAN_LOG_ERROR, "buffer hold count underflow");
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
		kbuffer_free(b);
}

static struct kbuffer *kbuffer_new(struct kserver *srv, struct wl_resource *res,
	enum kbuffer_type type)
{
	struct kbuffer *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->srv = srv;
	b->resource = res;
	b->type = type;
	b->destroy.notify = kbuffer_destroy_notify;
	wl_resource_add_destroy_listener(res, &b->destroy);
	wl_list_insert(&srv->buffers, &b->link);
	return b;
}

static uint32_t shm_to_fourcc(uint32_t f)
{
	if (f == WL_SHM_FORMAT_ARGB8888)
		return DRM_FORMAT_ARGB8888;
	if (f == WL_SHM_FORMAT_XRGB8888)
		return DRM_FORMAT_XRGB8888;
	return f;
}

struct kbuffer *kbuffer_from_resource(struct kserver *srv, struct wl_resource *res)
{
	struct wl_listener *l = wl_resource_get_destroy_listener(res, kbuffer_destroy_notify);
	if (l)
	{
		struct kbuffer *b;
		return wl_container_of(l, b, destroy);
	}
	struct wl_shm_buffer *shm = wl_shm_buffer_get(res);
	if (!shm)
		return NULL;
	struct kbuffer *b = kbuffer_new(srv, res, KBUFFER_SHM);
	if (!b)
		return NULL;
	b->width = wl_shm_buffer_get_width(shm);
	b->height = wl_shm_buffer_get_height(shm);
	uint32_t f = shm_to_fourcc(wl_shm_buffer_get_format(shm));
	b->opaque = f == DRM_FORMAT_XRGB8888 || f == DRM_FORMAT_XBGR8888 ||
		f == DRM_FORMAT_RGB565;
	return b;
}

/* ---- dma-buf and single-pixel wl_buffers (own resources) ---- */

static void dbuf_released(struct dispman_buffer *dbuf, void *data)
{
	struct kbuffer *b = data;
	if (!b->on_screen)
		return;
	b->on_screen = false;
	kbuffer_unhold(b);
}

void kbuffer_screen_committed(struct kbuffer *b)
{
	if (b->on_screen)
		return;
	b->on_screen = true;
	kbuffer_hold(b);
}

static void wlbuffer_destroy(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wl_buffer_interface wlbuffer_impl = {
	.destroy = wlbuffer_destroy,
};

static struct kbuffer *kbuffer_create_own(struct kserver *srv, struct wl_client *client,
	uint32_t id, struct dispman_buffer *dbuf, enum kbuffer_type type)
{
	struct wl_resource *res = wl_resource_create(client, &wl_buffer_interface, 1, id);
	if (!res)
		return NULL;
	wl_resource_set_implementation(res, &wlbuffer_impl, NULL, NULL);
	struct kbuffer *b = kbuffer_new(srv, res, type);
	if (!b) {
		wl_resource_destroy(res);
		return NULL;
	}
	b->dbuf = dbuf;
	b->width = (int32_t)dispman_buffer_get_width(dbuf);
	b->height = (int32_t)dispman_buffer_get_height(dbuf);
	uint32_t f = dispman_buffer_get_format(dbuf);
	b->opaque = f == DRM_FORMAT_XRGB8888 || f == DRM_FORMAT_XBGR8888;
	int r = dispman_buffer_set_release_callback(dbuf, dbuf_released, b);
	if (r < 0) {
		/* without it the client would never get its buffer back */
		klog(DISPMAN_LOG_ERROR, "wl_buffer %u: no release callback: %s",
			wl_resource_get_id(res), strerror(-r));
		b->dbuf = NULL;
		wl_resource_destroy(res);
		return NULL;
	}
	return b;
}

struct kbuffer *kbuffer_create_dmabuf(struct kserver *srv, struct wl_client *client, uint32_t id,
	struct dispman_buffer *dbuf)
{
	return kbuffer_create_own(srv, client, id, dbuf, KBUFFER_DMABUF);
}

/* ---- shm uploads ---- */

static void slot_free(struct kslot *slot)
{
	wl_list_remove(&slot->link);
	dispman_buffer_set_release_callback(slot->dbuf, NULL, NULL);
	dispman_buffer_unref(slot->dbuf);
	free(slot);
}

static void slot_released(struct dispman_buffer *dbuf, void *data)
{
	struct kslot *slot = data;
	if (!slot->on_screen)
		return;
	slot->on_screen = false;
	if (slot->source) {
		struct kbuffer *src = slot->source;
		slot->source = NULL;
		kbuffer_unhold(src);
	}
	if (!slot->surface)
		slot_free(slot);
}

/* Orphan every slot: those on screen are freed at their release. */
void kslot_release_all(struct ksurface *s)
{
	struct kslot *slot, *tmp;
	wl_list_for_each_safe(slot, tmp, &s->slots, link) {
		wl_list_remove(&slot->link);
		wl_list_insert(&s->srv->orphan_slots, &slot->link);
		slot->surface = NULL;
		if (!slot->on_screen)
			slot_free(slot);
	}
	s->slots_w = s->slots_h = 0;
}

/* The slot an upload of this repaint went into (marked by source without on_screen). */
void kslots_committed(struct ksurface *s)
{
	struct kslot *slot;
	wl_list_for_each(slot, &s->slots, link) {
		if (slot->dbuf == s->shown && !slot->on_screen) {
			slot->on_screen = true;
			slot->source = s->current.buffer;
			kbuffer_hold(slot->source);
		}
	}
}

/* A new copy slot of the buffer's size and format, whole stale, at the end of the list;
 * NULL (logged) when no dumb buffer can be made. */
static struct kslot *new_slot(struct ksurface *s, const struct kbuffer *b, uint32_t fourcc)
{
	struct kslot *pick = calloc(1, sizeof(*pick));
	if (!pick)
		return NULL;
	pick->dbuf = dispman_buffer_create_dumb(s->srv->dev, (uint32_t)b->width,
		(uint32_t)b->height, fourcc);
	if (!pick->dbuf) {
		klog(DISPMAN_LOG_ERROR, "surface %u: no dumb buffer %dx%d: %s",
			wl_resource_get_id(s->resource), b->width, b->height, strerror(errno));
		free(pick);
		return NULL;
	}
	pick->surface = s;
	pick->stale = (struct krect){ 0, 0, b->width, b->height };
	int r = dispman_buffer_set_release_callback(pick->dbuf, slot_released, pick);
	if (r < 0) {
		klog(DISPMAN_LOG_ERROR, "surface %u: no release callback on its copy buffer: %s",
			wl_resource_get_id(s->resource), strerror(-r));
		dispman_buffer_unref(pick->dbuf);
		free(pick);
		return NULL;
	}
	wl_list_insert(s->slots.prev, &pick->link);
	return pick;
}

/* Copy the slot's stale region from the shm buffer into it; counted. 0 or -1. */
static int copy_stale(struct kserver *srv, struct kslot *pick, struct wl_shm_buffer *shm,
	const struct kbuffer *b, uint32_t fourcc)
{
	void *dst;
	uint32_t dst_stride;
	if (dispman_buffer_map(pick->dbuf, &dst, &dst_stride) < 0)
		return -1;
	int32_t src_stride = wl_shm_buffer_get_stride(shm);
	struct krect r = pick->stale;
	krect_clip(&r, b->width, b->height);
	uint32_t bpp = fourcc == DRM_FORMAT_RGB565 ? 2 : 4;
	wl_shm_buffer_begin_access(shm);
	const uint8_t *src = wl_shm_buffer_get_data(shm);
	for (int32_t y = r.y; y < r.y + r.h; y++)
		memcpy((uint8_t *)dst + (size_t)y * dst_stride + (size_t)r.x * bpp,
			src + (size_t)y * (size_t)src_stride + (size_t)r.x * bpp,
			(size_t)r.w * bpp);
	wl_shm_buffer_end_access(shm);
	pick->stale = (struct krect){ 0 };
	srv->stats.shm_copies++;
	srv->stats.bytes_copied += (uint64_t)r.w * (uint64_t)r.h * bpp;
	return 0;
}

struct dispman_buffer *surface_upload_shm(struct ksurface *s)
{
	struct kserver *srv = s->srv;
	struct kstate *c = &s->current;
	struct kbuffer *b = c->buffer;
	if (!b->resource)
		return s->shown;
	struct wl_shm_buffer *shm = wl_shm_buffer_get(b->resource);
	if (!shm)
		return s->shown;
	uint32_t fourcc = shm_to_fourcc(wl_shm_buffer_get_format(shm));
	if (s->slots_w != b->width || s->slots_h != b->height || s->slots_format != fourcc) {
		kslot_release_all(s);
		s->slots_w = b->width;
		s->slots_h = b->height;
		s->slots_format = fourcc;
		c->damage_all = true;
	}
	struct krect damage = c->damage;
	if (c->damage_all)
		damage = (struct krect){ 0, 0, b->width, b->height };
	krect_clip(&damage, b->width, b->height);
	c->damage = (struct krect){ 0 };
	c->damage_all = false;
	if (damage.w == 0 && s->shown)
		return s->shown;

	struct kslot *slot, *pick = NULL;
	int n = 0;
	wl_list_for_each(slot, &s->slots, link) {
		krect_union(&slot->stale, &damage);
		if (!slot->on_screen && slot->dbuf != s->shown && !pick)
			pick = slot;
		n++;
	}
	if (!pick) {
		if (n >= KSLOTS_MAX) {
			klog(DISPMAN_LOG_WARNING, "surface %u: every copy is still on screen",
				wl_resource_get_id(s->resource));
			return s->shown;
		}
		pick = new_slot(s, b, fourcc);
		if (!pick)
			return s->shown;
	}
	return copy_stale(srv, pick, shm, b, fourcc) < 0 ? s->shown : pick->dbuf;
}

/* ---- wp_single_pixel_buffer_manager_v1 ---- */

static uint8_t unorm8(uint32_t v)
{
	return (uint8_t)(v >> 24);
}

static void spb_create(struct wl_client *client, struct wl_resource *res, uint32_t id,
	uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
	struct kserver *srv = wl_resource_get_user_data(res);
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
	struct kbuffer *kb = kbuffer_create_own(srv, client, id, dbuf, KBUFFER_SINGLE_PIXEL);
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

int buffer_init_globals(struct kserver *srv)
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
void buffer_finish(struct kserver *srv)
{
	struct kslot *slot, *stmp;
	wl_list_for_each_safe(slot, stmp, &srv->orphan_slots, link)
		slot_free(slot);
	struct kbuffer *b, *tmp;
	wl_list_for_each_safe(b, tmp, &srv->buffers, link) {
		if (b->resource)
			wl_list_remove(&b->destroy.link);
		kbuffer_free(b);
	}
}
