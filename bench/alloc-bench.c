/* SPDX-License-Identifier: MIT */
/*
 * Plane assignment and composition: libdispman against libliftoff (when built with it)
 * and the floor, a raw libdrm flip loop (floor-flip.c), on the same device and scenes.
 *
 * Usage: alloc-bench [--mock] [--runs R] [--short S] [--long L] [--layers 1,4,...]
 *                    [--modes steady,moving,changing] [--timeout SEC]
 *                    [--baseline LIBDIR[=LABEL]] [--no-liftoff] [device]
 *   --no-liftoff leaves libliftoff out (its moving rows take most of the run's time).
 *   device defaults to $DISPMAN_DEVICE, else /dev/dri/card0. --mock runs on the mock libdrm instead: start it
 *   with LD_LIBRARY_PATH=<build>/tests/mock so that libdrm.so.2 is the mock.
 *
 * How it measures (doc/allocation.md quotes the table it prints):
 * - Every measurement is a fresh child process (this executable, re-executed) that opens
 *   the device, builds the scene (a full-screen background and 160x120 tiles, XRGB8888,
 *   two buffers per layer), shows it and then runs F frames: nonblocking commits, each
 *   waiting for its flip event. Modes: steady (every layer a new buffer every frame),
 *   moving (the top layer moves by 1 px a frame), changing (the middle layer gets a new
 *   buffer every frame, the others keep theirs).
 * - CPU is the child's own (CLOCK_PROCESS_CPUTIME_ID, user + system: the kernel's atomic
 *   check counts, vkms' blending worker does not), from its first commit to its last
 *   flip. Each contender runs S and L frames. Per frame, two figures: the median of the
 *   long run's frames after its first two (robust: a frame during which the host
 *   preempted the emulator, common with shared cores, does not move it), and
 *   (cpu(L) - cpu(S)) / (L - S) (exact when the start-up costs the same in both runs,
 *   noisier). Start-up = cpu(S) - S * per frame: the modeset, the first search, the
 *   emulator translating new code; none of it counts as per-frame cost.
 * - R rounds; in each round every contender runs once (short and long), the order
 *   rotating from round to round, all in one boot. Medians over the rounds are printed
 *   with min and max. One warm-up run of each contender comes first and is not counted.
 * - ioctls, TEST_ONLY and real commits are counted by interposing ioctl() in this
 *   executable (bench-kms.c; an atomic commit by its flags), for every contender alike.
 * - libdispman's own counters give the pixels composed and damaged, the geometry commits
 *   made without a search, and the composition memory.
 * - --baseline adds a contender: the same libdispman code of this program run against the
 *   libdispman.so.0 in LIBDIR (another build of the library, an older commit say, with the
 *   same ABI), through LD_LIBRARY_PATH; each of its children reports the library it
 *   loaded (dladdr), and a child that did not load LIBDIR's fails the run. This is the
 *   before/after comparison of a change to the library, alternated in one boot.
 * A contender's median below 0.75x the floor's is flagged: no library doing at least the
 * floor's work can be faster than it, so such a number is a measuring error.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <dispman/dispman.h>
#if HAVE_LIBLIFTOFF
#include <libliftoff.h>
#endif

#include "bench-kms.h"

enum engine { ENG_FLOOR, ENG_LIFTOFF, ENG_DISPMAN, ENG_BASELINE, N_ENGINES };
static const char *engine_names[] = { "floor", "libliftoff", "libdispman",
	"libdispman (baseline)" };
static const char *opt_baseline; /* --baseline LIBDIR */
static const char *const mode_names[] = { "steady", "moving", "changing", "release" };

struct child_result {
	bool ok;
	double cpu_us;
	double frame_med_us; /* median CPU of one frame within the run */
	unsigned long ioctls, tests, commits;
	unsigned long on_planes;
	unsigned long long damaged, composed, geometry, refused, comp_bytes, comp_peak;
	unsigned long long mem[3]; /* release mode */
	unsigned w, h, planes;
};

/* ---- child side ---- */

