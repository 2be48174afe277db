/* SPDX-License-Identifier: MIT */
/*
 * Buffers on the mock libdrm: every validation rule of dumb buffers and dma-buf imports with
 * its errno and log line, failures injected half-way that must leave nothing behind, fds
 * that are duplicated and never taken, export, and the reference that keeps a buffer alive
 * until the flip that replaced it on screen.
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buffer.h"
#include "device.h"

#pragma GCC diagnostic ignored "-Woverride-init"

#define W 64
#define H 48
#define PITCH (W * 4)
#define SIZE ((size_t)PITCH * H)

/* ---- dumb buffers ---- */

struct dumb_case {
	const char *name;
	uint32_t width, height, fourcc;
	int want_errno;                 /* 0: success */
	const char *log;
	bool no_fb;                     /* success without a framebuffer */
	bool addfb_refused;             /* the kernel refuses the framebuffer (EINVAL) */
};

static const struct dumb_case dumb_cases[] = {
	{ "buffer@dumb-xr24", W, H, DRM_FORMAT_XRGB8888, 0, NULL },
	{ "buffer@dumb-rg16", W, H, DRM_FORMAT_RGB565, 0, NULL },
	{ "buffer@dumb-ar24-max-size", 8192, 2, DRM_FORMAT_ARGB8888, 0, NULL },
	{ "buffer@dumb-unknown-fourcc", W, H, 0x34333231, EINVAL, "unknown format 1234" },
	{ "buffer@dumb-zero-width", 0, H, DRM_FORMAT_XRGB8888, EINVAL, "is empty" },
	{ "buffer@dumb-zero-height", W, 0, DRM_FORMAT_XRGB8888, EINVAL, "is empty" },
	{ "buffer@dumb-too-wide", 8193, H, DRM_FORMAT_XRGB8888, ERANGE, "beyond device maximum" },
	{ "buffer@dumb-too-high", W, 8193, DRM_FORMAT_XRGB8888, ERANGE, "beyond device maximum" },
	/* Known to the library, taken by no plane: the kernel refuses the FB (Linux 6.12 vkms,
	 * scripted), the buffer is made anyway, without one, for the CPU compositor. */
	{ "buffer@dumb-no-plane-format", W, H, DRM_FORMAT_XBGR8888, 0, NULL, true, true },
};

static void test_dumb(void **state)
{
	struct unit_fixture *f = *state;
	const struct dumb_case *tc = f->param;
	if (tc->addfb_refused)
		mock_drm_fail_next("drmModeAddFB2", EINVAL);
	errno = 0;
	struct dispman_buffer *buf = dispman_buffer_create_dumb(f->dev, tc->width, tc->height,
		tc->fourcc);
	if (tc->want_errno) {
		assert_null(buf);
		assert_int_equal(errno, tc->want_errno);
		assert_true(unit_log_find(DISPMAN_LOG_ERROR, tc->log));
		unit_assert_no_live_objects();
		return;
	}
	assert_non_null(buf);
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);
	assert_int_equal(dispman_buffer_get_width(buf), tc->width);
	assert_int_equal(dispman_buffer_get_height(buf), tc->height);
	assert_int_equal(dispman_buffer_get_format(buf), tc->fourcc);
	assert_int_equal(dispman_buffer_get_modifier(buf), DRM_FORMAT_MOD_INVALID);
	struct mock_drm_fb_info fb = { 0 };
	if (tc->no_fb) {
		assert_int_equal(dispman_buffer_get_fb_id(buf), 0);
		assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
		assert_true(unit_log_find(DISPMAN_LOG_INFO, "CPU composition only"));
		fb.pitches[0] = tc->width * format_info_find(tc->fourcc)->cpp[0];
	} else {
		assert_true(mock_drm_get_fb(dispman_buffer_get_fb_id(buf), &fb));
		assert_int_equal(fb.width, tc->width);
		assert_int_equal(fb.height, tc->height);
		assert_int_equal(fb.format, tc->fourcc);
	}
	void *data = NULL;
	uint32_t stride = 0;
	assert_int_equal(dispman_buffer_map(buf, &data, &stride), 0);
	assert_non_null(data);
	assert_int_equal(stride, fb.pitches[0]);
	assert_true(stride >= tc->width * format_info_find(tc->fourcc)->cpp[0]);
	memset(data, 0xa5, (size_t)stride * tc->height); /* the whole mapping is writable */
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_fbs, tc->no_fb ? 0 : 1);
	assert_int_equal(c.live_dumb_buffers, 1);
	dispman_buffer_unref(buf);
	unit_assert_no_live_objects();
}

/* ---- dma-buf import validation ---- */

struct import_case {
	const char *name;
	struct dispman_dmabuf_desc desc; /* fds[i] >= 0: an index into the test's memfds */
	size_t sizes[2];                 /* sizes of the memfds; 0: SIZE */
	bool closed_fd;                  /* fds[0] is a closed fd */
	uint64_t cap_modifiers;          /* 1: default; 2: DRM_CAP_ADDFB2_MODIFIERS off */
	bool addfb_refused;              /* the kernel refuses the framebuffer (EINVAL) */
	int want_errno;
	const char *log;
};

