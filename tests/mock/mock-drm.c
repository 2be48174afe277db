/*
 * A mock libdrm: one fake KMS device behind the libdrm entry points libdispman uses.
 *
 * Built as a shared library with libdrm's soname so that unit tests link it in place of
 * libdrm.so.2. Return conventions follow libdrm: xf86drm.c functions return -1 and set
 * errno, xf86drmMode.c functions return -errno (errno set too), getters return NULL with
 * errno set. The atomic commit parses the request like the kernel's ioctl, then consults
 * the scripted verdicts (mock_drm_script_commit), then checks what the KMS API itself
 * requires; a driver's policy (bandwidth, scaling, clone rules) is only ever scripted.
 */
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

static struct {
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
} g;

/* ---- helpers ---------------------------------------------------------------------- */

static uint32_t mkid(enum mock_drm_obj_type type, int index)
{
	return (uint32_t)type << 24 | (uint32_t)(index + 1);
}

/* Index of an object id of the given type, or -1. */
static int id_index(uint32_t id, enum mock_drm_obj_type type, int count)
{
	if (id >> 24 != (uint32_t)type)
		return -1;
	int index = (int)(id & 0xffffff) - 1;
	if (index < 0 || index >= count)
		return -1;
	return index;
}

__attribute__((format(printf, 2, 3)))
static int fail(int err, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vsnprintf(g.msg, sizeof(g.msg), fmt, args);
	va_end(args);
	if (getenv("MOCK_DRM_DEBUG"))
		fprintf(stderr, "mock-drm: %s (%s)\n", g.msg, strerror(err));
	errno = err;
	return -err;
}

static void ensure_init(void)
{
	if (!g.init)
		mock_drm_reset();
}

/* Consumes an injected failure of func; returns the errno to fail with or 0. */
static int injected(const char *func)
{
	ensure_init();
	for (size_t i = 0; i < ARRAY_LEN(g.inject); i++) {
		struct inject *inj = &g.inject[i];
		if (inj->n <= 0 || strcmp(inj->func, func) != 0)
			continue;
		if (--inj->n == 0) {
			fail(inj->err, "%s: injected failure", func);
			return inj->err;
		}
	}
	return 0;
}

/* Whether fd is one of our device fds: 0, or a positive errno. */
static int check_fd(int fd)
{
	struct stat st;
	ensure_init();
	if (fstat(fd, &st) != 0)
		return errno;
	if (st.st_dev != g.dev || st.st_ino != g.ino)
		return ENOTTY;
	return 0;
}

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

static int props_slot(const struct obj_props *p, uint32_t prop_id)
{
	for (int i = 0; i < p->count; i++)
		if (p->ids[i] == prop_id)
			return i;
	return -1;
}

static uint64_t props_get(const struct obj_props *p, uint32_t prop_id)
{
	int slot = props_slot(p, prop_id);
	return slot < 0 ? 0 : p->vals[slot];
}

static void props_set(struct obj_props *p, uint32_t prop_id, uint64_t value)
{
	int slot = props_slot(p, prop_id);
	if (slot >= 0)
		p->vals[slot] = value;
}

static void props_attach(struct obj_props *p, uint32_t prop_id, uint64_t value)
{
	if (p->count == MAX_OBJ_PROPS || !prop_id)
		abort();
	p->ids[p->count] = prop_id;
	p->vals[p->count] = value;
	p->count++;
}

static struct prop *prop_get(uint32_t id)
{
	int i = id_index(id, MOCK_DRM_PROPERTY, g.num_props);
	return i < 0 ? NULL : &g.props[i];
}

static uint32_t prop_new(const char *name, uint32_t flags, uint64_t min, uint64_t max)
{
	struct prop *props = realloc(g.props, sizeof(*props) * (size_t)(g.num_props + 1));
	if (!props)
		abort();
	g.props = props;
	struct prop *p = &g.props[g.num_props];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->flags = flags;
	p->min = min;
	p->max = max;
	return mkid(MOCK_DRM_PROPERTY, g.num_props++);
}

static void prop_enum(uint32_t id, const char *name, uint64_t value)
{
	struct prop *p = prop_get(id);
	if ((size_t)p->num_enums == ARRAY_LEN(p->enums))
		abort();
	struct drm_mode_property_enum *e = &p->enums[p->num_enums++];
	e->value = value;
	snprintf(e->name, sizeof(e->name), "%s", name);
}

static struct blob *blob_get(uint32_t id)
{
	int i = id_index(id, MOCK_DRM_BLOB, g.num_blobs);
	return i < 0 ? NULL : g.blobs[i];
}

static uint32_t blob_new(const void *data, size_t len, bool user)
{
	struct blob *b = calloc(1, sizeof(*b));
	struct blob **blobs = realloc(g.blobs, sizeof(*blobs) * (size_t)(g.num_blobs + 1));
	if (!b || !blobs || !(b->data = malloc(len ? len : 1))) {
		if (blobs)
			g.blobs = blobs;
		free(b);
		return 0;
	}
	g.blobs = blobs;
	memcpy(b->data, data, len);
	b->len = (uint32_t)len;
	b->user = user;
	g.blobs[g.num_blobs] = b;
	return mkid(MOCK_DRM_BLOB, g.num_blobs++);
}

static void blob_release(uint32_t id)
{
	int i = id_index(id, MOCK_DRM_BLOB, g.num_blobs);
	struct blob *b = i < 0 ? NULL : g.blobs[i];
	if (b && !b->user && b->refs == 0) {
		free(b->data);
		free(b);
		g.blobs[i] = NULL;
	}
}

static void blob_ref(uint32_t id, int delta)
{
	struct blob *b = blob_get(id);
	if (!b)
		return;
	b->refs += delta;
	blob_release(id);
}

static struct fb *fb_get(uint32_t id)
{
	int i = id_index(id, MOCK_DRM_FB, g.num_fbs);
	return i < 0 ? NULL : g.fbs[i];
}

static struct bo *bo_by_handle(uint32_t handle)
{
	for (int i = 0; i < g.num_bos; i++)
		if (g.bos[i] && handle && g.bos[i]->handle == handle)
			return g.bos[i];
	return NULL;
}

static void bo_unref(struct bo *bo)
{
	if (--bo->refs > 0)
		return;
	for (int i = 0; i < g.num_bos; i++)
		if (g.bos[i] == bo)
			g.bos[i] = NULL;
	close(bo->fd);
	free(bo);
}

static struct bo *bo_new(int fd, uint64_t size, bool dumb)
{
	struct stat st;
	struct bo *bo = calloc(1, sizeof(*bo));
	struct bo **bos = realloc(g.bos, sizeof(*bos) * (size_t)(g.num_bos + 1));
	if (bos)
		g.bos = bos;
	if (!bo || !bos || fstat(fd, &st) != 0) {
		free(bo);
		return NULL;
	}
	bo->fd = fd;
	bo->size = size;
	bo->dev = st.st_dev;
	bo->ino = st.st_ino;
	bo->dumb = dumb;
	bo->handle = g.next_handle++;
	bo->refs = 1;
	g.bos[g.num_bos++] = bo;
	return bo;
}

static int gem_close(uint32_t handle)
{
	struct bo *bo = bo_by_handle(handle);
	if (!bo)
		return fail(EINVAL, "GEM handle %u does not exist", handle);
	bo->handle = 0;
	bo_unref(bo);
	return 0;
}

/* ---- formats ---------------------------------------------------------------------- */

struct format_info {
	uint32_t fourcc;
	uint8_t num_planes;
	uint8_t cpp[3];
	uint8_t hsub, vsub;
};

static const struct format_info formats[] = {
	{ DRM_FORMAT_C8, 1, { 1 }, 1, 1 },
	{ DRM_FORMAT_RGB565, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_BGR565, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_XRGB1555, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_ARGB1555, 1, { 2 }, 1, 1 },
	{ DRM_FORMAT_RGB888, 1, { 3 }, 1, 1 },
	{ DRM_FORMAT_BGR888, 1, { 3 }, 1, 1 },
	{ DRM_FORMAT_XRGB8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ARGB8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_XBGR8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ABGR8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_RGBX8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_RGBA8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_BGRX8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_BGRA8888, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_XRGB2101010, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ARGB2101010, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_XBGR2101010, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_ABGR2101010, 1, { 4 }, 1, 1 },
	{ DRM_FORMAT_XRGB16161616, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_ARGB16161616, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_XBGR16161616, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_ABGR16161616, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_XRGB16161616F, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_ARGB16161616F, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_XBGR16161616F, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_ABGR16161616F, 1, { 8 }, 1, 1 },
	{ DRM_FORMAT_YUYV, 1, { 2 }, 2, 1 },
	{ DRM_FORMAT_YVYU, 1, { 2 }, 2, 1 },
	{ DRM_FORMAT_UYVY, 1, { 2 }, 2, 1 },
	{ DRM_FORMAT_VYUY, 1, { 2 }, 2, 1 },
	{ DRM_FORMAT_NV12, 2, { 1, 2 }, 2, 2 },
	{ DRM_FORMAT_NV21, 2, { 1, 2 }, 2, 2 },
	{ DRM_FORMAT_NV16, 2, { 1, 2 }, 2, 1 },
	{ DRM_FORMAT_P010, 2, { 2, 4 }, 2, 2 },
	{ DRM_FORMAT_YUV420, 3, { 1, 1, 1 }, 2, 2 },
	{ DRM_FORMAT_YVU420, 3, { 1, 1, 1 }, 2, 2 },
};

static const struct format_info *format_lookup(uint32_t fourcc)
{
	for (size_t i = 0; i < ARRAY_LEN(formats); i++)
		if (formats[i].fourcc == fourcc)
			return &formats[i];
	return NULL;
}

/* ---- control API: setup ----------------------------------------------------------- */

static void free_all(void)
{
	for (int i = 0; i < g.num_flips; i++)
		if (g.flips[i].fence_fd >= 0)
			close(g.flips[i].fence_fd);
	free(g.flips);
	for (int i = 0; i < g.num_fbs; i++) {
		struct fb *fb = g.fbs[i];
		if (!fb)
			continue;
		for (int j = 0; j < fb->num_planes; j++)
			bo_unref(fb->bos[j]);
		free(fb);
	}
	free(g.fbs);
	for (int i = 0; i < g.num_bos; i++) {
		if (g.bos[i]) {
			close(g.bos[i]->fd);
			free(g.bos[i]);
		}
	}
	free(g.bos);
	for (int i = 0; i < g.num_blobs; i++) {
		if (g.blobs[i]) {
			free(g.blobs[i]->data);
			free(g.blobs[i]);
		}
	}
	free(g.blobs);
	for (int i = 0; i < g.num_conns; i++) {
		free(g.conns[i].modes);
		free(g.conns[i].wb_formats);
	}
	for (int i = 0; i < g.num_planes; i++) {
		free(g.planes[i].formats);
		free(g.planes[i].modifiers);
	}
	free(g.props);
	if (g.init) {
		close(g.pipe[0]);
		close(g.pipe[1]);
	}
}

static void create_std_props(void)
{
	struct std_props *p = &g.p;
	const uint32_t atomic = DRM_MODE_PROP_ATOMIC;
	const uint32_t srange = DRM_MODE_PROP_SIGNED_RANGE;

	p->type = prop_new("type", DRM_MODE_PROP_ENUM | DRM_MODE_PROP_IMMUTABLE, 0, 0);
	prop_enum(p->type, "Overlay", DRM_PLANE_TYPE_OVERLAY);
	prop_enum(p->type, "Primary", DRM_PLANE_TYPE_PRIMARY);
	prop_enum(p->type, "Cursor", DRM_PLANE_TYPE_CURSOR);
	p->fb_id = prop_new("FB_ID", DRM_MODE_PROP_OBJECT | atomic, DRM_MODE_OBJECT_FB, 0);
	p->in_fence_fd = prop_new("IN_FENCE_FD", srange | atomic, (uint64_t)-1, INT_MAX);
	p->crtc_id = prop_new("CRTC_ID", DRM_MODE_PROP_OBJECT | atomic, DRM_MODE_OBJECT_CRTC, 0);
	p->crtc_x = prop_new("CRTC_X", srange | atomic, (uint64_t)(int64_t)INT_MIN, INT_MAX);
	p->crtc_y = prop_new("CRTC_Y", srange | atomic, (uint64_t)(int64_t)INT_MIN, INT_MAX);
	p->crtc_w = prop_new("CRTC_W", DRM_MODE_PROP_RANGE | atomic, 0, INT_MAX);
	p->crtc_h = prop_new("CRTC_H", DRM_MODE_PROP_RANGE | atomic, 0, INT_MAX);
	p->src_x = prop_new("SRC_X", DRM_MODE_PROP_RANGE | atomic, 0, UINT_MAX);
	p->src_y = prop_new("SRC_Y", DRM_MODE_PROP_RANGE | atomic, 0, UINT_MAX);
	p->src_w = prop_new("SRC_W", DRM_MODE_PROP_RANGE | atomic, 0, UINT_MAX);
	p->src_h = prop_new("SRC_H", DRM_MODE_PROP_RANGE | atomic, 0, UINT_MAX);
	p->in_formats = prop_new("IN_FORMATS", DRM_MODE_PROP_BLOB | DRM_MODE_PROP_IMMUTABLE, 0, 0);

	p->active = prop_new("ACTIVE", DRM_MODE_PROP_RANGE | atomic, 0, 1);
	p->mode_id = prop_new("MODE_ID", DRM_MODE_PROP_BLOB | atomic, 0, 0);
	p->out_fence_ptr = prop_new("OUT_FENCE_PTR", DRM_MODE_PROP_RANGE | atomic, 0, UINT64_MAX);
	p->vrr_enabled = prop_new("VRR_ENABLED", DRM_MODE_PROP_RANGE, 0, 1);

	p->edid = prop_new("EDID", DRM_MODE_PROP_BLOB | DRM_MODE_PROP_IMMUTABLE, 0, 0);
	p->dpms = prop_new("DPMS", DRM_MODE_PROP_ENUM, 0, 0);
	prop_enum(p->dpms, "On", DRM_MODE_DPMS_ON);
	prop_enum(p->dpms, "Standby", DRM_MODE_DPMS_STANDBY);
	prop_enum(p->dpms, "Suspend", DRM_MODE_DPMS_SUSPEND);
	prop_enum(p->dpms, "Off", DRM_MODE_DPMS_OFF);
	p->link_status = prop_new("link-status", DRM_MODE_PROP_ENUM, 0, 0);
	prop_enum(p->link_status, "Good", DRM_MODE_LINK_STATUS_GOOD);
	prop_enum(p->link_status, "Bad", DRM_MODE_LINK_STATUS_BAD);
	p->non_desktop = prop_new("non-desktop",
		DRM_MODE_PROP_RANGE | DRM_MODE_PROP_IMMUTABLE, 0, 1);
	p->wb_fb_id = prop_new("WRITEBACK_FB_ID",
		DRM_MODE_PROP_OBJECT | atomic, DRM_MODE_OBJECT_FB, 0);
	p->wb_out_fence_ptr = prop_new("WRITEBACK_OUT_FENCE_PTR",
		DRM_MODE_PROP_RANGE | atomic, 0, UINT64_MAX);
	p->wb_pixel_formats = prop_new("WRITEBACK_PIXEL_FORMATS",
		DRM_MODE_PROP_BLOB | DRM_MODE_PROP_IMMUTABLE, 0, 0);
}

