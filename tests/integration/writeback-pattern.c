/*
 * The first integration test: it proves the whole chain with raw libdrm, no
 * libdispman involved. Open the device (it needs a writeback connector), show
 * a full-screen dumb buffer of a known pattern with an atomic commit, read it
 * back through the writeback connector, and compare every pixel.
 *
 * --expect-seed N compares against the pattern of seed N instead of the one
 * drawn (seed 1). With a different seed the comparison must find mismatches;
 * --expect-mismatch turns that into the pass condition, so the suite proves
 * that the comparison can fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "check.h"

struct dumb {
	uint32_t handle, pitch, fb;
	uint64_t size;
	uint32_t *map;
};

static uint32_t prop_id(int fd, uint32_t obj, uint32_t type, const char *name)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj, type);
	uint32_t id = 0;
	if (!props)
		FAIL("no properties for object %u", obj);
	for (uint32_t i = 0; i < props->count_props && !id; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && strcmp(p->name, name) == 0)
			id = p->prop_id;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	if (!id)
		FAIL("object %u has no property %s", obj, name);
	return id;
}

static uint64_t prop_value(int fd, uint32_t obj, uint32_t type, const char *name)
{
	uint32_t id = prop_id(fd, obj, type, name);
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, obj, type);
	uint64_t v = 0;
	for (uint32_t i = 0; i < props->count_props; i++)
		if (props->props[i] == id)
			v = props->prop_values[i];
	drmModeFreeObjectProperties(props);
	return v;
}

static void add(drmModeAtomicReq *req, int fd, uint32_t obj, uint32_t type,
		const char *name, uint64_t value)
{
	if (drmModeAtomicAddProperty(req, obj, prop_id(fd, obj, type, name), value) < 0)
		FAIL("cannot add %s", name);
}

static struct dumb dumb_create(int fd, uint32_t w, uint32_t h)
{
	struct drm_mode_create_dumb create = { .width = w, .height = h, .bpp = 32 };
	struct drm_mode_map_dumb map = { 0 };
	struct dumb d = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		FAIL("CREATE_DUMB: %s", strerror(errno));
	d.handle = create.handle;
	d.pitch = create.pitch;
	d.size = create.size;
	map.handle = d.handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		FAIL("MAP_DUMB: %s", strerror(errno));
	d.map = mmap(NULL, d.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map.offset);
	if (d.map == MAP_FAILED)
		FAIL("mmap: %s", strerror(errno));
	handles[0] = d.handle;
	pitches[0] = d.pitch;
	if (drmModeAddFB2(fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches, offsets, &d.fb, 0))
		FAIL("AddFB2: %s", strerror(errno));
	return d;
}

/* The known pattern: coloured bands, a gradient and a seeded grain, so that a
 * shifted, scaled or wrongly ordered frame cannot match by accident. */
static uint32_t pattern(uint32_t x, uint32_t y, uint32_t seed)
{
	uint32_t r = (x * 255u / 1023u) & 0xff;
	uint32_t g = (y * 255u / 767u) & 0xff;
	uint32_t b = ((x / 64u + y / 48u) & 1u) ? 0xc0 : 0x30;
	uint32_t v = (x * 73856093u) ^ (y * 19349663u) ^ (seed * 83492791u);
	v ^= v >> 15;
	v *= 2246822519u;
	v ^= v >> 13;
	b ^= v & 0x0f;
	return 0xff000000u | r << 16 | g << 8 | b;
}

