/*
 * Self-test of the mock libdrm: the KMS API rules it claims to enforce, its scripted
 * verdicts, its buffers and events, and its leak counters. The unit tests trust the mock
 * only as far as this goes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <drm_fourcc.h>
#include <linux/dma-buf.h>

#include "mock-drm.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_RES 16

struct fixture {
	int fd;
	uint32_t fbs[MAX_RES];
	int num_fbs;
	uint32_t handles[MAX_RES];
	int num_handles;
	uint32_t blobs[MAX_RES];
	int num_blobs;
	uint32_t mode_blob;
	uint32_t primary_fb;
	const struct commit_case *tc;   /* commit@ tests only */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->tc = *state;                 /* the initial state of commit@ tests */
	mock_drm_setup_vkms_like();
	f->fd = mock_drm_open();
	assert_true(f->fd >= 0);
	assert_int_equal(drmSetClientCap(f->fd, DRM_CLIENT_CAP_ATOMIC, 1), 0);
	assert_int_equal(drmSetClientCap(f->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	for (int i = 0; i < f->num_fbs; i++)
		drmModeRmFB(f->fd, f->fbs[i]);
	for (int i = 0; i < f->num_handles; i++)
		drmCloseBufferHandle(f->fd, f->handles[i]);
	for (int i = 0; i < f->num_blobs; i++)
		drmModeDestroyPropertyBlob(f->fd, f->blobs[i]);
	close(f->fd);
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_fbs, 0);
	assert_int_equal(c.live_blobs, 0);
	assert_int_equal(c.live_gem_handles, 0);
	assert_int_equal(c.live_dumb_buffers, 0);
	assert_int_equal(c.live_buffers, 0);
	assert_int_equal(mock_drm_live_objects(), 0);
	mock_drm_reset();
	free(f);
	return 0;
}

static uint32_t dumb(struct fixture *f, uint32_t w, uint32_t h, uint32_t bpp, uint32_t *pitch)
{
	struct drm_mode_create_dumb create = { .width = w, .height = h, .bpp = bpp };
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create), 0);
	f->handles[f->num_handles++] = create.handle;
	*pitch = create.pitch;
	return create.handle;
}

static uint32_t make_fb(struct fixture *f, uint32_t w, uint32_t h, uint32_t format)
{
	uint32_t bpp = format == DRM_FORMAT_RGB565 ? 16 :
		format == DRM_FORMAT_XRGB16161616 || format == DRM_FORMAT_ARGB16161616 ? 64 : 32;
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 }, id = 0;
	handles[0] = dumb(f, w, h, bpp, &pitches[0]);
	assert_int_equal(drmModeAddFB2(f->fd, w, h, format, handles, pitches, offsets, &id, 0), 0);
	f->fbs[f->num_fbs++] = id;
	return id;
}

static uint32_t make_blob(struct fixture *f, const void *data, size_t len)
{
	uint32_t id = 0;
	assert_int_equal(drmModeCreatePropertyBlob(f->fd, data, len, &id), 0);
	f->blobs[f->num_blobs++] = id;
	return id;
}

static void add(drmModeAtomicReqPtr req, uint32_t obj, const char *name, uint64_t value)
{
	uint32_t prop = mock_drm_prop_id(obj, name);
	assert_int_not_equal(prop, 0);
	assert_true(drmModeAtomicAddProperty(req, obj, prop, value) > 0);
}

static void add_plane(drmModeAtomicReqPtr req, uint32_t plane, uint32_t fb, uint32_t crtc,
	int32_t x, int32_t y, uint32_t w, uint32_t h, uint32_t sw, uint32_t sh)
{
	add(req, plane, "FB_ID", fb);
	add(req, plane, "CRTC_ID", crtc);
	add(req, plane, "CRTC_X", (uint64_t)(int64_t)x);
	add(req, plane, "CRTC_Y", (uint64_t)(int64_t)y);
	add(req, plane, "CRTC_W", w);
	add(req, plane, "CRTC_H", h);
	add(req, plane, "SRC_X", 0);
	add(req, plane, "SRC_Y", 0);
	add(req, plane, "SRC_W", (uint64_t)sw << 16);
	add(req, plane, "SRC_H", (uint64_t)sh << 16);
}

static int commit(struct fixture *f, drmModeAtomicReqPtr req, uint32_t flags)
{
	int ret = drmModeAtomicCommit(f->fd, req, flags, f);
	drmModeAtomicFree(req);
	return ret;
}

/* Lights the Virtual connector at 1024x768 with an XR24 primary. */
static void enable_output(struct fixture *f)
{
	drmModeConnectorPtr conn = drmModeGetConnector(f->fd, MOCK_VKMS_VIRTUAL);
	assert_non_null(conn);
	assert_true(conn->count_modes > 0);
	assert_true(conn->modes[0].type & DRM_MODE_TYPE_PREFERRED);
	f->mode_blob = make_blob(f, &conn->modes[0], sizeof(conn->modes[0]));
	drmModeFreeConnector(conn);
	f->primary_fb = make_fb(f, 1024, 768, DRM_FORMAT_XRGB8888);

	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_CRTC, "ACTIVE", 1);
	add(req, MOCK_VKMS_CRTC, "MODE_ID", f->mode_blob);
	add(req, MOCK_VKMS_VIRTUAL, "CRTC_ID", MOCK_VKMS_CRTC);
	add_plane(req, MOCK_VKMS_PRIMARY, f->primary_fb, MOCK_VKMS_CRTC, 0, 0, 1024, 768, 1024,
		768);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), 0);
}

/* ---- table-driven commits on the vkms-like device --------------------------------- */

/* Values resolved at run time. */
#define V_FB_XR24 (1ull << 40)          /* 1024x768 XR24 */
#define V_FB_AR24 (2ull << 40)          /* 64x64 AR24 */
#define V_FB_BIG (3ull << 40)           /* 600x600 AR24 */
#define V_MODE_800 (4ull << 40)         /* an 800x600 MODE_ID blob */
#define V_CRTC (5ull << 40)

struct item {
	uint32_t obj;
	const char *prop;
	uint64_t value;
};

struct commit_case {
	const char *name;
	uint32_t flags;
	int expected;                   /* 0 or a negative errno */
	struct item items[24];  /* ends with an item whose obj is 0 */
};

#define PLANE(p, fb, x, y, w, h, sw, sh)                                                 \
	{ p, "FB_ID", fb }, { p, "CRTC_ID", V_CRTC }, { p, "CRTC_X", (uint64_t)(x) },       \
	{ p, "CRTC_Y", (uint64_t)(y) }, { p, "CRTC_W", w }, { p, "CRTC_H", h },             \
	{ p, "SRC_W", (sw) << 16 }, { p, "SRC_H", (sh) << 16 }

