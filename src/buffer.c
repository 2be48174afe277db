/* SPDX-License-Identifier: MIT */
#include "buffer.h"

#include <assert.h>
#include <errno.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "device.h"
#include "log.h"
#include "plane.h"

#include <drm_fourcc.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#if HAVE_GBM
#include <gbm.h>
#endif

/* The body of struct dispman_buffer is this file's (buffer.h: its getters). */
struct dispman_buffer {
	struct dispman_device *dev; /* NULL once the device is destroyed */
	int refcount;
	enum buffer_kind kind;
	uint32_t width, height, format;
	uint64_t modifier;
	uint32_t n_planes;
	uint32_t handles[4];
	uint32_t pitches[4];
	uint32_t offsets[4];
	int fds[4];          /* owned dup'ed fds of an import, -1 otherwise */
	bool owns_handles;   /* close GEM handles on free (not for GBM) */
	uint32_t fb_id;
	/* CPU view of the memory object plane i lies in (from its byte 0): planes of one
	 * object (the same GEM handle) share one mapping, owned by the plane whose
	 * map_size[i] is not 0 */
	void *map[4];
	size_t map_size[4];
	uint64_t dumb_size;
#if HAVE_GBM
	struct gbm_bo *bo;
#endif
	dispman_buffer_release_callback release_cb;
	void *release_data;
	/* internal: a page flip put the buffer on screen (camera latency) */
	buffer_shown_func shown_cb;
	void *shown_data;
	struct list link; /* dispman_device.buffers */
};

static const struct format_info formats[] = {
	/* fourcc, planes, cpp, hsub, vsub, alpha */
	{ DRM_FORMAT_XRGB8888, 1, { 4 }, 1, 1, false },
	{ DRM_FORMAT_ARGB8888, 1, { 4 }, 1, 1, true },
	{ DRM_FORMAT_XBGR8888, 1, { 4 }, 1, 1, false },
	{ DRM_FORMAT_ABGR8888, 1, { 4 }, 1, 1, true },
	{ DRM_FORMAT_RGBX8888, 1, { 4 }, 1, 1, false },
	{ DRM_FORMAT_RGBA8888, 1, { 4 }, 1, 1, true },
	{ DRM_FORMAT_BGRX8888, 1, { 4 }, 1, 1, false },
	{ DRM_FORMAT_BGRA8888, 1, { 4 }, 1, 1, true },
	{ DRM_FORMAT_RGB565, 1, { 2 }, 1, 1, false },
	{ DRM_FORMAT_BGR565, 1, { 2 }, 1, 1, false },
	{ DRM_FORMAT_XRGB1555, 1, { 2 }, 1, 1, false },
	{ DRM_FORMAT_ARGB1555, 1, { 2 }, 1, 1, true },
	{ DRM_FORMAT_RGB888, 1, { 3 }, 1, 1, false },
	{ DRM_FORMAT_BGR888, 1, { 3 }, 1, 1, false },
	{ DRM_FORMAT_XRGB2101010, 1, { 4 }, 1, 1, false },
	{ DRM_FORMAT_ARGB2101010, 1, { 4 }, 1, 1, true },
	{ DRM_FORMAT_XBGR2101010, 1, { 4 }, 1, 1, false },
	{ DRM_FORMAT_ABGR2101010, 1, { 4 }, 1, 1, true },
	{ DRM_FORMAT_XRGB16161616, 1, { 8 }, 1, 1, false },
	{ DRM_FORMAT_ARGB16161616, 1, { 8 }, 1, 1, true },
	{ DRM_FORMAT_XBGR16161616, 1, { 8 }, 1, 1, false },
	{ DRM_FORMAT_ABGR16161616, 1, { 8 }, 1, 1, true },
	{ DRM_FORMAT_XBGR16161616F, 1, { 8 }, 1, 1, false },
	{ DRM_FORMAT_ABGR16161616F, 1, { 8 }, 1, 1, true },
	{ DRM_FORMAT_C8, 1, { 1 }, 1, 1, false },
	{ DRM_FORMAT_R8, 1, { 1 }, 1, 1, false },
	{ DRM_FORMAT_YUYV, 1, { 4 }, 2, 1, false },
	{ DRM_FORMAT_YVYU, 1, { 4 }, 2, 1, false },
	{ DRM_FORMAT_UYVY, 1, { 4 }, 2, 1, false },
	{ DRM_FORMAT_VYUY, 1, { 4 }, 2, 1, false },
	{ DRM_FORMAT_NV12, 2, { 1, 2 }, 2, 2, false },
	{ DRM_FORMAT_NV21, 2, { 1, 2 }, 2, 2, false },
	{ DRM_FORMAT_NV16, 2, { 1, 2 }, 2, 1, false },
	{ DRM_FORMAT_NV61, 2, { 1, 2 }, 2, 1, false },
	{ DRM_FORMAT_NV24, 2, { 1, 2 }, 1, 1, false },
	{ DRM_FORMAT_P010, 2, { 2, 4 }, 2, 2, false },
	{ DRM_FORMAT_YUV420, 3, { 1, 1, 1 }, 2, 2, false },
	{ DRM_FORMAT_YVU420, 3, { 1, 1, 1 }, 2, 2, false },
	{ DRM_FORMAT_YUV422, 3, { 1, 1, 1 }, 2, 1, false },
	{ DRM_FORMAT_YUV444, 3, { 1, 1, 1 }, 1, 1, false },
};

