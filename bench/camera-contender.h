/* SPDX-License-Identifier: MIT */
/*
 * The three camera contenders of camera-bench and latency-camera, started the same way
 * for both benches.
 */
#ifndef BENCH_CAMERA_CONTENDER_H
#define BENCH_CAMERA_CONTENDER_H

#include <sys/types.h>

enum { C_FLOOR, C_DISPMAN, C_GST, N_C };

/* The contenders' names, indexed by C_FLOOR, C_DISPMAN and C_GST. */
extern const char *const camera_contender_names[N_C];

/*
 * Starts contender c as a child process, showing frames frames of w x h XRGB8888 (BGRx)
 * from video: BINDIR/floor-camera, BINDIR/dispman-camera or
 * `gst-launch-1.0 v4l2src io-mode=dmabuf ! kmssink`. The child runs with preload in
 * LD_PRELOAD, env_name set to env_value (how the preloaded probe learns where to write),
 * and its stdout on /dev/null. Flushes stdout first (or the child would inherit what is
 * buffered). Returns the child's pid, or -1 with errno set when fork fails; the caller
 * waits for it.
 */
pid_t camera_contender_spawn(int c, const char *bindir, const char *video, unsigned w,
	unsigned h, unsigned long frames, const char *preload, const char *env_name,
	const char *env_value);

#endif
