/* SPDX-License-Identifier: MIT */
/*
 * Input-to-photon under a Wayland compositor: a key pressed on a uinput keyboard to the
 * presentation-feedback timestamp of the first frame that shows the client's answer.
 *
 *   latency-kiosk [--presses N] [--socket NAME] [--log FILE] [--animate]
 *                 -- COMPOSITOR [ARGS...]
 *
 * Order: create a uinput keyboard (so the compositor finds it when it starts; without
 * udevd its udev database entry is written, as tests/integration/seat-kiosk.sh does, and
 * removed at exit), start COMPOSITOR (every argument "@EVENT@" becomes the keyboard's
 * /dev/input/eventN, for dispman-kiosk --input), wait for its socket NAME (default
 * wl-latency) in XDG_RUNTIME_DIR, connect as a full-screen xdg toplevel with wl_shm
 * buffers (XRGB8888, the configured size, three buffers), show a first frame and wait for
 * the keyboard focus. Then N times: wait a varying while (so the press falls at every
 * phase of the refresh), note t0 (CLOCK_MONOTONIC) and write a press and a release of
 * KEY_A; on the press, fill a free buffer with a new colour (every pixel), attach, damage,
 * ask for presentation feedback and commit; the latency is the feedback's presented time
 * minus t0. A discarded feedback (the frame was never shown) counts as a miss.
 * Start-up (fork of the compositor to the first frame presented) is printed on its own.
 *
 * --animate: a 64x64 desynchronized subsurface at the toplevel's corner draws a new colour
 * at every frame callback (an animation beside the answer, as a clock or a spinner): the
 * compositor always has a frame in flight when a press comes (issue 31's late repaints).
 *
 * Prints one line per press: "press I LATENCY_US RECEIVED_US" (received: when the client got
 * the key event), then "startup_ms S presses N missed M clock C" (C: the presentation
 * clock id, 1 = CLOCK_MONOTONIC). Exit 0, or 1 with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "uinput-kbd.h"

#define NBUF 3

struct buf {
	struct wl_buffer *b;
	uint32_t *px;
	bool busy;
};

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm;
static struct wl_seat *seat;
static struct wl_keyboard *keyboard;
static struct wp_presentation *presentation;
static struct wl_surface *surface;
static struct wl_subcompositor *subcompositor;
/* --animate: the subsurface, its buffers, whether it waits for a free one */
#define ANIM_NBUF 4
#define ANIM_SIZE 64
static struct wl_surface *anim_surface;
static struct buf anim_bufs[ANIM_NBUF];
static bool anim_stalled;
static unsigned anim_frames;
static struct buf bufs[NBUF];
static int32_t width, height;
static bool configured, focused, closed;
static uint32_t clock_id = 1;
static unsigned colour;

/* the frame in flight */
static bool waiting_key, waiting_present, presented_ok;
static uint64_t t_key, t_present;

static struct uinput_kbd kbd = { .fd = -1 };
static pid_t comp = -1;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void cleanup(void)
{
	if (comp > 0) {
		kill(comp, SIGTERM);
		for (int i = 0; i < 100; i++) {
			if (waitpid(comp, NULL, WNOHANG) == comp) {
				comp = -1;
				break;
			}
			usleep(100000);
		}
		if (comp > 0) {
			kill(comp, SIGKILL);
			waitpid(comp, NULL, 0);
		}
		comp = -1;
	}
	uinput_kbd_destroy(&kbd);
}

#define DIE(...) do { fprintf(stderr, "latency-kiosk: " __VA_ARGS__); fputc('\n', stderr); \
	cleanup(); exit(1); } while (0)

static void key_event(int code, int value)
{
	if (uinput_kbd_key(&kbd, code, value) < 0)
		DIE("uinput write: %s", strerror(errno));
}

static void anim_frame(void);

static void buf_release(void *data, struct wl_buffer *b)
{
	(void)b;
	((struct buf *)data)->busy = false;
	if (anim_stalled && data >= (void *)anim_bufs && data < (void *)(anim_bufs + ANIM_NBUF)) {
		anim_stalled = false;
		anim_frame();
	}
}

static const struct wl_buffer_listener buf_listener = { buf_release };