static const struct commit_case commit_cases[] = {
	{ .name = "overlay-valid", .expected = 0,
	  .items = { PLANE(MOCK_VKMS_OVERLAY(0), V_FB_AR24, 10, 10, 64, 64, 64ull, 64ull) } },
	{ .name = "overlay-test-only", .flags = DRM_MODE_ATOMIC_TEST_ONLY, .expected = 0,
	  .items = { PLANE(MOCK_VKMS_OVERLAY(7), V_FB_AR24, 10, 10, 64, 64, 64ull, 64ull) } },
	{ .name = "overlay-fb-without-crtc", .expected = -EINVAL,
	  .items = { { MOCK_VKMS_OVERLAY(1), "FB_ID", V_FB_AR24 } } },
	{ .name = "cursor-valid", .expected = 0,
	  .items = { PLANE(MOCK_VKMS_CURSOR, V_FB_AR24, -10, -10, 64, 64, 64ull, 64ull) } },
	/* A driver's policy is not modelled: vkms would refuse these four, the mock takes
	 * them unless a test scripts the refusal (test_scripted_verdicts). */
	{ .name = "policy-scaled-overlay", .expected = 0,
	  .items = { PLANE(MOCK_VKMS_OVERLAY(0), V_FB_AR24, 0, 0, 128, 128, 64ull, 64ull) } },
	{ .name = "policy-primary-not-covering", .expected = 0,
	  .items = { { MOCK_VKMS_PRIMARY, "CRTC_W", 512 },
		     { MOCK_VKMS_PRIMARY, "SRC_W", 512 << 16 } } },
	{ .name = "policy-big-cursor", .expected = 0,
	  .items = { PLANE(MOCK_VKMS_CURSOR, V_FB_BIG, 0, 0, 600, 600, 600ull, 600ull) } },
	{ .name = "policy-writeback-virtual-clone",
	  .flags = DRM_MODE_ATOMIC_ALLOW_MODESET | DRM_MODE_ATOMIC_TEST_ONLY, .expected = 0,
	  .items = { { MOCK_VKMS_WRITEBACK, "CRTC_ID", V_CRTC } } },
	{ .name = "modeset-without-allow", .expected = -EINVAL,
	  .items = { { MOCK_VKMS_CRTC, "MODE_ID", V_MODE_800 } } },
	{ .name = "modeset-with-allow", .flags = DRM_MODE_ATOMIC_ALLOW_MODESET, .expected = 0,
	  .items = { { MOCK_VKMS_CRTC, "MODE_ID", V_MODE_800 } } },
	{ .name = "disable-without-allow", .expected = -EINVAL,
	  .items = { { MOCK_VKMS_CRTC, "ACTIVE", 0 } } },
	{ .name = "immutable-type", .expected = -EINVAL,
	  .items = { { MOCK_VKMS_OVERLAY(0), "type", DRM_PLANE_TYPE_PRIMARY } } },
	{ .name = "dpms-not-atomic", .expected = -EINVAL,
	  .items = { { MOCK_VKMS_VIRTUAL, "DPMS", DRM_MODE_DPMS_OFF } } },
	{ .name = "unknown-object", .expected = -ENOENT,
	  .items = { { MOCK_VKMS_CRTC + 5, NULL, 0 } } },
	{ .name = "event-with-test-only",
	  .flags = DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_EVENT, .expected = -EINVAL,
	  .items = { { MOCK_VKMS_CRTC, "ACTIVE", 1 } } },
	{ .name = "active-out-of-range", .expected = -EINVAL,
	  .items = { { MOCK_VKMS_CRTC, "ACTIVE", 2 } } },
	{ .name = "fb-id-not-an-fb", .expected = -EINVAL,
	  .items = { { MOCK_VKMS_PRIMARY, "FB_ID", MOCK_VKMS_CRTC } } },
};

static uint64_t resolve(struct fixture *f, uint64_t v)
{
	switch (v) {
	case V_FB_XR24: return make_fb(f, 1024, 768, DRM_FORMAT_XRGB8888);
	case V_FB_AR24: return make_fb(f, 64, 64, DRM_FORMAT_ARGB8888);
	case V_FB_BIG: return make_fb(f, 600, 600, DRM_FORMAT_ARGB8888);
	case V_CRTC: return MOCK_VKMS_CRTC;
	case V_MODE_800: {
		drmModeModeInfo m;
		drmModeConnectorPtr conn = drmModeGetConnector(f->fd, MOCK_VKMS_VIRTUAL);
		assert_non_null(conn);
		m = conn->modes[3];
		drmModeFreeConnector(conn);
		assert_int_equal(m.hdisplay, 800);
		return make_blob(f, &m, sizeof(m));
	}
	default: return v;
	}
}

static void test_commit_case(void **state)
{
	struct fixture *f = *state;
	const struct commit_case *tc = f->tc;
	enable_output(f);
	struct mock_drm_counters before, after;
	mock_drm_get_counters(&before);
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	for (const struct item *it = tc->items; it->obj; it++) {
		/* No property name: any property id, for objects that do not exist. */
		uint32_t prop = it->prop ? mock_drm_prop_id(it->obj, it->prop) : 0x05000001;
		assert_int_not_equal(prop, 0);
		drmModeAtomicAddProperty(req, it->obj, prop, resolve(f, it->value));
	}
	int ret = drmModeAtomicCommit(f->fd, req, tc->flags, NULL);
	drmModeAtomicFree(req);
	if (ret != tc->expected)
		fail_msg("case %s: expected %d, got %d (%s)", tc->name, tc->expected, ret,
			mock_drm_last_error());
	mock_drm_get_counters(&after);
	assert_int_equal(after.commits, before.commits + 1);
	bool test = tc->flags & DRM_MODE_ATOMIC_TEST_ONLY;
	assert_int_equal(after.test_commits, before.test_commits + test);
	assert_int_equal(after.applied_commits, before.applied_commits + (!test && !ret));
	assert_int_equal(after.failed_commits, before.failed_commits + (ret != 0));
	/* Rejected and TEST_ONLY commits change nothing. */
	if (ret || test) {
		uint64_t v;
		assert_true(mock_drm_get_prop(MOCK_VKMS_OVERLAY(0), "FB_ID", &v));
		assert_int_equal(v, 0);
		assert_true(mock_drm_get_prop(MOCK_VKMS_OVERLAY(7), "FB_ID", &v));
		assert_int_equal(v, 0);
		assert_true(mock_drm_get_prop(MOCK_VKMS_PRIMARY, "FB_ID", &v));
		assert_int_equal(v, f->primary_fb);
		assert_true(mock_drm_get_prop(MOCK_VKMS_CRTC, "MODE_ID", &v));
		assert_int_equal(v, f->mode_blob);
		assert_true(mock_drm_get_prop(MOCK_VKMS_WRITEBACK, "CRTC_ID", &v));
		assert_int_equal(v, 0);
	}
	/* Turn everything off, so that removing the FBs needs no implicit disable. */
	req = drmModeAtomicAlloc();
	for (uint32_t p = 0; p < 10; p++) {
		add(req, MOCK_VKMS_PRIMARY + p, "FB_ID", 0);
		add(req, MOCK_VKMS_PRIMARY + p, "CRTC_ID", 0);
	}
	add(req, MOCK_VKMS_CRTC, "ACTIVE", 0);
	add(req, MOCK_VKMS_CRTC, "MODE_ID", 0);
	add(req, MOCK_VKMS_VIRTUAL, "CRTC_ID", 0);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), 0);
	assert_int_equal(drmModeDestroyPropertyBlob(f->fd, f->mode_blob), 0);
	f->blobs[0] = f->blobs[--f->num_blobs];
	for (int i = 0; i < f->num_fbs; i++)
		assert_int_equal(drmModeRmFB(f->fd, f->fbs[i]), 0);
	f->num_fbs = 0;
	mock_drm_get_counters(&after);
	assert_int_equal(after.rmfb_disabled_planes, 0);
}

