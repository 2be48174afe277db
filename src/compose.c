/* SPDX-License-Identifier: MIT */
/*
 * CPU composition with pixman: the layers that got no plane are drawn, bottom to top, into
 * an XRGB8888 buffer of the mode's size that goes on the primary plane (black where no
 * layer is).
 *
 * Up to three buffers rotate; a buffer is free when the pool holds its only reference (the
 * output keeps its own while the buffer is queued or on screen). Each buffer remembers the
 * frame it was drawn for, and a short history of per-frame damage (the destination of
 * every composited layer whose buffer was set since, and where a moved one was and is)
 * gives what must be redrawn to bring it up to date; a frame without damage keeps the
 * buffer on screen as it is.
 *
 * Hidden work is skipped: going down from the top layer, each layer is drawn only where no
 * opaque layer above it covers the region being redrawn, and black fills only what no
 * opaque layer covers. A new buffer is not cleared (its first drawing covers all of it,
 * and the kernel's dumb buffers start zeroed). Buffers are freed when unused for
 * IDLE_COMMITS commits of the output (composition stopped, or a spare of the rotation).
 */
#include "compose.h"

#include <errno.h>

#include "compose-yuv.h"

#include "buffer.h"
#include "device.h"
#include "layer.h"
#include "log.h"
#include "output.h"
#include "rect.h"
#include "transform.h"

#include <drm_fourcc.h>
#include <inttypes.h>
#include <stdlib.h>

#if HAVE_PIXMAN
#include <pixman.h>
#endif

#define POOL 3
#define HISTORY 4
#define IDLE_COMMITS 60

struct compositor {
	struct dispman_layer *layer; /* layer_create_composition(): its buf is not referenced */
	struct dispman_buffer *pool[POOL];
	uint64_t drawn[POOL];       /* frame whose content the buffer holds, 0: none */
	uint64_t used[POOL];        /* commit count when it was last drawn or shown */
	uint64_t commits;           /* commits of the output since the compositor exists */
	uint64_t frame;             /* last frame drawn */
	uint32_t width, height;
#if HAVE_PIXMAN
	pixman_region32_t damage[HISTORY]; /* damage[f % HISTORY]: what frame f changed */
#endif
};

#if HAVE_PIXMAN
struct pixman_format_map {
	uint32_t drm;
	pixman_format_code_t with_alpha, opaque;
};

static const struct pixman_format_map pixman_formats[] = {
	{ DRM_FORMAT_XRGB8888, PIXMAN_x8r8g8b8, PIXMAN_x8r8g8b8 },
	{ DRM_FORMAT_ARGB8888, PIXMAN_a8r8g8b8, PIXMAN_x8r8g8b8 },
	{ DRM_FORMAT_XBGR8888, PIXMAN_x8b8g8r8, PIXMAN_x8b8g8r8 },
	{ DRM_FORMAT_ABGR8888, PIXMAN_a8b8g8r8, PIXMAN_x8b8g8r8 },
	{ DRM_FORMAT_RGBX8888, PIXMAN_r8g8b8x8, PIXMAN_r8g8b8x8 },
	{ DRM_FORMAT_RGBA8888, PIXMAN_r8g8b8a8, PIXMAN_r8g8b8x8 },
	{ DRM_FORMAT_BGRX8888, PIXMAN_b8g8r8x8, PIXMAN_b8g8r8x8 },
	{ DRM_FORMAT_BGRA8888, PIXMAN_b8g8r8a8, PIXMAN_b8g8r8x8 },
	{ DRM_FORMAT_RGB565, PIXMAN_r5g6b5, PIXMAN_r5g6b5 },
	{ DRM_FORMAT_BGR565, PIXMAN_b5g6r5, PIXMAN_b5g6r5 },
	{ DRM_FORMAT_XRGB1555, PIXMAN_x1r5g5b5, PIXMAN_x1r5g5b5 },
	{ DRM_FORMAT_ARGB1555, PIXMAN_a1r5g5b5, PIXMAN_x1r5g5b5 },
	{ DRM_FORMAT_RGB888, PIXMAN_r8g8b8, PIXMAN_r8g8b8 },
	{ DRM_FORMAT_BGR888, PIXMAN_b8g8r8, PIXMAN_b8g8r8 },
	{ DRM_FORMAT_XRGB2101010, PIXMAN_x2r10g10b10, PIXMAN_x2r10g10b10 },
	{ DRM_FORMAT_ARGB2101010, PIXMAN_a2r10g10b10, PIXMAN_x2r10g10b10 },
	{ DRM_FORMAT_XBGR2101010, PIXMAN_x2b10g10r10, PIXMAN_x2b10g10r10 },
	{ DRM_FORMAT_ABGR2101010, PIXMAN_a2b10g10r10, PIXMAN_x2b10g10r10 },
};

