/* SPDX-License-Identifier: MIT */
/*
 * A zwlr_screencopy_manager_v1 client that copies into dma-bufs (kiosk-scdmabuf.sh, issue
 * 27). For each frame it checks the events (buffer, then linux_dmabuf with XRGB8888 and
 * the frame's size, then buffer_done), makes a dma-buf of that size as a client without a
 * GPU can: a dumb buffer on the DRM node (not master: DRM_IOCTL_MODE_CREATE_DUMB and
 * DRM_IOCTL_PRIME_HANDLE_TO_FD need no DRM_AUTH), or where that is refused a memfd through
 * /dev/udmabuf, fills it with 0xa5, gives it to the compositor through zwp_linux_dmabuf_v1
 * (LINEAR, create: an import the compositor refuses is its failed event, and the other
 * kind is tried) and copies into it:
 *   1. the whole output, into a dumb buffer: written to OUT.ppm (P6, as dispman-kiosk
 *      --capture writes) for the script to compare with the compositor's own capture and
 *      the client's pattern;
 *   2. the region 64x32 at (100, 50), into a udmabuf where there is /dev/udmabuf (Linux
 *      6.12) and the compositor imports it: equal, pixel for pixel, to that crop of (1);
 *   3. a dma-buf half as wide as the frame: the compositor must answer with the frame's
 *      invalid_buffer error (the connection ends).
 * Prints "PASS" lines naming the kind of each dma-buf; exit 0, or 1 with "FAIL: ...".
 *
 *   kiosk-scdmabuf DRM_NODE OUT.ppm
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <linux/dma-buf.h>
#include <linux/udmabuf.h>
#include <wayland-client.h>
#include <xf86drm.h>

#include "check.h"
#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"

static struct wl_display *display;
static struct wl_output *output;
static struct zwlr_screencopy_manager_v1 *manager;
static struct zwp_linux_dmabuf_v1 *dmabuf;
static bool linear_xrgb; /* the compositor offers XRGB8888 in LINEAR */
static int drm_fd = -1;

static void on_format(void *d, struct zwp_linux_dmabuf_v1 *z, uint32_t format)
{
}

static void on_modifier(void *d, struct zwp_linux_dmabuf_v1 *z, uint32_t format, uint32_t hi,
	uint32_t lo)
{
	if (format == DRM_FORMAT_XRGB8888 && ((uint64_t)hi << 32 | lo) == DRM_FORMAT_MOD_LINEAR)
		linear_xrgb = true;
}

static const struct zwp_linux_dmabuf_v1_listener dmabuf_listener = { on_format, on_modifier };

static void on_global(void *data, struct wl_registry *reg, uint32_t name, const char *iface,
	uint32_t version)
{
	if (strcmp(iface, wl_output_interface.name) == 0 && !output) {
		output = wl_registry_bind(reg, name, &wl_output_interface, 1);
	} else if (strcmp(iface, zwlr_screencopy_manager_v1_interface.name) == 0) {
		CHECK(version >= 3, "zwlr_screencopy_manager_v1 version %u, want 3", version);
		manager = wl_registry_bind(reg, name, &zwlr_screencopy_manager_v1_interface, 3);
	} else if (strcmp(iface, zwp_linux_dmabuf_v1_interface.name) == 0) {
		CHECK(version >= 3, "zwp_linux_dmabuf_v1 version %u, want 3", version);
		dmabuf = wl_registry_bind(reg, name, &zwp_linux_dmabuf_v1_interface, 3);
		zwp_linux_dmabuf_v1_add_listener(dmabuf, &dmabuf_listener, NULL);
	}
}

static void on_global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = { on_global, on_global_remove };

struct frame {
	char events[16];        /* b(uffer) l(inux_dmabuf) d(one) f(lags) r(eady) x(failed) */
	uint32_t w, h;          /* from buffer */
	uint32_t dformat, dw, dh; /* from linux_dmabuf */
};

static void ev(struct frame *f, char c)
{
	size_t n = strlen(f->events);
	if (n + 1 < sizeof(f->events))
		f->events[n] = c;
}

static void on_buffer(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t format,
	uint32_t w, uint32_t h, uint32_t stride)
{
	struct frame *f = data;
	ev(f, 'b');
	f->w = w;
	f->h = h;
}

static void on_flags(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t flags)
{
	ev(data, 'f');
}

static void on_ready(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t hi, uint32_t lo,
	uint32_t ns)
{
	ev(data, 'r');
}

