/* SPDX-License-Identifier: MIT */
#include "uinput-kbd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <linux/uinput.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int uinput_kbd_create(struct uinput_kbd *k, const char *name, char *err, size_t errlen)
{
	memset(k, 0, sizeof(*k));
	k->fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
	if (k->fd < 0) {
		snprintf(err, errlen, "/dev/uinput: %s", strerror(errno));
		return -1;
	}
	ioctl(k->fd, UI_SET_EVBIT, EV_KEY);
	ioctl(k->fd, UI_SET_EVBIT, EV_SYN);
	for (int c = KEY_ESC; c <= KEY_SLASH; c++)
		ioctl(k->fd, UI_SET_KEYBIT, c);
	struct uinput_setup us = { .id = { .bustype = BUS_VIRTUAL, .vendor = 0x1d6b,
		.product = 0x4c41, .version = 1 } };
	snprintf(us.name, sizeof(us.name), "%s", name);
	if (ioctl(k->fd, UI_DEV_SETUP, &us) < 0 || ioctl(k->fd, UI_DEV_CREATE) < 0) {
		snprintf(err, errlen, "uinput setup: %s", strerror(errno));
		return -1;
	}
	char sys[64] = "", dir[256];
	if (ioctl(k->fd, UI_GET_SYSNAME(sizeof(sys)), sys) < 0) {
		snprintf(err, errlen, "UI_GET_SYSNAME: %s", strerror(errno));
		return -1;
	}
	snprintf(dir, sizeof(dir), "/sys/devices/virtual/input/%s", sys);
	for (int tries = 0; tries < 50 && !k->event[0]; tries++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d)))
			if (!strncmp(e->d_name, "event", 5))
				snprintf(k->event, sizeof(k->event), "/dev/input/%s", e->d_name);
		if (d)
			closedir(d);
		if (!k->event[0])
			usleep(100000);
	}
	struct stat st;
	for (int tries = 0; tries < 50 && k->event[0] && stat(k->event, &st) < 0; tries++)
		usleep(100000);
	if (!k->event[0] || stat(k->event, &st) < 0) {
		snprintf(err, errlen, "no event node for %s", dir);
		return -1;
	}
	if (access("/run/udev/control", F_OK) != 0) {
		mkdir("/run/udev", 0755);
		mkdir("/run/udev/data", 0755);
		snprintf(k->udev_entry, sizeof(k->udev_entry), "/run/udev/data/c%u:%u",
			major(st.st_rdev), minor(st.st_rdev));
		FILE *f = fopen(k->udev_entry, "w");
		if (f) {
			fputs("I:1\nE:ID_INPUT=1\nE:ID_INPUT_KEY=1\nE:ID_INPUT_KEYBOARD=1\n", f);
			fclose(f);
		} else {
			k->udev_entry[0] = 0;
		}
	}
	return 0;
}

int uinput_kbd_key(struct uinput_kbd *k, int code, int value)
{
	struct input_event ev[2] = {
		{ .type = EV_KEY, .code = (uint16_t)code, .value = value },
		{ .type = EV_SYN, .code = SYN_REPORT },
	};
	return write(k->fd, ev, sizeof(ev)) == (ssize_t)sizeof(ev) ? 0 : -1;
}

void uinput_kbd_destroy(struct uinput_kbd *k)
{
	if (k->udev_entry[0])
		unlink(k->udev_entry);
	k->udev_entry[0] = 0;
	if (k->fd >= 0) {
		ioctl(k->fd, UI_DEV_DESTROY);
		close(k->fd);
	}
	k->fd = -1;
}
