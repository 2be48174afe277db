/* SPDX-License-Identifier: MIT */
/*
 * The kiosk runtime on a real KMS device (vkms in the test guest). One executable, one case
 * per run:
 *
 *   runtime pacing   300 frames at the mode's refresh, each committed from the previous
 *                    frame's callback (in time). Sequences strictly increase; every vblank
 *                    between the first and the last flip is accounted for as a frame, a
 *                    missed vblank or a late frame's gap; one frame deliberately committed
 *                    three periods late is counted late, not missed. Prints the counts.
 *   runtime master   a child process takes DRM master mid-run (the parent's fd drops it,
 *                    the child sets it and shows red), then exits: the parent pauses with
 *                    one error line and no commit reaching the kernel, regains master by
 *                    itself, restores with one modeset, and writeback shows its screen.
 *   runtime hotplug  the connector is forced off and a synthetic uevent sent: the output
 *                    callback says DISCONNECTED, the CRTC is turned off, the buffers on
 *                    screen are released, and the app's commits touch nothing; forced back
 *                    to "detect" (+ uevent): CONNECTED, the output is enabled again with
 *                    its layers, and writeback shows the screen. Along the way an input
 *                    mapped to the output, its cursor layer destroyed while set, and the
 *                    device destroyed before the input must not crash (ASan).
 *
 * Every case exits 1 on the first failure. DISPMAN_TEST_DEVICE names the device (default
 * dispman_device_open(NULL), which honours DISPMAN_DEVICE). Needs root (DRM master, sysfs connector status).
 */
#include <dispman/dispman.h>
#include <dispman/input.h>

#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=1:abort_on_error=0";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

#include "check.h"
#include "kms-util.h"

#define BG_COLOR 0x00306090u
#define BOX_COLOR 0x00f0c020u
#define CHILD_COLOR 0x00ff0000u
#define BOX_X 100
#define BOX_Y 120
#define BOX_W 200
#define BOX_H 150

static char opened_path[256];

/* The node of the device under test, once opened (see setup()). */
static const char *device_path(void)
{
	return opened_path[0] ? opened_path : check_device_node();
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- log counting ---- */

static unsigned log_errors;
static char last_error[512];

static void log_handler(enum dispman_log_level level, const char *fmt, va_list args,
	void *data)
{
	char msg[512];
	vsnprintf(msg, sizeof(msg), fmt, args);
	if (level == DISPMAN_LOG_ERROR) {
		log_errors++;
		snprintf(last_error, sizeof(last_error), "%s", msg);
	}
	if (level <= DISPMAN_LOG_INFO)
		fprintf(stderr, "  log %d: %s\n", level, msg);
}

/* ---- scene ---- */

struct ctx {
	struct dispman_device *dev;
	struct dispman_output *out;
	struct dispman_buffer *bg[2];
	struct dispman_buffer *box;
	struct dispman_layer *box_layer;
	unsigned frames;
	unsigned releases;
	uint64_t last_seq;
};

static struct dispman_buffer *solid(struct dispman_device *dev, uint32_t w, uint32_t h,
	uint32_t color)
{
	struct dispman_buffer *buf = dispman_buffer_create_dumb(dev, w, h, DRM_FORMAT_XRGB8888);
	CHECK(buf, "dumb buffer %ux%u: %s", w, h, strerror(errno));
	void *data;
	uint32_t stride;
	CHECK(dispman_buffer_map(buf, &data, &stride) == 0, "map failed");
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			((uint32_t *)(void *)((char *)data + (size_t)y * stride))[x] = color;
	return buf;
}

static void on_release(struct dispman_buffer *buf, void *data)
{
	struct ctx *c = data;
	c->releases++;
}

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	struct ctx *c = data;
	c->frames++;
	c->last_seq = seq;
}

