/* SPDX-License-Identifier: MIT */
/*
 * Capture-to-flip latency of a camera frame: the floor (floor-camera, a raw V4L2 -> KMS
 * loop), libdispman's camera layer (dispman-camera) and GStreamer's
 * `v4l2src io-mode=dmabuf ! kmssink`, same device, format (XRGB8888/BGRx) and size, the
 * same programs camera-bench times for CPU.
 *
 *   latency-camera [--frames N] [--warm W] [--runs R] [--video /dev/video0] [--size WxH]
 *                  [--period-us P] [--bindir DIR] [--raw FILE]
 *
 * Every contender is a child process with latency-probe.so preloaded, which records each
 * shown frame from outside the program, the same way for all (see latency-probe.c): the
 * buffer's capture timestamp, when it was dequeued, when the commit that showed it was made,
 * the flip's timestamp (the page-flip event's; kmssink's blocking SetPlane: the CRTC's
 * last vblank when it returned) and when the program received the flip. All are
 * CLOCK_MONOTONIC. Per-frame latency is taken over the frames after the first W of each
 * run (start-up: buffer set-up, the modeset, the first frames) and pooled over R runs;
 * start-up is reported on its own as the time from fork() to the first flip received.
 * The rounds alternate the contenders, the order rotating each round, after one discarded
 * warm-up run of each.
 *
 * The capture timestamp is vivid's; the bench switches vivid's "Timestamp Source" control
 * to Start of Exposure, so the timestamp is the nominal start of the frame (before vivid
 * draws it), always in the past when the frame is dequeued. Capture-to-flip then holds
 * vivid's drawing of the frame, the same for every contender; dequeue-to-flip is the
 * program's own share. A flip timestamp earlier than the commit that asked for it (vkms
 * stamps the vblank's nominal time; a late timer under the emulator can put that before a
 * commit it completed) is moved one refresh period (P, default 16667 us) later, the same
 * correction libdispman's own stats make; the count of those is printed.
 * The flip itself waits for the next vblank: a phase between vivid's clock and the
 * display's, uniform over a period, that no contender controls; the table states how far
 * two medians differ by that chance alone (2 standard errors of the difference, from the
 * period and the frame count). Beside it, two figures without that phase: capture->commit
 * (the time from the frame's start to the commit that shows it: vivid's drawing, the wait
 * in the driver's queue and the contender's own reaction) and the share of frames shown at
 * the first vblank after their dequeue (flip - dequeue <= one period).
 * A contender is flagged BELOW FLOOR? (a measuring error to find, not a win) when its
 * capture->commit median is below the floor's or its capture->flip median is below the
 * floor's by more than that chance.
 */
#include "camera-contender.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

static const char *const *const names = camera_contender_names;

#define MAX_SAMPLES 16384
#define MAX_RUNS 32

struct series {
	double cap_flip[MAX_SAMPLES], deq_flip[MAX_SAMPLES], commit_flip[MAX_SAMPLES];
	double cap_arrival[MAX_SAMPLES], cap_commit[MAX_SAMPLES];
	unsigned n, first_vblank; /* frames shown at the first vblank after their dequeue */
	double run_med[MAX_RUNS];
	double startup[MAX_RUNS];
	unsigned n_runs;
	unsigned long corrected, stale, no_frame, not_mono, lost, short_runs;
};

static struct series series[N_C];
static const char *bindir = "build/bench", *video = "/dev/video0", *raw_path;
static unsigned w = 640, h = 480;
static unsigned long frames = 60, warm = 10;
static double period_ns = 16667000.0;
static FILE *raw;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* vivid's timestamps at the start of exposure: a capture time always in the past. */
static void vivid_start_of_exposure(void)
{
	int fd = open(video, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "latency-camera: open %s: %s\n", video, strerror(errno));
		return;
	}
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	bool done = false;
	while (!done && ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0) {
		if (!strcmp((const char *)q.name, "Timestamp Source")) {
			struct v4l2_control c = { .id = q.id, .value = 1 };
			if (ioctl(fd, VIDIOC_S_CTRL, &c) < 0)
				fprintf(stderr, "latency-camera: set Timestamp Source: %s\n",
					strerror(errno));
			else
				fprintf(stderr, "latency-camera: vivid timestamps: start of "
					"exposure\n");
			done = true;
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	if (!done)
		fprintf(stderr, "latency-camera: no Timestamp Source control on %s (not vivid?): "
			"its default timestamps are used\n", video);
	close(fd);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Sorts v in place. */
static double pct(double *v, unsigned n, double p)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(double), cmp);
	double k = p * (n - 1);
	unsigned i = (unsigned)k;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (v[i + 1] - v[i]) * (k - i);
}

