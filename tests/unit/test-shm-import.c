/* SPDX-License-Identifier: MIT */
/*
 * The zero-copy wl_shm decision (src/wayland/udmabuf.c) as a pure function: a table of a
 * buffer's and its pool's facts with the verdict and the udmabuf range each must give, one
 * meson test per case (shm-import@NAME); `--check-registered NAMES...` checks that meson's
 * list and this table agree.
 */
#include <drm_fourcc.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "udmabuf.h"
#include "unit-main.h"

struct icase {
	const char *name;
	struct shm_import_facts f;
	enum shm_import_verdict want;
	struct shm_import_range range;  /* when want is SHM_IMPORT_OK */
};

/* Each case overrides some of the defaults below: that is what override-init warns of. */
#pragma GCC diagnostic ignored "-Woverride-init"

/* A sealed memfd of exactly one 1024x768 XRGB8888 frame, pages of 4 KiB. */
#define OKF .enabled = true, .have_udmabuf = true, .have_file = true, .seals = F_SEAL_SHRINK, \
	.file_size = 1024 * 768 * 4, .width = 1024, .height = 768, .stride = 4096, \
	.fourcc = DRM_FORMAT_XRGB8888, .page_size = 4096

static const struct icase cases[] = {
	{ "full-screen", { OKF }, SHM_IMPORT_OK, { 0, 3145728, 0 } },
	{ "sealed-more", { OKF, .seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL },
		SHM_IMPORT_OK, { 0, 3145728, 0 } },
	{ "disabled", { OKF, .enabled = false }, SHM_IMPORT_DISABLED, { 0 } },
	{ "no-udmabuf", { OKF, .have_udmabuf = false }, SHM_IMPORT_NO_UDMABUF, { 0 } },
	{ "pool-unknown", { OKF, .have_file = false }, SHM_IMPORT_NO_POOL_FILE, { 0 } },
	{ "not-memfd", { OKF, .seals = -1 }, SHM_IMPORT_NOT_MEMFD, { 0 } },
	{ "may-shrink", { OKF, .seals = F_SEAL_SEAL }, SHM_IMPORT_NOT_SEALED, { 0 } },
	{ "write-sealed", { OKF, .seals = F_SEAL_SHRINK | F_SEAL_WRITE },
		SHM_IMPORT_WRITE_SEALED, { 0 } },
	{ "future-write-sealed", { OKF, .seals = F_SEAL_SHRINK | F_SEAL_FUTURE_WRITE },
		SHM_IMPORT_WRITE_SEALED, { 0 } },
	{ "format-yuv", { OKF, .fourcc = DRM_FORMAT_NV12 }, SHM_IMPORT_FORMAT, { 0 } },
	{ "rgb565", { OKF, .fourcc = DRM_FORMAT_RGB565, .stride = 2048,
		.file_size = 2048 * 768 }, SHM_IMPORT_OK, { 0, 2048 * 768, 0 } },
	{ "stride-short", { OKF, .stride = 4092 }, SHM_IMPORT_STRIDE, { 0 } },
	{ "stride-zero", { OKF, .stride = 0 }, SHM_IMPORT_STRIDE, { 0 } },
	{ "height-zero", { OKF, .height = 0 }, SHM_IMPORT_STRIDE, { 0 } },
	{ "negative-offset", { OKF, .offset = -4096 }, SHM_IMPORT_STRIDE, { 0 } },
	{ "bad-page-size", { OKF, .page_size = 3000 }, SHM_IMPORT_STRIDE, { 0 } },
	/* the abuse case: a pool larger than its file */
	{ "beyond-file", { OKF, .file_size = 4096 }, SHM_IMPORT_BEYOND_FILE, { 0 } },
	{ "beyond-file-by-offset", { OKF, .offset = 4096 }, SHM_IMPORT_BEYOND_FILE, { 0 } },
	/* weston-simple-shm: 250x250, stride 1000, a pool of exactly one buffer: the last
	 * page is partly beyond the file's end; udmabuf takes whole pages inside the file,
	 * so the file is padded to 62 pages first */
	{ "simple-shm", { OKF, .width = 250, .height = 250, .stride = 1000,
		.file_size = 250000 }, SHM_IMPORT_OK, { 0, 253952, 0, 253952 } },
	{ "last-page-grow-sealed", { OKF, .width = 250, .height = 250, .stride = 1000,
		.file_size = 250000, .seals = F_SEAL_SHRINK | F_SEAL_GROW },
		SHM_IMPORT_LAST_PAGE, { 0 } },
	/* the second buffer of a pool of two 250x250 ones: starts inside page 61 */
	{ "offset-unaligned", { OKF, .width = 250, .height = 250, .stride = 1000,
		.offset = 250000, .file_size = 500000 }, SHM_IMPORT_OK,
		{ 249856, 253952, 144, 503808 } },
	{ "file-larger", { OKF, .width = 250, .height = 250, .stride = 1000,
		.file_size = 1 << 20 }, SHM_IMPORT_OK, { 0, 253952, 0, 0 } },
	{ "offset-aligned", { OKF, .offset = 3145728, .file_size = 2 * 3145728 },
		SHM_IMPORT_OK, { 3145728, 3145728, 0 } },
	/* stride wider than the row (padding) */
	{ "stride-padded", { OKF, .width = 1000, .stride = 4096 }, SHM_IMPORT_OK,
		{ 0, 3145728, 0 } },
};

static int run(const struct icase *c)
{
	struct shm_import_range r = { 1, 2, 3, 4 };
	enum shm_import_verdict v = shm_import_check(&c->f, &r);
	if (v != c->want) {
		printf("FAIL %s: verdict %d (%s), want %d (%s)\n", c->name, (int)v,
			shm_import_reason(v), (int)c->want, shm_import_reason(c->want));
		return 1;
	}
	if (v == SHM_IMPORT_OK && (r.start != c->range.start || r.size != c->range.size ||
				   r.fb_offset != c->range.fb_offset || r.grow_to != c->range.grow_to)) {
		printf("FAIL %s: range %llu+%llu fb offset %u grow to %llu, want %llu+%llu fb "
			"offset %u grow to %llu\n", c->name, (unsigned long long)r.start,
			(unsigned long long)r.size, r.fb_offset, (unsigned long long)r.grow_to,
			(unsigned long long)c->range.start, (unsigned long long)c->range.size,
			c->range.fb_offset, (unsigned long long)c->range.grow_to);
		return 1;
	}
	if (v != SHM_IMPORT_OK && (r.start != 1 || r.size != 2 || r.fb_offset != 3 ||
				   r.grow_to != 4)) {
		printf("FAIL %s: the range was written on a refusal\n", c->name);
		return 1;
	}
	printf("ok %s: %s\n", c->name, shm_import_reason(v));
	return 0;
}

static void test_case(void **state)
{
	if (run(*state))
		fail();
}

int main(int argc, char **argv)
{
	enum { N = sizeof(cases) / sizeof(cases[0]) };
	static char names[N][64];
	struct CMUnitTest tests[N];
	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "shm-import@%s", cases[i].name);
		tests[i] = (struct CMUnitTest){ names[i], test_case, NULL, NULL,
			(void *)&cases[i] };
	}
	return unit_main("shm-import", tests, N, argc, argv);
}
