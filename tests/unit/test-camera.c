/* SPDX-License-Identifier: MIT */
/*
 * The camera's life cycle against the mock libdrm and a fake V4L2 capture node: a FIFO
 * (so that the device's epoll takes it; a byte written to it is a frame ready) whose
 * ioctls this file answers (ioctl() is interposed for that one fd, every other fd goes to
 * the kernel). The node offers XBGR32 64x48 and exports memfds as its dma-bufs, which the
 * mock imports. Under ASan, destroying the layer or the device before the camera must not
 * touch freed memory.
 */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include <dispman/camera.h>

#define FW 64
#define FH 48

static struct {
	char dir[64];
	char path[80];
	ino_t ino;
	uint32_t queue[8];     /* indices queued, oldest first */
	uint32_t n_queued;
	uint32_t n_buffers;
	uint32_t sequence;
	int feed_fd;           /* the test's write end of the FIFO */
	bool streaming;
} node;

static bool is_node(int fd)
{
	struct stat st;
	return node.ino && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && st.st_ino == node.ino;
}

static int node_ioctl(int fd, unsigned long req, void *arg)
{
	switch (req) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *c = arg;
		memset(c, 0, sizeof(*c));
		snprintf((char *)c->card, sizeof(c->card), "fake");
		snprintf((char *)c->driver, sizeof(c->driver), "fake");
		c->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
		return 0;
	}
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc *d = arg;
		if (d->index > 0)
			return errno = EINVAL, -1;
		d->pixelformat = V4L2_PIX_FMT_XBGR32;
		return 0;
	}
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *s = arg;
		if (s->index > 0)
			return errno = EINVAL, -1;
		s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
		s->discrete.width = FW;
		s->discrete.height = FH;
		return 0;
	}
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT: {
		struct v4l2_format *f = arg;
		f->fmt.pix.width = FW;
		f->fmt.pix.height = FH;
		f->fmt.pix.pixelformat = V4L2_PIX_FMT_XBGR32;
		f->fmt.pix.bytesperline = FW * 4;
		f->fmt.pix.sizeimage = FW * 4 * FH;
		return 0;
	}
	case VIDIOC_REQBUFS: {
		struct v4l2_requestbuffers *r = arg;
		if (r->memory != V4L2_MEMORY_MMAP)
			return errno = EINVAL, -1;
		node.n_buffers = r->count > 8 ? 8 : r->count;
		r->count = node.n_buffers;
		node.n_queued = 0;
		return 0;
	}
	case VIDIOC_EXPBUF: {
		struct v4l2_exportbuffer *e = arg;
		if (e->index >= node.n_buffers)
			return errno = EINVAL, -1;
		e->fd = unit_memfd(FW * 4 * FH);
		return 0;
	}
	case VIDIOC_QBUF: {
		struct v4l2_buffer *b = arg;
		if (b->index >= node.n_buffers || node.n_queued >= 8)
			return errno = EINVAL, -1;
		node.queue[node.n_queued++] = b->index;
		return 0;
	}
	case VIDIOC_DQBUF: {
		struct v4l2_buffer *b = arg;
		char c;
		if (!node.streaming || node.n_queued == 0 || read(fd, &c, 1) != 1)
			return errno = EAGAIN, -1;
		b->index = node.queue[0];
		memmove(node.queue, node.queue + 1, --node.n_queued * sizeof(node.queue[0]));
		b->sequence = node.sequence++;
		b->flags = 0;
		b->timestamp.tv_sec = 0;
		b->timestamp.tv_usec = 0;
		return 0;
	}
	case VIDIOC_STREAMON:
		node.streaming = true;
		return 0;
	case VIDIOC_STREAMOFF:
		node.streaming = false;
		node.n_queued = 0;
		return 0;
	default:
		return errno = ENOTTY, -1;
	}
}

/* Interposed: the fake node's ioctls here, every other fd's to the kernel. */
int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if (is_node(fd))
		return node_ioctl(fd, req, arg);
	long r = syscall(SYS_ioctl, fd, req, arg);
	return (int)r;
}

