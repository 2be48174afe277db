/* SPDX-License-Identifier: MIT */
/*
 * Per-frame CPU time and TEST_ONLY commits per frame of libdispman, libliftoff (when built
 * with it) and a raw libdrm atomic flip loop showing the same buffers on the same device.
 *
 * Usage: alloc-bench [--mock] [--frames N] [device]
 *   device defaults to $DISPMAN_DEVICE, else /dev/dri/card0. --mock runs on the mock
 *   libdrm instead: start it with LD_LIBRARY_PATH=<build>/tests/mock so that libdrm.so.2 is the mock, which then
 *   emulates vkms (its setup functions are looked up with dlsym).
 *
 * Each engine shows every scene for N frames with two buffers per layer alternating (a new
 * framebuffer on every layer every frame), nonblocking page flips, waiting for each flip
 * event. The first frame of a scene is its shape change; the others are the steady state.
 * CPU time is CLOCK_PROCESS_CPUTIME_ID (user + system) per frame, the median is printed.
 * TEST_ONLY commits are counted by wrapping drmModeAtomicCommit in this executable, for
 * all engines alike. The raw loop knows the planes beforehand: it is the floor, and when a
 * scene has more layers than planes it shows only as many layers as there are planes.
 * libliftoff only assigns planes: layers it leaves over are not drawn by anyone here,
 * while libdispman composes them on the CPU (that work is included in its numbers).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <dispman/dispman.h>
#if HAVE_LIBLIFTOFF
#include <libliftoff.h>
#endif

#define MAX_LAYERS 24

static unsigned long n_tests, n_commits;
static bool in_frame;

typedef int (*commit_fn)(int, drmModeAtomicReqPtr, uint32_t, void *);

/* Interposed for libdispman, libliftoff and the raw loop: counts TEST_ONLY commits. */
int drmModeAtomicCommit(int fd, drmModeAtomicReqPtr req, uint32_t flags, void *user_data)
{
	static commit_fn real;
	if (!real)
		real = (commit_fn)(uintptr_t)dlsym(RTLD_NEXT, "drmModeAtomicCommit");
	if (in_frame) {
		if (flags & DRM_MODE_ATOMIC_TEST_ONLY)
			n_tests++;
		else
			n_commits++;
	}
	return real(fd, req, flags, user_data);
}

struct lspec {
	int32_t x, y;
	uint32_t w, h;
	uint32_t fmt;
};

struct scene {
	const char *name;
	size_t n;
	struct lspec l[MAX_LAYERS];
};

static struct scene scenes[3];

static void make_scenes(uint32_t W, uint32_t H)
{
	struct scene *s = &scenes[0];
	s->name = "4 layers (all fit)";
	s->l[s->n++] = (struct lspec){ 0, 0, W, H, DRM_FORMAT_XRGB8888 };
	for (int i = 0; i < 3; i++)
		s->l[s->n++] = (struct lspec){ 100 + i * 150, 100 + i * 100, 256, 256,
			DRM_FORMAT_ARGB8888 };
	s = &scenes[1];
	s->name = "10 layers (all fit)";
	s->l[s->n++] = (struct lspec){ 0, 0, W, H, DRM_FORMAT_XRGB8888 };
	for (int i = 0; i < 9; i++)
		s->l[s->n++] = (struct lspec){ 40 + (i % 3) * 300, 40 + (i / 3) * 220, 200, 160,
			DRM_FORMAT_ARGB8888 };
	s = &scenes[2];
	s->name = "20 layers (10 planes)";
	s->l[s->n++] = (struct lspec){ 0, 0, W, H, DRM_FORMAT_XRGB8888 };
	for (int i = 0; i < 19; i++)
		s->l[s->n++] = (struct lspec){ (i * 97) % 800, (i * 61) % 560, 160, 120,
			DRM_FORMAT_ARGB8888 };
}

struct result {
	double first_us;          /* CPU of the shape-change frame */
	double median_us;         /* CPU per steady-state frame */
	unsigned long first_tests;
	double tests_per_frame;   /* steady state */
	bool ran;
};

