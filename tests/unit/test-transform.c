/* SPDX-License-Identifier: MIT */
/*
 * The output transform's geometry (src/transform.c, pure): points, boxes, composition and
 * inverses, the plane rotation values, a layer's rectangles on the scanout and their clip,
 * the CPU compositor's sampling matrix; and the input side (src/input-pointer.c): touch
 * and absolute positions from the panel's pixels to the viewer's.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unit-main.h"

#include "input-private.h"
#include "transform.h"

#define ALL_TRANSFORMS 8

static void test_point(void **state)
{
	(void)state;
	/* the upright picture's top-left corner, of a 100 x 50 picture */
	static const double want[ALL_TRANSFORMS][2] = {
		{ 0, 0 }, { 50, 0 }, { 100, 50 }, { 0, 100 },
		{ 100, 0 }, { 50, 100 }, { 0, 50 }, { 0, 0 },
	};
	for (int t = 0; t < ALL_TRANSFORMS; t++) {
		double x, y;
		transform_point((enum dispman_transform)t, 0, 0, 100, 50, &x, &y);
		assert_true(x == want[t][0] && y == want[t][1]);
		/* and back, for a point inside */
		double bx, by;
		transform_point((enum dispman_transform)t, 12.5, 7.25, 100, 50, &x, &y);
		bool swap = transform_swaps((enum dispman_transform)t);
		transform_point(transform_invert((enum dispman_transform)t), x, y, swap ? 50 : 100,
			swap ? 100 : 50, &bx, &by);
		assert_true(bx == 12.5 && by == 7.25);
	}
}

static void test_compose(void **state)
{
	(void)state;
	for (int t = 0; t < ALL_TRANSFORMS; t++) {
		enum dispman_transform e = (enum dispman_transform)t;
		assert_int_equal(transform_compose(e, transform_invert(e)), DISPMAN_TRANSFORM_NORMAL);
		assert_int_equal(transform_compose(DISPMAN_TRANSFORM_NORMAL, e), e);
	}
	assert_int_equal(transform_compose(DISPMAN_TRANSFORM_90, DISPMAN_TRANSFORM_90),
		DISPMAN_TRANSFORM_180);
	assert_int_equal(transform_compose(DISPMAN_TRANSFORM_90, DISPMAN_TRANSFORM_180),
		DISPMAN_TRANSFORM_270);
	/* FLIPPED_90 mirrors, then turns */
	assert_int_equal(transform_compose(DISPMAN_TRANSFORM_FLIPPED, DISPMAN_TRANSFORM_90),
		DISPMAN_TRANSFORM_FLIPPED_90);
	assert_int_equal(transform_invert(DISPMAN_TRANSFORM_FLIPPED_90),
		DISPMAN_TRANSFORM_FLIPPED_90);
}

static void test_drm_rotation(void **state)
{
	(void)state;
	/* wl_output's turns are clockwise, the kernel's rotate-N counter-clockwise */
	assert_int_equal(transform_drm_rotation(DISPMAN_TRANSFORM_NORMAL), TRANSFORM_DRM_ROTATE_0);
	assert_int_equal(transform_drm_rotation(DISPMAN_TRANSFORM_90), TRANSFORM_DRM_ROTATE_270);
	assert_int_equal(transform_drm_rotation(DISPMAN_TRANSFORM_180), TRANSFORM_DRM_ROTATE_180);
	assert_int_equal(transform_drm_rotation(DISPMAN_TRANSFORM_270), TRANSFORM_DRM_ROTATE_90);
	assert_int_equal(transform_drm_rotation(DISPMAN_TRANSFORM_FLIPPED),
		TRANSFORM_DRM_ROTATE_0 | TRANSFORM_DRM_REFLECT_X);
	assert_int_equal(transform_drm_rotation(DISPMAN_TRANSFORM_FLIPPED_90),
		TRANSFORM_DRM_ROTATE_270 | TRANSFORM_DRM_REFLECT_X);
}

static void test_names(void **state)
{
	(void)state;
	for (int t = 0; t < ALL_TRANSFORMS; t++)
		assert_int_equal(transform_from_name(transform_name(t)), t);
	assert_int_equal(transform_from_name("0"), DISPMAN_TRANSFORM_NORMAL);
	assert_int_equal(transform_from_name("45"), -1);
	assert_null(transform_name(8));
	assert_false(transform_valid(-1));
}

/* A 100 x 50 layer at the viewer's top left, on a 768 x 1024 viewer of a 1024 x 768 mode
 * turned by 90: it is at the mode's top right, 50 wide and 100 high. */
