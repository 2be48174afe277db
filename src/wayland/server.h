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
struct late_repaint;
struct idle_state;
struct vt_switch;
struct vkbd_manager;
struct udmabuf;

/* A button press or touch down about to reach target (NULL: nothing under it). */
struct server_press {
	struct surface *target;
	bool consumed;                  /* set by a listener: not delivered */
};

/*
 * A pointer grab (drag and drop, xdg.c's interactive move and resize): while one is set,
 * pointer motion and buttons go to it instead of to the surface under the pointer (which
 * gets a leave when the grab starts and an enter when it ends). Positions are output
 * coordinates. Started with seat_pointer_grab() (seat.h), or by the seat on a
 * server_grab_request.
 */
struct seat_pointer_grab {
	void (*motion)(struct seat_pointer_grab *grab, uint32_t ms, double x, double y);
	void (*button)(struct seat_pointer_grab *grab, uint32_t ms, uint32_t button,
		bool pressed);
	/* the seat ended the grab: its input went away, another grab replaced it, or (with
	 * release_ends) the last button was released */
	void (*cancel)(struct seat_pointer_grab *grab);
	/* the seat ends the grab at the release of the last button, after its button call */
	bool release_ends;
};

/* A client asks for a pointer grab from the implicit grab of a press (events.grab_request:
 * xdg_toplevel.move and .resize). The seat starts it if a button is held since the press
 * that sent serial, on a surface of surface's client, and no grab runs. */
struct server_grab_request {
	struct surface *surface;
	uint32_t serial;
	struct seat_pointer_grab *grab;
	bool started;                   /* set by the seat: the grab runs */
	double x, y;                    /* set with started: the pointer, output coordinates */
};

/* An input event about to reach the seat (events.input). */
struct server_input {
	const struct dispman_input_event *ev;
	bool consumed;                  /* set by a listener: not delivered */
};

/*
 * One served output: its dispman_output, its wl_output global and place in the layout, and
 * its own frame cycle (each output flips at its own pace). output.c makes and frees them;
 * scene.c runs their frames.
 */
struct output {
	struct server *srv;
	struct dispman_output *out;     /* the caller's (dispman_wayland_add_output()) */
	uint32_t id;                    /* 1, 2, ... in the order added; reused only by an
					 * output of the same connector plugged in again
					 * (server.gone_ids) */
	struct wl_global *global;       /* wl_output */
	struct wl_list resources;       /* its wl_output resources */
	struct wl_list xdg_resources;   /* its zxdg_output_v1 resources */
	int32_t x, y;                   /* its place in the layout (logical coordinates) */
	int32_t width, height;          /* the viewer's size: the mode turned by the transform */
	uint32_t refresh_mhz;
	bool flip_pending;
	bool flip_done;                 /* a flip arrived during the device's dispatch */
	uint64_t flip_seq;
	struct timespec flip_time;
	bool dirty;                     /* the scene changed since its last repaint */
	bool blanked;                   /* idle.c turned the output off: no repaint */
	uint32_t blank_w, blank_h, blank_mhz; /* idle.c: its mode when it was blanked */
	bool disconnected;              /* the output was unplugged: no repaint */
	bool hotplugged;                /* served by the compositor itself when it was plugged
					 * in (serve_new_outputs): removed when it is unplugged */
	struct wl_list frames_inflight; /* wl_callback: in its committed frame */
	struct wl_list fb_inflight;     /* feedback.link */
	/* extended layout of several outputs: committed by surfaces it shows, for its next
	 * frame (surface.c, scene.c); the others wait in the server's lists */
	struct wl_list frames_waiting;  /* wl_callback */
	struct wl_list fb_waiting;      /* feedback.link */
	struct wl_list mirror_layers;   /* scene.c's mirror_layer.link (mirror layout) */
	struct wl_list link;            /* server.output_list */
};

struct server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct dispman_device *dev;
	/* The first output's dispman_output, size and refresh (the one toplevels go on by
	 * default, screencopy and the seat's first target): output.c keeps them current. */
	struct dispman_output *out;
	int32_t width, height;          /* its viewer's size */
	uint32_t refresh_mhz;
	struct wl_list output_list;     /* output.link, in the order added */
	uint32_t next_output_id;
	/* output.c's: the ids of outputs served since a hotplug and unplugged since, by
	 * connector name, so that the connector plugged in again gets its id back (and the
	 * toplevels that asked for it with set_fullscreen go back to it) */
	struct gone_id {
		char name[32];
		uint32_t id;
	} gone_ids[8];
	enum dispman_wayland_layout layout;
	/* wayland.c's: serve outputs plugged in at run time (dispman_wayland_serve_new_outputs()),
	 * added and removed from an idle callback after the hotplug */
	bool serve_new_outputs;
	struct wl_event_source *outputs_idle;
	struct wl_list gone_globals;    /* output.c's: wl_output globals removed, destroyed later */
	/* output.c's: the pointer in the extended layout (the input's own position is on one
	 * output), valid once a pointer event came (virtual-pointer.c sets it first for an
	 * absolute motion onto a named output) */
	double pointer_lx, pointer_ly;
	bool pointer_in_layout;
	struct wl_event_source *dev_source;
	struct wl_event_source *idle;
	bool dirty;
	bool repainting;                /* scene.c is placing surfaces and committing */
	/* how toplevels are placed (dispman_wayland_set_window_policy()) */
	enum dispman_wayland_window_policy policy;
	/* The scene's repaint, run from an idle callback (server_schedule_repaint()). */
	void (*repaint)(struct server *srv);
	struct late_repaint *late;      /* repaint.c's, NULL: repaints run at once */

	struct wl_list surfaces;        /* surface.link */
	struct wl_list toplevels;       /* shell_surface.link, bottom to top */
	struct wl_list buffers;         /* buffer.link */
	struct wl_list orphan_slots;    /* shm_slot.link: of gone surfaces, still on screen */
	/* committed, not yet in a repaint: the first output to repaint takes them into its
	 * frame (output.frames_inflight, .fb_inflight) */
	struct wl_list frames_waiting;  /* wl_callback */
	struct wl_list fb_waiting;      /* feedback.link */

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
		/* a client asks for a pointer grab (data: struct server_grab_request) */
		struct wl_signal grab_request;
	} events;
	struct wl_listener shm_surface_destroy; /* shm.c's */
	struct wl_listener surface_map; /* output.c's: wl_surface.enter/leave */
	struct wl_listener scene_surface_destroy; /* scene.c's: mirror layers */
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
	struct vt_switch *vt_switch;    /* vt-switch.c's, or NULL (off) */

	struct dispman_wayland_stats stats;
	unsigned layers;
};

/* Marks the scene dirty on every output and runs srv->repaint from an idle callback, unless
 * every output has a flip pending (each flip's end repaints its output then) or one is
 * already scheduled. */
void server_schedule_repaint(struct server *srv);

/* The same for every output but except (the mirrors of what except just showed). */
void server_schedule_others(struct server *srv, struct output *except);

/* Posts a protocol error on res (the client is disconnected) and counts it. */
void server_post_error(struct server *srv, struct wl_resource *res, uint32_t code,
	const char *fmt, ...) PRINTF_ATTR(4, 5);

/* wl_list_remove() of a resource's link, as a resource destructor. */
void server_unlink_resource(struct wl_resource *res);

#endif
