/* SPDX-License-Identifier: MIT */
/*
 * zwp_linux_dmabuf_v1 (v4): the format table comes from the planes' IN_FORMATS (LINEAR is
 * always listed); default and surface feedback carry a scanout tranche (the formats and
 * modifiers of the overlay planes) and a tranche of everything a plane takes. A
 * zwp_linux_buffer_params_v1 is checked (planes, sizes, bounds, format and modifier) and
 * imported once with dispman_buffer_import_dmabuf(); the wl_buffer shows that buffer as is.
 */
#include "dmabuf.h"

#include "buffer.h"
#include "surface.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "linux-dmabuf-unstable-v1-server-protocol.h"

/* The global's state: the (format, modifier) table of the planes, shared with clients
 * through a sealed memfd, and the indices of the scanout tranche. */
struct dmabuf_global {
	struct wl_global *global;
	int format_table_fd;
	uint32_t format_table_size;
	uint32_t n_formats;
	struct dmabuf_format {
		uint32_t format;
		uint32_t pad;
		uint64_t modifier;
	} *formats;
	uint16_t *scanout_idx;          /* indices into formats of the scanout tranche */
	uint32_t n_scanout;
	dev_t main_device;
};

/* ---- the format table ---- */

static int add_pair(struct server *srv, uint32_t fmt, uint64_t mod)
{
	for (uint32_t i = 0; i < srv->dmabuf->n_formats; i++)
		if (srv->dmabuf->formats[i].format == fmt && srv->dmabuf->formats[i].modifier == mod)
			return (int)i;
	struct dmabuf_format *n = realloc(srv->dmabuf->formats, (srv->dmabuf->n_formats + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	srv->dmabuf->formats = n;
	n[srv->dmabuf->n_formats] = (struct dmabuf_format){ .format = fmt, .modifier = mod };
	return (int)srv->dmabuf->n_formats++;
}

static uint64_t plane_prop(int fd, uint32_t plane_id, const char *name, bool *found)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, plane_id,
		DRM_MODE_OBJECT_PLANE);
	uint64_t v = 0;
	*found = false;
	for (uint32_t i = 0; props && i < props->count_props; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
		if (p && strcmp(p->name, name) == 0) {
			v = props->prop_values[i];
			*found = true;
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return v;
}

static int add_scanout(struct server *srv, int idx)
{
	for (uint32_t i = 0; i < srv->dmabuf->n_scanout; i++)
		if (srv->dmabuf->scanout_idx[i] == idx)
			return 0;
	uint16_t *n = realloc(srv->dmabuf->scanout_idx, (srv->dmabuf->n_scanout + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	srv->dmabuf->scanout_idx = n;
	n[srv->dmabuf->n_scanout++] = (uint16_t)idx;
	return 0;
}

/* One plane's (format, modifier) pairs into the table; overlay pairs into the scanout
 * tranche too. */
static int add_plane(struct server *srv, int fd, drmModePlane *pl, bool overlay)
{
	bool has_blob;
	uint64_t blob_id = plane_prop(fd, pl->plane_id, "IN_FORMATS", &has_blob);
	drmModePropertyBlobRes *blob = has_blob && blob_id ?
		drmModeGetPropertyBlob(fd, (uint32_t)blob_id) : NULL;
	int ret = 0;
	if (blob) {
		drmModeFormatModifierIterator it = { 0 };
		while (ret >= 0 && drmModeFormatModifierBlobIterNext(blob, &it)) {
			if (it.mod == DRM_FORMAT_MOD_INVALID)
				continue;
			ret = add_pair(srv, it.fmt, it.mod);
			if (ret >= 0 && overlay)
				ret = add_scanout(srv, ret);
		}
		drmModeFreePropertyBlob(blob);
	}
	/* without IN_FORMATS (or besides it): every format in LINEAR */
	for (uint32_t i = 0; ret >= 0 && i < pl->count_formats; i++) {
		ret = add_pair(srv, pl->formats[i], DRM_FORMAT_MOD_LINEAR);
		if (ret >= 0 && overlay)
			ret = add_scanout(srv, ret);
	}
	return ret < 0 ? ret : 0;
}

static int build_format_table(struct server *srv)
{
	int fd = dispman_device_get_drm_fd(srv->dev);
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	srv->dmabuf->main_device = st.st_rdev;
	drmModePlaneRes *res = drmModeGetPlaneResources(fd);
	if (!res)
		return -errno;
	int ret = 0;
	for (uint32_t i = 0; ret >= 0 && i < res->count_planes; i++) {
		drmModePlane *pl = drmModeGetPlane(fd, res->planes[i]);
		if (!pl)
			continue;
		bool found;
		uint64_t type = plane_prop(fd, pl->plane_id, "type", &found);
		if (type != DRM_PLANE_TYPE_CURSOR)
			ret = add_plane(srv, fd, pl, type == DRM_PLANE_TYPE_OVERLAY);
		drmModeFreePlane(pl);
	}
	drmModeFreePlaneResources(res);
	if (ret < 0)
		return ret;
	if (srv->dmabuf->n_scanout == 0) {
		/* no overlay planes: the primary plane's formats are the scanout tranche */
		for (uint32_t i = 0; i < srv->dmabuf->n_formats; i++)
			if (add_scanout(srv, (int)i) < 0)
				return -ENOMEM;
	}
	srv->dmabuf->format_table_size = srv->dmabuf->n_formats * (uint32_t)sizeof(struct dmabuf_format);
	int tfd = memfd_create("dispman-wayland-formats", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (tfd < 0)
		return -errno;
	if (ftruncate(tfd, srv->dmabuf->format_table_size) < 0 ||
	    write(tfd, srv->dmabuf->formats, srv->dmabuf->format_table_size) != (ssize_t)srv->dmabuf->format_table_size) {
		ret = -errno;
		close(tfd);
		return ret ? ret : -EIO;
	}
	fcntl(tfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	srv->dmabuf->format_table_fd = tfd;
	wlog(DISPMAN_LOG_INFO, "dma-buf formats: %u pairs, %u in the scanout tranche",
		srv->dmabuf->n_formats, srv->dmabuf->n_scanout);
	return 0;
}

static bool format_supported(struct server *srv, uint32_t fmt, uint64_t mod)
{
	for (uint32_t i = 0; i < srv->dmabuf->n_formats; i++)
		if (srv->dmabuf->formats[i].format == fmt && srv->dmabuf->formats[i].modifier == mod)
			return true;
	return false;
}

/* ---- feedback ---- */

static void feedback_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zwp_linux_dmabuf_feedback_v1_interface feedback_impl = {
	.destroy = feedback_destroy,
};

static void send_tranche(struct wl_resource *fb, struct wl_array *dev, uint32_t flags,
	const uint16_t *idx, uint32_t n)
{
	zwp_linux_dmabuf_feedback_v1_send_tranche_target_device(fb, dev);
	struct wl_array a;
	wl_array_init(&a);
	uint16_t *p = wl_array_add(&a, n * sizeof(uint16_t));
	if (p)
		memcpy(p, idx, n * sizeof(uint16_t));
	zwp_linux_dmabuf_feedback_v1_send_tranche_formats(fb, &a);
	wl_array_release(&a);
	zwp_linux_dmabuf_feedback_v1_send_tranche_flags(fb, flags);
	zwp_linux_dmabuf_feedback_v1_send_tranche_done(fb);
}

static void send_feedback(struct server *srv, struct wl_client *c, struct wl_resource *res,
	uint32_t id)
{
	struct wl_resource *fb = wl_resource_create(c, &zwp_linux_dmabuf_feedback_v1_interface,
		wl_resource_get_version(res), id);
	if (!fb) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(fb, &feedback_impl, NULL, NULL);
	zwp_linux_dmabuf_feedback_v1_send_format_table(fb, srv->dmabuf->format_table_fd,
		srv->dmabuf->format_table_size);
	struct wl_array dev;
	wl_array_init(&dev);
	dev_t *d = wl_array_add(&dev, sizeof(dev_t));
	if (d)
		*d = srv->dmabuf->main_device;
	zwp_linux_dmabuf_feedback_v1_send_main_device(fb, &dev);
	send_tranche(fb, &dev, ZWP_LINUX_DMABUF_FEEDBACK_V1_TRANCHE_FLAGS_SCANOUT,
		srv->dmabuf->scanout_idx, srv->dmabuf->n_scanout);
	uint16_t *all = calloc(srv->dmabuf->n_formats ? srv->dmabuf->n_formats : 1, sizeof(uint16_t));
	if (all) {
		for (uint32_t i = 0; i < srv->dmabuf->n_formats; i++)
			all[i] = (uint16_t)i;
		send_tranche(fb, &dev, 0, all, srv->dmabuf->n_formats);
		free(all);
	}
	wl_array_release(&dev);
	zwp_linux_dmabuf_feedback_v1_send_done(fb);
}

/* ---- params ---- */

struct dmabuf_params {
	struct server *srv;
	struct wl_resource *resource;
	bool used;
	uint32_t n;                     /* bit mask of planes set */
	int fds[4];
	uint32_t offsets[4], strides[4];
	uint64_t modifier[4];
};

static void params_free(struct wl_resource *res)
{
	struct dmabuf_params *p = wl_resource_get_user_data(res);
	for (int i = 0; i < 4; i++)
		if (p->n & (1u << i))
			close(p->fds[i]);
	free(p);
}

static void params_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void perr(struct dmabuf_params *p, uint32_t code, const char *fmt, ...) PRINTF_ATTR(3, 4);
static void perr(struct dmabuf_params *p, uint32_t code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	wl_resource_post_error(p->resource, code, "%s", msg);
	p->srv->stats.protocol_errors++;
}

static void params_add(struct wl_client *c, struct wl_resource *res, int32_t fd,
	uint32_t plane_idx, uint32_t offset, uint32_t stride, uint32_t mod_hi, uint32_t mod_lo)
{
	struct dmabuf_params *p = wl_resource_get_user_data(res);
	if (p->used) {
		close(fd);
		perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED,
			"params already used");
		return;
	}
	if (plane_idx >= 4) {
		close(fd);
		perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_IDX,
			"plane index %u is out of bounds (max %u)", plane_idx, 3);
		return;
	}
	if (p->n & (1u << plane_idx)) {
		close(fd);
		perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_SET,
			"plane %u was already set", plane_idx);
		return;
	}
	p->n |= 1u << plane_idx;
	p->fds[plane_idx] = fd;
	p->offsets[plane_idx] = offset;
	p->strides[plane_idx] = stride;
	p->modifier[plane_idx] = (uint64_t)mod_hi << 32 | mod_lo;
}

static int format_planes(uint32_t fmt)
{
	switch (fmt) {
	case DRM_FORMAT_NV12: case DRM_FORMAT_NV21: case DRM_FORMAT_NV16: case DRM_FORMAT_NV61:
	case DRM_FORMAT_P010:
		return 2;
	case DRM_FORMAT_YUV420: case DRM_FORMAT_YVU420: case DRM_FORMAT_YUV422:
	case DRM_FORMAT_YUV444:
		return 3;
	default:
		return 1;
	}
}

/* Checks and imports; on a client error posts it and returns NULL with *fatal set. */
static struct dispman_buffer *params_import(struct dmabuf_params *p, int32_t w, int32_t h,
	uint32_t fmt, uint32_t flags, bool *fatal)
{
	*fatal = true;
	if (p->used) {
		perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED,
			"params already used");
		return NULL;
	}
	p->used = true;
	uint32_t n = 0;
	while (n < 4 && (p->n & (1u << n)))
		n++;
	if (n == 0 || p->n != (1u << n) - 1) {
		perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE,
			"planes are not set contiguously from 0 (mask %#x)", p->n);
		return NULL;
	}
	if ((int)n != format_planes(fmt)) {
		perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE,
			"%u planes given, format %#x needs another count", n, fmt);
		return NULL;
	}
	if (w <= 0 || h <= 0) {
		perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_DIMENSIONS,
			"invalid size %ux%u", (uint32_t)w, (uint32_t)h);
		return NULL;
	}
	for (uint32_t i = 1; i < n; i++) {
		if (p->modifier[i] != p->modifier[0]) {
			perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT,
				"plane %u has another modifier than plane %u", i, 0);
			return NULL;
		}
	}
	if (!format_supported(p->srv, fmt, p->modifier[0])) {
		wl_resource_post_error(p->resource, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT,
			"format %#x with modifier %#llx is not in the format table", fmt,
			(unsigned long long)p->modifier[0]);
		p->srv->stats.protocol_errors++;
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		off_t size = lseek(p->fds[i], 0, SEEK_END);
		uint32_t rows = i == 0 ? (uint32_t)h : (uint32_t)(h + 1) / 2;
		uint64_t end = (uint64_t)p->offsets[i] + (uint64_t)p->strides[i] * rows;
		if (p->strides[i] == 0 || (size >= 0 && end > (uint64_t)size)) {
			perr(p, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS,
				"plane %u (offset + stride * height) lies beyond its dma-buf of %u "
				"bytes", i, size >= 0 ? (uint32_t)size : 0);
			return NULL;
		}
	}
	*fatal = false;
	if (flags & ~(uint32_t)ZWP_LINUX_BUFFER_PARAMS_V1_FLAGS_Y_INVERT) {
		wlog(DISPMAN_LOG_WARNING, "dma-buf flags %#x (interlaced) are not supported", flags);
		return NULL;
	}
	if (flags & ZWP_LINUX_BUFFER_PARAMS_V1_FLAGS_Y_INVERT)
		wlog(DISPMAN_LOG_WARNING, "dma-buf y_invert is ignored: shown as is");
	struct dispman_dmabuf_desc d = {
		.width = (uint32_t)w, .height = (uint32_t)h, .fourcc = fmt,
		.modifier = p->modifier[0], .n_planes = n,
	};
	for (uint32_t i = 0; i < n; i++) {
		d.fds[i] = p->fds[i];
		d.offsets[i] = p->offsets[i];
		d.pitches[i] = p->strides[i];
	}
	struct dispman_buffer *buf = dispman_buffer_import_dmabuf(p->srv->dev, &d);
	if (!buf) {
		wlog(DISPMAN_LOG_WARNING, "dma-buf import %dx%d %.4s failed: %s", w, h,
			(const char *)&fmt, strerror(errno));
		p->srv->stats.dmabuf_failed++;
	}
	return buf;
}

