/* SPDX-License-Identifier: MIT */
/*
 * examples/kiosk driven by uinput: a touchscreen taps button 2, a keyboard presses "3";
 * the kiosk must report both presses, then quits and captures the screen through
 * writeback. In that screenshot buttons 2 and 3 must show the "on" colour, button 1 the
 * "off" colour, and the hardware cursor must be where the pointer is (the centre).
 *
 * Usage: kiosk-tap PATH-TO-KIOSK [KIOSK-ARGS...]: the extra arguments go to the kiosk; with
 * "--render gl" (cpu) among them the kiosk must say it renders with GLES (the CPU). Needs
 * root and /dev/uinput. The PNG goes to $DISPMAN_VM_OUT/kiosk.png when that is set (it
 * comes back to the host). Where the host can screendump the device (virtio-gpu), the
 * kiosk takes QEMU's screendump of head 0 (its output) while its last frame is shown
 * (--then) and that must equal the screenshot pixel for pixel, except the 32x32 cursor at
 * the pointer: QEMU draws virtio-gpu's cursor plane in its window, not in the screendump.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <linux/uinput.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "screendump.h"
#include "uinput-dev.h"

#define ABS_MAX_VALUE 4095
#define COLOR_OFF 0x404858u
#define COLOR_ON 0x20c060u
#define CURSOR_SIZE 32 /* examples/kiosk/ui.c */

static void ctl(int fd, unsigned long req, long arg)
{
	if (ioctl(fd, req, arg) < 0)
		FAIL("uinput ioctl %#lx: %s", req, strerror(errno));
}

static void create(struct uinput_dev *u, const char *name, const char *props)
{
	uinput_create(u, name, props);
	printf("uinput: %s is %s\n", name, u->devnode);
}

static void emit(struct uinput_dev *u, int type, int code, int value)
{
	uinput_emit(u->fd, (unsigned)type, (unsigned)code, value);
}

static void make_touch(struct uinput_dev *u)
{
	u->fd = uinput_open();
	ctl(u->fd, UI_SET_EVBIT, EV_KEY);
	ctl(u->fd, UI_SET_EVBIT, EV_ABS);
	ctl(u->fd, UI_SET_KEYBIT, BTN_TOUCH);
	ctl(u->fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
	static const int codes[] = { ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TRACKING_ID,
		ABS_MT_POSITION_X, ABS_MT_POSITION_Y };
	static const int max[] = { ABS_MAX_VALUE, ABS_MAX_VALUE, 9, 65535, ABS_MAX_VALUE,
		ABS_MAX_VALUE };
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		struct uinput_abs_setup a = { .code = (unsigned short)codes[i] };
		a.absinfo.maximum = max[i];
		a.absinfo.resolution = codes[i] == ABS_MT_SLOT || codes[i] == ABS_MT_TRACKING_ID ?
			0 : 10;
		ctl(u->fd, UI_SET_ABSBIT, codes[i]);
		CHECK(ioctl(u->fd, UI_ABS_SETUP, &a) == 0, "UI_ABS_SETUP");
	}
	create(u, "kiosk-test touchscreen", "E:ID_INPUT_TOUCHSCREEN=1\n");
}

static void make_keyboard(struct uinput_dev *u)
{
	u->fd = uinput_open();
	ctl(u->fd, UI_SET_EVBIT, EV_KEY);
	for (int key = KEY_ESC; key <= KEY_KPDOT; key++)
		ctl(u->fd, UI_SET_KEYBIT, key);
	create(u, "kiosk-test keyboard", "E:ID_INPUT_KEY=1\nE:ID_INPUT_KEYBOARD=1\n");
}

static void make_mouse(struct uinput_dev *u)
{
	u->fd = uinput_open();
	ctl(u->fd, UI_SET_EVBIT, EV_KEY);
	ctl(u->fd, UI_SET_EVBIT, EV_REL);
	ctl(u->fd, UI_SET_KEYBIT, BTN_LEFT);
	ctl(u->fd, UI_SET_RELBIT, REL_X);
	ctl(u->fd, UI_SET_RELBIT, REL_Y);
	create(u, "kiosk-test mouse", "E:ID_INPUT_MOUSE=1\n");
}

static FILE *kiosk_out;
static pid_t kiosk_pid;

static void kill_kiosk(void)
{
	if (kiosk_pid > 0)
		kill(kiosk_pid, SIGKILL);
}

/* Read kiosk lines until one starts with prefix (copied into line); fail at EOF. */
static void expect_line(const char *prefix, char *line, size_t size)
{
	while (fgets(line, (int)size, kiosk_out)) {
		printf("  | %s", line);
		if (strncmp(line, prefix, strlen(prefix)) == 0)
			return;
	}
	FAIL("kiosk ended before printing \"%s\"", prefix);
}

