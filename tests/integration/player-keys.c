/*
 * examples/player driven by a uinput keyboard (run in the test guest):
 *
 *   player-keys PLAYER
 *
 * Writes a grey Y4M clip, starts the player with the camera PiP at 100,100
 * and the uinput node as its keyboard, presses Right x4, Down x2 (the PiP
 * moves by 16 px a key), '=' (the camera grows to 640x360), then 'p' twice
 * (hide, show) and 'q'. Checks what the player reports after each key and,
 * in the screenshot it takes through writeback on exit, that the camera's
 * pixels are at the new place and size and the grey video everywhere else.
 * Where the host can screendump the device (virtio-gpu), the player stops the
 * camera before its screenshot and takes QEMU's screendump of head 0 while that
 * frame is shown (--then): the two must be equal pixel for pixel.
 */
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uinput-dev.h"

#include "check.h"
#include "screendump.h"

static void press(int fd, uint16_t key)
{
	uinput_emit(fd, EV_KEY, key, 1);
	uinput_emit(fd, EV_SYN, SYN_REPORT, 0);
	uinput_emit(fd, EV_KEY, key, 0);
	uinput_emit(fd, EV_SYN, SYN_REPORT, 0);
}

static pid_t player_pid;
static char proc_paths[2][64]; /* the player's /proc/PID/wchan and syscall, for the alarm */

static struct timespec t_start;

static double elapsed(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t_start.tv_sec) + (double)(t.tv_nsec - t_start.tv_nsec) / 1e9;
}

/* A hung player: SIGABRT first, so that a sanitizer build prints where it is
 * (handle_abort=1 in its ASAN_OPTIONS; symbolize=0: addresses, quickly), then SIGKILL. */
static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "FAIL: timeout waiting for the player; aborting it\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	if (player_pid > 0) {
		/* where in the kernel it waits: /proc/PID/wchan and syscall */
		for (int i = 0; i < 2; i++) {
			const char *path = proc_paths[i];
			char buf[256];
			int fd = open(path, O_RDONLY);
			ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
			if (fd >= 0)
				close(fd);
			if (n > 0 && (write(2, path, strlen(path)) < 0 || write(2, ": ", 2) < 0 ||
					write(2, buf, (size_t)n) < 0 || write(2, "\n", 1) < 0))
				break;
		}
		kill(player_pid, SIGABRT);
		struct timespec wait = { .tv_sec = 30 };
		nanosleep(&wait, NULL);
		kill(player_pid, SIGKILL);
	}
	_exit(1);
}

/* Read the player's stdout until a line starting with `want`; returns it. */
static char *wait_line(FILE *f, const char *want, char *buf, size_t size)
{
	while (fgets(buf, (int)size, f)) {
		printf("[%6.1f s] %s", elapsed(), buf);
		if (strstr(buf, "no keyboard")) {
			kill(player_pid, SIGKILL);
			FAIL("the player did not take the keyboard");
		}
		if (strncmp(buf, want, strlen(want)) == 0)
			return buf;
	}
	FAIL("the player ended before printing '%s'", want);
}

