/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "image.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_PNG
#include <png.h>
#endif

static void pixel_rgb(const uint8_t *row, uint32_t x, uint8_t rgb[3])
{
	uint32_t p;
	memcpy(&p, row + 4u * x, 4);
	rgb[0] = (uint8_t)(p >> 16);
	rgb[1] = (uint8_t)(p >> 8);
	rgb[2] = (uint8_t)p;
}

#if HAVE_PNG
static int write_png(FILE *f, const uint8_t *data, uint32_t stride, uint32_t w, uint32_t h)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	uint8_t *row = malloc((size_t)w * 3);
	if (!png || !info || !row) {
		png_destroy_write_struct(&png, &info);
		free(row);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(row);
		return -EIO;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++)
			pixel_rgb(data + (size_t)y * stride, x, row + 3u * x);
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
	return 0;
}
#endif

static int write_ppm(FILE *f, const uint8_t *data, uint32_t stride, uint32_t w, uint32_t h)
{
	fprintf(f, "P6\n%u %u\n255\n", w, h);
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			uint8_t rgb[3];
			pixel_rgb(data + (size_t)y * stride, x, rgb);
			fwrite(rgb, 1, 3, f);
		}
	}
	return 0;
}

int image_write(struct dispman_buffer *buf, const char *path)
{
	uint32_t fmt = dispman_buffer_get_format(buf);
	if (fmt != DRM_FORMAT_XRGB8888 && fmt != DRM_FORMAT_ARGB8888) {
		fprintf(stderr, "image_write: only XRGB8888/ARGB8888 buffers are supported\n");
		return -ENOTSUP;
	}
	void *data;
	uint32_t stride;
	int ret = dispman_buffer_map(buf, &data, &stride);
	if (ret < 0)
		return ret;
	FILE *f = fopen(path, "wb");
	if (!f) {
		ret = -errno;
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		return ret;
	}
	uint32_t w = dispman_buffer_get_width(buf), h = dispman_buffer_get_height(buf);
	size_t len = strlen(path);
	(void)len;
#if HAVE_PNG
	if (len > 4 && strcmp(path + len - 4, ".png") == 0)
		ret = write_png(f, data, stride, w, h);
	else
#endif
		ret = write_ppm(f, data, stride, w, h);
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	if (ret < 0)
		fprintf(stderr, "cannot write %s: %s\n", path, strerror(-ret));
	return ret;
}
