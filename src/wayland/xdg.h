/* SPDX-License-Identifier: MIT */
/* xdg_wm_base as a kiosk shell: toplevels, popups and positioners. */
#ifndef DISPMAN_WAYLAND_XDG_H
#define DISPMAN_WAYLAND_XDG_H

#include "server.h"

struct surface;

/* An xdg_surface and its role (toplevel or popup). */
struct shell_surface {
	struct wl_resource *resource;   /* xdg_surface */
	struct wl_resource *role_resource; /* xdg_toplevel or xdg_popup */
	struct surface *surface;
	struct server *srv;
	bool configured;
	uint32_t configure_serial;
	bool popup;
	struct surface *parent;        /* popups */
	int32_t px, py;                 /* popup position relative to the parent */
	struct wl_list link;            /* server.toplevels (toplevels and popups) */
	struct wl_listener surface_destroy;
};

int xdg_init_global(struct server *srv);

#endif
