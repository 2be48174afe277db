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
 *              [--screenshot FILE]... [--render cpu|gl|auto]
 *   --device PATH    the KMS device (default: dispman_device_open(NULL): $DISPMAN_DEVICE,
 *                    then the first card with a connected connector)
 *   --input          use libinput's path backend on these nodes (default: the udev seat
 *                    backend, when udevd runs)
 *   --frames N       quit after N frames reached the screen
 *   --quit-after-press N  quit (two frames later) after the Nth button press
 *   --screenshot F   before quitting, capture the screen through writeback into F (.png or
 *                    PPM); may be given more than once
 *   --render R       cpu: dumb buffers; gl: GLES through EGL on GBM (fail without it);
 *                    auto (default): GL when EGL on GBM initialises, else the CPU
 *
 * The GL path draws the same rectangles with glScissor + glClear only, so both paths give
 * the same pixels; each GBM buffer the surface hands out is imported once as a dma-buf
 * and given back to the surface when the display releases it.
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
#include <unistd.h>

#ifdef KIOSK_HAVE_GL
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <gbm.h>
#endif

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

enum render { RENDER_AUTO, RENDER_CPU, RENDER_GL };

#ifdef KIOSK_HAVE_GL
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

/* Where draw_ui() paints its rectangles: CPU pixels, or GL clears. */
struct painter {
	void (*fill)(struct painter *p, struct rect r, uint32_t color);
	uint32_t *px;
	uint32_t stride_px, w, h;
};

static void cpu_fill(struct painter *p, struct rect r, uint32_t color)
{
	fill(p->px, p->stride_px, p->w, p->h, r, color);
}

/* The UI as rectangles, back to front. */
static void draw_ui(struct kiosk *k, struct painter *p)
{
	uint32_t w = k->width, h = k->height;
	p->fill(p, (struct rect){ 0, 0, (int)w, (int)h }, COLOR_BG);
	/* the animation: a block sliding along the top bar */
	int bar_h = (int)h / 10;
	p->fill(p, (struct rect){ 0, 0, (int)w, bar_h }, COLOR_BAR);
	int slider = (int)h / 8;
	int pos = (int)((k->anim * 8u) % (w + (unsigned)slider)) - slider;
	p->fill(p, (struct rect){ pos, bar_h / 4, slider, bar_h / 2 }, COLOR_SLIDER);
	for (int i = 0; i < N_BUTTONS; i++) {
		struct rect r = k->buttons[i];
		if (i == k->focus)
			p->fill(p, (struct rect){ r.x - 6, r.y - 6, r.w + 12, r.h + 12 },
				COLOR_FOCUS);
		p->fill(p, r, k->on[i] ? COLOR_ON : COLOR_OFF);
		/* i + 1 marks tell the buttons apart */
		int m = r.h / 8;
		for (int j = 0; j <= i; j++)
			p->fill(p, (struct rect){ r.x + m + j * 2 * m, r.y + m, m, m }, COLOR_MARK);
	}
}

static void draw(struct kiosk *k, struct dispman_buffer *buf)
{
	void *data;
	uint32_t stride;
	if (dispman_buffer_map(buf, &data, &stride) < 0)
		return;
	struct painter p = { .fill = cpu_fill, .px = data, .stride_px = stride / 4,
		.w = k->width, .h = k->height };
	draw_ui(k, &p);
}

#ifdef KIOSK_HAVE_GL
/* A clear of the rectangle, clipped to the screen (GL's origin is the bottom left). */
static void gl_fill(struct painter *p, struct rect r, uint32_t color)
{
	int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
	int x1 = r.x + r.w > (int)p->w ? (int)p->w : r.x + r.w;
	int y1 = r.y + r.h > (int)p->h ? (int)p->h : r.y + r.h;
	if (x1 <= x0 || y1 <= y0)
		return;
	glScissor(x0, (int)p->h - y1, x1 - x0, y1 - y0);
	/* n / 255 converts back to exactly n in an 8-bit channel */
	glClearColor((float)(color >> 16 & 0xff) / 255.0f, (float)(color >> 8 & 0xff) / 255.0f,
		(float)(color & 0xff) / 255.0f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT);
}

