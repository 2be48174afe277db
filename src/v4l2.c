/* V4L2 capture helpers: see v4l2.h. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "v4l2.h"
#include "log.h"

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;
	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

static const struct {
	uint32_t v4l2, drm;
	uint8_t n_planes;
} fourcc_map[] = {
	/* V4L2 names bytes in memory order for RGB; DRM names little-endian words. */
	{ V4L2_PIX_FMT_XBGR32, DRM_FORMAT_XRGB8888, 1 },
	{ V4L2_PIX_FMT_ABGR32, DRM_FORMAT_ARGB8888, 1 },
	{ V4L2_PIX_FMT_XRGB32, DRM_FORMAT_BGRX8888, 1 },
	{ V4L2_PIX_FMT_ARGB32, DRM_FORMAT_BGRA8888, 1 },
	{ V4L2_PIX_FMT_RGBX32, DRM_FORMAT_XBGR8888, 1 },
	{ V4L2_PIX_FMT_RGBA32, DRM_FORMAT_ABGR8888, 1 },
	{ V4L2_PIX_FMT_BGRX32, DRM_FORMAT_RGBX8888, 1 },
	{ V4L2_PIX_FMT_BGRA32, DRM_FORMAT_RGBA8888, 1 },
	{ V4L2_PIX_FMT_RGB565, DRM_FORMAT_RGB565, 1 },
	{ V4L2_PIX_FMT_RGB24, DRM_FORMAT_BGR888, 1 },
	{ V4L2_PIX_FMT_BGR24, DRM_FORMAT_RGB888, 1 },
	{ V4L2_PIX_FMT_YUYV, DRM_FORMAT_YUYV, 1 },
	{ V4L2_PIX_FMT_YVYU, DRM_FORMAT_YVYU, 1 },
	{ V4L2_PIX_FMT_UYVY, DRM_FORMAT_UYVY, 1 },
	{ V4L2_PIX_FMT_VYUY, DRM_FORMAT_VYUY, 1 },
	{ V4L2_PIX_FMT_NV12, DRM_FORMAT_NV12, 2 },
	{ V4L2_PIX_FMT_NV21, DRM_FORMAT_NV21, 2 },
	{ V4L2_PIX_FMT_NV16, DRM_FORMAT_NV16, 2 },
	{ V4L2_PIX_FMT_NV61, DRM_FORMAT_NV61, 2 },
	{ V4L2_PIX_FMT_NV12M, DRM_FORMAT_NV12, 2 },
	{ V4L2_PIX_FMT_NV21M, DRM_FORMAT_NV21, 2 },
	{ V4L2_PIX_FMT_NV16M, DRM_FORMAT_NV16, 2 },
	{ V4L2_PIX_FMT_NV61M, DRM_FORMAT_NV61, 2 },
	{ V4L2_PIX_FMT_YUV420, DRM_FORMAT_YUV420, 3 },
	{ V4L2_PIX_FMT_YVU420, DRM_FORMAT_YVU420, 3 },
	{ V4L2_PIX_FMT_YUV422P, DRM_FORMAT_YUV422, 3 },
	{ V4L2_PIX_FMT_YUV420M, DRM_FORMAT_YUV420, 3 },
	{ V4L2_PIX_FMT_YVU420M, DRM_FORMAT_YVU420, 3 },
};

uint32_t v4l2_to_drm_fourcc(uint32_t v4l2_fourcc)
{
	for (size_t i = 0; i < sizeof(fourcc_map) / sizeof(fourcc_map[0]); i++)
		if (fourcc_map[i].v4l2 == v4l2_fourcc)
			return fourcc_map[i].drm;
	return 0;
}

uint32_t drm_to_v4l2_fourcc(uint32_t drm_fourcc)
{
	/* the first match is the contiguous (single memory plane) variant */
	for (size_t i = 0; i < sizeof(fourcc_map) / sizeof(fourcc_map[0]); i++)
		if (fourcc_map[i].drm == drm_fourcc)
			return fourcc_map[i].v4l2;
	return 0;
}

static uint32_t colour_planes(uint32_t v4l2_fourcc)
{
	for (size_t i = 0; i < sizeof(fourcc_map) / sizeof(fourcc_map[0]); i++)
		if (fourcc_map[i].v4l2 == v4l2_fourcc)
			return fourcc_map[i].n_planes;
	return 1;
}

