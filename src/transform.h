/* SPDX-License-Identifier: MIT */
/*
 * Output and buffer transforms (transform.c, pure; transform-layer.c, a layer's rectangles
 * on the scanout). The numbers and meaning are wl_output.transform's (enum
 * dispman_transform): a transform maps an upright picture of w x h to the transformed one,
 * of h x w for those that turn by 90 or 270 degrees. No libdrm, no device.
 */
#ifndef DISPMAN_TRANSFORM_H
#define DISPMAN_TRANSFORM_H

#include <stdbool.h>
#include <stdint.h>

#include <dispman/dispman.h>

#include "rect.h"
#include "scanout.h"

/* The kernel's plane "rotation" bits (DRM_MODE_ROTATE_* and DRM_MODE_REFLECT_*). */
#define TRANSFORM_DRM_ROTATE_0 (1u << 0)
#define TRANSFORM_DRM_ROTATE_90 (1u << 1)
#define TRANSFORM_DRM_ROTATE_180 (1u << 2)
#define TRANSFORM_DRM_ROTATE_270 (1u << 3)
#define TRANSFORM_DRM_REFLECT_X (1u << 4)
#define TRANSFORM_DRM_REFLECT_Y (1u << 5)

/* A value of enum dispman_transform. */
bool transform_valid(int t);
/* It turns by 90 or 270 degrees: width and height swap. */
bool transform_swaps(enum dispman_transform t);
enum dispman_transform transform_invert(enum dispman_transform t);
/* a, then b. */
enum dispman_transform transform_compose(enum dispman_transform a, enum dispman_transform b);
/* Where the point (x, y) of a w x h picture goes (continuous coordinates: the picture spans
 * [0, w) x [0, h), a pixel's centre is at +0.5). */
void transform_point(enum dispman_transform t, double x, double y, double w, double h,
	double *ox, double *oy);
/* Where the box (b[0], b[1]) of b[2] x b[3] in a w x h picture goes: out, the same form. */
void transform_box(enum dispman_transform t, const int64_t b[4], int64_t w, int64_t h,
	int64_t out[4]);
/*
 * The plane "rotation" value that shows a buffer transformed by t (the kernel documents
 * rotate-<degrees> as counter-clockwise and applies a reflection before the rotation):
 * TRANSFORM_DRM_ROTATE_0 for NORMAL.
 */
uint32_t transform_drm_rotation(enum dispman_transform t);
/* Short name: "normal", "90", ..., "flipped-270"; NULL for an invalid value. */
const char *transform_name(int t);
/* The transform of a name transform_name() gives (also "flipped-0"); -1 when unknown. */
int transform_from_name(const char *name);

/* struct transform_geom, a layer's rectangles on the scanout: scanout.h (the layer keeps
 * one, layer.c, which this module's transform-layer.c reads). */

/*
 * A layer on an output transformed by out_t (view_w x view_h: the viewer's size) with a
 * buffer transformed by buf_t: its source (16.16, buffer coordinates) and destination (in
 * the viewer's space) in g, turned into the mode's space, and the transform the plane
 * applies (buf_t undone, then out_t).
 */
void transform_geometry(enum dispman_transform out_t, enum dispman_transform buf_t,
	int32_t view_w, int32_t view_h, struct transform_geom *g);
/*
 * Clip g (in the mode's space, w x h) to the screen, the source with it. Returns false when
 * nothing of it is on the screen (g is then unchanged).
 */
bool transform_clip(struct transform_geom *g, int32_t w, int32_t h);
/*
 * The affine map that samples g's source for a destination pixel: a point (u, v) of the
 * destination rectangle (from its top left corner, in pixels) comes from the buffer's
 * point (m[0] u + m[1] v + m[2], m[3] u + m[4] v + m[5]), in pixels.
 */
void transform_source_matrix(const struct transform_geom *g, double m[6]);

/* transform-layer.c: a layer's rectangles on the scanout of its output (the composition
 * layer's as they are). */
struct dispman_layer;
struct scene_entry;
void layer_scanout(const struct dispman_layer *layer, struct transform_geom *g);
/* Its destination on the scanout (the output's transform applied), cut to a w x h screen
 * (rect_clip(): empty when nothing of it is on the screen). */
struct rect layer_scanout_rect(const struct dispman_layer *layer, int32_t w, int32_t h);
/* layer_scanout() cut to its output's mode (transform_clip()), as a plane shows it: the
 * request builder writes it and proposal_record() records it. */
void layer_scanout_clipped(const struct dispman_layer *layer, struct transform_geom *g);
/* A scene entry's rectangles and transform from layer_scanout(). */
void layer_scanout_entry(const struct dispman_layer *layer, struct scene_entry *e);

#endif
