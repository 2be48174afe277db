/* SPDX-License-Identifier: MIT */
#ifndef DISPMAN_PRIVATE_H
#define DISPMAN_PRIVATE_H

#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include <dispman/dispman.h>

#include "plan.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Linux 6.8 uapi, missing from older libdrm headers */
#define CLIENT_CAP_CURSOR_PLANE_HOTSPOT 6

/* ---- log.c ---- */

#define DISPMAN_PRINTF(a, b) __attribute__((format(printf, a, b)))

void log_print(enum dispman_log_level level, const char *fmt, ...) DISPMAN_PRINTF(2, 3);
bool log_enabled(enum dispman_log_level level);

/* Both keep errno intact. */
#define dispman_log(level, fmt, ...) \
	log_print(level, "[%s:%d] " fmt, __FILE__, __LINE__, ##__VA_ARGS__)
#define dispman_log_errno(level, err, fmt, ...) \
	log_print(level, "[%s:%d] " fmt ": %s", __FILE__, __LINE__, ##__VA_ARGS__, \
		strerror(err))

/* ---- list (intrusive, doubly linked) ---- */

struct list {
	struct list *prev, *next;
};

static inline void list_init(struct list *l)
{
	l->prev = l->next = l;
}

static inline void list_insert_tail(struct list *head, struct list *elm)
{
	elm->next = head;
	elm->prev = head->prev;
	head->prev->next = elm;
	head->prev = elm;
}

static inline void list_remove(struct list *elm)
{
	elm->prev->next = elm->next;
	elm->next->prev = elm->prev;
	elm->prev = elm->next = elm;
}

static inline bool list_empty(const struct list *l)
{
	return l->next == l;
}

#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#define list_for_each_safe(pos, tmp, head) \
	for (pos = (head)->next, tmp = pos->next; pos != (head); pos = tmp, tmp = pos->next)

/* ---- props.c ---- */

struct connector_props {
	uint32_t crtc_id;
	uint32_t dpms;
	uint32_t link_status;
	uint32_t writeback_fb_id;
	uint32_t writeback_out_fence_ptr;
	uint32_t writeback_pixel_formats;
};

struct crtc_props {
	uint32_t active;
	uint32_t mode_id;
	uint32_t out_fence_ptr;
	uint32_t vrr_enabled;
};

struct plane_props {
	uint32_t alpha;
	uint32_t crtc_h;
	uint32_t crtc_id;
	uint32_t crtc_w;
	uint32_t crtc_x;
	uint32_t crtc_y;
	uint32_t fb_id;
	uint32_t hotspot_x;     /* virtualized cursor planes (virtio-gpu, vmwgfx, qxl) */
	uint32_t hotspot_y;
	uint32_t in_fence_fd;
	uint32_t in_formats;
	uint32_t pixel_blend_mode;
	uint32_t rotation;
	uint32_t src_h;
	uint32_t src_w;
	uint32_t src_x;
	uint32_t src_y;
	uint32_t type;
	uint32_t zpos;
};

int props_get_connector(int fd, uint32_t id, struct connector_props *props);
int props_get_crtc(int fd, uint32_t id, struct crtc_props *props);
int props_get_plane(int fd, uint32_t id, struct plane_props *props);
/* Current value of a property by name; -ENOENT when the object has none by that name. */
int props_get_value(int fd, uint32_t obj_id, uint32_t obj_type, const char *name,
	uint64_t *value);
/* Value of an enum entry of property prop_id; -ENOENT when absent. */
int props_get_enum_value(int fd, uint32_t prop_id, const char *name, uint64_t *value);
/* Whether the property is immutable (read-only); false when unknown. */
bool props_is_immutable(int fd, uint32_t prop_id);

/* ---- event.c ---- */

/* Returns the number of events handled, or a negative errno. */
typedef int (*event_source_func)(int fd, uint32_t events, void *data);

struct event_source {
	struct dispman_device *dev;
	int fd;
	uint32_t events;
	event_source_func func;
	void *data;
	struct list link; /* dispman_device.event_sources */
};

/* fd stays owned by the caller; remove the source before closing it. */
struct event_source *event_source_add(struct dispman_device *dev, int fd, uint32_t events,
	event_source_func func, void *data);
void event_source_remove(struct event_source *source);
int event_init(struct dispman_device *dev);
void event_finish(struct dispman_device *dev);
/* Handle DRM events only (page flips), waiting up to timeout_ms. */
int drm_dispatch(struct dispman_device *dev, int timeout_ms);
/*
 * Wait until the output has no page flip pending, at most timeout_ms, handling DRM events
 * (frame callbacks run; their commits follow the usual rules). Returns 0, -ETIMEDOUT
 * (logged, naming the output) or another negative errno.
 */
int output_wait_flip(struct dispman_output *out, int timeout_ms);
/*
 * Run the commits queued while flips were pending (or while commits were held), for the
 * outputs whose flips have completed. The one place queued commits run from: after each
 * batch of DRM events, and when a hold ends.
 */
void device_run_queued(struct dispman_device *dev);

/* Arm (true) or disarm the timer that retries DRM master every 500 ms while paused. */
void master_timer_set(struct dispman_device *dev, bool on);

/* ---- plane.c ---- */

struct plane {
	uint32_t id;
	int type; /* DRM_PLANE_TYPE_* */
	uint32_t possible_crtcs;
	struct plane_props props;
	struct plan_format *formats; /* (format, modifier) pairs */
	size_t n_formats;
	bool zpos_mutable;
	uint64_t blend_values[3]; /* indexed by enum dispman_blend_mode */
	bool has_blend[3];

	/* committed state */
	uint32_t cur_crtc_id;
	uint32_t cur_fb_id;
	/* state of the request being built */
	struct dispman_output *pending_output;
	struct dispman_layer *pending_layer;
	unsigned pending_zpos;
	/* alloc.c: zpos range, read on first use */
	bool zpos_read;
	uint64_t zpos_min, zpos_max;
};

int plane_init(struct dispman_device *dev, struct plane *plane, uint32_t id);
void plane_finish(struct plane *plane);
bool plane_has_format(const struct plane *plane, uint32_t format);
/* modifier DRM_FORMAT_MOD_INVALID matches any modifier of the format. */
bool plane_has_format_modifier(const struct plane *plane, uint32_t format, uint64_t modifier);
const char *plane_type_name(int type);

/* ---- device.c ---- */

struct crtc {
	uint32_t id;
	unsigned index;
	struct crtc_props props;
	struct dispman_output *user; /* output using it in the pending state, or NULL */
	uint32_t cur_mode_blob; /* current MODE_ID blob id when created by us */
	bool cur_active;
};

struct writeback {
	uint32_t connector_id;
	uint32_t possible_crtcs;
	struct connector_props props;
};

struct dispman_device {
	int fd;
	char path[256];            /* the node opened, "" when unknown */
	struct seat *seat;         /* the libseat seat the nodes came from, or NULL (seat.h) */
	bool seat_disabled;        /* the seat is disabled: paused, master not retried */
	int epoll_fd;
	bool addfb2_modifiers;
	bool writeback_cap;
	bool cursor_hotspot_cap;   /* DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT set */
	bool paused;
	bool commit_queued;        /* a whole-device commit waits for every flip */
	bool commit_full;          /* the request being built covers every output */
	int commit_hold;           /* > 0: commits are queued, not made (capture) */
	bool shape_dirty;
	bool force_modeset;
	unsigned next_layer_serial; /* layer.c: creation order of the device's layers */
	struct dispman_limits limits;
	struct dispman_stats stats;
	/* alloc.c: search budget (0: default) and what the kernel taught us */
	unsigned alloc_max_tests;
	unsigned alloc_max_usec;
	size_t alloc_plane_cap;    /* most planes per CRTC accepted after ENOSPC, 0: unknown */
	bool alloc_no_scaling;     /* a TEST_ONLY commit refused scaled planes */
	bool alloc_reused;         /* this frame reuses the committed assignment: FB_IDs only */
	/* layer setters: only source/destination rectangles changed since the last commit */
	bool geometry_dirty;
	bool alloc_geometry;       /* this frame writes new rectangles on the same assignment */
	bool alloc_stale;          /* a layer off the planes moved: search once it stops */

	struct crtc *crtcs;
	size_t n_crtcs;
	struct plane *planes;
	size_t n_planes;
	struct dispman_output **outputs;
	size_t n_outputs;
	struct writeback *writebacks;
	size_t n_writebacks;

	struct event_source *drm_source;
	struct list event_sources; /* event_source.link */
	struct list dead_sources;  /* event_source.link: removed during dispatch, freed after */
	int dispatch_depth;
	struct list listeners;     /* device_listener.link */
	/* hotplug (udev.c) and DRM master (device.c, event.c) */
	struct hotplug *hotplug;   /* NULL without a udev monitor */
	dispman_output_callback output_cb;
	void *output_data;
	int master_timer_fd;
	struct event_source *master_timer_source;
	int64_t master_try_ms;     /* CLOCK_MONOTONIC ms of the last drmSetMaster() while paused */
	struct list buffers;       /* dispman_buffer.link */
	int events_handled;        /* counter used during dispatch */

#if HAVE_GBM
	struct gbm_device *gbm;
#endif
};

struct crtc *device_find_crtc(struct dispman_device *dev, uint32_t id);

/*
 * Modules that keep pointers into a device (input.c) hear about its teardown here: the
 * device calls destroyed() first thing in dispman_device_destroy(), before anything is
 * freed (the listener must forget the device: remove its event sources, drop layer
 * pointers), and layer_destroyed() (may be NULL) before a layer is freed.
 */
struct device_listener {
	void (*destroyed)(struct device_listener *l);
	void (*layer_destroyed)(struct device_listener *l, struct dispman_layer *layer);
	/* The seat was disabled (false) or enabled again (true); may be NULL. */
	void (*seat_changed)(struct device_listener *l, bool enabled);
	struct list link; /* dispman_device.listeners */
};

void device_add_listener(struct dispman_device *dev, struct device_listener *l);
void device_remove_listener(struct device_listener *l);
void device_notify_layer_destroyed(struct dispman_device *dev, struct dispman_layer *layer);
void device_notify_seat(struct dispman_device *dev, bool enabled);
/*
 * While paused: try drmSetMaster() (at most every 500 ms unless force); on success leave
 * the paused state with a full modeset due. Returns true when no longer paused.
 */
bool device_try_regain_master(struct dispman_device *dev, bool force);
int64_t monotonic_ms(void);

#define MAX_SHOWN 32
#define MAX_SCENE 32

/* ---- output.c ---- */

/* What the library put on one plane in a committed frame: the layer's buffer (referenced)
 * and its effective rectangles, alpha and blend mode then. A scene lists them bottom to
 * top. */
struct scene_entry {
	struct dispman_buffer *buf;
	uint32_t src_x, src_y, src_w, src_h; /* 16.16 */
	int32_t dst_x, dst_y;
	uint32_t dst_w, dst_h;
	uint16_t alpha;
	enum dispman_blend_mode blend;
};

struct scene {
	struct scene_entry e[MAX_SCENE];
	size_t n;
	bool valid; /* a frame committed by the library (n may be 0: nothing on a plane) */
};

struct mode_entry {
	struct dispman_mode pub;
	drmModeModeInfo info;
};


struct dispman_output {
	struct dispman_device *dev;
	uint32_t connector_id;
	uint32_t connector_type;
	char name[64];
	enum dispman_connection status;
	uint32_t mm_width, mm_height;
	struct mode_entry *modes;
	size_t n_modes;
	uint32_t possible_crtcs;
	struct connector_props props;
	uint32_t initial_crtc_id; /* CRTC driving the connector when we opened it */

	/* pending state */
	bool enabled;
	struct mode_entry *mode;
	struct crtc *crtc;
	struct list layers;              /* dispman_layer.link, creation order */
	struct dispman_layer *base_layer;/* for dispman_output_set_buffer() */
	struct compositor *comp;         /* compose.c: CPU composition, NULL until needed */

	/* committed state */
	bool active;
	struct crtc *cur_crtc;
	drmModeModeInfo cur_mode;
	uint32_t new_mode_blob;          /* prepared for the request being built */

	/* frames */
	bool flip_pending;
	uint32_t flip_crtc_id;            /* CRTC whose flip event completes the frame */
	bool flip_done;                   /* its event was read, not handled yet */
	bool flip_notify;                 /* on screen, its callbacks not run yet */
	uint64_t flip_seq;                /* of that event */
	struct timespec flip_ts;
	bool commit_queued;               /* a commit waits for this output's flip */
	bool want_commit;                 /* scratch: asked for in the commit being made */
	bool committing;                  /* in the request being built */
	struct scene queued_scene;        /* the planes of the committed frame not yet flipped */
	struct scene shown_scene;         /* the planes of the frame on screen */
	struct dispman_buffer *old_shown[MAX_SHOWN]; /* left the screen with the flip handled */
	size_t n_old_shown;
	struct dispman_buffer *queued[MAX_SHOWN]; /* in the committed frame not yet flipped */
	size_t n_queued;
	struct dispman_buffer *shown[MAX_SHOWN];  /* on screen now */
	size_t n_shown;
	dispman_frame_callback frame_cb;
	void *frame_data;

	/* hotplug: the output was enabled when its connector went away */
	bool restore_enabled;
	drmModeModeInfo restore_mode;
	/* pacing */
	struct dispman_output_stats pacing;
	struct timespec commit_time;     /* when the frame in flight was committed */
	bool pacing_run;                 /* pacing.last_* describe the previous flip */
	int64_t pacing_t0_ns;            /* TIMESTAMP clock: first flip of the run */
	int64_t pacing_slot;             /* TIMESTAMP clock: vblank slot of the last counted flip */
};

struct dispman_output *output_create(struct dispman_device *dev, drmModeConnector *conn);
void output_destroy(struct dispman_output *out);
bool output_needs_modeset(struct dispman_output *out);
/* Page flip completed (out->flip_done): the queued frame goes on screen; pacing counted. */
void output_flip_complete(struct dispman_output *out);
/* After output_flip_complete(): shown and frame callbacks, then release the buffers that
 * left the screen. */
void output_flip_notify(struct dispman_output *out);
/* Drop the references of a scene. */
void scene_clear(struct scene *scene);
/* Drop every buffer reference the output keeps for the screen. */
void output_release_all(struct dispman_output *out);
/*
 * Take a re-probed connector's status, modes and size. Returns the event to report
 * (DISPMAN_OUTPUT_*) or 0 when nothing changed; -ENOMEM leaves the output as it was.
 */
int output_update(struct dispman_output *out, drmModeConnector *conn);
/*
 * Pacing counters of a flip (seq and ts of its event) against the previous one and the
 * frame's commit time (out->commit_time); called by output_flip_complete().
 */
void output_count_pacing(struct dispman_output *out, uint64_t seq, const struct timespec *ts);
/* A frame was committed (apply_success): note its time for pacing. */
void output_frame_committed(struct dispman_output *out, bool modeset);
const char *connector_type_name(uint32_t type);

/* ---- buffer.c ---- */

enum buffer_kind {
	BUFFER_DUMB,
	BUFFER_GBM,
	BUFFER_DMABUF,
};

struct format_info {
	uint32_t fourcc;
	uint8_t n_planes;
	uint8_t cpp[3];  /* bytes per pixel (per block for packed YUV) in each plane */
	uint8_t hsub, vsub;
	bool has_alpha;
};

const struct format_info *format_info_find(uint32_t fourcc);

typedef void (*buffer_shown_func)(struct dispman_buffer *buf, const struct timespec *ts,
	void *data);

struct dispman_buffer {
	struct dispman_device *dev; /* NULL once the device is destroyed */
	int refcount;
	enum buffer_kind kind;
	uint32_t width, height, format;
	uint64_t modifier;
	uint32_t n_planes;
	uint32_t handles[4];
	uint32_t pitches[4];
	uint32_t offsets[4];
	int fds[4];          /* owned dup'ed fds of an import, -1 otherwise */
	bool owns_handles;   /* close GEM handles on free (not for GBM) */
	uint32_t fb_id;
	void *map;
	size_t map_size;
	uint64_t dumb_size;
#if HAVE_GBM
	struct gbm_bo *bo;
#endif
	dispman_buffer_release_callback release_cb;
	void *release_data;
	/* internal: a page flip put the buffer on screen (camera latency) */
	buffer_shown_func shown_cb;
	void *shown_data;
	struct list link; /* dispman_device.buffers */
};

/*
 * dispman_buffer_import_dmabuf() for a caller with a fallback: the kernel refusing the
 * import (PRIME import, AddFB2) is logged at kernel_level instead of as an error.
 */
struct dispman_buffer *buffer_import_dmabuf(struct dispman_device *dev,
	const struct dispman_dmabuf_desc *desc, enum dispman_log_level kernel_level);
/* Free kernel resources of all buffers still alive (device teardown). */
void buffer_orphan_all(struct dispman_device *dev);
void buffer_release(struct dispman_buffer *buf);
/* Internal hook called from the page-flip handler when a flip put buf on screen. */
void buffer_set_shown_callback(struct dispman_buffer *buf, buffer_shown_func cb, void *data);

/* ---- layer.c ---- */

struct dispman_layer {
	struct dispman_output *out;
	struct dispman_buffer *buf;
	bool src_set, dst_set;
	uint32_t src_x, src_y, src_w, src_h; /* 16.16 */
	int32_t dst_x, dst_y;
	uint32_t dst_w, dst_h;
	int z;
	int32_t hot_x, hot_y;  /* cursor hotspot in buffer pixels (HOTSPOT_X/Y) */
	uint16_t alpha;
	enum dispman_blend_mode blend;
	bool visible;
	unsigned serial; /* creation order */
	struct dispman_placement placement;
	struct plane *plane; /* pending plane in the request being built */
	struct list link;    /* dispman_output.layers */
	/* alloc.c / compose.c */
	unsigned content_serial;  /* bumped by every dispman_layer_set_buffer() */
	unsigned rate_serial;     /* content_serial seen by the last commit */
	unsigned update_rate;     /* 0..256: how often the buffer changes per commit (EMA) */
	unsigned composed_serial; /* content_serial in the composition buffer */
	bool composited;          /* drawn into the composition buffer */
	/* camera copy path: its buffer holds a CPU copy, and why (FORMAT: no plane takes the
	 * camera's format; IMPORT: the display and the camera share no memory); else NONE */
	enum dispman_placement_reason copy_reason;
	bool geom_dirty;          /* rectangles changed since the last accepted commit */
	int32_t composed_box[4];  /* compose.c: x1, y1, x2, y2 where it was last drawn */
};

/* Effective rectangles (defaults applied). */
void layer_get_src(const struct dispman_layer *layer, uint32_t *x, uint32_t *y, uint32_t *w,
	uint32_t *h);
void layer_get_dst(const struct dispman_layer *layer, int32_t *x, int32_t *y, uint32_t *w,
	uint32_t *h);
void layer_destroy_internal(struct dispman_layer *layer);

/* ---- commit.c ---- */

struct atomic_req {
	drmModeAtomicReq *req;
	int failed; /* sticky: first error, 0 if none */
};

int req_init(struct atomic_req *r);
void req_finish(struct atomic_req *r);
void req_add(struct atomic_req *r, uint32_t obj_id, uint32_t prop_id, uint64_t value);
/* Commit with retries on EINTR/EAGAIN; counts stats. Returns 0 or -errno. */
int req_commit(struct dispman_device *dev, struct atomic_req *r, uint32_t flags, void *user_data);
bool commit_error_is_answer(int err);
/* Handle EACCES/EPERM: pause and log once. Returns true if err was a master loss. */
bool device_check_master_lost(struct dispman_device *dev, int err);
/* Commit every output (only NULL) or one output; see dispman_device_commit(). */
int device_commit_internal(struct dispman_device *dev, struct dispman_output *only);
/* The connector/CRTC state of the outputs in the request (out->committing) and the planes
 * of the current assignment that belong to them. */
void commit_build_request(struct dispman_device *dev, struct atomic_req *r);
/* Whether the request being built covers plane p (all planes when it covers the device). */
bool commit_covers_plane(struct dispman_device *dev, const struct plane *p);

/* ---- alloc.c ---- */

/* Add the plane properties of the current assignment to the request. */
void alloc_apply(struct dispman_device *dev, struct atomic_req *r);
/*
 * Plan the frame: when the scene's shape changed, search an assignment of layers to planes
 * with TEST_ONLY commits (flags: ALLOW_MODESET or 0) within the device's budget, else reuse
 * the previous one; then compose the layers left for the CPU. Returns 0 or -errno.
 */
int alloc_prepare(struct dispman_device *dev, uint32_t flags);
/*
 * Before a commit picks its outputs: when only rectangles changed, check that the
 * committed assignment still holds them; if not, mark the shape dirty (a search, which
 * commits the whole device). Also marks it dirty once rectangles stopped changing after
 * a layer off the planes moved (it may fit a plane now).
 */
void alloc_check_geometry(struct dispman_device *dev);
/*
 * The real commit that followed alloc_prepare() succeeded (true) or was refused. Returns
 * true when the refused commit only moved layers on the previous assignment without a
 * test: then the shape is marked dirty and the caller prepares and commits again at once
 * (a refused atomic commit changed nothing).
 */
bool alloc_done(struct dispman_device *dev, bool ok);

/* ---- compose.c ---- */

/* Whether the CPU compositor can read the buffer (format known to pixman, mappable). */
bool compose_can_read(struct dispman_buffer *buf);
/*
 * The internal layer carrying the output's composition buffer (created on first use, at
 * the mode's size), or NULL with a log line. Owned by the output.
 */
struct dispman_layer *compose_get_layer(struct dispman_output *out);
/*
 * Draw the output's composited layers (layer->composited, sorted bottom to top, n of them)
 * into a free composition buffer, only where something changed since that buffer was
 * drawn; full says the shape changed. Returns 0 or -errno.
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

/* ---- udev.c ---- */

/*
 * Open the card node dispman_device_open(NULL) picks without DISPMAN_DEVICE (the rule is
 * in dispman.h) and write its path into path. Returns an fd or -errno (logged).
 */
struct seat;
int udev_open_default_card(struct seat *seat, char *path, size_t size);
/*
 * Follow DRM hotplug uevents of the device's card (udevd's monitor when udevd runs, else
 * the kernel's netlink group) and call dispman_device_probe() on them. A device whose fd is
 * not a character device (the unit tests' mock) gets no monitor. Returns 0 or -errno;
 * failing to listen is logged and not fatal.
 */
int hotplug_init(struct dispman_device *dev);
void hotplug_finish(struct dispman_device *dev);

#endif
