/* SPDX-License-Identifier: MIT */
/*
 * The one rectangle module (src/rect.h) and the compositor's boxes built on it
 * (src/wayland/box.h): clipping to a screen, intersection and union, with the edge cases every clipper of the library used to handle
 * on its own (off-screen, empty, 32-bit overflow). Pure: no device.
 */
#include "unit.h"

#include <limits.h>

#include "rect.h"
#include "wayland/box.h"

#define SW 1024
#define SH 768

struct clip_case {
	const char *name;
	int32_t x, y;
	uint32_t w, h;
	struct rect want;
};

static const struct clip_case clip_cases[] = {
	{ "rect@clip-inside", 10, 20, 100, 50, { 10, 20, 110, 70 } },
	{ "rect@clip-left-top", -30, -40, 100, 50, { 0, 0, 70, 10 } },
	{ "rect@clip-right-bottom", 1000, 700, 100, 100, { 1000, 700, 1024, 768 } },
	{ "rect@clip-whole-screen", -5, -5, 2000, 2000, { 0, 0, 1024, 768 } },
	/* nothing left: empty, and its corners inside the screen */
	{ "rect@clip-beyond-right", 2000, 10, 10, 10, { 1024, 10, 1024, 20 } },
	{ "rect@clip-before-left", -100, 10, 50, 10, { 0, 10, 0, 20 } },
	{ "rect@clip-empty", 10, 10, 0, 5, { 10, 10, 10, 15 } },
	/* x + w beyond 32 bits: computed in 64 */
	{ "rect@clip-overflow", INT32_MAX - 1, INT32_MIN, UINT32_MAX, UINT32_MAX,
		{ 1024, 0, 1024, 768 } },
};

static void test_clip(void **state)
{
	const struct clip_case *tc = *state;
	struct rect r = rect_clip(tc->x, tc->y, tc->w, tc->h, SW, SH);
	assert_int_equal(r.x0, tc->want.x0);
	assert_int_equal(r.y0, tc->want.y0);
	assert_int_equal(r.x1, tc->want.x1);
	assert_int_equal(r.y1, tc->want.y1);
	assert_true(r.x0 >= 0 && r.x0 <= r.x1 && r.x1 <= SW);
	assert_true(r.y0 >= 0 && r.y0 <= r.y1 && r.y1 <= SH);
}

static void test_intersect_union(void **state)
{
	(void)state;
	struct rect a = { 0, 0, 100, 100 }, b = { 50, 60, 200, 80 }, far = { 300, 300, 400, 400 };
	struct rect i = rect_intersect(&a, &b);
	assert_memory_equal(&i, &((struct rect){ 50, 60, 100, 80 }), sizeof(i));
	assert_true(rect_overlap(&a, &b));
	i = rect_intersect(&a, &far);
	assert_true(rect_empty(&i));
	assert_false(rect_overlap(&a, &far));
	struct rect u = rect_union(&a, &far);
	assert_memory_equal(&u, &((struct rect){ 0, 0, 400, 400 }), sizeof(u));
	struct rect none = { 5, 5, 5, 9 };
	u = rect_union(&a, &none);
	assert_memory_equal(&u, &a, sizeof(u));
	u = rect_union(&none, &b);
	assert_memory_equal(&u, &b, sizeof(u));
}

static void test_box(void **state)
{
	(void)state;
	struct box a = { 10, 10, 20, 20 }, b = { 100, 5, 10, 10 }, neg = { 0, 0, -5, 10 };
	box_union(&a, &b);
	assert_memory_equal(&a, &((struct box){ 10, 5, 100, 25 }), sizeof(a));
	box_union(&a, &neg); /* an empty box adds nothing */
	assert_memory_equal(&a, &((struct box){ 10, 5, 100, 25 }), sizeof(a));
	/* a client's damage anywhere: saturated, not wrapped */
	struct box huge = { INT32_MAX - 5, 0, INT32_MAX, 10 };
	box_union(&a, &huge);
	assert_int_equal(a.x, 10);
	assert_int_equal((int64_t)a.x + a.w, INT32_MAX);
	box_clip(&a, 64, 48);
	assert_memory_equal(&a, &((struct box){ 10, 0, 54, 30 }), sizeof(a));
	struct box off = { 100, 100, 5, 5 };
	box_clip(&off, 64, 48);
	assert_memory_equal(&off, &((struct box){ 0 }), sizeof(off));
	box_clip(&neg, 64, 48);
	assert_memory_equal(&neg, &((struct box){ 0 }), sizeof(neg));
}

/* tests/fuzz found wl_surface.damage at x = INT32_MAX, width 1000, overflowing the damage
 * union's edge sum (UBSan: signed integer overflow) */
static void test_box_overflow(void **state)
{
	(void)state;
	struct box a = { 0, 0, 64, 64 }, b = { INT32_MAX, INT32_MAX, 1000, 1000 };
	box_union(&a, &b); /* nothing of b is representable: a stays */
	assert_memory_equal(&a, &((struct box){ 0, 0, 64, 64 }), sizeof(a));
	a = (struct box){ INT32_MIN, INT32_MIN, 10, 10 };
	b = (struct box){ INT32_MAX - 5, INT32_MAX - 5, 5, 5 };
	box_union(&a, &b); /* a width that does not fit is cut to INT32_MAX */
	assert_memory_equal(&a, &((struct box){ INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX }),
		sizeof(a));
	a = (struct box){ INT32_MAX, 0, 1000, 10 };
	box_clip(&a, 64, 64);
	assert_memory_equal(&a, &((struct box){ 0 }), sizeof(a));
	a = (struct box){ -10, -10, INT32_MAX, INT32_MAX };
	box_clip(&a, 64, 48);
	assert_memory_equal(&a, &((struct box){ 0, 0, 64, 48 }), sizeof(a));
}

int main(int argc, char **argv)
{
	enum { N_CLIP = UNIT_ARRAY_LEN(clip_cases) };
	static const struct CMUnitTest fixed[] = {
		{ "rect@intersect-union", test_intersect_union, NULL, NULL, NULL },
		{ "rect@box", test_box, NULL, NULL, NULL },
		{ "rect@box-overflow", test_box_overflow, NULL, NULL, NULL },
	};
	struct CMUnitTest tests[UNIT_ARRAY_LEN(fixed) + N_CLIP];
	size_t n = 0;
	for (size_t i = 0; i < UNIT_ARRAY_LEN(fixed); i++)
		tests[n++] = fixed[i];
	for (size_t i = 0; i < N_CLIP; i++)
		tests[n++] = (struct CMUnitTest){ clip_cases[i].name, test_clip, NULL, NULL,
			(void *)&clip_cases[i] };
	return unit_main("rect", tests, n, argc, argv);
}
