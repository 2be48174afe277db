/*
 * dispman_output_capture() on the guest's real drivers (issue 9, issue 13):
 *
 *   capture CASE        (DISPMAN_TEST_DEVICE names the device, else discovery)
 *
 * Cases:
 *   paths  one committed frame (overlays on planes, one partly off screen, one with fully
 *          transparent holes; layers composited on the CPU for plane alpha and straight
 *          alpha) captured by each path there is: where the output has a writeback
 *          connector (vkms), the writeback capture and the forced CPU capture must be
 *          equal pixel for pixel; where QEMU can screendump the device (virtio-gpu), the
 *          CPU capture must equal the screendump pixel for pixel. Spot checks make sure
 *          the frame is the scene (the layers are wider than a cursor plane: QEMU's
 *          screendump shows no cursor plane, the CPU capture does). A second frame adds a semi-transparent overlay on a
 *          plane and reports how far the paths' blending rounds apart (at most 1).
 *   live   a frame callback commits the next frame on every flip; a capture made
 *          meanwhile succeeds, returns the frame that was in flight, callbacks keep
 *          running during it and the app's flips go on after it.
 *
 * Exit 0 on success, 1 on the first failure, 77 when the case does not apply.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <drm_fourcc.h>
#include <dispman/dispman.h>

#include "check.h"
#include "frames.h"

#define SKIP 77

struct ctx {
	struct dispman_device *dev;
	struct dispman_output *out;
	uint32_t w, h;
	unsigned flips;
};

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	(void)out;
	(void)seq;
	(void)t;
	((struct ctx *)data)->flips++;
}

static void setup(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->dev = dispman_device_open(check_device());
	CHECK(c->dev, "cannot open the DRM device: %s", strerror(errno));
	c->out = dispman_device_get_first_connected_output(c->dev);
	CHECK(c->out, "no connected output");
	CHECK(dispman_output_enable(c->out, NULL) == 0, "enable");
	const struct dispman_mode *m = dispman_output_get_current_mode(c->out);
	c->w = m->width;
	c->h = m->height;
	printf("device %s, output %s %ux%u\n", dispman_device_get_path(c->dev),
		dispman_output_get_name(c->out), c->w, c->h);
	dispman_output_set_frame_callback(c->out, on_frame, c);
}

static void wait_flip(struct ctx *c)
{
	frames_wait_flip(c->dev, &c->flips);
}

static struct dispman_buffer *make(struct ctx *c, uint32_t w, uint32_t h, uint32_t fourcc,
	uint32_t (*px)(uint32_t x, uint32_t y))
{
	return frame_make(c->dev, w, h, fourcc, px);
}

static uint32_t px_base(uint32_t x, uint32_t y)
{
	return 0xff000000u | (((x * 0x10101u + y * 0x100u) & 0xffffffu) ^ 0x204080u);
}

static uint32_t px_holes(uint32_t x, uint32_t y)
{
	return ((x / 8 + y / 8) & 1) ? 0 : 0xff000000u | ((x * 0x30507u + y * 0x1100u) & 0xffffffu);
}

static uint32_t px_opaque(uint32_t x, uint32_t y)
{
	return 0xff000000u | ((y * 0x10203u + x) & 0xffffffu);
}

static uint32_t px_soft(uint32_t x, uint32_t y)
{
	uint32_t a = (x * 8 + y) & 0xff;
	return a << 24 | (a / 2) << 16 | (a / 3) << 8 | a / 4;
}

static struct dispman_layer *add(struct ctx *c, struct dispman_buffer *b, int32_t x, int32_t y,
	int z)
{
	struct dispman_layer *l = dispman_layer_create(c->out);
	CHECK(l && dispman_layer_set_buffer(l, b) == 0, "layer");
	dispman_layer_set_destination(l, x, y, 0, 0);
	dispman_layer_set_z(l, z);
	return l;
}

static const char *state_name(struct dispman_layer *l)
{
	struct dispman_placement p;
	CHECK(dispman_layer_get_placement(l, &p) == 0, "placement");
	return p.state == DISPMAN_PLACEMENT_ON_PLANE ? "on a plane" :
		p.state == DISPMAN_PLACEMENT_COMPOSITED ? "composited" : "not shown";
}

static struct dispman_buffer *capture(struct ctx *c, enum dispman_capture_path want,
	enum dispman_capture_path expect)
{
	struct dispman_buffer *f = NULL;
	enum dispman_capture_path used;
	int ret = dispman_output_capture_with(c->out, want, &f, &used);
	CHECK(ret == 0, "capture (path %d): %s", (int)want, strerror(-ret));
	CHECK(used == expect, "capture used path %d, expected %d", (int)used, (int)expect);
	return f;
}

/* Compare the CPU capture with every other view of the frame there is; returns how many
 * comparisons ran. */
