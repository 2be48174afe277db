/* SPDX-License-Identifier: MIT */
/* wl_compositor, wl_surface, wl_region, wl_subcompositor and wp_viewporter: double-buffered surface state and the stacking of subsurfaces. */
#ifndef DISPMAN_WAYLAND_SURFACE_H
#define DISPMAN_WAYLAND_SURFACE_H

#include "box.h"
#include "server.h"

struct buffer;
struct surface;

struct surface_state {
	bool attached;                  /* wl_surface.attach was called */
	/* dx, dy: the new buffer's offset from the current one (wl_surface.attach's before
	 * wl_surface v5; wl_surface.offset's from v5, with offset_set) */
	bool offset_set;
	struct buffer *buffer;         /* held (pending, cached and current alike) */
	bool scale_set;
	int32_t dx, dy;
	struct box damage;            /* buffer coordinates, accumulated */
	bool damage_all;
	struct wl_list frames;          /* wl_callback resources */
	struct wl_list feedbacks;       /* feedback.link */
	int32_t scale;
	/* wl_surface.set_buffer_transform (enum wl_output_transform), set when transform_set */
	int32_t transform;
	bool transform_set;
	/* viewport: -1 unset */
	double src_x, src_y, src_w, src_h;
	int32_t dst_w, dst_h;
	bool viewport_changed;
	/* wl_surface.set_input_region, set when input_set: input_infinite (NULL region), else
	 * the region's struct region_op list, replayed in order by surface_accepts_input() */
	bool input_set;
	bool input_infinite;
	struct wl_array input;
};

/* One wl_region.add (add true) or .subtract, in surface coordinates. */
struct region_op {
	int32_t x, y, w, h;
	bool add;
};

enum surface_role {
	ROLE_NONE,
	ROLE_XDG_TOPLEVEL,
	ROLE_XDG_POPUP,
	ROLE_SUBSURFACE,
	ROLE_CURSOR,
	ROLE_DND_ICON,                  /* a drag's icon: drawn by cursor.c, not the scene */
};

/* One entry of a surface's stack: the surface itself, or one of its subsurfaces. */
struct stack_entry {
	struct surface *surface;
	struct wl_list link;
};

/* A role's hook: called after the surface's state was applied by wl_surface.commit. */
typedef void (*surface_role_commit)(struct surface *s, void *data);
/* A role's hook on wl_surface.attach of a buffer: true when the role refuses it (it has
 * posted the protocol error). */
typedef bool (*surface_role_refuses_buffer)(struct surface *s, void *data);

struct surface {
	struct server *srv;
	struct wl_resource *resource;
	struct surface_state pending, current;
	enum surface_role role;
	struct shell_surface *xdg;       /* xdg_surface object (set by xdg.c) */
	surface_role_commit role_commit; /* with role_data; NULL: none */
	void *role_data;
	surface_role_refuses_buffer role_refuses_buffer; /* with role_data; NULL: none */
	struct subsurface *sub;        /* subsurface role object */
	struct wl_resource *viewport;
	/* what the last commit moved the content by (its buffer's attach offset, or
	 * wl_surface.offset): the drag icon follows it (cursor.c) */
	int32_t commit_dx, commit_dy;

	/* Stacking of this surface with its subsurfaces, bottom to top: stack_entry.link.
	 * self sits in it for the surface's own content. */
	struct wl_list stack;
	struct stack_entry self;

	struct dispman_layer *layer;
	/* what its layer is called in the pipeline graph (xdg.c: the toplevel's app_id);
	 * scene.c hands it to the layer when name_changed */
	char name[DISPMAN_LAYER_NAME_MAX + 1];
	bool name_changed;
	struct dispman_buffer *shown;   /* what the layer was last given */
	struct wl_list slots;           /* shm_slot.link */
	int32_t slots_w, slots_h;
	uint32_t slots_format;
	/* what the layer was last given (its setters mark the scene's shape changed) */
	uint32_t l_src[4];
	int32_t l_dst[4];
	int l_z;
	/* geometry of the last repaint, output coordinates */
	int32_t x, y, w, h;
	bool mapped;
	bool entered;                   /* wl_surface.enter was sent (output.c) */
	struct output *output;          /* scene.c: the output its layer is on, or NULL */
	struct output *entered_output;  /* output.c: the one it entered (extended layout) */
	bool zero_copy;                 /* last repaint put a client dma-buf on a plane */
	bool content_changed;           /* a buffer or damage was committed since the repaint */
	struct wl_list link;            /* server.surfaces */
	struct wl_signal destroy_signal;
};

struct subsurface {
	struct wl_resource *resource;
	struct surface *surface, *parent;
	int32_t x, y;                   /* applied: where the scene puts it */
	/* set_position is the parent's state: pending until the parent commits, cached
	 * while the parent's commit is (a synchronized parent) */
	int32_t pending_x, pending_y, cached_x, cached_y;
	bool pending_pos, cached_pos;
	bool sync;
	bool has_cache;
	struct surface_state cached;
	struct stack_entry entry;      /* in parent->stack */
};

/* wp_presentation_feedback of a surface's commit (created by presentation.c). */
struct feedback {
	struct wl_resource *resource;
	struct surface *surface;
	bool zero_copy;
	struct wl_list link;
};

int surface_init_globals(struct server *srv);
struct surface *surface_from_resource(struct wl_resource *res);
/* The same for a resource of any interface: NULL unless it is one of our wl_surfaces. */
struct surface *surface_checked_from_resource(struct wl_resource *res);
/* The surface has a buffer with content and a role that shows it. */
bool surface_has_content(struct surface *s);
/* The surface's size in surface coordinates (viewport destination, else its source size,
 * else the buffer over the scale); the surface must have a current buffer. */
void surface_get_size(const struct surface *s, int32_t *w, int32_t *h);
/* The surface's input region holds (sx, sy), in surface coordinates (the surface's bounds
 * are the caller's to check). */
bool surface_accepts_input(const struct surface *s, double sx, double sy);
/* Takes the surface off the screen: its layer goes at the next frame. */
void surface_unmap(struct surface *s);

#endif
