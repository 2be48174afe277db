/* SPDX-License-Identifier: MIT */
#include "private.h"

#include <fcntl.h>
#include <libudev.h>
#include <string.h>
#include <unistd.h>

static bool card_has_connectors(int fd)
{
	drmModeRes *res = drmModeGetResources(fd);
	if (!res)
		return false;
	bool ok = res->count_connectors > 0 && res->count_crtcs > 0;
	drmModeFreeResources(res);
	return ok;
}

int udev_open_default_card(void)
{
	struct udev *udev = udev_new();
	if (!udev) {
		dispman_log(DISPMAN_LOG_ERROR, "cannot create a udev context");
		return -ENOMEM;
	}
	int fd = -ENOENT;
	struct udev_enumerate *en = udev_enumerate_new(udev);
	if (!en) {
		fd = -ENOMEM;
		dispman_log(DISPMAN_LOG_ERROR, "cannot create a udev enumeration");
		goto out;
	}
	udev_enumerate_add_match_subsystem(en, "drm");
	udev_enumerate_add_match_sysname(en, "card[0-9]*");
	if (udev_enumerate_scan_devices(en) < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "udev cannot scan DRM devices");
		goto out;
	}
	struct udev_list_entry *entry;
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(en)) {
		const char *syspath = udev_list_entry_get_name(entry);
		struct udev_device *d = udev_device_new_from_syspath(udev, syspath);
		if (!d)
			continue;
		const char *node = udev_device_get_devnode(d);
		if (node) {
			int cfd = open(node, O_RDWR | O_CLOEXEC);
			if (cfd < 0) {
				dispman_log_errno(DISPMAN_LOG_DEBUG, errno, "cannot open %s", node);
			} else if (!card_has_connectors(cfd)) {
				dispman_log(DISPMAN_LOG_DEBUG, "%s has no connectors, skipped", node);
				close(cfd);
			} else {
				dispman_log(DISPMAN_LOG_INFO, "using DRM device %s", node);
				fd = cfd;
			}
		}
		udev_device_unref(d);
		if (fd >= 0)
			break;
	}
	if (fd < 0)
		dispman_log(DISPMAN_LOG_ERROR, "no DRM card node with connectors found");
out:
	udev_enumerate_unref(en);
	udev_unref(udev);
	return fd;
}