static double cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- plain KMS helpers for the raw loop and libliftoff ---- */

struct kms {
	int fd;
	uint32_t crtc, conn, mode_blob;
	drmModeModeInfo mode;
	uint32_t planes[16];      /* primary, overlays by id, cursor */
	size_t n_planes;
	uint32_t fbs[2][MAX_LAYERS], handles[2][MAX_LAYERS];
	bool flipped;
};

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

static uint64_t prop_value(int fd, uint32_t obj, uint32_t type, const char *name)
{
	uint32_t id = prop(fd, obj, type, name);
	drmModeObjectProperties *p = drmModeObjectGetProperties(fd, obj, type);
	uint64_t v = 0;
	for (uint32_t i = 0; p && i < p->count_props; i++)
		if (p->props[i] == id)
			v = p->prop_values[i];
	drmModeFreeObjectProperties(p);
	return v;
}

static int kms_open(struct kms *k, int fd)
{
	memset(k, 0, sizeof(*k));
	k->fd = fd;
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) < 0)
		return -1;
	drmModeRes *res = drmModeGetResources(fd);
	if (!res)
		return -1;
	k->crtc = res->crtcs[0];
	for (int i = 0; i < res->count_connectors && !k->conn; i++) {
		drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
		if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes &&
		    c->connector_type != DRM_MODE_CONNECTOR_WRITEBACK) {
			k->conn = c->connector_id;
			k->mode = c->modes[0];
			for (int m = 0; m < c->count_modes; m++)
				if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED)
					k->mode = c->modes[m];
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	drmModePlaneRes *pr = drmModeGetPlaneResources(fd);
	uint32_t ovl[16], cur = 0, pri = 0;
	size_t n_ovl = 0;
	for (uint32_t i = 0; pr && i < pr->count_planes; i++) {
		uint64_t t = prop_value(fd, pr->planes[i], DRM_MODE_OBJECT_PLANE, "type");
		if (t == DRM_PLANE_TYPE_PRIMARY && !pri)
			pri = pr->planes[i];
		else if (t == DRM_PLANE_TYPE_CURSOR && !cur)
			cur = pr->planes[i];
		else if (t == DRM_PLANE_TYPE_OVERLAY && n_ovl < 14)
			ovl[n_ovl++] = pr->planes[i];
	}
	drmModeFreePlaneResources(pr);
	k->planes[k->n_planes++] = pri;
	for (size_t i = 0; i < n_ovl; i++)
		k->planes[k->n_planes++] = ovl[i];
	if (cur)
		k->planes[k->n_planes++] = cur;
	return k->conn && pri ? 0 : -1;
}

static uint32_t kms_dumb_fb(struct kms *k, const struct lspec *l, uint8_t fill, uint32_t *handle)
{
	struct drm_mode_create_dumb c = { .width = l->w, .height = l->h, .bpp = 32 };
	if (drmIoctl(k->fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) < 0)
		return 0;
	uint32_t handles[4] = { c.handle }, pitches[4] = { c.pitch }, offsets[4] = { 0 }, fb = 0;
	if (drmModeAddFB2(k->fd, l->w, l->h, l->fmt, handles, pitches, offsets, &fb, 0) < 0)
		fb = 0;
	int dfd;
	if (drmPrimeHandleToFD(k->fd, c.handle, DRM_CLOEXEC | DRM_RDWR, &dfd) == 0) {
		void *p = mmap(NULL, c.size, PROT_WRITE, MAP_SHARED, dfd, 0);
		if (p != MAP_FAILED) {
			memset(p, fill, c.size);
			munmap(p, c.size);
		}
		close(dfd);
	}
	*handle = c.handle;
	return fb;
}

