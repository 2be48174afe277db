/* SPDX-License-Identifier: MIT */
/*
 * hello: the simple case. Open the default device, enable the preferred mode on the first
 * connected output, draw into a CPU-mapped buffer, show it, wait for the flip.
 *
 * Testing extras (kept apart in capture_and_check()):
 *   --capture FILE   capture the output through writeback and write FILE (.png or PPM)
 *   --check          compare the captured frame with the drawing; exit 1 on any mismatch
 *   --then CMD       run the shell command CMD while the frame is still shown (a test's
 *                    screendump, say); exit 1 when it fails
 */
#include <dispman/dispman.h>
#include <drm_fourcc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

static uint32_t pattern(uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
	static const uint32_t bars[] = { 0xffffff, 0xffff00, 0x00ffff, 0x00ff00,
		0xff00ff, 0xff0000, 0x0000ff, 0x000000 };
	if (y < h / 2)
		return bars[x * 8 / w];
	uint32_t v = (x * 255 / w) & 0xff;
	return y < h * 3 / 4 ? v << 16 | v << 8 | v : ((x / 32 + y / 32) % 2 ? 0x808080 : 0x202020);
}

static void draw(struct dispman_buffer *buf)
{
	void *data;
	uint32_t stride, w = dispman_buffer_get_width(buf), h = dispman_buffer_get_height(buf);
	if (dispman_buffer_map(buf, &data, &stride) < 0)
		return;
	for (uint32_t y = 0; y < h; y++) {
		uint32_t *row = (uint32_t *)(void *)((char *)data + (size_t)y * stride);
		for (uint32_t x = 0; x < w; x++)
			row[x] = pattern(x, y, w, h);
	}
}

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	*(bool *)data = true;
}

/* Testing extras: capture through writeback, save, compare. Returns the exit status. */
static int capture_and_check(struct dispman_output *out, struct dispman_buffer *drawn,
	const char *path, bool check)
{
	struct dispman_buffer *frame = NULL;
	int ret = dispman_output_capture(out, &frame);
	if (ret < 0) {
		fprintf(stderr, "hello: capture failed: %s\n", strerror(-ret));
		return 1;
	}
	int status = 0;
	if (path && image_write(frame, path) < 0)
		status = 1;
	if (check) {
		void *a, *b;
		uint32_t sa, sb, w = dispman_buffer_get_width(drawn);
		uint32_t h = dispman_buffer_get_height(drawn);
		size_t mismatches = 0;
		if (dispman_buffer_map(drawn, &a, &sa) < 0 || dispman_buffer_map(frame, &b, &sb) < 0 ||
		    dispman_buffer_get_width(frame) != w || dispman_buffer_get_height(frame) != h) {
			fprintf(stderr, "hello: captured frame cannot be compared\n");
			status = 1;
		} else {
			for (uint32_t y = 0; y < h; y++) {
				const uint32_t *ra = (const uint32_t *)(void *)((char *)a + (size_t)y * sa);
				const uint32_t *rb = (const uint32_t *)(void *)((char *)b + (size_t)y * sb);
				for (uint32_t x = 0; x < w; x++)
					mismatches += (ra[x] & 0xffffff) != (rb[x] & 0xffffff);
			}
			printf("hello: %zu mismatching pixels of %u\n", mismatches, w * h);
			if (mismatches)
				status = 1;
		}
	}
	dispman_buffer_unref(frame);
	return status;
}

int main(int argc, char **argv)
{
	const char *capture_path = NULL, *then = NULL;
	bool check = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--capture") == 0 && i + 1 < argc) {
			capture_path = argv[++i];
		} else if (strcmp(argv[i], "--then") == 0 && i + 1 < argc) {
			then = argv[++i];
		} else if (strcmp(argv[i], "--check") == 0) {
			check = true;
		} else {
			fprintf(stderr, "usage: hello [--capture FILE] [--check] [--then CMD]\n");
			return 2;
		}
	}

	/* ---- the simple case ---- */
	struct dispman_device *dev = dispman_device_open(NULL);
	struct dispman_output *out = dev ? dispman_device_get_first_connected_output(dev) : NULL;
	if (!out || dispman_output_enable(out, NULL) < 0)
		return 1;
	const struct dispman_mode *mode = dispman_output_get_current_mode(out);
	struct dispman_buffer *buf = dispman_buffer_create_dumb(dev, mode->width, mode->height,
		DRM_FORMAT_XRGB8888);
	if (!buf)
		return 1;
	draw(buf);
	dispman_output_set_buffer(out, buf);
	bool shown = false;
	dispman_output_set_frame_callback(out, on_frame, &shown);
	if (dispman_device_commit(dev) < 0)
		return 1;
	while (!shown)
		if (dispman_device_dispatch(dev, -1) < 0)
			return 1;
	/* ---- end of the simple case ---- */

	int status = 0;
	if (capture_path || check)
		status = capture_and_check(out, buf, capture_path, check);
	if (then) {
		fflush(stdout);
		int rc = system(then);
		if (rc != 0) {
			fprintf(stderr, "hello: '%s' failed (status %#x)\n", then, (unsigned)rc);
			status = 1;
		}
	}
	dispman_buffer_unref(buf);
	dispman_device_destroy(dev);
	return status;
}
