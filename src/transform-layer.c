/* SPDX-License-Identifier: MIT */
/*
 * The output transform: dispman_output_set_transform() and the rectangles of a layer on the
 * scanout of a transformed output (the pure geometry is transform.c's).
 */
#include <errno.h>

#include "buffer.h"
#include "device.h"
#include "layer.h"
#include "log.h"
#include "output.h"
#include "transform.h"

int dispman_output_set_transform(struct dispman_output *out, enum dispman_transform transform)
{
	if (refuse_null(out, "out"))
		return -EINVAL;
	if (!transform_valid((int)transform)) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: unknown transform %d", output_name(out),
			(int)transform);
		return -EINVAL;
	}
	if (output_transform(out) == transform)
		return 0;
	output_set_transform(out, transform);
	/* every layer's plane, rectangles and composition change: plan the output again */
	device_shape_changed(output_device(out));
	dispman_log(DISPMAN_LOG_DEBUG, "%s: transform %s", output_name(out),
		transform_name((int)transform));
	return 0;
}

enum dispman_transform dispman_output_get_transform(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return DISPMAN_TRANSFORM_NORMAL;
	return output_transform(out);
}

static void scanout(const struct dispman_layer *layer, struct transform_geom *g)
{
	layer_get_src(layer, &g->src_x, &g->src_y, &g->src_w, &g->src_h);
	layer_get_dst(layer, &g->dst_x, &g->dst_y, &g->dst_w, &g->dst_h);
	g->t = DISPMAN_TRANSFORM_NORMAL;
	if (layer_is_composition(layer))
		return; /* drawn in the mode's space */
	const struct dispman_output *out = layer_output(layer);
	enum dispman_transform ot = output_transform(out), bt = layer_transform(layer);
	if (ot == DISPMAN_TRANSFORM_NORMAL && bt == DISPMAN_TRANSFORM_NORMAL)
		return;
	const drmModeModeInfo *mode = output_mode(out);
	int32_t w = mode ? mode->hdisplay : 0, h = mode ? mode->vdisplay : 0;
	if (transform_swaps(ot)) {
		int32_t t = w;
		w = h;
		h = t;
	}
	transform_geometry(ot, bt, w, h, g);
}

/* Computed once per commit (layer_scanout_cached()): the frame path asks at each stage. */
void layer_scanout(const struct dispman_layer *layer, struct transform_geom *g)
{
	if (layer_scanout_cached(layer, false, g))
		return;
	scanout(layer, g);
	layer_scanout_keep(layer, false, g);
}

void layer_scanout_clipped(const struct dispman_layer *layer, struct transform_geom *g)
{
	if (layer_scanout_cached(layer, true, g))
		return;
	layer_scanout(layer, g);
	const drmModeModeInfo *mode = output_mode(layer_output(layer));
	/* the destination cut to the screen, the source with it (as the plane turns it);
	 * wholly off-screen layers never get a plane */
	if (mode)
		transform_clip(g, mode->hdisplay, mode->vdisplay);
	layer_scanout_keep(layer, true, g);
}

struct rect layer_scanout_rect(const struct dispman_layer *layer, int32_t w, int32_t h)
{
	struct transform_geom g;
	layer_scanout(layer, &g);
	return rect_clip(g.dst_x, g.dst_y, g.dst_w, g.dst_h, w, h);
}

void layer_scanout_entry(const struct dispman_layer *layer, struct scene_entry *e)
{
	struct transform_geom g;
	layer_scanout(layer, &g);
	e->src_x = g.src_x;
	e->src_y = g.src_y;
	e->src_w = g.src_w;
	e->src_h = g.src_h;
	e->dst_x = g.dst_x;
	e->dst_y = g.dst_y;
	e->dst_w = g.dst_w;
	e->dst_h = g.dst_h;
	e->transform = g.t;
}