/* ---- buffers ------------------------------------------------------------------------ */

static void test_dumb_prime_roundtrip(void **state)
{
	struct fixture *f = *state;
	struct drm_mode_create_dumb create = { .width = 100, .height = 50, .bpp = 32 };
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create), 0);
	assert_int_equal(create.pitch, 400);    /* vkms: width * cpp */
	assert_true(create.size >= 400 * 50);
	uint32_t handle = create.handle;

	struct drm_mode_map_dumb map = { .handle = handle };
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_MAP_DUMB, &map), 0);
	assert_int_not_equal(map.offset, 0);
	/* The DRM fd is a pipe: mmap fails, the PRIME fd is the way in. */
	assert_true(mmap(NULL, create.size, PROT_READ, MAP_SHARED, f->fd, (off_t)map.offset) ==
		MAP_FAILED);
	int prime = -1;
	assert_int_equal(drmPrimeHandleToFD(f->fd, handle, DRM_CLOEXEC | DRM_RDWR, &prime), 0);
	uint32_t *px = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, prime, 0);
	assert_true(px != MAP_FAILED);
	px[0] = 0xdeadbeef;
	munmap(px, create.size);
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW };
	assert_int_equal(drmIoctl(prime, DMA_BUF_IOCTL_SYNC, &sync), 0);

	/* Importing our own export gives the same handle back, like the kernel. */
	uint32_t again = 0;
	assert_int_equal(drmPrimeFDToHandle(f->fd, prime, &again), 0);
	assert_int_equal(again, handle);

	/* A foreign memfd gets a new handle; importing it twice gives the same one. */
	int mem = memfd_create("foreign", MFD_CLOEXEC);
	assert_true(mem >= 0);
	assert_int_equal(ftruncate(mem, 4096), 0);
	uint32_t h1 = 0, h2 = 0;
	assert_int_equal(drmPrimeFDToHandle(f->fd, mem, &h1), 0);
	int mem2 = dup(mem);
	assert_int_equal(drmPrimeFDToHandle(f->fd, mem2, &h2), 0);
	assert_int_equal(h1, h2);
	assert_int_not_equal(h1, handle);
	close(mem);
	close(mem2);
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_gem_handles, 2);
	assert_int_equal(c.live_dumb_buffers, 1);
	assert_int_equal(c.live_buffers, 2);

	/* Imported objects cannot be dumb-mapped. */
	map.handle = h1;
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_MAP_DUMB, &map), -1);
	assert_int_equal(errno, EINVAL);

	/* Not a dma-buf, a closed fd. */
	int fds[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	assert_int_equal(drmPrimeFDToHandle(f->fd, fds[0], &h2), -1);
	assert_int_equal(errno, EINVAL);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(drmPrimeFDToHandle(f->fd, fds[0], &h2), -1);
	assert_int_equal(errno, EBADF);

	/* The FB keeps the memory alive after the handle is gone. */
	uint32_t handles[4] = { handle }, pitches[4] = { 400 }, offsets[4] = { 0 }, fb = 0;
	assert_int_equal(drmModeAddFB2(f->fd, 100, 50, DRM_FORMAT_XRGB8888, handles, pitches,
		offsets, &fb, 0), 0);
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_DESTROY_DUMB,
		&(struct drm_mode_destroy_dumb){ .handle = handle }), 0);
	assert_int_equal(drmCloseBufferHandle(f->fd, handle), -1);     /* already closed */
	assert_int_equal(errno, EINVAL);
	assert_int_equal(drmCloseBufferHandle(f->fd, h1), 0);
	mock_drm_get_counters(&c);
	assert_int_equal(c.live_gem_handles, 0);
	assert_int_equal(c.live_dumb_buffers, 1);
	assert_int_equal(c.live_fbs, 1);
	/* Re-importing the export while the FB holds the buffer gives a new handle. */
	assert_int_equal(drmPrimeFDToHandle(f->fd, prime, &again), 0);
	assert_int_not_equal(again, handle);
	assert_int_equal(drmCloseBufferHandle(f->fd, again), 0);
	close(prime);
	assert_int_equal(drmModeRmFB(f->fd, fb), 0);
	assert_int_equal(drmModeRmFB(f->fd, fb), -ENOENT);
	assert_int_equal(mock_drm_live_objects(), 0);
}

static void test_addfb_rules(void **state)
{
	struct fixture *f = *state;
	uint32_t pitch;
	uint32_t h = dumb(f, 64, 64, 32, &pitch);
	uint32_t handles[4] = { h }, pitches[4] = { pitch }, offsets[4] = { 0 }, fb = 0;
	uint64_t mods[4] = { DRM_FORMAT_MOD_LINEAR };

	pitches[0] = 64 * 4 - 4;
	assert_int_equal(drmModeAddFB2(f->fd, 64, 64, DRM_FORMAT_XRGB8888, handles, pitches,
		offsets, &fb, 0), -EINVAL);                             /* pitch too small */
	pitches[0] = pitch;
	assert_int_equal(drmModeAddFB2(f->fd, 64, 65, DRM_FORMAT_XRGB8888, handles, pitches,
		offsets, &fb, 0), -EINVAL);                             /* buffer too small */
	assert_int_equal(drmModeAddFB2(f->fd, 64, 64, DRM_FORMAT_NV12, handles, pitches,
		offsets, &fb, 0), -EINVAL);                             /* no chroma handle */
	assert_int_equal(drmModeAddFB2(f->fd, 64, 64, fourcc_code('N', 'O', 'P', 'E'), handles,
		pitches, offsets, &fb, 0), -EINVAL);                    /* unknown format */
	handles[0] = 999;
	assert_int_equal(drmModeAddFB2(f->fd, 64, 64, DRM_FORMAT_XRGB8888, handles, pitches,
		offsets, &fb, 0), -ENOENT);                             /* unknown handle */
	handles[0] = h;
	/* A format or modifier no plane takes is the driver's answer (Linux 6.12 refuses
	 * it, 6.1 did not): taken unless a test injects the refusal. */
	assert_int_equal(drmModeAddFB2(f->fd, 64, 64, DRM_FORMAT_XBGR8888, handles, pitches,
		offsets, &fb, 0), 0);
	f->fbs[f->num_fbs++] = fb;
	mods[0] = I915_FORMAT_MOD_X_TILED;
	assert_int_equal(drmModeAddFB2WithModifiers(f->fd, 64, 64, DRM_FORMAT_XRGB8888, handles,
		pitches, offsets, mods, &fb, DRM_MODE_FB_MODIFIERS), 0);
	f->fbs[f->num_fbs++] = fb;
	mods[0] = DRM_FORMAT_MOD_LINEAR;
	assert_int_equal(drmModeAddFB2WithModifiers(f->fd, 64, 64, DRM_FORMAT_XRGB8888, handles,
		pitches, offsets, mods, &fb, DRM_MODE_FB_MODIFIERS), 0);
	f->fbs[f->num_fbs++] = fb;
	assert_int_equal(fb >> 24, MOCK_DRM_FB);
	struct mock_drm_fb_info info;
	assert_true(mock_drm_get_fb(fb, &info));
	assert_int_equal(info.format, DRM_FORMAT_XRGB8888);
	assert_int_equal(info.pitches[0], 256);
	mock_drm_set_cap(DRM_CAP_ADDFB2_MODIFIERS, 0);
	assert_int_equal(drmModeAddFB2WithModifiers(f->fd, 64, 64, DRM_FORMAT_XRGB8888, handles,
		pitches, offsets, mods, &fb, DRM_MODE_FB_MODIFIERS), -EINVAL);

	/* The default device aligns dumb pitches to 64 bytes. */
	mock_drm_set_dumb_pitch_align(64);
	dumb(f, 100, 10, 32, &pitch);
	assert_int_equal(pitch, 448);
	struct drm_mode_create_dumb bad = { .width = 0, .height = 10, .bpp = 32 };
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_CREATE_DUMB, &bad), -1);
	assert_int_equal(errno, EINVAL);
}