static void write_clip(const char *path)
{
	FILE *f = fopen(path, "wb");
	CHECK(f, "cannot write %s", path);
	const int w = 320, h = 180;
	fprintf(f, "YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg\n", w, h);
	unsigned char *frame = malloc((size_t)w * h * 3 / 2);
	memset(frame, 128, (size_t)w * h * 3 / 2); /* Y 128, U=V 128: grey */
	for (int i = 0; i < 4; i++) {
		fputs("FRAME\n", f);
		fwrite(frame, 1, (size_t)w * h * 3 / 2, f);
	}
	free(frame);
	fclose(f);
}

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: player-keys PLAYER");
	/* line by line: the alarm's _exit() must not lose what the player printed so far */
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *out = getenv("DISPMAN_VM_OUT") ? getenv("DISPMAN_VM_OUT") : "/tmp";
	char clip[256], shot[256], screen[256], then[600], node[64], line[256];
	snprintf(clip, sizeof(clip), "/tmp/player-keys-%d.y4m", getpid());
	snprintf(shot, sizeof(shot), "%s/player-keys.ppm", out);
	snprintf(screen, sizeof(screen), "%s/player-keys-screen.ppm", out);
	unlink(screen);
	bool dump = screendump_available(getenv("DISPMAN_DEVICE"));
	if (dump)
		snprintf(then, sizeof(then), "'%s' --head 0 '%s'", getenv("DISPMAN_SCREENDUMP"),
			screen);
	printf("screendump: %s\n", dump ? "head 0 after the screenshot" :
		"not available for this device");
	write_clip(clip);

	struct uinput_dev kbd = { .fd = uinput_open() };
	int ufd = kbd.fd;
	CHECK(ioctl(ufd, UI_SET_EVBIT, EV_KEY) == 0, "UI_SET_EVBIT");
	const int keys[] = { KEY_RIGHT, KEY_DOWN, KEY_EQUAL, KEY_P, KEY_Q, KEY_A };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		CHECK(ioctl(ufd, UI_SET_KEYBIT, keys[i]) == 0, "UI_SET_KEYBIT");
	uinput_create(&kbd, "player-keys keyboard", "E:ID_INPUT_KEY=1\nE:ID_INPUT_KEYBOARD=1\n");
	snprintf(node, sizeof(node), "%s", kbd.devnode);
	printf("uinput keyboard: %s\n", node);

	int pipefd[2];
	CHECK(pipe(pipefd) == 0, "pipe");
	clock_gettime(CLOCK_MONOTONIC, &t_start);
	signal(SIGALRM, on_alarm);
	alarm(200);
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	player_pid = pid;
	snprintf(proc_paths[0], sizeof(proc_paths[0]), "/proc/%d/wchan", (int)pid);
	snprintf(proc_paths[1], sizeof(proc_paths[1]), "/proc/%d/syscall", (int)pid);
	if (pid == 0) {
		/* a sanitizer build prints its stack on the alarm's SIGABRT */
		char asan[512];
		const char *old = getenv("ASAN_OPTIONS");
		snprintf(asan, sizeof(asan), "%s%shandle_abort=1:symbolize=0", old ? old : "", old ? ":" : "");
		setenv("ASAN_OPTIONS", asan, 1);
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		close(pipefd[1]);
		if (dump)
			execl(argv[1], argv[1], "--input", node, "--pip", "100,100", "--screenshot",
				shot, "--then", then, "--loop", clip, (char *)NULL);
		else
			execl(argv[1], argv[1], "--input", node, "--pip", "100,100", "--screenshot",
				shot, "--loop", clip, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	FILE *pf = fdopen(pipefd[0], "r");
	wait_line(pf, "player: ready", line, sizeof(line));

	for (int i = 0; i < 4; i++) {
		press(ufd, KEY_RIGHT);
		wait_line(pf, "player: pip", line, sizeof(line));
	}
	CHECK(strstr(line, "pip 164,100 320x180 visible"), "after 4 x Right: %s", line);
	for (int i = 0; i < 2; i++) {
		press(ufd, KEY_DOWN);
		wait_line(pf, "player: pip", line, sizeof(line));
	}
	CHECK(strstr(line, "pip 164,132 320x180 visible"), "after 2 x Down: %s", line);
	press(ufd, KEY_EQUAL);
	wait_line(pf, "player: pip", line, sizeof(line));
	CHECK(strstr(line, "pip 164,132 640x360 visible"), "after '=': %s", line);
	press(ufd, KEY_P);
	wait_line(pf, "player: pip", line, sizeof(line));
	CHECK(strstr(line, "hidden"), "after 'p': %s", line);
	press(ufd, KEY_P);
	wait_line(pf, "player: pip", line, sizeof(line));
	CHECK(strstr(line, "visible"), "after 'p' again: %s", line);
	sleep(2); /* let new camera frames reach the screen */
	press(ufd, KEY_Q);
	wait_line(pf, "player: screenshot written", line, sizeof(line));
	while (fgets(line, sizeof(line), pf))
		fputs(line, stdout);
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "player exit status %d", status);
	uinput_destroy(&kbd);
	unlink(clip);

	/* The screenshot (binary PPM): camera pixels in 164,132 640x360, grey outside. */
	FILE *f = fopen(shot, "rb");
	CHECK(f, "no screenshot %s", shot);
	int w, h, max;
	CHECK(fscanf(f, "P6 %d %d %d", &w, &h, &max) == 3 && fgetc(f) != EOF, "PPM header");
	unsigned char *px = malloc((size_t)w * h * 3);
	CHECK(fread(px, 3, (size_t)w * h, f) == (size_t)w * h, "PPM data");
	fclose(f);
	long inside = 0, inside_grey = 0, outside = 0, outside_grey = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const unsigned char *c = px + ((size_t)y * w + x) * 3;
			/* BT.601 limited: Y 128 -> 130 in RGB, within rounding */
			bool grey = abs(c[0] - 130) <= 2 && abs(c[1] - 130) <= 2 && abs(c[2] - 130) <= 2;
			bool in = x >= 164 && x < 164 + 640 && y >= 132 && y < 132 + 360;
			if (in) {
				inside++;
				inside_grey += grey;
			} else {
				outside++;
				outside_grey += grey;
			}
		}
	free(px);
	printf("screenshot %dx%d: outside the PiP %ld of %ld pixels grey; inside %ld of %ld\n",
		w, h, outside_grey, outside, inside_grey, inside);
	/* The video is scaled to fit (letterboxed: black bars), so only part
	 * of the outside is grey; none of it may be the camera. The camera's
	 * rectangle must hold vivid's pattern, not the grey video. */
	CHECK(inside_grey < inside / 20, "the PiP rectangle shows the video, not the camera");
	CHECK(outside_grey > outside / 2, "the video is not around the PiP");
	if (dump)
		CHECK(ppm_compare_files(screen, shot, 0, 0, 0, 0) == 0,
			"the screenshot is not what head 0 shows");
	printf("PASS\n");
	return 0;
}
