/*
 * The screendump oracle itself: show a known pattern in a libdispman dumb buffer on every
 * connected output of the device, take QEMU's screendump of each head (tests/vm/screendump)
 * and compare every pixel. This proves the oracle the other tests use on devices without
 * writeback.
 *
 * Usage: screendump-heads [--expect-mismatch]
 *   --expect-mismatch  compare each head with the pattern of another seed: the test then
 *                      passes only when every head differs, so the suite shows that the
 *                      comparison can fail.
 * The device is $DISPMAN_DEVICE (default /dev/dri/card0); its heads must be the ones the
 * host screendumps (DISPMAN_SCREENDUMP_DEVICE), else exit 77. QEMU's head N is the
 * device's N-th connector (virtio-gpu makes one connector per scanout, in order).
 */
#include <dispman/dispman.h>
#include <drm_fourcc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "screendump.h"

#define MAX_HEADS 16

static uint32_t pattern(uint32_t x, uint32_t y, unsigned seed)
{
	uint32_t r = (x + seed * 50) & 0xff, g = (y + seed * 90) & 0xff;
	uint32_t b = ((x ^ y) * (seed + 1)) & 0xff;
	return r << 16 | g << 8 | b;
}

static void draw(struct dispman_buffer *buf, unsigned seed)
{
	void *data;
	uint32_t stride, w = dispman_buffer_get_width(buf), h = dispman_buffer_get_height(buf);
	CHECK(dispman_buffer_map(buf, &data, &stride) == 0, "cannot map the buffer");
	for (uint32_t y = 0; y < h; y++) {
		uint32_t *row = (uint32_t *)(void *)((char *)data + (size_t)y * stride);
		for (uint32_t x = 0; x < w; x++)
			row[x] = 0xff000000u | pattern(x, y, seed);
	}
}

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	(*(unsigned *)data)++;
}

int main(int argc, char **argv)
{
	bool expect_mismatch = argc > 1 && strcmp(argv[1], "--expect-mismatch") == 0;
	const char *path = getenv("DISPMAN_DEVICE");
	if (!path || !*path)
		path = "/dev/dri/card0";
	if (!screendump_available(path)) {
		printf("n/a: the host cannot screendump %s\n", path);
		return 77;
	}
	struct dispman_device *dev = dispman_device_open(path);
	CHECK(dev, "cannot open %s", path);

	size_t n = dispman_device_get_output_count(dev);
	CHECK(n > 0 && n <= MAX_HEADS, "%zu outputs", n);
	struct dispman_buffer *bufs[MAX_HEADS] = { 0 };
	unsigned shown = 0, heads = 0;
	for (size_t i = 0; i < n; i++) {
		struct dispman_output *out = dispman_device_get_output(dev, i);
		if (dispman_output_get_status(out) != DISPMAN_CONNECTED)
			continue;
		CHECK(dispman_output_enable(out, NULL) == 0, "cannot enable %s",
			dispman_output_get_name(out));
		const struct dispman_mode *m = dispman_output_get_current_mode(out);
		bufs[i] = dispman_buffer_create_dumb(dev, m->width, m->height, DRM_FORMAT_XRGB8888);
		CHECK(bufs[i], "cannot create a %ux%u dumb buffer", m->width, m->height);
		draw(bufs[i], (unsigned)i + 1);
		CHECK(dispman_output_set_buffer(out, bufs[i]) == 0, "set_buffer");
		dispman_output_set_frame_callback(out, on_frame, &shown);
		printf("head %zu: %s %ux%u, pattern seed %zu\n", i, dispman_output_get_name(out),
			m->width, m->height, i + 1);
		heads++;
	}
	CHECK(heads > 0, "no connected output");
	CHECK(dispman_device_commit(dev) == 0, "commit failed");
	while (shown < heads)
		CHECK(dispman_device_dispatch(dev, 5000) > 0 || shown >= heads,
			"only %u of %u frames shown within 5 s", shown, heads);

	const char *dir = getenv("DISPMAN_VM_OUT") ? getenv("DISPMAN_VM_OUT") : "/tmp";
	int status = 0;
	for (size_t i = 0; i < n; i++) {
		if (!bufs[i])
			continue;
		char file[512];
		snprintf(file, sizeof(file), "%s/screendump-head%zu%s.ppm", dir, i,
			expect_mismatch ? "-mismatch" : "");
		CHECK(screendump_take((unsigned)i, file) == 0, "no screendump of head %zu", i);
		struct rgb_image img;
		CHECK(ppm_read(file, &img) == 0, "cannot read %s", file);
		uint32_t w = dispman_buffer_get_width(bufs[i]), h = dispman_buffer_get_height(bufs[i]);
		struct dispman_buffer *want = bufs[i];
		if (expect_mismatch) { /* the pattern of another seed, in a buffer never shown */
			want = dispman_buffer_create_dumb(dev, w, h, DRM_FORMAT_XRGB8888);
			CHECK(want, "cannot create the comparison buffer");
			draw(want, (unsigned)i + 2);
		}
		void *data;
		uint32_t stride, fx = 0, fy = 0;
		CHECK(dispman_buffer_map(want, &data, &stride) == 0, "map");
		size_t diff = rgb_image_diff_xrgb(&img, data, stride, w, h, &fx, &fy);
		printf("head %zu: screendump %ux%u, %zu of %u pixels differ from seed %zu%s\n", i,
			img.width, img.height, diff, w * h, expect_mismatch ? i + 2 : i + 1,
			expect_mismatch ? " (a pattern never shown)" : "");
		if (diff && !expect_mismatch) {
			const uint8_t *p = img.width == w && img.height == h ?
				img.rgb + ((size_t)fy * w + fx) * 3 : NULL;
			fprintf(stderr, "FAIL: head %zu differs, first at %u,%u: screen %06x, drawn %06x\n",
				i, fx, fy, p ? (unsigned)(p[0] << 16 | p[1] << 8 | p[2]) : 0u,
				pattern(fx, fy, (unsigned)i + 1));
			status = 1;
		}
		if (!diff && expect_mismatch) {
			fprintf(stderr, "FAIL: head %zu matched a pattern it never showed\n", i);
			status = 1;
		}
		if (want != bufs[i])
			dispman_buffer_unref(want);
		rgb_image_free(&img);
	}
	for (size_t i = 0; i < n; i++)
		dispman_buffer_unref(bufs[i]);
	dispman_device_destroy(dev);
	return status;
}
