/* SPDX-License-Identifier: MIT */
/*
 * wl_seat of dispman-kiosk, end to end in the guest: uinput makes a keyboard, a mouse and a
 * touchscreen; dispman-kiosk opens them (--input) and runs this program again as its
 * client (--client). The client shows a full-screen toplevel with a 300x300 subsurface in
 * the bottom-right corner and logs every wl_keyboard, wl_pointer and wl_touch event. The
 * driver writes known events into uinput and checks the log: the keymap (xkb, 'a' for
 * KEY_A), key codes and states, Shift in the modifiers, pointer focus moving from the
 * toplevel to the subsurface with surface-local coordinates (the pointer clamped in the
 * corners), buttons, and touch points on either surface in their surface's coordinates.
 *
 *   wayland-input KIOSK [--transform 90]
 *
 * With --transform 90 the kiosk runs with the output turned (portrait on the landscape
 * panel): the client must be configured with the turned size and see the transform in
 * wl_output, the pointer behaves as before in the turned space, and touches at two corners
 * of the panel (its bottom-left and top-right, as the touchscreen reports them) must reach
 * the surfaces at the matching corners of the viewer's picture (the subsurface's
 * bottom-right, the toplevel's top-left).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <linux/uinput.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

#include "xdg-shell-client-protocol.h"

#include "check.h"
#include "test-client.h"
#include "uinput-dev.h"

#define ABS_MAXV 4095
#define SUB_SIZE 300

/* ---------------- the client ---------------- */

static struct test_client tc = { .name = "wayland-input", .seat_version = 5 };
static struct wl_surface *top, *sub;
static struct xkb_context *xkb;
static struct xkb_keymap *keymap;
static int32_t mode_w, mode_h, out_transform;

static const char *tag(struct wl_surface *s)
{
	return s == top ? "top" : s == sub ? "sub" : "?";
}

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size)
{
	char name[64] = "none";
	if (format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) {
		char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			keymap = xkb_keymap_new_from_string(xkb, map, XKB_KEYMAP_FORMAT_TEXT_V1,
				XKB_KEYMAP_COMPILE_NO_FLAGS);
			munmap(map, size);
		}
		if (keymap) {
			struct xkb_state *st = xkb_state_new(keymap);
			xkb_keysym_get_name(xkb_state_key_get_one_sym(st, KEY_A + 8), name,
				sizeof(name));
			xkb_state_unref(st);
		}
	}
	close(fd);
	test_log("keymap %u %u %s", format, size, name);
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
	struct wl_array *keys)
{
	test_log("kb-enter %s", tag(s));
}

static void kb_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	test_log("kb-leave %s", tag(s));
}

static void kb_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key,
	uint32_t state)
{
	test_log("key %u %u", key, state);
}

static void kb_modifiers(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t dep,
	uint32_t latched, uint32_t locked, uint32_t group)
{
	uint32_t shift = 0;
	if (keymap) {
		xkb_mod_index_t i = xkb_keymap_mod_get_index(keymap, XKB_MOD_NAME_SHIFT);
		if (i != XKB_MOD_INVALID)
			shift = 1u << i;
	}
	test_log("mods shift=%d depressed=%#x", (dep & shift) != 0, dep);
}

static void kb_repeat(void *d, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
}

static const struct wl_keyboard_listener kb_listener = {
	kb_keymap, kb_enter, kb_leave, kb_key, kb_modifiers, kb_repeat,
};

