/* SPDX-License-Identifier: MIT */
/* The one clock of the library's own timing: CLOCK_MONOTONIC (not the kernel's flip
 * timestamps, whose clock is the device's: see output.c's pacing). */
#ifndef DISPMAN_CLOCK_H
#define DISPMAN_CLOCK_H

#include <stdint.h>
#include <time.h>

/* A timespec (ours or the kernel's flip and frame stamps) in ns. */
static inline int64_t timespec_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static inline int64_t clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return timespec_ns(&ts);
}

static inline int64_t monotonic_ms(void)
{
	return clock_ns() / 1000000;
}

static inline uint64_t clock_usec(void)
{
	return (uint64_t)clock_ns() / 1000u;
}

#endif