static const struct pixman_format_map *find_format(uint32_t drm)
{
	for (size_t i = 0; i < ARRAY_SIZE(pixman_formats); i++)
		if (pixman_formats[i].drm == drm)
			return &pixman_formats[i];
	return NULL;
}
#endif

bool compose_can_read(struct dispman_buffer *buf)
{
#if HAVE_PIXMAN
	if (!find_format(buffer_format(buf)))
		return compose_yuv_can_read(buf); /* YUV: converted (compose-yuv.c) */
	uint64_t modifier = buffer_modifier(buf);
	if (modifier != DRM_FORMAT_MOD_LINEAR && modifier != DRM_FORMAT_MOD_INVALID)
		return false;
	return dispman_buffer_map(buf, NULL, NULL) == 0;
#else
	(void)buf;
	return false;
#endif
}

static void account(struct dispman_output *out, struct dispman_buffer *buf, bool add)
{
	struct dispman_stats *st = device_stats(output_device(out));
	uint64_t size = (uint64_t)buffer_pitch(buf, 0) * buffer_height(buf);
	if (add) {
		st->composition_bytes += size;
		if (st->composition_bytes > st->composition_bytes_peak)
			st->composition_bytes_peak = st->composition_bytes;
	} else {
		st->composition_bytes -= size < st->composition_bytes ? size : st->composition_bytes;
	}
}

static void free_slot(struct dispman_output *out, struct compositor *c, size_t i)
{
	if (!c->pool[i])
		return;
	if (layer_buffer(c->layer) == c->pool[i])
		layer_set_composition_buffer(c->layer, NULL);
	account(out, c->pool[i], false);
	dispman_buffer_unref(c->pool[i]); /* the output may still hold it on screen */
	c->pool[i] = NULL;
	c->drawn[i] = 0;
}

static void free_pool(struct dispman_output *out, struct compositor *c)
{
	for (size_t i = 0; i < POOL; i++)
		free_slot(out, c, i);
	layer_set_composition_buffer(c->layer, NULL);
}

void compose_destroy(struct dispman_output *out)
{
	struct compositor *c = output_compositor(out);
	if (!c)
		return;
	free_pool(out, c);
#if HAVE_PIXMAN
	for (size_t i = 0; i < HISTORY; i++)
		pixman_region32_fini(&c->damage[i]);
#endif
	layer_destroy_composition(c->layer);
	free(c);
	output_set_compositor(out, NULL);
}

struct dispman_layer *compose_peek_layer(struct dispman_output *out)
{
	struct compositor *c = output_compositor(out);
	return c ? c->layer : NULL;
}

/*
 * A pool buffer not on screen nor queued (the pool holds the only reference), the one
 * drawn most recently (least to redraw), else a new one (not cleared: its first drawing
 * covers it whole, see compose_render()).
 */
