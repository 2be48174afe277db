/* SPDX-License-Identifier: MIT */
/* The mock libdrm (mock-drm-private.h says which file holds what). */
#include "mock-drm-private.h"

/* ---- libdrm: core ----------------------------------------------------------------- */

int drmSetClientCap(int fd, uint64_t capability, uint64_t value)
{
	CHECK_FD_M1(fd, "drmSetClientCap");
	switch (capability) {
	case DRM_CLIENT_CAP_STEREO_3D:
	case DRM_CLIENT_CAP_ASPECT_RATIO:
	case DRM_CLIENT_CAP_UNIVERSAL_PLANES:
		if (value > 1)
			return fail(EINVAL, "client cap %" PRIu64 ": bad value", capability), -1;
		if (capability == DRM_CLIENT_CAP_UNIVERSAL_PLANES)
			g.universal = value;
		return 0;
	case DRM_CLIENT_CAP_ATOMIC:
		if (value > 2)
			return fail(EINVAL, "client cap ATOMIC: bad value"), -1;
		g.atomic = value;
		g.universal = value;
		return 0;
	case DRM_CLIENT_CAP_WRITEBACK_CONNECTORS:
		if (value > 1 || !g.atomic)
			return fail(EINVAL, "WRITEBACK_CONNECTORS needs ATOMIC first"), -1;
		g.writeback = value;
		return 0;
	case MOCK_DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT:
		/* Linux 6.8+: any atomic driver takes it, after ATOMIC */
		if (value > 1 || !g.atomic)
			return fail(EINVAL, "CURSOR_PLANE_HOTSPOT needs ATOMIC first"), -1;
		g.cursor_hotspot = value;
		return 0;
	default:
		return fail(EINVAL, "unknown client cap %" PRIu64, capability), -1;
	}
}

int drmGetCap(int fd, uint64_t capability, uint64_t *value)
{
	CHECK_FD_M1(fd, "drmGetCap");
	for (int i = 0; i < g.num_caps; i++) {
		if (g.caps[i].cap == capability) {
			*value = g.caps[i].value;
			return 0;
		}
	}
	return fail(EINVAL, "unknown cap %" PRIu64, capability), -1;
}

drmVersionPtr drmGetVersion(int fd)
{
	CHECK_FD_NULL(fd, "drmGetVersion");
	drmVersionPtr v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->version_major = 1;
	v->name = strdup(g.driver);
	v->date = strdup("20180514");
	v->desc = strdup("mock KMS device");
	if (!v->name || !v->date || !v->desc) {
		drmFreeVersion(v);
		errno = ENOMEM;
		return NULL;
	}
	v->name_len = (int)strlen(v->name);
	v->date_len = (int)strlen(v->date);
	v->desc_len = (int)strlen(v->desc);
	return v;
}

void drmFreeVersion(drmVersionPtr v)
{
	if (!v)
		return;
	free(v->name);
	free(v->date);
	free(v->desc);
	free(v);
}

int drmSetMaster(int fd)
{
	CHECK_FD_M1(fd, "drmSetMaster");
	if (g.other_master)
		return fail(EBUSY, "drmSetMaster: another client is master"), -1;
	g.master = true;
	return 0;
}

int drmDropMaster(int fd)
{
	CHECK_FD_M1(fd, "drmDropMaster");
	if (!g.master)
		return fail(EINVAL, "drmDropMaster: not master"), -1;
	g.master = false;
	return 0;
}

int drmHandleEvent(int fd, drmEventContextPtr ctx)
{
	CHECK_FD_M1(fd, "drmHandleEvent");
	char buf[64];
	while (read(g.pipe[0], buf, sizeof(buf)) > 0)
		;

	int n = 0;
	for (int i = 0; i < g.num_flips; i++)
		n += g.flips[i].done;
	if (n == 0) {
		g.c.empty_handle_event++;
		return 0;
	}
	/* Detach first: handlers may commit and queue new flips. */
	struct flip *ready = calloc((size_t)n, sizeof(*ready));
	if (!ready)
		return fail(ENOMEM, "drmHandleEvent: out of memory"), -1;
	int j = 0, k = 0;
	for (int i = 0; i < g.num_flips; i++) {
		if (g.flips[i].done)
			ready[k++] = g.flips[i];
		else
			g.flips[j++] = g.flips[i];
	}
	g.num_flips = j;

	for (int i = 0; i < n; i++) {
		const struct flip *f = &ready[i];
		unsigned sec = (unsigned)(f->time_us / 1000000);
		unsigned usec = (unsigned)(f->time_us % 1000000);
		g.c.events_delivered++;
		if (ctx->version >= 3 && ctx->page_flip_handler2)
			ctx->page_flip_handler2(fd, f->seq, sec, usec,
				mkid(MOCK_DRM_CRTC, f->crtc), f->user_data);
		else if (ctx->page_flip_handler)
			ctx->page_flip_handler(fd, f->seq, sec, usec, f->user_data);
	}
	free(ready);
	return 0;
}

