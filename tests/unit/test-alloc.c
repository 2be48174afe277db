/* SPDX-License-Identifier: MIT */
/*
 * Plane assignment and the composition fallback (src/alloc.c, src/compose.c) on the mock
 * libdrm. Table-driven: every case names a device, a scene (layers bottom to top) and the
 * placement each layer must get; some cases add steps (frames, injected failures) in a
 * function.
 * Where the case needs the kernel to refuse something (vkms cannot scale, the hardware
 * feeds only so many planes), the case states that answer as a scripted verdict of the
 * mock (`refuse`), and how many commits of the first dispman_device_commit() it refused.
 * `test-alloc alloc@<case>` runs one case; without arguments all of them run.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>
#include <drm_fourcc.h>

#include <dispman/dispman.h>
#include "mock-drm.h"
#include "unit-main.h"

#define MAX_LAYERS 24
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define ON DISPMAN_PLACEMENT_ON_PLANE
#define COMP DISPMAN_PLACEMENT_COMPOSITED
#define HIDDEN DISPMAN_PLACEMENT_NOT_SHOWN
#define ANY_PLANE 0xffffffffu

enum dev_kind {
	DEV_VKMS,
	DEV_ZPOS_FIXED,   /* primary z0, overlays with immutable zpos 3, 1, 2 */
	DEV_ZPOS_MUTABLE, /* primary z0, three overlays zpos 1..3 settable, alpha */
	DEV_MODIFIERS,    /* primary linear; overlay A linear + X_TILED; overlay B linear */
	DEV_FORMATS,      /* primary XR24, AR24, RG16; two overlays XR24, AR24 */
	DEV_MOD_ELSEWHERE, /* primary and overlay linear; X_TILED only on another CRTC's plane */
};

struct lspec {
	int32_t x, y;
	uint32_t w, h;
	uint32_t fmt;      /* 0: ARGB8888 (XRGB8888 for a full-screen bottom layer) */
	uint32_t dw, dh;   /* destination size, 0: same as w, h (no scaling) */
	uint32_t src[4];   /* source x, y, w, h in 16.16; w 0: the whole buffer */
	uint16_t alpha;    /* 0: opaque */
	int blend;
	bool hidden, nobuf, tiled, transparent, zero_alpha;
};

struct want {
	enum dispman_placement_state state;
	uint32_t plane;    /* expected plane id for ON, 0: any */
	enum dispman_placement_reason reason;
};

struct fx;
struct test_case {
	const char *name;
	enum dev_kind dev;
	struct mock_drm_match refuse; /* the kernel refuses these commits ... */
	int refuse_err;               /* ... with this errno; 0: no scripted verdict */
	unsigned refusals;            /* commits it refused during the first commit */
	unsigned cursor;              /* DRM_CAP_CURSOR_* size, 0: the device's */
	size_t n;
	struct lspec l[MAX_LAYERS];
	struct want w[MAX_LAYERS];
	int tests;                    /* TEST_ONLY commits of the first commit, -1: any */
	void (*before)(struct fx *);  /* after the device is open, before the first commit */
	void (*after)(struct fx *);   /* after the first commit was checked */
};

struct fx {
	const struct test_case *tc;
	int fd;
	struct dispman_device *dev;
	struct dispman_output *out;
	struct dispman_layer *layers[MAX_LAYERS];
	struct dispman_buffer *bufs[MAX_LAYERS];
	struct dispman_buffer *alt[MAX_LAYERS]; /* second buffer of the same shape */
};

static const uint32_t fmts_rgb[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888 };
static const uint64_t mods_tiled[] = { DRM_FORMAT_MOD_LINEAR, I915_FORMAT_MOD_X_TILED };

static void setup_device(enum dev_kind kind)
{
	mock_drm_setup_vkms_like();
	if (kind == DEV_VKMS)
		return;
	mock_drm_reset();
	mock_drm_add_crtc();
	drmModeModeInfo mode = mock_drm_mode(1024, 768, 60, true);
	mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_HDMIA, .modes = &mode, .num_modes = 1 });
	struct mock_drm_plane_info primary = {
		.type = DRM_PLANE_TYPE_PRIMARY, .formats = fmts_rgb, .num_formats = 2,
	};
	struct mock_drm_plane_info ovl = {
		.type = DRM_PLANE_TYPE_OVERLAY, .formats = fmts_rgb, .num_formats = 2,
	};
	switch (kind) {
	case DEV_ZPOS_FIXED:
		primary.zpos = MOCK_DRM_ZPOS_IMMUTABLE;
		mock_drm_add_plane(&primary);
		ovl.zpos = MOCK_DRM_ZPOS_IMMUTABLE;
		ovl.zpos_default = 3;
		mock_drm_add_plane(&ovl);
		ovl.zpos_default = 1;
		mock_drm_add_plane(&ovl);
		ovl.zpos_default = 2;
		mock_drm_add_plane(&ovl);
		break;
	case DEV_ZPOS_MUTABLE:
		primary.zpos = MOCK_DRM_ZPOS_IMMUTABLE;
		mock_drm_add_plane(&primary);
		ovl.zpos = MOCK_DRM_ZPOS_MUTABLE;
		ovl.zpos_min = 1;
		ovl.zpos_max = 3;
		ovl.alpha = true;
		for (int i = 0; i < 3; i++) {
			ovl.zpos_default = 3 - (uint64_t)i; /* initial order reversed */
			mock_drm_add_plane(&ovl);
		}
		break;
	case DEV_FORMATS: {
		static const uint32_t pf[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888,
			DRM_FORMAT_RGB565 };
		primary.formats = pf;
		primary.num_formats = 3;
		mock_drm_add_plane(&primary);
		mock_drm_add_plane(&ovl);
		mock_drm_add_plane(&ovl);
		break;
	}
	case DEV_MOD_ELSEWHERE:
		mock_drm_add_crtc();
		primary.possible_crtcs = 1;
		mock_drm_add_plane(&primary);
		primary.possible_crtcs = 2;
		mock_drm_add_plane(&primary);
		ovl.possible_crtcs = 1;
		mock_drm_add_plane(&ovl);
		ovl.possible_crtcs = 2;
		ovl.modifiers = mods_tiled;
		ovl.num_modifiers = 2;
		mock_drm_add_plane(&ovl);
		break;
	case DEV_MODIFIERS:
		mock_drm_add_plane(&primary);
		ovl.modifiers = mods_tiled;
		ovl.num_modifiers = 2;
		mock_drm_add_plane(&ovl);
		ovl.modifiers = NULL;
		ovl.num_modifiers = 0;
		mock_drm_add_plane(&ovl);
		break;
	default:
		break;
	}
}