/* Frees the global state at exit, so that leak checkers see nothing reachable. */
__attribute__((destructor)) static void mock_drm_fini(void)
{
	free_all();
	memset(&g, 0, sizeof(g));
}

void mock_drm_reset(void)
{
	free_all();
	memset(&g, 0, sizeof(g));
	if (pipe2(g.pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		abort();
	struct stat st;
	if (fstat(g.pipe[0], &st) != 0)
		abort();
	g.dev = st.st_dev;
	g.ino = st.st_ino;
	g.init = true;
	snprintf(g.driver, sizeof(g.driver), "mock");
	g.master = true;
	g.dumb_align = 64;
	g.next_handle = 1;
	g.min_width = g.min_height = 1;
	g.max_width = g.max_height = 8192;
	mock_drm_set_cap(DRM_CAP_DUMB_BUFFER, 1);
	mock_drm_set_cap(DRM_CAP_VBLANK_HIGH_CRTC, 1);
	mock_drm_set_cap(DRM_CAP_DUMB_PREFERRED_DEPTH, 24);
	mock_drm_set_cap(DRM_CAP_DUMB_PREFER_SHADOW, 0);
	mock_drm_set_cap(DRM_CAP_PRIME, DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT);
	mock_drm_set_cap(DRM_CAP_TIMESTAMP_MONOTONIC, 1);
	mock_drm_set_cap(DRM_CAP_ASYNC_PAGE_FLIP, 0);
	mock_drm_set_cap(DRM_CAP_CURSOR_WIDTH, 64);
	mock_drm_set_cap(DRM_CAP_CURSOR_HEIGHT, 64);
	mock_drm_set_cap(DRM_CAP_ADDFB2_MODIFIERS, 1);
	mock_drm_set_cap(DRM_CAP_PAGE_FLIP_TARGET, 0);
	mock_drm_set_cap(DRM_CAP_CRTC_IN_VBLANK_EVENT, 1);
	mock_drm_set_cap(DRM_CAP_SYNCOBJ, 0);
	mock_drm_set_cap(DRM_CAP_SYNCOBJ_TIMELINE, 0);
	create_std_props();
}

int mock_drm_open(void)
{
	ensure_init();
	return fcntl(g.pipe[0], F_DUPFD_CLOEXEC, 0);
}

static uint64_t get_cap(uint64_t cap)
{
	for (int i = 0; i < g.num_caps; i++)
		if (g.caps[i].cap == cap)
			return g.caps[i].value;
	return 0;
}

void mock_drm_set_cap(uint64_t cap, uint64_t value)
{
	ensure_init();
	for (int i = 0; i < g.num_caps; i++) {
		if (g.caps[i].cap == cap) {
			g.caps[i].value = value;
			return;
		}
	}
	if (g.num_caps == MAX_CAPS)
		abort();
	g.caps[g.num_caps++] = (struct cap){ cap, value };
}

void mock_drm_unset_cap(uint64_t cap)
{
	ensure_init();
	for (int i = 0; i < g.num_caps; i++) {
		if (g.caps[i].cap == cap) {
			g.caps[i] = g.caps[--g.num_caps];
			return;
		}
	}
}

void mock_drm_set_driver_name(const char *name)
{
	ensure_init();
	snprintf(g.driver, sizeof(g.driver), "%s", name);
}

void mock_drm_set_dumb_pitch_align(uint32_t align)
{
	ensure_init();
	g.dumb_align = align ? align : 1;
}

void mock_drm_set_master(bool master)
{
	ensure_init();
	g.master = master;
	g.other_master = !master;
}

drmModeModeInfo mock_drm_mode(uint16_t w, uint16_t h, uint32_t refresh, bool preferred)
{
	drmModeModeInfo m;
	memset(&m, 0, sizeof(m));
	m.hdisplay = w;
	m.hsync_start = (uint16_t)(w + 48);
	m.hsync_end = (uint16_t)(w + 80);
	m.htotal = (uint16_t)(w + 160);
	m.vdisplay = h;
	m.vsync_start = (uint16_t)(h + 3);
	m.vsync_end = (uint16_t)(h + 8);
	m.vtotal = (uint16_t)(h + 30);
	m.vrefresh = refresh ? refresh : 60;
	m.clock = (uint32_t)((uint64_t)m.htotal * m.vtotal * m.vrefresh / 1000);
	m.flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_NVSYNC;
	m.type = DRM_MODE_TYPE_DRIVER | (preferred ? DRM_MODE_TYPE_PREFERRED : 0);
	snprintf(m.name, sizeof(m.name), "%ux%u", w, h);
	return m;
}

uint32_t mock_drm_add_crtc(void)
{
	ensure_init();
	if (g.num_crtcs == MAX_CRTCS)
		abort();
	int i = g.num_crtcs++;
	struct crtc *c = &g.crtcs[i];
	memset(c, 0, sizeof(*c));
	c->primary = -1;
	c->time_us = 1000000000ull;
	props_attach(&c->props, g.p.active, 0);
	props_attach(&c->props, g.p.mode_id, 0);
	props_attach(&c->props, g.p.out_fence_ptr, 0);
	props_attach(&c->props, g.p.vrr_enabled, 0);
	/* A CRTC added after a primary plane may take it. */
	for (int j = 0; j < g.num_planes; j++) {
		const struct plane *p = &g.planes[j];
		if (p->type != DRM_PLANE_TYPE_PRIMARY || !(p->possible_crtcs & (1u << i)))
			continue;
		bool taken = false;
		for (int k = 0; k < i; k++)
			taken |= g.crtcs[k].primary == j;
		if (!taken) {
			c->primary = j;
			break;
		}
	}
	return mkid(MOCK_DRM_CRTC, i);
}

uint32_t mock_drm_add_connector(const struct mock_drm_connector_info *info)
{
	ensure_init();
	if (g.num_conns == MAX_CONNECTORS)
		abort();
	int i = g.num_conns++;
	struct connector *c = &g.conns[i];
	memset(c, 0, sizeof(*c));
	c->type = info->type;
	for (int j = 0; j < i; j++)
		if (g.conns[j].type == c->type)
			c->type_id++;
	c->type_id++;
	c->status = info->status ? info->status : DRM_MODE_CONNECTED;
	c->mm_width = info->mm_width;
	c->mm_height = info->mm_height;
	c->possible_crtcs = info->possible_crtcs ? info->possible_crtcs : 0xffffffffu;
	c->possible_clones = info->possible_clones | 1u << i;
	if (info->num_modes > 0) {
		c->modes = calloc((size_t)info->num_modes, sizeof(*c->modes));
		if (!c->modes)
			abort();
		memcpy(c->modes, info->modes, sizeof(*c->modes) * (size_t)info->num_modes);
		c->num_modes = info->num_modes;
	}
	props_attach(&c->props, g.p.edid, 0);
	props_attach(&c->props, g.p.dpms, DRM_MODE_DPMS_ON);
	props_attach(&c->props, g.p.link_status, DRM_MODE_LINK_STATUS_GOOD);
	props_attach(&c->props, g.p.non_desktop, 0);
	props_attach(&c->props, g.p.crtc_id, 0);
	if (c->type == DRM_MODE_CONNECTOR_WRITEBACK) {
		static const uint32_t xr24 = DRM_FORMAT_XRGB8888;
		const uint32_t *fmts = info->writeback_formats ? info->writeback_formats : &xr24;
		int n = info->writeback_formats ? info->num_writeback_formats : 1;
		c->wb_formats = calloc((size_t)n, sizeof(uint32_t));
		if (!c->wb_formats)
			abort();
		memcpy(c->wb_formats, fmts, sizeof(uint32_t) * (size_t)n);
		c->num_wb_formats = n;
		uint32_t blob = blob_new(fmts, sizeof(uint32_t) * (size_t)n, false);
		blob_ref(blob, 1);
		props_attach(&c->props, g.p.wb_fb_id, 0);
		props_attach(&c->props, g.p.wb_out_fence_ptr, 0);
		props_attach(&c->props, g.p.wb_pixel_formats, blob);
	}
	return mkid(MOCK_DRM_CONNECTOR, i);
}

int mock_drm_set_connector_status(uint32_t connector_id, drmModeConnection status)
{
	ensure_init();
	int i = id_index(connector_id, MOCK_DRM_CONNECTOR, g.num_conns);
	if (i < 0)
		return -ENOENT;
	g.conns[i].status = status;
	return 0;
}

/* Builds an IN_FORMATS blob per struct drm_format_modifier_blob. */
static uint32_t in_formats_blob(const struct plane *p)
{
	static const uint64_t linear = DRM_FORMAT_MOD_LINEAR;
	const uint64_t *mods = p->modifiers ? p->modifiers : &linear;
	size_t num_mods = p->modifiers ? (size_t)p->num_modifiers : 1;
	size_t nf = (size_t)p->num_formats;
	size_t chunks = (nf + 63) / 64;
	size_t fmt_off = sizeof(struct drm_format_modifier_blob);
	size_t mod_off = (fmt_off + nf * sizeof(uint32_t) + 7) & ~(size_t)7;
	size_t num_entries = num_mods * chunks;
	size_t len = mod_off + num_entries * sizeof(struct drm_format_modifier);
	uint8_t *data = calloc(1, len);
	if (!data)
		abort();
	struct drm_format_modifier_blob *hdr = (void *)data;
	hdr->version = FORMAT_BLOB_CURRENT;
	hdr->count_formats = (uint32_t)nf;
	hdr->formats_offset = (uint32_t)fmt_off;
	hdr->count_modifiers = (uint32_t)num_entries;
	hdr->modifiers_offset = (uint32_t)mod_off;
	memcpy(data + fmt_off, p->formats, nf * sizeof(uint32_t));
	struct drm_format_modifier *m = (void *)(data + mod_off);
	for (size_t i = 0; i < num_mods; i++) {
		for (size_t c = 0; c < chunks; c++, m++) {
			size_t n = nf - c * 64 < 64 ? nf - c * 64 : 64;
			m->formats = n == 64 ? UINT64_MAX : (1ull << n) - 1;
			m->offset = (uint32_t)(c * 64);
			m->modifier = mods[i];
		}
	}
	uint32_t id = blob_new(data, len, false);
	free(data);
	blob_ref(id, 1);
	return id;
}

uint32_t mock_drm_add_plane(const struct mock_drm_plane_info *info)
{
	ensure_init();
	if (g.num_planes == MAX_PLANES)
		abort();
	int i = g.num_planes++;
	struct plane *p = &g.planes[i];
	memset(p, 0, sizeof(*p));
	p->type = info->type;
	p->possible_crtcs = info->possible_crtcs ? info->possible_crtcs : 0xffffffffu;
	p->num_formats = info->num_formats;
	p->formats = calloc((size_t)info->num_formats + 1, sizeof(uint32_t));
	if (!p->formats)
		abort();
	memcpy(p->formats, info->formats, sizeof(uint32_t) * (size_t)info->num_formats);
	if (info->modifiers) {
		p->num_modifiers = info->num_modifiers;
		p->modifiers = calloc((size_t)info->num_modifiers + 1, sizeof(uint64_t));
		if (!p->modifiers)
			abort();
		memcpy(p->modifiers, info->modifiers,
			sizeof(uint64_t) * (size_t)info->num_modifiers);
	}

	props_attach(&p->props, g.p.type, info->type);
	props_attach(&p->props, g.p.fb_id, 0);
	props_attach(&p->props, g.p.in_fence_fd, (uint64_t)-1);
	props_attach(&p->props, g.p.crtc_id, 0);
	props_attach(&p->props, g.p.crtc_x, 0);
	props_attach(&p->props, g.p.crtc_y, 0);
	props_attach(&p->props, g.p.crtc_w, 0);
	props_attach(&p->props, g.p.crtc_h, 0);
	props_attach(&p->props, g.p.src_x, 0);
	props_attach(&p->props, g.p.src_y, 0);
	props_attach(&p->props, g.p.src_w, 0);
	props_attach(&p->props, g.p.src_h, 0);
	props_attach(&p->props, g.p.in_formats, in_formats_blob(p));
	if (info->zpos == MOCK_DRM_ZPOS_IMMUTABLE) {
		p->zpos_prop = prop_new("zpos", DRM_MODE_PROP_RANGE | DRM_MODE_PROP_IMMUTABLE,
			info->zpos_default, info->zpos_default);
		props_attach(&p->props, p->zpos_prop, info->zpos_default);
	} else if (info->zpos == MOCK_DRM_ZPOS_MUTABLE) {
		p->zpos_prop = prop_new("zpos", DRM_MODE_PROP_RANGE,
			info->zpos_min, info->zpos_max);
		props_attach(&p->props, p->zpos_prop, info->zpos_default);
	}
	if (info->hotspot && info->type == DRM_PLANE_TYPE_CURSOR) {
		p->hotspot = true;
		p->hotspot_x_prop = prop_new("HOTSPOT_X", DRM_MODE_PROP_SIGNED_RANGE |
			DRM_MODE_PROP_ATOMIC, (uint64_t)(int64_t)INT_MIN, INT_MAX);
		p->hotspot_y_prop = prop_new("HOTSPOT_Y", DRM_MODE_PROP_SIGNED_RANGE |
			DRM_MODE_PROP_ATOMIC, (uint64_t)(int64_t)INT_MIN, INT_MAX);
		props_attach(&p->props, p->hotspot_x_prop, 0);
		props_attach(&p->props, p->hotspot_y_prop, 0);
	}
	if (info->alpha) {
		uint32_t alpha = prop_new("alpha", DRM_MODE_PROP_RANGE, 0, 0xffff);
		props_attach(&p->props, alpha, 0xffff);
		uint32_t blend = prop_new("pixel blend mode", DRM_MODE_PROP_ENUM, 0, 0);
		prop_enum(blend, "None", BLEND_NONE);
		prop_enum(blend, "Pre-multiplied", BLEND_PREMULTI);
		prop_enum(blend, "Coverage", BLEND_COVERAGE);
		props_attach(&p->props, blend, BLEND_PREMULTI);
	}
	if (p->type == DRM_PLANE_TYPE_PRIMARY) {
		for (int c = 0; c < g.num_crtcs; c++) {
			if (g.crtcs[c].primary < 0 && (p->possible_crtcs & (1u << c))) {
				g.crtcs[c].primary = i;
				break;
			}
		}
	}
	return mkid(MOCK_DRM_PLANE, i);
}

static drmModeModeInfo dmt(uint32_t clock, const uint16_t h[4], const uint16_t v[4],
	uint32_t flags, bool preferred)
{
	drmModeModeInfo m;
	memset(&m, 0, sizeof(m));
	m.clock = clock;
	m.hdisplay = h[0];
	m.hsync_start = h[1];
	m.hsync_end = h[2];
	m.htotal = h[3];
	m.vdisplay = v[0];
	m.vsync_start = v[1];
	m.vsync_end = v[2];
	m.vtotal = v[3];
	m.vrefresh = 60;
	m.flags = flags;
	m.type = DRM_MODE_TYPE_DRIVER | (preferred ? DRM_MODE_TYPE_PREFERRED : 0);
	snprintf(m.name, sizeof(m.name), "%ux%u", h[0], v[0]);
	return m;
}

void mock_drm_setup_vkms_like(void)
{
	static const uint32_t primary_formats[] = {
		DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB16161616, DRM_FORMAT_RGB565,
	};
	static const uint32_t plane_formats[] = {
		DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB16161616,
		DRM_FORMAT_ARGB16161616, DRM_FORMAT_RGB565,
	};
	static const uint32_t wb_formats[] = {
		DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB16161616, DRM_FORMAT_ARGB16161616,
		DRM_FORMAT_RGB565,
	};
	const uint32_t nh = DRM_MODE_FLAG_NHSYNC | DRM_MODE_FLAG_NVSYNC;
	const uint32_t ph = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC;
	const drmModeModeInfo modes[] = {
		dmt(65000, (uint16_t[]){ 1024, 1048, 1184, 1344 },
			(uint16_t[]){ 768, 771, 777, 806 }, nh, true),
		dmt(148500, (uint16_t[]){ 1920, 2008, 2052, 2200 },
			(uint16_t[]){ 1080, 1084, 1089, 1125 }, ph, false),
		dmt(74250, (uint16_t[]){ 1280, 1390, 1430, 1650 },
			(uint16_t[]){ 720, 725, 730, 750 }, ph, false),
		dmt(40000, (uint16_t[]){ 800, 840, 968, 1056 },
			(uint16_t[]){ 600, 601, 605, 628 }, ph, false),
		dmt(25175, (uint16_t[]){ 640, 656, 752, 800 },
			(uint16_t[]){ 480, 490, 492, 525 }, nh, false),
	};

	mock_drm_reset();
	mock_drm_set_driver_name("vkms");
	mock_drm_set_dumb_pitch_align(1);
	mock_drm_set_cap(DRM_CAP_DUMB_PREFERRED_DEPTH, 0);
	mock_drm_set_cap(DRM_CAP_CURSOR_WIDTH, 512);
	mock_drm_set_cap(DRM_CAP_CURSOR_HEIGHT, 512);
	g.min_width = g.min_height = 10;

	mock_drm_add_crtc();
	mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_VIRTUAL,
		.modes = modes,
		.num_modes = (int)ARRAY_LEN(modes),
		.possible_crtcs = 1,
	});
	mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_WRITEBACK,
		.modes = modes,
		.num_modes = (int)ARRAY_LEN(modes),
		.possible_crtcs = 1,
		.writeback_formats = wb_formats,
		.num_writeback_formats = (int)ARRAY_LEN(wb_formats),
	});
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY,
		.possible_crtcs = 1,
		.formats = primary_formats,
		.num_formats = (int)ARRAY_LEN(primary_formats),
	});
	for (int i = 0; i < 8; i++) {
		mock_drm_add_plane(&(struct mock_drm_plane_info){
			.type = DRM_PLANE_TYPE_OVERLAY,
			.possible_crtcs = 1,
			.formats = plane_formats,
			.num_formats = (int)ARRAY_LEN(plane_formats),
		});
	}
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_CURSOR,
		.possible_crtcs = 1,
		.formats = plane_formats,
		.num_formats = (int)ARRAY_LEN(plane_formats),
	});
}

