/* SPDX-License-Identifier: MIT */
/*
 * Atomic commits on the mock libdrm: ALLOW_MODESET only when a modeset is needed, MODE_ID
 * blobs prepared then applied or rolled back, a commit while a flip is pending queued rather
 * than refused, EINTR/EAGAIN retried, DRM master loss, the stats against the mock's own
 * counters, and frame callbacks.
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "buffer.h"
#include "clock.h"
#include "commit.h"
#include "compose.h"
#include "device.h"
#include "dispatch.h"
#include "event.h"
#include "layer.h"
#include "master.h"
#include "output.h"
#include "output-private.h" /* the frames' shared rests */
#include "plane.h"
#include "proposal.h"
#include "request.h"

static struct mock_drm_counters counters(void)
{
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	return c;
}

static struct dispman_stats stats(struct dispman_device *dev)
{
	struct dispman_stats s = { .size = sizeof(s) };
	dispman_device_get_stats(dev, &s);
	return s;
}

static uint64_t prop(uint32_t obj, const char *name)
{
	uint64_t v = 0;
	assert_true(mock_drm_get_prop(obj, name, &v));
	return v;
}

static struct dispman_buffer *next_frame(struct unit_fixture *f, uint32_t color)
{
	const struct dispman_mode *m = dispman_output_get_current_mode(f->out);
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, m->width, m->height,
		DRM_FORMAT_XRGB8888, color);
	assert_int_equal(dispman_output_set_buffer(f->out, buf), 0);
	return buf;
}

/* Nothing enabled: nothing to commit, nothing reaches the kernel. */
static void test_nothing_enabled(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(dispman_output_commit(f->out), 0);
	assert_int_equal(counters().commits, 0);
	assert_int_equal(stats(f->dev).commits, 0);
}

static void test_modeset_only_when_needed(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0x000000);
	assert_int_equal(counters().modesets, 1);
	assert_int_equal(stats(f->dev).modesets, 1);
	assert_int_equal(prop(MOCK_VKMS_CRTC, "ACTIVE"), 1);
	assert_int_equal(prop(MOCK_VKMS_VIRTUAL, "CRTC_ID"), MOCK_VKMS_CRTC);
	assert_int_equal(dispman_output_get_crtc_id(f->out), MOCK_VKMS_CRTC);

	/* Page flips: no ALLOW_MODESET (the mock counts real modesets, the stats flags). */
	for (int i = 1; i <= 3; i++) {
		struct dispman_buffer *b = next_frame(f, (uint32_t)i * 0x111111);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(unit_drain(f->dev), 1);
		assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(b));
		dispman_buffer_unref(b);
	}
	assert_int_equal(counters().modesets, 1);
	assert_int_equal(stats(f->dev).modesets, 1);
	assert_int_equal(stats(f->dev).commits, 4);

	/* Enabling again with the same mode is no modeset either. */
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_buffer *b = next_frame(f, 0x222222);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(counters().modesets, 1);
	assert_int_equal(stats(f->dev).modesets, 1);

	/* A new mode is. */
	struct dispman_mode m = { .width = 800, .height = 600 };
	assert_int_equal(dispman_output_enable(f->out, &m), 0);
	struct dispman_buffer *c = next_frame(f, 0x333333);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(counters().modesets, 2);
	assert_int_equal(stats(f->dev).modesets, 2);

	/* So is disabling. */
	assert_int_equal(dispman_output_disable(f->out), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(counters().modesets, 3);
	assert_int_equal(stats(f->dev).modesets, 3);
	assert_int_equal(prop(MOCK_VKMS_CRTC, "ACTIVE"), 0);
	assert_int_equal(prop(MOCK_VKMS_VIRTUAL, "CRTC_ID"), 0);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), 0);
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
	dispman_buffer_unref(c);
}

/* MODE_ID: a blob is created for a modeset, the old one destroyed once the new one is
 * applied, and the last one destroyed with the output's disabling. */
static void test_mode_blob_applied(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	assert_int_equal(counters().live_blobs, 1);
	uint64_t blob1 = prop(MOCK_VKMS_CRTC, "MODE_ID");
	assert_int_not_equal(blob1, 0);

	/* A page flip keeps the blob. */
	struct dispman_buffer *b = next_frame(f, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(counters().live_blobs, 1);
	assert_int_equal(prop(MOCK_VKMS_CRTC, "MODE_ID"), blob1);

	struct dispman_mode m = { .width = 640, .height = 480 };
	assert_int_equal(dispman_output_enable(f->out, &m), 0);
	struct dispman_buffer *c = next_frame(f, 2);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	uint64_t blob2 = prop(MOCK_VKMS_CRTC, "MODE_ID");
	assert_int_not_equal(blob2, blob1);
	assert_int_equal(counters().live_blobs, 1); /* the old one was destroyed */

	assert_int_equal(dispman_output_disable(f->out), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(counters().live_blobs, 0);
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
	dispman_buffer_unref(c);
}

/* A refused modeset rolls the new blob back and keeps the old one on screen. */
struct rollback_case {
	const char *name;
	const char *func;
	int err;
	const char *log;
};

static const struct rollback_case rollback_cases[] = {
	{ "commit@mode-blob-rollback-apply", "drmModeAtomicCommit/apply", EINVAL,
		"atomic commit" },
	{ "commit@mode-blob-rollback-nomem", "drmModeAtomicCommit/apply", ENOMEM,
		"atomic commit" },
	{ "commit@mode-blob-create-fails", "drmModeCreatePropertyBlob", ENOMEM,
		"cannot create MODE_ID blob" },
};

static void test_mode_blob_rollback(void **state)
{
	struct unit_fixture *f = *state;
	const struct rollback_case *tc = f->param;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	uint64_t blob1 = prop(MOCK_VKMS_CRTC, "MODE_ID");
	unsigned modesets = counters().modesets;

	struct dispman_mode m = { .width = 640, .height = 480 };
	assert_int_equal(dispman_output_enable(f->out, &m), 0);
	struct dispman_buffer *b = next_frame(f, 2);
	unit_log_clear();
	mock_drm_fail_next(tc->func, tc->err);
	assert_int_equal(dispman_device_commit(f->dev), -tc->err);
	assert_true(unit_log_find(DISPMAN_LOG_ERROR, tc->log));
	assert_int_equal(counters().live_blobs, 1);
	assert_int_equal(counters().modesets, modesets);
	assert_int_equal(prop(MOCK_VKMS_CRTC, "MODE_ID"), blob1);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(a));
	assert_int_equal(unit_dispatch(f->dev, 20), 0);

	/* The next try goes through. */
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(counters().live_blobs, 1);
	assert_int_not_equal(prop(MOCK_VKMS_CRTC, "MODE_ID"), blob1);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(b));
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
}

/* A page flip the kernel refuses: an error, the frame on screen stays, the next one works. */
static void test_flip_refused(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	struct dispman_buffer *b = next_frame(f, 1);
	unit_log_clear();
	mock_drm_fail_next("drmModeAtomicCommit/apply", EINVAL);
	assert_int_equal(dispman_device_commit(f->dev), -EINVAL);
	assert_error_logged("atomic commit");
	assert_int_equal(stats(f->dev).failed_commits, 1);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(a));
	assert_int_equal(unit_dispatch(f->dev, 20), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(b));
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
}

/* The kernel refuses every configuration, even the smallest (the composition buffer alone on
 * the primary plane): the search tests the layer on a plane, then the composition alone, and
 * the commit fails with the kernel's errno without a real commit. (Only TEST_ONLY commits
 * failed, so the log says so at debug level.) */
static void test_kernel_refuses(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	int verdict = mock_drm_script_commit(&(struct mock_drm_match){ 0 }, EINVAL);
	struct dispman_buffer *small = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_XRGB8888, 0);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, small), 0);
	assert_int_equal(dispman_device_commit(f->dev), -EINVAL);
	assert_true(unit_log_find(DISPMAN_LOG_DEBUG, "TEST_ONLY commit refused"));
	assert_int_equal(mock_drm_script_hits(verdict), 2);
	assert_int_equal(counters().commits, counters().test_commits);
	assert_int_equal(counters().applied_commits, 0);
	assert_int_equal(prop(MOCK_VKMS_CRTC, "ACTIVE"), 0);
	dispman_buffer_unref(small);
}

/* A commit while a flip is pending is queued (0, not -EBUSY) and committed right after the
 * flip event, from dispatch. */
static void test_queued_while_flip_pending(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_release_log rel = { 0 };
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	dispman_buffer_set_release_callback(a, unit_record_release, &rel);
	mock_drm_set_flip_delay(true);

	struct dispman_buffer *b = next_frame(f, 1);
	dispman_buffer_set_release_callback(b, unit_record_release, &rel);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(counters().pending_flips, 1);
	unsigned applied = counters().applied_commits;

	struct dispman_buffer *c = next_frame(f, 2);
	dispman_buffer_set_release_callback(c, unit_record_release, &rel);
	assert_int_equal(dispman_device_commit(f->dev), 0);  /* queued, not -EBUSY */
	assert_int_equal(dispman_device_commit(f->dev), 0);  /* still one queued commit */
	assert_int_equal(counters().applied_commits, applied);
	assert_int_equal(counters().failed_commits, 0);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(b));
	assert_int_equal(unit_dispatch(f->dev, 20), 0);
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);

	/* B's flip completes: A is released, the queued commit puts C up. */
	assert_int_equal(mock_drm_release_flips(), 1);
	assert_int_equal(unit_dispatch(f->dev, 1000), 1);
	assert_int_equal(rel.n, 1);
	assert_ptr_equal(rel.bufs[0], a);
	assert_int_equal(counters().applied_commits, applied + 1);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(c));
	assert_int_equal(counters().pending_flips, 1);

	assert_int_equal(mock_drm_release_flips(), 1);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(rel.n, 2);
	assert_ptr_equal(rel.bufs[1], b);
	assert_int_equal(counters().applied_commits, applied + 1);
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);
	dispman_buffer_set_release_callback(c, NULL, NULL);
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
	dispman_buffer_unref(c);
}