static void on_failed(void *data, struct zwlr_screencopy_frame_v1 *fr)
{
	ev(data, 'x');
}

static void on_damage(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t x, uint32_t y,
	uint32_t w, uint32_t h)
{
}

static void on_linux_dmabuf(void *data, struct zwlr_screencopy_frame_v1 *fr, uint32_t format,
	uint32_t w, uint32_t h)
{
	struct frame *f = data;
	ev(f, 'l');
	f->dformat = format;
	f->dw = w;
	f->dh = h;
}

static void on_buffer_done(void *data, struct zwlr_screencopy_frame_v1 *fr)
{
	ev(data, 'd');
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = {
	on_buffer, on_flags, on_ready, on_failed, on_damage, on_linux_dmabuf, on_buffer_done,
};

/* A frame of the output (w 0) or of a region, after its buffer_done; its events checked. */
static struct zwlr_screencopy_frame_v1 *frame_new(struct frame *f, int32_t x, int32_t y,
	int32_t w, int32_t h)
{
	memset(f, 0, sizeof(*f));
	struct zwlr_screencopy_frame_v1 *fr = w ?
		zwlr_screencopy_manager_v1_capture_output_region(manager, 0, output, x, y, w, h) :
		zwlr_screencopy_manager_v1_capture_output(manager, 0, output);
	zwlr_screencopy_frame_v1_add_listener(fr, &frame_listener, f);
	while (!strchr(f->events, 'd') && !strchr(f->events, 'x'))
		CHECK(wl_display_dispatch(display) >= 0, "connection lost waiting for buffer_done");
	CHECK(strcmp(f->events, "bld") == 0, "frame events '%s', want 'bld' (buffer, "
		"linux_dmabuf, buffer_done)", f->events);
	CHECK(f->dformat == DRM_FORMAT_XRGB8888 && f->dw == f->w && f->dh == f->h,
		"linux_dmabuf %#x %ux%u, want XRGB8888 %ux%u", f->dformat, f->dw, f->dh, f->w,
		f->h);
	return fr;
}

struct dbuf {
	int fd;                 /* the dma-buf */
	uint32_t stride;
	size_t size;
	struct wl_buffer *buffer;
};

static const char *how; /* "dumb" or "udmabuf": the last one made */

/* A w x h XRGB8888 dma-buf: a dumb buffer on the node, else a memfd through udmabuf. */
static bool make_dumb(struct dbuf *b, uint32_t w, uint32_t h)
{
	struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
	if (drmIoctl(drm_fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) != 0) {
		fprintf(stderr, "kiosk-scdmabuf: CREATE_DUMB as a client: %s\n", strerror(errno));
		return false;
	}
	int ret = drmPrimeHandleToFD(drm_fd, c.handle, DRM_CLOEXEC | DRM_RDWR, &b->fd);
	int err = errno;
	struct drm_mode_destroy_dumb d = { .handle = c.handle };
	drmIoctl(drm_fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d); /* the dma-buf keeps the memory */
	if (ret != 0) {
		fprintf(stderr, "kiosk-scdmabuf: PRIME_HANDLE_TO_FD as a client: %s\n",
			strerror(err));
		return false;
	}
	b->stride = c.pitch;
	b->size = (size_t)c.size;
	return true;
}

static bool make_udmabuf(struct dbuf *b, uint32_t w, uint32_t h)
{
	int dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		fprintf(stderr, "kiosk-scdmabuf: /dev/udmabuf: %s\n", strerror(errno));
		return false;
	}
	long page = sysconf(_SC_PAGESIZE);
	b->stride = w * 4;
	b->size = ((size_t)b->stride * h + (size_t)page - 1) / (size_t)page * (size_t)page;
	int mem = memfd_create("kiosk-scdmabuf", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	CHECK(mem >= 0 && ftruncate(mem, (off_t)b->size) == 0, "memfd: %s", strerror(errno));
	CHECK(fcntl(mem, F_ADD_SEALS, F_SEAL_SHRINK) == 0, "seal: %s", strerror(errno));
	struct udmabuf_create c = { .memfd = (uint32_t)mem, .flags = UDMABUF_FLAGS_CLOEXEC,
		.size = b->size };
	b->fd = ioctl(dev, UDMABUF_CREATE, &c);
	int err = errno;
	close(mem);
	close(dev);
	if (b->fd < 0)
		fprintf(stderr, "kiosk-scdmabuf: UDMABUF_CREATE: %s\n", strerror(err));
	return b->fd >= 0;
}

static void sync_dmabuf(int fd, uint64_t flags)
{
	struct dma_buf_sync s = { .flags = flags };
	CHECK(drmIoctl(fd, DMA_BUF_IOCTL_SYNC, &s) == 0, "DMA_BUF_IOCTL_SYNC: %s",
		strerror(errno));
}

static void on_created(void *data, struct zwp_linux_buffer_params_v1 *p,
	struct wl_buffer *buffer)
{
	*(struct wl_buffer **)data = buffer;
}

static void on_params_failed(void *data, struct zwp_linux_buffer_params_v1 *p)
{
	*(struct wl_buffer **)data = (struct wl_buffer *)(uintptr_t)1;
}

static const struct zwp_linux_buffer_params_v1_listener params_listener = {
	on_created, on_params_failed,
};

/* A w x h XRGB8888 dma-buf filled with 0xa5 and its wl_buffer: from udmabuf first when
 * udmabuf_first (falling back to a dumb buffer where there is no udmabuf or the compositor
 * cannot import it), else from a dumb buffer first. */
static void dbuf_make(struct dbuf *b, uint32_t w, uint32_t h, bool udmabuf_first)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		memset(b, 0, sizeof(*b));
		bool udma = udmabuf_first == (attempt == 0);
		bool ok = udma ? make_udmabuf(b, w, h) : make_dumb(b, w, h);
		if (!ok)
			continue;
		how = udma ? "udmabuf" : "dumb";
		uint8_t *m = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
		CHECK(m != MAP_FAILED, "mmap of the client's dma-buf (%s): %s", how,
			strerror(errno));
		sync_dmabuf(b->fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE);
		memset(m, 0xa5, b->size);
		sync_dmabuf(b->fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE);
		munmap(m, b->size);
		struct zwp_linux_buffer_params_v1 *p = zwp_linux_dmabuf_v1_create_params(dmabuf);
		struct wl_buffer *res = NULL;
		zwp_linux_buffer_params_v1_add_listener(p, &params_listener, &res);
		zwp_linux_buffer_params_v1_add(p, b->fd, 0, 0, b->stride,
			(uint32_t)(DRM_FORMAT_MOD_LINEAR >> 32), (uint32_t)DRM_FORMAT_MOD_LINEAR);
		zwp_linux_buffer_params_v1_create(p, (int32_t)w, (int32_t)h, DRM_FORMAT_XRGB8888,
			0);
		while (!res)
			CHECK(wl_display_dispatch(display) >= 0, "connection lost at the import");
		zwp_linux_buffer_params_v1_destroy(p);
		if (res != (struct wl_buffer *)(uintptr_t)1) {
			b->buffer = res;
			return;
		}
		fprintf(stderr, "kiosk-scdmabuf: the compositor could not import the %s dma-buf\n",
			how);
		close(b->fd);
	}
	FAIL("no dma-buf the compositor takes (neither a dumb buffer nor udmabuf)");
}

