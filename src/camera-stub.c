/* SPDX-License-Identifier: MIT */
/*
 * The camera API of a library built without V4L2 (no linux/videodev2.h, or -Dv4l2=disabled):
 * every function is there, so applications link either way, and each one fails with
 * ENOTSUP and a log line saying why. No camera object can exist, so the functions taking
 * one only see NULL.
 */
#include "log.h"

#include <errno.h>

#include <dispman/camera.h>

static void say_why(const char *func)
{
	dispman_log(DISPMAN_LOG_ERROR, "%s: libdispman was built without V4L2 camera support",
		func);
}

int dispman_camera_query_formats(struct dispman_device *dev, const char *path,
	struct dispman_camera_format *formats, size_t max)
{
	(void)dev, (void)path, (void)formats, (void)max;
	say_why(__func__);
	return -ENOTSUP;
}

struct dispman_camera *dispman_camera_create(struct dispman_layer *layer,
	const struct dispman_camera_config *config)
{
	(void)layer, (void)config;
	say_why(__func__);
	errno = ENOTSUP;
	return NULL;
}

void dispman_camera_destroy(struct dispman_camera *cam)
{
	(void)cam;
}

int dispman_camera_start(struct dispman_camera *cam)
{
	(void)cam;
	say_why(__func__);
	return -ENOTSUP;
}

int dispman_camera_stop(struct dispman_camera *cam)
{
	(void)cam;
	say_why(__func__);
	return -ENOTSUP;
}

int dispman_camera_get_stats(struct dispman_camera *cam, struct dispman_camera_stats *stats)
{
	(void)cam;
	say_why(__func__);
	return -ENOTSUP;
}

void dispman_camera_get_format(struct dispman_camera *cam, uint32_t *fourcc, uint32_t *width,
	uint32_t *height)
{
	(void)cam;
	if (fourcc)
		*fourcc = 0;
	if (width)
		*width = 0;
	if (height)
		*height = 0;
}

int dispman_camera_set_frame_callback(struct dispman_camera *cam,
	dispman_camera_frame_callback cb, void *data)
{
	(void)cam, (void)cb, (void)data;
	say_why(__func__);
	return -EINVAL; /* no camera can exist */
}

int dispman_camera_set_error_callback(struct dispman_camera *cam,
	dispman_camera_error_callback cb, void *data)
{
	(void)cam, (void)cb, (void)data;
	say_why(__func__);
	return -EINVAL; /* no camera can exist */
}

int dispman_camera_set_control(struct dispman_camera *cam, const char *name, int64_t value)
{
	(void)cam, (void)name, (void)value;
	say_why(__func__);
	return -ENOTSUP;
}