/* EINTR and EAGAIN from the kernel are retried, for TEST_ONLY and real commits. */
struct retry_case {
	const char *name;
	const char *func;
	int err;
	int times;
};

static const struct retry_case retry_cases[] = {
	{ "commit@retry-eintr", "drmModeAtomicCommit/apply", EINTR, 1 },
	{ "commit@retry-eagain", "drmModeAtomicCommit/apply", EAGAIN, 1 },
	{ "commit@retry-eintr-eagain", "drmModeAtomicCommit/apply", 0, 2 },
	{ "commit@retry-test-eintr", "drmModeAtomicCommit/test", EINTR, 1 },
	{ "commit@retry-test-eagain", "drmModeAtomicCommit/test", EAGAIN, 1 },
};

static void test_retry(void **state)
{
	struct unit_fixture *f = *state;
	const struct retry_case *tc = f->param;
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_buffer *a = next_frame(f, 0);
	if (tc->err) {
		mock_drm_fail_next(tc->func, tc->err);
	} else {
		/* Two injections of n = 1 fire on consecutive calls (the mock stops counting
		 * down the others when one fires). */
		mock_drm_fail_next(tc->func, EINTR);
		mock_drm_fail_next(tc->func, EAGAIN);
	}
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(counters().failed_commits, (unsigned)tc->times);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(a));
	assert_int_equal(stats(f->dev).commits, 1);
	assert_int_equal(stats(f->dev).failed_commits, 0);
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	dispman_buffer_unref(a);
}

/* DRM master lost to another client: commits pause (-EACCES), logged once, not per frame,
 * and attempts to regain master fail (EBUSY) while the other client holds it; after master
 * came back, resume makes a full modeset. */
static void test_master_lost(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	struct dispman_stats s0 = stats(f->dev);
	mock_drm_set_master(false);
	unit_log_clear();
	struct dispman_buffer *bufs[5];
	for (int i = 0; i < 5; i++) {
		bufs[i] = next_frame(f, (uint32_t)i);
		assert_int_equal(dispman_device_commit(f->dev), -EACCES);
		assert_true(dispman_device_is_paused(f->dev));
		assert_int_equal(unit_dispatch(f->dev, 0), 0);
	}
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 1);
	assert_error_logged("master");
	/* Only the first commit reached the kernel. */
	struct dispman_stats s = stats(f->dev);
	assert_int_equal(s.failed_commits - s0.failed_commits + s.test_commits - s0.test_commits,
		1);
	assert_int_equal(s.commits, s0.commits);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(a));

	/* Capture is refused while paused. */
	struct dispman_buffer *frame = NULL;
	assert_int_equal(dispman_output_capture(f->out, &frame), -EACCES);
	assert_null(frame);
	assert_error_logged("cannot capture, DRM master lost");
	unit_log_clear();

	/* Master is back: resume (which may restore the state by itself) and commit. */
	mock_drm_set_master(true);
	assert_int_equal(dispman_device_resume(f->dev), 0);
	assert_false(dispman_device_is_paused(f->dev));
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_true(unit_drain(f->dev) >= 1);
	assert_true(stats(f->dev).modesets >= 2); /* the state after a pause is a full modeset */
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(bufs[4]));
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	dispman_buffer_unref(a);
	for (int i = 0; i < 5; i++)
		dispman_buffer_unref(bufs[i]);
}

/* Master comes back while paused without a seat: the master timer takes it and the
 * restoring commit (a full modeset with the latest frame) runs at the end of that same
 * dispman_device_dispatch(), from device_run_queued(), not from inside the timer handler;
 * the application does not have to commit. */
static void test_master_timer_restores(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	mock_drm_set_master(false);
	struct dispman_buffer *b = next_frame(f, 1);
	assert_int_equal(dispman_device_commit(f->dev), -EACCES);
	assert_true(master_timer_created(f->dev));
	uint64_t modesets = stats(f->dev).modesets;
	mock_drm_set_master(true);
	for (int i = 0; i < 30 && dispman_device_is_paused(f->dev); i++)
		assert_true(dispman_device_dispatch(f->dev, 100) >= 0);
	assert_false(dispman_device_is_paused(f->dev));
	/* the dispatch that took master back also committed */
	assert_int_equal(stats(f->dev).modesets, modesets + 1);
	assert_false(commit_all_queued(f->dev));
	unit_drain(f->dev);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(b));
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
}

/* With a seat (libseat), the seat manager takes master away on a VT switch, and a commit
 * may meet EACCES before the seat's disable event arrives: that is expected (info, not an
 * error) and master is not polled for (the seat's enable event brings it back). */
static void test_master_lost_seat(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	struct device_seat_stand_in { int unused; } stand_in;
	assert_null(device_seat(f->dev));
	device_set_seat(f->dev, (struct seat *)(void *)&stand_in); /* never called into here */
	mock_drm_set_master(false);
	unit_log_clear();
	struct dispman_buffer *b = next_frame(f, 1);
	int ret = dispman_device_commit(f->dev);
	bool paused = dispman_device_is_paused(f->dev), timer = master_timer_created(f->dev);
	/* before any assertion: the teardown must not close the stand-in */
	device_set_seat(f->dev, NULL);
	assert_int_equal(ret, -EACCES);
	assert_true(paused);
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	assert_true(unit_log_find(DISPMAN_LOG_INFO, "taken away through the seat"));
	assert_false(timer); /* no timer retrying master */
	mock_drm_set_master(true);
	uint64_t modesets = stats(f->dev).modesets;
	assert_int_equal(modesets, 1); /* the first frame */
	assert_int_equal(dispman_device_resume(f->dev), 0);
	/* the seat's enable: one restoring commit, a modeset, counted */
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(stats(f->dev).modesets, 2);
	assert_int_equal(unit_drain(f->dev), 1);
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
}

/* The stats count what the kernel (mock) saw: TEST_ONLY only for new scene shapes. */
static void test_stats(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	struct dispman_stats s = stats(f->dev);
	struct mock_drm_counters c = counters();
	assert_int_equal(s.commits, 1);
	assert_int_equal(s.flips, 1);
	assert_int_equal(s.test_commits, c.test_commits);
	unsigned tests_after_first = c.test_commits;

	/* Same shape, new buffers: no TEST_ONLY. */
	for (int i = 0; i < 4; i++) {
		struct dispman_buffer *b = next_frame(f, (uint32_t)i);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(unit_drain(f->dev), 1);
		dispman_buffer_unref(b);
	}
	c = counters();
	s = stats(f->dev);
	assert_int_equal(c.test_commits, tests_after_first);
	assert_int_equal(s.buffer_commits, 4); /* each of them the short frame path */

	/* A new layer changes the shape: tested again. */
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_non_null(layer);
	struct dispman_buffer *small = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_ARGB8888, 1);
	assert_int_equal(dispman_layer_set_buffer(layer, small), 0);
	dispman_layer_set_destination(layer, 10, 10, 0, 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	c = counters();
	s = stats(f->dev);
	assert_true(c.test_commits > tests_after_first);

	assert_int_equal(s.test_commits, c.test_commits);
	assert_int_equal(s.commits, c.applied_commits);
	assert_int_equal(s.commits, 6);
	assert_int_equal(s.failed_commits, 0);
	assert_int_equal(c.failed_commits, 0);
	assert_int_equal(s.modesets, c.modesets);
	assert_int_equal(s.flips, c.events_delivered);
	assert_int_equal(s.flips, 6);
	assert_int_equal(s.buffer_commits, 4); /* not the new shape */
	dispman_buffer_unref(small);
	dispman_buffer_unref(a);
}

/* Frame callbacks: one per flip, sequence and timestamp increasing. */
struct frames {
	struct dispman_output *out;
	uint64_t seq[16];
	struct timespec ts[16];
	int n;
};

static void on_frame(struct dispman_output *out, uint64_t sequence, const struct timespec *time,
	void *data)
{
	struct frames *fr = data;
	assert_ptr_equal(out, fr->out);
	if (fr->n < 16) {
		fr->seq[fr->n] = sequence;
		fr->ts[fr->n] = *time;
	}
	fr->n++;
}

/*
 * A flip carries only what changed: the new FB_ID, without the CRTC's ACTIVE (the plane
 * puts its CRTC into the kernel's state, which sends the event). A commit with nothing new
 * still flips, through ACTIVE alone. The request's memory is reused (ASan: no leak).
 */
static void test_flip_only_what_changed(void **state)
{
	struct unit_fixture *f = *state;
	dispman_buffer_unref(unit_show_first_frame(f, 0x000000));
	for (int i = 1; i <= 3; i++) {
		struct mock_drm_counters before = counters();
		struct dispman_buffer *b = next_frame(f, (uint32_t)i * 0x101010);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		struct mock_drm_counters after = counters();
		assert_int_equal(after.applied_commits, before.applied_commits + 1);
		assert_int_equal(after.last_items, 1);
		assert_int_equal(after.events_queued, before.events_queued + 1);
		assert_int_equal(unit_drain(f->dev), 1);
		assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(b));
		dispman_buffer_unref(b);
	}
	struct mock_drm_counters before = counters();
	assert_int_equal(dispman_output_commit(f->out), 0);
	struct mock_drm_counters after = counters();
	assert_int_equal(after.applied_commits, before.applied_commits + 1);
	assert_int_equal(after.last_items, 1);
	assert_int_equal(prop(MOCK_VKMS_CRTC, "ACTIVE"), 1);
	assert_int_equal(after.events_queued, before.events_queued + 1);
	assert_int_equal(unit_drain(f->dev), 1);
}

