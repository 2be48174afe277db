/* SPDX-License-Identifier: MIT */
/*
 * The bench client of bench/kiosk-vs-weston: a full-screen xdg toplevel that draws a new
 * XRGB8888 shm frame (whole surface damaged) on every frame callback, with three buffers
 * in one memfd pool sealed against shrinking, reused after wl_buffer.release. After
 * --warmup frames it reads the CPU time (the scheduler's nanoseconds of every thread,
 * /proc/PID/task/TID/schedstat) of the compositor process, found as the peer of its Wayland
 * socket (SO_PEERCRED), and again after --frames more, so compositor start-up and the
 * client's first frames are excluded. Prints one line:
 *   frames N wall_s T compositor_cpu_ms C cpu_us_per_frame P sys_us_per_frame S pid PID
 *
 * With --floor it connects to no compositor: it draws the same frames and copies each once
 * into a second mapping (what a compositor that copies shm must do at least), and prints
 * the same line with its own CPU time of the copies alone as compositor_cpu_ms.
 *
 * --size WxH sets the floor's frame size (default 1024x768); the bench gives it the mode of
 * the output the compositor serves, so that both copy the same bytes. Every line ends with
 * "size WxH", the frame size that was drawn.
 *
 *   wayland-frames [--floor [--size WxH]] [--warmup N] [--frames N]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

#define NBUF 3

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm;
static int32_t width = 1024, height = 768;
static bool configured;
static unsigned frames, warmup = 30, total = 300;
static double cpu0, sys0, t0;
static pid_t peer;

struct buf {
	struct wl_buffer *b;
	uint32_t *px;
	bool busy;
};
static struct buf bufs[NBUF];
static struct wl_surface *surface;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double sys_part_ms;

/* The CPU time of all of a process's threads in ms, from the scheduler's nanosecond
 * count (/proc/PID/task/TID/schedstat, first field); -1 where there is none. */
static double sched_ms(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	double ns = 0;
	bool any = false;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p2[320];
		snprintf(p2, sizeof(p2), "/proc/%d/task/%s/schedstat", (int)pid, e->d_name);
		FILE *f = fopen(p2, "r");
		unsigned long long run = 0;
		if (f && fscanf(f, "%llu", &run) == 1) {
			ns += (double)run;
			any = true;
		}
		if (f)
			fclose(f);
	}
	closedir(d);
	return any ? ns / 1e6 : -1;
}

/* user + system time of a process in ms: the scheduler's nanoseconds where it has them
 * (clock ticks, 10 ms each, are too coarse for a few hundred us per frame), else
 * /proc/PID/stat's ticks; the system part alone (ticks) in sys_part_ms */
static double cpu_ms(pid_t pid)
{
	char path[64], line[2048];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f || !fgets(line, sizeof(line), f)) {
		fprintf(stderr, "wayland-frames: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fclose(f);
	char *p = strrchr(line, ')');
	unsigned long ut = 0, st = 0;
	/* fields after the name: state(3) ... utime(14) stime(15) */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut,
		    &st) != 2) {
		fprintf(stderr, "wayland-frames: cannot parse %s\n", path);
		exit(1);
	}
	sys_part_ms = (double)st * 1000.0 / (double)sysconf(_SC_CLK_TCK);
	double s = sched_ms(pid);
	return s >= 0 ? s : (double)(ut + st) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static void buf_release(void *data, struct wl_buffer *b)
{
	((struct buf *)data)->busy = false;
}

static const struct wl_buffer_listener buf_listener = { buf_release };

static void make_buffers(void)
{
	size_t size = (size_t)width * (size_t)height * 4;
	/* as weston's clients and the toolkits make pools: a memfd sealed against shrinking
	 * (a compositor may then scan it out without a copy) */
	int fd = memfd_create("wayland-frames", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, (off_t)(size * NBUF)) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		fprintf(stderr, "wayland-frames: memfd: %s\n", strerror(errno));
		exit(1);
	}
	uint8_t *map = mmap(NULL, size * NBUF, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		exit(1);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)(size * NBUF));
	for (int i = 0; i < NBUF; i++) {
		bufs[i].b = wl_shm_pool_create_buffer(pool, (int32_t)(size * (size_t)i), width,
			height, width * 4, WL_SHM_FORMAT_XRGB8888);
		bufs[i].px = (uint32_t *)(void *)(map + size * (size_t)i);
		wl_buffer_add_listener(bufs[i].b, &buf_listener, &bufs[i]);
	}
	wl_shm_pool_destroy(pool);
	close(fd);
}

static const struct wl_callback_listener frame_listener;

static void draw(uint32_t t)
{
	struct buf *b = NULL;
	for (int i = 0; i < NBUF && !b; i++)
		if (!bufs[i].busy)
			b = &bufs[i];
	if (!b) {
		fprintf(stderr, "wayland-frames: all %d buffers busy\n", NBUF);
		exit(1);
	}
	/* a moving gradient: every pixel changes every frame */
	for (int32_t y = 0; y < height; y++)
		for (int32_t x = 0; x < width; x++)
			b->px[y * width + x] = (uint32_t)((x + (int32_t)t / 4) & 255) << 16 |
				(uint32_t)((y + (int32_t)frames) & 255) << 8 | (frames & 255);
	wl_surface_attach(surface, b->b, 0, 0);
	wl_surface_damage(surface, 0, 0, width, height);
	wl_callback_add_listener(wl_surface_frame(surface), &frame_listener, NULL);
	wl_surface_commit(surface);
	b->busy = true;
}