int v4l2_open(struct v4l2_dev *dev, const char *path)
{
	struct v4l2_capability cap = { 0 };
	int r;

	memset(dev, 0, sizeof(*dev));
	dev->fd = -1;
	if (!path || strlen(path) >= sizeof(dev->path)) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: invalid device path");
		return -EINVAL;
	}
	snprintf(dev->path, sizeof(dev->path), "%s", path);
	dev->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (dev->fd < 0) {
		r = -errno;
		dispman_log(DISPMAN_LOG_ERROR, "camera: cannot open %s: %s", path, strerror(-r));
		return r;
	}
	r = xioctl(dev->fd, VIDIOC_QUERYCAP, &cap);
	if (r < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: %s is not a V4L2 device (QUERYCAP: %s)", path, strerror(-r));
		goto fail;
	}
	uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps
								   : cap.capabilities;
	snprintf(dev->card, sizeof(dev->card), "%s", (const char *)cap.card);
	snprintf(dev->driver, sizeof(dev->driver), "%s", (const char *)cap.driver);
	if (!(caps & V4L2_CAP_STREAMING)) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: %s (%s) cannot stream", path, dev->card);
		r = -ENOTSUP;
		goto fail;
	}
	if (caps & V4L2_CAP_VIDEO_CAPTURE) {
		dev->buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	} else if (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) {
		dev->mplane = true;
		dev->buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	} else {
		dispman_log(DISPMAN_LOG_ERROR, "camera: %s (%s) is not a video capture device", path, dev->card);
		r = -ENOTSUP;
		goto fail;
	}
	return 0;
fail:
	close(dev->fd);
	dev->fd = -1;
	return r;
}

void v4l2_close(struct v4l2_dev *dev)
{
	if (dev->fd < 0)
		return;
	if (dev->streaming)
		v4l2_stream_off(dev);
	if (dev->n_buffers)
		v4l2_free_buffers(dev);
	close(dev->fd);
	dev->fd = -1;
}

int v4l2_list_formats(struct v4l2_dev *dev, uint32_t *fourccs, size_t max)
{
	size_t n = 0;
	for (uint32_t i = 0; n < max; i++) {
		struct v4l2_fmtdesc d = { .index = i, .type = dev->buf_type };
		int r = xioctl(dev->fd, VIDIOC_ENUM_FMT, &d);
		if (r == -EINVAL)
			break;
		if (r < 0) {
			dispman_log(DISPMAN_LOG_ERROR, "camera: ENUM_FMT on %s: %s", dev->path, strerror(-r));
			return r;
		}
		fourccs[n++] = d.pixelformat;
	}
	return (int)n;
}

int v4l2_list_sizes(struct v4l2_dev *dev, uint32_t fourcc, uint32_t (*sizes)[2], size_t max)
{
	size_t n = 0;
	for (uint32_t i = 0; n < max; i++) {
		struct v4l2_frmsizeenum s = { .index = i, .pixel_format = fourcc };
		int r = xioctl(dev->fd, VIDIOC_ENUM_FRAMESIZES, &s);
		if (r == -EINVAL)
			break;
		if (r < 0)
			return r;
		if (s.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
			sizes[n][0] = s.discrete.width;
			sizes[n][1] = s.discrete.height;
		} else {
			sizes[n][0] = s.stepwise.max_width;
			sizes[n][1] = s.stepwise.max_height;
			n++;
			break;
		}
		n++;
	}
	return (int)n;
}

