#include "screendump.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

bool screendump_available(const char *device_path)
{
	const char *cmd = getenv("DISPMAN_SCREENDUMP"), *dev = getenv("DISPMAN_SCREENDUMP_DEVICE");
	struct stat a, b;
	return cmd && *cmd && dev && device_path && stat(dev, &a) == 0 &&
		stat(device_path, &b) == 0 && a.st_rdev == b.st_rdev;
}

int screendump_take(unsigned head, const char *path)
{
	const char *cmd = getenv("DISPMAN_SCREENDUMP");
	if (!cmd || !*cmd) {
		fprintf(stderr, "screendump: DISPMAN_SCREENDUMP is not set (no virtio-gpu here)\n");
		return -1;
	}
	char h[16];
	snprintf(h, sizeof(h), "%u", head);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("screendump: fork");
		return -1;
	}
	if (pid == 0) {
		execl(cmd, cmd, "--head", h, path, (char *)NULL);
		perror("screendump: exec");
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("screendump: waitpid");
			return -1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "screendump of head %u failed (status %#x)\n", head, status);
		return -1;
	}
	return 0;
}

static int ppm_field(FILE *f, unsigned *v)
{
	int c;
	for (;;) {
		c = fgetc(f);
		if (c == '#')
			while (c != '\n' && c != EOF)
				c = fgetc(f);
		else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
	}
	if (c < '0' || c > '9')
		return -1;
	unsigned n = 0;
	while (c >= '0' && c <= '9') {
		if (n > 100000)
			return -1;
		n = n * 10 + (unsigned)(c - '0');
		c = fgetc(f);
	}
	*v = n; /* c, the single whitespace after the field, is consumed */
	return c == EOF ? -1 : 0;
}

int ppm_read(const char *path, struct rgb_image *img)
{
	memset(img, 0, sizeof(*img));
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "ppm: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	unsigned w, h, max;
	if (fgetc(f) != 'P' || fgetc(f) != '6' || ppm_field(f, &w) < 0 || ppm_field(f, &h) < 0 ||
	    ppm_field(f, &max) < 0 || max != 255 || !w || !h) {
		fprintf(stderr, "ppm: %s is not a binary PPM with 8-bit channels\n", path);
		fclose(f);
		return -1;
	}
	size_t n = (size_t)w * h * 3;
	img->rgb = malloc(n);
	if (!img->rgb || fread(img->rgb, 1, n, f) != n) {
		fprintf(stderr, "ppm: %s: %ux%u but its pixels are truncated\n", path, w, h);
		fclose(f);
		rgb_image_free(img);
		return -1;
	}
	fclose(f);
	img->width = w;
	img->height = h;
	return 0;
}

void rgb_image_free(struct rgb_image *img)
{
	free(img->rgb);
	img->rgb = NULL;
	img->width = img->height = 0;
}

size_t rgb_image_diff_xrgb(const struct rgb_image *img, const void *data, uint32_t stride,
	uint32_t w, uint32_t h, uint32_t *first_x, uint32_t *first_y)
{
	if (img->width != w || img->height != h)
		return (size_t)w * h;
	size_t diff = 0;
	for (uint32_t y = 0; y < h; y++) {
		const uint32_t *row = (const uint32_t *)(const void *)((const char *)data +
			(size_t)y * stride);
		const uint8_t *p = img->rgb + (size_t)y * w * 3;
		for (uint32_t x = 0; x < w; x++, p += 3) {
			uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
			if ((row[x] & 0xffffff) != v) {
				if (!diff && first_x)
					*first_x = x;
				if (!diff && first_y)
					*first_y = y;
				diff++;
			}
		}
	}
	return diff;
}

size_t rgb_image_diff(const struct rgb_image *a, const struct rgb_image *b, uint32_t ix,
	uint32_t iy, uint32_t iw, uint32_t ih, uint32_t *first_x, uint32_t *first_y)
{
	if (a->width != b->width || a->height != b->height)
		return (size_t)a->width * a->height;
	size_t diff = 0;
	for (uint32_t y = 0; y < a->height; y++)
		for (uint32_t x = 0; x < a->width; x++) {
			if (iw && x >= ix && x - ix < iw && y >= iy && y - iy < ih)
				continue;
			size_t o = ((size_t)y * a->width + x) * 3;
			if (memcmp(a->rgb + o, b->rgb + o, 3) != 0) {
				if (!diff && first_x)
					*first_x = x;
				if (!diff && first_y)
					*first_y = y;
				diff++;
			}
		}
	return diff;
}

long ppm_compare_files(const char *screen_path, const char *shot_path, uint32_t ix,
	uint32_t iy, uint32_t iw, uint32_t ih)
{
	struct rgb_image screen, shot;
	if (ppm_read(screen_path, &screen) < 0)
		return -1;
	if (ppm_read(shot_path, &shot) < 0) {
		rgb_image_free(&screen);
		return -1;
	}
	uint32_t fx = 0, fy = 0;
	size_t n = rgb_image_diff(&screen, &shot, ix, iy, iw, ih, &fx, &fy);
	printf("screendump %s (%ux%u) vs screenshot %s (%ux%u): %zu pixels differ", screen_path,
		screen.width, screen.height, shot_path, shot.width, shot.height, n);
	if (iw)
		printf(" (leaving out %ux%u at %u,%u)", iw, ih, ix, iy);
	if (n && screen.width == shot.width && screen.height == shot.height) {
		const uint8_t *s = screen.rgb + ((size_t)fy * screen.width + fx) * 3,
			*c = shot.rgb + ((size_t)fy * shot.width + fx) * 3;
		printf("; first at %u,%u: screen %02x%02x%02x, screenshot %02x%02x%02x", fx, fy,
			s[0], s[1], s[2], c[0], c[1], c[2]);
	}
	printf("\n");
	rgb_image_free(&screen);
	rgb_image_free(&shot);
	return (long)n;
}