/*
 * Another master left an overlay on (learned from the kernel when master comes back): the
 * restoring commit (a search and a modeset) turns it off, and the flips after it, which
 * keep the shape and visit only the planes the committed state uses (proposal_live_planes()),
 * neither set it again nor count it as used.
 */
static void test_foreign_plane_turned_off(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	mock_drm_set_master(false);
	struct dispman_buffer *b = next_frame(f, 1);
	assert_int_equal(dispman_device_commit(f->dev), -EACCES);
	mock_drm_set_master(true);
	/* the other client shows a's framebuffer on overlay 3 */
	int fd = mock_drm_open();
	assert_true(fd >= 0);
	assert_int_equal(drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1), 0);
	uint32_t ov = MOCK_VKMS_OVERLAY(3);
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	static const char *const names[] = { "FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W",
		"SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H" };
	const uint64_t values[] = { dispman_buffer_get_fb_id(a), MOCK_VKMS_CRTC, 0, 0,
		64u << 16, 64u << 16, 0, 0, 64, 64 };
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		assert_true(drmModeAtomicAddProperty(req, ov, mock_drm_prop_id(ov, names[i]),
			values[i]) >= 0);
	assert_int_equal(drmModeAtomicCommit(fd, req, 0, NULL), 0);
	drmModeAtomicFree(req);
	close(fd);
	assert_int_equal(prop(ov, "FB_ID"), dispman_buffer_get_fb_id(a));

	assert_int_equal(dispman_device_resume(f->dev), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(prop(ov, "FB_ID"), 0);
	assert_int_equal(prop(ov, "CRTC_ID"), 0);
	assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(b));
	size_t idx = 0;
	while (idx < device_n_planes(f->dev) && plane_id(device_plane(f->dev, idx)) != ov)
		idx++;
	assert_true(idx < device_n_planes(f->dev));
	assert_int_equal(plane_cur_fb_id(device_plane(f->dev, idx)), 0);
	assert_int_equal(plane_cur_crtc_id(device_plane(f->dev, idx)), 0);
	for (int i = 2; i < 5; i++) {
		struct dispman_buffer *c = next_frame(f, (uint32_t)i);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(counters().last_items, 1); /* the primary's FB_ID alone */
		uint64_t live;
		assert_true(proposal_live_planes(f->dev, &live));
		assert_false(live & (1ull << idx));
		assert_int_equal(unit_drain(f->dev), 1);
		assert_int_equal(prop(MOCK_VKMS_PRIMARY, "FB_ID"), dispman_buffer_get_fb_id(c));
		dispman_buffer_unref(c);
	}
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
}

static void test_frame_callback(void **state)
{
	struct unit_fixture *f = *state;
	struct frames fr = { .out = f->out };
	dispman_output_set_frame_callback(f->out, on_frame, &fr);
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	for (int i = 1; i < 8; i++) {
		struct dispman_buffer *b = next_frame(f, (uint32_t)i);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(unit_drain(f->dev), 1);
		dispman_buffer_unref(b);
	}
	assert_int_equal(fr.n, 8);
	for (int i = 1; i < fr.n; i++) {
		assert_true(fr.seq[i] > fr.seq[i - 1]);
		int64_t prev = (int64_t)fr.ts[i - 1].tv_sec * 1000000000 + fr.ts[i - 1].tv_nsec;
		int64_t now = (int64_t)fr.ts[i].tv_sec * 1000000000 + fr.ts[i].tv_nsec;
		assert_true(now > prev);
		/* about one frame of 60 Hz apart */
		assert_in_range(now - prev, 16000000, 17000000);
	}
	/* Removed: no more calls. */
	dispman_output_set_frame_callback(f->out, NULL, NULL);
	struct dispman_buffer *b = next_frame(f, 9);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(fr.n, 8);
	dispman_buffer_unref(b);
	dispman_buffer_unref(a);
}

/*
 * A commit from inside the frame callback (the usual render loop) works. It returns 0 and
 * is queued, not made inside the callback: device_run_queued() makes it once the callbacks
 * are done, before the buffers that left the screen are released, so the buffer the
 * callback puts back on screen is never released while it is committed again.
 */
struct loop {
	struct unit_fixture *f;
	int frames;
	struct dispman_buffer *bufs[2];
	struct unit_release_log rel;
};

static void on_frame_commit(struct dispman_output *out, uint64_t sequence,
	const struct timespec *time, void *data)
{
	struct loop *l = data;
	if (++l->frames >= 5)
		return;
	assert_int_equal(l->rel.n, 0);
	uint64_t commits = stats(l->f->dev).commits;
	assert_int_equal(dispman_output_set_buffer(out, l->bufs[l->frames % 2]), 0);
	assert_int_equal(dispman_output_commit(out), 0);
	assert_int_equal(stats(l->f->dev).commits, commits); /* not yet: queued */
}

static void test_commit_from_callback(void **state)
{
	struct unit_fixture *f = *state;
	struct loop l = { .f = f };
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	for (int i = 0; i < 2; i++) {
		l.bufs[i] = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888,
			(uint32_t)i);
		dispman_buffer_set_release_callback(l.bufs[i], unit_record_release, &l.rel);
	}
	dispman_output_set_frame_callback(f->out, on_frame_commit, &l);
	assert_int_equal(dispman_output_set_buffer(f->out, l.bufs[0]), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(l.frames, 5);
	assert_int_equal(stats(f->dev).commits, 5);
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);
	/* only the buffer the last flip took off the screen: the callback made no commit */
	assert_int_equal(l.rel.n, 1);
	dispman_output_set_frame_callback(f->out, NULL, NULL);
	for (int i = 0; i < 2; i++) {
		dispman_buffer_set_release_callback(l.bufs[i], NULL, NULL);
		dispman_buffer_unref(l.bufs[i]);
	}
}

/*
 * A queued commit that fails reaches the application through the output's error callback
 * (issue 32, item 3): its call returned 0, so nothing else could tell it. First a commit
 * from the frame callback (the guide's loop), then one queued behind a pending flip.
 */
struct heard {
	struct dispman_output *out;
	int errors, err, frames;
	bool commit_in_frame;
	struct dispman_buffer *next;
};

static void on_commit_error(struct dispman_output *out, int err, void *data)
{
	struct heard *h = data;
	h->errors++;
	h->err = err;
	h->out = out;
}

static void on_frame_heard(struct dispman_output *out, uint64_t sequence,
	const struct timespec *time, void *data)
{
	(void)sequence, (void)time;
	struct heard *h = data;
	h->frames++;
	if (!h->commit_in_frame)
		return;
	h->commit_in_frame = false;
	assert_int_equal(dispman_output_set_buffer(out, h->next), 0);
	assert_int_equal(dispman_output_commit(out), 0); /* queued: its failure comes later */
}

static void test_error_callback(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, 1);
	struct dispman_buffer *b = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, 2);
	struct heard h = { .next = b };
	assert_int_equal(dispman_output_set_error_callback(NULL, on_commit_error, &h), -EINVAL);
	assert_int_equal(dispman_output_set_error_callback(f->out, on_commit_error, &h), 0);
	assert_int_equal(dispman_output_set_frame_callback(f->out, on_frame_heard, &h), 0);
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	assert_int_equal(dispman_output_set_buffer(f->out, a), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(h.frames, 1);
	assert_int_equal(h.errors, 0); /* a commit that worked is not reported */

	/* 1. From the frame callback: a frame in flight, then the kernel refuses the next real
	 * commit, which is the one the frame callback asks for when that frame flips. */
	mock_drm_set_flip_delay(true);
	assert_int_equal(dispman_output_set_buffer(f->out, b), 0);
	assert_int_equal(dispman_output_commit(f->out), 0);
	struct mock_drm_match next_commit = { .kind = MOCK_DRM_REAL_COMMIT, .nth = 1 };
	int verdict = mock_drm_script_commit(&next_commit, EIO);
	h.commit_in_frame = true;
	h.next = a;
	unit_log_clear();
	assert_int_equal(mock_drm_release_flips(), 1);
	unit_drain(f->dev);
	assert_int_equal(mock_drm_script_hits(verdict), 1);
	assert_int_equal(h.frames, 2);
	assert_int_equal(h.errors, 1);
	assert_int_equal(h.err, -EIO);
	assert_ptr_equal(h.out, f->out);
	assert_error_logged("queued commit failed");
	/* nothing flips for the failed commit: no frame callback */
	assert_int_equal(mock_drm_release_flips(), 0);
	unit_drain(f->dev);
	assert_int_equal(h.frames, 2);

	/* 2. Queued behind a pending flip, outside any callback: the call returns 0. */
	assert_int_equal(dispman_output_set_buffer(f->out, b), 0);
	assert_int_equal(dispman_output_commit(f->out), 0); /* made: a flip pending */
	assert_int_equal(dispman_output_set_buffer(f->out, a), 0);
	assert_int_equal(dispman_output_commit(f->out), 0); /* queued behind that flip */
	verdict = mock_drm_script_commit(&next_commit, ENOSPC);
	assert_int_equal(mock_drm_release_flips(), 1);
	unit_drain(f->dev);
	assert_int_equal(h.frames, 3);
	assert_true(mock_drm_script_hits(verdict) >= 1);
	assert_int_equal(h.errors, 2);
	assert_true(h.err < 0 && h.err != -EACCES);

	/* 3. The application commits again after dispatch: made at once, frames come again;
	 * without an error callback a failure is only logged. */
	mock_drm_set_flip_delay(false);
	assert_int_equal(dispman_output_commit(f->out), 0);
	unit_drain(f->dev);
	assert_int_equal(h.frames, 4);
	assert_int_equal(dispman_output_set_error_callback(f->out, NULL, NULL), 0);
	mock_drm_set_flip_delay(true);
	assert_int_equal(dispman_output_set_buffer(f->out, b), 0);
	assert_int_equal(dispman_output_commit(f->out), 0);
	assert_int_equal(dispman_output_set_buffer(f->out, a), 0);
	assert_int_equal(dispman_output_commit(f->out), 0);
	verdict = mock_drm_script_commit(&next_commit, EIO);
	unit_log_clear();
	assert_int_equal(mock_drm_release_flips(), 1);
	unit_drain(f->dev);
	assert_int_equal(mock_drm_script_hits(verdict), 1);
	assert_int_equal(h.errors, 2);
	assert_error_logged("queued commit failed");
	mock_drm_set_flip_delay(false);

	dispman_output_set_frame_callback(f->out, NULL, NULL);
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
}