int v4l2_set_format(struct v4l2_dev *dev, uint32_t v4l2_fourcc, uint32_t width, uint32_t height)
{
	struct v4l2_format f = { .type = dev->buf_type };
	struct v4l2_stream_format *sf = &dev->fmt;
	int r;

	if (dev->mplane) {
		f.fmt.pix_mp.width = width;
		f.fmt.pix_mp.height = height;
		f.fmt.pix_mp.pixelformat = v4l2_fourcc;
		f.fmt.pix_mp.field = V4L2_FIELD_NONE;
	} else {
		f.fmt.pix.width = width;
		f.fmt.pix.height = height;
		f.fmt.pix.pixelformat = v4l2_fourcc;
		f.fmt.pix.field = V4L2_FIELD_NONE;
	}
	r = xioctl(dev->fd, VIDIOC_S_FMT, &f);
	if (r < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: S_FMT %.4s %ux%u on %s: %s", (const char *)&v4l2_fourcc,
			       width, height, dev->path, strerror(-r));
		return r;
	}
	memset(sf, 0, sizeof(*sf));
	if (dev->mplane) {
		sf->v4l2_fourcc = f.fmt.pix_mp.pixelformat;
		sf->width = f.fmt.pix_mp.width;
		sf->height = f.fmt.pix_mp.height;
		sf->n_mem = f.fmt.pix_mp.num_planes;
		if (sf->n_mem == 0 || sf->n_mem > V4L2_MAX_PLANES) {
			dispman_log(DISPMAN_LOG_ERROR, "camera: %s reports %u memory planes", dev->path, sf->n_mem);
			return -EINVAL;
		}
	} else {
		sf->v4l2_fourcc = f.fmt.pix.pixelformat;
		sf->width = f.fmt.pix.width;
		sf->height = f.fmt.pix.height;
		sf->n_mem = 1;
	}
	sf->drm_fourcc = v4l2_to_drm_fourcc(sf->v4l2_fourcc);
	sf->n_planes = colour_planes(sf->v4l2_fourcc);
	if (sf->v4l2_fourcc != v4l2_fourcc) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: %s does not capture %.4s (it offers %.4s)", dev->path,
			       (const char *)&v4l2_fourcc, (const char *)&sf->v4l2_fourcc);
		return -EINVAL;
	}

	/* Plane layout. With one memory plane, the colour planes follow each
	 * other; chroma planes of the formats above have the luma pitch (NV*)
	 * or half of it (YUV4xx 3-plane). */
	if (sf->n_mem == sf->n_planes && dev->mplane) {
		for (uint32_t i = 0; i < sf->n_mem; i++) {
			sf->planes[i].offset = 0;
			sf->planes[i].pitch = f.fmt.pix_mp.plane_fmt[i].bytesperline;
			sf->planes[i].size = f.fmt.pix_mp.plane_fmt[i].sizeimage;
		}
		return 0;
	}
	uint32_t pitch = dev->mplane ? f.fmt.pix_mp.plane_fmt[0].bytesperline : f.fmt.pix.bytesperline;
	uint32_t total = dev->mplane ? f.fmt.pix_mp.plane_fmt[0].sizeimage : f.fmt.pix.sizeimage;
	uint32_t luma = pitch * sf->height;
	sf->planes[0] = (struct v4l2_plane_layout){ 0, pitch, sf->n_planes > 1 ? luma : total };
	if (sf->n_planes == 2) {
		sf->planes[1] = (struct v4l2_plane_layout){ luma, pitch, total - luma };
	} else if (sf->n_planes == 3) {
		uint32_t cpitch = pitch / 2;
		bool v422 = sf->v4l2_fourcc == V4L2_PIX_FMT_YUV422P;
		uint32_t csize = cpitch * (v422 ? sf->height : sf->height / 2);
		sf->planes[1] = (struct v4l2_plane_layout){ luma, cpitch, csize };
		sf->planes[2] = (struct v4l2_plane_layout){ luma + csize, cpitch, csize };
	}
	return 0;
}

int v4l2_get_format(struct v4l2_dev *dev)
{
	struct v4l2_format f = { .type = dev->buf_type };
	int r = xioctl(dev->fd, VIDIOC_G_FMT, &f);
	if (r < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: G_FMT on %s: %s", dev->path, strerror(-r));
		return r;
	}
	dev->fmt.width = dev->mplane ? f.fmt.pix_mp.width : f.fmt.pix.width;
	dev->fmt.height = dev->mplane ? f.fmt.pix_mp.height : f.fmt.pix.height;
	dev->fmt.v4l2_fourcc = dev->mplane ? f.fmt.pix_mp.pixelformat : f.fmt.pix.pixelformat;
	return 0;
}

int v4l2_set_format_pitch(struct v4l2_dev *dev, uint32_t pitch)
{
	struct v4l2_format f = { .type = dev->buf_type };
	int r = xioctl(dev->fd, VIDIOC_G_FMT, &f);
	if (r == 0) {
		if (dev->mplane)
			f.fmt.pix_mp.plane_fmt[0].bytesperline = pitch;
		else
			f.fmt.pix.bytesperline = pitch;
		r = xioctl(dev->fd, VIDIOC_S_FMT, &f);
	}
	uint32_t got = dev->mplane ? f.fmt.pix_mp.plane_fmt[0].bytesperline : f.fmt.pix.bytesperline;
	if (r == 0 && got != pitch)
		r = -EINVAL;
	if (r < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: %s cannot write lines of %u bytes (%s)",
			dev->path, pitch, strerror(-r));
		return r;
	}
	dev->fmt.planes[0].pitch = pitch;
	dev->fmt.planes[0].size = dev->mplane ? f.fmt.pix_mp.plane_fmt[0].sizeimage : f.fmt.pix.sizeimage;
	return 0;
}

