/* SPDX-License-Identifier: MIT */
#include "log.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void default_handler(enum dispman_log_level level, const char *fmt, va_list args,
	void *data);

static dispman_log_handler log_handler = default_handler;
static void *log_data;
static int log_level = -1; /* -1: not decided yet */

static const char *const level_names[] = {
	[DISPMAN_LOG_SILENT] = "silent",
	[DISPMAN_LOG_ERROR] = "error",
	[DISPMAN_LOG_WARNING] = "warning",
	[DISPMAN_LOG_INFO] = "info",
	[DISPMAN_LOG_DEBUG] = "debug",
};

static void default_handler(enum dispman_log_level level, const char *fmt, va_list args,
	void *data)
{
	const char *name = (unsigned)level < ARRAY_SIZE(level_names) ? level_names[level] : "?";
	fprintf(stderr, "dispman %s: ", name);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

int dispman_log_set_handler(dispman_log_handler handler, void *data)
{
	log_handler = handler ? handler : default_handler;
	log_data = handler ? data : NULL;
	return 0;
}

int dispman_log_set_level(enum dispman_log_level level)
{
	switch (level) {
	case DISPMAN_LOG_SILENT:
	case DISPMAN_LOG_ERROR:
	case DISPMAN_LOG_WARNING:
	case DISPMAN_LOG_INFO:
	case DISPMAN_LOG_DEBUG:
		log_level = (int)level;
		return 0;
	}
	dispman_log(DISPMAN_LOG_ERROR, "dispman_log_set_level: unknown level %d", (int)level);
	return -EINVAL;
}

bool log_enabled(enum dispman_log_level level)
{
	if (log_level < 0) {
		const char *env = getenv("DISPMAN_DEBUG");
		log_level = env && strcmp(env, "1") == 0 ? DISPMAN_LOG_DEBUG : DISPMAN_LOG_ERROR;
	}
	return level != DISPMAN_LOG_SILENT && (int)level <= log_level;
}

void log_print(enum dispman_log_level level, const char *fmt, ...)
{
	int saved_errno = errno;
	if (log_enabled(level)) {
		va_list args;
		va_start(args, fmt);
		log_handler(level, fmt, args, log_data);
		va_end(args);
	}
	errno = saved_errno;
}

void dispman_log_write(enum dispman_log_level level, const char *fmt, ...)
{
	int saved_errno = errno;
	if (fmt && log_enabled(level)) {
		va_list args;
		va_start(args, fmt);
		log_handler(level, fmt, args, log_data);
		va_end(args);
	}
	errno = saved_errno;
}