/* ---- events --------------------------------------------------------------------------- */

struct flip_log {
	int count;
	unsigned seq[8], sec[8], usec[8], crtc[8];
};

static void on_flip(int fd, unsigned seq, unsigned sec, unsigned usec, unsigned crtc,
	void *data)
{
	(void)fd;
	struct flip_log *l = *(struct flip_log **)data;
	l->seq[l->count] = seq;
	l->sec[l->count] = sec;
	l->usec[l->count] = usec;
	l->crtc[l->count] = crtc;
	l->count++;
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1;
}

static int flip(struct fixture *f, uint32_t flags, struct flip_log **cookie)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_PRIMARY, "FB_ID", f->primary_fb);
	int ret = drmModeAtomicCommit(f->fd, req, flags, cookie);
	drmModeAtomicFree(req);
	return ret;
}

static void test_page_flip_events(void **state)
{
	struct fixture *f = *state;
	enable_output(f);
	struct flip_log log = { 0 }, *cookie = &log;
	drmEventContext ctx = { .version = 3, .page_flip_handler2 = on_flip };

	assert_false(readable(f->fd));
	assert_int_equal(drmHandleEvent(f->fd, &ctx), 0);       /* nothing: would block */
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.empty_handle_event, 1);

	const uint32_t ev = DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK;
	assert_int_equal(flip(f, ev, &cookie), 0);
	assert_true(readable(f->fd));
	assert_int_equal(flip(f, ev, &cookie), 0);      /* flip completed: no EBUSY */
	assert_int_equal(drmHandleEvent(f->fd, &ctx), 0);
	assert_false(readable(f->fd));
	assert_int_equal(log.count, 2);
	assert_int_equal(log.crtc[0], MOCK_VKMS_CRTC);
	assert_int_equal(log.seq[1], log.seq[0] + 1);
	uint64_t t0 = log.sec[0] * 1000000ull + log.usec[0];
	uint64_t t1 = log.sec[1] * 1000000ull + log.usec[1];
	assert_int_equal(t1 - t0, 1344ull * 806 * 1000 / 65000);       /* 1024x768@60 DMT */

	/* Held flips: not readable, EBUSY for a second nonblocking commit, then released. */
	mock_drm_set_flip_delay(true);
	assert_int_equal(flip(f, ev, &cookie), 0);
	assert_false(readable(f->fd));
	assert_int_equal(flip(f, ev, &cookie), -EBUSY);
	assert_int_equal(flip(f, DRM_MODE_ATOMIC_TEST_ONLY, &cookie), 0);  /* checks only */
	mock_drm_get_counters(&c);
	assert_int_equal(c.pending_flips, 1);
	assert_int_equal(mock_drm_release_flips(), 1);
	assert_true(readable(f->fd));
	assert_int_equal(drmHandleEvent(f->fd, &ctx), 0);
	assert_int_equal(log.count, 3);
	assert_int_equal(log.seq[2], log.seq[1] + 1);

	/* A blocking commit waits for the pending flip instead of failing. */
	assert_int_equal(flip(f, ev, &cookie), 0);
	assert_int_equal(flip(f, DRM_MODE_PAGE_FLIP_EVENT, &cookie), 0);
	assert_int_equal(drmHandleEvent(f->fd, &ctx), 0);
	assert_int_equal(log.count, 5);

	/* CRTC out-fences signal when the flip completes. */
	int32_t fence = 0;
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_CRTC, "OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, ev, &cookie), 0);
	drmModeAtomicFree(req);
	assert_true(fence >= 0);
	assert_false(readable(fence));
	mock_drm_release_flips();
	assert_true(readable(fence));
	close(fence);
	assert_int_equal(drmHandleEvent(f->fd, &ctx), 0);
	assert_int_equal(log.count, 6);
	uint64_t v;
	assert_true(mock_drm_get_prop(MOCK_VKMS_CRTC, "OUT_FENCE_PTR", &v));
	assert_int_equal(v, 0);

	/* An event on a CRTC that is off and stays off is refused. */
	mock_drm_set_flip_delay(false);
	req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_PRIMARY, "FB_ID", 0);
	add(req, MOCK_VKMS_PRIMARY, "CRTC_ID", 0);
	add(req, MOCK_VKMS_CRTC, "ACTIVE", 0);
	add(req, MOCK_VKMS_CRTC, "MODE_ID", 0);
	add(req, MOCK_VKMS_VIRTUAL, "CRTC_ID", 0);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), 0);
	req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_CRTC, "VRR_ENABLED", 0);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, DRM_MODE_PAGE_FLIP_EVENT, NULL), -EINVAL);
	drmModeAtomicFree(req);
}

/* DRM_IOCTL_MODE_ATOMIC through drmIoctl(), as libdispman issues it: the arrays in their
 * order, an object named twice (its last value wins), and the ioctl's own errors as -1
 * with errno. */
