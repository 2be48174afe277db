/* SPDX-License-Identifier: MIT */
/*
 * The frame path (commit.c): the one place that runs its stages in order, each only
 * downwards: pick the outputs, plan (alloc.c, which composes too), build the request and
 * commit it (request.c), record what was committed.
 */
#ifndef DISPMAN_COMMIT_H
#define DISPMAN_COMMIT_H

struct dispman_device;
struct dispman_output;

/* Commit every output (only NULL) or one output; see dispman_device_commit(). */
int device_commit_internal(struct dispman_device *dev, struct dispman_output *only);
/*
 * Run the commits queued while flips were pending (or while commits were held), for the
 * outputs whose flips have completed. The one place queued commits run from: after each
 * batch of DRM events, and when a hold ends.
 */
void device_run_queued(struct dispman_device *dev);

#endif
