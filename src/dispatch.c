/* SPDX-License-Identifier: MIT */
/*
 * DRM events and dispman_device_dispatch(). The flip handler only records which output's
 * flip came; once drmHandleEvent() returned, the flipped frames go on screen (output.c),
 * their callbacks run, and then the queued commits (device_run_queued(), commit.c).
 */
#include "dispatch.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>

#include <xf86drm.h>

#include <dispman/dispman.h>

#include "clock.h"
#include "commit.h"
#include "device.h"
#include "event.h"
#include "log.h"
#include "output.h"

/* What dispatch.c keeps per device (dispman_device.dispatch: dispatch_init() to
 * dispatch_finish()). */
struct dispatch_state {
	struct event_source *drm_source; /* the DRM fd in the device's event loop */
	int events_handled;              /* flip events counted during drmHandleEvent() */
	unsigned drm_read_batch;         /* event_batch() when the DRM fd was last read */
};

/* Only records: the flip is handled after drmHandleEvent() returns (handle_drm()). */
static void page_flip_handler(int fd, unsigned int sequence, unsigned int tv_sec,
	unsigned int tv_usec, unsigned int crtc_id, void *user_data)
{
	(void)fd;
	struct dispman_device *dev = user_data;
	device_dispatch_state(dev)->events_handled++;
	device_stats(dev)->flips++;
	struct timespec ts = { .tv_sec = (time_t)tv_sec, .tv_nsec = (long)tv_usec * 1000 };
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		if (output_flip_event(device_output(dev, i), crtc_id, sequence, &ts))
			break;
}

/*
 * The flips read by one drmHandleEvent(): first every flipped frame goes on screen, then
 * the shown and frame callbacks run. The commits they ask for are queued, not made inside
 * them; they run from device_run_queued() with the commits that waited for these flips,
 * before the buffers that left the screen are released (a buffer a callback put back on a
 * layer stays unreleased), and once more after the release callbacks for theirs.
 */
static void handle_flips(struct dispman_device *dev)
{
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		if (output_flip_is_done(device_output(dev, i)))
			output_flip_complete(device_output(dev, i));
	commit_defer(dev, true);
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		if (output_flip_notify_due(device_output(dev, i)))
			output_flip_notify(device_output(dev, i));
	device_run_queued(dev);
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		output_flip_release(device_output(dev, i));
	commit_defer(dev, false);
	device_run_queued(dev);
}

/* Read and handle the DRM events (the fd is readable). */
static int read_drm(struct dispman_device *dev, uint32_t events)
{
	if (events & (EPOLLERR | EPOLLHUP)) {
		dispman_log(DISPMAN_LOG_ERROR, "DRM fd hung up or failed");
		return -EIO;
	}
	drmEventContext ctx = {
		.version = 3,
		.page_flip_handler2 = page_flip_handler,
	};
	struct dispatch_state *d = device_dispatch_state(dev);
	int before = d->events_handled;
	d->drm_read_batch = event_batch(dev);
	if (drmHandleEvent(device_fd(dev), &ctx) != 0) {
		int err = errno ? errno : EIO;
		handle_flips(dev); /* those read before the failure */
		if (err == EAGAIN || err == EINTR)
			return 0;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "drmHandleEvent failed");
		return -err;
	}
	handle_flips(dev);
	return d->events_handled - before;
}

/*
 * The event loop's handler: the DRM fd was readable when epoll_wait() returned. A handler
 * earlier in the same batch may have read those events since (a wait for flips inside it:
 * dispman_camera_destroy() from an input callback, output_wait_flip()); drmHandleEvent()
 * would then block in read() on the fd (blocking unless its owner made it not) until the
 * next event, which may never come. So after such a read, look again without waiting.
 */
static int handle_drm(int fd, uint32_t events, void *data)
{
	struct dispman_device *dev = data;
	if (device_dispatch_state(dev)->drm_read_batch == event_batch(dev)) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		if (poll(&pfd, 1, 0) <= 0)
			return 0;
		events = 0;
		if (pfd.revents & (POLLERR | POLLHUP))
			events |= EPOLLERR;
	}
	return read_drm(dev, events);
}

int dispatch_init(struct dispman_device *dev)
{
	struct dispatch_state *d = calloc(1, sizeof(*d));
	if (!d) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating the dispatch state");
		return -ENOMEM;
	}
	device_set_dispatch_state(dev, d);
	d->drm_source = event_source_add(dev, device_fd(dev), EPOLLIN, handle_drm, dev);
	return d->drm_source ? 0 : -errno;
}

void dispatch_finish(struct dispman_device *dev)
{
	struct dispatch_state *d = device_dispatch_state(dev);
	if (!d)
		return;
	event_source_remove(d->drm_source);
	free(d);
	device_set_dispatch_state(dev, NULL);
}

int dispman_device_dispatch(struct dispman_device *dev, int timeout_ms)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	/* The handlers' commits (master or the seat back, a hotplug, a camera frame, the
	 * application's from its callbacks) are queued, and made when they are all done. */
	commit_defer(dev, true);
	int ret = event_dispatch(dev, timeout_ms);
	commit_defer(dev, false);
	if (!event_dispatching(dev))
		device_run_queued(dev);
	return ret;
}

int drm_dispatch(struct dispman_device *dev, int timeout_ms)
{
	struct pollfd pfd = { .fd = device_fd(dev), .events = POLLIN };
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
	return read_drm(dev, events);
}

int output_wait_flip(struct dispman_output *out, int timeout_ms)
{
	struct dispman_device *dev = output_device(out);
	int64_t end = monotonic_ms() + timeout_ms;
	while (output_flip_pending(out)) {
		int64_t left = end - monotonic_ms();
		if (left <= 0) {
			dispman_log(DISPMAN_LOG_ERROR, "%s: no page-flip event for CRTC %u within "
				"%d ms: the frame in flight did not reach the screen",
				output_name(out), output_flip_crtc_id(out), timeout_ms);
			return -ETIMEDOUT;
		}
		int ret = drm_dispatch(dev, (int)left);
		if (ret < 0)
			return ret;
	}
	return 0;
}
