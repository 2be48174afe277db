/* SPDX-License-Identifier: MIT */
/*
 * Cursors of dispman-kiosk, end to end in the guest. A uinput mouse (and keyboard) feed
 * dispman-kiosk (--input), which runs this program again as its client (--client): a
 * full-screen 0x203040 toplevel that, in mode "set", answers each pointer enter with
 * wl_pointer.set_cursor of a 32x32 opaque magenta surface with hotspot (5, 7), and on the
 * first three button presses sets no cursor (NULL), then its cursor with a stale serial
 * (ignored), then its cursor again. In mode "none" it sets no cursor.
 *
 * Checked from the kernel's atomic state (debugfs; required on vkms): a framebuffer of
 * dispman-kiosk on a plane other than the primary (the toplevel is there), 32x32 at the
 * pointer position the client was sent minus the hotspot, following the pointer (which plane,
 * cursor or overlay, is the library's choice and is printed); none after set_cursor(NULL)
 * and the stale serial; the default cursor (another size) over a client that sets none;
 * no framebuffer with --hide-cursor, nor when the seat has no pointer device. And from the
 * pixels of a capture (SIGUSR1, --capture) on every device, cursor plane or composed:
 * magenta inside the cursor, the background beside it; only the background with
 * --hide-cursor and without a pointer device.
 *
 *   wayland-cursor KIOSK
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <linux/uinput.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
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
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "xdg-shell-client-protocol.h"

#include "check.h"
#include "kms-util.h"
#include "test-client.h"
#include "uinput-dev.h"

#define CUR 32
#define HOT_X 5
#define HOT_Y 7
#define BG 0x203040u
#define MAGENTA 0xffff00ffu

/* ---------------- the client ---------------- */

static struct test_client tc = { .name = "wayland-cursor", .seat_version = 5 };
static struct wl_surface *cursor_surface;
static bool set_mode;
static uint32_t enter_serial;
static int presses;

static void set_cursor(struct wl_pointer *p, uint32_t serial, bool show)
{
	wl_pointer_set_cursor(p, serial, show ? cursor_surface : NULL, HOT_X, HOT_Y);
}

