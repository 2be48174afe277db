/*
 * Internal V4L2 capture helpers used by camera.c: a thin, testable layer over
 * the ioctls (open, formats, buffers, streaming) that knows nothing about KMS.
 * All functions return 0 or a negative errno and log what failed.
 */
#ifndef DISPMAN_V4L2_H
#define DISPMAN_V4L2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define V4L2_MAX_PLANES 4
#define V4L2_MAX_BUFFERS 32

struct v4l2_plane_layout {
	uint32_t offset;     /* into the buffer's dma-buf (or its own dma-buf) */
	uint32_t pitch;      /* bytes per line */
	uint32_t size;       /* bytes of this plane */
};

struct v4l2_stream_format {
	uint32_t v4l2_fourcc;
	uint32_t drm_fourcc;  /* 0 when no DRM format matches */
	uint32_t width, height;
	uint32_t n_planes;    /* colour planes (NV12: 2) */
	uint32_t n_mem;       /* memory planes: 1 for single-planar or contiguous MPLANE formats */
	struct v4l2_plane_layout planes[V4L2_MAX_PLANES];
};

struct v4l2_dev {
	int fd;
	char path[64];
	char card[32];
	char driver[16];
	bool mplane;          /* V4L2_CAP_VIDEO_CAPTURE_MPLANE */
	uint32_t buf_type;    /* V4L2_BUF_TYPE_VIDEO_CAPTURE(_MPLANE) */
	uint32_t memory;      /* V4L2_MEMORY_MMAP or _DMABUF once buffers exist */
	uint32_t n_buffers;
	bool streaming;
	struct v4l2_stream_format fmt;
};

/* The DRM fourcc with the same memory layout as a V4L2 pixel format, or 0. */
uint32_t v4l2_to_drm_fourcc(uint32_t v4l2_fourcc);
/* The V4L2 pixel format with the same memory layout as a DRM fourcc, or 0. */
uint32_t drm_to_v4l2_fourcc(uint32_t drm_fourcc);

/* Opens a capture node, checks it can capture and stream. */
int v4l2_open(struct v4l2_dev *dev, const char *path);
void v4l2_close(struct v4l2_dev *dev);

/* Lists the device's pixel formats (V4L2 fourccs), at most max; returns the
 * number found or a negative errno. */
int v4l2_list_formats(struct v4l2_dev *dev, uint32_t *fourccs, size_t max);
/* Lists discrete frame sizes of a format; stepwise/continuous ranges report
 * their maximum. Returns the number or a negative errno. */
int v4l2_list_sizes(struct v4l2_dev *dev, uint32_t fourcc, uint32_t (*sizes)[2], size_t max);

/* S_FMT; the driver may adjust width/height; the result is in dev->fmt.
 * -EINVAL when the driver chose another pixel format. */
int v4l2_set_format(struct v4l2_dev *dev, uint32_t v4l2_fourcc, uint32_t width, uint32_t height);

/* G_FMT: fills dev->fmt's fourcc, width and height only. */
int v4l2_get_format(struct v4l2_dev *dev);
/* Asks the driver to write lines of `pitch` bytes (plane 0); -EINVAL if it won't. */
int v4l2_set_format_pitch(struct v4l2_dev *dev, uint32_t pitch);
/* QUERYBUF: mmap offset and length of memory plane `plane` of buffer `index`. */
int v4l2_query_buffer(struct v4l2_dev *dev, uint32_t index, uint32_t plane, uint32_t *offset,
	uint32_t *length);

/* REQBUFS count with MMAP or DMABUF memory; *count is updated. */
int v4l2_request_buffers(struct v4l2_dev *dev, uint32_t memory, uint32_t *count);
/* Frees all buffers (REQBUFS 0). */
int v4l2_free_buffers(struct v4l2_dev *dev);
/* EXPBUF of memory plane `plane` of MMAP buffer `index`; *fd is the caller's. */
int v4l2_export_buffer(struct v4l2_dev *dev, uint32_t index, uint32_t plane, int *fd);
/* QBUF an MMAP buffer, or a DMABUF buffer with one fd per memory plane. */
int v4l2_queue(struct v4l2_dev *dev, uint32_t index, const int *dmabuf_fds);
/* DQBUF; -EAGAIN when none is ready. *index gets the buffer, *sequence the
 * driver's frame sequence, *error whether the driver flagged it broken,
 * *ts_ns its timestamp. */
int v4l2_dequeue(struct v4l2_dev *dev, uint32_t *index, uint32_t *sequence, bool *error,
		 uint64_t *ts_ns);
int v4l2_stream_on(struct v4l2_dev *dev);
int v4l2_stream_off(struct v4l2_dev *dev);

/* Sets an integer or button control by name (case-insensitive), e.g. vivid's
 * fault-injection controls. -ENOENT when the device has no such control. */
int v4l2_set_control_by_name(struct v4l2_dev *dev, const char *name, int64_t value);

#endif
