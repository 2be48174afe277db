/* SPDX-License-Identifier: MIT */
/*
 * The served outputs: a wl_output global and a zxdg_output_v1 for each, their place in the
 * layout (layout.c's arithmetic), which output a toplevel goes on, and wl_surface.enter and
 * leave as surfaces come and go on them.
 */
#ifndef DISPMAN_WAYLAND_OUTPUT_H
#define DISPMAN_WAYLAND_OUTPUT_H

#include "box.h"
#include "server.h"

/* The zxdg_output_manager_v1 global and the enter/leave listener. 0 or -ENOMEM. */
int output_init_global(struct server *srv);
/* Serve out (enabled in its preferred mode if it is off): a struct output with its
 * wl_output global, at the end of the layout. Returns it, or NULL with a negative errno in
 * *err (logged). The scene's frame cycle is started by scene_output_init(). */
struct output *output_add(struct server *srv, struct dispman_output *out, int *err);
/* Stops serving o: surfaces on it are taken off (they leave it), its global goes (bound
 * resources become inert), the others are placed again. Its frame cycle must have ended
 * (scene_output_finish()). */
void output_remove(struct output *o);
/* Frees every output (their globals go; bound resources become inert). */
void output_finish(struct server *srv);
/* The served output of out, or NULL. */
struct output *output_find(struct server *srv, struct dispman_output *out);
/* The first output (never NULL once the compositor is created). */
struct output *output_first(struct server *srv);
/* The output of a wl_output resource, NULL for one not ours or of an output gone. */
struct output *output_from_resource(struct wl_resource *res);
/* The output's mode may have changed (a hotplug re-probe, a reconnect): takes the current
 * mode's size and refresh, tells every bound wl_output and places the outputs again.
 * Returns true when the size changed (toplevels need a new configure); false also while
 * the output is disabled. */
bool output_update_mode(struct output *o);
/* Places the outputs by srv->layout and their sizes; outputs that moved tell their
 * clients (wl_output.geometry, zxdg_output_v1.logical_position). */
void output_arrange(struct server *srv);
/* The output a toplevel goes on, want_id being the output.id its root toplevel asked for
 * with set_fullscreen(output) (0: none): that output if it is served and connected (and the
 * layout is extended), else the first connected one (the first one when none is). */
struct output *output_for(struct server *srv, uint32_t want_id);
/* Its box in the layout (layout coordinates): where such a toplevel is placed. */
struct box output_area_for(struct server *srv, uint32_t want_id);
/* A pointer event in layout coordinates. With one output, or mirrored, that is the
 * input's own position: ev itself is returned. In an extended layout of several outputs
 * the pointer moves by the relative motion across the union of the outputs (where the
 * input, bound to the first, would stop at its edge): copy is filled and returned. */
const struct dispman_input_event *output_pointer_event(struct server *srv,
	const struct dispman_input_event *ev, struct dispman_input_event *copy);
/* The output's box in the layout. */
struct box output_box(const struct output *o);

#endif
