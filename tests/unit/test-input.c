/* SPDX-License-Identifier: MIT */
/*
 * The pure parts of the input module: clamping, the pointer position kept in output pixels,
 * the cursor's origin from the hot spot (src/input-pointer.c), and which libinput events are
 * delivered as what (src/input-events.c).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "unit-main.h"

#include "input-private.h"

#if HAVE_LIBINPUT
#include <libinput.h>
#endif

static void test_clamp(void **state)
{
	static const struct {
		double v;
		uint32_t size;
		double want;
	} cases[] = {
		{ 10.5, 1024, 10.5 },
		{ -0.1, 1024, 0.0 },
		{ 1023.0, 1024, 1023.0 },
		{ 1023.5, 1024, 1023.0 },
		{ 5000.0, 1024, 1023.0 },
		{ 3.0, 0, 0.0 },       /* no output: everything is 0 */
		{ 3.0, 1, 0.0 },
		{ NAN, 1024, 0.0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_true(input_clamp(cases[i].v, cases[i].size) == cases[i].want);
}

static void test_resize_centres_then_clamps(void **state)
{
	struct pointer_area p = { 0 };
	assert_true(pointer_area_resize(&p, 1024, 768));
	assert_true(p.x == 512.0 && p.y == 384.0);
	assert_false(pointer_area_resize(&p, 1024, 768));
	pointer_area_warp(&p, 900.0, 700.0);
	assert_true(pointer_area_resize(&p, 640, 480)); /* smaller mode: clamped, not centred */
	assert_true(p.x == 639.0 && p.y == 479.0);
	assert_true(pointer_area_resize(&p, 1920, 1080)); /* larger: stays */
	assert_true(p.x == 639.0 && p.y == 479.0);
}

static void test_move(void **state)
{
	struct pointer_area p = { 0 };
	pointer_area_resize(&p, 1024, 768);
	pointer_area_warp(&p, 100.0, 100.0);
	pointer_area_move(&p, 10.25, -5.5);
	assert_true(p.x == 110.25 && p.y == 94.5);
	pointer_area_move(&p, -1e6, -1e6);
	assert_true(p.x == 0.0 && p.y == 0.0);
	pointer_area_move(&p, 1e6, 1e6);
	assert_true(p.x == 1023.0 && p.y == 767.0);

	struct pointer_area none = { 0 }; /* no output yet */
	pointer_area_move(&none, 50.0, 50.0);
	assert_true(none.x == 0.0 && none.y == 0.0);
}

static void test_cursor_origin(void **state)
{
	struct pointer_area p = { 0 };
	pointer_area_resize(&p, 1024, 768);
	int32_t x, y;
	pointer_area_warp(&p, 475.9, 333.3);
	pointer_area_cursor_origin(&p, 8, 8, &x, &y);
	assert_int_equal(x, 467);
	assert_int_equal(y, 325);
	pointer_area_warp(&p, 0.0, 0.0);
	pointer_area_cursor_origin(&p, 8, 4, &x, &y);
	assert_int_equal(x, -8); /* the hot spot may push the cursor off the top-left */
	assert_int_equal(y, -4);
}

#if HAVE_LIBINPUT
static void test_event_types(void **state)
{
	static const struct {
		enum libinput_event_type li;
		enum dispman_input_event_type want;
	} cases[] = {
		{ LIBINPUT_EVENT_DEVICE_ADDED, DISPMAN_INPUT_DEVICE_ADDED },
		{ LIBINPUT_EVENT_DEVICE_REMOVED, DISPMAN_INPUT_DEVICE_REMOVED },
		{ LIBINPUT_EVENT_KEYBOARD_KEY, DISPMAN_INPUT_KEY },
		{ LIBINPUT_EVENT_POINTER_MOTION, DISPMAN_INPUT_POINTER_MOTION },
		{ LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE },
		{ LIBINPUT_EVENT_POINTER_BUTTON, DISPMAN_INPUT_POINTER_BUTTON },
		{ LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, DISPMAN_INPUT_POINTER_AXIS },
		{ LIBINPUT_EVENT_POINTER_SCROLL_FINGER, DISPMAN_INPUT_POINTER_AXIS },
		{ LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS, DISPMAN_INPUT_POINTER_AXIS },
		{ LIBINPUT_EVENT_POINTER_AXIS, 0 }, /* legacy duplicate of the scroll events */
		{ LIBINPUT_EVENT_TOUCH_DOWN, DISPMAN_INPUT_TOUCH_DOWN },
		{ LIBINPUT_EVENT_TOUCH_MOTION, DISPMAN_INPUT_TOUCH_MOTION },
		{ LIBINPUT_EVENT_TOUCH_UP, DISPMAN_INPUT_TOUCH_UP },
		{ LIBINPUT_EVENT_TOUCH_CANCEL, DISPMAN_INPUT_TOUCH_CANCEL },
		{ LIBINPUT_EVENT_TOUCH_FRAME, DISPMAN_INPUT_TOUCH_FRAME },
		{ LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, 0 },
		{ LIBINPUT_EVENT_TABLET_TOOL_AXIS, 0 },
		{ LIBINPUT_EVENT_SWITCH_TOGGLE, 0 },
		{ LIBINPUT_EVENT_NONE, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(input_event_type_from_libinput((int)cases[i].li), cases[i].want);
}
#endif

#define CASE(name, fn) { "input@" name, fn, NULL, NULL, NULL }

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		CASE("clamp", test_clamp),
		CASE("resize-centres-then-clamps", test_resize_centres_then_clamps),
		CASE("move", test_move),
		CASE("cursor-origin", test_cursor_origin),
#if HAVE_LIBINPUT
		CASE("event-types", test_event_types),
#endif
	};
	return unit_main("input", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
