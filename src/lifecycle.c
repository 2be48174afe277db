/* SPDX-License-Identifier: MIT */
/*
 * A device's life: opening it (client caps, CRTCs, connectors as outputs, planes, the
 * event loop and its DRM source, hotplug, the seat), re-probing its connectors on hotplug,
 * and destroying it with everything it owns, top down: each module's objects are torn down
 * by this file in order (layers, composition, output), none calls up into its owner.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#if HAVE_GBM
#include <gbm.h>
#endif

#include <dispman/dispman.h>

#include "alloc.h"
#include "buffer.h"
#include "commit.h"
#include "compose.h"
#include "crtc.h"
#include "device-private.h"
#include "dispatch.h"
#include "event.h"
#include "layer.h"
#include "list.h"
#include "log.h"
#include "master.h"
#include "output.h"
#include "plane.h"
#include "proposal.h"
#include "props.h"
#include "request.h"
#include "seat.h"
#include "udev.h"
#include "util.h"
#include "writeback.h"

/* Linux 6.8 uapi, missing from older libdrm headers */
#define CLIENT_CAP_CURSOR_PLANE_HOTSPOT 6

/* The application's output callback, which a probe calls for each output that changed
 * (dispman_device.output_listener: allocated with the device, freed with it). */
struct output_listener {
	dispman_output_callback cb;
	void *data;
};

int dispman_device_set_output_callback(struct dispman_device *dev, dispman_output_callback cb,
	void *data)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	dev->output_listener->cb = cb;
	dev->output_listener->data = data;
	return 0;
}

/* Every connector of res: an output, or a writeback connector. */
static int read_connectors(struct dispman_device *dev, drmModeRes *res)
{
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *conn = drmModeGetConnector(dev->fd, res->connectors[i]);
		if (!conn) {
			dispman_log_errno(DISPMAN_LOG_WARNING, errno, "cannot get connector %u",
				res->connectors[i]);
			continue;
		}
		if (conn->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
			/* kept when it has the properties a capture needs */
			struct writeback *wb;
			int ret = writeback_create(dev, conn, &wb);
			drmModeFreeConnector(conn);
			if (ret < 0)
				return ret;
			if (wb)
				dev->writebacks[dev->n_writebacks++] = wb;
			continue;
		}
		struct dispman_output *out = output_create(dev, conn, dev->n_outputs);
		drmModeFreeConnector(conn);
		if (!out)
			return -errno;
		dev->outputs[dev->n_outputs++] = out;
	}
	return 0;
}

static int device_read_resources(struct dispman_device *dev)
{
	drmModeRes *res = drmModeGetResources(dev->fd);
	if (!res) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot get KMS resources");
		return -err;
	}
	int ret = 0;
	dev->limits.min_width = res->min_width;
	dev->limits.max_width = res->max_width;
	dev->limits.min_height = res->min_height;
	dev->limits.max_height = res->max_height;
	if (res->count_crtcs > 0) {
		dev->crtcs = calloc((size_t)res->count_crtcs, sizeof(*dev->crtcs));
		if (!dev->crtcs)
			ret = -ENOMEM;
	}
	for (int i = 0; ret == 0 && i < res->count_crtcs; i++) {
		struct crtc *crtc = crtc_create(dev, res->crtcs[i], (unsigned)i);
		if (crtc)
			dev->crtcs[dev->n_crtcs++] = crtc;
		else
			ret = -errno;
	}
	if (ret == 0 && res->count_connectors > 0) {
		dev->outputs = calloc((size_t)res->count_connectors, sizeof(*dev->outputs));
		dev->writebacks = calloc((size_t)res->count_connectors, sizeof(*dev->writebacks));
		if (!dev->outputs || !dev->writebacks)
			ret = -ENOMEM;
	}
	if (ret == 0)
		ret = read_connectors(dev, res);
	drmModeFreeResources(res);
	if (ret == -ENOMEM)
		dispman_log(DISPMAN_LOG_ERROR, "out of memory reading KMS resources");
	return ret;
}

static int device_read_planes(struct dispman_device *dev)
{
	drmModePlaneRes *res = drmModeGetPlaneResources(dev->fd);
	if (!res) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot get plane resources");
		return -err;
	}
	int ret = 0;
	if (res->count_planes > 0) {
		dev->planes = calloc(res->count_planes, sizeof(*dev->planes));
		if (!dev->planes) {
			dispman_log(DISPMAN_LOG_ERROR, "out of memory reading planes");
			ret = -ENOMEM;
			goto out;
		}
	}
	for (uint32_t i = 0; i < res->count_planes; i++) {
		dev->planes[dev->n_planes] = plane_create(dev, res->planes[i]);
		if (!dev->planes[dev->n_planes]) {
			ret = -errno;
			goto out;
		}
		dev->n_planes++;
	}
