/* SPDX-License-Identifier: MIT */
/*
 * zwlr_screencopy_manager_v1 with dma-buf targets (src/wayland/screencopy.c, issue 27),
 * against a client in the same process on a compositor over the mock device, whose
 * PRIME import takes a memfd as a dma-buf: a version 3 frame announces buffer, then
 * linux_dmabuf (XRGB8888, the frame's size), then buffer_done, and a version 2 frame no
 * linux_dmabuf; a copy into a dma-buf made through zwp_linux_dmabuf_v1 (with a padded
 * stride and an offset) writes the same pixels as a copy of the same frame into shm;
 * a dma-buf of another size or another format is an invalid_buffer error, one that cannot
 * be mapped for writing (a write-sealed memfd) fails the frame, and one destroyed before
 * the copy fails it too, with nothing leaked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <wayland-client.h>
#include <wayland-server-core.h>

#include <dispman/dispman.h>
#include <dispman/wayland.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "mock-drm.h"
#include "unit-main.h"
#include "wl-pair.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)

struct fixture {
	struct dispman_device *dev;
	struct dispman_wayland *wl;
	struct wl_display *client;
	struct wl_registry *registry;
	struct wl_shm *shm;
	struct wl_output *output;
	struct zwlr_screencopy_manager_v1 *sc;
	struct zwp_linux_dmabuf_v1 *dmabuf;
};

/* What a frame told the client, in order. */
struct frame_log {
	char events[64];        /* one letter an event: b(uffer) l(inux_dmabuf) d(one) f(lags)
				 * r(eady) x (failed) */
	uint32_t shm_format, w, h, stride;
	uint32_t dmabuf_format, dw, dh;
};

static void add(struct frame_log *l, char c)
{
	size_t n = strlen(l->events);
	if (n + 1 < sizeof(l->events))
		l->events[n] = c;
}

static void on_buffer(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t format,
	uint32_t w, uint32_t h, uint32_t stride)
{
	struct frame_log *l = data;
	add(l, 'b');
	l->shm_format = format;
	l->w = w;
	l->h = h;
	l->stride = stride;
}

static void on_flags(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t flags)
{
	add(data, 'f');
}

static void on_ready(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t hi, uint32_t lo,
	uint32_t ns)
{
	add(data, 'r');
}

static void on_failed(void *data, struct zwlr_screencopy_frame_v1 *fr)
{
	add(data, 'x');
}

static void on_damage(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t x, uint32_t y,
	uint32_t w, uint32_t h)
{
	add(data, 'g');
}

static void on_linux_dmabuf(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t format,
	uint32_t w, uint32_t h)
{
	struct frame_log *l = data;
	add(l, 'l');
	l->dmabuf_format = format;
	l->dw = w;
	l->dh = h;
}

