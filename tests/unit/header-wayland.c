/* SPDX-License-Identifier: MIT */
/* Built as part of the unit tests: <dispman/wayland.h> compiles on its own, first. */
#include <dispman/wayland.h>