static void gl_fb_free(struct gl_fb *fb)
{
	struct gl *gl = &fb->k->gl;
	for (int i = 0; i < MAX_GL_FBS; i++)
		if (gl->fbs[i] == fb)
			gl->fbs[i] = NULL;
	if (gl->shown == fb)
		gl->shown = NULL;
	/* the library may hold the buffer a while longer: it must not call back into us */
	dispman_buffer_set_release_callback(fb->buf, NULL, NULL);
	dispman_buffer_unref(fb->buf);
	free(fb);
}

/* GBM destroys the bo (with its surface): its dispman buffer goes with it. */
static void gl_fb_destroy(struct gbm_bo *bo, void *data)
{
	(void)bo;
	gl_fb_free(data);
}

static void gl_on_release(struct dispman_buffer *buf, void *data)
{
	(void)buf;
	struct gl_fb *fb = data;
	struct kiosk *k = fb->k;
	if (!fb->held)
		return;
	/* The output went away with this one on screen: the library shows it again when the
	 * output comes back, so the surface must not draw into it meanwhile. */
	if (fb == k->gl.shown && !dispman_output_is_enabled(k->out))
		return;
	gbm_surface_release_buffer(k->gl.gs, fb->bo);
	fb->held = false;
}

/* The dispman buffer of a bo the surface handed out, imported on first use. */
static struct gl_fb *gl_fb_get(struct kiosk *k, struct gbm_bo *bo)
{
	struct gl_fb *fb = gbm_bo_get_user_data(bo);
	if (fb)
		return fb;
	int slot = -1;
	for (int i = 0; i < MAX_GL_FBS && slot < 0; i++)
		if (!k->gl.fbs[i])
			slot = i;
	if (slot < 0) {
		fprintf(stderr, "kiosk: the GBM surface has too many buffers\n");
		return NULL;
	}
	int fd = gbm_bo_get_fd(bo);
	if (fd < 0) {
		fprintf(stderr, "kiosk: gbm_bo_get_fd failed\n");
		return NULL;
	}
	uint64_t modifier = gbm_bo_get_modifier(bo);
	struct dispman_dmabuf_desc desc = {
		.width = gbm_bo_get_width(bo),
		.height = gbm_bo_get_height(bo),
		.fourcc = gbm_bo_get_format(bo),
		.modifier = modifier,
		.n_planes = 1,
		.fds = { fd, -1, -1, -1 },
		.offsets = { 0 },
		.pitches = { gbm_bo_get_stride(bo) },
	};
	struct dispman_buffer *buf = dispman_buffer_import_dmabuf(k->dev, &desc);
	int err = errno;
	close(fd); /* the import holds its own duplicate */
	if (!buf) {
		fprintf(stderr, "kiosk: importing a GBM buffer failed: %s\n", strerror(err));
		return NULL;
	}
	fb = calloc(1, sizeof(*fb));
	if (!fb) {
		dispman_buffer_unref(buf);
		return NULL;
	}
	*fb = (struct gl_fb){ .k = k, .bo = bo, .buf = buf };
	dispman_buffer_set_release_callback(buf, gl_on_release, fb);
	gbm_bo_set_user_data(bo, fb, gl_fb_destroy);
	k->gl.fbs[slot] = fb;
	return fb;
}

