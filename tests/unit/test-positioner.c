/* SPDX-License-Identifier: MIT */
/*
 * xdg_positioner placement (src/wayland/positioner.c) as a pure function: a table of rules
 * and bounds with the box each must give, one meson test per case (positioner@NAME).
 */
#include <stdio.h>
#include <string.h>

#include "positioner.h"
#include "unit-main.h"
#include "xdg-shell-server-protocol.h"

#define A(n) XDG_POSITIONER_ANCHOR_##n
#define G(n) XDG_POSITIONER_GRAVITY_##n
#define C(n) XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_##n

struct pcase {
	const char *name;               /* positioner@NAME */
	struct positioner_rules rules;
	struct box bounds;
	struct box want;
};

#define OUT { 0, 0, 1024, 768 }
#define RECT(x, y, w, h) .anchor_rect = { x, y, w, h }, .anchor_rect_set = true

static const struct pcase cases[] = {
	{ "positioner@below-left", { .w = 200, .h = 300, RECT(100, 100, 50, 20), .anchor = A(BOTTOM_LEFT),
		.gravity = G(BOTTOM_RIGHT) }, OUT, { 100, 120, 200, 300 } },
	{ "positioner@centred-default", { .w = 200, .h = 300, RECT(100, 100, 50, 20) }, OUT,
		{ 25, -40, 200, 300 } },
	{ "positioner@offset", { .w = 10, .h = 10, RECT(0, 0, 10, 10), .anchor = A(RIGHT),
		.gravity = G(RIGHT), .off_x = 3, .off_y = -2 }, OUT, { 13, -2, 10, 10 } },
	{ "positioner@no-adjustment-leaves-it-out", { .w = 100, .h = 200, RECT(100, 700, 50, 20),
		.anchor = A(BOTTOM), .gravity = G(BOTTOM) }, OUT, { 75, 720, 100, 200 } },
	{ "positioner@flip-y", { .w = 100, .h = 200, RECT(100, 700, 50, 20), .anchor = A(BOTTOM),
		.gravity = G(BOTTOM), .constraints = C(FLIP_Y) }, OUT, { 75, 500, 100, 200 } },
	{ "positioner@flip-y-offset-flips", { .w = 100, .h = 200, RECT(100, 700, 50, 20),
		.anchor = A(BOTTOM), .gravity = G(BOTTOM), .off_y = 5,
		.constraints = C(FLIP_Y) }, OUT, { 75, 495, 100, 200 } },
	{ "positioner@flip-x", { .w = 100, .h = 20, RECT(1000, 10, 10, 10), .anchor = A(RIGHT),
		.gravity = G(RIGHT), .constraints = C(FLIP_X) }, OUT, { 900, 5, 100, 20 } },
	{ "positioner@flip-fails-then-slide", { .w = 100, .h = 700, RECT(0, 300, 10, 10),
		.anchor = A(BOTTOM), .gravity = G(BOTTOM),
		.constraints = C(FLIP_Y) | C(SLIDE_Y) }, OUT, { -45, 68, 100, 700 } },
	{ "positioner@flip-fails-no-slide", { .w = 100, .h = 700, RECT(0, 300, 10, 10),
		.anchor = A(BOTTOM), .gravity = G(BOTTOM), .constraints = C(FLIP_Y) }, OUT,
		{ -45, 310, 100, 700 } },
	{ "positioner@slide-x", { .w = 100, .h = 50, RECT(1000, 10, 20, 20), .anchor = A(TOP_RIGHT),
		.gravity = G(BOTTOM_RIGHT), .constraints = C(SLIDE_X) }, OUT,
		{ 924, 10, 100, 50 } },
	{ "positioner@slide-larger-than-bounds-keeps-start", { .w = 2000, .h = 50, RECT(500, 10, 20, 20),
		.anchor = A(TOP_LEFT), .gravity = G(BOTTOM_RIGHT), .constraints = C(SLIDE_X) },
		OUT, { 0, 10, 2000, 50 } },
	{ "positioner@resize-y", { .w = 300, .h = 900, RECT(0, 0, 10, 10), .anchor = A(BOTTOM_LEFT),
		.gravity = G(BOTTOM_RIGHT), .constraints = C(RESIZE_Y) }, OUT,
		{ 0, 10, 300, 758 } },
	{ "positioner@bounds-of-a-moved-parent", { .w = 200, .h = 20, RECT(900, 10, 10, 10),
		.anchor = A(TOP_LEFT), .gravity = G(BOTTOM_RIGHT), .constraints = C(SLIDE_X) },
		{ -200, -100, 1024, 768 }, { 624, 10, 200, 20 } },
	{ "positioner@slide-x-left-edge", { .w = 50, .h = 50, RECT(10, 10, 10, 10), .anchor = A(BOTTOM),
		.gravity = G(BOTTOM), .constraints = C(FLIP_Y) | C(SLIDE_X) | C(RESIZE_Y) }, OUT,
		{ 0, 20, 50, 50 } },
	{ "positioner@inside-untouched", { .w = 50, .h = 50, RECT(100, 100, 10, 10), .anchor = A(BOTTOM),
		.gravity = G(BOTTOM), .constraints = C(FLIP_Y) | C(SLIDE_X) | C(RESIZE_Y) }, OUT,
		{ 80, 110, 50, 50 } },
};

static void test_case(void **state)
{
	const struct pcase *c = *state;
	struct box got = positioner_place(&c->rules, &c->bounds);
	if (memcmp(&got, &c->want, sizeof(got)) != 0)
		fail_msg("%s: got %d,%d %dx%d, want %d,%d %dx%d", c->name, got.x, got.y, got.w,
			got.h, c->want.x, c->want.y, c->want.w, c->want.h);
}

int main(int argc, char **argv)
{
	enum { N = UNIT_ARRAY_LEN(cases) };
	struct CMUnitTest tests[N];
	for (size_t i = 0; i < N; i++)
		tests[i] = (struct CMUnitTest){ cases[i].name, test_case, NULL, NULL,
			(void *)&cases[i] };
	return unit_main("positioner", tests, N, argc, argv);
}
