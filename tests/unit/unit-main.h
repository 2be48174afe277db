/* SPDX-License-Identifier: MIT */
/* The unit tests' one harness (unit-main.c), for tests with and without the mock device. */
#ifndef DISPMAN_UNIT_MAIN_H
#define DISPMAN_UNIT_MAIN_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define UNIT_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Without arguments, runs every case. With a case name, runs only that case (an unknown
 * name is an error). "--list" prints the names; "--check-registered NAME..." fails unless
 * NAME... are exactly the cases (meson.build and the code must agree).
 */
int unit_main(const char *group, const struct CMUnitTest *tests, size_t n, int argc,
	char **argv);

#endif
