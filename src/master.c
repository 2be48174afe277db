/* SPDX-License-Identifier: MIT */
/*
 * DRM master. A commit refused with EACCES/EPERM pauses the device; while paused a timer
 * (and every commit) retries drmSetMaster(), and the seat's enable event or
 * dispman_device_resume() gives it back. Regaining master re-reads what the planes show
 * (another master may have changed them) and makes the next commit a full modeset; the
 * restoring commit itself runs from device_run_queued() (commit.c), never from here: this
 * module only queues it, through the callback it was given (master_init()).
 */
#include "master.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "clock.h"
#include "device.h"
#include "event.h"
#include "log.h"
#include "plane.h"

/* DRM master's state of a device (dispman_device.master: master_init() to master_finish()). */
struct master_state {
	bool paused;               /* DRM master lost, commits return -EACCES */
	bool seat_disabled;        /* the seat is disabled: paused, master not retried */
	int timer_fd;              /* retries master every 500 ms while paused, or -1 */
	struct event_source *timer_source;
	int64_t try_ms;            /* CLOCK_MONOTONIC ms of the last drmSetMaster() while paused */
	master_queue_commit_fn queue_commit; /* queues the restoring commit (commit.c's) */
};

static void master_timer_set(struct dispman_device *dev, bool on);

int master_init(struct dispman_device *dev, master_queue_commit_fn queue_commit)
{
	struct master_state *m = calloc(1, sizeof(*m));
	if (!m) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating the DRM master state");
		return -ENOMEM;
	}
	m->timer_fd = -1;
	m->queue_commit = queue_commit;
	device_set_master_state(dev, m);
	return 0;
}

bool master_paused(const struct dispman_device *dev)
{
	return device_master_state(dev)->paused;
}

bool dispman_device_is_paused(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return false;
	return master_paused(dev);
}

bool master_timer_created(const struct dispman_device *dev)
{
	return device_master_state(dev)->timer_fd >= 0;
}

/* While paused: every 500 ms try to take DRM master back and restore the screen. */
static int handle_master_timer(int fd, uint32_t events, void *data)
{
	(void)events;
	struct dispman_device *dev = data;
	uint64_t expirations;
	if (read(fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		dispman_log_errno(DISPMAN_LOG_WARNING, errno, "master timer read failed");
	if (!device_master_state(dev)->paused) {
		master_timer_set(dev, false);
		return 0;
	}
	if (!device_try_regain_master(dev, true))
		return 0;
	/* the restoring commit (a full modeset) runs after this dispatch, from
	 * device_run_queued(), like every commit an event asks for */
	device_master_state(dev)->queue_commit(dev);
	return 1;
}

/* Arm (true) or disarm the timer that retries DRM master every 500 ms while paused. */
static void master_timer_set(struct dispman_device *dev, bool on)
{
	struct master_state *m = device_master_state(dev);
	if (m->timer_fd < 0) {
		if (!on)
			return;
		m->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (m->timer_fd < 0) {
			dispman_log_errno(DISPMAN_LOG_WARNING, errno, "timerfd_create failed: DRM "
				"master is retried on commits only");
			return;
		}
		m->timer_source = event_source_add(dev, m->timer_fd, EPOLLIN,
			handle_master_timer, dev);
		if (!m->timer_source) {
			close(m->timer_fd);
			m->timer_fd = -1;
			return;
		}
	}
	struct itimerspec its = { 0 };
	if (on) {
		its.it_value.tv_nsec = 500 * 1000000L;
		its.it_interval.tv_nsec = 500 * 1000000L;
	}
	if (timerfd_settime(m->timer_fd, 0, &its, NULL) < 0)
		dispman_log_errno(DISPMAN_LOG_WARNING, errno, "timerfd_settime failed");
}

void master_finish(struct dispman_device *dev)
{
	struct master_state *m = device_master_state(dev);
	if (!m)
		return;
	event_source_remove(m->timer_source);
	if (m->timer_fd >= 0)
		close(m->timer_fd);
	free(m);
	device_set_master_state(dev, NULL);
}

/* Another master may have changed the planes: learn what they show now, so that the
 * restoring commit turns off every plane of ours it does not use. Its caller forces a
 * modeset (device_force_modeset()): until a commit is accepted, every commit is a search,
 * which visits every plane, and its record learns anew which planes are in use
 * (proposal_record()). */
static void refresh_plane_state(struct dispman_device *dev)
{
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		struct plane *p = device_plane(dev, i);
		drmModePlane *kp = drmModeGetPlane(device_fd(dev), plane_id(p));
		if (!kp) {
			/* unknown: make the next commit set it explicitly */
			plane_set_kernel_state(p, UINT32_MAX, UINT32_MAX);
			continue;
		}
		plane_set_kernel_state(p, kp->fb_id, kp->crtc_id);
		drmModeFreePlane(kp);
	}
}

bool device_try_regain_master(struct dispman_device *dev, bool force)
{
	struct master_state *m = device_master_state(dev);
	if (!m->paused)
		return true;
	if (m->seat_disabled)
		return false; /* the seat gives master back when it enables us */
	int64_t now = monotonic_ms();
	if (!force && now - m->try_ms < 500)
		return false;
	m->try_ms = now;
	if (drmSetMaster(device_fd(dev)) != 0) {
		dispman_log_errno(DISPMAN_LOG_DEBUG, errno, "DRM master still unavailable");
		return false;
	}
	dispman_log(DISPMAN_LOG_INFO, "DRM master regained: restoring the state with one "
		"modeset commit");
	m->paused = false;
	device_force_modeset(dev);
	master_timer_set(dev, false);
	refresh_plane_state(dev);
	return true;
}

int dispman_device_resume(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	struct master_state *m = device_master_state(dev);
	if (m->paused && !device_try_regain_master(dev, true)) {
		/* Whoever manages the VT may have given us master in a way our fd cannot
		 * check (drmSetMaster refused): believe the caller, the commit will tell. */
		dispman_log(DISPMAN_LOG_INFO, "resuming commits, next commit is a full modeset");
		m->paused = false;
		master_timer_set(dev, false);
		refresh_plane_state(dev);
	}
	device_force_modeset(dev);
	return 0;
}

void master_seat_changed(struct dispman_device *dev, bool enabled)
{
	struct master_state *m = device_master_state(dev);
	m->seat_disabled = !enabled;
	if (!enabled) {
		m->paused = true;
		master_timer_set(dev, false);
		device_notify_seat(dev, false);
		return;
	}
	device_notify_seat(dev, true);
	/* seatd made our fd DRM master again; the commit restores every output. */
	dispman_device_resume(dev);
	/* the restoring commit runs once this dispatch is over (device_run_queued()) */
	device_master_state(dev)->queue_commit(dev);
}

bool device_check_master_lost(struct dispman_device *dev, int err)
{
	if (err != EACCES && err != EPERM)
		return false;
	struct master_state *m = device_master_state(dev);
	if (!m->paused && device_seat(dev)) {
		/* The seat manager took master away (a VT switch, say) before its disable event
		 * reached us: expected, and the seat's enable event brings it back. */
		dispman_log(DISPMAN_LOG_INFO, "DRM master taken away through the seat (%s): "
			"commits are paused until the seat is enabled again", strerror(err));
	} else if (!m->paused) {
		dispman_log(DISPMAN_LOG_ERROR, "DRM master lost (%s): commits are paused until "
			"master comes back", strerror(err));
		m->try_ms = monotonic_ms();
		master_timer_set(dev, true);
	}
	m->paused = true;
	return true;
}