static void test_raw_atomic_ioctl(void **state)
{
	struct fixture *f = *state;
	enable_output(f);
	uint32_t fb2 = make_fb(f, 1024, 768, DRM_FORMAT_XRGB8888);
	uint32_t fb_id = mock_drm_prop_id(MOCK_VKMS_PRIMARY, "FB_ID");
	uint32_t crtc_x = mock_drm_prop_id(MOCK_VKMS_PRIMARY, "CRTC_X");
	uint32_t active = mock_drm_prop_id(MOCK_VKMS_CRTC, "ACTIVE");
	uint32_t objs[] = { MOCK_VKMS_PRIMARY, MOCK_VKMS_CRTC, MOCK_VKMS_PRIMARY };
	uint32_t counts[] = { 2, 1, 1 };
	uint32_t props[] = { fb_id, crtc_x, active, fb_id };
	uint64_t values[] = { f->primary_fb, 0, 1, fb2 };
	struct drm_mode_atomic a = {
		.count_objs = 3,
		.objs_ptr = (uintptr_t)objs,
		.count_props_ptr = (uintptr_t)counts,
		.props_ptr = (uintptr_t)props,
		.prop_values_ptr = (uintptr_t)values,
	};
	struct mock_drm_counters c0, c1;
	mock_drm_get_counters(&c0);
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_ATOMIC, &a), 0);
	mock_drm_get_counters(&c1);
	assert_int_equal(c1.commits, c0.commits + 1);
	assert_int_equal(c1.last_items, 4);
	uint64_t v = 0;
	assert_true(mock_drm_get_prop(MOCK_VKMS_PRIMARY, "FB_ID", &v));
	assert_int_equal(v, fb2);

	/* the kernel's answers: a property the object lacks, reserved set */
	props[1] = active; /* ACTIVE on a plane */
	errno = 0;
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_ATOMIC, &a), -1);
	assert_int_equal(errno, ENOENT);
	props[1] = crtc_x;
	a.reserved = 1;
	errno = 0;
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_ATOMIC, &a), -1);
	assert_int_equal(errno, EINVAL);
	a.reserved = 0;
	a.flags = DRM_MODE_ATOMIC_TEST_ONLY;
	mock_drm_fail_next("drmModeAtomicCommit/test", ENOSPC);
	errno = 0;
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_ATOMIC, &a), -1);
	assert_int_equal(errno, ENOSPC);
	values[3] = f->primary_fb; /* leave the first FB on screen for the teardown */
	a.flags = 0;
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_ATOMIC, &a), 0);
}

/* ---- writeback ----------------------------------------------------------------------- */

static uint32_t *map_fb_pixels(struct fixture *f, uint32_t handle, size_t size, int *fd)
{
	assert_int_equal(drmPrimeHandleToFD(f->fd, handle, DRM_CLOEXEC | DRM_RDWR, fd), 0);
	uint32_t *px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	assert_true(px != MAP_FAILED);
	return px;
}

static void test_writeback(void **state)
{
	struct fixture *f = *state;
	enable_output(f);
	const size_t size = 1024 * 768 * 4;

	/* Primary: red. Overlay: 64x64 half-transparent grey. Cursor: 64x64 green, over the
	 * overlay's lower right quarter. The writeback copies them opaque, in stacking order. */
	int pfd, ofd, wfd;
	uint32_t *primary = map_fb_pixels(f, f->handles[0], size, &pfd);
	for (size_t i = 0; i < 1024 * 768; i++)
		primary[i] = 0x00ff0000;        /* XR24: the X byte is ignored */
	uint32_t overlay_fb = make_fb(f, 64, 64, DRM_FORMAT_ARGB8888);
	uint32_t *overlay = map_fb_pixels(f, f->handles[f->num_handles - 1], 64 * 64 * 4, &ofd);
	for (size_t i = 0; i < 64 * 64; i++)
		overlay[i] = 0x80808080;
	uint32_t cursor_fb = make_fb(f, 64, 64, DRM_FORMAT_ARGB8888);
	int cfd;
	uint32_t *cursor = map_fb_pixels(f, f->handles[f->num_handles - 1], 64 * 64 * 4, &cfd);
	for (size_t i = 0; i < 64 * 64; i++)
		cursor[i] = 0x4000ff00;
	uint32_t wb_fb = make_fb(f, 1024, 768, DRM_FORMAT_XRGB8888);
	uint32_t *wb = map_fb_pixels(f, f->handles[f->num_handles - 1], size, &wfd);

	/* The writeback connector alone on the CRTC (vkms would refuse it with Virtual). */
	int32_t fence = 0;
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_VIRTUAL, "CRTC_ID", 0);
	add(req, MOCK_VKMS_WRITEBACK, "CRTC_ID", MOCK_VKMS_CRTC);
	add(req, MOCK_VKMS_WRITEBACK, "WRITEBACK_FB_ID", wb_fb);
	add(req, MOCK_VKMS_WRITEBACK, "WRITEBACK_OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence);
	add_plane(req, MOCK_VKMS_CURSOR, cursor_fb, MOCK_VKMS_CRTC, 132, 232, 64, 64, 64, 64);
	add_plane(req, MOCK_VKMS_OVERLAY(0), overlay_fb, MOCK_VKMS_CRTC, 100, 200, 64, 64, 64, 64);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), 0);
	assert_true(fence >= 0);
	assert_true(readable(fence));
	close(fence);
	assert_int_equal(wb[0] & 0xffffff, 0xff0000);
	assert_int_equal(wb[1023 + 767 * 1024] & 0xffffff, 0xff0000);
	assert_int_equal(wb[(200 + 5) * 1024 + 100 + 5] & 0xffffff, 0x808080);
	assert_int_equal(wb[(200 + 40) * 1024 + 100 + 40] & 0xffffff, 0x00ff00);
	assert_int_equal(wb[(232 + 63) * 1024 + 132 + 63] & 0xffffff, 0x00ff00);
	assert_int_equal(wb[(200 + 64) * 1024 + 100] & 0xffffff, 0xff0000);
	assert_int_equal(wb[(232 + 64) * 1024 + 132] & 0xffffff, 0xff0000);
	uint64_t v;
	assert_true(mock_drm_get_prop(MOCK_VKMS_WRITEBACK, "WRITEBACK_FB_ID", &v));
	assert_int_equal(v, 0);         /* a one-shot job */
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.writebacks, 1);

	/* The API's rule: an out-fence needs an FB. An FB of another size than the mode is
	 * the driver's business (vkms refuses it): taken unless scripted. */
	req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_WRITEBACK, "WRITEBACK_OUT_FENCE_PTR", (uint64_t)(uintptr_t)&fence);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_TEST_ONLY), -EINVAL);
	uint32_t small = make_fb(f, 64, 64, DRM_FORMAT_XRGB8888);
	req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_WRITEBACK, "WRITEBACK_FB_ID", small);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_TEST_ONLY), 0);

	munmap(primary, size);
	munmap(overlay, 64 * 64 * 4);
	munmap(cursor, 64 * 64 * 4);
	munmap(wb, size);
	close(pfd);
	close(ofd);
	close(cfd);
	close(wfd);
}

/* ---- scripted verdicts ------------------------------------------------------------- */

static int commit_overlays(struct fixture *f, uint32_t fb, int n, uint32_t flags)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	for (int i = 0; i < 2; i++) {
		add_plane(req, MOCK_VKMS_OVERLAY(i), i < n ? fb : 0, i < n ? MOCK_VKMS_CRTC : 0,
			10, 10, 64, 64, 64, 64);
	}
	return commit(f, req, flags);
}