int main(int argc, char **argv)
{
	uint32_t expect_seed = 1;
	bool expect_mismatch = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--expect-seed") == 0 && i + 1 < argc)
			expect_seed = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--expect-mismatch") == 0)
			expect_mismatch = true;
		else
			FAIL("usage: %s [--expect-seed N] [--expect-mismatch]", argv[0]);
	}

	const char *path = check_device_node();
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		FAIL("open %s: %s", path, strerror(errno));
	drmVersion *ver = drmGetVersion(fd);
	printf("device %s: driver %s\n", path, ver ? ver->name : "?");
	drmFreeVersion(ver);
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
		FAIL("client caps: %s", strerror(errno));

	drmModeRes *res = drmModeGetResources(fd);
	if (!res || res->count_crtcs < 1)
		FAIL("no CRTC");
	uint32_t crtc = res->crtcs[0], conn = 0, wb = 0;
	drmModeModeInfo mode = { 0 };
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
		if (!c)
			continue;
		if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			wb = c->connector_id;
		else if (!conn && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) {
			conn = c->connector_id;
			mode = c->modes[0];
			for (int m = 0; m < c->count_modes; m++)
				if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED)
					mode = c->modes[m];
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	if (!conn || !wb)
		FAIL("need a connected output and a writeback connector (got %u, %u)", conn, wb);
	uint32_t w = mode.hdisplay, h = mode.vdisplay;
	printf("mode %ux%u@%u, connector %u, writeback %u, crtc %u\n", w, h, mode.vrefresh, conn, wb, crtc);

	drmModePlaneRes *pres = drmModeGetPlaneResources(fd);
	uint32_t primary = 0;
	for (uint32_t i = 0; pres && i < pres->count_planes && !primary; i++)
		if (prop_value(fd, pres->planes[i], DRM_MODE_OBJECT_PLANE, "type") == DRM_PLANE_TYPE_PRIMARY)
			primary = pres->planes[i];
	drmModeFreePlaneResources(pres);
	if (!primary)
		FAIL("no primary plane");

	struct dumb scan = dumb_create(fd, w, h), cap = dumb_create(fd, w, h);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			scan.map[y * scan.pitch / 4 + x] = pattern(x, y, 1);
	memset(cap.map, 0, cap.size);

	uint32_t blob;
	if (drmModeCreatePropertyBlob(fd, &mode, sizeof(mode), &blob))
		FAIL("mode blob: %s", strerror(errno));

	/* 1. Show the pattern on the Virtual connector. */
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	add(req, fd, crtc, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	add(req, fd, crtc, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	add(req, fd, conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "FB_ID", scan.fb);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)w << 16);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)h << 16);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_W", w);
	add(req, fd, primary, DRM_MODE_OBJECT_PLANE, "CRTC_H", h);
	if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		FAIL("modeset commit: %s", strerror(errno));
	drmModeAtomicFree(req);
	if (prop_value(fd, primary, DRM_MODE_OBJECT_PLANE, "FB_ID") != scan.fb)
		FAIL("the kernel does not report our framebuffer on the primary plane");
	printf("pattern shown on the primary plane (fb %u)\n", scan.fb);

	/* 2. Read it back. vkms in Linux 6.1 cannot drive Virtual and Writeback
	 * from one CRTC at once, so route the CRTC to the writeback connector. */
	int32_t fence = -1;
	req = drmModeAtomicAlloc();
	add(req, fd, conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	add(req, fd, wb, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc);
	add(req, fd, wb, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID", cap.fb);
	add(req, fd, wb, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_OUT_FENCE_PTR",
	    (uint64_t)(uintptr_t)&fence);
	if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		FAIL("writeback commit: %s", strerror(errno));
	drmModeAtomicFree(req);
	if (fence < 0)
		FAIL("no writeback fence");
	struct pollfd pfd = { .fd = fence, .events = POLLIN };
	int n = poll(&pfd, 1, 10000);
	if (n != 1)
		FAIL("writeback fence did not signal in 10 s (%d)", n);
	close(fence);

	/* 3. Compare every pixel (alpha/X byte ignored: XRGB8888). */
	uint64_t bad = 0;
	uint32_t first_x = 0, first_y = 0, got0 = 0, want0 = 0;
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t got = cap.map[y * cap.pitch / 4 + x] & 0xffffff;
			uint32_t want = pattern(x, y, expect_seed) & 0xffffff;
			if (got != want && bad++ == 0) {
				first_x = x, first_y = y, got0 = got, want0 = want;
			}
		}
	printf("compared %u pixels against seed %u: %" PRIu64 " differ\n", w * h, expect_seed, bad);
	if (bad)
		printf("first difference at %u,%u: got %06x, want %06x\n", first_x, first_y, got0, want0);

	/* Leave the Virtual connector lit again, and clean up. */
	req = drmModeAtomicAlloc();
	add(req, fd, wb, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
	add(req, fd, conn, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", crtc);
	if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		FAIL("restore commit: %s", strerror(errno));
	drmModeAtomicFree(req);
	munmap(scan.map, scan.size);
	munmap(cap.map, cap.size);
	drmModeDestroyPropertyBlob(fd, blob);
	close(fd);

	if (expect_mismatch) {
		if (!bad)
			FAIL("a different expected pattern matched: the comparison cannot fail");
		printf("PASS: the comparison detects a wrong expected pattern\n");
		return 0;
	}
	if (bad)
		FAIL("%" PRIu64 " pixels differ from the pattern", bad);
	printf("PASS: every pixel read back through writeback matches\n");
	return 0;
}