out:
	drmModeFreePlaneResources(res);
	return ret;
}

/* The client caps the library needs (universal planes, atomic) and wants, and the caps. */
static int device_set_caps(struct dispman_device *dev)
{
	if (drmSetClientCap(dev->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) != 0) {
		dispman_log(DISPMAN_LOG_ERROR, "DRM device lacks universal planes");
		return -EOPNOTSUPP;
	}
	if (drmSetClientCap(dev->fd, DRM_CLIENT_CAP_ATOMIC, 1) != 0) {
		dispman_log(DISPMAN_LOG_ERROR, "DRM device lacks atomic modesetting "
			"(DRM_CLIENT_CAP_ATOMIC refused)");
		return -EOPNOTSUPP;
	}
	dev->writeback_cap = drmSetClientCap(dev->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1) == 0;
	/* Virtualized cursor planes (virtio-gpu since 6.8, vmwgfx, qxl) are hidden from atomic
	 * clients that do not promise to set their hotspot: we do (layer hotspots). */
	dev->cursor_hotspot_cap = drmSetClientCap(dev->fd, CLIENT_CAP_CURSOR_PLANE_HOTSPOT,
		1) == 0;
	if (!dev->writeback_cap)
		dispman_log(DISPMAN_LOG_DEBUG, "no writeback connector support");

	uint64_t cap = 0;
	dev->addfb2_modifiers = drmGetCap(dev->fd, DRM_CAP_ADDFB2_MODIFIERS, &cap) == 0 && cap;
	dev->limits.cursor_width = drmGetCap(dev->fd, DRM_CAP_CURSOR_WIDTH, &cap) == 0 && cap ?
		(uint32_t)cap : 64;
	dev->limits.cursor_height = drmGetCap(dev->fd, DRM_CAP_CURSOR_HEIGHT, &cap) == 0 && cap ?
		(uint32_t)cap : 64;
	return 0;
}

struct dispman_device *dispman_device_create_for_fd(int drm_fd)
{
	struct dispman_device *dev = NULL;
	int ret;
	if (drm_fd < 0 || fcntl(drm_fd, F_GETFD) < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "invalid DRM fd %d", drm_fd);
		errno = EBADF;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating a device");
		errno = ENOMEM;
		return NULL;
	}
	list_init(&dev->buffers);
	list_init(&dev->listeners);
	dev->output_listener = calloc(1, sizeof(*dev->output_listener));
	if (!dev->output_listener) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating a device");
		free(dev);
		errno = ENOMEM;
		return NULL;
	}
	device_shape_changed(dev);
	dev->fd = fcntl(drm_fd, F_DUPFD_CLOEXEC, 0);
	if (dev->fd < 0) {
		ret = -errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, errno, "cannot duplicate DRM fd %d", drm_fd);
		goto err;
	}
	/* The node's path, when the fd is one (dispman_device_open() sets it anyway). */
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dev->fd);
	ssize_t len = readlink(link, dev->path, sizeof(dev->path) - 1);
	dev->path[len > 0 && strncmp(dev->path, "/dev/", 5) == 0 ? len : 0] = '\0';

	ret = device_set_caps(dev);
	if (ret < 0)
		goto err;
	ret = device_read_resources(dev);
	if (ret < 0)
		goto err;
	ret = device_read_planes(dev);
	if (ret < 0)
		goto err;
	ret = event_init(dev);
	if (ret < 0)
		goto err;
	ret = master_init(dev, commit_queue_all);
	if (ret < 0)
		goto err;
	ret = layer_init(dev);
	if (ret < 0)
		goto err;
	ret = proposal_state_init(dev);
	if (ret < 0)
		goto err;
	ret = req_cache_init(dev);
	if (ret < 0)
		goto err;
	ret = alloc_init(dev);
	if (ret < 0)
		goto err;
	ret = commit_init(dev);
	if (ret < 0)
		goto err;
	ret = dispatch_init(dev);
	if (ret < 0)
		goto err;
	ret = hotplug_init(dev, dispman_device_probe);
	if (ret < 0)
		goto err;

	drmVersion *ver = drmGetVersion(dev->fd);
	if (ver) {
		dispman_log(DISPMAN_LOG_INFO, "opened DRM device %s: %zu CRTCs, %zu outputs, "
			"%zu planes, %zu writeback connectors", ver->name ? ver->name : "?",
			dev->n_crtcs, dev->n_outputs, dev->n_planes, dev->n_writebacks);
		drmFreeVersion(ver);
	}
	return dev;
err:
	dispman_device_destroy(dev);
	errno = -ret;
	return NULL;
}

