/* SPDX-License-Identifier: MIT */
/* The device: its KMS objects, listeners, statistics (device.c; created and destroyed by
 * lifecycle.c). Its body is device-private.h's, for device.c and lifecycle.c alone: the
 * other modules use the functions below, and each of them keeps its own state in a struct
 * of its own, which the device holds for it (device_commit_state(), ...). */
#ifndef DISPMAN_DEVICE_H
#define DISPMAN_DEVICE_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dispman/dispman.h>

#include "list.h"

struct alloc_state;
struct commit_state;
struct crtc;
struct dispatch_state;
struct dispman_layer;
struct dispman_output;
struct event_loop;
struct event_source;
struct gbm_device;
struct hotplug;
struct layer_state;
struct master_state;
struct output_listener;
struct pipeline_state;
struct camera_registry;
struct plane;
struct proposal_state;
struct req_cache;
struct seat;
struct writeback;

/*
 * Modules that keep pointers into a device (input.c) hear about its teardown here: the
 * device calls destroyed() first thing in dispman_device_destroy(), before anything is
 * freed (the listener must forget the device: remove its event sources, drop layer
 * pointers), and layer_destroyed() (may be NULL) before a layer is freed.
 */
struct device_listener {
	void (*destroyed)(struct device_listener *l);
	void (*layer_destroyed)(struct device_listener *l, struct dispman_layer *layer);
	/* The seat was disabled (false) or enabled again (true); may be NULL. */
	void (*seat_changed)(struct device_listener *l, bool enabled);
	struct list link; /* dispman_device.listeners */
};

void device_add_listener(struct dispman_device *dev, struct device_listener *l);
void device_remove_listener(struct device_listener *l);
void device_notify_layer_destroyed(struct dispman_device *dev, struct dispman_layer *layer);
void device_notify_seat(struct dispman_device *dev, bool enabled);

/*
 * The device's KMS objects, created by lifecycle.c in the order the kernel lists them and
 * destroyed only with the device (outputs are only appended, by a hotplug probe: an
 * output's index never changes, output_index()). Index i must be below the count; the
 * objects are owned by the device. Cheap: the frame path reads them on every frame.
 */
size_t device_n_outputs(const struct dispman_device *dev);
struct dispman_output *device_output(const struct dispman_device *dev, size_t i);
size_t device_n_planes(const struct dispman_device *dev);
struct plane *device_plane(const struct dispman_device *dev, size_t i);
/* all of them, device_n_planes() long (planes_take()) */
struct plane *const *device_planes(const struct dispman_device *dev);
size_t device_n_crtcs(const struct dispman_device *dev);
struct crtc *device_crtc(const struct dispman_device *dev, size_t i);
size_t device_n_writebacks(const struct dispman_device *dev);
struct writeback *device_writeback(const struct dispman_device *dev, size_t i);

/* The DRM fd (the device's own, closed with it) and what it was opened with. */
int device_fd(const struct dispman_device *dev);
bool device_addfb2_modifiers(const struct dispman_device *dev);
bool device_writeback_cap(const struct dispman_device *dev);  /* writeback connectors */
bool device_cursor_hotspot_cap(const struct dispman_device *dev); /* cursor hotspots set */
/* The libseat seat the nodes came from, or NULL (seat.h); lifecycle.c sets it (and the unit
 * tests, a stand-in), the device's, detached at its destruction. */
struct seat *device_seat(const struct dispman_device *dev);
void device_set_seat(struct dispman_device *dev, struct seat *seat);
/* The device's buffers (dispman_buffer.link), linked by buffer.c alone. */
struct list *device_buffers(struct dispman_device *dev);
#if HAVE_GBM
/* The GBM device on the DRM fd, NULL until buffer.c creates it on first use (its one
 * writer); destroyed with the device. */
struct gbm_device *device_gbm(const struct dispman_device *dev);
void device_set_gbm(struct dispman_device *dev, struct gbm_device *gbm);
#endif

/*
 * The modules' own state of the device, one struct each, its body in the module's .c: the
 * device holds the pointer from the module's init to its finish (lifecycle.c calls them
 * in order, bottom up and top down), and only that module reads it or sets it, through
 * these (NULL outside that span).
 */
