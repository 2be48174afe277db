/* SPDX-License-Identifier: MIT */
/*
 * The compositor's shared state: the display and its event loop, the device and output it
 * serves, the lists the frame path works on, the counters, and the server-wide signals
 * that let lower modules tell higher ones of an event without calling them. Every other
 * module includes this header; server.c holds only what needs no other module.
 */
#ifndef DISPMAN_WAYLAND_SERVER_H
#define DISPMAN_WAYLAND_SERVER_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include <dispman/dispman.h>
#include <dispman/wayland.h>

#include "log.h"

struct seat;
struct surface;
struct dmabuf_global;
struct data_device_manager;
struct cursor;
struct screencopy;
struct idle_state;
struct vkbd_manager;
struct udmabuf;

/* A button press or touch down about to reach target (NULL: nothing under it). */
struct server_press {
	struct surface *target;
	bool consumed;                  /* set by a listener: not delivered */
};

/* An input event about to reach the seat (events.input). */
struct server_input {
	const struct dispman_input_event *ev;
	bool consumed;                  /* set by a listener: not delivered */
};

struct server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct dispman_device *dev;
	struct dispman_output *out;
	int32_t width, height;          /* mode size */
	uint32_t refresh_mhz;
	struct wl_event_source *dev_source;
	struct wl_event_source *idle;
	bool flip_pending;
	bool flip_done;                 /* a flip arrived during the device's dispatch */
	uint64_t flip_seq;
	struct timespec flip_time;
	bool dirty;
	bool blanked;                   /* idle.c turned the output off: no repaint */
	bool disconnected;              /* the output was unplugged: no repaint */
	/* how toplevels are placed (dispman_wayland_set_window_policy()) */
	enum dispman_wayland_window_policy policy;
	/* The scene's repaint, run from an idle callback (server_schedule_repaint()). */
	void (*repaint)(struct server *srv);

	struct wl_list surfaces;        /* surface.link */
	struct wl_list toplevels;       /* shell_surface.link, bottom to top */
	struct wl_list buffers;         /* buffer.link */
	struct wl_list orphan_slots;    /* shm_slot.link: of gone surfaces, still on screen */
	struct wl_list frames_waiting;  /* wl_callback: committed, not yet in a repaint */
	struct wl_list frames_inflight; /* in the committed frame */
	struct wl_list fb_waiting;      /* feedback.link */
	struct wl_list fb_inflight;
	struct wl_list outputs;         /* wl_output resources */

	struct {
		/* a surface is being destroyed (data: struct surface *), before it is
		 * unmapped: focus and copies let go of it */
		struct wl_signal surface_destroy;
		/* a surface was mapped, unmapped, moved or restacked (data: struct
		 * surface *) */
		struct wl_signal map_changed;
		/* the keyboard focus moved (data: the struct surface * now focused, or NULL) */
		struct wl_signal keyboard_focus;
		/* a pointer button or touch went down (data: struct server_press), before it
		 * is delivered; a listener may consume it */
		struct wl_signal press;
		/* an input event (data: struct server_input) reached the seat, before it is
		 * delivered; a listener may consume it (blanking: the waking event) */
		struct wl_signal input;
	} events;
	struct wl_listener shm_surface_destroy; /* shm.c's */
	struct wl_listener surface_map; /* surface.c's: wl_surface.enter/leave */
	struct wl_listener *xdg_press;  /* xdg.c's */
	struct wl_global *xdg_global;   /* xdg.c's */

	struct seat *seat;
	struct dmabuf_global *dmabuf;
	struct data_device_manager *data;
	struct cursor *cursor;
	struct screencopy *screencopy;  /* screencopy.c's */
	struct idle_state *idle_state;  /* idle.c's */
	struct udmabuf *udmabuf;        /* udmabuf.c's: zero-copy shm */
	struct vkbd_manager *vkbd;      /* virtual-keyboard.c's */
	struct vptr_manager *vptr;      /* virtual-pointer.c's */
	struct vinput *vinput;          /* virtual-input.c's */

	struct dispman_wayland_stats stats;
	unsigned layers;
};

/* Marks the scene dirty and runs srv->repaint from an idle callback, unless a flip is
 * pending (the flip's end repaints then) or one is already scheduled. */
void server_schedule_repaint(struct server *srv);

/* Posts a protocol error on res (the client is disconnected) and counts it. */
void server_post_error(struct server *srv, struct wl_resource *res, uint32_t code,
	const char *fmt, ...) PRINTF_ATTR(4, 5);

/* wl_list_remove() of a resource's link, as a resource destructor. */
void server_unlink_resource(struct wl_resource *res);

#endif
