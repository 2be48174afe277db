/*
 * CPU time per displayed camera frame: libdispman's zero-copy camera layer vs
 * GStreamer's `v4l2src io-mode=dmabuf ! kmssink`, same device, format, size
 * and frame count, alternating runs in one process, medians printed as a table.
 *
 *   camera-vs-gst [--frames N] [--runs R] [--video /dev/video0] [--size WxH]
 *
 * One warm-up run of each side comes first and is not counted: under QEMU's
 * TCG the first execution of any code pays for its translation, and the
 * first run also pulls the libraries over 9p.
 *
 * CPU time is the process's own (user + system, getrusage), so the camera
 * driver's frame generation (a vivid kernel thread) counts for neither side.
 * Runs inside the vkms guest: tests/vm/run build/bench/camera-vs-gst.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <dispman/camera.h>
#include <dispman/dispman.h>

struct sample {
	double cpu_s;
	double wall_s;
	unsigned long frames;
	unsigned long long copied;
};

static double tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int run_dispman(const char *video, uint32_t w, uint32_t h, unsigned long frames,
	struct sample *out)
{
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	double t0 = now_s();
	struct dispman_device *dev = dispman_device_open(NULL);
	if (!dev)
		return -1;
	struct dispman_output *o = dispman_device_get_first_connected_output(dev);
	dispman_output_enable(o, NULL);
	const struct dispman_mode *m = dispman_output_get_preferred_mode(o);
	/* The same scene kmssink shows: the frame on a plane over a black screen. */
	struct dispman_buffer *bg = dispman_buffer_create_dumb(dev, m->width, m->height,
		DRM_FORMAT_XRGB8888);
	dispman_output_set_buffer(o, bg);
	struct dispman_layer *layer = dispman_layer_create(o);
	dispman_layer_set_z(layer, 1);
	dispman_layer_set_destination(layer, (int32_t)(m->width - w) / 2,
		(int32_t)(m->height - h) / 2, w, h);
	struct dispman_camera_config cfg = { .path = video, .width = w, .height = h,
		.fourcc = DRM_FORMAT_XRGB8888, .memory = DISPMAN_CAMERA_MEMORY_EXPORT };
	struct dispman_camera *cam = dispman_camera_create(layer, &cfg);
	int ret = -1;
	if (!cam || dispman_camera_start(cam) < 0)
		goto out;
	struct dispman_camera_stats s;
	do {
		if (dispman_device_dispatch(dev, 1000) < 0)
			goto out;
		dispman_camera_get_stats(cam, &s);
	} while (s.frames_shown < frames);
	dispman_camera_stop(cam);
	out->frames = (unsigned long)s.frames_shown;
	out->copied = s.bytes_copied;
	ret = 0;
out:
	dispman_camera_destroy(cam);
	dispman_buffer_unref(bg);
	dispman_device_destroy(dev);
	getrusage(RUSAGE_SELF, &r1);
	out->wall_s = now_s() - t0;
	out->cpu_s = tv(&r1.ru_utime) - tv(&r0.ru_utime) + tv(&r1.ru_stime) - tv(&r0.ru_stime);
	return ret;
}

static int run_gst(const char *video, uint32_t w, uint32_t h, unsigned long frames,
	struct sample *out)
{
	char dev_arg[128], caps[128], n[32];
	snprintf(dev_arg, sizeof(dev_arg), "device=%s", video);
	snprintf(caps, sizeof(caps), "video/x-raw,format=BGRx,width=%u,height=%u", w, h);
	snprintf(n, sizeof(n), "num-buffers=%lu", frames);
	double t0 = now_s();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execlp("gst-launch-1.0", "gst-launch-1.0", "-q", "v4l2src", dev_arg,
			"io-mode=dmabuf", n, "!", caps, "!", "kmssink", "driver-name=vkms",
			(char *)NULL);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	out->wall_s = now_s() - t0;
	out->cpu_s = tv(&ru.ru_utime) + tv(&ru.ru_stime);
	out->frames = frames;
	out->copied = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	const char *video = "/dev/video0";
	unsigned long frames = 300;
	int runs = 3;
	uint32_t w = 640, h = 480;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--frames") && i + 1 < argc)
			frames = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--video") && i + 1 < argc)
			video = argv[++i];
		else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
			 sscanf(argv[i + 1], "%ux%u", &w, &h) == 2)
			i++;
		else {
			fprintf(stderr, "usage: camera-vs-gst [--frames N] [--runs R] [--video PATH] "
				"[--size WxH]\n");
			return 2;
		}
	}
	if (runs < 1 || runs > 20 || frames < 1) {
		fprintf(stderr, "camera-vs-gst: runs 1..20, frames >= 1\n");
		return 2;
	}
	double d_cpu[20], g_cpu[20], d_wall[20], g_wall[20];
	unsigned long long copied = 0;
	struct sample wd = { 0 }, wg = { 0 };
	if (run_dispman(video, w, h, frames / 4 + 1, &wd) < 0 ||
	    run_gst(video, w, h, frames / 4 + 1, &wg) < 0) {
		fprintf(stderr, "camera-vs-gst: warm-up failed\n");
		return 1;
	}
	for (int r = 0; r < runs; r++) {
		struct sample d = { 0 }, g = { 0 };
		if (run_dispman(video, w, h, frames, &d) < 0) {
			fprintf(stderr, "camera-vs-gst: libdispman run failed\n");
			return 1;
		}
		if (run_gst(video, w, h, frames, &g) < 0) {
			fprintf(stderr, "camera-vs-gst: gst-launch-1.0 failed (installed? "
				"GST_REGISTRY?)\n");
			return 1;
		}
		d_cpu[r] = d.cpu_s / (double)d.frames * 1e3;
		g_cpu[r] = g.cpu_s / (double)g.frames * 1e3;
		d_wall[r] = d.wall_s;
		g_wall[r] = g.wall_s;
		copied += d.copied;
		printf("run %d: libdispman %lu frames %.3f s CPU %.1f s wall | GStreamer %lu frames "
			"%.3f s CPU %.1f s wall\n", r + 1, d.frames, d.cpu_s, d.wall_s, g.frames,
			g.cpu_s, g.wall_s);
	}
	double dm = median(d_cpu, runs), gm = median(g_cpu, runs);
	printf("\ncamera %ux%u XRGB8888 (BGRx), %lu frames per run, %d runs after a warm-up, "
		"medians\n", w, h, frames, runs);
	printf("| pipeline                                   | CPU ms/frame | wall s | bytes copied |\n");
	printf("|--------------------------------------------|-------------:|-------:|-------------:|\n");
	printf("| libdispman camera layer (zero-copy)        | %12.3f | %6.1f | %12llu |\n", dm,
		median(d_wall, runs), copied);
	printf("| gst v4l2src io-mode=dmabuf ! kmssink       | %12.3f | %6.1f | %12s |\n", gm,
		median(g_wall, runs), "n/a");
	printf("| ratio libdispman / GStreamer               | %12.2f |        |              |\n",
		dm / gm);
	return 0;
}
