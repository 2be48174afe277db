/* SPDX-License-Identifier: MIT */
/*
 * The floors' atomic request: DRM_IOCTL_MODE_ATOMIC from four fixed arrays, the way
 * libdispman issues it (src/request.c), with no allocation, copy or sort a frame.
 * drmModeAtomicCommit() would allocate six times and zero a 4 KiB copy of the request each
 * commit; a floor that paid for that while the library does not would not be a floor.
 * Properties are added object by object (a property of the object added last joins it).
 */
#ifndef BENCH_RAW_ATOMIC_H
#define BENCH_RAW_ATOMIC_H

#include <errno.h>
#include <stdint.h>
#include <xf86drm.h>

#define RAW_REQ_MAX 256

struct raw_req {
	uint32_t objs[RAW_REQ_MAX], counts[RAW_REQ_MAX], props[RAW_REQ_MAX];
	uint64_t values[RAW_REQ_MAX];
	uint32_t n_objs, n_props;
	int overflow; /* more than RAW_REQ_MAX properties were added: commits fail */
};

static inline void raw_req_reset(struct raw_req *r)
{
	r->n_objs = r->n_props = 0;
	r->overflow = 0;
}

static inline void raw_req_add(struct raw_req *r, uint32_t obj, uint32_t prop, uint64_t value)
{
	if (r->n_props == RAW_REQ_MAX) {
		r->overflow = 1;
		return;
	}
	if (!r->n_objs || r->objs[r->n_objs - 1] != obj) {
		r->objs[r->n_objs] = obj;
		r->counts[r->n_objs++] = 0;
	}
	r->counts[r->n_objs - 1]++;
	r->props[r->n_props] = prop;
	r->values[r->n_props++] = value;
}

/* 0, or -1 with errno (E2BIG when the request overflowed), as drmIoctl() returns. */
static inline int raw_req_commit(int fd, const struct raw_req *r, uint32_t flags,
	void *user_data)
{
	if (r->overflow) {
		errno = E2BIG;
		return -1;
	}
	struct drm_mode_atomic a = {
		.flags = flags,
		.count_objs = r->n_objs,
		.objs_ptr = (uintptr_t)r->objs,
		.count_props_ptr = (uintptr_t)r->counts,
		.props_ptr = (uintptr_t)r->props,
		.prop_values_ptr = (uintptr_t)r->values,
		.user_data = (uintptr_t)user_data,
	};
	return drmIoctl(fd, DRM_IOCTL_MODE_ATOMIC, &a);
}

#endif
