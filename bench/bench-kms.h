/* SPDX-License-Identifier: MIT */
/*
 * Shared by the benches: plain libdrm set-up for the floor loop and libliftoff, the
 * scenes, CPU time, and counters of the ioctls and atomic commits a contender makes.
 */
#ifndef BENCH_KMS_H
#define BENCH_KMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#define MAX_LAYERS 64
#define MAX_PLANES 16

/*
 * Counted while bench_counting is true: every ioctl() of the process (the executable
 * interposes ioctl(), so libdrm's, libliftoff's and libdispman's calls all pass here) and
 * every drmModeAtomicCommit(), TEST_ONLY or real.
 */
extern bool bench_counting;
extern unsigned long bench_ioctls, bench_tests, bench_commits;

struct lspec {
	int32_t x, y;
	uint32_t w, h;
	uint32_t fmt;
};

enum bench_mode {
	MODE_STEADY,    /* every layer gets its other buffer every frame */
	MODE_MOVING,    /* the top layer moves by 1 px every frame, no new buffers */
	MODE_CHANGING,  /* one layer (the middle one) gets a new buffer every frame */
	MODE_RELEASE,   /* libdispman only: 64 layers, then 60 destroyed (memory) */
};

struct scene {
	size_t n;
	struct lspec l[MAX_LAYERS];
};

/* n layers on a w x h screen: a full-screen background, then 160x120 tiles (XRGB8888). */
void bench_make_scene(struct scene *s, size_t n, uint32_t w, uint32_t h);
/* The layer that changes in MODE_CHANGING. */
size_t bench_changing_layer(size_t n);

/* CPU time of the process (user + system, every thread) in microseconds. */
double bench_cpu_us(void);
/*
 * Called by each contender once its buffers exist, right before its first commit: the
 * measured window (CPU and counters) starts here and ends after the last flip.
 */
void bench_loop_start(void);
extern double bench_loop_c0;
/*
 * Called after each measured frame's flip: the CPU time of every frame is kept, and
 * bench_frame_median() gives the median over the frames after the first two (so one
 * frame preempted by the host, a common event under emulation, does not move it).
 */
void bench_frame_mark(void);
double bench_frame_median(void);

struct kms {
	int fd;
	uint32_t crtc, conn, mode_blob;
	drmModeModeInfo mode;
	uint32_t planes[MAX_PLANES]; /* primary, overlays by id, cursor */
	size_t n_planes;
	uint32_t fbs[2][MAX_LAYERS], handles[2][MAX_LAYERS];
	bool flipped;
};

uint32_t kms_prop(int fd, uint32_t obj, uint32_t type, const char *name);
int kms_open(struct kms *k, int fd);
/* Two framebuffers per layer of the scene (first n layers), filled with flat colours. */
int kms_make_fbs(struct kms *k, const struct scene *s, size_t n);
void kms_free_fbs(struct kms *k, size_t n);
int kms_wait_flip(struct kms *k);
/* Blocking modeset with fb on the primary plane. */
int kms_modeset(struct kms *k, uint32_t fb);
void kms_clear(struct kms *k);

/*
 * The floor (floor-flip.c): a hand-written atomic flip loop that knows the planes and
 * sends only what changed. Shows min(n, planes) layers. Returns 0 or -1.
 */
int floor_flip_run(struct kms *k, const struct scene *s, enum bench_mode mode, int frames);

#endif