static void params_create(struct wl_client *c, struct wl_resource *res, int32_t w, int32_t h,
	uint32_t fmt, uint32_t flags)
{
	struct dmabuf_params *p = wl_resource_get_user_data(res);
	bool fatal;
	struct dispman_buffer *buf = params_import(p, w, h, fmt, flags, &fatal);
	if (fatal)
		return;
	if (!buf) {
		zwp_linux_buffer_params_v1_send_failed(res);
		return;
	}
	struct buffer *kb = buffer_create_dmabuf(p->srv, c, 0, buf);
	if (!kb) {
		dispman_buffer_unref(buf);
		wl_client_post_no_memory(c);
		return;
	}
	kb->offset = p->offsets[0];
	kb->stride = p->strides[0];
	p->srv->stats.dmabuf_imports++;
	zwp_linux_buffer_params_v1_send_created(res, kb->resource);
}

static void params_create_immed(struct wl_client *c, struct wl_resource *res, uint32_t id,
	int32_t w, int32_t h, uint32_t fmt, uint32_t flags)
{
	struct dmabuf_params *p = wl_resource_get_user_data(res);
	bool fatal;
	struct dispman_buffer *buf = params_import(p, w, h, fmt, flags, &fatal);
	if (fatal)
		return;
	if (!buf) {
		wl_resource_post_error(res, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_WL_BUFFER,
			"importing the dma-buf failed");
		p->srv->stats.protocol_errors++;
		return;
	}
	struct buffer *kb = buffer_create_dmabuf(p->srv, c, id, buf);
	if (!kb) {
		dispman_buffer_unref(buf);
		wl_client_post_no_memory(c);
		return;
	}
	kb->offset = p->offsets[0];
	kb->stride = p->strides[0];
	p->srv->stats.dmabuf_imports++;
}

