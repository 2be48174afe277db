/* SPDX-License-Identifier: MIT */
/*
 * The API's own contract: the version macros and query. (Setters and sized structs are
 * added below as they are.)
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

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

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "api@version", test_version, NULL, NULL, NULL },
	};
	return unit_main("api", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
