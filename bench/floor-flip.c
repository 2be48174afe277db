/* SPDX-License-Identifier: MIT */
/*
 * The floor of the plane benchmark: a hand-written atomic flip loop (the ioctl from fixed
 * arrays, as libdispman issues it: raw-atomic.h). It knows the planes beforehand (layer
 * i on plane i: primary, overlays, cursor), so it never tests,
 * and sends only what changed each frame: the FB_IDs of the layers with a new buffer, or
 * CRTC_X of the moving layer. One atomic commit per frame, nonblocking, waiting for the
 * flip event. With more layers than planes it shows only as many layers as planes.
 */
#include "bench-kms.h"
#include "raw-atomic.h"

#include <stdio.h>
#include <string.h>
#include <errno.h>

int floor_flip_run(struct kms *k, const struct scene *s, enum bench_mode mode, int frames)
{
	size_t n = s->n < k->n_planes ? s->n : k->n_planes;
	if (kms_make_fbs(k, s, n) < 0) {
		fprintf(stderr, "floor: set-up failed: %s\n", strerror(errno));
		return -1;
	}
	bench_loop_start();
	if (kms_modeset(k, k->fbs[0][0]) < 0) {
		fprintf(stderr, "floor: set-up failed: %s\n", strerror(errno));
		return -1;
	}
	uint32_t fb_prop[MAX_PLANES], props[MAX_PLANES][9];
	static const char *const names[] = { "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
		"CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H" };
	for (size_t i = 0; i < n; i++) {
		fb_prop[i] = kms_prop(k->fd, k->planes[i], DRM_MODE_OBJECT_PLANE, "FB_ID");
		for (int j = 0; j < 9; j++)
			props[i][j] = kms_prop(k->fd, k->planes[i], DRM_MODE_OBJECT_PLANE, names[j]);
	}
	/* the first frame puts every layer on its plane */
	static struct raw_req req; /* one request, emptied for each frame */
	struct raw_req *r = &req;
	raw_req_reset(r);
	for (size_t i = 0; i < n; i++) {
		const struct lspec *l = &s->l[i];
		uint64_t v[9] = { k->crtc, 0, 0, (uint64_t)l->w << 16, (uint64_t)l->h << 16,
			(uint64_t)(int64_t)l->x, (uint64_t)(int64_t)l->y, l->w, l->h };
		raw_req_add(r, k->planes[i], fb_prop[i], k->fbs[0][i]);
		for (int j = 0; j < 9; j++)
			raw_req_add(r, k->planes[i], props[i][j], v[j]);
	}
	int ret = raw_req_commit(k->fd, r, DRM_MODE_ATOMIC_NONBLOCK |
		DRM_MODE_PAGE_FLIP_EVENT, k);
	if (ret < 0 || kms_wait_flip(k) < 0) {
		fprintf(stderr, "floor: first frame failed: %s\n", strerror(errno));
		return -1;
	}
	size_t top = n - 1, changing = bench_changing_layer(s->n);
	if (changing >= n)
		changing = n - 1;
	for (int f = 0; f < frames; f++) {
		raw_req_reset(r);
		uint32_t fb = (uint32_t)((f + 1) & 1);
		if (mode == MODE_STEADY) {
			for (size_t i = 0; i < n; i++)
				raw_req_add(r, k->planes[i], fb_prop[i], k->fbs[fb][i]);
		} else if (mode == MODE_CHANGING) {
			raw_req_add(r, k->planes[changing], fb_prop[changing],
				k->fbs[fb][changing]);
		} else {
			raw_req_add(r, k->planes[top], props[top][5],
				(uint64_t)(int64_t)(s->l[top].x + 1 + f % 64));
		}
		ret = raw_req_commit(k->fd, r, DRM_MODE_ATOMIC_NONBLOCK |
			DRM_MODE_PAGE_FLIP_EVENT, k);
		if (ret < 0 || kms_wait_flip(k) < 0) {
			fprintf(stderr, "floor: frame %d failed: %s\n", f, strerror(errno));
			return -1;
		}
		bench_frame_mark();
	}
	return 0;
}