static const struct zwp_linux_buffer_params_v1_interface params_impl = {
	.destroy = params_destroy,
	.add = params_add,
	.create = params_create,
	.create_immed = params_create_immed,
};

/* ---- zwp_linux_dmabuf_v1 ---- */

static void dmabuf_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void dmabuf_create_params(struct wl_client *c, struct wl_resource *res, uint32_t id)
{
	struct dmabuf_params *p = calloc(1, sizeof(*p));
	if (p)
		p->resource = wl_resource_create(c, &zwp_linux_buffer_params_v1_interface,
			wl_resource_get_version(res), id);
	if (!p || !p->resource) {
		free(p);
		wl_client_post_no_memory(c);
		return;
	}
	p->srv = wl_resource_get_user_data(res);
	wl_resource_set_implementation(p->resource, &params_impl, p, params_free);
}

static void dmabuf_get_default_feedback(struct wl_client *c, struct wl_resource *res,
	uint32_t id)
{
	send_feedback(wl_resource_get_user_data(res), c, res, id);
}

static void dmabuf_get_surface_feedback(struct wl_client *c, struct wl_resource *res,
	uint32_t id, struct wl_resource *surface)
{
	send_feedback(wl_resource_get_user_data(res), c, res, id);
}

static const struct zwp_linux_dmabuf_v1_interface dmabuf_impl = {
	.destroy = dmabuf_destroy,
	.create_params = dmabuf_create_params,
	.get_default_feedback = dmabuf_get_default_feedback,
	.get_surface_feedback = dmabuf_get_surface_feedback,
};

