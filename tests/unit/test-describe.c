/* SPDX-License-Identifier: MIT */
/*
 * dispman_device_describe() of the vkms-like mock device in TEXT, JSON and DOT, diffed
 * against the golden files in tests/unit/golden/. To regenerate them after an intended change
 * of the output (see doc/testing.md), then review the diff:
 * DISPMAN_UPDATE_GOLDEN=1 meson test -C build describe@text describe@json describe@dot
 */
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct golden_case {
	const char *name;
	enum dispman_describe_format format;
	const char *file;
};

static const struct golden_case golden_cases[] = {
	{ "describe@text", DISPMAN_DESCRIBE_TEXT, "describe.txt" },
	{ "describe@json", DISPMAN_DESCRIBE_JSON, "describe.json" },
	{ "describe@dot", DISPMAN_DESCRIBE_DOT, "describe.dot" },
};

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	for (;;) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
		assert_non_null(buf);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Prints the first line that differs, with its number. */
static void report_diff(const char *want, size_t want_len, const char *got, size_t got_len)
{
	size_t line = 1, i = 0;
	while (i < want_len && i < got_len && want[i] == got[i]) {
		line += want[i] == '\n';
		i++;
	}
	size_t start = i;
	while (start > 0 && want[start - 1] != '\n')
		start--;
	const char *we = memchr(want + start, '\n', want_len - start);
	const char *ge = memchr(got + start, '\n', got_len > start ? got_len - start : 0);
	int wl = (int)(we ? (size_t)(we - want) - start : want_len - start);
	int gl = (int)(ge ? (size_t)(ge - got) - start : (got_len > start ? got_len - start : 0));
	print_error("first difference at line %zu:\n- %.*s\n+ %.*s\n", line, wl, want + start,
		gl, got_len > start ? got + start : "");
}

static void test_golden(void **state)
{
	struct unit_fixture *f = *state;
	const struct golden_case *tc = f->param;
	char *got = NULL;
	size_t got_len = 0;
	FILE *mem = open_memstream(&got, &got_len);
	assert_non_null(mem);
	assert_int_equal(dispman_device_describe(f->dev, tc->format, mem), 0);
	fclose(mem);
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);

	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", UNIT_GOLDEN_DIR, tc->file);
	const char *update = getenv("DISPMAN_UPDATE_GOLDEN");
	if (update && strcmp(update, "1") == 0) {
		FILE *out = fopen(path, "wb");
		assert_non_null(out);
		assert_int_equal(fwrite(got, 1, got_len, out), got_len);
		assert_int_equal(fclose(out), 0);
		print_message("updated %s\n", path);
	}
	size_t want_len = 0;
	char *want = read_file(path, &want_len);
	if (!want)
		fail_msg("cannot read %s (DISPMAN_UPDATE_GOLDEN=1 creates it)", path);
	if (want_len != got_len || memcmp(want, got, got_len) != 0) {
		report_diff(want, want_len, got, got_len);
		fail_msg("%s differs from the output (DISPMAN_UPDATE_GOLDEN=1 regenerates it)",
			path);
	}
	free(want);
	free(got);
}

/* Things the issue requires in every form: the CRTC, both connectors, all ten planes. */
static void test_contents(void **state)
{
	struct unit_fixture *f = *state;
	static const char *const text_needles[] = {
		"Virtual-1", "Writeback-1", "XR24", "AR24", "RG16", "LINEAR", "primary",
		"overlay", "cursor", "WRITEBACK_PIXEL_FORMATS", "IN_FORMATS",
	};
	for (int format = DISPMAN_DESCRIBE_TEXT; format <= DISPMAN_DESCRIBE_DOT; format++) {
		char *got = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&got, &len);
		assert_int_equal(dispman_device_describe(f->dev,
			(enum dispman_describe_format)format, mem), 0);
		fclose(mem);
		char needle[64];
		snprintf(needle, sizeof(needle), "%u", MOCK_VKMS_CRTC);
		assert_non_null(strstr(got, needle));
		for (int i = 0; i < 10; i++) {
			uint32_t id = i == 0 ? MOCK_VKMS_PRIMARY :
				i == 9 ? MOCK_VKMS_CURSOR : MOCK_VKMS_OVERLAY(i - 1);
			snprintf(needle, sizeof(needle), "%u", id);
			assert_non_null(strstr(got, needle));
		}
		if (format != DISPMAN_DESCRIBE_DOT)
			for (size_t i = 0; i < UNIT_ARRAY_LEN(text_needles); i++)
				assert_non_null(strstr(got, text_needles[i]));
		free(got);
	}
}

static char *describe_to_string(struct dispman_device *dev, enum dispman_describe_format fmt)
{
	char *got = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&got, &len);
	assert_non_null(mem);
	assert_int_equal(dispman_device_describe(dev, fmt, mem), 0);
	fclose(mem);
	return got;
}