const struct format_info *format_info_find(uint32_t fourcc)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i].fourcc == fourcc)
			return &formats[i];
	return NULL;
}

/* Width in bytes of one row of plane p; packed YUV counts per 2-pixel block. */
static uint64_t plane_row_bytes(const struct format_info *fi, unsigned p, uint32_t width)
{
	if (fi->n_planes == 1 && fi->hsub > 1)
		return (uint64_t)(width + fi->hsub - 1) / fi->hsub * fi->cpp[0];
	uint32_t w = p == 0 ? width : (width + fi->hsub - 1) / fi->hsub;
	return (uint64_t)w * fi->cpp[p];
}

static uint32_t plane_height(const struct format_info *fi, unsigned p, uint32_t height)
{
	return p == 0 ? height : (height + fi->vsub - 1) / fi->vsub;
}

static char *fourcc_str(uint32_t fourcc, char buf[8])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((fourcc >> (8 * i)) & 0xff);
		buf[i] = c >= 32 && c < 127 ? c : '?';
	}
	buf[4] = 0;
	return buf;
}

static int check_size(struct dispman_device *dev, uint32_t width, uint32_t height)
{
	if (width == 0 || height == 0) {
		dispman_log(DISPMAN_LOG_ERROR, "buffer size %ux%u is empty", width, height);
		return -EINVAL;
	}
	const struct dispman_limits *l = device_limits(dev);
	if ((l->max_width && width > l->max_width) || (l->max_height && height > l->max_height)) {
		dispman_log(DISPMAN_LOG_ERROR, "buffer size %ux%u beyond device maximum %ux%u",
			width, height, l->max_width, l->max_height);
		return -ERANGE;
	}
	return 0;
}

static struct dispman_buffer *buffer_alloc(struct dispman_device *dev, enum buffer_kind kind,
	uint32_t width, uint32_t height, uint32_t fourcc)
{
	struct dispman_buffer *buf = calloc(1, sizeof(*buf));
	if (!buf) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating a buffer");
		return NULL;
	}
	buf->dev = dev;
	buf->refcount = 1;
	buf->kind = kind;
	buf->width = width;
	buf->height = height;
	buf->format = fourcc;
	buf->modifier = DRM_FORMAT_MOD_INVALID;
	for (int i = 0; i < 4; i++)
		buf->fds[i] = -1;
	list_insert_tail(device_buffers(dev), &buf->link);
	return buf;
}

/*
 * Whether another buffer of the device uses a GEM handle. The kernel keeps one handle per
 * object and DRM file, without a count: a dma-buf exported by this device and imported
 * again gets back the handle its source already has. The handle is closed by the last
 * buffer that uses it only.
 */
static bool handle_shared(struct dispman_buffer *buf, uint32_t handle)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, device_buffers(buf->dev)) {
		struct dispman_buffer *o = container_of(pos, struct dispman_buffer, link);
		for (uint32_t i = 0; o != buf && i < o->n_planes; i++)
			if (o->handles[i] == handle)
				return true;
	}
	return false;
}

