/* SPDX-License-Identifier: MIT */
/*
 * The API's own contract: the version macros and query, and setters that refuse bad values
 * (out-of-range enums, numbers beyond their range, NULL objects) with a negative errno and
 * a log line, leaving what was set before. Run under ASan/UBSan: a stored out-of-range
 * blend mode used to index a plane's blend table out of bounds at the next commit.
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <dispman/camera.h>
#include <dispman/input.h>

#include "buffer.h"
#include "device.h"
#include "layer.h"
#include "log.h"
#include "output-private.h" /* the frame callback's data, stored */

/* The runtime query, the macros and meson's project version agree. */
static void test_version(void **state)
{
	(void)state;
	assert_string_equal(dispman_version_string(), UNIT_PROJECT_VERSION);
	assert_string_equal(DISPMAN_VERSION_STRING, UNIT_PROJECT_VERSION);
	unsigned major, minor, micro;
	assert_int_equal(sscanf(UNIT_PROJECT_VERSION, "%u.%u.%u", &major, &minor, &micro), 3);
	assert_int_equal(DISPMAN_VERSION_MAJOR, major);
	assert_int_equal(DISPMAN_VERSION_MINOR, minor);
	assert_int_equal(DISPMAN_VERSION_MICRO, micro);
	assert_int_equal(dispman_version(), DISPMAN_VERSION_ENCODE(major, minor, micro));
	assert_int_equal(dispman_version(), DISPMAN_VERSION);
	assert_true(DISPMAN_VERSION_AT_LEAST(major, minor, micro));
	assert_false(DISPMAN_VERSION_AT_LEAST(major, minor, micro + 1));
	assert_false(DISPMAN_VERSION_AT_LEAST(major, minor + 1, 0));
	assert_false(DISPMAN_VERSION_AT_LEAST(major + 1, 0, 0));
	if (minor > 0)
		assert_true(DISPMAN_VERSION_AT_LEAST(major, minor - 1, 255));
	/* The encoding orders versions. */
	assert_true(DISPMAN_VERSION_ENCODE(1, 0, 0) > DISPMAN_VERSION_ENCODE(0, 255, 255));
	assert_true(DISPMAN_VERSION_ENCODE(0, 2, 0) > DISPMAN_VERSION_ENCODE(0, 1, 255));
}

/* A refused call: the errno, and an error line naming what was wrong. */
#define assert_refused(call, err, needle) do { \
		unit_log_clear(); \
		assert_int_equal((call), (err)); \
		assert_error_logged(needle); \
	} while (0)

/* The settings a layer has after the setters below accepted these values. */
#define GOOD_SRC_X (1u << 16)
#define GOOD_DST_X 40
#define GOOD_ALPHA 0x8000u

static void assert_layer_unchanged(const struct dispman_layer *l)
{
	uint32_t sx, sy, sw, sh, dw, dh;
	int32_t dx, dy;
	layer_get_src(l, &sx, &sy, &sw, &sh);
	layer_get_dst(l, &dx, &dy, &dw, &dh);
	assert_int_equal(sx, GOOD_SRC_X);
	assert_int_equal(sw, 32u << 16);
	assert_int_equal(dx, GOOD_DST_X);
	assert_int_equal(dw, 32);
	assert_int_equal(layer_z(l), 3);
	assert_int_equal(layer_alpha(l), GOOD_ALPHA);
	assert_int_equal(layer_blend(l), DISPMAN_BLEND_COVERAGE);
	assert_true(layer_visible(l));
}

/* Every layer setter: bad values are refused and not stored; the limits are accepted; the
 * layer still commits (a stored blend mode 7 read has_blend[7] out of bounds here). */
