/* SPDX-License-Identifier: MIT */
/*
 * The device's own state: its listeners, statistics and limits, and the getters of
 * the public API. Creating and destroying a device and its objects is lifecycle.c's.
 */
#include "device-private.h"

#include <errno.h>

#include "log.h"
#include "sized.h"
#include "util.h"

const char *dispman_device_get_path(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	return dev->path[0] ? dev->path : NULL;
}

int dispman_device_get_drm_fd(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	return dev->fd;
}

void device_add_listener(struct dispman_device *dev, struct device_listener *l)
{
	list_insert_tail(&dev->listeners, &l->link);
}

void device_remove_listener(struct device_listener *l)
{
	list_remove(&l->link);
}

void device_notify_layer_destroyed(struct dispman_device *dev, struct dispman_layer *layer)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &dev->listeners) {
		struct device_listener *l = container_of(pos, struct device_listener, link);
		if (l->layer_destroyed)
			l->layer_destroyed(l, layer);
	}
}

void device_notify_seat(struct dispman_device *dev, bool enabled)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, &dev->listeners) {
		struct device_listener *l = container_of(pos, struct device_listener, link);
		if (l->seat_changed)
			l->seat_changed(l, enabled);
	}
}

int dispman_device_get_stats(struct dispman_device *dev, struct dispman_stats *stats)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	return sized_copy_out(stats, &dev->stats, sizeof(dev->stats), "dispman_stats");
}

int dispman_device_get_limits(struct dispman_device *dev, struct dispman_limits *limits)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	return sized_copy_out(limits, &dev->limits, sizeof(dev->limits), "dispman_limits");
}

size_t dispman_device_get_output_count(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return 0;
	return dev->n_outputs;
}

struct dispman_output *dispman_device_get_output(struct dispman_device *dev, size_t i)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	if (i >= dev->n_outputs) {
		dispman_log(DISPMAN_LOG_ERROR, "output index %zu out of range (%zu outputs)", i,
			dev->n_outputs);
		errno = EINVAL;
		return NULL;
	}
	return dev->outputs[i];
}

void device_shape_changed(struct dispman_device *dev)
{
	dev->frame.shape_dirty = true;
}

void device_geometry_changed(struct dispman_device *dev)
{
	dev->frame.geometry_dirty = true;
}

void device_force_modeset(struct dispman_device *dev)
{
	dev->frame.force_modeset = true;
	dev->frame.shape_dirty = true;
}

bool device_shape_dirty(const struct dispman_device *dev)
{
	return dev->frame.shape_dirty;
}

bool device_modeset_forced(const struct dispman_device *dev)
{
	return dev->frame.force_modeset;
}

bool device_geometry_dirty(const struct dispman_device *dev)
{
	return dev->frame.geometry_dirty;
}

void device_shape_committed(struct dispman_device *dev)
{
	dev->frame.force_modeset = false;
	dev->frame.shape_dirty = false;
}

void device_set_geometry_dirty(struct dispman_device *dev, bool dirty)
{
	dev->frame.geometry_dirty = dirty;
}

const struct dispman_limits *device_limits(const struct dispman_device *dev)
{
	return &dev->limits;
}

struct dispman_stats *device_stats(struct dispman_device *dev)
{
	return &dev->stats;
}

size_t device_n_outputs(const struct dispman_device *dev)
{
	return dev->n_outputs;
}

struct dispman_output *device_output(const struct dispman_device *dev, size_t i)
{
	return dev->outputs[i];
}

size_t device_n_planes(const struct dispman_device *dev)
{
	return dev->n_planes;
}

struct plane *device_plane(const struct dispman_device *dev, size_t i)
{
	return dev->planes[i];
}

struct plane *const *device_planes(const struct dispman_device *dev)
{
	return dev->planes;
}

size_t device_n_crtcs(const struct dispman_device *dev)
{
	return dev->n_crtcs;
}

struct crtc *device_crtc(const struct dispman_device *dev, size_t i)
{
	return dev->crtcs[i];
}

size_t device_n_writebacks(const struct dispman_device *dev)
{
	return dev->n_writebacks;
}

struct writeback *device_writeback(const struct dispman_device *dev, size_t i)
{
	return dev->writebacks[i];
}

int device_fd(const struct dispman_device *dev)
{
	return dev->fd;
}

bool device_addfb2_modifiers(const struct dispman_device *dev)
{
	return dev->addfb2_modifiers;
}

bool device_writeback_cap(const struct dispman_device *dev)
{
	return dev->writeback_cap;
}

bool device_cursor_hotspot_cap(const struct dispman_device *dev)
{
	return dev->cursor_hotspot_cap;
}

struct seat *device_seat(const struct dispman_device *dev)
{
	return dev->seat;
}

void device_set_seat(struct dispman_device *dev, struct seat *seat)
{
	dev->seat = seat;
}

struct list *device_buffers(struct dispman_device *dev)
{
	return &dev->buffers;
}

#if HAVE_GBM
struct gbm_device *device_gbm(const struct dispman_device *dev)
{
	return dev->gbm;
}

void device_set_gbm(struct dispman_device *dev, struct gbm_device *gbm)
{
	dev->gbm = gbm;
}
#endif

struct event_loop *device_event_loop(const struct dispman_device *dev)
{
	return dev->event;
}

void device_set_event_loop(struct dispman_device *dev, struct event_loop *st)
{
	dev->event = st;
}

struct master_state *device_master_state(const struct dispman_device *dev)
{
	return dev->master;
}

void device_set_master_state(struct dispman_device *dev, struct master_state *st)
{
	dev->master = st;
}

struct layer_state *device_layer_state(const struct dispman_device *dev)
{
	return dev->layers;
}

void device_set_layer_state(struct dispman_device *dev, struct layer_state *st)
{
	dev->layers = st;
}

struct proposal_state *device_proposal_state(const struct dispman_device *dev)
{
	return dev->proposal;
}

void device_set_proposal_state(struct dispman_device *dev, struct proposal_state *st)
{
	dev->proposal = st;
}

struct req_cache *device_req_cache(const struct dispman_device *dev)
{
	return dev->req_cache;
}

void device_set_req_cache(struct dispman_device *dev, struct req_cache *st)
{
	dev->req_cache = st;
}

struct alloc_state *device_alloc_state(const struct dispman_device *dev)
{
	return dev->alloc;
}

void device_set_alloc_state(struct dispman_device *dev, struct alloc_state *st)
{
	dev->alloc = st;
}

struct commit_state *device_commit_state(const struct dispman_device *dev)
{
	return dev->commit;
}

void device_set_commit_state(struct dispman_device *dev, struct commit_state *st)
{
	dev->commit = st;
}

struct dispatch_state *device_dispatch_state(const struct dispman_device *dev)
{
	return dev->dispatch;
}

void device_set_dispatch_state(struct dispman_device *dev, struct dispatch_state *st)
{
	dev->dispatch = st;
}

struct hotplug *device_hotplug(const struct dispman_device *dev)
{
	return dev->hotplug;
}

void device_set_hotplug(struct dispman_device *dev, struct hotplug *st)
{
	dev->hotplug = st;
}

struct pipeline_state *device_pipeline_state(const struct dispman_device *dev)
{
	return dev->pipeline;
}

void device_set_pipeline_state(struct dispman_device *dev, struct pipeline_state *st)
{
	dev->pipeline = st;
}

struct camera_registry *device_camera_registry(const struct dispman_device *dev)
{
	return dev->cameras;
}

void device_set_camera_registry(struct dispman_device *dev, struct camera_registry *st)
{
	dev->cameras = st;
}
