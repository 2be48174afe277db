/* SPDX-License-Identifier: MIT */
/*
 * CPU composition with pixman: the layers that got no plane are drawn, bottom to top, over
 * black into an XRGB8888 buffer of the mode's size that goes on the primary plane.
 *
 * Up to three buffers rotate; a buffer is free when the pool holds its only reference (the
 * output keeps its own while the buffer is queued or on screen). Each buffer remembers the
 * frame it was drawn for, and a short history of per-frame damage (the destination of
 * every composited layer whose buffer was set since) gives what must be redrawn to bring
 * it up to date; a frame without damage keeps the buffer on screen as it is.
 */
#include "private.h"

#include <drm_fourcc.h>
#include <inttypes.h>
#include <stdlib.h>

#if HAVE_PIXMAN
#include <pixman.h>
#endif

#define POOL 3
#define HISTORY 4

struct compositor {
	struct dispman_layer layer; /* internal: not in out->layers; buf is not referenced */
	struct dispman_buffer *pool[POOL];
	uint64_t drawn[POOL];       /* frame whose content the buffer holds, 0: none */
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
	if (!find_format(buf->format))
		return false;
	if (buf->modifier != DRM_FORMAT_MOD_LINEAR && buf->modifier != DRM_FORMAT_MOD_INVALID)
		return false;
	return dispman_buffer_map(buf, NULL, NULL) == 0;
#else
	(void)buf;
	return false;
#endif
}

static void free_pool(struct compositor *c)
{
	for (size_t i = 0; i < POOL; i++) {
		dispman_buffer_unref(c->pool[i]); /* the output may still hold it on screen */
		c->pool[i] = NULL;
		c->drawn[i] = 0;
	}
	c->layer.buf = NULL;
}

void compose_destroy(struct dispman_output *out)
{
	struct compositor *c = out->comp;
	if (!c)
		return;
	free_pool(c);
#if HAVE_PIXMAN
	for (size_t i = 0; i < HISTORY; i++)
		pixman_region32_fini(&c->damage[i]);
#endif
	free(c);
	out->comp = NULL;
}

struct dispman_layer *compose_peek_layer(struct dispman_output *out)
{
	return out->comp ? &out->comp->layer : NULL;
}

/* A pool buffer not on screen nor queued (the pool holds the only reference). */
static int get_free(struct dispman_output *out, struct compositor *c)
{
	for (size_t i = 0; i < POOL; i++)
		if (c->pool[i] && c->pool[i]->refcount == 1 && c->pool[i] != c->layer.buf)
			return (int)i;
	for (size_t i = 0; i < POOL; i++) {
		if (c->pool[i])
			continue;
		c->pool[i] = dispman_buffer_create_dumb(out->dev, c->width, c->height,
			DRM_FORMAT_XRGB8888);
		if (c->pool[i] && !c->pool[i]->fb_id) {
			dispman_buffer_unref(c->pool[i]);
			c->pool[i] = NULL;
			errno = EINVAL;
		}
		if (!c->pool[i]) {
			dispman_log_errno(DISPMAN_LOG_ERROR, errno, "%s: cannot create a %ux%u "
				"composition buffer", out->name, c->width, c->height);
			return -1;
		}
		void *data;
		uint32_t stride;
		if (dispman_buffer_map(c->pool[i], &data, &stride) == 0)
			memset(data, 0, (size_t)stride * c->height);
		c->drawn[i] = 0;
		return (int)i;
	}
	return -1;
}

struct dispman_layer *compose_get_layer(struct dispman_output *out)
{
	struct compositor *c = out->comp;
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c) {
			dispman_log(DISPMAN_LOG_ERROR, "%s: out of memory for the compositor",
				out->name);
			return NULL;
		}
		c->layer.out = out;
		c->layer.alpha = 0xffff;
		c->layer.visible = true;
		list_init(&c->layer.link);
#if HAVE_PIXMAN
		for (size_t i = 0; i < HISTORY; i++)
			pixman_region32_init(&c->damage[i]);
#endif
		out->comp = c;
	}
	if (out->mode && (c->width != out->mode->info.hdisplay ||
	    c->height != out->mode->info.vdisplay)) {
		free_pool(c);
		c->width = out->mode->info.hdisplay;
		c->height = out->mode->info.vdisplay;
	}
	if (!c->layer.buf) {
		int i = get_free(out, c);
		if (i < 0)
			return NULL;
		c->layer.buf = c->pool[i]; /* black until drawn */
	}
	return &c->layer;
}

