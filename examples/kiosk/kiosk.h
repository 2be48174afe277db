/* SPDX-License-Identifier: MIT */
/*
 * The kiosk example's shared state (see main.c for what it does). One file per concern:
 * main.c (command line, device, frame loop, hotplug), ui.c (layout, drawing as rectangles,
 * input), paint-cpu.c (dumb buffers drawn by the CPU), paint-gl.c (GLES on GBM).
 */
#ifndef KIOSK_H
#define KIOSK_H

#include <dispman/dispman.h>
#include <dispman/input.h>

#include <stdbool.h>
#include <stdint.h>

#define N_BUTTONS 3

struct rect {
	int x, y, w, h;
};

#ifdef KIOSK_HAVE_GL
#include <EGL/egl.h>
#include <gbm.h>

#define MAX_GL_FBS 8

/* One GBM buffer of the surface, wrapped once as a dispman buffer (the bo's user data). */
struct gl_fb {
	struct kiosk *k;
	struct gbm_bo *bo;
	struct dispman_buffer *buf;
	bool held;             /* locked from the surface, not given back yet */
};

struct gl {
	struct gbm_device *gbm;
	struct gbm_surface *gs;
	EGLDisplay dpy;
	EGLConfig config;
	EGLContext ctx;
	EGLSurface surf;
	uint32_t width, height;
	struct gl_fb *fbs[MAX_GL_FBS];
	struct gl_fb *shown;   /* the last one given to the output */
};
#endif

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
	bool use_gl;           /* rendering with GLES, not into the dumb buffers */
	bool have_buffers;     /* bufs (CPU) or the GL surface match width x height */
#ifdef KIOSK_HAVE_GL
	struct gl gl;
#endif

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

/* Where ui_draw() paints its rectangles: CPU pixels, or GL clears. */
struct painter {
	void (*fill)(struct painter *p, struct rect r, uint32_t color);
	uint32_t *px;
	uint32_t stride_px, w, h;
};

/* ui.c */
/* Place the buttons for k->width x k->height and print the "kiosk: ready" line. */
void ui_layout(struct kiosk *k);
/* The UI as rectangles, back to front. */
void ui_draw(struct kiosk *k, struct painter *p);
/* A dispman_input_callback; data is the kiosk. */
void ui_on_input(struct dispman_input *input, const struct dispman_input_event *ev,
	void *data);
/* The arrow cursor layer, moved by the input (hidden without input). */
void ui_make_cursor(struct kiosk *k);

/* paint-cpu.c: two dumb buffers, drawn in turn into the one the display released. */
int cpu_make_buffers(struct kiosk *k);
void cpu_free_buffers(struct kiosk *k);
/* Draw and show the next frame; 1 when both buffers are still read by the display. */
int cpu_frame(struct kiosk *k);

#ifdef KIOSK_HAVE_GL
/* paint-gl.c: EGL on GBM on the library's DRM fd. gl_init returns 0, or -1 after saying
 * why (and undoing what it did). */
int gl_init(struct kiosk *k, uint32_t width, uint32_t height);
void gl_fini(struct kiosk *k);
/* Draw, swap, show the surface's front buffer; 1 when no buffer was free. */
int gl_frame(struct kiosk *k);
/* The renderer's name (glGetString), for the log. */
const char *gl_renderer_name(void);
#endif

#endif
