/* SPDX-License-Identifier: MIT */
/*
 * The application both consumer tests build against the library, as doc/use-it.md's
 * reader would: from an installed prefix (prefix-walkthrough.py) and as a meson
 * subproject (subproject-consumer.py). No KMS device needed.
 */
#include <errno.h>
#include <stdio.h>
#include <dispman/dispman.h>
#include <drm_fourcc.h>

int main(void)
{
	dispman_log_set_level(DISPMAN_LOG_SILENT);
	/* no KMS device needed: a bad fd must fail cleanly with EBADF */
	errno = 0;
	if (dispman_device_create_for_fd(-1) != NULL || errno != EBADF) {
		fprintf(stderr, "dispman_device_create_for_fd(-1) did not fail with EBADF\n");
		return 1;
	}
	printf("libdispman %#x, fourcc %08x ok\n", (unsigned)dispman_version(),
		(unsigned)DRM_FORMAT_XRGB8888);
	return 0;
}
