/* SPDX-License-Identifier: MIT */
/*
 * Atomic requests: building one from a proposed state, and the commit ioctl
 * (request.c). The lowest stage of the frame path: it calls no other stage. alloc.c
 * uses it for its TEST_ONLY commits, commit.c for the real one, capture.c for writeback.
 */
#ifndef DISPMAN_REQUEST_H
#define DISPMAN_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include <xf86drmMode.h>

struct dispman_device;
struct dispman_output;
struct proposal;

/* Most CRTCs one request notes as pulled in by its plane properties. */
#define REQ_MAX_CRTCS 8

struct req_buf;

struct atomic_req {
	struct req_buf *buf; /* request.c's: the arrays of the ioctl */
	int failed; /* sticky: first error, 0 if none */
	/* CRTCs that the plane properties already put into the kernel's state (a plane on
	 * them, before or after): those need no ACTIVE property for their flip event */
	uint32_t crtcs_in[REQ_MAX_CRTCS];
	size_t n_crtcs_in;
};

/* Start a request, reusing the memory of the device's last one (no allocation per frame);
 * req_finish() gives it back. -ENOMEM (logged) when none can be allocated. */
int req_init(struct dispman_device *dev, struct atomic_req *r);
void req_finish(struct dispman_device *dev, struct atomic_req *r);
/* The device's kept request (device_req_cache(), its body request.c's): allocated at device
 * creation, freed with the kept request at its destruction (nothing when not allocated). */
int req_cache_init(struct dispman_device *dev);
void req_cache_free(struct dispman_device *dev);
void req_add(struct atomic_req *r, uint32_t obj_id, uint32_t prop_id, uint64_t value);
/* Commit (drmIoctl() repeats it on EINTR/EAGAIN); counts stats; a lost master pauses the
 * device (device_check_master_lost()). Returns 0 or -errno. */
int req_commit(struct dispman_device *dev, struct atomic_req *r, uint32_t flags, void *user_data);
/* err (positive) is the kernel's answer about the state (EINVAL, ERANGE, ENOSPC), not a
 * failure of the call. */
bool req_error_is_answer(int err);
/*
 * Add to r the state of the outputs in the request (prop->scope: proposal_has_output()):
 * connector and CRTC properties, the MODE_ID blobs prepared for it (proposal_mode_blob()),
 * and the plane properties of the proposed assignment prop for the planes it covers
 * (proposal_covers_plane_of()): their full state, or for prop->diff only the values that
 * differ from the planes' committed state. An active CRTC that a plane property already
 * pulls into the kernel's state gets no ACTIVE property (it sends its flip event anyway);
 * one that nothing else pulls in gets ACTIVE=1, so that a commit with nothing new still
 * completes with an event. Reads, never writes: the planes' and layers' recorded state is
 * the committed one.
 */
void req_build(const struct dispman_device *dev, const struct proposal *prop,
	struct atomic_req *r);

#endif
