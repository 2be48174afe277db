/* SPDX-License-Identifier: MIT */
/*
 * The floor of input-to-photon: what bench/latency-kiosk measures under a compositor,
 * done by one program straight on KMS. It creates the same uinput keyboard, reads it
 * itself (evdev, no libinput), and answers each press of KEY_A as the kiosk bench's client
 * does: a new colour over every pixel of a free full-screen XRGB8888 buffer (one of three
 * dumb buffers), shown by one nonblocking atomic commit of the primary plane's FB_ID with
 * a page-flip event. The latency is the flip event's timestamp (CLOCK_MONOTONIC, the
 * clock a compositor's presentation feedback reports) minus the time just before the
 * press was written. The presses follow latency-kiosk's schedule (50 ms plus 7 ms x i mod
 * 17 after the last frame's vblank), so both meet the same phases of the refresh.
 *
 *   latency-input-floor [--presses N] [--device /dev/dri/cardN]
 *
 * Prints latency-kiosk's lines: "press I LATENCY_US RECEIVED_US" per press (received: when
 * the program read the key), then "startup_ms S presses N missed 0 clock 1 size WxH"
 * (start-up: from the keyboard's creation to the first frame flipped, the modeset
 * included). Exit 0, or 1 with a message. The device must be free (no compositor on it).
 */
#include "bench-kms.h"
#include "raw-atomic.h"
#include "uinput-kbd.h"

#include <errno.h>
#include <fcntl.h>
#include <drm_fourcc.h>
#include <linux/input.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define NBUF 3

static struct uinput_kbd kbd = { .fd = -1 };
static uint64_t t_flip;
static bool flipped;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define DIE(...) do { fprintf(stderr, "latency-input-floor: " __VA_ARGS__); \
	fputc('\n', stderr); uinput_kbd_destroy(&kbd); exit(1); } while (0)

static void on_flip(int fd, unsigned seq, unsigned sec, unsigned usec, unsigned crtc,
	void *data)
{
	(void)fd, (void)seq, (void)crtc, (void)data;
	t_flip = (uint64_t)sec * 1000000000ull + (uint64_t)usec * 1000ull;
	flipped = true;
}

/* The flip event of the last commit, within 10 s. */
static void wait_flip(int fd)
{
	drmEventContext ev = { .version = 3, .page_flip_handler2 = on_flip };
	uint64_t end = now_ns() + 10000000000ull;
	while (!flipped) {
		if (now_ns() >= end)
			DIE("no page-flip event within 10 s");
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 100) > 0 && drmHandleEvent(fd, &ev) < 0)
			DIE("drmHandleEvent: %s", strerror(errno));
	}
}

/* Reads evdev until a press of KEY_A, within 10 s. */
static void wait_key(int fd)
{
	uint64_t end = now_ns() + 10000000000ull;
	for (;;) {
		struct input_event ev;
		ssize_t n = read(fd, &ev, sizeof(ev));
		if (n == (ssize_t)sizeof(ev)) {
			if (ev.type == EV_KEY && ev.code == KEY_A && ev.value == 1)
				return;
			continue;
		}
		if (n < 0 && errno != EAGAIN)
			DIE("evdev read: %s", strerror(errno));
		uint64_t t = now_ns();
		if (t >= end)
			DIE("no key event within 10 s");
		struct pollfd p = { .fd = fd, .events = POLLIN };
		poll(&p, 1, (int)((end - t) / 1000000ull) + 1);
	}
}

static int open_card(const char *dev, struct kms *k)
{
	char path[64];
	for (int i = 0; i < 8; i++) {
		if (dev)
			snprintf(path, sizeof(path), "%s", dev);
		else
			snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		int fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && kms_open(k, fd) == 0 && k->conn && k->n_planes)
			return 0;
		if (fd >= 0)
			close(fd);
		if (dev)
			break;
	}
	return -1;
}