/* Copies frame fr into b; returns its pixels (XRGB8888, tightly packed, the caller's). */
static uint32_t *copy_into(struct zwlr_screencopy_frame_v1 *fr, struct frame *f, struct dbuf *b)
{
	zwlr_screencopy_frame_v1_copy(fr, b->buffer);
	while (!strchr(f->events, 'r') && !strchr(f->events, 'x'))
		CHECK(wl_display_dispatch(display) >= 0, "connection lost waiting for ready");
	CHECK(strchr(f->events, 'r'), "the copy into the dma-buf failed (events '%s')",
		f->events);
	uint32_t *px = malloc((size_t)f->w * f->h * 4);
	CHECK(px, "no memory");
	const uint8_t *m = mmap(NULL, b->size, PROT_READ, MAP_SHARED, b->fd, 0);
	CHECK(m != MAP_FAILED, "mmap: %s", strerror(errno));
	sync_dmabuf(b->fd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ);
	for (uint32_t y = 0; y < f->h; y++)
		memcpy(px + (size_t)y * f->w, m + (size_t)y * b->stride, (size_t)f->w * 4);
	sync_dmabuf(b->fd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ);
	munmap((void *)m, b->size);
	return px;
}

static void dbuf_free(struct dbuf *b)
{
	wl_buffer_destroy(b->buffer);
	close(b->fd);
}

