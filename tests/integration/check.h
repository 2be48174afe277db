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

/*
 * The device node a guest test opens: DISPMAN_TEST_DEVICE when set, else NULL, which makes
 * dispman_device_open() follow its rule (DISPMAN_DEVICE, then discovery). Tests that need
 * the node's path ask dispman_device_get_path() afterwards.
 */
static inline const char *check_device(void)
{
	const char *p = getenv("DISPMAN_TEST_DEVICE");
	return p && *p ? p : NULL;
}

/* The same for a test that opens the node with libdrm alone: a path, never NULL. */
static inline const char *check_device_node(void)
{
	const char *p = check_device();
	if (!p)
		p = getenv("DISPMAN_DEVICE");
	return p && *p ? p : "/dev/dri/card0";
}

#endif