/* Free everything the kernel holds for buf; leaves buf->dev NULL. */
static void buffer_free_kernel(struct dispman_buffer *buf)
{
	struct dispman_device *dev = buf->dev;
	if (!dev)
		return;
	for (int i = 0; i < 4; i++) {
		if (buf->map[i] && buf->map_size[i])
			munmap(buf->map[i], buf->map_size[i]);
		buf->map[i] = NULL;
		buf->map_size[i] = 0;
	}
	if (buf->fb_id)
		drmModeRmFB(device_fd(dev), buf->fb_id);
	buf->fb_id = 0;
	if (buf->kind == BUFFER_DUMB && buf->handles[0]) {
		struct drm_mode_destroy_dumb d = { .handle = buf->handles[0] };
		if (!handle_shared(buf, buf->handles[0]))
			drmIoctl(device_fd(dev), DRM_IOCTL_MODE_DESTROY_DUMB, &d);
	} else if (buf->owns_handles) {
		for (uint32_t i = 0; i < buf->n_planes; i++) {
			bool dup = false;
			for (uint32_t j = 0; j < i; j++)
				dup = dup || buf->handles[j] == buf->handles[i];
			if (buf->handles[i] && !dup && !handle_shared(buf, buf->handles[i]))
				drmCloseBufferHandle(device_fd(dev), buf->handles[i]);
		}
	}
	memset(buf->handles, 0, sizeof(buf->handles));
#if HAVE_GBM
	if (buf->bo)
		gbm_bo_destroy(buf->bo);
	buf->bo = NULL;
#endif
	for (int i = 0; i < 4; i++) {
		if (buf->fds[i] >= 0)
			close(buf->fds[i]);
		buf->fds[i] = -1;
	}
	list_remove(&buf->link);
	buf->dev = NULL;
}

void buffer_orphan_all(struct dispman_device *dev)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, device_buffers(dev)) {
		struct dispman_buffer *buf = container_of(pos, struct dispman_buffer, link);
		dispman_log(DISPMAN_LOG_WARNING, "buffer %ux%u still referenced at device "
			"destruction, its kernel objects are freed now", buf->width, buf->height);
		buffer_free_kernel(buf);
	}
}

void buffer_release(struct dispman_buffer *buf)
{
	if (buf->release_cb)
		buf->release_cb(buf, buf->release_data);
}

static void buffer_destroy(struct dispman_buffer *buf)
{
	buffer_free_kernel(buf);
	free(buf);
}

/*
 * Whether the device can take an explicit modifier: with DRM_CAP_ADDFB2_MODIFIERS any
 * (the planes decide), without it only LINEAR, which AddFB2 without modifiers means
 * (virtio-gpu, for one). Logs why not.
 */
static bool modifier_usable(struct dispman_device *dev, uint64_t modifier, const char *what)
{
	if (modifier == DRM_FORMAT_MOD_INVALID || modifier == DRM_FORMAT_MOD_LINEAR ||
	    device_addfb2_modifiers(dev))
		return true;
	dispman_log(DISPMAN_LOG_ERROR, "%s: modifier 0x%016llx needs DRM_CAP_ADDFB2_MODIFIERS, "
		"which the device lacks (it takes LINEAR or implicit layouts only)", what,
		(unsigned long long)modifier);
	return false;
}

/* level: how to log the kernel refusing the framebuffer (a caller with a fallback: INFO). */
static int buffer_add_fb(struct dispman_buffer *buf, enum dispman_log_level level)
{
	struct dispman_device *dev = buf->dev;
	int ret;
	char name[8];
	if (!modifier_usable(dev, buf->modifier, "AddFB2"))
		return -EINVAL;
	if (buf->modifier != DRM_FORMAT_MOD_INVALID && device_addfb2_modifiers(dev)) {
		uint64_t mods[4] = { 0 };
		for (uint32_t i = 0; i < buf->n_planes; i++)
			mods[i] = buf->modifier;
		ret = drmModeAddFB2WithModifiers(device_fd(dev), buf->width, buf->height,
			buf->format, buf->handles, buf->pitches, buf->offsets, mods, &buf->fb_id,
			DRM_MODE_FB_MODIFIERS);
	} else {
		/* Implicit, or LINEAR on a device without DRM_CAP_ADDFB2_MODIFIERS: such a
		 * device only has linear layouts, which is what AddFB2 without modifiers
		 * means there. */
		if (buf->modifier == DRM_FORMAT_MOD_LINEAR)
			dispman_log(DISPMAN_LOG_DEBUG, "AddFB2: LINEAR without "
				"DRM_CAP_ADDFB2_MODIFIERS, as an implicit (linear) layout");
		ret = drmModeAddFB2(device_fd(dev), buf->width, buf->height, buf->format,
			buf->handles, buf->pitches, buf->offsets, &buf->fb_id, 0);
	}
	if (ret != 0) {
		int err = errno ? errno : EINVAL;
		buf->fb_id = 0;
		if ((err == EINVAL || err == ENOENT) && buf->kind == BUFFER_DUMB) {
			/* The kernel makes no framebuffer of a format no plane takes (vkms
			 * in Linux 6.12, not 6.1, and many drivers say EINVAL, virtio-gpu ENOENT; the GEM
			 * handle exists, we just made it): the buffer still serves the CPU
			 * compositor. */
			dispman_log_errno(DISPMAN_LOG_INFO, err, "AddFB2 %ux%u %s refused, the "
				"buffer is for CPU composition only", buf->width, buf->height,
				fourcc_str(buf->format, name));
			return 0;
		}
		dispman_log_errno(level, err, "AddFB2 %ux%u %s failed", buf->width,
			buf->height, fourcc_str(buf->format, name));
		return -err;
	}
	return 0;
}

