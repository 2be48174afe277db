/* SPDX-License-Identifier: MIT */
/*
 * Atomic requests (request.h): the builder, which reads the state the frame path decided
 * (outputs in the request, MODE_ID blobs, the proposed plane assignment) and never writes
 * it, and the commit ioctl with its retries and counters. It calls no other stage.
 */
#include "request.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xf86drm.h>

#include "buffer.h"
#include "crtc.h"
#include "device.h"
#include "layer.h"
#include "log.h"
#include "master.h"
#include "output.h"
#include "plane.h"
#include "proposal.h"
#include "rect.h"
#include "transform.h"

/*
 * A request's memory: the four arrays DRM_IOCTL_MODE_ATOMIC reads, filled in the order the
 * properties are added (a property of the object added last joins it; another object
 * starts a new entry). The kernel takes an object more than once, and a property set twice
 * keeps the last value, so nothing is sorted. libdrm's drmModeAtomicCommit() would copy,
 * sort and allocate (six allocations and a 4 KiB zeroed copy a commit); this is written
 * once and reused: no allocation a frame.
 */
struct req_buf {
	uint64_t *values; /* one allocation: values[cap], then objs, counts and props */
	uint32_t *objs, *counts, *props;
	uint32_t n_objs, n_props, cap; /* n_objs <= n_props <= cap */
};

/* The device's kept request memory (device_req_cache(): req_cache_init() to
 * req_cache_free()), lent to one request at a time. */
struct req_cache {
	struct req_buf *spare;
};

static void buf_free(struct req_buf *b)
{
	if (!b)
		return;
	free(b->values);
	free(b);
}

/* Room for twice as many properties (16 at first: a flip needs a few, a modeset of every
 * plane some dozens, and the memory is kept). -ENOMEM leaves b as it was. */
static int buf_grow(struct req_buf *b)
{
	uint32_t cap = b->cap ? b->cap * 2 : 16;
	uint64_t *values = malloc((size_t)cap * (sizeof(uint64_t) + 3 * sizeof(uint32_t)));
	if (!values)
		return -ENOMEM;
	uint32_t *objs = (uint32_t *)(values + cap), *counts = objs + cap, *props = counts + cap;
	if (b->values) {
		memcpy(values, b->values, b->n_props * sizeof(*values));
		memcpy(objs, b->objs, b->n_objs * sizeof(*objs));
		memcpy(counts, b->counts, b->n_objs * sizeof(*counts));
		memcpy(props, b->props, b->n_props * sizeof(*props));
		free(b->values);
	}
	b->values = values;
	b->objs = objs;
	b->counts = counts;
	b->props = props;
	b->cap = cap;
	return 0;
}

int req_cache_init(struct dispman_device *dev)
{
	struct req_cache *st = calloc(1, sizeof(*st));
	if (!st) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating the request cache");
		return -ENOMEM;
	}
	device_set_req_cache(dev, st);
	return 0;
}

void req_cache_free(struct dispman_device *dev)
{
	if (!device_req_cache(dev))
		return;
	buf_free(device_req_cache(dev)->spare);
	free(device_req_cache(dev));
	device_set_req_cache(dev, NULL);
}

int req_init(struct dispman_device *dev, struct atomic_req *r)
{
	struct req_cache *cache = device_req_cache(dev);
	r->failed = 0;
	r->n_crtcs_in = 0;
	if (cache->spare) {
		r->buf = cache->spare;
		cache->spare = NULL;
	} else if (!(r->buf = calloc(1, sizeof(*r->buf)))) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating an atomic request");
		r->failed = -ENOMEM;
		return -ENOMEM;
	}
	r->buf->n_objs = r->buf->n_props = 0;
	return 0;
}

void req_finish(struct dispman_device *dev, struct atomic_req *r)
{
	struct req_cache *cache = device_req_cache(dev);
	if (!cache->spare)
		cache->spare = r->buf;
	else
		buf_free(r->buf);
	r->buf = NULL;
}

