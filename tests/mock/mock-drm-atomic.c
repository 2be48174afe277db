/* SPDX-License-Identifier: MIT */
/* The mock libdrm (mock-drm-private.h says which file holds what). */
#include "mock-drm-private.h"

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

bool mode_valid(const struct drm_mode_modeinfo *m)
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
		if (g.unpaced || g.flips_now) {
			struct timespec now;
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (g.unpaced)
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
int atomic_ioctl(int fd, const struct drm_mode_atomic *a)
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
