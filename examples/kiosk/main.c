/* SPDX-License-Identifier: MIT */
/*
 * kiosk: a full-screen touch UI on libdispman, drawn with GLES on GBM when EGL can drive the
 * device (Mesa's kms_swrast does on vkms), else by the CPU into dumb buffers.
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
 *              [--screenshot FILE]... [--then CMD] [--render cpu|gl|auto]
 *   --device PATH    the KMS device (default: dispman_device_open(NULL): $DISPMAN_DEVICE,
 *                    then the first card with a connected connector)
 *   --input          use libinput's path backend on these nodes (default: the udev seat
 *                    backend, when udevd runs)
 *   --frames N       quit after N frames reached the screen
 *   --quit-after-press N  quit (two frames later) after the Nth button press
 *   --screenshot F   before quitting, capture the screen through writeback into F (.png or
 *                    PPM); may be given more than once
 *   --then CMD       after the screenshots, run the shell command CMD while the last frame
 *                    is still shown (a test's screendump); its failure fails the kiosk
 *   --render R       cpu: dumb buffers; gl: GLES through EGL on GBM (fail without it);
 *                    auto (default): GL when EGL on GBM initialises, else the CPU
 *
 * The GL path (paint-gl.c) draws the same rectangles as the CPU path (paint-cpu.c) with
 * glScissor + glClear only, so both give the same pixels; ui.c has the UI, this file the
 * command line, the device and the frame loop.
 *
 * For tests, every UI event prints one line on stdout starting with "kiosk: ", e.g.
 * "kiosk: button 2 pressed (touch)" and "kiosk: button 2 on"; "kiosk: ready" gives the
 * output size and each button's rectangle.
 */
#include "kiosk.h"

#include "image.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUTS 16
#define MAX_SHOTS 4

enum render { RENDER_AUTO, RENDER_CPU, RENDER_GL };

struct options {
	const char *device;
	const char *inputs[MAX_INPUTS];
	size_t n_inputs;
	const char *shots[MAX_SHOTS];
	size_t n_shots;
	const char *then;
	unsigned max_frames, quit_after;
	enum render render;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	struct kiosk *k = data;
	k->frames++;
	k->waiting = false;
	k->frame_due = true;
}

/* Buffers (or the GL surface) of the output's current mode size. */
static int make_buffers(struct kiosk *k)
{
	const struct dispman_mode *mode = dispman_output_get_current_mode(k->out);
	if (!mode)
		return -EINVAL;
	if (k->have_buffers && mode->width == k->width && mode->height == k->height)
		return 0;
	dispman_output_set_buffer(k->out, NULL);
	k->have_buffers = false;
	k->width = mode->width;
	k->height = mode->height;
	int ret = 0;
#ifdef KIOSK_HAVE_GL
	if (k->use_gl) {
		if (k->gl.width != k->width || k->gl.height != k->height) {
			gl_fini(k);
			if (gl_init(k, k->width, k->height) < 0)
				return -EIO;
		}
	} else
#endif
	{
		ret = cpu_make_buffers(k);
		if (ret < 0)
			return ret;
	}
	k->have_buffers = true;
	ui_layout(k);
	return 0;
}

/* Draw and commit the next frame into a buffer the display does not read. */
static void next_frame(struct kiosk *k)
{
	if (!dispman_output_is_enabled(k->out) || k->waiting)
		return;
	int ret;
#ifdef KIOSK_HAVE_GL
	if (k->use_gl)
		ret = gl_frame(k);
	else
#endif
		ret = cpu_frame(k);
	if (ret > 0)
		return; /* every buffer is on screen or queued: a release brings us back */
	k->frame_due = false;
	/* -EACCES: paused (another master); the library restores this state itself and a
	 * frame callback follows. Other errors are logged by the library. */
	k->waiting = ret == 0 || ret == -EACCES;
	if (ret == -EACCES && !dispman_device_is_paused(k->dev))
		k->waiting = false;
	if (ret < 0 && ret != -EACCES)
		fprintf(stderr, "kiosk: commit failed: %s\n", strerror(-ret));
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
	/* (GL: the shown GBM buffer was kept from the surface while the output was off) */
	if (!k->use_gl && k->current >= 0)
		k->busy[k->current] = true;
	k->waiting = true; /* the restoring commit's flip calls on_frame */
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

/* GL when asked for or (auto) when EGL on GBM initialises, else the CPU. */
static int choose_renderer(struct kiosk *k, enum render render)
{
#ifdef KIOSK_HAVE_GL
	k->gl = (struct gl){ .dpy = EGL_NO_DISPLAY, .ctx = EGL_NO_CONTEXT, .surf = EGL_NO_SURFACE };
	if (render != RENDER_CPU) {
		const struct dispman_mode *mode = dispman_output_get_current_mode(k->out);
		if (mode && gl_init(k, mode->width, mode->height) == 0) {
			k->use_gl = true;
			printf("kiosk: rendering with GLES (renderer: %s)\n", gl_renderer_name());
			return 0;
		}
		if (render == RENDER_GL)
			return -1;
	}
#else
	if (render == RENDER_GL) {
		fprintf(stderr, "kiosk: built without EGL/GLES: no --render gl\n");
		return -1;
	}
#endif
	printf("kiosk: rendering with the CPU\n");
	return 0;
}

static void free_renderer(struct kiosk *k)
{
#ifdef KIOSK_HAVE_GL
	if (k->use_gl) {
		gl_fini(k);
		return;
	}
#endif
	cpu_free_buffers(k);
}

static bool parse_render(const char *s, enum render *render)
{
	if (!strcmp(s, "cpu"))
		*render = RENDER_CPU;
	else if (!strcmp(s, "gl"))
		*render = RENDER_GL;
	else if (!strcmp(s, "auto"))
		*render = RENDER_AUTO;
	else
		return false;
	return true;
}

static void usage(void)
{
	fprintf(stderr, "usage: kiosk [--device PATH] [--input EVENT_NODE]... [--frames N] "
		"[--quit-after-press N] [--screenshot FILE]... [--then CMD] [--render cpu|gl|auto]\n");
}

/* Returns false (after the usage line) on an unknown or incomplete option. */
static bool parse_args(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--device") && v)
			o->device = argv[++i];
		else if (!strcmp(a, "--input") && v && o->n_inputs < MAX_INPUTS)
			o->inputs[o->n_inputs++] = argv[++i];
		else if (!strcmp(a, "--screenshot") && v && o->n_shots < MAX_SHOTS)
			o->shots[o->n_shots++] = argv[++i];
		else if (!strcmp(a, "--then") && v)
			o->then = argv[++i];
		else if (!strcmp(a, "--frames") && v)
			o->max_frames = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(a, "--quit-after-press") && v)
			o->quit_after = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(a, "--render") && v && parse_render(v, &o->render))
			i++;
		else {
			usage();
			return false;
		}
	}
	return true;
}