static void note_crtc(struct atomic_req *r, uint32_t crtc_id)
{
	if (!crtc_id)
		return;
	for (size_t i = 0; i < r->n_crtcs_in; i++)
		if (r->crtcs_in[i] == crtc_id)
			return;
	if (r->n_crtcs_in < REQ_MAX_CRTCS)
		r->crtcs_in[r->n_crtcs_in++] = crtc_id;
}

static bool crtc_noted(const struct atomic_req *r, uint32_t crtc_id)
{
	for (size_t i = 0; i < r->n_crtcs_in; i++)
		if (r->crtcs_in[i] == crtc_id)
			return true;
	return false;
}

/* req_add() when something is wrong: r failed already, no property, or no room */
static __attribute__((noinline)) bool add_trouble(struct atomic_req *r, uint32_t obj_id,
	uint32_t prop_id)
{
	if (r->failed)
		return true;
	if (!prop_id) {
		dispman_log(DISPMAN_LOG_ERROR, "object %u lacks a property the request needs",
			obj_id);
		r->failed = -EINVAL;
		return true;
	}
	if (buf_grow(r->buf) < 0) {
		r->failed = -ENOMEM;
		dispman_log(DISPMAN_LOG_ERROR, "out of memory adding property %u of object %u "
			"to the request", prop_id, obj_id);
		return true;
	}
	return false;
}

/* req_add(), inline where a frame adds its properties */
static inline __attribute__((always_inline)) void add(struct atomic_req *r, uint32_t obj_id,
	uint32_t prop_id, uint64_t value)
{
	struct req_buf *b = r->buf;
	if ((r->failed || !prop_id || b->n_props == b->cap) && add_trouble(r, obj_id, prop_id))
		return;
	if (!b->n_objs || b->objs[b->n_objs - 1] != obj_id) {
		b->objs[b->n_objs] = obj_id;
		b->counts[b->n_objs++] = 0;
	}
	b->counts[b->n_objs - 1]++;
	b->props[b->n_props] = prop_id;
	b->values[b->n_props++] = value;
}

void req_add(struct atomic_req *r, uint32_t obj_id, uint32_t prop_id, uint64_t value)
{
	add(r, obj_id, prop_id, value);
}

bool req_error_is_answer(int err)
{
	return err == EINVAL || err == ERANGE || err == ENOSPC;
}

int req_commit(struct dispman_device *dev, struct atomic_req *r, uint32_t flags, void *user_data)
{
	if (r->failed)
		return r->failed;
	bool test = (flags & DRM_MODE_ATOMIC_TEST_ONLY) != 0;
	const struct req_buf *b = r->buf;
	struct drm_mode_atomic arg = {
		.flags = flags,
		.count_objs = b->n_objs,
		.objs_ptr = (uintptr_t)b->objs,
		.count_props_ptr = (uintptr_t)b->counts,
		.props_ptr = (uintptr_t)b->props,
		.prop_values_ptr = (uintptr_t)b->values,
		.user_data = (uintptr_t)user_data,
	};
	/* nothing to say: no ioctl, as drmModeAtomicCommit() does; drmIoctl() itself repeats
	 * the call while the kernel answers EINTR or EAGAIN */
	int err = 0;
	if (b->n_props && drmIoctl(device_fd(dev), DRM_IOCTL_MODE_ATOMIC, &arg) != 0)
		err = errno ? errno : EINVAL;
	struct dispman_stats *st = device_stats(dev);
	if (test)
		st->test_commits++;
	if (err == 0) {
		if (!test) {
			st->commits++;
			if (flags & DRM_MODE_ATOMIC_ALLOW_MODESET) {
				st->modesets++;
				dispman_log(DISPMAN_LOG_DEBUG, "modeset commit accepted "
					"(%llu so far)", (unsigned long long)st->modesets);
			}
		}
		return 0;
	}
	if (!test)
		st->failed_commits++;
	if (device_check_master_lost(dev, err))
		return -err;
	if (test && req_error_is_answer(err))
		dispman_log_errno(DISPMAN_LOG_DEBUG, err, "TEST_ONLY commit refused");
	else
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "atomic commit (flags 0x%x) failed", flags);
	return -err;
}