static int run(int c, bool keep)
{
	char out_file[] = "/tmp/latency-camera-XXXXXX";
	int ofd = mkstemp(out_file);
	if (ofd < 0)
		return -1;
	close(ofd);
	char preload[512];
	snprintf(preload, sizeof(preload), "%s/latency-probe.so", bindir);
	if (raw)
		fflush(raw);
	uint64_t t_fork = now_ns();
	pid_t pid = camera_contender_spawn(c, bindir, video, w, h, frames, preload,
		"LATENCY_OUT",
		out_file);
	if (pid < 0)
		return -1;
	int status;
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	FILE *f = fopen(out_file, "r");
	if (!f) {
		unlink(out_file);
		return -1;
	}
	struct series *s = &series[c];
	char line[256];
	unsigned long idx = 0, nf_end = 0, nof = 0, st = 0, nm = 0, lo = 0;
	bool ended = false;
	unsigned first = s->n;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long cap, deq, com, flip, arr;
		if (sscanf(line, "frame %llu %llu %llu %llu %llu", &cap, &deq, &com, &flip,
			   &arr) == 5) {
			if (idx == 0 && keep && s->n_runs < MAX_RUNS)
				s->startup[s->n_runs] = (double)(arr - t_fork) / 1e6;
			double fl = (double)flip;
			bool corr = fl < (double)com;
			if (corr)
				fl += period_ns;
			if (raw && keep)
				fprintf(raw, "%s run frame %lu cap %llu deq %llu commit %llu flip %llu "
					"arrival %llu%s\n", c == C_FLOOR ? "floor" :
					c == C_DISPMAN ? "dispman" : "gst", idx, cap, deq, com,
					flip, arr, corr ? " corrected" : "");
			if (keep && idx >= warm && s->n < MAX_SAMPLES) {
				s->cap_flip[s->n] = (fl - (double)cap) / 1e6;
				s->deq_flip[s->n] = (fl - (double)deq) / 1e6;
				s->commit_flip[s->n] = (fl - (double)com) / 1e6;
				s->cap_arrival[s->n] = ((double)arr - (double)cap) / 1e6;
				s->cap_commit[s->n] = ((double)com - (double)cap) / 1e6;
				if (fl - (double)deq <= period_ns)
					s->first_vblank++;
				s->n++;
				if (corr)
					s->corrected++;
			}
			idx++;
		} else if (sscanf(line, "end frames=%lu flips_without_frame=%lu stale_ts=%lu "
				  "not_monotonic=%lu lost=%lu", &nf_end, &nof, &st, &nm, &lo) == 5) {
			ended = true;
		}
	}
	fclose(f);
	unlink(out_file);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "latency-camera: %s failed (status 0x%x)\n", names[c], status);
		return -1;
	}
	if (!ended || idx == 0) {
		fprintf(stderr, "latency-camera: no frames recorded from %s (latency-probe.so "
			"preloaded?)\n", names[c]);
		return -1;
	}
	if (keep) {
		if (s->n > first && s->n_runs < MAX_RUNS) {
			double tmp[MAX_SAMPLES];
			memcpy(tmp, s->cap_flip + first, sizeof(double) * (s->n - first));
			s->run_med[s->n_runs] = pct(tmp, s->n - first, 0.5);
		}
		if (idx > 0 && s->n_runs < MAX_RUNS)
			s->n_runs++;
		s->no_frame += nof;
		s->stale += st;
		s->not_mono += nm;
		s->lost += lo;
		if (idx < frames)
			s->short_runs++;
	}
	fprintf(stderr, "latency-camera: %s: %lu frames recorded%s\n", names[c], idx,
		keep ? "" : " (warm-up, discarded)");
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 5;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--frames") && i + 1 < argc)
			frames = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--warm") && i + 1 < argc)
			warm = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--video") && i + 1 < argc)
			video = argv[++i];
		else if (!strcmp(argv[i], "--bindir") && i + 1 < argc)
			bindir = argv[++i];
		else if (!strcmp(argv[i], "--raw") && i + 1 < argc)
			raw_path = argv[++i];
		else if (!strcmp(argv[i], "--period-us") && i + 1 < argc)
			period_ns = atof(argv[++i]) * 1000.0;
		else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
			 sscanf(argv[i + 1], "%ux%u", &w, &h) == 2)
			i++;
		else {
			fprintf(stderr, "usage: latency-camera [--frames N] [--warm W] [--runs R] "
				"[--video PATH] [--size WxH] [--period-us P] [--bindir DIR] "
				"[--raw FILE]\n");
			return 2;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || frames <= warm) {
		fprintf(stderr, "latency-camera: need 1..%d runs and more frames than warm-up "
			"frames\n", MAX_RUNS);
		return 2;
	}
	if (raw_path && !(raw = fopen(raw_path, "w")))
		fprintf(stderr, "latency-camera: %s: %s\n", raw_path, strerror(errno));
	vivid_start_of_exposure();
	bool ok[N_C] = { true, true, true };
	for (int c = 0; c < N_C; c++)
		if (run(c, false) < 0)
			ok[c] = false;
	for (int r = 0; r < runs; r++)
		for (int k = 0; k < N_C; k++) {
			int c = (k + r) % N_C;
			if (ok[c] && run(c, true) < 0)
				ok[c] = false;
		}
	if (raw)
		fclose(raw);

	printf("Camera capture-to-flip latency, %ux%u XRGB8888, %s; %d runs of %lu frames per "
		"contender, alternating; per-frame rows over the frames after the first %lu of each "
		"run, pooled; ms, CLOCK_MONOTONIC.\n\n", w, h, video, runs, frames, warm);
	unsigned n_min = MAX_SAMPLES;
	for (int c = 0; c < N_C; c++)
		if (ok[c] && series[c].n && series[c].n < n_min)
			n_min = series[c].n;
	/* The flip waits for the next vblank: a phase between the camera's and the display's
	 * clocks, uniform over a period, that no contender controls. The difference of two
	 * medians of it has a standard error of about period / sqrt(2n). */
	double noise = n_min < MAX_SAMPLES ? 2.0 * period_ns / 1e6 / sqrt(2.0 * n_min) : 0;
	printf("The flip waits for the next vblank (a phase uniform over a %.1f ms period): two "
		"capture->flip medians differ by chance by up to about %.1f ms (2 standard errors). "
		"capture->commit has no such phase: it is the contender's own reaction.\n\n",
		period_ns / 1e6, noise);
	printf("| contender | frames | capture->flip median | p90 | min | max | run medians | "
		"capture->commit median | shown at the 1st vblank after dequeue | "
		"capture->flip received, median | start-up to first flip, median (min-max) |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
	double floor_med = 0, floor_cc = 0;
	for (int c = 0; c < N_C; c++) {
		struct series *s = &series[c];
		if (!ok[c] || !s->n) {
			printf("| %s | failed or no frames | | | | | | | | | |\n", names[c]);
			continue;
		}
		double med = pct(s->cap_flip, s->n, 0.5), p90 = pct(s->cap_flip, s->n, 0.9);
		double mn = s->cap_flip[0], mx = s->cap_flip[s->n - 1];
		double cc = pct(s->cap_commit, s->n, 0.5);
		double ar = pct(s->cap_arrival, s->n, 0.5);
		double su = pct(s->startup, s->n_runs, 0.5);
		double sumn = s->startup[0], sumx = s->startup[s->n_runs - 1];
		pct(s->run_med, s->n_runs, 0.5);
		if (c == C_FLOOR) {
			floor_med = med;
			floor_cc = cc;
		}
		bool below = c != C_FLOOR && floor_med > 0 &&
			(med < floor_med - noise || cc < floor_cc);
		printf("| %s | %u | %.1f | %.1f | %.1f | %.1f | %.1f-%.1f | %.3f | %.0f%% | %.1f | "
			"%.0f (%.0f-%.0f) |%s\n", names[c], s->n, med, p90, mn, mx, s->run_med[0],
			s->run_med[s->n_runs - 1], cc, 100.0 * s->first_vblank / s->n, ar, su, sumn,
			sumx, below ? " BELOW FLOOR?" : "");
	}
	printf("\n");
	for (int c = 0; c < N_C; c++) {
		struct series *s = &series[c];
		if (!ok[c])
			continue;
		printf("- %s: flips with a timestamp before their commit, moved one period later: "
			"%lu; frames with a capture time after their commit: %lu; commits that "
			"showed no new frame: %lu; timestamps not CLOCK_MONOTONIC: %lu; runs short "
			"of %lu frames: %lu; records lost: %lu\n", names[c], s->corrected, s->stale,
			s->no_frame, s->not_mono, frames, s->short_runs, s->lost);
	}
	for (int c = 0; c < N_C; c++)
		if (!ok[c])
			return 1;
	return 0;
}
