/* SPDX-License-Identifier: MIT */
/*
 * Pure helpers of input.c, shared with tests/unit/test-input.c: pointer position keeping
 * and the mapping of libinput event types.
 */
#ifndef DISPMAN_INPUT_PRIVATE_H
#define DISPMAN_INPUT_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <dispman/dispman.h>
#include <dispman/input.h>

/* The pointer position within an area of w x h pixels. */
struct pointer_area {
	double x, y;
	uint32_t w, h; /* 0 x 0: no output yet */
};

/* Clamp v to [0, size - 1] (to 0 when size is 0). */
double input_clamp(double v, uint32_t size);
/*
 * Give the area a new size: the first non-empty size centres the pointer, later sizes clamp
 * it. Returns true when the size changed.
 */
bool pointer_area_resize(struct pointer_area *p, uint32_t w, uint32_t h);
void pointer_area_move(struct pointer_area *p, double dx, double dy);
void pointer_area_warp(struct pointer_area *p, double x, double y);
/* Top-left corner of a cursor whose hot spot is at the pointer. */
void pointer_area_cursor_origin(const struct pointer_area *p, int hot_x, int hot_y,
	int32_t *x, int32_t *y);

/*
 * The dispman event type for a libinput event type (enum libinput_event_type as an int), or
 * 0 for events the library does not deliver (gestures, tablets, switches, the legacy
 * LIBINPUT_EVENT_POINTER_AXIS which duplicates the scroll events).
 */
enum dispman_input_event_type input_event_type_from_libinput(int type);

#endif