/* The planes of plane p's memory object (the same GEM handle) share its mapping. */
static void share_map(struct dispman_buffer *buf, unsigned p)
{
	for (uint32_t q = 0; q < buf->n_planes; q++)
		if (q != p && !buf->map[q] && buf->handles[q] == buf->handles[p]) {
			buf->map[q] = buf->map[p];
			buf->map_size[q] = 0;
		}
}

/* Map size bytes of a dma-buf fd as plane's CPU view (and of the planes in the same
 * object); closes fd. */
static int map_dmabuf_fd(struct dispman_buffer *buf, unsigned plane, int fd, size_t size)
{
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED && errno == EACCES) {
		/* An exporter may hand out read-only dma-bufs (GBM does): reading is
		 * all the compositor needs. */
		dispman_log(DISPMAN_LOG_DEBUG, "map: the dma-buf is read-only, mapping it so");
		m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	}
	int err = errno;
	close(fd);
	if (m == MAP_FAILED) {
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "map: mmap of the dma-buf failed");
		return -err;
	}
	buf->map[plane] = m;
	buf->map_size[plane] = size;
	share_map(buf, plane);
	return 0;
}

/* A dumb buffer's one object (every plane of a multi-planar one lies in it), whole. */
static int map_dumb(struct dispman_buffer *buf)
{
	struct dispman_device *dev = buf->dev;
	size_t size = (size_t)buf->dumb_size;
	struct drm_mode_map_dumb md = { .handle = buf->handles[0] };
	if (drmIoctl(device_fd(dev), DRM_IOCTL_MODE_MAP_DUMB, &md) == 0) {
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, device_fd(dev),
			(off_t)md.offset);
		if (p != MAP_FAILED) {
			buf->map[0] = p;
			buf->map_size[0] = size;
			share_map(buf, 0);
			return 0;
		}
	}
	dispman_log_errno(DISPMAN_LOG_DEBUG, errno, "dumb mmap through the DRM fd failed, "
		"trying the dma-buf");
	int fd = -1;
	if (drmPrimeHandleToFD(device_fd(dev), buf->handles[0], DRM_CLOEXEC | DRM_RDWR, &fd) != 0) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "cannot map dumb buffer");
		return -err;
	}
	return map_dmabuf_fd(buf, 0, fd, size);
}

/*
 * Layout of a multi-planar dumb buffer in its one dumb object: the planes one after the
 * other, every plane with the same pitch (wide enough for the widest plane's row); the
 * object is made with bpp 32 (the only depth some drivers' CREATE_DUMB takes, virtio-gpu's)
 * and as many 4-byte columns as that pitch needs. Returns the object's width (in 4-byte
 * units) and height (rows).
 */
static void dumb_planar_size(const struct format_info *fi, uint32_t width, uint32_t height,
	uint32_t *obj_w, uint32_t *obj_h)
{
	uint64_t row = 0, rows = 0;
	for (unsigned p = 0; p < fi->n_planes; p++) {
		uint64_t r = plane_row_bytes(fi, p, width);
		row = r > row ? r : row;
		rows += plane_height(fi, p, height);
	}
	*obj_w = (uint32_t)((row + 3) / 4);
	*obj_h = rows > UINT32_MAX ? UINT32_MAX : (uint32_t)rows;
}