int main(int argc, char **argv)
{
	unsigned presses = 50;
	const char *dev = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--presses") && i + 1 < argc)
			presses = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--device") && i + 1 < argc)
			dev = argv[++i];
		else {
			fprintf(stderr, "usage: latency-input-floor [--presses N] "
				"[--device /dev/dri/cardN]\n");
			return 2;
		}
	}
	char err[300];
	if (uinput_kbd_create(&kbd, "latency-input-floor keyboard", err, sizeof(err)) < 0)
		DIE("%s", err);
	uint64_t t_start = now_ns();
	int efd = open(kbd.event, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (efd < 0)
		DIE("%s: %s", kbd.event, strerror(errno));
	struct kms k;
	if (open_card(dev, &k) < 0)
		DIE("no KMS device with a connected output%s%s", dev ? " at " : "", dev ? dev : "");
	uint32_t w = k.mode.hdisplay, h = k.mode.vdisplay, fbs[NBUF];
	uint32_t *px[NBUF];
	size_t size = 0;
	for (int i = 0; i < NBUF; i++) {
		struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
		if (drmIoctl(k.fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) < 0)
			DIE("CREATE_DUMB: %s", strerror(errno));
		uint32_t handles[4] = { c.handle }, pitches[4] = { c.pitch }, offsets[4] = { 0 };
		if (drmModeAddFB2(k.fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches, offsets,
				&fbs[i], 0) < 0)
			DIE("AddFB2: %s", strerror(errno));
		struct drm_mode_map_dumb m = { .handle = c.handle };
		if (drmIoctl(k.fd, DRM_IOCTL_MODE_MAP_DUMB, &m) < 0)
			DIE("MAP_DUMB: %s", strerror(errno));
		size = c.size;
		px[i] = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd,
			(off_t)m.offset);
		if (px[i] == MAP_FAILED)
			DIE("mmap: %s", strerror(errno));
		if (c.pitch != w * 4)
			DIE("pitch %u is not %u: the fill would differ from the client's", c.pitch,
				w * 4);
	}
	memset(px[0], 0, size);
	if (kms_modeset(&k, fbs[0]) < 0)
		DIE("modeset: %s", strerror(errno));
	uint32_t plane = k.planes[0];
	uint32_t fb_prop = kms_prop(k.fd, plane, DRM_MODE_OBJECT_PLANE, "FB_ID");
	static struct raw_req req;
	unsigned cur = 0, colour = 0;
	/* the first frame flipped: the end of start-up, as the client's first frame is */
	raw_req_reset(&req);
	raw_req_add(&req, plane, fb_prop, fbs[1]);
	flipped = false;
	if (raw_req_commit(k.fd, &req, DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT,
			NULL) < 0)
		DIE("first flip: %s", strerror(errno));
	wait_flip(k.fd);
	cur = 1;
	double startup_ms = (double)(t_flip - t_start) / 1e6;
	for (unsigned n = 0; n < presses; n++) {
		/* the press at latency-kiosk's phase: 50 ms plus 7 ms x n mod 17 after the last
		 * flip's timestamp (a vblank) */
		uint64_t due = t_flip + (50 + (n * 7) % 17) * 1000000ull;
		struct timespec at = { (time_t)(due / 1000000000ull), (long)(due % 1000000000ull) };
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		uint64_t t0 = now_ns();
		if (uinput_kbd_key(&kbd, KEY_A, 1) < 0 || uinput_kbd_key(&kbd, KEY_A, 0) < 0)
			DIE("uinput write: %s", strerror(errno));
		wait_key(efd);
		uint64_t t_key = now_ns();
		unsigned next = (cur + 1) % NBUF;
		colour++;
		uint32_t c = (colour * 0x3f1d27u) & 0xffffff;
		for (size_t i = 0; i < (size_t)w * h; i++)
			px[next][i] = c;
		raw_req_reset(&req);
		raw_req_add(&req, plane, fb_prop, fbs[next]);
		flipped = false;
		if (raw_req_commit(k.fd, &req, DRM_MODE_ATOMIC_NONBLOCK |
				DRM_MODE_PAGE_FLIP_EVENT, NULL) < 0)
			DIE("press %u: commit: %s", n, strerror(errno));
		wait_flip(k.fd);
		cur = next;
		printf("press %u %.1f %.1f\n", n, (double)(t_flip - t0) / 1e3,
			(double)(t_key - t0) / 1e3);
	}
	printf("startup_ms %.1f presses %u missed 0 clock 1 size %ux%u\n", startup_ms, presses,
		w, h);
	fflush(stdout);
	close(efd);
	uinput_kbd_destroy(&kbd);
	return 0;
}