static void setup(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->dev = dispman_device_open(check_device());
	CHECK(c->dev, "cannot open %s: %s", check_device() ? check_device() : "the DRM device",
		strerror(errno));
	if (dispman_device_get_path(c->dev))
		snprintf(opened_path, sizeof(opened_path), "%s", dispman_device_get_path(c->dev));
	c->out = dispman_device_get_first_connected_output(c->dev);
	CHECK(c->out, "no connected output");
	CHECK(dispman_output_enable(c->out, NULL) == 0, "enable failed");
	const struct dispman_mode *m = dispman_output_get_current_mode(c->out);
	printf("output %s %ux%u@%u.%03u\n", dispman_output_get_name(c->out), m->width, m->height,
		m->refresh_mhz / 1000, m->refresh_mhz % 1000);
	for (int i = 0; i < 2; i++) {
		c->bg[i] = solid(c->dev, m->width, m->height, BG_COLOR);
		dispman_buffer_set_release_callback(c->bg[i], on_release, c);
	}
	c->box = solid(c->dev, BOX_W, BOX_H, BOX_COLOR);
	c->box_layer = dispman_layer_create(c->out);
	CHECK(c->box_layer, "layer_create failed");
	dispman_layer_set_buffer(c->box_layer, c->box);
	dispman_layer_set_destination(c->box_layer, BOX_X, BOX_Y, 0, 0);
	dispman_layer_set_z(c->box_layer, 1);
	CHECK(dispman_output_set_buffer(c->out, c->bg[0]) == 0, "set_buffer failed");
	dispman_output_set_frame_callback(c->out, on_frame, c);
	int ret = dispman_device_commit(c->dev);
	CHECK(ret == 0, "first commit: %s", strerror(-ret));
}

static void teardown(struct ctx *c)
{
	dispman_buffer_unref(c->bg[0]);
	dispman_buffer_unref(c->bg[1]);
	dispman_buffer_unref(c->box);
	dispman_device_destroy(c->dev);
}

/* Dispatch until cond(c) or timeout; fails on timeout. */
static void wait_until(struct ctx *c, bool (*cond)(struct ctx *c), int timeout_ms,
	const char *what)
{
	int64_t end = now_ms() + timeout_ms;
	while (!cond(c)) {
		CHECK(now_ms() < end, "%s: not within %d ms", what, timeout_ms);
		int n = dispman_device_dispatch(c->dev, 50);
		CHECK(n >= 0, "dispatch: %s", strerror(-n));
	}
}

static unsigned target_frames;
static bool frames_reached(struct ctx *c)
{
	return c->frames >= target_frames;
}

/* Every accepted commit (one output: one flip event each) has completed. */
static bool idle(struct ctx *c)
{
	struct dispman_stats s = { .size = sizeof(s) };
	dispman_device_get_stats(c->dev, &s);
	return s.flips >= s.commits;
}

/* n more frames (a commit made while a flip is pending is queued), then idle. */
static void run_frames(struct ctx *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		dispman_output_set_buffer(c->out, c->bg[(c->frames + 1) % 2]);
		int ret = dispman_device_commit(c->dev);
		CHECK(ret == 0, "commit: %s", strerror(-ret));
		target_frames = c->frames + 1;
		wait_until(c, frames_reached, 10000, "page flip");
	}
	wait_until(c, idle, 10000, "last page flip");
}

/* Writeback: the background and the box must be on screen. */
static void check_screen(struct ctx *c, uint32_t bg, const char *what)
{
	struct dispman_buffer *frame = NULL;
	int ret = dispman_output_capture(c->out, &frame);
	CHECK(ret == 0, "%s: capture: %s", what, strerror(-ret));
	void *data;
	uint32_t stride;
	CHECK(dispman_buffer_map(frame, &data, &stride) == 0, "map capture");
	uint32_t w = dispman_buffer_get_width(frame), h = dispman_buffer_get_height(frame);
	size_t wrong = 0;
	for (uint32_t y = 0; y < h; y += 3) {
		const uint32_t *row = (const uint32_t *)(const void *)((const char *)data +
			(size_t)y * stride);
		for (uint32_t x = 0; x < w; x += 3) {
			bool in_box = x >= BOX_X && x < BOX_X + BOX_W && y >= BOX_Y &&
				y < BOX_Y + BOX_H;
			uint32_t want = in_box ? BOX_COLOR : bg;
			if ((row[x] & 0xffffffu) != want && wrong++ < 5)
				fprintf(stderr, "  %s: pixel %u,%u = %06x, expected %06x\n", what, x, y,
					row[x] & 0xffffffu, want);
		}
	}
	printf("%s: writeback %ux%u, %zu wrong pixels (every 3rd row and column)\n", what, w, h,
		wrong);
	CHECK(wrong == 0, "%s: the screen is not the app's", what);
	dispman_buffer_unref(frame);
}

