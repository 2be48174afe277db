/*
 * Two heads at once (issue 9), on virtio-gpu's two heads (profile virtio-gpu):
 *
 *   heads               (DISPMAN_TEST_DEVICE names the device, else discovery)
 *
 * 1. Both heads are driven at once with different modes and content; each head's frame
 *    callback commits its own output (dispman_output_commit) on every flip, so each goes
 *    at its own pace. Then head 1 stops committing: head 0 flips on, and head 1 does
 *    not flip with it (a device-wide commit would flip both). The flip counts of the
 *    two heads and the commits are reported.
 * 2. QEMU's screendump of each head equals what was drawn on it, pixel for pixel, and so
 *    does the CPU capture of each output.
 * 3. The second head is unplugged (its sysfs status forced off, plus a synthetic hotplug
 *    uevent of the card) and plugged again: the output callback reports DISCONNECTED,
 *    then CONNECTED; the library disables, then restores, the second output (it flips
 *    again and its screendump is right again), and the first head keeps flipping
 *    throughout (its flips are counted in each phase).
 *
 * Exit 0 on success, 1 on the first failure, 77 when the device lacks two connected
 * heads with their own CRTCs or a screendump oracle.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <dispman/dispman.h>

#include "check.h"
#include "frames.h"

#define SKIP 77

struct head {
	struct dispman_output *out;
	const struct dispman_mode *mode;
	struct dispman_buffer *bufs[2]; /* same pixels: flips never change the picture */
	uint32_t color;
	unsigned flips, commits;
	bool run;
};

struct ctx {
	struct dispman_device *dev;
	struct head h[2];
	unsigned disconnected, connected; /* output callbacks for the second head */
	char status_path[256];
	char uevent_path[256];
};

static struct ctx *restore_ctx;

static uint32_t pattern(uint32_t x, uint32_t y, uint32_t color)
{
	return 0xff000000u | (color ^ ((x * 0x10101u + y * 0x100u) & 0xffffffu));
}

static struct dispman_buffer *make(struct ctx *c, const struct dispman_mode *m, uint32_t color)
{
	struct dispman_buffer *b = dispman_buffer_create_dumb(c->dev, m->width, m->height,
		DRM_FORMAT_XRGB8888);
	CHECK(b, "create %ux%u: %s", m->width, m->height, strerror(errno));
	void *data;
	uint32_t stride;
	CHECK(dispman_buffer_map(b, &data, &stride) == 0, "map");
	for (uint32_t y = 0; y < m->height; y++)
		for (uint32_t x = 0; x < m->width; x++)
			((uint32_t *)(void *)((char *)data + (size_t)y * stride))[x] =
				pattern(x, y, color);
	return b;
}

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	(void)seq;
	(void)t;
	struct head *h = data;
	h->flips++;
	if (!h->run)
		return;
	CHECK(dispman_output_set_buffer(out, h->bufs[h->flips & 1]) == 0, "set buffer");
	int ret = dispman_output_commit(out);
	CHECK(ret == 0, "%s: commit from the frame callback: %s", dispman_output_get_name(out),
		strerror(-ret));
	h->commits++;
}

static void on_output(struct dispman_device *dev, struct dispman_output *out,
	enum dispman_output_event ev, void *data)
{
	(void)dev;
	struct ctx *c = data;
	printf("output callback: %s %s\n", dispman_output_get_name(out),
		ev == DISPMAN_OUTPUT_CONNECTED ? "connected" :
		ev == DISPMAN_OUTPUT_DISCONNECTED ? "disconnected" : "changed");
	if (out != c->h[1].out)
		return;
	if (ev == DISPMAN_OUTPUT_DISCONNECTED)
		c->disconnected++;
	if (ev == DISPMAN_OUTPUT_CONNECTED)
		c->connected++;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Dispatch until cond() or timeout seconds. */
static bool run_until(struct ctx *c, bool (*cond)(struct ctx *c), double timeout)
{
	double end = now_s() + timeout;
	while (!cond(c) && now_s() < end)
		CHECK(dispman_device_dispatch(c->dev, 100) >= 0, "dispatch");
	return cond(c);
}

static unsigned want_flips0, want_flips1;
static bool flips_reached(struct ctx *c)
{
	return c->h[0].flips >= want_flips0 && c->h[1].flips >= want_flips1;
}

static bool got_disconnected(struct ctx *c)
{
	return c->disconnected > 0;
}

static bool got_connected(struct ctx *c)
{
	return c->connected > 0;
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "write \"%s\" to %s: %s",
		text, path, strerror(errno));
	close(fd);
}

static void plug(struct ctx *c, const char *status)
{
	write_file(c->status_path, status);
	write_file(c->uevent_path, "change 2b0c7e41-5a8d-4f6e-9c3b-7d1e0f2a4b68 HOTPLUG=1");
	printf("%s: %s, hotplug uevent sent\n", c->status_path, status);
}