static void on_buffer_done(void *data, struct zwlr_screencopy_frame_v1 *fr)
{
	add(data, 'd');
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = {
	on_buffer, on_flags, on_ready, on_failed, on_damage, on_linux_dmabuf, on_buffer_done,
};

static void start(struct fixture *f, uint32_t sc_version)
{
	memset(f, 0, sizeof(*f));
	wl_pair_start(&f->dev, &f->wl, &f->client);
	f->registry = wl_pair_bind(f->wl, f->client, (const struct wl_pair_want[]){
		{ &wl_shm_interface, 1, &f->shm },
		{ &wl_output_interface, 2, &f->output },
		{ &zwlr_screencopy_manager_v1_interface, sc_version, &f->sc },
		{ &zwp_linux_dmabuf_v1_interface, 3, &f->dmabuf },
		{ 0 } });
	CHECK(f->shm && f->output && f->sc && f->dmabuf);
}

/* Ends the client (after a last pump when pump) and the compositor; nothing leaked. */
static void stop_pumped(struct fixture *f, bool pump)
{
	zwp_linux_dmabuf_v1_destroy(f->dmabuf);
	zwlr_screencopy_manager_v1_destroy(f->sc);
	wl_output_destroy(f->output);
	wl_shm_destroy(f->shm);
	wl_registry_destroy(f->registry);
	if (pump && !wl_display_get_error(f->client))
		wl_pair_pump(f->wl, f->client);
	wl_pair_stop(&f->dev, &f->wl, &f->client);
	CHECK(mock_drm_live_objects() == 0);
	mock_drm_reset();
}

static void stop(struct fixture *f)
{
	stop_pumped(f, true);
}

static struct zwlr_screencopy_frame_v1 *frame(struct fixture *f, struct frame_log *l,
	int32_t x, int32_t y, int32_t w, int32_t h)
{
	memset(l, 0, sizeof(*l));
	struct zwlr_screencopy_frame_v1 *fr = w > 0 ?
		zwlr_screencopy_manager_v1_capture_output_region(f->sc, 0, f->output, x, y, w, h) :
		zwlr_screencopy_manager_v1_capture_output(f->sc, 0, f->output);
	zwlr_screencopy_frame_v1_add_listener(fr, &frame_listener, l);
	wl_pair_pump(f->wl, f->client);
	return fr;
}

/* A "dma-buf" of w x h format (4 bytes a pixel) for the mock: a memfd of offset + stride *
 * h bytes, every byte 0xa5, made into a wl_buffer with create_immed. Its fd in *fd_out
 * (the caller's) when fd_out is not NULL, else closed. */
static struct wl_buffer *dmabuf_buffer(struct fixture *f, int32_t w, int32_t h, uint32_t format,
	uint32_t offset, uint32_t stride, int *fd_out, bool seal)
{
	int fd = memfd_create("test-screencopy", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	CHECK(fd >= 0);
	size_t size = offset + (size_t)stride * (size_t)h;
	CHECK(ftruncate(fd, (off_t)size) == 0);
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED);
	memset(m, 0xa5, size);
	munmap(m, size);
	if (seal)
		CHECK(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE) == 0);
	struct zwp_linux_buffer_params_v1 *p = zwp_linux_dmabuf_v1_create_params(f->dmabuf);
	zwp_linux_buffer_params_v1_add(p, fd, 0, offset, stride,
		(uint32_t)(DRM_FORMAT_MOD_LINEAR >> 32), (uint32_t)DRM_FORMAT_MOD_LINEAR);
	struct wl_buffer *b = zwp_linux_buffer_params_v1_create_immed(p, w, h, format, 0);
	zwp_linux_buffer_params_v1_destroy(p);
	wl_pair_pump(f->wl, f->client);
	CHECK(wl_display_get_error(f->client) == 0);
	if (fd_out)
		*fd_out = fd;
	else
		close(fd);
	return b;
}

static uint64_t screencopies(struct fixture *f)
{
	return wl_pair_stats(f->wl).screencopies;
}

static void test_events(void **state)
{
	struct fixture f;
	start(&f, 3);
	int32_t ow = 0, oh = 0;
	struct frame_log l;
	struct zwlr_screencopy_frame_v1 *fr = frame(&f, &l, 0, 0, 0, 0);
	CHECK(strcmp(l.events, "bld") == 0);
	CHECK(l.shm_format == WL_SHM_FORMAT_XRGB8888 && l.stride == l.w * 4);
	CHECK(l.dmabuf_format == DRM_FORMAT_XRGB8888 && l.dw == l.w && l.dh == l.h);
	ow = (int32_t)l.w;
	oh = (int32_t)l.h;
	CHECK(ow > 0 && oh > 0);
	zwlr_screencopy_frame_v1_destroy(fr);
	/* a region, clipped to the output */
	fr = frame(&f, &l, ow - 10, oh - 20, 100, 100);
	CHECK(strcmp(l.events, "bld") == 0);
	CHECK(l.dw == 10 && l.dh == 20 && l.w == 10 && l.h == 20);
	zwlr_screencopy_frame_v1_destroy(fr);
	stop(&f);

	/* version 2: no linux_dmabuf, no buffer_done; a dma-buf target is refused */
	start(&f, 2);
	fr = frame(&f, &l, 0, 0, 0, 0);
	CHECK(strcmp(l.events, "b") == 0);
	struct wl_buffer *b = dmabuf_buffer(&f, (int32_t)l.w, (int32_t)l.h, DRM_FORMAT_XRGB8888,
		0, l.w * 4, NULL, false);
	zwlr_screencopy_frame_v1_copy(fr, b);
	wl_pair_pump(f.wl, f.client);
	CHECK(wl_display_get_error(f.client) == EPROTO);
	const struct wl_interface *iface = NULL;
	CHECK(wl_display_get_protocol_error(f.client, &iface, NULL) ==
		ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER);
	CHECK(iface == &zwlr_screencopy_frame_v1_interface);
	wl_buffer_destroy(b);
	zwlr_screencopy_frame_v1_destroy(fr);
	stop(&f);
}