int main(int argc, char **argv)
{
	CHECK(argc == 3, "usage: kiosk-scdmabuf DRM_NODE OUT.ppm");
	drm_fd = open(argv[1], O_RDWR | O_CLOEXEC);
	CHECK(drm_fd >= 0, "%s: %s", argv[1], strerror(errno));
	display = wl_display_connect(NULL);
	CHECK(display, "cannot connect to $WAYLAND_DISPLAY");
	struct wl_registry *reg = wl_display_get_registry(display);
	wl_registry_add_listener(reg, &registry_listener, NULL);
	wl_display_roundtrip(display);
	wl_display_roundtrip(display);
	CHECK(output && manager && dmabuf, "missing globals (wl_output, screencopy, dmabuf)");
	CHECK(linear_xrgb, "zwp_linux_dmabuf_v1 offers no XRGB8888 in LINEAR");

	/* 1. the whole output */
	struct frame f;
	struct zwlr_screencopy_frame_v1 *fr = frame_new(&f, 0, 0, 0, 0);
	struct dbuf b;
	dbuf_make(&b, f.w, f.h, false);
	uint32_t *full = copy_into(fr, &f, &b);
	unsigned untouched = 0;
	for (size_t i = 0; i < (size_t)f.w * f.h; i++)
		untouched += full[i] == 0xa5a5a5a5u;
	CHECK(untouched == 0, "%u pixels of the dma-buf were not written", untouched);
	FILE *out = fopen(argv[2], "wb");
	CHECK(out, "%s: %s", argv[2], strerror(errno));
	fprintf(out, "P6\n%u %u\n255\n", f.w, f.h);
	for (size_t i = 0; i < (size_t)f.w * f.h; i++) {
		uint8_t rgb[3] = { (uint8_t)(full[i] >> 16), (uint8_t)(full[i] >> 8),
			(uint8_t)full[i] };
		fwrite(rgb, 1, 3, out);
	}
	CHECK(fclose(out) == 0, "%s: %s", argv[2], strerror(errno));
	uint32_t fw = f.w, fh = f.h;
	printf("PASS whole output %ux%u into a %s dma-buf (stride %u)\n", fw, fh, how, b.stride);
	zwlr_screencopy_frame_v1_destroy(fr);
	dbuf_free(&b);

	/* 2. a region */
	CHECK(fw >= 164 && fh >= 82, "the output is too small for the region");
	fr = frame_new(&f, 100, 50, 64, 32);
	CHECK(f.w == 64 && f.h == 32, "region frame %ux%u, want 64x32", f.w, f.h);
	dbuf_make(&b, 64, 32, true);
	uint32_t *reg_px = copy_into(fr, &f, &b);
	for (uint32_t y = 0; y < 32; y++)
		for (uint32_t x = 0; x < 64; x++)
			CHECK((reg_px[y * 64 + x] & 0xffffff) ==
			      (full[(size_t)(y + 50) * fw + x + 100] & 0xffffff),
			      "region differs from the whole output at (%u, %u): %#x vs %#x", x, y,
			      reg_px[y * 64 + x], full[(size_t)(y + 50) * fw + x + 100]);
	printf("PASS region 64x32 at (100, 50) into a %s dma-buf equals the whole output's "
		"crop\n", how);
	zwlr_screencopy_frame_v1_destroy(fr);
	dbuf_free(&b);
	free(reg_px);
	free(full);

	/* 3. a dma-buf of the wrong size: invalid_buffer */
	fr = frame_new(&f, 0, 0, 0, 0);
	dbuf_make(&b, f.w / 2, f.h, false);
	zwlr_screencopy_frame_v1_copy(fr, b.buffer);
	while (wl_display_dispatch(display) >= 0)
		CHECK(!strchr(f.events, 'r'), "a dma-buf half as wide was copied into");
	const struct wl_interface *iface = NULL;
	uint32_t code = wl_display_get_protocol_error(display, &iface, NULL);
	CHECK(wl_display_get_error(display) == EPROTO && iface ==
		&zwlr_screencopy_frame_v1_interface &&
		code == ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER,
		"a dma-buf half as wide: error %d (%s %u), want the frame's invalid_buffer",
		wl_display_get_error(display), iface ? iface->name : "-", code);
	printf("PASS a dma-buf half as wide: invalid_buffer\n");
	zwlr_screencopy_frame_v1_destroy(fr);
	dbuf_free(&b);
	zwp_linux_dmabuf_v1_destroy(dmabuf);
	zwlr_screencopy_manager_v1_destroy(manager);
	wl_output_destroy(output);
	wl_registry_destroy(reg);
	wl_display_disconnect(display);
	close(drm_fd);
	return 0;
}
