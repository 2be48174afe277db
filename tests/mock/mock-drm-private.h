/* SPDX-License-Identifier: MIT */
/*
 * The mock libdrm's private header: the fake device's objects, the one state they live in
 * (g), and the helpers its three files share. Not part of the control API (mock-drm.h).
 *   mock-drm-state.c   the state: ids, properties, blobs, buffers, formats, the control
 *                      API (setup and queries), flips and their events
 *   mock-drm-libdrm.c  libdrm's entry points: core ioctls, dumb buffers, framebuffers,
 *                      resources, format names
 *   mock-drm-atomic.c  the atomic commit: parsing like the kernel, scripted verdicts, the
 *                      KMS rules, writeback, and applying it
 */
#ifndef MOCK_DRM_PRIVATE_H
#define MOCK_DRM_PRIVATE_H

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <linux/dma-buf.h>

#include "mock-drm.h"

#define MAX_CRTCS 32
#define MAX_CONNECTORS 32
#define MAX_PLANES 64
#define MAX_OBJ_PROPS 24
#define MAX_CAPS 32
#define MAX_INJECT 16
#define MAX_VERDICTS 16
#define MAX_DUMB_SIZE (1ull << 30)

/* Values of the "pixel blend mode" enum (kernel-internal, include/drm/drm_blend.h). */
#define BLEND_NONE 0
#define BLEND_PREMULTI 1
#define BLEND_COVERAGE 2

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct obj_props {
	int count;
	uint32_t ids[MAX_OBJ_PROPS];
	uint64_t vals[MAX_OBJ_PROPS];
};

struct prop {
	char name[DRM_PROP_NAME_LEN];
	uint32_t flags;
	uint64_t min, max;              /* ranges; OBJECT: min is the object type */
	int num_enums;
	struct drm_mode_property_enum enums[4];
};

struct crtc {
	struct obj_props props;
	int primary;                    /* plane index or -1 */
	uint32_t seq;
	uint64_t time_us;
};

struct connector {
	struct obj_props props;
	uint32_t type, type_id;
	drmModeConnection status;
	uint32_t mm_width, mm_height;
	drmModeModeInfo *modes;
	int num_modes;
	uint32_t possible_crtcs, possible_clones;
	uint32_t *wb_formats;
	int num_wb_formats;
};

struct plane {
	struct obj_props props;
	uint32_t type, possible_crtcs;
	uint32_t *formats;
	int num_formats;
	uint64_t *modifiers;
	int num_modifiers;
	bool hotspot;                   /* a virtualized cursor: hidden without the client cap */
	uint32_t zpos_prop, hotspot_x_prop, hotspot_y_prop;
};

struct blob {
	uint32_t len;
	void *data;
	bool user;                      /* created by the client and not destroyed yet */
	int refs;                       /* references from property values */
};

struct bo {
	int fd;
	uint64_t size;
	dev_t dev;
	ino_t ino;
	uint32_t handle;                /* 0: no GEM handle */
	bool dumb;
	int refs;                       /* the handle + framebuffers */
};

struct fb {
	uint32_t width, height, format;
	uint64_t modifier;
	int num_planes;
	struct bo *bos[4];
	uint32_t pitches[4], offsets[4];
};

/* A flip of one CRTC: pending until done, then an event if the client asked for one. */
struct flip {
	int crtc;
	bool want_event, done;
	void *user_data;
	uint32_t seq;
	uint64_t time_us;
	int fence_fd;                   /* our end of the CRTC out-fence, -1 if none */
};

struct std_props {
	uint32_t type, fb_id, in_fence_fd, crtc_id, crtc_x, crtc_y, crtc_w, crtc_h;
	uint32_t src_x, src_y, src_w, src_h, in_formats;
	uint32_t active, mode_id, out_fence_ptr, vrr_enabled;
	uint32_t edid, dpms, link_status, non_desktop;
	uint32_t wb_fb_id, wb_out_fence_ptr, wb_pixel_formats;
};

struct inject {
	char func[48];
	int n, err;
};

struct cap {
	uint64_t cap, value;
};

/* A scripted verdict (mock_drm_script_commit), its names resolved to indexes and ids. */
struct verdict {
	enum mock_drm_commit_kind kind;
	int planes[MOCK_DRM_MATCH_PLANES];
	int num_planes;
	uint32_t objs[MOCK_DRM_MATCH_PROPS], props[MOCK_DRM_MATCH_PROPS];
	uint64_t values[MOCK_DRM_MATCH_PROPS];
	int num_props;
	int nth;                        /* matches left to skip + 1; 0: every match */
	bool spent;                     /* the nth match was refused */
	int err;
	unsigned hits;
};

#define MOCK_INTERNAL __attribute__((visibility("hidden")))

