/* SPDX-License-Identifier: MIT */
/*
 * The NULL-object test: its cases are generated from the public headers
 * (gen-null-test.py), the runner is null-objects-main.c.
 */
#ifndef DISPMAN_NULL_OBJECTS_H
#define DISPMAN_NULL_OBJECTS_H

#include <stddef.h>

enum null_expect {
	NULL_SILENT,        /* a destroy or unref: no crash, nothing logged */
	NULL_EINVAL,        /* returns -EINVAL, logs */
	NULL_RETURNS_NULL,  /* returns NULL with errno EINVAL, logs */
	NULL_LOGS,          /* no error value to return: errno EINVAL, logs */
};

struct null_case {
	const char *function;
	const char *header;    /* "dispman.h", "camera.h", "input.h" */
	const char *args;      /* the object parameters passed as NULL, by name */
	const char *objects;   /* and by object ("device", "output", ...) */
	enum null_expect expect;
	int (*call)(void);     /* the call; NULL_RETURNS_NULL: 0 when it returned NULL */
};

/* Zeroed storage the non-object pointer arguments point to. */
extern _Alignas(max_align_t) unsigned char null_scratch[4096];

extern const struct null_case null_cases[];
extern const size_t null_n_cases;

#endif
