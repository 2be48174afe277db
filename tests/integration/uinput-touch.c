/* SPDX-License-Identifier: MIT */
/*
 * A uinput multi-touch screen for the guest tests with real Wayland clients
 * (wayland-apps.sh's browser cases): it creates the device, prints its node
 * (/dev/input/eventN) on stdout for the compositor's --input, then reads commands from
 * stdin, one a line, until EOF (then it removes the device):
 *
 *   size W H     the output's size in pixels (before any tap; default 1024x768)
 *   tap X Y      one finger down on output pixel (X, Y), held 100 ms, lifted
 *   sleep MS     wait
 *   sync         print "ok" on stdout once everything before is written
 *
 * The axes run 0..4095; libinput maps a value v to v * size / 4096 pixels, so a tap lands
 * within one pixel of (X, Y).
 */
#include <errno.h>
#include <linux/input-event-codes.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "check.h"
#include "uinput-dev.h"

#define AXIS_MAX 4095

static struct uinput_dev ts = { .fd = -1 };

static void ev(unsigned type, unsigned code, int value)
{
	uinput_emit(ts.fd, type, code, value);
}

static void syn(void)
{
	ev(EV_SYN, SYN_REPORT, 0);
	usleep(30000);
}

static void abs_setup(int code, int max, int resolution)
{
	struct uinput_abs_setup a = { .code = (unsigned short)code };
	a.absinfo.maximum = max;
	a.absinfo.resolution = resolution;
	uinput_set_bit(ts.fd, UI_SET_ABSBIT, code);
	if (ioctl(ts.fd, UI_ABS_SETUP, &a) < 0)
		FAIL("uinput-touch: UI_ABS_SETUP %d: %s", code, strerror(errno));
}

/* the axis value that libinput maps to pixel px (+ half a pixel) of size pixels */
static int axis(int px, int size)
{
	long v = ((long)px * 2 + 1) * (AXIS_MAX + 1) / (2L * size);
	return v < 0 ? 0 : v > AXIS_MAX ? AXIS_MAX : (int)v;
}

int main(void)
{
	int w = 1024, h = 768, id = 1;
	ts.fd = uinput_open();
	uinput_set_bit(ts.fd, UI_SET_EVBIT, EV_KEY);
	uinput_set_bit(ts.fd, UI_SET_EVBIT, EV_ABS);
	uinput_set_bit(ts.fd, UI_SET_KEYBIT, BTN_TOUCH);
	uinput_set_bit(ts.fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
	abs_setup(ABS_X, AXIS_MAX, 10);
	abs_setup(ABS_Y, AXIS_MAX, 10);
	abs_setup(ABS_MT_SLOT, 9, 0);
	abs_setup(ABS_MT_TRACKING_ID, 65535, 0);
	abs_setup(ABS_MT_POSITION_X, AXIS_MAX, 10);
	abs_setup(ABS_MT_POSITION_Y, AXIS_MAX, 10);
	uinput_create(&ts, "uinput-touch screen", "E:ID_INPUT_TOUCHSCREEN=1\n");
	printf("%s\n", ts.devnode);
	fflush(stdout);

	char line[256];
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		int a, b;
		if (sscanf(line, "size %d %d", &a, &b) == 2 && a > 0 && b > 0) {
			w = a;
			h = b;
		} else if (sscanf(line, "tap %d %d", &a, &b) == 2) {
			ev(EV_ABS, ABS_MT_SLOT, 0);
			ev(EV_ABS, ABS_MT_TRACKING_ID, id++ & 0xffff);
			ev(EV_ABS, ABS_MT_POSITION_X, axis(a, w));
			ev(EV_ABS, ABS_MT_POSITION_Y, axis(b, h));
			ev(EV_KEY, BTN_TOUCH, 1);
			ev(EV_ABS, ABS_X, axis(a, w));
			ev(EV_ABS, ABS_Y, axis(b, h));
			syn();
			usleep(100000);
			ev(EV_ABS, ABS_MT_TRACKING_ID, -1);
			ev(EV_KEY, BTN_TOUCH, 0);
			syn();
		} else if (sscanf(line, "sleep %d", &a) == 1 && a >= 0) {
			usleep((useconds_t)a * 1000);
		} else if (strcmp(line, "sync") == 0) {
			printf("ok\n");
			fflush(stdout);
		} else if (line[0]) {
			FAIL("uinput-touch: unknown command '%s'", line);
		}
	}
	uinput_destroy(&ts);
	return 0;
}