static void test_layer_setters(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0x102030);
	struct dispman_layer *l = dispman_layer_create(f->out);
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_ARGB8888, 0);
	assert_int_equal(dispman_layer_set_buffer(l, buf), 0);
	assert_int_equal(dispman_layer_set_source(l, GOOD_SRC_X, 0, 32u << 16, 32u << 16), 0);
	assert_int_equal(dispman_layer_set_destination(l, GOOD_DST_X, 10, 32, 32), 0);
	assert_int_equal(dispman_layer_set_z(l, 3), 0);
	assert_int_equal(dispman_layer_set_alpha(l, GOOD_ALPHA), 0);
	assert_int_equal(dispman_layer_set_blend_mode(l, DISPMAN_BLEND_COVERAGE), 0);
	assert_int_equal(dispman_layer_set_visible(l, true), 0);
	assert_layer_unchanged(l);

	static const int bad_blend[] = { 3, 7, -1, INT_MAX, INT_MIN };
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad_blend); i++)
		assert_refused(dispman_layer_set_blend_mode(l,
			(enum dispman_blend_mode)bad_blend[i]), -EINVAL, "unknown blend mode");
	static const uint32_t bad_alpha[] = { 0x10000, 0x1ffff, UINT32_MAX };
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad_alpha); i++)
		assert_refused(dispman_layer_set_alpha(l, bad_alpha[i]), -ERANGE, "beyond 0xffff");
	static const uint32_t bad_src[][4] = {
		{ 0xffff0000u, 0, 0x20000, 0x10000 },
		{ 0, 0xffff0000u, 0x10000, 0x20000 },
		{ UINT32_MAX, 0, 1, 1 },
		{ 1, 0, UINT32_MAX, 0x10000 },
	};
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad_src); i++)
		assert_refused(dispman_layer_set_source(l, bad_src[i][0], bad_src[i][1],
			bad_src[i][2], bad_src[i][3]), -ERANGE, "beyond 65536 pixels");
	static const struct { int32_t x, y; uint32_t w, h; } bad_dst[] = {
		{ INT32_MAX, 0, 1, 1 },
		{ 0, INT32_MAX, 1, 1 },
		{ 0, 0, 1u << 31, 1 },
		{ 0, 0, 1, UINT32_MAX },
		{ -1, 0, UINT32_MAX, 1 },
		{ 100, 100, INT32_MAX - 99, 1 },
	};
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad_dst); i++)
		assert_refused(dispman_layer_set_destination(l, bad_dst[i].x, bad_dst[i].y,
			bad_dst[i].w, bad_dst[i].h), -ERANGE, "destination");
	assert_layer_unchanged(l);

	/* NULL layer, for each setter. */
	assert_refused(dispman_layer_set_buffer(NULL, buf), -EINVAL, "layer is NULL");
	assert_refused(dispman_layer_set_source(NULL, 0, 0, 0, 0), -EINVAL, "layer is NULL");
	assert_refused(dispman_layer_set_destination(NULL, 0, 0, 0, 0), -EINVAL, "layer is NULL");
	assert_refused(dispman_layer_set_z(NULL, 0), -EINVAL, "layer is NULL");
	assert_refused(dispman_layer_set_alpha(NULL, 0), -EINVAL, "layer is NULL");
	assert_refused(dispman_layer_set_blend_mode(NULL, DISPMAN_BLEND_NONE), -EINVAL,
		"layer is NULL");
	assert_refused(dispman_layer_set_visible(NULL, true), -EINVAL, "layer is NULL");
	assert_refused(dispman_layer_set_cursor_hotspot(NULL, 0, 0), -EINVAL, "layer is NULL");

	/* The layer commits with what was accepted: ARGB with alpha 0x8000 and COVERAGE. */
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	struct dispman_placement p;
	assert_int_equal(dispman_layer_get_placement(l, &p), 0);
	assert_int_not_equal(p.state, DISPMAN_PLACEMENT_NOT_SHOWN);

	/* The limits themselves are accepted. */
	assert_int_equal(dispman_layer_set_alpha(l, 0xffff), 0);
	assert_int_equal(dispman_layer_set_alpha(l, 0), 0);
	assert_int_equal(dispman_layer_set_source(l, 0xffff0000u, 0xffff0000u, 0xffff, 0xffff), 0);
	assert_int_equal(dispman_layer_set_destination(l, INT32_MAX - 1, INT32_MIN, 1, 0), 0);
	assert_int_equal(dispman_layer_set_destination(l, INT32_MIN, 0, UINT32_MAX, 1), 0);
	assert_int_equal(dispman_layer_set_z(l, INT_MIN), 0);
	assert_int_equal(dispman_layer_set_z(l, INT_MAX), 0);
	for (int m = DISPMAN_BLEND_PREMULTIPLIED; m <= DISPMAN_BLEND_NONE; m++) {
		assert_int_equal(dispman_layer_set_blend_mode(l, (enum dispman_blend_mode)m), 0);
		assert_int_equal(layer_blend(l), m);
	}
	assert_int_equal(dispman_layer_set_visible(l, false), 0);
	assert_false(layer_visible(l));
	dispman_buffer_unref(buf);
	dispman_buffer_unref(base);
}

