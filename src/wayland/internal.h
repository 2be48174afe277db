/* SPDX-License-Identifier: MIT */
/* dispman-wayland internals: the compositor's objects, shared by the files of src/wayland. */
#ifndef DISPMAN_WAYLAND_INTERNAL_H
#define DISPMAN_WAYLAND_INTERNAL_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include <dispman/dispman.h>
#include <dispman/input.h>
#include <dispman/wayland.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PRINTF_ATTR(a, b) __attribute__((format(printf, a, b)))

/* log.c of the library is private: the compositor logs through its own helper, which
 * goes to the same handler (dispman_log_set_handler) via a va_list trampoline. */
void kiosk_log(enum dispman_log_level level, const char *fmt, ...) PRINTF_ATTR(2, 3);
#define klog(level, fmt, ...) kiosk_log(level, "[%s:%d] " fmt, __FILE__, __LINE__, ##__VA_ARGS__)

struct kserver;
struct ksurface;

/* A rectangle in integer coordinates; empty when w or h is 0. */
struct krect {
	int32_t x, y, w, h;
};

void krect_union(struct krect *a, const struct krect *b);
void krect_clip(struct krect *a, int32_t w, int32_t h);

enum kbuffer_type {
	KBUFFER_SHM,
	KBUFFER_DMABUF,
	KBUFFER_SINGLE_PIXEL,
};

/*
 * One wl_buffer. holds counts the reasons the compositor still reads it: the surfaces
 * whose current state names it, and (dmabuf, single-pixel) the frame on screen, or (shm)
 * the dumb copies of it on screen. wl_buffer.release is sent when holds drops to 0. The
 * struct lives until both the resource is gone and holds is 0.
 */
struct kbuffer {
	struct kserver *srv;
	struct wl_resource *resource;   /* NULL once the client destroyed it */
	struct wl_listener destroy;
	enum kbuffer_type type;
	int32_t width, height;
	struct dispman_buffer *dbuf;    /* dmabuf and single-pixel: imported once */
	bool opaque;                    /* format without alpha */
	unsigned holds;
	bool committed;                 /* committed since the last release */
	bool on_screen;                 /* dbuf holds one reference on screen */
	struct wl_list link;            /* kserver.buffers */
};

struct kbuffer *kbuffer_from_resource(struct kserver *srv, struct wl_resource *res);
void kbuffer_hold(struct kbuffer *b);
void kbuffer_unhold(struct kbuffer *b);
/* dmabuf: create the resource for an imported buffer. NULL on ENOMEM. */
struct kbuffer *kbuffer_create_dmabuf(struct kserver *srv, struct wl_client *client, uint32_t id,
	struct dispman_buffer *dbuf);
void kbuffer_screen_committed(struct kbuffer *b);

/* A dumb copy of a surface's shm content (one of a few per surface). */
struct kslot {
	struct ksurface *surface;       /* NULL: orphaned, freed at its release */
	struct dispman_buffer *dbuf;
	struct krect stale;             /* what must be copied before it is shown again */
	bool on_screen;
	struct kbuffer *source;         /* the shm buffer copied in, held while on screen */
	struct wl_list link;            /* ksurface.slots */
};

#define KSLOTS_MAX 4

struct kstate {
	bool attached;                  /* wl_surface.attach was called */
	struct kbuffer *buffer;         /* held (pending, cached and current alike) */
	bool scale_set;
	int32_t dx, dy;
	struct krect damage;            /* buffer coordinates, accumulated */
	bool damage_all;
	struct wl_list frames;          /* wl_callback resources */
	struct wl_list feedbacks;       /* kfeedback.link */
	int32_t scale;
	/* viewport: -1 unset */
	double src_x, src_y, src_w, src_h;
	int32_t dst_w, dst_h;
	bool viewport_changed;
};

enum ksurface_role {
	KROLE_NONE,
	KROLE_XDG_TOPLEVEL,
	KROLE_XDG_POPUP,
	KROLE_SUBSURFACE,
	KROLE_CURSOR,
};

struct ksubsurface;
struct kxdg_surface;

/* One entry of a surface's stack: the surface itself, or one of its subsurfaces. */
struct kstack_entry {
	struct ksurface *surface;
	struct wl_list link;
};

struct ksurface {
	struct kserver *srv;
	struct wl_resource *resource;
	struct kstate pending, current;
	enum ksurface_role role;
	struct kxdg_surface *xdg;       /* toplevel or popup role object */
	struct ksubsurface *sub;        /* subsurface role object */
	struct wl_resource *viewport;

	/* Stacking of this surface with its subsurfaces, bottom to top: kstack_entry.link.
	 * self sits in it for the surface's own content. */
	struct wl_list stack;
	struct kstack_entry self;

