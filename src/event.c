/* SPDX-License-Identifier: MIT */
/*
 * One epoll fd per device. Other parts (DRM now; udev, V4L2, libinput later) register
 * fds with a callback through event_source_add(); dispatch calls them.
 */
#include "private.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

struct event_source *event_source_add(struct dispman_device *dev, int fd, uint32_t events,
	event_source_func func, void *data)
{
	struct event_source *source = calloc(1, sizeof(*source));
	if (!source) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory adding an event source");
		errno = ENOMEM;
		return NULL;
	}
	source->dev = dev;
	source->fd = fd;
	source->events = events;
	source->func = func;
	source->data = data;
	struct epoll_event ev = { .events = events, .data.ptr = source };
	if (epoll_ctl(dev->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot add fd %d to epoll", fd);
		free(source);
		errno = err;
		return NULL;
	}
	list_insert_tail(&dev->event_sources, &source->link);
	return source;
}

void event_source_remove(struct event_source *source)
{
	if (!source)
		return;
	struct dispman_device *dev = source->dev;
	epoll_ctl(dev->epoll_fd, EPOLL_CTL_DEL, source->fd, NULL);
	list_remove(&source->link);
	if (dev->dispatch_depth > 0) {
		/* The epoll events being dispatched may still point at it: keep the
		 * memory until dispatch is done, and never call it again. */
		source->func = NULL;
		list_insert_tail(&dev->dead_sources, &source->link);
		return;
	}
	free(source);
}

static void free_dead_sources(struct dispman_device *dev)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &dev->dead_sources) {
		list_remove(pos);
		free(container_of(pos, struct event_source, link));
	}
}

/* Only records: the flip is handled after drmHandleEvent() returns (handle_drm()). */
static void page_flip_handler(int fd, unsigned int sequence, unsigned int tv_sec,
	unsigned int tv_usec, unsigned int crtc_id, void *user_data)
{
	(void)fd;
	struct dispman_device *dev = user_data;
	dev->events_handled++;
	dev->stats.flips++;
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		if (out->flip_pending && !out->flip_done && out->flip_crtc_id == crtc_id) {
			out->flip_done = true;
			out->flip_seq = sequence;
			out->flip_ts = (struct timespec){ .tv_sec = (time_t)tv_sec,
				.tv_nsec = (long)tv_usec * 1000 };
			break;
		}
	}
}

/*
 * The flips read by one drmHandleEvent(): first every flipped frame goes on screen, then
 * the callbacks run (they may commit: an output whose flip completed commits at once), then
 * the commits queued for outputs whose flips are now done.
 */
static void handle_flips(struct dispman_device *dev)
{
	for (size_t i = 0; i < dev->n_outputs; i++)
		if (dev->outputs[i]->flip_done)
			output_flip_complete(dev->outputs[i]);
	for (size_t i = 0; i < dev->n_outputs; i++)
		if (dev->outputs[i]->flip_notify)
			output_flip_notify(dev->outputs[i]);
	device_run_queued(dev);
}

static int handle_drm(int fd, uint32_t events, void *data)
{
	struct dispman_device *dev = data;
	if (events & (EPOLLERR | EPOLLHUP)) {
		dispman_log(DISPMAN_LOG_ERROR, "DRM fd hung up or failed");
		return -EIO;
	}
	drmEventContext ctx = {
		.version = 3,
		.page_flip_handler2 = page_flip_handler,
	};
	int before = dev->events_handled;
	if (drmHandleEvent(fd, &ctx) != 0) {
		int err = errno ? errno : EIO;
		handle_flips(dev); /* those read before the failure */
		if (err == EAGAIN || err == EINTR)
			return 0;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "drmHandleEvent failed");
		return -err;
	}
	handle_flips(dev);
	return dev->events_handled - before;
}

int event_init(struct dispman_device *dev)
{
	dev->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (dev->epoll_fd < 0) {
		int err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "epoll_create1 failed");
		return -err;
	}
	dev->drm_source = event_source_add(dev, dev->fd, EPOLLIN, handle_drm, dev);
	if (!dev->drm_source)
		return -errno;
	return 0;
}

