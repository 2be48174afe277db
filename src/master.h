/* SPDX-License-Identifier: MIT */
/* DRM master: losing it pauses commits, a timer retries it, regaining it restores (master.c). */
#ifndef DISPMAN_MASTER_H
#define DISPMAN_MASTER_H

#include <stdbool.h>

struct dispman_device;

/*
 * While paused: try drmSetMaster() (at most every 500 ms unless force); on success leave
 * the paused state with a full modeset due. Returns true when no longer paused.
 */
bool device_try_regain_master(struct dispman_device *dev, bool force);
/* A commit failed with err (positive): on EACCES/EPERM pause the device, log once and
 * start the master timer. Returns true if err was a master loss. */
bool device_check_master_lost(struct dispman_device *dev, int err);
/*
 * seat_attach()'s callback: the seat was disabled (pause, listeners told) or enabled again
 * (listeners told, then resume with the restoring commit queued).
 */
void master_seat_changed(struct dispman_device *dev, bool enabled);
/*
 * Queues the commit that restores the screen once master is back (commit.c's
 * commit_queue_all(), given by lifecycle.c: the commit module is above this one). It runs
 * after the current dispatch, never from inside the handler that got master back.
 */
typedef void (*master_queue_commit_fn)(struct dispman_device *dev);
/* DRM master's state of the device (device_master_state(), its body master.c's): allocated at
 * device creation after the event loop, with the callback that queues the restoring commit;
 * master_finish() closes the master timer and frees it before the loop goes (nothing when not
 * allocated). */
int master_init(struct dispman_device *dev, master_queue_commit_fn queue_commit);
void master_finish(struct dispman_device *dev);
/* DRM master was lost (or the seat disabled): commits return -EACCES. */
bool master_paused(const struct dispman_device *dev);
/* The timer that retries master while paused exists (created at the first loss of master
 * without a seat; unit tests). */
bool master_timer_created(const struct dispman_device *dev);

#endif
