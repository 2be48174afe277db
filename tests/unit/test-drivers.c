/* SPDX-License-Identifier: MIT */
/*
 * What a second driver needs (issue 9), on the mock: buffers the kernel makes no framebuffer
 * for are composed on the CPU with reason FORMAT; LINEAR without DRM_CAP_ADDFB2_MODIFIERS;
 * frame pacing from the flips' timestamps when their vblank sequence stays 0 (virtio-gpu);
 * virtualized cursor planes, hidden without DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT, with their
 * HOTSPOT_X/Y programmed from the layer.
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "layer.h"
#include "output-private.h" /* pacing: a scripted run of flips, the pace timer */
#include "plane.h"

static struct dispman_placement placement(struct dispman_layer *layer)
{
	struct dispman_placement p;
	assert_int_equal(dispman_layer_get_placement(layer, &p), 0);
	return p;
}

static void fill(struct dispman_buffer *buf, uint32_t value)
{
	void *data;
	uint32_t stride;
	assert_int_equal(dispman_buffer_map(buf, &data, &stride), 0);
	for (uint32_t y = 0; y < dispman_buffer_get_height(buf); y++)
		for (uint32_t x = 0; x < dispman_buffer_get_width(buf); x++)
			((uint32_t *)(void *)((char *)data + (size_t)y * stride))[x] = value;
}

/* ---- buffers without a framebuffer ---- */

/*
 * XBGR8888, which no plane of the vkms-like device takes: the kernel (vkms 6.12; scripted)
 * refuses the framebuffer. The buffer exists anyway and its layer is composed on the CPU,
 * reason FORMAT, with the right pixels.
 */
static void test_no_fb_composited(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	unit_log_clear();
	mock_drm_fail_next("drmModeAddFB2", EINVAL);
	struct dispman_buffer *top = dispman_buffer_create_dumb(f->dev, 32, 16,
		DRM_FORMAT_XBGR8888);
	assert_non_null(top);
	assert_int_equal(dispman_buffer_get_fb_id(top), 0);
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	fill(top, 0x000080ff); /* XBGR: R 0xff, G 0x80, B 0 */
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, top), 0);
	dispman_layer_set_destination(layer, 100, 50, 0, 0);
	dispman_layer_set_z(layer, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	struct dispman_placement p = placement(layer);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_COMPOSITED);
	assert_int_equal(p.reason, DISPMAN_REASON_FORMAT);
	unit_check_rect(f, 0xff8000);
	dispman_buffer_unref(top);
	dispman_buffer_unref(base);
}

/*
 * A format the planes take, but the kernel refuses its framebuffer anyway (EINVAL injected):
 * the buffer is composed, never put on a plane with FB_ID 0.
 */
static void test_no_fb_refused(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	mock_drm_fail_next("drmModeAddFB2", EINVAL);
	struct dispman_buffer *top = dispman_buffer_create_dumb(f->dev, 32, 16,
		DRM_FORMAT_XRGB8888);
	assert_non_null(top);
	assert_int_equal(dispman_buffer_get_fb_id(top), 0);
	fill(top, 0x123456);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, top), 0);
	dispman_layer_set_destination(layer, 100, 50, 0, 0);
	dispman_layer_set_z(layer, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
	struct dispman_placement p = placement(layer);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_COMPOSITED);
	assert_int_equal(p.reason, DISPMAN_REASON_FORMAT);
	for (int i = 0; i < 8; i++) {
		uint64_t fb = 1;
		assert_true(mock_drm_get_prop(MOCK_VKMS_OVERLAY(i), "FB_ID", &fb));
		assert_int_equal(fb, 0);
	}
	unit_check_rect(f, 0x123456);
	dispman_buffer_unref(top);
	dispman_buffer_unref(base);
}

/* virtio-gpu answers ENOENT for a format it has no framebuffer for: the same "no". */
static void test_no_fb_enoent(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_fail_next("drmModeAddFB2", ENOENT);
	struct dispman_buffer *buf = dispman_buffer_create_dumb(f->dev, 32, 16,
		DRM_FORMAT_XRGB8888);
	assert_non_null(buf);
	assert_int_equal(dispman_buffer_get_fb_id(buf), 0);
	assert_int_equal(unit_log_count(DISPMAN_LOG_ERROR), 0);
	assert_true(unit_log_find(DISPMAN_LOG_INFO, "CPU composition only"));
	dispman_buffer_unref(buf);
}

/* Another AddFB2 failure (no memory) still fails the creation: only "no" is taken. */
static void test_no_fb_enomem(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_fail_next("drmModeAddFB2", ENOMEM);
	errno = 0;
	assert_null(dispman_buffer_create_dumb(f->dev, 32, 16, DRM_FORMAT_XRGB8888));
	assert_int_equal(errno, ENOMEM);
	assert_error_logged("AddFB2");
	unit_assert_no_live_objects();
}