static void node_create(void)
{
	memset(&node, 0, sizeof(node));
	snprintf(node.dir, sizeof(node.dir), "/tmp/dispman-cam-XXXXXX");
	assert_non_null(mkdtemp(node.dir));
	snprintf(node.path, sizeof(node.path), "%s/video", node.dir);
	assert_int_equal(mkfifo(node.path, 0600), 0);
	node.feed_fd = open(node.path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	assert_true(node.feed_fd >= 0);
	struct stat st;
	assert_int_equal(fstat(node.feed_fd, &st), 0);
	node.ino = st.st_ino;
}

static void node_remove(void)
{
	close(node.feed_fd);
	unlink(node.path);
	rmdir(node.dir);
	node.ino = 0;
}

/* A started camera on a new layer of f->out, one frame of it committed and shown. */
static struct dispman_camera *camera_showing(struct unit_fixture *f,
	struct dispman_layer **layer)
{
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	*layer = dispman_layer_create(f->out);
	assert_non_null(*layer);
	struct dispman_camera_config cfg = {
		.size = sizeof(cfg), .path = node.path, .memory = DISPMAN_CAMERA_MEMORY_EXPORT,
	};
	struct dispman_camera *cam = dispman_camera_create(*layer, &cfg);
	assert_non_null(cam);
	assert_int_equal(dispman_camera_start(cam), 0);
	assert_int_equal(node.n_queued, 4);
	/* two frames: the first one's commit is the modeset, the second a page flip */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(write(node.feed_fd, "f", 1), 1);
		unit_drain(f->dev);
	}
	struct dispman_camera_stats s = { .size = sizeof(s) };
	assert_int_equal(dispman_camera_get_stats(cam, &s), 0);
	assert_int_equal(s.frames_captured, 2);
	assert_true(s.frames_shown >= 1);
	struct dispman_placement p;
	assert_int_equal(dispman_layer_get_placement(*layer, &p), 0);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_ON_PLANE);
	return cam;
}

/* The node first: the fixture's fd count includes its feeding end. */
static int setup(void **state)
{
	node_create();
	return unit_setup_vkms(state);
}

static int teardown(void **state)
{
	int r = unit_teardown(state);
	node_remove();
	return r;
}

/* The usual order: the camera first; its frame leaves the screen. */
static void test_camera_first(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_layer *layer;
	struct dispman_camera *cam = camera_showing(f, &layer);
	dispman_camera_destroy(cam);
	assert_false(node.streaming);
	struct dispman_buffer *buf = (void *)1;
	assert_int_equal(dispman_layer_get_buffer(layer, &buf), 0);
	assert_null(buf);
	dispman_layer_destroy(layer);
}

/* The layer first: the camera stops, drops its buffers and refuses to start again. */
static void test_layer_first(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_layer *layer;
	struct dispman_camera *cam = camera_showing(f, &layer);
	dispman_layer_destroy(layer);
	assert_false(node.streaming);
	unit_drain(f->dev); /* the flip that takes the frame off: no camera callback left */
	unit_log_clear();
	assert_int_equal(dispman_camera_start(cam), -ENODEV);
	assert_error_logged("destroyed");
	struct dispman_camera_stats s = { .size = sizeof(s) };
	assert_int_equal(dispman_camera_get_stats(cam, &s), 0);
	assert_int_equal(s.frames_captured, 2);
	assert_int_equal(dispman_camera_stop(cam), 0);
	/* a frame arriving now reaches nobody */
	assert_int_equal(write(node.feed_fd, "f", 1), 1);
	unit_drain(f->dev);
	dispman_camera_destroy(cam);
}

/* The device first (it destroys the layer too); the camera is freed afterwards. */
static void test_device_first(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_layer *layer;
	struct dispman_camera *cam = camera_showing(f, &layer);
	dispman_device_destroy(f->dev);
	f->dev = NULL;
	assert_false(node.streaming);
	assert_int_equal(dispman_camera_start(cam), -ENODEV);
	uint32_t fourcc = 0;
	dispman_camera_get_format(cam, &fourcc, NULL, NULL);
	assert_int_equal(fourcc, DRM_FORMAT_XRGB8888);
	dispman_camera_destroy(cam);
}

/*
 * A camera layer at half alpha (the mock's planes have no alpha property): every frame is
 * composed by the CPU, and the stats say so (no copy by the camera, but frames and bytes
 * composed).
 */
static void test_composed(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_alpha(layer, 0x8000), 0);
	struct dispman_camera_config cfg = {
		.size = sizeof(cfg), .path = node.path, .memory = DISPMAN_CAMERA_MEMORY_EXPORT,
	};
	struct dispman_camera *cam = dispman_camera_create(layer, &cfg);
	assert_non_null(cam);
	assert_int_equal(dispman_camera_start(cam), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(write(node.feed_fd, "f", 1), 1);
		unit_drain(f->dev);
	}
	struct dispman_placement p;
	assert_int_equal(dispman_layer_get_placement(layer, &p), 0);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_COMPOSITED);
	struct dispman_camera_stats s = { .size = sizeof(s) };
	assert_int_equal(dispman_camera_get_stats(cam, &s), 0);
	assert_true(s.zero_copy);
	assert_int_equal(s.bytes_copied, 0);
	assert_int_equal(s.frames_captured, 3);
	assert_true(s.frames_composed >= 2);
	assert_int_equal(s.frames_composed, s.frames_shown);
	assert_int_equal(s.bytes_composed, s.frames_composed * FW * FH * 4);
	dispman_camera_destroy(cam);
	dispman_layer_destroy(layer);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "camera@camera-first", test_camera_first, setup, teardown, NULL },
		{ "camera@layer-first", test_layer_first, setup, teardown, NULL },
		{ "camera@device-first", test_device_first, setup, teardown, NULL },
		{ "camera@composed", test_composed, setup, teardown, NULL },
	};
	return unit_main("camera", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
