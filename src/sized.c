/* SPDX-License-Identifier: MIT */
#include "sized.h"

#include <errno.h>
#include <string.h>

#include "log.h"

static int check_size(const void *s, size_t *size, const char *what)
{
	if (!s) {
		dispman_log(DISPMAN_LOG_ERROR, "struct %s: NULL pointer", what);
		return -EINVAL;
	}
	memcpy(size, s, sizeof(*size));
	if (*size < sizeof(size_t)) {
		dispman_log(DISPMAN_LOG_ERROR, "struct %s: size %zu; set it to sizeof(struct %s)",
			what, *size, what);
		return -EINVAL;
	}
	return 0;
}

int sized_copy_out(void *dst, const void *src, size_t src_size, const char *what)
{
	size_t want;
	int r = check_size(dst, &want, what);
	if (r < 0)
		return r;
	size_t n = want < src_size ? want : src_size;
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
		n - sizeof(size_t));
	memcpy(dst, &n, sizeof(n));
	return 0;
}

int sized_copy_in(void *dst, size_t dst_size, const void *src, const char *what)
{
	size_t have;
	int r = check_size(src, &have, what);
	if (r < 0)
		return r;
	for (size_t i = dst_size; i < have; i++) {
		if (((const unsigned char *)src)[i]) {
			dispman_log(DISPMAN_LOG_ERROR, "struct %s: byte %zu of %zu is set, but this "
				"libdispman knows only %zu bytes of it", what, i, have, dst_size);
			return -E2BIG;
		}
	}
	size_t n = have < dst_size ? have : dst_size;
	memset(dst, 0, dst_size);
	memcpy(dst, src, n);
	memcpy(dst, &dst_size, sizeof(dst_size));
	return 0;
}