	struct dispman_layer *layer;
	struct dispman_buffer *shown;   /* what the layer was last given */
	struct wl_list slots;           /* kslot.link */
	int32_t slots_w, slots_h;
	uint32_t slots_format;
	/* what the layer was last given (its setters mark the scene's shape changed) */
	uint32_t l_src[4];
	int32_t l_dst[4];
	int l_z;
	/* geometry of the last repaint, output coordinates */
	int32_t x, y, w, h;
	bool mapped;
	bool zero_copy;                 /* last repaint put a client dma-buf on a plane */
	bool content_changed;           /* a buffer or damage was committed since the repaint */
	struct wl_list link;            /* kserver.surfaces */
	struct wl_signal destroy_signal;
};

struct ksubsurface {
	struct wl_resource *resource;
	struct ksurface *surface, *parent;
	int32_t x, y;
	bool sync;
	bool has_cache;
	struct kstate cached;
	struct kstack_entry entry;      /* in parent->stack */
};

struct kxdg_surface {
	struct wl_resource *resource;   /* xdg_surface */
	struct wl_resource *role_resource; /* xdg_toplevel or xdg_popup */
	struct ksurface *surface;
	struct kserver *srv;
	bool configured;
	uint32_t configure_serial;
	bool popup;
	struct ksurface *parent;        /* popups */
	int32_t px, py;                 /* popup position relative to the parent */
	struct wl_list link;            /* kserver.toplevels (toplevels and popups) */
};

struct kfeedback {
	struct wl_resource *resource;
	struct ksurface *surface;
	bool zero_copy;
	struct wl_list link;
};

/* seat.c */
struct kseat;

struct kserver {
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

	struct wl_list surfaces;        /* ksurface.link */
	struct wl_list toplevels;       /* kxdg_surface.link, bottom to top */
	struct wl_list buffers;         /* kbuffer.link */
	struct wl_list orphan_slots;    /* kslot.link: of gone surfaces, still on screen */
	struct wl_list frames_waiting;  /* wl_callback: committed, not yet in a repaint */
	struct wl_list frames_inflight; /* in the committed frame */
	struct wl_list fb_waiting;      /* kfeedback */
	struct wl_list fb_inflight;
	struct wl_list outputs;         /* wl_output resources */

	struct kseat *seat;
	struct wl_global *dmabuf_global;
	int format_table_fd;
	uint32_t format_table_size;
	uint32_t n_formats;
	struct kformat {
		uint32_t format;
		uint32_t pad;
		uint64_t modifier;
	} *formats;
	uint16_t *scanout_idx;          /* indices into formats of the scanout tranche */
	uint32_t n_scanout;
	dev_t main_device;

	struct dispman_wayland_stats stats;
	unsigned layers;
};

/* server.c */
void kserver_schedule_repaint(struct kserver *srv);
void ksurface_unmap(struct ksurface *s);
struct ksurface *kserver_surface_at(struct kserver *srv, double x, double y, double *sx,
	double *sy);
struct ksurface *kserver_top_toplevel(struct kserver *srv);

/* surface.c */
int surface_init_globals(struct kserver *srv);
struct ksurface *ksurface_from_resource(struct wl_resource *res);
void kstate_init(struct kstate *st);
void kstate_finish(struct kstate *st);
void ksurface_commit_state(struct ksurface *s, struct kstate *from);
bool ksurface_is_mapped(struct ksurface *s);
void ksurface_post_viewport_errors(struct ksurface *s, struct kstate *st);

/* xdg.c */
int xdg_init_global(struct kserver *srv);
void xdg_surface_committed(struct ksurface *s);

/* buffer.c */
int buffer_init_globals(struct kserver *srv);
void buffer_finish(struct kserver *srv);
void kslot_release_all(struct ksurface *s);
/* Copy the surface's shm buffer (damage only) into a free dumb slot: the buffer to show,
 * or NULL (logged) when no dumb buffer could be made. */
struct dispman_buffer *surface_upload_shm(struct ksurface *s);
void kslots_committed(struct ksurface *s);

/* dmabuf.c */
int dmabuf_init_global(struct kserver *srv);
void dmabuf_finish(struct kserver *srv);

/* seat.c */
int seat_init(struct kserver *srv);
void seat_finish(struct kserver *srv);
int seat_set_input(struct kserver *srv, struct dispman_input *input);
void seat_surface_destroyed(struct kserver *srv, struct ksurface *s);
void seat_focus_changed(struct kserver *srv);

/* presentation.c */
int presentation_init_global(struct kserver *srv);

#endif
