/* SPDX-License-Identifier: MIT */
/*
 * The camera API of a build without V4L2 (src/camera-stub.c, linked here with src/log.c
 * only, whatever this build has): every call fails with ENOTSUP and says why in the log.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "unit-main.h"

#include <dispman/dispman.h>
#include <dispman/camera.h>

static char last[256];
static int n_errors;

static void handler(enum dispman_log_level level, const char *fmt, va_list args, void *data)
{
	(void)data;
	if (level == DISPMAN_LOG_ERROR)
		n_errors++;
	vsnprintf(last, sizeof(last), fmt, args);
}

static void expect_logged(const char *func)
{
	assert_int_equal(n_errors, 1);
	assert_non_null(strstr(last, func));
	assert_non_null(strstr(last, "built without V4L2"));
	n_errors = 0;
	last[0] = 0;
}

static void test_enotsup(void **state)
{
	(void)state;
	dispman_log_set_handler(handler, NULL);
	struct dispman_camera_format fmts[4];
	assert_int_equal(dispman_camera_query_formats(NULL, "/dev/video0", fmts, 4), -ENOTSUP);
	expect_logged("dispman_camera_query_formats");
	struct dispman_camera_config cfg = { .size = sizeof(cfg), .path = "/dev/video0" };
	errno = 0;
	assert_null(dispman_camera_create(NULL, &cfg));
	assert_int_equal(errno, ENOTSUP);
	expect_logged("dispman_camera_create");
	assert_int_equal(dispman_camera_start(NULL), -ENOTSUP);
	expect_logged("dispman_camera_start");
	assert_int_equal(dispman_camera_stop(NULL), -ENOTSUP);
	expect_logged("dispman_camera_stop");
	assert_int_equal(dispman_camera_set_control(NULL, "brightness", 1), -ENOTSUP);
	expect_logged("dispman_camera_set_control");
	struct dispman_camera_stats st = { .size = sizeof(st) };
	assert_int_equal(dispman_camera_get_stats(NULL, &st), -ENOTSUP);
	expect_logged("dispman_camera_get_stats");
	uint32_t fourcc = 1, w = 1, h = 1;
	dispman_camera_get_format(NULL, &fourcc, &w, &h);
	assert_int_equal(fourcc | w | h, 0);
	assert_int_equal(dispman_camera_set_frame_callback(NULL, NULL, NULL), -EINVAL);
	expect_logged("dispman_camera_set_frame_callback");
	assert_int_equal(dispman_camera_set_error_callback(NULL, NULL, NULL), -EINVAL);
	expect_logged("dispman_camera_set_error_callback");
	dispman_camera_destroy(NULL);
	assert_int_equal(n_errors, 0);
	dispman_log_set_handler(NULL, NULL);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "camera-stub@enotsup", test_enotsup, NULL, NULL, NULL },
	};
	return unit_main("camera-stub", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
