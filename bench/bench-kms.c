/* SPDX-License-Identifier: MIT */
#include "bench-kms.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

bool bench_counting;
unsigned long bench_ioctls, bench_tests, bench_commits;

typedef int (*ioctl_fn)(int, unsigned long, ...);
int ioctl(int fd, unsigned long request, ...);

/* Interposed: libdrm calls ioctl() through its PLT and lands here, whoever called libdrm:
 * libdispman and the floor (drmIoctl(DRM_IOCTL_MODE_ATOMIC)), libliftoff's contender
 * (drmModeAtomicCommit()). Atomic commits are told apart by their flags. */
int ioctl(int fd, unsigned long request, ...)
{
	static ioctl_fn real;
	if (!real)
		real = (ioctl_fn)(uintptr_t)dlsym(RTLD_NEXT, "ioctl");
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if (bench_counting) {
		bench_ioctls++;
		if (request == DRM_IOCTL_MODE_ATOMIC && arg) {
			if (((const struct drm_mode_atomic *)arg)->flags & DRM_MODE_ATOMIC_TEST_ONLY)
				bench_tests++;
			else
				bench_commits++;
		}
	}
	return real(fd, request, arg);
}

void bench_make_scene(struct scene *s, size_t n, uint32_t w, uint32_t h)
{
	memset(s, 0, sizeof(*s));
	if (n > MAX_LAYERS)
		n = MAX_LAYERS;
	s->l[s->n++] = (struct lspec){ 0, 0, w, h, DRM_FORMAT_XRGB8888 };
	for (size_t i = 1; i < n; i++)
		s->l[s->n++] = (struct lspec){ 20 + (int32_t)((i * 97) % 800),
			20 + (int32_t)((i * 61) % 560), 160, 120, DRM_FORMAT_XRGB8888 };
}

size_t bench_changing_layer(size_t n)
{
	return n / 2;
}

double bench_loop_c0;
static double marks[4096];
static size_t n_marks;

void bench_loop_start(void)
{
	bench_ioctls = bench_tests = bench_commits = 0;
	bench_counting = true;
	bench_loop_c0 = bench_cpu_us();
	n_marks = 0;
}

void bench_frame_mark(void)
{
	double now = bench_cpu_us();
	if (n_marks < sizeof(marks) / sizeof(marks[0]))
		marks[n_marks++] = now;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double bench_frame_median(void)
{
	double d[4096];
	size_t n = 0;
	for (size_t i = 3; i < n_marks; i++)
		d[n++] = marks[i] - marks[i - 1];
	if (!n)
		return 0;
	qsort(d, n, sizeof(d[0]), cmp_d);
	return n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
}

double bench_cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

uint32_t kms_prop(int fd, uint32_t obj, uint32_t type, const char *name)
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
	uint32_t id = kms_prop(fd, obj, type, name);
	drmModeObjectProperties *p = drmModeObjectGetProperties(fd, obj, type);
	uint64_t v = 0;
	for (uint32_t i = 0; p && i < p->count_props; i++)
		if (p->props[i] == id)
			v = p->prop_values[i];
	drmModeFreeObjectProperties(p);
	return v;
}