/* Plane ids of the custom devices, in creation order (primary first). */
#define PLANE(i) (0x04000001u + (uint32_t)(i))

static struct dispman_buffer *make_buffer(struct fx *f, const struct lspec *s, bool bottom,
	uint32_t seed)
{
	uint32_t fmt = s->fmt ? s->fmt : bottom && !s->x && !s->y && s->w == 1024 && s->h == 768 ?
		DRM_FORMAT_XRGB8888 : DRM_FORMAT_ARGB8888;
	if (s->tiled) {
		int mfd = memfd_create("tiled", 0);
		assert_true(mfd >= 0);
		assert_int_equal(ftruncate(mfd, (off_t)s->w * s->h * 4), 0);
		struct dispman_dmabuf_desc d = {
			.width = s->w, .height = s->h, .fourcc = fmt,
			.modifier = I915_FORMAT_MOD_X_TILED, .n_planes = 1, .fds = { mfd },
			.pitches = { s->w * 4 },
		};
		struct dispman_buffer *b = dispman_buffer_import_dmabuf(f->dev, &d);
		close(mfd);
		assert_non_null(b);
		return b;
	}
	struct dispman_buffer *b = dispman_buffer_create_dumb(f->dev, s->w, s->h, fmt);
	assert_non_null(b);
	uint32_t *px, stride;
	assert_int_equal(dispman_buffer_map(b, (void **)&px, &stride), 0);
	bool wide = fmt == DRM_FORMAT_XRGB8888 || fmt == DRM_FORMAT_ARGB8888;
	for (uint32_t y = 0; y < s->h; y++) {
		if (!wide) {
			memset((char *)px + (size_t)y * stride, (int)seed * 37, stride);
			continue;
		}
		for (uint32_t x = 0; x < s->w; x++)
			px[y * stride / 4 + x] = s->transparent ? 0 : 0xff000000u | (seed * 0x123457u);
	}
	return b;
}

static void check_placements(struct fx *f)
{
	const struct test_case *tc = f->tc;
	for (size_t i = 0; i < tc->n; i++) {
		struct dispman_placement p;
		assert_int_equal(dispman_layer_get_placement(f->layers[i], &p), 0);
		const struct want *w = &tc->w[i];
		if (p.state != w->state || (w->plane && w->state == ON && w->plane != ANY_PLANE &&
		    p.plane_id != w->plane) || (w->state != ON && p.reason != w->reason)) {
			fail_msg("%s: layer %zu: state %d plane 0x%x reason %d, want state %d "
				"plane 0x%x reason %d", tc->name, i, p.state, p.plane_id, p.reason,
				w->state, w->plane, w->reason);
		}
	}
}

static void test_case_run(void **state)
{
	const struct test_case *tc = *state;
	struct fx f = { .tc = tc };
	setup_device(tc->dev);
	int verdict = tc->refuse_err ? mock_drm_script_commit(&tc->refuse, tc->refuse_err) : -1;
	if (tc->cursor) {
		mock_drm_set_cap(DRM_CAP_CURSOR_WIDTH, tc->cursor);
		mock_drm_set_cap(DRM_CAP_CURSOR_HEIGHT, tc->cursor);
	}
	f.fd = mock_drm_open();
	assert_true(f.fd >= 0);
	f.dev = dispman_device_create_for_fd(f.fd);
	assert_non_null(f.dev);
	/* no time limit on a loaded machine: the cases count TEST_ONLY commits */
	dispman_device_set_alloc_budget(f.dev, 0, 10 * 1000 * 1000);
	f.out = dispman_device_get_first_connected_output(f.dev);
	assert_non_null(f.out);
	assert_int_equal(dispman_output_enable(f.out, NULL), 0);
	for (size_t i = 0; i < tc->n; i++) {
		const struct lspec *s = &tc->l[i];
		f.layers[i] = dispman_layer_create(f.out);
		assert_non_null(f.layers[i]);
		assert_int_equal(dispman_layer_set_z(f.layers[i], (int)i), 0);
		if (!s->nobuf) {
			f.bufs[i] = make_buffer(&f, s, i == 0, (uint32_t)i + 1);
			f.alt[i] = make_buffer(&f, s, i == 0, (uint32_t)i + 7);
			assert_int_equal(dispman_layer_set_buffer(f.layers[i], f.bufs[i]), 0);
		}
		assert_int_equal(dispman_layer_set_destination(f.layers[i], s->x, s->y,
			s->dw ? s->dw : s->w, s->dh ? s->dh : s->h), 0);
		if (s->src[2])
			assert_int_equal(dispman_layer_set_source(f.layers[i], s->src[0], s->src[1],
				s->src[2], s->src[3]), 0);
		if (s->alpha || s->zero_alpha)
			assert_int_equal(dispman_layer_set_alpha(f.layers[i], s->alpha), 0);
		assert_int_equal(dispman_layer_set_blend_mode(f.layers[i],
			(enum dispman_blend_mode)s->blend), 0);
		assert_int_equal(dispman_layer_set_visible(f.layers[i], !s->hidden), 0);
	}
	if (tc->before)
		tc->before(&f);
	struct dispman_stats st0 = { .size = sizeof(st0) }, st1 = { .size = sizeof(st1) };
	dispman_device_get_stats(f.dev, &st0);
	assert_int_equal(dispman_device_commit(f.dev), 0);
	dispman_device_get_stats(f.dev, &st1);
	assert_int_equal(dispman_device_dispatch(f.dev, 0) >= 0, 1);
	if (tc->tests >= 0 && st1.test_commits - st0.test_commits != (uint64_t)tc->tests)
		fail_msg("%s: %llu TEST_ONLY commits, want %d", tc->name,
			(unsigned long long)(st1.test_commits - st0.test_commits), tc->tests);
	if (mock_drm_script_hits(verdict) != tc->refusals)
		fail_msg("%s: the scripted verdict refused %u commits, want %u", tc->name,
			mock_drm_script_hits(verdict), tc->refusals);
	check_placements(&f);
	if (tc->after)
		tc->after(&f);

	for (size_t i = 0; i < tc->n; i++) {
		dispman_buffer_unref(f.bufs[i]);
		dispman_buffer_unref(f.alt[i]);
	}
	dispman_device_destroy(f.dev);
	close(f.fd);
	mock_drm_reset();
	assert_int_equal(mock_drm_live_objects(), 0);
}

