/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the unit tests: a fixture on the mock libdrm's vkms-like device, a log
 * handler that records every message, leak checks, and a main() that runs one named case
 * (the way meson registers each case as its own test) or all of them.
 */
#ifndef DISPMAN_UNIT_H
#define DISPMAN_UNIT_H

#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dispman/dispman.h>

#include "mock-drm.h"
#include "unit-main.h"


struct unit_fixture {
	int mock_fd;                    /* the test's own fd of the mock device */
	struct dispman_device *dev;     /* NULL until unit_open_device() */
	struct dispman_output *out;     /* the first connected output, if any */
	int fds_before;                 /* open fds before the test (leak check) */
	const void *param;              /* the table entry of a table-driven case */
};

/* Setup: the vkms-like mock device, opened as a dispman_device (f->dev, f->out). */
int unit_setup_vkms(void **state);
/* Setup: the vkms-like mock device, not opened (the test opens it). */
int unit_setup_vkms_closed(void **state);
/* Setup: an empty mock device; the test builds it and calls unit_open_device(). */
int unit_setup_empty(void **state);
/* Teardown: destroys the device, asserts the mock's live counters and the open fds are back
 * to where they were. */
int unit_teardown(void **state);

/* Opens f->mock_fd as a dispman_device; asserts success. */
void unit_open_device(struct unit_fixture *f);

/* Adds two heads to the mock: an HDMI connector with the one mode modes[i], its own CRTC
 * (id in crtc[i]) and its own XRGB8888 primary plane (id in primary[i], when primary is
 * not NULL). The caller may add more, then calls unit_open_device(). */
void unit_add_two_heads(const drmModeModeInfo modes[2], uint32_t crtc[2], uint32_t primary[2]);

/* Builds on the (empty) mock device a small device without writeback: one CRTC, one connected HDMI connector (1024x768
 * preferred, 640x480), one primary plane (XR24, AR24). */
void unit_build_plain_device(void);

/* Number of open fds of the process. */
int unit_count_fds(void);

/* ---- log capture ---- */

/* Forget the messages recorded so far. */
void unit_log_clear(void);
/* Number of messages at level or more severe (ERROR < WARNING < INFO < DEBUG). */
int unit_log_count(enum dispman_log_level level);
/* Whether a message at level or more severe contains needle (NULL: any message). */
bool unit_log_find(enum dispman_log_level level, const char *needle);

/* A failure path must leave an error message behind. */
#define assert_error_logged(needle) \
	_assert_true(unit_log_find(DISPMAN_LOG_ERROR, needle), "error logged: " #needle, \
		__FILE__, __LINE__)

/* ---- mock state ---- */

/* Asserts that the mock holds no framebuffer, blob, GEM handle or buffer. */
void unit_assert_no_live_objects(void);
/* Poll the device fd for up to timeout_ms and dispatch; returns dispatch()'s result. */
int unit_dispatch(struct dispman_device *dev, int timeout_ms);
/* Dispatches until no more events arrive within 50 ms; returns the number handled. */
int unit_drain(struct dispman_device *dev);

/* A new memfd of size bytes (the stand-in of a dma-buf). */
int unit_memfd(size_t size);

/* The test pattern: color ^ (x * 0x10101 + y * 0x100), 24 bits. */
uint32_t unit_pattern(uint32_t x, uint32_t y, uint32_t color);

/* A dumb buffer filled with unit_pattern(x, y, color); asserts. */
struct dispman_buffer *unit_pattern_buffer(struct dispman_device *dev, uint32_t w, uint32_t h,
	uint32_t fourcc, uint32_t color);

/* Enables the output with its preferred mode, shows a full-screen pattern buffer of color,
 * commits and waits for the flip (asserts). The caller owns the returned buffer. */
struct dispman_buffer *unit_show_first_frame(struct unit_fixture *f, uint32_t color);

/* Captures the output (writeback) and asserts that the 32x16 rectangle at (100, 50) is
 * want and the pattern of unit_show_first_frame(f, 0) is around it. */
void unit_check_rect(struct unit_fixture *f, uint32_t want);

/* Release callbacks recorded in order (the first 8 buffers, and how many in all). */
struct unit_release_log {
	struct dispman_buffer *bufs[8];
	int n;
};

/* A dispman_buffer_release_callback; data is a struct unit_release_log. */
void unit_record_release(struct dispman_buffer *buf, void *data);

#endif
