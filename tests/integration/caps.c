/*
 * dispman-caps: what the device under test and the guest around it can do, as the
 * integration tests' requirements name it (tests/integration/meson.build). It asks the
 * kernel, never a driver or profile name. One `name=value` line each:
 *
 *   driver=NAME      DRM driver of the device (for the log only: no requirement uses it)
 *   atomic=0|1       DRM_CLIENT_CAP_ATOMIC accepted
 *   modifiers=0|1    DRM_CAP_ADDFB2_MODIFIERS
 *   crtcs=N          CRTCs
 *   vblank-counter=0|1  the kernel keeps a vblank counter for the first CRTC
 *                    (DRM_IOCTL_CRTC_GET_SEQUENCE does not answer EOPNOTSUPP)
 *   outputs=N        connected connectors, writeback connectors not counted
 *   writeback=N      writeback connectors (DRM_CLIENT_CAP_WRITEBACK_CONNECTORS)
 *   primaries=N overlays=N cursors=N   planes of each type, as an atomic client with
 *                    the cursor-hotspot cap (where the kernel has it) sees them
 *   vivid=N          vivid capture nodes among /dev/video0..15
 *   vivid-import=0|1 a buffer exported from /dev/video0 (VIDIOC_EXPBUF) imports into
 *                    the device (drmPrimeFDToHandle)
 *   uinput=0|1       /dev/uinput can be opened
 *   screendump=0|1   the host can screendump the device's heads: DISPMAN_SCREENDUMP is
 *                    set and DISPMAN_SCREENDUMP_DEVICE is the device under test
 *
 * Usage: dispman-caps [DEVICE]   (default $DISPMAN_DEVICE, then $DISPMAN_TEST_DEVICE,
 * then /dev/dri/card0). Exit 0, or 1 when the device cannot be opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "kms-util.h"

#ifndef DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT
#define DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT 6
#endif

static const char *device_path(int argc, char **argv)
{
	if (argc > 1)
		return argv[1];
	const char *p = getenv("DISPMAN_DEVICE");
	if (!p || !*p)
		p = getenv("DISPMAN_TEST_DEVICE");
	return p && *p ? p : "/dev/dri/card0";
}

static uint64_t plane_type(int fd, uint32_t plane)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, plane, DRM_MODE_OBJECT_PLANE);
	uint64_t type = UINT64_MAX;
	for (uint32_t i = 0; props && i < props->count_props; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && strcmp(p->name, "type") == 0)
			type = props->prop_values[i];
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return type;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;
	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

static int is_vivid_capture(const char *node)
{
	int fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct v4l2_capability cap = { 0 };
	int ok = xioctl(fd, VIDIOC_QUERYCAP, &cap) == 0 &&
		strcmp((const char *)cap.driver, "vivid") == 0 &&
		((cap.device_caps & V4L2_CAP_VIDEO_CAPTURE) ||
			(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE));
	close(fd);
	return ok;
}

/* Export one single-planar vivid buffer and import it into the DRM device; the node's
 * format is put back afterwards, so the tests find vivid as it was. */
static int vivid_imports(int drm_fd)
{
	int fd = open("/dev/video0", O_RDWR | O_CLOEXEC), ok = 0;
	if (fd < 0)
		return 0;
	struct v4l2_format saved = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int have_saved = xioctl(fd, VIDIOC_G_FMT, &saved) == 0;
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	fmt.fmt.pix.width = 64;
	fmt.fmt.pix.height = 64;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_XBGR32;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	struct v4l2_requestbuffers rb = { .count = 1, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP };
	struct v4l2_exportbuffer eb = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .index = 0,
		.flags = O_CLOEXEC | O_RDONLY };
	if (xioctl(fd, VIDIOC_S_FMT, &fmt) == 0 && xioctl(fd, VIDIOC_REQBUFS, &rb) == 0 &&
	    rb.count >= 1 && xioctl(fd, VIDIOC_EXPBUF, &eb) == 0) {
		uint32_t handle = 0;
		if (drmPrimeFDToHandle(drm_fd, eb.fd, &handle) == 0) {
			ok = 1;
			struct drm_gem_close gc = { .handle = handle };
			drmIoctl(drm_fd, DRM_IOCTL_GEM_CLOSE, &gc);
		}
		close(eb.fd);
	}
	rb.count = 0;
	xioctl(fd, VIDIOC_REQBUFS, &rb);
	if (have_saved && xioctl(fd, VIDIOC_S_FMT, &saved) < 0)
		fprintf(stderr, "dispman-caps: cannot restore /dev/video0's format: %s\n",
			strerror(errno));
	close(fd);
	return ok;
}

static int same_node(const char *a, const char *b)
{
	struct stat sa, sb;
	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISCHR(sa.st_mode) &&
		sa.st_rdev == sb.st_rdev;
}

int main(int argc, char **argv)
{
	const char *path = device_path(argc, argv);
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "dispman-caps: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	drmVersion *v = drmGetVersion(fd);
	printf("device=%s\ndriver=%s\n", path, v ? v->name : "unknown");
	drmFreeVersion(v);

	uint64_t mods = 0;
	int atomic = drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0;
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT, 1);
	int wb_cap = drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1) == 0;
	printf("atomic=%d\n", atomic);
	printf("modifiers=%d\n", drmGetCap(fd, DRM_CAP_ADDFB2_MODIFIERS, &mods) == 0 && mods);

	unsigned outputs = 0, writeback = 0, crtcs = 0;
	drmModeRes *res = drmModeGetResources(fd);
	if (res) {
		crtcs = (unsigned)res->count_crtcs;
		if (crtcs)
			printf("vblank-counter=%d\n", crtc_has_vblank_counter(fd, res->crtcs[0]));
		for (int i = 0; i < res->count_connectors; i++) {
			drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
			if (!c)
				continue;
			if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
				writeback++;
			else if (c->connection == DRM_MODE_CONNECTED)
				outputs++;
			drmModeFreeConnector(c);
		}
		drmModeFreeResources(res);
	}
	printf("crtcs=%u\noutputs=%u\nwriteback=%u\n", crtcs, outputs, wb_cap ? writeback : 0);

	unsigned count[3] = { 0 };
	drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
	for (uint32_t i = 0; planes && i < planes->count_planes; i++) {
		uint64_t t = plane_type(fd, planes->planes[i]);
		if (t < 3)
			count[t]++;
	}
	drmModeFreePlaneResources(planes);
	printf("primaries=%u\noverlays=%u\ncursors=%u\n", count[DRM_PLANE_TYPE_PRIMARY],
		count[DRM_PLANE_TYPE_OVERLAY], count[DRM_PLANE_TYPE_CURSOR]);

	unsigned vivid = 0;
	for (int i = 0; i < 16; i++) {
		char node[32];
		snprintf(node, sizeof(node), "/dev/video%d", i);
		vivid += (unsigned)is_vivid_capture(node);
	}
	printf("vivid=%u\n", vivid);
	printf("vivid-import=%d\n", vivid && is_vivid_capture("/dev/video0") ? vivid_imports(fd) : 0);

	int ufd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
	printf("uinput=%d\n", ufd >= 0);
	if (ufd >= 0)
		close(ufd);
	const char *sd = getenv("DISPMAN_SCREENDUMP");
	printf("screendump=%d\n", sd && *sd && same_node(getenv("DISPMAN_SCREENDUMP_DEVICE"), path));
	close(fd);
	return 0;
}
