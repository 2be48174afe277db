/* SPDX-License-Identifier: MIT */
/* The guest tests' shared Wayland client set-up (test-client.h). */
#include "test-client.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"

static FILE *log_file;

void test_log_open(const char *path)
{
	log_file = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	CHECK(log_file, "%s: %s", path, strerror(errno));
}

void test_log(const char *fmt, ...)
{
	FILE *f = log_file ? log_file : stdout;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
}

void test_pointer_frame(void *data, struct wl_pointer *p)
{
}

void test_pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source)
{
}

void test_pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis)
{
}

void test_pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t v)
{
}

char *test_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[1 << 17];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

int test_count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void wm_ping(void *data, struct xdg_wm_base *b, uint32_t serial)
{
	xdg_wm_base_pong(b, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void seat_caps(void *data, struct wl_seat *s, uint32_t caps)
{
	struct test_client *c = data;
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && c->keyboard_listener && !c->keyboard) {
		c->keyboard = wl_seat_get_keyboard(s);
		wl_keyboard_add_listener(c->keyboard, c->keyboard_listener, c);
	}
	if ((caps & WL_SEAT_CAPABILITY_POINTER) && c->pointer_listener && !c->pointer) {
		c->pointer = wl_seat_get_pointer(s);
		wl_pointer_add_listener(c->pointer, c->pointer_listener, c);
	}
}

static void seat_name(void *data, struct wl_seat *s, const char *name)
{
}

static const struct wl_seat_listener seat_listener = { seat_caps, seat_name };

static void global(void *data, struct wl_registry *reg, uint32_t name, const char *iface,
	uint32_t version)
{
	struct test_client *c = data;
	if (strcmp(iface, wl_compositor_interface.name) == 0) {
		c->compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	} else if (strcmp(iface, wl_subcompositor_interface.name) == 0) {
		c->subcompositor = wl_registry_bind(reg, name, &wl_subcompositor_interface, 1);
	} else if (strcmp(iface, wl_shm_interface.name) == 0) {
		c->shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	} else if (strcmp(iface, xdg_wm_base_interface.name) == 0) {
		c->wm = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(c->wm, &wm_listener, c);
	} else if (strcmp(iface, wl_seat_interface.name) == 0 && !c->seat &&
		   (c->seat_listener || c->keyboard_listener || c->pointer_listener)) {
		c->seat = wl_registry_bind(reg, name, &wl_seat_interface,
			c->seat_version ? c->seat_version : 4);
		wl_seat_add_listener(c->seat, c->seat_listener ? c->seat_listener : &seat_listener,
			c);
	} else if (strcmp(iface, wl_output_interface.name) == 0 && c->output_listener &&
		   !c->output) {
		c->output = wl_registry_bind(reg, name, &wl_output_interface, 2);
		wl_output_add_listener(c->output, c->output_listener, c);
	} else if (c->global) {
		c->global(c, reg, name, iface);
	}
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

void test_client_connect(struct test_client *c)
{
	c->display = wl_display_connect(NULL);
	CHECK(c->display, "%s: cannot connect: %s", c->name, strerror(errno));
	struct wl_registry *reg = wl_display_get_registry(c->display);
	wl_registry_add_listener(reg, &registry_listener, c);
	wl_display_roundtrip(c->display);
	CHECK(c->compositor && c->shm && c->wm, "%s: missing wl_compositor, wl_shm or "
		"xdg_wm_base", c->name);
}

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct test_client *c = data;
	xdg_surface_ack_configure(xs, serial);
	c->configured = true;
	if (c->configure)
		c->configure(c);
}

static const struct xdg_surface_listener xs_listener = { xs_configure };

static void tl_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
	struct test_client *c = data;
	c->cfg_w = w;
	c->cfg_h = h;
}

static void tl_close(void *data, struct xdg_toplevel *t)
{
	((struct test_client *)data)->closed = true;
}

static const struct xdg_toplevel_listener tl_listener = { tl_configure, tl_close };

void test_client_toplevel(struct test_client *c, const char *title)
{
	c->surface = wl_compositor_create_surface(c->compositor);
	c->xsurface = xdg_wm_base_get_xdg_surface(c->wm, c->surface);
	xdg_surface_add_listener(c->xsurface, &xs_listener, c);
	c->toplevel = xdg_surface_get_toplevel(c->xsurface);
	xdg_toplevel_add_listener(c->toplevel, &tl_listener, c);
	xdg_toplevel_set_title(c->toplevel, title);
}

void test_client_wait_configure(struct test_client *c)
{
	wl_surface_commit(c->surface);
	while (!c->configured)
		CHECK(wl_display_dispatch(c->display) >= 0, "%s: lost the connection", c->name);
}

static void frame_done(void *data, struct wl_callback *cb, uint32_t t)
{
	wl_callback_destroy(cb);
	*(bool *)data = true;
}

static const struct wl_callback_listener frame_listener = { frame_done };

void test_client_commit_wait_frame(struct test_client *c)
{
	bool framed = false;
	wl_callback_add_listener(wl_surface_frame(c->surface), &frame_listener, &framed);
	wl_surface_commit(c->surface);
	while (!framed)
		CHECK(wl_display_dispatch(c->display) >= 0, "%s: lost the connection", c->name);
}

void test_client_run(struct test_client *c)
{
	while (!c->closed && wl_display_dispatch(c->display) >= 0)
		;
	wl_display_disconnect(c->display);
	c->display = NULL;
}

struct wl_buffer *test_client_buffer(struct test_client *c, int32_t w, int32_t h,
	uint32_t format, uint32_t colour, void (*fill)(uint32_t *px, int32_t w, int32_t h))
{
	CHECK(w > 0 && h > 0, "%s: a %dx%d buffer", c->name, w, h);
	size_t size = (size_t)w * (size_t)h * 4;
	int fd = memfd_create(c->name, MFD_CLOEXEC);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)size) == 0, "%s: memfd: %s", c->name,
		strerror(errno));
	uint32_t *px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(px != MAP_FAILED, "%s: mmap: %s", c->name, strerror(errno));
	if (fill) {
		fill(px, w, h);
	} else {
		for (size_t i = 0; i < size / 4; i++)
			px[i] = colour;
	}
	munmap(px, size);
	struct wl_shm_pool *pool = wl_shm_create_pool(c->shm, fd, (int32_t)size);
	struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, w, h, w * 4, format);
	wl_shm_pool_destroy(pool);
	close(fd);
	return b;
}

static void buffer_release(void *data, struct wl_buffer *b)
{
	wl_buffer_destroy(b);
}

static const struct wl_buffer_listener buffer_listener = { buffer_release };

void test_client_show(struct test_client *c, struct wl_buffer *b, int32_t w, int32_t h)
{
	wl_buffer_add_listener(b, &buffer_listener, NULL);
	wl_surface_attach(c->surface, b, 0, 0);
	wl_surface_damage_buffer(c->surface, 0, 0, w, h);
	wl_surface_commit(c->surface);
}