/* Each use overrides fields of the XR24 defaults (-Woverride-init is off in this file). */
#define XR24_DESC(...) { .width = W, .height = H, .fourcc = DRM_FORMAT_XRGB8888, \
	.modifier = DRM_FORMAT_MOD_INVALID, .n_planes = 1, .fds = { 0 }, .pitches = { PITCH }, \
	__VA_ARGS__ }

static const struct import_case import_cases[] = {
	{ "buffer@import-xr24", XR24_DESC(), .want_errno = 0 },
	{ "buffer@import-linear", XR24_DESC(.modifier = DRM_FORMAT_MOD_LINEAR), .want_errno = 0 },
	{ "buffer@import-offset", XR24_DESC(.offsets = { 4096 }), .sizes = { SIZE + 4096 },
		.want_errno = 0 },
	{ "buffer@import-large-pitch", XR24_DESC(.pitches = { PITCH + 64 }),
		.sizes = { (PITCH + 64) * H }, .want_errno = 0 },
	{ "buffer@import-unknown-fourcc", XR24_DESC(.fourcc = 0x34333231),
		.want_errno = EINVAL, .log = "unknown format 1234" },
	{ "buffer@import-zero-width", XR24_DESC(.width = 0), .want_errno = EINVAL,
		.log = "is empty" },
	{ "buffer@import-zero-height", XR24_DESC(.height = 0), .want_errno = EINVAL,
		.log = "is empty" },
	{ "buffer@import-too-wide", XR24_DESC(.width = 8193, .pitches = { 8193 * 4 }),
		.want_errno = ERANGE, .log = "beyond device maximum" },
	{ "buffer@import-too-high", XR24_DESC(.height = 100000), .want_errno = ERANGE,
		.log = "beyond device maximum" },
	{ "buffer@pitch-too-small", XR24_DESC(.pitches = { PITCH - 4 }), .want_errno = EINVAL,
		.log = "pitch 252 is less than 256" },
	{ "buffer@pitch-zero", XR24_DESC(.pitches = { 0 }), .want_errno = EINVAL,
		.log = "pitch 0 is less" },
	{ "buffer@offset-beyond-dmabuf", XR24_DESC(.offsets = { 1 }), .want_errno = EINVAL,
		.log = "plane 0 needs 12289 bytes" },
	{ "buffer@size-beyond-dmabuf", XR24_DESC(), .sizes = { SIZE - 1 }, .want_errno = EINVAL,
		.log = "the dma-buf has 12287" },
	{ "buffer@offset-overflow", XR24_DESC(.offsets = { 0xffffff00u }), .want_errno = EINVAL,
		.log = "plane 0 needs" },
	{ "buffer@fd-negative", XR24_DESC(.fds = { -1 }), .want_errno = EBADF,
		.log = "fd -1 is invalid" },
	{ "buffer@fd-closed", XR24_DESC(), .closed_fd = true, .want_errno = EBADF,
		.log = "is invalid" },
	{ "buffer@n-planes-zero", XR24_DESC(.n_planes = 0), .want_errno = EINVAL,
		.log = "has 1 planes, not 0" },
	{ "buffer@n-planes-two", XR24_DESC(.n_planes = 2, .fds = { 0, 1 },
		.pitches = { PITCH, PITCH }), .want_errno = EINVAL, .log = "has 1 planes, not 2" },
	{ "buffer@n-planes-five", XR24_DESC(.n_planes = 5), .want_errno = EINVAL,
		.log = "not 5" },
	{ "buffer@nv12-one-plane", XR24_DESC(.fourcc = DRM_FORMAT_NV12, .pitches = { W }),
		.want_errno = EINVAL, .log = "has 2 planes, not 1" },
	/* NV12 is valid, but no plane of the vkms-like device takes it: the kernel says no
	 * (scripted). */
	{ "buffer@nv12-no-plane", XR24_DESC(.fourcc = DRM_FORMAT_NV12, .n_planes = 2,
		.fds = { 0, 1 }, .pitches = { W, W }), .addfb_refused = true, .want_errno = EINVAL,
		.log = "AddFB2" },
	{ "buffer@nv12-chroma-beyond", XR24_DESC(.fourcc = DRM_FORMAT_NV12, .n_planes = 2,
		.fds = { 0, 1 }, .pitches = { W, W }, .offsets = { 0, SIZE - W * H / 2 + 1 }),
		.want_errno = EINVAL, .log = "plane 1 needs" },
	{ "buffer@nv12-chroma-pitch", XR24_DESC(.fourcc = DRM_FORMAT_NV12, .n_planes = 2,
		.fds = { 0, 1 }, .pitches = { W, W - 2 }), .want_errno = EINVAL,
		.log = "plane 1 pitch 62" },
	{ "buffer@modifier-no-plane-takes", XR24_DESC(.modifier = I915_FORMAT_MOD_X_TILED),
		.want_errno = EINVAL, .log = "no plane takes" },
	/* Without DRM_CAP_ADDFB2_MODIFIERS (virtio-gpu) LINEAR is AddFB2 without modifiers;
	 * anything else is refused, saying why. */
	{ "buffer@modifier-without-cap", XR24_DESC(.modifier = DRM_FORMAT_MOD_LINEAR),
		.cap_modifiers = 2, .want_errno = 0 },
	{ "buffer@tiled-without-cap", XR24_DESC(.modifier = I915_FORMAT_MOD_X_TILED),
		.cap_modifiers = 2, .want_errno = EINVAL, .log = "needs DRM_CAP_ADDFB2_MODIFIERS" },
};

