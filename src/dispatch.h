/* SPDX-License-Identifier: MIT */
/*
 * DRM events and dispman_device_dispatch() (dispatch.c): the flip handler records, then
 * the flipped frames go on screen, their callbacks run, and the queued commits follow.
 */
#ifndef DISPMAN_DISPATCH_H
#define DISPMAN_DISPATCH_H

struct dispman_device;
struct dispman_output;

/*
 * What dispatch.c keeps per device (device_dispatch_state(), its body dispatch.c's: the
 * DRM fd's source in the event loop, the flip events counted, the batch of the last read):
 * dispatch_init() adds the DRM fd to the loop (event_init() first); dispatch_finish()
 * removes it and frees the state before the loop goes (nothing when not allocated).
 */
int dispatch_init(struct dispman_device *dev);
void dispatch_finish(struct dispman_device *dev);
/* Handle DRM events only (page flips), waiting up to timeout_ms. */
int drm_dispatch(struct dispman_device *dev, int timeout_ms);
/*
 * Wait until the output has no page flip pending, at most timeout_ms, handling DRM events
 * (frame callbacks run; their commits follow the usual rules). Returns 0, -ETIMEDOUT
 * (logged, naming the output) or another negative errno.
 */
int output_wait_flip(struct dispman_output *out, int timeout_ms);

#endif
