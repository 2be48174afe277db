/* SPDX-License-Identifier: MIT */
/*
 * The floor of the camera benchmark: a raw V4L2 -> KMS loop, zero-copy.
 *
 *   floor-camera [--frames N] [--video /dev/video0] [--size WxH] [device]
 *   (device: default $DISPMAN_DEVICE, else /dev/dri/card0)
 *
 * S_FMT XBGR32 (DRM XRGB8888), REQBUFS(MMAP) 4, EXPBUF each buffer and import it into
 * KMS once (one framebuffer per V4L2 buffer), a black full-screen buffer on the primary
 * plane and the camera centred on the first overlay. Per frame: poll the camera, one
 * DQBUF, one nonblocking atomic commit of the overlay's FB_ID, wait for the flip event,
 * QBUF the buffer that left the screen. Nothing else: no allocation (one atomic request of
 * fixed arrays, emptied for each frame and issued as the raw ioctl: raw-atomic.h), no
 * clock reads, no search. Exits after N frames were shown.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <linux/videodev2.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "raw-atomic.h"

#define NBUF 4

static uint32_t prop(int fd, uint32_t obj, uint32_t type, const char *name)
{
	drmModeObjectProperties *p = drmModeObjectGetProperties(fd, obj, type);
	uint32_t id = 0;
	for (uint32_t i = 0; p && i < p->count_props && !id; i++) {
		drmModePropertyRes *r = drmModeGetProperty(fd, p->props[i]);
		if (r && strcmp(r->name, name) == 0)
			id = r->prop_id;
		drmModeFreeProperty(r);
	}
	drmModeFreeObjectProperties(p);
	return id;
}

static int flipped;

static void on_flip(int fd, unsigned seq, unsigned sec, unsigned usec, unsigned crtc, void *d)
{
	(void)fd, (void)seq, (void)sec, (void)usec, (void)crtc, (void)d;
	flipped = 1;
}

#define DIE(...) do { fprintf(stderr, "floor-camera: " __VA_ARGS__); \
	fprintf(stderr, ": %s\n", strerror(errno)); return 1; } while (0)

int main(int argc, char **argv)
{
	const char *video = "/dev/video0", *card = getenv("DISPMAN_DEVICE") &&
		*getenv("DISPMAN_DEVICE") ? getenv("DISPMAN_DEVICE") : "/dev/dri/card0";
	unsigned long frames = 100;
	uint32_t w = 640, h = 480;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--frames") && i + 1 < argc)
			frames = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--video") && i + 1 < argc)
			video = argv[++i];
		else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
			 sscanf(argv[i + 1], "%ux%u", &w, &h) == 2)
			i++;
		else
			card = argv[i];
	}
	int vfd = open(video, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	int dfd = open(card, O_RDWR | O_CLOEXEC);
	if (vfd < 0 || dfd < 0)
		DIE("open");
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	fmt.fmt.pix = (struct v4l2_pix_format){ .width = w, .height = h,
		.pixelformat = V4L2_PIX_FMT_XBGR32, .field = V4L2_FIELD_NONE };
	if (ioctl(vfd, VIDIOC_S_FMT, &fmt) < 0 || fmt.fmt.pix.pixelformat != V4L2_PIX_FMT_XBGR32)
		DIE("S_FMT XBGR32");
	w = fmt.fmt.pix.width;
	h = fmt.fmt.pix.height;
	struct v4l2_requestbuffers rb = { .count = NBUF, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP };
	if (ioctl(vfd, VIDIOC_REQBUFS, &rb) < 0 || rb.count < 2)
		DIE("REQBUFS");
	if (drmSetClientCap(dfd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) < 0 ||
	    drmSetClientCap(dfd, DRM_CLIENT_CAP_ATOMIC, 1) < 0)
		DIE("atomic");
	uint32_t fbs[NBUF];
	for (uint32_t i = 0; i < rb.count; i++) {
		struct v4l2_exportbuffer e = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .index = i };
		uint32_t handle;
		if (ioctl(vfd, VIDIOC_EXPBUF, &e) < 0 || drmPrimeFDToHandle(dfd, e.fd, &handle) < 0)
			DIE("EXPBUF/import");
		close(e.fd);
		uint32_t hs[4] = { handle }, ps[4] = { fmt.fmt.pix.bytesperline }, os[4] = { 0 };
		if (drmModeAddFB2(dfd, w, h, DRM_FORMAT_XRGB8888, hs, ps, os, &fbs[i], 0) < 0)
			DIE("AddFB2");
	}
	/* output: connector, mode, primary and first overlay of CRTC 0 */
	drmModeRes *res = drmModeGetResources(dfd);
	if (!res)
		DIE("resources");
	uint32_t crtc = res->crtcs[0], conn = 0;
	drmModeModeInfo mode = { 0 };
	for (int i = 0; i < res->count_connectors && !conn; i++) {
		drmModeConnector *c = drmModeGetConnector(dfd, res->connectors[i]);
		if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes &&
		    c->connector_type != DRM_MODE_CONNECTOR_WRITEBACK) {
			conn = c->connector_id;
			mode = c->modes[0];
			for (int m = 0; m < c->count_modes; m++)
				if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED)
					mode = c->modes[m];
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	drmModePlaneRes *pr = drmModeGetPlaneResources(dfd);
	uint32_t primary = 0, overlay = 0;
	for (uint32_t i = 0; pr && i < pr->count_planes; i++) {
		drmModeObjectProperties *p = drmModeObjectGetProperties(dfd, pr->planes[i],
			DRM_MODE_OBJECT_PLANE);
		uint32_t type_prop = prop(dfd, pr->planes[i], DRM_MODE_OBJECT_PLANE, "type");
		for (uint32_t k = 0; p && k < p->count_props; k++) {
			if (p->props[k] != type_prop)
				continue;
			if (p->prop_values[k] == DRM_PLANE_TYPE_PRIMARY && !primary)
				primary = pr->planes[i];
			else if (p->prop_values[k] == DRM_PLANE_TYPE_OVERLAY && !overlay)
				overlay = pr->planes[i];
		}
		drmModeFreeObjectProperties(p);
	}
	drmModeFreePlaneResources(pr);
	if (!conn || !primary || !overlay)
		DIE("no connector/primary/overlay");
	struct drm_mode_create_dumb cd = { .width = mode.hdisplay, .height = mode.vdisplay,
		.bpp = 32 };
	uint32_t bg;
	if (drmIoctl(dfd, DRM_IOCTL_MODE_CREATE_DUMB, &cd) < 0)
		DIE("dumb");
	uint32_t hs[4] = { cd.handle }, ps[4] = { cd.pitch }, os[4] = { 0 };
	if (drmModeAddFB2(dfd, mode.hdisplay, mode.vdisplay, DRM_FORMAT_XRGB8888, hs, ps, os,
			&bg, 0) < 0)
		DIE("AddFB2 bg");
	uint32_t blob;
	drmModeCreatePropertyBlob(dfd, &mode, sizeof(mode), &blob);
	static const char *const pn[] = { "FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W",
		"SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H" };
	uint32_t pp[10], op[10];
	for (int i = 0; i < 10; i++) {
		pp[i] = prop(dfd, primary, DRM_MODE_OBJECT_PLANE, pn[i]);
		op[i] = prop(dfd, overlay, DRM_MODE_OBJECT_PLANE, pn[i]);
	}
	/* stream on, first frame, modeset with it */
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP };
	for (uint32_t i = 0; i < rb.count; i++) {
		b.index = i;
		if (ioctl(vfd, VIDIOC_QBUF, &b) < 0)
			DIE("QBUF");
	}
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (ioctl(vfd, VIDIOC_STREAMON, &type) < 0)
		DIE("STREAMON");
	drmEventContext ev = { .version = 3, .page_flip_handler2 = on_flip };
	int on_screen = -1;
	static struct raw_req req;
	struct raw_req *r = &req;
	for (unsigned long f = 0; f <= frames; f++) {
		struct pollfd pv = { .fd = vfd, .events = POLLIN };
		if (poll(&pv, 1, 5000) <= 0)
			DIE("poll camera");
		b = (struct v4l2_buffer){ .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP };
		if (ioctl(vfd, VIDIOC_DQBUF, &b) < 0)
			DIE("DQBUF");
		raw_req_reset(r);
		uint32_t flags = DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK;
		if (f == 0) {
			uint64_t pv_[10] = { bg, crtc, 0, 0, (uint64_t)mode.hdisplay << 16,
				(uint64_t)mode.vdisplay << 16, 0, 0, mode.hdisplay, mode.vdisplay };
			uint64_t ov[10] = { fbs[b.index], crtc, 0, 0, (uint64_t)w << 16,
				(uint64_t)h << 16, (mode.hdisplay - w) / 2, (mode.vdisplay - h) / 2, w, h };
			raw_req_add(r, conn, prop(dfd, conn, DRM_MODE_OBJECT_CONNECTOR,
				"CRTC_ID"), crtc);
			raw_req_add(r, crtc, prop(dfd, crtc, DRM_MODE_OBJECT_CRTC,
				"MODE_ID"), blob);
			raw_req_add(r, crtc, prop(dfd, crtc, DRM_MODE_OBJECT_CRTC,
				"ACTIVE"), 1);
			for (int i = 0; i < 10; i++) {
				raw_req_add(r, primary, pp[i], pv_[i]);
				raw_req_add(r, overlay, op[i], ov[i]);
			}
			flags = DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_ALLOW_MODESET;
		} else {
			raw_req_add(r, overlay, op[0], fbs[b.index]);
		}
		int ret = raw_req_commit(dfd, r, flags, NULL);
		if (ret < 0)
			DIE("commit");
		flipped = 0;
		while (!flipped) {
			struct pollfd pd = { .fd = dfd, .events = POLLIN };
			if (poll(&pd, 1, 5000) <= 0)
				DIE("flip");
			drmHandleEvent(dfd, &ev);
		}
		if (on_screen >= 0) {
			struct v4l2_buffer q = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				.memory = V4L2_MEMORY_MMAP, .index = (uint32_t)on_screen };
			if (ioctl(vfd, VIDIOC_QBUF, &q) < 0)
				DIE("QBUF");
		}
		on_screen = (int)b.index;
	}
	printf("frames=%lu\n", frames);
	return 0;
}
