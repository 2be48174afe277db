/* SPDX-License-Identifier: MIT */
/*
 * One epoll fd per device. The other modules (DRM events, udev, libseat, V4L2, libinput,
 * timers) register fds with a callback through event_source_add(); event_dispatch() calls
 * them. The loop knows nothing of what its sources do.
 */
#include "event.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "device.h"
#include "log.h"
#include "util.h"

/* A device's loop (dispman_device.event): event_init() allocates it, event_finish() frees
 * it. */
struct event_loop {
	int epoll_fd;
	struct list sources;      /* event_source.link */
	struct list dead_sources; /* event_source.link: removed during dispatch, freed after */
	int dispatch_depth;
	unsigned batch;           /* epoll_wait() calls that returned events (event_batch()) */
};

struct event_source {
	struct event_loop *loop;
	int fd;
	uint32_t events;
	event_source_func func;
	void *data;
	struct list link; /* event_loop.sources */
};

struct event_source *event_source_add(struct dispman_device *dev, int fd, uint32_t events,
	event_source_func func, void *data)
{
	struct event_source *source = calloc(1, sizeof(*source));
	if (!source) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory adding an event source");
		errno = ENOMEM;
		return NULL;
	}
	struct event_loop *loop = device_event_loop(dev);
	source->loop = loop;
	source->fd = fd;
	source->events = events;
	source->func = func;
	source->data = data;
	struct epoll_event ev = { .events = events, .data.ptr = source };
	if (epoll_ctl(loop->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot add fd %d to epoll", fd);
		free(source);
		errno = err;
		return NULL;
	}
	list_insert_tail(&loop->sources, &source->link);
	return source;
}

void event_source_remove(struct event_source *source)
{
	if (!source)
		return;
	struct event_loop *loop = source->loop;
	epoll_ctl(loop->epoll_fd, EPOLL_CTL_DEL, source->fd, NULL);
	list_remove(&source->link);
	if (loop->dispatch_depth > 0) {
		/* The epoll events being dispatched may still point at it: keep the
		 * memory until dispatch is done, and never call it again. */
		source->func = NULL;
		list_insert_tail(&loop->dead_sources, &source->link);
		return;
	}
	free(source);
}

static void free_dead_sources(struct event_loop *loop)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &loop->dead_sources) {
		list_remove(pos);
		free(container_of(pos, struct event_source, link));
	}
}

int event_init(struct dispman_device *dev)
{
	struct event_loop *loop = calloc(1, sizeof(*loop));
	if (!loop) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating the event loop");
		return -ENOMEM;
	}
	list_init(&loop->sources);
	list_init(&loop->dead_sources);
	loop->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (loop->epoll_fd < 0) {
		int err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "epoll_create1 failed");
		free(loop);
		return -err;
	}
	device_set_event_loop(dev, loop);
	return 0;
}

void event_finish(struct dispman_device *dev)
{
	struct event_loop *loop = device_event_loop(dev);
	if (!loop)
		return;
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &loop->sources)
		event_source_remove(container_of(pos, struct event_source, link));
	free_dead_sources(loop);
	close(loop->epoll_fd);
	free(loop);
	device_set_event_loop(dev, NULL);
}

int dispman_device_get_fd(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	return device_event_loop(dev)->epoll_fd;
}

int event_dispatch(struct dispman_device *dev, int timeout_ms)
{
	struct epoll_event evs[16];
	struct event_loop *loop = device_event_loop(dev);
	int n = epoll_wait(loop->epoll_fd, evs, (int)ARRAY_SIZE(evs), timeout_ms);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		int err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "epoll_wait failed");
		return -err;
	}
	int handled = 0, ret = 0;
	if (n > 0)
		loop->batch++;
	loop->dispatch_depth++;
	for (int i = 0; i < n && ret >= 0; i++) {
		struct event_source *source = evs[i].data.ptr;
		if (!source->func)
			continue; /* removed by an earlier callback of this dispatch */
		ret = source->func(source->fd, evs[i].events, source->data);
		if (ret > 0)
			handled += ret;
	}
	if (--loop->dispatch_depth == 0 && !list_empty(&loop->dead_sources))
		free_dead_sources(loop);
	return ret < 0 ? ret : handled;
}

unsigned event_batch(const struct dispman_device *dev)
{
	return device_event_loop(dev)->batch;
}

bool event_dispatching(const struct dispman_device *dev)
{
	return device_event_loop(dev)->dispatch_depth > 0;
}