int v4l2_query_buffer(struct v4l2_dev *dev, uint32_t index, uint32_t plane, uint32_t *offset,
	uint32_t *length)
{
	struct v4l2_plane planes[V4L2_MAX_PLANES];
	struct v4l2_buffer b = { .type = dev->buf_type, .memory = dev->memory, .index = index };
	if (dev->mplane) {
		memset(planes, 0, sizeof(planes));
		b.m.planes = planes;
		b.length = V4L2_MAX_PLANES;
	}
	int r = xioctl(dev->fd, VIDIOC_QUERYBUF, &b);
	if (r < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: QUERYBUF %u on %s: %s", index, dev->path,
			strerror(-r));
		return r;
	}
	if (dev->mplane) {
		*offset = planes[plane].m.mem_offset;
		*length = planes[plane].length;
	} else {
		*offset = b.m.offset;
		*length = b.length;
	}
	return 0;
}

int v4l2_request_buffers(struct v4l2_dev *dev, uint32_t memory, uint32_t *count)
{
	struct v4l2_requestbuffers req = { .count = *count, .type = dev->buf_type,
					   .memory = memory };
	int r = xioctl(dev->fd, VIDIOC_REQBUFS, &req);
	if (r < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: REQBUFS %u (%s) on %s: %s", *count,
			       memory == V4L2_MEMORY_MMAP ? "mmap" : "dmabuf", dev->path,
			       strerror(-r));
		return r;
	}
	if (req.count == 0 || req.count > V4L2_MAX_BUFFERS) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: %s gave %u buffers", dev->path, req.count);
		if (req.count) {
			req.count = 0;
			xioctl(dev->fd, VIDIOC_REQBUFS, &req);
		}
		return -ENOMEM;
	}
	dev->memory = memory;
	dev->n_buffers = req.count;
	*count = req.count;
	return 0;
}

int v4l2_free_buffers(struct v4l2_dev *dev)
{
	struct v4l2_requestbuffers req = { .count = 0, .type = dev->buf_type,
					   .memory = dev->memory };
	int r = xioctl(dev->fd, VIDIOC_REQBUFS, &req);
	if (r < 0 && r != -ENODEV)
		dispman_log(DISPMAN_LOG_ERROR, "camera: freeing buffers of %s: %s", dev->path, strerror(-r));
	dev->n_buffers = 0;
	return r;
}

int v4l2_export_buffer(struct v4l2_dev *dev, uint32_t index, uint32_t plane, int *fd)
{
	struct v4l2_exportbuffer e = { .type = dev->buf_type, .index = index, .plane = plane,
				       .flags = O_CLOEXEC | O_RDWR };
	int r = xioctl(dev->fd, VIDIOC_EXPBUF, &e);
	if (r < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "camera: EXPBUF %u.%u on %s: %s", index, plane, dev->path,
			       strerror(-r));
		return r;
	}
	*fd = e.fd;
	return 0;
}

int v4l2_queue(struct v4l2_dev *dev, uint32_t index, const int *dmabuf_fds)
{
	struct v4l2_plane planes[V4L2_MAX_PLANES];
	struct v4l2_buffer b = { .type = dev->buf_type, .memory = dev->memory, .index = index };
	int r;

	if (dev->mplane) {
		memset(planes, 0, sizeof(planes)); /* only then: a frame's ioctl, 512 bytes */
		b.m.planes = planes;
		b.length = dev->fmt.n_mem;
		for (uint32_t i = 0; i < dev->fmt.n_mem && dev->memory == V4L2_MEMORY_DMABUF; i++) {
			planes[i].m.fd = dmabuf_fds[i];
			planes[i].length = dev->fmt.planes[i].size;
		}
	} else if (dev->memory == V4L2_MEMORY_DMABUF) {
		b.m.fd = dmabuf_fds[0];
		b.length = dev->fmt.planes[0].size;
		if (dev->fmt.n_planes > 1)
			b.length = dev->fmt.planes[dev->fmt.n_planes - 1].offset +
				   dev->fmt.planes[dev->fmt.n_planes - 1].size;
	}
	r = xioctl(dev->fd, VIDIOC_QBUF, &b);
	if (r < 0)
		dispman_log(DISPMAN_LOG_ERROR, "camera: QBUF %u on %s: %s", index, dev->path, strerror(-r));
	return r;
}