void mock_drm_fail_nth(const char *func, int n, int err)
{
	ensure_init();
	for (size_t i = 0; i < ARRAY_LEN(g.inject); i++) {
		struct inject *inj = &g.inject[i];
		if (inj->n > 0)
			continue;
		snprintf(inj->func, sizeof(inj->func), "%s", func);
		inj->n = n > 0 ? n : 1;
		inj->err = err;
		return;
	}
	abort();
}

static struct obj_props *obj_props_of(uint32_t obj_id);

int mock_drm_script_commit(const struct mock_drm_match *m, int err)
{
	ensure_init();
	if (g.num_verdicts == MAX_VERDICTS || err <= 0)
		abort();
	struct verdict *v = &g.verdicts[g.num_verdicts];
	memset(v, 0, sizeof(*v));
	v->kind = m->kind;
	for (int i = 0; i < MOCK_DRM_MATCH_PLANES && m->planes[i]; i++) {
		int index = id_index(m->planes[i], MOCK_DRM_PLANE, g.num_planes);
		if (index < 0)
			abort();
		v->planes[v->num_planes++] = index;
	}
	for (int i = 0; i < MOCK_DRM_MATCH_PROPS && m->props[i].obj; i++) {
		uint32_t prop = mock_drm_prop_id(m->props[i].obj, m->props[i].prop);
		if (!prop)
			abort();
		v->objs[v->num_props] = m->props[i].obj;
		v->props[v->num_props] = prop;
		v->values[v->num_props++] = m->props[i].value;
	}
	v->nth = m->nth > 0 ? m->nth : 0;
	v->err = err;
	return g.num_verdicts++;
}

unsigned mock_drm_script_hits(int verdict)
{
	ensure_init();
	return verdict >= 0 && verdict < g.num_verdicts ? g.verdicts[verdict].hits : 0;
}

/* ---- control API: queries --------------------------------------------------------- */

void mock_drm_get_counters(struct mock_drm_counters *out)
{
	ensure_init();
	g.c.live_fbs = g.c.live_blobs = g.c.live_gem_handles = 0;
	g.c.live_dumb_buffers = g.c.live_buffers = 0;
	g.c.pending_flips = 0;
	for (int i = 0; i < g.num_fbs; i++)
		g.c.live_fbs += g.fbs[i] != NULL;
	for (int i = 0; i < g.num_blobs; i++)
		g.c.live_blobs += g.blobs[i] && g.blobs[i]->user;
	for (int i = 0; i < g.num_bos; i++) {
		if (!g.bos[i])
			continue;
		g.c.live_buffers++;
		g.c.live_dumb_buffers += g.bos[i]->dumb;
		g.c.live_gem_handles += g.bos[i]->handle != 0;
	}
	for (int i = 0; i < g.num_flips; i++)
		g.c.pending_flips += !g.flips[i].done;
	*out = g.c;
}

int mock_drm_live_objects(void)
{
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	return c.live_fbs + c.live_blobs + c.live_gem_handles + c.live_buffers;
}

static struct obj_props *obj_props_of(uint32_t obj_id)
{
	int i;
	if ((i = id_index(obj_id, MOCK_DRM_CRTC, g.num_crtcs)) >= 0)
		return &g.crtcs[i].props;
	if ((i = id_index(obj_id, MOCK_DRM_CONNECTOR, g.num_conns)) >= 0)
		return &g.conns[i].props;
	if ((i = id_index(obj_id, MOCK_DRM_PLANE, g.num_planes)) >= 0)
		return &g.planes[i].props;
	return NULL;
}

uint32_t mock_drm_prop_id(uint32_t obj_id, const char *name)
{
	ensure_init();
	const struct obj_props *p = obj_props_of(obj_id);
	for (int i = 0; p && i < p->count; i++)
		if (strcmp(prop_get(p->ids[i])->name, name) == 0)
			return p->ids[i];
	return 0;
}

bool mock_drm_get_prop(uint32_t obj_id, const char *name, uint64_t *value)
{
	uint32_t id = mock_drm_prop_id(obj_id, name);
	if (!id)
		return false;
	*value = props_get(obj_props_of(obj_id), id);
	return true;
}

bool mock_drm_get_fb(uint32_t fb_id, struct mock_drm_fb_info *info)
{
	ensure_init();
	const struct fb *fb = fb_get(fb_id);
	if (!fb)
		return false;
	memset(info, 0, sizeof(*info));
	info->width = fb->width;
	info->height = fb->height;
	info->format = fb->format;
	info->modifier = fb->modifier;
	info->num_planes = fb->num_planes;
	memcpy(info->pitches, fb->pitches, sizeof(info->pitches));
	memcpy(info->offsets, fb->offsets, sizeof(info->offsets));
	return true;
}

const char *mock_drm_last_error(void)
{
	return g.msg;
}

/* ---- flips and events ------------------------------------------------------------- */

