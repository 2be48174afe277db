/* SPDX-License-Identifier: MIT */
/*
 * Frame callbacks at the mode's pace on drivers whose flips do not wait for a vblank.
 *
 * virtio-gpu has no vblank counter (every flip event carries sequence 0) and completes a
 * flip as soon as the host took it: a commit that changes nothing on screen flips at once.
 * An application that commits from its frame callback (the usual loop, and the Wayland
 * compositor's repaint) would then run it thousands of times a second. On such an output
 * (the pacing clock is TIMESTAMP, output.c) the flips' timestamps are placed on the mode's
 * vblank grid from the run's first flip, and a frame callback runs at most once per grid
 * slot: one that falls in a slot that already had its callback runs at that next slot's
 * time, from a timer, with the latest flip's sequence and time. Buffer releases and shown
 * callbacks are never delayed. Drivers with a vblank counter are left alone.
 */
#include "output-private.h"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "clock.h"
#include "event.h"
#include "log.h"

static int handle_pace_timer(int fd, uint32_t events, void *data)
{
	struct dispman_output *out = data;
	uint64_t expirations;
	(void)events;
	if (read(fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		dispman_log_errno(DISPMAN_LOG_WARNING, errno, "%s: frame pace timer read failed",
			out->name);
	if (!out->cb_deferred)
		return 0;
	out->cb_deferred = false;
	out->cb_slot = out->cb_pending_slot;
	struct timespec ts = out->flip_ts;
	if (out->frame_cb)
		out->frame_cb(out, out->flip_seq, &ts, out->frame_data);
	return 1;
}

/* Arm the timer delay_ns from now (creating it on first use); false when it cannot. */
static bool arm_timer(struct dispman_output *out, int64_t delay_ns)
{
	if (out->pace_fd < 0) {
		out->pace_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (out->pace_fd < 0) {
			dispman_log_errno(DISPMAN_LOG_WARNING, errno, "%s: timerfd_create failed: "
				"frame callbacks follow the flips", out->name);
			return false;
		}
		out->pace_source = event_source_add(out->dev, out->pace_fd, EPOLLIN,
			handle_pace_timer, out);
		if (!out->pace_source) {
			close(out->pace_fd);
			out->pace_fd = -1;
			return false;
		}
	}
	struct itimerspec its = { .it_value = {
		.tv_sec = (time_t)(delay_ns / 1000000000),
		.tv_nsec = (long)(delay_ns % 1000000000),
	} };
	if (timerfd_settime(out->pace_fd, 0, &its, NULL) < 0) {
		dispman_log_errno(DISPMAN_LOG_WARNING, errno, "%s: timerfd_settime failed",
			out->name);
		return false;
	}
	return true;
}

static void disarm_timer(struct dispman_output *out)
{
	if (!out->cb_deferred)
		return; /* not armed, or fired and read: no syscall on every flip */
	out->cb_deferred = false;
	if (out->pace_fd >= 0) {
		struct itimerspec off = { 0 };
		timerfd_settime(out->pace_fd, 0, &off, NULL);
	}
}

bool output_pace_frame(struct dispman_output *out)
{
	int64_t period = (int64_t)output_period_ns(out);
	if (out->pacing.clock != DISPMAN_PACING_TIMESTAMP || period <= 0 || !out->pacing_run) {
		disarm_timer(out);
		return true;
	}
	int64_t slot = out->flip_slot > out->cb_slot + 1 ? out->flip_slot : out->cb_slot + 1;
	/* how long after this flip the slot's vblank is (the flip's own clock) */
	int64_t wait = out->pacing_t0_ns + slot * period - timespec_ns(&out->flip_ts);
	if (wait <= period / 4) {
		/* the flip is at (or past) the next slot's vblank: its callback runs now */
		disarm_timer(out);
		out->cb_slot = slot;
		return true;
	}
	if (out->cb_deferred && out->cb_pending_slot == slot)
		return false; /* already waiting for that slot: it will carry this flip */
	if (wait > 2 * period)
		wait = 2 * period; /* a timestamp jump: never hold a frame for long */
	if (!arm_timer(out, wait)) {
		out->cb_slot = slot;
		return true;
	}
	out->cb_deferred = true;
	out->cb_pending_slot = slot;
	return false;
}

void output_pace_finish(struct dispman_output *out)
{
	out->cb_deferred = false;
	event_source_remove(out->pace_source);
	out->pace_source = NULL;
	if (out->pace_fd >= 0)
		close(out->pace_fd);
	out->pace_fd = -1;
}
