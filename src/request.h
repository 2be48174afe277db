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

/*
 * What kind of frame the plane assignment made (alloc_prepare() fills it, the request
 * builder and alloc_done() read it): a value handed down the frame path, not a flag kept
 * in the device.
 */
struct frame_kind {
	/* the committed assignment is reused: planes whose layer kept its rectangles get
	 * only a new FB_ID (the kernel keeps the rest) */
	bool reused;
	/* reused, and some layers on planes have new rectangles, which go into the request
	 * without a TEST_ONLY commit (alloc_check_geometry() found that the plan holds) */
	bool geometry;
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
 * (proposal_covers_plane_of()), as kind says. An active CRTC that a plane property already
 * pulls into the kernel's state gets no ACTIVE property (it sends its flip event anyway);
 * one that nothing else pulls in gets ACTIVE=1, so that a commit with nothing new still
 * completes with an event. Reads, never writes: the planes' and layers' recorded state is
 * the committed one.
 */
void req_build(const struct dispman_device *dev, const struct proposal *prop,
	struct atomic_req *r, const struct frame_kind *kind);

/*
 * The request of a frame that keeps out's committed planes as they are and only brings new
 * buffers (commit.c's short frame path): the FB_ID of each plane of out whose layer's
 * buffer is not the one it shows, and the CRTC's ACTIVE=1 when no plane pulls the CRTC in
 * (or it is off), as req_build() makes for a kept proposal of out alone. Reads the recorded
 * state only. Returns false, with r to be dropped, when the committed state is not plainly
 * kept: the planes in use are unknown (proposal_live_planes()), a plane on out's CRTC shows
 * no layer of out or a layer of out is on another CRTC, a layer has no framebuffer, or r
 * failed (its error in r->failed).
 */
bool req_build_kept_output(const struct dispman_device *dev, const struct dispman_output *out,
	struct atomic_req *r);

#endif