static void test_import(void **state)
{
	struct unit_fixture *f = *state;
	const struct import_case *tc = f->param;
	if (tc->cap_modifiers == 2) {
		dispman_device_destroy(f->dev);
		mock_drm_set_cap(DRM_CAP_ADDFB2_MODIFIERS, 0);
		unit_open_device(f);
		unit_log_clear();
	}
	int mem[2];
	for (int i = 0; i < 2; i++)
		mem[i] = unit_memfd(tc->sizes[i] ? tc->sizes[i] : SIZE);
	struct dispman_dmabuf_desc desc = tc->desc;
	for (int i = 0; i < 4; i++)
		desc.fds[i] = desc.fds[i] >= 0 && desc.fds[i] < 2 ? mem[desc.fds[i]] : desc.fds[i];
	if (tc->closed_fd) {
		int fd = unit_memfd(SIZE);
		close(fd);
		desc.fds[0] = fd;
	}
	int fds_before = unit_count_fds();
	if (tc->addfb_refused)
		mock_drm_fail_next("drmModeAddFB2", EINVAL);
	errno = 0;
	struct dispman_buffer *buf = dispman_buffer_import_dmabuf(f->dev, &desc);
	if (tc->want_errno) {
		assert_null(buf);
		assert_int_equal(errno, tc->want_errno);
		assert_true(unit_log_find(DISPMAN_LOG_ERROR, tc->log));
	} else {
		assert_non_null(buf);
		assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);
		assert_int_equal(dispman_buffer_get_modifier(buf), desc.modifier);
		struct mock_drm_fb_info fb;
		assert_true(mock_drm_get_fb(dispman_buffer_get_fb_id(buf), &fb));
		assert_int_equal(fb.width, desc.width);
		assert_int_equal(fb.pitches[0], desc.pitches[0]);
		assert_int_equal(fb.offsets[0], desc.offsets[0]);
		if (desc.modifier != DRM_FORMAT_MOD_INVALID)
			assert_int_equal(fb.modifier, desc.modifier);
		/* The buffer holds its own duplicate of the caller's fd. */
		assert_true(buffer_fd(buf, 0) >= 0);
		assert_int_not_equal(buffer_fd(buf, 0), desc.fds[0]);
		assert_true(unit_count_fds() > fds_before);
		dispman_buffer_unref(buf);
	}
	/* Nothing left: no fd, handle or FB; the caller's fds are still open. */
	assert_int_equal(unit_count_fds(), fds_before);
	unit_assert_no_live_objects();
	for (int i = 0; i < 2; i++) {
		assert_true(fcntl(mem[i], F_GETFD) >= 0);
		close(mem[i]);
	}
}

static void test_import_no_desc(void **state)
{
	struct unit_fixture *f = *state;
	errno = 0;
	assert_null(dispman_buffer_import_dmabuf(f->dev, NULL));
	assert_int_equal(errno, EINVAL);
	assert_error_logged("no descriptor");
}

/* The caller's fd is duplicated: still valid after import and after unref, and the buffer
 * keeps working after the caller closed it. */
static void test_import_fd_not_taken(void **state)
{
	struct unit_fixture *f = *state;
	int mem = unit_memfd(SIZE);
	struct stat before, after;
	assert_int_equal(fstat(mem, &before), 0);
	struct dispman_dmabuf_desc desc = XR24_DESC(.fds = { mem });
	struct dispman_buffer *a = dispman_buffer_import_dmabuf(f->dev, &desc);
	assert_non_null(a);
	assert_int_equal(fstat(mem, &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
	assert_int_not_equal(buffer_fd(a, 0), mem);

	/* The same dma-buf imported twice shares one GEM handle, closed once. */
	struct dispman_buffer *b = dispman_buffer_import_dmabuf(f->dev, &desc);
	assert_non_null(b);
	assert_int_equal(buffer_handle(a, 0), buffer_handle(b, 0));
	dispman_buffer_unref(b);
	/* The handle stays open for A. */
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_gem_handles, 1);
	assert_int_equal(c.live_fbs, 1);
	assert_true(fcntl(mem, F_GETFD) >= 0);

	/* Written through the caller's fd, read through the buffer after closing it. */
	uint32_t px = 0x00c0ffee;
	assert_int_equal(pwrite(mem, &px, sizeof(px), 0), (ssize_t)sizeof(px));
	close(mem);
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(a, &data, &stride), 0);
	assert_int_equal(stride, PITCH);
	assert_int_equal(*(uint32_t *)data, px);
	dispman_buffer_unref(a);
	unit_assert_no_live_objects();
}