static void p_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
	wl_fixed_t x, wl_fixed_t y)
{
	enter_serial = serial;
	if (set_mode) {
		if (!cursor_surface) {
			cursor_surface = wl_compositor_create_surface(tc.compositor);
			wl_surface_attach(cursor_surface, test_client_buffer(&tc, CUR, CUR,
				WL_SHM_FORMAT_ARGB8888, MAGENTA, NULL), 0, 0);
			wl_surface_damage(cursor_surface, 0, 0, CUR, CUR);
			wl_surface_commit(cursor_surface);
		}
		set_cursor(p, serial, true);
	}
	test_log("ptr-enter %.0f %.0f", wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
	test_log("ptr-leave");
}

static void p_motion(void *d, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y)
{
	test_log("ptr-motion %.3f %.3f", wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t time,
	uint32_t button, uint32_t state)
{
	if (state != WL_POINTER_BUTTON_STATE_PRESSED || !set_mode)
		return;
	presses++;
	if (presses == 1)
		set_cursor(p, enter_serial, false);
	else if (presses == 2)
		set_cursor(p, enter_serial - 1, true); /* stale: ignored */
	else if (presses == 3)
		set_cursor(p, enter_serial, true);
	test_log("press %d", presses);
}

static void p_axis(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t v)
{
}

static const struct wl_pointer_listener p_listener = {
	p_enter, p_leave, p_motion, p_button, p_axis, test_pointer_frame,
	test_pointer_axis_source, test_pointer_axis_stop, test_pointer_axis_discrete,
};

static int run_client(const char *mode, const char *log_path, const char *ready_path)
{
	set_mode = strcmp(mode, "set") == 0;
	test_log_open(log_path);
	tc.pointer_listener = &p_listener;
	test_client_connect(&tc);
	CHECK(tc.seat, "client: a global is missing");
	test_client_toplevel(&tc, "wayland-cursor");
	test_client_wait_configure(&tc);
	test_log("configure %d %d", tc.cfg_w, tc.cfg_h);
	wl_surface_attach(tc.surface, test_client_buffer(&tc, tc.cfg_w, tc.cfg_h,
		WL_SHM_FORMAT_XRGB8888, BG, NULL), 0, 0);
	wl_surface_damage(tc.surface, 0, 0, tc.cfg_w, tc.cfg_h);
	test_client_commit_wait_frame(&tc);
	test_log("mapped");
	FILE *r = fopen(ready_path, "w");
	CHECK(r, "%s", ready_path);
	fclose(r);
	test_client_run(&tc);
	return 0;
}

/* ---------------- the driver ---------------- */

static char dir[512], log_path[600], ready[600], kiosk_err[600], cap_prefix[600];
static const char *kiosk_path;
/* the planes a cursor can be on: every plane but the primaries (cursor planes first) */
static unsigned cursor_planes[32];
static size_t n_cursor_planes, n_real_cursor_planes;
static pid_t running_kiosk;
static unsigned captures; /* of the running kiosk, which numbers them from 0 */
static char state_path[256];
static bool is_vkms;

static void ev(int fd, int type, int code, int value)
{
	uinput_emit(fd, (unsigned)type, (unsigned)code, value);
}

static void wait_log(const char *what, int n, pid_t kiosk)
{
	for (int i = 0; i < 600; i++) {
		char *s = test_slurp(log_path);
		if (s && test_count(s, what) >= n)
			return;
		CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited; stderr:\n%s",
			test_slurp(kiosk_err));
		usleep(100000);
	}
	FAIL("the client did not log %d \"%s\" within 60 s; log:\n%s", n, what, test_slurp(log_path));
}

/* The last pointer position the client was sent (surface-local = output: full screen). */
static void last_motion(double *x, double *y)
{
	const char *s = test_slurp(log_path), *p = NULL;
	for (const char *q = s; (q = strstr(q, "ptr-motion ")); q++)
		p = q;
	CHECK(p && sscanf(p, "ptr-motion %lf %lf", x, y) == 2, "no motion in the client log:\n%s",
		s);
}

/* The cursor planes of the device (libdrm, no master needed) and its debugfs state file. */
static void find_cursor_planes(void)
{
	const char *node = check_device_node();
	int fd = open(node, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "%s: %s", node, strerror(errno));
	drmVersionPtr v = drmGetVersion(fd);
	is_vkms = v && strcmp(v->name, "vkms") == 0;
	printf("device %s, driver %s\n", node, v ? v->name : "?");
	drmFreeVersion(v);
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
	drmSetClientCap(fd, 6 /* DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT */, 1);
	drmModePlaneResPtr res = drmModeGetPlaneResources(fd);
	CHECK(res, "no plane resources");
	for (int want = DRM_PLANE_TYPE_CURSOR; want >= DRM_PLANE_TYPE_OVERLAY; want -= 2) {
		for (uint32_t i = 0; i < res->count_planes; i++) {
			drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd,
				res->planes[i], DRM_MODE_OBJECT_PLANE);
			for (uint32_t j = 0; props && j < props->count_props; j++) {
				drmModePropertyPtr p = drmModeGetProperty(fd, props->props[j]);
				if (p && strcmp(p->name, "type") == 0 &&
				    props->prop_values[j] == (uint64_t)want && n_cursor_planes < 32)
					cursor_planes[n_cursor_planes++] = res->planes[i];
				drmModeFreeProperty(p);
			}
			drmModeFreeObjectProperties(props);
		}
		if (want == DRM_PLANE_TYPE_CURSOR)
			n_real_cursor_planes = n_cursor_planes;
	}
	drmModeFreePlaneResources(res);
	if (debugfs_dri_path(fd, "state", state_path, sizeof(state_path)) < 0 ||
	    access(state_path, R_OK) != 0)
		state_path[0] = 0;
	close(fd);
	printf("%zu cursor plane(s), %zu overlay plane(s), state %s\n", n_real_cursor_planes,
		n_cursor_planes - n_real_cursor_planes, state_path[0] ? state_path : "(none)");
	CHECK(!is_vkms || (n_real_cursor_planes > 0 && state_path[0]), "vkms without a cursor "
		"plane or debugfs state");
}

struct plane_state {
	unsigned fb, plane;
	bool cursor_plane;
	int w, h, x, y;
};

/* The first plane other than a primary with a framebuffer (fb 0: none has one); the
 * client's toplevel is full screen on the primary plane, so that is the cursor. */
static struct plane_state cursor_state(void)
{
	struct plane_state st = { 0 };
	const char *s = test_slurp(state_path);
	CHECK(s, "%s: %s", state_path, strerror(errno));
	for (size_t i = 0; i < n_cursor_planes; i++) {
		char head[32];
		snprintf(head, sizeof(head), "plane[%u]:", cursor_planes[i]);
		const char *p = strstr(s, head);
		if (!p)
			continue;
		const char *end = strstr(p + 1, "plane[");
		const char *fb = strstr(p, "\tfb=");
		const char *pos = strstr(p, "crtc-pos=");
		if (!fb || (end && fb > end) || sscanf(fb, "\tfb=%u", &st.fb) != 1 || !st.fb)
			continue;
		CHECK(pos && (!end || pos < end) && sscanf(pos, "crtc-pos=%dx%d%d%d", &st.w, &st.h,
			&st.x, &st.y) == 4, "no crtc-pos for plane %u", cursor_planes[i]);
		st.plane = cursor_planes[i];
		st.cursor_plane = i < n_real_cursor_planes;
		return st;
	}
	st.fb = 0;
	return st;
}