/* The log level: only dispman_log_level values; a refused one leaves the level. */
static void test_log_level(void **state)
{
	(void)state;
	static const int bad[] = { -1, 5, 100, INT_MIN, INT_MAX };
	assert_int_equal(dispman_log_set_level(DISPMAN_LOG_WARNING), 0);
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad); i++)
		assert_refused(dispman_log_set_level((enum dispman_log_level)bad[i]), -EINVAL,
			"unknown level");
	assert_true(log_enabled(DISPMAN_LOG_WARNING));
	assert_false(log_enabled(DISPMAN_LOG_INFO));
	for (int l = DISPMAN_LOG_SILENT; l <= DISPMAN_LOG_DEBUG; l++)
		assert_int_equal(dispman_log_set_level((enum dispman_log_level)l), 0);
	assert_true(log_enabled(DISPMAN_LOG_DEBUG));
	assert_int_equal(dispman_log_set_handler(NULL, NULL), 0);
}

static void on_output(struct dispman_device *dev, struct dispman_output *out,
	enum dispman_output_event event, void *data)
{
	*(int *)data += event == DISPMAN_OUTPUT_DISCONNECTED;
}

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
}

static void on_input(struct dispman_input *input, const struct dispman_input_event *ev,
	void *data)
{
}

/* The other setters: a NULL object is refused with a log line; a real one is taken. */
static void test_object_setters(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_XRGB8888, 0);
	int x = 0;

	assert_refused(dispman_device_set_output_callback(NULL, on_output, &x), -EINVAL,
		"dev is NULL");
	assert_int_equal(dispman_device_set_output_callback(f->dev, on_output, &x), 0);
	assert_refused(dispman_device_set_alloc_budget(NULL, 1, 1), -EINVAL, "dev is NULL");
	assert_refused(dispman_device_probe(NULL), -EINVAL, "dev is NULL");
	assert_refused(dispman_device_commit(NULL), -EINVAL, "dev is NULL");
	assert_refused(dispman_output_commit(NULL), -EINVAL, "out is NULL");
	assert_refused(dispman_output_set_frame_callback(NULL, on_frame, &x), -EINVAL,
		"out is NULL");
	assert_int_equal(dispman_output_set_frame_callback(f->out, on_frame, &x), 0);
	assert_ptr_equal(f->out->frame_data, &x);
	assert_refused(dispman_output_set_buffer(NULL, buf), -EINVAL, "out is NULL");
	assert_refused(dispman_buffer_set_release_callback(NULL, unit_record_release, &x),
		-EINVAL, "buf is NULL");
	assert_int_equal(dispman_buffer_set_release_callback(buf, unit_record_release, &x), 0);
	assert_int_equal(dispman_buffer_set_release_callback(buf, NULL, NULL), 0);

#if HAVE_V4L2
	assert_refused(dispman_camera_set_frame_callback(NULL, NULL, NULL), -EINVAL,
		"cam is NULL");
	assert_refused(dispman_camera_set_error_callback(NULL, NULL, NULL), -EINVAL,
		"cam is NULL");
	assert_refused(dispman_camera_set_control(NULL, "brightness", 1), -EINVAL,
		"cam is NULL");
	assert_refused(dispman_camera_start(NULL), -EINVAL, "cam is NULL");
	assert_refused(dispman_camera_stop(NULL), -EINVAL, "cam is NULL");
	uint32_t fourcc = 1, cw = 1, ch = 1;
	unit_log_clear();
	dispman_camera_get_format(NULL, &fourcc, &cw, &ch);
	assert_true(fourcc == 0 && cw == 0 && ch == 0);
	assert_error_logged("cam is NULL");