struct dispman_buffer *dispman_buffer_create_dumb(struct dispman_device *dev, uint32_t width,
	uint32_t height, uint32_t fourcc)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	char name[8];
	const struct format_info *fi = format_info_find(fourcc);
	if (!fi) {
		dispman_log(DISPMAN_LOG_ERROR, "dumb buffer: unknown format %s (0x%08x)",
			fourcc_str(fourcc, name), fourcc);
		errno = EINVAL;
		return NULL;
	}
	int ret = check_size(dev, width, height);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	struct dispman_buffer *buf = buffer_alloc(dev, BUFFER_DUMB, width, height, fourcc);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	buf->n_planes = fi->n_planes;
	struct drm_mode_create_dumb cd = { .width = width, .height = height,
		.bpp = fi->cpp[0] * 8u };
	if (fi->n_planes > 1) {
		dumb_planar_size(fi, width, height, &cd.width, &cd.height);
		cd.bpp = 32;
	} else if (fi->hsub > 1) {
		cd.width = (width + fi->hsub - 1) / fi->hsub; /* packed YUV: 2-pixel blocks */
	}
	if (drmIoctl(device_fd(dev), DRM_IOCTL_MODE_CREATE_DUMB, &cd) != 0) {
		ret = -(errno ? errno : EINVAL);
		dispman_log_errno(DISPMAN_LOG_ERROR, -ret, "CREATE_DUMB %ux%u failed", width,
			height);
		goto err;
	}
	buf->dumb_size = cd.size;
	uint64_t offset = 0;
	for (uint32_t p = 0; p < fi->n_planes; p++) {
		buf->handles[p] = cd.handle;
		buf->pitches[p] = cd.pitch;
		buf->offsets[p] = (uint32_t)offset;
		offset += (uint64_t)cd.pitch * plane_height(fi, p, height);
	}
	if (offset > cd.size || offset > UINT32_MAX) {
		/* a kernel pitch or size that does not hold the planes (never seen) */
		ret = -ERANGE;
		dispman_log(DISPMAN_LOG_ERROR, "CREATE_DUMB %ux%u: %llu bytes cannot hold the "
			"%u planes", width, height, (unsigned long long)cd.size, fi->n_planes);
		goto err;
	}
	ret = map_dumb(buf);
	if (ret < 0)
		goto err;
	ret = buffer_add_fb(buf, DISPMAN_LOG_ERROR);
	if (ret < 0)
		goto err;
	return buf;
err:
	buffer_destroy(buf);
	errno = -ret;
	return NULL;
}

struct dispman_buffer *dispman_buffer_create_gbm(struct dispman_device *dev, uint32_t width,
	uint32_t height, uint32_t fourcc, const uint64_t *modifiers, size_t n)
{
	if (refuse_null(dev, "dev"))
		return NULL;
#if HAVE_GBM
	char name[8];
	if (!format_info_find(fourcc)) {
		dispman_log(DISPMAN_LOG_ERROR, "gbm buffer: unknown format %s (0x%08x)",
			fourcc_str(fourcc, name), fourcc);
		errno = EINVAL;
		return NULL;
	}
	int ret = check_size(dev, width, height);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	struct gbm_device *gbm = device_gbm(dev);
	if (!gbm) {
		gbm = gbm_create_device(device_fd(dev));
		if (!gbm) {
			int err = errno ? errno : ENODEV;
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "gbm_create_device failed");
			errno = err;
			return NULL;
		}
		device_set_gbm(dev, gbm);
	}
	struct dispman_buffer *buf = buffer_alloc(dev, BUFFER_GBM, width, height, fourcc);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	if (n > 0)
		buf->bo = gbm_bo_create_with_modifiers2(gbm, width, height, fourcc, modifiers,
			(unsigned)n, GBM_BO_USE_SCANOUT);
	else
		buf->bo = gbm_bo_create(gbm, width, height, fourcc,
			GBM_BO_USE_SCANOUT | GBM_BO_USE_LINEAR);
	if (!buf->bo) {
		ret = -(errno ? errno : EINVAL);
		dispman_log_errno(DISPMAN_LOG_ERROR, -ret, "gbm_bo_create %ux%u %s failed", width,
			height, fourcc_str(fourcc, name));
		goto err;
	}
	int np = gbm_bo_get_plane_count(buf->bo);
	buf->n_planes = np > 0 && np <= 4 ? (uint32_t)np : 1;
	buf->modifier = n > 0 ? gbm_bo_get_modifier(buf->bo) : DRM_FORMAT_MOD_INVALID;
	for (uint32_t i = 0; i < buf->n_planes; i++) {
		buf->handles[i] = gbm_bo_get_handle_for_plane(buf->bo, (int)i).u32;
		buf->pitches[i] = gbm_bo_get_stride_for_plane(buf->bo, (int)i);
		buf->offsets[i] = gbm_bo_get_offset(buf->bo, (int)i);
	}
	ret = buffer_add_fb(buf, DISPMAN_LOG_ERROR);
	if (ret < 0)
		goto err;
	return buf;
