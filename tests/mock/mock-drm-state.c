/* SPDX-License-Identifier: MIT */
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
#include "mock-drm-private.h"

struct mock_state g;

/* ---- helpers ---------------------------------------------------------------------- */

uint32_t mkid(enum mock_drm_obj_type type, int index)
{
	return (uint32_t)type << 24 | (uint32_t)(index + 1);
}

/* Index of an object id of the given type, or -1. */
int id_index(uint32_t id, enum mock_drm_obj_type type, int count)
{
	if (id >> 24 != (uint32_t)type)
		return -1;
	int index = (int)(id & 0xffffff) - 1;
	if (index < 0 || index >= count)
		return -1;
	return index;
}

__attribute__((format(printf, 2, 3)))
int fail(int err, const char *fmt, ...)
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

void ensure_init(void)
{
	if (!g.init)
		mock_drm_reset();
}

/* Consumes an injected failure of func; returns the errno to fail with or 0. */
int injected(const char *func)
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
int check_fd(int fd)
{
	struct stat st;
	ensure_init();
	if (fstat(fd, &st) != 0)
		return errno;
	if (st.st_dev != g.dev || st.st_ino != g.ino)
		return ENOTTY;
	return 0;
}

int props_slot(const struct obj_props *p, uint32_t prop_id)
{
	for (int i = 0; i < p->count; i++)
		if (p->ids[i] == prop_id)
			return i;
	return -1;
}

uint64_t props_get(const struct obj_props *p, uint32_t prop_id)
{
	int slot = props_slot(p, prop_id);
	return slot < 0 ? 0 : p->vals[slot];
}

void props_set(struct obj_props *p, uint32_t prop_id, uint64_t value)
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

struct prop *prop_get(uint32_t id)
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

struct blob *blob_get(uint32_t id)
{
	int i = id_index(id, MOCK_DRM_BLOB, g.num_blobs);
	return i < 0 ? NULL : g.blobs[i];
}

uint32_t blob_new(const void *data, size_t len, bool user)
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

void blob_release(uint32_t id)
{
	int i = id_index(id, MOCK_DRM_BLOB, g.num_blobs);
	struct blob *b = i < 0 ? NULL : g.blobs[i];
	if (b && !b->user && b->refs == 0) {
		free(b->data);
		free(b);
		g.blobs[i] = NULL;
	}
}

void blob_ref(uint32_t id, int delta)
{
	struct blob *b = blob_get(id);
	if (!b)
		return;
	b->refs += delta;
	blob_release(id);
}

struct fb *fb_get(uint32_t id)
{
	int i = id_index(id, MOCK_DRM_FB, g.num_fbs);
	return i < 0 ? NULL : g.fbs[i];
}

struct bo *bo_by_handle(uint32_t handle)
{
	for (int i = 0; i < g.num_bos; i++)
		if (g.bos[i] && handle && g.bos[i]->handle == handle)
			return g.bos[i];
	return NULL;
}

void bo_unref(struct bo *bo)
{
	if (--bo->refs > 0)
		return;
	for (int i = 0; i < g.num_bos; i++)
		if (g.bos[i] == bo)
			g.bos[i] = NULL;
	close(bo->fd);
	free(bo);
}

struct bo *bo_new(int fd, uint64_t size, bool dumb)
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

int gem_close(uint32_t handle)
{
	struct bo *bo = bo_by_handle(handle);
	if (!bo)
		return fail(EINVAL, "GEM handle %u does not exist", handle);
	bo->handle = 0;
	bo_unref(bo);
	return 0;
}

/* ---- formats ---------------------------------------------------------------------- */


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

const struct format_info *format_lookup(uint32_t fourcc)
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

uint64_t get_cap(uint64_t cap)
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

struct obj_props *obj_props_of(uint32_t obj_id)
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

void flip_complete(struct flip *f)
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
int complete_flips(int crtc)
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

bool flip_pending(int crtc)
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

void mock_drm_set_flips_now(bool on)
{
	ensure_init();
	g.flips_now = on;
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