/* event.c: event_init() to event_finish() */
struct event_loop *device_event_loop(const struct dispman_device *dev);
void device_set_event_loop(struct dispman_device *dev, struct event_loop *st);
/* master.c: master_init() to master_finish() */
struct master_state *device_master_state(const struct dispman_device *dev);
void device_set_master_state(struct dispman_device *dev, struct master_state *st);
/* layer.c: layer_init() to layer_finish() */
struct layer_state *device_layer_state(const struct dispman_device *dev);
void device_set_layer_state(struct dispman_device *dev, struct layer_state *st);
/* proposal.c: proposal_state_init() to proposal_state_finish() */
struct proposal_state *device_proposal_state(const struct dispman_device *dev);
void device_set_proposal_state(struct dispman_device *dev, struct proposal_state *st);
/* request.c: req_cache_init() to req_cache_free() */
struct req_cache *device_req_cache(const struct dispman_device *dev);
void device_set_req_cache(struct dispman_device *dev, struct req_cache *st);
/* alloc.c: alloc_init() to alloc_finish() */
struct alloc_state *device_alloc_state(const struct dispman_device *dev);
void device_set_alloc_state(struct dispman_device *dev, struct alloc_state *st);
/* commit.c: commit_init() to commit_finish() */
struct commit_state *device_commit_state(const struct dispman_device *dev);
void device_set_commit_state(struct dispman_device *dev, struct commit_state *st);
/* dispatch.c: dispatch_init() to dispatch_finish() */
struct dispatch_state *device_dispatch_state(const struct dispman_device *dev);
void device_set_dispatch_state(struct dispman_device *dev, struct dispatch_state *st);
/* udev.c: hotplug_init() to hotplug_finish(); NULL without a udev monitor */
struct hotplug *device_hotplug(const struct dispman_device *dev);
void device_set_hotplug(struct dispman_device *dev, struct hotplug *st);
/* pipeline.c (the published socket) and camera-graph.c (the device's cameras): each made
 * on first use, freed by its own device listener at the device's destruction; NULL before */
struct pipeline_state *device_pipeline_state(const struct dispman_device *dev);
void device_set_pipeline_state(struct dispman_device *dev, struct pipeline_state *st);
struct camera_registry *device_camera_registry(const struct dispman_device *dev);
void device_set_camera_registry(struct dispman_device *dev, struct camera_registry *st);

/*
 * The frame path's flags: what changed in the scene since the last accepted commit, set by
 * the modules that change it (layer.c, output.c, master.c, lifecycle.c; below the frame
 * path, so the flags are the device's) and cleared only by the frame path (commit.c,
 * alloc.c), which reads them on every frame.
 *
 * The shape changed (layers, their stacking, sizes or formats, a mode, the screen after
 * another master): the next commit searches a plane assignment again.
 */
void device_shape_changed(struct dispman_device *dev);
/* Only layers' source or destination rectangles changed (layer.c's setters). */
void device_geometry_changed(struct dispman_device *dev);
/* The next commit is a modeset of the whole device, searched again (master.c: master
 * regained or resumed). */
void device_force_modeset(struct dispman_device *dev);
bool device_shape_dirty(const struct dispman_device *dev);
bool device_modeset_forced(const struct dispman_device *dev);
bool device_geometry_dirty(const struct dispman_device *dev);
/* commit.c: an accepted commit of the whole device set the shape and the modeset. */
void device_shape_committed(struct dispman_device *dev);
/* alloc.c (alloc_done()): whether rectangles not yet committed remain. */
void device_set_geometry_dirty(struct dispman_device *dev, bool dirty);

/* The device's size and cursor limits, read at creation (lifecycle.c, its one writer,
 * through the body); never NULL, owned by the device. */
const struct dispman_limits *device_limits(const struct dispman_device *dev);
/*
 * The device's counters (dispman_device_get_stats()), for the module that counts each:
 * request.c the commits (commits, test_commits, failed_commits, modesets), dispatch.c
 * flips, alloc.c searches and geometry_commits/geometry_refused, compose.c compositions,
 * damaged_pixels, composed_pixels and composition_bytes(_peak). Only those write them;
 * never NULL, owned by the device.
 */
struct dispman_stats *device_stats(struct dispman_device *dev);

#endif
