/*
 * What a second driver needs (issue 9), on the guest's real drivers (vkms on 6.1 and 6.12,
 * virtio-gpu):
 *
 *   drivers CASE        (DISPMAN_TEST_DEVICE names the device, else discovery)
 *
 * Cases:
 *   linear-import  a dma-buf imported with the explicit LINEAR modifier is scanned out
 *                  (plane FB_ID, pixels by capture and, on virtio-gpu, QEMU's screendump), also without DRM_CAP_ADDFB2_MODIFIERS
 *                  (virtio-gpu); a tiled modifier is refused with EINVAL
 *   pacing-late    a frame committed 250 ms after a flip counts as late, with its skipped
 *                  vblanks, whatever clock the driver gives (virtio-gpu: sequence 0)
 *   cursor-hotspot a virtualized cursor plane (HOTSPOT_X/Y, hidden from plain atomic
 *                  clients: virtio-gpu on 6.12) is visible to the library and carries the
 *                  cursor layer's fb and hotspot; exit 77 where the device has none
 *   no-fb-format   an XBGR8888 buffer (no plane takes it; 6.12 vkms makes no framebuffer)
 *                  is created and composed, reason FORMAT, pixels checked by capture
 *                  (and screendump where the profile has one)
 *   yuv-composed   a YUYV layer (no plane of vkms or virtio-gpu takes YUV) under an
 *                  overlapping UI bar: composed on the CPU (BT.601), not dropped; pixels
 *                  by capture (writeback on vkms) and screendump (virtio-gpu)
 *   nv12-composed  the same with NV12 (two planes, 2x2 chroma): a dumb NV12 buffer, and an
 *                  NV12 import from two dma-bufs (as V4L2's NV12M) where the kernel makes
 *                  it a framebuffer (vkms 6.1)
 *
 * Exit 0 on success, 1 on the first failure, 77 when the case does not apply to the device
 * (decided by its capabilities).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <dispman/dispman.h>

#include "check.h"

#define SKIP 77

struct ctx {
	struct dispman_device *dev;
	struct dispman_output *out;
	const struct dispman_mode *mode;
	struct dispman_buffer *base;
	unsigned flips;
	uint64_t seq_first, seq_last;
	bool seq_varies;
};

static void on_frame(struct dispman_output *out, uint64_t seq, const struct timespec *t,
	void *data)
{
	struct ctx *c = data;
	(void)out;
	(void)t;
	if (c->flips == 0)
		c->seq_first = seq;
	else if (seq != c->seq_last)
		c->seq_varies = true;
	c->seq_last = seq;
	c->flips++;
}

static uint32_t pattern(uint32_t x, uint32_t y)
{
	return 0xff000000u | ((x * 7u) & 0xff) << 16 | ((y * 5u) & 0xff) << 8 | ((x + y) & 0xff);
}

static void fill_pattern(struct dispman_buffer *buf)
{
	uint32_t *px, stride;
	CHECK(dispman_buffer_map(buf, (void **)&px, &stride) == 0, "map");
	for (uint32_t y = 0; y < dispman_buffer_get_height(buf); y++)
		for (uint32_t x = 0; x < dispman_buffer_get_width(buf); x++)
			px[y * stride / 4 + x] = pattern(x, y);
}

static void wait_flips(struct ctx *c, unsigned n)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (c->flips < n) {
		int r = dispman_device_dispatch(c->dev, 500);
		CHECK(r >= 0, "dispatch: %s", strerror(-r));
		clock_gettime(CLOCK_MONOTONIC, &t);
		CHECK(t.tv_sec - t0.tv_sec < 60, "only %u of %u flips in 60 s", c->flips, n);
	}
}

static void commit_and_wait(struct ctx *c)
{
	unsigned n = c->flips + 1;
	int r = dispman_device_commit(c->dev);
	CHECK(r == 0, "commit: %s", strerror(-r));
	wait_flips(c, n);
}

static void setup(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	const char *path = getenv("DISPMAN_TEST_DEVICE");
	c->dev = dispman_device_open(path);
	CHECK(c->dev, "open %s: %s", path ? path : "(discovery)", strerror(errno));
	c->out = dispman_device_get_first_connected_output(c->dev);
	CHECK(c->out, "no connected output");
	CHECK(dispman_output_enable(c->out, NULL) == 0, "enable");
	c->mode = dispman_output_get_current_mode(c->out);
	dispman_output_set_frame_callback(c->out, on_frame, c);
	drmVersion *v = drmGetVersion(dispman_device_get_drm_fd(c->dev));
	uint64_t cap = 0;
	drmGetCap(dispman_device_get_drm_fd(c->dev), DRM_CAP_ADDFB2_MODIFIERS, &cap);
	printf("device: driver %s, %s %ux%u, ADDFB2_MODIFIERS %s\n", v ? v->name : "?",
		dispman_output_get_name(c->out), c->mode->width, c->mode->height,
		cap ? "yes" : "no");
	drmFreeVersion(v);
}

static void set_base(struct ctx *c, struct dispman_buffer *buf)
{
	CHECK(dispman_output_set_buffer(c->out, buf) == 0, "set_buffer");
}

static void teardown(struct ctx *c)
{
	dispman_buffer_unref(c->base);
	dispman_device_destroy(c->dev);
}

/* Property value of a KMS object by name; false when it has none. */
static bool prop(int fd, uint32_t id, uint32_t type, const char *name, uint64_t *value)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, id, type);
	bool found = false;
	for (uint32_t i = 0; props && i < props->count_props && !found; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && !strcmp(p->name, name)) {
			*value = props->prop_values[i];
			found = true;
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return found;
}