int v4l2_dequeue(struct v4l2_dev *dev, uint32_t *index, uint32_t *sequence, bool *error,
		 uint64_t *ts_ns)
{
	struct v4l2_plane planes[V4L2_MAX_PLANES];
	struct v4l2_buffer b = { .type = dev->buf_type, .memory = dev->memory };
	int r;

	if (dev->mplane) {
		memset(planes, 0, sizeof(planes));
		b.m.planes = planes;
		b.length = V4L2_MAX_PLANES;
	}
	r = xioctl(dev->fd, VIDIOC_DQBUF, &b);
	if (r < 0) {
		if (r != -EAGAIN)
			dispman_log(DISPMAN_LOG_ERROR, "camera: DQBUF on %s: %s", dev->path, strerror(-r));
		return r;
	}
	*index = b.index;
	*sequence = b.sequence;
	*error = (b.flags & V4L2_BUF_FLAG_ERROR) != 0;
	*ts_ns = (uint64_t)b.timestamp.tv_sec * 1000000000u + (uint64_t)b.timestamp.tv_usec * 1000u;
	return 0;
}

int v4l2_stream_on(struct v4l2_dev *dev)
{
	int type = (int)dev->buf_type;
	int r = xioctl(dev->fd, VIDIOC_STREAMON, &type);
	if (r < 0)
		dispman_log(DISPMAN_LOG_ERROR, "camera: STREAMON on %s: %s", dev->path, strerror(-r));
	else
		dev->streaming = true;
	return r;
}

int v4l2_stream_off(struct v4l2_dev *dev)
{
	int type = (int)dev->buf_type;
	int r = xioctl(dev->fd, VIDIOC_STREAMOFF, &type);
	if (r < 0 && r != -ENODEV)
		dispman_log(DISPMAN_LOG_ERROR, "camera: STREAMOFF on %s: %s", dev->path, strerror(-r));
	dev->streaming = false;
	return r;
}

/* Control names compare the way v4l2-ctl prints them: lower case, every run of
 * other characters as one '_' ("Inject V4L2_BUF_FLAG_ERROR" ==
 * "inject_v4l2_buf_flag_error"). */
static bool control_name_eq(const char *a, const char *b)
{
	char na[64], nb[64];
	const char *src[2] = { a, b };
	char *dst[2] = { na, nb };
	for (int k = 0; k < 2; k++) {
		size_t n = 0;
		bool sep = false;
		for (const char *c = src[k]; *c && n + 1 < sizeof(na); c++) {
			bool alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
				     (*c >= '0' && *c <= '9');
			if (!alnum) {
				sep = n > 0;
				continue;
			}
			if (sep && n + 2 < sizeof(na))
				dst[k][n++] = '_';
			sep = false;
			dst[k][n++] = (char)((*c >= 'A' && *c <= 'Z') ? *c - 'A' + 'a' : *c);
		}
		dst[k][n] = '\0';
	}
	return strcmp(na, nb) == 0;
}

int v4l2_set_control_by_name(struct v4l2_dev *dev, const char *name, int64_t value)
{
	struct v4l2_query_ext_ctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND };
	while (xioctl(dev->fd, VIDIOC_QUERY_EXT_CTRL, &q) == 0) {
		if (control_name_eq(q.name, name)) {
			struct v4l2_ext_control c = { .id = q.id, .value64 = value };
			struct v4l2_ext_controls cs = { .which = V4L2_CTRL_WHICH_CUR_VAL,
							.count = 1, .controls = &c };
			if (q.type != V4L2_CTRL_TYPE_INTEGER64)
				c.value = (int32_t)value;
			int r = xioctl(dev->fd, VIDIOC_S_EXT_CTRLS, &cs);
			if (r < 0)
				dispman_log(DISPMAN_LOG_ERROR, "camera: setting control '%s' on %s: %s", name,
					       dev->path, strerror(-r));
			return r;
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
	}
	dispman_log(DISPMAN_LOG_ERROR, "camera: %s has no control '%s'", dev->path, name);
	return -ENOENT;
}
