/* SPDX-License-Identifier: MIT */
/* The one harness of the unit tests: a table of cmocka cases run one at a time by name,
 * each its own meson test, and the names meson registers checked against the table. */
#include "unit-main.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>


static const struct CMUnitTest *find_test(const struct CMUnitTest *tests, size_t n,
	const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(tests[i].name, name) == 0)
			return &tests[i];
	return NULL;
}

static int check_registered(const char *group, const struct CMUnitTest *tests, size_t n,
	int argc, char **argv)
{
	int bad = 0;
	for (int i = 0; i < argc; i++) {
		if (!find_test(tests, n, argv[i])) {
			fprintf(stderr, "%s: meson registers %s, which is no case\n", group, argv[i]);
			bad = 1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		bool found = false;
		for (int j = 0; j < argc && !found; j++)
			found = strcmp(argv[j], tests[i].name) == 0;
		if (!found) {
			fprintf(stderr, "%s: case %s is not registered in meson.build\n", group,
				tests[i].name);
			bad = 1;
		}
	}
	return bad;
}

int unit_main(const char *group, const struct CMUnitTest *tests, size_t n, int argc,
	char **argv)
{
	if (argc < 2)
		return _cmocka_run_group_tests(group, tests, n, NULL, NULL);
	if (strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < n; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	if (strcmp(argv[1], "--check-registered") == 0)
		return check_registered(group, tests, n, argc - 2, argv + 2);
	const struct CMUnitTest *t = find_test(tests, n, argv[1]);
	if (!t) {
		fprintf(stderr, "%s: no case named %s (--list shows them)\n", group, argv[1]);
		return 1;
	}
	return _cmocka_run_group_tests(group, t, 1, NULL, NULL);
}
