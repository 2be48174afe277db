/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD=ioctl-count.so BENCH_COUNT_OUT=FILE program ...
 *
 * Counts the ioctl() calls of a process (all threads), the VIDIOC_DQBUF among them and
 * those answered EAGAIN (nothing ready), its clock_gettime() calls and its waits (poll,
 * epoll_wait), and appends "ioctls=N dqbuf=N dqbuf_eagain=N clock_reads=N waits=N" to
 * FILE when the process exits.
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
#include <linux/videodev2.h>
#include <poll.h>
#include <sys/epoll.h>

static atomic_ulong n_ioctl, n_dqbuf, n_dqbuf_eagain, n_clock, n_wait;

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
	char line[160];
	int n = snprintf(line, sizeof(line), "ioctls=%lu dqbuf=%lu dqbuf_eagain=%lu "
		"clock_reads=%lu waits=%lu\n", atomic_load(&n_ioctl), atomic_load(&n_dqbuf),
		atomic_load(&n_dqbuf_eagain), atomic_load(&n_clock), atomic_load(&n_wait));
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}
