/* SPDX-License-Identifier: MIT */
/*
 * The core of libdispman on a real KMS device (vkms in the test guest). One executable,
 * one case per run:
 *
 *   core modeset   enable the preferred mode, then disable, then another mode, then the
 *                  preferred again; after each commit the kernel's own state (CRTC ACTIVE,
 *                  MODE_ID blob, connector CRTC_ID, primary FB_ID) must be what was asked
 *                  for, and dispman_output_get_active_mode() the MODE_ID's mode (the old
 *                  one, or none, until the commit).
 *   core flips     120 page flips: sequence numbers and timestamps strictly increasing,
 *                  mean interval near the mode's refresh, one release per flip.
 *   core formats   dumb buffers of every format vkms scans out (XR24, XR48, RG16 on the
 *                  primary plane, AR24 with per-pixel alpha on an overlay) read back
 *                  through writeback and compared exactly with what vkms must compose.
 *   core dmabuf    a dumb buffer exported as a dma-buf and imported as another buffer,
 *                  shown and read back; the caller's fd stays valid; both buffers keep
 *                  their GEM handle whatever the order they are freed in.
 *   core errors    bad inputs rejected with the documented errno, leaving no framebuffer,
 *                  fd or (under ASan) memory behind.
 *
 * Every case checks kernel state or pixels, never return codes alone, and exits 1 on the
 * first failure. DISPMAN_TEST_DEVICE names the device (default: dispman_device_open(NULL)).
 */
#include <dispman/dispman.h>

#include <dirent.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

/* Under ASan (the ASan build runs every integration test with it) leaks fail the test. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=1:abort_on_error=0";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

#include "check.h"
#include "kms-util.h"

#define FRAME_TIMEOUT_MS 10000

struct ctx {
	struct dispman_device *dev;
	struct dispman_output *out;
	int fd;                 /* the device's DRM fd, for kernel state queries */
	unsigned frames;        /* frame callbacks seen */
	uint64_t last_seq;
	struct timespec last_time;
};

/* ---- kernel state through the KMS API ---- */

static bool prop_get(int fd, uint32_t obj, uint32_t type, const char *name, uint64_t *value)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj, type);
	bool found = false;
	CHECK(props, "no properties for object %u: %s", obj, strerror(errno));
	for (uint32_t i = 0; i < props->count_props && !found; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && strcmp(p->name, name) == 0) {
			*value = props->prop_values[i];
			found = true;
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return found;
}

static uint64_t prop(int fd, uint32_t obj, uint32_t type, const char *name)
{
	uint64_t v = 0;
	CHECK(prop_get(fd, obj, type, name, &v), "object %u has no property %s", obj, name);
	return v;
}

static int crtc_index(int fd, uint32_t crtc)
{
	drmModeRes *res = drmModeGetResources(fd);
	int index = -1;
	CHECK(res, "GetResources: %s", strerror(errno));
	for (int i = 0; i < res->count_crtcs; i++)
		if (res->crtcs[i] == crtc)
			index = i;
	drmModeFreeResources(res);
	CHECK(index >= 0, "CRTC %u is not in the resources", crtc);
	return index;
}