struct mock_state {
	bool init;
	int pipe[2];
	dev_t dev;
	ino_t ino;
	char driver[32];
	struct cap caps[MAX_CAPS];
	int num_caps;
	bool atomic, universal, writeback;
	bool cursor_hotspot;            /* DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT set */
	bool master, hold;
	bool unpaced; /* flips: sequence 0, stamped with the commit's CLOCK_MONOTONIC time */
	bool flips_now; /* flips: sequence counts, stamped with the commit's CLOCK_MONOTONIC time */
	bool other_master; /* another client holds master: drmSetMaster fails */
	uint32_t dumb_align;
	uint32_t min_width, max_width, min_height, max_height;

	struct crtc crtcs[MAX_CRTCS];
	int num_crtcs;
	struct connector conns[MAX_CONNECTORS];
	int num_conns;
	struct plane planes[MAX_PLANES];
	int num_planes;

	struct prop *props;
	int num_props;
	struct blob **blobs;            /* slot i is blob id i + 1; NULL when freed */
	int num_blobs;
	struct fb **fbs;
	int num_fbs;
	struct bo **bos;
	int num_bos;
	uint32_t next_handle;

	struct flip *flips;
	int num_flips;

	struct inject inject[MAX_INJECT];
	struct verdict verdicts[MAX_VERDICTS];
	int num_verdicts;
	struct mock_drm_counters c;
	struct std_props p;
	char msg[256];
};

struct format_info {
	uint32_t fourcc;
	uint8_t num_planes;
	uint8_t cpp[3];
	uint8_t hsub, vsub;
};

extern MOCK_INTERNAL struct mock_state g;

MOCK_INTERNAL bool mode_valid(const struct drm_mode_modeinfo *m);
MOCK_INTERNAL int atomic_ioctl(int fd, const struct drm_mode_atomic *a);
MOCK_INTERNAL int conn_crtc(int conn);
MOCK_INTERNAL const struct drm_mode_modeinfo *mode_of(uint64_t blob_id);
MOCK_INTERNAL uint32_t drm_object_type(enum mock_drm_obj_type t);
MOCK_INTERNAL bool object_exists(uint32_t id);
MOCK_INTERNAL uint32_t mkid(enum mock_drm_obj_type type, int index);
MOCK_INTERNAL int id_index(uint32_t id, enum mock_drm_obj_type type, int count);
MOCK_INTERNAL int fail(int err, const char *fmt, ...);
MOCK_INTERNAL void ensure_init(void);
MOCK_INTERNAL int injected(const char *func);
MOCK_INTERNAL int check_fd(int fd);
MOCK_INTERNAL int props_slot(const struct obj_props *p, uint32_t prop_id);
MOCK_INTERNAL uint64_t props_get(const struct obj_props *p, uint32_t prop_id);
MOCK_INTERNAL void props_set(struct obj_props *p, uint32_t prop_id, uint64_t value);
MOCK_INTERNAL struct prop *prop_get(uint32_t id);
MOCK_INTERNAL struct blob *blob_get(uint32_t id);
MOCK_INTERNAL uint32_t blob_new(const void *data, size_t len, bool user);
MOCK_INTERNAL void blob_release(uint32_t id);
MOCK_INTERNAL void blob_ref(uint32_t id, int delta);
MOCK_INTERNAL struct fb *fb_get(uint32_t id);
MOCK_INTERNAL struct bo *bo_by_handle(uint32_t handle);
MOCK_INTERNAL void bo_unref(struct bo *bo);
MOCK_INTERNAL struct bo *bo_new(int fd, uint64_t size, bool dumb);
MOCK_INTERNAL int gem_close(uint32_t handle);
MOCK_INTERNAL const struct format_info *format_lookup(uint32_t fourcc);
MOCK_INTERNAL uint64_t get_cap(uint64_t cap);
MOCK_INTERNAL struct obj_props *obj_props_of(uint32_t obj_id);
MOCK_INTERNAL void flip_complete(struct flip *f);
MOCK_INTERNAL int complete_flips(int crtc);
MOCK_INTERNAL bool flip_pending(int crtc);

/* For xf86drm.c-style functions: -1 and errno. */
#define CHECK_FD_M1(fd, name)                                                        \
	do {                                                                             \
		int err_ = check_fd(fd);                                                     \
		if (err_) {                                                                  \
			fail(err_, "%s: not a mock DRM fd", name);                               \
			return -1;                                                               \
		}                                                                            \
		if (injected(name))                                                          \
			return -1;                                                               \
	} while (0)

/* For xf86drmMode.c-style functions: -errno. */
#define CHECK_FD_NEG(fd, name)                                                       \
	do {                                                                             \
		int err_ = check_fd(fd);                                                     \
		if (err_)                                                                    \
			return fail(err_, "%s: not a mock DRM fd", name);                        \
		if ((err_ = injected(name)))                                                 \
			return -err_;                                                            \
	} while (0)

/* For getters: NULL and errno. */
#define CHECK_FD_NULL(fd, name)                                                      \
	do {                                                                             \
		int err_ = check_fd(fd);                                                     \
		if (err_) {                                                                  \
			fail(err_, "%s: not a mock DRM fd", name);                               \
			return NULL;                                                             \
		}                                                                            \
		if (injected(name))                                                          \
			return NULL;                                                             \
	} while (0)

#endif
