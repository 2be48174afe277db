/* SPDX-License-Identifier: MIT */
/*
 * Late repaints. The deadline of a dirty output is its next vblank
 * (dispman_output_get_next_vblank()) less the repaint window; one timerfd (absolute
 * CLOCK_MONOTONIC, nanoseconds: wl_event_loop timers count milliseconds) is armed at the
 * earliest deadline of the dirty outputs that can repaint, and its expiry runs the scene's
 * repaint (every dirty output that is free). The learned window ("auto") is the larger of
 * the library's commit cost on the output (dispman_output_get_commit_cost(): the commit
 * call's time, raised by frames that missed their vblank) and this module's own repaint
 * time (from the deadline to the repaint's end: the timer's wake-up, placing the surfaces
 * with their shm copies, and the commit; from its start for a repaint run at once), the
 * 90th percentile of the last 32 repaints, each at most a period, plus a margin of one
 * millisecond. Repaints run at once are measured too, so a window that grew past the
 * refresh (every repaint at once) shrinks again when repaints get faster. Until the library knows a cost the repaint runs at once. Outputs
 * whose flips do not wait for a vblank (virtio-gpu: dispman_output_stats.clock TIMESTAMP)
 * repaint at once: there is no vblank to aim at.
 */
#include "repaint.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

/* the compositor's own repaint time: the OWN_RANK-th largest of the last OWN_SAMPLES (p90) */
#define OWN_SAMPLES 32
#define OWN_RANK 4
#define MARGIN_NS 1000000
/* a deadline this close runs the repaint at once */
#define NOW_NS 300000

struct late_repaint {
	int32_t window_us;              /* 0: auto */
	int fd;                         /* timerfd, -1 until first needed */
	struct wl_event_source *source;
	int64_t deadline_ns;            /* armed at, 0: not armed */
	int64_t own[OWN_SAMPLES];       /* repaint times, ns, at most a period */
	unsigned own_pos, own_n;        /* next to write; how many are set */
	int64_t own_p90;                /* of own[], updated with each sample */
	void (*paint)(struct server *srv); /* scene.c's repaint of the dirty outputs */
};

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

/* One sample of the compositor's own repaint time (from its deadline or start to its end),
 * capped at a refresh period of the first output; the p90 of the ring updated. */
static void own_sample(struct server *srv, int64_t took)
{
	struct late_repaint *l = srv->late;
	int64_t period = srv->refresh_mhz ? (int64_t)(1000000000000ull / srv->refresh_mhz) :
		16666667;
	l->own[l->own_pos] = took < period ? took : period;
	l->own_pos = (l->own_pos + 1) % OWN_SAMPLES;
	if (l->own_n < OWN_SAMPLES)
		l->own_n++;
	int64_t v[OWN_SAMPLES];
	memcpy(v, l->own, sizeof(v));
	unsigned rank = l->own_n < OWN_RANK ? l->own_n : OWN_RANK;
	for (unsigned i = 0; i < rank; i++) {
		unsigned m = i;
		for (unsigned j = i + 1; j < l->own_n; j++)
			if (v[j] > v[m])
				m = j;
		int64_t t = v[i];
		v[i] = v[m];
		v[m] = t;
	}
	l->own_p90 = v[rank - 1];
}

/* The paint, timed from start (its deadline, or now); true when it committed anything */
static bool timed_repaint(struct server *srv, int64_t start)
{
	uint64_t before = srv->stats.repaints;
	srv->late->paint(srv);
	if (srv->stats.repaints == before)
		return false;
	if (srv->late)
		own_sample(srv, now_ns() - start);
	return true;
}

static int on_timer(int fd, uint32_t mask, void *data)
{
	struct server *srv = data;
	struct late_repaint *l = srv->late;
	uint64_t n;
	(void)mask;
	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		wlog(DISPMAN_LOG_WARNING, "late repaint timer read failed: %s", strerror(errno));
	int64_t deadline = l->deadline_ns;
	l->deadline_ns = 0;
	if (deadline && timed_repaint(srv, deadline))
		srv->stats.late_repaints++;
	return 0;
}

void late_repaint_run(struct server *srv)
{
	timed_repaint(srv, now_ns());
}

int late_repaint_set(struct server *srv, int32_t window_us,
	void (*paint)(struct server *srv))
{
	if (window_us > 1000000)
		return -ERANGE;
	if (window_us < 0) {
		late_repaint_finish(srv);
		return 0;
	}
	if (!srv->late) {
		struct late_repaint *l = calloc(1, sizeof(*l));
		if (!l)
			return -ENOMEM;
		l->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (l->fd < 0) {
			int ret = -errno;
			free(l);
			return ret;
		}
		l->source = wl_event_loop_add_fd(srv->loop, l->fd, WL_EVENT_READABLE, on_timer,
			srv);
		if (!l->source) {
			int ret = -errno;
			close(l->fd);
			free(l);
			return ret < 0 ? ret : -ENOMEM;
		}
		srv->late = l;
	}
	srv->late->window_us = window_us;
	srv->late->paint = paint;
	return 0;
}

void late_repaint_finish(struct server *srv)
{
	struct late_repaint *l = srv->late;
	if (!l)
		return;
	wl_event_source_remove(l->source);
	close(l->fd);
	free(l);
	srv->late = NULL;
}

/* The window of o's repaint in ns, or -1 when it is not known yet (repaint now). */
static int64_t window_ns(const struct late_repaint *l, struct output *o)
{
	if (l->window_us > 0)
		return (int64_t)l->window_us * 1000;
	uint64_t cost;
	if (dispman_output_get_commit_cost(o->out, &cost) < 0)
		return -1;
	int64_t w = (int64_t)cost > l->own_p90 ? (int64_t)cost : l->own_p90;
	return w + MARGIN_NS;
}

/* o's repaint deadline (ns, CLOCK_MONOTONIC), or -1: repaint now. */
static int64_t deadline_ns(const struct late_repaint *l, struct output *o)
{
	struct dispman_output_stats st = { .size = sizeof(st) };
	if (dispman_output_get_stats(o->out, &st) < 0 || st.clock != DISPMAN_PACING_SEQUENCE)
		return -1;
	struct timespec next;
	int64_t w = window_ns(l, o);
	if (w < 0 || dispman_output_get_next_vblank(o->out, &next) < 0)
		return -1;
	return ts_ns(&next) - w;
}

bool late_repaint_schedule(struct server *srv)
{
	struct late_repaint *l = srv->late;
	if (!l)
		return false;
	int64_t earliest = 0;
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link) {
		if (!o->dirty || o->flip_pending || o->blanked || o->disconnected)
			continue;
		int64_t d = deadline_ns(l, o);
		if (d < 0)
			return false;
		if (!earliest || d < earliest)
			earliest = d;
	}
	if (!earliest || earliest - now_ns() < NOW_NS)
		return false;
	if (l->deadline_ns && l->deadline_ns <= earliest)
		return true; /* armed for then already */
	struct itimerspec its = { .it_value = {
		.tv_sec = (time_t)(earliest / 1000000000),
		.tv_nsec = (long)(earliest % 1000000000),
	} };
	if (timerfd_settime(l->fd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
		wlog(DISPMAN_LOG_WARNING, "late repaint timer: %s: repainting now",
			strerror(errno));
		return false;
	}
	l->deadline_ns = earliest;
	return true;
}
