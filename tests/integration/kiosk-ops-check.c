/* SPDX-License-Identifier: MIT */
/*
 * Pixel checks of kiosk-ops.sh against kiosk-paint's pattern: pixel (x, y) is
 * R = x & 0xff, G = y & 0xff, B = (3x + 5y) & 0xff. In C with libpng: a PNG decoder or
 * pattern in Python takes minutes under TCG.
 *
 *   kiosk-ops-check grim GRIM_PNG CAPTURE_PPM REGION_PNG
 *       grim's frame equals the compositor's capture pixel for pixel and shows the
 *       pattern; the region (64x32 at 100, 50) is the pattern's crop there
 *   kiosk-ops-check pattern CAPTURE_PPM W H
 *       the capture is W x H and shows the pattern
 *
 * The captures are the P6 files dispman-kiosk --capture writes. Exit 0, or 1 with the
 * first difference on stderr.
 */
#include <png.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct image {
	unsigned w, h;
	unsigned char *rgb; /* w * h * 3 */
};

__attribute__((format(printf, 1, 2)))
static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "kiosk-ops-check: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	return 1;
}

static int read_png(const char *path, struct image *img)
{
	png_image p;
	memset(&p, 0, sizeof(p));
	p.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&p, path))
		return fail("%s: %s", path, p.message);
	p.format = PNG_FORMAT_RGB;
	img->w = p.width;
	img->h = p.height;
	img->rgb = malloc(PNG_IMAGE_SIZE(p));
	if (!img->rgb || !png_image_finish_read(&p, NULL, img->rgb, 0, NULL)) {
		png_image_free(&p);
		return fail("%s: cannot decode", path);
	}
	return 0;
}

static int read_ppm(const char *path, struct image *img)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return fail("%s: cannot open", path);
	int depth = 0;
	if (fscanf(f, "P6 %u %u %d", &img->w, &img->h, &depth) != 3 || depth != 255 ||
	    fgetc(f) != '\n' || !img->w || !img->h || img->w > 16384 || img->h > 16384) {
		fclose(f);
		return fail("%s: not a P6 file of dispman-kiosk", path);
	}
	size_t n = (size_t)img->w * img->h * 3;
	img->rgb = malloc(n);
	size_t got = img->rgb ? fread(img->rgb, 1, n, f) : 0;
	fclose(f);
	return got == n ? 0 : fail("%s: short file", path);
}

/* Whether img shows the pattern's crop at (x0, y0); the first bad pixel in *bx, *by. */
static bool shows_pattern(const struct image *img, unsigned x0, unsigned y0, unsigned *bx,
	unsigned *by)
{
	for (unsigned y = 0; y < img->h; y++) {
		for (unsigned x = 0; x < img->w; x++) {
			const unsigned char *p = img->rgb + ((size_t)y * img->w + x) * 3;
			unsigned X = x + x0, Y = y + y0;
			if (p[0] != (X & 0xff) || p[1] != (Y & 0xff) ||
			    p[2] != ((X * 3 + Y * 5) & 0xff)) {
				*bx = x;
				*by = y;
				return false;
			}
		}
	}
	return true;
}

/* static: still reachable (not a leak) when a check fails and main returns early */
static struct image a, b, r;

int main(int argc, char **argv)
{
	unsigned bx, by;
	if (argc == 5 && strcmp(argv[1], "grim") == 0) {
		if (read_png(argv[2], &a) || read_ppm(argv[3], &b) || read_png(argv[4], &r))
			return 1;
		if (a.w != b.w || a.h != b.h)
			return fail("%s: grim's size differs from the capture's (%ux%u)", argv[2],
				b.w, b.h);
		for (size_t i = 0; i < (size_t)a.w * a.h * 3; i++)
			if (a.rgb[i] != b.rgb[i])
				return fail("%s: differs from the capture at (%u, %u)", argv[2],
					(unsigned)(i / 3 % a.w), (unsigned)(i / 3 / a.w));
		if (!shows_pattern(&a, 0, 0, &bx, &by))
			return fail("%s: not the client's pattern at (%u, %u)", argv[2], bx, by);
		if (r.w != 64 || r.h != 32)
			return fail("%s: the region is not 64x32 (%ux%u)", argv[4], r.w, r.h);
		if (!shows_pattern(&r, 100, 50, &bx, &by))
			return fail("%s: not the pattern at (100, 50) + (%u, %u)", argv[4], bx, by);
		printf("grim %ux%u equals the capture and the client pattern; region 64x32 at "
			"(100, 50) too\n", a.w, a.h);
	} else if (argc == 5 && strcmp(argv[1], "pattern") == 0) {
		if (read_ppm(argv[2], &a))
			return 1;
		if (a.w != (unsigned)atoi(argv[3]) || a.h != (unsigned)atoi(argv[4]))
			return fail("%s: the capture is %ux%u", argv[2], a.w, a.h);
		if (!shows_pattern(&a, 0, 0, &bx, &by))
			return fail("%s: not the client's pattern at (%u, %u)", argv[2], bx, by);
		printf("the capture is %ux%u and shows the client pattern\n", a.w, a.h);
	} else {
		fprintf(stderr, "usage: kiosk-ops-check grim GRIM_PNG CAPTURE_PPM REGION_PNG\n"
			"       kiosk-ops-check pattern CAPTURE_PPM W H\n");
		return 2;
	}
	free(a.rgb);
	free(b.rgb);
	free(r.rgb);
	return 0;
}
