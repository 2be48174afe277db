/* SPDX-License-Identifier: MIT */
#ifndef DISPMAN_TOOLS_IMAGE_H
#define DISPMAN_TOOLS_IMAGE_H

#include <dispman/dispman.h>

/*
 * Write an XRGB8888/ARGB8888 buffer to path: PNG when the name ends in ".png" and libpng
 * is available, binary PPM otherwise. buf and path stay owned by the caller.
 * Returns 0 or a negative errno.
 */
int image_write(struct dispman_buffer *buf, const char *path);

#endif