static int get_free(struct dispman_output *out, struct compositor *c)
{
	int best = -1;
	for (size_t i = 0; i < POOL; i++)
		if (c->pool[i] && buffer_unshared(c->pool[i]) &&
		    (best < 0 || c->drawn[i] > c->drawn[best]))
			best = (int)i;
	if (best >= 0)
		return best;
	for (size_t i = 0; i < POOL; i++) {
		if (c->pool[i])
			continue;
		c->pool[i] = dispman_buffer_create_dumb(output_device(out), c->width, c->height,
			DRM_FORMAT_XRGB8888);
		if (c->pool[i] && !buffer_fb_id(c->pool[i])) {
			dispman_buffer_unref(c->pool[i]);
			c->pool[i] = NULL;
			errno = EINVAL;
		}
		if (!c->pool[i]) {
			dispman_log_errno(DISPMAN_LOG_ERROR, errno, "%s: cannot create a %ux%u "
				"composition buffer", output_name(out), c->width, c->height);
			return -1;
		}
		account(out, c->pool[i], true);
		c->drawn[i] = 0;
		c->used[i] = c->commits;
		return (int)i;
	}
	return -1;
}

void compose_commit_done(struct dispman_output *out)
{
	struct compositor *c = output_compositor(out);
	if (!c)
		return;
	c->commits++;
	for (size_t i = 0; i < POOL; i++) {
		if (!c->pool[i])
			continue;
		if (c->pool[i] == layer_buffer(c->layer) && layer_plane(c->layer))
			c->used[i] = c->commits; /* in this frame */
		else if (c->commits - c->used[i] >= IDLE_COMMITS && buffer_unshared(c->pool[i]))
			free_slot(out, c, i);
	}
}

struct dispman_layer *compose_get_layer(struct dispman_output *out)
{
	struct compositor *c = output_compositor(out);
	if (!c) {
		c = calloc(1, sizeof(*c));
		struct dispman_layer *layer = c ? layer_create_composition(out) : NULL;
		if (!layer) {
			dispman_log(DISPMAN_LOG_ERROR, "%s: out of memory for the compositor",
				output_name(out));
			free(c);
			return NULL;
		}
		c->layer = layer;
#if HAVE_PIXMAN
		for (size_t i = 0; i < HISTORY; i++)
			pixman_region32_init(&c->damage[i]);
#endif
		output_set_compositor(out, c);
	}
	const drmModeModeInfo *mode = output_mode(out);
	if (mode && (c->width != mode->hdisplay || c->height != mode->vdisplay)) {
		free_pool(out, c);
		c->width = mode->hdisplay;
		c->height = mode->vdisplay;
	}
	if (!layer_buffer(c->layer)) {
		int i = get_free(out, c);
		if (i < 0)
			return NULL;
		/* drawn whole before it is first shown */
		layer_set_composition_buffer(c->layer, c->pool[i]);
	}
	return c->layer;
}

#if HAVE_PIXMAN
static void layer_rect(const struct dispman_layer *layer, int32_t w, int32_t h,
	pixman_box32_t *box)
{
	struct rect r = layer_scanout_rect(layer, w, h);
	*box = (pixman_box32_t){ r.x0, r.y0, r.x1, r.y1 };
}

static pixman_image_t *source_image(struct dispman_buffer *buf, pixman_format_code_t fmt)
{
	void *data;
	uint32_t stride;
	if (dispman_buffer_map(buf, &data, &stride) < 0)
		return NULL;
	return pixman_image_create_bits_no_clear(fmt, (int)buffer_width(buf),
		(int)buffer_height(buf), data, (int)stride);
}

/* Source sampling: a transform only when scaling or at a fractional offset. */
static bool setup_source(pixman_image_t *img, uint32_t sx, uint32_t sy, uint32_t sw,
	uint32_t sh, uint32_t dw, uint32_t dh)
{
	if (sw == dw << 16 && sh == dh << 16 && !(sx & 0xffff) && !(sy & 0xffff))
		return false;
	pixman_transform_t t;
	pixman_transform_init_identity(&t);
	t.matrix[0][0] = (pixman_fixed_t)(sw / dw);
	t.matrix[1][1] = (pixman_fixed_t)(sh / dh);
	t.matrix[0][2] = (pixman_fixed_t)sx;
	t.matrix[1][2] = (pixman_fixed_t)sy;
	pixman_image_set_transform(img, &t);
	bool scaled = sw != dw << 16 || sh != dh << 16;
	pixman_image_set_filter(img, scaled ? PIXMAN_FILTER_BILINEAR : PIXMAN_FILTER_NEAREST,
		NULL, 0);
	pixman_image_set_repeat(img, PIXMAN_REPEAT_PAD);
	return true;
}

