/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD=latency-probe.so LATENCY_OUT=FILE program ...
 *
 * Measures, from outside the program and the same way for every contender, how long each
 * camera frame takes from its capture to the page flip that shows it. It watches the
 * process's ioctl() and read() calls:
 *   - VIDIOC_DQBUF (success): the frame's capture timestamp (the buffer's, which must be
 *     CLOCK_MONOTONIC: V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) and the time it was dequeued;
 *   - a commit that asks for a flip event (DRM_IOCTL_MODE_ATOMIC with
 *     DRM_MODE_PAGE_FLIP_EVENT and not TEST_ONLY, DRM_IOCTL_MODE_PAGE_FLIP with the event
 *     flag): queued, with the frame dequeued last before it (none when no frame was
 *     dequeued since the previous commit: that commit showed no new frame);
 *   - the flip-complete events read() from a DRM fd: each completes the oldest queued
 *     commit (one CRTC), and gives the flip's timestamp; the time read() returned is the
 *     event's arrival;
 *   - DRM_IOCTL_MODE_SETPLANE (GStreamer's kmssink): a blocking commit with no event; when
 *     it returns, the flip has happened; its timestamp is then the CRTC's last vblank
 *     (DRM_IOCTL_WAIT_VBLANK, relative 0, no event: one extra ioctl, made by the probe)
 *     and its arrival the time the ioctl returned.
 * A commit shows the frame dequeued last before it: true of every contender here (the floor
 * dequeues one frame and commits it; libdispman and kmssink show the newest frame).
 *
 * At exit it writes one line per shown frame to FILE:
 *   "frame CAPTURE_NS DEQUEUE_NS COMMIT_NS FLIP_NS ARRIVAL_NS"
 * (CLOCK_MONOTONIC nanoseconds) and a last line
 *   "end frames=N flips_without_frame=N stale_ts=N not_monotonic=N"
 * stale_ts counts frames whose capture timestamp was later than their commit (not a
 * plausible capture time: such a frame is written with CAPTURE_NS = COMMIT_NS).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>
#include <drm.h>
#include <drm_mode.h>

#define MAX_FRAMES 8192
#define MAX_PENDING 64
#define MAX_FD 4096

struct rec {
	uint64_t capture, dequeue, commit, flip, arrival;
};

struct pending {
	int has_frame;
	uint64_t capture, dequeue, commit;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct rec recs[MAX_FRAMES];
static unsigned n_recs;
static struct pending queue[MAX_PENDING];
static unsigned q_head, q_len;
static int have_frame;          /* a frame was dequeued since the last commit */
static uint64_t last_capture, last_dequeue;
static unsigned long no_frame, stale, not_mono, lost;
static unsigned char drm_fd[MAX_FD];

typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef ssize_t (*read_fn)(int, void *, size_t);
static ioctl_fn real_ioctl;
static read_fn real_read;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void record(const struct pending *p, uint64_t flip, uint64_t arrival)
{
	if (!p->has_frame) {
		no_frame++;
		return;
	}
	if (n_recs == MAX_FRAMES) {
		lost++;
		return;
	}
	struct rec *r = &recs[n_recs++];
	r->capture = p->capture;
	r->dequeue = p->dequeue;
	r->commit = p->commit;
	r->flip = flip;
	r->arrival = arrival;
	if (r->capture > r->commit) {
		stale++;
		r->capture = r->commit;
	}
}

static struct pending take_frame(uint64_t commit)
{
	struct pending p = { .has_frame = have_frame, .capture = last_capture,
		.dequeue = last_dequeue, .commit = commit };
	have_frame = 0;
	return p;
}

static void push(const struct pending *p)
{
	if (q_len == MAX_PENDING) { /* events never came: drop the oldest */
		q_head = (q_head + 1) % MAX_PENDING;
		q_len--;
		lost++;
	}
	queue[(q_head + q_len++) % MAX_PENDING] = *p;
}

int ioctl(int fd, unsigned long request, ...);

int ioctl(int fd, unsigned long request, ...)
{
	if (!real_ioctl)
		real_ioctl = (ioctl_fn)(uintptr_t)dlsym(RTLD_NEXT, "ioctl");
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	uint64_t t0 = now_ns();
	int r = real_ioctl(fd, request, arg);
	int err = errno;
	if (r < 0)
		goto out;
	if (_IOC_TYPE(request) == DRM_IOCTL_BASE && fd >= 0 && fd < MAX_FD)
		drm_fd[fd] = 1;
	if (request == VIDIOC_DQBUF) {
		const struct v4l2_buffer *b = arg;
		uint64_t t = now_ns();
		pthread_mutex_lock(&lock);
		if ((b->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) != V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
			not_mono++;
		last_capture = (uint64_t)b->timestamp.tv_sec * 1000000000ull +
			(uint64_t)b->timestamp.tv_usec * 1000ull;
		last_dequeue = t;
		have_frame = 1;
		pthread_mutex_unlock(&lock);
	} else if (request == DRM_IOCTL_MODE_ATOMIC) {
		const struct drm_mode_atomic *a = arg;
		if ((a->flags & DRM_MODE_PAGE_FLIP_EVENT) &&
		    !(a->flags & DRM_MODE_ATOMIC_TEST_ONLY)) {
			pthread_mutex_lock(&lock);
			struct pending p = take_frame(t0);
			push(&p);
			pthread_mutex_unlock(&lock);
		}
	} else if (request == DRM_IOCTL_MODE_PAGE_FLIP) {
		const struct drm_mode_crtc_page_flip *f = arg;
		if (f->flags & DRM_MODE_PAGE_FLIP_EVENT) {
			pthread_mutex_lock(&lock);
			struct pending p = take_frame(t0);
			push(&p);
			pthread_mutex_unlock(&lock);
		}
	} else if (request == DRM_IOCTL_MODE_SETPLANE) {
		uint64_t arrival = now_ns();
		union drm_wait_vblank v = { .request = { .type = _DRM_VBLANK_RELATIVE,
			.sequence = 0 } };
		uint64_t flip = arrival;
		if (real_ioctl(fd, DRM_IOCTL_WAIT_VBLANK, &v) == 0)
			flip = (uint64_t)v.reply.tval_sec * 1000000000ull +
				(uint64_t)v.reply.tval_usec * 1000ull;
		pthread_mutex_lock(&lock);
		struct pending p = take_frame(t0);
		record(&p, flip, arrival);
		pthread_mutex_unlock(&lock);
	}
out:
	errno = err;
	return r;
}

ssize_t read(int fd, void *buf, size_t len);

ssize_t read(int fd, void *buf, size_t len)
{
	if (!real_read)
		real_read = (read_fn)(uintptr_t)dlsym(RTLD_NEXT, "read");
	ssize_t n = real_read(fd, buf, len);
	if (n <= 0 || fd < 0 || fd >= MAX_FD || !drm_fd[fd])
		return n;
	int err = errno;
	uint64_t arrival = now_ns();
	const char *p = buf;
	size_t off = 0;
	pthread_mutex_lock(&lock);
	while (off + sizeof(struct drm_event) <= (size_t)n) {
		struct drm_event e;
		memcpy(&e, p + off, sizeof(e));
		if (e.length < sizeof(e) || off + e.length > (size_t)n)
			break;
		if (e.type == DRM_EVENT_FLIP_COMPLETE && e.length >= sizeof(struct drm_event_vblank)) {
			struct drm_event_vblank v;
			memcpy(&v, p + off, sizeof(v));
			uint64_t flip = (uint64_t)v.tv_sec * 1000000000ull +
				(uint64_t)v.tv_usec * 1000ull;
			if (q_len) {
				struct pending q = queue[q_head];
				q_head = (q_head + 1) % MAX_PENDING;
				q_len--;
				record(&q, flip, arrival);
			}
		}
		off += e.length;
	}
	pthread_mutex_unlock(&lock);
	errno = err;
	return n;
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("LATENCY_OUT");
	if (!path)
		return;
	FILE *f = fopen(path, "a");
	if (!f)
		return;
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < n_recs; i++)
		fprintf(f, "frame %llu %llu %llu %llu %llu\n",
			(unsigned long long)recs[i].capture, (unsigned long long)recs[i].dequeue,
			(unsigned long long)recs[i].commit, (unsigned long long)recs[i].flip,
			(unsigned long long)recs[i].arrival);
	fprintf(f, "end frames=%u flips_without_frame=%lu stale_ts=%lu not_monotonic=%lu "
		"lost=%lu\n", n_recs, no_frame, stale, not_mono, lost);
	pthread_mutex_unlock(&lock);
	fclose(f);
}