static void gl_fini(struct kiosk *k)
{
	struct gl *gl = &k->gl;
	for (int i = 0; i < MAX_GL_FBS; i++)
		if (gl->fbs[i]) {
			gbm_bo_set_user_data(gl->fbs[i]->bo, NULL, NULL);
			gl_fb_free(gl->fbs[i]);
		}
	if (gl->dpy != EGL_NO_DISPLAY) {
		eglMakeCurrent(gl->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		if (gl->surf != EGL_NO_SURFACE)
			eglDestroySurface(gl->dpy, gl->surf);
		if (gl->ctx != EGL_NO_CONTEXT)
			eglDestroyContext(gl->dpy, gl->ctx);
		eglTerminate(gl->dpy);
		eglReleaseThread();
	}
	if (gl->gs)
		gbm_surface_destroy(gl->gs);
	if (gl->gbm)
		gbm_device_destroy(gl->gbm); /* on the library's fd, which stays open */
	*gl = (struct gl){ .dpy = EGL_NO_DISPLAY, .ctx = EGL_NO_CONTEXT, .surf = EGL_NO_SURFACE };
}

/* An EGL config whose visual is GBM_FORMAT_XRGB8888. */
static bool gl_pick_config(struct gl *gl)
{
	static const EGLint attrs[] = {
		EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
		EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 0,
		EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
		EGL_NONE,
	};
	EGLint n = 0;
	if (!eglChooseConfig(gl->dpy, attrs, NULL, 0, &n) || n <= 0)
		return false;
	EGLConfig *configs = calloc((size_t)n, sizeof(*configs));
	if (!configs)
		return false;
	bool found = false;
	if (eglChooseConfig(gl->dpy, attrs, configs, n, &n))
		for (EGLint i = 0; i < n && !found; i++) {
			EGLint id = 0;
			if (eglGetConfigAttrib(gl->dpy, configs[i], EGL_NATIVE_VISUAL_ID, &id) &&
					(uint32_t)id == GBM_FORMAT_XRGB8888) {
				gl->config = configs[i];
				found = true;
			}
		}
	free(configs);
	return found;
}

/* EGL on GBM on the library's DRM fd, a GLES2 context and a width x height window
 * surface. Returns 0, or -1 after saying why (and undoing what was done). */
static int gl_init(struct kiosk *k, uint32_t width, uint32_t height)
{
	struct gl *gl = &k->gl;
	*gl = (struct gl){ .dpy = EGL_NO_DISPLAY, .ctx = EGL_NO_CONTEXT, .surf = EGL_NO_SURFACE };
	const char *why;
	gl->gbm = gbm_create_device(dispman_device_get_drm_fd(k->dev));
	if (!gl->gbm) {
		why = "gbm_create_device failed";
		goto fail;
	}
	gl->dpy = eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR, gl->gbm, NULL);
	if (gl->dpy == EGL_NO_DISPLAY) {
		why = "no EGL display on GBM";
		goto fail;
	}
	if (!eglInitialize(gl->dpy, NULL, NULL)) {
		/* eglTerminate on a display that did not initialise is harmless */
		why = "eglInitialize failed";
		goto fail;
	}
	if (!eglBindAPI(EGL_OPENGL_ES_API)) {
		why = "no GLES API";
		goto fail;
	}
	if (!gl_pick_config(gl)) {
		why = "no EGL config for XRGB8888";
		goto fail;
	}
	static const EGLint ctx_attrs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	gl->ctx = eglCreateContext(gl->dpy, gl->config, EGL_NO_CONTEXT, ctx_attrs);
	if (gl->ctx == EGL_NO_CONTEXT) {
		why = "eglCreateContext failed";
		goto fail;
	}
	gl->gs = gbm_surface_create(gl->gbm, width, height, GBM_FORMAT_XRGB8888,
		GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING);
	if (!gl->gs) {
		why = "gbm_surface_create failed";
		goto fail;
	}
	gl->surf = eglCreatePlatformWindowSurface(gl->dpy, gl->config, gl->gs, NULL);
	if (gl->surf == EGL_NO_SURFACE) {
		why = "eglCreatePlatformWindowSurface failed";
		goto fail;
	}
	if (!eglMakeCurrent(gl->dpy, gl->surf, gl->surf, gl->ctx)) {
		why = "eglMakeCurrent failed";
		goto fail;
	}
	gl->width = width;
	gl->height = height;
	glViewport(0, 0, (GLsizei)width, (GLsizei)height);
	glDisable(GL_DITHER);
	glEnable(GL_SCISSOR_TEST);
	return 0;
fail:
	fprintf(stderr, "kiosk: no GL: %s (EGL error %#x)\n", why, (unsigned)eglGetError());
	gl_fini(k);
	return -1;
}

/* Draw with GL, swap, and give the surface's new front buffer to the output. Returns the
 * commit's result, or 1 when no buffer was free (a release brings us back). */