static int compare_paths(struct ctx *c, bool wb, bool dump, struct dispman_buffer **cpu_out,
	unsigned *max_diff)
{
	int n = 0;
	struct dispman_buffer *cpu = capture(c, DISPMAN_CAPTURE_CPU, DISPMAN_CAPTURE_CPU);
	*max_diff = 0;
	if (wb) {
		struct dispman_buffer *w = capture(c, DISPMAN_CAPTURE_AUTO,
			DISPMAN_CAPTURE_WRITEBACK);
		unsigned mx;
		size_t bad = frames_diff(w, cpu, &mx);
		printf("writeback vs CPU capture: %zu of %u pixels differ (max channel diff %u)\n",
			bad, c->w * c->h, mx);
		*max_diff = mx > *max_diff ? mx : *max_diff;
		dispman_buffer_unref(w);
		n++;
	}
	if (dump) {
		unsigned w, h;
		uint32_t *px = screendump(screendump_head(c->out), "/tmp/capture-dump.ppm", &w, &h);
		size_t bad = frame_vs_screendump(cpu, px, w, h);
		printf("screendump (head %d) vs CPU capture: %zu of %u pixels differ\n",
			screendump_head(c->out), bad, w * h);
		if (bad)
			*max_diff = 255;
		free(px);
		n++;
	}
	*cpu_out = cpu;
	return n;
}

static int case_paths(void)
{
	struct ctx c;
	setup(&c);
	bool dump = screendump_available(c.dev);
	/* is there a writeback path? ask for it */
	struct dispman_buffer *base = make(&c, c.w, c.h, DRM_FORMAT_XRGB8888, px_base);
	CHECK(dispman_output_set_buffer(c.out, base) == 0, "set buffer");
	/* wider than a 64x64 cursor: QEMU's screendump leaves the cursor plane out */
	struct dispman_buffer *holes = make(&c, 80, 48, DRM_FORMAT_ARGB8888, px_holes);
	struct dispman_buffer *opaque = make(&c, 100, 100, DRM_FORMAT_XRGB8888, px_opaque);
	struct dispman_buffer *soft = make(&c, 80, 40, DRM_FORMAT_ARGB8888, px_soft);
	struct dispman_layer *l1 = add(&c, holes, 100, 50, 1);
	struct dispman_layer *l2 = add(&c, opaque, -10, (int32_t)c.h - 68, 2);
	struct dispman_layer *l3 = add(&c, soft, 300, 300, 3);
	dispman_layer_set_blend_mode(l3, DISPMAN_BLEND_COVERAGE);
	struct dispman_layer *l4 = add(&c, opaque, 500, 100, 4);
	dispman_layer_set_alpha(l4, 0x8000);
	CHECK(dispman_device_commit(c.dev) == 0, "commit");
	wait_flip(&c);
	printf("layers: holes %s, off-screen %s, straight alpha %s, plane alpha %s\n",
		state_name(l1), state_name(l2), state_name(l3), state_name(l4));

	struct dispman_buffer *probe = NULL;
	enum dispman_capture_path used;
	int ret = dispman_output_capture_with(c.out, DISPMAN_CAPTURE_AUTO, &probe, &used);
	CHECK(ret == 0, "capture: %s", strerror(-ret));
	bool wb = used == DISPMAN_CAPTURE_WRITEBACK;
	printf("automatic capture path: %s; screendump: %s\n", wb ? "writeback" : "CPU",
		dump ? "yes" : "no");
	dispman_buffer_unref(probe);

	unsigned mx;
	struct dispman_buffer *cpu;
	int n = compare_paths(&c, wb, dump, &cpu, &mx);
	if (n == 0) {
		printf("n/a: neither writeback nor a screendump to compare the CPU capture with\n");
		return SKIP;
	}
	CHECK(mx == 0, "the paths differ on a frame without semi-transparent plane pixels");
	/* the frame is the scene */
	CHECK((frame_row(cpu, 10)[10] & 0xffffff) == (px_base(10, 10) & 0xffffff), "base pixel");
	CHECK((frame_row(cpu, 50)[100] & 0xffffff) == (px_holes(0, 0) & 0xffffff), "overlay");
	CHECK((frame_row(cpu, 50)[108] & 0xffffff) == (px_base(108, 50) & 0xffffff),
		"hole shows the base");
	CHECK((frame_row(cpu, c.h - 1)[0] & 0xffffff) == (px_opaque(10, 67) & 0xffffff),
		"off-screen layer clipped");
	dispman_buffer_unref(cpu);

	/* semi-transparent premultiplied pixels on a plane: rounding may differ by one */
	struct dispman_layer *l5 = add(&c, soft, 700, 60, 5);
	CHECK(dispman_device_commit(c.dev) == 0, "commit 2");
	wait_flip(&c);
	printf("semi-transparent overlay: %s\n", state_name(l5));
	compare_paths(&c, wb, dump, &cpu, &mx);
	printf("semi-transparent frame: max channel difference between the paths %u\n", mx);
	CHECK(mx <= 1, "blending differs by %u", mx);
	dispman_buffer_unref(cpu);

	dispman_buffer_unref(base);
	dispman_buffer_unref(holes);
	dispman_buffer_unref(opaque);
	dispman_buffer_unref(soft);
	dispman_device_destroy(c.dev);
	printf("capture paths: OK\n");
	return 0;
}

