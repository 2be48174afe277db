/* SPDX-License-Identifier: MIT */
/*
 * The outputs' layout (src/wayland/layout.c) as pure functions: where the outputs go in the
 * extended and mirror layouts, and where the pointer may be (the union of the outputs:
 * crossing from one to the next, clamped at the outer edges and in the gaps of outputs of
 * different heights).
 */
#include <string.h>

#include "layout.h"
#include "unit-main.h"

static void arrange_extend(void **state)
{
	struct box b[3] = { { 9, 9, 1280, 800 }, { 9, 9, 1024, 768 }, { 9, 9, 640, 480 } };
	layout_arrange(DISPMAN_WAYLAND_LAYOUT_EXTEND, b, 3);
	assert_int_equal(b[0].x, 0);
	assert_int_equal(b[1].x, 1280);
	assert_int_equal(b[2].x, 2304);
	for (int i = 0; i < 3; i++)
		assert_int_equal(b[i].y, 0);
	assert_int_equal(b[1].w, 1024); /* sizes are kept */
}

static void arrange_mirror(void **state)
{
	struct box b[2] = { { 9, 9, 1280, 800 }, { 9, 9, 1024, 768 } };
	layout_arrange(DISPMAN_WAYLAND_LAYOUT_MIRROR, b, 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(b[i].x, 0);
		assert_int_equal(b[i].y, 0);
	}
}

static void arrange_empty_output(void **state)
{
	/* an output without a size (disabled) takes no room */
	struct box b[3] = { { 0, 0, 800, 600 }, { 0, 0, 0, 0 }, { 0, 0, 800, 600 } };
	layout_arrange(DISPMAN_WAYLAND_LAYOUT_EXTEND, b, 3);
	assert_int_equal(b[1].x, 800);
	assert_int_equal(b[2].x, 800);
}

static const struct box two[2] = { { 0, 0, 1280, 800 }, { 1280, 0, 1024, 768 } };

static void box_at(void **state)
{
	assert_int_equal(layout_box_at(two, 2, 0, 0), 0);
	assert_int_equal(layout_box_at(two, 2, 1279.5, 799), 0);
	assert_int_equal(layout_box_at(two, 2, 1280, 0), 1);
	assert_int_equal(layout_box_at(two, 2, 2303, 767), 1);
	assert_int_equal(layout_box_at(two, 2, 2304, 0), -1);
	assert_int_equal(layout_box_at(two, 2, 1500, 780), -1); /* under the shorter one */
	assert_int_equal(layout_box_at(two, 2, -1, 10), -1);
}

static void check_clamp(double x, double y, int want_i, double want_x, double want_y)
{
	int i = layout_clamp(two, 2, &x, &y);
	if (i != want_i || x != want_x || y != want_y)
		fail_msg("got %d at %g,%g, want %d at %g,%g", i, x, y, want_i, want_x, want_y);
}

static void clamp_crossing(void **state)
{
	/* inside: unchanged, on whichever output holds it */
	check_clamp(1279, 400, 0, 1279, 400);
	check_clamp(1290, 400, 1, 1290, 400);
	/* beyond the right edge of the last one: its last column */
	check_clamp(5000, 100, 1, 2303, 100);
	/* left of the first and above both */
	check_clamp(-30, -5, 0, 0, 0);
	check_clamp(1500, -40, 1, 1500, 0);
	/* in the gap under the shorter output: up onto it (nearer than the left one) */
	check_clamp(1400, 790, 1, 1400, 767);
	/* in the gap but near the taller one: onto its right column */
	check_clamp(1281, 799, 0, 1279, 799);
}

static void clamp_nothing(void **state)
{
	struct box none[1] = { { 0, 0, 0, 0 } };
	double x = 5, y = 6;
	assert_int_equal(layout_clamp(none, 1, &x, &y), -1);
	assert_true(x == 5 && y == 6);
	assert_int_equal(layout_clamp(none, 0, &x, &y), -1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		{ "layout@arrange-extend", arrange_extend, NULL, NULL, NULL },
		{ "layout@arrange-mirror", arrange_mirror, NULL, NULL, NULL },
		{ "layout@arrange-empty-output", arrange_empty_output, NULL, NULL, NULL },
		{ "layout@box-at", box_at, NULL, NULL, NULL },
		{ "layout@clamp-crossing", clamp_crossing, NULL, NULL, NULL },
		{ "layout@clamp-nothing", clamp_nothing, NULL, NULL, NULL },
	};
	return unit_main("layout", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
