/* SPDX-License-Identifier: MIT */
/*
 * kiosk: a full-screen touch UI on libdispman, drawn by the CPU into dumb buffers.
 *
 * Three buttons toggle when tapped, clicked or chosen with the keyboard (1, 2, 3; Tab or
 * arrows move the focus, Enter or Space toggles the focused one; Escape or q quits). A bar
 * slides along the top every frame; a hardware cursor (a cursor layer moved by
 * dispman_input) follows the mouse. The app draws one frame per page flip into whichever
 * of its two buffers the display released, survives the output being unplugged and
 * plugged again (the library disables and restores it; the app just waits), and another
 * process taking DRM master (the library pauses and restores by itself).
 *
 * Usage: kiosk [--device PATH] [--input EVENT_NODE]... [--frames N] [--quit-after-press N]
 *              [--screenshot FILE]...
 *   --input          use libinput's path backend on these nodes (default: the udev seat
 *                    backend, when udevd runs)
 *   --frames N       quit after N frames reached the screen
 *   --quit-after-press N  quit (two frames later) after the Nth button press
 *   --screenshot F   before quitting, capture the screen through writeback into F (.png or
 *                    PPM); may be given more than once
 *
 * For tests, every UI event prints one line on stdout starting with "kiosk: ", e.g.
 * "kiosk: button 2 pressed (touch)" and "kiosk: button 2 on"; "kiosk: ready" gives the
 * output size and each button's rectangle.
 */
#include <dispman/dispman.h>
#include <dispman/input.h>

#include "image.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <linux/input-event-codes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_BUTTONS 3
#define MAX_INPUTS 16
#define MAX_SHOTS 4
#define CURSOR_SIZE 32

#define COLOR_BG 0x00101820u
#define COLOR_BAR 0x00283848u
#define COLOR_SLIDER 0x00e0a020u
#define COLOR_OFF 0x00404858u
#define COLOR_ON 0x0020c060u
#define COLOR_FOCUS 0x00ffffffu
#define COLOR_MARK 0x00f0f0f0u

struct rect {
	int x, y, w, h;
};

struct kiosk {
	struct dispman_device *dev;
	struct dispman_output *out;
	struct dispman_input *input;
	uint32_t width, height;
	struct dispman_buffer *bufs[2];
	bool busy[2];          /* handed to the display and not released yet */
	int current;           /* index of the buffer last given to the output, -1: none */
	struct dispman_buffer *cursor_buf;
	struct dispman_layer *cursor;

	struct rect buttons[N_BUTTONS];
	bool on[N_BUTTONS];
	int focus;
	unsigned presses;

