/* SPDX-License-Identifier: MIT */
/*
 * dispman-kiosk on two heads (virtio-gpu), end to end in the guest (issue 27):
 *
 * extend: dispman-kiosk --layout extend runs this program again as its client, which makes
 *   two toplevels, each asking for one output with xdg_toplevel.set_fullscreen(output) and
 *   painting the size it is configured with in one colour. Each head's QEMU screendump must
 *   show its toplevel's colour in every pixel; each surface must get wl_surface.enter of its
 *   own output; the outputs must be side by side in wl_output.geometry. Then a uinput mouse
 *   pushes the pointer to the far left (the toplevel on head 0 gets wl_pointer.enter) and
 *   then right, across the edge: the toplevel on head 1 gets wl_pointer.enter. Then head 1
 *   is unplugged (its sysfs status forced off and a hotplug uevent): the toplevel on it is
 *   configured with head 0's size and head 0 shows it; plugged in again, it is configured
 *   with head 1's size again and head 1 shows it. grim -o NAME of each head (screencopy of
 *   the wl_output named) equals that head's screendump.
 * mirror: dispman-kiosk --layout mirror with one toplevel painting a pattern: head 1's
 *   screendump must equal head 0's where both have pixels, and show the pattern.
 * cursor: as extend but with the cursor shown (no --hide-cursor). The uinput mouse pushes the
 *   pointer far left onto A: the kernel's atomic state (debugfs) shows a framebuffer on a
 *   cursor plane of head 0's CRTC (the default cursor) and none on head 1's; then right
 *   across the edge onto B, whose client sets its own cursor (hotspot 5,7) when it gets
 *   wl_pointer.enter: a cursor plane of head 1's CRTC shows it at the pointer's last
 *   position on B minus the hotspot, and head 0's cursor plane nothing.
 * hotplug: head 1 unplugged before dispman-kiosk --layout extend starts: the client sees
 *   one wl_output and maps toplevel A on it. Head 1 plugged in: a second wl_output global
 *   appears (right of head 0 in the layout), the client makes toplevel B full-screen on it
 *   and head 1's screendump shows B; unplugged again: the global is removed
 *   (wl_registry.global_remove) and B is configured with head 0's size and shown there;
 *   plugged in again (a new global), B goes back: configured with head 1's size, shown
 *   there.
 *
 *   kiosk-heads KIOSK extend|mirror|hotplug|cursor
 *
 * Exit 77 (n/a) without two connected outputs and a screendump of the device.
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
#include <unistd.h>
#include <wayland-client.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include <dispman/dispman.h>

#include "xdg-shell-client-protocol.h"

#include "check.h"
#include "kms-util.h"
#include "screendump.h"
#include "uinput-dev.h"

static const uint32_t colour[2] = { 0xc04080, 0x30a050 };

/* ---------------- the client ---------------- */

static FILE *logf_;
static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm;
static struct wl_seat *seat;
static struct wl_output *outputs[2];
static uint32_t output_global[2];
static int n_outputs;
static bool hotplug_mode;
static bool cursor_mode;
static struct wl_surface *cursor_surface; /* cursor mode: B's cursor, hotspot (5, 7) */
static const char *pointer_on = "?";
static char out_name[2][64];
static int32_t out_x[2];

struct win {
	const char *tag;
	struct wl_surface *surface;
	struct xdg_surface *xs;
	struct xdg_toplevel *tl;
	int32_t w, h;
	bool configured, framed;
	uint32_t colour;
	bool pattern;
	int32_t painted_w, painted_h;
};
static struct win wins[2];

static void client_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void client_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(logf_, fmt, ap);
	va_end(ap);
	fputc('\n', logf_);
	fflush(logf_);
}

static const char *tag_of(struct wl_surface *s)
{
	for (int i = 0; i < 2; i++)
		if (wins[i].surface && wins[i].surface == s)
			return wins[i].tag;
	return "?";
}

static int output_index(struct wl_output *o)
{
	for (int i = 0; i < n_outputs; i++)
		if (outputs[i] == o)
			return i;
	return -1;
}

static void p_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
	wl_fixed_t x, wl_fixed_t y)
{
	client_log("ptr-enter %s %d %d", tag_of(s), wl_fixed_to_int(x), wl_fixed_to_int(y));
	pointer_on = tag_of(s);
	if (cursor_mode && cursor_surface && strcmp(pointer_on, "B") == 0)
		wl_pointer_set_cursor(p, serial, cursor_surface, 5, 7);
}

static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
	client_log("ptr-leave %s", tag_of(s));
	pointer_on = "?";
}

static void p_motion(void *d, struct wl_pointer *p, uint32_t t, wl_fixed_t x, wl_fixed_t y)
{
	if (cursor_mode && strcmp(pointer_on, "B") == 0)
		client_log("ptr-motion B %d %d", wl_fixed_to_int(x), wl_fixed_to_int(y));
}
static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t t, uint32_t b,
	uint32_t st) {}
static void p_axis(void *d, struct wl_pointer *p, uint32_t t, uint32_t a, wl_fixed_t v) {}
static void p_frame(void *d, struct wl_pointer *p) {}
static void p_axis_source(void *d, struct wl_pointer *p, uint32_t src) {}
static void p_axis_stop(void *d, struct wl_pointer *p, uint32_t t, uint32_t a) {}
static void p_axis_discrete(void *d, struct wl_pointer *p, uint32_t a, int32_t v) {}