static void p_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
	wl_fixed_t x, wl_fixed_t y)
{
	test_log("ptr-enter %s %.0f %.0f", tag(s), wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
	test_log("ptr-leave %s", tag(s));
}

static void p_motion(void *d, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y)
{
	test_log("ptr-motion %.0f %.0f", wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t time,
	uint32_t button, uint32_t state)
{
	test_log("ptr-button %u %u", button, state);
}

static void p_axis(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t v)
{
	test_log("ptr-axis %u %.0f", axis, wl_fixed_to_double(v));
}

static const struct wl_pointer_listener p_listener = {
	p_enter, p_leave, p_motion, p_button, p_axis, test_pointer_frame,
	test_pointer_axis_source, test_pointer_axis_stop, test_pointer_axis_discrete,
};

static void t_down(void *d, struct wl_touch *t, uint32_t serial, uint32_t time,
	struct wl_surface *s, int32_t id, wl_fixed_t x, wl_fixed_t y)
{
	test_log("touch-down %s %d %.0f %.0f", tag(s), id, wl_fixed_to_double(x),
		wl_fixed_to_double(y));
}

static void t_up(void *d, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id)
{
	test_log("touch-up %d", id);
}

static void t_motion(void *d, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x,
	wl_fixed_t y)
{
	test_log("touch-motion %d %.0f %.0f", id, wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void t_frame(void *d, struct wl_touch *t)
{
}

static void t_cancel(void *d, struct wl_touch *t)
{
	test_log("touch-cancel");
}

static const struct wl_touch_listener t_listener = { t_down, t_up, t_motion, t_frame, t_cancel };

static void seat_caps(void *d, struct wl_seat *s, uint32_t caps)
{
	static bool done;
	test_log("seat-caps %u", caps);
	if (done || caps != 7)
		return;
	done = true;
	wl_keyboard_add_listener(wl_seat_get_keyboard(s), &kb_listener, NULL);
	wl_pointer_add_listener(wl_seat_get_pointer(s), &p_listener, NULL);
	wl_touch_add_listener(wl_seat_get_touch(s), &t_listener, NULL);
}

static void seat_name(void *d, struct wl_seat *s, const char *name)
{
}

static const struct wl_seat_listener seat_listener = { seat_caps, seat_name };

static void out_geometry(void *d, struct wl_output *o, int32_t x, int32_t y, int32_t pw,
	int32_t ph, int32_t subpixel, const char *make, const char *model, int32_t transform)
{
	out_transform = transform;
}

static void out_mode(void *d, struct wl_output *o, uint32_t flags, int32_t w, int32_t h,
	int32_t refresh)
{
	if (flags & WL_OUTPUT_MODE_CURRENT) {
		mode_w = w;
		mode_h = h;
	}
}

static void out_done(void *d, struct wl_output *o)
{
}

static void out_scale(void *d, struct wl_output *o, int32_t factor)
{
}

static const struct wl_output_listener output_listener = { out_geometry, out_mode, out_done,
	out_scale };

static int run_client(const char *log_path, const char *ready_path)
{
	test_log_open(log_path);
	xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	tc.seat_listener = &seat_listener;
	tc.output_listener = &output_listener;
	test_client_connect(&tc);
	CHECK(tc.subcompositor && tc.seat && tc.output, "client: a global is missing");
	wl_display_roundtrip(tc.display); /* the output's mode */
	CHECK(mode_w > SUB_SIZE && mode_h > SUB_SIZE, "client: no current mode on wl_output "
		"(%dx%d)", mode_w, mode_h);
	test_client_toplevel(&tc, "wayland-input");
	top = tc.surface;
	test_client_wait_configure(&tc);
	int32_t cfg_w = tc.cfg_w, cfg_h = tc.cfg_h;
	test_log("configure %d %d", cfg_w, cfg_h);
	test_log("output-transform %d", out_transform);
	/* the output's size as the client sees it: the mode turned by its transform */
	int32_t turned_w = out_transform & 1 ? mode_h : mode_w;
	int32_t turned_h = out_transform & 1 ? mode_w : mode_h;
	CHECK(cfg_w == turned_w && cfg_h == turned_h, "client: configured %dx%d, not the "
		"output's mode %dx%d turned by its transform %d", cfg_w, cfg_h, mode_w, mode_h,
		out_transform);
	sub = wl_compositor_create_surface(tc.compositor);
	struct wl_subsurface *ss = wl_subcompositor_get_subsurface(tc.subcompositor, sub, top);
	wl_subsurface_set_position(ss, cfg_w - SUB_SIZE, cfg_h - SUB_SIZE);
	wl_surface_attach(sub, test_client_buffer(&tc, SUB_SIZE, SUB_SIZE,
		WL_SHM_FORMAT_XRGB8888, 0xff0000, NULL), 0, 0);
	wl_surface_damage(sub, 0, 0, SUB_SIZE, SUB_SIZE);
	wl_surface_commit(sub);
	wl_surface_attach(top, test_client_buffer(&tc, cfg_w, cfg_h, WL_SHM_FORMAT_XRGB8888,
		0x203040, NULL), 0, 0);
	wl_surface_damage(top, 0, 0, cfg_w, cfg_h);
	test_client_commit_wait_frame(&tc);
	test_log("mapped");
	FILE *r = fopen(ready_path, "w");
	CHECK(r, "%s", ready_path);
	fclose(r);
	test_client_run(&tc);
	return 0;
}

/* ---------------- the driver ---------------- */

static void abs_setup(int fd, int code, int max)
{
	struct uinput_abs_setup a = { .code = (unsigned short)code };
	a.absinfo.maximum = max;
	a.absinfo.resolution = code == ABS_MT_SLOT || code == ABS_MT_TRACKING_ID ? 0 : 10;
	uinput_set_bit(fd, UI_SET_ABSBIT, code);
	if (ioctl(fd, UI_ABS_SETUP, &a) < 0)
		FAIL("UI_ABS_SETUP %d: %s", code, strerror(errno));
}

static void ev(int fd, int type, int code, int value)
{
	uinput_emit(fd, (unsigned)type, (unsigned)code, value);
}

struct touch_pt {
	int vx, vy; /* the absolute axis values sent */
	int x, y;   /* the output pixel libinput maps them to */
};

/* The axis value nearest to pixel px on an axis of size pixels that maps to a whole pixel:
 * libinput scales v in [0, ABS_MAXV] to v * size / (ABS_MAXV + 1). */
static int axis_value(int px, int size, int *out_px)
{
	int range = ABS_MAXV + 1, g = range, b = size;
	while (b) {
		int t = g % b;
		g = b;
		b = t;
	}
	int step = range / g; /* v must be a multiple of this for v * size / range to be whole */
	int v = (int)(((long)px * range / size + step / 2) / step * step);
	if (v > ABS_MAXV)
		v -= step;
	*out_px = (int)((long)v * size / range);
	return v;
}

static struct touch_pt touch_at(int x, int y, int w, int h)
{
	struct touch_pt p;
	p.vx = axis_value(x, w, &p.x);
	p.vy = axis_value(y, h, &p.y);
	return p;
}

static void wait_log(const char *path, const char *what, int n, pid_t kiosk)
{
	for (int i = 0; i < 600; i++) {
		char *s = test_slurp(path);
		if (s && test_count(s, what) >= n)
			return;
		CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited");
		usleep(100000);
	}
	FAIL("the client did not log %d \"%s\" within 60 s; log:\n%s", n, what, test_slurp(path));
}

/* Each expected line must appear, in this order (other lines may come between). */
static void expect_in_order(const char *log, const char *const *lines, size_t n)
{
	const char *p = log;
	for (size_t i = 0; i < n; i++) {
		const char *q = strstr(p, lines[i]);
		CHECK(q, "expected \"%s\" (after the previous match); client log:\n%s", lines[i],
			log);
		p = q + strlen(lines[i]);
	}
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--client") == 0)
		return run_client(argv[2], argv[3]);
	bool turned = argc == 4 && strcmp(argv[2], "--transform") == 0;
	CHECK(argc == 2 || (turned && strcmp(argv[3], "90") == 0),
		"usage: wayland-input KIOSK [--transform 90]");
	const char *out = getenv("DISPMAN_VM_OUT") ? getenv("DISPMAN_VM_OUT") : "/tmp";
	char dir[512], log_path[600], ready[600];
	snprintf(dir, sizeof(dir), "%s/wayland-input%s", out, turned ? "-90" : "");
	mkdir(dir, 0755);
	snprintf(log_path, sizeof(log_path), "%s/client.log", dir);
	snprintf(ready, sizeof(ready), "%s/ready", dir);
	unlink(ready);
	char xdg[] = "/tmp/xdg-input.XXXXXX";
	CHECK(mkdtemp(xdg), "mkdtemp");
	setenv("XDG_RUNTIME_DIR", xdg, 1);

	struct uinput_dev kb, mouse, touch = { .fd = uinput_open() };
	uinput_create_keyboard(&kb, "wayland-input keyboard");
	uinput_create_mouse(&mouse, "wayland-input mouse");
	uinput_set_bit(touch.fd, UI_SET_EVBIT, EV_KEY);
	uinput_set_bit(touch.fd, UI_SET_EVBIT, EV_ABS);
	uinput_set_bit(touch.fd, UI_SET_KEYBIT, BTN_TOUCH);
	uinput_set_bit(touch.fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
	abs_setup(touch.fd, ABS_X, ABS_MAXV);
	abs_setup(touch.fd, ABS_Y, ABS_MAXV);
	abs_setup(touch.fd, ABS_MT_SLOT, 9);
	abs_setup(touch.fd, ABS_MT_TRACKING_ID, 65535);
	abs_setup(touch.fd, ABS_MT_POSITION_X, ABS_MAXV);
	abs_setup(touch.fd, ABS_MT_POSITION_Y, ABS_MAXV);
	uinput_create(&touch, "wayland-input touchscreen", "E:ID_INPUT_TOUCHSCREEN=1\n");

	pid_t kiosk = fork();
	CHECK(kiosk >= 0, "fork");
	if (kiosk == 0) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		self[n > 0 ? n : 0] = 0;
		if (turned)
			execl(argv[1], argv[1], "--transform", "90", "--input", kb.devnode,
				"--input", mouse.devnode, "--input", touch.devnode, "--", self,
				"--client", log_path, ready, (char *)NULL);
		else
			execl(argv[1], argv[1], "--input", kb.devnode, "--input", mouse.devnode,
				"--input", touch.devnode, "--", self, "--client", log_path, ready,
				(char *)NULL);
		_exit(127);
	}
	for (int i = 0; access(ready, F_OK) != 0; i++) {
		CHECK(i < 1800, "the client did not map within 180 s; log:\n%s", test_slurp(log_path));
		CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited early");
		usleep(100000);
	}
	usleep(300000);
	/* the size the client was configured with (checked there against wl_output's mode) */
	int w = 0, h = 0;
	const char *cfg = strstr(test_slurp(log_path), "configure ");
	CHECK(cfg && sscanf(cfg, "configure %d %d", &w, &h) == 2 && w > SUB_SIZE && h > SUB_SIZE,
		"no configure line in the client log");
	int sub_x = w - SUB_SIZE, sub_y = h - SUB_SIZE;

	/* keyboard: a, then Shift+a */
	ev(kb.fd, EV_KEY, KEY_A, 1); uinput_syn(kb.fd);
	ev(kb.fd, EV_KEY, KEY_A, 0); uinput_syn(kb.fd);
	ev(kb.fd, EV_KEY, KEY_LEFTSHIFT, 1); uinput_syn(kb.fd);
	ev(kb.fd, EV_KEY, KEY_A, 1); uinput_syn(kb.fd);
	ev(kb.fd, EV_KEY, KEY_A, 0); uinput_syn(kb.fd);
	ev(kb.fd, EV_KEY, KEY_LEFTSHIFT, 0); uinput_syn(kb.fd);
	wait_log(log_path, "key 42 0", 1, kiosk);

	/* pointer: into the top-left corner (clamped at 0,0: the toplevel), click, then into
	 * the bottom-right corner (w-1,h-1: the subsurface at its 299,299), click */
	for (int i = 0; i < 4; i++) {
		ev(mouse.fd, EV_REL, REL_X, -3000);
		ev(mouse.fd, EV_REL, REL_Y, -3000);
		uinput_syn(mouse.fd);
	}
	ev(mouse.fd, EV_KEY, BTN_LEFT, 1); uinput_syn(mouse.fd);
	ev(mouse.fd, EV_KEY, BTN_LEFT, 0); uinput_syn(mouse.fd);
	/* libinput may hold a button back for a few ms (debouncing, middle-button emulation)
	 * while later motion goes through: let the click arrive before moving on. */
	wait_log(log_path, "ptr-button 272 0", 1, kiosk);
	for (int i = 0; i < 4; i++) {
		ev(mouse.fd, EV_REL, REL_X, 3000);
		ev(mouse.fd, EV_REL, REL_Y, 3000);
		uinput_syn(mouse.fd);
	}
	ev(mouse.fd, EV_KEY, BTN_RIGHT, 1); uinput_syn(mouse.fd);
	ev(mouse.fd, EV_KEY, BTN_RIGHT, 0); uinput_syn(mouse.fd);
	wait_log(log_path, "ptr-button 273 0", 1, kiosk);

	/* touch: down on the subsurface at its (44,108), move to its (76,132), up; then down on
	 * the toplevel at a quarter of the output and up. Each point is one libinput maps to a
	 * whole pixel (x = v * width / 4096). */
	struct touch_pt down = touch_at(sub_x + 44, sub_y + 108, w, h),
		move = touch_at(sub_x + 76, sub_y + 132, w, h), other = touch_at(w / 4, h / 4, w, h);
	if (turned) {
		/* The touchscreen spans the panel (h x w: the viewer's size turned back) and
		 * reports its pixels; turned by 90, the panel's pixel (px, py) is the viewer's
		 * (py, pw - px) (the panel's top edge is the viewer's left, its right edge the
		 * viewer's top), clamped to the viewer's last pixel. Down at the panel's
		 * bottom-left corner (the viewer's bottom-right: the subsurface), moved a little
		 * up the panel, and then down at its top-right corner (the viewer's top-left: the
		 * toplevel). */
		int pw = h, ph = w;
		struct touch_pt pd = touch_at(0, ph - 1, pw, ph), pm = touch_at(20, ph - 40, pw, ph),
			po = touch_at(pw - 1, 0, pw, ph);
		struct touch_pt *t[3] = { &down, &move, &other }, *p[3] = { &pd, &pm, &po };
		for (int i = 0; i < 3; i++) {
			*t[i] = *p[i];
			t[i]->x = p[i]->y;
			t[i]->y = pw - p[i]->x > h - 1 ? h - 1 : pw - p[i]->x;
		}
	}
	ev(touch.fd, EV_ABS, ABS_MT_SLOT, 0);
	ev(touch.fd, EV_ABS, ABS_MT_TRACKING_ID, 1);
	ev(touch.fd, EV_ABS, ABS_MT_POSITION_X, down.vx);
	ev(touch.fd, EV_ABS, ABS_MT_POSITION_Y, down.vy);
	ev(touch.fd, EV_KEY, BTN_TOUCH, 1);
	ev(touch.fd, EV_ABS, ABS_X, down.vx);
	ev(touch.fd, EV_ABS, ABS_Y, down.vy);
	uinput_syn(touch.fd);
	ev(touch.fd, EV_ABS, ABS_MT_POSITION_X, move.vx);
	ev(touch.fd, EV_ABS, ABS_MT_POSITION_Y, move.vy);
	ev(touch.fd, EV_ABS, ABS_X, move.vx);
	ev(touch.fd, EV_ABS, ABS_Y, move.vy);
	uinput_syn(touch.fd);
	ev(touch.fd, EV_ABS, ABS_MT_TRACKING_ID, -1);
	ev(touch.fd, EV_KEY, BTN_TOUCH, 0);
	uinput_syn(touch.fd);
	ev(touch.fd, EV_ABS, ABS_MT_TRACKING_ID, 2);
	ev(touch.fd, EV_ABS, ABS_MT_POSITION_X, other.vx);
	ev(touch.fd, EV_ABS, ABS_MT_POSITION_Y, other.vy);
	ev(touch.fd, EV_KEY, BTN_TOUCH, 1);
	ev(touch.fd, EV_ABS, ABS_X, other.vx);
	ev(touch.fd, EV_ABS, ABS_Y, other.vy);
	uinput_syn(touch.fd);
	ev(touch.fd, EV_ABS, ABS_MT_TRACKING_ID, -1);
	ev(touch.fd, EV_KEY, BTN_TOUCH, 0);
	uinput_syn(touch.fd);
	wait_log(log_path, "touch-up", 2, kiosk);

	kill(kiosk, SIGTERM);
	int st;
	waitpid(kiosk, &st, 0);
	const char *log = test_slurp(log_path);
	printf("client log:\n%s", log);
	char sub_down[64], sub_move[64], top_down[64];
	snprintf(sub_down, sizeof(sub_down), "touch-down sub 0 %d %d", down.x - sub_x,
		down.y - sub_y);
	snprintf(sub_move, sizeof(sub_move), "touch-motion 0 %d %d", move.x - sub_x,
		move.y - sub_y);
	snprintf(top_down, sizeof(top_down), "touch-down top 0 %d %d", other.x, other.y);
	const char *const want[] = {
		"seat-caps 7", "keymap 1 ", " a\n", "kb-enter top",
		"key 30 1", "key 30 0", "key 42 1", "mods shift=1", "key 30 1", "key 30 0",
		"key 42 0", "mods shift=0",
		"ptr-motion 0 0", "ptr-button 272 1", "ptr-button 272 0",
		"ptr-leave top", "ptr-enter sub", "ptr-motion 299 299", "ptr-button 273 1",
		"ptr-button 273 0",
		sub_down, sub_move, "touch-up 0", top_down, "touch-up 0",
	};
	expect_in_order(log, want, sizeof(want) / sizeof(want[0]));
	CHECK(strstr(log, turned ? "output-transform 1\n" : "output-transform 0\n"),
		"wl_output did not advertise the transform; client log:\n%s", log);
	CHECK(!strstr(log, "touch-down ?") && !strstr(log, "enter ?"), "events for an unknown "
		"surface");
	uinput_destroy(&kb);
	uinput_destroy(&mouse);
	uinput_destroy(&touch);
	printf("PASS: keys, modifiers, pointer focus and coordinates, touch on both surfaces%s\n",
		turned ? " (output turned by 90: the panel's corners at the viewer's)" : "");
	return 0;
}