static void test_scripted_verdicts(void **state)
{
	struct fixture *f = *state;
	enable_output(f);
	uint32_t fb = make_fb(f, 64, 64, DRM_FORMAT_ARGB8888);
	struct mock_drm_counters c0, c1;

	/* TEST_ONLY with overlays 0 and 1 enabled: ENOSPC; others pass. */
	int bw = mock_drm_script_commit(&(struct mock_drm_match){ .kind = MOCK_DRM_TEST_ONLY,
		.planes = { MOCK_VKMS_OVERLAY(0), MOCK_VKMS_OVERLAY(1) } }, ENOSPC);
	mock_drm_get_counters(&c0);
	assert_int_equal(commit_overlays(f, fb, 1, DRM_MODE_ATOMIC_TEST_ONLY), 0);
	assert_int_equal(commit_overlays(f, fb, 2, DRM_MODE_ATOMIC_TEST_ONLY), -ENOSPC);
	assert_string_equal(mock_drm_last_error(), "scripted verdict 0");
	assert_int_equal(mock_drm_script_hits(bw), 1);
	mock_drm_get_counters(&c1);
	assert_int_equal(c1.failed_commits, c0.failed_commits + 1);
	/* not a TEST_ONLY commit: applied */
	assert_int_equal(commit_overlays(f, fb, 2, 0), 0);
	uint64_t v;
	assert_true(mock_drm_get_prop(MOCK_VKMS_OVERLAY(1), "FB_ID", &v));
	assert_int_equal(v, fb);
	/* the state after the commit counts, not the request: overlay 1 is still on */
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_OVERLAY(0), "CRTC_X", 20);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_TEST_ONLY), -ENOSPC);
	assert_int_equal(mock_drm_script_hits(bw), 2);
	assert_int_equal(commit_overlays(f, fb, 0, 0), 0);

	/* By property values, only real commits, only the second match. */
	int prop = mock_drm_script_commit(&(struct mock_drm_match){
		.kind = MOCK_DRM_REAL_COMMIT, .nth = 2,
		.props = { { MOCK_VKMS_OVERLAY(0), "CRTC_X", 30 },
			   { MOCK_VKMS_OVERLAY(0), "CRTC_Y", 10 } } }, EIO);
	for (int k = 0; k < 4; k++) {
		req = drmModeAtomicAlloc();
		add_plane(req, MOCK_VKMS_OVERLAY(0), fb, MOCK_VKMS_CRTC, 30, 10, 64, 64, 64, 64);
		int want = k == 2 ? -EIO : 0;          /* TEST_ONLY, real, real (2nd), real */
		assert_int_equal(commit(f, req, k == 0 ? DRM_MODE_ATOMIC_TEST_ONLY : 0), want);
	}
	assert_int_equal(mock_drm_script_hits(prop), 1);
	assert_int_equal(mock_drm_script_hits(bw), 2);

	/* Without conditions every commit of its kind; a request that does not parse fails
	 * on its own first. */
	int all = mock_drm_script_commit(&(struct mock_drm_match){ .kind = MOCK_DRM_ANY_COMMIT },
		EINVAL);
	req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_CRTC, "ACTIVE", 2);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_TEST_ONLY), -EINVAL);
	assert_int_equal(mock_drm_script_hits(all), 0);
	assert_int_equal(commit_overlays(f, fb, 0, 0), -EINVAL);
	assert_int_equal(mock_drm_script_hits(all), 1);
	assert_true(mock_drm_get_prop(MOCK_VKMS_OVERLAY(0), "FB_ID", &v));
	assert_int_equal(v, fb);                /* refused: nothing changed */
}

/* ---- properties and resources ----------------------------------------------------- */