/* ---- live ---- */

struct live {
	struct ctx c;
	struct dispman_buffer *bufs[2];
	unsigned committed;      /* frames committed by the callback */
	int last;                /* index of the buffer committed last */
};

static void live_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	(void)seq;
	(void)t;
	struct live *lv = data;
	lv->c.flips++;
	lv->last = (int)(lv->committed++ & 1);
	CHECK(dispman_output_set_buffer(out, lv->bufs[lv->last]) == 0, "set buffer");
	CHECK(dispman_output_commit(out) == 0, "commit from the callback");
}

static uint32_t px_green(uint32_t x, uint32_t y)
{
	return 0xff00c000u | ((x ^ y) & 0x3f);
}

static uint32_t px_red(uint32_t x, uint32_t y)
{
	return 0xffc00000u | ((x + y) & 0x3f) << 8;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int case_live(void)
{
	struct live lv = { 0 };
	setup(&lv.c);
	struct ctx *c = &lv.c;
	dispman_output_set_frame_callback(c->out, live_frame, &lv);
	lv.bufs[0] = make(c, c->w, c->h, DRM_FORMAT_XRGB8888, px_green);
	lv.bufs[1] = make(c, c->w, c->h, DRM_FORMAT_XRGB8888, px_red);
	CHECK(dispman_output_set_buffer(c->out, lv.bufs[1]) == 0, "set buffer");
	lv.last = 1;
	CHECK(dispman_device_commit(c->dev) == 0, "first commit");
	while (c->flips < 10)
		wait_flip(c);
	/* the frame in flight is the one committed last */
	int in_flight = lv.last;
	unsigned flips0 = c->flips;
	double t0 = now_s();
	struct dispman_buffer *f = NULL;
	enum dispman_capture_path used;
	int ret = dispman_output_capture_with(c->out, DISPMAN_CAPTURE_AUTO, &f, &used);
	double dt = now_s() - t0;
	CHECK(ret == 0, "capture while the app commits: %s", strerror(-ret));
	unsigned during = c->flips - flips0;
	printf("captured through %s in %.2f s; %u frame callback(s) ran during the capture\n",
		used == DISPMAN_CAPTURE_WRITEBACK ? "writeback" : "the CPU", dt, during);
	if (during == 0) {
		/* Without a vblank counter (virtio-gpu) a flip's callback waits for the mode's
		 * next vblank time (dispman_frame_callback): the flip that completed during the
		 * capture has its callback within a few refresh periods after it. */
		struct dispman_output_stats ps = { .size = sizeof(ps) };
		CHECK(dispman_output_get_stats(c->out, &ps) == 0, "output stats");
		CHECK(ps.clock == DISPMAN_PACING_TIMESTAMP, "no frame callback during the capture");
		for (int i = 0; i < 10 && c->flips == flips0; i++)
			CHECK(dispman_device_dispatch(c->dev, 10) >= 0, "dispatch");
		double late = now_s() - t0 - dt;
		CHECK(c->flips > flips0, "no frame callback during the capture, nor within "
			"%.0f ms after it", late * 1e3);
		printf("no vblank counter: the callback of the flip that completed during the "
			"capture ran %.0f ms after it (paced to the next vblank slot)\n", late * 1e3);
	}
	unsigned mx;
	size_t bad = frames_diff(f, lv.bufs[in_flight], &mx);
	printf("capture vs the frame in flight (%s): %zu pixels differ\n",
		in_flight ? "red" : "green", bad);
	CHECK(bad == 0, "the capture is not the frame that was in flight");
	unsigned flips1 = c->flips;
	while (c->flips < flips1 + 10)
		wait_flip(c);
	printf("the app flipped %u more frames after the capture\n", c->flips - flips1);
	dispman_output_set_frame_callback(c->out, NULL, NULL);
	dispman_device_dispatch(c->dev, 200);
	dispman_buffer_unref(f);
	dispman_buffer_unref(lv.bufs[0]);
	dispman_buffer_unref(lv.bufs[1]);
	dispman_device_destroy(c->dev);
	printf("capture live: OK\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		FAIL("usage: capture paths|live");
	if (!strcmp(argv[1], "paths"))
		return case_paths();
	if (!strcmp(argv[1], "live"))
		return case_live();
	FAIL("unknown case %s", argv[1]);
}
