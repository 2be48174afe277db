/* SPDX-License-Identifier: MIT */
/*
 * The body of struct dispman_device, for device.c (its getters and setters, device.h) and
 * lifecycle.c (which creates the device and its objects, and destroys them) alone: the
 * include check (tests/unit/check-includes.py) fails if another file includes it. The
 * other modules go through device.h; a field another module keeps here names it.
 */
#ifndef DISPMAN_DEVICE_PRIVATE_H
#define DISPMAN_DEVICE_PRIVATE_H

#include "device.h"

struct dispman_device {
	/* lifecycle.c's, set at creation (read through device_fd(), the caps' getters,
	 * dispman_device_get_path()) */
	int fd;
	char path[256];            /* the node opened, "" when unknown */
	struct seat *seat;         /* the libseat seat, or NULL (device_seat(), seat.h) */
	bool addfb2_modifiers;
	bool writeback_cap;
	bool cursor_hotspot_cap;   /* DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT set */
	struct dispman_limits limits; /* device_limits(): read-only */
	struct dispman_stats stats;   /* device_stats(): each counter's writer named there */
	struct {                   /* device.c's: the frame path's flags (device.h) */
		bool shape_dirty;
		bool force_modeset;
		bool geometry_dirty;
	} frame;

	/* the KMS objects, created and destroyed by lifecycle.c (device_output(), ...) */
	struct crtc **crtcs;       /* crtc.c's objects (crtc_create(), crtc_destroy()) */
	size_t n_crtcs;
	struct plane **planes;     /* plane.c's objects (plane_create(), plane_destroy()) */
	size_t n_planes;
	struct dispman_output **outputs; /* output.c's objects, only appended (hotplug) */
	size_t n_outputs;
	struct writeback **writebacks; /* writeback.c's (writeback_create(), ..._destroy()) */
	size_t n_writebacks;

	/* the modules' own state, each read and set by its module alone (device_*_state()),
	 * from its init to its finish, both called by lifecycle.c in this order */
	struct event_loop *event;  /* event.c's: the epoll loop and its sources */
	struct master_state *master; /* master.c's: paused, the retry timer (master_paused()) */
	struct layer_state *layers; /* layer.c's: the creation order of the device's layers */
	struct proposal_state *proposal; /* proposal.c's: the planes in use (proposal_walk_start()) */
	struct req_cache *req_cache; /* request.c's: the last request's memory, reused */
	struct alloc_state *alloc; /* alloc.c's: search budget, what the kernel taught us */
	struct commit_state *commit; /* commit.c's: queued commits, holds, deferral */
	struct dispatch_state *dispatch; /* dispatch.c's: the DRM fd's source, its reads */
	struct hotplug *hotplug;   /* udev.c's: NULL without a udev monitor */
	struct output_listener *output_listener; /* lifecycle.c's: the output callback */
	struct pipeline_state *pipeline; /* pipeline.c's: the published socket */
	struct camera_registry *cameras; /* camera-graph.c's: the device's cameras */

	struct list listeners;     /* device_listener.link (device.c) */
	struct list buffers;       /* dispman_buffer.link (buffer.c, device_buffers()) */
#if HAVE_GBM
	struct gbm_device *gbm;    /* buffer.c's, made on first use (device_gbm()) */
#endif
};

#endif
