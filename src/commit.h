/* SPDX-License-Identifier: MIT */
/*
 * The frame path (commit.c): the one place that runs its stages in order, each only
 * downwards: pick the outputs, plan (alloc.c, which composes too), build the request and
 * commit it (request.c), record what was committed.
 */
#ifndef DISPMAN_COMMIT_H
#define DISPMAN_COMMIT_H

#include <stdbool.h>

struct dispman_device;
struct dispman_output;

/* What commit.c keeps per device between commits (device_commit_state(), its body commit.c's:
 * the queued whole-device commit, the queued outputs' count, holds, deferral): allocated at
 * device creation, freed at its destruction (nothing when not allocated). */
int commit_init(struct dispman_device *dev);
void commit_finish(struct dispman_device *dev);
/*
 * A whole-device commit is due: it runs from device_run_queued() once no flip is pending,
 * at the latest when the current dispatch is over (lifecycle.c's hotplug; master.c, below
 * this module, calls it through the callback lifecycle.c gives master_init()).
 */
void commit_queue_all(struct dispman_device *dev);
/* A whole-device commit is queued (commit_queue_all(), or one that waits for the flips). */
bool commit_all_queued(const struct dispman_device *dev);
/* Commit every output (only NULL) or one output; see dispman_device_commit(). */
int device_commit_internal(struct dispman_device *dev, struct dispman_output *only);
/*
 * Run the commits queued while flips were pending, while commits were held (capture) or
 * deferred (callbacks running), for the outputs whose flips have completed. The one place
 * queued commits run from: after the callbacks of each batch of DRM events, at the end of
 * dispman_device_dispatch(), and when a hold ends.
 */
void device_run_queued(struct dispman_device *dev);
/*
 * Enter (true) or leave (false) a stretch where the library runs event handlers and the
 * application's callbacks (nested stretches count): a commit asked for meanwhile
 * (dispman_device_commit(), dispman_output_commit()) is queued and returns 0; it is made
 * by the next device_run_queued(), which the code that entered the stretch calls.
 */
void commit_defer(struct dispman_device *dev, bool on);
/*
 * Hold (true) or release (false) commits (nested holds count; capture.c holds them while
 * it reads a frame back): meanwhile every commit is queued; the caller runs
 * device_run_queued() after the last release.
 */
void commit_hold(struct dispman_device *dev, bool on);

#endif