static void kms_free_fbs(struct kms *k, const struct scene *s)
{
	for (int v = 0; v < 2; v++) {
		for (size_t i = 0; i < s->n; i++) {
			if (k->fbs[v][i])
				drmModeRmFB(k->fd, k->fbs[v][i]);
			struct drm_mode_destroy_dumb d = { .handle = k->handles[v][i] };
			if (k->handles[v][i])
				drmIoctl(k->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
			k->fbs[v][i] = k->handles[v][i] = 0;
		}
	}
}

static void flip_handler(int fd, unsigned seq, unsigned sec, unsigned usec, unsigned crtc,
	void *data)
{
	((struct kms *)data)->flipped = true;
}

static int kms_wait_flip(struct kms *k)
{
	drmEventContext ev = { .version = 3, .page_flip_handler2 = flip_handler };
	k->flipped = false;
	for (int i = 0; i < 100 && !k->flipped; i++) {
		struct pollfd p = { .fd = k->fd, .events = POLLIN };
		if (poll(&p, 1, 100) > 0)
			drmHandleEvent(k->fd, &ev);
	}
	return k->flipped ? 0 : -ETIMEDOUT;
}

/* Modeset with the first layer on the primary plane (blocking). */
static int kms_modeset(struct kms *k, uint32_t fb)
{
	if (drmModeCreatePropertyBlob(k->fd, &k->mode, sizeof(k->mode), &k->mode_blob) < 0)
		return -1;
	drmModeAtomicReq *r = drmModeAtomicAlloc();
	uint32_t p = k->planes[0];
	drmModeAtomicAddProperty(r, k->conn, prop(k->fd, k->conn, DRM_MODE_OBJECT_CONNECTOR,
		"CRTC_ID"), k->crtc);
	drmModeAtomicAddProperty(r, k->crtc, prop(k->fd, k->crtc, DRM_MODE_OBJECT_CRTC,
		"MODE_ID"), k->mode_blob);
	drmModeAtomicAddProperty(r, k->crtc, prop(k->fd, k->crtc, DRM_MODE_OBJECT_CRTC,
		"ACTIVE"), 1);
	static const char *const names[] = { "FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W",
		"SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H" };
	uint64_t vals[] = { fb, k->crtc, 0, 0, (uint64_t)k->mode.hdisplay << 16,
		(uint64_t)k->mode.vdisplay << 16, 0, 0, k->mode.hdisplay, k->mode.vdisplay };
	for (size_t i = 0; i < 10; i++)
		drmModeAtomicAddProperty(r, p, prop(k->fd, p, DRM_MODE_OBJECT_PLANE, names[i]),
			vals[i]);
	int ret = drmModeAtomicCommit(k->fd, r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(r);
	return ret;
}

/* Turn every plane off (between engines). */
static void kms_clear(struct kms *k)
{
	drmModeAtomicReq *r = drmModeAtomicAlloc();
	for (size_t i = 1; i < k->n_planes; i++) {
		uint32_t p = k->planes[i];
		drmModeAtomicAddProperty(r, p, prop(k->fd, p, DRM_MODE_OBJECT_PLANE, "FB_ID"), 0);
		drmModeAtomicAddProperty(r, p, prop(k->fd, p, DRM_MODE_OBJECT_PLANE, "CRTC_ID"), 0);
	}
	drmModeAtomicCommit(k->fd, r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(r);
}

/* ---- engines ---- */

static void run_raw(struct kms *k, const struct scene *s, int frames, struct result *res)
{
	size_t n = s->n < k->n_planes ? s->n : k->n_planes;
	for (int v = 0; v < 2; v++)
		for (size_t i = 0; i < n; i++)
			k->fbs[v][i] = kms_dumb_fb(k, &s->l[i], (uint8_t)(0x40 + v * 0x40 + i),
				&k->handles[v][i]);
	kms_modeset(k, k->fbs[0][0]);
	uint32_t fb_prop[16], props[16][9];
	static const char *const names[] = { "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
		"CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H" };
	for (size_t i = 0; i < n; i++) {
		fb_prop[i] = prop(k->fd, k->planes[i], DRM_MODE_OBJECT_PLANE, "FB_ID");
		for (int j = 0; j < 9; j++)
			props[i][j] = prop(k->fd, k->planes[i], DRM_MODE_OBJECT_PLANE, names[j]);
	}
	double *t = calloc((size_t)frames, sizeof(*t));
	for (int f = 0; f < frames; f++) {
		in_frame = true;
		unsigned long t0 = n_tests;
		double c0 = cpu_us();
		drmModeAtomicReq *r = drmModeAtomicAlloc();
		for (size_t i = 0; i < n; i++) {
			drmModeAtomicAddProperty(r, k->planes[i], fb_prop[i], k->fbs[(f + 1) & 1][i]);
			if (f == 0) {
				const struct lspec *l = &s->l[i];
				uint64_t v[9] = { k->crtc, 0, 0, (uint64_t)l->w << 16,
					(uint64_t)l->h << 16, (uint64_t)(int64_t)l->x,
					(uint64_t)(int64_t)l->y, l->w, l->h };
				for (int j = 0; j < 9; j++)
					drmModeAtomicAddProperty(r, k->planes[i], props[i][j], v[j]);
			}
		}
		int ret = drmModeAtomicCommit(k->fd, r, DRM_MODE_ATOMIC_NONBLOCK |
			DRM_MODE_PAGE_FLIP_EVENT, k);
		drmModeAtomicFree(r);
		if (ret == 0)
			kms_wait_flip(k);
		t[f] = cpu_us() - c0;
		in_frame = false;
		if (ret < 0) {
			fprintf(stderr, "raw: commit failed: %s\n", strerror(errno));
			break;
		}
		if (f == 0) {
			res->first_us = t[0];
			res->first_tests = n_tests - t0;
			n_tests = 0;
		}
	}
	res->median_us = median(t + 1, frames - 1);
	res->tests_per_frame = (double)n_tests / (frames - 1);
	res->ran = true;
	free(t);
	kms_clear(k);
	kms_free_fbs(k, s);
	drmModeDestroyPropertyBlob(k->fd, k->mode_blob);
}

#if HAVE_LIBLIFTOFF
static void run_liftoff(struct kms *k, const struct scene *s, int frames, struct result *res)
{
	for (int v = 0; v < 2; v++)
		for (size_t i = 0; i < s->n; i++)
			k->fbs[v][i] = kms_dumb_fb(k, &s->l[i], (uint8_t)(0x40 + v * 0x40 + i),
				&k->handles[v][i]);
	kms_modeset(k, k->fbs[0][0]);
	struct liftoff_device *dev = liftoff_device_create(k->fd);
	liftoff_device_register_all_planes(dev);
	struct liftoff_output *out = liftoff_output_create(dev, k->crtc);
	struct liftoff_layer *layers[MAX_LAYERS];
	for (size_t i = 0; i < s->n; i++) {
		const struct lspec *l = &s->l[i];
		layers[i] = liftoff_layer_create(out);
		liftoff_layer_set_property(layers[i], "zpos", i);
		liftoff_layer_set_property(layers[i], "CRTC_X", (uint64_t)(int64_t)l->x);
		liftoff_layer_set_property(layers[i], "CRTC_Y", (uint64_t)(int64_t)l->y);
		liftoff_layer_set_property(layers[i], "CRTC_W", l->w);
		liftoff_layer_set_property(layers[i], "CRTC_H", l->h);
		liftoff_layer_set_property(layers[i], "SRC_X", 0);
		liftoff_layer_set_property(layers[i], "SRC_Y", 0);
		liftoff_layer_set_property(layers[i], "SRC_W", (uint64_t)l->w << 16);
		liftoff_layer_set_property(layers[i], "SRC_H", (uint64_t)l->h << 16);
	}
	double *t = calloc((size_t)frames, sizeof(*t));
	for (int f = 0; f < frames; f++) {
		in_frame = true;
		unsigned long t0 = n_tests;
		double c0 = cpu_us();
		for (size_t i = 0; i < s->n; i++)
			liftoff_layer_set_property(layers[i], "FB_ID", k->fbs[(f + 1) & 1][i]);
		drmModeAtomicReq *r = drmModeAtomicAlloc();
		int ret = liftoff_output_apply(out, r, DRM_MODE_ATOMIC_NONBLOCK);
		if (ret == 0)
			ret = drmModeAtomicCommit(k->fd, r, DRM_MODE_ATOMIC_NONBLOCK |
				DRM_MODE_PAGE_FLIP_EVENT, k);
		drmModeAtomicFree(r);
		if (ret == 0)
			kms_wait_flip(k);
		t[f] = cpu_us() - c0;
		in_frame = false;
		if (ret < 0) {
			fprintf(stderr, "libliftoff: frame %d failed: %s\n", f, strerror(errno));
			break;
		}
		if (f == 0) {
			res->first_us = t[0];
			res->first_tests = n_tests - t0;
			n_tests = 0;
		}
	}
	res->median_us = median(t + 1, frames - 1);
	res->tests_per_frame = (double)n_tests / (frames - 1);
	res->ran = true;
	free(t);
	for (size_t i = 0; i < s->n; i++)
		liftoff_layer_destroy(layers[i]);
	liftoff_output_destroy(out);
	liftoff_device_destroy(dev);
	kms_clear(k);
	kms_free_fbs(k, s);
	drmModeDestroyPropertyBlob(k->fd, k->mode_blob);
}
#endif

static bool dm_flipped;

static void dm_frame(struct dispman_output *out, uint64_t seq, const struct timespec *ts,
	void *data)
{
	dm_flipped = true;
}

static void run_dispman(int fd, const struct scene *s, int frames, struct result *res,
	size_t *on_planes)
{
	struct dispman_device *dev = dispman_device_create_for_fd(fd);
	struct dispman_output *out = dev ? dispman_device_get_first_connected_output(dev) : NULL;
	if (!out)
		return;
	dispman_output_enable(out, NULL);
	dispman_output_set_frame_callback(out, dm_frame, NULL);
	struct dispman_buffer *bufs[2][MAX_LAYERS];
	struct dispman_layer *layers[MAX_LAYERS];
	for (size_t i = 0; i < s->n; i++) {
		const struct lspec *l = &s->l[i];
		for (int v = 0; v < 2; v++) {
			bufs[v][i] = dispman_buffer_create_dumb(dev, l->w, l->h, l->fmt);
			void *p;
			uint32_t stride;
			dispman_buffer_map(bufs[v][i], &p, &stride);
			memset(p, 0x40 + v * 0x40 + (int)i, (size_t)stride * l->h);
		}
		layers[i] = dispman_layer_create(out);
		dispman_layer_set_destination(layers[i], l->x, l->y, l->w, l->h);
		dispman_layer_set_z(layers[i], (int)i);
		dispman_layer_set_buffer(layers[i], bufs[0][i]);
	}
	/* the modeset, like the other engines' */
	dm_flipped = false;
	dispman_device_commit(dev);
	while (!dm_flipped && dispman_device_dispatch(dev, 1000) > 0)
		;
	/* the measured shape change: every layer moves by one pixel */
	for (size_t i = 1; i < s->n; i++)
		dispman_layer_set_destination(layers[i], s->l[i].x + 1, s->l[i].y, s->l[i].w,
			s->l[i].h);
	double *t = calloc((size_t)frames, sizeof(*t));
	for (int f = 0; f < frames; f++) {
		in_frame = true;
		unsigned long t0 = n_tests;
		double c0 = cpu_us();
		for (size_t i = 0; i < s->n; i++)
			dispman_layer_set_buffer(layers[i], bufs[(f + 1) & 1][i]);
		dm_flipped = false;
		int ret = dispman_device_commit(dev);
		while (ret == 0 && !dm_flipped && dispman_device_dispatch(dev, 1000) > 0)
			;
		t[f] = cpu_us() - c0;
		in_frame = false;
		if (ret < 0) {
			fprintf(stderr, "libdispman: frame %d failed: %s\n", f, strerror(-ret));
			break;
		}
		if (f == 0) {
			res->first_us = t[0];
			res->first_tests = n_tests - t0;
			n_tests = 0;
		}
	}
	*on_planes = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct dispman_placement p;
		dispman_layer_get_placement(layers[i], &p);
		*on_planes += p.state == DISPMAN_PLACEMENT_ON_PLANE;
	}
	res->median_us = median(t + 1, frames - 1);
	res->tests_per_frame = (double)n_tests / (frames - 1);
	res->ran = true;
	free(t);
	for (size_t i = 0; i < s->n; i++) {
		dispman_buffer_unref(bufs[0][i]);
		dispman_buffer_unref(bufs[1][i]);
	}
	dispman_device_destroy(dev);
}

int main(int argc, char **argv)
{
	bool mock = false;
	int frames = 300;
	/* raw libdrm opens a node: DISPMAN_DEVICE (the library's rule) or card0 */
	const char *path = getenv("DISPMAN_DEVICE") && *getenv("DISPMAN_DEVICE") ?
		getenv("DISPMAN_DEVICE") : "/dev/dri/card0";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--mock") == 0)
			mock = true;
		else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
			frames = atoi(argv[++i]);
		else
			path = argv[i];
	}
	if (frames < 3)
		frames = 3;
	int fd;
	if (mock) {
		void (*setup)(void) = (void (*)(void))(uintptr_t)dlsym(RTLD_DEFAULT,
			"mock_drm_setup_vkms_like");
		int (*mopen)(void) = (int (*)(void))(uintptr_t)dlsym(RTLD_DEFAULT, "mock_drm_open");
		if (!setup || !mopen) {
			fprintf(stderr, "--mock: libdrm.so.2 is not the mock (set LD_LIBRARY_PATH to "
				"<build>/tests/mock)\n");
			return 1;
		}
		setup();
		fd = mopen();
	} else {
		fd = open(path, O_RDWR | O_CLOEXEC);
	}
	if (fd < 0) {
		perror(path);
		return 1;
	}
	struct kms k;
	if (kms_open(&k, fd) < 0) {
		fprintf(stderr, "no atomic KMS output on %s\n", path);
		return 1;
	}
	make_scenes(k.mode.hdisplay, k.mode.vdisplay);
	drmVersion *ver = drmGetVersion(fd);
	printf("device: %s (%s), %ux%u, %zu planes, %d frames per run, CPU = user+sys per "
		"frame (median)\n\n", mock ? "mock libdrm" : path, ver ? ver->name : "?",
		k.mode.hdisplay, k.mode.vdisplay, k.n_planes, frames);
	drmFreeVersion(ver);
	printf("%-22s %-10s %11s %11s %13s %11s %9s\n", "scene", "engine", "shape: CPU",
		"shape: tests", "steady: CPU", "tests/frame", "vs raw");
	for (size_t si = 0; si < 3; si++) {
		const struct scene *s = &scenes[si];
		struct result raw = { 0 }, lo = { 0 }, dm = { 0 };
		size_t on_planes = 0;
		run_raw(&k, s, frames, &raw);
#if HAVE_LIBLIFTOFF
		run_liftoff(&k, s, frames, &lo);
#endif
		run_dispman(fd, s, frames, &dm, &on_planes);
		const char *names[] = { "raw", "libliftoff", "libdispman" };
		struct result *r[] = { &raw, &lo, &dm };
		for (int e = 0; e < 3; e++) {
			if (!r[e]->ran)
				continue;
			printf("%-22s %-10s %9.1fus %11lu %11.1fus %11.2f %8.2fx\n",
				e == 0 ? s->name : "", names[e], r[e]->first_us, r[e]->first_tests,
				r[e]->median_us, r[e]->tests_per_frame,
				r[e]->median_us / raw.median_us);
		}
		printf("%-22s (libdispman: %zu of %zu layers on planes, the rest composed)\n", "",
			on_planes, s->n);
	}
	close(fd);
	return 0;
}
