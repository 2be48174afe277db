/* SPDX-License-Identifier: MIT */
/*
 * Scenes of 1 to 20 layers through libdispman on a real KMS device with writeback (vkms in
 * the test guest): more layers than planes, ARGB with per-pixel and plane alpha, the three
 * blend modes, partly off-screen and overlapping layers, a scaled layer. Each scene is read
 * back through writeback and compared pixel by pixel with a reference composed here, on
 * the CPU, independently of src/compose.c (double arithmetic, nearest sampling): exact
 * where no blending happens, within one step per translucent layer elsewhere. Then 30
 * frames with new buffers of the same shape must issue no TEST_ONLY commit, and the
 * second capture must match the second set of buffers.
 *
 * "occlusion" stacks opaque tiles (hidden parts must not be drawn: the compositor's pixel
 * counts) and "moving" then moves and resizes layers without a search (see moving()).
 *
 * Usage: scenes SCENE (one, overlap-4, offscreen, blend, twenty, occlusion, moving).
 * DISPMAN_TEST_DEVICE names the device (default: dispman_device_open(NULL), which
 * honours DISPMAN_DEVICE).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>
#include <dispman/dispman.h>

#include "check.h"
#define MAX_LAYERS 24

struct spec {
	int32_t x, y;
	uint32_t w, h;        /* buffer size */
	uint32_t dw, dh;      /* destination size, 0: w, h */
	uint32_t fmt;
	uint16_t alpha;       /* 0: opaque */
	enum dispman_blend_mode blend;
	bool gradient;        /* per-pixel alpha ramp */
	bool uniform;         /* one colour (for the scaled layer) */
};

struct scene {
	struct spec l[MAX_LAYERS];
	size_t n;
};

static uint32_t W, H;

/* Pixel (x, y) of layer i's buffer in version v, as stored (premultiplied unless COVERAGE). */
static uint32_t pixel(const struct spec *s, size_t i, int v, uint32_t x, uint32_t y)
{
	uint32_t seed = (uint32_t)i * 2654435761u + (uint32_t)v * 40503u;
	uint32_t r = (seed >> 8) & 0xff, g = (seed >> 16) & 0xff, b = (seed >> 24) & 0xff;
	if (!s->uniform) {
		r = (r + x * 3) & 0xff;
		g = (g + y * 5) & 0xff;
		b = (b + (x ^ y)) & 0xff;
	}
	uint32_t a = 0xff;
	if (s->fmt == DRM_FORMAT_ARGB8888 && s->gradient)
		a = (x * 255 / (s->w > 1 ? s->w - 1 : 1) + v * 40) & 0xff;
	if (s->fmt == DRM_FORMAT_ARGB8888 && s->blend != DISPMAN_BLEND_COVERAGE) {
		r = (r * a + 127) / 255;
		g = (g * a + 127) / 255;
		b = (b * a + 127) / 255;
	}
	return a << 24 | r << 16 | g << 8 | b;
}

static struct dispman_buffer *make(struct dispman_device *dev, const struct spec *s, size_t i,
	int v)
{
	struct dispman_buffer *buf = dispman_buffer_create_dumb(dev, s->w, s->h, s->fmt);
	if (!buf)
		FAIL("dumb buffer %ux%u", s->w, s->h);
	uint32_t *px, stride;
	if (dispman_buffer_map(buf, (void **)&px, &stride) < 0)
		FAIL("map");
	for (uint32_t y = 0; y < s->h; y++)
		for (uint32_t x = 0; x < s->w; x++)
			px[y * (stride / 4) + x] = pixel(s, i, v, x, y);
	return buf;
}

