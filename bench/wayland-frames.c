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
 * With --floor-kms (no compositor running: it takes the DRM device) the floor also shows
 * each frame, as a compositor on its copy path does: one copy into a mapped dumb buffer
 * (two, flipped in turn) and a nonblocking atomic commit of its FB_ID, waiting for the flip
 * event. Its CPU time is the copy, the commit and the event's read (the size is the
 * preferred mode's of the first connected connector).
 *
 * Every line also gives the compositor's context switches per client frame (ctxsw, all its
 * threads, voluntary and not; 0 for the floors).
 *
 *   wayland-frames [--floor [--size WxH] | --floor-kms] [--warmup N] [--frames N]
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
#include "bench-kms.h"
#include "raw-atomic.h"

#include <drm_fourcc.h>
#include <poll.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

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
static unsigned long long ctx0;

/* Context switches (voluntary and not) of all of a process's threads. */
static unsigned long long ctx_switches(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	unsigned long long n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p2[320], line[256];
		snprintf(p2, sizeof(p2), "/proc/%d/task/%s/status", (int)pid, e->d_name);
		FILE *f = fopen(p2, "r");
		unsigned long long v;
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1 ||
			    sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1)
				n += v;
		if (f)
			fclose(f);
	}
	closedir(d);
	return n;
}

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
		ctx0 = ctx_switches(peer);
		t0 = now_s();
	} else if (frames == warmup + total) {
		double cpu = cpu_ms(peer) - cpu0, wall = now_s() - t0;
		double ctx = (double)(ctx_switches(peer) - ctx0) / total;
		printf("frames %u wall_s %.2f compositor_cpu_ms %.2f cpu_us_per_frame %.1f "
			"sys_us_per_frame %.0f pid %d ctxsw %.2f size %dx%d\n", total, wall, cpu,
			cpu * 1000.0 / total, (sys_part_ms - sys0) * 1000.0 / total, (int)peer,
			ctx, (int)width, (int)height);
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

/* The same frame as draw() and run_floor() make. */
static void fill(uint32_t *px, unsigned n)
{
	for (int32_t y = 0; y < height; y++)
		for (int32_t x = 0; x < width; x++)
			px[y * width + x] = (uint32_t)((x + (int32_t)n) & 255) << 16 |
				(uint32_t)((y + (int32_t)n) & 255) << 8 | (n & 255);
}

/* The floors' clock: CPU and wall time of each frame's measured part, warm-up excluded. */
static double floor_cpu_ms, floor_wall_s, floor_c, floor_w;

static void floor_start(void)
{
	floor_c = thread_cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
	floor_w = now_s();
}

static void floor_stop(void)
{
	if (frames < warmup)
		return;
	floor_cpu_ms += thread_cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - floor_c;
	floor_wall_s += now_s() - floor_w;
}

static void floor_print(void)
{
	printf("frames %u wall_s %.2f compositor_cpu_ms %.0f cpu_us_per_frame %.0f "
	       "sys_us_per_frame 0 pid %d ctxsw 0 size %dx%d\n", total, floor_wall_s,
		floor_cpu_ms, floor_cpu_ms * 1000.0 / total, (int)getpid(), (int)width,
		(int)height);
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
	for (frames = 0; frames < warmup + total; frames++) {
		fill(src, frames);
		floor_start();
		memcpy(map + size, src, size);
		floor_stop();
	}
	floor_print();
	munmap(map, size * 2);
	return 0;
}

/* The floor that shows its frames: copy into a dumb buffer, commit its FB_ID, wait. */
static int run_floor_kms(void)
{
	struct kms k;
	int fd = -1;
	for (int i = 0; i < 8 && fd < 0; i++) {
		char path[32];
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && kms_open(&k, fd) < 0) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		fprintf(stderr, "wayland-frames: no DRM device with a connected output\n");
		return 1;
	}
	width = k.mode.hdisplay;
	height = k.mode.vdisplay;
	uint32_t fb[2], pitch = 0;
	uint8_t *dst[2];
	for (int i = 0; i < 2; i++) {
		struct drm_mode_create_dumb c = { .width = (uint32_t)width,
			.height = (uint32_t)height, .bpp = 32 };
		struct drm_mode_map_dumb m = { 0 };
		if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) < 0) {
			fprintf(stderr, "wayland-frames: dumb buffer: %s\n", strerror(errno));
			return 1;
		}
		uint32_t handles[4] = { c.handle }, pitches[4] = { c.pitch }, offsets[4] = { 0 };
		m.handle = c.handle;
		if (drmModeAddFB2(fd, (uint32_t)width, (uint32_t)height, DRM_FORMAT_XRGB8888,
			    handles, pitches, offsets, &fb[i], 0) < 0 ||
		    drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m) < 0) {
			fprintf(stderr, "wayland-frames: framebuffer: %s\n", strerror(errno));
			return 1;
		}
		dst[i] = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
		if (dst[i] == MAP_FAILED) {
			fprintf(stderr, "wayland-frames: mmap: %s\n", strerror(errno));
			return 1;
		}
		pitch = c.pitch;
	}
	if (kms_modeset(&k, fb[1]) < 0) {
		fprintf(stderr, "wayland-frames: modeset: %s\n", strerror(errno));
		return 1;
	}
	uint32_t fb_prop = kms_prop(fd, k.planes[0], DRM_MODE_OBJECT_PLANE, "FB_ID");
	uint32_t *src = malloc((size_t)width * (size_t)height * 4);
	if (!src || !fb_prop)
		return 1;
	static struct raw_req req;
	int back = 0;
	for (frames = 0; frames < warmup + total; frames++) {
		fill(src, frames);
		floor_start();
		/* one memcpy when the rows are contiguous, as the compositor's copy path */
		if (pitch == (uint32_t)width * 4)
			memcpy(dst[back], src, (size_t)width * (size_t)height * 4);
		else
			for (int32_t y = 0; y < height; y++)
				memcpy(dst[back] + (size_t)y * pitch, src + (size_t)y * (size_t)width,
					(size_t)width * 4);
		raw_req_reset(&req);
		raw_req_add(&req, k.planes[0], fb_prop, fb[back]);
		if (raw_req_commit(fd, &req, DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT,
			    &k) < 0 || kms_wait_flip(&k) < 0) {
			fprintf(stderr, "wayland-frames: flip %u: %s\n", frames, strerror(errno));
			return 1;
		}
		back ^= 1;
		floor_stop();
	}
	floor_print();
	free(src);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	bool floor_mode = false, floor_kms = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--floor") == 0)
			floor_mode = true;
		else if (strcmp(argv[i], "--floor-kms") == 0)
			floor_kms = true;
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
	if (floor_kms)
		return run_floor_kms();
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