#if HAVE_PIXMAN
static void layer_rect(const struct dispman_layer *layer, int32_t w, int32_t h,
	pixman_box32_t *box)
{
	int32_t dx, dy;
	uint32_t dw, dh;
	layer_get_dst(layer, &dx, &dy, &dw, &dh);
	int64_t x1 = (int64_t)dx + dw, y1 = (int64_t)dy + dh;
	box->x1 = dx < 0 ? 0 : dx > w ? w : dx;
	box->y1 = dy < 0 ? 0 : dy > h ? h : dy;
	box->x2 = (int32_t)(x1 < box->x1 ? box->x1 : x1 > w ? w : x1);
	box->y2 = (int32_t)(y1 < box->y1 ? box->y1 : y1 > h ? h : y1);
}

static pixman_image_t *source_image(struct dispman_buffer *buf, pixman_format_code_t fmt)
{
	void *data;
	uint32_t stride;
	if (dispman_buffer_map(buf, &data, &stride) < 0)
		return NULL;
	return pixman_image_create_bits_no_clear(fmt, (int)buf->width, (int)buf->height, data,
		(int)stride);
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

static void draw_layer(pixman_image_t *dst, struct dispman_layer *layer)
{
	struct dispman_buffer *buf = layer->buf;
	const struct pixman_format_map *pf = find_format(buf->format);
	if (!pf)
		return;
	uint32_t sx, sy, sw, sh, dw, dh;
	int32_t dx, dy;
	layer_get_src(layer, &sx, &sy, &sw, &sh);
	layer_get_dst(layer, &dx, &dy, &dw, &dh);
	if (!dw || !dh)
		return;
	bool has_alpha = pf->with_alpha != pf->opaque;
	enum dispman_blend_mode blend = has_alpha ? layer->blend : DISPMAN_BLEND_NONE;
	pixman_image_t *src = source_image(buf, blend == DISPMAN_BLEND_NONE ? pf->opaque :
		pf->with_alpha);
	pixman_image_t *mask = NULL, *tmp = NULL, *cov = NULL;
	if (!src)
		return;
	if (layer->alpha != 0xffff) {
		pixman_color_t a = { 0, 0, 0, layer->alpha };
		mask = pixman_image_create_solid_fill(&a);
	}
	bool transformed = setup_source(src, sx, sy, sw, sh, dw, dh);
	int32_t src_x = transformed ? 0 : (int32_t)(sx >> 16);
	int32_t src_y = transformed ? 0 : (int32_t)(sy >> 16);
	if (blend == DISPMAN_BLEND_COVERAGE) {
		/* Straight alpha: premultiply into a temporary, then blend it like the rest. */
		pixman_image_t *opaque = source_image(buf, pf->opaque);
		tmp = pixman_image_create_bits(PIXMAN_a8r8g8b8, (int)dw, (int)dh, NULL, 0);
		if (!opaque || !tmp) {
			if (opaque)
				pixman_image_unref(opaque);
			goto out;
		}
		setup_source(opaque, sx, sy, sw, sh, dw, dh);
		/* SRC with the straight-alpha image as mask: (C * A, A) */
		pixman_image_composite32(PIXMAN_OP_SRC, opaque, src, tmp, src_x, src_y, src_x,
			src_y, 0, 0, (int)dw, (int)dh);
		pixman_image_unref(opaque);
		cov = tmp;
		pixman_image_composite32(PIXMAN_OP_OVER, cov, mask, dst, 0, 0, 0, 0, dx, dy,
			(int)dw, (int)dh);
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

int compose_render(struct dispman_output *out, struct dispman_layer **layers, size_t n,
	bool full)
{
	struct dispman_layer *cl = compose_get_layer(out);
	if (!cl)
		return -ENOMEM;
	struct compositor *c = out->comp;
	int32_t w = (int32_t)c->width, h = (int32_t)c->height;
	pixman_region32_t frame_damage, need;
	pixman_region32_init(&frame_damage);
	pixman_region32_init(&need);
	size_t cur = POOL;
	for (size_t i = 0; i < POOL; i++)
		if (c->pool[i] == cl->buf)
			cur = i;
	if (full || cur == POOL || !c->drawn[cur]) {
		pixman_region32_union_rect(&frame_damage, &frame_damage, 0, 0, (unsigned)w,
			(unsigned)h);
	} else {
		for (size_t i = 0; i < n; i++) {
			if (layers[i]->composed_serial == layers[i]->content_serial)
				continue;
			pixman_box32_t b;
			layer_rect(layers[i], w, h, &b);
			if (b.x2 > b.x1 && b.y2 > b.y1)
				pixman_region32_union_rect(&frame_damage, &frame_damage, b.x1, b.y1,
					(unsigned)(b.x2 - b.x1), (unsigned)(b.y2 - b.y1));
		}
	}
	int ret = 0;
	if (!pixman_region32_not_empty(&frame_damage))
		goto out; /* nothing changed: the buffer on screen stays */
	int slot = get_free(out, c);
	if (slot < 0) {
		ret = -ENOMEM;
		goto out;
	}
	c->frame++;
	pixman_region32_copy(&c->damage[c->frame % HISTORY], &frame_damage);
	uint64_t age = c->drawn[slot] ? c->frame - c->drawn[slot] : UINT64_MAX;
	if (age >= HISTORY) {
		pixman_region32_union_rect(&need, &need, 0, 0, (unsigned)w, (unsigned)h);
	} else {
		for (uint64_t f = c->drawn[slot] + 1; f <= c->frame; f++)
			pixman_region32_union(&need, &need, &c->damage[f % HISTORY]);
	}
	struct dispman_buffer *target = c->pool[slot];
	void *data;
	uint32_t stride;
	ret = dispman_buffer_map(target, &data, &stride);
	if (ret < 0)
		goto out;
	pixman_image_t *dst = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, w, h, data,
		(int)stride);
	if (!dst) {
		ret = -ENOMEM;
		goto out;
	}
	pixman_image_set_clip_region32(dst, &need);
	int nboxes;
	pixman_box32_t *boxes = pixman_region32_rectangles(&need, &nboxes);
	pixman_color_t black = { 0, 0, 0, 0xffff };
	pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, &black, nboxes, boxes);
	for (size_t i = 0; i < n; i++) {
		draw_layer(dst, layers[i]);
		layers[i]->composed_serial = layers[i]->content_serial;
	}
	pixman_image_unref(dst);
	c->drawn[slot] = c->frame;
	cl->buf = target;
	out->dev->stats.compositions++;
out:
	pixman_region32_fini(&frame_damage);
	pixman_region32_fini(&need);
	return ret;
}

int compose_scene(struct dispman_buffer *target, const struct scene *scene)
{
	for (size_t i = 0; i < scene->n; i++) {
		const struct dispman_buffer *b = scene->e[i].buf;
		if (!compose_can_read(scene->e[i].buf)) {
			dispman_log(DISPMAN_LOG_ERROR, "cannot compose a %ux%u buffer of format "
				"0x%08x modifier 0x%" PRIx64 " on the CPU", b->width, b->height,
				b->format, b->modifier);
			return -ENOTSUP;
		}
	}
	void *data;
	uint32_t stride;
	int ret = dispman_buffer_map(target, &data, &stride);
	if (ret < 0)
		return ret;
	pixman_image_t *dst = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8,
		(int)target->width, (int)target->height, data, (int)stride);
	if (!dst)
		return -ENOMEM;
	pixman_color_t black = { 0, 0, 0, 0xffff };
	pixman_box32_t all = { 0, 0, (int32_t)target->width, (int32_t)target->height };
	pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, &black, 1, &all);
	for (size_t i = 0; i < scene->n; i++) {
		const struct scene_entry *e = &scene->e[i];
		struct dispman_layer l = {
			.buf = e->buf,
			.src_set = true, .dst_set = true,
			.src_x = e->src_x, .src_y = e->src_y, .src_w = e->src_w, .src_h = e->src_h,
			.dst_x = e->dst_x, .dst_y = e->dst_y, .dst_w = e->dst_w, .dst_h = e->dst_h,
			.alpha = e->alpha,
			.blend = e->blend,
			.visible = true,
		};
		draw_layer(dst, &l);
	}
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
