/* SPDX-License-Identifier: MIT */
/*
 * xdg_positioner placement (src/wayland/positioner.c) as a pure function: a table of rules
 * and bounds with the box each must give, one meson test per case (positioner@NAME).
 */
#include <stdio.h>
#include <string.h>

#include "positioner.h"
#include "xdg-shell-server-protocol.h"

#define A(n) XDG_POSITIONER_ANCHOR_##n
#define G(n) XDG_POSITIONER_GRAVITY_##n
#define C(n) XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_##n

struct pcase {
	const char *name;
	struct positioner_rules rules;
	struct box bounds;
	struct box want;
};

#define OUT { 0, 0, 1024, 768 }
#define RECT(x, y, w, h) .anchor_rect = { x, y, w, h }, .anchor_rect_set = true

static const struct pcase cases[] = {
	{ "below-left", { .w = 200, .h = 300, RECT(100, 100, 50, 20), .anchor = A(BOTTOM_LEFT),
		.gravity = G(BOTTOM_RIGHT) }, OUT, { 100, 120, 200, 300 } },
	{ "centred-default", { .w = 200, .h = 300, RECT(100, 100, 50, 20) }, OUT,
		{ 25, -40, 200, 300 } },
	{ "offset", { .w = 10, .h = 10, RECT(0, 0, 10, 10), .anchor = A(RIGHT),
		.gravity = G(RIGHT), .off_x = 3, .off_y = -2 }, OUT, { 13, -2, 10, 10 } },
	{ "no-adjustment-leaves-it-out", { .w = 100, .h = 200, RECT(100, 700, 50, 20),
		.anchor = A(BOTTOM), .gravity = G(BOTTOM) }, OUT, { 75, 720, 100, 200 } },
	{ "flip-y", { .w = 100, .h = 200, RECT(100, 700, 50, 20), .anchor = A(BOTTOM),
		.gravity = G(BOTTOM), .constraints = C(FLIP_Y) }, OUT, { 75, 500, 100, 200 } },
	{ "flip-y-offset-flips", { .w = 100, .h = 200, RECT(100, 700, 50, 20),
		.anchor = A(BOTTOM), .gravity = G(BOTTOM), .off_y = 5,
		.constraints = C(FLIP_Y) }, OUT, { 75, 495, 100, 200 } },
	{ "flip-x", { .w = 100, .h = 20, RECT(1000, 10, 10, 10), .anchor = A(RIGHT),
		.gravity = G(RIGHT), .constraints = C(FLIP_X) }, OUT, { 900, 5, 100, 20 } },
	{ "flip-fails-then-slide", { .w = 100, .h = 700, RECT(0, 300, 10, 10),
		.anchor = A(BOTTOM), .gravity = G(BOTTOM),
		.constraints = C(FLIP_Y) | C(SLIDE_Y) }, OUT, { -45, 68, 100, 700 } },
	{ "flip-fails-no-slide", { .w = 100, .h = 700, RECT(0, 300, 10, 10),
		.anchor = A(BOTTOM), .gravity = G(BOTTOM), .constraints = C(FLIP_Y) }, OUT,
		{ -45, 310, 100, 700 } },
	{ "slide-x", { .w = 100, .h = 50, RECT(1000, 10, 20, 20), .anchor = A(TOP_RIGHT),
		.gravity = G(BOTTOM_RIGHT), .constraints = C(SLIDE_X) }, OUT,
		{ 924, 10, 100, 50 } },
	{ "slide-larger-than-bounds-keeps-start", { .w = 2000, .h = 50, RECT(500, 10, 20, 20),
		.anchor = A(TOP_LEFT), .gravity = G(BOTTOM_RIGHT), .constraints = C(SLIDE_X) },
		OUT, { 0, 10, 2000, 50 } },
	{ "resize-y", { .w = 300, .h = 900, RECT(0, 0, 10, 10), .anchor = A(BOTTOM_LEFT),
		.gravity = G(BOTTOM_RIGHT), .constraints = C(RESIZE_Y) }, OUT,
		{ 0, 10, 300, 758 } },
	{ "bounds-of-a-moved-parent", { .w = 200, .h = 20, RECT(900, 10, 10, 10),
		.anchor = A(TOP_LEFT), .gravity = G(BOTTOM_RIGHT), .constraints = C(SLIDE_X) },
		{ -200, -100, 1024, 768 }, { 624, 10, 200, 20 } },
	{ "slide-x-left-edge", { .w = 50, .h = 50, RECT(10, 10, 10, 10), .anchor = A(BOTTOM),
		.gravity = G(BOTTOM), .constraints = C(FLIP_Y) | C(SLIDE_X) | C(RESIZE_Y) }, OUT,
		{ 0, 20, 50, 50 } },
	{ "inside-untouched", { .w = 50, .h = 50, RECT(100, 100, 10, 10), .anchor = A(BOTTOM),
		.gravity = G(BOTTOM), .constraints = C(FLIP_Y) | C(SLIDE_X) | C(RESIZE_Y) }, OUT,
		{ 80, 110, 50, 50 } },
};

int main(int argc, char **argv)
{
	int n = (int)(sizeof(cases) / sizeof(cases[0]));
	if (argc > 1 && strcmp(argv[1], "--list") == 0) {
		for (int i = 0; i < n; i++)
			printf("positioner@%s\n", cases[i].name);
		return 0;
	}
	int fails = 0, ran = 0;
	for (int i = 0; i < n; i++) {
		const struct pcase *c = &cases[i];
		if (argc > 1 && strcmp(argv[1] + strlen("positioner@"), c->name) != 0)
			continue;
		ran++;
		struct box got = positioner_place(&c->rules, &c->bounds);
		if (memcmp(&got, &c->want, sizeof(got)) != 0) {
			printf("FAIL positioner@%s: got %d,%d %dx%d, want %d,%d %dx%d\n", c->name,
				got.x, got.y, got.w, got.h, c->want.x, c->want.y, c->want.w,
				c->want.h);
			fails++;
		} else {
			printf("ok positioner@%s\n", c->name);
		}
	}
	if (!ran) {
		printf("FAIL: no case named %s\n", argc > 1 ? argv[1] : "(none)");
		return 1;
	}
	return fails ? 1 : 0;
}