/* The rectangles layer's plane shows, as proposal_record() records them; returns the
 * layer's transform on the scanout. */
static enum dispman_transform layer_rect(const struct dispman_layer *layer,
	struct plane_rect *rect)
{
	struct transform_geom g;
	layer_scanout_clipped(layer, &g);
	*rect = (struct plane_rect){
		.src_x = g.src_x, .src_y = g.src_y, .src_w = g.src_w, .src_h = g.src_h,
		.crtc_x = g.dst_x, .crtc_y = g.dst_y, .crtc_w = g.dst_w, .crtc_h = g.dst_h,
	};
	return g.t;
}

/* The rectangle properties of plane (properties pp) whose values rect changes from cur. */
static void add_changed(struct atomic_req *r, uint32_t id, const struct plane_props *pp,
	const struct plane_rect *rect, const struct plane_rect *cur)
{
	if (rect->src_x != cur->src_x)
		add(r, id, pp->src_x, rect->src_x);
	if (rect->src_y != cur->src_y)
		add(r, id, pp->src_y, rect->src_y);
	if (rect->src_w != cur->src_w)
		add(r, id, pp->src_w, rect->src_w);
	if (rect->src_h != cur->src_h)
		add(r, id, pp->src_h, rect->src_h);
	if (rect->crtc_x != cur->crtc_x)
		add(r, id, pp->crtc_x, (uint64_t)(int64_t)rect->crtc_x);
	if (rect->crtc_y != cur->crtc_y)
		add(r, id, pp->crtc_y, (uint64_t)(int64_t)rect->crtc_y);
	if (rect->crtc_w != cur->crtc_w)
		add(r, id, pp->crtc_w, rect->crtc_w);
	if (rect->crtc_h != cur->crtc_h)
		add(r, id, pp->crtc_h, rect->crtc_h);
}