/* Source sampling for an entry the output's or the buffer's transform turns. */
static bool setup_turned(pixman_image_t *img, const struct scene_entry *e)
{
	struct transform_geom g = { e->src_x, e->src_y, e->src_w, e->src_h, e->dst_x, e->dst_y,
		e->dst_w, e->dst_h, e->transform };
	double m[6];
	transform_source_matrix(&g, m);
	struct pixman_f_transform ft = { { { m[0], m[1], m[2] }, { m[3], m[4], m[5] },
		{ 0, 0, 1 } } };
	pixman_transform_t t;
	pixman_transform_from_pixman_f_transform(&t, &ft);
	pixman_image_set_transform(img, &t);
	bool turned = transform_swaps(e->transform);
	bool scaled = (turned ? e->src_h : e->src_w) != e->dst_w << 16 ||
		(turned ? e->src_w : e->src_h) != e->dst_h << 16 || (e->src_x & 0xffff) ||
		(e->src_y & 0xffff);
	pixman_image_set_filter(img, scaled ? PIXMAN_FILTER_BILINEAR : PIXMAN_FILTER_NEAREST,
		NULL, 0);
	pixman_image_set_repeat(img, PIXMAN_REPEAT_PAD);
	return true;
}

/* What draw_layer() draws of a layer (its buffer not referenced). */
static struct scene_entry scene_entry_of(const struct dispman_layer *layer)
{
	struct scene_entry e = {
		.buf = layer_buffer(layer),
		.alpha = layer_alpha(layer),
		.blend = layer_blend(layer),
	};
	layer_scanout_entry(layer, &e); /* on the scanout: the output's transform applied */
	return e;
}

/*
 * Draw one layer (a scene's entry, or a layer's: scene_entry_of()). ext (may be NULL: the
 * whole layer) bounds what is wanted, within the destination's clip region: the
 * straight-alpha path premultiplies only that part.
 */
