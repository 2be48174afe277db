/* SPDX-License-Identifier: MIT */
/* Logging: log lines name src/file.c and the line. */
#ifndef DISPMAN_LOG_H
#define DISPMAN_LOG_H

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

#endif
