/* SPDX-License-Identifier: MIT */
/* Built as part of the unit tests: <dispman/pipeline.h> compiles on its own, first. */
#include <dispman/pipeline.h>
