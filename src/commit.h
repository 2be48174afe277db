/* SPDX-License-Identifier: MIT */
/* Atomic requests and the commit of a frame (commit.c). */
#ifndef DISPMAN_COMMIT_H
#define DISPMAN_COMMIT_H

#include <stdbool.h>
#include <stdint.h>

#include <xf86drmMode.h>

struct dispman_device;
struct dispman_output;
struct plane;

struct atomic_req {
	drmModeAtomicReq *req;
	int failed; /* sticky: first error, 0 if none */
};

int req_init(struct atomic_req *r);
void req_finish(struct atomic_req *r);
void req_add(struct atomic_req *r, uint32_t obj_id, uint32_t prop_id, uint64_t value);
/* Commit with retries on EINTR/EAGAIN; counts stats. Returns 0 or -errno. */
int req_commit(struct dispman_device *dev, struct atomic_req *r, uint32_t flags, void *user_data);
bool commit_error_is_answer(int err);
/* Handle EACCES/EPERM: pause and log once. Returns true if err was a master loss. */
bool device_check_master_lost(struct dispman_device *dev, int err);
/* Commit every output (only NULL) or one output; see dispman_device_commit(). */
int device_commit_internal(struct dispman_device *dev, struct dispman_output *only);
/* The connector/CRTC state of the outputs in the request (out->committing) and the planes
 * of the current assignment that belong to them. */
void commit_build_request(struct dispman_device *dev, struct atomic_req *r);
/* Whether the request being built covers plane p (all planes when it covers the device). */
bool commit_covers_plane(struct dispman_device *dev, const struct plane *p);

#endif