/* ---- steps of some cases ---- */

static void frame(struct fx *f)
{
	assert_int_equal(dispman_device_commit(f->dev), 0);
	while (dispman_device_dispatch(f->dev, 0) > 0)
		;
}

/* New buffers of the same shape for 10 frames: no TEST_ONLY commit, no search. */
static void after_reuse(struct fx *f)
{
	struct dispman_stats a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	struct mock_drm_counters ma, mb;
	dispman_device_get_stats(f->dev, &a);
	mock_drm_get_counters(&ma);
	for (int k = 0; k < 10; k++) {
		for (size_t i = 0; i < f->tc->n; i++)
			dispman_layer_set_buffer(f->layers[i], k & 1 ? f->bufs[i] : f->alt[i]);
		frame(f);
	}
	dispman_device_get_stats(f->dev, &b);
	mock_drm_get_counters(&mb);
	assert_int_equal(b.test_commits, a.test_commits);
	assert_int_equal(mb.test_commits, ma.test_commits);
	assert_int_equal(b.searches, a.searches);
	assert_int_equal(b.commits, a.commits + 10);
	check_placements(f);
	/* a shape change searches again */
	dispman_layer_set_z(f->layers[f->tc->n - 1], (int)f->tc->n + 5);
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.searches, b.searches + 1);
	assert_true(a.test_commits > b.test_commits);
}

/* Composition of unchanged layers is not redone; a changed composited layer is. */
static void after_compose_reuse(struct fx *f)
{
	struct dispman_stats a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	dispman_device_get_stats(f->dev, &a);
	dispman_layer_set_buffer(f->layers[f->tc->n - 1], f->alt[f->tc->n - 1]); /* on a plane */
	frame(f);
	dispman_device_get_stats(f->dev, &b);
	assert_int_equal(b.compositions, a.compositions);
	dispman_layer_set_buffer(f->layers[1], f->alt[1]); /* composited */
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.compositions, b.compositions + 1);
	assert_int_equal(a.test_commits, b.test_commits);
}

static void after_offscreen(struct fx *f)
{
	uint64_t v;
	uint32_t p = MOCK_VKMS_OVERLAY(0);
	assert_true(mock_drm_get_prop(p, "CRTC_X", &v));
	assert_int_equal(v, 0);
	assert_true(mock_drm_get_prop(p, "CRTC_W", &v));
	assert_int_equal(v, 150);
	assert_true(mock_drm_get_prop(p, "SRC_X", &v));
	assert_int_equal(v, 50u << 16);
	assert_true(mock_drm_get_prop(p, "SRC_W", &v));
	assert_int_equal(v, 150u << 16);
	p = MOCK_VKMS_OVERLAY(1);
	assert_true(mock_drm_get_prop(p, "CRTC_X", &v));
	assert_int_equal(v, 974);
	assert_true(mock_drm_get_prop(p, "CRTC_W", &v));
	assert_int_equal(v, 50);
	assert_true(mock_drm_get_prop(p, "CRTC_H", &v));
	assert_int_equal(v, 68);
}

static void after_zpos_mutable(struct fx *f)
{
	uint64_t z[3];
	for (int i = 0; i < 3; i++)
		assert_true(mock_drm_get_prop(PLANE(1 + i), "zpos", &z[i]));
	assert_true(z[0] < z[1] && z[1] < z[2]);
	uint64_t a;
	assert_true(mock_drm_get_prop(PLANE(2), "alpha", &a));
	assert_int_equal(a, 0x8000);
}

static void after_primary_black(struct fx *f)
{
	uint64_t fb;
	assert_true(mock_drm_get_prop(MOCK_VKMS_PRIMARY, "FB_ID", &fb));
	assert_true(fb != 0);
	struct mock_drm_fb_info info;
	assert_true(mock_drm_get_fb((uint32_t)fb, &info));
	assert_int_equal(info.width, 1024);
	assert_int_equal(info.format, DRM_FORMAT_XRGB8888);
}

static void before_reject(struct fx *f)
{
	mock_drm_fail_next("drmModeAtomicCommit/test", EINVAL);
}

static void before_budget(struct fx *f)
{
	dispman_device_set_alloc_budget(f->dev, 1, 0);
}

/* The layer whose buffer changes every frame gets the one overlay at the next search. */
static void after_priority(struct fx *f)
{
	for (int k = 0; k < 12; k++) {
		dispman_layer_set_buffer(f->layers[1], k & 1 ? f->bufs[1] : f->alt[1]);
		frame(f);
	}
	dispman_layer_set_z(f->layers[2], 3); /* new shape (only moving it would not search) */
	frame(f);
	struct dispman_placement p;
	dispman_layer_get_placement(f->layers[1], &p);
	assert_int_equal(p.state, ON);
	dispman_layer_get_placement(f->layers[2], &p);
	assert_int_equal(p.state, COMP);
	assert_int_equal(p.reason, DISPMAN_REASON_NO_PLANE);
}

