/* SPDX-License-Identifier: MIT */
/* Plane assignment on a device, around the pure planner of plan.h (alloc.c). */
#ifndef DISPMAN_ALLOC_H
#define DISPMAN_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

struct dispman_device;
struct proposal;

/* What the allocator keeps per device (device_alloc_state(), its body alloc.c's: the search
 * budget, what the kernel taught): allocated at device creation, freed at its destruction
 * (nothing when not allocated). */
int alloc_init(struct dispman_device *dev);
void alloc_finish(struct dispman_device *dev);
/*
 * Plan the frame into prop (proposal_init()): when the scene's shape changed, search an
 * assignment of layers to planes with TEST_ONLY commits (flags: ALLOW_MODESET or 0) within
 * the device's budget (proposal_start_search()), else propose the committed one again, as
 * it is (proposal_keep_committed()); then compose the layers prop
 * leaves for the CPU. Planes and layers keep their committed state (proposal_record() after
 * an accepted commit changes it); prop->diff and prop->geometry say how the request is to
 * be built (req_build()). Returns 0 or -errno.
 */
int alloc_prepare(struct dispman_device *dev, uint32_t flags, struct proposal *prop);
/*
 * Before a commit picks its outputs: when only rectangles changed, check that the
 * committed assignment still holds them; if not, mark the shape dirty (a search, which
 * commits the whole device). Also marks it dirty once rectangles stopped changing after
 * a layer off the planes moved (it may fit a plane now).
 */
void alloc_check_geometry(struct dispman_device *dev);
/* The committed assignment holds as it is: no new shape, modeset or rectangles waiting, and
 * no search due for a layer off the planes that moved (then alloc_check_geometry() has
 * nothing to do). */
bool alloc_assignment_holds(const struct dispman_device *dev);
/*
 * The real commit of prop that followed alloc_prepare() succeeded (true)
 * or was refused. Returns
 * true when the refused commit only moved layers on the previous assignment without a
 * test: then the shape is marked dirty and the caller prepares and commits again at once
 * (a refused atomic commit changed nothing).
 */
bool alloc_done(struct dispman_device *dev, const struct proposal *prop, bool ok);

#endif
