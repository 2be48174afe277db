/* SPDX-License-Identifier: MIT */
/*
 * dispman_wayland_inject_input() and dispman_wayland_set_seat_capabilities() refuse what is
 * not input for the seat with -EINVAL and a log line (a NULL compositor or event, an event
 * type that is not the seat's, a position that is not finite, unknown capability bits), and
 * take the rest. A compositor on the mock libdrm's vkms-like device (the test links the
 * mock, whose SONAME is libdrm's, so the shared libraries load it too).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <dispman/input.h>
#include <dispman/wayland.h>

#include "mock-drm.h"
#include "unit-main.h"

static char last[512];
static int calls;

static void handler(enum dispman_log_level level, const char *fmt, va_list args, void *data)
{
	(void)data;
	if (level != DISPMAN_LOG_ERROR)
		return;
	vsnprintf(last, sizeof(last), fmt, args);
	calls++;
}

#define CHECK(c) do { if (!(c)) fail_msg("%s:%d: %s (last log: %s)", __FILE__, __LINE__, \
	#c, last); } while (0)

/* One refused call: -EINVAL, one more error line that contains needle. */
#define REFUSED(call, needle) do { int n_ = calls; last[0] = 0; CHECK((call) == -EINVAL); \
	CHECK(calls == n_ + 1); CHECK(strstr(last, needle) != NULL); } while (0)

static void test_refusals(void **state)
{
	(void)state;
	CHECK(dispman_log_set_handler(handler, NULL) == 0);
	CHECK(dispman_log_set_level(DISPMAN_LOG_ERROR) == 0);
	mock_drm_setup_vkms_like();
	int fd = mock_drm_open();
	CHECK(fd >= 0);
	struct dispman_device *dev = dispman_device_create_for_fd(fd);
	CHECK(dev != NULL);
	struct dispman_output *out = dispman_device_get_first_connected_output(dev);
	CHECK(out != NULL);
	struct dispman_wayland *wl = dispman_wayland_create(dev, out);
	CHECK(wl != NULL);

	struct dispman_input_event ev = {
		.type = DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE, .device_name = "test",
		.device_sysname = "test", .x = 10, .y = 20,
	};
	REFUSED(dispman_wayland_inject_input(NULL, &ev), "the compositor is NULL");
	REFUSED(dispman_wayland_inject_input(wl, NULL), "the event is NULL");
	/* device events and unknown types are not input for the seat */
	ev.type = DISPMAN_INPUT_DEVICE_ADDED;
	REFUSED(dispman_wayland_inject_input(wl, &ev), "is not input for the seat");
	ev.type = DISPMAN_INPUT_DEVICE_REMOVED;
	REFUSED(dispman_wayland_inject_input(wl, &ev), "is not input for the seat");
	ev.type = (enum dispman_input_event_type)0;
	REFUSED(dispman_wayland_inject_input(wl, &ev), "event type 0");
	ev.type = (enum dispman_input_event_type)999;
	REFUSED(dispman_wayland_inject_input(wl, &ev), "event type 999");
	/* every positioned type refuses a position that is not finite, on either axis */
	const enum dispman_input_event_type positioned[] = {
		DISPMAN_INPUT_POINTER_MOTION, DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE,
		DISPMAN_INPUT_POINTER_BUTTON, DISPMAN_INPUT_POINTER_AXIS,
		DISPMAN_INPUT_TOUCH_DOWN, DISPMAN_INPUT_TOUCH_MOTION, DISPMAN_INPUT_TOUCH_UP,
	};
	for (size_t i = 0; i < sizeof(positioned) / sizeof(positioned[0]); i++) {
		ev.type = positioned[i];
		ev.x = NAN;
		ev.y = 20;
		REFUSED(dispman_wayland_inject_input(wl, &ev), "position not finite");
		ev.x = 10;
		ev.y = INFINITY;
		REFUSED(dispman_wayland_inject_input(wl, &ev), "position not finite");
		ev.y = -INFINITY;
		REFUSED(dispman_wayland_inject_input(wl, &ev), "position not finite");
		ev.y = 20;
	}
	/* the rest is taken, with nothing logged; keys and touch frames carry no position */
	int before = calls;
	ev.type = DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE;
	CHECK(dispman_wayland_inject_input(wl, &ev) == 0);
	ev.type = DISPMAN_INPUT_KEY;
	ev.x = NAN;
	ev.key = 30;
	ev.state = DISPMAN_INPUT_PRESSED;
	CHECK(dispman_wayland_inject_input(wl, &ev) == 0);
	ev.state = DISPMAN_INPUT_RELEASED;
	CHECK(dispman_wayland_inject_input(wl, &ev) == 0);
	ev.type = DISPMAN_INPUT_TOUCH_FRAME;
	CHECK(dispman_wayland_inject_input(wl, &ev) == 0);
	CHECK(calls == before);

	REFUSED(dispman_wayland_set_seat_capabilities(NULL, DISPMAN_INPUT_CAP_POINTER),
		"the compositor is NULL");
	REFUSED(dispman_wayland_set_seat_capabilities(wl, 1u << 31), "unknown capability bits");
	CHECK(dispman_wayland_set_seat_capabilities(wl, DISPMAN_INPUT_CAP_POINTER |
		DISPMAN_INPUT_CAP_KEYBOARD | DISPMAN_INPUT_CAP_TOUCH) == 0);

	dispman_wayland_destroy(wl);
	dispman_device_destroy(dev);
	mock_drm_reset();
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "inject-input@refusals", test_refusals, NULL, NULL, NULL },
	};
	return unit_main("inject-input", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