/* Moving a layer on a plane: no TEST_ONLY commit, the new rectangle in the kernel. */
static void after_geometry_moving(struct fx *f)
{
	struct dispman_stats a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	struct mock_drm_counters ma, mb;
	dispman_device_get_stats(f->dev, &a);
	mock_drm_get_counters(&ma);
	for (int k = 1; k <= 10; k++) {
		dispman_layer_set_destination(f->layers[3], 700 + k, 400, 200, 200);
		frame(f);
		uint64_t v;
		assert_true(mock_drm_get_prop(MOCK_VKMS_OVERLAY(2), "CRTC_X", &v));
		assert_int_equal(v, 700 + k);
		/* only what changed, as the floor's loop sends it: CRTC_X */
		mock_drm_get_counters(&mb);
		assert_int_equal(mb.last_items, 1);
	}
	/* both coordinates: CRTC_X and CRTC_Y */
	dispman_layer_set_destination(f->layers[3], 700, 401, 200, 200);
	frame(f);
	mock_drm_get_counters(&mb);
	assert_int_equal(mb.last_items, 2);
	dispman_layer_set_destination(f->layers[3], 710, 400, 200, 200);
	frame(f);
	dispman_device_get_stats(f->dev, &b);
	mock_drm_get_counters(&mb);
	assert_int_equal(b.test_commits, a.test_commits);
	assert_int_equal(mb.test_commits, ma.test_commits);
	assert_int_equal(b.searches, a.searches);
	assert_int_equal(b.geometry_commits, a.geometry_commits + 12);
	assert_int_equal(b.geometry_refused, a.geometry_refused);
	assert_int_equal(b.commits, a.commits + 12);
	check_placements(f);
	/* a plane that cannot take the new rectangle: the primary must cover the screen */
	dispman_layer_set_destination(f->layers[0], 1, 0, 1024, 768);
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.searches, b.searches + 1);
	assert_int_equal(a.geometry_commits, b.geometry_commits);
	struct dispman_placement p;
	dispman_layer_get_placement(f->layers[0], &p);
	assert_int_equal(p.state, ON);
	assert_true(p.plane_id != MOCK_VKMS_PRIMARY); /* an overlay, over black */
}

/* The kernel refuses the untested rectangle: searched and committed in the same call. */
static void after_geometry_refused(struct fx *f)
{
	struct dispman_stats a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	dispman_device_get_stats(f->dev, &a);
	mock_drm_fail_next("drmModeAtomicCommit/apply", EINVAL);
	dispman_layer_set_destination(f->layers[3], 650, 400, 200, 200);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	while (dispman_device_dispatch(f->dev, 0) > 0)
		;
	dispman_device_get_stats(f->dev, &b);
	uint64_t v;
	assert_true(mock_drm_get_prop(MOCK_VKMS_OVERLAY(2), "CRTC_X", &v));
	assert_int_equal(v, 650); /* the frame was not lost */
	assert_int_equal(b.geometry_refused, a.geometry_refused + 1);
	assert_int_equal(b.geometry_commits, a.geometry_commits);
	assert_int_equal(b.searches, a.searches + 1);
	assert_int_equal(b.test_commits, a.test_commits + 1);
	assert_int_equal(b.failed_commits, a.failed_commits + 1);
	assert_int_equal(b.commits, a.commits + 1);
	check_placements(f);
	/* and the next move goes without a test again */
	dispman_layer_set_destination(f->layers[3], 660, 400, 200, 200);
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.test_commits, b.test_commits);
	assert_int_equal(a.geometry_commits, b.geometry_commits + 1);
}

/* FB_ID and CRTC_X of every plane the first commit set (overlay-4's), as the kernel has them. */
static void kernel_planes(uint64_t fb[4], uint64_t x[4])
{
	const uint32_t ids[4] = { MOCK_VKMS_PRIMARY, MOCK_VKMS_OVERLAY(0), MOCK_VKMS_OVERLAY(1),
		MOCK_VKMS_OVERLAY(2) };
	for (int i = 0; i < 4; i++) {
		assert_true(mock_drm_get_prop(ids[i], "FB_ID", &fb[i]));
		assert_true(mock_drm_get_prop(ids[i], "CRTC_X", &x[i]));
	}
}

/*
 * A new shape the kernel refuses, in its TEST_ONLY commits (every plan of the search, down
 * to the composition buffer alone) or in the real commit: the layers still report where
 * the last accepted commit put them, not where the refused plan would have, and the next
 * commit searches and shows the new shape.
 */
static void after_refused_keeps_placement(struct fx *f)
{
	uint64_t fb0[4], x0[4], fb1[4], x1[4];
	kernel_planes(fb0, x0);
	struct dispman_stats a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	for (size_t i = 1; i < 4; i++)
		dispman_layer_set_visible(f->layers[i], false);
	/* the search: the primary refused, then the composition buffer alone */
	dispman_device_get_stats(f->dev, &a);
	mock_drm_fail_next("drmModeAtomicCommit/test", EINVAL);
	mock_drm_fail_next("drmModeAtomicCommit/test", EINVAL); /* the next after that */
	assert_int_equal(dispman_device_commit(f->dev), -EINVAL);
	dispman_device_get_stats(f->dev, &b);
	assert_int_equal(b.test_commits, a.test_commits + 2);
	assert_int_equal(b.commits, a.commits);
	check_placements(f);
	kernel_planes(fb1, x1);
	assert_memory_equal(fb1, fb0, sizeof(fb0));
	/* the search passes, the real commit is refused */
	mock_drm_fail_next("drmModeAtomicCommit/apply", EINVAL);
	assert_int_equal(dispman_device_commit(f->dev), -EINVAL);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.test_commits, b.test_commits + 1);
	assert_int_equal(a.failed_commits, b.failed_commits + 1);
	check_placements(f);
	kernel_planes(fb1, x1);
	assert_memory_equal(fb1, fb0, sizeof(fb0));
	/* accepted: the hidden layers leave their planes */
	frame(f);
	struct dispman_placement p;
	for (size_t i = 1; i < 4; i++) {
		dispman_layer_get_placement(f->layers[i], &p);
		assert_int_equal(p.state, HIDDEN);
		assert_int_equal(p.reason, DISPMAN_REASON_INVISIBLE);
	}
	dispman_layer_get_placement(f->layers[0], &p);
	assert_int_equal(p.state, ON);
	kernel_planes(fb1, x1);
	assert_int_equal(fb1[0], fb0[0]);
	assert_int_equal(fb1[1] | fb1[2] | fb1[3], 0);
}