/* Copies region (x, y, w, h) into shm and into a dma-buf of (offset, stride): the dma-buf's
 * pixels equal the shm ones and its padding is untouched. */
static void copy_both(struct fixture *f, int32_t x, int32_t y, int32_t w, int32_t h,
	uint32_t format, uint32_t offset, uint32_t stride)
{
	struct frame_log l;
	/* shm */
	struct zwlr_screencopy_frame_v1 *fr = frame(f, &l, x, y, w, h);
	CHECK(strcmp(l.events, "bld") == 0);
	w = (int32_t)l.w;
	h = (int32_t)l.h;
	if (!stride)
		stride = (uint32_t)w * 4;
	int sfd = memfd_create("test-screencopy-shm", MFD_CLOEXEC);
	CHECK(sfd >= 0);
	size_t ssize = (size_t)w * (size_t)h * 4;
	CHECK(ftruncate(sfd, (off_t)ssize) == 0);
	struct wl_shm_pool *pool = wl_shm_create_pool(f->shm, sfd, (int32_t)ssize);
	struct wl_buffer *sb = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4,
		format == DRM_FORMAT_ARGB8888 ? WL_SHM_FORMAT_ARGB8888 : WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	uint64_t before = screencopies(f);
	zwlr_screencopy_frame_v1_copy(fr, sb);
	wl_pair_pump(f->wl, f->client);
	CHECK(strcmp(l.events, "bldfr") == 0);
	zwlr_screencopy_frame_v1_destroy(fr);
	wl_buffer_destroy(sb);

	/* dma-buf */
	fr = frame(f, &l, x, y, w, h);
	int dfd = -1;
	struct wl_buffer *db = dmabuf_buffer(f, w, h, format, offset, stride, &dfd, false);
	zwlr_screencopy_frame_v1_copy(fr, db);
	wl_pair_pump(f->wl, f->client);
	CHECK(wl_display_get_error(f->client) == 0);
	CHECK(strcmp(l.events, "bldfr") == 0);
	CHECK(screencopies(f) == before + 2);
	zwlr_screencopy_frame_v1_destroy(fr);
	wl_buffer_destroy(db);
	wl_pair_pump(f->wl, f->client);

	size_t dsize = offset + (size_t)stride * (size_t)h;
	const uint8_t *s = mmap(NULL, ssize, PROT_READ, MAP_SHARED, sfd, 0);
	const uint8_t *d = mmap(NULL, dsize, PROT_READ, MAP_SHARED, dfd, 0);
	CHECK(s != MAP_FAILED && d != MAP_FAILED);
	for (uint32_t i = 0; i < offset; i++)
		CHECK(d[i] == 0xa5);
	unsigned changed = 0;
	for (int32_t row = 0; row < h; row++) {
		const uint8_t *dr = d + offset + (size_t)row * stride;
		if (memcmp(dr, s + (size_t)row * (size_t)w * 4, (size_t)w * 4) != 0)
			fail_msg("row %d of the dma-buf differs from the shm copy", row);
		for (uint32_t i = (uint32_t)w * 4; i < stride; i++)
			CHECK(dr[i] == 0xa5);
		for (int32_t i = 0; i < w * 4; i++)
			changed += dr[i] != 0xa5;
	}
	CHECK(changed > 0); /* the dma-buf was written (the scene is no 0xa5a5a5) */
	munmap((void *)s, ssize);
	munmap((void *)d, dsize);
	close(sfd);
	close(dfd);
}

static void test_copy(void **state)
{
	struct fixture f;
	start(&f, 3);
	copy_both(&f, 0, 0, 0, 0, DRM_FORMAT_XRGB8888, 0, 0);
	stop(&f);
}

static void test_copy_region(void **state)
{
	struct fixture f;
	start(&f, 3);
	/* a region, into a buffer with an offset and a padded stride, and ARGB8888 */
	copy_both(&f, 7, 5, 40, 30, DRM_FORMAT_XRGB8888, 4096, 40 * 4 + 64);
	copy_both(&f, 3, 9, 16, 8, DRM_FORMAT_ARGB8888, 256, 16 * 4);
	stop(&f);
}

