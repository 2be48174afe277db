/* SPDX-License-Identifier: MIT */
/* Built as part of the unit tests: <dispman/version.h> compiles on its own, first. */
#include <dispman/version.h>

typedef char header_version_ordered[DISPMAN_VERSION ==
	DISPMAN_VERSION_ENCODE(DISPMAN_VERSION_MAJOR, DISPMAN_VERSION_MINOR,
		DISPMAN_VERSION_MICRO) ? 1 : -1];