/*
 * A layer on a plane moved under a composited layer above it: the assignment no longer
 * holds (the composition buffer is below every plane), so it is searched again.
 */
static void after_geometry_stacking(struct fx *f)
{
	struct dispman_stats a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	dispman_device_get_stats(f->dev, &a);
	dispman_layer_set_destination(f->layers[1], 150, 100, 200, 200);
	frame(f);
	dispman_device_get_stats(f->dev, &b);
	assert_int_equal(b.searches, a.searches + 1);
	assert_int_equal(b.geometry_commits, a.geometry_commits);
	struct dispman_placement p;
	dispman_layer_get_placement(f->layers[1], &p);
	assert_int_equal(p.state, COMP);
	assert_int_equal(p.reason, DISPMAN_REASON_STACKING);
	/* a composited layer moving: no search; redrawn where it was and is (the buffer
	 * drawn two frames ago lacks two moves: 310..394 x 100..164) */
	for (int k = 1; k <= 3; k++) {
		dispman_device_get_stats(f->dev, &a);
		dispman_layer_set_destination(f->layers[3], 300 + 10 * k, 100, 64, 64);
		frame(f);
	}
	dispman_device_get_stats(f->dev, &b);
	assert_int_equal(b.searches, a.searches);
	assert_int_equal(b.compositions, a.compositions + 1);
	assert_int_equal(b.damaged_pixels - a.damaged_pixels, 84 * 64);
	a = b;
	/* once it stops, the assignment is searched again (it might fit a plane now) */
	dispman_layer_set_buffer(f->layers[2], f->alt[2]);
	frame(f);
	dispman_device_get_stats(f->dev, &b);
	assert_int_equal(b.searches, a.searches + 1);
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.searches, b.searches); /* once */
	/* a composited layer moving over a layer on a plane below it: searched again */
	dispman_layer_get_placement(f->layers[2], &p);
	assert_int_equal(p.state, ON);
	dispman_layer_set_destination(f->layers[3], 210, 210, 64, 64);
	frame(f);
	dispman_device_get_stats(f->dev, &b);
	assert_int_equal(b.searches, a.searches + 1);
	assert_int_equal(b.geometry_commits, a.geometry_commits);
}

/*
 * Hidden work: layers (RGB565: no plane takes it) over an opaque background, the pixels
 * redrawn (damaged) and drawn (composed) counted. Opaque A at (100, 100), translucent B at
 * (200, 200), 200x200 each, overlapping by 100x100.
 */
static void after_occlusion(struct fx *f)
{
	struct dispman_stats a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	const uint64_t screen = 1024 * 768, sq = 200 * 200, ab = 100 * 100;
	/* everything: the background where A does not hide it, A, B; no black at all */
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.damaged_pixels, screen);
	assert_int_equal(a.composed_pixels, (screen - sq) + sq + sq);
	/* B changes every frame; once both buffers of the rotation are drawn, a frame
	 * redraws B: B, A under it, the background under it where A is not */
	for (int k = 0; k < 3; k++) {
		dispman_layer_set_buffer(f->layers[2], k & 1 ? f->bufs[2] : f->alt[2]);
		frame(f);
	}
	dispman_device_get_stats(f->dev, &b);
	dispman_layer_set_buffer(f->layers[2], f->bufs[2]);
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.damaged_pixels - b.damaged_pixels, sq);
	assert_int_equal(a.composed_pixels - b.composed_pixels, sq + ab + (sq - ab));
	/* A changes: this buffer also lacks B's last change; nothing under A is drawn */
	dispman_layer_set_buffer(f->layers[1], f->alt[1]);
	frame(f);
	dispman_device_get_stats(f->dev, &b);
	assert_int_equal(b.damaged_pixels - a.damaged_pixels, 2 * sq - ab);
	assert_int_equal(b.composed_pixels - a.composed_pixels, sq + sq + (sq - ab));
	/* A now covers the screen (moved, composited: no search): B and A only */
	dispman_layer_set_destination(f->layers[1], 0, 0, 1024, 768);
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.searches, b.searches);
	assert_int_equal(a.geometry_commits, b.geometry_commits + 1);
	assert_int_equal(a.composed_pixels - b.composed_pixels, screen + sq);
	/* the hidden background changes: never drawn (nor black under it) */
	for (int k = 0; k < 3; k++) {
		dispman_device_get_stats(f->dev, &b);
		dispman_layer_set_buffer(f->layers[0], k & 1 ? f->bufs[0] : f->alt[0]);
		frame(f);
		dispman_device_get_stats(f->dev, &a);
		assert_int_equal(a.damaged_pixels - b.damaged_pixels, screen);
		assert_int_equal(a.composed_pixels - b.composed_pixels, screen + sq);
	}
}

/* Composition memory follows use: freed 60 commits after composition stopped. */
static void after_memory(struct fx *f)
{
	struct dispman_stats a = { .size = sizeof(a) };
	dispman_device_get_stats(f->dev, &a);
	uint64_t one = 1024 * 768 * 4;
	assert_int_equal(a.composition_bytes, one); /* one buffer drawn, not two */
	for (int k = 0; k < 5; k++) {
		dispman_layer_set_buffer(f->layers[1], k & 1 ? f->bufs[1] : f->alt[1]);
		frame(f);
	}
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.composition_bytes, 2 * one); /* double buffered */
	assert_int_equal(a.composition_bytes_peak, 2 * one);
	/* the composited layers go away: nothing is composed any more */
	dispman_layer_destroy(f->layers[1]);
	dispman_layer_destroy(f->layers[2]);
	f->layers[1] = f->layers[2] = NULL;
	for (int k = 0; k < 59; k++) {
		dispman_layer_set_buffer(f->layers[0], k & 1 ? f->bufs[0] : f->alt[0]);
		frame(f);
	}
	dispman_device_get_stats(f->dev, &a);
	assert_true(a.composition_bytes > 0);
	dispman_layer_set_buffer(f->layers[0], f->bufs[0]);
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.composition_bytes, 0);
	assert_int_equal(a.composition_bytes_peak, 2 * one);
	for (int k = 0; k < 3; k++) { /* and stays free */
		dispman_layer_set_buffer(f->layers[0], k & 1 ? f->bufs[0] : f->alt[0]);
		frame(f);
	}
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.composition_bytes, 0);
	/* and composition comes back when needed */
	dispman_layer_set_destination(f->layers[0], 0, 0, 500, 500);
	frame(f);
	dispman_device_get_stats(f->dev, &a);
	assert_int_equal(a.composition_bytes, one);
}

