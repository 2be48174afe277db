/* SPDX-License-Identifier: MIT */
/* libdispman-wayland logs through the core's handler and level (dispman_log_set_handler(),
 * dispman_log_set_level()), not to stderr on its own. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <dispman/wayland.h>

#include "unit-main.h"

static char last[512];
static int calls;

static void handler(enum dispman_log_level level, const char *fmt, va_list args, void *data)
{
	(void)level;
	(void)data;
	vsnprintf(last, sizeof(last), fmt, args);
	calls++;
}

#define CHECK(c) assert_true(c)

static void test_log_handler(void **state)
{
	(void)state;
	CHECK(dispman_log_set_handler(handler, NULL) == 0);
	CHECK(dispman_log_set_level(DISPMAN_LOG_ERROR) == 0);
	errno = 0;
	CHECK(dispman_wayland_create(NULL, NULL) == NULL);
	CHECK(errno == EINVAL);
	CHECK(calls == 1);
	CHECK(strstr(last, "dispman_wayland_create") != NULL);
	CHECK(strstr(last, "wayland.c") != NULL); /* the file and line of the compositor */
	/* the level applies to the compositor's lines too */
	CHECK(dispman_log_set_level(DISPMAN_LOG_SILENT) == 0);
	CHECK(dispman_wayland_create(NULL, NULL) == NULL);
	CHECK(calls == 1);
	struct dispman_wayland_stats st = { .size = sizeof(st) };
	CHECK(dispman_log_set_level(DISPMAN_LOG_ERROR) == 0);
	CHECK(dispman_wayland_get_stats(NULL, &st) == -EINVAL);
	CHECK(calls == 2 && strstr(last, "dispman_wayland_get_stats") != NULL);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "wayland@log-handler", test_log_handler, NULL, NULL, NULL },
	};
	return unit_main("wayland", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