/*
 * A handler earlier in a batch of ready events waits for the flip itself (as
 * dispman_camera_destroy() from an input callback does): the DRM fd's readiness in that
 * batch is stale then, and its own handler must not read it again. On a kernel's (blocking)
 * DRM fd that read waits for an event no flip will send; the player hung there once.
 */
struct early_reader {
	struct dispman_output *out;
	int waited;
};

static int wait_flip_first(int fd, uint32_t events, void *data)
{
	struct early_reader *r = data;
	(void)events;
	uint64_t v;
	assert_int_equal(read(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
	assert_int_equal(output_wait_flip(r->out, 1000), 0);
	r->waited++;
	return 1;
}

static void test_flip_read_earlier_in_batch(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *bufs[2];
	for (int i = 0; i < 2; i++)
		bufs[i] = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888, (uint32_t)i);
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	assert_int_equal(dispman_output_set_buffer(f->out, bufs[0]), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	mock_drm_set_flip_delay(true);
	assert_int_equal(dispman_output_set_buffer(f->out, bufs[1]), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_true(output_flip_pending(f->out));

	/* ready first: an eventfd whose handler waits for the flip; then the flip */
	struct early_reader r = { .out = f->out };
	int efd = eventfd(1, EFD_CLOEXEC | EFD_NONBLOCK);
	assert_true(efd >= 0);
	struct event_source *src = event_source_add(f->dev, efd, EPOLLIN, wait_flip_first, &r);
	assert_non_null(src);
	assert_int_equal(mock_drm_release_flips(), 1);
	struct mock_drm_counters before, after;
	mock_drm_get_counters(&before);
	assert_true(dispman_device_dispatch(f->dev, 0) >= 1);
	mock_drm_get_counters(&after);
	assert_int_equal(r.waited, 1);
	assert_false(output_flip_pending(f->out));
	assert_int_equal(after.events_delivered - before.events_delivered, 1);
	assert_int_equal(after.empty_handle_event, before.empty_handle_event);

	event_source_remove(src);
	close(efd);
	for (int i = 0; i < 2; i++)
		dispman_buffer_unref(bufs[i]);
}

/* The epoll fd becomes readable with a flip to handle. */
/*
 * Two outputs at their own pace. Scripted vblanks: CRTC A at 60 Hz, CRTC B at 50 Hz, for
 * one second of simulated time; a vblank completes that CRTC's held flip. Each frame
 * callback sets a new buffer and commits (its output, or the whole device). The faster
 * output must not wait for the slower one's flips.
 */
struct paced {
	struct dispman_output *out;
	struct dispman_buffer *bufs[2];
	int frames;
	bool device_commit;
};

static void paced_frame(struct dispman_output *out, uint64_t seq, const struct timespec *ts,
	void *data)
{
	(void)seq;
	(void)ts;
	struct paced *p = data;
	p->frames++;
	assert_int_equal(dispman_output_set_buffer(out, p->bufs[p->frames & 1]), 0);
	if (p->device_commit)
		assert_int_equal(dispman_device_commit(dispman_output_get_device(out)), 0);
	else
		assert_int_equal(dispman_output_commit(out), 0);
}

static void test_own_pace(void **state)
{
	struct unit_fixture *f = *state;
	bool device_commit = f->param != NULL;
	drmModeModeInfo m60 = mock_drm_mode(640, 480, 60, true);
	drmModeModeInfo m50 = mock_drm_mode(640, 480, 50, true);
	uint32_t crtc[2];
	unit_add_two_heads((drmModeModeInfo[2]){ m60, m50 }, crtc, NULL);
	unit_open_device(f);
	assert_int_equal(dispman_device_get_output_count(f->dev), 2);
	struct paced p[2];
	for (size_t i = 0; i < 2; i++) {
		p[i] = (struct paced){ .out = dispman_device_get_output(f->dev, i),
			.device_commit = device_commit };
		p[i].bufs[0] = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888, 0x10);
		p[i].bufs[1] = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888, 0x20);
		assert_int_equal(dispman_output_enable(p[i].out, NULL), 0);
		assert_int_equal(dispman_output_set_buffer(p[i].out, p[i].bufs[0]), 0);
		dispman_output_set_frame_callback(p[i].out, paced_frame, &p[i]);
	}
	assert_int_equal(dispman_device_commit(f->dev), 0); /* the modeset: both heads */
	mock_drm_set_flip_delay(true);
	assert_int_equal(unit_dispatch(f->dev, 1000), 2);
	assert_int_equal(p[0].frames, 1);
	assert_int_equal(p[1].frames, 1);

	/* Simulated time in microseconds; vblank k of a head at k * period. */
	const int64_t period[2] = { 1000000 / 60, 1000000 / 50 };
	int64_t next[2] = { period[0], period[1] };
	while (next[0] <= 1000000 || next[1] <= 1000000) {
		int h = next[0] <= next[1] ? 0 : 1;
		next[h] += period[h];
		if (mock_drm_release_crtc_flips(crtc[h]) > 0)
			assert_true(unit_dispatch(f->dev, 1000) >= 1);
	}
	struct mock_drm_counters c = counters();
	assert_int_equal(c.failed_commits, 0); /* never EBUSY on the other head's CRTC */
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	/* one flip per vblank for each, the first frame aside: 60 and 50 */
	assert_in_range(p[0].frames, 59, 61);
	assert_in_range(p[1].frames, 49, 51);
	for (size_t i = 0; i < 2; i++) {
		struct dispman_output_stats st = { .size = sizeof(st) };
		dispman_output_get_stats(p[i].out, &st);
		assert_int_equal(st.frames, (uint64_t)p[i].frames);
		dispman_output_set_frame_callback(p[i].out, NULL, NULL);
	}
	mock_drm_release_flips();
	unit_drain(f->dev);
	mock_drm_set_flip_delay(false);
	for (size_t i = 0; i < 2; i++) {
		dispman_buffer_unref(p[i].bufs[0]);
		dispman_buffer_unref(p[i].bufs[1]);
	}
}

/*
 * The next vblank lies on the grid of the last flip (stamped with the commit's time by the
 * mock: a vblank right at it) and the mode's period; the learned commit cost is the commit
 * call's time, known from the first flip on and never more than a period. Neither exists
 * before the first flip.
 */
static void test_next_vblank_and_cost(void **state)
{
	struct unit_fixture *f = *state;
	struct timespec when;
	uint64_t cost = 0;
	mock_drm_set_flips_now(true);
	assert_int_equal(dispman_output_get_next_vblank(f->out, &when), -ENODATA);
	assert_int_equal(dispman_output_get_commit_cost(f->out, &cost), -ENODATA);
	struct dispman_buffer *first = unit_show_first_frame(f, 0x10);
	int64_t period = (int64_t)output_period_ns(f->out);
	assert_true(period > 0);
	for (int i = 0; i < 5; i++) {
		struct dispman_buffer *buf = next_frame(f, 0x20u + (uint32_t)i);
		int64_t before = clock_ns();
		assert_int_equal(dispman_output_commit(f->out), 0);
		int64_t after = clock_ns();
		assert_true(unit_dispatch(f->dev, 1000) >= 1);
		dispman_buffer_unref(buf);
		struct dispman_output_stats st = { .size = sizeof(st) };
		assert_int_equal(dispman_output_get_stats(f->out, &st), 0);
		int64_t now = clock_ns();
		assert_int_equal(dispman_output_get_next_vblank(f->out, &when), 0);
		int64_t later = clock_ns();
		int64_t next = timespec_ns(&when), last = timespec_ns(&st.last_time);
		assert_true(next > now); /* after the call's own reading of the clock */
		assert_true(next - later <= period);
		assert_int_equal((next - last) % period, 0);
		assert_int_equal(dispman_output_get_commit_cost(f->out, &cost), 0);
		assert_true(cost > 0);
		assert_true((int64_t)cost <= after - before || (int64_t)cost <= period);
		assert_true((int64_t)cost <= period);
	}
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	/* off: nothing to predict */
	dispman_output_disable(f->out);
	assert_int_equal(dispman_output_commit(f->out), 0);
	unit_drain(f->dev);
	assert_int_equal(dispman_output_get_next_vblank(f->out, &when), -ENODATA);
	dispman_buffer_unref(first);
}

/*
 * The commit cost is learned once asked for: frames flipped before the first call give no
 * sample (their commits read no clock for it), the frames after it do.
 */
static void test_commit_cost_on_demand(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t cost = 0;
	mock_drm_set_flips_now(true);
	struct dispman_buffer *first = unit_show_first_frame(f, 0x10);
	for (int i = 0; i < 3; i++) {
		struct dispman_buffer *buf = next_frame(f, 0x20u + (uint32_t)i);
		assert_int_equal(dispman_output_commit(f->out), 0);
		assert_true(unit_dispatch(f->dev, 1000) >= 1);
		dispman_buffer_unref(buf);
	}
	unit_log_clear();
	assert_int_equal(dispman_output_get_commit_cost(f->out, &cost), -ENODATA);
	assert_true(unit_log_find(DISPMAN_LOG_DEBUG, "learning the commit cost"));
	struct dispman_buffer *buf = next_frame(f, 0x30);
	assert_int_equal(dispman_output_commit(f->out), 0);
	assert_true(unit_dispatch(f->dev, 1000) >= 1);
	dispman_buffer_unref(buf);
	assert_int_equal(dispman_output_get_commit_cost(f->out, &cost), 0);
	assert_true(cost > 0);
	dispman_buffer_unref(first);
}

/* A change of the scene's shape covers the whole device: it waits for every flip. */
static void test_shape_change_waits_for_all(void **state)
{
	struct unit_fixture *f = *state;
	drmModeModeInfo m = mock_drm_mode(640, 480, 60, true);
	uint32_t crtc[2];
	unit_add_two_heads((drmModeModeInfo[2]){ m, m }, crtc, NULL);
	unit_open_device(f);
	struct dispman_output *o[2] = { dispman_device_get_output(f->dev, 0),
		dispman_device_get_output(f->dev, 1) };
	struct dispman_buffer *b = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888, 1);
	struct dispman_buffer *small = unit_pattern_buffer(f->dev, 320, 240, DRM_FORMAT_XRGB8888,
		2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(dispman_output_enable(o[i], NULL), 0);
		assert_int_equal(dispman_output_set_buffer(o[i], b), 0);
	}
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 2);
	mock_drm_set_flip_delay(true);
	/* both flip; B's flip stays pending */
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(counters().pending_flips, 2);
	assert_int_equal(mock_drm_release_crtc_flips(crtc[0]), 1);
	assert_int_equal(unit_dispatch(f->dev, 1000), 1);
	/* A new layer on A: a new shape, queued until B's flip is done too */
	unsigned applied = counters().applied_commits;
	struct dispman_layer *l = dispman_layer_create(o[0]);
	assert_int_equal(dispman_layer_set_buffer(l, small), 0);
	assert_int_equal(dispman_output_commit(o[0]), 0);
	assert_int_equal(counters().applied_commits, applied);
	assert_int_equal(mock_drm_release_crtc_flips(crtc[1]), 1);
	assert_int_equal(unit_dispatch(f->dev, 1000), 1);
	assert_int_equal(counters().applied_commits, applied + 1);
	assert_int_equal(counters().failed_commits, 0);
	mock_drm_release_flips();
	unit_drain(f->dev);
	mock_drm_set_flip_delay(false);
	dispman_layer_destroy(l);
	dispman_buffer_unref(b);
	dispman_buffer_unref(small);
}