#endif

#if HAVE_LIBINPUT
	assert_refused(dispman_input_set_callback(NULL, on_input, &x), -EINVAL, "input is NULL");
	assert_refused(dispman_input_set_output(NULL, f->out), -EINVAL, "input is NULL");
	assert_refused(dispman_input_set_cursor_layer(NULL, NULL, 0, 0), -EINVAL,
		"input is NULL");
	assert_refused(dispman_input_warp_pointer(NULL, 1, 1), -EINVAL, "input is NULL");
	struct dispman_input *in = dispman_input_create_path(f->dev, NULL, 0);
	assert_non_null(in);
	assert_int_equal(dispman_input_set_callback(in, on_input, &x), 0);
	assert_int_equal(dispman_input_set_output(in, f->out), 0);
	assert_int_equal(dispman_input_warp_pointer(in, 100, 50), 0);
	static const double bad[][2] = { { NAN, 0 }, { 0, NAN }, { INFINITY, 0 },
		{ 0, -INFINITY } };
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad); i++)
		assert_refused(dispman_input_warp_pointer(in, bad[i][0], bad[i][1]), -EINVAL,
			"cannot warp");
	double px, py;
	dispman_input_get_pointer_position(in, &px, &py);
	assert_true(px == 100 && py == 50);
	dispman_input_destroy(in);
#else
	(void)on_input;
#endif
	/* the output callback was taken: a probe calls it with its data */
	x = 0;
	mock_drm_set_connector_status(MOCK_VKMS_VIRTUAL, DRM_MODE_DISCONNECTED);
	assert_int_equal(dispman_device_probe(f->dev), 1);
	assert_int_equal(x, 1);
	dispman_buffer_unref(buf);
}

/* A caller's struct with room beyond the library's: the library's struct, then a tail. */
#define TAIL 16
#define SENTINEL 0xa5

/* The struct-that-grows rules for one getter: size 0 and NULL refused, an exact size filled,
 * a smaller size (an older caller) filled up to it only, a larger one (a newer caller) filled
 * up to the library's size with the tail left alone; size tells how much was written. */
#define CHECK_SIZED_GETTER(type, call, obj, first_after) do { \
		union { type s; unsigned char b[sizeof(type) + TAIL]; } u; \
		memset(&u, SENTINEL, sizeof(u)); \
		u.s.size = 0; \
		assert_refused(call(obj, &u.s), -EINVAL, "set it to sizeof(struct"); \
		for (size_t i = sizeof(size_t); i < sizeof(u); i++) \
			assert_int_equal(u.b[i], SENTINEL); \
		assert_refused(call(obj, NULL), -EINVAL, "NULL"); \
		assert_refused(call(NULL, &u.s), -EINVAL, "NULL"); \
		type full = { .size = sizeof(full) }; \
		assert_int_equal(call(obj, &full), 0); \
		assert_int_equal(full.size, sizeof(type)); \
		/* older caller: only the members before first_after */ \
		memset(&u, SENTINEL, sizeof(u)); \
		u.s.size = offsetof(type, first_after); \
		assert_int_equal(call(obj, &u.s), 0); \
		assert_int_equal(u.s.size, offsetof(type, first_after)); \
		assert_memory_equal(u.b + sizeof(size_t), (unsigned char *)&full + sizeof(size_t), \
			offsetof(type, first_after) - sizeof(size_t)); \
		for (size_t i = offsetof(type, first_after); i < sizeof(u); i++) \
			assert_int_equal(u.b[i], SENTINEL); \
		/* newer caller: everything the library knows, the tail untouched */ \
		memset(&u, SENTINEL, sizeof(u)); \
		u.s.size = sizeof(u); \
		assert_int_equal(call(obj, &u.s), 0); \
		assert_int_equal(u.s.size, sizeof(type)); \
		assert_memory_equal(u.b + sizeof(size_t), (unsigned char *)&full + sizeof(size_t), \
			sizeof(type) - sizeof(size_t)); \
		for (size_t i = sizeof(type); i < sizeof(u); i++) \
			assert_int_equal(u.b[i], SENTINEL); \
	} while (0)