static void draw_layer(pixman_image_t *dst, const struct scene_entry *e,
	const pixman_box32_t *ext)
{
	struct dispman_buffer *buf = e->buf;
	const struct pixman_format_map *pf = find_format(buffer_format(buf));
	/* YUV (compose-yuv.c): an opaque XRGB8888 copy; RGB: the buffer itself */
	static const struct pixman_format_map yuv = { 0, PIXMAN_x8r8g8b8, PIXMAN_x8r8g8b8 };
	bool is_yuv = !pf && compose_yuv_format(buffer_format(buf));
	if (is_yuv)
		pf = &yuv;
	if (!pf)
		return;
	uint32_t sx = e->src_x, sy = e->src_y, sw = e->src_w, sh = e->src_h;
	int32_t dx = e->dst_x, dy = e->dst_y;
	uint32_t dw = e->dst_w, dh = e->dst_h;
	if (!dw || !dh)
		return;
	bool has_alpha = pf->with_alpha != pf->opaque;
	enum dispman_blend_mode blend = has_alpha ? e->blend : DISPMAN_BLEND_NONE;
	pixman_image_t *src = is_yuv ? compose_yuv_image(buf, NULL) :
		source_image(buf, blend == DISPMAN_BLEND_NONE ? pf->opaque : pf->with_alpha);
	pixman_image_t *mask = NULL, *tmp = NULL;
	if (!src)
		return;
	if (e->alpha != 0xffff) {
		pixman_color_t a = { 0, 0, 0, e->alpha };
		mask = pixman_image_create_solid_fill(&a);
	}
	bool transformed = e->transform ? setup_turned(src, e) :
		setup_source(src, sx, sy, sw, sh, dw, dh);
	int32_t src_x = transformed ? 0 : (int32_t)(sx >> 16);
	int32_t src_y = transformed ? 0 : (int32_t)(sy >> 16);
	if (blend == DISPMAN_BLEND_COVERAGE) {
		/* Straight alpha: premultiply the wanted part into a temporary, then blend it
		 * like the rest. (ox, oy): where that part starts in the layer. */
		struct rect part = { dx, dy, (int32_t)((int64_t)dx + dw),
			(int32_t)((int64_t)dy + dh) };
		if (ext) {
			struct rect limit = { ext->x1, ext->y1, ext->x2, ext->y2 };
			part = rect_intersect(&part, &limit);
		}
		if (rect_empty(&part))
			goto out;
		int32_t x0 = part.x0, y0 = part.y0;
		int32_t ox = x0 - dx, oy = y0 - dy, tw = part.x1 - x0, th = part.y1 - y0;
		pixman_image_t *opaque = source_image(buf, pf->opaque);
		tmp = pixman_image_create_bits(PIXMAN_a8r8g8b8, tw, th, NULL, 0);
		if (!opaque || !tmp) {
			if (opaque)
				pixman_image_unref(opaque);
			goto out;
		}
		if (e->transform)
			setup_turned(opaque, e);
		else
			setup_source(opaque, sx, sy, sw, sh, dw, dh);
		/* SRC with the straight-alpha image as mask: (C * A, A) */
		pixman_image_composite32(PIXMAN_OP_SRC, opaque, src, tmp, src_x + ox, src_y + oy,
			src_x + ox, src_y + oy, 0, 0, tw, th);
		pixman_image_unref(opaque);
		pixman_image_composite32(PIXMAN_OP_OVER, tmp, mask, dst, 0, 0, 0, 0, x0, y0, tw,
			th);
		goto out;
	}
	pixman_op_t op = blend == DISPMAN_BLEND_NONE && !mask ? PIXMAN_OP_SRC : PIXMAN_OP_OVER;
	pixman_image_composite32(op, src, mask, dst, src_x, src_y, 0, 0, dx, dy, (int)dw,
		(int)dh);
out:
	if (tmp)
		pixman_image_unref(tmp);
	if (mask)
		pixman_image_unref(mask);
	pixman_image_unref(src);
}

/*
 * Whether the layer's pixels do not depend on what is below: no alpha channel in use, no
 * plane alpha. (Its source lies inside its buffer, alloc.c checks that; transformed
 * sampling pads at the edges.)
 */
static bool layer_opaque(const struct dispman_layer *layer)
{
	uint32_t fourcc = buffer_format(layer_buffer(layer));
	const struct pixman_format_map *pf = find_format(fourcc);
	if (!pf) /* YUV (compose-yuv.c) has no alpha */
		return compose_yuv_format(fourcc) && layer_alpha(layer) == 0xffff;
	return layer_alpha(layer) == 0xffff &&
		(pf->with_alpha == pf->opaque || layer_blend(layer) == DISPMAN_BLEND_NONE);
}

static uint64_t region_area(pixman_region32_t *r)
{
	int n;
	pixman_box32_t *b = pixman_region32_rectangles(r, &n);
	uint64_t a = 0;
	for (int i = 0; i < n; i++)
		a += (uint64_t)(b[i].x2 - b[i].x1) * (uint64_t)(b[i].y2 - b[i].y1);
	return a;
}

static bool same_box(const int32_t *a, const pixman_box32_t *b)
{
	return a[0] == b->x1 && a[1] == b->y1 && a[2] == b->x2 && a[3] == b->y2;
}

static void union_box(pixman_region32_t *r, int32_t x1, int32_t y1, int32_t x2, int32_t y2)
{
	if (x2 > x1 && y2 > y1)
		pixman_region32_union_rect(r, r, x1, y1, (unsigned)(x2 - x1), (unsigned)(y2 - y1));
}