static int open_device(bool mock, const char *path)
{
	if (!mock)
		return open(path, O_RDWR | O_CLOEXEC);
	void (*setup)(void) = (void (*)(void))(uintptr_t)dlsym(RTLD_DEFAULT,
		"mock_drm_setup_vkms_like");
	int (*mopen)(void) = (int (*)(void))(uintptr_t)dlsym(RTLD_DEFAULT, "mock_drm_open");
	if (!setup || !mopen) {
		fprintf(stderr, "--mock: libdrm.so.2 is not the mock (set LD_LIBRARY_PATH to "
			"<build>/tests/mock)\n");
		return -1;
	}
	setup();
	return mopen();
}

#if HAVE_LIBLIFTOFF
static int run_liftoff(struct kms *k, const struct scene *s, enum bench_mode mode, int frames,
	struct child_result *res)
{
	if (kms_make_fbs(k, s, s->n) < 0)
		return -1;
	bench_loop_start();
	if (kms_modeset(k, k->fbs[0][0]) < 0)
		return -1;
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
		liftoff_layer_set_property(layers[i], "FB_ID", k->fbs[0][i]);
	}
	size_t top = s->n - 1, changing = bench_changing_layer(s->n);
	int ret = 0;
	drmModeAtomicReq *r = drmModeAtomicAlloc(); /* one request, emptied for each frame,
						      * as the floor and libdispman do */
	for (int f = -1; f < frames && ret == 0 && r; f++) {
		uint32_t fb = (uint32_t)((f + 1) & 1);
		if (f >= 0 && mode == MODE_STEADY)
			for (size_t i = 0; i < s->n; i++)
				liftoff_layer_set_property(layers[i], "FB_ID", k->fbs[fb][i]);
		else if (f >= 0 && mode == MODE_CHANGING)
			liftoff_layer_set_property(layers[changing], "FB_ID", k->fbs[fb][changing]);
		else if (f >= 0)
			liftoff_layer_set_property(layers[top], "CRTC_X",
				(uint64_t)(int64_t)(s->l[top].x + 1 + f % 64));
		drmModeAtomicSetCursor(r, 0);
		ret = liftoff_output_apply(out, r, DRM_MODE_ATOMIC_NONBLOCK);
		if (ret == 0)
			ret = drmModeAtomicCommit(k->fd, r, DRM_MODE_ATOMIC_NONBLOCK |
				DRM_MODE_PAGE_FLIP_EVENT, k);
		if (ret == 0)
			ret = kms_wait_flip(k);
		if (ret < 0)
			fprintf(stderr, "libliftoff: frame %d failed: %s\n", f, strerror(errno));
		else if (f >= 0)
			bench_frame_mark();
	}
	if (!r)
		return -1;
	drmModeAtomicFree(r);
	for (size_t i = 0; i < s->n; i++)
		res->on_planes += liftoff_layer_get_plane(layers[i]) != NULL;
	return ret;
}
#endif

static bool dm_flipped;

static void dm_frame(struct dispman_output *out, uint64_t seq, const struct timespec *ts,
	void *data)
{
	(void)out, (void)seq, (void)ts, (void)data;
	dm_flipped = true;
}

static int dm_frame_commit(struct dispman_device *dev)
{
	dm_flipped = false;
	int ret = dispman_device_commit(dev);
	while (ret == 0 && !dm_flipped)
		if ((ret = dispman_device_dispatch(dev, 1000)) > 0)
			ret = 0;
	return ret;
}