struct dispman_device *dispman_device_open(const char *path)
{
	int fd;
	char found[256] = "";
	const char *env = getenv("DISPMAN_DEVICE");
	if (!path && env && *env) {
		path = env;
		dispman_log(DISPMAN_LOG_INFO, "using DRM device %s (DISPMAN_DEVICE)", path);
	}
	struct seat *seat = seat_open(); /* NULL: open directly (seat.h) */
	if (path) {
		fd = seat_open_node(seat, path);
		if (fd < 0) {
			int err = -fd;
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot open %s%s%s", path,
				path == env ? " (named by DISPMAN_DEVICE)" : "",
				err == EACCES || err == EPERM ? " (run as root, or through a seat: "
				"seatd or logind)" : "");
			seat_destroy(seat);
			errno = err;
			return NULL;
		}
		snprintf(found, sizeof(found), "%s", path);
	} else {
		fd = udev_open_default_card(seat, found, sizeof(found));
		if (fd < 0) {
			seat_destroy(seat);
			errno = -fd;
			return NULL;
		}
	}
	struct dispman_device *dev = dispman_device_create_for_fd(fd);
	int err = errno;
	if (dev) {
		seat_rekey(seat, fd, dev->fd);
		close(fd);
		snprintf(dev->path, sizeof(dev->path), "%s", found);
		dev->seat = seat; /* dispman_device_destroy() detaches it */
		if (seat && seat_attach(seat, dev, master_seat_changed) < 0) {
			dispman_device_destroy(dev); /* destroys the seat too */
			errno = ENOMEM;
			return NULL;
		}
	} else {
		seat_close_node(seat, fd);
		seat_destroy(seat);
	}
	errno = err;
	return dev;
}

void dispman_device_destroy(struct dispman_device *dev)
{
	if (!dev)
		return;
	/* Listeners forget the device before anything goes (they may remove sources). */
	struct list *pos, *tmp;
	if (dev->listeners.next) {
		list_for_each_safe(pos, tmp, &dev->listeners) {
			struct device_listener *l = container_of(pos, struct device_listener, link);
			list_remove(&l->link);
			l->destroyed(l);
		}
	}
	hotplug_finish(dev);
	seat_detach(dev->seat); /* closes its devices: the DRM node and none else by now */
	dev->seat = NULL;
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		layer_destroy_all(out);
		compose_destroy(out);
		output_destroy(out);
	}
	free(dev->outputs);
	dispatch_finish(dev);
	commit_finish(dev);
	alloc_finish(dev);
	proposal_state_finish(dev);
	layer_finish(dev);
	buffer_orphan_all(dev);
	for (size_t i = 0; i < dev->n_crtcs; i++)
		crtc_destroy(dev, dev->crtcs[i]);
	free(dev->crtcs);
	for (size_t i = 0; i < dev->n_planes; i++)
		plane_destroy(dev->planes[i]);
	free(dev->planes);
	for (size_t i = 0; i < dev->n_writebacks; i++)
		writeback_destroy(dev->writebacks[i]);
	free(dev->writebacks);
	master_finish(dev);
	event_finish(dev);
	req_cache_free(dev);
#if HAVE_GBM
	if (dev->gbm)
		gbm_device_destroy(dev->gbm);
#endif
	if (dev->fd >= 0)
		close(dev->fd);
	free(dev->output_listener);
	free(dev);
}

static struct dispman_output *find_output(struct dispman_device *dev, uint32_t connector_id)
{
	for (size_t i = 0; i < dev->n_outputs; i++)
		if (output_connector_id(dev->outputs[i]) == connector_id)
			return dev->outputs[i];
	return NULL;
}

/* What a probe found for one output. */
struct probe_state {
	int event;
	bool seen, was_enabled;
};

/* A connector the device has no output for yet: a new output (st grows with it). */
static void probe_new_connector(struct dispman_device *dev, drmModeConnector *conn,
	struct probe_state *st)
{
	struct dispman_output **outs = realloc(dev->outputs,
		(dev->n_outputs + 1) * sizeof(*outs));
	struct dispman_output *out = outs ? output_create(dev, conn, dev->n_outputs) : NULL;
	if (outs)
		dev->outputs = outs;
	if (!out) {
		dispman_log(DISPMAN_LOG_ERROR, "hotplug: cannot add connector %u",
			conn->connector_id);
		return;
	}
	st[dev->n_outputs].seen = true;
	if (output_status(out) == DISPMAN_CONNECTED)
		st[dev->n_outputs].event = DISPMAN_OUTPUT_CONNECTED;
	dev->outputs[dev->n_outputs++] = out;
	dispman_log(DISPMAN_LOG_INFO, "hotplug: new connector %s", output_name(out));
}