/* Where the layers changed since the frame in the buffer on screen (cur, POOL: none). */
static void frame_damage(struct compositor *c, size_t cur, struct dispman_layer **layers,
	size_t n, bool full, pixman_region32_t *damage)
{
	int32_t w = (int32_t)c->width, h = (int32_t)c->height;
	if (full || cur == POOL || !c->drawn[cur]) {
		union_box(damage, 0, 0, w, h);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		pixman_box32_t b;
		layer_rect(layers[i], w, h, &b);
		const int32_t *was = layer_composed_box(layers[i]);
		bool moved = !same_box(was, &b);
		if (layer_content_composed(layers[i]) && !moved)
			continue;
		union_box(damage, b.x1, b.y1, b.x2, b.y2);
		if (moved) /* where it was */
			union_box(damage, was[0], was[1], was[2], was[3]);
	}
}

/* What buffer slot must redraw: the damage of every frame since it was drawn. */
static void slot_need(struct compositor *c, int slot, pixman_region32_t *need)
{
	uint64_t age = c->drawn[slot] ? c->frame - c->drawn[slot] : UINT64_MAX;
	if (age >= HISTORY) {
		/* also a new buffer: never cleared, drawn whole */
		union_box(need, 0, 0, (int32_t)c->width, (int32_t)c->height);
		return;
	}
	for (uint64_t f = c->drawn[slot] + 1; f <= c->frame; f++)
		pixman_region32_union(need, need, &c->damage[f % HISTORY]);
}

/*
 * From the top down: each layer's vis[i] is where it shows within left, which then loses
 * what the opaque ones cover (it ends as what no opaque layer covers). Returns the pixels.
 */
static uint64_t visible_parts(struct compositor *c, struct dispman_layer **layers, size_t n,
	pixman_region32_t *left, pixman_region32_t *vis)
{
	uint64_t px = 0;
	for (size_t i = n; i-- > 0;) {
		pixman_box32_t b;
		layer_rect(layers[i], (int32_t)c->width, (int32_t)c->height, &b);
		if (b.x2 <= b.x1 || b.y2 <= b.y1)
			continue;
		pixman_region32_intersect_rect(&vis[i], left, b.x1, b.y1, (unsigned)(b.x2 - b.x1),
			(unsigned)(b.y2 - b.y1));
		if (layer_opaque(layers[i]))
			pixman_region32_subtract(left, left, &vis[i]);
		px += region_area(&vis[i]);
	}
	return px;
}

/* Black where no opaque layer covers (left), then each layer in its visible part. */
static int paint(struct compositor *c, struct dispman_buffer *target,
	struct dispman_layer **layers, size_t n, pixman_region32_t *left, pixman_region32_t *vis)
{
	int32_t w = (int32_t)c->width, h = (int32_t)c->height;
	void *data;
	uint32_t stride;
	int ret = dispman_buffer_map(target, &data, &stride);
	if (ret < 0)
		return ret;
	pixman_image_t *dst = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, w, h, data,
		(int)stride);
	if (!dst)
		return -ENOMEM;
	int nboxes;
	pixman_box32_t *boxes = pixman_region32_rectangles(left, &nboxes);
	pixman_color_t black = { 0, 0, 0, 0xffff };
	if (nboxes)
		pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, &black, nboxes, boxes);
	for (size_t i = 0; i < n; i++) {
		if (pixman_region32_not_empty(&vis[i])) {
			pixman_image_set_clip_region32(dst, &vis[i]);
			const struct scene_entry e = scene_entry_of(layers[i]);
			draw_layer(dst, &e, pixman_region32_extents(&vis[i]));
		}
		pixman_box32_t b;
		layer_rect(layers[i], w, h, &b);
		layer_note_composed(layers[i], b.x1, b.y1, b.x2, b.y2);
	}
	pixman_image_unref(dst);
	return 0;
}

