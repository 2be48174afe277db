/* SPDX-License-Identifier: MIT */
/*
 * wl_shm uploads. A buffer whose pool can be scanned out as it is (udmabuf.c) is imported
 * once, at its first upload, and shown like a dma-buf: no copy, held until the flip that
 * takes it off screen. Otherwise each surface has a few dumb buffers (shm_slot); a commit
 * copies only the region of the client's buffer that changed since a slot was last written
 * into a slot that is not on screen. Slots of a destroyed surface are orphaned and freed
 * once off screen.
 */
#include "shm.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "surface.h"
#include "udmabuf.h"

static void slot_free(struct shm_slot *slot)
{
	wl_list_remove(&slot->link);
	dispman_buffer_set_release_callback(slot->dbuf, NULL, NULL);
	dispman_buffer_unref(slot->dbuf);
	free(slot);
}

static void slot_released(struct dispman_buffer *dbuf, void *data)
{
	struct shm_slot *slot = data;
	if (!slot->on_screen)
		return;
	slot->on_screen = false;
	if (slot->source) {
		struct buffer *src = slot->source;
		slot->source = NULL;
		buffer_unhold(src);
	}
	if (!slot->surface)
		slot_free(slot);
}

/* Orphan every slot: those on screen are freed at their release. */
static void shm_release_slots(struct surface *s)
{
	struct shm_slot *slot, *tmp;
	wl_list_for_each_safe(slot, tmp, &s->slots, link) {
		wl_list_remove(&slot->link);
		wl_list_insert(&s->srv->orphan_slots, &slot->link);
		slot->surface = NULL;
		if (!slot->on_screen)
			slot_free(slot);
	}
	s->slots_w = s->slots_h = 0;
}

/* The slot an upload of this repaint went into (marked by source without on_screen), or
 * the zero-copy buffer itself. */
void shm_slots_committed(struct surface *s)
{
	struct buffer *b = s->current.buffer;
	if (b && b->dbuf && b->dbuf == s->shown) {
		buffer_screen_committed(b);
		return;
	}
	struct shm_slot *slot;
	wl_list_for_each(slot, &s->slots, link) {
		if (slot->dbuf == s->shown && !slot->on_screen) {
			slot->on_screen = true;
			slot->source = s->current.buffer;
			buffer_hold(slot->source);
		}
	}
}

/* A new copy slot of the buffer's size and format, whole stale, at the end of the list;
 * NULL (logged) when no dumb buffer can be made. */
static struct shm_slot *new_slot(struct surface *s, const struct buffer *b, uint32_t fourcc)
{
	struct shm_slot *pick = calloc(1, sizeof(*pick));
	if (!pick)
		return NULL;
	pick->dbuf = dispman_buffer_create_dumb(s->srv->dev, (uint32_t)b->width,
		(uint32_t)b->height, fourcc);
	if (!pick->dbuf) {
		wlog(DISPMAN_LOG_ERROR, "surface %u: no dumb buffer %dx%d: %s",
			wl_resource_get_id(s->resource), b->width, b->height, strerror(errno));
		free(pick);
		return NULL;
	}
	pick->surface = s;
	pick->stale = (struct box){ 0, 0, b->width, b->height };
	int r = dispman_buffer_set_release_callback(pick->dbuf, slot_released, pick);
	if (r < 0) {
		wlog(DISPMAN_LOG_ERROR, "surface %u: no release callback on its copy buffer: %s",
			wl_resource_get_id(s->resource), strerror(-r));
		dispman_buffer_unref(pick->dbuf);
		free(pick);
		return NULL;
	}
	wl_list_insert(s->slots.prev, &pick->link);
	return pick;
}

