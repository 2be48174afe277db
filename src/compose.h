/* SPDX-License-Identifier: MIT */
/* CPU composition into the composition buffer (compose.c). */
#ifndef DISPMAN_COMPOSE_H
#define DISPMAN_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include <dispman/dispman.h>

struct dispman_buffer;
struct dispman_layer;
struct dispman_output;
struct scene;

/* Whether the CPU compositor can read the buffer (format known to pixman, mappable). */
bool compose_can_read(struct dispman_buffer *buf);
/*
 * The internal layer carrying the output's composition buffer (created on first use, at
 * the mode's size), or NULL with a log line. Owned by the output.
 */
struct dispman_layer *compose_get_layer(struct dispman_output *out);
/*
 * Draw the layers the commit composites on the output (placement COMPOSITED in its
 * proposal, sorted bottom to top, n of them) into a free composition buffer, only where
 * something changed since that buffer was drawn; full says the shape changed. Returns 0
 * or -errno.
 */
int compose_render(struct dispman_output *out, struct dispman_layer **layers, size_t n,
	bool full);
void compose_destroy(struct dispman_output *out);
/*
 * A commit of the output was accepted: buffers of the composition pool unused for 60 of
 * its commits (composition stopped, or a spare of the rotation) are freed.
 */
void compose_commit_done(struct dispman_output *out);
/* The internal composition layer if the output has one, else NULL; never creates it. */
struct dispman_layer *compose_peek_layer(struct dispman_output *out);
/*
 * Draw a scene (bottom to top, each entry's src/dst/alpha/blend) over black into target, an
 * XRGB8888 buffer, the way compose_render() draws. Returns 0, -ENOTSUP (no pixman, or a
 * layer's buffer the CPU cannot read: logged) or -errno.
 */
int compose_scene(struct dispman_buffer *target, const struct scene *scene);

#endif
