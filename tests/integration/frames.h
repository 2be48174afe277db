/*
 * Frames for the guest tests: XRGB8888 buffers compared pixel by pixel, and QEMU's
 * screendump of a virtio-gpu head (tests/vm/screendump, $DISPMAN_SCREENDUMP) as the
 * independent oracle. Header-only; every failure exits through FAIL (check.h).
 */
#ifndef DISPMAN_TEST_FRAMES_H
#define DISPMAN_TEST_FRAMES_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dispman/dispman.h>

#include "check.h"

static inline const uint32_t *frame_row(struct dispman_buffer *b, uint32_t y)
{
	void *data;
	uint32_t stride;
	CHECK(dispman_buffer_map(b, &data, &stride) == 0, "cannot map a frame");
	return (const uint32_t *)(const void *)((const char *)data + (size_t)y * stride);
}

/* Pixels (colour only) that differ between two frames of one size; *max_diff the largest
 * channel difference. */
static inline size_t frames_diff(struct dispman_buffer *a, struct dispman_buffer *b,
	unsigned *max_diff)
{
	uint32_t w = dispman_buffer_get_width(a), h = dispman_buffer_get_height(a);
	CHECK(w == dispman_buffer_get_width(b) && h == dispman_buffer_get_height(b),
		"frames of different sizes: %ux%u and %ux%u", w, h, dispman_buffer_get_width(b),
		dispman_buffer_get_height(b));
	size_t bad = 0;
	unsigned mx = 0;
	for (uint32_t y = 0; y < h; y++) {
		const uint32_t *ra = frame_row(a, y), *rb = frame_row(b, y);
		for (uint32_t x = 0; x < w; x++) {
			uint32_t pa = ra[x] & 0xffffff, pb = rb[x] & 0xffffff;
			if (pa == pb)
				continue;
			bad++;
			for (int s = 0; s < 24; s += 8) {
				int d = (int)((pa >> s) & 0xff) - (int)((pb >> s) & 0xff);
				unsigned ad = (unsigned)(d < 0 ? -d : d);
				mx = ad > mx ? ad : mx;
			}
		}
	}
	if (max_diff)
		*max_diff = mx;
	return bad;
}

/* A w x h dumb buffer of a 32-bit format, every pixel px(x, y) (caller destroys); asserts. */
static inline struct dispman_buffer *frame_make(struct dispman_device *dev, uint32_t w,
	uint32_t h, uint32_t fourcc, uint32_t (*px)(uint32_t x, uint32_t y))
{
	struct dispman_buffer *b = dispman_buffer_create_dumb(dev, w, h, fourcc);
	CHECK(b, "create %ux%u: %s", w, h, strerror(errno));
	void *data;
	uint32_t stride;
	CHECK(dispman_buffer_map(b, &data, &stride) == 0, "map");
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			((uint32_t *)(void *)((char *)data + (size_t)y * stride))[x] = px(x, y);
	return b;
}

/* Dispatches the device's events until *flips (counted by the caller's frame callback)
 * grows, for 20 s at most; asserts. */
static inline void frames_wait_flip(struct dispman_device *dev, const unsigned *flips)
{
	unsigned before = *flips;
	for (int i = 0; i < 200 && *flips == before; i++)
		CHECK(dispman_device_dispatch(dev, 100) >= 0, "dispatch");
	CHECK(*flips > before, "no flip within 20 s");
}

/* Whether QEMU can screendump the heads of the device the test opened. */
static inline bool screendump_available(struct dispman_device *dev)
{
	const char *tool = getenv("DISPMAN_SCREENDUMP");
	const char *card = getenv("DISPMAN_SCREENDUMP_DEVICE");
	const char *path = dispman_device_get_path(dev);
	struct stat a, b;
	return tool && *tool && card && path && stat(card, &a) == 0 && stat(path, &b) == 0 &&
		a.st_rdev == b.st_rdev;
}

/* The virtio-gpu head of an output: its connector's index ("Virtual-2" is head 1). */
static inline int screendump_head(struct dispman_output *out)
{
	const char *name = dispman_output_get_name(out);
	const char *dash = strrchr(name, '-');
	CHECK(dash && atoi(dash + 1) >= 1, "output name %s has no index", name);
	return atoi(dash + 1) - 1;
}

/* QEMU's screendump of a head as 0xRRGGBB pixels (caller frees); asserts. */
static inline uint32_t *screendump(int head, const char *file, unsigned *w, unsigned *h)
{
	char headarg[16];
	snprintf(headarg, sizeof(headarg), "%d", head);
	pid_t pid = fork();
	CHECK(pid >= 0, "fork failed");
	if (pid == 0) {
		execl(getenv("DISPMAN_SCREENDUMP"), "screendump", "--head", headarg, file,
			(char *)NULL);
		_exit(127);
	}
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		"screendump of head %d failed (status 0x%x)", head, st);
	FILE *f = fopen(file, "rb");
	CHECK(f, "cannot read %s", file);
	unsigned maxval = 0;
	CHECK(fscanf(f, "P6 %u %u %u", w, h, &maxval) == 3 && maxval == 255 &&
		fgetc(f) != EOF, "%s: not a binary PPM", file);
	size_t n = (size_t)*w * *h;
	uint8_t *rgb = malloc(n * 3);
	uint32_t *px = malloc(n * sizeof(*px));
	CHECK(rgb && px, "out of memory");
	CHECK(fread(rgb, 3, n, f) == n, "%s: short PPM", file);
	fclose(f);
	for (size_t i = 0; i < n; i++)
		px[i] = (uint32_t)rgb[3 * i] << 16 | (uint32_t)rgb[3 * i + 1] << 8 | rgb[3 * i + 2];
	free(rgb);
	return px;
}

/* Pixels where a frame differs from a screendump of the same size; asserts the size. */
static inline size_t frame_vs_screendump(struct dispman_buffer *b, const uint32_t *px,
	unsigned w, unsigned h)
{
	CHECK(w == dispman_buffer_get_width(b) && h == dispman_buffer_get_height(b),
		"screendump is %ux%u, the frame %ux%u", w, h, dispman_buffer_get_width(b),
		dispman_buffer_get_height(b));
	size_t bad = 0;
	for (unsigned y = 0; y < h; y++) {
		const uint32_t *row = frame_row(b, y);
		for (unsigned x = 0; x < w; x++)
			bad += (row[x] & 0xffffff) != px[(size_t)y * w + x];
	}
	return bad;
}

#endif