static void make_buffers(void)
{
	size_t size = (size_t)width * (size_t)height * 4;
	int fd = memfd_create("latency-kiosk", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, (off_t)(size * NBUF)) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0)
		DIE("memfd: %s", strerror(errno));
	uint8_t *map = mmap(NULL, size * NBUF, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		DIE("mmap: %s", strerror(errno));
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

static void anim_done(void *data, struct wl_callback *cb, uint32_t ms)
{
	(void)data, (void)ms;
	wl_callback_destroy(cb);
	anim_frame();
}

static const struct wl_callback_listener anim_listener = { anim_done };

/* The animation's next frame: a new colour in a free buffer, committed with a frame
 * callback that draws the one after. */
static void anim_frame(void)
{
	struct buf *b = NULL;
	for (int i = 0; i < ANIM_NBUF && !b; i++)
		if (!anim_bufs[i].busy)
			b = &anim_bufs[i];
	if (!b) {
		anim_stalled = true; /* resumed by the next release */
		return;
	}
	anim_frames++;
	uint32_t c = (anim_frames * 0x1f3d5bu) & 0xffffff;
	for (size_t i = 0; i < ANIM_SIZE * ANIM_SIZE; i++)
		b->px[i] = c;
	wl_surface_attach(anim_surface, b->b, 0, 0);
	wl_surface_damage_buffer(anim_surface, 0, 0, ANIM_SIZE, ANIM_SIZE);
	struct wl_callback *cb = wl_surface_frame(anim_surface);
	wl_callback_add_listener(cb, &anim_listener, NULL);
	wl_surface_commit(anim_surface);
	b->busy = true;
}

/* The animated subsurface at the toplevel's top-left corner, desynchronized (its commits
 * apply at once); it appears with the parent's next commit. */
static void anim_start(void)
{
	size_t size = ANIM_SIZE * ANIM_SIZE * 4;
	int fd = memfd_create("latency-kiosk-anim", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)(size * ANIM_NBUF)) < 0)
		DIE("memfd: %s", strerror(errno));
	uint8_t *map = mmap(NULL, size * ANIM_NBUF, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		DIE("mmap: %s", strerror(errno));
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)(size * ANIM_NBUF));
	for (int i = 0; i < ANIM_NBUF; i++) {
		anim_bufs[i].b = wl_shm_pool_create_buffer(pool, (int32_t)(size * (size_t)i),
			ANIM_SIZE, ANIM_SIZE, ANIM_SIZE * 4, WL_SHM_FORMAT_XRGB8888);
		anim_bufs[i].px = (uint32_t *)(void *)(map + size * (size_t)i);
		wl_buffer_add_listener(anim_bufs[i].b, &buf_listener, &anim_bufs[i]);
	}
	wl_shm_pool_destroy(pool);
	close(fd);
	anim_surface = wl_compositor_create_surface(compositor);
	struct wl_subsurface *ss = wl_subcompositor_get_subsurface(subcompositor, anim_surface,
		surface);
	wl_subsurface_set_position(ss, 0, 0);
	wl_subsurface_set_desync(ss);
	anim_frame();
}

static void fb_sync(void *data, struct wp_presentation_feedback *f, struct wl_output *o)
{
	(void)data, (void)f, (void)o;
}

static void fb_presented(void *data, struct wp_presentation_feedback *f, uint32_t sec_hi,
	uint32_t sec_lo, uint32_t nsec, uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo,
	uint32_t flags)
{
	(void)data, (void)refresh, (void)seq_hi, (void)seq_lo, (void)flags;
	t_present = (((uint64_t)sec_hi << 32) | sec_lo) * 1000000000ull + nsec;
	presented_ok = true;
	waiting_present = false;
	wp_presentation_feedback_destroy(f);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *f)
{
	(void)data;
	presented_ok = false;
	waiting_present = false;
	wp_presentation_feedback_destroy(f);
}

static const struct wp_presentation_feedback_listener fb_listener = {
	fb_sync, fb_presented, fb_discarded,
};

/* A new colour over every pixel of a free buffer, committed with presentation feedback. */
static void draw(void)
{
	struct buf *b = NULL;
	for (int i = 0; i < NBUF && !b; i++)
		if (!bufs[i].busy)
			b = &bufs[i];
	if (!b)
		DIE("all %d buffers busy", NBUF);
	colour++;
	uint32_t c = (colour * 0x3f1d27u) & 0xffffff;
	for (size_t i = 0; i < (size_t)width * (size_t)height; i++)
		b->px[i] = c;
	wl_surface_attach(surface, b->b, 0, 0);
	wl_surface_damage_buffer(surface, 0, 0, width, height);
	struct wp_presentation_feedback *f = wp_presentation_feedback(presentation, surface);
	wp_presentation_feedback_add_listener(f, &fb_listener, NULL);
	waiting_present = true;
	wl_surface_commit(surface);
	b->busy = true;
}

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t fmt, int32_t fd, uint32_t sz)
{
	(void)d, (void)k, (void)fmt, (void)sz;
	close(fd);
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
	struct wl_array *keys)
{
	(void)d, (void)k, (void)serial, (void)s, (void)keys;
	focused = true;
}

static void kb_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	(void)d, (void)k, (void)serial, (void)s;
	focused = false;
}