static void frame_done(void *data, struct wl_callback *cb, uint32_t t)
{
	wl_callback_destroy(cb);
	frames++;
	if (frames == warmup) {
		cpu0 = cpu_ms(peer);
		sys0 = sys_part_ms;
		t0 = now_s();
	} else if (frames == warmup + total) {
		double cpu = cpu_ms(peer) - cpu0, wall = now_s() - t0;
		printf("frames %u wall_s %.2f compositor_cpu_ms %.2f cpu_us_per_frame %.1f "
			"sys_us_per_frame %.0f pid %d size %dx%d\n", total, wall, cpu,
			cpu * 1000.0 / total, (sys_part_ms - sys0) * 1000.0 / total, (int)peer,
			(int)width, (int)height);
		fflush(stdout);
		exit(0);
	}
	draw(t);
}

static const struct wl_callback_listener frame_listener = { frame_done };

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	xdg_surface_ack_configure(xs, serial);
	configured = true;
}

static const struct xdg_surface_listener xs_listener = { xs_configure };

static void tl_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
	if (w > 0 && h > 0 && !bufs[0].b) {
		width = w;
		height = h;
	}
}

static void tl_close(void *data, struct xdg_toplevel *t)
{
}

static const struct xdg_toplevel_listener tl_listener = { tl_configure, tl_close };

static void wm_ping(void *data, struct xdg_wm_base *w, uint32_t serial)
{
	xdg_wm_base_pong(w, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void global(void *data, struct wl_registry *reg, uint32_t name, const char *iface,
	uint32_t version)
{
	if (strcmp(iface, "wl_compositor") == 0)
		compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 1);
	else if (strcmp(iface, "wl_shm") == 0)
		shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	else if (strcmp(iface, "xdg_wm_base") == 0) {
		wm = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(wm, &wm_listener, NULL);
	}
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

static double thread_cpu_ms(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* The floor: one copy of every frame into another shared mapping, warm-up excluded. */
static int run_floor(void)
{
	size_t size = (size_t)width * (size_t)height * 4;
	int fd = memfd_create("wayland-frames-floor", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)(size * 2)) < 0) {
		fprintf(stderr, "wayland-frames: memfd: %s\n", strerror(errno));
		return 1;
	}
	uint8_t *map = mmap(NULL, size * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 1;
	uint32_t *src = (uint32_t *)(void *)map;
	double copy_ms = 0, wall = 0;
	for (frames = 0; frames < warmup + total; frames++) {
		for (int32_t y = 0; y < height; y++)
			for (int32_t x = 0; x < width; x++)
				src[y * width + x] = (uint32_t)((x + (int32_t)frames) & 255) << 16 |
					(uint32_t)((y + (int32_t)frames) & 255) << 8 | (frames & 255);
		double c = thread_cpu_ms(CLOCK_PROCESS_CPUTIME_ID), w = now_s();
		memcpy(map + size, src, size);
		if (frames >= warmup) {
			copy_ms += thread_cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - c;
			wall += now_s() - w;
		}
	}
	printf("frames %u wall_s %.2f compositor_cpu_ms %.0f cpu_us_per_frame %.0f "
	       "sys_us_per_frame 0 pid %d size %dx%d\n", total, wall, copy_ms,
		copy_ms * 1000.0 / total, (int)getpid(), (int)width, (int)height);
	munmap(map, size * 2);
	return 0;
}

int main(int argc, char **argv)
{
	bool floor_mode = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--floor") == 0)
			floor_mode = true;
		else if (i + 1 < argc && strcmp(argv[i], "--warmup") == 0)
			warmup = (unsigned)atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--frames") == 0)
			total = (unsigned)atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--size") == 0) {
			int w = 0, h = 0;
			if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w < 1 || h < 1 ||
			    w > 16384 || h > 16384) {
				fprintf(stderr, "wayland-frames: --size wants WxH, got '%s'\n",
					argv[i]);
				return 2;
			}
			width = w;
			height = h;
		}
	}
	if (warmup < 1)
		warmup = 1;
	if (total < 1)
		total = 1;
	if (floor_mode)
		return run_floor();
	struct wl_display *d = wl_display_connect(NULL);
	if (!d) {
		fprintf(stderr, "wayland-frames: cannot connect: %s\n", strerror(errno));
		return 1;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(wl_display_get_fd(d), SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		fprintf(stderr, "wayland-frames: SO_PEERCRED: %s\n", strerror(errno));
		return 1;
	}
	peer = cred.pid;
	struct wl_registry *reg = wl_display_get_registry(d);
	wl_registry_add_listener(reg, &registry_listener, NULL);
	wl_display_roundtrip(d);
	if (!compositor || !shm || !wm) {
		fprintf(stderr, "wayland-frames: a global is missing\n");
		return 1;
	}
	surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(wm, surface);
	xdg_surface_add_listener(xs, &xs_listener, NULL);
	struct xdg_toplevel *tl = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(tl, &tl_listener, NULL);
	xdg_toplevel_set_fullscreen(tl, NULL);
	wl_surface_commit(surface);
	while (!configured)
		if (wl_display_dispatch(d) < 0)
			return 1;
	make_buffers();
	draw(0);
	while (wl_display_dispatch(d) >= 0)
		;
	fprintf(stderr, "wayland-frames: connection lost after %u frames\n", frames);
	return 1;
}
