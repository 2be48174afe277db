/* SPDX-License-Identifier: MIT */
/*
 * CPU time per displayed camera frame: the floor (floor-camera, a raw V4L2 -> KMS loop),
 * libdispman's camera layer (dispman-camera) and GStreamer's
 * `v4l2src io-mode=dmabuf ! kmssink`, same device, format (XRGB8888/BGRx) and size.
 *
 *   camera-bench [--short S] [--long L] [--runs R] [--video /dev/video0] [--size WxH]
 *                [--bindir DIR]
 *
 * Every contender is a child process, measured the same way. Its steady-state CPU per
 * frame comes from inside the long run of L frames: ioctl-count.so (preloaded into every
 * child) reads the process's CPU time (all threads) at its 5th dequeued frame and at its
 * last, so exec, loading libraries and plug-ins, negotiation, buffer set-up and
 * tear-down are all outside the window. Beside it, the difference of a short run of S
 * frames and the long run, (cpu(L) - cpu(S)) / (L - S) with cpu from wait4(), which
 * is exact only when both runs' start-up cost the same (under the emulator they do not:
 * tens of ms apart). start-up = cpu(S) - S * the steady per frame. R rounds alternate the
 * contenders, the order rotating each round, after one warm-up run of each; medians
 * with min and max. ioctl-count.so also counts ioctls, DQBUFs (and those that found
 * nothing ready), clock_gettime() calls and waits (poll, epoll_wait), per frame by the
 * difference of the two runs.
 * vivid draws its frames in a kernel thread and vkms blends in a kernel worker: neither
 * counts for anyone. GStreamer needs GST_REGISTRY pointing at a registry made on the host
 * (scripts/bench does it), else it rescans its plug-ins in every run.
 */
#include "camera-contender.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const *const names = camera_contender_names;

struct sample {
	double cpu_us;
	unsigned long ioctls, dqbuf, eagain, clocks, waits, win_frames;
	unsigned long long win_cpu_ns;
};

static const char *bindir = "build/bench", *video = "/dev/video0";
static unsigned w = 640, h = 480;

static int run(int c, unsigned long frames, struct sample *s)
{
	char count_file[] = "/tmp/camera-bench-XXXXXX";
	int cfd = mkstemp(count_file);
	if (cfd < 0)
		return -1;
	close(cfd);
	char preload[512];
	snprintf(preload, sizeof(preload), "%s/ioctl-count.so", bindir);
	pid_t pid = camera_contender_spawn(c, bindir, video, w, h, frames, preload,
		"BENCH_COUNT_OUT",
		count_file);
	if (pid < 0)
		return -1;
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	s->cpu_us = (double)ru.ru_utime.tv_sec * 1e6 + (double)ru.ru_utime.tv_usec +
		(double)ru.ru_stime.tv_sec * 1e6 + (double)ru.ru_stime.tv_usec;
	FILE *f = fopen(count_file, "r");
	int got = f ? fscanf(f, "ioctls=%lu dqbuf=%lu dqbuf_eagain=%lu clock_reads=%lu "
		"waits=%lu win_frames=%lu win_cpu_ns=%llu", &s->ioctls, &s->dqbuf, &s->eagain,
		&s->clocks, &s->waits, &s->win_frames, &s->win_cpu_ns) : 0;
	if (f)
		fclose(f);
	unlink(count_file);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "camera-bench: %s failed (status 0x%x)\n", names[c], status);
		return -1;
	}
	if (got != 7 || s->win_frames == 0) {
		fprintf(stderr, "camera-bench: no counts from %s (ioctl-count.so preloaded?)\n",
			names[c]);
		return -1;
	}
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void stats(const double *v, int n, double *med, double *min, double *max)
{
	double t[32];
	memcpy(t, v, sizeof(double) * (size_t)n);
	qsort(t, (size_t)n, sizeof(double), cmp);
	*med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	*min = t[0];
	*max = t[n - 1];
}