static void test_properties(void **state)
{
	struct fixture *f = *state;

	drmModePlaneResPtr pres = drmModeGetPlaneResources(f->fd);
	assert_non_null(pres);
	assert_int_equal(pres->count_planes, 10);
	drmModeFreePlaneResources(pres);

	drmModeResPtr res = drmModeGetResources(f->fd);
	assert_non_null(res);
	assert_int_equal(res->count_crtcs, 1);
	assert_int_equal(res->count_connectors, 2);
	assert_int_equal(res->count_encoders, 2);
	drmModeFreeResources(res);

	drmModeConnectorPtr wbc = drmModeGetConnector(f->fd, MOCK_VKMS_WRITEBACK);
	assert_non_null(wbc);
	assert_int_equal(wbc->connector_type, DRM_MODE_CONNECTOR_WRITEBACK);
	drmModeEncoderPtr enc = drmModeGetEncoder(f->fd, wbc->encoders[0]);
	assert_non_null(enc);
	assert_int_equal(enc->possible_crtcs, 1);
	assert_int_equal(enc->encoder_type, DRM_MODE_ENCODER_VIRTUAL);
	drmModeFreeEncoder(enc);
	drmModeFreeConnector(wbc);

	uint64_t blob_id;
	assert_true(mock_drm_get_prop(MOCK_VKMS_WRITEBACK, "WRITEBACK_PIXEL_FORMATS", &blob_id));
	drmModePropertyBlobPtr blob = drmModeGetPropertyBlob(f->fd, (uint32_t)blob_id);
	assert_non_null(blob);
	assert_int_equal(blob->length, 4 * sizeof(uint32_t));
	assert_int_equal(((uint32_t *)blob->data)[0], DRM_FORMAT_XRGB8888);
	drmModeFreePropertyBlob(blob);
	assert_int_equal(drmModeDestroyPropertyBlob(f->fd, (uint32_t)blob_id), -EPERM);

	drmModePropertyPtr type = drmModeGetProperty(f->fd,
		mock_drm_prop_id(MOCK_VKMS_PRIMARY, "type"));
	assert_non_null(type);
	assert_string_equal(type->name, "type");
	assert_true(type->flags & DRM_MODE_PROP_ENUM);
	assert_true(type->flags & DRM_MODE_PROP_IMMUTABLE);
	assert_int_equal(type->count_enums, 3);
	assert_string_equal(type->enums[1].name, "Primary");
	drmModeFreeProperty(type);

	drmModePropertyPtr fbp = drmModeGetProperty(f->fd,
		mock_drm_prop_id(MOCK_VKMS_PRIMARY, "FB_ID"));
	assert_non_null(fbp);
	assert_true(fbp->flags & DRM_MODE_PROP_OBJECT);
	assert_int_equal(fbp->values[0], DRM_MODE_OBJECT_FB);
	drmModeFreeProperty(fbp);

	/* IN_FORMATS per struct drm_format_modifier_blob: 5 formats, LINEAR each. */
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(f->fd,
		MOCK_VKMS_OVERLAY(3), DRM_MODE_OBJECT_PLANE);
	assert_non_null(props);
	uint32_t in_formats = 0;
	bool has_zpos = false;
	for (uint32_t i = 0; i < props->count_props; i++) {
		drmModePropertyPtr p = drmModeGetProperty(f->fd, props->props[i]);
		assert_non_null(p);
		if (strcmp(p->name, "IN_FORMATS") == 0)
			in_formats = (uint32_t)props->prop_values[i];
		has_zpos |= strcmp(p->name, "zpos") == 0 || strcmp(p->name, "alpha") == 0 ||
			strcmp(p->name, "rotation") == 0;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	assert_false(has_zpos);
	blob = drmModeGetPropertyBlob(f->fd, in_formats);
	assert_non_null(blob);
	drmModeFormatModifierIterator iter = { 0 };
	int n = 0;
	while (drmModeFormatModifierBlobIterNext(blob, &iter)) {
		assert_int_equal(iter.mod, DRM_FORMAT_MOD_LINEAR);
		n++;
	}
	assert_int_equal(n, 5);
	drmModeFreePropertyBlob(blob);

	/* Wrong object types. */
	assert_null(drmModeObjectGetProperties(f->fd, MOCK_VKMS_PRIMARY, DRM_MODE_OBJECT_CRTC));
	assert_int_equal(errno, ENOENT);
	assert_null(drmModeGetCrtc(f->fd, MOCK_VKMS_PRIMARY));
	assert_int_equal(errno, ENOENT);
	assert_null(drmModeGetPlane(f->fd, MOCK_VKMS_CRTC));
	assert_null(drmModeObjectGetProperties(f->fd, 0x03000001, DRM_MODE_OBJECT_ANY));
	assert_int_equal(errno, EINVAL);     /* encoders have no properties */

	/* A fresh client: no atomic, no universal planes, no writeback connectors. */
	mock_drm_setup_vkms_like();
	close(f->fd);
	f->fd = mock_drm_open();
	pres = drmModeGetPlaneResources(f->fd);
	assert_int_equal(pres->count_planes, 8);
	drmModeFreePlaneResources(pres);
	res = drmModeGetResources(f->fd);
	assert_int_equal(res->count_connectors, 1);
	drmModeFreeResources(res);
	props = drmModeObjectGetProperties(f->fd, MOCK_VKMS_PRIMARY, DRM_MODE_OBJECT_PLANE);
	assert_int_equal(props->count_props, 2);        /* type, IN_FORMATS */
	drmModeFreeObjectProperties(props);
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_CRTC, "ACTIVE", 0);
	assert_int_equal(commit(f, req, 0), -EINVAL);
	assert_int_equal(drmSetClientCap(f->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1), -1);

	char *name = drmGetFormatName(DRM_FORMAT_RGB565);
	assert_string_equal(name, "RG16");
	free(name);
	name = drmGetFormatModifierName(DRM_FORMAT_MOD_LINEAR);
	assert_string_equal(name, "LINEAR");
	free(name);
	drmVersionPtr ver = drmGetVersion(f->fd);
	assert_string_equal(ver->name, "vkms");
	drmFreeVersion(ver);
	uint64_t cap;
	assert_int_equal(drmGetCap(f->fd, DRM_CAP_DUMB_BUFFER, &cap), 0);
	assert_int_equal(cap, 1);
	assert_int_equal(drmGetCap(f->fd, 0xdead, &cap), -1);
}

/* ---- failures, master, rmfb ---------------------------------------------------------- */

static void test_failure_injection(void **state)
{
	struct fixture *f = *state;
	uint32_t pitch;
	uint32_t h = dumb(f, 64, 64, 32, &pitch);
	uint32_t handles[4] = { h }, pitches[4] = { pitch }, offsets[4] = { 0 }, fb = 0;

	mock_drm_fail_next("drmModeAddFB2", ENOMEM);
	assert_int_equal(drmModeAddFB2(f->fd, 64, 64, DRM_FORMAT_XRGB8888, handles, pitches,
		offsets, &fb, 0), -ENOMEM);
	assert_int_equal(drmModeAddFB2(f->fd, 64, 64, DRM_FORMAT_XRGB8888, handles, pitches,
		offsets, &fb, 0), 0);
	f->fbs[f->num_fbs++] = fb;

	mock_drm_fail_nth("DRM_IOCTL_MODE_CREATE_DUMB", 2, ENOSPC);
	dumb(f, 8, 8, 32, &pitch);
	struct drm_mode_create_dumb create = { .width = 8, .height = 8, .bpp = 32 };
	assert_int_equal(drmIoctl(f->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create), -1);
	assert_int_equal(errno, ENOSPC);

	int mem = memfd_create("x", MFD_CLOEXEC);
	assert_int_equal(ftruncate(mem, 4096), 0);
	mock_drm_fail_next("drmPrimeFDToHandle", EIO);
	assert_int_equal(drmPrimeFDToHandle(f->fd, mem, &h), -1);
	assert_int_equal(errno, EIO);
	close(mem);

	enable_output(f);
	mock_drm_fail_next("drmModeAtomicCommit/apply", EIO);
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	add(req, MOCK_VKMS_PRIMARY, "FB_ID", f->primary_fb);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, DRM_MODE_ATOMIC_TEST_ONLY, NULL), 0);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, 0, NULL), -EIO);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, 0, NULL), 0);

	/* Another client took master: EACCES, and drmSetMaster is refused (EBUSY) until
	 * it gives master back. */
	mock_drm_set_master(false);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, DRM_MODE_ATOMIC_TEST_ONLY, NULL), -EACCES);
	assert_int_equal(drmSetMaster(f->fd), -1);
	assert_int_equal(errno, EBUSY);
	mock_drm_set_master(true);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, 0, NULL), 0);
	assert_int_equal(drmDropMaster(f->fd), 0);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, 0, NULL), -EACCES);
	assert_int_equal(drmSetMaster(f->fd), 0); /* nobody else took it */
	assert_int_equal(drmModeAtomicCommit(f->fd, req, 0, NULL), 0);

	/* Cursor: libdrm's empty-request shortcut, truncation. */
	assert_int_equal(drmModeAtomicGetCursor(req), 1);
	add(req, MOCK_VKMS_CRTC, "ACTIVE", 7);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, 0, NULL), -EINVAL);
	drmModeAtomicSetCursor(req, 1);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, 0, NULL), 0);
	drmModeAtomicSetCursor(req, 0);
	assert_int_equal(drmModeAtomicCommit(f->fd, req, 0, NULL), 0);
	drmModeAtomicFree(req);

	/* A stale or foreign fd. */
	assert_null(drmModeGetResources(-1));
	assert_int_equal(errno, EBADF);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_null(drmModeGetResources(fds[0]));
	assert_int_equal(errno, ENOTTY);
	close(fds[0]);
	close(fds[1]);
}

