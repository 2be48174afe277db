/* SPDX-License-Identifier: MIT */
/* Built as part of the unit tests: <dispman/camera.h> compiles on its own, first. */
#include <dispman/camera.h>