static const struct wl_pointer_listener p_listener = {
	p_enter, p_leave, p_motion, p_button, p_axis, p_frame, p_axis_source, p_axis_stop,
	p_axis_discrete,
};

static void seat_caps(void *d, struct wl_seat *s, uint32_t caps)
{
	static bool have;
	if ((caps & WL_SEAT_CAPABILITY_POINTER) && !have) {
		have = true;
		wl_pointer_add_listener(wl_seat_get_pointer(s), &p_listener, NULL);
	}
}

static void seat_name(void *d, struct wl_seat *s, const char *name) {}
static const struct wl_seat_listener seat_listener = { seat_caps, seat_name };

static void out_geometry(void *d, struct wl_output *o, int32_t x, int32_t y, int32_t pw,
	int32_t ph, int32_t sub, const char *make, const char *model, int32_t transform)
{
	int i = output_index(o);
	if (i >= 0) {
		out_x[i] = x;
		snprintf(out_name[i], sizeof(out_name[i]), "%s", model);
	}
}

static void out_mode(void *d, struct wl_output *o, uint32_t flags, int32_t w, int32_t h,
	int32_t r) {}
static void out_done(void *d, struct wl_output *o) {}
static void out_scale(void *d, struct wl_output *o, int32_t f) {}
static const struct wl_output_listener output_listener = { out_geometry, out_mode, out_done,
	out_scale };

static void wm_ping(void *d, struct xdg_wm_base *w, uint32_t serial)
{
	xdg_wm_base_pong(w, serial);
}
static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void global(void *data, struct wl_registry *reg, uint32_t name, const char *iface,
	uint32_t version)
{
	if (strcmp(iface, wl_compositor_interface.name) == 0)
		compositor = wl_registry_bind(reg, name, &wl_compositor_interface,
			version < 4 ? version : 4);
	else if (strcmp(iface, wl_shm_interface.name) == 0)
		shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	else if (strcmp(iface, xdg_wm_base_interface.name) == 0) {
		wm = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(wm, &wm_listener, NULL);
	} else if (strcmp(iface, wl_seat_interface.name) == 0) {
		seat = wl_registry_bind(reg, name, &wl_seat_interface, version < 5 ? version : 5);
		wl_seat_add_listener(seat, &seat_listener, NULL);
	} else if (strcmp(iface, wl_output_interface.name) == 0 && n_outputs < 2) {
		outputs[n_outputs] = wl_registry_bind(reg, name, &wl_output_interface, 2);
		wl_output_add_listener(outputs[n_outputs], &output_listener, NULL);
		output_global[n_outputs] = name;
		if (logf_)
			client_log("output-added %d", n_outputs);
		n_outputs++;
	}
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
	for (int i = 0; i < n_outputs; i++)
		if (output_global[i] == name)
			client_log("output-removed %d", i);
}
static const struct wl_registry_listener registry_listener = { global, global_remove };

static struct wl_buffer *paint_format(const struct win *w, uint32_t format)
{
	size_t stride = (size_t)w->w * 4, size = stride * (size_t)w->h;
	int fd = memfd_create("kiosk-heads", MFD_CLOEXEC);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)size) == 0, "memfd");
	uint32_t *px = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(px != MAP_FAILED, "mmap");
	for (int32_t y = 0; y < w->h; y++)
		for (int32_t x = 0; x < w->w; x++)
			px[(size_t)y * (size_t)w->w + (size_t)x] = w->pattern ?
				(uint32_t)((x & 0xff) << 16 | (y & 0xff) << 8 | 0x40) : w->colour;
	munmap(px, size);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
	struct wl_buffer *b = wl_shm_pool_create_buffer(pool, 0, w->w, w->h, (int32_t)stride,
		format);
	wl_shm_pool_destroy(pool);
	close(fd);
	return b;
}

static struct wl_buffer *paint(const struct win *w)
{
	return paint_format(w, WL_SHM_FORMAT_XRGB8888);
}

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct win *w = data;
	xdg_surface_ack_configure(xs, serial);
	if (w->framed && (w->w != w->painted_w || w->h != w->painted_h)) {
		/* a new size once shown (its output went or came back): paint it */
		client_log("configure %s %d %d", w->tag, w->w, w->h);
		wl_surface_attach(w->surface, paint(w), 0, 0);
		wl_surface_damage(w->surface, 0, 0, w->w, w->h);
		wl_surface_commit(w->surface);
		w->painted_w = w->w;
		w->painted_h = w->h;
	}
	w->configured = true;
}
static const struct xdg_surface_listener xs_listener = { xs_configure };

static void tl_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *states)
{
	struct win *win = data;
	if (w > 0 && h > 0) {
		win->w = w;
		win->h = h;
	}
}
static void tl_close(void *data, struct xdg_toplevel *t) {}
static const struct xdg_toplevel_listener tl_listener = { tl_configure, tl_close };

static void frame_done(void *data, struct wl_callback *cb, uint32_t t)
{
	struct win *w = data;
	w->framed = true;
	wl_callback_destroy(cb);
}
static const struct wl_callback_listener frame_listener = { frame_done };

static void s_enter(void *data, struct wl_surface *s, struct wl_output *o)
{
	int i = output_index(o);
	client_log("enter %s %d", tag_of(s), i);
}

