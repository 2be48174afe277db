/* SPDX-License-Identifier: MIT */
/*
 * Sized structs: public structs whose first member is `size_t size`, set by the caller to
 * sizeof the struct it was compiled with, so that the struct can grow at its end without an
 * ABI break (include/dispman/dispman.h, "Structs that grow").
 */
#ifndef DISPMAN_SIZED_H
#define DISPMAN_SIZED_H

#include <stddef.h>

/*
 * Copy the library's struct src (src_size bytes, its size member ignored) out to the
 * caller's dst, whose size member says how many bytes it has: the first min(dst->size,
 * src_size) bytes are written, and dst->size becomes that number. Bytes beyond are left as
 * they are. Returns 0, or -EINVAL (logged, dst untouched) when dst is NULL or its size is
 * smaller than the size member. what names the struct in the log line.
 */
int sized_copy_out(void *dst, const void *src, size_t src_size, const char *what);

/*
 * Read the caller's struct src into the library's dst (dst_size bytes): the first
 * min(src->size, dst_size) bytes are copied, the rest of dst is zeroed, and dst's size
 * member becomes dst_size. Returns 0, -EINVAL (src NULL or its size smaller than the size
 * member) or -E2BIG (src is larger than the library's struct and a byte beyond it is not
 * 0: a field this library does not know is in use), each logged.
 */
int sized_copy_in(void *dst, size_t dst_size, const void *src, const char *what);

#endif
