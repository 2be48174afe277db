/* SPDX-License-Identifier: MIT */
/* The device: its KMS objects, listeners, statistics (device.c; created and destroyed by
 * lifecycle.c). A field another module keeps here names that module in its comment. */
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
struct plane;
struct proposal_state;
struct req_cache;
struct seat;
struct writeback;

struct dispman_device {
	int fd;
	char path[256];            /* the node opened, "" when unknown */
	struct seat *seat;         /* the libseat seat the nodes came from, or NULL (seat.h) */
	bool addfb2_modifiers;
	bool writeback_cap;
	bool cursor_hotspot_cap;   /* DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT set */
	struct commit_state *commit; /* commit.c's: queued commits, holds, deferral */
	struct req_cache *req_cache; /* request.c's: the last request's memory, reused */
	struct layer_state *layers; /* layer.c's: the creation order of the device's layers */
	struct dispman_limits limits; /* lifecycle.c's (device_limits(): read-only) */
	struct dispman_stats stats;   /* device_stats(): each counter's writer named there */
	struct alloc_state *alloc; /* alloc.c's: search budget, what the kernel taught us */
	struct {                   /* device.c's: device_shape_changed() ... */
		bool shape_dirty;
		bool force_modeset;
		bool geometry_dirty;
	} frame;

	struct crtc **crtcs;       /* crtc.c's (crtc_create(), crtc_destroy()) */
	size_t n_crtcs;
	struct plane **planes;     /* plane.c's (plane_create(), plane_destroy()) */
	size_t n_planes;
	struct proposal_state *proposal; /* proposal.c's: the planes in use (proposal_walk()) */
	struct dispman_output **outputs;
	size_t n_outputs;
	struct writeback **writebacks; /* writeback.c's (writeback_create(), ..._destroy()) */
	size_t n_writebacks;

	struct dispatch_state *dispatch; /* dispatch.c's: the DRM fd's source, its reads */
	struct event_loop *event;  /* event.c's (event_init() to event_finish()) */
	struct list listeners;     /* device_listener.link */
	/* hotplug (udev.c, lifecycle.c) */
	struct hotplug *hotplug;   /* NULL without a udev monitor */
	struct output_listener *output_listener; /* lifecycle.c's: the output callback */
	struct master_state *master; /* master.c's: paused, the retry timer (master_paused()) */
	struct list buffers;       /* dispman_buffer.link */

#if HAVE_GBM
	struct gbm_device *gbm;
#endif
};

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