/*
 * Count pixels of the XRGB8888 picture (sp, stride ss) that differ from the pattern base,
 * or, inside want's rectangle at (rx, ry), from want.
 */
static uint64_t compare_pixels(struct ctx *c, const uint32_t *sp, uint32_t ss, int rx, int ry,
	struct dispman_buffer *want, const char *what)
{
	uint32_t *wp = NULL, ws = 0;
	uint32_t rw = want ? dispman_buffer_get_width(want) : 0;
	uint32_t rh = want ? dispman_buffer_get_height(want) : 0;
	if (want)
		CHECK(dispman_buffer_map(want, (void **)&wp, &ws) == 0, "map expected");
	uint64_t bad = 0;
	for (uint32_t y = 0; y < c->mode->height; y++)
		for (uint32_t x = 0; x < c->mode->width; x++) {
			bool in = want && (int)x >= rx && x < rx + rw && (int)y >= ry &&
				y < ry + rh;
			uint32_t exp = in ? wp[(y - (uint32_t)ry) * ws / 4 + (x - (uint32_t)rx)] :
				pattern(x, y);
			uint32_t got = sp[y * ss / 4 + x];
			if ((got & 0xffffff) != (exp & 0xffffff) && bad++ < 3)
				printf("  %s differs at %u,%u: got %06x want %06x\n", what, x, y,
					got & 0xffffff, exp & 0xffffff);
		}
	return bad;
}

/*
 * The head's screendump taken by QEMU (an oracle outside the guest's kernel and the
 * library) as XRGB8888, or NULL where the profile has none for this device.
 */