static int gl_frame(struct kiosk *k)
{
	struct gl *gl = &k->gl;
	if (!gbm_surface_has_free_buffers(gl->gs))
		return 1;
	k->anim++;
	struct painter p = { .fill = gl_fill, .w = k->width, .h = k->height };
	draw_ui(k, &p);
	if (!eglSwapBuffers(gl->dpy, gl->surf)) {
		fprintf(stderr, "kiosk: eglSwapBuffers failed: %#x\n", (unsigned)eglGetError());
		return -EIO;
	}
	struct gbm_bo *bo = gbm_surface_lock_front_buffer(gl->gs);
	if (!bo) {
		fprintf(stderr, "kiosk: no front buffer after the swap\n");
		return -EIO;
	}
	struct gl_fb *fb = gl_fb_get(k, bo);
	if (!fb) {
		gbm_surface_release_buffer(gl->gs, bo);
		return -EIO;
	}
	fb->held = true;
	gl->shown = fb;
	dispman_output_set_buffer(k->out, fb->buf);
	return dispman_device_commit(k->dev);
}
#endif

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
	if (k->have_buffers && mode->width == k->width && mode->height == k->height)
		return 0;
	dispman_output_set_buffer(k->out, NULL);
	k->have_buffers = false;
	k->width = mode->width;
	k->height = mode->height;
#ifdef KIOSK_HAVE_GL
	if (k->use_gl) {
		if (k->gl.width != k->width || k->gl.height != k->height) {
			gl_fini(k);
			if (gl_init(k, k->width, k->height) < 0)
				return -EIO;
		}
		k->have_buffers = true;
		layout(k);
		return 0;
	}
#endif
	free_buffers(k);
	for (int i = 0; i < 2; i++) {
		k->bufs[i] = dispman_buffer_create_dumb(k->dev, k->width, k->height,
			DRM_FORMAT_XRGB8888);
		if (!k->bufs[i])
			return -errno;
		dispman_buffer_set_release_callback(k->bufs[i], on_release, k);
	}
	k->have_buffers = true;
	layout(k);
	return 0;
}

/* Draw and commit the next frame into a buffer the display does not read. */
static void next_frame(struct kiosk *k)
{
	if (!dispman_output_is_enabled(k->out) || k->waiting)
		return;
	int ret;
#ifdef KIOSK_HAVE_GL
	if (k->use_gl) {
		ret = gl_frame(k);
		if (ret > 0)
			return; /* every GBM buffer is on screen or queued: a release brings us back */
	} else
#endif
	{
		int i = k->current == 0 ? 1 : 0;
		if (k->busy[i])
			return; /* the display still reads it: the next release brings us back */
		k->anim++;
		draw(k, k->bufs[i]);
		dispman_output_set_buffer(k->out, k->bufs[i]);
		ret = dispman_device_commit(k->dev);
		k->current = i;
		k->busy[i] = true;
	}
	k->frame_due = false;
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
	/* (GL: the shown GBM buffer was kept from the surface while the output was off) */
	if (!k->use_gl && k->current >= 0)
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

/* GL when asked for or (auto) when EGL on GBM initialises, else the CPU. */
static int choose_renderer(struct kiosk *k, enum render render)
{
#ifdef KIOSK_HAVE_GL
	k->gl = (struct gl){ .dpy = EGL_NO_DISPLAY, .ctx = EGL_NO_CONTEXT, .surf = EGL_NO_SURFACE };
	if (render != RENDER_CPU) {
		const struct dispman_mode *mode = dispman_output_get_current_mode(k->out);
		if (mode && gl_init(k, mode->width, mode->height) == 0) {
			k->use_gl = true;
			printf("kiosk: rendering with GLES (renderer: %s)\n",
				(const char *)glGetString(GL_RENDERER));
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
	free_buffers(k);
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
		"[--quit-after-press N] [--screenshot FILE]... [--render cpu|gl|auto]\n");
}

int main(int argc, char **argv)
{
	const char *device = NULL;
	const char *inputs[MAX_INPUTS];
	size_t n_inputs = 0;
	const char *shots[MAX_SHOTS];
	size_t n_shots = 0;
	unsigned max_frames = 0, quit_after = 0;
	enum render render = RENDER_AUTO;
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
		else if (!strcmp(a, "--render") && v && parse_render(v, &render))
			i++;
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
	if (!k.out || dispman_output_enable(k.out, NULL) < 0) {
		dispman_device_destroy(k.dev);
		return 1;
	}
	if (choose_renderer(&k, render) < 0 || make_buffers(&k) < 0) {
		free_renderer(&k);
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
	free_renderer(&k);
	dispman_device_destroy(k.dev);
	return status;
}