static int run_dispman(int fd, const struct scene *s, enum bench_mode mode, int frames,
	struct child_result *res)
{
	struct dispman_device *dev = dispman_device_create_for_fd(fd);
	struct dispman_output *out = dev ? dispman_device_get_first_connected_output(dev) : NULL;
	if (!out)
		return -1;
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
			if (!bufs[v][i] || dispman_buffer_map(bufs[v][i], &p, &stride) < 0)
				return -1;
			memset(p, 0x40 + v * 0x40 + (int)i, (size_t)stride * l->h);
		}
		layers[i] = dispman_layer_create(out);
		dispman_layer_set_destination(layers[i], l->x, l->y, l->w, l->h);
		dispman_layer_set_z(layers[i], (int)i);
		dispman_layer_set_buffer(layers[i], bufs[0][i]);
	}
	bench_loop_start();
	int ret = dm_frame_commit(dev);
	size_t top = s->n - 1, changing = bench_changing_layer(s->n);
	size_t n = s->n;
	for (int f = 0; f < frames && ret == 0; f++) {
		uint32_t fb = (uint32_t)((f + 1) & 1);
		if (mode == MODE_STEADY || mode == MODE_RELEASE) {
			for (size_t i = 0; i < n; i++)
				dispman_layer_set_buffer(layers[i], bufs[fb][i]);
		} else if (mode == MODE_CHANGING) {
			dispman_layer_set_buffer(layers[changing], bufs[fb][changing]);
		} else {
			const struct lspec *l = &s->l[top];
			dispman_layer_set_destination(layers[top], l->x + 1 + f % 64, l->y, l->w,
				l->h);
		}
		ret = dm_frame_commit(dev);
		bench_frame_mark();
		if (mode == MODE_RELEASE && f == 9) {
			/* 64 layers composed; now 60 of them go away */
			struct dispman_stats st = { .size = sizeof(st) };
			dispman_device_get_stats(dev, &st);
			res->mem[0] = st.composition_bytes;
			for (size_t i = 4; i < n; i++)
				dispman_layer_destroy(layers[i]);
			n = 4;
		} else if (mode == MODE_RELEASE && f == 10) {
			struct dispman_stats st = { .size = sizeof(st) };
			dispman_device_get_stats(dev, &st);
			res->mem[1] = st.composition_bytes;
		}
	}
	if (ret < 0)
		fprintf(stderr, "libdispman: frame failed: %s\n", strerror(-ret));
	struct dispman_stats st = { .size = sizeof(st) };
	dispman_device_get_stats(dev, &st);
	res->mem[2] = st.composition_bytes;
	res->damaged = st.damaged_pixels;
	res->composed = st.composed_pixels;
	res->geometry = st.geometry_commits;
	res->refused = st.geometry_refused;
	res->comp_bytes = st.composition_bytes;
	res->comp_peak = st.composition_bytes_peak;
	for (size_t i = 0; i < n; i++) {
		struct dispman_placement p;
		dispman_layer_get_placement(layers[i], &p);
		res->on_planes += p.state == DISPMAN_PLACEMENT_ON_PLANE;
	}
	/* teardown is not measured */
	return ret;
}

static int child_main(enum engine e, size_t n_layers, enum bench_mode mode, int frames,
	bool mock, const char *path)
{
	int fd = open_device(mock, path);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	struct kms k;
	if (kms_open(&k, fd) < 0) {
		fprintf(stderr, "no atomic KMS output on %s\n", path);
		return 1;
	}
	struct scene s;
	bench_make_scene(&s, n_layers, k.mode.hdisplay, k.mode.vdisplay);
	struct child_result r = { .w = k.mode.hdisplay, .h = k.mode.vdisplay,
		.planes = (unsigned)k.n_planes };
	int ret;
	if (e == ENG_FLOOR) {
		ret = floor_flip_run(&k, &s, mode, frames);
		r.on_planes = s.n < k.n_planes ? s.n : k.n_planes;
	}
#if HAVE_LIBLIFTOFF
	else if (e == ENG_LIFTOFF)
		ret = run_liftoff(&k, &s, mode, frames, &r);
#endif
	else if (e == ENG_DISPMAN || e == ENG_BASELINE)
		ret = run_dispman(fd, &s, mode, frames, &r);
	else
		ret = -1;
	double c1 = bench_cpu_us();
	bench_counting = false;
	double c0 = bench_loop_c0;
	if (ret < 0)
		return 1;
	Dl_info info;
	if (e == ENG_DISPMAN || e == ENG_BASELINE)
		printf("lib=%s ", dladdr((void *)(uintptr_t)dispman_device_create_for_fd, &info) &&
			info.dli_fname ? info.dli_fname : "?");
	printf("frame_med_us=%.1f ", bench_frame_median());
	printf("cpu_us=%.1f ioctls=%lu tests=%lu commits=%lu on_planes=%lu damaged=%llu "
		"composed=%llu geometry=%llu refused=%llu comp_bytes=%llu comp_peak=%llu "
		"mem0=%llu mem1=%llu mem2=%llu w=%u h=%u planes=%u\n", c1 - c0, bench_ioctls,
		bench_tests, bench_commits, r.on_planes, r.damaged, r.composed, r.geometry,
		r.refused, r.comp_bytes, r.comp_peak, r.mem[0], r.mem[1], r.mem[2], r.w, r.h,
		r.planes);
	fflush(stdout);
	_exit(0); /* no teardown: the kernel frees the rest */
}