/* ---- LINEAR without DRM_CAP_ADDFB2_MODIFIERS ---- */

/* An imported LINEAR buffer on such a device goes on a plane, through AddFB2 without
 * modifiers. */
static void test_linear_without_cap_on_plane(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_set_cap(DRM_CAP_ADDFB2_MODIFIERS, 0);
	unit_open_device(f);
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	int mem = unit_memfd(64 * 4 * 64);
	struct dispman_dmabuf_desc d = {
		.width = 64, .height = 64, .fourcc = DRM_FORMAT_XRGB8888,
		.modifier = DRM_FORMAT_MOD_LINEAR, .n_planes = 1, .fds = { mem },
		.pitches = { 256 },
	};
	unit_log_clear();
	struct dispman_buffer *buf = dispman_buffer_import_dmabuf(f->dev, &d);
	close(mem);
	assert_non_null(buf);
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);
	assert_int_equal(dispman_buffer_get_modifier(buf), DRM_FORMAT_MOD_LINEAR);
	struct mock_drm_fb_info fb;
	assert_true(mock_drm_get_fb(dispman_buffer_get_fb_id(buf), &fb));
	assert_int_equal(fb.modifier, DRM_FORMAT_MOD_LINEAR);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, buf), 0);
	dispman_layer_set_z(layer, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	struct dispman_placement p = placement(layer);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_ON_PLANE);
	uint64_t fb_id = 0;
	assert_true(mock_drm_get_prop(p.plane_id, "FB_ID", &fb_id));
	assert_int_equal(fb_id, dispman_buffer_get_fb_id(buf));
	dispman_buffer_unref(buf);
	dispman_buffer_unref(base);
}

/* ---- pacing ---- */

static struct timespec ts_at(int64_t ns)
{
	return (struct timespec){ .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
}

/*
 * A scripted run of flips on an active 1024x768@60 output: four frames, the second
 * committed in time but shown 2 vblanks late, the third committed 5.5 periods after the
 * previous flip (late, 5 vblanks without a frame), the fourth in time with 0.4 periods of
 * jitter. seq_step 0 is virtio-gpu (every event carries sequence 0), 1 a vblank counter.
 */
static void run_pacing_script(struct unit_fixture *f, uint64_t seq_step)
{
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	struct dispman_output *out = f->out;
	int64_t period = (int64_t)out->cur_mode.htotal * out->cur_mode.vtotal * 1000000 /
		out->cur_mode.clock;
	assert_true(period > 16000000 && period < 17000000);
	memset(&out->pacing, 0, sizeof(out->pacing));
	out->pacing_run = false;
	int64_t t = 5000000000;
	uint64_t seq = 0;
	struct timespec ts = ts_at(t);
	output_count_pacing(out, seq, &ts); /* starts the run */
	/* in time, on the next vblank */
	static const struct { double commit_after, flip_after; } frames[] = {
		{ 0.1, 1.0 },   /* in time, next vblank */
		{ 0.1, 3.0 },   /* in time, shown 2 vblanks late: missed 2 */
		{ 5.5, 6.0 },   /* committed late: late frame, 5 vblanks skipped */
		{ 0.2, 1.4 },   /* in time, jitter: no miss */
	};
	for (size_t i = 0; i < UNIT_ARRAY_LEN(frames); i++) {
		out->commit_ns = t + (int64_t)(frames[i].commit_after * (double)period);
		int64_t vblanks = (int64_t)(frames[i].flip_after + 0.5);
		t += (int64_t)(frames[i].flip_after * (double)period);
		seq += seq_step * (uint64_t)vblanks;
		ts = ts_at(t);
		output_count_pacing(out, seq, &ts);
	}
	struct dispman_output_stats s = { .size = sizeof(s) };
	dispman_output_get_stats(out, &s);
	assert_int_equal(s.frames, 5);
	assert_int_equal(s.missed_vblanks, 2);
	assert_int_equal(s.late_frames, 1);
	assert_int_equal(s.skipped_vblanks, 5);
	assert_int_equal(s.last_sequence, seq);
	assert_int_equal(s.clock, seq_step ? DISPMAN_PACING_SEQUENCE : DISPMAN_PACING_TIMESTAMP);
	dispman_buffer_unref(base);
}

static void test_pacing_sequence_zero(void **state)
{
	unit_log_clear();
	run_pacing_script(*state, 0);
	assert_true(unit_log_find(DISPMAN_LOG_INFO, "counting vblanks from their timestamps"));
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);
}

