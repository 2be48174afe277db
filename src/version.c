/* SPDX-License-Identifier: MIT */
#include <dispman/dispman.h>

/* The library's own version: the <dispman/version.h> it was built with. */
uint32_t dispman_version(void)
{
	return DISPMAN_VERSION;
}

const char *dispman_version_string(void)
{
	return DISPMAN_VERSION_STRING;
}