static void s_leave(void *data, struct wl_surface *s, struct wl_output *o)
{
	client_log("leave %s %d", tag_of(s), output_index(o));
}
static const struct wl_surface_listener surface_listener = { s_enter, s_leave };

static void make_window(int i, bool mirror, struct wl_output *on)
{
	struct win *w = &wins[i];
	w->tag = i ? "B" : "A";
	w->colour = colour[i];
	w->pattern = mirror;
	w->surface = wl_compositor_create_surface(compositor);
	wl_surface_add_listener(w->surface, &surface_listener, NULL);
	w->xs = xdg_wm_base_get_xdg_surface(wm, w->surface);
	xdg_surface_add_listener(w->xs, &xs_listener, w);
	w->tl = xdg_surface_get_toplevel(w->xs);
	xdg_toplevel_add_listener(w->tl, &tl_listener, w);
	if (on)
		xdg_toplevel_set_fullscreen(w->tl, on);
	wl_surface_commit(w->surface);
}

/* The first buffer of a configured window, with a frame callback. */
static void show_window(struct win *w)
{
	CHECK(w->w > 0 && w->h > 0, "client: %s configured without a size", w->tag);
	client_log("configure %s %d %d", w->tag, w->w, w->h);
	w->painted_w = w->w;
	w->painted_h = w->h;
	wl_surface_attach(w->surface, paint(w), 0, 0);
	wl_surface_damage(w->surface, 0, 0, w->w, w->h);
	wl_callback_add_listener(wl_surface_frame(w->surface), &frame_listener, w);
	wl_surface_commit(w->surface);
}

/* hotplug: one output at start and toplevel A on it; when a second wl_output appears,
 * toplevel B full-screen on it. */
static int run_hotplug_client(struct wl_display *d, const char *ready_path)
{
	CHECK(n_outputs == 1, "client: %d wl_output globals at start, not 1", n_outputs);
	make_window(0, false, NULL);
	while (!wins[0].configured)
		CHECK(wl_display_dispatch(d) >= 0, "client: lost the connection");
	show_window(&wins[0]);
	while (!wins[0].framed)
		CHECK(wl_display_dispatch(d) >= 0, "client: lost the connection");
	client_log("mapped");
	FILE *r = fopen(ready_path, "w");
	CHECK(r, "%s", ready_path);
	fclose(r);
	while (n_outputs < 2)
		CHECK(wl_display_dispatch(d) >= 0, "client: lost the connection");
	wl_display_roundtrip(d); /* its geometry */
	client_log("output 1 %s at %d", out_name[1], out_x[1]);
	make_window(1, false, outputs[1]);
	while (!wins[1].configured)
		CHECK(wl_display_dispatch(d) >= 0, "client: lost the connection");
	show_window(&wins[1]);
	while (!wins[1].framed)
		CHECK(wl_display_dispatch(d) >= 0, "client: lost the connection");
	client_log("mapped B");
	while (wl_display_dispatch(d) >= 0)
		;
	return 0;
}

static int run_client(const char *log_path, const char *ready_path, bool mirror)
{
	logf_ = fopen(log_path, "w");
	CHECK(logf_, "%s: %s", log_path, strerror(errno));
	struct wl_display *d = wl_display_connect(NULL);
	CHECK(d, "client: cannot connect: %s", strerror(errno));
	struct wl_registry *reg = wl_display_get_registry(d);
	wl_registry_add_listener(reg, &registry_listener, NULL);
	wl_display_roundtrip(d);
	wl_display_roundtrip(d);
	CHECK(compositor && shm && wm && seat, "client: a global is missing");
	client_log("outputs %d", n_outputs);
	for (int i = 0; i < n_outputs; i++)
		client_log("output %d %s at %d", i, out_name[i], out_x[i]);
	if (hotplug_mode)
		return run_hotplug_client(d, ready_path);
	if (cursor_mode) {
		/* B's cursor: 24x24, opaque magenta */
		struct win c = { .w = 24, .h = 24, .colour = 0xffff00ff };
		cursor_surface = wl_compositor_create_surface(compositor);
		wl_surface_attach(cursor_surface, paint_format(&c, WL_SHM_FORMAT_ARGB8888), 0, 0);
		wl_surface_damage(cursor_surface, 0, 0, 24, 24);
		wl_surface_commit(cursor_surface);
	}
	CHECK(n_outputs == 2, "client: %d wl_output globals, not 2", n_outputs);
	int n = mirror ? 1 : 2;
	for (int i = 0; i < n; i++)
		make_window(i, mirror, mirror ? NULL : outputs[i]);
	for (int i = 0; i < n; i++) {
		while (!wins[i].configured)
			CHECK(wl_display_dispatch(d) >= 0, "client: lost the connection");
		CHECK(wins[i].w > 0 && wins[i].h > 0, "client: %s configured without a size",
			wins[i].tag);
		client_log("configure %s %d %d", wins[i].tag, wins[i].w, wins[i].h);
		wins[i].painted_w = wins[i].w;
		wins[i].painted_h = wins[i].h;
		wl_surface_attach(wins[i].surface, paint(&wins[i]), 0, 0);
		wl_surface_damage(wins[i].surface, 0, 0, wins[i].w, wins[i].h);
		wl_callback_add_listener(wl_surface_frame(wins[i].surface), &frame_listener,
			&wins[i]);
		wl_surface_commit(wins[i].surface);
	}
	for (int i = 0; i < n; i++)
		while (!wins[i].framed)
			CHECK(wl_display_dispatch(d) >= 0, "client: lost the connection");
	wl_display_roundtrip(d);
	client_log("mapped");
	FILE *r = fopen(ready_path, "w");
	CHECK(r, "%s", ready_path);
	fclose(r);
	while (wl_display_dispatch(d) >= 0)
		;
	return 0;
}

