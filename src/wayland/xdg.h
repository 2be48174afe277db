/* SPDX-License-Identifier: MIT */
/*
 * xdg_wm_base (v5): toplevels placed by the window policy (the kiosk's: the main toplevel
 * full-screen, centred on black when it is smaller than the output; a toplevel with a parent,
 * a dialog, at its own size centred over its parent), popups placed by their positioner's
 * rules inside the output (flip, slide, resize), popup grabs and reposition.
 */
#ifndef DISPMAN_WAYLAND_XDG_H
#define DISPMAN_WAYLAND_XDG_H

#include "positioner.h" /* and box.h */
#include "server.h"

struct surface;

/* An xdg_surface and its role (toplevel or popup). */
struct shell_surface {
	struct wl_resource *resource;   /* xdg_surface */
	struct wl_resource *role_resource; /* xdg_toplevel or xdg_popup */
	struct surface *surface;
	struct server *srv;
	bool configured;                /* a configure was acknowledged */
	uint32_t configure_serial;      /* the last one sent; 0: none yet */
	uint32_t unacked[16];           /* serials sent and not acked yet, oldest first */
	unsigned n_unacked;
	bool popup;
	/* window geometry (set_window_geometry, applied on commit); w 0: the surface's extent */
	struct box geometry, pending_geometry;
	bool pending_geometry_set;
	/* toplevels */
	struct shell_surface *parent;   /* set_parent (toplevel) or the popup's parent */
	int32_t min_w, min_h, max_w, max_h;
	bool placed;                    /* dispman_wayland_place_surface() */
	int32_t place_x, place_y;
	bool want_fullscreen;           /* set_fullscreen (the free policy honours it) */
	uint32_t want_output;           /* set_fullscreen's output (output.id), 0: none */
	bool want_maximized;            /* set_maximized (the free policy honours it) */
	/* the window geometry size an interactive resize asked for (the free policy; 0: the
	 * client's own), sent in its configures; resizing: the resize runs */
	int32_t size_w, size_h;
	bool resizing;
	bool focused;                   /* it or one of its popups has the keyboard focus */
	bool activated;                 /* the last configure said activated */
	bool seen_mapped;               /* its map was reported (map_changed) */
	/* popups */
	struct positioner_rules rules;
	struct box popup_box;           /* relative to the parent's window geometry */
	bool grab;                      /* xdg_popup.grab */
	bool done;                      /* popup_done sent */
	bool decorated;                 /* has a zxdg_toplevel_decoration_v1 */
	struct wl_list link;            /* server.toplevels (toplevels and popups) */
	struct wl_listener surface_destroy;
	struct wl_signal destroy_signal;        /* this struct is being freed */
};

int xdg_init_global(struct server *srv);
void xdg_finish(struct server *srv);
/* Serve xdg_wm_base at version (1 to 5) from now on. 0, -EINVAL (logged) or -ENOMEM. */
int xdg_set_version(struct server *srv, uint32_t version);

/* Take a buffer committed before the first configure was acked as its ack (lenient true)
 * or answer it with xdg_surface.unconfigured_buffer (false, the default). */
void xdg_set_lenient(struct server *srv, bool lenient);

/* Where the surface's origin goes on the output (its window geometry placed by the policy
 * or, for a popup, by its rules relative to its parent); false for one not to be shown. */
bool xdg_surface_origin(struct shell_surface *x, int32_t *ox, int32_t *oy);

/* Sends the toplevel or popup a configure, if it had its first one (else the first follows
 * its initial commit). */
void xdg_configure(struct shell_surface *x);

/* The toplevels' policy changed (or the output's size): configure every toplevel again,
 * and every reactive popup whose box this changes. */
void xdg_reconfigure_all(struct server *srv);

/* The shell surface of a wl_surface resource with the toplevel role, or NULL. */
struct shell_surface *xdg_toplevel_of(struct wl_resource *surface);

#endif