/*
 * Buffer-only frames (the one frame path with the committed assignment kept): a frame of
 * one output that only brings new buffers to the planes it shows is committed as the new
 * FB_IDs alone and counted in buffer_commits; other frames are not counted (two outputs
 * asked for, new rectangles), and a refused buffer-only frame leaves the kernel as it was
 * and makes the next frame search.
 */
static void test_short_frame_path(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888 };
	drmModeModeInfo m = mock_drm_mode(640, 480, 60, true);
	uint32_t crtc[2], primary[2], overlay;
	unit_add_two_heads((drmModeModeInfo[2]){ m, m }, crtc, primary);
	overlay = mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_OVERLAY, .possible_crtcs = 1u,
		.formats = formats, .num_formats = 1 });
	unit_open_device(f);
	struct dispman_output *o[2] = { dispman_device_get_output(f->dev, 0),
		dispman_device_get_output(f->dev, 1) };
	struct dispman_buffer *bg = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888, 1);
	struct dispman_buffer *cam[3];
	for (int i = 0; i < 3; i++)
		cam[i] = unit_pattern_buffer(f->dev, 320, 240, DRM_FORMAT_XRGB8888,
			(uint32_t)(0x10 + i));
	for (int i = 0; i < 2; i++) {
		assert_int_equal(dispman_output_enable(o[i], NULL), 0);
		assert_int_equal(dispman_output_set_buffer(o[i], bg), 0);
	}
	struct dispman_layer *l = dispman_layer_create(o[0]);
	assert_int_equal(dispman_layer_set_z(l, 1), 0);
	assert_int_equal(dispman_layer_set_buffer(l, cam[0]), 0);
	assert_int_equal(dispman_layer_set_destination(l, 100, 100, 320, 240), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 2);
	assert_int_equal(prop(overlay, "FB_ID"), dispman_buffer_get_fb_id(cam[0]));
	assert_int_equal(stats(f->dev).buffer_commits, 0); /* a modeset and a search */

	/* new buffers on o[0]'s overlay: the short path, the FB_ID alone, no test */
	struct unit_release_log rel = { 0 };
	for (int k = 1; k <= 4; k++) {
		struct dispman_buffer *b = cam[k % 3];
		dispman_buffer_set_release_callback(b, unit_record_release, &rel);
		struct dispman_stats a = stats(f->dev);
		struct mock_drm_counters before = counters();
		assert_int_equal(dispman_layer_set_buffer(l, b), 0);
		assert_int_equal(dispman_output_commit(o[0]), 0);
		struct dispman_stats s = stats(f->dev);
		struct mock_drm_counters after = counters();
		assert_int_equal(s.buffer_commits, a.buffer_commits + 1);
		assert_int_equal(s.commits, a.commits + 1);
		assert_int_equal(s.test_commits, a.test_commits);
		assert_int_equal(after.test_commits, before.test_commits);
		assert_int_equal(after.applied_commits, before.applied_commits + 1);
		assert_int_equal(after.last_items, 1);
		assert_int_equal(prop(overlay, "FB_ID"), dispman_buffer_get_fb_id(b));
		assert_int_equal(prop(overlay, "CRTC_ID"), crtc[0]);
		assert_int_equal(prop(overlay, "CRTC_X"), 100);
		assert_int_equal(prop(primary[0], "FB_ID"), dispman_buffer_get_fb_id(bg));
		assert_int_equal(prop(primary[1], "FB_ID"), dispman_buffer_get_fb_id(bg));
		int released = rel.n;
		assert_int_equal(unit_drain(f->dev), 1);
		/* the buffer that left the screen is released after the flip */
		if (k >= 3) {
			assert_int_equal(rel.n, released + 1);
			assert_ptr_equal(rel.bufs[rel.n - 1], cam[(k - 1) % 3]);
		}
		struct dispman_placement p;
		dispman_layer_get_placement(l, &p);
		assert_int_equal(p.state, DISPMAN_PLACEMENT_ON_PLANE);
		assert_int_equal(p.plane_id, overlay);
	}
	for (int i = 0; i < 3; i++)
		dispman_buffer_set_release_callback(cam[i], NULL, NULL);

	/* both outputs asked for: the general path */
	struct dispman_stats a = stats(f->dev);
	assert_int_equal(dispman_layer_set_buffer(l, cam[0]), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 2);
	struct dispman_stats s = stats(f->dev);
	assert_int_equal(s.commits, a.commits + 1);
	assert_int_equal(s.buffer_commits, a.buffer_commits);
	assert_int_equal(prop(overlay, "FB_ID"), dispman_buffer_get_fb_id(cam[0]));

	/* new rectangles: the geometry path, not the short one */
	a = s;
	assert_int_equal(dispman_layer_set_destination(l, 120, 100, 320, 240), 0);
	assert_int_equal(dispman_output_commit(o[0]), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	s = stats(f->dev);
	assert_int_equal(s.geometry_commits, a.geometry_commits + 1);
	assert_int_equal(s.buffer_commits, a.buffer_commits);
	assert_int_equal(prop(overlay, "CRTC_X"), 120);

	/* refused: an error, the kernel keeps the last frame, the next frame searches */
	a = s;
	assert_int_equal(dispman_layer_set_buffer(l, cam[1]), 0);
	mock_drm_fail_next("drmModeAtomicCommit/apply", EINVAL);
	assert_int_equal(dispman_output_commit(o[0]), -EINVAL);
	s = stats(f->dev);
	assert_int_equal(s.failed_commits, a.failed_commits + 1);
	assert_int_equal(s.buffer_commits, a.buffer_commits);
	assert_int_equal(prop(overlay, "FB_ID"), dispman_buffer_get_fb_id(cam[0]));
	assert_int_equal(dispman_output_commit(o[0]), 0);
	assert_int_equal(unit_drain(f->dev), 2); /* a search covers the whole device */
	struct dispman_stats t = stats(f->dev);
	assert_int_equal(t.searches, s.searches + 1);
	assert_int_equal(t.buffer_commits, s.buffer_commits);
	assert_int_equal(prop(overlay, "FB_ID"), dispman_buffer_get_fb_id(cam[1]));

	/* o[1] alone, nothing new: the short path, ACTIVE alone for the event */
	struct mock_drm_counters before = counters();
	assert_int_equal(dispman_output_commit(o[1]), 0);
	assert_int_equal(counters().last_items, 1);
	assert_int_equal(counters().events_queued, before.events_queued + 1);
	assert_int_equal(stats(f->dev).buffer_commits, t.buffer_commits + 1);
	assert_int_equal(unit_drain(f->dev), 1);

	/* a second layer on o[0], which has one overlay: a composition buffer on the primary
	 * plane, and its frames go the general way */
	struct dispman_layer *l2 = dispman_layer_create(o[0]);
	assert_int_equal(dispman_layer_set_z(l2, 2), 0);
	assert_int_equal(dispman_layer_set_buffer(l2, cam[2]), 0);
	assert_int_equal(dispman_layer_set_destination(l2, 300, 200, 320, 240), 0);
	assert_int_equal(dispman_output_commit(o[0]), 0);
	assert_int_equal(unit_drain(f->dev), 2);
	a = stats(f->dev);
	assert_true(a.compositions > 0);
	assert_int_equal(dispman_layer_set_buffer(l, cam[0]), 0);
	assert_int_equal(dispman_output_commit(o[0]), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	s = stats(f->dev);
	assert_int_equal(s.commits, a.commits + 1);
	assert_int_equal(s.buffer_commits, a.buffer_commits);
	assert_int_equal(s.failed_commits, a.failed_commits);

	dispman_layer_destroy(l2);
	dispman_layer_destroy(l);
	dispman_buffer_unref(bg);
	for (int i = 0; i < 3; i++)
		dispman_buffer_unref(cam[i]);
}

static void test_pollable_fd(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *a = unit_show_first_frame(f, 0);
	struct dispman_buffer *b = next_frame(f, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	struct pollfd pfd = { .fd = dispman_device_get_fd(f->dev), .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 1000), 1);
	assert_int_equal(unit_dispatch(f->dev, 0), 1);
	assert_int_equal(poll(&pfd, 1, 0), 0);
	assert_int_equal(unit_dispatch(f->dev, 0), 0);
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
}

/* A layer of 64x64 ARGB at (100, 100) over the first frame, committed: on an overlay. */
static struct dispman_layer *overlay_layer(struct unit_fixture *f, struct dispman_buffer *buf)
{
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_non_null(layer);
	assert_int_equal(dispman_layer_set_buffer(layer, buf), 0);
	assert_int_equal(dispman_layer_set_destination(layer, 100, 100, 64, 64), 0);
	assert_int_equal(dispman_layer_set_z(layer, 1), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_non_null(layer_plane(layer));
	assert_int_equal(plane_type(layer_plane(layer)), DRM_PLANE_TYPE_OVERLAY);
	return layer;
}

/* The committed state of a plane (plane.h's getters), to compare. */
struct recorded_plane {
	struct dispman_layer *layer;
	unsigned zpos;
	uint32_t fb_id, crtc_id;
};

/* The recorded state of every plane and of one layer, to compare. */
struct recorded {
	struct recorded_plane planes[16];
	struct plane *plane;
	struct dispman_placement placement;
	bool composited;
};

static void record(const struct dispman_device *dev, const struct dispman_layer *layer,
	struct recorded *r)
{
	assert_true(device_n_planes(dev) <= UNIT_ARRAY_LEN(r->planes));
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		const struct plane *p = device_plane(dev, i);
		r->planes[i] = (struct recorded_plane){ .layer = plane_cur_layer(p),
			.zpos = plane_cur_zpos(p), .fb_id = plane_cur_fb_id(p),
			.crtc_id = plane_cur_crtc_id(p) };
	}
	r->plane = layer_plane(layer);
	r->placement = *layer_placement(layer);
	r->composited = layer_composited(layer);
}

static void assert_recorded_equal(const struct recorded *a, const struct recorded *b)
{
	assert_memory_equal(a->planes, b->planes, sizeof(a->planes));
	assert_ptr_equal(a->plane, b->plane);
	assert_memory_equal(&a->placement, &b->placement, sizeof(a->placement));
	assert_int_equal(a->composited, b->composited);
}

/*
 * A new shape whose every TEST_ONLY commit is refused (the layer alone, then the
 * composition buffer alone) fails the commit and leaves every plane's and the layer's
 * recorded state as the last accepted commit left it.
 */
static void test_refused_search_records_nothing(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *bg = unit_show_first_frame(f, 0);
	struct dispman_buffer *sq = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_ARGB8888, 1);
	struct dispman_layer *layer = overlay_layer(f, sq);
	struct recorded before, after;
	record(f->dev, layer, &before);
	assert_int_equal(dispman_layer_set_visible(layer, false), 0);
	mock_drm_fail_next("drmModeAtomicCommit/test", EINVAL);
	mock_drm_fail_next("drmModeAtomicCommit/test", EINVAL);
	assert_int_equal(dispman_device_commit(f->dev), -EINVAL);
	record(f->dev, layer, &after);
	assert_recorded_equal(&before, &after);
	/* and a refused real commit of a search that passed */
	mock_drm_fail_next("drmModeAtomicCommit/apply", EINVAL);
	assert_int_equal(dispman_device_commit(f->dev), -EINVAL);
	record(f->dev, layer, &after);
	assert_recorded_equal(&before, &after);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_null(layer_plane(layer));
	assert_int_equal(layer_placement(layer)->reason, DISPMAN_REASON_INVISIBLE);
	dispman_buffer_unref(bg);
	dispman_buffer_unref(sq);
}

