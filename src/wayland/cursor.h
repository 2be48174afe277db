/* SPDX-License-Identifier: MIT */
/*
 * The pointer's cursor: one dispman layer above the scene that dispman_input moves with the
 * pointer (dispman_input_set_cursor_layer(): the library's cursor layer, put on a cursor
 * plane by its plane assignment when one takes it, else composed). It shows the cursor
 * surface of the client with pointer focus (wl_pointer.set_cursor, role cursor), else the
 * default cursor (left_ptr of the XCursor theme, or a built-in arrow). No cursor while the
 * seat has no pointer device, or when the embedder hid it. A drag's icon surface is shown
 * here too, on a layer of its own under the cursor.
 */
#ifndef DISPMAN_WAYLAND_CURSOR_H
#define DISPMAN_WAYLAND_CURSOR_H

#include "server.h"

#include <dispman/input.h>

struct surface;

/* Allocates the state and listens for destroyed surfaces; 0 or -ENOMEM. */
int cursor_init(struct server *srv);
/* Unsets the input's cursor layer and frees the layer and the images. */
void cursor_finish(struct server *srv);
/* The input whose pointer moves the cursor (NULL: none, no cursor). */
void cursor_set_input(struct server *srv, struct dispman_input *input);
/* A device of the seat was added or removed (caps: DISPMAN_INPUT_CAP_*), or (added and
 * caps 0) a pointer event came: the cursor is shown while a pointer device is there. */
void cursor_device(struct server *srv, uint32_t caps, bool added);
/* The pointer focus moved to another surface or to none: the default cursor until the
 * focused client sets its own. */
void cursor_focus_changed(struct server *srv);
/* An accepted wl_pointer.set_cursor (pointer: its wl_pointer resource): s (NULL: hide the
 * cursor) with its hotspot. A surface with another role is a protocol error on pointer. */
void cursor_set_surface(struct server *srv, struct wl_resource *pointer, struct surface *s,
	int32_t hot_x, int32_t hot_y);
/* A drag started with icon (NULL: none) at the pointer (x, y), or (icon NULL) ended: the
 * icon's content on its own layer just below the cursor's, its top-left corner at the
 * pointer plus the offsets of its attaches, following its commits; the layer goes when
 * the drag ends or the surface is destroyed. */
void cursor_drag_icon(struct server *srv, struct surface *icon, double x, double y);
/* The pointer moved during a drag: the icon follows. */
void cursor_drag_motion(struct server *srv, double x, double y);
/* The pointer is at (lx, ly) of the layout, on o, in an extended layout of several outputs:
 * the cursor's layer goes on o (made again there when o is another output than before, the
 * one it left committed without it) and is placed at the pointer minus the hotspot, then o
 * is committed from an idle callback (one commit per batch of motion). o NULL: one output
 * or a mirrored layout, where the input places the layer on the first output. */
void cursor_pointer_at(struct server *srv, struct output *o, double lx, double ly);
/* o is no longer served: a cursor layer on it goes (before o is freed). */
void cursor_output_removed(struct server *srv, struct output *o);
/* hide: never show a cursor (dispman_wayland_hide_cursor()). */
void cursor_hide(struct server *srv, bool hide);

#endif