static void signal_fence(int fd)
{
	uint64_t one = 1;
	if (fd >= 0 && write(fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		abort();
}

static void notify_event(void)
{
	char byte = 0;
	if (write(g.pipe[1], &byte, 1) != 1)
		abort();
}

static void flip_complete(struct flip *f)
{
	f->done = true;
	if (f->fence_fd >= 0) {
		signal_fence(f->fence_fd);
		close(f->fence_fd);
		f->fence_fd = -1;
	}
	if (f->want_event)
		notify_event();
}

/* Completes pending flips (of one CRTC, or all if crtc < 0); drops those without event. */
static int complete_flips(int crtc)
{
	int n = 0, j = 0;
	for (int i = 0; i < g.num_flips; i++) {
		struct flip *f = &g.flips[i];
		if (!f->done && (crtc < 0 || f->crtc == crtc)) {
			flip_complete(f);
			n++;
		}
		if (f->done && !f->want_event)
			continue;
		g.flips[j++] = *f;
	}
	g.num_flips = j;
	return n;
}

static bool flip_pending(int crtc)
{
	for (int i = 0; i < g.num_flips; i++)
		if (!g.flips[i].done && g.flips[i].crtc == crtc)
			return true;
	return false;
}

void mock_drm_set_unpaced_flips(bool on)
{
	ensure_init();
	g.unpaced = on;
}

void mock_drm_set_flip_delay(bool hold)
{
	ensure_init();
	g.hold = hold;
}

int mock_drm_release_flips(void)
{
	ensure_init();
	return complete_flips(-1);
}

int mock_drm_release_crtc_flips(uint32_t crtc_id)
{
	ensure_init();
	int ci = id_index(crtc_id, MOCK_DRM_CRTC, g.num_crtcs);
	return ci < 0 ? -ENOENT : complete_flips(ci);
}

/* ---- libdrm: core ----------------------------------------------------------------- */

int drmSetClientCap(int fd, uint64_t capability, uint64_t value)
{
	CHECK_FD_M1(fd, "drmSetClientCap");
	switch (capability) {
	case DRM_CLIENT_CAP_STEREO_3D:
	case DRM_CLIENT_CAP_ASPECT_RATIO:
	case DRM_CLIENT_CAP_UNIVERSAL_PLANES:
		if (value > 1)
			return fail(EINVAL, "client cap %" PRIu64 ": bad value", capability), -1;
		if (capability == DRM_CLIENT_CAP_UNIVERSAL_PLANES)
			g.universal = value;
		return 0;
	case DRM_CLIENT_CAP_ATOMIC:
		if (value > 2)
			return fail(EINVAL, "client cap ATOMIC: bad value"), -1;
		g.atomic = value;
		g.universal = value;
		return 0;
	case DRM_CLIENT_CAP_WRITEBACK_CONNECTORS:
		if (value > 1 || !g.atomic)
			return fail(EINVAL, "WRITEBACK_CONNECTORS needs ATOMIC first"), -1;
		g.writeback = value;
		return 0;
	case MOCK_DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT:
		/* Linux 6.8+: any atomic driver takes it, after ATOMIC */
		if (value > 1 || !g.atomic)
			return fail(EINVAL, "CURSOR_PLANE_HOTSPOT needs ATOMIC first"), -1;
		g.cursor_hotspot = value;
		return 0;
	default:
		return fail(EINVAL, "unknown client cap %" PRIu64, capability), -1;
	}
}

int drmGetCap(int fd, uint64_t capability, uint64_t *value)
{
	CHECK_FD_M1(fd, "drmGetCap");
	for (int i = 0; i < g.num_caps; i++) {
		if (g.caps[i].cap == capability) {
			*value = g.caps[i].value;
			return 0;
		}
	}
	return fail(EINVAL, "unknown cap %" PRIu64, capability), -1;
}

drmVersionPtr drmGetVersion(int fd)
{
	CHECK_FD_NULL(fd, "drmGetVersion");
	drmVersionPtr v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->version_major = 1;
	v->name = strdup(g.driver);
	v->date = strdup("20180514");
	v->desc = strdup("mock KMS device");
	if (!v->name || !v->date || !v->desc) {
		drmFreeVersion(v);
		errno = ENOMEM;
		return NULL;
	}
	v->name_len = (int)strlen(v->name);
	v->date_len = (int)strlen(v->date);
	v->desc_len = (int)strlen(v->desc);
	return v;
}

void drmFreeVersion(drmVersionPtr v)
{
	if (!v)
		return;
	free(v->name);
	free(v->date);
	free(v->desc);
	free(v);
}

int drmSetMaster(int fd)
{
	CHECK_FD_M1(fd, "drmSetMaster");
	if (g.other_master)
		return fail(EBUSY, "drmSetMaster: another client is master"), -1;
	g.master = true;
	return 0;
}

int drmDropMaster(int fd)
{
	CHECK_FD_M1(fd, "drmDropMaster");
	if (!g.master)
		return fail(EINVAL, "drmDropMaster: not master"), -1;
	g.master = false;
	return 0;
}

int drmHandleEvent(int fd, drmEventContextPtr ctx)
{
	CHECK_FD_M1(fd, "drmHandleEvent");
	char buf[64];
	while (read(g.pipe[0], buf, sizeof(buf)) > 0)
		;

	int n = 0;
	for (int i = 0; i < g.num_flips; i++)
		n += g.flips[i].done;
	if (n == 0) {
		g.c.empty_handle_event++;
		return 0;
	}
	/* Detach first: handlers may commit and queue new flips. */
	struct flip *ready = calloc((size_t)n, sizeof(*ready));
	if (!ready)
		return fail(ENOMEM, "drmHandleEvent: out of memory"), -1;
	int j = 0, k = 0;
	for (int i = 0; i < g.num_flips; i++) {
		if (g.flips[i].done)
			ready[k++] = g.flips[i];
		else
			g.flips[j++] = g.flips[i];
	}
	g.num_flips = j;

	for (int i = 0; i < n; i++) {
		const struct flip *f = &ready[i];
		unsigned sec = (unsigned)(f->time_us / 1000000);
		unsigned usec = (unsigned)(f->time_us % 1000000);
		g.c.events_delivered++;
		if (ctx->version >= 3 && ctx->page_flip_handler2)
			ctx->page_flip_handler2(fd, f->seq, sec, usec,
				mkid(MOCK_DRM_CRTC, f->crtc), f->user_data);
		else if (ctx->page_flip_handler)
			ctx->page_flip_handler(fd, f->seq, sec, usec, f->user_data);
	}
	free(ready);
	return 0;
}

/*
 * Not used by libdispman, but libgbm links them from libdrm.so.2: without them nothing that
 * links GBM could link against the mock. There is no device node behind the mock.
 */
int drmGetDevice2(int fd, uint32_t flags, drmDevicePtr *device)
{
	if (device)
		*device = NULL;
	return fail(ENODEV, "drmGetDevice2: the mock device has no device node");
}

void drmFreeDevice(drmDevicePtr *device)
{
	if (device)
		*device = NULL;
}

/* ---- libdrm: buffers -------------------------------------------------------------- */

static int create_dumb(struct drm_mode_create_dumb *a)
{
	if (!get_cap(DRM_CAP_DUMB_BUFFER))
		return fail(ENOSYS, "no dumb buffers");
	if (!a->width || !a->height || !a->bpp)
		return fail(EINVAL, "CREATE_DUMB: zero width, height or bpp");
	if (a->flags)
		return fail(EINVAL, "CREATE_DUMB: flags must be 0");
	uint64_t cpp = (a->bpp + 7) / 8;
	uint64_t pitch = cpp * a->width;
	pitch = (pitch + g.dumb_align - 1) / g.dumb_align * g.dumb_align;
	if (pitch > UINT32_MAX)
		return fail(EINVAL, "CREATE_DUMB: pitch overflows");
	uint64_t size = pitch * a->height;
	long page = sysconf(_SC_PAGESIZE);
	size = (size + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page;
	if (size > MAX_DUMB_SIZE)
		return fail(ENOMEM, "CREATE_DUMB: %" PRIu64 " bytes is too large for the mock",
			size);

	int fd = memfd_create("mock-drm-dumb", MFD_CLOEXEC);
	if (fd < 0)
		return fail(errno, "memfd_create failed");
	if (ftruncate(fd, (off_t)size) != 0) {
		int err = errno;
		close(fd);
		return fail(err, "ftruncate failed");
	}
	struct bo *bo = bo_new(fd, size, true);
	if (!bo) {
		close(fd);
		return fail(ENOMEM, "CREATE_DUMB: out of memory");
	}
	a->handle = bo->handle;
	a->pitch = (uint32_t)pitch;
	a->size = size;
	return 0;
}

static int map_dumb(struct drm_mode_map_dumb *a)
{
	struct bo *bo = bo_by_handle(a->handle);
	if (!bo)
		return fail(ENOENT, "MAP_DUMB: no GEM handle %u", a->handle);
	if (!bo->dumb)
		return fail(EINVAL, "MAP_DUMB: imported objects cannot be mapped");
	a->offset = (uint64_t)bo->handle << 24;
	return 0;
}

static int atomic_ioctl(int fd, const struct drm_mode_atomic *a);

static int ioctl_once(int fd, unsigned long request, void *arg);

/* As libdrm's: the call again while it fails with EINTR or EAGAIN (an injected one too). */
int drmIoctl(int fd, unsigned long request, void *arg)
{
	int ret;
	do
		ret = ioctl_once(fd, request, arg);
	while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

static int ioctl_once(int fd, unsigned long request, void *arg)
{
	ensure_init();
	if (check_fd(fd) != 0) {
		if (request == DMA_BUF_IOCTL_SYNC) {
			/* CPU access brackets on an exported or imported buffer. */
			struct stat st;
			const struct dma_buf_sync *s = arg;
			if (fstat(fd, &st) != 0)
				return fail(EBADF, "DMA_BUF_IOCTL_SYNC: bad fd"), -1;
			if (s->flags & ~(uint64_t)DMA_BUF_SYNC_VALID_FLAGS_MASK ||
			    !(s->flags & DMA_BUF_SYNC_RW))
				return fail(EINVAL, "DMA_BUF_IOCTL_SYNC: bad flags"), -1;
			return 0;
		}
		return fail(ENOTTY, "drmIoctl on an fd that is not the mock device"), -1;
	}
	if (injected("drmIoctl"))
		return -1;
	if (request == DRM_IOCTL_MODE_ATOMIC)
		return atomic_ioctl(fd, arg);

	const char *name;
	switch (request) {
	case DRM_IOCTL_MODE_CREATE_DUMB: name = "DRM_IOCTL_MODE_CREATE_DUMB"; break;
	case DRM_IOCTL_MODE_MAP_DUMB: name = "DRM_IOCTL_MODE_MAP_DUMB"; break;
	case DRM_IOCTL_MODE_DESTROY_DUMB: name = "DRM_IOCTL_MODE_DESTROY_DUMB"; break;
	case DRM_IOCTL_GEM_CLOSE: name = "DRM_IOCTL_GEM_CLOSE"; break;
	default:
		return fail(EINVAL, "drmIoctl: request 0x%lx not emulated", request), -1;
	}
	if (injected(name))
		return -1;

	int ret;
	switch (request) {
	case DRM_IOCTL_MODE_CREATE_DUMB:
		ret = create_dumb(arg);
		break;
	case DRM_IOCTL_MODE_MAP_DUMB:
		ret = map_dumb(arg);
		break;
	case DRM_IOCTL_MODE_DESTROY_DUMB:
		ret = gem_close(((struct drm_mode_destroy_dumb *)arg)->handle);
		break;
	default:
		ret = gem_close(((struct drm_gem_close *)arg)->handle);
		break;
	}
	return ret < 0 ? -1 : 0;
}

int drmCloseBufferHandle(int fd, uint32_t handle)
{
	CHECK_FD_M1(fd, "drmCloseBufferHandle");
	return gem_close(handle) < 0 ? -1 : 0;
}

int drmPrimeHandleToFD(int fd, uint32_t handle, uint32_t flags, int *prime_fd)
{
	CHECK_FD_M1(fd, "drmPrimeHandleToFD");
	if (flags & ~(uint32_t)(DRM_CLOEXEC | DRM_RDWR))
		return fail(EINVAL, "PRIME export: bad flags 0x%x", flags), -1;
	struct bo *bo = bo_by_handle(handle);
	if (!bo)
		return fail(ENOENT, "PRIME export: no GEM handle %u", handle), -1;
	int out = fcntl(bo->fd, (flags & DRM_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (out < 0)
		return fail(errno, "PRIME export: dup failed"), -1;
	*prime_fd = out;
	return 0;
}

int drmPrimeFDToHandle(int fd, int prime_fd, uint32_t *handle)
{
	CHECK_FD_M1(fd, "drmPrimeFDToHandle");
	struct stat st;
	if (fstat(prime_fd, &st) != 0)
		return fail(EBADF, "PRIME import: bad fd %d", prime_fd), -1;
	if (!S_ISREG(st.st_mode) || st.st_size <= 0)
		return fail(EINVAL, "PRIME import: fd %d is not a dma-buf", prime_fd), -1;
	for (int i = 0; i < g.num_bos; i++) {
		struct bo *bo = g.bos[i];
		if (!bo || bo->dev != st.st_dev || bo->ino != st.st_ino)
			continue;
		if (!bo->handle) {
			bo->handle = g.next_handle++;
			bo->refs++;
		}
		*handle = bo->handle;
		return 0;
	}
	int dup_fd = fcntl(prime_fd, F_DUPFD_CLOEXEC, 0);
	if (dup_fd < 0)
		return fail(errno, "PRIME import: dup failed"), -1;
	struct bo *bo = bo_new(dup_fd, (uint64_t)st.st_size, false);
	if (!bo) {
		close(dup_fd);
		return fail(ENOMEM, "PRIME import: out of memory"), -1;
	}
	*handle = bo->handle;
	return 0;
}

/* ---- libdrm: framebuffers --------------------------------------------------------- */

static int add_fb2(uint32_t width, uint32_t height, uint32_t pixel_format,
	const uint32_t bo_handles[4], const uint32_t pitches[4], const uint32_t offsets[4],
	const uint64_t modifier[4], uint32_t *buf_id, uint32_t flags)
{
	uint64_t mods[4] = { 0 };
	if (modifier)
		memcpy(mods, modifier, sizeof(mods));

	if (flags & ~(uint32_t)(DRM_MODE_FB_INTERLACED | DRM_MODE_FB_MODIFIERS))
		return fail(EINVAL, "ADDFB2: bad flags 0x%x", flags);
	if ((flags & DRM_MODE_FB_MODIFIERS) && !get_cap(DRM_CAP_ADDFB2_MODIFIERS))
		return fail(EINVAL, "ADDFB2: modifiers not supported");
	if (width < 1 || width > g.max_width)
		return fail(EINVAL, "ADDFB2: bad width %u", width);
	if (height < 1 || height > g.max_height)
		return fail(EINVAL, "ADDFB2: bad height %u", height);
	const struct format_info *info = format_lookup(pixel_format);
	if (!info)
		return fail(EINVAL, "ADDFB2: bad format 0x%08x", pixel_format);

	struct bo *bos[4] = { NULL };
	for (int i = 0; i < info->num_planes; i++) {
		uint32_t w = i ? (width + info->hsub - 1) / info->hsub : width;
		uint32_t h = i ? (height + info->vsub - 1) / info->vsub : height;
		uint64_t min_pitch = (uint64_t)w * info->cpp[i];
		if (!bo_handles[i])
			return fail(EINVAL, "ADDFB2: no buffer object handle for plane %d", i);
		if ((uint64_t)h * pitches[i] + offsets[i] > UINT_MAX)
			return fail(ERANGE, "ADDFB2: plane %d overflows", i);
		if (pitches[i] < min_pitch)
			return fail(EINVAL, "ADDFB2: bad pitch %u for plane %d", pitches[i], i);
		if (mods[i] && !(flags & DRM_MODE_FB_MODIFIERS))
			return fail(EINVAL, "ADDFB2: modifier without DRM_MODE_FB_MODIFIERS");
		if (mods[i] != mods[0])
			return fail(EINVAL, "ADDFB2: modifiers differ between planes");
	}
	for (int i = info->num_planes; i < 4; i++) {
		if (mods[i])
			return fail(EINVAL, "ADDFB2: non-zero modifier for unused plane %d", i);
		if (!(flags & DRM_MODE_FB_MODIFIERS))
			continue;
		if (bo_handles[i] || pitches[i] || offsets[i])
			return fail(EINVAL, "ADDFB2: handle, pitch or offset for unused plane %d",
				i);
	}
	for (int i = 0; i < info->num_planes; i++) {
		uint32_t w = i ? (width + info->hsub - 1) / info->hsub : width;
		uint32_t h = i ? (height + info->vsub - 1) / info->vsub : height;
		bos[i] = bo_by_handle(bo_handles[i]);
		if (!bos[i])
			return fail(ENOENT, "ADDFB2: no GEM handle %u", bo_handles[i]);
		uint64_t min_size = (uint64_t)(h - 1) * pitches[i] +
			(uint64_t)w * info->cpp[i] + offsets[i];
		if (bos[i]->size < min_size)
			return fail(EINVAL, "ADDFB2: buffer of %" PRIu64 " bytes for plane %d"
				" needs %" PRIu64, bos[i]->size, i, min_size);
	}

	struct fb *fb = calloc(1, sizeof(*fb));
	struct fb **fbs = realloc(g.fbs, sizeof(*fbs) * (size_t)(g.num_fbs + 1));
	if (fbs)
		g.fbs = fbs;
	if (!fb || !fbs) {
		free(fb);
		return fail(ENOMEM, "ADDFB2: out of memory");
	}
	fb->width = width;
	fb->height = height;
	fb->format = pixel_format;
	fb->modifier = mods[0];
	fb->num_planes = info->num_planes;
	for (int i = 0; i < info->num_planes; i++) {
		fb->bos[i] = bos[i];
		bos[i]->refs++;
		fb->pitches[i] = pitches[i];
		fb->offsets[i] = offsets[i];
	}
	g.fbs[g.num_fbs] = fb;
	*buf_id = mkid(MOCK_DRM_FB, g.num_fbs++);
	return 0;
}

int drmModeAddFB2WithModifiers(int fd, uint32_t width, uint32_t height, uint32_t pixel_format,
	const uint32_t bo_handles[4], const uint32_t pitches[4], const uint32_t offsets[4],
	const uint64_t modifier[4], uint32_t *buf_id, uint32_t flags)
{
	CHECK_FD_NEG(fd, "drmModeAddFB2WithModifiers");
	return add_fb2(width, height, pixel_format, bo_handles, pitches, offsets, modifier,
		buf_id, flags);
}

int drmModeAddFB2(int fd, uint32_t width, uint32_t height, uint32_t pixel_format,
	const uint32_t bo_handles[4], const uint32_t pitches[4], const uint32_t offsets[4],
	uint32_t *buf_id, uint32_t flags)
{
	CHECK_FD_NEG(fd, "drmModeAddFB2");
	return add_fb2(width, height, pixel_format, bo_handles, pitches, offsets, NULL, buf_id,
		flags);
}

int drmModeRmFB(int fd, uint32_t buffer_id)
{
	CHECK_FD_NEG(fd, "drmModeRmFB");
	int index = id_index(buffer_id, MOCK_DRM_FB, g.num_fbs);
	struct fb *fb = index < 0 ? NULL : g.fbs[index];
	if (!fb)
		return fail(ENOENT, "RMFB: no FB %u", buffer_id);
	/* Like the kernel: planes still scanning the FB out are disabled, and so is the
	 * CRTC (with its connectors) whose primary plane it was. */
	for (int i = 0; i < g.num_planes; i++) {
		struct obj_props *pp = &g.planes[i].props;
		if (props_get(pp, g.p.fb_id) != buffer_id)
			continue;
		int ci = id_index((uint32_t)props_get(pp, g.p.crtc_id), MOCK_DRM_CRTC, g.num_crtcs);
		props_set(pp, g.p.fb_id, 0);
		props_set(pp, g.p.crtc_id, 0);
		g.c.rmfb_disabled_planes++;
		if (ci < 0 || g.crtcs[ci].primary != i)
			continue;
		struct obj_props *cp = &g.crtcs[ci].props;
		blob_ref((uint32_t)props_get(cp, g.p.mode_id), -1);
		props_set(cp, g.p.mode_id, 0);
		props_set(cp, g.p.active, 0);
		for (int j = 0; j < g.num_conns; j++)
			if (props_get(&g.conns[j].props, g.p.crtc_id) == mkid(MOCK_DRM_CRTC, ci))
				props_set(&g.conns[j].props, g.p.crtc_id, 0);
	}
	for (int i = 0; i < fb->num_planes; i++)
		bo_unref(fb->bos[i]);
	free(fb);
	g.fbs[index] = NULL;
	return 0;
}

/* ---- libdrm: resources ------------------------------------------------------------ */

static bool conn_visible(const struct connector *c)
{
	return c->type != DRM_MODE_CONNECTOR_WRITEBACK || g.writeback;
}

static uint32_t crtc_mask(void)
{
	return g.num_crtcs >= 32 ? 0xffffffffu : (1u << g.num_crtcs) - 1;
}

static uint32_t *id_array(enum mock_drm_obj_type type, int count)
{
	uint32_t *ids = calloc((size_t)count + 1, sizeof(uint32_t));
	for (int i = 0; ids && i < count; i++)
		ids[i] = mkid(type, i);
	return ids;
}

drmModeResPtr drmModeGetResources(int fd)
{
	CHECK_FD_NULL(fd, "drmModeGetResources");
	drmModeResPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->fbs = calloc((size_t)g.num_fbs + 1, sizeof(uint32_t));
	r->crtcs = id_array(MOCK_DRM_CRTC, g.num_crtcs);
	r->encoders = id_array(MOCK_DRM_ENCODER, g.num_conns);
	r->connectors = calloc((size_t)g.num_conns + 1, sizeof(uint32_t));
	if (!r->fbs || !r->crtcs || !r->encoders || !r->connectors) {
		drmModeFreeResources(r);
		errno = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < g.num_fbs; i++)
		if (g.fbs[i])
			r->fbs[r->count_fbs++] = mkid(MOCK_DRM_FB, i);
	r->count_crtcs = g.num_crtcs;
	r->count_encoders = g.num_conns;
	for (int i = 0; i < g.num_conns; i++)
		if (conn_visible(&g.conns[i]))
			r->connectors[r->count_connectors++] = mkid(MOCK_DRM_CONNECTOR, i);
	r->min_width = g.min_width;
	r->max_width = g.max_width;
	r->min_height = g.min_height;
	r->max_height = g.max_height;
	return r;
}

void drmModeFreeResources(drmModeResPtr r)
{
	if (!r)
		return;
	free(r->fbs);
	free(r->crtcs);
	free(r->connectors);
	free(r->encoders);
	free(r);
}

/* Copies an object's properties, hiding atomic ones from non-atomic clients. */
static int copy_props(const struct obj_props *p, uint32_t **ids, uint64_t **vals)
{
	*ids = calloc((size_t)p->count + 1, sizeof(uint32_t));
	*vals = calloc((size_t)p->count + 1, sizeof(uint64_t));
	if (!*ids || !*vals) {
		free(*ids);
		free(*vals);
		*ids = NULL;
		*vals = NULL;
		return -1;
	}
	int n = 0;
	for (int i = 0; i < p->count; i++) {
		const struct prop *prop = prop_get(p->ids[i]);
		if ((prop->flags & DRM_MODE_PROP_ATOMIC) && !g.atomic)
			continue;
		if (p->ids[i] == g.p.in_formats && !get_cap(DRM_CAP_ADDFB2_MODIFIERS))
			continue;
		(*ids)[n] = p->ids[i];
		(*vals)[n] = p->vals[i];
		n++;
	}
	return n;
}

static int conn_crtc(int conn)
{
	return id_index((uint32_t)props_get(&g.conns[conn].props, g.p.crtc_id),
		MOCK_DRM_CRTC, g.num_crtcs);
}

drmModeConnectorPtr drmModeGetConnector(int fd, uint32_t connector_id)
{
	CHECK_FD_NULL(fd, "drmModeGetConnector");
	int i = id_index(connector_id, MOCK_DRM_CONNECTOR, g.num_conns);
	if (i < 0) {
		fail(ENOENT, "GETCONNECTOR: no connector %u", connector_id);
		return NULL;
	}
	const struct connector *c = &g.conns[i];
	drmModeConnectorPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->connector_id = connector_id;
	r->encoder_id = conn_crtc(i) >= 0 ? mkid(MOCK_DRM_ENCODER, i) : 0;
	r->connector_type = c->type;
	r->connector_type_id = c->type_id;
	r->connection = c->status;
	r->mmWidth = c->mm_width;
	r->mmHeight = c->mm_height;
	r->subpixel = DRM_MODE_SUBPIXEL_UNKNOWN;
	r->modes = calloc((size_t)c->num_modes + 1, sizeof(*r->modes));
	r->encoders = calloc(1, sizeof(uint32_t));
	int n = copy_props(&c->props, &r->props, &r->prop_values);
	if (!r->modes || !r->encoders || n < 0) {
		drmModeFreeConnector(r);
		errno = ENOMEM;
		return NULL;
	}
	/* Like the kernel, a disconnected connector reports no modes. */
	if (c->status != DRM_MODE_DISCONNECTED && c->num_modes > 0) {
		memcpy(r->modes, c->modes, sizeof(*r->modes) * (size_t)c->num_modes);
		r->count_modes = c->num_modes;
	}
	r->count_props = n;
	r->encoders[0] = mkid(MOCK_DRM_ENCODER, i);
	r->count_encoders = 1;
	return r;
}

void drmModeFreeConnector(drmModeConnectorPtr r)
{
	if (!r)
		return;
	free(r->modes);
	free(r->props);
	free(r->prop_values);
	free(r->encoders);
	free(r);
}

static uint32_t encoder_type(uint32_t connector_type)
{
	switch (connector_type) {
	case DRM_MODE_CONNECTOR_VGA: return DRM_MODE_ENCODER_DAC;
	case DRM_MODE_CONNECTOR_LVDS: return DRM_MODE_ENCODER_LVDS;
	case DRM_MODE_CONNECTOR_DSI: return DRM_MODE_ENCODER_DSI;
	case DRM_MODE_CONNECTOR_DVII:
	case DRM_MODE_CONNECTOR_DVID:
	case DRM_MODE_CONNECTOR_HDMIA:
	case DRM_MODE_CONNECTOR_DisplayPort:
	case DRM_MODE_CONNECTOR_eDP: return DRM_MODE_ENCODER_TMDS;
	case DRM_MODE_CONNECTOR_VIRTUAL:
	case DRM_MODE_CONNECTOR_WRITEBACK: return DRM_MODE_ENCODER_VIRTUAL;
	default: return DRM_MODE_ENCODER_NONE;
	}
}

drmModeEncoderPtr drmModeGetEncoder(int fd, uint32_t encoder_id)
{
	CHECK_FD_NULL(fd, "drmModeGetEncoder");
	int i = id_index(encoder_id, MOCK_DRM_ENCODER, g.num_conns);
	if (i < 0) {
		fail(ENOENT, "GETENCODER: no encoder %u", encoder_id);
		return NULL;
	}
	drmModeEncoderPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	int ci = conn_crtc(i);
	r->encoder_id = encoder_id;
	r->encoder_type = encoder_type(g.conns[i].type);
	r->crtc_id = ci >= 0 ? mkid(MOCK_DRM_CRTC, ci) : 0;
	r->possible_crtcs = g.conns[i].possible_crtcs & crtc_mask();
	r->possible_clones = g.conns[i].possible_clones;
	return r;
}

void drmModeFreeEncoder(drmModeEncoderPtr r)
{
	free(r);
}

/* The mode of a MODE_ID value, or NULL. */
static const struct drm_mode_modeinfo *mode_of(uint64_t blob_id)
{
	const struct blob *b = blob_id ? blob_get((uint32_t)blob_id) : NULL;
	return b && b->len == sizeof(struct drm_mode_modeinfo) ? b->data : NULL;
}

drmModeCrtcPtr drmModeGetCrtc(int fd, uint32_t crtc_id)
{
	CHECK_FD_NULL(fd, "drmModeGetCrtc");
	int i = id_index(crtc_id, MOCK_DRM_CRTC, g.num_crtcs);
	if (i < 0) {
		fail(ENOENT, "GETCRTC: no CRTC %u", crtc_id);
		return NULL;
	}
	const struct crtc *c = &g.crtcs[i];
	drmModeCrtcPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->crtc_id = crtc_id;
	if (c->primary >= 0) {
		const struct obj_props *pp = &g.planes[c->primary].props;
		if (props_get(pp, g.p.crtc_id) == crtc_id) {
			r->buffer_id = (uint32_t)props_get(pp, g.p.fb_id);
			r->x = (uint32_t)(props_get(pp, g.p.src_x) >> 16);
			r->y = (uint32_t)(props_get(pp, g.p.src_y) >> 16);
		}
	}
	const struct drm_mode_modeinfo *m = mode_of(props_get(&c->props, g.p.mode_id));
	if (m) {
		memcpy(&r->mode, m, sizeof(r->mode));
		r->mode_valid = 1;
		r->width = m->hdisplay;
		r->height = m->vdisplay;
	}
	return r;
}

void drmModeFreeCrtc(drmModeCrtcPtr r)
{
	free(r);
}

drmModePlaneResPtr drmModeGetPlaneResources(int fd)
{
	CHECK_FD_NULL(fd, "drmModeGetPlaneResources");
	drmModePlaneResPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->planes = calloc((size_t)g.num_planes + 1, sizeof(uint32_t));
	if (!r->planes) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < g.num_planes; i++)
		if ((g.universal || g.planes[i].type == DRM_PLANE_TYPE_OVERLAY) &&
		    (!g.planes[i].hotspot || g.cursor_hotspot))
			r->planes[r->count_planes++] = mkid(MOCK_DRM_PLANE, i);
	return r;
}

void drmModeFreePlaneResources(drmModePlaneResPtr r)
{
	if (!r)
		return;
	free(r->planes);
	free(r);
}

drmModePlanePtr drmModeGetPlane(int fd, uint32_t plane_id)
{
	CHECK_FD_NULL(fd, "drmModeGetPlane");
	int i = id_index(plane_id, MOCK_DRM_PLANE, g.num_planes);
	if (i < 0) {
		fail(ENOENT, "GETPLANE: no plane %u", plane_id);
		return NULL;
	}
	const struct plane *p = &g.planes[i];
	drmModePlanePtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->formats = calloc((size_t)p->num_formats + 1, sizeof(uint32_t));
	if (!r->formats) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(r->formats, p->formats, sizeof(uint32_t) * (size_t)p->num_formats);
	r->count_formats = (uint32_t)p->num_formats;
	r->plane_id = plane_id;
	r->crtc_id = (uint32_t)props_get(&p->props, g.p.crtc_id);
	r->fb_id = (uint32_t)props_get(&p->props, g.p.fb_id);
	r->crtc_x = (uint32_t)props_get(&p->props, g.p.crtc_x);
	r->crtc_y = (uint32_t)props_get(&p->props, g.p.crtc_y);
	r->x = (uint32_t)(props_get(&p->props, g.p.src_x) >> 16);
	r->y = (uint32_t)(props_get(&p->props, g.p.src_y) >> 16);
	r->possible_crtcs = p->possible_crtcs & crtc_mask();
	return r;
}

void drmModeFreePlane(drmModePlanePtr r)
{
	if (!r)
		return;
	free(r->formats);
	free(r);
}

static uint32_t drm_object_type(enum mock_drm_obj_type t)
{
	switch (t) {
	case MOCK_DRM_CRTC: return DRM_MODE_OBJECT_CRTC;
	case MOCK_DRM_CONNECTOR: return DRM_MODE_OBJECT_CONNECTOR;
	case MOCK_DRM_ENCODER: return DRM_MODE_OBJECT_ENCODER;
	case MOCK_DRM_PLANE: return DRM_MODE_OBJECT_PLANE;
	case MOCK_DRM_PROPERTY: return DRM_MODE_OBJECT_PROPERTY;
	case MOCK_DRM_BLOB: return DRM_MODE_OBJECT_BLOB;
	case MOCK_DRM_FB: return DRM_MODE_OBJECT_FB;
	}
	return 0;
}

/* Whether an id names a live object of any type. */
static bool object_exists(uint32_t id)
{
	switch (id >> 24) {
	case MOCK_DRM_CRTC: return id_index(id, MOCK_DRM_CRTC, g.num_crtcs) >= 0;
	case MOCK_DRM_CONNECTOR: return id_index(id, MOCK_DRM_CONNECTOR, g.num_conns) >= 0;
	case MOCK_DRM_ENCODER: return id_index(id, MOCK_DRM_ENCODER, g.num_conns) >= 0;
	case MOCK_DRM_PLANE: return id_index(id, MOCK_DRM_PLANE, g.num_planes) >= 0;
	case MOCK_DRM_PROPERTY: return prop_get(id) != NULL;
	case MOCK_DRM_BLOB: return blob_get(id) != NULL;
	case MOCK_DRM_FB: return fb_get(id) != NULL;
	default: return false;
	}
}

drmModeObjectPropertiesPtr drmModeObjectGetProperties(int fd, uint32_t object_id,
	uint32_t object_type)
{
	CHECK_FD_NULL(fd, "drmModeObjectGetProperties");
	if (!object_exists(object_id) || (object_type != DRM_MODE_OBJECT_ANY &&
	    object_type != drm_object_type((enum mock_drm_obj_type)(object_id >> 24)))) {
		fail(ENOENT, "OBJ_GETPROPERTIES: no object %u of type 0x%x", object_id,
			object_type);
		return NULL;
	}
	const struct obj_props *p = obj_props_of(object_id);
	if (!p) {
		fail(EINVAL, "OBJ_GETPROPERTIES: object %u has no properties", object_id);
		return NULL;
	}
	drmModeObjectPropertiesPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	int n = copy_props(p, &r->props, &r->prop_values);
	if (n < 0) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->count_props = (uint32_t)n;
	return r;
}

void drmModeFreeObjectProperties(drmModeObjectPropertiesPtr r)
{
	if (!r)
		return;
	free(r->props);
	free(r->prop_values);
	free(r);
}

drmModePropertyPtr drmModeGetProperty(int fd, uint32_t property_id)
{
	CHECK_FD_NULL(fd, "drmModeGetProperty");
	const struct prop *p = prop_get(property_id);
	if (!p) {
		fail(ENOENT, "GETPROPERTY: no property %u", property_id);
		return NULL;
	}
	drmModePropertyPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->prop_id = property_id;
	r->flags = p->flags;
	memcpy(r->name, p->name, sizeof(r->name));
	if (p->flags & (DRM_MODE_PROP_RANGE | DRM_MODE_PROP_SIGNED_RANGE)) {
		r->count_values = 2;
		r->values = calloc(2, sizeof(uint64_t));
		if (r->values) {
			r->values[0] = p->min;
			r->values[1] = p->max;
		}
	} else if (p->flags & DRM_MODE_PROP_OBJECT) {
		r->count_values = 1;
		r->values = calloc(1, sizeof(uint64_t));
		if (r->values)
			r->values[0] = p->min;
	} else if (p->flags & DRM_MODE_PROP_ENUM) {
		r->count_values = r->count_enums = p->num_enums;
		r->values = calloc((size_t)p->num_enums, sizeof(uint64_t));
		r->enums = calloc((size_t)p->num_enums, sizeof(*r->enums));
		if (!r->enums)
			r->count_values = 0;
		for (int i = 0; r->values && r->enums && i < p->num_enums; i++) {
			r->values[i] = p->enums[i].value;
			r->enums[i] = p->enums[i];
		}
	}
	if (r->count_values && !r->values) {
		drmModeFreeProperty(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

void drmModeFreeProperty(drmModePropertyPtr r)
{
	if (!r)
		return;
	free(r->values);
	free(r->enums);
	free(r->blob_ids);
	free(r);
}

drmModePropertyBlobPtr drmModeGetPropertyBlob(int fd, uint32_t blob_id)
{
	CHECK_FD_NULL(fd, "drmModeGetPropertyBlob");
	const struct blob *b = blob_get(blob_id);
	if (!b) {
		fail(ENOENT, "GETPROPBLOB: no blob %u", blob_id);
		return NULL;
	}
	drmModePropertyBlobPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->data = malloc(b->len ? b->len : 1);
	if (!r->data) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(r->data, b->data, b->len);
	r->id = blob_id;
	r->length = b->len;
	return r;
}

void drmModeFreePropertyBlob(drmModePropertyBlobPtr r)
{
	if (!r)
		return;
	free(r->data);
	free(r);
}

bool drmModeFormatModifierBlobIterNext(const drmModePropertyBlobRes *blob,
	drmModeFormatModifierIterator *iter)
{
	const struct drm_format_modifier_blob *hdr = blob->data;
	const uint32_t *fmts = (const void *)((const uint8_t *)blob->data + hdr->formats_offset);
	const struct drm_format_modifier *mods =
		(const void *)((const uint8_t *)blob->data + hdr->modifiers_offset);

	while (iter->fmt_idx < hdr->count_formats) {
		while (iter->mod_idx < hdr->count_modifiers) {
			const struct drm_format_modifier *m = &mods[iter->mod_idx++];
			uint32_t f = iter->fmt_idx;
			if (f < m->offset || f >= m->offset + 64 ||
			    !(m->formats & (1ull << (f - m->offset))))
				continue;
			iter->fmt = fmts[f];
			iter->mod = m->modifier;
			return true;
		}
		iter->mod_idx = 0;
		iter->fmt_idx++;
	}
	return false;
}

int drmModeCreatePropertyBlob(int fd, const void *data, size_t size, uint32_t *id)
{
	CHECK_FD_NEG(fd, "drmModeCreatePropertyBlob");
	if (!size || size > INT_MAX)
		return fail(EINVAL, "CREATEPROPBLOB: bad size %zu", size);
	if (!data)
		return fail(EFAULT, "CREATEPROPBLOB: NULL data");
	uint32_t blob = blob_new(data, size, true);
	if (!blob)
		return fail(ENOMEM, "CREATEPROPBLOB: out of memory");
	*id = blob;
	return 0;
}

int drmModeDestroyPropertyBlob(int fd, uint32_t id)
{
	CHECK_FD_NEG(fd, "drmModeDestroyPropertyBlob");
	struct blob *b = blob_get(id);
	if (!b)
		return fail(EINVAL, "DESTROYPROPBLOB: no blob %u", id);
	if (!b->user)
		return fail(EPERM, "DESTROYPROPBLOB: blob %u is not the client's", id);
	b->user = false;
	blob_release(id);
	return 0;
}

/* ---- libdrm: format names --------------------------------------------------------- */

char *drmGetFormatName(uint32_t format)
{
	if (format == DRM_FORMAT_INVALID)
		return strdup("INVALID");
	const char *be = (format & DRM_FORMAT_BIG_ENDIAN) ? "_BE" : "";
	format &= ~DRM_FORMAT_BIG_ENDIAN;
	char code[5];
	for (int i = 0; i < 4; i++)
		code[i] = (char)(format >> (8 * i));
	code[4] = '\0';
	for (int i = 3; i > 0 && code[i] == ' '; i--)
		code[i] = '\0';
	char *out;
	if (asprintf(&out, "%s%s", code, be) < 0)
		return NULL;
	return out;
}

char *drmGetFormatModifierName(uint64_t modifier)
{
	if (modifier == DRM_FORMAT_MOD_INVALID)
		return strdup("INVALID");
	if (modifier == DRM_FORMAT_MOD_LINEAR)
		return strdup("LINEAR");
	char *out;
	if (asprintf(&out, "0x%016" PRIx64, modifier) < 0)
		return NULL;
	return out;
}

/* ---- libdrm: atomic --------------------------------------------------------------- */

struct atomic_item {
	uint32_t obj, prop;
	uint64_t value;
};

struct _drmModeAtomicReq {
	int cursor, size;
	struct atomic_item *items;
};

drmModeAtomicReqPtr drmModeAtomicAlloc(void)
{
	return calloc(1, sizeof(struct _drmModeAtomicReq));
}

void drmModeAtomicFree(drmModeAtomicReqPtr req)
{
	if (!req)
		return;
	free(req->items);
	free(req);
}

int drmModeAtomicGetCursor(const drmModeAtomicReqPtr req)
{
	return req ? req->cursor : -EINVAL;
}

void drmModeAtomicSetCursor(drmModeAtomicReqPtr req, int cursor)
{
	if (req)
		req->cursor = cursor;
}

int drmModeAtomicAddProperty(drmModeAtomicReqPtr req, uint32_t object_id,
	uint32_t property_id, uint64_t value)
{
	if (!req)
		return -EINVAL;
	if (req->cursor >= req->size) {
		int size = req->size ? req->size * 2 : 16;
		struct atomic_item *items = realloc(req->items, sizeof(*items) * (size_t)size);
		if (!items)
			return -ENOMEM;
		req->items = items;
		req->size = size;
	}
	req->items[req->cursor] = (struct atomic_item){ object_id, property_id, value };
	return ++req->cursor;
}

struct stage {
	struct obj_props crtc[MAX_CRTCS], conn[MAX_CONNECTORS], plane[MAX_PLANES];
	bool crtc_in[MAX_CRTCS], conn_in[MAX_CONNECTORS], plane_in[MAX_PLANES];
	bool modeset[MAX_CRTCS];
};

struct pstate {
	uint32_t fb, crtc;
	uint32_t src_x, src_y, src_w, src_h;
	int32_t crtc_x, crtc_y;
	uint32_t crtc_w, crtc_h;
};

static void plane_view(const struct obj_props *p, struct pstate *s)
{
	s->fb = (uint32_t)props_get(p, g.p.fb_id);
	s->crtc = (uint32_t)props_get(p, g.p.crtc_id);
	s->src_x = (uint32_t)props_get(p, g.p.src_x);
	s->src_y = (uint32_t)props_get(p, g.p.src_y);
	s->src_w = (uint32_t)props_get(p, g.p.src_w);
	s->src_h = (uint32_t)props_get(p, g.p.src_h);
	s->crtc_x = (int32_t)props_get(p, g.p.crtc_x);
	s->crtc_y = (int32_t)props_get(p, g.p.crtc_y);
	s->crtc_w = (uint32_t)props_get(p, g.p.crtc_w);
	s->crtc_h = (uint32_t)props_get(p, g.p.crtc_h);
}

static bool mode_equal(const struct drm_mode_modeinfo *a, const struct drm_mode_modeinfo *b)
{
	if (!a || !b)
		return a == b;
	return a->clock == b->clock && a->hdisplay == b->hdisplay &&
		a->hsync_start == b->hsync_start && a->hsync_end == b->hsync_end &&
		a->htotal == b->htotal && a->hskew == b->hskew && a->vdisplay == b->vdisplay &&
		a->vsync_start == b->vsync_start && a->vsync_end == b->vsync_end &&
		a->vtotal == b->vtotal && a->vscan == b->vscan && a->flags == b->flags;
}

static bool mode_valid(const struct drm_mode_modeinfo *m)
{
	return m->clock && m->hdisplay && m->hsync_start >= m->hdisplay &&
		m->hsync_end >= m->hsync_start && m->htotal >= m->hsync_end &&
		m->vdisplay && m->vsync_start >= m->vdisplay &&
		m->vsync_end >= m->vsync_start && m->vtotal >= m->vsync_end;
}

static uint64_t frame_time_us(const struct drm_mode_modeinfo *m)
{
	if (!m || !m->clock)
		return 16667;
	return (uint64_t)m->htotal * m->vtotal * 1000 / m->clock;
}

static const char *obj_name(uint32_t id)
{
	static char buf[32];
	static const char *names[] = { "?", "CRTC", "CONNECTOR", "ENCODER", "PLANE",
		"PROPERTY", "BLOB", "FB" };
	uint32_t t = id >> 24;
	snprintf(buf, sizeof(buf), "%s:0x%08x", t < ARRAY_LEN(names) ? names[t] : "?", id);
	return buf;
}

/* Validates one value for a property like drm_property_change_valid_get(). */
static int check_value(uint32_t obj, const struct prop *p, uint64_t v)
{
	if (p->flags & DRM_MODE_PROP_IMMUTABLE)
		return fail(EINVAL, "[%s] property %s is immutable", obj_name(obj), p->name);
	if (p->flags & DRM_MODE_PROP_RANGE) {
		if (v < p->min || v > p->max)
			return fail(EINVAL, "[%s] %s = %" PRIu64 " out of range", obj_name(obj),
				p->name, v);
	} else if (p->flags & DRM_MODE_PROP_SIGNED_RANGE) {
		if ((int64_t)v < (int64_t)p->min || (int64_t)v > (int64_t)p->max)
			return fail(EINVAL, "[%s] %s = %" PRId64 " out of range", obj_name(obj),
				p->name, (int64_t)v);
	} else if (p->flags & DRM_MODE_PROP_ENUM) {
		bool ok = false;
		for (int i = 0; i < p->num_enums; i++)
			ok |= p->enums[i].value == v;
		if (!ok)
			return fail(EINVAL, "[%s] %s = %" PRIu64 " not an enum value",
				obj_name(obj), p->name, v);
	} else if (p->flags & DRM_MODE_PROP_OBJECT) {
		bool ok = v == 0 || (v <= UINT32_MAX && object_exists((uint32_t)v) &&
			drm_object_type((enum mock_drm_obj_type)(v >> 24)) == p->min);
		if (!ok)
			return fail(EINVAL, "[%s] %s = %" PRIu64 " is no object of the right type",
				obj_name(obj), p->name, v);
	} else if (p->flags & DRM_MODE_PROP_BLOB) {
		if (v != 0 && (v > UINT32_MAX || !blob_get((uint32_t)v)))
			return fail(EINVAL, "[%s] %s = %" PRIu64 " is no blob", obj_name(obj),
				p->name, v);
	}
	return 0;
}

/* Parses the request into the staged state, like the property loop of the ioctl. */
static int stage_items(struct stage *st, const drmModeAtomicReqPtr req)
{
	for (int i = 0; i < req->cursor; i++) {
		const struct atomic_item *it = &req->items[i];
		struct obj_props *sp = NULL;
		int index;
		if ((index = id_index(it->obj, MOCK_DRM_CRTC, g.num_crtcs)) >= 0) {
			sp = &st->crtc[index];
			st->crtc_in[index] = true;
		} else if ((index = id_index(it->obj, MOCK_DRM_CONNECTOR, g.num_conns)) >= 0) {
			sp = &st->conn[index];
			st->conn_in[index] = true;
		} else if ((index = id_index(it->obj, MOCK_DRM_PLANE, g.num_planes)) >= 0) {
			sp = &st->plane[index];
			st->plane_in[index] = true;
		}
		if (!sp)
			return fail(ENOENT, "atomic: unknown object 0x%08x or one without "
				"properties", it->obj);
		int slot = props_slot(sp, it->prop);
		if (slot < 0)
			return fail(ENOENT, "[%s] has no property 0x%08x", obj_name(it->obj),
				it->prop);
		const struct prop *p = prop_get(it->prop);
		int ret = check_value(it->obj, p, it->value);
		if (ret)
			return ret;
		if (it->prop == g.p.dpms)
			return fail(EINVAL, "[%s] DPMS cannot be set by atomic commits",
				obj_name(it->obj));
		if (it->prop == g.p.mode_id && it->value) {
			const struct blob *b = blob_get((uint32_t)it->value);
			if (b->len != sizeof(struct drm_mode_modeinfo))
				return fail(EINVAL, "[%s] MODE_ID blob has %u bytes",
					obj_name(it->obj), b->len);
			if (!mode_valid(b->data))
				return fail(EINVAL, "[%s] MODE_ID: invalid mode",
					obj_name(it->obj));
		}
		if (it->prop == g.p.in_fence_fd && (int64_t)it->value >= 0 &&
		    fcntl((int)it->value, F_GETFD) < 0)
			return fail(EINVAL, "[%s] IN_FENCE_FD %d is not an fd", obj_name(it->obj),
				(int)it->value);
		sp->vals[slot] = it->value;
	}
	return 0;
}

static int plane_crtc(const struct obj_props *p)
{
	return id_index((uint32_t)props_get(p, g.p.crtc_id), MOCK_DRM_CRTC, g.num_crtcs);
}

static int staged_conn_crtc(const struct stage *st, int conn)
{
	return id_index((uint32_t)props_get(&st->conn[conn], g.p.crtc_id), MOCK_DRM_CRTC,
		g.num_crtcs);
}

/*
 * The object relations of drm_atomic_plane_check(): an FB needs a CRTC and the reverse, and
 * the CRTC must be one of the plane's possible_crtcs. Whether the plane takes the FB's
 * format, its size, scaling or position is the driver's answer: scripted, never checked.
 */
static int check_plane(const struct stage *st, int i)
{
	const struct plane *pl = &g.planes[i];
	uint32_t id = mkid(MOCK_DRM_PLANE, i);
	struct pstate s;
	plane_view(&st->plane[i], &s);
	if (s.fb && !s.crtc)
		return fail(EINVAL, "[%s] FB set but no CRTC", obj_name(id));
	if (s.crtc && !s.fb)
		return fail(EINVAL, "[%s] CRTC set but no FB", obj_name(id));
	if (!s.crtc)
		return 0;
	int ci = id_index(s.crtc, MOCK_DRM_CRTC, g.num_crtcs);
	if (!(pl->possible_crtcs & (1u << ci)))
		return fail(EINVAL, "[%s] invalid CRTC for plane", obj_name(id));
	return 0;
}

/* drm_atomic_connector_check() for writeback: an FB needs an active CRTC, an out-fence
 * needs an FB. The FB's format and size are the driver's answer: scripted. */
static int check_writeback(const struct stage *st, int i)
{
	const struct connector *c = &g.conns[i];
	uint32_t id = mkid(MOCK_DRM_CONNECTOR, i);
	if (c->type != DRM_MODE_CONNECTOR_WRITEBACK)
		return 0;
	uint32_t fb_id = (uint32_t)props_get(&st->conn[i], g.p.wb_fb_id);
	uint64_t fence = props_get(&st->conn[i], g.p.wb_out_fence_ptr);
	int ci = staged_conn_crtc(st, i);
	if (!fb_id) {
		if (fence)
			return fail(EINVAL, "[%s] out-fence without framebuffer", obj_name(id));
		return 0;
	}
	if (ci < 0)
		return fail(EINVAL, "[%s] framebuffer without CRTC", obj_name(id));
	if (!props_get(&st->crtc[ci], g.p.active))
		return fail(EINVAL, "[%s] has framebuffer, but CRTC is off", obj_name(id));
	return 0;
}

/* drm_atomic_helper_check_modeset() for one CRTC of the commit. */
static int check_modeset(struct stage *st, int ci)
{
	uint32_t id = mkid(MOCK_DRM_CRTC, ci);
	const struct obj_props *old = &g.crtcs[ci].props, *cur = &st->crtc[ci];
	bool active = props_get(cur, g.p.active);
	const struct drm_mode_modeinfo *m = mode_of(props_get(cur, g.p.mode_id));
	bool changed = props_get(old, g.p.active) != active ||
		!mode_equal(mode_of(props_get(old, g.p.mode_id)), m);
	uint32_t encoders = 0;
	for (int j = 0; j < g.num_conns; j++) {
		bool was = conn_crtc(j) == ci, is = staged_conn_crtc(st, j) == ci;
		changed |= was != is;
		if (is)
			encoders |= 1u << j;
	}
	st->modeset[ci] = changed;
	if (!changed)
		return 0;
	if ((m != NULL) != (encoders != 0))
		return fail(EINVAL, "[%s] enabled/connectors mismatch", obj_name(id));
	return 0;
}

/* The staged properties of a CRTC, connector or plane, or NULL. */
static const struct obj_props *staged_props(const struct stage *st, uint32_t obj)
{
	int i;
	if ((i = id_index(obj, MOCK_DRM_CRTC, g.num_crtcs)) >= 0)
		return &st->crtc[i];
	if ((i = id_index(obj, MOCK_DRM_CONNECTOR, g.num_conns)) >= 0)
		return &st->conn[i];
	if ((i = id_index(obj, MOCK_DRM_PLANE, g.num_planes)) >= 0)
		return &st->plane[i];
	return NULL;
}

static bool verdict_matches(const struct verdict *v, const struct stage *st, bool test)
{
	if (v->spent || (v->kind == MOCK_DRM_TEST_ONLY && !test) ||
	    (v->kind == MOCK_DRM_REAL_COMMIT && test))
		return false;
	for (int k = 0; k < v->num_planes; k++)
		if (!props_get(&st->plane[v->planes[k]], g.p.fb_id))
			return false;
	for (int k = 0; k < v->num_props; k++) {
		const struct obj_props *p = staged_props(st, v->objs[k]);
		if (!p || props_get(p, v->props[k]) != v->values[k])
			return false;
	}
	return true;
}

/* The first scripted verdict matching the staged state refuses the commit. */
static int scripted(const struct stage *st, bool test)
{
	for (int i = 0; i < g.num_verdicts; i++) {
		struct verdict *v = &g.verdicts[i];
		if (!verdict_matches(v, st, test))
			continue;
		if (v->nth > 1) {
			v->nth--;
			continue;
		}
		v->spent = v->nth == 1;
		v->hits++;
		return fail(v->err, "scripted verdict %d", i);
	}
	return 0;
}

static void write_fence_ptr(uint64_t ptr, int fd)
{
	if (ptr)
		*(int32_t *)(uintptr_t)ptr = fd;
}

static int validate(struct stage *st, uint32_t flags)
{
	int ret;
	/* CRTCs pulled in by planes and connectors, before and after the change. */
	for (int i = 0; i < g.num_planes; i++) {
		if (!st->plane_in[i])
			continue;
		int a = plane_crtc(&g.planes[i].props), b = plane_crtc(&st->plane[i]);
		if (a >= 0)
			st->crtc_in[a] = true;
		if (b >= 0)
			st->crtc_in[b] = true;
	}
	for (int i = 0; i < g.num_conns; i++) {
		if (!st->conn_in[i])
			continue;
		int a = conn_crtc(i), b = staged_conn_crtc(st, i);
		if (a >= 0)
			st->crtc_in[a] = true;
		if (b >= 0)
			st->crtc_in[b] = true;
	}
	/* drm_atomic_add_affected_planes() and _connectors() for the CRTCs of the commit. */
	for (int i = 0; i < g.num_planes; i++) {
		int a = plane_crtc(&g.planes[i].props), b = plane_crtc(&st->plane[i]);
		st->plane_in[i] |= (a >= 0 && st->crtc_in[a]) || (b >= 0 && st->crtc_in[b]);
	}
	for (int i = 0; i < g.num_conns; i++) {
		int a = conn_crtc(i), b = staged_conn_crtc(st, i);
		st->conn_in[i] |= (a >= 0 && st->crtc_in[a]) || (b >= 0 && st->crtc_in[b]);
	}

	for (int i = 0; i < g.num_planes; i++)
		if (st->plane_in[i] && (ret = check_plane(st, i)))
			return ret;
	for (int ci = 0; ci < g.num_crtcs; ci++) {
		if (!st->crtc_in[ci])
			continue;
		uint32_t id = mkid(MOCK_DRM_CRTC, ci);
		bool active = props_get(&st->crtc[ci], g.p.active);
		bool old_active = props_get(&g.crtcs[ci].props, g.p.active);
		if (active && !props_get(&st->crtc[ci], g.p.mode_id))
			return fail(EINVAL, "[%s] active without mode", obj_name(id));
		if ((flags & DRM_MODE_PAGE_FLIP_EVENT) && !active && !old_active)
			return fail(EINVAL, "[%s] requesting event but off", obj_name(id));
	}
	for (int i = 0; i < g.num_conns; i++)
		if (st->conn_in[i] && (ret = check_writeback(st, i)))
			return ret;
	for (int i = 0; i < g.num_conns; i++) {
		int ci = staged_conn_crtc(st, i);
		if (st->conn_in[i] && ci >= 0 && !(g.conns[i].possible_crtcs & (1u << ci)))
			return fail(EINVAL, "[%s] encoder incompatible with CRTC",
				obj_name(mkid(MOCK_DRM_CONNECTOR, i)));
	}
	for (int ci = 0; ci < g.num_crtcs; ci++)
		if (st->crtc_in[ci] && (ret = check_modeset(st, ci)))
			return ret;
	for (int ci = 0; ci < g.num_crtcs; ci++)
		if (st->crtc_in[ci] && st->modeset[ci] && !(flags & DRM_MODE_ATOMIC_ALLOW_MODESET))
			return fail(EINVAL, "[%s] needs a modeset but ALLOW_MODESET is not set",
				obj_name(mkid(MOCK_DRM_CRTC, ci)));
	return 0;
}

/* ---- writeback: a copier, not a blender ------------------------------------------ */

static uint8_t *map_fb(const struct fb *fb, int prot, size_t *len)
{
	*len = (size_t)fb->bos[0]->size;
	void *p = mmap(NULL, *len, prot, MAP_SHARED, fb->bos[0]->fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

static bool is_argb32(const struct fb *fb)
{
	return fb->num_planes == 1 && fb->modifier == DRM_FORMAT_MOD_LINEAR &&
		(fb->format == DRM_FORMAT_XRGB8888 || fb->format == DRM_FORMAT_ARGB8888);
}

/* The uAPI's stacking order: zpos where planes have it, else primary, overlays, cursor. */
static int zorder(int plane)
{
	const struct plane *p = &g.planes[plane];
	if (p->zpos_prop)
		return (int)props_get(&p->props, p->zpos_prop) * 256 + plane;
	int rank = p->type == DRM_PLANE_TYPE_PRIMARY ? 0 : p->type == DRM_PLANE_TYPE_CURSOR ? 2 : 1;
	return rank * 65536 + plane;
}

/* Copies one plane's source rectangle into the writeback FB at its CRTC position. */
static void copy_plane(const struct pstate *s, const struct fb *src, const uint8_t *in,
	const struct fb *dst, uint8_t *out)
{
	for (uint32_t dy = 0; dy < s->crtc_h; dy++) {
		int64_t y = (int64_t)s->crtc_y + dy;
		uint64_t sy = (s->src_y >> 16) + dy;
		if (y < 0 || y >= dst->height || sy >= src->height)
			continue;
		const uint32_t *srow = (const uint32_t *)(in + src->offsets[0] +
			sy * src->pitches[0]);
		uint32_t *drow = (uint32_t *)(out + dst->offsets[0] + (size_t)y * dst->pitches[0]);
		for (uint32_t dx = 0; dx < s->crtc_w; dx++) {
			int64_t x = (int64_t)s->crtc_x + dx;
			uint64_t sx = (s->src_x >> 16) + dx;
			if (x >= 0 && x < dst->width && sx < src->width)
				drow[x] = srow[sx] | 0xff000000u;
		}
	}
}

/*
 * The writeback job: black, then each plane of the CRTC in stacking order copied 1:1 and
 * opaque, so that a capture shows which buffers were on screen where. XR24/AR24 LINEAR
 * only; a scaled plane is left out; alpha (per pixel or per plane) and blend modes are
 * ignored. How the kernel really composes is checked on vkms in the guest
 * (tests/integration: core formats, capture-paths, scenes), not here.
 */
static void write_back(int ci, const struct fb *dst)
{
	if (!is_argb32(dst))
		return;
	size_t dst_len;
	uint8_t *out = map_fb(dst, PROT_READ | PROT_WRITE, &dst_len);
	if (!out)
		return;
	for (uint32_t y = 0; y < dst->height; y++) {
		uint32_t *row = (uint32_t *)(out + dst->offsets[0] + (size_t)y * dst->pitches[0]);
		for (uint32_t x = 0; x < dst->width; x++)
			row[x] = 0xff000000u;
	}
	int order[MAX_PLANES], n = 0;
	for (int i = 0; i < g.num_planes; i++)
		if (plane_crtc(&g.planes[i].props) == ci)
			order[n++] = i;
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && zorder(order[b - 1]) > zorder(order[b]); b--) {
			int t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	for (int k = 0; k < n; k++) {
		struct pstate s;
		plane_view(&g.planes[order[k]].props, &s);
		const struct fb *src = fb_get(s.fb);
		if (!src || !is_argb32(src) || s.src_w != (uint64_t)s.crtc_w << 16 ||
		    s.src_h != (uint64_t)s.crtc_h << 16)
			continue;
		size_t src_len;
		const uint8_t *in = map_fb(src, PROT_READ, &src_len);
		if (!in)
			continue;
		copy_plane(&s, src, in, dst, out);
		munmap((void *)in, src_len);
	}
	munmap(out, dst_len);
}

/* ---- commit ------------------------------------------------------------------------ */

static void apply(struct stage *st, uint32_t flags, void *user_data)
{
	bool any_modeset = false;
	for (int ci = 0; ci < g.num_crtcs; ci++) {
		if (!st->crtc_in[ci])
			continue;
		any_modeset |= st->modeset[ci];
		blob_ref((uint32_t)props_get(&st->crtc[ci], g.p.mode_id), 1);
		blob_ref((uint32_t)props_get(&g.crtcs[ci].props, g.p.mode_id), -1);
	}
	for (int i = 0; i < g.num_crtcs; i++)
		g.crtcs[i].props = st->crtc[i];
	for (int i = 0; i < g.num_conns; i++)
		g.conns[i].props = st->conn[i];
	for (int i = 0; i < g.num_planes; i++)
		g.planes[i].props = st->plane[i];
	g.c.applied_commits++;
	g.c.modesets += any_modeset;

	for (int i = 0; i < g.num_conns; i++) {
		struct obj_props *cp = &g.conns[i].props;
		uint32_t fb_id = (uint32_t)props_get(cp, g.p.wb_fb_id);
		if (!st->conn_in[i] || !fb_id)
			continue;
		write_back(conn_crtc(i), fb_get(fb_id));
		g.c.writebacks++;
		uint64_t ptr = props_get(cp, g.p.wb_out_fence_ptr);
		if (ptr) {
			int fence = eventfd(1, EFD_CLOEXEC);
			write_fence_ptr(ptr, fence);
		}
		props_set(cp, g.p.wb_fb_id, 0);
		props_set(cp, g.p.wb_out_fence_ptr, 0);
	}

	bool hold = g.hold && (flags & DRM_MODE_ATOMIC_NONBLOCK);
	for (int ci = 0; ci < g.num_crtcs; ci++) {
		if (!st->crtc_in[ci])
			continue;
		struct crtc *c = &g.crtcs[ci];
		struct flip f = {
			.crtc = ci,
			.want_event = flags & DRM_MODE_PAGE_FLIP_EVENT,
			.user_data = user_data,
			.seq = ++c->seq,
			.fence_fd = -1,
		};
		c->time_us += frame_time_us(mode_of(props_get(&c->props, g.p.mode_id)));
		f.time_us = c->time_us;
		if (g.unpaced) {
			struct timespec now;
			clock_gettime(CLOCK_MONOTONIC, &now);
			f.seq = 0;
			f.time_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
		}
		uint64_t ptr = props_get(&c->props, g.p.out_fence_ptr);
		if (ptr) {
			int fence = eventfd(0, EFD_CLOEXEC);
			write_fence_ptr(ptr, fence);
			f.fence_fd = fence >= 0 ? fcntl(fence, F_DUPFD_CLOEXEC, 0) : -1;
			props_set(&c->props, g.p.out_fence_ptr, 0);
		}
		g.c.events_queued += f.want_event;
		if (!hold)
			flip_complete(&f);
		if (f.done && !f.want_event)
			continue;
		struct flip *flips = realloc(g.flips, sizeof(*flips) * (size_t)(g.num_flips + 1));
		if (!flips)
			abort();
		g.flips = flips;
		g.flips[g.num_flips++] = f;
	}
}

int drmModeAtomicCommit(int fd, const drmModeAtomicReqPtr req, uint32_t flags,
	void *user_data)
{
	if (!req)
		return -EINVAL;
	if (req->cursor == 0)
		return 0;       /* libdrm returns before the ioctl */
	int err = check_fd(fd);
	if (err)
		return fail(err, "drmModeAtomicCommit: not a mock DRM fd");
	if (!g.master)
		return fail(EACCES, "atomic: not DRM master");
	bool test = flags & DRM_MODE_ATOMIC_TEST_ONLY;
	g.c.commits++;
	g.c.test_commits += test;
	g.c.last_items = req->cursor;
	if ((err = injected("drmModeAtomicCommit")) ||
	    (err = injected(test ? "drmModeAtomicCommit/test" : "drmModeAtomicCommit/apply"))) {
		g.c.failed_commits++;
		return -err;
	}
	int ret = 0;
	if (flags & ~(uint32_t)DRM_MODE_ATOMIC_FLAGS)
		ret = fail(EINVAL, "atomic: bad flags 0x%x", flags);
	else if (flags & DRM_MODE_PAGE_FLIP_ASYNC)
		ret = fail(EINVAL, "atomic: ASYNC flips not supported");
	else if (test && (flags & DRM_MODE_PAGE_FLIP_EVENT))
		ret = fail(EINVAL, "atomic: TEST_ONLY with PAGE_FLIP_EVENT");
	else if (!g.atomic)
		ret = fail(EINVAL, "atomic: client cap ATOMIC not set");
	if (ret) {
		g.c.failed_commits++;
		return ret;
	}

	struct stage *st = calloc(1, sizeof(*st));
	if (!st)
		return fail(ENOMEM, "atomic: out of memory");
	for (int i = 0; i < g.num_crtcs; i++)
		st->crtc[i] = g.crtcs[i].props;
	for (int i = 0; i < g.num_conns; i++)
		st->conn[i] = g.conns[i].props;
	for (int i = 0; i < g.num_planes; i++)
		st->plane[i] = g.planes[i].props;

	ret = stage_items(st, req);
	if (ret == 0 && !test) {
		/* prepare_signaling(): out-fence pointers read -1 until the commit succeeds. */
		for (int i = 0; i < g.num_crtcs; i++)
			write_fence_ptr(props_get(&st->crtc[i], g.p.out_fence_ptr), -1);
		for (int i = 0; i < g.num_conns; i++)
			write_fence_ptr(props_get(&st->conn[i], g.p.wb_out_fence_ptr), -1);
	}
	if (ret == 0)
		ret = scripted(st, test);
	if (ret == 0)
		ret = validate(st, flags);
	if (ret == 0 && !test) {
		for (int ci = 0; ci < g.num_crtcs; ci++) {
			if (!st->crtc_in[ci] || !flip_pending(ci))
				continue;
			if (flags & DRM_MODE_ATOMIC_NONBLOCK) {
				ret = fail(EBUSY, "[%s] a flip is still pending",
					obj_name(mkid(MOCK_DRM_CRTC, ci)));
				break;
			}
			complete_flips(ci);     /* a blocking commit waits for it */
		}
	}
	if (ret == 0 && !test)
		apply(st, flags, user_data);
	if (ret != 0)
		g.c.failed_commits++;
	free(st);
	return ret;
}

/*
 * DRM_IOCTL_MODE_ATOMIC through drmIoctl(), as libdispman issues it: the same checks and
 * staging as drmModeAtomicCommit() on the items the four arrays name, in their order (the
 * kernel takes an object more than once; a property set twice keeps the last value).
 * Returns 0, or -1 with errno, as drmIoctl() does.
 */
static int atomic_ioctl(int fd, const struct drm_mode_atomic *a)
{
	if (!a)
		return fail(EFAULT, "DRM_IOCTL_MODE_ATOMIC: no argument"), -1;
	if (a->reserved)
		return fail(EINVAL, "DRM_IOCTL_MODE_ATOMIC: reserved is not 0"), -1;
	const uint32_t *objs = (const uint32_t *)(uintptr_t)a->objs_ptr;
	const uint32_t *counts = (const uint32_t *)(uintptr_t)a->count_props_ptr;
	const uint32_t *props = (const uint32_t *)(uintptr_t)a->props_ptr;
	const uint64_t *values = (const uint64_t *)(uintptr_t)a->prop_values_ptr;
	size_t n = 0;
	for (uint32_t i = 0; i < a->count_objs; i++) {
		if (!objs || !counts)
			return fail(EFAULT, "DRM_IOCTL_MODE_ATOMIC: objects without arrays"), -1;
		n += counts[i];
	}
	if (n && (!props || !values))
		return fail(EFAULT, "DRM_IOCTL_MODE_ATOMIC: properties without arrays"), -1;
	struct _drmModeAtomicReq req = { 0 };
	if (n && !(req.items = calloc(n, sizeof(*req.items))))
		return fail(ENOMEM, "DRM_IOCTL_MODE_ATOMIC: out of memory"), -1;
	for (uint32_t i = 0, k = 0; i < a->count_objs; i++)
		for (uint32_t j = 0; j < counts[i]; j++, k++)
			req.items[k] = (struct atomic_item){ objs[i], props[k], values[k] };
	req.cursor = req.size = (int)n;
	int ret = drmModeAtomicCommit(fd, &req, a->flags, (void *)(uintptr_t)a->user_data);
	free(req.items);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return 0;
}
