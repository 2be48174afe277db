/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD=ioctl-count.so BENCH_COUNT_OUT=FILE program ...
 *
 * Counts the ioctl() calls of a process (all threads), the VIDIOC_DQBUF among them and
 * those answered EAGAIN (nothing ready), its clock_gettime() calls and its waits (poll,
 * epoll_wait), and appends "ioctls=N dqbuf=N dqbuf_eagain=N clock_reads=N waits=N
 * win_frames=N win_cpu_ns=N" to FILE when the process exits.
 *
 * The window: the process's CPU time (all threads) is read at its BENCH_WARM_FRAMES-th
 * successful DQBUF (default 5) and at every later one; win_cpu_ns is the CPU spent between
 * the first and the last of them, win_frames the frames dequeued in between. Each
 * interval between two dequeued frames holds one frame's work (wait, dequeue, commit,
 * flip, queue back) for every contender, so win_cpu_ns / win_frames is the steady-state
 * cost of a frame, with start-up and tear-down left out. The CPU clock is read with the
 * raw syscall, so these reads are not counted as the process's own clock reads.
 * The camera bench preloads it into every contender (the floor, libdispman, gst-launch),
 * so the counts are made the same way for all of them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <sys/epoll.h>

static atomic_ulong n_ioctl, n_dqbuf, n_dqbuf_eagain, n_clock, n_wait;
static atomic_ulong n_frames;               /* successful DQBUFs */
static atomic_ulong win_frames;             /* frames after the window opened */
static atomic_ullong win_start_ns, win_end_ns;
static unsigned long warm_frames = 5;

static unsigned long long process_cpu_ns(void)
{
	struct timespec ts;
	if (syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void count_frame(void)
{
	unsigned long n = atomic_fetch_add(&n_frames, 1) + 1;
	if (n < warm_frames)
		return;
	unsigned long long now = process_cpu_ns();
	if (n == warm_frames)
		atomic_store(&win_start_ns, now);
	else
		atomic_fetch_add(&win_frames, 1);
	atomic_store(&win_end_ns, now);
}

__attribute__((constructor)) static void setup(void)
{
	const char *w = getenv("BENCH_WARM_FRAMES");
	if (w && atol(w) > 0)
		warm_frames = (unsigned long)atol(w);
}

typedef int (*ioctl_fn)(int, unsigned long, ...);
int ioctl(int fd, unsigned long request, ...);
typedef int (*clock_fn)(clockid_t, struct timespec *);

int ioctl(int fd, unsigned long request, ...)
{
	static ioctl_fn real;
	if (!real)
		real = (ioctl_fn)(uintptr_t)dlsym(RTLD_NEXT, "ioctl");
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	atomic_fetch_add(&n_ioctl, 1);
	int r = real(fd, request, arg);
	if (request == VIDIOC_DQBUF) {
		int err = errno;
		atomic_fetch_add(&n_dqbuf, 1);
		if (r < 0 && err == EAGAIN)
			atomic_fetch_add(&n_dqbuf_eagain, 1);
		else if (r == 0)
			count_frame();
		errno = err;
	}
	return r;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	static clock_fn real;
	if (!real)
		real = (clock_fn)(uintptr_t)dlsym(RTLD_NEXT, "clock_gettime");
	atomic_fetch_add(&n_clock, 1);
	return real(clk, ts);
}

typedef int (*epoll_wait_fn)(int, struct epoll_event *, int, int);
typedef int (*poll_fn)(struct pollfd *, nfds_t, int);
int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout);
int poll(struct pollfd *fds, nfds_t n, int timeout);

int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout)
{
	static epoll_wait_fn real;
	if (!real)
		real = (epoll_wait_fn)(uintptr_t)dlsym(RTLD_NEXT, "epoll_wait");
	atomic_fetch_add(&n_wait, 1);
	return real(epfd, ev, max, timeout);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static poll_fn real;
	if (!real)
		real = (poll_fn)(uintptr_t)dlsym(RTLD_NEXT, "poll");
	atomic_fetch_add(&n_wait, 1);
	return real(fds, n, timeout);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("BENCH_COUNT_OUT");
	if (!path)
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[256];
	unsigned long wf = atomic_load(&win_frames);
	unsigned long long wc = wf ? atomic_load(&win_end_ns) - atomic_load(&win_start_ns) : 0;
	int n = snprintf(line, sizeof(line), "ioctls=%lu dqbuf=%lu dqbuf_eagain=%lu "
		"clock_reads=%lu waits=%lu win_frames=%lu win_cpu_ns=%llu\n",
		atomic_load(&n_ioctl), atomic_load(&n_dqbuf), atomic_load(&n_dqbuf_eagain),
		atomic_load(&n_clock), atomic_load(&n_wait), wf, wc);
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}