static void test_pacing_sequence(void **state)
{
	unit_log_clear();
	run_pacing_script(*state, 1);
	assert_false(unit_log_find(DISPMAN_LOG_DEBUG, "from their timestamps"));
}

/*
 * A driver that completes flips faster than its refresh (virtio-gpu, sequence 0): 30 flips
 * 0.6 periods apart span 18 periods. Counted from the run's start, 12 of them share a
 * period with the flip before (early_flips) and nothing is a miss; counting each flip's
 * own gap (0.6 rounds to 1) would claim 30 vblanks for 18 periods.
 */
static void test_pacing_fast_flips(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	struct dispman_output *out = f->out;
	int64_t period = (int64_t)out->cur_mode.htotal * out->cur_mode.vtotal * 1000000 /
		out->cur_mode.clock;
	memset(&out->pacing, 0, sizeof(out->pacing));
	out->pacing_run = false;
	int64_t t = 5000000000;
	struct timespec ts = ts_at(t);
	output_count_pacing(out, 0, &ts);
	for (int i = 0; i < 30; i++) {
		out->commit_ns = t + period / 10;
		t += period * 6 / 10;
		ts = ts_at(t);
		output_count_pacing(out, 0, &ts);
	}
	struct dispman_output_stats s = { .size = sizeof(s) };
	dispman_output_get_stats(out, &s);
	assert_int_equal(s.clock, DISPMAN_PACING_TIMESTAMP);
	assert_int_equal(s.frames, 31);
	assert_int_equal(s.early_flips, 12);
	assert_int_equal(s.missed_vblanks + s.skipped_vblanks, 0);
	assert_int_equal(s.frames - 1 - s.early_flips + s.missed_vblanks + s.skipped_vblanks, 18);
	dispman_buffer_unref(base);
}

/*
 * Frame callbacks that commit again, for 300 ms of real time. Unpaced (virtio-gpu: the
 * flip of a commit that changes nothing completes at once, sequence 0) they must still run
 * about once per refresh period (60 Hz: 18 in 300 ms), not once per flip; paced flips (a
 * vblank counter, the mock completing each flip at once) are left as they come.
 */
struct spin {
	struct unit_fixture *f;
	int frames;
	int64_t first_ns, last_ns;
};

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void on_spin_frame(struct dispman_output *out, uint64_t seq, const struct timespec *ts,
	void *data)
{
	(void)out;
	(void)seq;
	(void)ts;
	struct spin *s = data;
	if (!s->frames++)
		s->first_ns = now_ns();
	s->last_ns = now_ns();
	assert_int_equal(dispman_device_commit(s->f->dev), 0);
}

static uint64_t flips_so_far(struct dispman_output *out)
{
	struct dispman_output_stats ps = { .size = sizeof(ps) };
	assert_int_equal(dispman_output_get_stats(out, &ps), 0);
	return ps.frames;
}

/* Commit from every frame callback for ms; returns the callbacks, *flips the flips meanwhile. */
static int spin_for(struct unit_fixture *f, bool unpaced, int ms, uint64_t *flips)
{
	mock_drm_set_unpaced_flips(unpaced);
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	struct spin s = { .f = f };
	assert_int_equal(dispman_output_set_frame_callback(f->out, on_spin_frame, &s), 0);
	uint64_t flips0 = flips_so_far(f->out);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	int64_t end = now_ns() + (int64_t)ms * 1000000;
	while (now_ns() < end)
		assert_true(dispman_device_dispatch(f->dev, 50) >= 0);
	*flips = flips_so_far(f->out) - flips0;
	dispman_output_set_frame_callback(f->out, NULL, NULL);
	unit_drain(f->dev);
	dispman_buffer_unref(base);
	struct dispman_output_stats ps = { .size = sizeof(ps) };
	dispman_output_get_stats(f->out, &ps);
	printf("%s flips: %d frame callbacks in %d ms (%.1f ms apart), pacing clock %d\n",
		unpaced ? "unpaced" : "paced", s.frames, ms, s.frames > 1 ?
		(double)(s.last_ns - s.first_ns) / 1e6 / (s.frames - 1) : 0.0, (int)ps.clock);
	assert_int_equal(ps.clock, unpaced ? DISPMAN_PACING_TIMESTAMP : DISPMAN_PACING_SEQUENCE);
	return s.frames;
}

static void test_pacing_unpaced_callbacks(void **state)
{
	uint64_t flips;
	int frames = spin_for(*state, true, 300, &flips);
	assert_true(frames >= 3);        /* they keep coming */
	assert_true(frames <= 18 + 3);   /* at most one per 16.7 ms period, plus the edges */
	assert_true((uint64_t)frames <= flips);
	assert_true(((struct unit_fixture *)*state)->out->pace_fd >= 0); /* deferred by the timer */
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);
}

