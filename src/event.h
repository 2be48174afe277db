/* SPDX-License-Identifier: MIT */
/* The event loop: fd sources and their dispatch (event.c). */
#ifndef DISPMAN_EVENT_H
#define DISPMAN_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "list.h"

struct dispman_device;

/* Returns the number of events handled, or a negative errno. */
typedef int (*event_source_func)(int fd, uint32_t events, void *data);

/* An fd the loop watches (event.c owns its body). */
struct event_source;

/* fd stays owned by the caller; remove the source before closing it. */
struct event_source *event_source_add(struct dispman_device *dev, int fd, uint32_t events,
	event_source_func func, void *data);
void event_source_remove(struct event_source *source);
/* The device's loop (device_event_loop(), its body event.c's) and its epoll fd, the public
 * dispman_device_get_fd(); event_finish() removes every source left, closes the fd and frees
 * the loop (nothing when event_init() did not run or failed). */
int event_init(struct dispman_device *dev);
void event_finish(struct dispman_device *dev);
/*
 * Wait up to timeout_ms on the epoll fd and call the ready sources (the loop of
 * dispman_device_dispatch(), dispatch.c). Returns the number of events handled, 0 on
 * timeout or EINTR, or a negative errno.
 */
int event_dispatch(struct dispman_device *dev, int timeout_ms);
/*
 * Which batch of ready events the handlers run for: it changes with every epoll_wait()
 * that returned events. A handler whose fd may have been read since that epoll_wait()
 * (by another handler of the batch) compares it with the batch of its own last read.
 */
unsigned event_batch(const struct dispman_device *dev);
/* Inside event_dispatch(): its sources' handlers are running. */
bool event_dispatching(const struct dispman_device *dev);

#endif
