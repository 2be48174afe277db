/* SPDX-License-Identifier: MIT */
/* Built as part of the unit tests: <dispman/dispman.h> compiles on its own, first. */
#include <dispman/dispman.h>

/* dispman.h does not pull in the optional APIs: users include what they use. */
#if defined(DISPMAN_CAMERA_H) || defined(DISPMAN_INPUT_H)
#error "<dispman/dispman.h> includes camera.h or input.h"
#endif

/* The version macros work in #if. */
#if !DISPMAN_VERSION_AT_LEAST(0, 0, 0) || DISPMAN_VERSION_AT_LEAST(DISPMAN_VERSION_MAJOR + 1, 0, 0)
#error "DISPMAN_VERSION_AT_LEAST is wrong"
#endif

int header_dispman_unused(void);
int header_dispman_unused(void)
{
	return DISPMAN_VERSION_AT_LEAST(DISPMAN_VERSION_MAJOR, DISPMAN_VERSION_MINOR,
		DISPMAN_VERSION_MICRO + 1);
}
