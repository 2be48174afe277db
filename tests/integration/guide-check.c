/* SPDX-License-Identifier: MIT */
/*
 * The pixel check for the guide's programs (doc/guide.md, run in the guest by
 * tests/integration/guide-run.sh). Each program is extracted from the page unchanged and
 * linked with this file and -Wl,--wrap=dispman_device_dispatch,--wrap=dispman_device_destroy:
 * the program calls these wrappers, which take the screen of its first connected output
 * once (writeback on a device with a writeback connector, QEMU's screendump where the host
 * can take one of the device, else FAIL) and check it against what the page says the
 * program shows.
 *
 * Environment:
 *   GUIDE_CHECK=hello|layers|loop|camera|master|none   what the screen must show
 *   GUIDE_STOP_AFTER=S   the screen is taken S seconds after the first dispatch, then every
 *                        dispatch returns -ECANCELED: the program's loop ends as on an error
 *                        (programs that run until a signal); without it the screen is taken
 *                        when the program destroys its device (programs that end by
 *                        themselves)
 *   GUIDE_SHOT=FILE.ppm  where the screen is written (for the log)
 *
 * Prints "guide-check: PASS <name>" once the screen matched; exits 1 with FAIL otherwise,
 * and at exit when a check was asked for but the program never got to it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dispman/dispman.h>

#include "check.h"
#include "screendump.h"

int __real_dispman_device_dispatch(struct dispman_device *dev, int timeout_ms);
void __real_dispman_device_destroy(struct dispman_device *dev);
int __wrap_dispman_device_dispatch(struct dispman_device *dev, int timeout_ms);
void __wrap_dispman_device_destroy(struct dispman_device *dev);

static bool checked, stopped;
static double first_dispatch = -1;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const char *check_name(void)
{
	const char *n = getenv("GUIDE_CHECK");
	return n && *n ? n : "none";
}

/* the screen as RGB, from either source */
struct shot {
	uint32_t w, h;
	uint8_t *rgb;
};

static void px(const struct shot *s, uint32_t x, uint32_t y, int rgb[3])
{
	CHECK(x < s->w && y < s->h, "pixel %u,%u outside the %ux%u screen", x, y, s->w, s->h);
	const uint8_t *p = s->rgb + ((size_t)y * s->w + x) * 3;
	rgb[0] = p[0], rgb[1] = p[1], rgb[2] = p[2];
}

static void expect(const struct shot *s, uint32_t x, uint32_t y, uint32_t want, int tol)
{
	int p[3];
	px(s, x, y, p);
	int w[3] = { (int)(want >> 16 & 0xff), (int)(want >> 8 & 0xff), (int)(want & 0xff) };
	for (int i = 0; i < 3; i++)
		CHECK(abs(p[i] - w[i]) <= tol, "%s: pixel %u,%u is %02x%02x%02x, the guide says "
			"%06x (within %d)", check_name(), x, y, p[0], p[1], p[2], want, tol);
}

static void write_ppm(const struct shot *s)
{
	const char *path = getenv("GUIDE_SHOT");
	if (!path || !*path)
		return;
	FILE *f = fopen(path, "wb");
	if (!f)
		return;
	fprintf(f, "P6\n%u %u\n255\n", s->w, s->h);
	fwrite(s->rgb, 3, (size_t)s->w * s->h, f);
	fclose(f);
}

static void take(struct dispman_device *dev, struct shot *s)
{
	struct dispman_output *out = dispman_device_get_first_connected_output(dev);
	CHECK(out, "guide-check: no connected output");
	const char *node = dispman_device_get_path(dev);
	if (screendump_available(node)) {
		const char *path = getenv("GUIDE_SHOT");
		CHECK(path && *path, "guide-check: GUIDE_SHOT is not set");
		CHECK(screendump_take(0, path) == 0, "guide-check: screendump");
		struct rgb_image img;
		CHECK(ppm_read(path, &img) == 0, "guide-check: read %s", path);
		s->w = img.width, s->h = img.height, s->rgb = img.rgb;
		printf("guide-check: QEMU's screendump of head 0, %ux%u\n", s->w, s->h);
		return;
	}
	struct dispman_buffer *frame = NULL;
	enum dispman_capture_path used;
	int ret = dispman_output_capture_with(out, DISPMAN_CAPTURE_WRITEBACK, &frame, &used);
	CHECK(ret == 0, "guide-check: %s has no screendump and no writeback: %s", node,
		strerror(-ret));
	uint32_t *p, stride;
	CHECK(dispman_buffer_map(frame, (void **)&p, &stride) == 0, "guide-check: map");
	s->w = dispman_buffer_get_width(frame), s->h = dispman_buffer_get_height(frame);
	s->rgb = malloc((size_t)s->w * s->h * 3);
	CHECK(s->rgb, "guide-check: out of memory");
	for (uint32_t y = 0; y < s->h; y++)
		for (uint32_t x = 0; x < s->w; x++) {
			uint32_t v = p[(size_t)y * stride / 4 + x];
			uint8_t *q = s->rgb + ((size_t)y * s->w + x) * 3;
			q[0] = v >> 16 & 0xff, q[1] = v >> 8 & 0xff, q[2] = v & 0xff;
		}
	dispman_buffer_unref(frame);
	printf("guide-check: writeback of %s, %ux%u\n", dispman_output_get_name(out), s->w, s->h);
	write_ppm(s);
}