/* ---- pacing ---- */

struct pacing {
	struct ctx c;
	unsigned n;
	unsigned late_at;          /* frame whose next commit is delayed */
	uint64_t first_seq, prev_seq;
	struct timespec first_time, last_time;
	struct dispman_output_stats before_late, after_late;
	bool order_ok;
};

static void pacing_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	struct pacing *p = data;
	if (p->c.frames == 0) {
		p->first_seq = seq;
		p->first_time = *t;
	} else if (seq <= p->prev_seq) {
		p->order_ok = false;
	}
	p->prev_seq = seq;
	p->last_time = *t;
	p->c.frames++;
	if (p->c.frames == p->late_at + 2)
		dispman_output_get_stats(out, &p->after_late);
	if (p->c.frames > p->n)
		return;
	if (p->c.frames == p->late_at) {
		dispman_output_get_stats(out, &p->before_late);
		/* three refresh periods late: the next vblank is long gone */
		struct timespec d = { .tv_nsec = 50 * 1000000L };
		nanosleep(&d, NULL);
	}
	dispman_output_set_buffer(out, p->c.bg[p->c.frames % 2]);
	int ret = dispman_device_commit(p->c.dev);
	CHECK(ret == 0, "commit from the frame callback: %s", strerror(-ret));
}

static bool pacing_done(struct ctx *c)
{
	struct pacing *p = (struct pacing *)(void *)c;
	return c->frames > p->n;
}