static void test_sized_getters(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *buf = unit_show_first_frame(f, 0x405060);

	CHECK_SIZED_GETTER(struct dispman_stats, dispman_device_get_stats, f->dev, flips);
	struct dispman_stats st = { .size = sizeof(st) };
	assert_int_equal(dispman_device_get_stats(f->dev, &st), 0);
	assert_true(st.commits >= 1 && st.flips >= 1);
	assert_int_equal(st.commits, device_stats(f->dev)->commits);

	CHECK_SIZED_GETTER(struct dispman_limits, dispman_device_get_limits, f->dev, min_height);
	struct dispman_limits lim = { .size = sizeof(lim) };
	assert_int_equal(dispman_device_get_limits(f->dev, &lim), 0);
	assert_int_equal(lim.max_width, device_limits(f->dev)->max_width);
	assert_true(lim.max_width > 0);

	CHECK_SIZED_GETTER(struct dispman_output_stats, dispman_output_get_stats, f->out,
		late_frames);
	struct dispman_output_stats os = { .size = sizeof(os) };
	assert_int_equal(dispman_output_get_stats(f->out, &os), 0);
	assert_true(os.frames >= 1);
	assert_true(os.refresh_mhz > 0);

#if HAVE_V4L2
	struct dispman_camera_stats cs = { .size = sizeof(cs) };
	assert_refused(dispman_camera_get_stats(NULL, &cs), -EINVAL, "cam is NULL");
#endif
	dispman_buffer_unref(buf);
}

#if HAVE_V4L2
/* dispman_camera_create() on a node that does not exist: EINVAL/E2BIG mean the config was
 * refused before the node was tried, ENOENT that it was taken. */
static int create_errno(struct dispman_layer *layer, const void *config)
{
	errno = 0;
	struct dispman_camera *cam = dispman_camera_create(layer, config);
	assert_null(cam);
	return errno;
}

static void test_sized_config(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_layer *layer = dispman_layer_create(f->out);
	const char *path = "/nonexistent/video-api-test";

	struct dispman_camera_config ok = { .size = sizeof(ok), .path = path };
	assert_int_equal(create_errno(layer, &ok), ENOENT);

	/* size not set */
	struct dispman_camera_config c = ok;
	c.size = 0;
	unit_log_clear();
	assert_int_equal(create_errno(layer, &c), EINVAL);
	assert_error_logged("set it to sizeof(struct dispman_camera_config)");
	assert_int_equal(create_errno(layer, NULL), EINVAL);

	/* an older caller: members beyond its size count as 0 (n_buffers 1 would be refused) */
	c = ok;
	c.n_buffers = 1;
	c.flags = 0x80;
	assert_int_equal(create_errno(layer, &c), EINVAL);
	c.size = offsetof(struct dispman_camera_config, n_buffers);
	assert_int_equal(create_errno(layer, &c), ENOENT);

	/* a newer caller: a zero tail is fine, a member this library does not know is not */
	union { struct dispman_camera_config s; unsigned char b[sizeof(ok) + TAIL]; } u;
	memset(&u, 0, sizeof(u));
	u.s = ok;
	u.s.size = sizeof(u);
	assert_int_equal(create_errno(layer, &u.s), ENOENT);
	u.b[sizeof(ok) + 3] = 1;
	unit_log_clear();
	assert_int_equal(create_errno(layer, &u.s), E2BIG);
	assert_error_logged("knows only");

	/* out-of-range enums and flags */
	static const int bad_memory[] = { -1, DISPMAN_CAMERA_MEMORY_COPY + 1, 99, INT_MAX };
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad_memory); i++) {
		c = ok;
		c.memory = (enum dispman_camera_memory)bad_memory[i];
		unit_log_clear();
		assert_int_equal(create_errno(layer, &c), EINVAL);
		assert_error_logged("unknown memory path");
	}
	static const uint32_t bad_flags[] = { 1u << 2, 1u << 31, UINT32_MAX };
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad_flags); i++) {
		c = ok;
		c.flags = bad_flags[i];
		unit_log_clear();
		assert_int_equal(create_errno(layer, &c), EINVAL);
		assert_error_logged("unknown flags");
	}
	c = ok;
	c.n_buffers = 1;
	assert_int_equal(create_errno(layer, &c), EINVAL);
	c.path = NULL;
	c.n_buffers = 0;
	assert_int_equal(create_errno(layer, &c), EINVAL);
	assert_int_equal(create_errno(NULL, &ok), EINVAL);
}
#endif