/* Re-read every connector of res into the outputs; st[i] says what changed. */
static void probe_connectors(struct dispman_device *dev, drmModeRes *res,
	struct probe_state *st)
{
	for (int c = 0; c < res->count_connectors; c++) {
		drmModeConnector *conn = drmModeGetConnector(dev->fd, res->connectors[c]);
		if (!conn) {
			dispman_log_errno(DISPMAN_LOG_WARNING, errno, "hotplug: cannot probe "
				"connector %u", res->connectors[c]);
			struct dispman_output *out = find_output(dev, res->connectors[c]);
			if (out)
				st[output_index(out)].seen = true;
			continue;
		}
		if (conn->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
			drmModeFreeConnector(conn);
			continue;
		}
		struct dispman_output *out = find_output(dev, conn->connector_id);
		if (out) {
			size_t i = output_index(out);
			st[i].seen = true;
			int ev = output_update(out, conn);
			if (ev > 0)
				st[i].event = ev;
		} else {
			probe_new_connector(dev, conn, st);
		}
		drmModeFreeConnector(conn);
	}
	for (size_t i = 0; i < dev->n_outputs; i++) {
		if (st[i].seen || output_status(dev->outputs[i]) == DISPMAN_DISCONNECTED)
			continue;
		/* The connector vanished (an MST branch): same as unplugged. */
		drmModeConnector gone = {
			.connector_id = output_connector_id(dev->outputs[i]),
			.connection = DRM_MODE_DISCONNECTED,
		};
		dispman_output_get_physical_size(dev->outputs[i], &gone.mmWidth, &gone.mmHeight);
		int ev = output_update(dev->outputs[i], &gone);
		if (ev > 0)
			st[i].event = ev;
	}
}

/* Log and call back each change; returns how many outputs changed, and whether the
 * outputs' new state needs a commit. */
static int report_changes(struct dispman_device *dev, const struct probe_state *st,
	bool *need_commit)
{
	static const char *const names[] = { "", "connected", "disconnected", "changed" };
	int changed = 0;
	*need_commit = false;
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		int ev = st[i].event;
		if (!ev)
			continue;
		changed++;
		bool enabled = output_enabled(out);
		dispman_log(DISPMAN_LOG_INFO, "hotplug: %s %s%s", output_name(out), names[ev],
			st[i].was_enabled == enabled ? "" :
			enabled ? ", enabled again" : ", disabled");
		*need_commit = *need_commit || st[i].was_enabled != enabled ||
			(enabled && ev == DISPMAN_OUTPUT_CHANGED);
		const struct output_listener *ol = dev->output_listener;
		if (ol->cb)
			ol->cb(dev, out, (enum dispman_output_event)ev, ol->data);
	}
	return changed;
}

int dispman_device_probe(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	drmModeRes *res = drmModeGetResources(dev->fd);
	if (!res) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "hotplug: cannot get KMS resources");
		return -err;
	}
	/* Outputs are never freed before the device: a new connector is appended, a
	 * vanished one stays as DISCONNECTED. */
	size_t cap = dev->n_outputs + (size_t)res->count_connectors + 1;
	struct probe_state *st = calloc(cap, sizeof(*st));
	if (!st) {
		drmModeFreeResources(res);
		dispman_log(DISPMAN_LOG_ERROR, "hotplug: out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < dev->n_outputs; i++)
		st[i].was_enabled = output_enabled(dev->outputs[i]);
	probe_connectors(dev, res, st);
	drmModeFreeResources(res);
	bool need_commit;
	int changed = report_changes(dev, st, &need_commit);
	free(st);
	if (!need_commit || master_paused(dev))
		return changed;
	if (event_dispatching(dev)) {
		/* from the hotplug handler: the commit runs once the dispatch is over */
		commit_queue_all(dev);
		return changed;
	}
	int ret = device_commit_internal(dev, NULL);
	if (ret < 0 && ret != -EACCES)
		dispman_log(DISPMAN_LOG_ERROR, "hotplug: commit of the new output state failed: %s",
			strerror(-ret));
	return changed;
}

int dispman_device_switch_vt(struct dispman_device *dev, int vt)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	if (vt < 1 || vt > 63) {
		dispman_log(DISPMAN_LOG_ERROR, "dispman_device_switch_vt: VT %d is out of range "
			"(1 to 63)", vt);
		return -EINVAL;
	}
	if (!dev->seat) {
		dispman_log(DISPMAN_LOG_ERROR, "dispman_device_switch_vt: the device was not "
			"opened through a seat (seatd or logind; see DISPMAN_SEAT): no VT to switch");
		return -ENOTSUP;
	}
	return seat_switch_session(dev->seat, vt);
}