/* The device, its first connected output enabled, the renderer and the input. Returns 0,
 * or 1 with everything undone. */
static int start(struct kiosk *k, const struct options *o)
{
	k->dev = dispman_device_open(o->device);
	if (!k->dev)
		return 1;
	k->out = dispman_device_get_first_connected_output(k->dev);
	if (!k->out || dispman_output_enable(k->out, NULL) < 0) {
		dispman_device_destroy(k->dev);
		return 1;
	}
	if (choose_renderer(k, o->render) < 0 || make_buffers(k) < 0) {
		free_renderer(k);
		dispman_device_destroy(k->dev);
		return 1;
	}
	dispman_output_set_frame_callback(k->out, on_frame, k);
	dispman_device_set_output_callback(k->dev, on_output, k);

	k->input = o->n_inputs ? dispman_input_create_path(k->dev, o->inputs, o->n_inputs) :
		dispman_input_create_udev(k->dev, NULL);
	if (k->input) {
		dispman_input_set_callback(k->input, ui_on_input, k);
		dispman_input_set_output(k->input, k->out);
	} else {
		fprintf(stderr, "kiosk: no input (%s), display only\n", strerror(errno));
		if (o->n_inputs)
			return 1;
	}
	ui_make_cursor(k);
	k->frame_due = true;
	return 0;
}

/* One frame per flip until asked to quit. */
static void run(struct kiosk *k, const struct options *o)
{
	while (!k->quit && !stop_signal) {
		if (k->frame_due)
			next_frame(k);
		int n = dispman_device_dispatch(k->dev, 100);
		if (n < 0) {
			fprintf(stderr, "kiosk: dispatch failed: %s\n", strerror(-n));
			break;
		}
		if (o->max_frames && k->frames >= o->max_frames) {
			printf("kiosk: %u frames\n", k->frames);
			k->quit = true;
		}
		if (o->quit_after && k->presses >= o->quit_after && !k->quit_in)
			k->quit_in = k->frames + 2; /* let the new state reach the screen */
		if (k->quit_in && k->frames >= k->quit_in)
			k->quit = true;
	}
}

static void report(struct kiosk *k)
{
	struct dispman_stats st = { .size = sizeof(st) };
	dispman_device_get_stats(k->dev, &st);
	struct dispman_output_stats os = { .size = sizeof(os) };
	dispman_output_get_stats(k->out, &os);
	printf("kiosk: done: %u frames, %llu missed vblanks, %llu late frames, %llu modesets\n",
		k->frames, (unsigned long long)os.missed_vblanks,
		(unsigned long long)os.late_frames, (unsigned long long)st.modesets);
}

int main(int argc, char **argv)
{
	struct options o = { .render = RENDER_AUTO };
	if (!parse_args(argc, argv, &o))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	struct kiosk k = { .current = -1 };
	if (start(&k, &o))
		return 1;
	run(&k, &o);
	report(&k);
	int status = screenshot(&k, o.shots, o.n_shots);
	if (status == 0 && o.then) {
		fflush(stdout);
		int rc = system(o.then);
		if (rc != 0) {
			fprintf(stderr, "kiosk: '%s' failed (status %#x)\n", o.then, (unsigned)rc);
			status = 1;
		}
	}

	dispman_input_destroy(k.input);
	dispman_layer_destroy(k.cursor);
	dispman_buffer_unref(k.cursor_buf);
	free_renderer(&k);
	dispman_device_destroy(k.dev);
	return status;
}