/* ---------------- the driver ---------------- */

static char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void wait_log(const char *path, const char *what, pid_t kiosk, int secs)
{
	for (int i = 0; i < secs * 10; i++) {
		char *s = slurp(path);
		if (s && strstr(s, what))
			return;
		CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited");
		usleep(100000);
	}
	FAIL("the client did not log \"%s\" within %d s; log:\n%s", what, secs, slurp(path));
}

static void set_bit(int fd, unsigned long req, int bit)
{
	if (ioctl(fd, req, bit) < 0)
		FAIL("uinput ioctl %#lx %d: %s", req, bit, strerror(errno));
}

static void move(int fd, int dx, int dy)
{
	uinput_emit(fd, EV_REL, REL_X, dx);
	uinput_emit(fd, EV_REL, REL_Y, dy);
	uinput_emit(fd, EV_SYN, SYN_REPORT, 0);
	usleep(30000);
}

static char card_name[64], head1_name[64], status_path[256];

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "write \"%s\" to %s: %s",
		text, path, strerror(errno));
	close(fd);
}

/* Head 1's connector forced on or off, and the card's hotplug uevent. */
static void plug(const char *status)
{
	char uevent[256];
	snprintf(status_path, sizeof(status_path), "/sys/class/drm/%s-%s/status", card_name,
		head1_name);
	snprintf(uevent, sizeof(uevent), "/sys/class/drm/%s/uevent", card_name);
	write_file(status_path, status);
	write_file(uevent, "change 7d3e2a10-4b6c-4f0e-8a2d-1c5b9e7f3a64 HOTPLUG=1");
	printf("%s: %s, hotplug uevent sent\n", status_path, status);
}

static void restore_head1(void)
{
	if (!status_path[0])
		return;
	int fd = open(status_path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "on", 2) != 2)
			fprintf(stderr, "cannot restore %s\n", status_path);
		close(fd);
	}
}

/* Pixels of the head's screendump that are not colour c (0xRRGGBB). */
static size_t count_not(const struct rgb_image *img, uint32_t c)
{
	size_t bad = 0;
	for (size_t i = 0; i < (size_t)img->width * img->height; i++) {
		const uint8_t *p = img->rgb + i * 3;
		if (((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) != c)
			bad++;
	}
	return bad;
}

static char head0_name[64], dev_path[256];

/* ---- cursor: the kernel's atomic state (debugfs) ---- */

/* The value of "\tKEY=" in the state's block that starts at block (up to the next line
 * that does not start with a tab), copied to out; false when there is none. */
static bool block_field(const char *block, const char *key, char *out, size_t len)
{
	char k[32];
	snprintf(k, sizeof(k), "\n\t%s=", key);
	const char *end = block + 1;
	while ((end = strchr(end, '\n')) && end[1] == '\t')
		end++;
	const char *p = strstr(block, k);
	if (!p || (end && p > end))
		return false;
	p += strlen(k);
	size_t n = strcspn(p, "\n");
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = 0;
	return true;
}

/* The CRTC (its name in the state, "crtc-1") that drives the connector named name. */
static bool head_crtc(const char *state, const char *name, char *crtc, size_t len)
{
	char head[96];
	snprintf(head, sizeof(head), "]: %s\n", name);
	for (const char *p = state; (p = strstr(p, "connector[")); p++) {
		const char *nl = strchr(p, '\n');
		const char *h = strstr(p, head);
		if (h && nl && h < nl)
			return block_field(p, "crtc", crtc, len);
	}
	return false;
}

static uint32_t cursor_plane_ids[16];
static size_t n_cursor_plane_ids;
static char state_path[256];

/* Whether a cursor plane shows a framebuffer on the CRTC named crtc, and where. */
static bool cursor_on(const char *state, const char *crtc, int *x, int *y)
{
	for (size_t i = 0; i < n_cursor_plane_ids; i++) {
		char head[32], on[64], fb[32], pos[64];
		snprintf(head, sizeof(head), "plane[%u]:", cursor_plane_ids[i]);
		const char *p = strstr(state, head);
		if (!p || !block_field(p, "crtc", on, sizeof(on)) || strcmp(on, crtc) != 0 ||
		    !block_field(p, "fb", fb, sizeof(fb)) || atoi(fb) == 0)
			continue;
		int w, h;
		CHECK(block_field(p, "crtc-pos", pos, sizeof(pos)) &&
			sscanf(pos, "%dx%d%d%d", &w, &h, x, y) == 4, "plane %u: no crtc-pos",
			cursor_plane_ids[i]);
		return true;
	}
	return false;
}

/* The device's cursor planes (libdrm, no master needed) and its debugfs state file. */
static void find_cursor_planes(void)
{
	int fd = open(dev_path, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "%s: %s", dev_path, strerror(errno));
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmModePlaneResPtr res = drmModeGetPlaneResources(fd);
	CHECK(res, "no plane resources");
	for (uint32_t i = 0; i < res->count_planes; i++) {
		drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, res->planes[i],
			DRM_MODE_OBJECT_PLANE);
		for (uint32_t j = 0; props && j < props->count_props; j++) {
			drmModePropertyPtr pr = drmModeGetProperty(fd, props->props[j]);
			if (pr && strcmp(pr->name, "type") == 0 &&
			    props->prop_values[j] == DRM_PLANE_TYPE_CURSOR && n_cursor_plane_ids < 16)
				cursor_plane_ids[n_cursor_plane_ids++] = res->planes[i];
			drmModeFreeProperty(pr);
		}
		drmModeFreeObjectProperties(props);
	}
	drmModeFreePlaneResources(res);
	if (debugfs_dri_path(fd, "state", state_path, sizeof(state_path)) < 0 ||
	    access(state_path, R_OK) != 0)
		state_path[0] = 0;
	close(fd);
}