static bool plane_checks(void)
{
	return n_cursor_planes > 0 && state_path[0];
}

/* Waits up to 5 s for the cursor plane to show a w x h framebuffer at (x, y) (w 0: any
 * framebuffer), or for none (want false). Only where the state is readable. */
static struct plane_state expect_plane(bool want, int w, int h, int x, int y, const char *what)
{
	struct plane_state st = { 0 };
	if (!plane_checks())
		return st;
	for (int i = 0; i < 50; i++) {
		st = cursor_state();
		if (!want && !st.fb)
			return st;
		/* the compositor may pad the image to the device's cursor size */
		if (want && st.fb && (!w || (st.w >= w && st.h >= h && st.x == x && st.y == y)))
			return st;
		usleep(100000);
	}
	if (!is_vkms && want && !st.fb) {
		printf("note (%s): the cursor is not on the cursor plane here (composed)\n", what);
		return st;
	}
	FAIL("%s: cursor plane has fb %u %dx%d%+d%+d; wanted %s %dx%d%+d%+d\nstate:\n%s", what,
		st.fb, st.w, st.h, st.x, st.y, want ? "a framebuffer" : "none", w, h, x, y,
		test_slurp(state_path));
}

static uint8_t *capture_frame(pid_t kiosk, int *w, int *h)
{
	unsigned n = captures++;
	char path[700];
	snprintf(path, sizeof(path), "%s.%u.ppm", cap_prefix, n);
	unlink(path);
	kill(kiosk, SIGUSR1);
	for (int i = 0; i < 300; i++) {
		/* the kiosk writes PREFIX.N.ppm and logs "captured" once it is complete */
		const char *err = test_slurp(kiosk_err);
		char line[720];
		snprintf(line, sizeof(line), "captured %s", path);
		if (err && strstr(err, line))
			break;
		CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited; stderr:\n%s",
			test_slurp(kiosk_err));
		usleep(100000);
	}
	FILE *f = fopen(path, "rb");
	CHECK(f, "no capture %s; kiosk stderr:\n%s", path, test_slurp(kiosk_err));
	int max;
	CHECK(fscanf(f, "P6 %d %d %d", w, h, &max) == 3 && max == 255 && fgetc(f) != EOF,
		"%s: not a PPM", path);
	size_t size = (size_t)*w * (size_t)*h * 3;
	uint8_t *px = malloc(size);
	CHECK(px && fread(px, 1, size, f) == size, "%s: short", path);
	fclose(f);
	return px;
}

static uint32_t pixel(const uint8_t *px, int w, int x, int y)
{
	const uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 3;
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* The cursor's pixels (at x, y: its top left) in a capture, or only the background. */
static void expect_pixels(pid_t kiosk, bool cursor, int x, int y, const char *what)
{
	int w, h;
	unsigned n = captures;
	uint8_t *px = capture_frame(kiosk, &w, &h);
	uint32_t in = pixel(px, w, x + CUR / 2, y + CUR / 2);
	uint32_t beside = pixel(px, w, x + CUR + 8 < w ? x + CUR + 8 : x - 8, y + CUR / 2);
	free(px);
	printf("%s: capture %u: %06x inside the cursor's place, %06x beside it\n", what, n, in,
		beside);
	CHECK(beside == BG, "%s: %06x beside the cursor, not the background %06x", what, beside,
		BG);
	CHECK(cursor ? in == (MAGENTA & 0xffffff) : in == BG, "%s: %06x where the cursor %s",
		what, in, cursor ? "is (magenta wanted)" : "would be (background wanted)");
}

static void mouse_move(int fd, int dx, int dy, int times)
{
	for (int i = 0; i < times; i++) {
		ev(fd, EV_REL, REL_X, dx);
		ev(fd, EV_REL, REL_Y, dy);
		uinput_syn(fd);
	}
}

static void click(int fd)
{
	ev(fd, EV_KEY, BTN_LEFT, 1);
	uinput_syn(fd);
	ev(fd, EV_KEY, BTN_LEFT, 0);
	uinput_syn(fd);
}

static pid_t start_kiosk(const char *mode, const char *const *extra)
{
	unlink(ready);
	unlink(log_path);
	captures = 0;
	pid_t kiosk = fork();
	CHECK(kiosk >= 0, "fork");
	if (kiosk == 0) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		self[n > 0 ? n : 0] = 0;
		int err = open(kiosk_err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (err >= 0)
			dup2(err, 2);
		const char *argv[24];
		int a = 0;
		argv[a++] = kiosk_path;
		argv[a++] = "--capture";
		argv[a++] = cap_prefix;
		for (; *extra; extra++)
			argv[a++] = *extra;
		argv[a++] = "--";
		argv[a++] = self;
		argv[a++] = "--client";
		argv[a++] = mode;
		argv[a++] = log_path;
		argv[a++] = ready;
		argv[a] = NULL;
		execv(kiosk_path, (char **)argv);
		_exit(127);
	}
	running_kiosk = kiosk;
	for (int i = 0; access(ready, F_OK) != 0; i++) {
		CHECK(i < 1800, "the client did not map within 180 s; log:\n%s", test_slurp(log_path));
		CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited early:\n%s",
			test_slurp(kiosk_err));
		usleep(100000);
	}
	usleep(300000);
	return kiosk;
}

