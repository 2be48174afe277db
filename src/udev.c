/* SPDX-License-Identifier: MIT */
#include "udev.h"

#include <errno.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "device.h"
#include "event.h"
#include "log.h"
#include "seat.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <libudev.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>

/* How well a card node suits dispman_device_open(NULL): 0 unusable, 1 KMS with connectors
 * and CRTCs and atomic modesetting, 2 the same with a connected connector. */
static int card_rank(int fd, const char *node)
{
	drmModeRes *res = drmModeGetResources(fd);
	if (!res) {
		dispman_log(DISPMAN_LOG_DEBUG, "%s: no KMS resources (a render-only driver?), "
			"skipped", node);
		return 0;
	}
	int rank = 0;
	if (res->count_connectors <= 0 || res->count_crtcs <= 0) {
		dispman_log(DISPMAN_LOG_DEBUG, "%s has no connectors or no CRTCs, skipped", node);
	} else if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) != 0) {
		dispman_log(DISPMAN_LOG_DEBUG, "%s has no atomic modesetting, skipped", node);
	} else {
		rank = 1;
		for (int i = 0; i < res->count_connectors && rank < 2; i++) {
			drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
			if (c && c->connection == DRM_MODE_CONNECTED)
				rank = 2;
			drmModeFreeConnector(c);
		}
	}
	drmModeFreeResources(res);
	return rank;
}

/* Card numbers of the DRM card nodes, sorted: through udev, else from /dev/dri. */
static size_t list_cards(unsigned *nums, size_t max)
{
	size_t n = 0;
	struct udev *udev = udev_new();
	struct udev_enumerate *en = udev ? udev_enumerate_new(udev) : NULL;
	if (en) {
		udev_enumerate_add_match_subsystem(en, "drm");
		udev_enumerate_add_match_sysname(en, "card[0-9]*");
		if (udev_enumerate_scan_devices(en) == 0) {
			struct udev_list_entry *entry;
			udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(en)) {
				const char *name = strrchr(udev_list_entry_get_name(entry), '/');
				unsigned num;
				char tail;
				if (name && sscanf(name, "/card%u%c", &num, &tail) == 1 && n < max)
					nums[n++] = num;
			}
		}
	}
	if (en)
		udev_enumerate_unref(en);
	if (udev)
		udev_unref(udev);
	if (n == 0) {
		DIR *d = opendir("/dev/dri");
		struct dirent *e;
		while (d && (e = readdir(d))) {
			unsigned num;
			char tail;
			if (sscanf(e->d_name, "card%u%c", &num, &tail) == 1 && n < max)
				nums[n++] = num;
		}
		if (d)
			closedir(d);
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && nums[j - 1] > nums[j]; j--) {
			unsigned t = nums[j];
			nums[j] = nums[j - 1];
			nums[j - 1] = t;
		}
	return n;
}

int udev_open_default_card(struct seat *seat, char *path, size_t size)
{
	unsigned nums[64];
	size_t n = list_cards(nums, ARRAY_SIZE(nums));
	int best = -1, best_rank = 0;
	size_t denied = 0;
	for (size_t i = 0; i < n && best_rank < 2; i++) {
		char node[64];
		snprintf(node, sizeof(node), "/dev/dri/card%u", nums[i]);
		int fd = seat_open_node(seat, node);
		if (fd < 0) {
			dispman_log_errno(DISPMAN_LOG_DEBUG, -fd, "cannot open %s", node);
			if (fd == -EACCES || fd == -EPERM)
				denied++;
			continue;
		}
		int rank = card_rank(fd, node);
		if (rank > best_rank) {
			if (best >= 0)
				seat_close_node(seat, best);
			best = fd;
			best_rank = rank;
			snprintf(path, size, "%s", node);
		} else {
			seat_close_node(seat, fd);
		}
	}
	if (best >= 0) {
		dispman_log(DISPMAN_LOG_INFO, "using DRM device %s (%s)", path, best_rank == 2 ?
			"the first card with a connected connector" :
			"the first card with connectors; none is connected");
		return best;
	}
	struct stat st;
	if (denied > 0 && denied == n) {
		/* the cards are there, the process may not use them: say so, not ENOENT */
		dispman_log(DISPMAN_LOG_ERROR, "no DRM card node could be opened: permission denied "
			"on %zu node(s) (run as root, through a seat: start seatd and let this user "
			"use it, or from a logind session; see DISPMAN_SEAT in doc/api.md)", n);
		return -EACCES;
	}
	if (stat("/dev/dri", &st) != 0)
		dispman_log(DISPMAN_LOG_ERROR, "no /dev/dri: this system has no KMS device (no "
			"display driver loaded, or a container without /dev/dri)");
	else
		dispman_log(DISPMAN_LOG_ERROR, "no DRM card node with connectors, CRTCs and atomic "
			"modesetting found in /dev/dri (%zu card node(s) tried; set DISPMAN_DEVICE "
			"to choose one)", n);
	return -ENOENT;
}