/* Copy the slot's stale region from the shm buffer into it; counted. 0 or -1. */
static int copy_stale(struct server *srv, struct shm_slot *pick, struct wl_shm_buffer *shm,
	const struct buffer *b, uint32_t fourcc)
{
	void *dst;
	uint32_t dst_stride;
	if (dispman_buffer_map(pick->dbuf, &dst, &dst_stride) < 0)
		return -1;
	int32_t src_stride = wl_shm_buffer_get_stride(shm);
	struct box r = pick->stale;
	box_clip(&r, b->width, b->height);
	uint32_t bpp = fourcc == DRM_FORMAT_RGB565 ? 2 : 4;
	wl_shm_buffer_begin_access(shm);
	const uint8_t *src = wl_shm_buffer_get_data(shm);
	if (r.x == 0 && r.w == b->width && src_stride > 0 && (uint32_t)src_stride == dst_stride) {
		/* whole rows of the same stride: one copy (a full-screen frame is 3 MiB) */
		memcpy((uint8_t *)dst + (size_t)r.y * dst_stride,
			src + (size_t)r.y * dst_stride, (size_t)r.h * dst_stride);
	} else {
		for (int32_t y = r.y; y < r.y + r.h; y++)
			memcpy((uint8_t *)dst + (size_t)y * dst_stride + (size_t)r.x * bpp,
				src + (size_t)y * (size_t)src_stride + (size_t)r.x * bpp,
				(size_t)r.w * bpp);
	}
	wl_shm_buffer_end_access(shm);
	pick->stale = (struct box){ 0 };
	srv->stats.shm_copies++;
	srv->stats.bytes_copied += (uint64_t)r.w * (uint64_t)r.h * bpp;
	return 0;
}

/* Zero-copy where the pool can be imported, else the copy path; counted. */
static void shm_decide_path(struct server *srv, struct buffer *b)
{
	enum shm_import_verdict v;
	int err;
	b->shm_path = SHM_PATH_COPY;
	struct dispman_buffer *dbuf = udmabuf_import(srv, b->resource, &v, &err);
	if (dbuf && buffer_set_dbuf(b, dbuf) == 0) {
		b->shm_path = SHM_PATH_ZERO_COPY;
		srv->stats.shm_imports++;
		return;
	}
	dispman_buffer_unref(dbuf);
	srv->stats.shm_import_refused++;
}

struct dispman_buffer *shm_upload(struct surface *s)
{
	struct server *srv = s->srv;
	struct surface_state *c = &s->current;
	struct buffer *b = c->buffer;
	if (!b->resource)
		return s->shown;
	struct wl_shm_buffer *shm = wl_shm_buffer_get(b->resource);
	if (!shm)
		return s->shown;
	if (b->shm_path == SHM_PATH_UNDECIDED)
		shm_decide_path(srv, b);
	if (b->shm_path == SHM_PATH_ZERO_COPY) {
		/* nothing to copy; copies made before are stale now */
		c->damage = (struct box){ 0 };
		c->damage_all = false;
		if (!wl_list_empty(&s->slots))
			shm_release_slots(s);
		return b->dbuf;
	}
	uint32_t fourcc = buffer_shm_fourcc(wl_shm_buffer_get_format(shm));
	if (s->slots_w != b->width || s->slots_h != b->height || s->slots_format != fourcc) {
		shm_release_slots(s);
		s->slots_w = b->width;
		s->slots_h = b->height;
		s->slots_format = fourcc;
		c->damage_all = true;
	}
	struct box damage = c->damage;
	if (c->damage_all)
		damage = (struct box){ 0, 0, b->width, b->height };
	box_clip(&damage, b->width, b->height);
	c->damage = (struct box){ 0 };
	c->damage_all = false;
	if (damage.w == 0 && s->shown)
		return s->shown;

	struct shm_slot *slot, *pick = NULL;
	int n = 0;
	wl_list_for_each(slot, &s->slots, link) {
		box_union(&slot->stale, &damage);
		if (!slot->on_screen && slot->dbuf != s->shown && !pick)
			pick = slot;
		n++;
	}
	if (!pick) {
		if (n >= SHM_SLOTS_MAX) {
			wlog(DISPMAN_LOG_WARNING, "surface %u: every copy is still on screen",
				wl_resource_get_id(s->resource));
			return s->shown;
		}
		pick = new_slot(s, b, fourcc);
		if (!pick)
			return s->shown;
	}
	return copy_stale(srv, pick, shm, b, fourcc) < 0 ? s->shown : pick->dbuf;
}


static void on_surface_destroy(struct wl_listener *l, void *data)
{
	shm_release_slots(data);
}

void shm_init(struct server *srv)
{
	srv->shm_surface_destroy.notify = on_surface_destroy;
	wl_signal_add(&srv->events.surface_destroy, &srv->shm_surface_destroy);
	if (udmabuf_init(srv) < 0)
		wlog(DISPMAN_LOG_WARNING, "no memory to watch shm pools: every shm buffer is copied");
}

void shm_finish(struct server *srv)
{
	struct shm_slot *slot, *stmp;
	wl_list_for_each_safe(slot, stmp, &srv->orphan_slots, link)
		slot_free(slot);
	wl_list_remove(&srv->shm_surface_destroy.link);
	udmabuf_finish(srv);
}
