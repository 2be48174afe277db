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
 *
 * What a compositor needs to commit late (just before the vblank a frame aims at, so that
 * content ready in the meantime still makes that vblank) is here too: the next vblank,
 * predicted on the grid of the last flip's timestamp and the mode's period
 * (dispman_output_get_next_vblank()), and a commit cost learned from the frames
 * (dispman_output_get_commit_cost()). Each frame gives one sample: the time its commit
 * call took to the atomic ioctl's return (plane assignment, TEST_ONLY, CPU composition,
 * the ioctl) when its flip came at the vblank it aimed at (the first predicted vblank after
 * the call started); when it came a vblank later, the call had less time than the kernel
 * needed, and the sample is that slack (aimed vblank - call start) plus a tenth of a
 * period (a modeset gives none). The cost is the 90th percentile of the last 32 samples
 * (the 4th largest; of fewer, the smallest of the 4 largest), each capped at one period: a
 * one-time stall (a client's first buffer, allocated in its commit) does not move it, a
 * device that got slower or misses more than one frame in ten raises it within a few
 * frames. The cost is learned only on an output whose cost was asked for: the first
 * dispman_output_get_commit_cost() call starts it, so that commits of a program that never
 * asks read the clock once (the frame's commit time, for pacing), not twice.
 */
#include "output-private.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "clock.h"
#include "device.h"
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

/* The commit cost is the COST_RANK-th largest of the last COST_SAMPLES samples: their
 * 90th percentile once the ring is full. */
#define COST_SAMPLES 32
#define COST_RANK 4

/*
 * The first vblank after t (ns, CLOCK_MONOTONIC) on the grid of the last flip: false when
 * there is none to go by (off, no flip since the last modeset, no period).
 */
static bool predict_vblank(const struct dispman_output *out, int64_t t, int64_t *vblank)
{
	int64_t period = (int64_t)output_period_ns(out);
	if (!out->active || !out->pacing_run || period <= 0)
		return false;
	int64_t base = timespec_ns(&out->pacing.last_time);
	int64_t d = t - base;
	int64_t k = d < 0 ? 0 : d / period + 1;
	*vblank = base + k * period;
	return true;
}

void output_pace_committed(struct dispman_output *out, bool modeset, int64_t begin)
{
	if (!out->cost_learning)
		return; /* nobody asked: no clock read */
	out->aim_ns = 0;
	if (modeset || begin <= 0) {
		out->commit_begin_ns = 0; /* a modeset's time says nothing of a frame's */
		return;
	}
	int64_t end = clock_ns(); /* the ioctl returned (apply_success() follows it) */
	out->commit_begin_ns = begin;
	out->commit_cpu_ns = end >= begin ? end - begin : 0;
	int64_t vblank;
	if (predict_vblank(out, begin, &vblank)) {
		out->aim_ns = vblank;
		out->aim_slack_ns = vblank - begin;
	}
}

void output_pace_flipped(struct dispman_output *out)
{
	int64_t period = (int64_t)output_period_ns(out);
	if (out->commit_begin_ns <= 0 || period <= 0)
		return;
	int64_t sample = out->commit_cpu_ns;
	if (out->aim_ns) {
		/* later than half a period past the aim, and not so late that the grid was
		 * wrong (a clock jump, a device whose timestamps are not ours) */
		int64_t late = timespec_ns(&out->flip_ts) - out->aim_ns;
		if (late > period / 2 && late < 4 * period) {
			int64_t needed = out->aim_slack_ns + period / 10;
			sample = needed > sample ? needed : sample;
			dispman_log(DISPMAN_LOG_DEBUG, "%s: frame committed %.2f ms before the vblank "
				"it aimed at came %.2f ms later", out->name,
				(double)out->aim_slack_ns / 1e6, (double)late / 1e6);
		}
	}
	out->commit_begin_ns = 0;
	out->aim_ns = 0;
	if (sample > period)
		sample = period;
	out->cost_ring[out->cost_pos] = sample;
	out->cost_pos = (out->cost_pos + 1) % COST_SAMPLES;
	if (out->cost_n < COST_SAMPLES)
		out->cost_n++;
}

int dispman_output_get_next_vblank(struct dispman_output *out, struct timespec *when)
{
	if (refuse_null(out, "out") || refuse_null(when, "when"))
		return -EINVAL;
	int64_t vblank;
	if (!predict_vblank(out, clock_ns(), &vblank))
		return -ENODATA;
	when->tv_sec = (time_t)(vblank / 1000000000);
	when->tv_nsec = (long)(vblank % 1000000000);
	return 0;
}

int dispman_output_get_commit_cost(struct dispman_output *out, uint64_t *cost_ns)
{
	if (refuse_null(out, "out") || refuse_null(cost_ns, "cost_ns"))
		return -EINVAL;
	if (!out->cost_learning) {
		/* learned from here on: the frames before paid no clock reads for it */
		out->cost_learning = true;
		dispman_log(DISPMAN_LOG_DEBUG, "%s: learning the commit cost from the next frames",
			out->name);
	}
	unsigned n = out->cost_n;
	if (!n)
		return -ENODATA;
	/* the rank-th largest (or the smallest of fewer): a partial selection sort */
	int64_t v[COST_SAMPLES];
	memcpy(v, out->cost_ring, sizeof(v));
	unsigned rank = n < COST_RANK ? n : COST_RANK;
	for (unsigned i = 0; i < rank; i++) {
		unsigned m = i;
		for (unsigned j = i + 1; j < n; j++)
			if (v[j] > v[m])
				m = j;
		int64_t t = v[i];
		v[i] = v[m];
		v[m] = t;
	}
	*cost_ns = (uint64_t)v[rank - 1];
	return 0;
}