int kms_open(struct kms *k, int fd)
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
	uint32_t ovl[MAX_PLANES], cur = 0, pri = 0;
	size_t n_ovl = 0;
	for (uint32_t i = 0; pr && i < pr->count_planes; i++) {
		uint64_t t = prop_value(fd, pr->planes[i], DRM_MODE_OBJECT_PLANE, "type");
		if (t == DRM_PLANE_TYPE_PRIMARY && !pri)
			pri = pr->planes[i];
		else if (t == DRM_PLANE_TYPE_CURSOR && !cur)
			cur = pr->planes[i];
		else if (t == DRM_PLANE_TYPE_OVERLAY && n_ovl < MAX_PLANES - 2)
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

static uint32_t dumb_fb(struct kms *k, const struct lspec *l, uint8_t fill, uint32_t *handle)
{
	struct drm_mode_create_dumb c = { .width = l->w, .height = l->h, .bpp = 32 };
	if (drmIoctl(k->fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) < 0)
		return 0;
	uint32_t handles[4] = { c.handle }, pitches[4] = { c.pitch }, offsets[4] = { 0 }, fb = 0;
	if (drmModeAddFB2(k->fd, l->w, l->h, l->fmt, handles, pitches, offsets, &fb, 0) < 0)
		fb = 0;
	/* Filled through a mapping that stays, as libdispman's buffers (and those of any
	 * program drawing into them) do: on vkms an unmapped dumb buffer's pages are looked
	 * up again at every commit that shows it, which made this floor slower than a
	 * library doing more (the mapping is dropped by the process's exit). */
	int dfd;
	if (drmPrimeHandleToFD(k->fd, c.handle, DRM_CLOEXEC | DRM_RDWR, &dfd) == 0) {
		void *p = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
		if (p != MAP_FAILED)
			memset(p, fill, c.size);
		close(dfd);
	}
	*handle = c.handle;
	return fb;
}

int kms_make_fbs(struct kms *k, const struct scene *s, size_t n)
{
	for (int v = 0; v < 2; v++)
		for (size_t i = 0; i < n; i++) {
			k->fbs[v][i] = dumb_fb(k, &s->l[i], (uint8_t)(0x40 + v * 0x40 + i),
				&k->handles[v][i]);
			if (!k->fbs[v][i])
				return -1;
		}
	return 0;
}

void kms_free_fbs(struct kms *k, size_t n)
{
	for (int v = 0; v < 2; v++) {
		for (size_t i = 0; i < n; i++) {
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
	(void)fd, (void)seq, (void)sec, (void)usec, (void)crtc;
	((struct kms *)data)->flipped = true;
}

int kms_wait_flip(struct kms *k)
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

int kms_modeset(struct kms *k, uint32_t fb)
{
	if (drmModeCreatePropertyBlob(k->fd, &k->mode, sizeof(k->mode), &k->mode_blob) < 0)
		return -1;
	drmModeAtomicReq *r = drmModeAtomicAlloc();
	uint32_t p = k->planes[0];
	drmModeAtomicAddProperty(r, k->conn, kms_prop(k->fd, k->conn, DRM_MODE_OBJECT_CONNECTOR,
		"CRTC_ID"), k->crtc);
	drmModeAtomicAddProperty(r, k->crtc, kms_prop(k->fd, k->crtc, DRM_MODE_OBJECT_CRTC,
		"MODE_ID"), k->mode_blob);
	drmModeAtomicAddProperty(r, k->crtc, kms_prop(k->fd, k->crtc, DRM_MODE_OBJECT_CRTC,
		"ACTIVE"), 1);
	static const char *const names[] = { "FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W",
		"SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H" };
	uint64_t vals[] = { fb, k->crtc, 0, 0, (uint64_t)k->mode.hdisplay << 16,
		(uint64_t)k->mode.vdisplay << 16, 0, 0, k->mode.hdisplay, k->mode.vdisplay };
	for (size_t i = 0; i < 10; i++)
		drmModeAtomicAddProperty(r, p, kms_prop(k->fd, p, DRM_MODE_OBJECT_PLANE, names[i]),
			vals[i]);
	int ret = drmModeAtomicCommit(k->fd, r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(r);
	return ret;
}

void kms_clear(struct kms *k)
{
	drmModeAtomicReq *r = drmModeAtomicAlloc();
	for (size_t i = 1; i < k->n_planes; i++) {
		uint32_t p = k->planes[i];
		drmModeAtomicAddProperty(r, p, kms_prop(k->fd, p, DRM_MODE_OBJECT_PLANE, "FB_ID"), 0);
		drmModeAtomicAddProperty(r, p, kms_prop(k->fd, p, DRM_MODE_OBJECT_PLANE, "CRTC_ID"),
			0);
	}
	drmModeAtomicCommit(k->fd, r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(r);
}