	bool frame_due;        /* the last frame reached the screen: draw the next one */
	bool waiting;          /* a frame is in flight, or commits are paused */
	unsigned frames;       /* frames that reached the screen */
	unsigned anim;         /* animation step, one per drawn frame */
	bool quit;
	unsigned quit_in;      /* frames left before quitting, 0: not quitting yet */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void fill(uint32_t *px, uint32_t stride_px, uint32_t w, uint32_t h, struct rect r,
	uint32_t color)
{
	int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
	int x1 = r.x + r.w > (int)w ? (int)w : r.x + r.w;
	int y1 = r.y + r.h > (int)h ? (int)h : r.y + r.h;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			px[(size_t)y * stride_px + (size_t)x] = color;
}

static void layout(struct kiosk *k)
{
	int w = (int)k->width, h = (int)k->height;
	int bw = w / 4, gap = w / 16, bh = h / 5;
	int x0 = (w - (N_BUTTONS * bw + (N_BUTTONS - 1) * gap)) / 2;
	for (int i = 0; i < N_BUTTONS; i++)
		k->buttons[i] = (struct rect){ x0 + i * (bw + gap), h / 2 + h / 20, bw, bh };
	printf("kiosk: ready %ux%u", k->width, k->height);
	for (int i = 0; i < N_BUTTONS; i++)
		printf(" button%d=%d,%d,%d,%d", i + 1, k->buttons[i].x, k->buttons[i].y,
			k->buttons[i].w, k->buttons[i].h);
	printf("\n");
}

static void draw(struct kiosk *k, struct dispman_buffer *buf)
{
	void *data;
	uint32_t stride;
	if (dispman_buffer_map(buf, &data, &stride) < 0)
		return;
	uint32_t *px = data;
	uint32_t sp = stride / 4, w = k->width, h = k->height;
	fill(px, sp, w, h, (struct rect){ 0, 0, (int)w, (int)h }, COLOR_BG);
	/* the animation: a block sliding along the top bar */
	int bar_h = (int)h / 10;
	fill(px, sp, w, h, (struct rect){ 0, 0, (int)w, bar_h }, COLOR_BAR);
	int slider = (int)h / 8;
	int pos = (int)((k->anim * 8u) % (w + (unsigned)slider)) - slider;
	fill(px, sp, w, h, (struct rect){ pos, bar_h / 4, slider, bar_h / 2 }, COLOR_SLIDER);
	for (int i = 0; i < N_BUTTONS; i++) {
		struct rect r = k->buttons[i];
		if (i == k->focus)
			fill(px, sp, w, h, (struct rect){ r.x - 6, r.y - 6, r.w + 12, r.h + 12 },
				COLOR_FOCUS);
		fill(px, sp, w, h, r, k->on[i] ? COLOR_ON : COLOR_OFF);
		/* i + 1 marks tell the buttons apart */
		int m = r.h / 8;
		for (int j = 0; j <= i; j++)
			fill(px, sp, w, h, (struct rect){ r.x + m + j * 2 * m, r.y + m, m, m },
				COLOR_MARK);
	}
}

static void on_release(struct dispman_buffer *buf, void *data)
{
	struct kiosk *k = data;
	for (int i = 0; i < 2; i++)
		if (k->bufs[i] == buf)
			k->busy[i] = false;
}

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	struct kiosk *k = data;
	k->frames++;
	k->waiting = false;
	k->frame_due = true;
}

static void free_buffers(struct kiosk *k)
{
	for (int i = 0; i < 2; i++) {
		dispman_buffer_unref(k->bufs[i]);
		k->bufs[i] = NULL;
		k->busy[i] = false;
	}
	k->current = -1;
}

static int make_buffers(struct kiosk *k)
{
	const struct dispman_mode *mode = dispman_output_get_current_mode(k->out);
	if (!mode)
		return -EINVAL;
	if (k->bufs[0] && mode->width == k->width && mode->height == k->height)
		return 0;
	dispman_output_set_buffer(k->out, NULL);
	free_buffers(k);
	k->width = mode->width;
	k->height = mode->height;
	for (int i = 0; i < 2; i++) {
		k->bufs[i] = dispman_buffer_create_dumb(k->dev, k->width, k->height,
			DRM_FORMAT_XRGB8888);
		if (!k->bufs[i])
			return -errno;
		dispman_buffer_set_release_callback(k->bufs[i], on_release, k);
	}
	layout(k);
	return 0;
}

/* Draw and commit the next frame into a buffer the display does not read. */
static void next_frame(struct kiosk *k)
{
	if (!dispman_output_is_enabled(k->out) || k->waiting)
		return;
	int i = k->current == 0 ? 1 : 0;
	if (k->busy[i])
		return; /* the display still reads it: the next release brings us back */
	k->anim++;
	draw(k, k->bufs[i]);
	dispman_output_set_buffer(k->out, k->bufs[i]);
	int ret = dispman_device_commit(k->dev);
	k->frame_due = false;
	k->current = i;
	k->busy[i] = true;
	/* -EACCES: paused (another master); the library restores this state itself and a
	 * frame callback follows. Other errors are logged by the library. */
	k->waiting = ret == 0 || ret == -EACCES;
	if (ret == -EACCES && !dispman_device_is_paused(k->dev))
		k->waiting = false;
	if (ret < 0 && ret != -EACCES)
		fprintf(stderr, "kiosk: commit failed: %s\n", strerror(-ret));
}

static void toggle(struct kiosk *k, int i, const char *how)
{
	k->focus = i;
	k->on[i] = !k->on[i];
	k->presses++;
	printf("kiosk: button %d pressed (%s)\n", i + 1, how);
	printf("kiosk: button %d %s\n", i + 1, k->on[i] ? "on" : "off");
}

static int hit(struct kiosk *k, double x, double y)
{
	for (int i = 0; i < N_BUTTONS; i++) {
		struct rect r = k->buttons[i];
		if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h)
			return i;
	}
	return -1;
}