/* While paused: every 500 ms try to take DRM master back and restore the screen. */
static int handle_master_timer(int fd, uint32_t events, void *data)
{
	struct dispman_device *dev = data;
	uint64_t expirations;
	if (read(fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		dispman_log_errno(DISPMAN_LOG_WARNING, errno, "master timer read failed");
	if (!dev->paused) {
		master_timer_set(dev, false);
		return 0;
	}
	if (!device_try_regain_master(dev, true))
		return 0;
	/* the restoring commit (a full modeset) runs after this dispatch, from
	 * device_run_queued(), like every commit an event asks for */
	dev->commit_queued = true;
	return 1;
}

void master_timer_set(struct dispman_device *dev, bool on)
{
	if (dev->master_timer_fd < 0) {
		if (!on)
			return;
		dev->master_timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (dev->master_timer_fd < 0) {
			dispman_log_errno(DISPMAN_LOG_WARNING, errno, "timerfd_create failed: DRM "
				"master is retried on commits only");
			return;
		}
		dev->master_timer_source = event_source_add(dev, dev->master_timer_fd, EPOLLIN,
			handle_master_timer, dev);
		if (!dev->master_timer_source) {
			close(dev->master_timer_fd);
			dev->master_timer_fd = -1;
			return;
		}
	}
	struct itimerspec its = { 0 };
	if (on) {
		its.it_value.tv_nsec = 500 * 1000000L;
		its.it_interval.tv_nsec = 500 * 1000000L;
	}
	if (timerfd_settime(dev->master_timer_fd, 0, &its, NULL) < 0)
		dispman_log_errno(DISPMAN_LOG_WARNING, errno, "timerfd_settime failed");
}

void event_finish(struct dispman_device *dev)
{
	struct list *pos, *tmp;
	if (dev->event_sources.next) {
		list_for_each_safe(pos, tmp, &dev->event_sources)
			event_source_remove(container_of(pos, struct event_source, link));
	}
	if (dev->dead_sources.next)
		free_dead_sources(dev);
	dev->drm_source = NULL;
	dev->master_timer_source = NULL;
	if (dev->master_timer_fd >= 0)
		close(dev->master_timer_fd);
	dev->master_timer_fd = -1;
	if (dev->epoll_fd >= 0)
		close(dev->epoll_fd);
	dev->epoll_fd = -1;
}

int dispman_device_dispatch(struct dispman_device *dev, int timeout_ms)
{
	struct epoll_event evs[16];
	int n = epoll_wait(dev->epoll_fd, evs, (int)ARRAY_SIZE(evs), timeout_ms);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		int err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "epoll_wait failed");
		return -err;
	}
	int handled = 0, ret = 0;
	dev->dispatch_depth++;
	for (int i = 0; i < n && ret >= 0; i++) {
		struct event_source *source = evs[i].data.ptr;
		if (!source->func)
			continue; /* removed by an earlier callback of this dispatch */
		ret = source->func(source->fd, evs[i].events, source->data);
		if (ret > 0)
			handled += ret;
	}
	if (--dev->dispatch_depth == 0) {
		free_dead_sources(dev);
		/* the commits the handlers asked for (master or the seat back, a hotplug) */
		device_run_queued(dev);
	}
	return ret < 0 ? ret : handled;
}

int drm_dispatch(struct dispman_device *dev, int timeout_ms)
{
	struct pollfd pfd = { .fd = dev->fd, .events = POLLIN };
	int n = poll(&pfd, 1, timeout_ms);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		int err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "poll on the DRM fd failed");
		return -err;
	}
	if (n == 0)
		return 0;
	uint32_t events = 0;
	if (pfd.revents & POLLIN)
		events |= EPOLLIN;
	if (pfd.revents & (POLLERR | POLLHUP))
		events |= EPOLLERR;
	return handle_drm(dev->fd, events, dev);
}

int output_wait_flip(struct dispman_output *out, int timeout_ms)
{
	struct dispman_device *dev = out->dev;
	int64_t end = monotonic_ms() + timeout_ms;
	while (out->flip_pending) {
		int64_t left = end - monotonic_ms();
		if (left <= 0) {
			dispman_log(DISPMAN_LOG_ERROR, "%s: no page-flip event for CRTC %u within "
				"%d ms: the frame in flight did not reach the screen", out->name,
				out->flip_crtc_id, timeout_ms);
			return -ETIMEDOUT;
		}
		int ret = drm_dispatch(dev, (int)left);
		if (ret < 0)
			return ret;
	}
	return 0;
}