static char *read_state(void)
{
	static char buf[1 << 17];
	FILE *f = fopen(state_path, "r");
	CHECK(f, "%s: %s", state_path, strerror(errno));
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The pointer's last position on B the client was told (enter or motion). */
static void last_on_b(const char *log, int *x, int *y)
{
	const char *last = NULL;
	for (const char *p = log; (p = strstr(p, "ptr-")); p++)
		if (strncmp(p, "ptr-enter B ", 12) == 0 || strncmp(p, "ptr-motion B ", 13) == 0)
			last = p;
	CHECK(last && sscanf(strchr(last, 'B') + 1, "%d %d", x, y) == 2,
		"no pointer position on B in the log:\n%s", log);
}

/*
 * Waits up to 5 s for a cursor plane with a framebuffer on head on_head (at (x, y) when
 * exact) and none on the other head; fails with the state otherwise.
 */
static void expect_cursor(const char crtc[2][64], int on_head, bool exact, int x, int y,
	const char *what)
{
	int cx = 0, cy = 0, ox, oy;
	bool on = false, other = true;
	for (int i = 0; i < 50; i++) {
		const char *st = read_state();
		on = cursor_on(st, crtc[on_head], &cx, &cy);
		other = cursor_on(st, crtc[!on_head], &ox, &oy);
		if (on && !other && (!exact || (cx == x && cy == y))) {
			printf("%s: on head %d's cursor plane (%s) at %d,%d; none on head %d\n",
				what, on_head, crtc[on_head], cx, cy, !on_head);
			return;
		}
		usleep(100000);
	}
	FAIL("%s: want a cursor on head %d (%s)%s, none on head %d; cursor on head %d: %s "
		"(%d,%d), on head %d: %s\nstate:\n%s", what, on_head, crtc[on_head],
		exact ? " at the pointer minus the hotspot" : "", !on_head, on_head,
		on ? "yes" : "no", cx, cy, !on_head, other ? "yes" : "no", read_state());
}

/* cursor: the default cursor on head 0, then B's own on head 1 at the pointer. */
static void check_cursor(int mouse, const char *log_path, pid_t kiosk)
{
	find_cursor_planes();
	CHECK(state_path[0] && n_cursor_plane_ids >= 2, "needs the debugfs state and a cursor "
		"plane per head (%zu cursor planes, state %s)", n_cursor_plane_ids,
		state_path[0] ? state_path : "(none)");
	char crtc[2][64];
	const char *st = read_state();
	CHECK(head_crtc(st, head0_name, crtc[0], sizeof(crtc[0])) &&
		head_crtc(st, head1_name, crtc[1], sizeof(crtc[1])) && strcmp(crtc[0], crtc[1]),
		"no CRTCs of %s and %s in the state:\n%s", head0_name, head1_name, st);
	printf("%zu cursor planes; %s on %s, %s on %s\n", n_cursor_plane_ids, head0_name,
		crtc[0], head1_name, crtc[1]);
	/* far left and up, then a little down: on A, the default cursor on head 0 */
	for (int i = 0; i < 6; i++)
		move(mouse, -2000, -2000);
	move(mouse, 0, 40);
	wait_log(log_path, "ptr-enter A", kiosk, 60);
	expect_cursor(crtc, 0, false, 0, 0, "on A (the default cursor)");
	/* right across the edge onto B: B's cursor on head 1 */
	for (int i = 0; i < 40 && !strstr(slurp(log_path), "ptr-enter B"); i++)
		move(mouse, 150, 0);
	wait_log(log_path, "ptr-enter B", kiosk, 60);
	usleep(500000); /* the last motion reached the client */
	int x, y;
	last_on_b(slurp(log_path), &x, &y);
	printf("pointer on B at %d,%d\n", x, y);
	expect_cursor(crtc, 1, true, x - 5, y - 7, "on B (its own cursor, hotspot 5,7)");
}

/* grim -o NAME (zwlr_screencopy_manager_v1.capture_output of that wl_output) as a PPM must
 * equal the head's screendump. */
static void grim_equals(const char *dir, const char *name, unsigned head,
	const struct rgb_image *dumped)
{
	char path[700], cmd[1600];
	snprintf(path, sizeof(path), "%s/grim-%u.ppm", dir, head);
	snprintf(cmd, sizeof(cmd), "WAYLAND_DISPLAY=kiosk-heads grim -t ppm -o '%s' '%s'", name,
		path);
	CHECK(system(cmd) == 0, "%s failed (grim is in scripts/setup-debian)", cmd);
	struct rgb_image shot;
	CHECK(ppm_read(path, &shot) == 0, "cannot read %s", path);
	uint32_t fx = 0, fy = 0;
	size_t differ = rgb_image_diff(dumped, &shot, 0, 0, 0, 0, &fx, &fy);
	printf("grim -o %s: %ux%u, %zu pixels differ from head %u's screendump\n", name,
		shot.width, shot.height, differ, head);
	CHECK(differ == 0, "grim -o %s is not head %u (first difference at %u,%u)", name, head,
		fx, fy);
	rgb_image_free(&shot);
}

static void dump(unsigned head, const char *dir, struct rgb_image *img)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/head-%u.ppm", dir, head);
	CHECK(screendump_take(head, path) == 0, "screendump of head %u", head);
	CHECK(ppm_read(path, img) == 0, "cannot read %s", path);
	printf("head %u: %ux%u (%s)\n", head, img->width, img->height, path);
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--client") == 0) {
		hotplug_mode = strcmp(argv[4], "hotplug") == 0;
		cursor_mode = strcmp(argv[4], "cursor") == 0;
		return run_client(argv[2], argv[3], strcmp(argv[4], "mirror") == 0);
	}
	CHECK(argc == 3 && (strcmp(argv[2], "extend") == 0 || strcmp(argv[2], "mirror") == 0 ||
		strcmp(argv[2], "hotplug") == 0 || strcmp(argv[2], "cursor") == 0),
		"usage: kiosk-heads KIOSK extend|mirror|hotplug|cursor");
	bool mirror = strcmp(argv[2], "mirror") == 0;
	bool hotplug = strcmp(argv[2], "hotplug") == 0;
	bool cursor = strcmp(argv[2], "cursor") == 0;

	/* two connected outputs and a screendump, or n/a */
	struct dispman_device *dev = dispman_device_open(check_device());
	CHECK(dev, "cannot open the DRM device: %s", strerror(errno));
	size_t connected = 0;
	for (size_t i = 0; i < dispman_device_get_output_count(dev); i++)
		if (dispman_output_get_status(dispman_device_get_output(dev, i)) ==
		    DISPMAN_CONNECTED)
			connected++;
	bool dumps = screendump_available(dispman_device_get_path(dev));
	const char *card = strrchr(dispman_device_get_path(dev), '/');
	snprintf(card_name, sizeof(card_name), "%s", card ? card + 1 : "card0");
	snprintf(dev_path, sizeof(dev_path), "%s", dispman_device_get_path(dev));
	snprintf(head0_name, sizeof(head0_name), "%s",
		dispman_output_get_name(dispman_device_get_output(dev, 0)));
	if (dispman_device_get_output_count(dev) > 1)
		snprintf(head1_name, sizeof(head1_name), "%s",
			dispman_output_get_name(dispman_device_get_output(dev, 1)));
	dispman_device_destroy(dev); /* the kiosk takes the device */
	if (connected < 2 || !dumps) {
		printf("n/a: needs two connected outputs and a screendump (%zu connected, "
			"screendump %s)\n", connected, dumps ? "yes" : "no");
		return 77;
	}

	const char *outdir = getenv("DISPMAN_VM_OUT") ? getenv("DISPMAN_VM_OUT") : "/tmp";
	char dir[512], log_path[600], ready[600];
	snprintf(dir, sizeof(dir), "%s/kiosk-heads-%s", outdir, argv[2]);
	mkdir(dir, 0755);
	snprintf(log_path, sizeof(log_path), "%s/client.log", dir);
	snprintf(ready, sizeof(ready), "%s/ready", dir);
	unlink(ready);
	char xdg[] = "/tmp/xdg-heads.XXXXXX";
	CHECK(mkdtemp(xdg), "mkdtemp");
	setenv("XDG_RUNTIME_DIR", xdg, 1);

	struct uinput_dev mouse = { .fd = uinput_open() };
	set_bit(mouse.fd, UI_SET_EVBIT, EV_KEY);
	set_bit(mouse.fd, UI_SET_EVBIT, EV_REL);
	set_bit(mouse.fd, UI_SET_KEYBIT, BTN_LEFT);
	set_bit(mouse.fd, UI_SET_RELBIT, REL_X);
	set_bit(mouse.fd, UI_SET_RELBIT, REL_Y);
	uinput_create(&mouse, "kiosk-heads mouse", "E:ID_INPUT_MOUSE=1\n");

	if (hotplug) {
		/* head 1 unplugged before the compositor starts */
		atexit(restore_head1);
		plug("off");
		usleep(500000);
	}
	pid_t kiosk = fork();
	CHECK(kiosk >= 0, "fork");
	if (kiosk == 0) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		self[n > 0 ? n : 0] = 0;
		const char *layout = hotplug || cursor ? "extend" : argv[2];
		if (cursor) /* the cursor shown */
			execl(argv[1], argv[1], "--socket", "kiosk-heads", "--layout", layout,
				"--input", mouse.devnode, "--", self, "--client", log_path, ready,
				argv[2], (char *)NULL);
		else
			execl(argv[1], argv[1], "--socket", "kiosk-heads", "--layout", layout,
				"--hide-cursor", "--input", mouse.devnode, "--", self, "--client",
				log_path, ready, argv[2], (char *)NULL);
		_exit(127);
	}
	for (int i = 0; access(ready, F_OK) != 0; i++) {
		CHECK(i < 1800, "the client did not map within 180 s; log:\n%s", slurp(log_path));
		CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited early; log:\n%s",
			slurp(log_path));
		usleep(100000);
	}
	usleep(500000); /* a frame or two more: the screendump reads what is scanned out */
	const char *log = slurp(log_path);
	printf("client log:\n%s", log);
	if (cursor) {
		check_cursor(mouse.fd, log_path, kiosk);
		kill(kiosk, SIGTERM);
		waitpid(kiosk, NULL, 0);
		uinput_destroy(&mouse);
		printf("PASS\n");
		return 0;
	}
	struct rgb_image img[2];
	if (hotplug) {
		dump(0, dir, &img[0]);
		size_t bad = count_not(&img[0], colour[0]);
		printf("head 1 unplugged at start: head 0: %zu pixels are not #%06x\n", bad,
			colour[0]);
		CHECK(strstr(log, "outputs 1\n"), "not one wl_output at start");
		CHECK(bad == 0, "head 0 does not show A");
		/* plugged in: a second wl_output, B full-screen on it, head 1 shows B */
		plug("on");
		wait_log(log_path, "mapped B", kiosk, 180);
		usleep(1500000);
		dump(1, dir, &img[1]);
		log = slurp(log_path);
		printf("client log:\n%s", log);
		int w1 = 0, h1 = 0, x1 = -1;
		const char *p = strstr(log, "configure B ");
		CHECK(p && sscanf(p, "configure B %d %d", &w1, &h1) == 2, "no configure of B");
		p = strstr(log, "output 1 ");
		CHECK(p && sscanf(p, "output 1 %*s at %d", &x1) == 1, "no output 1 line");
		CHECK((uint32_t)w1 == img[1].width && (uint32_t)h1 == img[1].height,
			"B configured %dx%d on a %ux%u head", w1, h1, img[1].width, img[1].height);
		CHECK(x1 == (int)img[0].width, "output 1 at x %d in the layout, not %u", x1,
			img[0].width);
		CHECK(strstr(log, "enter B 1"), "B did not enter the new output");
		bad = count_not(&img[1], colour[1]);
		printf("head 1 plugged in: wl_output added at x %d, B configured %dx%d; head 1: "
			"%zu pixels are not #%06x\n", x1, w1, h1, bad, colour[1]);
		CHECK(bad == 0, "head 1 does not show B");
		/* unplugged again: its wl_output global goes, B goes to head 0 */
		char want[64];
		snprintf(want, sizeof(want), "configure B %u %u", img[0].width, img[0].height);
		plug("off");
		wait_log(log_path, "output-removed 1", kiosk, 120);
		wait_log(log_path, want, kiosk, 120);
		usleep(1500000);
		rgb_image_free(&img[0]);
		dump(0, dir, &img[0]);
		bad = count_not(&img[0], colour[1]);
		printf("head 1 unplugged: wl_output removed, B on head 0: %zu pixels are not "
			"#%06x\n", bad, colour[1]);
		CHECK(bad == 0, "head 0 does not show B after head 1 went");
		/* plugged in again: a new global, and B (full-screen on it) goes back */
		snprintf(want, sizeof(want), "configure B %d %d", w1, h1);
		size_t seen = strlen(slurp(log_path));
		plug("on");
		for (int i = 0; i < 1200; i++) {
			const char *now = slurp(log_path);
			if (strlen(now) > seen && strstr(now + seen, want))
				break;
			CHECK(i < 1199, "B did not go back to head 1 after the replug; log:\n%s",
				now);
			CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited");
			usleep(100000);
		}
		usleep(1500000);
		rgb_image_free(&img[1]);
		dump(1, dir, &img[1]);
		bad = count_not(&img[1], colour[1]);
		printf("head 1 plugged in again: B configured %dx%d; head 1: %zu pixels are not "
			"#%06x\n", w1, h1, bad, colour[1]);
		CHECK(bad == 0, "head 1 does not show B again after the replug");
	} else {
		dump(0, dir, &img[0]);
		dump(1, dir, &img[1]);
	}
	if (hotplug) {
		/* done above */
	} else if (!mirror) {
		int w0 = 0, h0 = 0, w1 = 0, h1 = 0, x1 = -1;
		const char *p = strstr(log, "configure A ");
		CHECK(p && sscanf(p, "configure A %d %d", &w0, &h0) == 2, "no configure of A");
		p = strstr(log, "configure B ");
		CHECK(p && sscanf(p, "configure B %d %d", &w1, &h1) == 2, "no configure of B");
		p = strstr(log, "output 1 ");
		CHECK(p && sscanf(p, "output 1 %*s at %d", &x1) == 1, "no output 1 line");
		/* each toplevel has its head's size, the second head right of the first */
		CHECK((uint32_t)w0 == img[0].width && (uint32_t)h0 == img[0].height,
			"A configured %dx%d on a %ux%u head", w0, h0, img[0].width, img[0].height);
		CHECK((uint32_t)w1 == img[1].width && (uint32_t)h1 == img[1].height,
			"B configured %dx%d on a %ux%u head", w1, h1, img[1].width, img[1].height);
		CHECK(x1 == w0, "output 1 at x %d in the layout, not %d", x1, w0);
		CHECK(strstr(log, "enter A 0") && strstr(log, "enter B 1") &&
			!strstr(log, "enter A 1") && !strstr(log, "enter B 0"),
			"wl_surface.enter does not follow the outputs");
		for (int i = 0; i < 2; i++) {
			size_t bad = count_not(&img[i], colour[i]);
			printf("head %d: %zu pixels are not #%06x\n", i, bad, colour[i]);
			CHECK(bad == 0, "head %d does not show toplevel %s", i, i ? "B" : "A");
		}
		/* screencopy of the output named: each head's own pixels */
		grim_equals(dir, head1_name, 1, &img[1]);
		grim_equals(dir, head0_name, 0, &img[0]);
		/* the pointer: far left and up (on A), then right across the edge (onto B) */
		for (int i = 0; i < 6; i++)
			move(mouse.fd, -2000, -2000);
		wait_log(log_path, "ptr-enter A", kiosk, 60);
		for (int i = 0; i < 40 && !strstr(slurp(log_path), "ptr-enter B"); i++)
			move(mouse.fd, 150, 0);
		wait_log(log_path, "ptr-enter B", kiosk, 60);
		log = slurp(log_path);
		const char *a = strstr(log, "ptr-enter A"), *l = strstr(log, "ptr-leave A"),
			*b = strstr(log, "ptr-enter B");
		CHECK(a && l && b && a < l && l < b, "pointer: not enter A, leave A, enter B:\n%s",
			log);
		int bx = -1, by = -1;
		CHECK(sscanf(b, "ptr-enter B %d %d", &bx, &by) == 2 && bx >= 0 && bx < w1 &&
			by == 0, "B entered at %d,%d (want its top edge)", bx, by);
		printf("pointer crossed onto B at %d,%d\n", bx, by);

		/* head 1 unplugged: B goes to head 0 with its size, on top there */
		atexit(restore_head1);
		char want[64];
		snprintf(want, sizeof(want), "configure B %d %d", w0, h0);
		plug("off");
		wait_log(log_path, want, kiosk, 120);
		usleep(1500000); /* B's new buffer on screen */
		rgb_image_free(&img[0]);
		dump(0, dir, &img[0]);
		size_t bad = count_not(&img[0], colour[1]);
		printf("head 1 unplugged: B configured %dx%d; head 0: %zu pixels are not #%06x\n",
			w0, h0, bad, colour[1]);
		CHECK(bad == 0, "head 0 does not show B after head 1 was unplugged");
		/* plugged in again: B goes back with head 1's size */
		snprintf(want, sizeof(want), "configure B %d %d", w1, h1);
		size_t seen = strlen(slurp(log_path));
		plug("on");
		for (int i = 0; i < 1200; i++) {
			const char *now = slurp(log_path);
			if (strlen(now) > seen && strstr(now + seen, want))
				break;
			CHECK(i < 1199, "B was not configured %dx%d again after the replug; log:\n%s",
				w1, h1, now);
			CHECK(waitpid(kiosk, NULL, WNOHANG) == 0, "dispman-kiosk exited");
			usleep(100000);
		}
		usleep(1500000);
		rgb_image_free(&img[1]);
		dump(1, dir, &img[1]);
		bad = count_not(&img[1], colour[1]);
		printf("head 1 plugged in again: head 1: %zu pixels are not #%06x\n", bad,
			colour[1]);
		CHECK(bad == 0, "head 1 does not show B again after the replug");
		rgb_image_free(&img[0]);
		dump(0, dir, &img[0]);
		bad = count_not(&img[0], colour[0]);
		printf("head 0: %zu pixels are not #%06x (A again)\n", bad, colour[0]);
		CHECK(bad == 0, "head 0 does not show A again after the replug");
	} else {
		CHECK(strstr(log, "enter A 0") && strstr(log, "enter A 1"),
			"the mirrored surface did not enter both outputs");
		uint32_t w = img[0].width < img[1].width ? img[0].width : img[1].width;
		uint32_t h = img[0].height < img[1].height ? img[0].height : img[1].height;
		size_t differ = 0, off_pattern = 0;
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				const uint8_t *p0 = img[0].rgb + ((size_t)y * img[0].width + x) * 3;
				const uint8_t *p1 = img[1].rgb + ((size_t)y * img[1].width + x) * 3;
				if (memcmp(p0, p1, 3) != 0)
					differ++;
				if (p0[0] != (x & 0xff) || p0[1] != (y & 0xff) || p0[2] != 0x40)
					off_pattern++;
			}
		printf("mirror: %ux%u compared, %zu pixels differ between the heads, %zu of "
			"head 0 off the pattern\n", w, h, differ, off_pattern);
		CHECK(off_pattern == 0, "head 0 does not show the client's pattern");
		CHECK(differ == 0, "head 1 does not mirror head 0");
	}
	rgb_image_free(&img[0]);
	rgb_image_free(&img[1]);
	kill(kiosk, SIGTERM);
	int st = 0;
	waitpid(kiosk, &st, 0);
	uinput_destroy(&mouse);
	printf("PASS\n");
	return 0;
}