static void test_pacing(void)
{
	struct pacing p = { .n = 300, .late_at = 150, .order_ok = true,
		.before_late = { .size = sizeof(p.before_late) },
		.after_late = { .size = sizeof(p.after_late) } };
	setup(&p.c);
	dispman_output_set_frame_callback(p.c.out, pacing_frame, &p);
	int64_t t0 = now_ms();
	wait_until(&p.c, pacing_done, 300 * 1000, "300 frames");
	int64_t t1 = now_ms();
	struct dispman_output_stats s = { .size = sizeof(s) };
	dispman_output_get_stats(p.c.out, &s);
	uint64_t span = p.prev_seq - p.first_seq;
	printf("pacing: %u flips (the first one a modeset), sequences %" PRIu64 "..%" PRIu64
		" (%" PRIu64 " vblanks), %.1f s wall\n", p.c.frames, p.first_seq, p.prev_seq, span,
		(double)(t1 - t0) / 1000.0);
	printf("pacing: stats frames %" PRIu64 ", missed vblanks %" PRIu64 ", late frames %"
		PRIu64 ", skipped vblanks %" PRIu64 ", refresh %u mHz\n", s.frames,
		s.missed_vblanks, s.late_frames, s.skipped_vblanks, s.refresh_mhz);
	printf("pacing: the deliberately late frame: missed %" PRIu64 " -> %" PRIu64 ", late %"
		PRIu64 " -> %" PRIu64 ", skipped %" PRIu64 " -> %" PRIu64 "\n",
		p.before_late.missed_vblanks, p.after_late.missed_vblanks, p.before_late.late_frames,
		p.after_late.late_frames, p.before_late.skipped_vblanks,
		p.after_late.skipped_vblanks);
	CHECK(s.frames == p.c.frames, "stats count %" PRIu64 " frames, callbacks %u", s.frames,
		p.c.frames);
	CHECK(s.last_sequence == p.prev_seq, "last sequence %" PRIu64 " != %" PRIu64,
		s.last_sequence, p.prev_seq);
	uint64_t counted = (s.frames - 1) + s.missed_vblanks + s.skipped_vblanks;
	if (crtc_has_vblank_counter(dispman_device_get_drm_fd(p.c.dev),
		    dispman_output_get_crtc_id(p.c.out))) {
		CHECK(p.order_ok, "sequence numbers not strictly increasing");
		CHECK(s.clock == DISPMAN_PACING_SEQUENCE, "pacing clock %d, want the sequence",
			(int)s.clock);
		/* Every vblank of the run is a frame or a counted gap. */
		CHECK(span == counted, "%" PRIu64 " vblanks != %" PRIu64 " frames + %" PRIu64
			" missed + %" PRIu64 " skipped", span, s.frames - 1, s.missed_vblanks,
			s.skipped_vblanks);
	} else {
		/* No vblank counter (the kernel says so; every flip carries sequence 0): the
		 * stats must count with the timestamps, and the vblanks they count must add up
		 * to the run's time in refresh periods (each flip's gap is rounded to whole
		 * periods: allow a tenth). */
		CHECK(p.first_seq == 0 && p.prev_seq == 0, "sequences %" PRIu64 "..%" PRIu64
			" without a vblank counter", p.first_seq, p.prev_seq);
		CHECK(s.clock == DISPMAN_PACING_TIMESTAMP, "pacing clock %d, want the timestamps",
			(int)s.clock);
		double ms = (double)(p.last_time.tv_sec - p.first_time.tv_sec) * 1e3 +
			(double)(p.last_time.tv_nsec - p.first_time.tv_nsec) / 1e6;
		double periods = ms * (double)s.refresh_mhz / 1e6;
		double tol = periods / 10 > 3 ? periods / 10 : 3;
		counted -= s.early_flips; /* flips that shared a refresh period */
		printf("pacing: no vblank counter; %.1f ms between the first and last flip = %.1f "
			"periods, counted %" PRIu64 " (%" PRIu64 " early flips)\n", ms, periods,
			counted, s.early_flips);
		CHECK((double)counted >= periods - tol && (double)counted <= periods + tol,
			"counted %" PRIu64 " vblanks for %.1f refresh periods", counted, periods);
	}
	/* the committed mode's refresh, whatever the driver's preferred mode is (vkms 60 Hz,
	 * virtio-gpu 75 Hz) */
	const struct dispman_mode *cur = dispman_output_get_current_mode(p.c.out);
	CHECK(cur && s.refresh_mhz == cur->refresh_mhz && s.refresh_mhz > 20000,
		"refresh %u mHz, the mode's is %u mHz", s.refresh_mhz, cur ? cur->refresh_mhz : 0);
	/* The late frame is late, and its gap is not a miss. */
	CHECK(p.after_late.late_frames >= p.before_late.late_frames + 1,
		"the delayed frame was not counted late");
	CHECK(p.after_late.skipped_vblanks >= p.before_late.skipped_vblanks + 2,
		"the delayed frame skipped fewer than 2 vblanks");
	CHECK(s.late_frames < s.frames, "every frame late");
	printf("PASS runtime pacing: %" PRIu64 " missed vblanks over %u frames\n",
		s.missed_vblanks, p.n);
	teardown(&p.c);
}

/* ---- master ---- */

static void child_take_master(int from_parent, int to_parent)
{
	char msg;
	if (read(from_parent, &msg, 1) != 1)
		_exit(10);
	int fd = open(device_path(), O_RDWR | O_CLOEXEC);
	if (fd < 0)
		_exit(11);
	if (drmSetMaster(fd) != 0) {
		fprintf(stderr, "child: drmSetMaster: %s\n", strerror(errno));
		_exit(12);
	}
	struct dispman_device *dev = dispman_device_create_for_fd(fd);
	if (!dev)
		_exit(13);
	struct dispman_output *out = dispman_device_get_first_connected_output(dev);
	if (!out || dispman_output_enable(out, NULL) != 0)
		_exit(14);
	const struct dispman_mode *m = dispman_output_get_current_mode(out);
	struct dispman_buffer *red = solid(dev, m->width, m->height, CHILD_COLOR);
	dispman_output_set_buffer(out, red);
	if (dispman_device_commit(dev) != 0)
		_exit(15);
	/* Red is on screen: check it through writeback. */
	struct dispman_buffer *frame = NULL;
	if (dispman_output_capture(out, &frame) != 0)
		_exit(16);
	void *data;
	uint32_t stride;
	dispman_buffer_map(frame, &data, &stride);
	uint32_t px = ((uint32_t *)data)[m->width / 2 + (size_t)(m->height / 2) * stride / 4];
	printf("child: master taken, screen centre %06x\n", px & 0xffffffu);
	fflush(stdout);
	if ((px & 0xffffffu) != CHILD_COLOR)
		_exit(17);
	msg = 't';
	if (write(to_parent, &msg, 1) != 1)
		_exit(18);
	/* Hold master until the parent has seen it paused. */
	if (read(from_parent, &msg, 1) != 1)
		_exit(19);
	dispman_buffer_unref(frame);
	dispman_buffer_unref(red);
	dispman_device_destroy(dev);
	close(fd); /* its framebuffers go; master is free */
	_exit(0);
}