/* A dma-buf target that does not fit: an invalid_buffer error on the frame. */
static void bad_buffer(int32_t dw, int32_t dh, uint32_t format)
{
	struct fixture f;
	start(&f, 3);
	struct frame_log l;
	struct zwlr_screencopy_frame_v1 *fr = frame(&f, &l, 0, 0, 32, 16);
	struct wl_buffer *b = dmabuf_buffer(&f, 32 + dw, 16 + dh, format, 0,
		(uint32_t)(32 + dw) * 4, NULL, false);
	zwlr_screencopy_frame_v1_copy_with_damage(fr, b);
	wl_pair_pump(f.wl, f.client);
	CHECK(wl_display_get_error(f.client) == EPROTO);
	const struct wl_interface *iface = NULL;
	CHECK(wl_display_get_protocol_error(f.client, &iface, NULL) ==
		ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER);
	CHECK(iface == &zwlr_screencopy_frame_v1_interface);
	CHECK(strcmp(l.events, "bld") == 0);
	wl_buffer_destroy(b);
	zwlr_screencopy_frame_v1_destroy(fr);
	stop(&f);
}

static void test_wrong_size(void **state)
{
	bad_buffer(1, 0, DRM_FORMAT_XRGB8888);
	bad_buffer(0, -1, DRM_FORMAT_XRGB8888);
}

static void test_wrong_format(void **state)
{
	bad_buffer(0, 0, DRM_FORMAT_RGB565);
}

/* A write-sealed memfd cannot be mapped for writing: the frame fails, the compositor
 * goes on (a next copy into a good buffer works). */
static void test_unmappable(void **state)
{
	struct fixture f;
	start(&f, 3);
	struct frame_log l;
	struct zwlr_screencopy_frame_v1 *fr = frame(&f, &l, 0, 0, 32, 16);
	struct wl_buffer *b = dmabuf_buffer(&f, 32, 16, DRM_FORMAT_XRGB8888, 0, 32 * 4, NULL,
		true);
	uint64_t before = screencopies(&f);
	zwlr_screencopy_frame_v1_copy(fr, b);
	wl_pair_pump(f.wl, f.client);
	CHECK(wl_display_get_error(f.client) == 0);
	CHECK(strcmp(l.events, "bldx") == 0);
	CHECK(screencopies(&f) == before);
	wl_buffer_destroy(b);
	zwlr_screencopy_frame_v1_destroy(fr);
	copy_both(&f, 0, 0, 32, 16, DRM_FORMAT_XRGB8888, 0, 32 * 4);
	stop(&f);
}

/* The target destroyed between copy and the compositor's run: failed, nothing leaked;
 * the client gone with a copy queued: nothing leaked either (stop() checks the mock). */
static void test_destroyed(void **state)
{
	struct fixture f;
	start(&f, 3);
	struct frame_log l;
	struct zwlr_screencopy_frame_v1 *fr = frame(&f, &l, 0, 0, 32, 16);
	struct wl_buffer *b = dmabuf_buffer(&f, 32, 16, DRM_FORMAT_XRGB8888, 0, 32 * 4, NULL,
		false);
	zwlr_screencopy_frame_v1_copy(fr, b);
	wl_buffer_destroy(b);
	wl_pair_pump(f.wl, f.client);
	CHECK(wl_display_get_error(f.client) == 0);
	CHECK(strcmp(l.events, "bldx") == 0);
	zwlr_screencopy_frame_v1_destroy(fr);
	fr = frame(&f, &l, 0, 0, 32, 16);
	b = dmabuf_buffer(&f, 32, 16, DRM_FORMAT_XRGB8888, 0, 32 * 4, NULL, false);
	zwlr_screencopy_frame_v1_copy(fr, b);
	wl_display_flush(f.client);
	/* the compositor reads the copy but its idle run has not come: the client goes (its
	 * last requests never sent) */
	wl_event_loop_dispatch(wl_display_get_event_loop(dispman_wayland_get_display(f.wl)), 0);
	wl_buffer_destroy(b);
	zwlr_screencopy_frame_v1_destroy(fr);
	stop_pumped(&f, false);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "screencopy@dmabuf-events", test_events, NULL, NULL, NULL },
		{ "screencopy@dmabuf-copy", test_copy, NULL, NULL, NULL },
		{ "screencopy@dmabuf-region", test_copy_region, NULL, NULL, NULL },
		{ "screencopy@dmabuf-wrong-size", test_wrong_size, NULL, NULL, NULL },
		{ "screencopy@dmabuf-wrong-format", test_wrong_format, NULL, NULL, NULL },
		{ "screencopy@dmabuf-unmappable", test_unmappable, NULL, NULL, NULL },
		{ "screencopy@dmabuf-destroyed", test_destroyed, NULL, NULL, NULL },
	};
	return unit_main("screencopy", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