/* The reference: every layer over black, per pixel, in double; tol counts translucency. */
static void reference(const struct scene *sc, int v, uint8_t *ref, uint8_t *tol)
{
	for (uint32_t y = 0; y < H; y++) {
		for (uint32_t x = 0; x < W; x++) {
			double c[3] = { 0, 0, 0 };
			int t = 0;
			for (size_t i = 0; i < sc->n; i++) {
				const struct spec *s = &sc->l[i];
				uint32_t dw = s->dw ? s->dw : s->w, dh = s->dh ? s->dh : s->h;
				if ((int64_t)x < s->x || (int64_t)x >= (int64_t)s->x + dw ||
				    (int64_t)y < s->y || (int64_t)y >= (int64_t)s->y + dh)
					continue;
				uint32_t bx = (uint32_t)(((int64_t)x - s->x) * s->w / dw);
				uint32_t by = (uint32_t)(((int64_t)y - s->y) * s->h / dh);
				uint32_t p = pixel(s, i, v, bx, by);
				double pa = s->alpha ? s->alpha / 65535.0 : 1.0;
				double a = s->fmt == DRM_FORMAT_ARGB8888 ? (p >> 24) / 255.0 : 1.0;
				double f[3] = { (p >> 16 & 0xff), (p >> 8 & 0xff), (p & 0xff) };
				for (int k = 0; k < 3; k++) {
					switch (s->fmt == DRM_FORMAT_ARGB8888 ? s->blend :
						DISPMAN_BLEND_NONE) {
					case DISPMAN_BLEND_PREMULTIPLIED:
						c[k] = pa * f[k] + (1 - pa * a) * c[k];
						break;
					case DISPMAN_BLEND_COVERAGE:
						c[k] = pa * a * f[k] + (1 - pa * a) * c[k];
						break;
					case DISPMAN_BLEND_NONE:
						c[k] = pa * f[k] + (1 - pa) * c[k];
						break;
					}
					c[k] = floor(c[k] + 0.5);
				}
				bool opaque = pa >= 1.0 && (a >= 1.0 ||
					s->blend == DISPMAN_BLEND_NONE);
				bool clear = a <= 0.0 && s->blend != DISPMAN_BLEND_NONE;
				if (!opaque && !clear)
					t++;
				else if (opaque)
					t = 0;
			}
			size_t o = ((size_t)y * W + x) * 3;
			for (int k = 0; k < 3; k++)
				ref[o + (size_t)k] = (uint8_t)(c[k] > 255 ? 255 : c[k]);
			tol[(size_t)y * W + x] = (uint8_t)t;
		}
	}
}

static bool flipped;

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	flipped = true;
}

static void commit_wait(struct dispman_device *dev)
{
	flipped = false;
	int ret = dispman_device_commit(dev);
	if (ret < 0)
		FAIL("commit: %s", strerror(-ret));
	for (int i = 0; i < 200 && !flipped; i++)
		dispman_device_dispatch(dev, 50);
	if (!flipped)
		FAIL("no page flip within 10 s");
}

static int compare(struct dispman_output *out, const struct scene *sc, int v)
{
	struct dispman_buffer *frame;
	int ret = dispman_output_capture(out, &frame);
	if (ret < 0)
		FAIL("capture: %s", strerror(-ret));
	uint32_t *px, stride;
	if (dispman_buffer_map(frame, (void **)&px, &stride) < 0)
		FAIL("map capture");
	uint8_t *ref = malloc((size_t)W * H * 3), *tol = malloc((size_t)W * H);
	if (!ref || !tol)
		FAIL("oom");
	reference(sc, v, ref, tol);
	size_t bad = 0, inexact = 0;
	for (uint32_t y = 0; y < H; y++) {
		for (uint32_t x = 0; x < W; x++) {
			uint32_t p = px[y * (stride / 4) + x];
			int got[3] = { (int)(p >> 16 & 0xff), (int)(p >> 8 & 0xff), (int)(p & 0xff) };
			size_t o = ((size_t)y * W + x) * 3;
			int t = tol[(size_t)y * W + x];
			for (int k = 0; k < 3; k++) {
				int d = abs(got[k] - ref[o + (size_t)k]);
				if (d)
					inexact++;
				if (d > t) {
					if (bad < 5)
						fprintf(stderr, "pixel %u,%u channel %d: got %d want %d "
							"(tolerance %d)\n", x, y, k, got[k],
							ref[o + (size_t)k], t);
					bad++;
				}
			}
		}
	}
	printf("  version %d: %zu channel values differ beyond tolerance, %zu within it\n", v,
		bad, inexact);
	free(ref);
	free(tol);
	dispman_buffer_unref(frame);
	return bad ? 1 : 0;
}

static void add(struct scene *sc, struct spec s)
{
	if (!s.fmt)
		s.fmt = DRM_FORMAT_ARGB8888;
	sc->l[sc->n++] = s;
}