/*
 * The request is built from the proposal alone: a proposal that moves the layer to another
 * overlay, built and committed by hand, shows it there while the planes and the layer
 * still record the old place; recorded (proposal_record()), it is the assignment the next
 * frame reuses with a new FB_ID only, without a TEST_ONLY commit.
 */
static void test_request_from_proposal(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_device *dev = f->dev;
	struct dispman_buffer *bg = unit_show_first_frame(f, 0);
	struct dispman_buffer *sq = unit_pattern_buffer(dev, 64, 64, DRM_FORMAT_ARGB8888, 1);
	struct dispman_buffer *sq2 = unit_pattern_buffer(dev, 64, 64, DRM_FORMAT_ARGB8888, 2);
	struct dispman_layer *layer = overlay_layer(f, sq);
	size_t from = 0, to = 0;
	while (from < device_n_planes(dev) && device_plane(dev, from) != layer_plane(layer))
		from++;
	assert_true(from < device_n_planes(dev));
	while (to < device_n_planes(dev) &&
	       (plane_type(device_plane(dev, to)) != DRM_PLANE_TYPE_OVERLAY ||
	        plane_cur_layer(device_plane(dev, to)) || plane_cur_fb_id(device_plane(dev, to))))
		to++;
	assert_true(to < device_n_planes(dev));

	/* the committed assignment, copied into a search's proposal to be changed, for a
	 * request of the whole device (as select_outputs() picks it for a new shape) */
	struct scope_output in[8] = { 0 };
	assert_true(device_n_outputs(dev) <= ARRAY_SIZE(in));
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		in[i].in = device_output(dev, i) == f->out;
	struct commit_scope scope = { .full = true, .outputs = in,
		.n_outputs = device_n_outputs(dev) };
	struct proposal next;
	proposal_init(&next, &scope);
	assert_int_equal(proposal_start_search(&next, dev), 0);
	for (size_t i = 0; i < device_n_planes(dev); i++)
		next.planes[i] = (struct proposed_plane){
			.layer = plane_cur_layer(device_plane(dev, i)),
			.zpos = plane_cur_zpos(device_plane(dev, i)) };
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, output_layers(f->out)) {
		struct dispman_layer *l = layer_from_link(pos);
		struct proposed_layer *e = proposal_add_layer(&next, l);
		assert_non_null(e);
		e->plane = layer_plane(l);
		e->placement = *layer_placement(l);
	}
	struct dispman_layer *comp = compose_peek_layer(f->out);
	if (comp) {
		struct proposed_layer *e = proposal_add_layer(&next, comp);
		assert_non_null(e);
		e->plane = layer_plane(comp);
		e->placement = *layer_placement(comp);
	}
	next.planes[to] = next.planes[from];
	next.planes[from].layer = NULL;
	for (size_t i = 0; i < next.n_layers; i++) {
		if (next.layers[i].layer != layer)
			continue;
		next.layers[i].plane = device_plane(dev, to);
		next.layers[i].placement.plane_id = plane_id(device_plane(dev, to));
	}
	struct recorded before, after;
	record(dev, layer, &before);
	struct atomic_req r;
	assert_int_equal(req_init(dev, &r), 0);
	req_build(dev, &next, &r);
	assert_int_equal(req_commit(dev, &r, 0, NULL), 0);
	req_finish(dev, &r);
	assert_int_equal(prop(plane_id(device_plane(dev, to)), "FB_ID"), buffer_fb_id(sq));
	assert_int_equal(prop(plane_id(device_plane(dev, to)), "CRTC_X"), 100);
	assert_int_equal(prop(plane_id(device_plane(dev, from)), "FB_ID"), 0);
	record(dev, layer, &after);
	assert_recorded_equal(&before, &after); /* built and committed, not recorded */
	proposal_record(&next, dev);
	proposal_finish(&next);
	assert_ptr_equal(plane_cur_layer(device_plane(dev, to)), layer);
	assert_int_equal(plane_cur_fb_id(device_plane(dev, to)), buffer_fb_id(sq));
	assert_null(plane_cur_layer(device_plane(dev, from)));
	assert_int_equal(plane_cur_fb_id(device_plane(dev, from)), 0);
	assert_ptr_equal(layer_plane(layer), device_plane(dev, to));
	struct dispman_placement p;
	assert_int_equal(dispman_layer_get_placement(layer, &p), 0);
	assert_int_equal(p.plane_id, plane_id(device_plane(dev, to)));

	uint64_t tests = stats(dev).test_commits;
	assert_int_equal(dispman_layer_set_buffer(layer, sq2), 0);
	assert_int_equal(dispman_device_commit(dev), 0);
	assert_int_equal(unit_drain(dev), 1);
	assert_int_equal(stats(dev).test_commits, tests);
	assert_int_equal(prop(plane_id(device_plane(dev, to)), "FB_ID"), buffer_fb_id(sq2));
	assert_int_equal(prop(plane_id(device_plane(dev, from)), "FB_ID"), 0);
	dispman_buffer_unref(bg);
	dispman_buffer_unref(sq);
	dispman_buffer_unref(sq2);
}