#define FULL { .w = 1024, .h = 768 }
#define SQ(px, py) { .x = (px), .y = (py), .w = 200, .h = 200 }
#define WON(p) { ON, (p), DISPMAN_REASON_NONE }
#define WCOMP(r) { COMP, 0, DISPMAN_REASON_##r }
#define WHID(r) { HIDDEN, 0, DISPMAN_REASON_##r }
#define OVL(i) MOCK_VKMS_OVERLAY(i)
/* a 200x200 square at (100, 100) showing the source rectangle x, y, w, h (16.16) */
#define SRC(sx, sy, sw, sh) { .x = 100, .y = 100, .w = 200, .h = 200, \
	.src = { (sx), (sy), (sw), (sh) } }
/* vkms' answer to a scaled plane (its planes cannot scale): overlay 0 showing a source
 * sw pixels wide at dw pixels */
#define SCALED_ON_OVL0(sw, dw) { .props = { { OVL(0), "SRC_W", (uint64_t)(sw) << 16 }, \
	{ OVL(0), "CRTC_W", (dw) } } }
/* the hardware feeds at most n planes (the primary and overlays 0..n-2): ENOSPC for any
 * commit with overlay n-1 enabled, as the planner fills overlays in order */
#define MORE_PLANES_THAN(n) { .planes = { OVL((n) - 1) } }

