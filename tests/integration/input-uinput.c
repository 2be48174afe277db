/* SPDX-License-Identifier: MIT */
/*
 * Input through libdispman, end to end: uinput creates a keyboard, a relative mouse and a
 * multi-touch screen; a dispman_input opens their event nodes (path backend, or the udev
 * backend with --udev); the test writes known event sequences into uinput, dispatches the
 * dispman device, and checks that exactly those events arrived with the right codes,
 * states, keysyms and output coordinates. Then the pointer drives a cursor layer, and a
 * writeback capture must show the cursor's pixels at the pointer position (and not at the
 * old one). Finally removing a uinput device must produce DEVICE_REMOVED.
 *
 * Needs root, /dev/uinput and a KMS device with a writeback connector
 * (DISPMAN_TEST_DEVICE, default: DISPMAN_DEVICE, then discovery): run it in the vkms guest.
 *
 * libinput takes only event nodes that udev's input_id builtin tagged (ID_INPUT_*). When
 * no udevd runs (no /run/udev/control, as in the test guest), the test writes those
 * properties into the udev database itself (/run/udev/data/c<major>:<minor>), which is
 * what udevd would have done; with udevd running it leaves the database alone.
 */
#include "config.h"

#include <dispman/dispman.h>
#include <dispman/input.h>

#include <dirent.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <linux/uinput.h>
#include <math.h>
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

#define ABS_MAX_VALUE 4095
#define BACKGROUND 0x00203040u
#define CURSOR_COLOR 0x00ff00ffu
#define CURSOR_SIZE 64
#define HOT_X 8
#define HOT_Y 8

/* ---- uinput devices ---- */

static void set_bit(int fd, unsigned long req, int bit)
{
	if (ioctl(fd, req, bit) < 0)
		FAIL("uinput ioctl %#lx %d: %s", req, bit, strerror(errno));
}

static void abs_setup(int fd, int code, int max, int resolution)
{
	struct uinput_abs_setup a = { .code = (unsigned short)code };
	a.absinfo.minimum = 0;
	a.absinfo.maximum = max;
	a.absinfo.resolution = resolution;
	set_bit(fd, UI_SET_ABSBIT, code);
	if (ioctl(fd, UI_ABS_SETUP, &a) < 0)
		FAIL("UI_ABS_SETUP %d: %s", code, strerror(errno));
}

static void create_device(struct uinput_dev *u, const char *name, const char *udev_props)
{
	uinput_create(u, name, udev_props);
	printf("uinput: %-22s %s %s\n", name, u->sysname, u->devnode);
}

static void make_keyboard(struct uinput_dev *u)
{
	u->fd = uinput_open();
	set_bit(u->fd, UI_SET_EVBIT, EV_KEY);
	for (int k = KEY_ESC; k <= KEY_KPDOT; k++)
		set_bit(u->fd, UI_SET_KEYBIT, k);
	create_device(u, "dispman-test keyboard", "E:ID_INPUT_KEY=1\nE:ID_INPUT_KEYBOARD=1\n");
}

static void make_mouse(struct uinput_dev *u)
{
	u->fd = uinput_open();
	set_bit(u->fd, UI_SET_EVBIT, EV_KEY);
	set_bit(u->fd, UI_SET_EVBIT, EV_REL);
	set_bit(u->fd, UI_SET_KEYBIT, BTN_LEFT);
	set_bit(u->fd, UI_SET_KEYBIT, BTN_RIGHT);
	set_bit(u->fd, UI_SET_KEYBIT, BTN_MIDDLE);
	set_bit(u->fd, UI_SET_RELBIT, REL_X);
	set_bit(u->fd, UI_SET_RELBIT, REL_Y);
	set_bit(u->fd, UI_SET_RELBIT, REL_WHEEL);
	create_device(u, "dispman-test mouse", "E:ID_INPUT_MOUSE=1\n");
}