/* n 16x16 layers showing buf, stacked in order (z 1..n), in rows of 32 tiles 20 pixels
 * apart from the top-left corner. */
static void make_tiles(struct unit_fixture *f, struct dispman_layer **layers, size_t n,
	struct dispman_buffer *buf)
{
	for (size_t i = 0; i < n; i++) {
		layers[i] = dispman_layer_create(f->out);
		assert_non_null(layers[i]);
		assert_int_equal(dispman_layer_set_buffer(layers[i], buf), 0);
		assert_int_equal(dispman_layer_set_destination(layers[i], (int32_t)(i % 32) * 20,
			(int32_t)(i / 32) * 20, 16, 16), 0);
		assert_int_equal(dispman_layer_set_z(layers[i], (int)i + 1), 0);
	}
}

/*
 * More layers than a proposal holds inline (PROPOSAL_INLINE_LAYERS): its room is allocated,
 * for the search and for the frames that reuse the assignment without a test.
 */
static void test_many_layers(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *bg = unit_show_first_frame(f, 0);
	struct dispman_buffer *sq[2] = {
		unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 1),
		unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 2),
	};
	struct dispman_layer *layers[PROPOSAL_INLINE_LAYERS + 4];
	const size_t n = UNIT_ARRAY_LEN(layers);
	make_tiles(f, layers, n, sq[0]);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	size_t on = 0, composited = 0;
	for (size_t i = 0; i < n; i++) {
		struct dispman_placement p;
		assert_int_equal(dispman_layer_get_placement(layers[i], &p), 0);
		on += p.state == DISPMAN_PLACEMENT_ON_PLANE;
		composited += p.state == DISPMAN_PLACEMENT_COMPOSITED;
	}
	assert_true(on > 0 && composited > 0);
	assert_int_equal(on + composited, n);
	uint64_t tests = stats(f->dev).test_commits;
	for (size_t k = 0; k < 4; k++) {
		assert_int_equal(dispman_layer_set_buffer(layers[n - 1], sq[(k + 1) % 2]), 0);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(unit_drain(f->dev), 1);
	}
	assert_int_equal(stats(f->dev).test_commits, tests);
	assert_int_equal(prop(MOCK_VKMS_CURSOR, "FB_ID"), buffer_fb_id(sq[0])); /* the top layer */
	dispman_buffer_unref(bg);
	dispman_buffer_unref(sq[0]);
	dispman_buffer_unref(sq[1]);
}

/*
 * A frame that keeps the assignment sends and records only the planes of the layers that
 * moved or got a new buffer (layer_new_buffer_list()): a new buffer on an output the
 * commit does not cover waits for that output's commit, a moved layer and a new buffer in
 * one frame both reach their planes.
 */
static void test_new_buffers_listed(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888 };
	drmModeModeInfo m = mock_drm_mode(640, 480, 60, true);
	uint32_t crtc[2], primary[2], overlay;
	unit_add_two_heads((drmModeModeInfo[2]){ m, m }, crtc, primary);
	overlay = mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_OVERLAY, .possible_crtcs = 1u,
		.formats = formats, .num_formats = 1 });
	unit_open_device(f);
	struct dispman_output *o[2] = { dispman_device_get_output(f->dev, 0),
		dispman_device_get_output(f->dev, 1) };
	struct dispman_buffer *bg[2], *cam[2];
	for (int i = 0; i < 2; i++) {
		bg[i] = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888,
			(uint32_t)(1 + i));
		cam[i] = unit_pattern_buffer(f->dev, 320, 240, DRM_FORMAT_XRGB8888,
			(uint32_t)(0x10 + i));
		assert_int_equal(dispman_output_enable(o[i], NULL), 0);
		assert_int_equal(dispman_output_set_buffer(o[i], bg[0]), 0);
	}
	struct dispman_layer *l = dispman_layer_create(o[0]);
	assert_int_equal(dispman_layer_set_z(l, 1), 0);
	assert_int_equal(dispman_layer_set_buffer(l, cam[0]), 0);
	assert_int_equal(dispman_layer_set_destination(l, 100, 100, 320, 240), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 2);
	uint64_t searches = stats(f->dev).searches;

	/* new buffers on both outputs, o[0] committed alone: its overlay only */
	assert_int_equal(dispman_output_set_buffer(o[1], bg[1]), 0);
	assert_int_equal(dispman_layer_set_buffer(l, cam[1]), 0);
	assert_int_equal(dispman_output_commit(o[0]), 0);
	assert_int_equal(counters().last_items, 1);
	assert_int_equal(prop(overlay, "FB_ID"), dispman_buffer_get_fb_id(cam[1]));
	assert_int_equal(prop(primary[1], "FB_ID"), dispman_buffer_get_fb_id(bg[0]));
	assert_int_equal(unit_drain(f->dev), 1);
	/* o[1]'s new buffer was kept for its own commit */
	assert_int_equal(dispman_output_commit(o[1]), 0);
	assert_int_equal(counters().last_items, 1);
	assert_int_equal(prop(primary[1], "FB_ID"), dispman_buffer_get_fb_id(bg[1]));
	assert_int_equal(unit_drain(f->dev), 1);
	/* and sent once: nothing new the next time */
	assert_int_equal(dispman_output_commit(o[1]), 0);
	assert_int_equal(counters().last_items, 1); /* ACTIVE alone, for the event */
	assert_int_equal(prop(primary[1], "FB_ID"), dispman_buffer_get_fb_id(bg[1]));
	assert_int_equal(unit_drain(f->dev), 1);

	/* a moved layer and a new buffer on another plane in one frame */
	assert_int_equal(dispman_layer_set_destination(l, 120, 100, 320, 240), 0);
	assert_int_equal(dispman_output_set_buffer(o[0], bg[1]), 0);
	assert_int_equal(dispman_output_commit(o[0]), 0);
	assert_int_equal(counters().last_items, 2); /* the overlay's CRTC_X, the FB_ID */
	assert_int_equal(prop(overlay, "CRTC_X"), 120);
	assert_int_equal(prop(overlay, "FB_ID"), dispman_buffer_get_fb_id(cam[1]));
	assert_int_equal(prop(primary[0], "FB_ID"), dispman_buffer_get_fb_id(bg[1]));
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(stats(f->dev).searches, searches);

	dispman_layer_destroy(l);
	for (int i = 0; i < 2; i++) {
		dispman_buffer_unref(bg[i]);
		dispman_buffer_unref(cam[i]);
	}
}

/* More layers with new buffers than the list holds (LAYER_MOVED_MAX): every plane in use
 * is visited, and the list is whole again after the commit. */
static void test_new_buffers_overflow(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *bg = unit_show_first_frame(f, 0);
	struct dispman_buffer *sq[2] = {
		unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 1),
		unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 2),
	};
	struct dispman_layer *layers[LAYER_MOVED_MAX + 4];
	const size_t n = UNIT_ARRAY_LEN(layers);
	make_tiles(f, layers, n, sq[0]);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	uint64_t searches = stats(f->dev).searches;
	for (int k = 1; k <= 2; k++) {
		/* k 1: every layer a new buffer (the list overflows); 2: the top one alone */
		for (size_t i = k == 1 ? 0 : n - 1; i < n; i++)
			assert_int_equal(dispman_layer_set_buffer(layers[i], sq[k % 2]), 0);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(unit_drain(f->dev), 1);
		size_t on = 0;
		for (size_t i = 0; i < n; i++) {
			struct dispman_placement p;
			assert_int_equal(dispman_layer_get_placement(layers[i], &p), 0);
			if (p.state != DISPMAN_PLACEMENT_ON_PLANE)
				continue;
			on++;
			const struct dispman_buffer *want = k == 2 && i == n - 1 ? sq[0] : sq[1];
			assert_int_equal(prop(p.plane_id, "FB_ID"), buffer_fb_id(want));
		}
		assert_true(on >= 2);
		if (k == 2)
			assert_int_equal(counters().last_items, 1);
	}
	assert_int_equal(stats(f->dev).searches, searches);
	for (size_t i = 0; i < n; i++)
		dispman_layer_destroy(layers[i]);
	dispman_buffer_unref(bg);
	dispman_buffer_unref(sq[0]);
	dispman_buffer_unref(sq[1]);
}

/* Nothing released yet; the flip of the frame just committed releases gone, once, and the
 * output holds it no more. */