static bool not_paused(struct ctx *c)
{
	return !dispman_device_is_paused(c->dev);
}

static void test_master(void)
{
	struct ctx c;
	setup(&c);
	run_frames(&c, 30);
	int to_child[2], to_parent[2];
	CHECK(pipe(to_child) == 0 && pipe(to_parent) == 0, "pipe");
	fflush(stdout);
	pid_t pid = fork();
	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		child_take_master(to_child[0], to_parent[1]);
	}
	close(to_child[0]);
	close(to_parent[1]);

	/* Our fd gives master up; the child takes it and shows red. */
	CHECK(drmDropMaster(dispman_device_get_drm_fd(c.dev)) == 0, "drmDropMaster: %s",
		strerror(errno));
	char msg = 'g';
	CHECK(write(to_child[1], &msg, 1) == 1, "pipe write");
	CHECK(read(to_parent[0], &msg, 1) == 1, "the child did not take master (exit status "
		"tells why)");
	printf("master: child is master; the app keeps committing for 1.5 s\n");

	struct dispman_stats s0 = { .size = sizeof(s0) };
	dispman_device_get_stats(c.dev, &s0);
	unsigned errors0 = log_errors;
	int64_t end = now_ms() + 1500;
	unsigned attempts = 0, refused = 0, queued = 0;
	while (now_ms() < end) {
		dispman_output_set_buffer(c.out, c.bg[attempts % 2]);
		int ret = dispman_device_commit(c.dev);
		attempts++;
		refused += ret == -EACCES;
		queued += ret == 0; /* a flip was pending: the commit fails in dispatch */
		CHECK(ret == 0 || ret == -EACCES, "commit while master is elsewhere: %s",
			strerror(-ret));
		CHECK(dispman_device_dispatch(c.dev, 20) >= 0, "dispatch failed");
	}
	struct dispman_stats s1 = { .size = sizeof(s1) };
	dispman_device_get_stats(c.dev, &s1);
	printf("master: %u commits attempted, %u refused with EACCES, %u error lines, kernel saw "
		"%" PRIu64 " failed commits\n", attempts, refused, log_errors - errors0,
		s1.failed_commits - s0.failed_commits);
	CHECK(dispman_device_is_paused(c.dev), "not paused while another process is master");
	CHECK(refused + queued == attempts && queued <= 1, "%u commits returned 0 without master",
		queued);
	CHECK(log_errors - errors0 == 1, "%u error lines (an error storm?)", log_errors - errors0);
	CHECK(s1.failed_commits - s0.failed_commits <= 1 + (s1.test_commits - s0.test_commits),
		"paused commits reached the kernel: %" PRIu64 " failed",
		s1.failed_commits - s0.failed_commits);

	/* The child lets go and exits: the device takes master back by itself. */
	CHECK(write(to_child[1], &msg, 1) == 1, "pipe write");
	int status;
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed: status %#x", status);
	struct dispman_stats s2 = { .size = sizeof(s2) };
	dispman_device_get_stats(c.dev, &s2);
	unsigned frames0 = c.frames;
	wait_until(&c, not_paused, 5000, "regaining master");
	target_frames = frames0 + 1;
	wait_until(&c, frames_reached, 10000, "the restoring frame");
	struct dispman_stats s3 = { .size = sizeof(s3) };
	dispman_device_get_stats(c.dev, &s3);
	printf("master: regained; %" PRIu64 " modeset(s), %" PRIu64 " commit(s) to restore\n",
		s3.modesets - s2.modesets, s3.commits - s2.commits);
	CHECK(s3.modesets - s2.modesets == 1, "restore took %" PRIu64 " modesets",
		s3.modesets - s2.modesets);
	CHECK(s3.commits - s2.commits == 1, "restore took %" PRIu64 " commits",
		s3.commits - s2.commits);
	run_frames(&c, 10);
	check_screen(&c, BG_COLOR, "after master came back");
	close(to_child[1]);
	close(to_parent[0]);
	printf("PASS runtime master\n");
	teardown(&c);
}