static void test_geometry(void **state)
{
	(void)state;
	struct transform_geom g = { 0, 0, 100 << 16, 50 << 16, 0, 0, 100, 50, 0 };
	transform_geometry(DISPMAN_TRANSFORM_90, DISPMAN_TRANSFORM_NORMAL, 768, 1024, &g);
	assert_int_equal(g.dst_x, 974);
	assert_int_equal(g.dst_y, 0);
	assert_int_equal(g.dst_w, 50);
	assert_int_equal(g.dst_h, 100);
	assert_int_equal(g.t, DISPMAN_TRANSFORM_90);
	assert_int_equal(g.src_w, 100 << 16); /* the source stays in buffer coordinates */
	assert_true(transform_clip(&g, 1024, 768));
	assert_int_equal(g.dst_x, 974); /* inside: unchanged */
	assert_int_equal(g.dst_h, 100);

	/* a buffer drawn turned the output's way: shown as it is (no plane rotation) */
	struct transform_geom pre = { 0, 0, 1024 << 16, 768 << 16, 0, 0, 768, 1024, 0 };
	transform_geometry(DISPMAN_TRANSFORM_90, DISPMAN_TRANSFORM_90, 768, 1024, &pre);
	assert_int_equal(pre.t, DISPMAN_TRANSFORM_NORMAL);
	assert_int_equal(pre.dst_x, 0);
	assert_int_equal(pre.dst_w, 1024);
	assert_int_equal(pre.dst_h, 768);
}

/* The same layer 10 pixels left of the viewer's edge: the mode's top loses 10 rows, which
 * are the buffer's 10 left columns. */
static void test_clip(void **state)
{
	(void)state;
	struct transform_geom g = { 0, 0, 100 << 16, 50 << 16, -10, 0, 100, 50, 0 };
	transform_geometry(DISPMAN_TRANSFORM_90, DISPMAN_TRANSFORM_NORMAL, 768, 1024, &g);
	assert_int_equal(g.dst_y, -10);
	assert_true(transform_clip(&g, 1024, 768));
	assert_int_equal(g.dst_x, 974);
	assert_int_equal(g.dst_y, 0);
	assert_int_equal(g.dst_w, 50);
	assert_int_equal(g.dst_h, 90);
	assert_int_equal(g.src_x, 10 << 16);
	assert_int_equal(g.src_y, 0);
	assert_int_equal(g.src_w, 90 << 16);
	assert_int_equal(g.src_h, 50 << 16);
	/* wholly off the screen */
	struct transform_geom off = { 0, 0, 1 << 16, 1 << 16, 2000, 0, 1, 1, 0 };
	assert_false(transform_clip(&off, 1024, 768));
}

/* The CPU compositor's sampling for the layer of test_geometry(): the destination's top
 * left is the buffer's bottom left, right goes up the buffer, down goes right. */
static void test_source_matrix(void **state)
{
	(void)state;
	struct transform_geom g = { 0, 0, 100 << 16, 50 << 16, 974, 0, 50, 100,
		DISPMAN_TRANSFORM_90 };
	double m[6];
	transform_source_matrix(&g, m);
	static const double want[6] = { 0, 1, 0, -1, 0, 50 };
	for (size_t i = 0; i < 6; i++)
		assert_true(m[i] == want[i]);
	/* scaled 2x and offset: the source's (8, 4) + half */
	struct transform_geom s = { 8 << 16, 4 << 16, 50 << 16, 25 << 16, 0, 0, 100, 50,
		DISPMAN_TRANSFORM_NORMAL };
	transform_source_matrix(&s, m);
	assert_true(m[0] == 0.5 && m[1] == 0 && m[2] == 8 && m[3] == 0 && m[4] == 0.5 &&
		m[5] == 4);
}

/* A touch at the panel's corners reaches the viewer's matching corners. */
static void test_input_mapping(void **state)
{
	(void)state;
	struct pointer_area p = { 0 };
	pointer_area_resize(&p, 768, 1024); /* the viewer's: a 1024 x 768 panel turned by 90 */
	uint32_t w, h;
	pointer_area_screen_size(&p, DISPMAN_TRANSFORM_90, &w, &h);
	assert_int_equal(w, 1024);
	assert_int_equal(h, 768);
	double x, y;
	/* the panel's top left is the viewer's bottom left (its top edge the viewer's left) */
	pointer_area_from_screen(&p, DISPMAN_TRANSFORM_90, 0.5, 0.5, &x, &y);
	assert_true(x == 0.5 && y == 1023.0); /* 1023.5, clamped */
	/* the panel's top right is the viewer's top left */
	pointer_area_from_screen(&p, DISPMAN_TRANSFORM_90, 1023.5, 0.5, &x, &y);
	assert_true(x == 0.5 && y == 0.5);
	/* 270: the panel's top left is the viewer's top right */
	pointer_area_from_screen(&p, DISPMAN_TRANSFORM_270, 0.5, 0.5, &x, &y);
	assert_true(x == 767.0 && y == 0.5); /* 767.5, clamped to the last pixel */
	/* normal: as it is */
	struct pointer_area n = { 0 };
	pointer_area_resize(&n, 1024, 768);
	pointer_area_from_screen(&n, DISPMAN_TRANSFORM_NORMAL, 10, 20, &x, &y);
	assert_true(x == 10 && y == 20);
}

#define CASE(name, fn) { "transform@" name, fn, NULL, NULL, NULL }

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		CASE("point", test_point),
		CASE("compose", test_compose),
		CASE("drm-rotation", test_drm_rotation),
		CASE("names", test_names),
		CASE("geometry", test_geometry),
		CASE("clip", test_clip),
		CASE("source-matrix", test_source_matrix),
		CASE("input-mapping", test_input_mapping),
	};
	return unit_main("transform", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