static void assert_released_by_flip(struct unit_fixture *f, struct unit_release_log *rel,
	struct dispman_buffer *gone)
{
	assert_int_equal(rel->n, 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(rel->n, 1);
	assert_ptr_equal(rel->bufs[0], gone);
	assert_false(output_holds_buffer(f->out, gone));
}

/*
 * A frame that only moves a layer on a plane shares the composited layers' buffers of the
 * frame on screen (output.c's struct held) instead of referencing each again, and a
 * composited buffer is still released once, after the flip of the first frame without it.
 */
static void test_composited_buffers_shared(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *bg = unit_show_first_frame(f, 0);
	struct dispman_buffer *sq = unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 1);
	struct dispman_buffer *old = unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 2);
	struct dispman_buffer *new = unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 3);
	struct dispman_layer *layers[20];
	const size_t n = UNIT_ARRAY_LEN(layers);
	for (size_t i = 0; i < n; i++) {
		layers[i] = dispman_layer_create(f->out);
		assert_int_equal(dispman_layer_set_buffer(layers[i], sq), 0);
		assert_int_equal(dispman_layer_set_destination(layers[i], (int32_t)i * 20, 0, 16,
			16), 0);
		assert_int_equal(dispman_layer_set_z(layers[i], (int)i + 1), 0);
	}
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	/* more layers than planes: some composited; the top one on a plane (the cursor) */
	struct dispman_layer *comp = NULL, *top = layers[n - 1];
	for (size_t i = 0; i < n && !comp; i++) {
		struct dispman_placement p;
		assert_int_equal(dispman_layer_get_placement(layers[i], &p), 0);
		if (p.state == DISPMAN_PLACEMENT_COMPOSITED)
			comp = layers[i];
	}
	assert_non_null(comp);
	assert_non_null(layer_plane(top));
	struct unit_release_log rel = { 0 };
	dispman_buffer_set_release_callback(old, unit_record_release, &rel);
	dispman_buffer_set_release_callback(new, unit_record_release, &rel);
	assert_int_equal(dispman_layer_set_buffer(comp, old), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	uint64_t tests = stats(f->dev).test_commits;

	/* moving the top layer: each frame shares the rest of the one on screen */
	for (int32_t k = 1; k <= 4; k++) {
		assert_int_equal(dispman_layer_set_destination(top, ((int32_t)n - 1) * 20 + k, 0,
			16, 16), 0);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_non_null(f->out->queued->rest);
		assert_ptr_equal(f->out->queued->rest, f->out->shown->rest);
		assert_true(output_holds_buffer(f->out, old));
		assert_int_equal(unit_drain(f->dev), 1);
		assert_int_equal(rel.n, 0);
	}
	assert_int_equal(stats(f->dev).test_commits, tests);

	/* a composited layer's new buffer: a rest of its own; the old buffer is released after
	 * the flip that takes it off the screen, once */
	assert_int_equal(dispman_layer_set_buffer(comp, new), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_ptr_not_equal(f->out->queued->rest, f->out->shown->rest);
	assert_released_by_flip(f, &rel, old);
	for (int32_t k = 5; k <= 6; k++) {
		assert_int_equal(dispman_layer_set_destination(top, ((int32_t)n - 1) * 20 + k, 0,
			16, 16), 0);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_int_equal(unit_drain(f->dev), 1);
	}
	assert_int_equal(rel.n, 1);
	assert_true(output_holds_buffer(f->out, new));
	assert_int_equal(stats(f->dev).test_commits, tests);
	dispman_buffer_set_release_callback(old, NULL, NULL);
	dispman_buffer_set_release_callback(new, NULL, NULL);
	dispman_buffer_unref(bg);
	dispman_buffer_unref(sq);
	dispman_buffer_unref(old);
	dispman_buffer_unref(new);
}

/*
 * A frame that only moves a layer shares the block of scene buffers of the frame on screen
 * (output.c's struct held) instead of referencing each buffer again; a layer's new buffer
 * gives the frame a block of its own, and the buffer it replaced is still released once,
 * after the flip that takes it off the screen.
 */
static void test_scene_buffers_shared(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *bg = unit_show_first_frame(f, 0);
	struct dispman_buffer *a = unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 1);
	struct dispman_buffer *b = unit_pattern_buffer(f->dev, 16, 16, DRM_FORMAT_ARGB8888, 2);
	struct dispman_layer *top = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(top, a), 0);
	assert_int_equal(dispman_layer_set_destination(top, 0, 0, 16, 16), 0);
	assert_int_equal(dispman_layer_set_z(top, 1), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_non_null(layer_plane(top));
	struct unit_release_log rel = { 0 };
	dispman_buffer_set_release_callback(a, unit_record_release, &rel);
	dispman_buffer_set_release_callback(b, unit_record_release, &rel);
	uint64_t tests = stats(f->dev).test_commits;

	/* moving: each frame shares the scene buffers of the one on screen */
	for (int32_t k = 1; k <= 4; k++) {
		assert_int_equal(dispman_layer_set_destination(top, k, 0, 16, 16), 0);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_non_null(f->out->queued->planes);
		assert_ptr_equal(f->out->queued->planes, f->out->shown->planes);
		assert_int_equal(f->out->queued->planes->users, 2);
		assert_int_equal(f->out->queued->planes->n, 2); /* the background and a */
		assert_true(output_holds_buffer(f->out, a));
		assert_int_equal(unit_drain(f->dev), 1);
		assert_int_equal(f->out->shown->planes->users, 1); /* the old frame let it go */
		assert_int_equal(rel.n, 0);
	}

	/* a new buffer: a block of its own; a is released after the flip, once */
	assert_int_equal(dispman_layer_set_buffer(top, b), 0);
	assert_int_equal(dispman_layer_set_destination(top, 5, 0, 16, 16), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_ptr_not_equal(f->out->queued->planes, f->out->shown->planes);
	assert_released_by_flip(f, &rel, a);
	for (int32_t k = 6; k <= 7; k++) {
		assert_int_equal(dispman_layer_set_destination(top, k, 0, 16, 16), 0);
		assert_int_equal(dispman_device_commit(f->dev), 0);
		assert_ptr_equal(f->out->queued->planes, f->out->shown->planes);
		assert_int_equal(unit_drain(f->dev), 1);
	}
	assert_int_equal(rel.n, 1);
	assert_true(output_holds_buffer(f->out, b));
	assert_int_equal(stats(f->dev).test_commits, tests);

	/* the layer gone: b leaves the screen with the next flip, released once */
	dispman_layer_destroy(top);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	assert_int_equal(rel.n, 2);
	assert_ptr_equal(rel.bufs[1], b);
	assert_false(output_holds_buffer(f->out, b));
	dispman_buffer_set_release_callback(a, NULL, NULL);
	dispman_buffer_set_release_callback(b, NULL, NULL);
	dispman_buffer_unref(bg);
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest fixed[] = {
		{ "commit@nothing-enabled", test_nothing_enabled, unit_setup_vkms, unit_teardown,
			NULL },
		{ "commit@modeset-only-when-needed", test_modeset_only_when_needed,
			unit_setup_vkms, unit_teardown, NULL },
		{ "commit@mode-blob-applied", test_mode_blob_applied, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@kernel-refuses", test_kernel_refuses, unit_setup_vkms, unit_teardown,
			NULL },
		{ "commit@flip-refused", test_flip_refused, unit_setup_vkms, unit_teardown, NULL },
		{ "commit@queued-while-flip-pending", test_queued_while_flip_pending,
			unit_setup_vkms, unit_teardown, NULL },
		{ "commit@master-lost", test_master_lost, unit_setup_vkms, unit_teardown, NULL },
		{ "commit@master-timer-restores", test_master_timer_restores, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@master-lost-seat", test_master_lost_seat, unit_setup_vkms, unit_teardown,
			NULL },
		{ "commit@stats", test_stats, unit_setup_vkms, unit_teardown, NULL },
		{ "commit@flip-only-what-changed", test_flip_only_what_changed, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@foreign-plane-turned-off", test_foreign_plane_turned_off, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@frame-callback", test_frame_callback, unit_setup_vkms, unit_teardown,
			NULL },
		{ "commit@commit-from-callback", test_commit_from_callback, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@error-callback", test_error_callback, unit_setup_vkms, unit_teardown,
			NULL },
		{ "commit@flip-read-earlier-in-batch", test_flip_read_earlier_in_batch, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@pollable-fd", test_pollable_fd, unit_setup_vkms, unit_teardown, NULL },
		{ "commit@own-pace-output-commit", test_own_pace, unit_setup_empty, unit_teardown,
			NULL },
		{ "commit@own-pace-device-commit", test_own_pace, unit_setup_empty, unit_teardown,
			"device" },
		{ "commit@next-vblank-and-cost", test_next_vblank_and_cost, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@commit-cost-on-demand", test_commit_cost_on_demand, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@shape-change-waits-for-all", test_shape_change_waits_for_all,
			unit_setup_empty, unit_teardown, NULL },
		{ "commit@short-frame-path", test_short_frame_path, unit_setup_empty,
			unit_teardown, NULL },
		{ "commit@refused-search-records-nothing", test_refused_search_records_nothing,
			unit_setup_vkms, unit_teardown, NULL },
		{ "commit@request-from-proposal", test_request_from_proposal, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@many-layers", test_many_layers, unit_setup_vkms, unit_teardown, NULL },
		{ "commit@composited-buffers-shared", test_composited_buffers_shared,
			unit_setup_vkms, unit_teardown, NULL },
		{ "commit@scene-buffers-shared", test_scene_buffers_shared, unit_setup_vkms,
			unit_teardown, NULL },
		{ "commit@new-buffers-listed", test_new_buffers_listed, unit_setup_empty,
			unit_teardown, NULL },
		{ "commit@new-buffers-overflow", test_new_buffers_overflow, unit_setup_vkms,
			unit_teardown, NULL },
	};
	enum {
		N_ROLLBACK = UNIT_ARRAY_LEN(rollback_cases),
		N_RETRY = UNIT_ARRAY_LEN(retry_cases),
		N = UNIT_ARRAY_LEN(fixed) + N_ROLLBACK + N_RETRY,
	};
	struct CMUnitTest tests[N];
	size_t n = 0;
	for (size_t i = 0; i < UNIT_ARRAY_LEN(fixed); i++)
		tests[n++] = fixed[i];
	for (size_t i = 0; i < N_ROLLBACK; i++)
		tests[n++] = (struct CMUnitTest){ rollback_cases[i].name, test_mode_blob_rollback,
			unit_setup_vkms, unit_teardown, (void *)&rollback_cases[i] };
	for (size_t i = 0; i < N_RETRY; i++)
		tests[n++] = (struct CMUnitTest){ retry_cases[i].name, test_retry,
			unit_setup_vkms, unit_teardown, (void *)&retry_cases[i] };
	return unit_main("commit", tests, n, argc, argv);
}
