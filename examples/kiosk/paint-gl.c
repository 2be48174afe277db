/* SPDX-License-Identifier: MIT */
/*
 * The kiosk's GL renderer: EGL on GBM on the library's DRM fd, drawing the same rectangles
 * as the CPU with glScissor + glClear only (so both give the same pixels). Each GBM buffer
 * the surface hands out is imported once as a dma-buf and given back to the surface when
 * the display releases it.
 */
#include "kiosk.h"

#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

void gl_fini(struct kiosk *k)
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
int gl_init(struct kiosk *k, uint32_t width, uint32_t height)
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
int gl_frame(struct kiosk *k)
{
	struct gl *gl = &k->gl;
	if (!gbm_surface_has_free_buffers(gl->gs))
		return 1;
	k->anim++;
	struct painter p = { .fill = gl_fill, .w = k->width, .h = k->height };
	ui_draw(k, &p);
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

const char *gl_renderer_name(void)
{
	return (const char *)glGetString(GL_RENDERER);
}