/* ---- driver side ---- */

static const char *self_exe = "/proc/self/exe";
static bool opt_mock;
static const char *opt_path = "/dev/dri/card0";
static int opt_timeout = 120;

static int run_child(enum engine e, size_t n, enum bench_mode mode, int frames,
	struct child_result *res)
{
	memset(res, 0, sizeof(*res));
	int pfd[2];
	if (pipe(pfd) < 0)
		return -1;
	fflush(stdout); /* or the child inherits (and flushes) what is buffered */
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		alarm((unsigned)opt_timeout);
		if (e == ENG_BASELINE) {
			/* before the others (--mock puts the mock libdrm there) */
			static char path[1024];
			const char *old = getenv("LD_LIBRARY_PATH");
			snprintf(path, sizeof(path), "%s%s%s", opt_baseline, old && *old ? ":" : "",
				old ? old : "");
			setenv("LD_LIBRARY_PATH", path, 1);
		}
		char a_e[16], a_n[24], a_m[16], a_f[16];
		snprintf(a_e, sizeof(a_e), "%d", (int)e);
		snprintf(a_n, sizeof(a_n), "%zu", n);
		snprintf(a_m, sizeof(a_m), "%d", (int)mode);
		snprintf(a_f, sizeof(a_f), "%d", frames);
		execl(self_exe, "alloc-bench", "--child", a_e, a_n, a_m, a_f,
			opt_mock ? "--mock" : "--real", opt_path, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	char buf[1024] = "";
	size_t len = 0;
	ssize_t got;
	while (len < sizeof(buf) - 1 && (got = read(pfd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)got;
	buf[len] = 0;
	close(pfd[0]);
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
			fprintf(stderr, "%s, %zu layers, %s: timed out after %d s\n", engine_names[e],
				n, mode_names[mode], opt_timeout);
			return -2;
		}
		return -1;
	}
	char *fields = buf;
	if (strncmp(buf, "lib=", 4) == 0) {
		char *sp = strchr(buf, ' ');
		if (!sp)
			return -1;
		*sp = 0;
		/* the baseline must have run LIBDIR's library, the others not */
		bool in_base = opt_baseline && strncmp(buf + 4, opt_baseline, strlen(opt_baseline)) == 0;
		if (in_base != (e == ENG_BASELINE)) {
			fprintf(stderr, "%s loaded %s: not the library it measures\n", engine_names[e],
				buf + 4);
			return -1;
		}
		fields = sp + 1;
	}
	res->ok = sscanf(fields, "frame_med_us=%lf cpu_us=%lf ioctls=%lu tests=%lu commits=%lu on_planes=%lu "
		"damaged=%llu composed=%llu geometry=%llu refused=%llu comp_bytes=%llu "
		"comp_peak=%llu mem0=%llu mem1=%llu mem2=%llu w=%u h=%u planes=%u", &res->frame_med_us,
		&res->cpu_us,
		&res->ioctls, &res->tests, &res->commits, &res->on_planes, &res->damaged,
		&res->composed, &res->geometry, &res->refused, &res->comp_bytes, &res->comp_peak,
		&res->mem[0], &res->mem[1], &res->mem[2], &res->w, &res->h, &res->planes) == 18;
	return res->ok ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

struct stat3 {
	double med, min, max;
};

static struct stat3 stats_of(const double *v, int n)
{
	double t[64];
	memcpy(t, v, sizeof(double) * (size_t)n);
	qsort(t, (size_t)n, sizeof(double), cmp_double);
	return (struct stat3){ n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, t[0], t[n - 1] };
}

struct per_engine {
	bool ok;
	int runs;
	double frame_us[64], start_us[64], diff_us[64];
	double ioctls, tests, commits, damaged, composed, geometry, refused; /* per frame */
	unsigned long on_planes;
	unsigned long long comp_peak;
};

static int parse_list(const char *s, int *v, int max)
{
	int n = 0;
	while (*s && n < max) {
		v[n++] = atoi(s);
		const char *c = strchr(s, ',');
		if (!c)
			break;
		s = c + 1;
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc >= 8 && strcmp(argv[1], "--child") == 0)
		return child_main((enum engine)atoi(argv[2]), (size_t)atoi(argv[3]),
			(enum bench_mode)atoi(argv[4]), atoi(argv[5]),
			strcmp(argv[6], "--mock") == 0, argv[7]);
	/* raw libdrm opens a node: DISPMAN_DEVICE (the library's rule) or card0 */
	if (getenv("DISPMAN_DEVICE") && *getenv("DISPMAN_DEVICE"))
		opt_path = getenv("DISPMAN_DEVICE");
	int runs = 5, s_frames = 10, l_frames = 40;
	int layer_counts[16] = { 1, 4, 8, 16, 32, 64 }, n_counts = 6;
	bool modes[3] = { true, true, true };
	bool no_liftoff = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--mock") == 0)
			opt_mock = true;
		else if (strcmp(argv[i], "--no-liftoff") == 0)
			no_liftoff = true;
		else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--short") == 0 && i + 1 < argc)
			s_frames = atoi(argv[++i]);
		else if (strcmp(argv[i], "--long") == 0 && i + 1 < argc)
			l_frames = atoi(argv[++i]);
		else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
			opt_timeout = atoi(argv[++i]);
		else if (strcmp(argv[i], "--layers") == 0 && i + 1 < argc)
			n_counts = parse_list(argv[++i], layer_counts, 16);
		else if (strcmp(argv[i], "--modes") == 0 && i + 1 < argc) {
			const char *m = argv[++i];
			for (int j = 0; j < 3; j++)
				modes[j] = strstr(m, mode_names[j]) != NULL;
		} else if (strcmp(argv[i], "--baseline") == 0 && i + 1 < argc) {
			static char dir[512];
			snprintf(dir, sizeof(dir), "%s", argv[++i]);
			char *eq = strchr(dir, '=');
			if (eq) {
				*eq = 0;
				static char label[128];
				snprintf(label, sizeof(label), "libdispman (%s)", eq + 1);
				engine_names[ENG_BASELINE] = label;
			}
			opt_baseline = dir;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: alloc-bench [--mock] [--runs R] [--short S] [--long L] "
				"[--layers 1,4,...] [--modes steady,moving,changing] [--timeout SEC] "
				"[--baseline LIBDIR[=LABEL]] [--no-liftoff] [device]\n");
			return 2;
		} else {
			opt_path = argv[i];
		}
	}
	if (runs < 1 || runs > 64 || s_frames < 1 || l_frames <= s_frames) {
		fprintf(stderr, "alloc-bench: runs 1..64, 1 <= short < long\n");
		return 2;
	}
	enum engine engines[N_ENGINES] = { ENG_FLOOR, ENG_DISPMAN };
	int n_engines = 2;
	if (opt_baseline)
		engines[n_engines++] = ENG_BASELINE;
	if (HAVE_LIBLIFTOFF && !no_liftoff)
		engines[n_engines++] = ENG_LIFTOFF;
	/* warm-up: not counted */
	struct child_result w;
	for (int e = 0; e < n_engines; e++)
		if (run_child(engines[e], 4, MODE_STEADY, s_frames, &w) < 0 && e == 0) {
			fprintf(stderr, "alloc-bench: the floor loop does not run on %s\n", opt_path);
			return 1;
		}
	printf("device: %s, %ux%u, %u planes; %d rounds, %d and %d frames per run; CPU = "
		"user+sys of the process per frame, median [min..max] over the rounds\n\n",
		opt_mock ? "mock libdrm (vkms-like)" : opt_path, w.w, w.h, w.planes, runs, s_frames,
		l_frames);
	printf("| layers | mode | engine | on planes | CPU us/frame | (L-S)/(L-S frames) | "
		"vs floor | start-up ms | ioctls/frame | TEST_ONLY/frame | geometry commits/frame | "
		"damaged px/frame | composed px/frame |\n");
	printf("|---:|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
	int flagged = 0;
	bool timed_out[N_ENGINES][3] = { { false } }; /* skip bigger scenes of that mode */
	for (int ci = 0; ci < n_counts; ci++) {
		size_t n = (size_t)layer_counts[ci];
		for (int m = 0; m < 3; m++) {
			if (!modes[m] || (m == MODE_MOVING && n < 2))
				continue;
			struct per_engine pe[N_ENGINES];
			memset(pe, 0, sizeof(pe));
			for (int r = 0; r < runs; r++) {
				for (int j = 0; j < n_engines; j++) {
					enum engine e = engines[(j + r) % n_engines];
					struct child_result a, b;
					if (timed_out[e][m])
						continue;
					int ra = run_child(e, n, (enum bench_mode)m, s_frames, &a);
					int rb = ra < 0 ? ra : run_child(e, n, (enum bench_mode)m, l_frames,
						&b);
					if (ra == -2 || rb == -2)
						timed_out[e][m] = true;
					if (ra < 0 || rb < 0)
						continue;
					struct per_engine *p = &pe[e];
					double d = l_frames - s_frames;
					double per = (b.cpu_us - a.cpu_us) / d;
					p->diff_us[p->runs] = per;
					p->frame_us[p->runs] = b.frame_med_us;
					p->start_us[p->runs] = a.cpu_us - b.frame_med_us * s_frames;
					p->runs++;
					p->ioctls += ((double)b.ioctls - (double)a.ioctls) / d;
					p->tests += ((double)b.tests - (double)a.tests) / d;
					p->commits += ((double)b.commits - (double)a.commits) / d;
					p->damaged += ((double)b.damaged - (double)a.damaged) / d;
					p->composed += ((double)b.composed - (double)a.composed) / d;
					p->geometry += ((double)b.geometry - (double)a.geometry) / d;
					p->refused += ((double)b.refused - (double)a.refused) / d;
					p->on_planes = b.on_planes;
					p->comp_peak = b.comp_peak;
				}
			}
			struct stat3 floor = { 0 };
			if (pe[ENG_FLOOR].runs)
				floor = stats_of(pe[ENG_FLOOR].frame_us, pe[ENG_FLOOR].runs);
			for (int e = 0; e < N_ENGINES; e++) {
				struct per_engine *p = &pe[e];
				if ((e == ENG_LIFTOFF && (!HAVE_LIBLIFTOFF || no_liftoff)) ||
				    (e == ENG_BASELINE && !opt_baseline))
					continue;
				if (!p->runs) {
					printf("| %zu | %s | %s | | %s | | | | | | | | |\n", n,
						mode_names[m], engine_names[e], timed_out[e][m] ?
						"timed out" : "failed");
					continue;
				}
				struct stat3 c = stats_of(p->frame_us, p->runs);
				struct stat3 df = stats_of(p->diff_us, p->runs);
				struct stat3 st = stats_of(p->start_us, p->runs);
				double k = p->runs;
				double ratio = floor.med > 0 ? c.med / floor.med : 0;
				bool below = e != ENG_FLOOR && ratio > 0 && ratio < 0.75;
				flagged += below;
				char extra[96] = "";
				if (e == ENG_DISPMAN || e == ENG_BASELINE)
					snprintf(extra, sizeof(extra), "%.2f | %.0f | %.0f", p->geometry / k,
						p->damaged / k, p->composed / k);
				else
					snprintf(extra, sizeof(extra), "- | - | -");
				printf("| %zu | %s | %s | %lu | %.1f [%.1f..%.1f]%s | %.1f [%.1f..%.1f] | "
					"%.2fx%s | %.1f | %.2f | %.2f | %s |\n", n, mode_names[m],
					engine_names[e], p->on_planes, c.med, c.min, c.max, p->runs < runs ?
					" (some runs failed)" : "", df.med, df.min, df.max, ratio,
					below ? " (BELOW FLOOR?)" : "", st.med / 1e3, p->ioctls / k,
					p->tests / k, extra);
			}
			fflush(stdout);
		}
	}
	/* composition memory while 64 layers are composed, and after 60 of them went away */
	struct child_result rel;
	if (run_child(ENG_DISPMAN, 64, MODE_RELEASE, 80, &rel) == 0)
		printf("\nlibdispman composition memory: %.1f MiB with 64 layers, %.1f MiB one frame "
			"after 60 were destroyed, %.1f MiB 70 frames later (peak %.1f MiB)\n",
			(double)rel.mem[0] / 1048576, (double)rel.mem[1] / 1048576,
			(double)rel.mem[2] / 1048576, (double)rel.comp_peak / 1048576);
	else
		printf("\nlibdispman composition memory: the release run failed\n");
	if (flagged)
		printf("\n%d result(s) below 0.75x the floor: a measuring error to find before "
			"publishing\n", flagged);
	return 0;
}