/* The plane of the given type that can drive crtc (the first one for overlays). */
static uint32_t find_plane(int fd, uint32_t crtc, uint64_t type)
{
	int index = crtc_index(fd, crtc);
	drmModePlaneRes *pres = drmModeGetPlaneResources(fd);
	uint32_t id = 0;
	CHECK(pres, "GetPlaneResources: %s", strerror(errno));
	for (uint32_t i = 0; i < pres->count_planes && !id; i++) {
		drmModePlane *p = drmModeGetPlane(fd, pres->planes[i]);
		if (p && (p->possible_crtcs & (1u << index)) &&
		    prop(fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type") == type)
			id = p->plane_id;
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pres);
	return id;
}

/* Framebuffers created through this DRM file (GETRESOURCES lists only the caller's). */
static int count_fbs(int fd)
{
	drmModeRes *res = drmModeGetResources(fd);
	CHECK(res, "GetResources: %s", strerror(errno));
	int n = res->count_fbs;
	drmModeFreeResources(res);
	return n;
}

/* Framebuffers of every client of the device under test, from debugfs (the guest mounts
 * it); -1 when unreadable. */
static char all_fbs_path[128]; /* set by setup(): the fd is gone after device_destroy */
static int count_all_fbs(void)
{
	FILE *f = all_fbs_path[0] ? fopen(all_fbs_path, "r") : NULL;
	if (!f)
		return -1;
	char line[256];
	int n = 0;
	while (fgets(line, sizeof(line), f))
		n += strncmp(line, "framebuffer[", 12) == 0;
	fclose(f);
	return n;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	CHECK(d, "opendir /proc/self/fd: %s", strerror(errno));
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own fd */
}

/* ---- frames ---- */

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	struct ctx *c = data;
	c->frames++;
	c->last_seq = seq;
	c->last_time = *t;
}

static void wait_frame(struct ctx *c)
{
	unsigned before = c->frames;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (c->frames == before) {
		int n = dispman_device_dispatch(c->dev, 100);
		CHECK(n >= 0, "dispatch: %s", strerror(-n));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		CHECK(ms < FRAME_TIMEOUT_MS, "no page-flip event within %d ms", FRAME_TIMEOUT_MS);
	}
}

/* Let a commit without a flip event (a disable) settle: dispatch whatever comes. */
static void drain(struct ctx *c)
{
	for (int i = 0; i < 5; i++)
		if (dispman_device_dispatch(c->dev, 50) < 0)
			break;
}

static void setup(struct ctx *c)
{
	const char *path = check_device();
	memset(c, 0, sizeof(*c));
	c->dev = dispman_device_open(path);
	CHECK(c->dev, "cannot open %s: %s", path ? path : "the DRM device", strerror(errno));
	path = dispman_device_get_path(c->dev);
	c->fd = dispman_device_get_drm_fd(c->dev);
	if (debugfs_dri_path(c->fd, "framebuffer", all_fbs_path, sizeof(all_fbs_path)) < 0)
		all_fbs_path[0] = 0;
	drmVersion *v = drmGetVersion(c->fd);
	printf("device %s: driver %s\n", path, v ? v->name : "?");
	drmFreeVersion(v);
	c->out = dispman_device_get_first_connected_output(c->dev);
	CHECK(c->out, "no connected output");
	dispman_output_set_frame_callback(c->out, on_frame, c);
}

static void show(struct ctx *c, struct dispman_buffer *buf)
{
	CHECK(dispman_output_set_buffer(c->out, buf) == 0, "set_buffer");
	int ret = dispman_device_commit(c->dev);
	CHECK(ret == 0, "commit: %s", strerror(-ret));
	wait_frame(c);
}

/* ---- pixels ---- */

static uint32_t hash(uint32_t x, uint32_t y, uint32_t seed)
{
	uint32_t v = (x * 73856093u) ^ (y * 19349663u) ^ (seed * 83492791u);
	v ^= v >> 15;
	v *= 2246822519u;
	v ^= v >> 13;
	v *= 3266489917u;
	v ^= v >> 16;
	return v;
}

static void *row_of(struct dispman_buffer *buf, uint32_t y)
{
	void *data;
	uint32_t stride;
	CHECK(dispman_buffer_map(buf, &data, &stride) == 0, "map");
	return (char *)data + (size_t)y * stride;
}

static struct dispman_buffer *dumb(struct ctx *c, uint32_t w, uint32_t h, uint32_t fourcc)
{
	struct dispman_buffer *b = dispman_buffer_create_dumb(c->dev, w, h, fourcc);
	CHECK(b, "create_dumb %ux%u %.4s: %s", w, h, (const char *)&fourcc, strerror(errno));
	CHECK(dispman_buffer_get_fb_id(b) != 0, "dumb buffer without a framebuffer");
	return b;
}

/* An XRGB8888 pattern: gradients plus grain, so shifts and swaps cannot match. */
static uint32_t xrgb_pattern(uint32_t x, uint32_t y, uint32_t seed)
{
	uint32_t r = (x * 255u / 1023u) & 0xff, g = (y * 255u / 767u) & 0xff;
	return (r << 16 | g << 8 | (hash(x, y, seed) & 0xff)) ^ (hash(x, y, seed + 1) & 0x0f0f0f);
}

static void fill_xrgb(struct dispman_buffer *b, uint32_t seed)
{
	for (uint32_t y = 0; y < dispman_buffer_get_height(b); y++) {
		uint32_t *row = row_of(b, y);
		for (uint32_t x = 0; x < dispman_buffer_get_width(b); x++)
			row[x] = 0xff000000u | xrgb_pattern(x, y, seed);
	}
}

/*
 * Capture the output and compare every pixel (X byte ignored) with want (w*h XRGB values).
 * Returns the number of mismatches after printing them; fails on a capture error.
 */
static size_t capture_compare(struct ctx *c, const uint32_t *want, const char *what)
{
	struct dispman_buffer *frame = NULL;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int ret = dispman_output_capture(c->out, &frame);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s: capture took %.1f ms\n", what, (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	CHECK(ret == 0 && frame, "capture (%s): %s", what, strerror(-ret));
	uint32_t w = dispman_buffer_get_width(frame), h = dispman_buffer_get_height(frame);
	const struct dispman_mode *m = dispman_output_get_current_mode(c->out);
	CHECK(w == m->width && h == m->height, "captured %ux%u, mode %ux%u", w, h, m->width,
		m->height);
	CHECK(dispman_buffer_get_format(frame) == DRM_FORMAT_XRGB8888, "capture not XRGB8888");
	size_t bad = 0, near = 0;
	for (uint32_t y = 0; y < h; y++) {
		const uint32_t *row = row_of(frame, y);
		for (uint32_t x = 0; x < w; x++) {
			uint32_t got = row[x] & 0xffffff, exp = want[(size_t)y * w + x] & 0xffffff;
			if (got == exp)
				continue;
			bool off_by_one = true;
			for (int s = 0; s < 24; s += 8) {
				int d = (int)((got >> s) & 0xff) - (int)((exp >> s) & 0xff);
				off_by_one = off_by_one && d >= -1 && d <= 1;
			}
			near += off_by_one;
			if (bad++ < 5)
				printf("  %s: pixel %u,%u got %06x want %06x\n", what, x, y, got, exp);
		}
	}
	printf("%s: %zu of %u pixels differ (%zu of them by at most 1 per channel)\n", what, bad,
		w * h, near);
	dispman_buffer_unref(frame);
	return bad;
}

/* ---- modeset ---- */

/* The connector's mode that matches a dispman mode (size, nearest refresh). */
static drmModeModeInfo connector_mode(int fd, uint32_t conn, const struct dispman_mode *m)
{
	drmModeConnector *c = drmModeGetConnector(fd, conn);
	CHECK(c, "GetConnector %u: %s", conn, strerror(errno));
	drmModeModeInfo best = { 0 };
	double best_err = 1e30;
	for (int i = 0; i < c->count_modes; i++) {
		const drmModeModeInfo *k = &c->modes[i];
		if (k->hdisplay != m->width || k->vdisplay != m->height)
			continue;
		double mhz = (double)k->clock * 1e6 / ((double)k->htotal * k->vtotal);
		double err = mhz > m->refresh_mhz ? mhz - m->refresh_mhz : m->refresh_mhz - mhz;
		if ((m->flags & DISPMAN_MODE_PREFERRED) && (k->type & DRM_MODE_TYPE_PREFERRED))
			err = -1;
		if (err < best_err) {
			best_err = err;
			best = *k;
		}
	}
	drmModeFreeConnector(c);
	CHECK(best.hdisplay, "connector %u has no mode %ux%u", conn, m->width, m->height);
	return best;
}

static void check_enabled_state(struct ctx *c, const struct dispman_mode *m,
	struct dispman_buffer *buf)
{
	uint32_t crtc = dispman_output_get_crtc_id(c->out);
	uint32_t conn = dispman_output_get_connector_id(c->out);
	CHECK(crtc, "enabled output reports no CRTC");
	drmModeModeInfo want = connector_mode(c->fd, conn, m);

	uint64_t active = prop(c->fd, crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE");
	uint64_t blob_id = prop(c->fd, crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID");
	CHECK(active == 1, "CRTC %u ACTIVE is %" PRIu64 ", want 1", crtc, active);
	CHECK(blob_id != 0, "CRTC %u has no MODE_ID blob", crtc);
	drmModePropertyBlobRes *blob = drmModeGetPropertyBlob(c->fd, (uint32_t)blob_id);
	CHECK(blob, "MODE_ID blob %" PRIu64 ": %s", blob_id, strerror(errno));
	CHECK(blob->length == sizeof(drmModeModeInfo), "MODE_ID blob has %u bytes", blob->length);
	drmModeModeInfo got;
	memcpy(&got, blob->data, sizeof(got));
	drmModeFreePropertyBlob(blob);
	if (memcmp(&got, &want, sizeof(got)) != 0)
		FAIL("kernel mode %s %ux%u clock %u htotal %u vtotal %u differs from the "
			"connector's %s %ux%u clock %u htotal %u vtotal %u", got.name, got.hdisplay,
			got.vdisplay, got.clock, got.htotal, got.vtotal, want.name, want.hdisplay,
			want.vdisplay, want.clock, want.htotal, want.vtotal);

	/* the library's active mode is the kernel's: MODE_ID's blob */
	struct dispman_mode am;
	int r = dispman_output_get_active_mode(c->out, &am);
	CHECK(r == 0, "get_active_mode: %s", strerror(-r));
	CHECK(am.width == got.hdisplay && am.height == got.vdisplay &&
		am.refresh_mhz == m->refresh_mhz && !strncmp(am.name, got.name, sizeof(got.name)),
		"active mode %s %ux%u @ %u mHz, the kernel's MODE_ID is %s %ux%u", am.name,
		am.width, am.height, am.refresh_mhz, got.name, got.hdisplay, got.vdisplay);

	uint64_t conn_crtc = prop(c->fd, conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
	CHECK(conn_crtc == crtc, "connector %u CRTC_ID %" PRIu64 ", want %u", conn, conn_crtc,
		crtc);
	uint32_t primary = find_plane(c->fd, crtc, DRM_PLANE_TYPE_PRIMARY);
	CHECK(primary, "no primary plane for CRTC %u", crtc);
	uint64_t fb = prop(c->fd, primary, DRM_MODE_OBJECT_PLANE, "FB_ID");
	uint64_t pcrtc = prop(c->fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_ID");
	CHECK(fb == dispman_buffer_get_fb_id(buf), "primary plane %u FB_ID %" PRIu64 ", want %u",
		primary, fb, dispman_buffer_get_fb_id(buf));
	CHECK(pcrtc == crtc, "primary plane CRTC_ID %" PRIu64 ", want %u", pcrtc, crtc);
	drmModeCrtc *kc = drmModeGetCrtc(c->fd, crtc);
	CHECK(kc && kc->mode_valid && kc->mode.hdisplay == m->width &&
		kc->mode.vdisplay == m->height, "GetCrtc does not report %ux%u", m->width, m->height);
	drmModeFreeCrtc(kc);
	printf("kernel: CRTC %u ACTIVE 1, MODE_ID %" PRIu64 " = %s (%ux%u, clock %u), connector "
		"%u on it, primary plane %u shows fb %" PRIu64 "\n", crtc, blob_id, got.name,
		got.hdisplay, got.vdisplay, got.clock, conn, primary, fb);
}

static int case_modeset(struct ctx *c)
{
	/* 1. The preferred mode. */
	CHECK(dispman_output_enable(c->out, NULL) == 0, "enable preferred mode");
	const struct dispman_mode *m = dispman_output_get_current_mode(c->out);
	CHECK(m && (m->flags & DISPMAN_MODE_PREFERRED), "current mode is not the preferred one");
	printf("preferred mode %s %ux%u @ %u mHz\n", m->name, m->width, m->height, m->refresh_mhz);
	struct dispman_buffer *a = dumb(c, m->width, m->height, DRM_FORMAT_XRGB8888);
	fill_xrgb(a, 1);
	show(c, a);
	check_enabled_state(c, m, a);
	uint32_t crtc = dispman_output_get_crtc_id(c->out);

	/* 2. Disabled. */
	CHECK(dispman_output_disable(c->out) == 0, "disable");
	dispman_output_set_buffer(c->out, NULL);
	int ret = dispman_device_commit(c->dev);
	CHECK(ret == 0, "disable commit: %s", strerror(-ret));
	drain(c);
	uint64_t active = prop(c->fd, crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE");
	uint64_t conn_crtc = prop(c->fd, dispman_output_get_connector_id(c->out),
		DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
	CHECK(active == 0, "CRTC %u still ACTIVE after disable", crtc);
	CHECK(conn_crtc == 0, "connector still on CRTC %" PRIu64 " after disable", conn_crtc);
	CHECK(!dispman_output_is_enabled(c->out), "output still reports enabled");
	struct dispman_mode am;
	CHECK(dispman_output_get_active_mode(c->out, &am) == -ENODATA,
		"an active mode after the disable commit");
	printf("kernel: after disable CRTC %u ACTIVE 0, connector CRTC_ID 0\n", crtc);

	/* 3. Another listed mode: 800x600 when there is one, else any other size. */
	const struct dispman_mode *other = NULL;
	for (size_t i = 0; i < dispman_output_get_mode_count(c->out) && !other; i++) {
		const struct dispman_mode *k = dispman_output_get_mode(c->out, i);
		if (k->width == 800 && k->height == 600)
			other = k;
	}
	for (size_t i = 0; i < dispman_output_get_mode_count(c->out) && !other; i++) {
		const struct dispman_mode *k = dispman_output_get_mode(c->out, i);
		if (k->width != m->width || k->height != m->height)
			other = k;
	}
	CHECK(other, "the output lists no second mode");
	printf("second mode %s %ux%u @ %u mHz\n", other->name, other->width, other->height,
		other->refresh_mhz);
	CHECK(dispman_output_enable(c->out, other) == 0, "enable %s", other->name);
	CHECK(dispman_output_get_current_mode(c->out) == other, "current mode is not the one set");
	/* pending, not committed: the kernel drives nothing yet (disabled above) */
	CHECK(dispman_output_get_active_mode(c->out, &am) == -ENODATA,
		"an active mode before the commit");
	struct dispman_buffer *b = dumb(c, other->width, other->height, DRM_FORMAT_XRGB8888);
	fill_xrgb(b, 2);
	show(c, b);
	check_enabled_state(c, other, b);

	/* What the CRTC scans out at that mode is the new buffer, pixel for pixel. */
	uint32_t *want = malloc(sizeof(uint32_t) * other->width * other->height);
	CHECK(want, "out of memory");
	for (uint32_t y = 0; y < other->height; y++)
		for (uint32_t x = 0; x < other->width; x++)
			want[(size_t)y * other->width + x] = xrgb_pattern(x, y, 2);
	size_t bad = capture_compare(c, want, "800x600 readback");
	free(want);
	CHECK(bad == 0, "%zu pixels differ at the second mode", bad);
	/* The capture's own modesets must have restored the output. */
	check_enabled_state(c, other, b);

	/* 4. Straight back to the preferred mode: until the commit the active mode is still
	 * the kernel's (the second one) while the current one is already the preferred. */
	CHECK(dispman_output_enable(c->out, m) == 0, "enable %s again", m->name);
	CHECK(dispman_output_get_active_mode(c->out, &am) == 0 && am.width == other->width &&
		am.height == other->height, "active mode %ux%u before the commit, want %ux%u",
		am.width, am.height, other->width, other->height);
	show(c, a);
	check_enabled_state(c, m, a);

	struct dispman_stats st = { .size = sizeof(st) };
	dispman_device_get_stats(c->dev, &st);
	printf("stats: %" PRIu64 " commits, %" PRIu64 " modesets, %" PRIu64 " flips\n",
		st.commits, st.modesets, st.flips);
	/* the three enables; a writeback capture may add modesets of its own */
	CHECK(st.modesets >= 3, "stats count %" PRIu64 " modesets, want at least 3", st.modesets);
	dispman_buffer_unref(a);
	dispman_buffer_unref(b);
	return 0;
}

/* ---- page flips ---- */

#define N_FLIPS 120

struct flip_log {
	uint64_t seq[N_FLIPS + 1];
	struct timespec t[N_FLIPS + 1];
	unsigned releases;
};

static void on_release(struct dispman_buffer *buf, void *data)
{
	((struct flip_log *)data)->releases++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int case_flips(struct ctx *c)
{
	CHECK(dispman_output_enable(c->out, NULL) == 0, "enable");
	const struct dispman_mode *m = dispman_output_get_current_mode(c->out);
	struct dispman_buffer *buf[2];
	static struct flip_log log;
	for (int i = 0; i < 2; i++) {
		buf[i] = dumb(c, m->width, m->height, DRM_FORMAT_XRGB8888);
		fill_xrgb(buf[i], (uint32_t)i + 10);
		dispman_buffer_set_release_callback(buf[i], on_release, &log);
	}
	show(c, buf[0]);
	log.seq[0] = c->last_seq;
	log.t[0] = c->last_time;
	log.releases = 0;
	struct dispman_stats st0 = { .size = sizeof(st0) }, st1 = { .size = sizeof(st1) };
	dispman_device_get_stats(c->dev, &st0);

	for (int i = 1; i <= N_FLIPS; i++) {
		CHECK(dispman_output_set_buffer(c->out, buf[i % 2]) == 0, "set_buffer");
		int ret = dispman_device_commit(c->dev);
		CHECK(ret == 0, "flip %d: commit: %s", i, strerror(-ret));
		wait_frame(c);
		log.seq[i] = c->last_seq;
		log.t[i] = c->last_time;
	}
	dispman_device_get_stats(c->dev, &st1);

	double period_ms = 1e6 / (double)m->refresh_mhz;
	/* The kernel says whether the CRTC counts vblanks; without a counter (virtio-gpu)
	 * every flip event carries sequence 0 and only the timestamps can be checked. */
	bool counter = crtc_has_vblank_counter(c->fd, dispman_output_get_crtc_id(c->out));
	printf("the kernel %s vblank counter for the CRTC\n", counter ? "keeps a" : "has no");
	double iv[N_FLIPS], sum = 0;
	unsigned by_one = 0;
	uint64_t max_step = 0;
	for (int i = 1; i <= N_FLIPS; i++) {
		if (counter)
			CHECK(log.seq[i] > log.seq[i - 1], "flip %d: sequence %" PRIu64 " after %"
				PRIu64, i, log.seq[i], log.seq[i - 1]);
		else
			CHECK(log.seq[i] == 0, "flip %d: sequence %" PRIu64 " without a vblank counter",
				i, log.seq[i]);
		uint64_t step = log.seq[i] - log.seq[i - 1];
		by_one += step == 1;
		max_step = step > max_step ? step : max_step;
		double dt = (double)(log.t[i].tv_sec - log.t[i - 1].tv_sec) * 1e3 +
			(double)(log.t[i].tv_nsec - log.t[i - 1].tv_nsec) / 1e6;
		CHECK(dt > 0, "flip %d: timestamp does not increase (%.3f ms)", i, dt);
		iv[i - 1] = dt;
		sum += dt;
	}
	qsort(iv, N_FLIPS, sizeof(iv[0]), cmp_double);
	double mean = sum / N_FLIPS, median = (iv[N_FLIPS / 2 - 1] + iv[N_FLIPS / 2]) / 2;
	double per_seq = counter ? sum / (double)(log.seq[N_FLIPS] - log.seq[0]) : 0;
	printf("%d flips: sequence %" PRIu64 " -> %" PRIu64 ", %u steps of exactly 1, largest "
		"step %" PRIu64 "\n", N_FLIPS, log.seq[0], log.seq[N_FLIPS], by_one, max_step);
	printf("flip interval: mean %.3f ms, median %.3f ms, min %.3f ms, max %.3f ms; "
		"%.3f ms per vblank; mode period %.3f ms\n", mean, median, iv[0], iv[N_FLIPS - 1],
		per_seq, period_ms);
	printf("releases: %u, stats.flips %" PRIu64 " -> %" PRIu64 "\n", log.releases, st0.flips,
		st1.flips);
	/* A driver with a vblank counter holds flips to vblank: not much faster than the
	 * period. One without (virtio-gpu) completes them as fast as the host takes them. */
	CHECK((!counter || mean >= 0.5 * period_ms) && mean <= 4 * period_ms,
		"mean flip interval %.3f ms is not within %sx..4x of %.3f ms", mean,
		counter ? "0.5" : "0", period_ms);
	/* vkms stamps each vblank from its hrtimer: time per vblank is the period. */
	if (counter)
		CHECK(per_seq >= 0.9 * period_ms && per_seq <= 1.1 * period_ms,
			"%.3f ms per vblank, mode period %.3f ms", per_seq, period_ms);
	CHECK(log.releases == N_FLIPS, "%u release callbacks for %d flips", log.releases,
		N_FLIPS);
	CHECK(st1.flips - st0.flips == N_FLIPS, "stats count %" PRIu64 " flips, want %d",
		st1.flips - st0.flips, N_FLIPS);
	uint32_t primary = find_plane(c->fd, dispman_output_get_crtc_id(c->out),
		DRM_PLANE_TYPE_PRIMARY);
	uint64_t fb = prop(c->fd, primary, DRM_MODE_OBJECT_PLANE, "FB_ID");
	CHECK(fb == dispman_buffer_get_fb_id(buf[N_FLIPS % 2]), "primary shows fb %" PRIu64
		", the last flip was fb %u", fb, dispman_buffer_get_fb_id(buf[N_FLIPS % 2]));
	for (int i = 0; i < 2; i++)
		dispman_buffer_unref(buf[i]);
	return 0;
}

/* ---- formats ---- */

/* What vkms (Linux 6.1, vkms_formats.c) turns each format into, as 8-bit XRGB:
 * pixels are widened to 16 bits per channel, composed, then written back as
 * DIV_ROUND_CLOSEST(c16, 257). */
static uint32_t to8(uint32_t c16)
{
	return (c16 + 128) / 257;
}

/*
 * RGB565: vkms widens with its 32.32 fixed point: c * (65535 / 31) (or 63), truncated by
 * drm_fixp2int(); other kernels round instead. After the division by 257 both give the
 * same 8-bit value for every c (the exact quotient is never within 2 units of 16 bits of a
 * rounding boundary): see expand_check() which asserts it.
 */
static uint32_t expand565(uint32_t c, uint32_t max)
{
	return to8(c * 65535u / max);
}

static void expand_check(void)
{
	for (uint32_t max = 31; max <= 63; max += 32)
		for (uint32_t c = 0; c <= max; c++) {
			uint32_t trunc = to8(c * 65535u / max);
			uint32_t round = to8((c * 65535u + max / 2) / max);
			uint32_t ideal = (c * 255u * 2 + max) / (2 * max);
			CHECK(trunc == round && round == ideal, "565 expansion of %u/%u ambiguous", c,
				max);
		}
}

static size_t show_format(struct ctx *c, uint32_t fourcc, const char *name)
{
	const struct dispman_mode *m = dispman_output_get_current_mode(c->out);
	uint32_t w = m->width, h = m->height;
	struct dispman_buffer *b = dumb(c, w, h, fourcc);
	uint32_t *want = malloc(sizeof(uint32_t) * w * h);
	CHECK(want, "out of memory");
	for (uint32_t y = 0; y < h; y++) {
		void *row = row_of(b, y);
		for (uint32_t x = 0; x < w; x++) {
			uint32_t v = hash(x, y, fourcc), v2 = hash(x, y, fourcc + 1);
			uint32_t *exp = &want[(size_t)y * w + x];
			if (fourcc == DRM_FORMAT_XRGB8888) {
				((uint32_t *)row)[x] = v;
				*exp = v & 0xffffff;
			} else if (fourcc == DRM_FORMAT_XRGB16161616) {
				uint16_t *p = (uint16_t *)row + 4 * x;
				p[0] = (uint16_t)v;          /* B */
				p[1] = (uint16_t)(v >> 16);  /* G */
				p[2] = (uint16_t)v2;         /* R */
				p[3] = (uint16_t)(v2 >> 16); /* X */
				*exp = to8(p[2]) << 16 | to8(p[1]) << 8 | to8(p[0]);
			} else { /* RGB565 */
				uint16_t p = (uint16_t)v;
				((uint16_t *)row)[x] = p;
				*exp = expand565(p >> 11, 31) << 16 | expand565((p >> 5) & 0x3f, 63) << 8 |
					expand565(p & 0x1f, 31);
			}
		}
	}
	show(c, b);
	uint32_t primary = find_plane(c->fd, dispman_output_get_crtc_id(c->out),
		DRM_PLANE_TYPE_PRIMARY);
	CHECK(prop(c->fd, primary, DRM_MODE_OBJECT_PLANE, "FB_ID") == dispman_buffer_get_fb_id(b),
		"%s: the primary plane does not show our framebuffer", name);
	size_t bad = capture_compare(c, want, name);
	free(want);
	dispman_buffer_unref(b);
	return bad;
}

#define OV_W 256
#define OV_H 192
#define OV_X 96
#define OV_Y 64

/* vkms_composer.c pre_mul_blend_channel(): 16-bit premultiplied "over". */
static uint32_t blend16(uint32_t src, uint32_t dst, uint32_t alpha)
{
	uint32_t n = src * 0xffffu + dst * (0xffffu - alpha); /* src <= alpha: no overflow */
	return (n + 0xffffu / 2) / 0xffffu;
}

static size_t show_overlay(struct ctx *c)
{
	const struct dispman_mode *m = dispman_output_get_current_mode(c->out);
	uint32_t w = m->width, h = m->height;
	struct dispman_buffer *bg = dumb(c, w, h, DRM_FORMAT_XRGB8888);
	fill_xrgb(bg, 7);
	struct dispman_buffer *ov = dumb(c, OV_W, OV_H, DRM_FORMAT_ARGB8888);
	uint32_t *want = malloc(sizeof(uint32_t) * w * h);
	CHECK(want, "out of memory");
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			want[(size_t)y * w + x] = xrgb_pattern(x, y, 7);
	for (uint32_t y = 0; y < OV_H; y++) {
		uint32_t *row = row_of(ov, y);
		for (uint32_t x = 0; x < OV_W; x++) {
			uint32_t v = hash(x, y, 99);
			/* rows of fully transparent and fully opaque pixels, the rest anything */
			uint32_t a = y < 8 ? 0 : y < 16 ? 0xff : v >> 24;
			uint32_t r = (v & 0xff) % (a + 1), g = ((v >> 8) & 0xff) % (a + 1);
			uint32_t b = ((v >> 16) & 0xff) % (a + 1); /* premultiplied: c <= a */
			row[x] = a << 24 | r << 16 | g << 8 | b;
			uint32_t *exp = &want[(size_t)(y + OV_Y) * w + x + OV_X];
			uint32_t d = *exp, out = 0;
			for (int s = 0; s < 24; s += 8) {
				uint32_t sc = (row[x] >> s) & 0xff, dc = (d >> s) & 0xff;
				out |= to8(blend16(sc * 257, dc * 257, a * 257)) << s;
			}
			*exp = out;
		}
	}
	CHECK(dispman_output_set_buffer(c->out, bg) == 0, "set_buffer");
	struct dispman_layer *layer = dispman_layer_create(c->out);
	CHECK(layer, "layer_create");
	CHECK(dispman_layer_set_buffer(layer, ov) == 0, "layer_set_buffer");
	dispman_layer_set_destination(layer, OV_X, OV_Y, OV_W, OV_H);
	dispman_layer_set_blend_mode(layer, DISPMAN_BLEND_PREMULTIPLIED);
	int ret = dispman_device_commit(c->dev);
	CHECK(ret == 0, "overlay commit: %s", strerror(-ret));
	wait_frame(c);
	struct dispman_placement pl;
	CHECK(dispman_layer_get_placement(layer, &pl) == 0, "placement");
	CHECK(pl.state == DISPMAN_PLACEMENT_ON_PLANE, "AR24 layer not on a plane (reason %d)",
		pl.reason);
	uint64_t type = prop(c->fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "type");
	uint64_t fb = prop(c->fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID");
	uint64_t cx = prop(c->fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_X");
	uint64_t cy = prop(c->fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_Y");
	printf("AR24 layer on plane %u (type %" PRIu64 "), fb %" PRIu64 " at %" PRIu64 ",%" PRIu64
		"\n", pl.plane_id, type, fb, cx, cy);
	CHECK(type == DRM_PLANE_TYPE_OVERLAY, "the layer is on plane type %" PRIu64
		", want overlay", type);
	CHECK(fb == dispman_buffer_get_fb_id(ov) && cx == OV_X && cy == OV_Y,
		"the overlay plane does not show our buffer at %d,%d", OV_X, OV_Y);
	size_t bad = capture_compare(c, want, "AR24 overlay over XR24");
	free(want);
	dispman_layer_destroy(layer);
	dispman_buffer_unref(ov);
	dispman_buffer_unref(bg);
	return bad;
}

/* Whether the kernel lists fourcc for the plane. */
static bool plane_takes(int fd, uint32_t plane, uint32_t fourcc)
{
	drmModePlane *p = plane ? drmModeGetPlane(fd, plane) : NULL;
	bool yes = false;
	for (uint32_t i = 0; p && i < p->count_formats; i++)
		yes = yes || p->formats[i] == fourcc;
	drmModeFreePlane(p);
	return yes;
}

/*
 * Each of XR24, XR48 and RG16 that the kernel lists for the primary plane (vkms: all
 * three; virtio-gpu: XR24 only), and an AR24 layer over XR24 where the CRTC has an overlay
 * plane that takes AR24. XR24 on the primary plane is required.
 */
static int case_formats(struct ctx *c)
{
	expand_check();
	CHECK(dispman_output_enable(c->out, NULL) == 0, "enable");
	uint32_t crtc = dispman_output_get_crtc_id(c->out);
	uint32_t primary = find_plane(c->fd, crtc, DRM_PLANE_TYPE_PRIMARY);
	uint32_t overlay = find_plane(c->fd, crtc, DRM_PLANE_TYPE_OVERLAY);
	CHECK(plane_takes(c->fd, primary, DRM_FORMAT_XRGB8888), "the primary plane has no XR24");
	static const struct { uint32_t fourcc; const char *name; } fmts[] = {
		{ DRM_FORMAT_XRGB8888, "XR24 primary" },
		{ DRM_FORMAT_XRGB16161616, "XR48 primary" },
		{ DRM_FORMAT_RGB565, "RG16 primary" },
	};
	size_t bad = 0;
	unsigned tested = 0;
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		if (!plane_takes(c->fd, primary, fmts[i].fourcc)) {
			printf("%s: not tested, the kernel does not list it for plane %u\n",
				fmts[i].name, primary);
			continue;
		}
		bad += show_format(c, fmts[i].fourcc, fmts[i].name);
		tested++;
	}
	if (overlay && plane_takes(c->fd, overlay, DRM_FORMAT_ARGB8888)) {
		bad += show_overlay(c);
		tested++;
	} else {
		printf("AR24 overlay: not tested, the CRTC has no overlay plane taking AR24\n");
	}
	printf("formats: %u cases read back\n", tested);
	CHECK(bad == 0, "%zu pixels differ in total", bad);
	return 0;
}

/* ---- dma-buf ---- */

static int case_dmabuf(struct ctx *c)
{
	CHECK(dispman_output_enable(c->out, NULL) == 0, "enable");
	const struct dispman_mode *m = dispman_output_get_current_mode(c->out);
	uint32_t w = m->width, h = m->height;
	int fbs0 = count_fbs(c->fd);
	struct dispman_buffer *a = dumb(c, w, h, DRM_FORMAT_XRGB8888);
	fill_xrgb(a, 21);
	uint32_t stride;
	CHECK(dispman_buffer_map(a, NULL, &stride) == 0, "map");
	int fd = -1;
	int ret = dispman_buffer_export_dmabuf(a, &fd);
	CHECK(ret == 0 && fd >= 0, "export: %s", strerror(-ret));
	off_t size = lseek(fd, 0, SEEK_END);
	printf("exported %ux%u XR24 (pitch %u) as dma-buf fd %d of %lld bytes\n", w, h, stride,
		fd, (long long)size);

	struct dispman_dmabuf_desc d = {
		.width = w, .height = h, .fourcc = DRM_FORMAT_XRGB8888,
		.modifier = DRM_FORMAT_MOD_LINEAR, .n_planes = 1,
		.fds = { fd, -1, -1, -1 }, .pitches = { stride },
	};
	struct dispman_buffer *b = dispman_buffer_import_dmabuf(c->dev, &d);
	CHECK(b, "import: %s", strerror(errno));
	CHECK(fcntl(fd, F_GETFD) >= 0, "the caller's fd was closed by the import");
	uint32_t fb_a = dispman_buffer_get_fb_id(a), fb_b = dispman_buffer_get_fb_id(b);
	CHECK(fb_b && fb_b != fb_a, "imported buffer has fb %u (source fb %u)", fb_b, fb_a);
	CHECK(dispman_buffer_get_modifier(b) == DRM_FORMAT_MOD_LINEAR, "modifier lost");

	/* The import's own CPU view is the same memory. */
	for (uint32_t y = 0; y < h; y += 97)
		CHECK(memcmp(row_of(a, y), row_of(b, y), w * 4) == 0, "row %u differs through the "
			"imported buffer's mapping", y);

	show(c, b);
	uint32_t primary = find_plane(c->fd, dispman_output_get_crtc_id(c->out),
		DRM_PLANE_TYPE_PRIMARY);
	CHECK(prop(c->fd, primary, DRM_MODE_OBJECT_PLANE, "FB_ID") == fb_b,
		"the primary plane does not show the imported buffer");
	uint32_t *want = malloc(sizeof(uint32_t) * w * h);
	CHECK(want, "out of memory");
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			want[(size_t)y * w + x] = xrgb_pattern(x, y, 21);
	size_t bad = capture_compare(c, want, "imported dma-buf");
	CHECK(bad == 0, "%zu pixels differ through the imported buffer", bad);

	/* Drop the import: its fd is the caller's still, and the source buffer, which shares
	 * the GEM object (a same-device import gives back the same GEM handle), stays whole:
	 * it exports again and shows the same pixels. */
	show(c, a);
	dispman_buffer_unref(b);
	drain(c);
	CHECK(fcntl(fd, F_GETFD) >= 0, "the caller's fd was closed by the unref");
	int fd2 = -1;
	ret = dispman_buffer_export_dmabuf(a, &fd2);
	CHECK(ret == 0, "the source buffer cannot export after the import was freed: %s "
		"(its GEM handle was closed with the import)", strerror(-ret));
	close(fd2);
	bad = capture_compare(c, want, "source after import freed");
	CHECK(bad == 0, "%zu pixels differ", bad);

	/* The other order: import again, free the source first, show the import. */
	struct dispman_buffer *b2 = dispman_buffer_import_dmabuf(c->dev, &d);
	CHECK(b2, "second import: %s", strerror(errno));
	uint32_t fb_b2 = dispman_buffer_get_fb_id(b2);
	struct dispman_buffer *x = dumb(c, w, h, DRM_FORMAT_XRGB8888);
	show(c, x);
	dispman_buffer_unref(a);
	drain(c);
	ret = dispman_buffer_export_dmabuf(b2, &fd2);
	CHECK(ret == 0, "the import cannot export after its source was freed: %s",
		strerror(-ret));
	close(fd2);
	show(c, b2);
	bad = capture_compare(c, want, "import after source freed");
	CHECK(bad == 0, "%zu pixels differ", bad);
	show(c, x);
	dispman_buffer_unref(b2);
	drain(c);
	uint32_t fb_x = dispman_buffer_get_fb_id(x);
	dispman_buffer_unref(x);
	free(want);
	CHECK(fcntl(fd, F_GETFD) >= 0, "the caller's fd was closed");
	close(fd);
	/* None of the freed buffers' framebuffers is left; x's is (the library holds x until
	 * it leaves the screen). Besides, the library keeps one composition buffer of the
	 * mode's size per enabled output, made at its first plane search. */
	drmModeRes *res = drmModeGetResources(c->fd);
	CHECK(res, "GetResources: %s", strerror(errno));
	printf("framebuffers of this client: %d before, %d after (fb on screen %u)\n", fbs0,
		res->count_fbs, fb_x);
	for (int i = 0; i < res->count_fbs; i++) {
		drmModeFB *fb = drmModeGetFB(c->fd, res->fbs[i]);
		printf("  fb %u: %ux%u\n", res->fbs[i], fb ? fb->width : 0, fb ? fb->height : 0);
		drmModeFreeFB(fb);
	}
	bool have_x = false;
	for (int i = 0; i < res->count_fbs; i++) {
		uint32_t id = res->fbs[i];
		have_x = have_x || id == fb_x;
		/* the kernel hands a freed framebuffer's id to the next one made (idr):
		 * x may carry the id of a buffer that was freed before x was made */
		CHECK(id == fb_x || (id != fb_a && id != fb_b && id != fb_b2),
			"framebuffer %u of a freed buffer is still in the kernel", id);
	}
	CHECK(have_x, "the framebuffer on screen (%u) is gone", fb_x);
	CHECK(res->count_fbs <= fbs0 + 2, "%d framebuffers left, want the one on screen and at "
		"most one composition buffer", res->count_fbs - fbs0);
	int ours = res->count_fbs;
	drmModeFreeResources(res);
	int all0 = count_all_fbs();
	dispman_device_destroy(c->dev);
	c->dev = NULL;
	int all1 = count_all_fbs();
	printf("framebuffers in the kernel (debugfs): %d with the device, %d after destroy\n",
		all0, all1);
	CHECK(all0 < 0 || all1 == all0 - ours, "device destroy left framebuffers behind");
	return 0;
}

/* ---- bad inputs ---- */

struct leak_base {
	int fbs, fds, all_fbs;
};

static struct leak_base leak_base(struct ctx *c)
{
	struct leak_base b = { count_fbs(c->fd), count_fds(), count_all_fbs() };
	return b;
}

static void expect_no_leak(struct ctx *c, const struct leak_base *b, const char *what)
{
	int fbs = count_fbs(c->fd), fds = count_fds();
	CHECK(fbs == b->fbs, "%s: %d framebuffers left behind", what, fbs - b->fbs);
	CHECK(fds == b->fds, "%s: %d fds left behind", what, fds - b->fds);
}

static void expect_dumb_error(struct ctx *c, uint32_t w, uint32_t h, uint32_t fourcc, int err,
	const char *what)
{
	struct leak_base b = leak_base(c);
	errno = 0;
	struct dispman_buffer *buf = dispman_buffer_create_dumb(c->dev, w, h, fourcc);
	CHECK(!buf, "%s: create_dumb succeeded", what);
	CHECK(errno == err, "%s: errno %d (%s), want %d (%s)", what, errno, strerror(errno), err,
		strerror(err));
	expect_no_leak(c, &b, what);
	printf("ok: create_dumb %s -> %s\n", what, strerror(err));
}

static void expect_import_error(struct ctx *c, const struct dispman_dmabuf_desc *d, int err,
	const char *what)
{
	struct leak_base b = leak_base(c);
	errno = 0;
	struct dispman_buffer *buf = dispman_buffer_import_dmabuf(c->dev, d);
	CHECK(!buf, "%s: import succeeded", what);
	CHECK(errno == err, "%s: errno %d (%s), want %d (%s)", what, errno, strerror(errno), err,
		strerror(err));
	expect_no_leak(c, &b, what);
	for (uint32_t i = 0; i < d->n_planes && i < 4; i++)
		if (d->fds[i] >= 0 && err != EBADF)
			CHECK(fcntl(d->fds[i], F_GETFD) >= 0, "%s: the caller's fd was closed", what);
	printf("ok: import %s -> %s\n", what, strerror(err));
}

static int case_errors(struct ctx *c)
{
	int all_fbs0 = count_all_fbs();
	struct dispman_limits lim = { .size = sizeof(lim) };
	dispman_device_get_limits(c->dev, &lim);
	printf("limits: %ux%u .. %ux%u\n", lim.min_width, lim.min_height, lim.max_width,
		lim.max_height);
	CHECK(lim.max_width && lim.max_height, "the device reports no maximum size");

	expect_dumb_error(c, 64, 64, fourcc_code('Z', 'Z', 'Z', 'Z'), EINVAL, "unknown fourcc");
	/* multi-planar YUV is taken (since #32): one object, its planes one after another */
	struct leak_base nb = leak_base(c);
	struct dispman_buffer *nv12 = dispman_buffer_create_dumb(c->dev, 64, 64, DRM_FORMAT_NV12);
	CHECK(nv12, "multi-planar NV12: create_dumb failed: %s", strerror(errno));
	CHECK(dispman_buffer_get_plane_count(nv12) == 2, "multi-planar NV12: %u planes, want 2",
		dispman_buffer_get_plane_count(nv12));
	dispman_buffer_unref(nv12);
	expect_no_leak(c, &nb, "multi-planar NV12");
	printf("ok: create_dumb multi-planar NV12 -> 2 planes\n");
	expect_dumb_error(c, 0, 64, DRM_FORMAT_XRGB8888, EINVAL, "width 0");
	expect_dumb_error(c, 64, 0, DRM_FORMAT_XRGB8888, EINVAL, "height 0");
	expect_dumb_error(c, lim.max_width + 1, 64, DRM_FORMAT_XRGB8888, ERANGE, "width > max");
	expect_dumb_error(c, 64, lim.max_height + 1, DRM_FORMAT_XRGB8888, ERANGE, "height > max");

	/* A real dma-buf to import from. */
	const uint32_t w = 256, h = 128;
	struct dispman_buffer *src = dumb(c, w, h, DRM_FORMAT_XRGB8888);
	uint32_t stride;
	CHECK(dispman_buffer_map(src, NULL, &stride) == 0, "map");
	int fd = -1;
	CHECK(dispman_buffer_export_dmabuf(src, &fd) == 0, "export");
	off_t size = lseek(fd, 0, SEEK_END);
	CHECK(size >= (off_t)stride * h, "dma-buf of %lld bytes", (long long)size);
	const struct dispman_dmabuf_desc good = {
		.width = w, .height = h, .fourcc = DRM_FORMAT_XRGB8888,
		.modifier = DRM_FORMAT_MOD_INVALID, .n_planes = 1,
		.fds = { fd, -1, -1, -1 }, .pitches = { stride },
	};
	struct dispman_dmabuf_desc d;

	d = good, d.fourcc = fourcc_code('Z', 'Z', 'Z', 'Z');
	expect_import_error(c, &d, EINVAL, "unknown fourcc");
	d = good, d.width = 0;
	expect_import_error(c, &d, EINVAL, "width 0");
	d = good, d.height = 0;
	expect_import_error(c, &d, EINVAL, "height 0");
	d = good, d.width = lim.max_width + 1;
	expect_import_error(c, &d, ERANGE, "width > max");
	d = good, d.pitches[0] = w * 4 - 4;
	expect_import_error(c, &d, EINVAL, "pitch one pixel short");
	d = good, d.offsets[0] = (uint32_t)size;
	expect_import_error(c, &d, EINVAL, "offset at the end of the dma-buf");
	d = good, d.offsets[0] = stride;
	expect_import_error(c, &d, EINVAL, "last row beyond the dma-buf");
	d = good, d.height = (uint32_t)(size / stride) + 1;
	expect_import_error(c, &d, EINVAL, "more rows than the dma-buf holds");
	d = good, d.n_planes = 2, d.fds[1] = fd, d.pitches[1] = stride;
	expect_import_error(c, &d, EINVAL, "n_planes 2 for XR24");
	d = good, d.n_planes = 0;
	expect_import_error(c, &d, EINVAL, "n_planes 0");
	d = good, d.fourcc = DRM_FORMAT_NV12;
	expect_import_error(c, &d, EINVAL, "n_planes 1 for NV12");
	d = good, d.modifier = I915_FORMAT_MOD_X_TILED;
	expect_import_error(c, &d, EINVAL, "modifier no plane takes (X_TILED)");
	d = good, d.fds[0] = -1;
	expect_import_error(c, &d, EBADF, "fd -1");
	int closed = dup(fd);
	CHECK(closed >= 0, "dup");
	close(closed);
	d = good, d.fds[0] = closed;
	expect_import_error(c, &d, EBADF, "closed fd");
	/* Valid for the library, refused by the kernel: an fd that is no dma-buf (a memfd of
	 * the right size) fails the PRIME import with EINVAL. As the second plane of NV12 the
	 * first plane (our dma-buf) was imported before: the cleanup must not take the
	 * source's GEM handle with it (a same-device import shares the handle). */
	int mfd = memfd_create("not-a-dmabuf", MFD_CLOEXEC);
	CHECK(mfd >= 0 && ftruncate(mfd, (off_t)size) == 0, "memfd: %s", strerror(errno));
	d = good, d.fds[0] = mfd;
	expect_import_error(c, &d, EINVAL, "memfd, not a dma-buf (kernel)");
	d = good, d.fourcc = DRM_FORMAT_NV12, d.n_planes = 2, d.fds[1] = mfd;
	d.pitches[1] = stride;
	expect_import_error(c, &d, EINVAL, "NV12 with a memfd as plane 1 (kernel)");
	close(mfd);
	int fd2 = -1;
	int ret = dispman_buffer_export_dmabuf(src, &fd2);
	CHECK(ret == 0, "the source cannot export after a failed import: %s (its GEM handle "
		"was closed by the import's cleanup)", strerror(-ret));
	close(fd2);

	/* The controls: the same descriptor imports, implicit and with LINEAR. */
	struct leak_base base = leak_base(c);
	d = good;
	struct dispman_buffer *ok = dispman_buffer_import_dmabuf(c->dev, &d);
	CHECK(ok, "valid import failed: %s", strerror(errno));
	dispman_buffer_unref(ok);
	d.modifier = DRM_FORMAT_MOD_LINEAR;
	ok = dispman_buffer_import_dmabuf(c->dev, &d);
	CHECK(ok, "valid LINEAR import failed: %s", strerror(errno));
	dispman_buffer_unref(ok);
	expect_no_leak(c, &base, "valid imports freed");
	ret = dispman_buffer_export_dmabuf(src, &fd2);
	CHECK(ret == 0, "the source cannot export after imports were freed: %s", strerror(-ret));
	close(fd2);

	close(fd);
	dispman_buffer_unref(src);
	int fbs = count_fbs(c->fd);
	CHECK(fbs == 0, "%d framebuffers of this client left after freeing every buffer", fbs);
	dispman_device_destroy(c->dev);
	c->dev = NULL;
	int all_fbs1 = count_all_fbs();
	printf("framebuffers in the kernel (debugfs, every client): %d before, %d after\n",
		all_fbs0, all_fbs1);
	CHECK(all_fbs1 == all_fbs0, "%d framebuffers left in the kernel", all_fbs1 - all_fbs0);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(struct ctx *c);
	} cases[] = {
		{ "modeset", case_modeset },
		{ "flips", case_flips },
		{ "formats", case_formats },
		{ "dmabuf", case_dmabuf },
		{ "errors", case_errors },
	};
	if (argc != 2) {
		fprintf(stderr, "usage: %s modeset|flips|formats|dmabuf|errors\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(argv[1], cases[i].name) != 0)
			continue;
		struct ctx c;
		setup(&c);
		int ret = cases[i].run(&c);
		dispman_device_destroy(c.dev);
		if (ret == 0)
			printf("PASS: %s\n", cases[i].name);
		return ret;
	}
	fprintf(stderr, "unknown case %s\n", argv[1]);
	return 2;
}