/* Two planes in one dma-buf (the common NV12 layout) share one handle: closed once. A device
 * with an NV12 plane takes it. */
static void test_import_nv12_one_fd(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_NV12 };
	unit_build_plain_device();
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_OVERLAY,
		.formats = formats,
		.num_formats = 2,
	});
	unit_open_device(f);
	int mem = unit_memfd((size_t)W * H * 3 / 2);
	struct dispman_dmabuf_desc desc = {
		.width = W, .height = H, .fourcc = DRM_FORMAT_NV12,
		.modifier = DRM_FORMAT_MOD_INVALID, .n_planes = 2, .fds = { mem, mem },
		.offsets = { 0, W * H }, .pitches = { W, W },
	};
	struct dispman_buffer *buf = dispman_buffer_import_dmabuf(f->dev, &desc);
	assert_non_null(buf);
	assert_int_equal(buffer_handle(buf, 0), buffer_handle(buf, 1));
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_gem_handles, 1);
	/* dispman_buffer_map() maps single-plane buffers; each plane maps on its own, the
	 * chroma plane in the same mapping as the luma (one dma-buf, one handle) */
	assert_int_equal(dispman_buffer_map(buf, NULL, NULL), -ENOTSUP);
	assert_error_logged("single-plane");
	uint8_t *y, *uv;
	assert_int_equal(dispman_buffer_map_plane(buf, 0, (void **)&y, NULL), 0);
	assert_int_equal(dispman_buffer_map_plane(buf, 1, (void **)&uv, NULL), 0);
	assert_ptr_equal(uv, y + W * H);
	dispman_buffer_unref(buf);
	unit_assert_no_live_objects();

	/* One byte short for the chroma plane. */
	desc.offsets[1] = W * H + 1;
	unit_log_clear();
	errno = 0;
	assert_null(dispman_buffer_import_dmabuf(f->dev, &desc));
	assert_int_equal(errno, EINVAL);
	assert_error_logged("plane 1 needs");
	close(mem);
}

/*
 * A multi-planar dumb buffer (param: the fourcc): one dumb object, the planes one after the
 * other with one pitch, each mapped by dispman_buffer_map_plane() inside that object;
 * dispman_buffer_map() refuses it, saying why.
 */
static const uint32_t planar_formats[] = { DRM_FORMAT_NV12, DRM_FORMAT_YUV420 };

static void test_dumb_planar(void **state)
{
	struct unit_fixture *f = *state;
	uint32_t fourcc = *(const uint32_t *)f->param;
	const struct format_info *fi = format_info_find(fourcc);
	struct dispman_buffer *buf = dispman_buffer_create_dumb(f->dev, W + 1, H + 1, fourcc);
	assert_non_null(buf);
	assert_int_equal(dispman_buffer_get_plane_count(buf), fi->n_planes);
	struct mock_drm_fb_info fb = { 0 };
	assert_true(mock_drm_get_fb(dispman_buffer_get_fb_id(buf), &fb));
	assert_int_equal(fb.num_planes, fi->n_planes);
	uint8_t *prev_end = NULL;
	for (unsigned p = 0; p < fi->n_planes; p++) {
		void *data = NULL;
		uint32_t stride = 0;
		assert_int_equal(dispman_buffer_map_plane(buf, p, &data, &stride), 0);
		assert_int_equal(stride, fb.pitches[p]);
		assert_int_equal(stride, fb.pitches[0]);
		assert_true(stride >= W + 1);
		assert_int_equal(buffer_handle(buf, p), buffer_handle(buf, 0));
		uint32_t rows = p ? (H + 1 + fi->vsub - 1) / fi->vsub : H + 1;
		if (prev_end)
			assert_ptr_equal(data, prev_end); /* right after the previous plane */
		memset(data, 0x5a, (size_t)stride * rows); /* every row of it is writable */
		prev_end = (uint8_t *)data + (size_t)stride * rows;
	}
	unit_log_clear();
	assert_int_equal(dispman_buffer_map(buf, NULL, NULL), -ENOTSUP);
	assert_error_logged("dispman_buffer_map_plane");
	assert_int_equal(dispman_buffer_map_plane(buf, fi->n_planes, NULL, NULL), -EINVAL);
	assert_error_logged("plane");
	assert_int_equal(dispman_buffer_map_plane(NULL, 0, NULL, NULL), -EINVAL);
	assert_error_logged("buf is NULL");
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_dumb_buffers, 1);
	dispman_buffer_unref(buf);
	unit_assert_no_live_objects();
}

