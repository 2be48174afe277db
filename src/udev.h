/* SPDX-License-Identifier: MIT */
/* Device discovery and hotplug through udev (udev.c). */
#ifndef DISPMAN_UDEV_H
#define DISPMAN_UDEV_H

#include <stddef.h>

struct dispman_device;
struct seat;

/*
 * Open the card node dispman_device_open(NULL) picks without DISPMAN_DEVICE (the rule is
 * in dispman.h) and write its path into path. Returns an fd or -errno (logged).
 */
struct seat;
int udev_open_default_card(struct seat *seat, char *path, size_t size);
/* Re-probe the device's connectors (dispman_device_probe()): 0 or more changes, or -errno. */
typedef int (*hotplug_probe_func)(struct dispman_device *dev);
/*
 * Follow DRM hotplug uevents of the device's card (udevd's monitor when udevd runs, else
 * the kernel's netlink group) and call probe on them (the device's owner passes
 * dispman_device_probe(): udev.c calls nothing above it). A device whose fd is not a
 * character device (the unit tests' mock) gets no monitor. Returns 0 or -errno; failing
 * to listen is logged and not fatal.
 */
int hotplug_init(struct dispman_device *dev, hotplug_probe_func probe);
void hotplug_finish(struct dispman_device *dev);

#endif