/*
 * Every public function that takes an enum refuses each value beyond it (negative, the
 * first past the last, large, INT_MIN/INT_MAX) with -EINVAL and a log line, writes no
 * output, and the device still commits and describes itself afterwards. The blend mode and
 * the log level have their own cases above; this adds the capture path and the describe
 * format, and runs them all once more together.
 */
static void test_enum_ranges(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *base = unit_show_first_frame(f, 0x405060);
	struct dispman_layer *l = dispman_layer_create(f->out);
	assert_non_null(l);
	assert_int_equal(dispman_layer_set_buffer(l, base), 0);
	FILE *null = fopen("/dev/null", "w");
	assert_non_null(null);
	const int bad[] = { -1, 3, 4, 5, 99, INT_MIN, INT_MAX };
	for (size_t i = 0; i < UNIT_ARRAY_LEN(bad); i++) {
		struct dispman_buffer *frame = (struct dispman_buffer *)(uintptr_t)1;
		enum dispman_capture_path used = DISPMAN_CAPTURE_CPU;
		if (bad[i] > DISPMAN_CAPTURE_CPU || bad[i] < 0) {
			assert_refused(dispman_output_capture_with(f->out,
				(enum dispman_capture_path)bad[i], &frame, &used), -EINVAL,
				"unknown capture path");
			assert_null(frame);
			assert_int_equal(used, DISPMAN_CAPTURE_AUTO);
		}
		if (bad[i] > (int)DISPMAN_DESCRIBE_DOT || bad[i] < 0)
			assert_refused(dispman_device_describe(f->dev,
				(enum dispman_describe_format)bad[i], null), -EINVAL,
				"unknown format");
		if (bad[i] > DISPMAN_BLEND_NONE || bad[i] < 0)
			assert_refused(dispman_layer_set_blend_mode(l,
				(enum dispman_blend_mode)bad[i]), -EINVAL, "unknown blend mode");
		if (bad[i] > DISPMAN_LOG_DEBUG || bad[i] < 0)
			assert_refused(dispman_log_set_level((enum dispman_log_level)bad[i]), -EINVAL,
				"unknown level");
	}
	/* nothing bad was stored: the next commit and describe use only valid values */
	assert_int_equal(layer_blend(l), DISPMAN_BLEND_PREMULTIPLIED);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(dispman_device_describe(f->dev, DISPMAN_DESCRIBE_JSON, null), 0);
	fclose(null);
	dispman_layer_destroy(l);
	dispman_buffer_unref(base);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "api@version", test_version, NULL, NULL, NULL },
		{ "api@layer-setters", test_layer_setters, unit_setup_vkms, unit_teardown, NULL },
		{ "api@log-level", test_log_level, unit_setup_vkms, unit_teardown, NULL },
		{ "api@object-setters", test_object_setters, unit_setup_vkms, unit_teardown, NULL },
		{ "api@sized-getters", test_sized_getters, unit_setup_vkms, unit_teardown, NULL },
		{ "api@enum-ranges", test_enum_ranges, unit_setup_vkms, unit_teardown, NULL },
#if HAVE_V4L2
		{ "api@sized-config", test_sized_config, unit_setup_vkms, unit_teardown, NULL },
#endif
	};
	return unit_main("api", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
