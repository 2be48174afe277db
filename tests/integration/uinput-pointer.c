/* SPDX-License-Identifier: MIT */
/*
 * A uinput absolute pointer (a tablet-like mouse, as QEMU's usb-tablet) for the guest tests
 * with real Wayland clients (wayland-apps.sh): it creates the device, prints its node
 * (/dev/input/eventN) on stdout for the compositor's --input, then reads commands from
 * stdin, one a line, until EOF (then it removes the device):
 *
 *   size W H     the output's size in pixels (before any move; default 1024x768)
 *   move X Y     put the pointer on output pixel (X, Y)
 *   click        press and release the left button where the pointer is
 *   press        press the left button (and hold it: a drag)
 *   release      release the left button
 *   sleep MS     wait
 *   sync         print "ok" on stdout once everything before is written
 *   tap X Y      (with --touch) a finger down and up on output pixel (X, Y) of the
 *                touchscreen
 *
 * With --touch it also creates a direct-touch multitouch screen (INPUT_PROP_DIRECT, the
 * same axes) and prints its node on a second line.
 * The axes run 0..4095; libinput maps a value v to v * size / 4096 pixels, so a move lands
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

static struct uinput_dev ptr = { .fd = -1 }, touch = { .fd = -1 };

static void ev_on(int fd, unsigned type, unsigned code, int value)
{
	uinput_emit(fd, type, code, value);
}

static void ev(unsigned type, unsigned code, int value)
{
	ev_on(ptr.fd, type, code, value);
}

static void syn_on(int fd)
{
	ev_on(fd, EV_SYN, SYN_REPORT, 0);
	usleep(30000);
}

static void syn(void)
{
	syn_on(ptr.fd);
}

static void set_bit_on(int fd, unsigned long req, int bit)
{
	if (ioctl(fd, req, bit) < 0)
		FAIL("uinput-pointer: ioctl %#lx %d: %s", req, bit, strerror(errno));
}

static void set_bit(unsigned long req, int bit)
{
	set_bit_on(ptr.fd, req, bit);
}

static void abs_setup_on(int fd, int code, int max)
{
	struct uinput_abs_setup a = { .code = (unsigned short)code };
	a.absinfo.maximum = max;
	a.absinfo.resolution = code == ABS_MT_SLOT || code == ABS_MT_TRACKING_ID ? 0 : 10;
	set_bit_on(fd, UI_SET_ABSBIT, code);
	if (ioctl(fd, UI_ABS_SETUP, &a) < 0)
		FAIL("uinput-pointer: UI_ABS_SETUP %d: %s", code, strerror(errno));
}

static void abs_setup(int code)
{
	abs_setup_on(ptr.fd, code, AXIS_MAX);
}

/* the touchscreen of --touch: one finger at a time, in slot 0 */
static void touch_create(void)
{
	touch.fd = uinput_open();
	set_bit_on(touch.fd, UI_SET_EVBIT, EV_KEY);
	set_bit_on(touch.fd, UI_SET_EVBIT, EV_ABS);
	set_bit_on(touch.fd, UI_SET_KEYBIT, BTN_TOUCH);
	set_bit_on(touch.fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
	abs_setup_on(touch.fd, ABS_X, AXIS_MAX);
	abs_setup_on(touch.fd, ABS_Y, AXIS_MAX);
	abs_setup_on(touch.fd, ABS_MT_SLOT, 9);
	abs_setup_on(touch.fd, ABS_MT_TRACKING_ID, 65535);
	abs_setup_on(touch.fd, ABS_MT_POSITION_X, AXIS_MAX);
	abs_setup_on(touch.fd, ABS_MT_POSITION_Y, AXIS_MAX);
	uinput_create(&touch, "uinput-pointer touchscreen", "E:ID_INPUT_TOUCHSCREEN=1\n");
}

static void tap(int x, int y)
{
	static int id;
	ev_on(touch.fd, EV_ABS, ABS_MT_SLOT, 0);
	ev_on(touch.fd, EV_ABS, ABS_MT_TRACKING_ID, ++id);
	ev_on(touch.fd, EV_ABS, ABS_MT_POSITION_X, x);
	ev_on(touch.fd, EV_ABS, ABS_MT_POSITION_Y, y);
	ev_on(touch.fd, EV_KEY, BTN_TOUCH, 1);
	ev_on(touch.fd, EV_ABS, ABS_X, x);
	ev_on(touch.fd, EV_ABS, ABS_Y, y);
	syn_on(touch.fd);
	usleep(80000);
	ev_on(touch.fd, EV_ABS, ABS_MT_TRACKING_ID, -1);
	ev_on(touch.fd, EV_KEY, BTN_TOUCH, 0);
	syn_on(touch.fd);
}

/* the axis value that libinput maps to pixel px (+ half a pixel) of size pixels */
static int axis(int px, int size)
{
	long v = ((long)px * 2 + 1) * (AXIS_MAX + 1) / (2L * size);
	return v < 0 ? 0 : v > AXIS_MAX ? AXIS_MAX : (int)v;
}

int main(int argc, char **argv)
{
	int w = 1024, h = 768;
	int with_touch = argc > 1 && strcmp(argv[1], "--touch") == 0;
	if (argc > 1 && !with_touch)
		FAIL("usage: uinput-pointer [--touch] <commands");
	ptr.fd = uinput_open();
	set_bit(UI_SET_EVBIT, EV_KEY);
	set_bit(UI_SET_EVBIT, EV_ABS);
	set_bit(UI_SET_KEYBIT, BTN_LEFT);
	set_bit(UI_SET_KEYBIT, BTN_RIGHT);
	set_bit(UI_SET_KEYBIT, BTN_MIDDLE);
	abs_setup(ABS_X);
	abs_setup(ABS_Y);
	uinput_create(&ptr, "uinput-pointer tablet", "E:ID_INPUT_MOUSE=1\n");
	printf("%s\n", ptr.devnode);
	if (with_touch) {
		touch_create();
		printf("%s\n", touch.devnode);
	}
	fflush(stdout);

	char line[256];
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		int a, b;
		if (sscanf(line, "size %d %d", &a, &b) == 2 && a > 0 && b > 0) {
			w = a;
			h = b;
		} else if (sscanf(line, "move %d %d", &a, &b) == 2) {
			ev(EV_ABS, ABS_X, axis(a, w));
			ev(EV_ABS, ABS_Y, axis(b, h));
			syn();
		} else if (strcmp(line, "click") == 0) {
			ev(EV_KEY, BTN_LEFT, 1);
			syn();
			usleep(60000);
			ev(EV_KEY, BTN_LEFT, 0);
			syn();
		} else if (strcmp(line, "press") == 0 || strcmp(line, "release") == 0) {
			ev(EV_KEY, BTN_LEFT, line[0] == 'p');
			syn();
		} else if (with_touch && sscanf(line, "tap %d %d", &a, &b) == 2) {
			tap(axis(a, w), axis(b, h));
		} else if (sscanf(line, "sleep %d", &a) == 1 && a >= 0) {
			usleep((useconds_t)a * 1000);
		} else if (strcmp(line, "sync") == 0) {
			printf("ok\n");
			fflush(stdout);
		} else if (line[0]) {
			FAIL("uinput-pointer: unknown command '%s'", line);
		}
	}
	uinput_destroy(&ptr);
	if (with_touch)
		uinput_destroy(&touch);
	return 0;
}
