/* The host's screendump oracle for the guest tests (tests/vm/screendump) and PPM
 * comparison with XRGB8888 pixels. */
#ifndef DISPMAN_TEST_SCREENDUMP_H
#define DISPMAN_TEST_SCREENDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when the host can screendump the heads of the device at path: DISPMAN_SCREENDUMP
 * is set and DISPMAN_SCREENDUMP_DEVICE is that device. */
bool screendump_available(const char *device_path);

/* Run $DISPMAN_SCREENDUMP --head HEAD PATH. Returns 0 once PATH is written, else -1
 * with a message on stderr. */
int screendump_take(unsigned head, const char *path);

/* An RGB image (3 bytes a pixel, rows packed), read from a binary PPM (P6, maxval 255). */
struct rgb_image {
	uint32_t width, height;
	uint8_t *rgb;
};

/* Read path into *img (img->rgb is malloc'd: free it with rgb_image_free()). Returns 0,
 * or -1 with a message on stderr for a missing, truncated or non-P6 file. */
int ppm_read(const char *path, struct rgb_image *img);
void rgb_image_free(struct rgb_image *img);

/* Pixels of the w x h XRGB8888 image (stride bytes a row) whose red, green or blue
 * differ from img's (X ignored). img must be w x h; a size mismatch counts every pixel.
 * The first differing pixel goes to *first_x, *first_y when they are non-NULL. */
size_t rgb_image_diff_xrgb(const struct rgb_image *img, const void *data, uint32_t stride,
	uint32_t w, uint32_t h, uint32_t *first_x, uint32_t *first_y);

/* Pixels that differ between a and b (same size; a size mismatch counts every pixel of a),
 * leaving out the rectangle ix,iy iw x ih (iw = 0: nothing left out). The first differing
 * pixel goes to *first_x, *first_y when they are non-NULL. */
size_t rgb_image_diff(const struct rgb_image *a, const struct rgb_image *b, uint32_t ix,
	uint32_t iy, uint32_t iw, uint32_t ih, uint32_t *first_x, uint32_t *first_y);

/* Compare the screendump PPM at screen_path with the screenshot PPM at shot_path, leaving
 * out the rectangle ix,iy iw x ih. Prints what it found; returns the number of differing
 * pixels, or -1 when either image cannot be read. */
long ppm_compare_files(const char *screen_path, const char *shot_path, uint32_t ix,
	uint32_t iy, uint32_t iw, uint32_t ih);

#endif
