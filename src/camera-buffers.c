/* SPDX-License-Identifier: MIT */
/*
 * The camera's memory paths: which buffers the V4L2 driver fills and how the display
 * gets them (camera-private.h). Zero copy first: the camera's MMAP buffers exported as
 * dma-bufs and imported into KMS, else display dumb buffers exported and queued with
 * V4L2_MEMORY_DMABUF; then, if allowed, MMAP buffers mapped for the CPU copy.
 */
#include <drm_fourcc.h>
#include <errno.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log.h"
#include "plane.h"
#include "device.h"
#include "buffer.h"
#include "camera-convert.h"
#include "camera-private.h"

bool camera_display_takes(struct dispman_device *dev, uint32_t fourcc)
{
	return planes_take(device_planes(dev), device_n_planes(dev), fourcc,
		DRM_FORMAT_MOD_LINEAR, false);
}

void camera_free_buffers(struct dispman_camera *cam)
{
	for (uint32_t i = 0; i < cam->n_bufs; i++) {
		struct cam_buf *b = &cam->bufs[i];
		if (b->buf) {
			dispman_buffer_set_release_callback(b->buf, NULL, NULL);
			buffer_set_shown_callback(b->buf, NULL, NULL);
			dispman_buffer_unref(b->buf);
			b->buf = NULL;
		}
		for (int p = 0; p < V4L2_MAX_PLANES; p++) {
			if (b->fds[p] >= 0)
				close(b->fds[p]);
			b->fds[p] = -1;
			if (b->map[p])
				munmap(b->map[p], b->map_len[p]);
			b->map[p] = NULL;
		}
	}
	for (int i = 0; i < COPY_TARGETS; i++) {
		dispman_buffer_unref(cam->targets[i]);
		cam->targets[i] = NULL;
	}
	cam->n_bufs = 0;
	if (cam->v4l2.n_buffers)
		v4l2_free_buffers(&cam->v4l2);
}

static struct dispman_dmabuf_desc frame_desc(struct dispman_camera *cam)
{
	const struct v4l2_stream_format *f = &cam->v4l2.fmt;
	struct dispman_dmabuf_desc d = {
		.width = f->width, .height = f->height, .fourcc = f->drm_fourcc,
		.modifier = DRM_FORMAT_MOD_LINEAR, .n_planes = f->n_planes,
		.fds = { -1, -1, -1, -1 },
	};
	for (uint32_t p = 0; p < f->n_planes; p++) {
		d.offsets[p] = f->n_mem > 1 ? 0 : f->planes[p].offset;
		d.pitches[p] = f->planes[p].pitch;
	}
	return d;
}

/* REQBUFS of *count buffers of memory type; the camera then has *count (the driver's). */
static int request_buffers(struct dispman_camera *cam, uint32_t memory, uint32_t *count)
{
	int r = v4l2_request_buffers(&cam->v4l2, memory, count);
	if (r == 0)
		cam->n_bufs = *count;
	return r;
}