/* An NV12 import with one dma-buf per plane (V4L2's NV12M): each plane is mapped from its
 * own fd, and reads what was written there. */
static void test_map_planes_two_fds(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_NV12 };
	unit_build_plain_device();
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_OVERLAY,
		.formats = formats,
		.num_formats = 2,
	});
	unit_open_device(f);
	int luma = unit_memfd((size_t)W * H), chroma = unit_memfd((size_t)W * H / 2 + 64);
	struct dispman_dmabuf_desc desc = {
		.width = W, .height = H, .fourcc = DRM_FORMAT_NV12,
		.modifier = DRM_FORMAT_MOD_INVALID, .n_planes = 2, .fds = { luma, chroma },
		.offsets = { 0, 64 }, .pitches = { W, W },
	};
	struct dispman_buffer *buf = dispman_buffer_import_dmabuf(f->dev, &desc);
	assert_non_null(buf);
	assert_int_not_equal(buffer_handle(buf, 0), buffer_handle(buf, 1));
	assert_int_equal(pwrite(luma, "Y", 1, 0), 1);
	assert_int_equal(pwrite(chroma, "UV", 2, 64), 2);
	uint8_t *y = NULL, *uv = NULL;
	uint32_t ys = 0, uvs = 0;
	assert_int_equal(dispman_buffer_map_plane(buf, 1, (void **)&uv, &uvs), 0);
	assert_int_equal(dispman_buffer_map_plane(buf, 0, (void **)&y, &ys), 0);
	assert_int_equal(ys, W);
	assert_int_equal(uvs, W);
	assert_memory_equal(y, "Y", 1);
	assert_memory_equal(uv, "UV", 2);
	dispman_buffer_unref(buf);
	unit_assert_no_live_objects();
	close(luma);
	close(chroma);
}

/* ---- failures injected half-way ---- */

enum inject_kind { INJECT_DUMB, INJECT_IMPORT, INJECT_IMPORT_NV12 };

struct inject_case {
	const char *name;
	enum inject_kind kind;
	const char *func;
	int nth;
	int err;
	bool succeeds;                  /* a fallback makes the creation succeed anyway */
	const char *log;
};

static const struct inject_case inject_cases[] = {
	{ "buffer@inject-dumb-create", INJECT_DUMB, "DRM_IOCTL_MODE_CREATE_DUMB", 1, ENOMEM,
		false, "CREATE_DUMB" },
	/* MAP_DUMB failing is not fatal: the buffer is mapped through its dma-buf. */
	{ "buffer@inject-dumb-map", INJECT_DUMB, "DRM_IOCTL_MODE_MAP_DUMB", 1, ENOMEM, true,
		NULL },
	{ "buffer@inject-dumb-prime-export", INJECT_DUMB, "drmPrimeHandleToFD", 1, EMFILE,
		false, "cannot map dumb buffer" },
	{ "buffer@inject-dumb-addfb", INJECT_DUMB, "drmModeAddFB2", 1, ENOSPC, false, "AddFB2" },
	{ "buffer@inject-import-prime", INJECT_IMPORT, "drmPrimeFDToHandle", 1, ENOMEM, false,
		"PRIME import of plane 0" },
	{ "buffer@inject-import-addfb", INJECT_IMPORT, "drmModeAddFB2", 1, EINVAL, false,
		"AddFB2" },
	{ "buffer@inject-import-addfb-modifiers", INJECT_IMPORT, "drmModeAddFB2WithModifiers", 1,
		ENOMEM, false, "AddFB2" },
	{ "buffer@inject-import-second-plane", INJECT_IMPORT_NV12, "drmPrimeFDToHandle", 2, EIO,
		false, "PRIME import of plane 1" },
};

static void test_inject(void **state)
{
	struct unit_fixture *f = *state;
	const struct inject_case *tc = f->param;
	if (tc->kind == INJECT_IMPORT_NV12) {
		static const uint32_t formats[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_NV12 };
		dispman_device_destroy(f->dev);
		mock_drm_add_plane(&(struct mock_drm_plane_info){
			.type = DRM_PLANE_TYPE_OVERLAY,
			.formats = formats,
			.num_formats = 2,
		});
		unit_open_device(f);
	}
	int mem[2] = { unit_memfd(SIZE), unit_memfd(SIZE) };
	struct dispman_dmabuf_desc desc = XR24_DESC(.fds = { mem[0] });
	if (strstr(tc->func, "Modifiers"))
		desc.modifier = DRM_FORMAT_MOD_LINEAR;
	if (tc->kind == INJECT_IMPORT_NV12)
		desc = (struct dispman_dmabuf_desc){
			.width = W, .height = H, .fourcc = DRM_FORMAT_NV12,
			.modifier = DRM_FORMAT_MOD_INVALID, .n_planes = 2, .fds = { mem[0], mem[1] },
			.pitches = { W, W },
		};
	int fds_before = unit_count_fds();
	unit_log_clear();
	mock_drm_fail_nth(tc->func, tc->nth, tc->err);
	errno = 0;
	struct dispman_buffer *buf = tc->kind == INJECT_DUMB ?
		dispman_buffer_create_dumb(f->dev, W, H, DRM_FORMAT_XRGB8888) :
		dispman_buffer_import_dmabuf(f->dev, &desc);
	if (tc->succeeds) {
		assert_non_null(buf);
		void *data;
		assert_int_equal(dispman_buffer_map(buf, &data, NULL), 0);
		dispman_buffer_unref(buf);
	} else {
		assert_null(buf);
		assert_int_equal(errno, tc->err);
		assert_true(unit_log_find(DISPMAN_LOG_ERROR, tc->log));
	}
	unit_assert_no_live_objects();
	assert_int_equal(unit_count_fds(), fds_before);
	close(mem[0]);
	close(mem[1]);
}