static void on_input(struct dispman_input *input, const struct dispman_input_event *ev,
	void *data)
{
	struct kiosk *k = data;
	int i;
	switch (ev->type) {
	case DISPMAN_INPUT_DEVICE_ADDED:
		printf("kiosk: input device %s (%s)\n", ev->device_sysname, ev->device_name);
		break;
	case DISPMAN_INPUT_TOUCH_DOWN:
		i = hit(k, ev->x, ev->y);
		printf("kiosk: touch %.0f,%.0f\n", ev->x, ev->y);
		if (i >= 0)
			toggle(k, i, "touch");
		break;
	case DISPMAN_INPUT_POINTER_BUTTON:
		if (ev->state != DISPMAN_INPUT_PRESSED || ev->button != BTN_LEFT)
			break;
		i = hit(k, ev->x, ev->y);
		printf("kiosk: click %.0f,%.0f\n", ev->x, ev->y);
		if (i >= 0)
			toggle(k, i, "pointer");
		break;
	case DISPMAN_INPUT_KEY:
		if (ev->state != DISPMAN_INPUT_PRESSED)
			break;
		if (ev->key >= KEY_1 && ev->key < KEY_1 + N_BUTTONS) {
			toggle(k, (int)(ev->key - KEY_1), "key");
		} else if (ev->key == KEY_TAB || ev->key == KEY_RIGHT) {
			k->focus = (k->focus + 1) % N_BUTTONS;
			printf("kiosk: focus %d\n", k->focus + 1);
		} else if (ev->key == KEY_LEFT) {
			k->focus = (k->focus + N_BUTTONS - 1) % N_BUTTONS;
			printf("kiosk: focus %d\n", k->focus + 1);
		} else if (ev->key == KEY_ENTER || ev->key == KEY_SPACE) {
			toggle(k, k->focus, "key");
		} else if (ev->key == KEY_ESC || ev->key == KEY_Q) {
			printf("kiosk: quit (key)\n");
			k->quit = true;
		}
		break;
	default:
		break;
	}
}

static void on_output(struct dispman_device *dev, struct dispman_output *out,
	enum dispman_output_event event, void *data)
{
	struct kiosk *k = data;
	if (out != k->out)
		return;
	static const char *const names[] = { "?", "connected", "disconnected", "changed" };
	printf("kiosk: output %s %s\n", dispman_output_get_name(out), names[event]);
	if (!dispman_output_is_enabled(out)) {
		k->waiting = false; /* the library turned it off: nothing is in flight for us */
		return;
	}
	/* Enabled again by the library with our last buffer: that one is on screen now. */
	const struct dispman_mode *mode = dispman_output_get_current_mode(out);
	if (mode->width != k->width || mode->height != k->height) {
		if (make_buffers(k) < 0)
			k->quit = true;
		k->waiting = false;
		return;
	}
	if (k->current >= 0)
		k->busy[k->current] = true;
	k->waiting = true; /* the restoring commit's flip calls on_frame */
}

static void make_cursor(struct kiosk *k)
{
	k->cursor_buf = dispman_buffer_create_dumb(k->dev, CURSOR_SIZE, CURSOR_SIZE,
		DRM_FORMAT_ARGB8888);
	if (!k->cursor_buf)
		return;
	void *data;
	uint32_t stride;
	dispman_buffer_map(k->cursor_buf, &data, &stride);
	/* an arrow: a white triangle with a dark edge, transparent elsewhere */
	for (int y = 0; y < CURSOR_SIZE; y++) {
		uint32_t *row = (uint32_t *)(void *)((char *)data + (size_t)y * stride);
		for (int x = 0; x < CURSOR_SIZE; x++) {
			bool inside = x <= y / 2 + y / 4 && y < CURSOR_SIZE - 4;
			bool edge = inside && (x == 0 || x == y / 2 + y / 4 || y == CURSOR_SIZE - 5);
			row[x] = !inside ? 0 : edge ? 0xff000000u : 0xffffffffu;
		}
	}
	k->cursor = dispman_layer_create(k->out);
	if (!k->cursor)
		return;
	dispman_layer_set_buffer(k->cursor, k->cursor_buf);
	dispman_layer_set_z(k->cursor, 1000);
	if (k->input)
		dispman_input_set_cursor_layer(k->input, k->cursor, 0, 0);
	else
		dispman_layer_set_visible(k->cursor, false);
}