static void test_pacing_paced_callbacks(void **state)
{
	/* The mock completes each flip at once, with a vblank sequence that advances: every
	 * flip has its callback at once (none deferred, no pace timer), however many the loop
	 * manages on this machine. */
	struct unit_fixture *f = *state;
	uint64_t flips;
	int frames = spin_for(f, false, 300, &flips);
	assert_true(frames > 18);  /* more than the 16.7 ms period would allow */
	assert_int_equal((uint64_t)frames, flips);
	assert_int_equal(f->out->pace_fd, -1);
}

/* ---- virtualized cursor planes ---- */

static void build_hotspot_device(void)
{
	static const uint32_t argb[] = { DRM_FORMAT_ARGB8888 };
	unit_build_plain_device();
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_CURSOR,
		.formats = argb,
		.num_formats = 1,
		.hotspot = true,
	});
}

/*
 * Like virtio-gpu on 6.12: the cursor plane is listed only after the client cap; a cursor
 * layer lands on it with its hotspot in HOTSPOT_X/Y; moving the hotspot reprograms them.
 */
static void test_cursor_hotspot(void **state)
{
	struct unit_fixture *f = *state;
	build_hotspot_device();
	unit_open_device(f);
	assert_true(device_cursor_hotspot_cap(f->dev));
	uint32_t cursor_id = 0;
	for (size_t i = 0; i < device_n_planes(f->dev); i++)
		if (plane_type(device_plane(f->dev, i)) == DRM_PLANE_TYPE_CURSOR)
			cursor_id = plane_id(device_plane(f->dev, i));
	assert_int_not_equal(cursor_id, 0);
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	struct dispman_buffer *arrow = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_ARGB8888,
		0xff000000);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, arrow), 0);
	assert_int_equal(dispman_layer_set_cursor_hotspot(layer, 5, 7), 0);
	dispman_layer_set_destination(layer, 300, 200, 0, 0);
	dispman_layer_set_z(layer, 10);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	struct dispman_placement p = placement(layer);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_ON_PLANE);
	assert_int_equal(p.plane_id, cursor_id);
	uint64_t v = 0;
	assert_true(mock_drm_get_prop(cursor_id, "FB_ID", &v));
	assert_int_equal(v, dispman_buffer_get_fb_id(arrow));
	assert_true(mock_drm_get_prop(cursor_id, "HOTSPOT_X", &v));
	assert_int_equal(v, 5);
	assert_true(mock_drm_get_prop(cursor_id, "HOTSPOT_Y", &v));
	assert_int_equal(v, 7);
	assert_int_equal(dispman_layer_set_cursor_hotspot(layer, 31, 2), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_true(mock_drm_get_prop(cursor_id, "HOTSPOT_X", &v));
	assert_int_equal(v, 31);
	assert_true(mock_drm_get_prop(cursor_id, "HOTSPOT_Y", &v));
	assert_int_equal(v, 2);
	assert_int_equal(dispman_layer_set_cursor_hotspot(NULL, 1, 1), -EINVAL);
	assert_error_logged("layer is NULL");
	dispman_buffer_unref(arrow);
	dispman_buffer_unref(base);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "drivers@no-fb-composited", test_no_fb_composited, unit_setup_vkms,
			unit_teardown, NULL },
		{ "drivers@no-fb-refused", test_no_fb_refused, unit_setup_vkms, unit_teardown,
			NULL },
		{ "drivers@no-fb-enoent", test_no_fb_enoent, unit_setup_vkms, unit_teardown,
			NULL },
		{ "drivers@no-fb-enomem", test_no_fb_enomem, unit_setup_vkms, unit_teardown,
			NULL },
		{ "drivers@linear-without-cap-on-plane", test_linear_without_cap_on_plane,
			unit_setup_vkms_closed, unit_teardown, NULL },
		{ "drivers@pacing-sequence-zero", test_pacing_sequence_zero, unit_setup_vkms,
			unit_teardown, NULL },
		{ "drivers@pacing-sequence", test_pacing_sequence, unit_setup_vkms, unit_teardown,
			NULL },
		{ "drivers@pacing-unpaced-callbacks", test_pacing_unpaced_callbacks,
			unit_setup_vkms, unit_teardown, NULL },
		{ "drivers@pacing-paced-callbacks", test_pacing_paced_callbacks, unit_setup_vkms,
			unit_teardown, NULL },
		{ "drivers@pacing-fast-flips", test_pacing_fast_flips, unit_setup_vkms,
			unit_teardown, NULL },
		{ "drivers@cursor-hotspot", test_cursor_hotspot, unit_setup_empty, unit_teardown,
			NULL },
	};
	return unit_main("drivers", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