/* V4L2_MEMORY_MMAP buffers exported as dma-bufs and imported into KMS. */
static int setup_export(struct dispman_camera *cam, uint32_t count,
	enum dispman_log_level kernel_level)
{
	const struct v4l2_stream_format *f = &cam->v4l2.fmt;
	int r = request_buffers(cam, V4L2_MEMORY_MMAP, &count);
	if (r < 0)
		return r;
	for (uint32_t i = 0; i < count; i++) {
		struct cam_buf *b = &cam->bufs[i];
		int fds[V4L2_MAX_PLANES] = { -1, -1, -1, -1 };
		for (uint32_t m = 0; m < f->n_mem; m++)
			if ((r = v4l2_export_buffer(&cam->v4l2, i, m, &fds[m])) < 0)
				goto fail_fds;
		struct dispman_dmabuf_desc d = frame_desc(cam);
		for (uint32_t p = 0; p < f->n_planes; p++)
			d.fds[p] = fds[f->n_mem > 1 ? p : 0];
		b->buf = buffer_import_dmabuf(cam->dev, &d, kernel_level);
		r = b->buf ? 0 : -errno;
fail_fds:
		for (uint32_t m = 0; m < V4L2_MAX_PLANES; m++)
			if (fds[m] >= 0)
				close(fds[m]);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Display dumb buffers exported as dma-bufs and queued with V4L2_MEMORY_DMABUF. */
static int setup_import(struct dispman_camera *cam, uint32_t count)
{
	const struct v4l2_stream_format *f = &cam->v4l2.fmt;
	if (f->n_planes != 1 || f->n_mem != 1) {
		dispman_log(DISPMAN_LOG_ERROR, "camera %s: the import path takes single-plane "
			"formats only", cam->v4l2.path);
		return -ENOTSUP;
	}
	int r = request_buffers(cam, V4L2_MEMORY_DMABUF, &count);
	if (r < 0)
		return r;
	for (uint32_t i = 0; i < count; i++) {
		struct cam_buf *b = &cam->bufs[i];
		b->buf = dispman_buffer_create_dumb(cam->dev, f->width, f->height, f->drm_fourcc);
		if (!b->buf)
			return -errno;
		if (!buffer_fb_id(b->buf)) {
			dispman_log(DISPMAN_LOG_ERROR, "camera %s: the display makes no "
				"framebuffer of its own buffers in %.4s", cam->v4l2.path,
				(const char *)&f->drm_fourcc);
			return -ENOTSUP;
		}
		uint32_t pitch;
		dispman_buffer_map(b->buf, NULL, &pitch);
		if (pitch != f->planes[0].pitch) {
			/* The driver must write with the display buffer's pitch. */
			int rs = v4l2_set_format_pitch(&cam->v4l2, pitch);
			if (rs < 0)
				return rs;
		}
		if ((r = dispman_buffer_export_dmabuf(b->buf, &b->fds[0])) < 0)
			return r;
	}
	return 0;
}

static int setup_copy(struct dispman_camera *cam, uint32_t count)
{
	const struct v4l2_stream_format *f = &cam->v4l2.fmt;
	int r = request_buffers(cam, V4L2_MEMORY_MMAP, &count);
	if (r < 0)
		return r;
	for (uint32_t i = 0; i < count; i++) {
		struct cam_buf *b = &cam->bufs[i];
		for (uint32_t m = 0; m < f->n_mem; m++) {
			uint32_t off, len;
			if ((r = v4l2_query_buffer(&cam->v4l2, i, m, &off, &len)) < 0)
				return r;
			b->map[m] = mmap(NULL, len, PROT_READ, MAP_SHARED, cam->v4l2.fd, off);
			if (b->map[m] == MAP_FAILED) {
				b->map[m] = NULL;
				r = -errno;
				dispman_log_errno(DISPMAN_LOG_ERROR, -r, "camera %s: mmap",
					cam->v4l2.path);
				return r;
			}
			b->map_len[m] = len;
		}
	}
	/* A format a plane takes is copied as it is, another one converted. */
	cam->copy_same = camera_display_takes(cam->dev, f->drm_fourcc) && f->n_planes == 1 &&
		f->n_mem == 1 && format_info_find(f->drm_fourcc);
	if (!cam->copy_same && !camera_convertible(f->v4l2_fourcc)) {
		dispman_log(DISPMAN_LOG_ERROR, "camera %s: the CPU can neither copy nor convert "
			"%.4s", cam->v4l2.path, (const char *)&f->v4l2_fourcc);
		return -ENOTSUP;
	}
	uint32_t target = cam->copy_same ? f->drm_fourcc : DRM_FORMAT_XRGB8888;
	for (int i = 0; i < COPY_TARGETS; i++) {
		cam->targets[i] = dispman_buffer_create_dumb(cam->dev, f->width, f->height, target);
		if (!cam->targets[i])
			return -errno;
	}
	return 0;
}

const char *camera_memory_name(enum dispman_camera_memory m)
{
	switch (m) {
	case DISPMAN_CAMERA_MEMORY_EXPORT: return "camera buffers exported to the display";
	case DISPMAN_CAMERA_MEMORY_IMPORT: return "display buffers imported by the camera";
	case DISPMAN_CAMERA_MEMORY_COPY: return "CPU copy";
	default: return "automatic";
	}
}

/* camera-private.h: export, then import, then the CPU copy */
int camera_setup_paths(struct dispman_camera *cam, const struct dispman_camera_config *cfg,
	uint32_t count)
{
	bool allow_copy = cfg->flags & DISPMAN_CAMERA_ALLOW_COPY;
	bool try_export = cfg->memory == DISPMAN_CAMERA_MEMORY_AUTO ||
		cfg->memory == DISPMAN_CAMERA_MEMORY_EXPORT;
	bool try_import = cfg->memory == DISPMAN_CAMERA_MEMORY_AUTO ||
		cfg->memory == DISPMAN_CAMERA_MEMORY_IMPORT;
	int r = -ENOTSUP;
	if (!cam->copy && try_export) {
		bool more = try_import || allow_copy;
		r = setup_export(cam, count, more ? DISPMAN_LOG_INFO : DISPMAN_LOG_ERROR);
		cam->stats.memory = DISPMAN_CAMERA_MEMORY_EXPORT;
		if (r < 0 && more) {
			dispman_log(DISPMAN_LOG_INFO, "camera %s: the display cannot use the "
				"camera's buffers (%s); trying %s", cam->v4l2.path, strerror(-r),
				try_import ? "display buffers imported by the camera" :
				"CPU copies");
			camera_free_buffers(cam);
		}
	}
	if (!cam->copy && r < 0 && try_import) {
		r = setup_import(cam, count);
		cam->stats.memory = DISPMAN_CAMERA_MEMORY_IMPORT;
		if (r < 0 && allow_copy) {
			dispman_log(DISPMAN_LOG_INFO, "camera %s: the camera cannot use the "
				"display's buffers (%s); trying CPU copies", cam->v4l2.path,
				strerror(-r));
			camera_free_buffers(cam);
		}
	}
	if (!cam->copy && r < 0 && allow_copy) {
		cam->copy = true;
		cam->copy_reason = DISPMAN_REASON_IMPORT;
	}
	if (cam->copy) {
		r = setup_copy(cam, count);
		cam->stats.memory = DISPMAN_CAMERA_MEMORY_COPY;
	}
	return r;
}
