/* SPDX-License-Identifier: MIT */
/*
 * Where the input's positions are and what follows them (input-private.h): the output
 * positions refer to, whose mode sizes the pointer area, and the cursor layer the pointer
 * moves, placed after motion and on a warp.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "input-private.h"
#include "layer.h"
#include "log.h"
#include "output.h"

/* The output positions refer to, and the pointer area resized to its mode. */
struct dispman_output *input_target_output(struct dispman_input *input)
{
	if (!input->dev)
		return NULL;
	struct dispman_output *out = input->output;
	size_t n = dispman_device_get_output_count(input->dev);
	for (size_t i = 0; !out && i < n; i++) {
		struct dispman_output *o = dispman_device_get_output(input->dev, i);
		if (dispman_output_is_enabled(o))
			out = o;
	}
	for (size_t i = 0; !out && i < n; i++) {
		struct dispman_output *o = dispman_device_get_output(input->dev, i);
		if (dispman_output_get_status(o) == DISPMAN_CONNECTED)
			out = o;
	}
	const struct dispman_mode *mode = NULL;
	if (out) {
		mode = dispman_output_get_current_mode(out);
		if (!mode && dispman_output_get_mode_count(out) > 0)
			mode = dispman_output_get_preferred_mode(out);
	}
	/* An output unplugged by hotplug has no modes: keep the last area until it returns.
	 * The area is the viewer's: the mode turned by the output's transform. */
	if (out)
		input->transform = dispman_output_get_transform(out);
	bool swap = ((unsigned)input->transform & 1u) != 0;
	if (mode && pointer_area_resize(&input->pointer, swap ? mode->height : mode->width,
	    swap ? mode->width : mode->height))
		input->cursor_dirty = input->cursor != NULL;
	return out;
}

static void place_cursor(struct dispman_input *input)
{
	int32_t x, y;
	pointer_area_cursor_origin(&input->pointer, input->hot_x, input->hot_y, &x, &y);
	layer_move(input->cursor, x, y); /* keeps the size, explicit or the buffer's */
}

void input_cursor_follow(struct dispman_input *input)
{
	if (!input->cursor || !input->cursor_dirty)
		return;
	input->cursor_dirty = false;
	place_cursor(input);
	int ret = dispman_device_commit(input->dev);
	if (ret < 0 && ret != -EACCES) /* a lost master is logged once by the device */
		dispman_log(DISPMAN_LOG_ERROR, "input: commit after cursor motion failed: %s",
			strerror(-ret));
}

void dispman_input_get_pointer_position(struct dispman_input *input, double *x, double *y)
{
	if (refuse_null(input, "input")) {
		if (x)
			*x = 0.0;
		if (y)
			*y = 0.0;
		return;
	}
	input_target_output(input);
	if (x)
		*x = input->pointer.x;
	if (y)
		*y = input->pointer.y;
}

int dispman_input_warp_pointer(struct dispman_input *input, double x, double y)
{
	if (refuse_null(input, "input"))
		return -EINVAL;
	if (!isfinite(x) || !isfinite(y)) {
		dispman_log(DISPMAN_LOG_ERROR, "input: cannot warp the pointer to (%g, %g)", x, y);
		return -EINVAL;
	}
	input_target_output(input);
	pointer_area_warp(&input->pointer, x, y);
	if (input->cursor)
		place_cursor(input);
	return 0;
}

int dispman_input_set_cursor_layer(struct dispman_input *input, struct dispman_layer *layer,
	int hot_x, int hot_y)
{
	if (refuse_null(input, "input"))
		return -EINVAL;
	if (layer && output_device(layer_output(layer)) != input->dev) {
		dispman_log(DISPMAN_LOG_ERROR, "input: cursor layer belongs to another device");
		return -EINVAL;
	}
	input->cursor = layer;
	input->hot_x = hot_x;
	input->hot_y = hot_y;
	input->cursor_dirty = false;
	if (layer) {
		/* virtualized cursor planes take the hotspot too (HOTSPOT_X/Y) */
		dispman_layer_set_cursor_hotspot(layer, hot_x, hot_y);
		input_target_output(input);
		place_cursor(input);
	}
	return 0;
}
