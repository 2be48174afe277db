/* SPDX-License-Identifier: MIT */
/*
 * The input API of a library built without libinput (-Dlibinput=disabled, or libinput not
 * found): every function is there, so applications link either way, and each one fails
 * with ENOTSUP and a log line saying why. No input object can exist, so the functions
 * taking one only see NULL. The pure pointer area (input-pointer.c) is built either way.
 */
#include <errno.h>

#include "input-private.h"
#include "log.h"

enum dispman_input_event_type input_event_type_from_libinput(int type)
{
	return 0;
}

static void *unsupported(void)
{
	dispman_log(DISPMAN_LOG_ERROR, "input: libdispman was built without libinput");
	errno = ENOTSUP;
	return NULL;
}

struct dispman_input *dispman_input_create_udev(struct dispman_device *dev, const char *seat)
{
	return unsupported();
}

struct dispman_input *dispman_input_create_path(struct dispman_device *dev,
	const char *const *paths, size_t n)
{
	return unsupported();
}

int dispman_input_add_device(struct dispman_input *input, const char *path)
{
	unsupported();
	return -ENOTSUP;
}

void dispman_input_destroy(struct dispman_input *input)
{
}

int dispman_input_set_callback(struct dispman_input *input, dispman_input_callback cb,
	void *data)
{
	unsupported();
	return -ENOTSUP;
}

int dispman_input_set_output(struct dispman_input *input, struct dispman_output *out)
{
	unsupported();
	return -ENOTSUP;
}

void dispman_input_get_pointer_position(struct dispman_input *input, double *x, double *y)
{
	if (x)
		*x = 0.0;
	if (y)
		*y = 0.0;
}

int dispman_input_warp_pointer(struct dispman_input *input, double x, double y)
{
	unsupported();
	return -ENOTSUP;
}

int dispman_input_set_cursor_layer(struct dispman_input *input, struct dispman_layer *layer,
	int hot_x, int hot_y)
{
	unsupported();
	return -ENOTSUP;
}