/* ---- export ---- */

static void test_export(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *dumb = unit_pattern_buffer(f->dev, W, H, DRM_FORMAT_XRGB8888,
		0x123456);
	int fd = -1;
	assert_int_equal(dispman_buffer_export_dmabuf(dumb, &fd), 0);
	assert_true(fd >= 0);
	/* A new fd every time, the caller's to close. */
	int fd2 = -1;
	assert_int_equal(dispman_buffer_export_dmabuf(dumb, &fd2), 0);
	assert_int_not_equal(fd, fd2);
	close(fd2);

	/* Imported as another buffer: same pixels. */
	uint32_t stride;
	void *src;
	assert_int_equal(dispman_buffer_map(dumb, &src, &stride), 0);
	struct dispman_dmabuf_desc desc = XR24_DESC(.fds = { fd }, .pitches = { stride });
	struct dispman_buffer *copy = dispman_buffer_import_dmabuf(f->dev, &desc);
	assert_non_null(copy);
	close(fd);
	void *dst;
	assert_int_equal(dispman_buffer_map(copy, &dst, NULL), 0);
	assert_memory_equal(src, dst, (size_t)stride * H);

	/* An imported buffer exports a duplicate of its own fd. */
	assert_int_equal(dispman_buffer_export_dmabuf(copy, &fd), 0);
	assert_int_not_equal(fd, buffer_fd(copy, 0));
	struct stat a, b;
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(fstat(buffer_fd(copy, 0), &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	close(fd);

	/* The copy got the dumb buffer's own handle back (one handle per object): freeing the
	 * copy must not close it under the dumb buffer. */
	assert_int_equal(buffer_handle(copy, 0), buffer_handle(dumb, 0));
	struct dispman_buffer *copy2 = dispman_buffer_import_dmabuf(f->dev, &desc);
	assert_null(copy2); /* desc.fds[0] was closed above */
	assert_int_equal(errno, EBADF);

	assert_int_equal(dispman_buffer_export_dmabuf(copy, NULL), -EINVAL);
	assert_int_equal(dispman_buffer_export_dmabuf(NULL, &fd), -EINVAL);

	/* Injected PRIME failure: the errno comes back, with a log line. */
	unit_log_clear();
	mock_drm_fail_next("drmPrimeHandleToFD", EMFILE);
	assert_int_equal(dispman_buffer_export_dmabuf(dumb, &fd), -EMFILE);
	assert_error_logged("PRIME export failed");

	dispman_buffer_unref(copy);
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_gem_handles, 1);
	assert_int_equal(c.live_dumb_buffers, 1);
	assert_int_equal(dispman_buffer_export_dmabuf(dumb, &fd), 0); /* still works */
	close(fd);
	dispman_buffer_unref(dumb);
}

/* Buffers that outlive their device lose their kernel objects and can only be unref'ed. */
static void test_orphaned(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *buf = dispman_buffer_create_dumb(f->dev, W, H,
		DRM_FORMAT_XRGB8888);
	assert_non_null(buf);
	dispman_device_destroy(f->dev);
	f->dev = NULL;
	assert_true(unit_log_find(DISPMAN_LOG_WARNING, "still referenced at device destruction"));
	unit_assert_no_live_objects();
	assert_int_equal(dispman_buffer_get_fb_id(buf), 0);
	int fd;
	unit_log_clear();
	assert_int_equal(dispman_buffer_export_dmabuf(buf, &fd), -ENODEV);
	assert_error_logged("device is gone");
	dispman_buffer_unref(buf);
}

/* ---- references and release ---- */

static void test_ref_unref(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *buf = dispman_buffer_create_dumb(f->dev, W, H,
		DRM_FORMAT_XRGB8888);
	assert_ptr_equal(dispman_buffer_ref(buf), buf);
	dispman_buffer_unref(buf);
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_fbs, 1);
	assert_null(dispman_buffer_ref(NULL));
	dispman_buffer_unref(buf);
	unit_assert_no_live_objects();
}