err:
	buffer_destroy(buf);
	errno = -ret;
	return NULL;
#else
	(void)width; (void)height; (void)fourcc; (void)modifiers; (void)n;
	dispman_log(DISPMAN_LOG_ERROR, "built without GBM support");
	errno = ENOTSUP;
	return NULL;
#endif
}

/* Plane i of a dma-buf import: a valid fd, a pitch for the width, a dma-buf big enough. */
static int check_import_plane(const struct dispman_dmabuf_desc *desc,
	const struct format_info *fi, uint32_t i)
{
	int fd = desc->fds[i];
	if (fd < 0 || fcntl(fd, F_GETFD) < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "dma-buf import: plane %u fd %d is invalid", i, fd);
		return -EBADF;
	}
	uint64_t row = plane_row_bytes(fi, i, desc->width);
	if (desc->pitches[i] < row) {
		dispman_log(DISPMAN_LOG_ERROR, "dma-buf import: plane %u pitch %u is less "
			"than %llu bytes for width %u", i, desc->pitches[i],
			(unsigned long long)row, desc->width);
		return -EINVAL;
	}
	off_t size = lseek(fd, 0, SEEK_END);
	uint64_t need = desc->offsets[i] +
		(uint64_t)desc->pitches[i] * plane_height(fi, i, desc->height);
	if (size < 0) {
		dispman_log(DISPMAN_LOG_DEBUG, "dma-buf import: size of plane %u unknown", i);
	} else if (need > (uint64_t)size) {
		dispman_log(DISPMAN_LOG_ERROR, "dma-buf import: plane %u needs %llu bytes "
			"(offset %u + pitch %u x rows), the dma-buf has %lld", i,
			(unsigned long long)need, desc->offsets[i], desc->pitches[i],
			(long long)size);
		return -EINVAL;
	}
	return 0;
}

/* The descriptor of a dma-buf import, each refusal logged; 0 or a negative errno. */
static int check_import(struct dispman_device *dev, const struct dispman_dmabuf_desc *desc)
{
	char name[8];
	if (!desc) {
		dispman_log(DISPMAN_LOG_ERROR, "dma-buf import: no descriptor");
		return -EINVAL;
	}
	const struct format_info *fi = format_info_find(desc->fourcc);
	if (!fi) {
		dispman_log(DISPMAN_LOG_ERROR, "dma-buf import: unknown format %s (0x%08x)",
			fourcc_str(desc->fourcc, name), desc->fourcc);
		return -EINVAL;
	}
	if (desc->n_planes != fi->n_planes) {
		dispman_log(DISPMAN_LOG_ERROR, "dma-buf import: format %s has %u planes, not %u",
			fourcc_str(desc->fourcc, name), fi->n_planes, desc->n_planes);
		return -EINVAL;
	}
	int ret = check_size(dev, desc->width, desc->height);
	for (uint32_t i = 0; ret == 0 && i < desc->n_planes; i++)
		ret = check_import_plane(desc, fi, i);
	if (ret < 0)
		return ret;
	if (!modifier_usable(dev, desc->modifier, "dma-buf import"))
		return -EINVAL;
	if (desc->modifier != DRM_FORMAT_MOD_INVALID &&
	    !planes_take(device_planes(dev), device_n_planes(dev), desc->fourcc, desc->modifier,
			true)) {
		dispman_log(DISPMAN_LOG_ERROR, "dma-buf import: no plane takes %s with modifier "
			"0x%016llx", fourcc_str(desc->fourcc, name),
			(unsigned long long)desc->modifier);
		return -EINVAL;
	}
	return 0;
}

struct dispman_buffer *buffer_import_dmabuf(struct dispman_device *dev,
	const struct dispman_dmabuf_desc *desc, enum dispman_log_level kernel_level)
{
	int ret = check_import(dev, desc);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	struct dispman_buffer *buf = buffer_alloc(dev, BUFFER_DMABUF, desc->width, desc->height,
		desc->fourcc);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	buf->modifier = desc->modifier;
	buf->n_planes = desc->n_planes;
	buf->owns_handles = true;
	for (uint32_t i = 0; i < desc->n_planes; i++) {
		buf->pitches[i] = desc->pitches[i];
		buf->offsets[i] = desc->offsets[i];
		buf->fds[i] = fcntl(desc->fds[i], F_DUPFD_CLOEXEC, 0);
		if (buf->fds[i] < 0) {
			ret = -errno;
			dispman_log_errno(DISPMAN_LOG_ERROR, errno, "dma-buf import: cannot dup fd %d",
				desc->fds[i]);
			goto err;
		}
		if (drmPrimeFDToHandle(device_fd(dev), buf->fds[i], &buf->handles[i]) != 0) {
			ret = -(errno ? errno : EINVAL);
			dispman_log_errno(kernel_level, -ret, "dma-buf import: PRIME import of "
				"plane %u failed", i);
			goto err;
		}
	}
	ret = buffer_add_fb(buf, kernel_level);
	if (ret < 0)
		goto err;
	return buf;
err:
	buffer_destroy(buf);
	errno = -ret;
	return NULL;
}