/* ---- hotplug ---- */

static unsigned ev_connected, ev_disconnected, ev_changed;

static void on_output(struct dispman_device *dev, struct dispman_output *out,
	enum dispman_output_event event, void *data)
{
	static const char *const names[] = { "?", "connected", "disconnected", "changed" };
	printf("  output callback: %s %s (enabled %d, %zu modes)\n",
		dispman_output_get_name(out), names[event], dispman_output_is_enabled(out),
		dispman_output_get_mode_count(out));
	ev_connected += event == DISPMAN_OUTPUT_CONNECTED;
	ev_disconnected += event == DISPMAN_OUTPUT_DISCONNECTED;
	ev_changed += event == DISPMAN_OUTPUT_CHANGED;
}

/* Whatever happens, leave the connector as it was for the tests that follow. */
static char status_path[256];
static void restore_connector(void)
{
	if (!status_path[0])
		return;
	int fd = open(status_path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "detect", 6) < 0)
			perror("restore connector status");
		close(fd);
	}
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
	ssize_t n = write(fd, text, strlen(text));
	CHECK(n == (ssize_t)strlen(text), "write \"%s\" to %s: %s", text, path, strerror(errno));
	close(fd);
}

/* Force the connector's status and send the hotplug uevent the kernel would. */
static void plug(struct ctx *c, const char *status)
{
	const char *dev = strrchr(device_path(), '/');
	char path[256];
	snprintf(path, sizeof(path), "/sys/class/drm/%s-%s/status", dev + 1,
		dispman_output_get_name(c->out));
	if (!status_path[0]) {
		snprintf(status_path, sizeof(status_path), "%s", path);
		atexit(restore_connector);
	}
	write_file(path, status);
	snprintf(path, sizeof(path), "/sys/class/drm/%s/uevent", dev + 1);
	write_file(path, "change 6f1c0b3e-9d5a-4c1e-8f3b-2a7d4e5c6b10 HOTPLUG=1");
	printf("hotplug: %s, uevent sent\n", status);
}

static unsigned want_disconnected, want_connected;
static bool got_disconnected(struct ctx *c)
{
	return ev_disconnected >= want_disconnected;
}
static bool got_connected(struct ctx *c)
{
	return ev_connected >= want_connected;
}

static uint64_t crtc_active(int fd, uint32_t crtc)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, crtc,
		DRM_MODE_OBJECT_CRTC);
	CHECK(props, "CRTC properties: %s", strerror(errno));
	uint64_t v = 2;
	for (uint32_t i = 0; i < props->count_props; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && strcmp(p->name, "ACTIVE") == 0)
			v = props->prop_values[i];
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return v;
}

