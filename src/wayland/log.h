/* SPDX-License-Identifier: MIT */
/* The compositor's log lines go through the core library's handler and level
 * (dispman_log_set_handler(), dispman_log_set_level()), named by file and line. */
#ifndef DISPMAN_WAYLAND_LOG_H
#define DISPMAN_WAYLAND_LOG_H

#include <string.h>

#include <dispman/dispman.h>

#define PRINTF_ATTR(a, b) __attribute__((format(printf, a, b)))

/* Keeps errno intact, as the core's logging does. */
#define wlog(level, fmt, ...) \
	dispman_log_write(level, "[%s:%d] " fmt, __FILE__, __LINE__, ##__VA_ARGS__)

#endif
