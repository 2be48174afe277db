/* SPDX-License-Identifier: MIT */
/* Small macros every module may use. */
#ifndef DISPMAN_UTIL_H
#define DISPMAN_UTIL_H

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#endif
