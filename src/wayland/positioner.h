/* SPDX-License-Identifier: MIT */
/*
 * xdg_positioner's rules and where they put a popup: a pure function of the rules and the
 * area the popup must stay in (no server, no resources), tested on its own
 * (tests/unit/test-positioner.c).
 */
#ifndef DISPMAN_WAYLAND_POSITIONER_H
#define DISPMAN_WAYLAND_POSITIONER_H

#include <stdbool.h>
#include <stdint.h>

#include "box.h"

/* A positioner's rules (xdg_positioner), copied into a popup when it is created or
 * repositioned. */
struct positioner_rules {
	int32_t w, h;                   /* 0: not set */
	struct box anchor_rect;
	bool anchor_rect_set;
	uint32_t anchor, gravity;       /* xdg_positioner.anchor / .gravity */
	uint32_t constraints;           /* xdg_positioner.constraint_adjustment bits */
	int32_t off_x, off_y;
	bool reactive;
};

/*
 * The popup's box relative to its parent's window geometry: the anchor point on the anchor
 * rectangle's anchor edge, the popup extending from it towards the gravity, moved by the
 * offset; then, on each axis where it leaves bounds (the output, in the same coordinates),
 * flipped if the rules allow it and the flipped box fits, else slid inside (the start edge
 * wins when the popup is larger), else resized to what lies inside, as the rules allow.
 */
struct box positioner_place(const struct positioner_rules *r, const struct box *bounds);

#endif
