/* SPDX-License-Identifier: MIT */
/* An output: connector, modes, pending and committed state, frames, pacing (output.c). */
#ifndef DISPMAN_OUTPUT_H
#define DISPMAN_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <xf86drmMode.h>

#include <dispman/dispman.h>

#include "list.h"
#include "props.h"

struct compositor;
struct crtc;
struct dispman_buffer;
struct dispman_device;
struct dispman_layer;

#define MAX_SHOWN 32
#define MAX_SCENE 32

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
	/* output-pace.c: frame callbacks at most once per vblank slot (TIMESTAMP clock) */
	int64_t flip_slot;               /* vblank slot of the flip being notified */
	int64_t cb_slot;                 /* slot of the last frame callback run */
	int64_t cb_pending_slot;         /* slot the deferred callback is for */
	bool cb_deferred;                /* a frame callback waits for the pace timer */
	int pace_fd;                     /* timerfd, -1 until first needed */
	struct event_source *pace_source;
};

struct dispman_output *output_create(struct dispman_device *dev, drmModeConnector *conn);
/* Free the output; its layers (layer_destroy_all()) and compositor (compose_destroy())
 * are destroyed first, by the device (lifecycle.c). */
void output_destroy(struct dispman_output *out);
bool output_needs_modeset(struct dispman_output *out);
/* buf is in the output's committed frame not yet flipped, or on its screen. */
bool output_holds_buffer(const struct dispman_output *out, const struct dispman_buffer *buf);
/* The refresh period of the output's current mode in ns, or 0 when it has none. */
uint64_t output_period_ns(const struct dispman_output *out);
/*
 * The flip event of crtc_id was read (the flip handler): if it completes this output's
 * pending flip, note it (flip_done, its sequence and time) and return true. Only records:
 * output_flip_complete() handles it once drmHandleEvent() returned.
 */
bool output_flip_event(struct dispman_output *out, uint32_t crtc_id, uint64_t seq,
	const struct timespec *ts);
/* Page flip completed (out->flip_done): the queued frame goes on screen; pacing counted. */
void output_flip_complete(struct dispman_output *out);
/* After output_flip_complete(): the shown and frame callbacks. */
void output_flip_notify(struct dispman_output *out);
/*
 * After output_flip_notify() and the commits its callbacks asked for: release the buffers
 * that left the screen with the flip, unless a frame committed since holds them again.
 */
void output_flip_release(struct dispman_output *out);
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

/*
 * output-pace.c. On a driver whose flips do not wait for a vblank (no vblank counter, the
 * pacing clock is TIMESTAMP: virtio-gpu completes a flip that changes nothing at once),
 * a frame callback runs at most once per vblank slot of the mode: one due in a slot that
 * already had its callback waits for the next slot's time on a timer. Elsewhere it runs
 * at once. Returns true when the caller runs the callback now.
 */
bool output_pace_frame(struct dispman_output *out);
/* Drop a deferred frame callback and the timer (output destroyed). */
void output_pace_finish(struct dispman_output *out);

#endif
