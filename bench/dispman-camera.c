/* SPDX-License-Identifier: MIT */
/*
 * libdispman's contender in the camera benchmark: the camera on a layer, zero-copy.
 *
 *   dispman-camera [--frames N] [--video /dev/video0] [--size WxH] [--memory export|import]
 *
 * The same scene as the floor and kmssink: the frames centred on a plane over a black
 * full-screen buffer. Dispatches until N frames were shown, then prints the camera's
 * counters. The loop is as lean as the floor's: a frame callback counts the dequeued
 * frames, and the stats are read only once N were dequeued.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <dispman/dispman.h>
#include <dispman/camera.h>

static unsigned long dequeued;

static void on_frame(struct dispman_camera *cam, uint32_t index, uint32_t sequence, bool error,
	void *data)
{
	(void)cam, (void)index, (void)sequence, (void)error, (void)data;
	dequeued++;
}

int main(int argc, char **argv)
{
	const char *video = "/dev/video0";
	unsigned long frames = 100;
	uint32_t w = 640, h = 480;
	enum dispman_camera_memory memory = DISPMAN_CAMERA_MEMORY_EXPORT;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--frames") && i + 1 < argc)
			frames = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--video") && i + 1 < argc)
			video = argv[++i];
		else if (!strcmp(argv[i], "--memory") && i + 1 < argc)
			memory = !strcmp(argv[++i], "import") ? DISPMAN_CAMERA_MEMORY_IMPORT :
				DISPMAN_CAMERA_MEMORY_EXPORT;
		else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
			 sscanf(argv[i + 1], "%ux%u", &w, &h) == 2)
			i++;
		else {
			fprintf(stderr, "usage: dispman-camera [--frames N] [--video PATH] "
				"[--size WxH] [--memory export|import]\n");
			return 2;
		}
	}
	struct dispman_device *dev = dispman_device_open(NULL);
	if (!dev)
		return 1;
	struct dispman_output *o = dispman_device_get_first_connected_output(dev);
	if (!o || dispman_output_enable(o, NULL) < 0)
		return 1;
	const struct dispman_mode *m = dispman_output_get_preferred_mode(o);
	struct dispman_buffer *bg = dispman_buffer_create_dumb(dev, m->width, m->height,
		DRM_FORMAT_XRGB8888);
	dispman_output_set_buffer(o, bg);
	struct dispman_layer *layer = dispman_layer_create(o);
	dispman_layer_set_z(layer, 1);
	dispman_layer_set_destination(layer, (int32_t)(m->width - w) / 2,
		(int32_t)(m->height - h) / 2, w, h);
	struct dispman_camera_config cfg = { .size = sizeof(cfg), .path = video, .width = w, .height = h,
		.fourcc = DRM_FORMAT_XRGB8888, .memory = memory };
	struct dispman_camera *cam = dispman_camera_create(layer, &cfg);
	if (!cam || dispman_camera_set_frame_callback(cam, on_frame, NULL) < 0 ||
	    dispman_camera_start(cam) < 0)
		return 1;
	struct dispman_camera_stats s = { .size = sizeof(s) };
	do {
		if (dispman_device_dispatch(dev, 5000) < 0)
			return 1;
		if (dequeued >= frames)
			dispman_camera_get_stats(cam, &s);
	} while (s.frames_shown < frames);
	printf("frames=%llu copied=%llu dropped=%llu\n", (unsigned long long)s.frames_shown,
		(unsigned long long)s.bytes_copied, (unsigned long long)s.frames_dropped);
	fflush(stdout);
	exit(0); /* the kernel frees the rest (exit() still runs the counters' report) */
}