/* A buffer stays alive while on screen and is released (callback, then freed) only after the
 * flip that replaced it completed. */
static void test_release_after_flip(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_release_log rel = { 0 };
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_buffer *a = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888,
		0xff0000);
	struct dispman_buffer *b = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888,
		0x00ff00);
	dispman_buffer_set_release_callback(a, unit_record_release, &rel);
	dispman_buffer_set_release_callback(b, unit_record_release, &rel);
	uint32_t fb_a = dispman_buffer_get_fb_id(a), fb_b = dispman_buffer_get_fb_id(b);

	mock_drm_set_flip_delay(true);
	assert_int_equal(dispman_output_set_buffer(f->out, a), 0);
	dispman_buffer_unref(a); /* the output holds its own reference */
	assert_int_equal(dispman_device_commit(f->dev), 0); /* a blocking modeset */
	assert_true(unit_drain(f->dev) >= 1);
	uint64_t v;
	assert_true(mock_drm_get_prop(MOCK_VKMS_PRIMARY, "FB_ID", &v));
	assert_int_equal(v, fb_a);
	assert_int_equal(rel.n, 0);

	/* B replaces A with a page flip that the mock holds. */
	assert_int_equal(dispman_output_set_buffer(f->out, b), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_true(mock_drm_get_prop(MOCK_VKMS_PRIMARY, "FB_ID", &v));
	assert_int_equal(v, fb_b);
	assert_int_equal(dispman_device_dispatch(f->dev, 20), 0);
	assert_int_equal(rel.n, 0);
	struct mock_drm_fb_info fb;
	assert_true(mock_drm_get_fb(fb_a, &fb)); /* still alive: the flip is pending */

	assert_int_equal(mock_drm_release_flips(), 1);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(rel.n, 1);
	assert_ptr_equal(rel.bufs[0], a);
	assert_false(mock_drm_get_fb(fb_a, &fb)); /* the last reference went with the flip */
	assert_true(mock_drm_get_fb(fb_b, &fb));

	/* B stays while the caller holds it after the output dropped it. */
	assert_int_equal(dispman_output_set_buffer(f->out, NULL), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(mock_drm_release_flips(), 1);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(rel.n, 2);
	assert_ptr_equal(rel.bufs[1], b);
	assert_true(mock_drm_get_fb(fb_b, &fb));
	dispman_buffer_unref(b);
	assert_false(mock_drm_get_fb(fb_b, &fb));
}

static int count_released(const struct unit_release_log *rel, const struct dispman_buffer *b)
{
	int n = 0;
	for (int i = 0; i < rel->n && i < 8; i++)
		n += rel->bufs[i] == b;
	return n;
}

/*
 * One buffer on two outputs (a mirrored scene): released once, when the second output's
 * flip replaces it, not at the first's; and once when both flips come in one dispatch.
 */
static void test_release_mirrored(void **state)
{
	struct unit_fixture *f = *state;
	drmModeModeInfo m = mock_drm_mode(640, 480, 60, true);
	uint32_t crtc[2];
	unit_add_two_heads((drmModeModeInfo[2]){ m, m }, crtc, NULL);
	unit_open_device(f);
	struct dispman_output *o[2] = { dispman_device_get_output(f->dev, 0),
		dispman_device_get_output(f->dev, 1) };
	struct unit_release_log rel = { 0 };
	struct dispman_buffer *b = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888, 1);
	struct dispman_buffer *c = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888, 2);
	dispman_buffer_set_release_callback(b, unit_record_release, &rel);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(dispman_output_enable(o[i], NULL), 0);
		assert_int_equal(dispman_output_set_buffer(o[i], b), 0);
	}
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 2);
	mock_drm_set_flip_delay(true);

	/* the first output lets it go: the second still shows it */
	assert_int_equal(dispman_output_set_buffer(o[0], c), 0);
	assert_int_equal(dispman_output_commit(o[0]), 0);
	assert_int_equal(mock_drm_release_crtc_flips(crtc[0]), 1);
	assert_int_equal(unit_dispatch(f->dev, 1000), 1);
	assert_int_equal(count_released(&rel, b), 0);
	/* the second too: released now, once */
	assert_int_equal(dispman_output_set_buffer(o[1], c), 0);
	assert_int_equal(dispman_output_commit(o[1]), 0);
	assert_int_equal(mock_drm_release_crtc_flips(crtc[1]), 1);
	assert_int_equal(unit_dispatch(f->dev, 1000), 1);
	assert_int_equal(count_released(&rel, b), 1);

	/* on both again, then off both in one commit whose flips are read together */
	for (int i = 0; i < 2; i++)
		assert_int_equal(dispman_output_set_buffer(o[i], b), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	mock_drm_release_flips();
	unit_drain(f->dev);
	for (int i = 0; i < 2; i++)
		assert_int_equal(dispman_output_set_buffer(o[i], c), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(mock_drm_release_flips(), 2);
	unit_drain(f->dev);
	assert_int_equal(count_released(&rel, b), 2);

	/* on both, one output disabled: not released while the other shows it */
	for (int i = 0; i < 2; i++)
		assert_int_equal(dispman_output_set_buffer(o[i], b), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	mock_drm_release_flips();
	unit_drain(f->dev);
	assert_int_equal(dispman_output_disable(o[1]), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	mock_drm_release_flips();
	unit_drain(f->dev);
	assert_int_equal(count_released(&rel, b), 2);
	mock_drm_set_flip_delay(false);
	dispman_buffer_unref(b);
	dispman_buffer_unref(c);
	/* the device's end takes it off the first output: released then, once */
	dispman_device_destroy(f->dev);
	f->dev = NULL;
	assert_int_equal(count_released(&rel, b), 3);
}

/* Showing the same buffer again does not release it. */
static void test_same_buffer_not_released(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_release_log rel = { 0 };
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_buffer *a = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, 0);
	dispman_buffer_set_release_callback(a, unit_record_release, &rel);
	assert_int_equal(dispman_output_set_buffer(f->out, a), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(unit_drain(f->dev), 1);
	}
	assert_int_equal(rel.n, 0);
	dispman_buffer_unref(a);
	/* Destroying the device takes it off the screen: released then. */
	dispman_device_destroy(f->dev);
	f->dev = NULL;
	assert_int_equal(rel.n, 1);
	assert_ptr_equal(rel.bufs[0], a);
}

/* A buffer of another device is refused. */
static void test_other_device(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_device *other = dispman_device_create_for_fd(f->mock_fd);
	assert_non_null(other);
	struct dispman_buffer *buf = dispman_buffer_create_dumb(other, W, H, DRM_FORMAT_XRGB8888);
	assert_non_null(buf);
	assert_int_equal(dispman_output_set_buffer(f->out, buf), -EINVAL);
	assert_error_logged("another device");
	dispman_buffer_unref(buf);
	dispman_device_destroy(other);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest fixed[] = {
		{ "buffer@import-no-desc", test_import_no_desc, unit_setup_vkms, unit_teardown,
			NULL },
		{ "buffer@import-fd-not-taken", test_import_fd_not_taken, unit_setup_vkms,
			unit_teardown, NULL },
		{ "buffer@import-nv12-one-fd", test_import_nv12_one_fd, unit_setup_empty,
			unit_teardown, NULL },
		{ "buffer@map-planes-two-fds", test_map_planes_two_fds, unit_setup_empty,
			unit_teardown, NULL },
		{ "buffer@dumb-nv12", test_dumb_planar, unit_setup_vkms, unit_teardown,
			(void *)&planar_formats[0] },
		{ "buffer@dumb-yuv420", test_dumb_planar, unit_setup_vkms, unit_teardown,
			(void *)&planar_formats[1] },
		{ "buffer@export", test_export, unit_setup_vkms, unit_teardown, NULL },
		{ "buffer@orphaned", test_orphaned, unit_setup_vkms, unit_teardown, NULL },
		{ "buffer@ref-unref", test_ref_unref, unit_setup_vkms, unit_teardown, NULL },
		{ "buffer@release-after-flip", test_release_after_flip, unit_setup_vkms,
			unit_teardown, NULL },
		{ "buffer@same-buffer-not-released", test_same_buffer_not_released,
			unit_setup_vkms, unit_teardown, NULL },
		{ "buffer@other-device", test_other_device, unit_setup_vkms, unit_teardown, NULL },
		{ "buffer@release-mirrored", test_release_mirrored, unit_setup_empty,
			unit_teardown, NULL },
	};
	enum {
		N_DUMB = UNIT_ARRAY_LEN(dumb_cases),
		N_IMPORT = UNIT_ARRAY_LEN(import_cases),
		N_INJECT = UNIT_ARRAY_LEN(inject_cases),
		N = UNIT_ARRAY_LEN(fixed) + N_DUMB + N_IMPORT + N_INJECT,
	};
	struct CMUnitTest tests[N];
	size_t n = 0;
	for (size_t i = 0; i < UNIT_ARRAY_LEN(fixed); i++)
		tests[n++] = fixed[i];
	for (size_t i = 0; i < N_DUMB; i++)
		tests[n++] = (struct CMUnitTest){ dumb_cases[i].name, test_dumb,
			unit_setup_vkms, unit_teardown, (void *)&dumb_cases[i] };
	for (size_t i = 0; i < N_IMPORT; i++)
		tests[n++] = (struct CMUnitTest){ import_cases[i].name, test_import,
			unit_setup_vkms, unit_teardown, (void *)&import_cases[i] };
	for (size_t i = 0; i < N_INJECT; i++)
		tests[n++] = (struct CMUnitTest){ inject_cases[i].name, test_inject,
			unit_setup_vkms, unit_teardown, (void *)&inject_cases[i] };
	return unit_main("buffer", tests, n, argc, argv);
}