static void make_touchscreen(struct uinput_dev *u)
{
	u->fd = uinput_open();
	set_bit(u->fd, UI_SET_EVBIT, EV_KEY);
	set_bit(u->fd, UI_SET_EVBIT, EV_ABS);
	set_bit(u->fd, UI_SET_KEYBIT, BTN_TOUCH);
	set_bit(u->fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
	abs_setup(u->fd, ABS_X, ABS_MAX_VALUE, 10);
	abs_setup(u->fd, ABS_Y, ABS_MAX_VALUE, 10);
	abs_setup(u->fd, ABS_MT_SLOT, 9, 0);
	abs_setup(u->fd, ABS_MT_TRACKING_ID, 65535, 0);
	abs_setup(u->fd, ABS_MT_POSITION_X, ABS_MAX_VALUE, 10);
	abs_setup(u->fd, ABS_MT_POSITION_Y, ABS_MAX_VALUE, 10);
	create_device(u, "dispman-test touchscreen", "E:ID_INPUT_TOUCHSCREEN=1\n");
}

static void emit(struct uinput_dev *u, int type, int code, int value)
{
	uinput_emit(u->fd, (unsigned)type, (unsigned)code, value);
}

static void syn(struct uinput_dev *u)
{
	emit(u, EV_SYN, SYN_REPORT, 0);
}

/* ---- recording events ---- */

#define MAX_EVENTS 256

struct record {
	struct dispman_input_event ev;
	char sysname[256];
};

static struct record events[MAX_EVENTS];
static size_t n_events;

static const char *type_name(enum dispman_input_event_type t)
{
	static const char *names[] = {
		[DISPMAN_INPUT_DEVICE_ADDED] = "device-added",
		[DISPMAN_INPUT_DEVICE_REMOVED] = "device-removed",
		[DISPMAN_INPUT_KEY] = "key",
		[DISPMAN_INPUT_POINTER_MOTION] = "motion",
		[DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE] = "motion-absolute",
		[DISPMAN_INPUT_POINTER_BUTTON] = "button",
		[DISPMAN_INPUT_POINTER_AXIS] = "axis",
		[DISPMAN_INPUT_TOUCH_DOWN] = "touch-down",
		[DISPMAN_INPUT_TOUCH_MOTION] = "touch-motion",
		[DISPMAN_INPUT_TOUCH_UP] = "touch-up",
		[DISPMAN_INPUT_TOUCH_CANCEL] = "touch-cancel",
		[DISPMAN_INPUT_TOUCH_FRAME] = "touch-frame",
	};
	return (size_t)t < sizeof(names) / sizeof(names[0]) && names[t] ? names[t] : "?";
}

static void on_event(struct dispman_input *input, const struct dispman_input_event *ev,
	void *data)
{
	if (n_events == MAX_EVENTS)
		FAIL("too many events");
	struct record *r = &events[n_events++];
	r->ev = *ev;
	snprintf(r->sysname, sizeof(r->sysname), "%s", ev->device_sysname);
	r->ev.device_name = NULL;
	r->ev.device_sysname = r->sysname;
	printf("  event %-15s %-7s key %3u state %d sym %#06x text \"%s\" mods %#x button %#x "
		"x %7.2f y %7.2f d %6.2f,%6.2f (raw %6.2f,%6.2f) axis %.1f/%.0f slot %d/%d\n",
		type_name(ev->type), ev->device_sysname, ev->key, ev->state, ev->keysym,
		ev->text, ev->modifiers, ev->button, ev->x, ev->y, ev->dx, ev->dy, ev->dx_unaccel,
		ev->dy_unaccel, ev->axis_y, ev->axis_v120_y, ev->slot, ev->seat_slot);
}

static struct dispman_device *dev;

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Dispatch until n events are recorded (then a little more, to catch extra ones). */
static void wait_events(size_t n, const char *what)
{
	int64_t end = now_ms() + 10000;
	while (n_events < n && now_ms() < end) {
		int ret = dispman_device_dispatch(dev, 100);
		CHECK(ret >= 0, "dispatch: %s", strerror(-ret));
	}
	CHECK(n_events >= n, "%s: %zu of %zu events within 10 s", what, n_events, n);
	/* Anything still queued would show up as an extra event. */
	end = now_ms() + 300;
	while (now_ms() < end)
		CHECK(dispman_device_dispatch(dev, 50) >= 0, "dispatch failed");
	CHECK(n_events == n, "%s: %zu events, expected exactly %zu", what, n_events, n);
}

/* Wait until no page flip is pending: dispatch for a while. */
static void settle(void)
{
	int64_t end = now_ms() + 500;
	while (now_ms() < end)
		CHECK(dispman_device_dispatch(dev, 50) >= 0, "dispatch failed");
}

static void expect(size_t i, enum dispman_input_event_type type, const char *sysname)
{
	CHECK(i < n_events, "event %zu missing", i);
	CHECK(events[i].ev.type == type, "event %zu is %s, expected %s", i,
		type_name(events[i].ev.type), type_name(type));
	CHECK(strcmp(events[i].sysname, sysname) == 0, "event %zu from %s, expected %s", i,
		events[i].sysname, sysname);
}

static void expect_near(double got, double want, const char *what)
{
	CHECK(fabs(got - want) <= 1.0, "%s: got %.2f, expected %.2f (+-1)", what, got, want);
}

static struct dispman_buffer *solid_buffer(uint32_t w, uint32_t h, uint32_t fourcc,
	uint32_t color)
{
	struct dispman_buffer *buf = dispman_buffer_create_dumb(dev, w, h, fourcc);
	CHECK(buf, "dumb buffer %ux%u: %s", w, h, strerror(errno));
	void *data;
	uint32_t stride;
	CHECK(dispman_buffer_map(buf, &data, &stride) == 0, "map failed");
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			((uint32_t *)(void *)((char *)data + (size_t)y * stride))[x] = color;
	return buf;
}

int main(int argc, char **argv)
{
	bool udev_backend = argc > 1 && strcmp(argv[1], "--udev") == 0;
	setvbuf(stdout, NULL, _IOLBF, 0);

	dev = dispman_device_open(check_device());
	CHECK(dev, "cannot open the KMS device: %s", strerror(errno));
	struct dispman_output *out = dispman_device_get_first_connected_output(dev);
	CHECK(out, "no connected output");
	CHECK(dispman_output_enable(out, NULL) == 0, "enable failed");
	const struct dispman_mode *mode = dispman_output_get_current_mode(out);
	uint32_t w = mode->width, h = mode->height;
	struct dispman_buffer *bg = solid_buffer(w, h, DRM_FORMAT_XRGB8888, BACKGROUND);
	CHECK(dispman_output_set_buffer(out, bg) == 0, "set_buffer failed");
	CHECK(dispman_output_commit(out) == 0, "first commit failed");
	printf("output %s %ux%u\n", dispman_output_get_name(out), w, h);

	struct uinput_dev kbd = { 0 }, mouse = { 0 }, touch = { 0 };
	make_keyboard(&kbd);
	make_mouse(&mouse);
	make_touchscreen(&touch);

	struct dispman_input *input;
	if (udev_backend) {
		input = dispman_input_create_udev(dev, NULL);
		CHECK(input, "create_udev: %s", strerror(errno));
	} else {
		const char *paths[] = { kbd.devnode, mouse.devnode, touch.devnode };
		input = dispman_input_create_path(dev, paths, 3);
		CHECK(input, "create_path: %s", strerror(errno));
	}
	dispman_input_set_callback(input, on_event, NULL);

	/* Devices. The udev backend may find other tagged devices too: keep only ours. */
	printf("-- devices\n");
	if (udev_backend) {
		int64_t end = now_ms() + 10000;
		size_t ours = 0;
		while (ours < 3 && now_ms() < end) {
			CHECK(dispman_device_dispatch(dev, 100) >= 0, "dispatch failed");
			ours = 0;
			for (size_t i = 0; i < n_events; i++)
				if (events[i].ev.type == DISPMAN_INPUT_DEVICE_ADDED &&
				    (!strcmp(events[i].sysname, kbd.event) ||
				     !strcmp(events[i].sysname, mouse.event) ||
				     !strcmp(events[i].sysname, touch.event)))
					ours++;
		}
		CHECK(ours == 3, "udev backend: %zu of our 3 devices added", ours);
	} else {
		wait_events(3, "devices");
		expect(0, DISPMAN_INPUT_DEVICE_ADDED, kbd.event);
		expect(1, DISPMAN_INPUT_DEVICE_ADDED, mouse.event);
		expect(2, DISPMAN_INPUT_DEVICE_ADDED, touch.event);
		CHECK(events[0].ev.device_caps == DISPMAN_INPUT_CAP_KEYBOARD, "keyboard caps %#x",
			events[0].ev.device_caps);
		CHECK(events[1].ev.device_caps & DISPMAN_INPUT_CAP_POINTER, "mouse caps %#x",
			events[1].ev.device_caps);
		CHECK(events[2].ev.device_caps & DISPMAN_INPUT_CAP_TOUCH, "touch caps %#x",
			events[2].ev.device_caps);
	}

	/* Keyboard: a, then shift+a. */
	printf("-- keyboard\n");
	n_events = 0;
	emit(&kbd, EV_KEY, KEY_A, 1); syn(&kbd);
	emit(&kbd, EV_KEY, KEY_A, 0); syn(&kbd);
	emit(&kbd, EV_KEY, KEY_LEFTSHIFT, 1); syn(&kbd);
	emit(&kbd, EV_KEY, KEY_A, 1); syn(&kbd);
	emit(&kbd, EV_KEY, KEY_A, 0); syn(&kbd);
	emit(&kbd, EV_KEY, KEY_LEFTSHIFT, 0); syn(&kbd);
	wait_events(6, "keyboard");
	static const struct { uint32_t key; int state; uint32_t sym; const char *text; } keys[] = {
		{ KEY_A, 1, 0x61, "a" }, { KEY_A, 0, 0x61, "" },
		{ KEY_LEFTSHIFT, 1, 0xffe1, "" }, { KEY_A, 1, 0x41, "A" }, { KEY_A, 0, 0x41, "" },
		{ KEY_LEFTSHIFT, 0, 0xffe1, "" },
	};
	for (size_t i = 0; i < 6; i++) {
		const struct dispman_input_event *e = &events[i].ev;
		expect(i, DISPMAN_INPUT_KEY, kbd.event);
		CHECK(e->key == keys[i].key && (int)e->state == keys[i].state,
			"key event %zu: key %u state %d, expected %u %d", i, e->key, e->state,
			keys[i].key, keys[i].state);
#if HAVE_XKBCOMMON
		CHECK(e->keysym == keys[i].sym, "key event %zu: keysym %#x, expected %#x", i,
			e->keysym, keys[i].sym);
		CHECK(strcmp(e->text, keys[i].text) == 0, "key event %zu: text \"%s\", expected "
			"\"%s\"", i, e->text, keys[i].text);
#endif
	}
#if HAVE_XKBCOMMON
	CHECK(events[3].ev.modifiers == DISPMAN_INPUT_MOD_SHIFT, "shift not in effect");
	CHECK(events[0].ev.modifiers == 0, "modifiers on a plain key");
#endif

	/* Pointer: relative motion from a known position, clamping, a click, a wheel click. */
	printf("-- pointer\n");
	n_events = 0;
	dispman_input_set_output(input, out);
	dispman_input_warp_pointer(input, 100, 100);
	emit(&mouse, EV_REL, REL_X, 10);
	emit(&mouse, EV_REL, REL_Y, 5);
	syn(&mouse);
	wait_events(1, "motion");
	const struct dispman_input_event *m = &events[0].ev;
	expect(0, DISPMAN_INPUT_POINTER_MOTION, mouse.event);
	CHECK(m->dx_unaccel == 10.0 && m->dy_unaccel == 5.0, "raw motion %.2f,%.2f, expected 10,5",
		m->dx_unaccel, m->dy_unaccel);
	CHECK(m->dx > 0 && m->dy > 0, "accelerated motion %.2f,%.2f", m->dx, m->dy);
	expect_near(m->x, 100 + m->dx, "pointer x after motion");
	expect_near(m->y, 100 + m->dy, "pointer y after motion");
	double px, py;
	dispman_input_get_pointer_position(input, &px, &py);
	CHECK(px == m->x && py == m->y, "get_pointer_position disagrees with the event");

	n_events = 0;
	emit(&mouse, EV_REL, REL_X, -5000);
	emit(&mouse, EV_REL, REL_Y, -5000);
	syn(&mouse);
	emit(&mouse, EV_REL, REL_X, 5000);
	emit(&mouse, EV_REL, REL_Y, 5000);
	syn(&mouse);
	wait_events(2, "clamped motion");
	CHECK(events[0].ev.x == 0.0 && events[0].ev.y == 0.0, "not clamped to 0,0: %.2f,%.2f",
		events[0].ev.x, events[0].ev.y);
	CHECK(events[1].ev.x == w - 1 && events[1].ev.y == h - 1,
		"not clamped to %u,%u: %.2f,%.2f", w - 1, h - 1, events[1].ev.x, events[1].ev.y);

	n_events = 0;
	dispman_input_warp_pointer(input, 300, 200);
	emit(&mouse, EV_KEY, BTN_LEFT, 1); syn(&mouse);
	emit(&mouse, EV_KEY, BTN_LEFT, 0); syn(&mouse);
	/* libinput debounces the release: wait for it before the wheel, or the two swap. */
	wait_events(2, "buttons");
	emit(&mouse, EV_REL, REL_WHEEL, -1); syn(&mouse);
	wait_events(3, "wheel");
	for (size_t i = 0; i < 2; i++) {
		expect(i, DISPMAN_INPUT_POINTER_BUTTON, mouse.event);
		CHECK(events[i].ev.button == BTN_LEFT, "button %#x", events[i].ev.button);
		CHECK((int)events[i].ev.state == (i == 0), "button state %d", events[i].ev.state);
		CHECK(events[i].ev.x == 300 && events[i].ev.y == 200, "button at %.2f,%.2f",
			events[i].ev.x, events[i].ev.y);
	}
	expect(2, DISPMAN_INPUT_POINTER_AXIS, mouse.event);
	CHECK(events[2].ev.axis_source == DISPMAN_INPUT_AXIS_WHEEL &&
		events[2].ev.axis_v120_y == 120.0 && events[2].ev.axis_y > 0,
		"wheel: source %d v120 %.1f value %.2f", events[2].ev.axis_source,
		events[2].ev.axis_v120_y, events[2].ev.axis_y);

	/* Touch: down at 50%, move to 25%,75%, up. */
	printf("-- touch\n");
	n_events = 0;
	int tx[2] = { 2048, 1024 }, ty[2] = { 2048, 3072 };
	emit(&touch, EV_ABS, ABS_MT_SLOT, 0);
	emit(&touch, EV_ABS, ABS_MT_TRACKING_ID, 7);
	emit(&touch, EV_ABS, ABS_MT_POSITION_X, tx[0]);
	emit(&touch, EV_ABS, ABS_MT_POSITION_Y, ty[0]);
	emit(&touch, EV_KEY, BTN_TOUCH, 1);
	emit(&touch, EV_ABS, ABS_X, tx[0]);
	emit(&touch, EV_ABS, ABS_Y, ty[0]);
	syn(&touch);
	emit(&touch, EV_ABS, ABS_MT_POSITION_X, tx[1]);
	emit(&touch, EV_ABS, ABS_MT_POSITION_Y, ty[1]);
	emit(&touch, EV_ABS, ABS_X, tx[1]);
	emit(&touch, EV_ABS, ABS_Y, ty[1]);
	syn(&touch);
	emit(&touch, EV_ABS, ABS_MT_TRACKING_ID, -1);
	emit(&touch, EV_KEY, BTN_TOUCH, 0);
	syn(&touch);
	wait_events(6, "touch");
	static const enum dispman_input_event_type touch_types[] = {
		DISPMAN_INPUT_TOUCH_DOWN, DISPMAN_INPUT_TOUCH_FRAME,
		DISPMAN_INPUT_TOUCH_MOTION, DISPMAN_INPUT_TOUCH_FRAME,
		DISPMAN_INPUT_TOUCH_UP, DISPMAN_INPUT_TOUCH_FRAME,
	};
	for (size_t i = 0; i < 6; i++)
		expect(i, touch_types[i], touch.event);
	for (size_t i = 0; i < 3; i++) {
		const struct dispman_input_event *e = &events[2 * i].ev;
		int p = i == 0 ? 0 : 1; /* up reports the last point */
		double want_x = (double)tx[p] * w / (ABS_MAX_VALUE + 1);
		double want_y = (double)ty[p] * h / (ABS_MAX_VALUE + 1);
		expect_near(e->x, want_x, "touch x");
		expect_near(e->y, want_y, "touch y");
		CHECK(e->slot == 0 && e->seat_slot == 0, "slot %d seat slot %d", e->slot,
			e->seat_slot);
		CHECK(e->output == out, "touch event without its output");
	}
	CHECK(fabs(events[0].ev.x - w / 2.0) <= 1 && fabs(events[0].ev.y - h / 2.0) <= 1,
		"touch at 50%% is not the centre");
	dispman_input_get_pointer_position(input, &px, &py);
	CHECK(px == 300 && py == 200, "touch moved the pointer to %.2f,%.2f", px, py);

	/* Cursor: pointer motion moves a cursor layer; writeback shows it. */
	printf("-- cursor\n");
	struct dispman_buffer *cbuf = solid_buffer(CURSOR_SIZE, CURSOR_SIZE, DRM_FORMAT_ARGB8888,
		0xff000000u | CURSOR_COLOR);
	struct dispman_layer *cursor = dispman_layer_create(out);
	CHECK(cursor, "layer_create failed");
	dispman_layer_set_buffer(cursor, cbuf);
	dispman_layer_set_z(cursor, 100);
	dispman_input_warp_pointer(input, 200, 150);
	CHECK(dispman_input_set_cursor_layer(input, cursor, HOT_X, HOT_Y) == 0, "set_cursor");
	CHECK(dispman_output_commit(out) == 0, "cursor commit failed");
	settle();
	n_events = 0;
	emit(&mouse, EV_REL, REL_X, 150);
	emit(&mouse, EV_REL, REL_Y, 100);
	syn(&mouse);
	wait_events(1, "cursor motion");
	settle(); /* the input committed; let the flip complete */
	dispman_input_get_pointer_position(input, &px, &py);
	struct dispman_placement pl;
	dispman_layer_get_placement(cursor, &pl);
	printf("pointer now %.2f,%.2f; cursor layer placement %d plane %u reason %d\n", px, py,
		pl.state, pl.plane_id, pl.reason);
	CHECK(px > 200 + 100 && py > 150 + 60, "pointer did not move far enough");

	struct dispman_buffer *frame = NULL;
	int ret = dispman_output_capture(out, &frame);
	CHECK(ret == 0, "capture: %s", strerror(-ret));
	void *data;
	uint32_t stride;
	CHECK(dispman_buffer_map(frame, &data, &stride) == 0, "map capture");
#define PIX(x, y) (((uint32_t *)(void *)((char *)data + (size_t)(y) * stride))[x] & 0xffffffu)
	int cx = (int)px - HOT_X, cy = (int)py - HOT_Y;
	size_t wrong = 0, checked = 0;
	for (int y = cy - 4; y < cy + CURSOR_SIZE + 4; y++) {
		for (int x = cx - 4; x < cx + CURSOR_SIZE + 4; x++) {
			if (x < 0 || y < 0 || x >= (int)w || y >= (int)h)
				continue;
			bool inside = x >= cx && x < cx + CURSOR_SIZE && y >= cy &&
				y < cy + CURSOR_SIZE;
			uint32_t want = inside ? CURSOR_COLOR : BACKGROUND;
			checked++;
			if (PIX(x, y) != want && wrong++ < 5)
				fprintf(stderr, "pixel %d,%d = %06x, expected %06x\n", x, y,
					PIX(x, y), want);
		}
	}
	/* The old position shows the background again. */
	for (int y = 150 - HOT_Y; y < 150 - HOT_Y + CURSOR_SIZE; y++)
		for (int x = 200 - HOT_X; x < 200 - HOT_X + CURSOR_SIZE; x++) {
			checked++;
			if (PIX(x, y) != BACKGROUND && wrong++ < 10)
				fprintf(stderr, "old cursor pixel %d,%d = %06x\n", x, y, PIX(x, y));
		}
	printf("writeback: %zu pixels checked around the cursor and its old place, %zu wrong\n",
		checked, wrong);
	CHECK(wrong == 0, "cursor not where the pointer is");
	dispman_buffer_unref(frame);

	/* Removal: destroying the uinput keyboard removes the device. */
	printf("-- removal\n");
	n_events = 0;
	ioctl(kbd.fd, UI_DEV_DESTROY);
	close(kbd.fd);
	wait_events(1, "removal");
	expect(0, DISPMAN_INPUT_DEVICE_REMOVED, kbd.event);

	dispman_input_set_cursor_layer(input, NULL, 0, 0);
	dispman_input_destroy(input);
	dispman_input_destroy(NULL);
	dispman_layer_destroy(cursor);
	dispman_buffer_unref(cbuf);
	dispman_buffer_unref(bg);
	dispman_device_destroy(dev);
	ioctl(mouse.fd, UI_DEV_DESTROY);
	ioctl(touch.fd, UI_DEV_DESTROY);
	printf("PASS input-uinput (%s backend)\n", udev_backend ? "udev" : "path");
	return 0;
}