struct dispman_buffer *dispman_buffer_import_dmabuf(struct dispman_device *dev,
	const struct dispman_dmabuf_desc *desc)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	return buffer_import_dmabuf(dev, desc, DISPMAN_LOG_ERROR);
}

int dispman_buffer_export_dmabuf(struct dispman_buffer *buf, int *fd)
{
	if (refuse_null(buf, "buf") || refuse_null(fd, "fd"))
		return -EINVAL;
	if (!buf->dev) {
		dispman_log(DISPMAN_LOG_ERROR, "export: the buffer's device is gone");
		return -ENODEV;
	}
	if (buf->fds[0] >= 0) {
		*fd = fcntl(buf->fds[0], F_DUPFD_CLOEXEC, 0);
		if (*fd < 0) {
			int err = errno;
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "export: cannot dup the dma-buf");
			return -err;
		}
		return 0;
	}
	if (drmPrimeHandleToFD(device_fd(buf->dev), buf->handles[0], DRM_CLOEXEC | DRM_RDWR,
			fd) != 0) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "export: PRIME export failed");
		return -err;
	}
	return 0;
}

struct dispman_buffer *dispman_buffer_ref(struct dispman_buffer *buf)
{
	if (refuse_null(buf, "buf"))
		return NULL;
	assert(buf->refcount > 0); /* a reference to a destroyed buffer */
	buf->refcount++;
	return buf;
}

void dispman_buffer_unref(struct dispman_buffer *buf)
{
	if (!buf)
		return;
	assert(buf->refcount > 0); /* one unref more than refs */
	if (--buf->refcount > 0)
		return;
	buffer_destroy(buf);
}

/* Bytes from the start of plane p's memory object to the end of the last plane in it. */
static size_t object_span(const struct dispman_buffer *buf, unsigned p)
{
	const struct format_info *fi = format_info_find(buf->format);
	uint64_t end = 0;
	for (uint32_t q = 0; q < buf->n_planes; q++) {
		if (buf->handles[q] != buf->handles[p] && q != p)
			continue;
		uint32_t rows = fi ? plane_height(fi, q, buf->height) : buf->height;
		uint64_t e = buf->offsets[q] + (uint64_t)buf->pitches[q] * rows;
		end = e > end ? e : end;
	}
	return (size_t)end;
}

/* A new dma-buf fd of plane p's memory object (the caller closes it), or a negative errno. */
static int plane_fd(struct dispman_buffer *buf, unsigned p)
{
	int fd;
	if (buf->fds[p] >= 0) {
		fd = fcntl(buf->fds[p], F_DUPFD_CLOEXEC, 0);
		if (fd < 0) {
			int err = errno;
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "map: cannot dup plane %u's "
				"dma-buf", p);
			return -err;
		}
		return fd;
	}
	if (drmPrimeHandleToFD(device_fd(buf->dev), buf->handles[p], DRM_CLOEXEC | DRM_RDWR,
			&fd) != 0) {
		int err = errno ? errno : EINVAL;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "map: PRIME export of plane %u failed",
			p);
		return -err;
	}
	return fd;
}

int buffer_map_plane(struct dispman_buffer *buf, unsigned plane, void **data,
	uint32_t *stride)
{
	if (plane >= buf->n_planes) {
		dispman_log(DISPMAN_LOG_ERROR, "map: plane %u of a %u-plane buffer", plane,
			buf->n_planes);
		return -EINVAL;
	}
	if (!buf->map[plane]) {
		if (!buf->dev) {
			dispman_log(DISPMAN_LOG_ERROR, "map: the buffer's device is gone");
			return -ENODEV;
		}
		if (buf->modifier != DRM_FORMAT_MOD_INVALID &&
		    buf->modifier != DRM_FORMAT_MOD_LINEAR) {
			dispman_log(DISPMAN_LOG_ERROR, "map: only linear buffers can be mapped "
				"(modifier 0x%016llx)", (unsigned long long)buf->modifier);
			return -ENOTSUP;
		}
		int fd = plane_fd(buf, plane);
		if (fd < 0)
			return fd;
		int ret = map_dmabuf_fd(buf, plane, fd, object_span(buf, plane));
		if (ret < 0)
			return ret;
	}
	if (data)
		*data = (char *)buf->map[plane] + buf->offsets[plane];
	if (stride)
		*stride = buf->pitches[plane];
	return 0;
}