static void kb_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t time,
	uint32_t key, uint32_t state)
{
	(void)d, (void)k, (void)serial, (void)time;
	if (key != KEY_A || state != WL_KEYBOARD_KEY_STATE_PRESSED || !waiting_key)
		return;
	t_key = now_ns();
	waiting_key = false;
	draw();
}

static void kb_modifiers(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t dep,
	uint32_t lat, uint32_t lock, uint32_t group)
{
	(void)d, (void)k, (void)serial, (void)dep, (void)lat, (void)lock, (void)group;
}

static void kb_repeat(void *d, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
	(void)d, (void)k, (void)rate, (void)delay;
}

static const struct wl_keyboard_listener kb_listener = {
	kb_keymap, kb_enter, kb_leave, kb_key, kb_modifiers, kb_repeat,
};

static void seat_caps(void *d, struct wl_seat *s, uint32_t caps)
{
	(void)d;
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !keyboard) {
		keyboard = wl_seat_get_keyboard(s);
		wl_keyboard_add_listener(keyboard, &kb_listener, NULL);
	}
}

static void seat_name(void *d, struct wl_seat *s, const char *name)
{
	(void)d, (void)s, (void)name;
}

static const struct wl_seat_listener seat_listener = { seat_caps, seat_name };

static void pres_clock(void *d, struct wp_presentation *p, uint32_t clk)
{
	(void)d, (void)p;
	clock_id = clk;
}

static const struct wp_presentation_listener pres_listener = { pres_clock };

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	(void)data;
	xdg_surface_ack_configure(xs, serial);
	configured = true;
}

static const struct xdg_surface_listener xs_listener = { xs_configure };

static void tl_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
	(void)data, (void)t, (void)states;
	if (w > 0 && h > 0 && !width) {
		width = w;
		height = h;
	}
}

static void tl_close(void *data, struct xdg_toplevel *t)
{
	(void)data, (void)t;
	closed = true;
}

static const struct xdg_toplevel_listener tl_listener = {
	.configure = tl_configure,
	.close = tl_close,
};

