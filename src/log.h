/* SPDX-License-Identifier: MIT */
/* Logging: log lines name src/file.c and the line. */
#ifndef DISPMAN_LOG_H
#define DISPMAN_LOG_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <dispman/dispman.h>

#define DISPMAN_PRINTF(a, b) __attribute__((format(printf, a, b)))

void log_print(enum dispman_log_level level, const char *fmt, ...) DISPMAN_PRINTF(2, 3);
bool log_enabled(enum dispman_log_level level);

/* Both keep errno intact. */
#define dispman_log(level, fmt, ...) \
	log_print(level, "[%s:%d] " fmt, __FILE__, __LINE__, ##__VA_ARGS__)
#define dispman_log_errno(level, err, fmt, ...) \
	log_print(level, "[%s:%d] " fmt ": %s", __FILE__, __LINE__, ##__VA_ARGS__, \
		strerror(err))

/*
 * A public function's check of an object argument (include/dispman/dispman.h: NULL objects
 * are refused): when p is NULL, logs "function: name is NULL" at error level, sets errno to
 * EINVAL and returns true. name is the parameter's name in the header.
 */
#define refuse_null(p, name) refuse_null_at((p) == NULL, __func__, (name), __FILE__, __LINE__)

static inline bool refuse_null_at(bool is_null, const char *fn, const char *name,
	const char *file, int line)
{
	if (__builtin_expect(!is_null, 1))
		return false;
	log_print(DISPMAN_LOG_ERROR, "[%s:%d] %s: %s is NULL", file, line, fn, name);
	errno = EINVAL;
	return true;
}

#endif