/* The plane properties of the proposed assignment, for the planes the request covers. */
static void add_planes(const struct dispman_device *dev, const struct proposal *prop,
	struct atomic_req *r)
{
	struct plane_walk w;
	proposal_walk_start(&w, prop, dev);
	size_t i;
	for (const struct plane *p; (p = proposal_walk_next(&w, &i));) {
		const struct dispman_layer *layer = proposal_plane_layer(prop, p, i);
		uint32_t cur_fb_id = plane_cur_fb_id(p), cur_crtc_id = plane_cur_crtc_id(p);
		if (!layer && !cur_fb_id && !cur_crtc_id)
			continue; /* off, and staying off: nothing to say, whoever covers it */
		if (!proposal_covers_plane_of(prop, dev, p, layer ? layer_output(layer) : NULL))
			continue; /* another output's, with a flip pending */
		uint32_t id = plane_id(p);
		const struct plane_props *pp = plane_props(p);
		if (!layer) {
			if (cur_fb_id || cur_crtc_id) {
				req_add(r, id, pp->fb_id, 0);
				req_add(r, id, pp->crtc_id, 0);
				note_crtc(r, cur_crtc_id);
			}
			continue;
		}
		const struct dispman_output *out = layer_output(layer);
		uint32_t fb_id = buffer_fb_id(layer_buffer(layer));
		if (prop->diff && !(prop->geometry && layer_geom_dirty(layer))) {
			if (cur_fb_id != fb_id) {
				add(r, id, pp->fb_id, fb_id);
				note_crtc(r, cur_crtc_id);
			}
			continue;
		}
		uint32_t out_crtc_id = crtc_id(output_crtc(out));
		struct plane_rect rect;
		enum dispman_transform t = layer_rect(layer, &rect);
		const struct plane_rect *cur = plane_cur_rect(p);
		if (prop->diff && cur && cur_crtc_id == out_crtc_id) {
			/* new rectangles on a kept plane (prop->geometry): only what changed,
			 * as the floor's loop sends it; the kernel keeps the rest */
			size_t before = r->buf->n_props;
			if (cur_fb_id != fb_id)
				add(r, id, pp->fb_id, fb_id);
			add_changed(r, id, pp, &rect, cur);
			if (r->buf->n_props != before)
				note_crtc(r, cur_crtc_id);
			continue;
		}
		note_crtc(r, cur_crtc_id);
		note_crtc(r, out_crtc_id);
		if (pp->rotation)
			req_add(r, id, pp->rotation, transform_drm_rotation(t));
		req_add(r, id, pp->fb_id, fb_id);
		req_add(r, id, pp->crtc_id, out_crtc_id);
		req_add(r, id, pp->src_x, rect.src_x);
		req_add(r, id, pp->src_y, rect.src_y);
		req_add(r, id, pp->src_w, rect.src_w);
		req_add(r, id, pp->src_h, rect.src_h);
		req_add(r, id, pp->crtc_x, (uint64_t)(int64_t)rect.crtc_x);
		req_add(r, id, pp->crtc_y, (uint64_t)(int64_t)rect.crtc_y);
		req_add(r, id, pp->crtc_w, rect.crtc_w);
		req_add(r, id, pp->crtc_h, rect.crtc_h);
		if (pp->alpha)
			req_add(r, id, pp->alpha, layer_alpha(layer));
		enum dispman_blend_mode blend = layer_blend(layer);
		if (pp->pixel_blend_mode && plane_has_blend(p, blend))
			req_add(r, id, pp->pixel_blend_mode, plane_blend_value(p, blend));
		if (plane_zpos_mutable(p))
			req_add(r, id, pp->zpos, proposal_plane_zpos(prop, p, i));
		if (pp->hotspot_x && pp->hotspot_y) {
			int32_t hot_x, hot_y;
			layer_get_hotspot(layer, &hot_x, &hot_y);
			req_add(r, id, pp->hotspot_x, (uint64_t)(int64_t)hot_x);
			req_add(r, id, pp->hotspot_y, (uint64_t)(int64_t)hot_y);
		}
	}
}

void req_build(const struct dispman_device *dev, const struct proposal *prop,
	struct atomic_req *r)
{
	add_planes(dev, prop, r);
	for (size_t i = 0; i < device_n_outputs(dev); i++) {
		struct dispman_output *out = device_output(dev, i);
		if (!proposal_has_output(prop, i))
			continue;
		uint32_t connector_id = output_connector_id(out);
		uint32_t crtc_id_prop = output_props(out)->crtc_id;
		if (output_enabled(out)) {
			const struct crtc *crtc = output_crtc(out);
			uint32_t id = crtc_id(crtc);
			uint32_t blob = proposal_mode_blob(prop, i);
			if (blob) {
				req_add(r, connector_id, crtc_id_prop, id);
				req_add(r, id, crtc_props(crtc)->mode_id, blob);
			}
			/* puts the CRTC in the state so that it sends a flip event, unless a
			 * plane of it already does (the kernel adds a plane's CRTC to the
			 * state); a CRTC that is off or gets a new mode always has it */
			if (blob || !crtc_cur_active(crtc) || !crtc_noted(r, id))
				req_add(r, id, crtc_props(crtc)->active, 1);
		} else if (output_active(out)) {
			const struct crtc *cur = output_cur_crtc(out);
			req_add(r, connector_id, crtc_id_prop, 0);
			if (cur && !crtc_user(cur)) {
				req_add(r, crtc_id(cur), crtc_props(cur)->active, 0);
				req_add(r, crtc_id(cur), crtc_props(cur)->mode_id, 0);
			}
		}
	}
}