static void build(const char *name, struct scene *sc)
{
	add(sc, (struct spec){ .w = W, .h = H, .fmt = DRM_FORMAT_XRGB8888 });
	if (strcmp(name, "one") == 0)
		return;
	if (strcmp(name, "overlap-4") == 0) {
		add(sc, (struct spec){ .x = 100, .y = 100, .w = 300, .h = 200, .gradient = true });
		add(sc, (struct spec){ .x = 250, .y = 180, .w = 300, .h = 200, .gradient = true });
		add(sc, (struct spec){ .x = 200, .y = 250, .w = 200, .h = 300 });
		return;
	}
	if (strcmp(name, "offscreen") == 0) {
		add(sc, (struct spec){ .x = -60, .y = 100, .w = 200, .h = 150, .gradient = true });
		add(sc, (struct spec){ .x = (int32_t)W - 80, .y = 300, .w = 200, .h = 150 });
		add(sc, (struct spec){ .x = 300, .y = -50, .w = 200, .h = 150, .gradient = true });
		add(sc, (struct spec){ .x = 500, .y = (int32_t)H - 40, .w = 200, .h = 150 });
		add(sc, (struct spec){ .x = -30, .y = -30, .w = 100, .h = 100, .alpha = 0x9000 });
		return;
	}
	if (strcmp(name, "blend") == 0) {
		add(sc, (struct spec){ .x = 100, .y = 100, .w = 300, .h = 300, .gradient = true,
			.alpha = 0x8000 });
		add(sc, (struct spec){ .x = 200, .y = 150, .w = 300, .h = 300, .gradient = true,
			.blend = DISPMAN_BLEND_COVERAGE });
		add(sc, (struct spec){ .x = 300, .y = 200, .w = 300, .h = 300, .gradient = true,
			.blend = DISPMAN_BLEND_NONE, .alpha = 0xc000 });
		add(sc, (struct spec){ .x = 350, .y = 350, .w = 200, .h = 200, .gradient = true });
		add(sc, (struct spec){ .x = 700, .y = 100, .w = 64, .h = 64, .dw = 128, .dh = 128,
			.uniform = true });
		return;
	}
	if (strcmp(name, "twenty") == 0) {
		for (int i = 1; i < 20; i++) {
			struct spec s = {
				.x = (i * 97) % 900 - 60, .y = (i * 61) % 650 - 40,
				.w = 120 + (uint32_t)(i % 5) * 30, .h = 100 + (uint32_t)(i % 3) * 40,
				.gradient = i % 2 == 0,
			};
			if (i == 7)
				s.alpha = 0xa000;
			if (i == 11)
				s.blend = DISPMAN_BLEND_COVERAGE;
			if (i == 13) {
				s.dw = s.w * 2;
				s.dh = s.h * 2;
				s.uniform = true;
				s.gradient = false;
			}
			if (i == 16)
				s.fmt = DRM_FORMAT_XRGB8888;
			add(sc, s);
		}
		return;
	}
	if (strcmp(name, "occlusion") == 0 || strcmp(name, "moving") == 0) {
		/* opaque tiles in a stair, each hiding part of the one below (more layers than
		 * planes: the lower ones are composed, hidden parts skipped), translucent ones
		 * over them, one partly off-screen; the top one a uniform colour (it is scaled
		 * in "moving") */
		for (int i = 1; i <= 12; i++)
			add(sc, (struct spec){ .x = 20 + i * 45, .y = 20 + i * 30, .w = 260,
				.h = 200, .fmt = DRM_FORMAT_XRGB8888 });
		add(sc, (struct spec){ .x = 300, .y = 250, .w = 300, .h = 200, .gradient = true });
		add(sc, (struct spec){ .x = 100, .y = 500, .w = 200, .h = 150, .alpha = 0x9000 });
		add(sc, (struct spec){ .x = (int32_t)W - 100, .y = (int32_t)H - 80, .w = 200,
			.h = 150, .fmt = DRM_FORMAT_XRGB8888 });
		/* the largest: the first to get a plane */
		add(sc, (struct spec){ .x = 680, .y = 40, .w = 320, .h = 220,
			.fmt = DRM_FORMAT_XRGB8888, .uniform = true });
		return;
	}
	FAIL("unknown scene %s", name);
}

static uint64_t d(uint64_t a, uint64_t b)
{
	return a - b;
}

/*
 * "moving": rectangles change without a search. The top layer (on a plane) moves, a
 * composed layer moves, then the top layer is shrunk to half size, which vkms cannot scale: that
 * untested commit is refused and searched and committed again in the same call. Each step
 * is read back and compared.
 */