static void restore_status(void)
{
	if (restore_ctx && restore_ctx->status_path[0]) {
		int fd = open(restore_ctx->status_path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, "on", 2) != 2)
				fprintf(stderr, "cannot restore %s\n", restore_ctx->status_path);
			close(fd);
		}
	}
}

/* The head's screendump and the output's CPU capture both equal what was drawn. */
static void check_head(struct ctx *c, int i)
{
	struct head *h = &c->h[i];
	char file[64];
	snprintf(file, sizeof(file), "/tmp/heads-%d.ppm", i);
	unsigned w, hh;
	uint32_t *px = screendump(screendump_head(h->out), file, &w, &hh);
	size_t bad = frame_vs_screendump(h->bufs[0], px, w, hh);
	printf("%s (head %d, %ux%u): screendump vs drawn: %zu pixels differ\n",
		dispman_output_get_name(h->out), screendump_head(h->out), w, hh, bad);
	CHECK(bad == 0, "head %d does not show what was drawn", i);
	struct dispman_buffer *f = NULL;
	enum dispman_capture_path used;
	int ret = dispman_output_capture_with(h->out, DISPMAN_CAPTURE_AUTO, &f, &used);
	CHECK(ret == 0, "capture %s: %s", dispman_output_get_name(h->out), strerror(-ret));
	bad = frame_vs_screendump(f, px, w, hh);
	printf("%s: %s capture vs screendump: %zu pixels differ\n",
		dispman_output_get_name(h->out), used == DISPMAN_CAPTURE_CPU ? "CPU" : "writeback",
		bad);
	CHECK(bad == 0, "capture of head %d differs from its screendump", i);
	dispman_buffer_unref(f);
	free(px);
}