int dispman_buffer_map(struct dispman_buffer *buf, void **data, uint32_t *stride)
{
	if (refuse_null(buf, "buf"))
		return -EINVAL;
	if (buf->n_planes != 1) {
		char name[8];
		dispman_log(DISPMAN_LOG_ERROR, "map: a %u-plane %s buffer: only single-plane "
			"buffers map whole, map its planes with dispman_buffer_map_plane()",
			buf->n_planes, fourcc_str(buf->format, name));
		return -ENOTSUP;
	}
	return buffer_map_plane(buf, 0, data, stride);
}

int dispman_buffer_map_plane(struct dispman_buffer *buf, unsigned plane, void **data,
	uint32_t *stride)
{
	if (refuse_null(buf, "buf"))
		return -EINVAL;
	return buffer_map_plane(buf, plane, data, stride);
}

unsigned dispman_buffer_get_plane_count(struct dispman_buffer *buf)
{
	if (refuse_null(buf, "buf"))
		return 0;
	return buf->n_planes;
}

uint32_t dispman_buffer_get_width(struct dispman_buffer *buf)
{
	if (refuse_null(buf, "buf"))
		return 0;
	return buf->width;
}

uint32_t dispman_buffer_get_height(struct dispman_buffer *buf)
{
	if (refuse_null(buf, "buf"))
		return 0;
	return buf->height;
}

uint32_t dispman_buffer_get_format(struct dispman_buffer *buf)
{
	if (refuse_null(buf, "buf"))
		return 0;
	return buf->format;
}

uint64_t dispman_buffer_get_modifier(struct dispman_buffer *buf)
{
	if (refuse_null(buf, "buf"))
		return DRM_FORMAT_MOD_INVALID;
	return buf->modifier;
}

uint32_t dispman_buffer_get_fb_id(struct dispman_buffer *buf)
{
	if (refuse_null(buf, "buf"))
		return 0;
	return buf->fb_id;
}

int dispman_buffer_set_release_callback(struct dispman_buffer *buf,
	dispman_buffer_release_callback cb, void *data)
{
	if (refuse_null(buf, "buf"))
		return -EINVAL;
	buf->release_cb = cb;
	buf->release_data = data;
	return 0;
}

void buffer_set_shown_callback(struct dispman_buffer *buf, buffer_shown_func cb, void *data)
{
	buf->shown_cb = cb;
	buf->shown_data = data;
}

bool buffer_has_shown_callback(const struct dispman_buffer *buf)
{
	return buf->shown_cb != NULL;
}

void buffer_notify_shown(struct dispman_buffer *buf, const struct timespec *ts)
{
	if (buf->shown_cb)
		buf->shown_cb(buf, ts, buf->shown_data);
}

uint32_t buffer_width(const struct dispman_buffer *buf)
{
	return buf->width;
}

uint32_t buffer_height(const struct dispman_buffer *buf)
{
	return buf->height;
}

uint32_t buffer_format(const struct dispman_buffer *buf)
{
	return buf->format;
}

uint64_t buffer_modifier(const struct dispman_buffer *buf)
{
	return buf->modifier;
}

uint32_t buffer_fb_id(const struct dispman_buffer *buf)
{
	return buf->fb_id;
}

uint32_t buffer_pitch(const struct dispman_buffer *buf, unsigned p)
{
	return buf->pitches[p];
}

bool buffer_same_shape(const struct dispman_buffer *a, const struct dispman_buffer *b)
{
	return a->width == b->width && a->height == b->height && a->format == b->format &&
		a->modifier == b->modifier && !a->fb_id == !b->fb_id;
}

struct dispman_device *buffer_device(const struct dispman_buffer *buf)
{
	return buf->dev;
}

bool buffer_unshared(const struct dispman_buffer *buf)
{
	return buf->refcount == 1;
}

uint32_t buffer_handle(const struct dispman_buffer *buf, unsigned p)
{
	return buf->handles[p];
}

int buffer_fd(const struct dispman_buffer *buf, unsigned p)
{
	return buf->fds[p];
}