static const struct test_case cases[] = {
	{ .name = "alloc@one-fullscreen", .n = 1, .l = { FULL }, .w = { WON(MOCK_VKMS_PRIMARY) },
	  .tests = 1 },
	{ .name = "alloc@overlap-4", .n = 4, .l = { FULL, SQ(100, 100), SQ(200, 200), SQ(300, 150) },
	  .w = { WON(MOCK_VKMS_PRIMARY), WON(OVL(0)), WON(OVL(1)), WON(OVL(2)) }, .tests = 1 },
	{ .name = "alloc@more-layers-than-planes", .n = 13,
	  .l = { FULL, SQ(10, 10), SQ(20, 20), SQ(30, 30), SQ(40, 40), SQ(50, 50), SQ(60, 60),
		 SQ(70, 70), SQ(80, 80), SQ(90, 90), SQ(100, 100), SQ(110, 110), SQ(120, 120) },
	  .w = { WCOMP(NO_PLANE), WCOMP(NO_PLANE), WCOMP(NO_PLANE), WCOMP(NO_PLANE),
		 WON(OVL(0)), WON(OVL(1)), WON(OVL(2)), WON(OVL(3)), WON(OVL(4)), WON(OVL(5)),
		 WON(OVL(6)), WON(OVL(7)), WON(MOCK_VKMS_CURSOR) }, .tests = 1 },
	{ .name = "alloc@format", .dev = DEV_FORMATS, .n = 4,
	  .l = { FULL, { .x = 10, .y = 10, .w = 100, .h = 100, .fmt = DRM_FORMAT_RGB565 },
		 { .x = 500, .y = 10, .w = 100, .h = 100, .fmt = DRM_FORMAT_XRGB8888 },
		 { .x = 700, .y = 10, .w = 100, .h = 100, .fmt = DRM_FORMAT_ARGB8888 } },
	  .w = { WCOMP(STACKING), WCOMP(FORMAT), WON(PLANE(1)), WON(PLANE(2)) }, .tests = 1 },
	{ .name = "alloc@modifier", .dev = DEV_MODIFIERS, .n = 4,
	  .l = { FULL, { .x = 10, .y = 10, .w = 64, .h = 64, .tiled = true },
		 { .x = 300, .y = 10, .w = 64, .h = 64 },
		 { .x = 600, .y = 10, .w = 64, .h = 64, .tiled = true } },
	  .w = { WON(PLANE(0)), WON(PLANE(1)), WON(PLANE(2)), WHID(NO_PLANE) }, .tests = 1 },
	{ .name = "alloc@scaling-refused", .n = 2,
	  .l = { FULL, { .x = 10, .y = 10, .w = 100, .h = 100, .dw = 200, .dh = 200 } },
	  .refuse = SCALED_ON_OVL0(100, 200), .refuse_err = ERANGE, .refusals = 1,
	  .w = { WCOMP(STACKING), WCOMP(SCALING) }, .tests = 2 },
	/* no verdict: the kernel takes the scaled plane */
	{ .name = "alloc@scaling-allowed", .dev = DEV_ZPOS_MUTABLE, .n = 2,
	  .l = { FULL, { .x = 10, .y = 10, .w = 100, .h = 100, .dw = 200, .dh = 200 } },
	  .w = { WON(PLANE(0)), WON(PLANE(1)) }, .tests = 1 },
	{ .name = "alloc@bandwidth", .n = 6, .refuse = MORE_PLANES_THAN(3), .refuse_err = ENOSPC,
	  .refusals = 3,
	  .l = { FULL, SQ(0, 0), SQ(250, 0), SQ(500, 0), SQ(0, 300), SQ(250, 300) },
	  .w = { WCOMP(NO_PLANE), WCOMP(NO_PLANE), WCOMP(NO_PLANE), WCOMP(NO_PLANE),
		 WON(OVL(0)), WON(OVL(1)) }, .tests = 4 },
	/* the kernel would refuse an active CRTC without its primary plane: never asked */
	{ .name = "alloc@primary-required", .n = 1, .l = { SQ(10, 10) },
	  .refuse = { .props = { { MOCK_VKMS_CRTC, "ACTIVE", 1 },
				 { MOCK_VKMS_PRIMARY, "FB_ID", 0 } } },
	  .refuse_err = EINVAL, .refusals = 0,
	  .w = { WON(OVL(0)) }, .tests = 1, .after = after_primary_black },
	{ .name = "alloc@cursor-fits", .n = 10,
	  .l = { FULL, SQ(0, 0), SQ(210, 0), SQ(420, 0), SQ(630, 0), SQ(0, 210), SQ(210, 210),
		 SQ(420, 210), SQ(630, 210), { .x = 0, .y = 500, .w = 64, .h = 64 } },
	  .cursor = 64,
	  .w = { WON(MOCK_VKMS_PRIMARY), WON(OVL(0)), WON(OVL(1)), WON(OVL(2)), WON(OVL(3)),
		 WON(OVL(4)), WON(OVL(5)), WON(OVL(6)), WON(OVL(7)), WON(MOCK_VKMS_CURSOR) },
	  .tests = 1 },
	{ .name = "alloc@cursor-too-big", .n = 10,
	  .l = { FULL, SQ(0, 0), SQ(210, 0), SQ(420, 0), SQ(630, 0), SQ(0, 210), SQ(210, 210),
		 SQ(420, 210), SQ(630, 210), { .x = 0, .y = 500, .w = 128, .h = 128 } },
	  .cursor = 64,
	  .w = { WCOMP(NO_PLANE), WON(OVL(0)), WON(OVL(1)), WON(OVL(2)), WON(OVL(3)),
		 WON(OVL(4)), WON(OVL(5)), WON(OVL(6)), WON(OVL(7)), WCOMP(NO_PLANE) }, .tests = 1 },
	{ .name = "alloc@zpos-fixed", .dev = DEV_ZPOS_FIXED, .n = 4,
	  .l = { FULL, SQ(0, 0), SQ(100, 100), SQ(200, 200) },
	  .w = { WON(PLANE(0)), WON(PLANE(2)), WON(PLANE(3)), WON(PLANE(1)) }, .tests = 1 },
	{ .name = "alloc@zpos-settable", .dev = DEV_ZPOS_MUTABLE, .n = 4,
	  .l = { FULL, SQ(0, 0), { .x = 100, .y = 100, .w = 200, .h = 200, .alpha = 0x8000 },
		 SQ(200, 200) },
	  .w = { WON(PLANE(0)), WON(PLANE(1)), WON(PLANE(2)), WON(PLANE(3)) }, .tests = 1,
	  .after = after_zpos_mutable },
	{ .name = "alloc@reuse-zero-tests", .n = 4,
	  .l = { FULL, SQ(100, 100), SQ(200, 200), { .x = 300, .y = 100, .w = 64, .h = 64,
		 .alpha = 0x4000 } },
	  .w = { WCOMP(STACKING), WON(OVL(0)), WON(OVL(1)), WCOMP(ALPHA) }, .tests = 1,
	  .after = after_reuse },
	{ .name = "alloc@geometry-moving", .n = 4,
	  .l = { FULL, SQ(100, 100), SQ(400, 100), SQ(700, 400) },
	  .w = { WON(MOCK_VKMS_PRIMARY), WON(OVL(0)), WON(OVL(1)), WON(OVL(2)) }, .tests = 1,
	  .after = after_geometry_moving },
	{ .name = "alloc@geometry-refused", .n = 4,
	  .l = { FULL, SQ(100, 100), SQ(400, 100), SQ(700, 400) },
	  .w = { WON(MOCK_VKMS_PRIMARY), WON(OVL(0)), WON(OVL(1)), WON(OVL(2)) }, .tests = 1,
	  .after = after_geometry_refused },
	{ .name = "alloc@refused-keeps-placement", .n = 4,
	  .l = { FULL, SQ(100, 100), SQ(400, 100), SQ(700, 400) },
	  .w = { WON(MOCK_VKMS_PRIMARY), WON(OVL(0)), WON(OVL(1)), WON(OVL(2)) }, .tests = 1,
	  .after = after_refused_keeps_placement },
	{ .name = "alloc@geometry-stacking", .n = 4,
	  .l = { FULL, SQ(100, 100), SQ(200, 200), { .x = 300, .y = 100, .w = 64, .h = 64,
		 .alpha = 0x4000 } },
	  .w = { WCOMP(STACKING), WON(OVL(0)), WON(OVL(1)), WCOMP(ALPHA) }, .tests = 1,
	  .after = after_geometry_stacking },
	{ .name = "alloc@occlusion", .dev = DEV_FORMATS, .n = 3,
	  .l = { FULL, { .x = 100, .y = 100, .w = 200, .h = 200, .fmt = DRM_FORMAT_RGB565 },
		 { .x = 200, .y = 200, .w = 200, .h = 200, .fmt = DRM_FORMAT_RGB565,
		   .alpha = 0x8000 } },
	  .w = { WCOMP(STACKING), WCOMP(FORMAT), WCOMP(ALPHA) }, .tests = 1,
	  .after = after_occlusion },
	{ .name = "alloc@memory", .dev = DEV_FORMATS, .n = 3,
	  .l = { FULL, { .x = 100, .y = 100, .w = 200, .h = 200, .fmt = DRM_FORMAT_RGB565 },
		 { .x = 500, .y = 200, .w = 200, .h = 200, .fmt = DRM_FORMAT_RGB565 } },
	  .w = { WCOMP(STACKING), WCOMP(FORMAT), WCOMP(FORMAT) }, .tests = 1,
	  .after = after_memory },
	{ .name = "alloc@composition-order", .n = 5,
	  .l = { FULL, SQ(50, 50), { .x = 100, .y = 100, .w = 200, .h = 200, .alpha = 0x8000 },
		 SQ(150, 150), SQ(600, 50) },
	  .w = { WCOMP(STACKING), WCOMP(STACKING), WCOMP(ALPHA), WON(OVL(0)), WON(OVL(1)) },
	  .tests = 1, .after = after_compose_reuse },
	{ .name = "alloc@composition-disjoint", .n = 4,
	  .l = { FULL, SQ(500, 500), { .x = 100, .y = 100, .w = 200, .h = 200,
		 .blend = DISPMAN_BLEND_COVERAGE }, SQ(150, 150) },
	  .w = { WCOMP(STACKING), WON(OVL(0)), WCOMP(ALPHA), WON(OVL(1)) }, .tests = 1 },
	{ .name = "alloc@placement-reasons", .n = 6,
	  .l = { FULL, { .w = 10, .h = 10, .hidden = true }, { .w = 10, .h = 10, .nobuf = true },
		 { .x = -300, .y = 10, .w = 100, .h = 100 },
		 { .x = 10, .y = 10, .w = 100, .h = 100, .zero_alpha = true },
		 { .x = 10, .y = 10, .w = 100, .h = 100, .blend = DISPMAN_BLEND_NONE } },
	  .w = { WCOMP(STACKING), WHID(INVISIBLE), WHID(INVISIBLE), WHID(INVISIBLE),
		 WHID(INVISIBLE), WCOMP(ALPHA) }, .tests = 1 },
	{ .name = "alloc@offscreen", .n = 3,
	  .l = { FULL, { .x = -50, .y = 0, .w = 200, .h = 200 },
		 { .x = 974, .y = 700, .w = 200, .h = 200 } },
	  .w = { WON(MOCK_VKMS_PRIMARY), WON(OVL(0)), WON(OVL(1)) }, .tests = 1,
	  .after = after_offscreen },
	{ .name = "alloc@kernel-rejected", .n = 3, .l = { FULL, SQ(0, 0), SQ(500, 0) },
	  .w = { WCOMP(STACKING), WCOMP(KERNEL_REJECTED), WON(OVL(0)) }, .tests = 2,
	  .before = before_reject },
	{ .name = "alloc@budget", .refuse = MORE_PLANES_THAN(2), .refuse_err = ENOSPC, .refusals = 1,
	  .n = 3, .l = { FULL, SQ(0, 0), SQ(500, 0) },
	  .w = { WCOMP(BUDGET), WCOMP(BUDGET), WCOMP(BUDGET) }, .tests = 1,
	  .before = before_budget },
	/* One case per reason a layer is not drawn, with free planes left. */
	{ .name = "alloc@reason-source-beyond", .n = 2, .l = { FULL, SRC(0xfff00000u, 0, 10 << 16,
		10 << 16) }, .w = { WON(MOCK_VKMS_PRIMARY), WHID(SOURCE) }, .tests = 1 },
	{ .name = "alloc@reason-source-partly-beyond", .n = 2, .l = { FULL, SRC(100 << 16, 0,
		200 << 16, 200 << 16) }, .w = { WON(MOCK_VKMS_PRIMARY), WHID(SOURCE) }, .tests = 1 },
	{ .name = "alloc@reason-source-below-buffer", .n = 2, .l = { FULL, SRC(0, 1u << 16,
		200 << 16, 200 << 16) }, .w = { WON(MOCK_VKMS_PRIMARY), WHID(SOURCE) }, .tests = 1 },
	{ .name = "alloc@reason-source-under-a-pixel", .n = 2, .l = { FULL, SRC(0, 0, 0x8000,
		200 << 16) }, .w = { WON(MOCK_VKMS_PRIMARY), WHID(SOURCE) }, .tests = 1 },
	{ .name = "alloc@reason-source-inside", .n = 2, .l = { FULL, SRC(100 << 16, 100 << 16,
		100 << 16, 100 << 16) }, .refuse = SCALED_ON_OVL0(100, 200), .refuse_err = ERANGE,
	  .refusals = 1, .w = { WCOMP(STACKING), WCOMP(SCALING) }, .tests = 2 },
	{ .name = "alloc@reason-destination-2g", .n = 2, .l = { FULL, { .w = 64, .h = 64,
		.dw = INT32_MAX, .dh = INT32_MAX } },
	  .w = { WON(MOCK_VKMS_PRIMARY), WHID(DESTINATION) }, .tests = 1 },
	{ .name = "alloc@reason-destination-edge", .n = 2, .l = { FULL, { .x = -40000, .w = 64,
		.h = 64, .dw = 41000, .dh = 64 } },
	  .w = { WON(MOCK_VKMS_PRIMARY), WHID(DESTINATION) }, .tests = 1 },
	{ .name = "alloc@reason-destination-largest", .n = 2, .l = { FULL, { .w = 64, .h = 64,
		.dw = DISPMAN_MAX_COORD, .dh = DISPMAN_MAX_COORD } },
	  .w = { WCOMP(STACKING), WCOMP(SCALING) }, .tests = 1 },
	{ .name = "alloc@reason-modifier", .dev = DEV_MOD_ELSEWHERE, .n = 2,
	  .l = { FULL, { .x = 10, .y = 10, .w = 64, .h = 64, .tiled = true } },
	  .w = { WON(PLANE(0)), WHID(MODIFIER) }, .tests = 1 },
	{ .name = "alloc@priority", .refuse = MORE_PLANES_THAN(2), .refuse_err = ENOSPC, .refusals = 1,
	  .n = 3, .l = { FULL, SQ(0, 0), SQ(500, 0) },
	  .w = { WCOMP(NO_PLANE), WCOMP(NO_PLANE), WON(OVL(0)) }, .tests = 2,
	  .after = after_priority },
};

/* Every reason of enum dispman_placement_reason is expected by at least one case. */
static void test_every_reason(void **state)
{
	(void)state;
	for (int r = DISPMAN_REASON_NONE + 1; r <= DISPMAN_REASON_DESTINATION; r++) {
		bool seen = false;
		for (size_t i = 0; i < ARRAY_LEN(cases) && !seen; i++)
			for (size_t k = 0; k < cases[i].n && !seen; k++)
				seen = cases[i].w[k].state != ON && (int)cases[i].w[k].reason == r;
		if (!seen)
			fail_msg("no case expects placement reason %d", r);
	}
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[ARRAY_LEN(cases) + 1];
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		tests[n++] = (struct CMUnitTest){ cases[i].name, test_case_run, NULL, NULL,
			(void *)&cases[i] };
	tests[n++] = (struct CMUnitTest){ "alloc@every-reason", test_every_reason, NULL, NULL,
		NULL };
	return unit_main("alloc", tests, n, argc, argv);
}