/* vivid's default picture: 75% colour bars, eight across its width */
static const uint32_t bars[8] = {
	0xbfbfbf, 0xbfbf00, 0x00bfbf, 0x00bf00, 0xbf00bf, 0xbf0000, 0x0000bf, 0x000000,
};

static void check_screen(const struct shot *s)
{
	const char *n = check_name();
	uint32_t w = s->w, h = s->h;
	if (!strcmp(n, "hello")) {
		/* section 1: row y is grey y * 255 / height */
		for (uint32_t i = 0; i < 5; i++) {
			uint32_t y = i * (h - 1) / 4, g = y * 255 / h;
			for (uint32_t x = 0; x < w; x += w / 7)
				expect(s, x, y, g << 16 | g << 8 | g, 0);
		}
	} else if (!strcmp(n, "layers")) {
		/* section 2: dark blue, a red 256x256 box at 100,100 at 75% alpha over it */
		expect(s, 50, 50, 0x000080, 2);
		expect(s, w - 1, h - 1, 0x000080, 2);
		expect(s, 99, 200, 0x000080, 2);
		expect(s, 356, 200, 0x000080, 2);
		expect(s, 100, 100, 0xbf0020, 3);
		expect(s, 228, 228, 0xbf0020, 3);
		expect(s, 355, 355, 0xbf0020, 3);
	} else if (!strcmp(n, "loop")) {
		/* section 2's loop: 120 frames, the last one all grey 120 */
		for (uint32_t y = 0; y < h; y += h / 8)
			for (uint32_t x = 0; x < w; x += w / 8)
				expect(s, x, y, 0x787878, 0);
	} else if (!strcmp(n, "camera")) {
		/* section 3: the camera's 640x480 at 0,0 (vivid's colour bars, converted from
		 * whatever format the camera chose), black around it */
		for (int i = 0; i < 8; i++)
			expect(s, (uint32_t)(40 + 80 * i), 300, bars[i], 24);
		expect(s, 700, 300, 0x000000, 0);
		expect(s, 300, 600, 0x000000, 0);
	} else if (!strcmp(n, "master")) {
		/* section 6: a new dumb buffer full-screen: zeroed, black */
		for (uint32_t y = 0; y < h; y += h / 8)
			for (uint32_t x = 0; x < w; x += w / 8)
				expect(s, x, y, 0x000000, 0);
	} else {
		FAIL("guide-check: unknown GUIDE_CHECK %s", n);
	}
	printf("guide-check: PASS %s\n", n);
	fflush(stdout);
}

static void check_now(struct dispman_device *dev)
{
	if (checked || !strcmp(check_name(), "none"))
		return;
	checked = true;
	struct shot s = { 0 };
	take(dev, &s);
	check_screen(&s);
	free(s.rgb);
}

int __wrap_dispman_device_dispatch(struct dispman_device *dev, int timeout_ms)
{
	const char *stop = getenv("GUIDE_STOP_AFTER");
	if (!stop || !*stop)
		return __real_dispman_device_dispatch(dev, timeout_ms);
	if (stopped)
		return -ECANCELED;
	double t = now();
	if (first_dispatch < 0)
		first_dispatch = t;
	double left = first_dispatch + atof(stop) - t;
	if (left <= 0) {
		check_now(dev);
		stopped = true;
		printf("guide-check: stopping the program's loop (dispatch returns -ECANCELED)\n");
		fflush(stdout);
		return -ECANCELED;
	}
	int ms = (int)(left * 1000) + 1;
	return __real_dispman_device_dispatch(dev, timeout_ms < 0 || timeout_ms > ms ?
		ms : timeout_ms);
}

void __wrap_dispman_device_destroy(struct dispman_device *dev)
{
	if (dev)
		check_now(dev);
	__real_dispman_device_destroy(dev);
}

static void at_exit(void)
{
	if (!checked && strcmp(check_name(), "none")) {
		fprintf(stderr, "FAIL: guide-check: the program ended before its screen was "
			"checked\n");
		_exit(1);
	}
}

__attribute__((constructor)) static void init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	atexit(at_exit);
}
