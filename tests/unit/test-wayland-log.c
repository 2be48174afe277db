/* SPDX-License-Identifier: MIT */
/* libdispman-wayland logs through the core's handler and level (dispman_log_set_handler(),
 * dispman_log_set_level()), not to stderr on its own. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <dispman/wayland.h>

static char last[512];
static int calls;

static void handler(enum dispman_log_level level, const char *fmt, va_list args, void *data)
{
	(void)level;
	(void)data;
	vsnprintf(last, sizeof(last), fmt, args);
	calls++;
}

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
	return 1; } } while (0)

int main(void)
{
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
	printf("wayland log lines reach the application's handler, at its level\n");
	return 0;
}