static void wm_ping(void *data, struct xdg_wm_base *w, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(w, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void global(void *data, struct wl_registry *reg, uint32_t name, const char *iface,
	uint32_t version)
{
	(void)data, (void)version;
	if (!strcmp(iface, "wl_compositor"))
		compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	else if (!strcmp(iface, "wl_subcompositor"))
		subcompositor = wl_registry_bind(reg, name, &wl_subcompositor_interface, 1);
	else if (!strcmp(iface, "wl_shm"))
		shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	else if (!strcmp(iface, "xdg_wm_base")) {
		wm = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(wm, &wm_listener, NULL);
	} else if (!strcmp(iface, "wl_seat") && !seat) {
		seat = wl_registry_bind(reg, name, &wl_seat_interface, 1);
		wl_seat_add_listener(seat, &seat_listener, NULL);
	} else if (!strcmp(iface, "wp_presentation")) {
		presentation = wl_registry_bind(reg, name, &wp_presentation_interface, 1);
		wp_presentation_add_listener(presentation, &pres_listener, NULL);
	}
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
	(void)data, (void)reg, (void)name;
}

static const struct wl_registry_listener reg_listener = { global, global_remove };

/* Dispatch until *flag is false (or, with want_true, true), at most timeout_ms. */
static bool dispatch_until(struct wl_display *d, bool *flag, bool want, int timeout_ms)
{
	uint64_t end = now_ns() + (uint64_t)(unsigned)timeout_ms * 1000000u;
	while (*flag != want) {
		if (closed)
			return false;
		while (wl_display_prepare_read(d) != 0)
			wl_display_dispatch_pending(d);
		wl_display_flush(d);
		uint64_t t = now_ns();
		if (t >= end) {
			wl_display_cancel_read(d);
			return false;
		}
		struct pollfd p = { .fd = wl_display_get_fd(d), .events = POLLIN };
		int r = poll(&p, 1, (int)((end - t) / 1000000ull) + 1);
		if (r > 0) {
			if (wl_display_read_events(d) < 0)
				return false;
		} else {
			wl_display_cancel_read(d);
		}
		if (wl_display_dispatch_pending(d) < 0)
			return false;
	}
	return true;
}

static void sleep_ms(struct wl_display *d, unsigned ms)
{
	bool never = false;
	dispatch_until(d, &never, true, (int)ms); /* handles releases meanwhile */
}

int main(int argc, char **argv)
{
	unsigned presses = 50;
	const char *sock = "wl-latency", *log = "/dev/null";
	bool animate = false;
	int i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--presses") && i + 1 < argc)
			presses = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--socket") && i + 1 < argc)
			sock = argv[++i];
		else if (!strcmp(argv[i], "--log") && i + 1 < argc)
			log = argv[++i];
		else if (!strcmp(argv[i], "--animate"))
			animate = true;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else
			break;
	}
	if (i >= argc || !presses) {
		fprintf(stderr, "usage: latency-kiosk [--presses N] [--socket NAME] [--log FILE] "
			"[--animate] -- COMPOSITOR [ARGS...]\n");
		return 2;
	}
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	if (!xdg)
		DIE("XDG_RUNTIME_DIR is not set");
	char sockpath[512], err[300];
	if (uinput_kbd_create(&kbd, "latency-kiosk keyboard", err, sizeof(err)) < 0)
		DIE("%s", err);
	const char *event = kbd.event;
	snprintf(sockpath, sizeof(sockpath), "%s/%s", xdg, sock);
	unlink(sockpath);
	uint64_t t_fork = now_ns();
	comp = fork();
	if (comp < 0)
		DIE("fork: %s", strerror(errno));
	if (comp == 0) {
		char **args = calloc((size_t)(argc - i + 1), sizeof(char *));
		for (int k = i; k < argc; k++)
			args[k - i] = !strcmp(argv[k], "@EVENT@") ? (char *)event : argv[k];
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		unsetenv("WAYLAND_DISPLAY");
		execvp(args[0], args);
		_exit(127);
	}
	struct wl_display *d = NULL;
	for (int tries = 0; tries < 3000 && !d; tries++) {
		if (waitpid(comp, NULL, WNOHANG) == comp) {
			comp = -1;
			DIE("the compositor %s exited before its socket came", argv[i]);
		}
		if (access(sockpath, F_OK) == 0)
			d = wl_display_connect(sockpath);
		if (!d)
			usleep(100000);
	}
	if (!d)
		DIE("no socket %s", sockpath);
	struct wl_registry *reg = wl_display_get_registry(d);
	wl_registry_add_listener(reg, &reg_listener, NULL);
	wl_display_roundtrip(d);
	wl_display_roundtrip(d);
	if (!compositor || !shm || !wm || !seat || !presentation)
		DIE("missing globals:%s%s%s%s%s", compositor ? "" : " wl_compositor",
			shm ? "" : " wl_shm", wm ? "" : " xdg_wm_base", seat ? "" : " wl_seat",
			presentation ? "" : " wp_presentation");
	surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(wm, surface);
	xdg_surface_add_listener(xs, &xs_listener, NULL);
	struct xdg_toplevel *tl = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(tl, &tl_listener, NULL);
	xdg_toplevel_set_title(tl, "latency-kiosk");
	xdg_toplevel_set_fullscreen(tl, NULL);
	wl_surface_commit(surface);
	if (!dispatch_until(d, &configured, true, 120000))
		DIE("no configure");
	if (!width) {
		width = 1024;
		height = 768;
	}
	make_buffers();
	if (animate) {
		if (!subcompositor)
			DIE("--animate: no wl_subcompositor");
		anim_start();
	}
	draw();
	if (!dispatch_until(d, &waiting_present, false, 300000) || !presented_ok)
		DIE("the first frame was not presented");
	double startup_ms = (double)(t_present - t_fork) / 1e6;
	if (!dispatch_until(d, &focused, true, 60000))
		DIE("no keyboard focus within 60 s");
	unsigned missed = 0;
	for (unsigned n = 0; n < presses; n++) {
		/* 50 ms plus a step of 7 ms mod 17 after the last frame's presentation time (a
		 * vblank): the press lands at every phase of a 60 Hz refresh, the same phases
		 * for every contender (counted from when the program heard of the frame, the
		 * phases would shift by how late each learns of it) */
		uint64_t due = t_present + (50 + (n * 7) % 17) * 1000000ull, now = now_ns();
		if (due > now)
			sleep_ms(d, (unsigned)((due - now) / 1000000ull));
		waiting_key = true;
		uint64_t t0 = now_ns();
		key_event(KEY_A, 1);
		key_event(KEY_A, 0);
		if (!dispatch_until(d, &waiting_key, false, 10000))
			DIE("press %u: no key event within 10 s", n);
		if (!dispatch_until(d, &waiting_present, false, 10000))
			DIE("press %u: no presentation feedback within 10 s", n);
		if (!presented_ok) {
			missed++;
			continue;
		}
		printf("press %u %.1f %.1f\n", n, (double)(t_present - t0) / 1e3,
			(double)(t_key - t0) / 1e3);
	}
	printf("startup_ms %.1f presses %u missed %u clock %u size %dx%d anim_frames %u\n",
		startup_ms, presses, missed, clock_id, width, height, anim_frames);
	fflush(stdout);
	wl_display_disconnect(d);
	cleanup();
	return 0;
}