static uint32_t *screendump(struct ctx *c)
{
	const char *tool = getenv("DISPMAN_SCREENDUMP");
	const char *dev = getenv("DISPMAN_SCREENDUMP_DEVICE");
	const char *dut = getenv("DISPMAN_TEST_DEVICE");
	const char *out = getenv("DISPMAN_VM_OUT");
	if (!tool || !dev || !dut || !out || strcmp(dev, dut))
		return NULL;
	char file[512], cmd[1200];
	snprintf(file, sizeof(file), "%s/drivers-%d.ppm", out, (int)getpid());
	snprintf(cmd, sizeof(cmd), "'%s' --head 0 '%s'", tool, file);
	CHECK(system(cmd) == 0, "screendump failed: %s", cmd);
	FILE *f = fopen(file, "rb");
	CHECK(f, "open %s", file);
	unsigned w = 0, h = 0, max = 0;
	CHECK(fscanf(f, "P6 %u %u %u", &w, &h, &max) == 3 && fgetc(f) != EOF, "PPM header");
	CHECK(w == c->mode->width && h == c->mode->height && max == 255,
		"screendump %ux%u (max %u), mode %ux%u", w, h, max, c->mode->width,
		c->mode->height);
	uint32_t *px = malloc((size_t)w * h * 4);
	CHECK(px, "out of memory");
	for (size_t i = 0; i < (size_t)w * h; i++) {
		int r = fgetc(f), g = fgetc(f), b = fgetc(f);
		CHECK(b != EOF, "short PPM");
		px[i] = (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
	}
	fclose(f);
	unlink(file);
	return px;
}

/*
 * The screen against the pattern base (and want at rx, ry): through capture, and through
 * QEMU's screendump where the profile has one. Returns the differing pixels of both.
 */
static uint64_t compare_capture(struct ctx *c, int rx, int ry, struct dispman_buffer *want)
{
	struct dispman_buffer *shot = NULL;
	int r = dispman_output_capture(c->out, &shot);
	CHECK(r == 0, "capture: %s", strerror(-r));
	uint32_t *sp, ss;
	CHECK(dispman_buffer_map(shot, (void **)&sp, &ss) == 0, "map capture");
	uint64_t bad = compare_pixels(c, sp, ss, rx, ry, want, "capture");
	dispman_buffer_unref(shot);
	printf("capture: %llu pixels differ\n", (unsigned long long)bad);
	uint32_t *dump = screendump(c);
	if (dump) {
		uint64_t d = compare_pixels(c, dump, c->mode->width * 4, rx, ry, want,
			"screendump");
		printf("screendump (QEMU): %llu pixels differ\n", (unsigned long long)d);
		bad += d;
		free(dump);
	} else {
		printf("no screendump for this device: capture only\n");
	}
	return bad;
}

static struct dispman_buffer *pattern_base(struct ctx *c)
{
	struct dispman_buffer *b = dispman_buffer_create_dumb(c->dev, c->mode->width,
		c->mode->height, DRM_FORMAT_XRGB8888);
	CHECK(b && dispman_buffer_get_fb_id(b), "base buffer: %s", strerror(errno));
	fill_pattern(b);
	return b;
}

/* ---- linear-import ---- */

static int case_linear_import(void)
{
	struct ctx c;
	setup(&c);
	struct dispman_buffer *dumb = pattern_base(&c);
	int fd = -1;
	CHECK(dispman_buffer_export_dmabuf(dumb, &fd) == 0, "export");
	uint32_t stride;
	CHECK(dispman_buffer_map(dumb, NULL, &stride) == 0, "map");
	struct dispman_dmabuf_desc d = {
		.width = c.mode->width, .height = c.mode->height, .fourcc = DRM_FORMAT_XRGB8888,
		.modifier = DRM_FORMAT_MOD_LINEAR, .n_planes = 1, .fds = { fd },
		.pitches = { stride },
	};
	c.base = dispman_buffer_import_dmabuf(c.dev, &d);
	CHECK(c.base, "LINEAR import: %s", strerror(errno));
	CHECK(dispman_buffer_get_modifier(c.base) == DRM_FORMAT_MOD_LINEAR, "modifier");
	uint32_t fb = dispman_buffer_get_fb_id(c.base);
	CHECK(fb, "no framebuffer for the LINEAR import");
	set_base(&c, c.base);
	commit_and_wait(&c);
	struct dispman_placement pl;
	/* the internal base layer: read the primary plane's FB_ID from the kernel */
	int dfd = dispman_device_get_drm_fd(c.dev);
	uint64_t crtc = dispman_output_get_crtc_id(c.out), on_plane = 0;
	drmModePlaneRes *res = drmModeGetPlaneResources(dfd);
	CHECK(res, "plane resources");
	for (uint32_t i = 0; i < res->count_planes; i++) {
		uint64_t pf = 0, pc = 0;
		if (prop(dfd, res->planes[i], DRM_MODE_OBJECT_PLANE, "FB_ID", &pf) &&
		    prop(dfd, res->planes[i], DRM_MODE_OBJECT_PLANE, "CRTC_ID", &pc) &&
		    pf == fb && pc == crtc)
			on_plane = res->planes[i];
	}
	drmModeFreePlaneResources(res);
	printf("LINEAR import: fb %u on plane %llu (kernel state)\n", fb,
		(unsigned long long)on_plane);
	CHECK(on_plane, "no plane of the CRTC scans out the imported fb %u", fb);
	uint64_t bad = compare_capture(&c, 0, 0, NULL);
	CHECK(bad == 0, "%llu pixels differ", (unsigned long long)bad);

	/* a tiled layout is refused, saying why (no cap) or that no plane takes it */
	d.modifier = I915_FORMAT_MOD_X_TILED;
	errno = 0;
	struct dispman_buffer *tiled = dispman_buffer_import_dmabuf(c.dev, &d);
	CHECK(!tiled && errno == EINVAL, "X_TILED import: %p errno %d", (void *)tiled, errno);
	(void)pl;
	close(fd);
	dispman_buffer_unref(dumb);
	teardown(&c);
	printf("PASS\n");
	return 0;
}

/* ---- pacing-late ---- */

static int case_pacing_late(void)
{
	struct ctx c;
	setup(&c);
	struct dispman_buffer *b[2] = { pattern_base(&c), pattern_base(&c) };
	unsigned k = 0;
	set_base(&c, b[k++ & 1]);
	commit_and_wait(&c);
	for (int i = 0; i < 8; i++) {
		set_base(&c, b[k++ & 1]);
		commit_and_wait(&c);
	}
	struct dispman_output_stats before = { .size = sizeof(before) }, after = { .size = sizeof(after) }, end = { .size = sizeof(end) };
	dispman_output_get_stats(c.out, &before);
	/* the deliberately late frame: 250 ms after the last flip */
	usleep(250000);
	set_base(&c, b[k++ & 1]);
	commit_and_wait(&c);
	dispman_output_get_stats(c.out, &after);
	for (int i = 0; i < 5; i++) {
		set_base(&c, b[k++ & 1]);
		commit_and_wait(&c);
	}
	dispman_output_get_stats(c.out, &end);
	const char *clock = end.clock == DISPMAN_PACING_SEQUENCE ? "sequence" :
		end.clock == DISPMAN_PACING_TIMESTAMP ? "timestamp" : "none";
	printf("flips %u, sequence %s (first %llu, last %llu)\n", c.flips,
		c.seq_varies ? "advances" : "constant", (unsigned long long)c.seq_first,
		(unsigned long long)c.seq_last);
	printf("stats: frames %llu missed %llu late %llu skipped %llu refresh %u mHz, clock %s\n",
		(unsigned long long)end.frames, (unsigned long long)end.missed_vblanks,
		(unsigned long long)end.late_frames, (unsigned long long)end.skipped_vblanks,
		end.refresh_mhz, clock);
	printf("late frame: late %llu -> %llu, skipped %llu -> %llu\n",
		(unsigned long long)before.late_frames, (unsigned long long)after.late_frames,
		(unsigned long long)before.skipped_vblanks, (unsigned long long)after.skipped_vblanks);
	CHECK(end.clock == (c.seq_varies ? DISPMAN_PACING_SEQUENCE : DISPMAN_PACING_TIMESTAMP),
		"clock %s with a sequence that %s", clock, c.seq_varies ? "advances" : "stays");
	CHECK(after.late_frames == before.late_frames + 1, "the late frame was not counted");
	CHECK(end.refresh_mhz > 0, "no refresh rate");
	/* 250 ms is 15 vblanks at 60 Hz: at least 250 ms' worth minus two were skipped */
	uint64_t min_skip = 250ull * end.refresh_mhz / 1000000u;
	min_skip = min_skip > 2 ? min_skip - 2 : 1;
	CHECK(after.skipped_vblanks - before.skipped_vblanks >= min_skip,
		"the late frame skipped %llu vblanks, expected at least %llu",
		(unsigned long long)(after.skipped_vblanks - before.skipped_vblanks),
		(unsigned long long)min_skip);
	CHECK(end.frames >= 15, "frames %llu", (unsigned long long)end.frames);
	set_base(&c, NULL);
	dispman_buffer_unref(b[0]);
	dispman_buffer_unref(b[1]);
	teardown(&c);
	printf("PASS\n");
	return 0;
}

/* ---- cursor-hotspot ---- */

struct cursor_count {
	unsigned cursors, hotspot;
	uint32_t first_hotspot;
};

static struct cursor_count count_cursors(int fd)
{
	struct cursor_count n = { 0 };
	drmModePlaneRes *res = drmModeGetPlaneResources(fd);
	CHECK(res, "plane resources: %s", strerror(errno));
	for (uint32_t i = 0; i < res->count_planes; i++) {
		uint64_t type = 0, hx = 0;
		if (!prop(fd, res->planes[i], DRM_MODE_OBJECT_PLANE, "type", &type) ||
		    type != DRM_PLANE_TYPE_CURSOR)
			continue;
		n.cursors++;
		if (prop(fd, res->planes[i], DRM_MODE_OBJECT_PLANE, "HOTSPOT_X", &hx)) {
			if (!n.hotspot)
				n.first_hotspot = res->planes[i];
			n.hotspot++;
		}
	}
	drmModeFreePlaneResources(res);
	return n;
}

static void check_cursor_state(struct ctx *c, struct dispman_layer *layer,
	struct dispman_buffer *arrow, int hx, int hy)
{
	struct dispman_placement pl;
	CHECK(dispman_layer_get_placement(layer, &pl) == 0, "placement");
	printf("cursor layer: state %d plane %u reason %d\n", pl.state, pl.plane_id, pl.reason);
	CHECK(pl.state == DISPMAN_PLACEMENT_ON_PLANE, "the cursor layer is not on a plane");
	int fd = dispman_device_get_drm_fd(c->dev);
	uint64_t type = 0, fb = 0, crtc = 0, x = 0, y = 0;
	CHECK(prop(fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "type", &type) &&
		type == DRM_PLANE_TYPE_CURSOR, "plane %u is not a cursor plane", pl.plane_id);
	CHECK(prop(fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", &fb) &&
		prop(fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", &crtc) &&
		prop(fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "HOTSPOT_X", &x) &&
		prop(fd, pl.plane_id, DRM_MODE_OBJECT_PLANE, "HOTSPOT_Y", &y), "plane props");
	printf("kernel state of plane %u: FB_ID %llu CRTC_ID %llu HOTSPOT %lld,%lld\n",
		pl.plane_id, (unsigned long long)fb, (unsigned long long)crtc, (long long)x,
		(long long)y);
	CHECK(fb == dispman_buffer_get_fb_id(arrow), "FB_ID %llu, the cursor's fb is %u",
		(unsigned long long)fb, dispman_buffer_get_fb_id(arrow));
	CHECK(crtc == dispman_output_get_crtc_id(c->out), "CRTC_ID %llu", (unsigned long long)crtc);
	CHECK((int64_t)x == hx && (int64_t)y == hy, "HOTSPOT %lld,%lld, expected %d,%d",
		(long long)x, (long long)y, hx, hy);
}

static int case_cursor_hotspot(void)
{
	struct ctx c;
	setup(&c);
	struct cursor_count lib = count_cursors(dispman_device_get_drm_fd(c.dev));
	/* Two clients of our own, independent of the library: a plain atomic one and one
	 * that sets DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT (6); the second decides whether the
	 * case applies. */
	const char *path = getenv("DISPMAN_TEST_DEVICE");
	char node[64];
	if (!path) {
		char *name = drmGetDeviceNameFromFd2(dispman_device_get_drm_fd(c.dev));
		snprintf(node, sizeof(node), "%s", name ? name : "/dev/dri/card0");
		free(name);
		path = node;
	}
	int pfd = open(path, O_RDWR | O_CLOEXEC);
	CHECK(pfd >= 0, "open %s: %s", path, strerror(errno));
	CHECK(drmSetClientCap(pfd, DRM_CLIENT_CAP_ATOMIC, 1) == 0, "ATOMIC");
	struct cursor_count plain = count_cursors(pfd);
	bool has_cap = drmSetClientCap(pfd, 6 /* CURSOR_PLANE_HOTSPOT */, 1) == 0;
	struct cursor_count capped = has_cap ? count_cursors(pfd) : plain;
	close(pfd);
	printf("cursor planes: %u seen by the library (%u with HOTSPOT_X/Y), %u by a plain "
		"atomic client, %u (%u with HOTSPOT_X/Y) with the hotspot cap%s\n", lib.cursors,
		lib.hotspot, plain.cursors, capped.cursors, capped.hotspot,
		has_cap ? "" : " (refused)");
	if (!capped.hotspot) {
		printf("n/a: the device has no virtualized cursor plane (no HOTSPOT_X/Y)\n");
		teardown(&c);
		return SKIP;
	}
	CHECK(lib.hotspot == capped.hotspot && lib.cursors == capped.cursors,
		"the library sees %u cursor planes (%u virtualized), the kernel offers %u (%u): "
		"the client cap is not set", lib.cursors, lib.hotspot, capped.cursors,
		capped.hotspot);
	CHECK(capped.cursors > plain.cursors, "the kernel does not hide virtualized cursor "
		"planes from plain clients here (%u vs %u)", capped.cursors, plain.cursors);
	c.base = pattern_base(&c);
	set_base(&c, c.base);
	struct dispman_limits lim = { .size = sizeof(lim) };
	dispman_device_get_limits(c.dev, &lim);
	uint32_t cw = lim.cursor_width, ch = lim.cursor_height;
	struct dispman_buffer *arrow = dispman_buffer_create_dumb(c.dev, cw, ch,
		DRM_FORMAT_ARGB8888);
	CHECK(arrow, "cursor buffer: %s", strerror(errno));
	fill_pattern(arrow);
	struct dispman_layer *layer = dispman_layer_create(c.out);
	CHECK(layer, "layer");
	CHECK(dispman_layer_set_buffer(layer, arrow) == 0, "set buffer");
	CHECK(dispman_layer_set_cursor_hotspot(layer, 7, 9) == 0, "hotspot");
	dispman_layer_set_destination(layer, 200, 150, 0, 0);
	dispman_layer_set_z(layer, 100);
	commit_and_wait(&c);
	check_cursor_state(&c, layer, arrow, 7, 9);
	CHECK(dispman_layer_set_cursor_hotspot(layer, 20, 1) == 0, "hotspot");
	dispman_layer_set_destination(layer, 260, 90, 0, 0);
	commit_and_wait(&c);
	check_cursor_state(&c, layer, arrow, 20, 1);
	dispman_layer_destroy(layer);
	commit_and_wait(&c);
	dispman_buffer_unref(arrow);
	teardown(&c);
	printf("PASS\n");
	return 0;
}

/* ---- no-fb-format ---- */

static int case_no_fb_format(void)
{
	struct ctx c;
	setup(&c);
	c.base = pattern_base(&c);
	set_base(&c, c.base);
	const uint32_t w = 96, h = 64;
	struct dispman_buffer *xb = dispman_buffer_create_dumb(c.dev, w, h, DRM_FORMAT_XBGR8888);
	CHECK(xb, "XBGR8888 dumb buffer: %s", strerror(errno));
	printf("XBGR8888 buffer: fb %u (%s)\n", dispman_buffer_get_fb_id(xb),
		dispman_buffer_get_fb_id(xb) ? "the kernel made one" :
		"the kernel refused one: composition only");
	/* XBGR in memory: R in the low byte. The expected XRGB picture beside it. */
	struct dispman_buffer *want = dispman_buffer_create_dumb(c.dev, w, h, DRM_FORMAT_XRGB8888);
	CHECK(want, "expected buffer");
	uint32_t *xp, xs, *wp, ws;
	CHECK(dispman_buffer_map(xb, (void **)&xp, &xs) == 0, "map");
	CHECK(dispman_buffer_map(want, (void **)&wp, &ws) == 0, "map");
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t r = (x * 11u) & 0xff, g = (y * 3u) & 0xff, b = 0x40u + (x ^ y) % 64u;
			xp[y * xs / 4 + x] = b << 16 | g << 8 | r;
			wp[y * ws / 4 + x] = r << 16 | g << 8 | b;
		}
	struct dispman_layer *layer = dispman_layer_create(c.out);
	CHECK(layer, "layer");
	CHECK(dispman_layer_set_buffer(layer, xb) == 0, "set buffer");
	dispman_layer_set_destination(layer, 40, 30, 0, 0);
	dispman_layer_set_z(layer, 1);
	commit_and_wait(&c);
	struct dispman_placement pl;
	CHECK(dispman_layer_get_placement(layer, &pl) == 0, "placement");
	printf("placement: state %d reason %d\n", pl.state, pl.reason);
	CHECK(pl.state == DISPMAN_PLACEMENT_COMPOSITED && pl.reason == DISPMAN_REASON_FORMAT,
		"placement state %d reason %d, expected composited for FORMAT", pl.state,
		pl.reason);
	uint64_t bad = compare_capture(&c, 40, 30, want);
	CHECK(bad == 0, "%llu pixels differ", (unsigned long long)bad);
	dispman_layer_destroy(layer);
	dispman_buffer_unref(xb);
	dispman_buffer_unref(want);
	teardown(&c);
	printf("PASS\n");
	return 0;
}

/* ---- yuv-composed ---- */

static uint8_t clamp8(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* BT.601 limited range (the reference, written from the standard's matrix in integers) */
static uint32_t bt601(int y, int u, int v)
{
	int c = 298 * (y - 16), d = u - 128, e = v - 128;
	return (uint32_t)clamp8((c + 409 * e + 128) >> 8) << 16 |
	       (uint32_t)clamp8((c - 100 * d - 208 * e + 128) >> 8) << 8 |
	       (uint32_t)clamp8((c + 516 * d + 128) >> 8);
}

static int case_yuv_composed(void)
{
	struct ctx c;
	setup(&c);
	c.base = pattern_base(&c);
	set_base(&c, c.base);
	const uint32_t w = 128, h = 64, yx = 40, yy = 30;     /* the YUV layer */
	const uint32_t uw = 200, uh = 24, ux = 100, uy = 70;  /* the UI bar over it */
	const uint32_t ui = 0x2060a0;
	struct dispman_buffer *yuv = dispman_buffer_create_dumb(c.dev, w, h, DRM_FORMAT_YUYV);
	CHECK(yuv, "YUYV dumb buffer: %s", strerror(errno));
	uint8_t *yp;
	uint32_t ys;
	CHECK(dispman_buffer_map(yuv, (void **)&yp, &ys) == 0, "map YUYV");
	/* the expected picture over the union of both rectangles, the base around them */
	const uint32_t ew = ux + uw - yx, eh = uy + uh - yy;
	struct dispman_buffer *want = dispman_buffer_create_dumb(c.dev, ew, eh,
		DRM_FORMAT_XRGB8888);
	CHECK(want, "expected buffer");
	uint32_t *wp, ws;
	CHECK(dispman_buffer_map(want, (void **)&wp, &ws) == 0, "map expected");
	for (uint32_t y = 0; y < eh; y++)
		for (uint32_t x = 0; x < ew; x++)
			wp[y * ws / 4 + x] = pattern(x + yx, y + yy);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x += 2) {
			uint8_t y0 = (uint8_t)(16 + (x * 3 + y) % 220), y1 = (uint8_t)(y0 + 1);
			uint8_t u = (uint8_t)(16 + (x * 2) % 224), v = (uint8_t)(16 + (y * 3) % 224);
			uint8_t *q = yp + y * ys + x * 2;
			q[0] = y0, q[1] = u, q[2] = y1, q[3] = v;
			wp[y * ws / 4 + x] = bt601(y0, u, v);
			wp[y * ws / 4 + x + 1] = bt601(y1, u, v);
		}
	struct dispman_buffer *bar = dispman_buffer_create_dumb(c.dev, uw, uh,
		DRM_FORMAT_ARGB8888);
	CHECK(bar, "UI buffer");
	uint32_t *bp, bs;
	CHECK(dispman_buffer_map(bar, (void **)&bp, &bs) == 0, "map UI");
	for (uint32_t y = 0; y < uh; y++)
		for (uint32_t x = 0; x < uw; x++) {
			bp[y * bs / 4 + x] = 0xff000000u | ui;
			wp[(y + uy - yy) * ws / 4 + x + ux - yx] = ui;
		}
	struct dispman_layer *cam = dispman_layer_create(c.out);
	struct dispman_layer *ui_layer = dispman_layer_create(c.out);
	CHECK(cam && ui_layer, "layers");
	CHECK(dispman_layer_set_buffer(cam, yuv) == 0, "set YUYV buffer");
	dispman_layer_set_destination(cam, (int32_t)yx, (int32_t)yy, 0, 0);
	dispman_layer_set_z(cam, 1);
	CHECK(dispman_layer_set_buffer(ui_layer, bar) == 0, "set UI buffer");
	dispman_layer_set_destination(ui_layer, (int32_t)ux, (int32_t)uy, 0, 0);
	dispman_layer_set_z(ui_layer, 2);
	commit_and_wait(&c);
	struct dispman_placement pl, pu;
	CHECK(dispman_layer_get_placement(cam, &pl) == 0, "placement");
	CHECK(dispman_layer_get_placement(ui_layer, &pu) == 0, "placement");
	printf("YUYV layer: state %d reason %d; UI bar: state %d; planes: %d primary, "
		"%d overlay, %d cursor\n", pl.state, pl.reason, pu.state,
		dispman_output_get_plane_count(c.out, DISPMAN_PLANE_PRIMARY),
		dispman_output_get_plane_count(c.out, DISPMAN_PLANE_OVERLAY),
		dispman_output_get_plane_count(c.out, DISPMAN_PLANE_CURSOR));
	CHECK(pl.state == DISPMAN_PLACEMENT_COMPOSITED,
		"YUYV layer state %d reason %d, expected composited", pl.state, pl.reason);
	uint64_t bad = compare_capture(&c, (int)yx, (int)yy, want);
	CHECK(bad == 0, "%llu pixels differ", (unsigned long long)bad);
	dispman_layer_destroy(ui_layer);
	dispman_layer_destroy(cam);
	dispman_buffer_unref(bar);
	dispman_buffer_unref(yuv);
	dispman_buffer_unref(want);
	teardown(&c);
	printf("PASS\n");
	return 0;
}

/* ---- nv12-composed ---- */

/* The NV12 test picture: luma per pixel, one chroma pair per 2x2 block (all differ). */
static uint8_t nv12_y(uint32_t x, uint32_t y)
{
	return (uint8_t)(16 + (x * 3 + y * 5) % 220);
}

static uint8_t nv12_u(uint32_t cx, uint32_t cy)
{
	return (uint8_t)(16 + (cx * 9 + cy * 2) % 224);
}

static uint8_t nv12_v(uint32_t cx, uint32_t cy)
{
	return (uint8_t)(16 + (cy * 13 + cx * 3) % 224);
}

/* Write the picture into a luma and a chroma plane (rows of w bytes at the pitches). */
static void nv12_fill(uint8_t *luma, uint32_t ls, uint8_t *chroma, uint32_t cs, uint32_t w,
	uint32_t h)
{
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			luma[(size_t)y * ls + x] = nv12_y(x, y);
	for (uint32_t cy = 0; cy < h / 2; cy++)
		for (uint32_t cx = 0; cx < w / 2; cx++) {
			chroma[(size_t)cy * cs + cx * 2] = nv12_u(cx, cy);
			chroma[(size_t)cy * cs + cx * 2 + 1] = nv12_v(cx, cy);
		}
}

/*
 * Show the NV12 buffer nv at (40, 30) under an opaque UI bar that overlaps it, and check
 * it is composed, not dropped: placement COMPOSITED (no plane of vkms or virtio-gpu takes
 * NV12), and the screen, read back (writeback on vkms, the CPU capture on virtio-gpu, and
 * QEMU's screendump where there is one), shows the picture converted (BT.601 limited
 * range, each chroma pair over its 2x2 block), the bar over it, the base around.
 */
static void nv12_check(struct ctx *c, struct dispman_buffer *nv, const char *what)
{
	const uint32_t w = dispman_buffer_get_width(nv), h = dispman_buffer_get_height(nv);
	const uint32_t yx = 40, yy = 30;                      /* the NV12 layer */
	const uint32_t uw = 200, uh = 24, ux = 100, uy = 70;  /* the UI bar over it */
	const uint32_t ui = 0x2060a0;
	const uint32_t ew = ux + uw - yx, eh = uy + uh - yy;
	struct dispman_buffer *want = dispman_buffer_create_dumb(c->dev, ew, eh,
		DRM_FORMAT_XRGB8888);
	CHECK(want, "expected buffer");
	uint32_t *wp, ws;
	CHECK(dispman_buffer_map(want, (void **)&wp, &ws) == 0, "map expected");
	for (uint32_t y = 0; y < eh; y++)
		for (uint32_t x = 0; x < ew; x++) {
			uint32_t px = pattern(x + yx, y + yy);
			if (x < w && y < h)
				px = bt601(nv12_y(x, y), nv12_u(x / 2, y / 2), nv12_v(x / 2, y / 2));
			if (x + yx >= ux && y + yy >= uy)
				px = ui;
			wp[y * ws / 4 + x] = px;
		}
	struct dispman_buffer *bar = dispman_buffer_create_dumb(c->dev, uw, uh,
		DRM_FORMAT_ARGB8888);
	CHECK(bar && dispman_buffer_fill(bar, 0xff000000u | ui) == 0, "UI buffer");
	struct dispman_layer *cam = dispman_layer_create(c->out);
	struct dispman_layer *ui_layer = dispman_layer_create(c->out);
	CHECK(cam && ui_layer, "layers");
	CHECK(dispman_layer_set_buffer(cam, nv) == 0, "set NV12 buffer");
	dispman_layer_set_destination(cam, (int32_t)yx, (int32_t)yy, 0, 0);
	dispman_layer_set_z(cam, 1);
	CHECK(dispman_layer_set_buffer(ui_layer, bar) == 0, "set UI buffer");
	dispman_layer_set_destination(ui_layer, (int32_t)ux, (int32_t)uy, 0, 0);
	dispman_layer_set_z(ui_layer, 2);
	struct dispman_stats s0 = { .size = sizeof(s0) }, s1 = { .size = sizeof(s1) };
	dispman_device_get_stats(c->dev, &s0);
	commit_and_wait(c);
	dispman_device_get_stats(c->dev, &s1);
	struct dispman_placement pl, pu;
	CHECK(dispman_layer_get_placement(cam, &pl) == 0, "placement");
	CHECK(dispman_layer_get_placement(ui_layer, &pu) == 0, "placement");
	printf("%s: NV12 layer %s (%s), UI bar %s; compositions +%llu, composed pixels +%llu\n",
		what, dispman_placement_state_name(pl.state),
		dispman_placement_reason_name(pl.reason), dispman_placement_state_name(pu.state),
		(unsigned long long)(s1.compositions - s0.compositions),
		(unsigned long long)(s1.composed_pixels - s0.composed_pixels));
	CHECK(pl.state == DISPMAN_PLACEMENT_COMPOSITED, "%s: NV12 layer %s (%s), expected "
		"composited", what, dispman_placement_state_name(pl.state),
		dispman_placement_reason_name(pl.reason));
	CHECK(s1.compositions > s0.compositions, "%s: no composition counted", what);
	/* the NV12 layer's pixels not under the bar, at least, were drawn */
	CHECK(s1.composed_pixels - s0.composed_pixels >= (uint64_t)w * h - (uint64_t)(yx + w - ux) *
		(yy + h - uy), "%s: composed pixels +%llu", what,
		(unsigned long long)(s1.composed_pixels - s0.composed_pixels));
	uint64_t bad = compare_capture(c, (int)yx, (int)yy, want);
	CHECK(bad == 0, "%s: %llu pixels differ", what, (unsigned long long)bad);
	dispman_layer_destroy(ui_layer);
	dispman_layer_destroy(cam);
	commit_and_wait(c);
	dispman_buffer_unref(bar);
	dispman_buffer_unref(want);
}

static int case_nv12_composed(void)
{
	struct ctx c;
	setup(&c);
	c.base = pattern_base(&c);
	set_base(&c, c.base);
	const uint32_t w = 128, h = 64;
	/* 1. A dumb NV12 buffer: both planes in one object, each mapped on its own. */
	struct dispman_buffer *nv = dispman_buffer_create_dumb(c.dev, w, h, DRM_FORMAT_NV12);
	CHECK(nv, "NV12 dumb buffer: %s", strerror(errno));
	printf("NV12 dumb buffer: %u planes, fb %u (%s)\n", dispman_buffer_get_plane_count(nv),
		dispman_buffer_get_fb_id(nv), dispman_buffer_get_fb_id(nv) ? "the kernel made one" :
		"the kernel refused one: composition only");
	uint8_t *luma, *chroma;
	uint32_t ls, cs;
	CHECK(dispman_buffer_map_plane(nv, 0, (void **)&luma, &ls) == 0, "map luma");
	CHECK(dispman_buffer_map_plane(nv, 1, (void **)&chroma, &cs) == 0, "map chroma");
	nv12_fill(luma, ls, chroma, cs, w, h);
	nv12_check(&c, nv, "dumb");
	dispman_buffer_unref(nv);

	/*
	 * 2. NV12 imported as a camera's multi-planar buffer (V4L2's NV12M): luma and chroma
	 * in two dma-bufs (two dumb buffers exported), each plane mapped from its own fd.
	 * Only where the kernel makes an NV12 framebuffer for the import (an import must have
	 * one: vkms on 6.1; vkms on 6.12 and virtio-gpu refuse a format no plane takes).
	 */
	struct dispman_buffer *lb = dispman_buffer_create_dumb(c.dev, w / 4, h,
		DRM_FORMAT_XRGB8888);
	struct dispman_buffer *cb = dispman_buffer_create_dumb(c.dev, w / 4, h / 2,
		DRM_FORMAT_XRGB8888);
	CHECK(lb && cb, "plane buffers: %s", strerror(errno));
	CHECK(dispman_buffer_map(lb, (void **)&luma, &ls) == 0, "map");
	CHECK(dispman_buffer_map(cb, (void **)&chroma, &cs) == 0, "map");
	nv12_fill(luma, ls, chroma, cs, w, h);
	int lfd = -1, cfd = -1;
	CHECK(dispman_buffer_export_dmabuf(lb, &lfd) == 0 &&
		dispman_buffer_export_dmabuf(cb, &cfd) == 0, "export");
	struct dispman_dmabuf_desc d = {
		.width = w, .height = h, .fourcc = DRM_FORMAT_NV12,
		.modifier = DRM_FORMAT_MOD_INVALID, .n_planes = 2, .fds = { lfd, cfd },
		.pitches = { ls, cs },
	};
	nv = dispman_buffer_import_dmabuf(c.dev, &d);
	close(lfd);
	close(cfd);
	if (nv) {
		/* the library reads it through its own mappings of the two dma-bufs */
		dispman_buffer_unref(lb);
		dispman_buffer_unref(cb);
		lb = cb = NULL;
		nv12_check(&c, nv, "import, two dma-bufs");
		dispman_buffer_unref(nv);
	} else {
		printf("import, two dma-bufs: the kernel makes no NV12 framebuffer (%s): "
			"not applicable here\n", strerror(errno));
	}
	dispman_buffer_unref(lb);
	dispman_buffer_unref(cb);
	teardown(&c);
	printf("PASS\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		FAIL("usage: drivers CASE");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "linear-import"))
		return case_linear_import();
	if (!strcmp(argv[1], "pacing-late"))
		return case_pacing_late();
	if (!strcmp(argv[1], "cursor-hotspot"))
		return case_cursor_hotspot();
	if (!strcmp(argv[1], "no-fb-format"))
		return case_no_fb_format();
	if (!strcmp(argv[1], "yuv-composed"))
		return case_yuv_composed();
	if (!strcmp(argv[1], "nv12-composed"))
		return case_nv12_composed();
	FAIL("unknown case %s", argv[1]);
}
