/* SPDX-License-Identifier: MIT */
/*
 * The outputs' layout as pure functions (no Wayland, no device): where each output goes, and
 * where a point (the pointer) may be. Boxes are in logical coordinates (an output's box is
 * its viewer's size: the mode turned by its transform).
 */
#ifndef DISPMAN_WAYLAND_LAYOUT_H
#define DISPMAN_WAYLAND_LAYOUT_H

#include <stddef.h>

#include <dispman/wayland.h>

#include "box.h"

/* Places n outputs: boxes[i].w, .h are their sizes (in), .x, .y their places (out).
 * EXTEND: left to right in the given order, tops at 0; MIRROR: every one at (0, 0). */
void layout_arrange(enum dispman_wayland_layout layout, struct box *boxes, size_t n);

/* The index of the first box holding (x, y), or -1 (the boxes' far edges are outside). */
int layout_box_at(const struct box *boxes, size_t n, double x, double y);

/* Brings (x, y) into the union of the boxes: a point in one stays; else it goes to the
 * nearest point of the nearest box (the far edges are x + w - 1, y + h - 1, as a pointer's
 * pixels). Returns the index of the box it ends in, -1 when there is no non-empty box
 * (the point is left as it is). */
int layout_clamp(const struct box *boxes, size_t n, double *x, double *y);

#endif