/* Draw the damaged part of a free pool buffer; damage is the frame's, not empty. */
static int render_damage(struct dispman_output *out, struct dispman_layer *cl,
	struct dispman_layer **layers, size_t n, pixman_region32_t *damage,
	pixman_region32_t *vis)
{
	struct compositor *c = output_compositor(out);
	int slot = get_free(out, c);
	if (slot < 0)
		return -ENOMEM;
	c->frame++;
	pixman_region32_copy(&c->damage[c->frame % HISTORY], damage);
	pixman_region32_t need, left;
	pixman_region32_init(&need);
	slot_need(c, slot, &need);
	pixman_region32_init(&left);
	pixman_region32_copy(&left, &need);
	uint64_t drawn_px = visible_parts(c, layers, n, &left, vis);
	drawn_px += region_area(&left);
	int ret = paint(c, c->pool[slot], layers, n, &left, vis);
	if (ret == 0) {
		c->drawn[slot] = c->frame;
		c->used[slot] = c->commits;
		layer_set_composition_buffer(cl, c->pool[slot]);
		struct dispman_stats *st = device_stats(output_device(out));
		st->compositions++;
		st->damaged_pixels += region_area(&need);
		st->composed_pixels += drawn_px;
	}
	pixman_region32_fini(&need);
	pixman_region32_fini(&left);
	return ret;
}

int compose_render(struct dispman_output *out, struct dispman_layer **layers, size_t n,
	bool full)
{
	struct dispman_layer *cl = compose_get_layer(out);
	if (!cl)
		return -ENOMEM;
	struct compositor *c = output_compositor(out);
	pixman_region32_t *vis = calloc(n ? n : 1, sizeof(*vis));
	if (!vis)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		pixman_region32_init(&vis[i]);
	size_t cur = POOL;
	for (size_t i = 0; i < POOL; i++)
		if (c->pool[i] == layer_buffer(cl))
			cur = i;
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	frame_damage(c, cur, layers, n, full, &damage);
	int ret = 0;
	/* nothing changed: the buffer on screen stays */
	if (pixman_region32_not_empty(&damage))
		ret = render_damage(out, cl, layers, n, &damage, vis);
	for (size_t i = 0; i < n; i++)
		pixman_region32_fini(&vis[i]);
	free(vis);
	pixman_region32_fini(&damage);
	return ret;
}

int compose_scene(struct dispman_buffer *target, const struct scene *scene)
{
	for (size_t i = 0; i < scene->n; i++) {
		const struct dispman_buffer *b = scene->e[i].buf;
		if (!compose_can_read(scene->e[i].buf)) {
			dispman_log(DISPMAN_LOG_ERROR, "cannot compose a %ux%u buffer of format "
				"0x%08x modifier 0x%" PRIx64 " on the CPU", buffer_width(b),
				buffer_height(b), buffer_format(b), buffer_modifier(b));
			return -ENOTSUP;
		}
	}
	void *data;
	uint32_t stride;
	int ret = dispman_buffer_map(target, &data, &stride);
	if (ret < 0)
		return ret;
	pixman_image_t *dst = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8,
		(int)buffer_width(target), (int)buffer_height(target), data, (int)stride);
	if (!dst)
		return -ENOMEM;
	pixman_color_t black = { 0, 0, 0, 0xffff };
	pixman_box32_t all = { 0, 0, (int32_t)buffer_width(target),
		(int32_t)buffer_height(target) };
	pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, &black, 1, &all);
	for (size_t i = 0; i < scene->n; i++)
		draw_layer(dst, &scene->e[i], NULL);
	pixman_image_unref(dst);
	return 0;
}
#else
int compose_scene(struct dispman_buffer *target, const struct scene *scene)
{
	(void)target;
	(void)scene;
	dispman_log(DISPMAN_LOG_ERROR, "cannot compose on the CPU: built without pixman");
	return -ENOTSUP;
}

int compose_render(struct dispman_output *out, struct dispman_layer **layers, size_t n,
	bool full)
{
	(void)layers;
	(void)n;
	(void)full;
	return compose_get_layer(out) ? 0 : -ENOMEM;
}
#endif