static void test_rmfb_disables(void **state)
{
	struct fixture *f = *state;
	enable_output(f);
	/* Removing the FB on screen turns the primary and its CRTC off, like the kernel. */
	assert_int_equal(drmModeRmFB(f->fd, f->primary_fb), 0);
	f->fbs[0] = f->fbs[--f->num_fbs];
	uint64_t v;
	assert_true(mock_drm_get_prop(MOCK_VKMS_PRIMARY, "FB_ID", &v));
	assert_int_equal(v, 0);
	assert_true(mock_drm_get_prop(MOCK_VKMS_CRTC, "ACTIVE", &v));
	assert_int_equal(v, 0);
	assert_true(mock_drm_get_prop(MOCK_VKMS_VIRTUAL, "CRTC_ID", &v));
	assert_int_equal(v, 0);
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.rmfb_disabled_planes, 1);
}

/* ---- a custom device: two CRTCs, possible CRTCs, zpos, alpha ------------------------- */

static void test_custom_device(void **state)
{
	struct fixture *f = *state;
	static const uint32_t fmts[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888 };
	static const uint64_t mods[] = { DRM_FORMAT_MOD_LINEAR, I915_FORMAT_MOD_X_TILED };
	mock_drm_reset();
	close(f->fd);
	f->fd = mock_drm_open();
	assert_int_equal(drmSetClientCap(f->fd, DRM_CLIENT_CAP_ATOMIC, 1), 0);
	uint32_t crtc0 = mock_drm_add_crtc(), crtc1 = mock_drm_add_crtc();
	drmModeModeInfo mode = mock_drm_mode(640, 480, 60, true);
	uint32_t conn = mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_HDMIA, .mm_width = 300, .mm_height = 200,
		.modes = &mode, .num_modes = 1 });
	uint32_t primary0 = mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY, .possible_crtcs = 1, .formats = fmts,
		.num_formats = 2, .zpos = MOCK_DRM_ZPOS_IMMUTABLE, .zpos_default = 0 });
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY, .possible_crtcs = 2, .formats = fmts,
		.num_formats = 2 });
	uint32_t ovl = mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_OVERLAY, .possible_crtcs = 2, .formats = fmts,
		.num_formats = 2, .modifiers = mods, .num_modifiers = 2,
		.zpos = MOCK_DRM_ZPOS_MUTABLE, .zpos_min = 1, .zpos_max = 3, .zpos_default = 1,
		.alpha = true });
	uint64_t v;
	assert_true(mock_drm_get_prop(ovl, "alpha", &v));
	assert_int_equal(v, 0xffff);

	uint32_t blob = make_blob(f, &mode, sizeof(mode));
	uint32_t fb = make_fb(f, 640, 480, DRM_FORMAT_XRGB8888);

	/* The overlay cannot go on CRTC 0. */
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	add(req, crtc0, "ACTIVE", 1);
	add(req, crtc0, "MODE_ID", blob);
	add(req, conn, "CRTC_ID", crtc0);
	add_plane(req, primary0, fb, crtc0, 0, 0, 640, 480, 640, 480);
	add_plane(req, ovl, fb, crtc0, 0, 0, 640, 480, 640, 480);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), -EINVAL);
	/* Mode without connectors. */
	req = drmModeAtomicAlloc();
	add(req, crtc0, "ACTIVE", 1);
	add(req, crtc0, "MODE_ID", blob);
	add_plane(req, primary0, fb, crtc0, 0, 0, 640, 480, 640, 480);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), -EINVAL);
	/* A valid CRTC 0. */
	req = drmModeAtomicAlloc();
	add(req, crtc0, "ACTIVE", 1);
	add(req, crtc0, "MODE_ID", blob);
	add(req, conn, "CRTC_ID", crtc0);
	add_plane(req, primary0, fb, crtc0, 0, 0, 640, 480, 640, 480);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), 0);
	drmModeCrtcPtr crtc = drmModeGetCrtc(f->fd, crtc0);
	assert_int_equal(crtc->buffer_id, fb);
	assert_int_equal(crtc->mode_valid, 1);
	assert_int_equal(crtc->width, 640);
	drmModeFreeCrtc(crtc);
	/* Immutable zpos; out-of-range mutable zpos. */
	req = drmModeAtomicAlloc();
	add(req, primary0, "zpos", 0);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_TEST_ONLY), -EINVAL);
	req = drmModeAtomicAlloc();
	add(req, ovl, "zpos", 4);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_TEST_ONLY), -EINVAL);
	req = drmModeAtomicAlloc();
	add(req, ovl, "zpos", 3);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_TEST_ONLY), 0);
	/* Moving the connector to CRTC 1 with a scaled overlay and the primary: fine. */
	uint32_t fb2 = make_fb(f, 320, 240, DRM_FORMAT_ARGB8888);
	req = drmModeAtomicAlloc();
	add(req, crtc0, "ACTIVE", 0);
	add(req, crtc0, "MODE_ID", 0);
	add(req, primary0, "FB_ID", 0);
	add(req, primary0, "CRTC_ID", 0);
	add(req, crtc1, "ACTIVE", 1);
	add(req, crtc1, "MODE_ID", blob);
	add(req, conn, "CRTC_ID", crtc1);
	add_plane(req, 0x04000002, fb, crtc1, 0, 0, 640, 480, 640, 480);
	add_plane(req, ovl, fb2, crtc1, 0, 0, 640, 480, 320, 240);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), 0);
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.modesets, 2);
	/* Leave things off so teardown can drop the FBs. */
	req = drmModeAtomicAlloc();
	add(req, crtc1, "ACTIVE", 0);
	add(req, crtc1, "MODE_ID", 0);
	add(req, conn, "CRTC_ID", 0);
	add(req, 0x04000002, "FB_ID", 0);
	add(req, 0x04000002, "CRTC_ID", 0);
	add(req, ovl, "FB_ID", 0);
	add(req, ovl, "CRTC_ID", 0);
	assert_int_equal(commit(f, req, DRM_MODE_ATOMIC_ALLOW_MODESET), 0);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest others[] = {
		cmocka_unit_test_setup_teardown(test_dumb_prime_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_addfb_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_page_flip_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raw_atomic_ioctl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writeback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scripted_verdicts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_properties, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_injection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rmfb_disables, setup, teardown),
		cmocka_unit_test_setup_teardown(test_custom_device, setup, teardown),
	};
	enum { NUM_CASES = ARRAY_LEN(commit_cases), NUM = NUM_CASES + ARRAY_LEN(others) };
	static char names[NUM_CASES][64];
	struct CMUnitTest tests[NUM];
	for (size_t i = 0; i < NUM_CASES; i++) {
		snprintf(names[i], sizeof(names[i]), "commit@%s", commit_cases[i].name);
		tests[i] = (struct CMUnitTest){
			.name = names[i],
			.test_func = test_commit_case,
			.setup_func = setup,
			.teardown_func = teardown,
			.initial_state = (void *)&commit_cases[i],
		};
	}
	for (size_t i = 0; i < ARRAY_LEN(others); i++)
		tests[NUM_CASES + i] = others[i];
	/* An optional argument selects tests by name, e.g. "commit@bandwidth" or "commit@*". */
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return _cmocka_run_group_tests("mock-selftest", tests, NUM, NULL, NULL);
}