/* A binary PPM (P6, maxval 255) as 0xRRGGBB pixels. */
static uint32_t *read_ppm(const char *path, unsigned *w, unsigned *h)
{
	FILE *f = fopen(path, "rb");
	CHECK(f, "%s: %s", path, strerror(errno));
	unsigned maxval;
	CHECK(fscanf(f, "P6 %u %u %u", w, h, &maxval) == 3 && maxval == 255, "%s: not a PPM",
		path);
	fgetc(f);
	size_t n = (size_t)*w * *h;
	uint32_t *px = malloc(n * sizeof(*px));
	unsigned char *rgb = malloc(n * 3);
	CHECK(px && rgb, "out of memory");
	CHECK(fread(rgb, 3, n, f) == n, "%s: short", path);
	for (size_t i = 0; i < n; i++)
		px[i] = (uint32_t)rgb[3 * i] << 16 | (uint32_t)rgb[3 * i + 1] << 8 | rgb[3 * i + 2];
	free(rgb);
	fclose(f);
	return px;
}

/* Under ASan with leak detection (scripts/test), Mesa's DRI driver and libgbm leave a few
 * allocations of their own at exit: LeakSanitizer skips those (and only those) when the
 * kiosk may render with GL. The kiosk's own allocations are still checked. */
static void suppress_mesa_leaks(void)
{
	static const char path[] = "/tmp/kiosk-tap-lsan.supp";
	FILE *f = fopen(path, "w");
	CHECK(f, "%s: %s", path, strerror(errno));
	fputs("leak:_dri.so\nleak:libgbm.so\n", f);
	CHECK(fclose(f) == 0, "%s: %s", path, strerror(errno));
	char opts[1024];
	const char *old = getenv("LSAN_OPTIONS");
	snprintf(opts, sizeof(opts), "%s%ssuppressions=%s", old ? old : "", old && *old ? ":" : "",
		path);
	CHECK(setenv("LSAN_OPTIONS", opts, 1) == 0, "setenv");
}