/* ---- hotplug ---- */

struct hotplug {
	struct udev *udev;
	struct udev_monitor *mon;
	struct event_source *source;
	dev_t devnum;
	hotplug_probe_func probe;   /* hotplug_init()'s: re-probe the connectors */
};

/* Whether the uevent is a change of our card (HOTPLUG=1, or a synthetic event). */
static bool is_our_hotplug(struct hotplug *hp, struct udev_device *d)
{
	if (udev_device_get_devnum(d) != hp->devnum)
		return false;
	const char *action = udev_device_get_action(d);
	if (!action || strcmp(action, "change") != 0)
		return false;
	/* Real hotplug interrupts carry HOTPLUG=1; "echo change > .../uevent" carries
	 * SYNTH_UUID and SYNTH_ARG_* (Linux 4.13+). Both mean: probe again. */
	const char *v = udev_device_get_property_value(d, "HOTPLUG");
	const char *synth = udev_device_get_property_value(d, "SYNTH_UUID");
	return (v && strcmp(v, "1") == 0) || synth != NULL;
}

static int handle_uevent(int fd, uint32_t events, void *data)
{
	struct dispman_device *dev = data;
	struct hotplug *hp = device_hotplug(dev);
	bool probe = false;
	struct udev_device *d;
	/* Drain everything queued: one probe covers a burst of events. */
	while ((d = udev_monitor_receive_device(hp->mon))) {
		if (is_our_hotplug(hp, d)) {
			probe = true;
			dispman_log(DISPMAN_LOG_DEBUG, "hotplug uevent on %s",
				udev_device_get_sysname(d));
		}
		udev_device_unref(d);
	}
	if (!probe)
		return 0;
	int ret = hp->probe(dev);
	return ret < 0 ? 0 : 1; /* a failed probe is logged; the device goes on */
}

int hotplug_init(struct dispman_device *dev, hotplug_probe_func probe)
{
	struct stat st;
	if (fstat(device_fd(dev), &st) < 0 || !S_ISCHR(st.st_mode)) {
		dispman_log(DISPMAN_LOG_DEBUG, "DRM fd is not a device node: no hotplug monitor");
		return 0;
	}
	struct hotplug *hp = calloc(1, sizeof(*hp));
	if (!hp) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory for the hotplug monitor");
		return -ENOMEM;
	}
	hp->devnum = st.st_rdev;
	hp->probe = probe;
	device_set_hotplug(dev, hp);
	hp->udev = udev_new();
	if (!hp->udev)
		goto fail;
	/* udevd re-broadcasts uevents once its rules ran; without udevd (containers, the
	 * test guest) only the kernel's own group carries them. Never both: each event
	 * would come twice. */
	const char *source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";
	hp->mon = udev_monitor_new_from_netlink(hp->udev, source);
	if (!hp->mon)
		goto fail;
	if (udev_monitor_filter_add_match_subsystem_devtype(hp->mon, "drm", "drm_minor") < 0 ||
	    udev_monitor_enable_receiving(hp->mon) < 0)
		goto fail;
	int fd = udev_monitor_get_fd(hp->mon);
	/* libudev's fd is nonblocking; keep it so the handler can drain it. */
	hp->source = event_source_add(dev, fd, EPOLLIN, handle_uevent, dev);
	if (!hp->source)
		goto fail;
	dispman_log(DISPMAN_LOG_DEBUG, "listening to %s uevents for DRM hotplug", source);
	return 0;
fail:
	dispman_log(DISPMAN_LOG_WARNING, "no udev monitor: connector hotplug is not followed "
		"(dispman_device_probe() still works)");
	hotplug_finish(dev);
	return 0;
}

void hotplug_finish(struct dispman_device *dev)
{
	struct hotplug *hp = device_hotplug(dev);
	if (!hp)
		return;
	event_source_remove(hp->source);
	if (hp->mon)
		udev_monitor_unref(hp->mon);
	if (hp->udev)
		udev_unref(hp->udev);
	free(hp);
	device_set_hotplug(dev, NULL);
}
