/* SPDX-License-Identifier: MIT */
/* The event loop: fd sources, DRM events, queued commits (event.c). */
#ifndef DISPMAN_EVENT_H
#define DISPMAN_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "list.h"

struct dispman_device;
struct dispman_output;

/* Returns the number of events handled, or a negative errno. */
typedef int (*event_source_func)(int fd, uint32_t events, void *data);

struct event_source {
	struct dispman_device *dev;
	int fd;
	uint32_t events;
	event_source_func func;
	void *data;
	struct list link; /* dispman_device.event_sources */
};

/* fd stays owned by the caller; remove the source before closing it. */
struct event_source *event_source_add(struct dispman_device *dev, int fd, uint32_t events,
	event_source_func func, void *data);
void event_source_remove(struct event_source *source);
int event_init(struct dispman_device *dev);
void event_finish(struct dispman_device *dev);
/* Handle DRM events only (page flips), waiting up to timeout_ms. */
int drm_dispatch(struct dispman_device *dev, int timeout_ms);
/*
 * Wait until the output has no page flip pending, at most timeout_ms, handling DRM events
 * (frame callbacks run; their commits follow the usual rules). Returns 0, -ETIMEDOUT
 * (logged, naming the output) or another negative errno.
 */
int output_wait_flip(struct dispman_output *out, int timeout_ms);
/* Arm (true) or disarm the timer that retries DRM master every 500 ms while paused. */
void master_timer_set(struct dispman_device *dev, bool on);

#endif