int main(int argc, char **argv)
{
	CHECK(argc >= 2, "usage: kiosk-tap PATH-TO-KIOSK [KIOSK-ARGS...]");
	bool want_gl = false, want_cpu = false;
	for (int i = 2; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--render")) {
			want_gl = !strcmp(argv[i + 1], "gl");
			want_cpu = !strcmp(argv[i + 1], "cpu");
		}
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct uinput_dev touch, kbd, mouse;
	make_touch(&touch);
	make_keyboard(&kbd);
	make_mouse(&mouse);

	const char *ppm = want_gl ? "/tmp/kiosk-tap-gl.ppm" : "/tmp/kiosk-tap.ppm";
	char png[512];
	const char *out_dir = getenv("DISPMAN_VM_OUT");
	snprintf(png, sizeof(png), "%s/kiosk%s.png", out_dir ? out_dir : "/tmp",
		want_gl ? "-gl" : "");
	if (!want_cpu)
		suppress_mesa_leaks(); /* GL, or auto: GL when it initialises */
	bool dump = screendump_available(getenv("DISPMAN_DEVICE"));
	char screen[512], then[1200];
	snprintf(screen, sizeof(screen), "%s/kiosk%s-screen.ppm", out_dir ? out_dir : "/tmp",
		want_gl ? "-gl" : "");
	unlink(screen);
	if (dump)
		snprintf(then, sizeof(then), "'%s' --head 0 '%s'", getenv("DISPMAN_SCREENDUMP"),
			screen);
	printf("screendump: %s\n", dump ? "head 0 after the screenshot" :
		"not available for this device");
	int pipefd[2];
	CHECK(pipe(pipefd) == 0, "pipe");
	kiosk_pid = fork();
	CHECK(kiosk_pid >= 0, "fork");
	if (kiosk_pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		close(pipefd[1]);
		char *args[32] = { argv[1], "--input", touch.devnode, "--input", kbd.devnode,
			"--input", mouse.devnode, "--quit-after-press", "2", "--frames", "100000",
			"--screenshot", (char *)ppm, "--screenshot", png };
		size_t n = 15;
		if (dump) {
			args[n++] = "--then";
			args[n++] = then;
		}
		for (int i = 2; i < argc && n + 1 < sizeof(args) / sizeof(args[0]); i++)
			args[n++] = argv[i];
		args[n] = NULL;
		execv(argv[1], args);
		_exit(127);
	}
	atexit(kill_kiosk);
	close(pipefd[1]);
	kiosk_out = fdopen(pipefd[0], "r");
	CHECK(kiosk_out, "fdopen");

	char line[512];
	expect_line("kiosk: rendering with", line, sizeof(line));
	if (want_gl)
		CHECK(strncmp(line, "kiosk: rendering with GLES", 26) == 0,
			"asked for GL, the kiosk says: %s", line);
	if (want_cpu)
		CHECK(strcmp(line, "kiosk: rendering with the CPU\n") == 0,
			"asked for the CPU, the kiosk says: %s", line);
	expect_line("kiosk: ready", line, sizeof(line));
	unsigned w, h;
	int bx[3], by[3], bw[3], bh[3];
	CHECK(sscanf(line, "kiosk: ready %ux%u button1=%d,%d,%d,%d button2=%d,%d,%d,%d "
		"button3=%d,%d,%d,%d", &w, &h, &bx[0], &by[0], &bw[0], &bh[0], &bx[1], &by[1],
		&bw[1], &bh[1], &bx[2], &by[2], &bw[2], &bh[2]) == 14, "bad ready line");
	for (int i = 0; i < 3; i++)
		expect_line("kiosk: input device", line, sizeof(line));
	usleep(300000); /* a few frames of the idle UI */

	/* Tap the centre of button 2. */
	int cx = bx[1] + bw[1] / 2, cy = by[1] + bh[1] / 2;
	int ax = (int)((long)cx * (ABS_MAX_VALUE + 1) / (long)w);
	int ay = (int)((long)cy * (ABS_MAX_VALUE + 1) / (long)h);
	printf("tap at %d,%d (abs %d,%d)\n", cx, cy, ax, ay);
	emit(&touch, EV_ABS, ABS_MT_SLOT, 0);
	emit(&touch, EV_ABS, ABS_MT_TRACKING_ID, 1);
	emit(&touch, EV_ABS, ABS_MT_POSITION_X, ax);
	emit(&touch, EV_ABS, ABS_MT_POSITION_Y, ay);
	emit(&touch, EV_KEY, BTN_TOUCH, 1);
	emit(&touch, EV_ABS, ABS_X, ax);
	emit(&touch, EV_ABS, ABS_Y, ay);
	emit(&touch, EV_SYN, SYN_REPORT, 0);
	emit(&touch, EV_ABS, ABS_MT_TRACKING_ID, -1);
	emit(&touch, EV_KEY, BTN_TOUCH, 0);
	emit(&touch, EV_SYN, SYN_REPORT, 0);
	expect_line("kiosk: button", line, sizeof(line));
	CHECK(strcmp(line, "kiosk: button 2 pressed (touch)\n") == 0, "tap gave: %s", line);
	expect_line("kiosk: button", line, sizeof(line));
	CHECK(strcmp(line, "kiosk: button 2 on\n") == 0, "state: %s", line);

	/* The keyboard's "3". */
	emit(&kbd, EV_KEY, KEY_3, 1);
	emit(&kbd, EV_SYN, SYN_REPORT, 0);
	emit(&kbd, EV_KEY, KEY_3, 0);
	emit(&kbd, EV_SYN, SYN_REPORT, 0);
	expect_line("kiosk: button", line, sizeof(line));
	CHECK(strcmp(line, "kiosk: button 3 pressed (key)\n") == 0, "key gave: %s", line);

	expect_line("kiosk: screenshot", line, sizeof(line));
	expect_line("kiosk: screenshot", line, sizeof(line));
	while (fgets(line, sizeof(line), kiosk_out))
		printf("  | %s", line);
	int status;
	CHECK(waitpid(kiosk_pid, &status, 0) == kiosk_pid, "waitpid");
	kiosk_pid = 0;
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "kiosk exit status %#x", status);

	/* The screenshot: buttons by their lower halves (the marks are at the top). */
	unsigned pw, ph;
	uint32_t *px = read_ppm(ppm, &pw, &ph);
	CHECK(pw == w && ph == h, "screenshot %ux%u, screen %ux%u", pw, ph, w, h);
	static const uint32_t want[3] = { COLOR_OFF, COLOR_ON, COLOR_ON };
	size_t wrong = 0, checked = 0;
	for (int i = 0; i < 3; i++)
		for (int y = by[i] + bh[i] / 2; y < by[i] + bh[i]; y += 2)
			for (int x = bx[i]; x < bx[i] + bw[i]; x += 2) {
				checked++;
				if (px[(size_t)y * w + (size_t)x] != want[i] && wrong++ < 5)
					fprintf(stderr, "button %d pixel %d,%d = %06x, expected %06x\n",
						i + 1, x, y, px[(size_t)y * w + (size_t)x], want[i]);
			}
	/* The cursor (pointer at the centre, hot spot 0,0): white inside its arrow. */
	uint32_t cursor_px = px[(size_t)(h / 2 + 16) * w + w / 2 + 4];
	printf("screenshot: %zu button pixels checked, %zu wrong; cursor pixel %06x\n", checked,
		wrong, cursor_px);
	CHECK(wrong == 0, "buttons on screen do not show the taps");
	CHECK(cursor_px == 0xffffffu, "no cursor at the pointer position");
	free(px);
	if (dump) {
		long differ = ppm_compare_files(screen, ppm, w / 2, h / 2, CURSOR_SIZE, CURSOR_SIZE);
		CHECK(differ == 0, "the screenshot is not what head 0 shows");
	}
	printf("PASS kiosk-tap (screenshot %s)\n", png);
	return 0;
}
