/* SPDX-License-Identifier: MIT */
/* Built as part of the unit tests: <dispman/input.h> compiles on its own, first. */
#include <dispman/input.h>