static void test_hotplug(void)
{
	struct ctx c;
	setup(&c);
	dispman_device_set_output_callback(c.dev, on_output, NULL);
	uint32_t crtc = dispman_output_get_crtc_id(c.out);

	/* An input mapped to the output, driving a cursor layer that gets destroyed. */
	struct dispman_input *input = dispman_input_create_path(c.dev, NULL, 0);
	CHECK(input || errno == ENOTSUP, "input: %s", strerror(errno));
	struct dispman_buffer *cbuf = solid(c.dev, 64, 64, BOX_COLOR);
	if (input) {
		CHECK(dispman_input_set_output(input, c.out) == 0, "input set_output");
		struct dispman_layer *cursor = dispman_layer_create(c.out);
		dispman_layer_set_buffer(cursor, cbuf);
		CHECK(dispman_input_set_cursor_layer(input, cursor, 0, 0) == 0, "cursor layer");
		dispman_layer_destroy(cursor); /* unsets it */
		dispman_input_warp_pointer(input, 500, 400);
	}
	run_frames(&c, 10);

	/* Unplug. */
	want_disconnected = 1;
	unsigned releases0 = c.releases;
	plug(&c, "off");
	wait_until(&c, got_disconnected, 10000, "DISCONNECTED callback");
	wait_until(&c, idle, 10000, "the disabling commit");
	/* the disabling commit completes; the buffer it showed is released */
	int64_t end = now_ms() + 2000;
	while (now_ms() < end && (c.releases == releases0 || crtc_active(
		dispman_device_get_drm_fd(c.dev), crtc) != 0))
		CHECK(dispman_device_dispatch(c.dev, 50) >= 0, "dispatch");
	CHECK(dispman_output_get_status(c.out) == DISPMAN_DISCONNECTED, "status not disconnected");
	CHECK(!dispman_output_is_enabled(c.out), "output still enabled after unplug");
	CHECK(crtc_active(dispman_device_get_drm_fd(c.dev), crtc) == 0, "CRTC still active");
	CHECK(c.releases > releases0, "the buffer on screen was not released");
	double px = 500, py = 400;
	if (input)
		dispman_input_get_pointer_position(input, &px, &py);
	printf("hotplug: unplugged; CRTC off, %u buffer release(s); pointer at %.0f,%.0f\n",
		c.releases - releases0, px, py);
	CHECK(px == 500 && py == 400, "pointer moved by the unplug");

	/* The app goes on committing: nothing reaches the kernel, nothing fails. */
	struct dispman_stats s0 = { .size = sizeof(s0) }, s1 = { .size = sizeof(s1) };
	dispman_device_get_stats(c.dev, &s0);
	unsigned frames0 = c.frames;
	for (int i = 0; i < 20; i++) {
		dispman_output_set_buffer(c.out, c.bg[i % 2]);
		int ret = dispman_device_commit(c.dev);
		CHECK(ret == 0, "commit while unplugged: %s", strerror(-ret));
		CHECK(dispman_device_dispatch(c.dev, 16) >= 0, "dispatch");
	}
	dispman_device_get_stats(c.dev, &s1);
	CHECK(s1.commits == s0.commits && s1.failed_commits == s0.failed_commits &&
		s1.test_commits == s0.test_commits && c.frames == frames0,
		"commits touched the unplugged output: commits %" PRIu64 " -> %" PRIu64
		", failed %" PRIu64 " -> %" PRIu64 ", tests %" PRIu64 " -> %" PRIu64
		", frames %u -> %u", s0.commits, s1.commits, s0.failed_commits,
		s1.failed_commits, s0.test_commits, s1.test_commits, frames0, c.frames);

	/* Replug. */
	want_connected = 1;
	plug(&c, "detect");
	wait_until(&c, got_connected, 10000, "CONNECTED callback");
	CHECK(dispman_output_is_enabled(c.out), "output not enabled again");
	target_frames = c.frames + 1;
	wait_until(&c, frames_reached, 10000, "first frame after replug");
	run_frames(&c, 10);
	check_screen(&c, BG_COLOR, "after replug");
	printf("hotplug: callbacks connected %u, disconnected %u, changed %u\n", ev_connected,
		ev_disconnected, ev_changed);
	CHECK(ev_connected == 1 && ev_disconnected == 1, "unexpected callbacks");

	/* Destroy the device before the input: the input must survive it. */
	dispman_buffer_unref(cbuf);
	teardown(&c);
	if (input)
		dispman_input_warp_pointer(input, 1, 1);
	dispman_input_destroy(input);
	printf("PASS runtime hotplug\n");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	dispman_log_set_handler(log_handler, NULL);
	dispman_log_set_level(DISPMAN_LOG_INFO);
	const char *which = argc > 1 ? argv[1] : "";
	if (strcmp(which, "pacing") == 0)
		test_pacing();
	else if (strcmp(which, "master") == 0)
		test_master();
	else if (strcmp(which, "hotplug") == 0)
		test_hotplug();
	else
		FAIL("usage: runtime pacing|master|hotplug");
	return 0;
}