static int moving(struct dispman_device *dev, struct dispman_output *out, struct scene *sc,
	struct dispman_layer **layers)
{
	size_t top = sc->n - 1, low = 1;
	struct dispman_placement p;
	dispman_layer_get_placement(layers[top], &p);
	if (p.state != DISPMAN_PLACEMENT_ON_PLANE)
		FAIL("the top layer is not on a plane");
	dispman_layer_get_placement(layers[low], &p);
	if (p.state != DISPMAN_PLACEMENT_COMPOSITED)
		FAIL("the lowest tile is not composed");
	struct dispman_stats a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	int fails = 0;
	for (int step = 0; step < 2; step++) {
		size_t i = step == 0 ? top : low;
		dispman_device_get_stats(dev, &a);
		for (int f = 0; f < 10; f++) {
			sc->l[i].x -= 3;
			sc->l[i].y += 1;
			dispman_layer_set_destination(layers[i], sc->l[i].x, sc->l[i].y, sc->l[i].w,
				sc->l[i].h);
			commit_wait(dev);
		}
		dispman_device_get_stats(dev, &b);
		printf("%s moved for 10 frames: %llu TEST_ONLY commits, %llu searches, %llu "
			"geometry commits, %llu pixels redrawn, %llu drawn\n",
			step == 0 ? "top layer (on a plane)" : "lowest tile (composed)",
			(unsigned long long)d(b.test_commits, a.test_commits),
			(unsigned long long)d(b.searches, a.searches),
			(unsigned long long)d(b.geometry_commits, a.geometry_commits),
			(unsigned long long)d(b.damaged_pixels, a.damaged_pixels),
			(unsigned long long)d(b.composed_pixels, a.composed_pixels));
		if (b.test_commits != a.test_commits || b.geometry_commits != a.geometry_commits + 10)
			FAIL("moving a layer searched (or committed without the geometry path)");
		if (step == 1 && d(b.composed_pixels, a.composed_pixels) > 10ull * W * H / 4)
			FAIL("moving a 260x200 tile redrew more than a quarter screen a frame");
		fails += compare(out, sc, 1);
	}
	/* half size (smaller: still within a cursor plane's limits): vkms refuses scaling,
	 * which this device has not been told yet */
	dispman_device_get_stats(dev, &a);
	sc->l[top].dw = sc->l[top].w / 2;
	sc->l[top].dh = sc->l[top].h / 2;
	dispman_layer_set_destination(layers[top], sc->l[top].x, sc->l[top].y, sc->l[top].dw,
		sc->l[top].dh);
	commit_wait(dev);
	dispman_device_get_stats(dev, &b);
	dispman_layer_get_placement(layers[top], &p);
	printf("top layer scaled to half size: %llu refused untested, %llu searches, %llu commits, "
		"now %s (reason %d)\n", (unsigned long long)d(b.geometry_refused, a.geometry_refused),
		(unsigned long long)d(b.searches, a.searches),
		(unsigned long long)d(b.commits, a.commits),
		p.state == DISPMAN_PLACEMENT_COMPOSITED ? "composed" : "on a plane", p.reason);
	if (b.geometry_refused != a.geometry_refused + 1 || b.commits != a.commits + 1 ||
	    p.state != DISPMAN_PLACEMENT_COMPOSITED)
		FAIL("the refused geometry commit was not searched and committed again");
	fails += compare(out, sc, 1);
	return fails;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		FAIL("usage: scenes one|overlap-4|offscreen|blend|twenty|occlusion|moving");
	struct dispman_device *dev = dispman_device_open(check_device());
	if (!dev)
		FAIL("open device: %s", strerror(errno));
	/* The guest runs emulated (TCG), a TEST_ONLY commit takes milliseconds there: allow
	 * the default number of tests and 300 ms instead of one frame's time. */
	dispman_device_set_alloc_budget(dev, 0, 300000);
	struct dispman_output *out = dispman_device_get_first_connected_output(dev);
	if (!out || dispman_output_enable(out, NULL) < 0)
		FAIL("no output");
	const struct dispman_mode *mode = dispman_output_get_current_mode(out);
	W = mode->width;
	H = mode->height;
	dispman_output_set_frame_callback(out, on_frame, NULL);

	static struct scene sc;
	build(argv[1], &sc);
	struct dispman_layer *layers[MAX_LAYERS];
	struct dispman_buffer *bufs[2][MAX_LAYERS];
	for (size_t i = 0; i < sc.n; i++) {
		const struct spec *s = &sc.l[i];
		bufs[0][i] = make(dev, s, i, 0);
		bufs[1][i] = make(dev, s, i, 1);
		layers[i] = dispman_layer_create(out);
		dispman_layer_set_buffer(layers[i], bufs[0][i]);
		dispman_layer_set_destination(layers[i], s->x, s->y, s->dw ? s->dw : s->w,
			s->dh ? s->dh : s->h);
		dispman_layer_set_z(layers[i], (int)i);
		if (s->alpha)
			dispman_layer_set_alpha(layers[i], s->alpha);
		dispman_layer_set_blend_mode(layers[i], s->blend);
	}
	struct dispman_stats st0 = { .size = sizeof(st0) }, st1 = { .size = sizeof(st1) };
	dispman_device_get_stats(dev, &st0);
	commit_wait(dev);
	dispman_device_get_stats(dev, &st1);
	size_t on = 0, comp = 0;
	for (size_t i = 0; i < sc.n; i++) {
		struct dispman_placement p;
		dispman_layer_get_placement(layers[i], &p);
		on += p.state == DISPMAN_PLACEMENT_ON_PLANE;
		comp += p.state == DISPMAN_PLACEMENT_COMPOSITED;
		printf("  layer %2zu: %s plane %u reason %d\n", i,
			p.state == DISPMAN_PLACEMENT_ON_PLANE ? "on plane  " :
			p.state == DISPMAN_PLACEMENT_COMPOSITED ? "composited" : "not shown ",
			p.plane_id, p.reason);
		if (p.state == DISPMAN_PLACEMENT_NOT_SHOWN)
			FAIL("layer %zu not shown", i);
	}
	printf("scene %s: %zu layers, %zu on planes, %zu composited, %llu TEST_ONLY commits "
		"for the new shape\n", argv[1], sc.n, on, comp,
		(unsigned long long)(st1.test_commits - st0.test_commits));
	int fails = compare(out, &sc, 0);