/* drm_info's level: caps, client caps, mode timings, property type, flags, spec, values. */
static void test_details(void **state)
{
	struct unit_fixture *f = *state;
	static const char *const json_needles[] = {
		"\"caps\": {", "\"DUMB_BUFFER\": 1", "\"CURSOR_WIDTH\": 512", "\"client_caps\": {",
		"\"ATOMIC\": true", "\"hsync_start\": 1048", "\"vtotal\": 806", "\"clock\": 65000",
		"\"flag_names\": \"nhsync nvsync\"", "\"type\": \"enum\"", "\"type\": \"signed range\"",
		"\"min\": -2147483648", "\"max\": 2147483647", "\"object_type\": \"CRTC\"",
		"\"immutable\"", "\"atomic\"", "\"raw_value\": 18446744073709551615",
		"\"value\": -1", "\"name\": \"Standby\"", "\"modifier_name\": \"LINEAR\"",
		"\"format_codes\": [", "\"max_width\": 8192",
	};
	char *got = describe_to_string(f->dev, DISPMAN_DESCRIBE_JSON);
	for (size_t i = 0; i < UNIT_ARRAY_LEN(json_needles); i++)
		if (!strstr(got, json_needles[i]))
			fail_msg("JSON lacks %s", json_needles[i]);
	free(got);
	static const char *const text_needles[] = {
		"DPMS: On [enum; On=0 Standby=1 Suspend=2 Off=3]",
		"IN_FENCE_FD: -1 [signed range, atomic; -1..2147483647]",
		"1024x768@60.003 preferred: 65000 kHz, h 1024 1048 1184 1344 0, v 768 771 777 806 0",
		"CURSOR_HEIGHT: 512",
	};
	got = describe_to_string(f->dev, DISPMAN_DESCRIBE_TEXT);
	for (size_t i = 0; i < UNIT_ARRAY_LEN(text_needles); i++)
		if (!strstr(got, text_needles[i]))
			fail_msg("text lacks %s", text_needles[i]);
	free(got);
}

/* A plane whose IN_FORMATS cannot be read lists no modifier: not "INVALID". */
static void test_no_modifiers(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_fail_next("drmModeGetPropertyBlob", EINVAL); /* the primary's IN_FORMATS */
	unit_open_device(f);
	for (int fmt = DISPMAN_DESCRIBE_TEXT; fmt <= DISPMAN_DESCRIBE_JSON; fmt++) {
		char *got = describe_to_string(f->dev, (enum dispman_describe_format)fmt);
		assert_null(strstr(got, "INVALID"));
		assert_non_null(strstr(got, fmt == DISPMAN_DESCRIBE_JSON ? "\"in_formats\": false" :
			"in_formats: false"));
		assert_non_null(strstr(got, "LINEAR")); /* the other planes' modifier */
		free(got);
	}
}

static void test_invalid(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_device_describe(f->dev, (enum dispman_describe_format)7, stdout),
		-EINVAL);
	assert_error_logged("dispman_device_describe: unknown format 7");
	unit_log_clear();
	assert_int_equal(dispman_device_describe(f->dev, DISPMAN_DESCRIBE_TEXT, NULL), -EINVAL);
	assert_error_logged("dispman_device_describe: out is NULL");
	unit_log_clear();
	assert_int_equal(dispman_device_describe(NULL, DISPMAN_DESCRIBE_TEXT, stdout), -EINVAL);
	assert_error_logged("dispman_device_describe: dev is NULL");
}

/* A stream that cannot be written: the errno of the write comes back, with a log line. */
static void test_write_error(void **state)
{
	struct unit_fixture *f = *state;
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		skip();
	assert_int_equal(dispman_device_describe(f->dev, DISPMAN_DESCRIBE_JSON, full), -ENOSPC);
	assert_error_logged("write failed");
	fclose(full);
}

static void test_libdrm_failure(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_fail_next("drmModeGetResources", EIO);
	assert_int_equal(dispman_device_describe(f->dev, DISPMAN_DESCRIBE_TEXT, stdout), -EIO);
	assert_error_logged("cannot get KMS resources");
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest fixed[] = {
		{ "describe@contents", test_contents, unit_setup_vkms, unit_teardown, NULL },
		{ "describe@invalid", test_invalid, unit_setup_vkms, unit_teardown, NULL },
		{ "describe@details", test_details, unit_setup_vkms, unit_teardown, NULL },
		{ "describe@no-modifiers", test_no_modifiers, unit_setup_vkms_closed, unit_teardown,
			NULL },
		{ "describe@write-error", test_write_error, unit_setup_vkms, unit_teardown, NULL },
		{ "describe@libdrm-failure", test_libdrm_failure, unit_setup_vkms, unit_teardown,
			NULL },
	};
	enum { N = UNIT_ARRAY_LEN(fixed) + UNIT_ARRAY_LEN(golden_cases) };
	struct CMUnitTest tests[N];
	size_t n = 0;
	for (size_t i = 0; i < UNIT_ARRAY_LEN(golden_cases); i++)
		tests[n++] = (struct CMUnitTest){ golden_cases[i].name, test_golden,
			unit_setup_vkms, unit_teardown, (void *)&golden_cases[i] };
	for (size_t i = 0; i < UNIT_ARRAY_LEN(fixed); i++)
		tests[n++] = fixed[i];
	return unit_main("describe", tests, n, argc, argv);
}