/* A failed check must not leave the compositor holding DRM master. */
static void kill_kiosk(void)
{
	if (running_kiosk > 0) {
		kill(running_kiosk, SIGKILL);
		waitpid(running_kiosk, NULL, 0);
	}
}

static void stop_kiosk(pid_t kiosk, const char *what)
{
	kill(kiosk, SIGTERM);
	int st;
	waitpid(kiosk, &st, 0);
	running_kiosk = 0;
	const char *err = test_slurp(kiosk_err);
	CHECK(!strstr(err, "Sanitizer"), "%s: a sanitizer report from dispman-kiosk:\n%s", what,
		err);
	CHECK(!strstr(err, "protocol error"), "%s: a protocol error:\n%s", what, err);
	printf("%s: dispman-kiosk exited (%d)\n", what, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* Moves the pointer away from the top-left corner (where libinput clamps it to 0, 0) and
 * returns the position the client was sent. */
static void move_and_read(int mouse, int dx, int dy, int times, int n_motion, pid_t kiosk,
	double *x, double *y)
{
	mouse_move(mouse, dx, dy, times);
	wait_log("ptr-motion", n_motion, kiosk);
	usleep(200000);
	last_motion(x, y);
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--client") == 0)
		return run_client(argv[2], argv[3], argv[4]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(argc == 2, "usage: wayland-cursor KIOSK");
	kiosk_path = argv[1];
	const char *out = getenv("DISPMAN_VM_OUT") ? getenv("DISPMAN_VM_OUT") : "/tmp";
	snprintf(dir, sizeof(dir), "%s/wayland-cursor", out);
	mkdir(dir, 0755);
	snprintf(log_path, sizeof(log_path), "%s/client.log", dir);
	snprintf(ready, sizeof(ready), "%s/ready", dir);
	snprintf(kiosk_err, sizeof(kiosk_err), "%s/kiosk.err", dir);
	snprintf(cap_prefix, sizeof(cap_prefix), "%s/capture", dir);
	char xdg[] = "/tmp/xdg-cursor.XXXXXX";
	CHECK(mkdtemp(xdg), "mkdtemp");
	setenv("XDG_RUNTIME_DIR", xdg, 1);
	find_cursor_planes();
	atexit(kill_kiosk);

	struct uinput_dev kb, mouse;
	uinput_create_keyboard(&kb, "wayland-cursor keyboard");
	uinput_create_mouse(&mouse, "wayland-cursor mouse");
	double x, y;

	/* 1. the client's cursor: on the cursor plane at pointer - hotspot, following it */
	const char *with_mouse[] = { "--input", kb.devnode, "--input", mouse.devnode, NULL };
	pid_t kiosk = start_kiosk("set", with_mouse);
	move_and_read(mouse.fd, -3000, -3000, 4, 1, kiosk, &x, &y);
	move_and_read(mouse.fd, 20, 15, 6, 2, kiosk, &x, &y);
	wait_log("ptr-enter", 1, kiosk);
	int cx = (int)x - HOT_X, cy = (int)y - HOT_Y;
	printf("pointer at %.3f %.3f: cursor wanted at %d %d\n", x, y, cx, cy);
	CHECK(cx > 0 && cy > 0, "the pointer did not leave the corner");
	struct plane_state st = expect_plane(true, CUR, CUR, cx, cy, "client cursor");
	if (st.fb)
		printf("cursor on plane %u (%s): fb %u %dx%d%+d%+d\n", st.plane,
			st.cursor_plane ? "cursor" : "overlay", st.fb, st.w, st.h, st.x, st.y);
	expect_pixels(kiosk, true, cx, cy, "client cursor");
	int n = test_count(test_slurp(log_path), "ptr-motion");
	move_and_read(mouse.fd, 25, 10, 6, n + 1, kiosk, &x, &y);
	int cx2 = (int)x - HOT_X, cy2 = (int)y - HOT_Y;
	CHECK(cx2 != cx || cy2 != cy, "the pointer did not move");
	expect_plane(true, CUR, CUR, cx2, cy2, "client cursor moved");
	expect_pixels(kiosk, true, cx2, cy2, "client cursor moved");
	/* set_cursor(NULL) hides it; a stale serial is ignored; a good one shows it again */
	click(mouse.fd);
	wait_log("press 1", 1, kiosk);
	expect_plane(false, 0, 0, 0, 0, "set_cursor NULL");
	expect_pixels(kiosk, false, cx2, cy2, "set_cursor NULL");
	click(mouse.fd);
	wait_log("press 2", 1, kiosk);
	usleep(1000000);
	expect_plane(false, 0, 0, 0, 0, "set_cursor with a stale serial");
	click(mouse.fd);
	wait_log("press 3", 1, kiosk);
	expect_plane(true, CUR, CUR, cx2, cy2, "set_cursor again");
	stop_kiosk(kiosk, "client cursor");

	/* 2. a client that sets none: the default cursor (its source is logged at info) */
	setenv("DISPMAN_DEBUG", "1", 1);
	kiosk = start_kiosk("none", with_mouse);
	unsetenv("DISPMAN_DEBUG");
	move_and_read(mouse.fd, -3000, -3000, 4, 1, kiosk, &x, &y);
	move_and_read(mouse.fd, 20, 15, 6, 2, kiosk, &x, &y);
	st = expect_plane(true, 0, 0, 0, 0, "default cursor");
	if (st.fb) {
		printf("default cursor: %dx%d%+d%+d, pointer %.0f %.0f\n", st.w, st.h, st.x, st.y,
			x, y);
		CHECK(st.x <= (int)x && (int)x < st.x + st.w && st.y <= (int)y &&
			(int)y < st.y + st.h, "the default cursor is not under the pointer");
	}
	const char *err = test_slurp(kiosk_err);
	CHECK(strstr(err, "cursor: "), "no log line about the default cursor:\n%s", err);
	printf("%s", strstr(err, "cursor: "));
	stop_kiosk(kiosk, "default cursor");

	/* 3. --hide-cursor: none, though the client sets one */
	const char *hidden[] = { "--input", kb.devnode, "--input", mouse.devnode, "--hide-cursor",
		NULL };
	kiosk = start_kiosk("set", hidden);
	move_and_read(mouse.fd, -3000, -3000, 4, 1, kiosk, &x, &y);
	move_and_read(mouse.fd, 20, 15, 6, 2, kiosk, &x, &y);
	wait_log("ptr-enter", 1, kiosk);
	usleep(1000000);
	expect_plane(false, 0, 0, 0, 0, "--hide-cursor");
	expect_pixels(kiosk, false, (int)x - HOT_X, (int)y - HOT_Y, "--hide-cursor");
	stop_kiosk(kiosk, "--hide-cursor");

	/* 4. a seat without a pointer device: no cursor (the pointer would be at the centre) */
	const char *keyboard_only[] = { "--input", kb.devnode, NULL };
	kiosk = start_kiosk("none", keyboard_only);
	usleep(1000000);
	expect_plane(false, 0, 0, 0, 0, "no pointer device");
	int w, h;
	uint8_t *px = capture_frame(kiosk, &w, &h);
	for (int yy = 0; yy < h; yy += 2)
		for (int xx = 0; xx < w; xx += 2)
			CHECK(pixel(px, w, xx, yy) == BG, "no pointer device: %06x at %d,%d, not the "
				"background", pixel(px, w, xx, yy), xx, yy);
	free(px);
	printf("no pointer device: only the background in the capture\n");
	stop_kiosk(kiosk, "no pointer device");

	uinput_destroy(&kb);
	uinput_destroy(&mouse);
	printf("PASS: client cursor%s at pointer - hotspot and following it, hidden by NULL, "
		"stale serial ignored, default cursor, --hide-cursor, no pointer device\n",
		plane_checks() ? " on a plane" : " (pixels only)");
	return 0;
}