	/* steady state: new buffers of the same shape */
	dispman_device_get_stats(dev, &st0);
	for (int f = 0; f < 30; f++) {
		for (size_t i = 0; i < sc.n; i++)
			dispman_layer_set_buffer(layers[i], bufs[(f + 1) & 1][i]);
		commit_wait(dev);
	}
	dispman_device_get_stats(dev, &st1);
	printf("steady state: 30 frames, %llu TEST_ONLY commits, %llu searches, %llu "
		"compositions\n", (unsigned long long)(st1.test_commits - st0.test_commits),
		(unsigned long long)(st1.searches - st0.searches),
		(unsigned long long)(st1.compositions - st0.compositions));
	if (st1.test_commits != st0.test_commits)
		FAIL("steady-state frames issued TEST_ONLY commits");
	if (st1.commits - st0.commits != 30)
		FAIL("%llu commits for 30 frames", (unsigned long long)(st1.commits - st0.commits));
	/* the last frame showed version 0 (f = 29); show version 1 and compare */
	for (size_t i = 0; i < sc.n; i++)
		dispman_layer_set_buffer(layers[i], bufs[1][i]);
	commit_wait(dev);
	fails += compare(out, &sc, 1);
	printf("steady state: %llu pixels redrawn, %llu drawn by the compositor per frame\n",
		(unsigned long long)(st1.damaged_pixels - st0.damaged_pixels) / 30,
		(unsigned long long)(st1.composed_pixels - st0.composed_pixels) / 30);
	/* Each redrawn pixel is drawn once by the top opaque layer there (or black), plus once
	 * per translucent layer over it: nothing hidden is drawn. */
	uint64_t translucent = 0;
	for (size_t i = 0; i < sc.n; i++) {
		const struct spec *s = &sc.l[i];
		struct dispman_placement p;
		dispman_layer_get_placement(layers[i], &p);
		bool opaque = !s->alpha && (s->fmt == DRM_FORMAT_XRGB8888 ||
			s->blend == DISPMAN_BLEND_NONE);
		if (p.state != DISPMAN_PLACEMENT_COMPOSITED || opaque)
			continue;
		int64_t x0 = s->x < 0 ? 0 : s->x, y0 = s->y < 0 ? 0 : s->y;
		int64_t x1 = (int64_t)s->x + (s->dw ? s->dw : s->w);
		int64_t y1 = (int64_t)s->y + (s->dh ? s->dh : s->h);
		x1 = x1 > W ? W : x1;
		y1 = y1 > H ? H : y1;
		if (x1 > x0 && y1 > y0)
			translucent += (uint64_t)((x1 - x0) * (y1 - y0));
	}
	uint64_t drawn = (st1.composed_pixels - st0.composed_pixels) / 30;
	uint64_t redrawn = (st1.damaged_pixels - st0.damaged_pixels) / 30;
	if (drawn > redrawn + translucent)
		FAIL("%llu pixels drawn a frame, more than %llu redrawn + %llu under translucent "
			"composed layers: hidden work was done", (unsigned long long)drawn,
			(unsigned long long)redrawn, (unsigned long long)translucent);
	if (strcmp(argv[1], "moving") == 0)
		fails += moving(dev, out, &sc, layers);

	for (size_t i = 0; i < sc.n; i++) {
		dispman_buffer_unref(bufs[0][i]);
		dispman_buffer_unref(bufs[1][i]);
	}
	dispman_device_destroy(dev);
	if (fails)
		FAIL("scene %s does not match its reference", argv[1]);
	printf("PASS: scene %s matches its CPU reference\n", argv[1]);
	return 0;
}
