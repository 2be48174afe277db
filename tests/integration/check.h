/* FAIL and CHECK for the guest tests: a failed check prints why and exits 1. */
#ifndef DISPMAN_TEST_CHECK_H
#define DISPMAN_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FAIL(...) \
	do { \
		fprintf(stderr, "FAIL: " __VA_ARGS__); \
		fputc('\n', stderr); \
		exit(1); \
	} while (0)
#define CHECK(cond, ...) \
	do { \
		if (!(cond)) \
			FAIL(__VA_ARGS__); \
	} while (0)

#endif