int main(void)
{
	struct ctx c = { 0 };
	restore_ctx = &c;
	c.dev = dispman_device_open(check_device());
	CHECK(c.dev, "cannot open the DRM device: %s", strerror(errno));
	const char *path = dispman_device_get_path(c.dev);
	size_t n = 0;
	for (size_t i = 0; i < dispman_device_get_output_count(c.dev) && n < 2; i++) {
		struct dispman_output *o = dispman_device_get_output(c.dev, i);
		if (dispman_output_get_status(o) == DISPMAN_CONNECTED)
			c.h[n++].out = o;
	}
	if (n < 2 || !screendump_available(c.dev) || !path) {
		printf("n/a: needs two connected outputs and a screendump (%zu connected, "
			"screendump %s)\n", n,
			screendump_available(c.dev) ? "available" : "not available");
		dispman_device_destroy(c.dev);
		return SKIP;
	}
	/* different modes: the first head's preferred one, another size on the second */
	c.h[0].mode = dispman_output_get_preferred_mode(c.h[0].out);
	for (size_t i = 0; i < dispman_output_get_mode_count(c.h[1].out); i++) {
		const struct dispman_mode *m = dispman_output_get_mode(c.h[1].out, i);
		if ((m->width != c.h[0].mode->width || m->height != c.h[0].mode->height) &&
		    m->width <= 1024) {
			c.h[1].mode = m;
			break;
		}
	}
	CHECK(c.h[1].mode, "the second head has no mode of another size");
	c.h[0].color = 0x2060a0;
	c.h[1].color = 0xa06020;
	for (int i = 0; i < 2; i++) {
		struct head *h = &c.h[i];
		int ret = dispman_output_enable(h->out, h->mode);
		CHECK(ret == 0, "enable %s: %s", dispman_output_get_name(h->out), strerror(-ret));
		h->bufs[0] = make(&c, h->mode, h->color);
		h->bufs[1] = make(&c, h->mode, h->color);
		CHECK(dispman_output_set_buffer(h->out, h->bufs[0]) == 0, "set buffer");
		dispman_output_set_frame_callback(h->out, on_frame, h);
		h->run = true;
		printf("%s: %ux%u@%u.%03u on CRTC %u\n", dispman_output_get_name(h->out),
			h->mode->width, h->mode->height, h->mode->refresh_mhz / 1000,
			h->mode->refresh_mhz % 1000, dispman_output_get_crtc_id(h->out));
	}
	CHECK(dispman_output_get_crtc_id(c.h[0].out) != dispman_output_get_crtc_id(c.h[1].out),
		"both outputs on one CRTC");
	dispman_device_set_output_callback(c.dev, on_output, &c);
	CHECK(dispman_device_commit(c.dev) == 0, "modeset of both heads");

	/* 1. both heads flip, each at its own pace */
	struct dispman_stats s0 = { .size = sizeof(s0) };
	dispman_device_get_stats(c.dev, &s0);
	want_flips0 = 30;
	want_flips1 = 30;
	double t0 = now_s();
	CHECK(run_until(&c, flips_reached, 120), "heads did not flip: %u and %u flips",
		c.h[0].flips, c.h[1].flips);
	double dt = now_s() - t0;
	struct dispman_stats s1 = { .size = sizeof(s1) };
	dispman_device_get_stats(c.dev, &s1);
	uint64_t commits = s1.commits - s0.commits;
	unsigned f0 = c.h[0].flips, f1 = c.h[1].flips;
	printf("in %.2f s: head 0 %u flips (%.1f/s), head 1 %u flips (%.1f/s), %llu commits\n",
		dt, f0, f0 / dt, f1, f1 / dt, (unsigned long long)commits);
	/* Per-output commits: head 1 stops committing and head 0 goes on alone. A commit of
	 * head 0 must not carry head 1: its flip count stays where it was (one flip may still
	 * be on its way, from its last commit), while head 0 flips 15 more times. (The commit
	 * count is no measure of this: two heads' commits queued from one batch of flips may
	 * share one atomic request, and virtio-gpu often delivers both flips at once.) */
	c.h[1].run = false;
	unsigned held1 = c.h[1].flips;
	want_flips0 = c.h[0].flips + 15;
	want_flips1 = 0;
	CHECK(run_until(&c, flips_reached, 60), "head 0 stopped flipping when head 1 stopped: "
		"%u flips", c.h[0].flips);
	printf("head 1 stopped at %u flips: %u flips after 15 more of head 0\n", held1,
		c.h[1].flips);
	CHECK(c.h[1].flips <= held1 + 1, "head 1 flipped %u times while only head 0 "
		"committed: head 0's commits carried head 1", c.h[1].flips - held1);
	/* head 1 goes again, from the main loop this time */
	c.h[1].run = true;
	CHECK(dispman_output_commit(c.h[1].out) == 0, "commit of head 1 again");
	want_flips0 = c.h[0].flips + 5;
	want_flips1 = c.h[1].flips + 5;
	CHECK(run_until(&c, flips_reached, 60), "head 1 did not flip again: %u flips",
		c.h[1].flips);

	/* 2. both heads show what was drawn */
	check_head(&c, 0);
	check_head(&c, 1);

	/* 3. unplug and plug the second head; the first keeps flipping */
	const char *card = strrchr(path, '/') + 1;
	snprintf(c.status_path, sizeof(c.status_path), "/sys/class/drm/%s-%s/status", card,
		dispman_output_get_name(c.h[1].out));
	snprintf(c.uevent_path, sizeof(c.uevent_path), "/sys/class/drm/%s/uevent", card);
	atexit(restore_status);
	unsigned a0 = c.h[0].flips;
	plug(&c, "off");
	CHECK(run_until(&c, got_disconnected, 30), "no DISCONNECTED callback for %s",
		dispman_output_get_name(c.h[1].out));
	CHECK(!dispman_output_is_enabled(c.h[1].out), "the unplugged output is still enabled");
	want_flips0 = c.h[0].flips + 10;
	want_flips1 = 0;
	CHECK(run_until(&c, flips_reached, 60), "head 0 stopped flipping after the unplug");
	unsigned b_off = c.h[1].flips;
	unsigned a1 = c.h[0].flips;
	printf("head 0 flipped %u times from the unplug to now\n", a1 - a0);

	plug(&c, "on");
	CHECK(run_until(&c, got_connected, 30), "no CONNECTED callback for %s",
		dispman_output_get_name(c.h[1].out));
	CHECK(dispman_output_is_enabled(c.h[1].out), "the output was not restored");
	/* the restored head flips again (its callback commits on) */
	CHECK(dispman_output_commit(c.h[1].out) == 0, "commit of the restored head");
	want_flips0 = c.h[0].flips + 10;
	want_flips1 = b_off + 10;
	CHECK(run_until(&c, flips_reached, 60), "after the replug: head 0 %u, head 1 %u flips",
		c.h[0].flips, c.h[1].flips);
	unsigned a2 = c.h[0].flips;
	printf("head 0 flipped %u times from the replug to now; head 1 %u times since its "
		"return\n", a2 - a1, c.h[1].flips - b_off);
	CHECK(c.disconnected == 1 && c.connected == 1, "callbacks: %u disconnected, %u connected",
		c.disconnected, c.connected);
	check_head(&c, 0);
	check_head(&c, 1);

	for (int i = 0; i < 2; i++) {
		c.h[i].run = false;
		dispman_output_set_frame_callback(c.h[i].out, NULL, NULL);
	}
	dispman_device_dispatch(c.dev, 200);
	for (int i = 0; i < 2; i++) {
		dispman_buffer_unref(c.h[i].bufs[0]);
		dispman_buffer_unref(c.h[i].bufs[1]);
	}
	dispman_device_destroy(c.dev);
	printf("heads: OK\n");
	return 0;
}