int main(int argc, char **argv)
{
	unsigned long s_frames = 15, l_frames = 60;
	int runs = 5;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--short") && i + 1 < argc)
			s_frames = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--long") && i + 1 < argc)
			l_frames = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--video") && i + 1 < argc)
			video = argv[++i];
		else if (!strcmp(argv[i], "--bindir") && i + 1 < argc)
			bindir = argv[++i];
		else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
			 sscanf(argv[i + 1], "%ux%u", &w, &h) == 2)
			i++;
		else {
			fprintf(stderr, "usage: camera-bench [--short S] [--long L] [--runs R] "
				"[--video PATH] [--size WxH] [--bindir DIR]\n");
			return 2;
		}
	}
	if (runs < 1 || runs > 32 || s_frames < 1 || l_frames <= s_frames || l_frames < 10) {
		fprintf(stderr, "camera-bench: runs 1..32, 1 <= short < long, long >= 10\n");
		return 2;
	}
	struct sample warm;
	for (int c = 0; c < N_C; c++)
		if (run(c, s_frames, &warm) < 0)
			return 1;
	double per[N_C][32], diff[N_C][32], start[N_C][32], io[N_C] = { 0 }, dq[N_C] = { 0 },
		ea[N_C] = { 0 }, cl[N_C] = { 0 }, wt[N_C] = { 0 };
	double d = (double)(l_frames - s_frames);
	for (int r = 0; r < runs; r++) {
		for (int j = 0; j < N_C; j++) {
			int c = (j + r) % N_C;
			struct sample a, b;
			if (run(c, s_frames, &a) < 0 || run(c, l_frames, &b) < 0)
				return 1;
			per[c][r] = (double)b.win_cpu_ns / 1e3 / (double)b.win_frames;
			diff[c][r] = (b.cpu_us - a.cpu_us) / d;
			start[c][r] = a.cpu_us - per[c][r] * (double)s_frames;
			io[c] += ((double)b.ioctls - (double)a.ioctls) / d;
			dq[c] += ((double)b.dqbuf - (double)a.dqbuf) / d;
			ea[c] += ((double)b.eagain - (double)a.eagain) / d;
			cl[c] += ((double)b.clocks - (double)a.clocks) / d;
			wt[c] += ((double)b.waits - (double)a.waits) / d;
			printf("round %d %-38s %lu frames %.0f us, %lu frames %.0f us CPU, "
				"steady %lu frames %.0f us\n", r + 1, names[c], s_frames, a.cpu_us,
				l_frames, b.cpu_us, b.win_frames, (double)b.win_cpu_ns / 1e3);
		}
	}
	double fm, fmin, fmax;
	stats(per[C_FLOOR], runs, &fm, &fmin, &fmax);
	printf("\ncamera %ux%u XRGB8888 (BGRx), %d rounds of %lu and %lu frames; CPU per frame "
		"= steady state inside the long run (5th dequeued frame to the last), median "
		"[min..max]; (L-S) = difference of the two runs, beside\n\n", w, h, runs,
		s_frames, l_frames);
	printf("| contender | CPU us/frame | vs floor | (L-S)/(L-S frames) us | start-up ms | "
		"ioctls/frame | DQBUF/frame (EAGAIN) | clock reads/frame | waits/frame |\n");
	printf("|---|---|---:|---|---:|---:|---:|---:|---:|\n");
	int below = 0;
	for (int c = 0; c < N_C; c++) {
		double m, mn, mx, dm, dmin, dmax, sm, smin, smax;
		stats(per[c], runs, &m, &mn, &mx);
		stats(diff[c], runs, &dm, &dmin, &dmax);
		stats(start[c], runs, &sm, &smin, &smax);
		bool low = c && m / fm < 0.75;
		below += low;
		printf("| %s | %.1f [%.1f..%.1f] | %.2fx%s | %.0f [%.0f..%.0f] | %.0f | %.2f | "
			"%.2f (%.2f) | %.2f | %.2f |\n", names[c], m, mn, mx, m / fm,
			low ? " (BELOW FLOOR?)" : "", dm, dmin, dmax, sm / 1e3, io[c] / runs,
			dq[c] / runs, ea[c] / runs, cl[c] / runs, wt[c] / runs);
	}
	if (below)
		printf("\n%d result(s) below 0.75x the floor: a measuring error to find before "
			"publishing\n", below);
	return 0;
}
