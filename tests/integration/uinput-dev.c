/* uinput devices for the guest tests: see uinput-dev.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "uinput-dev.h"

#include "check.h"

int uinput_open(void)
{
	int fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		FAIL("open /dev/uinput: %s", strerror(errno));
	return fd;
}

void uinput_emit(int fd, unsigned type, unsigned code, int value)
{
	struct input_event ev = { .type = (__u16)type, .code = (__u16)code, .value = value };
	if (write(fd, &ev, sizeof(ev)) != (ssize_t)sizeof(ev))
		FAIL("uinput write: %s", strerror(errno));
}

static void find_node(struct uinput_dev *u, const char *udev_props)
{
	char dir[128], path[192];
	struct stat st;
	snprintf(dir, sizeof(dir), "/sys/devices/virtual/input/%s", u->sysname);
	u->devnode[0] = 0;
	for (int tries = 0; tries < 200 && !u->devnode[0]; tries++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d)))
			if (strncmp(e->d_name, "event", 5) == 0) {
				snprintf(u->event, sizeof(u->event), "%.20s", e->d_name);
				snprintf(u->devnode, sizeof(u->devnode), "/dev/input/%s", u->event);
			}
		if (d)
			closedir(d);
		if (!u->devnode[0])
			usleep(10000);
	}
	if (!u->devnode[0])
		FAIL("no event node under %s (is evdev loaded?)", dir);
	for (int i = 0; i < 200 && stat(u->devnode, &st) < 0; i++)
		usleep(10000);
	if (stat(u->devnode, &st) < 0)
		FAIL("%s did not appear: %s", u->devnode, strerror(errno));
	if (access("/run/udev/control", F_OK) == 0)
		return; /* udevd runs: it tags the device itself */
	mkdir("/run/udev", 0755);
	mkdir("/run/udev/data", 0755);
	snprintf(path, sizeof(path), "/run/udev/data/c%u:%u", major(st.st_rdev),
		minor(st.st_rdev));
	FILE *f = fopen(path, "w");
	if (!f)
		FAIL("cannot write the udev database entry %s: %s", path, strerror(errno));
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(f, "I:%llu\nE:ID_INPUT=1\n%s",
		(unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000,
		udev_props);
	fclose(f);
}

void uinput_create(struct uinput_dev *u, const char *name, const char *udev_props)
{
	struct uinput_setup setup = { .id = { .bustype = BUS_VIRTUAL, .vendor = 0x1d6b,
		.product = 0x0104, .version = 1 } };
	snprintf(setup.name, sizeof(setup.name), "%s", name);
	if (ioctl(u->fd, UI_DEV_SETUP, &setup) < 0 || ioctl(u->fd, UI_DEV_CREATE) < 0)
		FAIL("creating uinput device %s: %s", name, strerror(errno));
	if (ioctl(u->fd, UI_GET_SYSNAME(sizeof(u->sysname)), u->sysname) < 0)
		FAIL("UI_GET_SYSNAME: %s", strerror(errno));
	find_node(u, udev_props);
}

void uinput_destroy(struct uinput_dev *u)
{
	if (u->fd < 0)
		return;
	ioctl(u->fd, UI_DEV_DESTROY);
	close(u->fd);
	u->fd = -1;
}

void uinput_set_bit(int fd, unsigned long req, int bit)
{
	if (ioctl(fd, req, bit) < 0)
		FAIL("uinput ioctl %#lx %d: %s", req, bit, strerror(errno));
}

void uinput_syn(int fd)
{
	uinput_emit(fd, EV_SYN, SYN_REPORT, 0);
	usleep(20000);
}

void uinput_create_keyboard(struct uinput_dev *u, const char *name)
{
	u->fd = uinput_open();
	uinput_set_bit(u->fd, UI_SET_EVBIT, EV_KEY);
	for (int k = KEY_ESC; k <= KEY_KPDOT; k++)
		uinput_set_bit(u->fd, UI_SET_KEYBIT, k);
	uinput_create(u, name, "E:ID_INPUT_KEY=1\nE:ID_INPUT_KEYBOARD=1\n");
}

void uinput_create_mouse(struct uinput_dev *u, const char *name)
{
	u->fd = uinput_open();
	uinput_set_bit(u->fd, UI_SET_EVBIT, EV_KEY);
	uinput_set_bit(u->fd, UI_SET_EVBIT, EV_REL);
	uinput_set_bit(u->fd, UI_SET_KEYBIT, BTN_LEFT);
	uinput_set_bit(u->fd, UI_SET_KEYBIT, BTN_RIGHT);
	uinput_set_bit(u->fd, UI_SET_RELBIT, REL_X);
	uinput_set_bit(u->fd, UI_SET_RELBIT, REL_Y);
	uinput_create(u, name, "E:ID_INPUT_MOUSE=1\n");
}