static int screenshot(struct kiosk *k, const char *const *paths, size_t n)
{
	if (n == 0)
		return 0;
	struct dispman_buffer *frame = NULL;
	int ret = dispman_output_capture(k->out, &frame);
	if (ret < 0) {
		fprintf(stderr, "kiosk: capture failed: %s\n", strerror(-ret));
		return 1;
	}
	int status = 0;
	for (size_t i = 0; i < n; i++) {
		if (image_write(frame, paths[i]) < 0) {
			fprintf(stderr, "kiosk: cannot write %s\n", paths[i]);
			status = 1;
		} else {
			printf("kiosk: screenshot %s\n", paths[i]);
		}
	}
	dispman_buffer_unref(frame);
	return status;
}

static void usage(void)
{
	fprintf(stderr, "usage: kiosk [--device PATH] [--input EVENT_NODE]... [--frames N] "
		"[--quit-after-press N] [--screenshot FILE]...\n");
}

int main(int argc, char **argv)
{
	const char *device = NULL;
	const char *inputs[MAX_INPUTS];
	size_t n_inputs = 0;
	const char *shots[MAX_SHOTS];
	size_t n_shots = 0;
	unsigned max_frames = 0, quit_after = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--device") && v)
			device = argv[++i];
		else if (!strcmp(a, "--input") && v && n_inputs < MAX_INPUTS)
			inputs[n_inputs++] = argv[++i];
		else if (!strcmp(a, "--screenshot") && v && n_shots < MAX_SHOTS)
			shots[n_shots++] = argv[++i];
		else if (!strcmp(a, "--frames") && v)
			max_frames = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(a, "--quit-after-press") && v)
			quit_after = (unsigned)strtoul(argv[++i], NULL, 10);
		else {
			usage();
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	struct kiosk k = { .current = -1 };
	k.dev = dispman_device_open(device);
	if (!k.dev)
		return 1;
	k.out = dispman_device_get_first_connected_output(k.dev);
	if (!k.out || dispman_output_enable(k.out, NULL) < 0 || make_buffers(&k) < 0) {
		dispman_device_destroy(k.dev);
		return 1;
	}
	dispman_output_set_frame_callback(k.out, on_frame, &k);
	dispman_device_set_output_callback(k.dev, on_output, &k);

	k.input = n_inputs ? dispman_input_create_path(k.dev, inputs, n_inputs) :
		dispman_input_create_udev(k.dev, NULL);
	if (k.input) {
		dispman_input_set_callback(k.input, on_input, &k);
		dispman_input_set_output(k.input, k.out);
	} else {
		fprintf(stderr, "kiosk: no input (%s), display only\n", strerror(errno));
		if (n_inputs)
			return 1;
	}
	make_cursor(&k);
	k.frame_due = true;

	while (!k.quit && !stop_signal) {
		if (k.frame_due)
			next_frame(&k);
		int n = dispman_device_dispatch(k.dev, 100);
		if (n < 0) {
			fprintf(stderr, "kiosk: dispatch failed: %s\n", strerror(-n));
			break;
		}
		if (max_frames && k.frames >= max_frames) {
			printf("kiosk: %u frames\n", k.frames);
			k.quit = true;
		}
		if (quit_after && k.presses >= quit_after && !k.quit_in) {
			k.quit_in = k.frames + 2; /* let the new state reach the screen */
		}
		if (k.quit_in && k.frames >= k.quit_in)
			k.quit = true;
	}
	struct dispman_stats st;
	dispman_device_get_stats(k.dev, &st);
	struct dispman_output_stats os;
	dispman_output_get_stats(k.out, &os);
	printf("kiosk: done: %u frames, %llu missed vblanks, %llu late frames, %llu modesets\n",
		k.frames, (unsigned long long)os.missed_vblanks,
		(unsigned long long)os.late_frames, (unsigned long long)st.modesets);
	int status = screenshot(&k, shots, n_shots);

	dispman_input_destroy(k.input);
	dispman_layer_destroy(k.cursor);
	dispman_buffer_unref(k.cursor_buf);
	free_buffers(&k);
	dispman_device_destroy(k.dev);
	return status;
}