static void dmabuf_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct server *srv = data;
	struct wl_resource *res = wl_resource_create(c, &zwp_linux_dmabuf_v1_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &dmabuf_impl, srv, NULL);
	if (version >= 4)
		return;
	/* v1..v3: the formats (and, from v3, their modifiers) as events */
	for (uint32_t i = 0; i < srv->dmabuf->n_formats; i++) {
		bool first = true;
		for (uint32_t j = 0; j < i; j++)
			first = first && srv->dmabuf->formats[j].format != srv->dmabuf->formats[i].format;
		if (first)
			zwp_linux_dmabuf_v1_send_format(res, srv->dmabuf->formats[i].format);
		if (version >= 3)
			zwp_linux_dmabuf_v1_send_modifier(res, srv->dmabuf->formats[i].format,
				(uint32_t)(srv->dmabuf->formats[i].modifier >> 32),
				(uint32_t)srv->dmabuf->formats[i].modifier);
	}
}

bool dmabuf_linear_offered(struct server *srv, uint32_t fmt)
{
	return srv->dmabuf && srv->dmabuf->global &&
		format_supported(srv, fmt, DRM_FORMAT_MOD_LINEAR);
}

int dmabuf_init_global(struct server *srv)
{
	srv->dmabuf = calloc(1, sizeof(*srv->dmabuf));
	if (!srv->dmabuf)
		return -ENOMEM;
	srv->dmabuf->format_table_fd = -1;
	int ret = build_format_table(srv);
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "no dma-buf format table: %s", strerror(-ret));
		return ret;
	}
	srv->dmabuf->global = wl_global_create(srv->display, &zwp_linux_dmabuf_v1_interface, 4,
		srv, dmabuf_bind);
	return srv->dmabuf->global ? 0 : -ENOMEM;
}

void dmabuf_finish(struct server *srv)
{
	if (!srv->dmabuf)
		return;
	if (srv->dmabuf->format_table_fd >= 0)
		close(srv->dmabuf->format_table_fd);
	free(srv->dmabuf->formats);
	free(srv->dmabuf->scanout_idx);
	free(srv->dmabuf);
	srv->dmabuf = NULL;
}