/*
 * Not used by libdispman, but libgbm links them from libdrm.so.2: without them nothing that
 * links GBM could link against the mock. There is no device node behind the mock.
 */
int drmGetDevice2(int fd, uint32_t flags, drmDevicePtr *device)
{
	if (device)
		*device = NULL;
	return fail(ENODEV, "drmGetDevice2: the mock device has no device node");
}

void drmFreeDevice(drmDevicePtr *device)
{
	if (device)
		*device = NULL;
}

/* ---- libdrm: buffers -------------------------------------------------------------- */

static int create_dumb(struct drm_mode_create_dumb *a)
{
	if (!get_cap(DRM_CAP_DUMB_BUFFER))
		return fail(ENOSYS, "no dumb buffers");
	if (!a->width || !a->height || !a->bpp)
		return fail(EINVAL, "CREATE_DUMB: zero width, height or bpp");
	if (a->flags)
		return fail(EINVAL, "CREATE_DUMB: flags must be 0");
	uint64_t cpp = (a->bpp + 7) / 8;
	uint64_t pitch = cpp * a->width;
	pitch = (pitch + g.dumb_align - 1) / g.dumb_align * g.dumb_align;
	if (pitch > UINT32_MAX)
		return fail(EINVAL, "CREATE_DUMB: pitch overflows");
	uint64_t size = pitch * a->height;
	long page = sysconf(_SC_PAGESIZE);
	size = (size + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page;
	if (size > MAX_DUMB_SIZE)
		return fail(ENOMEM, "CREATE_DUMB: %" PRIu64 " bytes is too large for the mock",
			size);

	int fd = memfd_create("mock-drm-dumb", MFD_CLOEXEC);
	if (fd < 0)
		return fail(errno, "memfd_create failed");
	if (ftruncate(fd, (off_t)size) != 0) {
		int err = errno;
		close(fd);
		return fail(err, "ftruncate failed");
	}
	struct bo *bo = bo_new(fd, size, true);
	if (!bo) {
		close(fd);
		return fail(ENOMEM, "CREATE_DUMB: out of memory");
	}
	a->handle = bo->handle;
	a->pitch = (uint32_t)pitch;
	a->size = size;
	return 0;
}

static int map_dumb(struct drm_mode_map_dumb *a)
{
	struct bo *bo = bo_by_handle(a->handle);
	if (!bo)
		return fail(ENOENT, "MAP_DUMB: no GEM handle %u", a->handle);
	if (!bo->dumb)
		return fail(EINVAL, "MAP_DUMB: imported objects cannot be mapped");
	a->offset = (uint64_t)bo->handle << 24;
	return 0;
}


static int ioctl_once(int fd, unsigned long request, void *arg);

/* As libdrm's: the call again while it fails with EINTR or EAGAIN (an injected one too). */
int drmIoctl(int fd, unsigned long request, void *arg)
{
	int ret;
	do
		ret = ioctl_once(fd, request, arg);
	while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

static int ioctl_once(int fd, unsigned long request, void *arg)
{
	ensure_init();
	if (check_fd(fd) != 0) {
		if (request == DMA_BUF_IOCTL_SYNC) {
			/* CPU access brackets on an exported or imported buffer. */
			struct stat st;
			const struct dma_buf_sync *s = arg;
			if (fstat(fd, &st) != 0)
				return fail(EBADF, "DMA_BUF_IOCTL_SYNC: bad fd"), -1;
			if (s->flags & ~(uint64_t)DMA_BUF_SYNC_VALID_FLAGS_MASK ||
			    !(s->flags & DMA_BUF_SYNC_RW))
				return fail(EINVAL, "DMA_BUF_IOCTL_SYNC: bad flags"), -1;
			return 0;
		}
		return fail(ENOTTY, "drmIoctl on an fd that is not the mock device"), -1;
	}
	if (injected("drmIoctl"))
		return -1;
	if (request == DRM_IOCTL_MODE_ATOMIC)
		return atomic_ioctl(fd, arg);

	const char *name;
	switch (request) {
	case DRM_IOCTL_MODE_CREATE_DUMB: name = "DRM_IOCTL_MODE_CREATE_DUMB"; break;
	case DRM_IOCTL_MODE_MAP_DUMB: name = "DRM_IOCTL_MODE_MAP_DUMB"; break;
	case DRM_IOCTL_MODE_DESTROY_DUMB: name = "DRM_IOCTL_MODE_DESTROY_DUMB"; break;
	case DRM_IOCTL_GEM_CLOSE: name = "DRM_IOCTL_GEM_CLOSE"; break;
	default:
		return fail(EINVAL, "drmIoctl: request 0x%lx not emulated", request), -1;
	}
	if (injected(name))
		return -1;

	int ret;
	switch (request) {
	case DRM_IOCTL_MODE_CREATE_DUMB:
		ret = create_dumb(arg);
		break;
	case DRM_IOCTL_MODE_MAP_DUMB:
		ret = map_dumb(arg);
		break;
	case DRM_IOCTL_MODE_DESTROY_DUMB:
		ret = gem_close(((struct drm_mode_destroy_dumb *)arg)->handle);
		break;
	default:
		ret = gem_close(((struct drm_gem_close *)arg)->handle);
		break;
	}
	return ret < 0 ? -1 : 0;
}

int drmCloseBufferHandle(int fd, uint32_t handle)
{
	CHECK_FD_M1(fd, "drmCloseBufferHandle");
	return gem_close(handle) < 0 ? -1 : 0;
}

int drmPrimeHandleToFD(int fd, uint32_t handle, uint32_t flags, int *prime_fd)
{
	CHECK_FD_M1(fd, "drmPrimeHandleToFD");
	if (flags & ~(uint32_t)(DRM_CLOEXEC | DRM_RDWR))
		return fail(EINVAL, "PRIME export: bad flags 0x%x", flags), -1;
	struct bo *bo = bo_by_handle(handle);
	if (!bo)
		return fail(ENOENT, "PRIME export: no GEM handle %u", handle), -1;
	int out = fcntl(bo->fd, (flags & DRM_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (out < 0)
		return fail(errno, "PRIME export: dup failed"), -1;
	*prime_fd = out;
	return 0;
}

int drmPrimeFDToHandle(int fd, int prime_fd, uint32_t *handle)
{
	CHECK_FD_M1(fd, "drmPrimeFDToHandle");
	struct stat st;
	if (fstat(prime_fd, &st) != 0)
		return fail(EBADF, "PRIME import: bad fd %d", prime_fd), -1;
	if (!S_ISREG(st.st_mode) || st.st_size <= 0)
		return fail(EINVAL, "PRIME import: fd %d is not a dma-buf", prime_fd), -1;
	for (int i = 0; i < g.num_bos; i++) {
		struct bo *bo = g.bos[i];
		if (!bo || bo->dev != st.st_dev || bo->ino != st.st_ino)
			continue;
		if (!bo->handle) {
			bo->handle = g.next_handle++;
			bo->refs++;
		}
		*handle = bo->handle;
		return 0;
	}
	int dup_fd = fcntl(prime_fd, F_DUPFD_CLOEXEC, 0);
	if (dup_fd < 0)
		return fail(errno, "PRIME import: dup failed"), -1;
	struct bo *bo = bo_new(dup_fd, (uint64_t)st.st_size, false);
	if (!bo) {
		close(dup_fd);
		return fail(ENOMEM, "PRIME import: out of memory"), -1;
	}
	*handle = bo->handle;
	return 0;
}

/* ---- libdrm: framebuffers --------------------------------------------------------- */

static int add_fb2(uint32_t width, uint32_t height, uint32_t pixel_format,
	const uint32_t bo_handles[4], const uint32_t pitches[4], const uint32_t offsets[4],
	const uint64_t modifier[4], uint32_t *buf_id, uint32_t flags)
{
	uint64_t mods[4] = { 0 };
	if (modifier)
		memcpy(mods, modifier, sizeof(mods));

	if (flags & ~(uint32_t)(DRM_MODE_FB_INTERLACED | DRM_MODE_FB_MODIFIERS))
		return fail(EINVAL, "ADDFB2: bad flags 0x%x", flags);
	if ((flags & DRM_MODE_FB_MODIFIERS) && !get_cap(DRM_CAP_ADDFB2_MODIFIERS))
		return fail(EINVAL, "ADDFB2: modifiers not supported");
	if (width < 1 || width > g.max_width)
		return fail(EINVAL, "ADDFB2: bad width %u", width);
	if (height < 1 || height > g.max_height)
		return fail(EINVAL, "ADDFB2: bad height %u", height);
	const struct format_info *info = format_lookup(pixel_format);
	if (!info)
		return fail(EINVAL, "ADDFB2: bad format 0x%08x", pixel_format);

	struct bo *bos[4] = { NULL };
	for (int i = 0; i < info->num_planes; i++) {
		uint32_t w = i ? (width + info->hsub - 1) / info->hsub : width;
		uint32_t h = i ? (height + info->vsub - 1) / info->vsub : height;
		uint64_t min_pitch = (uint64_t)w * info->cpp[i];
		if (!bo_handles[i])
			return fail(EINVAL, "ADDFB2: no buffer object handle for plane %d", i);
		if ((uint64_t)h * pitches[i] + offsets[i] > UINT_MAX)
			return fail(ERANGE, "ADDFB2: plane %d overflows", i);
		if (pitches[i] < min_pitch)
			return fail(EINVAL, "ADDFB2: bad pitch %u for plane %d", pitches[i], i);
		if (mods[i] && !(flags & DRM_MODE_FB_MODIFIERS))
			return fail(EINVAL, "ADDFB2: modifier without DRM_MODE_FB_MODIFIERS");
		if (mods[i] != mods[0])
			return fail(EINVAL, "ADDFB2: modifiers differ between planes");
	}
	for (int i = info->num_planes; i < 4; i++) {
		if (mods[i])
			return fail(EINVAL, "ADDFB2: non-zero modifier for unused plane %d", i);
		if (!(flags & DRM_MODE_FB_MODIFIERS))
			continue;
		if (bo_handles[i] || pitches[i] || offsets[i])
			return fail(EINVAL, "ADDFB2: handle, pitch or offset for unused plane %d",
				i);
	}
	for (int i = 0; i < info->num_planes; i++) {
		uint32_t w = i ? (width + info->hsub - 1) / info->hsub : width;
		uint32_t h = i ? (height + info->vsub - 1) / info->vsub : height;
		bos[i] = bo_by_handle(bo_handles[i]);
		if (!bos[i])
			return fail(ENOENT, "ADDFB2: no GEM handle %u", bo_handles[i]);
		uint64_t min_size = (uint64_t)(h - 1) * pitches[i] +
			(uint64_t)w * info->cpp[i] + offsets[i];
		if (bos[i]->size < min_size)
			return fail(EINVAL, "ADDFB2: buffer of %" PRIu64 " bytes for plane %d"
				" needs %" PRIu64, bos[i]->size, i, min_size);
	}

	struct fb *fb = calloc(1, sizeof(*fb));
	struct fb **fbs = realloc(g.fbs, sizeof(*fbs) * (size_t)(g.num_fbs + 1));
	if (fbs)
		g.fbs = fbs;
	if (!fb || !fbs) {
		free(fb);
		return fail(ENOMEM, "ADDFB2: out of memory");
	}
	fb->width = width;
	fb->height = height;
	fb->format = pixel_format;
	fb->modifier = mods[0];
	fb->num_planes = info->num_planes;
	for (int i = 0; i < info->num_planes; i++) {
		fb->bos[i] = bos[i];
		bos[i]->refs++;
		fb->pitches[i] = pitches[i];
		fb->offsets[i] = offsets[i];
	}
	g.fbs[g.num_fbs] = fb;
	*buf_id = mkid(MOCK_DRM_FB, g.num_fbs++);
	return 0;
}

int drmModeAddFB2WithModifiers(int fd, uint32_t width, uint32_t height, uint32_t pixel_format,
	const uint32_t bo_handles[4], const uint32_t pitches[4], const uint32_t offsets[4],
	const uint64_t modifier[4], uint32_t *buf_id, uint32_t flags)
{
	CHECK_FD_NEG(fd, "drmModeAddFB2WithModifiers");
	return add_fb2(width, height, pixel_format, bo_handles, pitches, offsets, modifier,
		buf_id, flags);
}

int drmModeAddFB2(int fd, uint32_t width, uint32_t height, uint32_t pixel_format,
	const uint32_t bo_handles[4], const uint32_t pitches[4], const uint32_t offsets[4],
	uint32_t *buf_id, uint32_t flags)
{
	CHECK_FD_NEG(fd, "drmModeAddFB2");
	return add_fb2(width, height, pixel_format, bo_handles, pitches, offsets, NULL, buf_id,
		flags);
}

int drmModeRmFB(int fd, uint32_t buffer_id)
{
	CHECK_FD_NEG(fd, "drmModeRmFB");
	int index = id_index(buffer_id, MOCK_DRM_FB, g.num_fbs);
	struct fb *fb = index < 0 ? NULL : g.fbs[index];
	if (!fb)
		return fail(ENOENT, "RMFB: no FB %u", buffer_id);
	/* Like the kernel: planes still scanning the FB out are disabled, and so is the
	 * CRTC (with its connectors) whose primary plane it was. */
	for (int i = 0; i < g.num_planes; i++) {
		struct obj_props *pp = &g.planes[i].props;
		if (props_get(pp, g.p.fb_id) != buffer_id)
			continue;
		int ci = id_index((uint32_t)props_get(pp, g.p.crtc_id), MOCK_DRM_CRTC, g.num_crtcs);
		props_set(pp, g.p.fb_id, 0);
		props_set(pp, g.p.crtc_id, 0);
		g.c.rmfb_disabled_planes++;
		if (ci < 0 || g.crtcs[ci].primary != i)
			continue;
		struct obj_props *cp = &g.crtcs[ci].props;
		blob_ref((uint32_t)props_get(cp, g.p.mode_id), -1);
		props_set(cp, g.p.mode_id, 0);
		props_set(cp, g.p.active, 0);
		for (int j = 0; j < g.num_conns; j++)
			if (props_get(&g.conns[j].props, g.p.crtc_id) == mkid(MOCK_DRM_CRTC, ci))
				props_set(&g.conns[j].props, g.p.crtc_id, 0);
	}
	for (int i = 0; i < fb->num_planes; i++)
		bo_unref(fb->bos[i]);
	free(fb);
	g.fbs[index] = NULL;
	return 0;
}

/* ---- libdrm: resources ------------------------------------------------------------ */

static bool conn_visible(const struct connector *c)
{
	return c->type != DRM_MODE_CONNECTOR_WRITEBACK || g.writeback;
}

static uint32_t crtc_mask(void)
{
	return g.num_crtcs >= 32 ? 0xffffffffu : (1u << g.num_crtcs) - 1;
}

static uint32_t *id_array(enum mock_drm_obj_type type, int count)
{
	uint32_t *ids = calloc((size_t)count + 1, sizeof(uint32_t));
	for (int i = 0; ids && i < count; i++)
		ids[i] = mkid(type, i);
	return ids;
}

drmModeResPtr drmModeGetResources(int fd)
{
	CHECK_FD_NULL(fd, "drmModeGetResources");
	drmModeResPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->fbs = calloc((size_t)g.num_fbs + 1, sizeof(uint32_t));
	r->crtcs = id_array(MOCK_DRM_CRTC, g.num_crtcs);
	r->encoders = id_array(MOCK_DRM_ENCODER, g.num_conns);
	r->connectors = calloc((size_t)g.num_conns + 1, sizeof(uint32_t));
	if (!r->fbs || !r->crtcs || !r->encoders || !r->connectors) {
		drmModeFreeResources(r);
		errno = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < g.num_fbs; i++)
		if (g.fbs[i])
			r->fbs[r->count_fbs++] = mkid(MOCK_DRM_FB, i);
	r->count_crtcs = g.num_crtcs;
	r->count_encoders = g.num_conns;
	for (int i = 0; i < g.num_conns; i++)
		if (conn_visible(&g.conns[i]))
			r->connectors[r->count_connectors++] = mkid(MOCK_DRM_CONNECTOR, i);
	r->min_width = g.min_width;
	r->max_width = g.max_width;
	r->min_height = g.min_height;
	r->max_height = g.max_height;
	return r;
}

void drmModeFreeResources(drmModeResPtr r)
{
	if (!r)
		return;
	free(r->fbs);
	free(r->crtcs);
	free(r->connectors);
	free(r->encoders);
	free(r);
}

/* Copies an object's properties, hiding atomic ones from non-atomic clients. */
static int copy_props(const struct obj_props *p, uint32_t **ids, uint64_t **vals)
{
	*ids = calloc((size_t)p->count + 1, sizeof(uint32_t));
	*vals = calloc((size_t)p->count + 1, sizeof(uint64_t));
	if (!*ids || !*vals) {
		free(*ids);
		free(*vals);
		*ids = NULL;
		*vals = NULL;
		return -1;
	}
	int n = 0;
	for (int i = 0; i < p->count; i++) {
		const struct prop *prop = prop_get(p->ids[i]);
		if ((prop->flags & DRM_MODE_PROP_ATOMIC) && !g.atomic)
			continue;
		if (p->ids[i] == g.p.in_formats && !get_cap(DRM_CAP_ADDFB2_MODIFIERS))
			continue;
		(*ids)[n] = p->ids[i];
		(*vals)[n] = p->vals[i];
		n++;
	}
	return n;
}

int conn_crtc(int conn)
{
	return id_index((uint32_t)props_get(&g.conns[conn].props, g.p.crtc_id),
		MOCK_DRM_CRTC, g.num_crtcs);
}

drmModeConnectorPtr drmModeGetConnector(int fd, uint32_t connector_id)
{
	CHECK_FD_NULL(fd, "drmModeGetConnector");
	int i = id_index(connector_id, MOCK_DRM_CONNECTOR, g.num_conns);
	if (i < 0) {
		fail(ENOENT, "GETCONNECTOR: no connector %u", connector_id);
		return NULL;
	}
	const struct connector *c = &g.conns[i];
	drmModeConnectorPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->connector_id = connector_id;
	r->encoder_id = conn_crtc(i) >= 0 ? mkid(MOCK_DRM_ENCODER, i) : 0;
	r->connector_type = c->type;
	r->connector_type_id = c->type_id;
	r->connection = c->status;
	r->mmWidth = c->mm_width;
	r->mmHeight = c->mm_height;
	r->subpixel = DRM_MODE_SUBPIXEL_UNKNOWN;
	r->modes = calloc((size_t)c->num_modes + 1, sizeof(*r->modes));
	r->encoders = calloc(1, sizeof(uint32_t));
	int n = copy_props(&c->props, &r->props, &r->prop_values);
	if (!r->modes || !r->encoders || n < 0) {
		drmModeFreeConnector(r);
		errno = ENOMEM;
		return NULL;
	}
	/* Like the kernel, a disconnected connector reports no modes. */
	if (c->status != DRM_MODE_DISCONNECTED && c->num_modes > 0) {
		memcpy(r->modes, c->modes, sizeof(*r->modes) * (size_t)c->num_modes);
		r->count_modes = c->num_modes;
	}
	r->count_props = n;
	r->encoders[0] = mkid(MOCK_DRM_ENCODER, i);
	r->count_encoders = 1;
	return r;
}

void drmModeFreeConnector(drmModeConnectorPtr r)
{
	if (!r)
		return;
	free(r->modes);
	free(r->props);
	free(r->prop_values);
	free(r->encoders);
	free(r);
}

static uint32_t encoder_type(uint32_t connector_type)
{
	switch (connector_type) {
	case DRM_MODE_CONNECTOR_VGA: return DRM_MODE_ENCODER_DAC;
	case DRM_MODE_CONNECTOR_LVDS: return DRM_MODE_ENCODER_LVDS;
	case DRM_MODE_CONNECTOR_DSI: return DRM_MODE_ENCODER_DSI;
	case DRM_MODE_CONNECTOR_DVII:
	case DRM_MODE_CONNECTOR_DVID:
	case DRM_MODE_CONNECTOR_HDMIA:
	case DRM_MODE_CONNECTOR_DisplayPort:
	case DRM_MODE_CONNECTOR_eDP: return DRM_MODE_ENCODER_TMDS;
	case DRM_MODE_CONNECTOR_VIRTUAL:
	case DRM_MODE_CONNECTOR_WRITEBACK: return DRM_MODE_ENCODER_VIRTUAL;
	default: return DRM_MODE_ENCODER_NONE;
	}
}

drmModeEncoderPtr drmModeGetEncoder(int fd, uint32_t encoder_id)
{
	CHECK_FD_NULL(fd, "drmModeGetEncoder");
	int i = id_index(encoder_id, MOCK_DRM_ENCODER, g.num_conns);
	if (i < 0) {
		fail(ENOENT, "GETENCODER: no encoder %u", encoder_id);
		return NULL;
	}
	drmModeEncoderPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	int ci = conn_crtc(i);
	r->encoder_id = encoder_id;
	r->encoder_type = encoder_type(g.conns[i].type);
	r->crtc_id = ci >= 0 ? mkid(MOCK_DRM_CRTC, ci) : 0;
	r->possible_crtcs = g.conns[i].possible_crtcs & crtc_mask();
	r->possible_clones = g.conns[i].possible_clones;
	return r;
}

void drmModeFreeEncoder(drmModeEncoderPtr r)
{
	free(r);
}

/* The mode of a MODE_ID value, or NULL. */
const struct drm_mode_modeinfo *mode_of(uint64_t blob_id)
{
	const struct blob *b = blob_id ? blob_get((uint32_t)blob_id) : NULL;
	return b && b->len == sizeof(struct drm_mode_modeinfo) ? b->data : NULL;
}

drmModeCrtcPtr drmModeGetCrtc(int fd, uint32_t crtc_id)
{
	CHECK_FD_NULL(fd, "drmModeGetCrtc");
	int i = id_index(crtc_id, MOCK_DRM_CRTC, g.num_crtcs);
	if (i < 0) {
		fail(ENOENT, "GETCRTC: no CRTC %u", crtc_id);
		return NULL;
	}
	const struct crtc *c = &g.crtcs[i];
	drmModeCrtcPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->crtc_id = crtc_id;
	if (c->primary >= 0) {
		const struct obj_props *pp = &g.planes[c->primary].props;
		if (props_get(pp, g.p.crtc_id) == crtc_id) {
			r->buffer_id = (uint32_t)props_get(pp, g.p.fb_id);
			r->x = (uint32_t)(props_get(pp, g.p.src_x) >> 16);
			r->y = (uint32_t)(props_get(pp, g.p.src_y) >> 16);
		}
	}
	const struct drm_mode_modeinfo *m = mode_of(props_get(&c->props, g.p.mode_id));
	if (m) {
		memcpy(&r->mode, m, sizeof(r->mode));
		r->mode_valid = 1;
		r->width = m->hdisplay;
		r->height = m->vdisplay;
	}
	return r;
}

void drmModeFreeCrtc(drmModeCrtcPtr r)
{
	free(r);
}

drmModePlaneResPtr drmModeGetPlaneResources(int fd)
{
	CHECK_FD_NULL(fd, "drmModeGetPlaneResources");
	drmModePlaneResPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->planes = calloc((size_t)g.num_planes + 1, sizeof(uint32_t));
	if (!r->planes) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < g.num_planes; i++)
		if ((g.universal || g.planes[i].type == DRM_PLANE_TYPE_OVERLAY) &&
		    (!g.planes[i].hotspot || g.cursor_hotspot))
			r->planes[r->count_planes++] = mkid(MOCK_DRM_PLANE, i);
	return r;
}

void drmModeFreePlaneResources(drmModePlaneResPtr r)
{
	if (!r)
		return;
	free(r->planes);
	free(r);
}

drmModePlanePtr drmModeGetPlane(int fd, uint32_t plane_id)
{
	CHECK_FD_NULL(fd, "drmModeGetPlane");
	int i = id_index(plane_id, MOCK_DRM_PLANE, g.num_planes);
	if (i < 0) {
		fail(ENOENT, "GETPLANE: no plane %u", plane_id);
		return NULL;
	}
	const struct plane *p = &g.planes[i];
	drmModePlanePtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->formats = calloc((size_t)p->num_formats + 1, sizeof(uint32_t));
	if (!r->formats) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(r->formats, p->formats, sizeof(uint32_t) * (size_t)p->num_formats);
	r->count_formats = (uint32_t)p->num_formats;
	r->plane_id = plane_id;
	r->crtc_id = (uint32_t)props_get(&p->props, g.p.crtc_id);
	r->fb_id = (uint32_t)props_get(&p->props, g.p.fb_id);
	r->crtc_x = (uint32_t)props_get(&p->props, g.p.crtc_x);
	r->crtc_y = (uint32_t)props_get(&p->props, g.p.crtc_y);
	r->x = (uint32_t)(props_get(&p->props, g.p.src_x) >> 16);
	r->y = (uint32_t)(props_get(&p->props, g.p.src_y) >> 16);
	r->possible_crtcs = p->possible_crtcs & crtc_mask();
	return r;
}

void drmModeFreePlane(drmModePlanePtr r)
{
	if (!r)
		return;
	free(r->formats);
	free(r);
}

uint32_t drm_object_type(enum mock_drm_obj_type t)
{
	switch (t) {
	case MOCK_DRM_CRTC: return DRM_MODE_OBJECT_CRTC;
	case MOCK_DRM_CONNECTOR: return DRM_MODE_OBJECT_CONNECTOR;
	case MOCK_DRM_ENCODER: return DRM_MODE_OBJECT_ENCODER;
	case MOCK_DRM_PLANE: return DRM_MODE_OBJECT_PLANE;
	case MOCK_DRM_PROPERTY: return DRM_MODE_OBJECT_PROPERTY;
	case MOCK_DRM_BLOB: return DRM_MODE_OBJECT_BLOB;
	case MOCK_DRM_FB: return DRM_MODE_OBJECT_FB;
	}
	return 0;
}

/* Whether an id names a live object of any type. */
bool object_exists(uint32_t id)
{
	switch (id >> 24) {
	case MOCK_DRM_CRTC: return id_index(id, MOCK_DRM_CRTC, g.num_crtcs) >= 0;
	case MOCK_DRM_CONNECTOR: return id_index(id, MOCK_DRM_CONNECTOR, g.num_conns) >= 0;
	case MOCK_DRM_ENCODER: return id_index(id, MOCK_DRM_ENCODER, g.num_conns) >= 0;
	case MOCK_DRM_PLANE: return id_index(id, MOCK_DRM_PLANE, g.num_planes) >= 0;
	case MOCK_DRM_PROPERTY: return prop_get(id) != NULL;
	case MOCK_DRM_BLOB: return blob_get(id) != NULL;
	case MOCK_DRM_FB: return fb_get(id) != NULL;
	default: return false;
	}
}

drmModeObjectPropertiesPtr drmModeObjectGetProperties(int fd, uint32_t object_id,
	uint32_t object_type)
{
	CHECK_FD_NULL(fd, "drmModeObjectGetProperties");
	if (!object_exists(object_id) || (object_type != DRM_MODE_OBJECT_ANY &&
	    object_type != drm_object_type((enum mock_drm_obj_type)(object_id >> 24)))) {
		fail(ENOENT, "OBJ_GETPROPERTIES: no object %u of type 0x%x", object_id,
			object_type);
		return NULL;
	}
	const struct obj_props *p = obj_props_of(object_id);
	if (!p) {
		fail(EINVAL, "OBJ_GETPROPERTIES: object %u has no properties", object_id);
		return NULL;
	}
	drmModeObjectPropertiesPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	int n = copy_props(p, &r->props, &r->prop_values);
	if (n < 0) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->count_props = (uint32_t)n;
	return r;
}

void drmModeFreeObjectProperties(drmModeObjectPropertiesPtr r)
{
	if (!r)
		return;
	free(r->props);
	free(r->prop_values);
	free(r);
}

drmModePropertyPtr drmModeGetProperty(int fd, uint32_t property_id)
{
	CHECK_FD_NULL(fd, "drmModeGetProperty");
	const struct prop *p = prop_get(property_id);
	if (!p) {
		fail(ENOENT, "GETPROPERTY: no property %u", property_id);
		return NULL;
	}
	drmModePropertyPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->prop_id = property_id;
	r->flags = p->flags;
	memcpy(r->name, p->name, sizeof(r->name));
	if (p->flags & (DRM_MODE_PROP_RANGE | DRM_MODE_PROP_SIGNED_RANGE)) {
		r->count_values = 2;
		r->values = calloc(2, sizeof(uint64_t));
		if (r->values) {
			r->values[0] = p->min;
			r->values[1] = p->max;
		}
	} else if (p->flags & DRM_MODE_PROP_OBJECT) {
		r->count_values = 1;
		r->values = calloc(1, sizeof(uint64_t));
		if (r->values)
			r->values[0] = p->min;
	} else if (p->flags & DRM_MODE_PROP_ENUM) {
		r->count_values = r->count_enums = p->num_enums;
		r->values = calloc((size_t)p->num_enums, sizeof(uint64_t));
		r->enums = calloc((size_t)p->num_enums, sizeof(*r->enums));
		if (!r->enums)
			r->count_values = 0;
		for (int i = 0; r->values && r->enums && i < p->num_enums; i++) {
			r->values[i] = p->enums[i].value;
			r->enums[i] = p->enums[i];
		}
	}
	if (r->count_values && !r->values) {
		drmModeFreeProperty(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

void drmModeFreeProperty(drmModePropertyPtr r)
{
	if (!r)
		return;
	free(r->values);
	free(r->enums);
	free(r->blob_ids);
	free(r);
}

drmModePropertyBlobPtr drmModeGetPropertyBlob(int fd, uint32_t blob_id)
{
	CHECK_FD_NULL(fd, "drmModeGetPropertyBlob");
	const struct blob *b = blob_get(blob_id);
	if (!b) {
		fail(ENOENT, "GETPROPBLOB: no blob %u", blob_id);
		return NULL;
	}
	drmModePropertyBlobPtr r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->data = malloc(b->len ? b->len : 1);
	if (!r->data) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(r->data, b->data, b->len);
	r->id = blob_id;
	r->length = b->len;
	return r;
}

void drmModeFreePropertyBlob(drmModePropertyBlobPtr r)
{
	if (!r)
		return;
	free(r->data);
	free(r);
}

bool drmModeFormatModifierBlobIterNext(const drmModePropertyBlobRes *blob,
	drmModeFormatModifierIterator *iter)
{
	const struct drm_format_modifier_blob *hdr = blob->data;
	const uint32_t *fmts = (const void *)((const uint8_t *)blob->data + hdr->formats_offset);
	const struct drm_format_modifier *mods =
		(const void *)((const uint8_t *)blob->data + hdr->modifiers_offset);

	while (iter->fmt_idx < hdr->count_formats) {
		while (iter->mod_idx < hdr->count_modifiers) {
			const struct drm_format_modifier *m = &mods[iter->mod_idx++];
			uint32_t f = iter->fmt_idx;
			if (f < m->offset || f >= m->offset + 64 ||
			    !(m->formats & (1ull << (f - m->offset))))
				continue;
			iter->fmt = fmts[f];
			iter->mod = m->modifier;
			return true;
		}
		iter->mod_idx = 0;
		iter->fmt_idx++;
	}
	return false;
}

int drmModeCreatePropertyBlob(int fd, const void *data, size_t size, uint32_t *id)
{
	CHECK_FD_NEG(fd, "drmModeCreatePropertyBlob");
	if (!size || size > INT_MAX)
		return fail(EINVAL, "CREATEPROPBLOB: bad size %zu", size);
	if (!data)
		return fail(EFAULT, "CREATEPROPBLOB: NULL data");
	uint32_t blob = blob_new(data, size, true);
	if (!blob)
		return fail(ENOMEM, "CREATEPROPBLOB: out of memory");
	*id = blob;
	return 0;
}

int drmModeDestroyPropertyBlob(int fd, uint32_t id)
{
	CHECK_FD_NEG(fd, "drmModeDestroyPropertyBlob");
	struct blob *b = blob_get(id);
	if (!b)
		return fail(EINVAL, "DESTROYPROPBLOB: no blob %u", id);
	if (!b->user)
		return fail(EPERM, "DESTROYPROPBLOB: blob %u is not the client's", id);
	b->user = false;
	blob_release(id);
	return 0;
}

/* ---- libdrm: format names --------------------------------------------------------- */

char *drmGetFormatName(uint32_t format)
{
	if (format == DRM_FORMAT_INVALID)
		return strdup("INVALID");
	const char *be = (format & DRM_FORMAT_BIG_ENDIAN) ? "_BE" : "";
	format &= ~DRM_FORMAT_BIG_ENDIAN;
	char code[5];
	for (int i = 0; i < 4; i++)
		code[i] = (char)(format >> (8 * i));
	code[4] = '\0';
	for (int i = 3; i > 0 && code[i] == ' '; i--)
		code[i] = '\0';
	char *out;
	if (asprintf(&out, "%s%s", code, be) < 0)
		return NULL;
	return out;
}

char *drmGetFormatModifierName(uint64_t modifier)
{
	if (modifier == DRM_FORMAT_MOD_INVALID)
		return strdup("INVALID");
	if (modifier == DRM_FORMAT_MOD_LINEAR)
		return strdup("LINEAR");
	char *out;
	if (asprintf(&out, "0x%016" PRIx64, modifier) < 0)
		return NULL;
	return out;
}
