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

#define MAX_SCENE 32

/* What the library put on one plane in a committed frame: the layer's buffer (held by the
 * output as long as the frame is queued or on screen, not by the entry) and its effective
 * rectangles, alpha and blend mode then. A scene lists them bottom to top. */
struct scene_entry {
	struct dispman_buffer *buf;
	/* the layer it shows (composition layer included): read only to take its buffer in a
	 * later frame that reuses the scene (output_scene_reuse()), never after the layer may
	 * be gone (a destroyed layer changes the shape, and the next scene is a new one) */
	struct dispman_layer *layer;
	uint32_t src_x, src_y, src_w, src_h; /* 16.16 */
	int32_t dst_x, dst_y;
	uint32_t dst_w, dst_h;
	uint16_t alpha;
	enum dispman_blend_mode blend;
	/* src and dst are on the scanout (the mode's space), the source turned by this
	 * (transform_geometry()) */
	enum dispman_transform transform;
};

struct scene {
	struct scene_entry e[MAX_SCENE];
	size_t n;
	bool valid; /* a frame committed by the library (n may be 0: nothing on a plane) */
	/* which scene of the output's (output_scene_start() numbers them): frames that reuse
	 * it (output_scene_reuse()) keep its number; 0: none */
	unsigned gen;
};

/* The output of conn, to be device_output(dev, index) (outputs are only ever appended). */
struct dispman_output *output_create(struct dispman_device *dev, drmModeConnector *conn,
	size_t index);
/* i, where out is device_output(dev, i) (the index of the commit's per-output values). */
size_t output_index(const struct dispman_output *out);
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
/* Page flip completed (output_flip_is_done()): the queued frame goes on screen; pacing counted. */
void output_flip_complete(struct dispman_output *out);
/* After output_flip_complete(): the shown and frame callbacks. */
void output_flip_notify(struct dispman_output *out);
/* A queued commit that covered the output failed with err (< 0): its error callback. */
void output_commit_failed(struct dispman_output *out, int err);
/*
 * After output_flip_notify() and the commits its callbacks asked for: release the buffers
 * that left the screen with the flip, unless a frame committed since holds them again.
 */
void output_flip_release(struct dispman_output *out);
/* Drop every buffer reference the output keeps for the screen. */
void output_release_all(struct dispman_output *out);
/*
 * Take a re-probed connector's status, modes and size. Returns the event to report
 * (DISPMAN_OUTPUT_*) or 0 when nothing changed; -ENOMEM leaves the output as it was.
 */
int output_update(struct dispman_output *out, drmModeConnector *conn);
/*
 * Pacing counters of a flip (seq and ts of its event) against the previous one and the
 * frame's commit time (output_commit_time()); called by output_flip_complete().
 */
void output_count_pacing(struct dispman_output *out, uint64_t seq, const struct timespec *ts);
/* A frame was committed (apply_success) by a commit call that started at begin_ns
 * (CLOCK_MONOTONIC): note its time for pacing. */
void output_frame_committed(struct dispman_output *out, bool modeset, int64_t begin_ns);
const char *connector_type_name(uint32_t type);

/*
 * Reading an output (its body is output-private.h's, for output.c and output-pace.c).
 * Small functions: with LTO they inline into the frame path.
 */
struct dispman_device *output_device(const struct dispman_output *out);
const char *output_name(const struct dispman_output *out);
/* Its transform (dispman_output_set_transform()); set by transform-layer.c alone. */
enum dispman_transform output_transform(const struct dispman_output *out);
void output_set_transform(struct dispman_output *out, enum dispman_transform t);
uint32_t output_connector_id(const struct dispman_output *out);
const struct connector_props *output_props(const struct dispman_output *out);
enum dispman_connection output_status(const struct dispman_output *out);
/* Pending state: enabled (dispman_output_enable()), its CRTC and mode (NULL for none). */
bool output_enabled(const struct dispman_output *out);
struct crtc *output_crtc(const struct dispman_output *out);
const drmModeModeInfo *output_mode(const struct dispman_output *out);
/* Committed state: active on cur_crtc (NULL for none) with cur_mode. */
bool output_active(const struct dispman_output *out);
struct crtc *output_cur_crtc(const struct dispman_output *out);
const drmModeModeInfo *output_cur_mode(const struct dispman_output *out);
/* The layers of the output in creation order (dispman_layer.link); layer.c alone adds
 * and removes them (dispman_layer_create(), layer_destroy_internal()). */
struct list *output_layers(struct dispman_output *out);
/* A flip is pending (committed, not yet on screen), completed by crtc_id's flip event. */
bool output_flip_pending(const struct dispman_output *out);
uint32_t output_flip_crtc_id(const struct dispman_output *out);
/* The flip event was read, output_flip_complete() not run yet (handle_flips()). */
bool output_flip_is_done(const struct dispman_output *out);
/* The flip is on screen, output_flip_notify() not run yet (handle_flips()). */
bool output_flip_notify_due(const struct dispman_output *out);
/* The planes of the frame on screen (capture.c). */
const struct scene *output_shown_scene(const struct dispman_output *out);
/* When the frame in flight was committed (CLOCK_MONOTONIC). */
int64_t output_commit_time(const struct dispman_output *out);

/*
 * State other modules keep in the output, each with one writer.
 *
 * The output's composition (compose.c, struct compositor): set by compose.c alone, when it
 * creates the compositor (compose_get_layer()) and destroys it (compose_destroy()).
 */
struct compositor *output_compositor(const struct dispman_output *out);
void output_set_compositor(struct dispman_output *out, struct compositor *comp);
/* The layer of dispman_output_set_buffer(): set by layer.c alone, when that function
 * creates it and when the layer is destroyed (layer_destroy_internal()). */
struct dispman_layer *output_base_layer(const struct dispman_output *out);
void output_set_base_layer(struct dispman_output *out, struct dispman_layer *layer);
/* The highest of the output's layers that the committed assignment composites (NULL:
 * none), so that a layer on a plane above it that moves needs no walk of the others for
 * its stacking (alloc.c). Set by proposal_record() for each searched assignment, cleared
 * by layer_destroy_internal() for the layer it names. */
struct dispman_layer *output_top_composited(const struct dispman_output *out);
void output_set_top_composited(struct dispman_output *out, struct dispman_layer *layer);
/* A commit waits for this output's flip: set by commit.c alone (set_queued(), which also
 * counts it in struct commit_state; run_queued() clears the marks of the outputs it takes
 * and counts the ones left in the same walk). Which outputs one commit asks for and puts in its
 * request, and their MODE_ID blobs, are that commit's (struct commit_scope, proposal.h),
 * not the output's. */
bool output_commit_queued(const struct dispman_output *out);
void output_set_commit_queued(struct dispman_output *out, bool queued);
/* The commits of this output prepared so far (each alloc_prepare() of a commit that has
 * it in its request, refused ones too): the clock of its layers' update rates
 * (layer_update_rate()). Counted by alloc.c alone. */
unsigned output_prepared_commits(const struct dispman_output *out);
void output_count_prepared(struct dispman_output *out);

/*
 * Recording an accepted commit, by commit.c alone (apply_success()), for an output in it.
 * Enabled: the output is active on its CRTC, with a flip pending there; new_mode: with
 * its pending mode (the MODE_ID blob of the commit). Then output_queue_buffer() for each
 * buffer the frame shows, and the frame's scene: output_scene_start(), then
 * output_scene_push() bottom to top.
 */
void output_record_enabled(struct dispman_output *out, bool new_mode);
/* Disabled (it was active): no CRTC any more, a flip pending on the one it left (returned;
 * NULL when it had none), no queued scene. */
struct crtc *output_record_disabled(struct dispman_output *out);
/* buf (referenced here) is in the committed frame: true; false (ignored) beyond MAX_SHOWN
 * buffers. */
bool output_queue_buffer(struct dispman_output *out, struct dispman_buffer *buf);
/* The queued scene starts again, empty and valid (a frame committed by the library), with
 * a new number (struct scene, gen). */
void output_scene_start(struct dispman_output *out);
/*
 * For a frame that keeps the shape since the output's last recorded frame (the same
 * layers on the same planes in the same order; their rectangles the same, or the caller
 * updates the moved ones' entries and calls output_scene_renew()): the queued scene is the
 * last one the output built (the queued frame's own, when it still holds it, else a copy
 * of the one on screen), valid, with its entries' old buffers for the caller to replace
 * (each entry's layer's buffer now, which the frame must hold). NULL when the output has
 * no such scene: the caller starts a new one (output_scene_start()).
 */
struct scene *output_scene_reuse(struct dispman_output *out);
/*
 * The queued frame holds the buffers of its reused scene (output_scene_reuse(), each entry's
 * buf set): the block of the frame on screen when that one holds the same buffers in the
 * same order (no layer on a plane got a new buffer: nothing is referenced again), else
 * each referenced once for this frame. Instead of output_queue_buffer() for each.
 */
void output_queue_scene(struct dispman_output *out);
/* buf (referenced here), a composited layer's, is in the committed frame, after its scene's
 * buffers: true; false (ignored) beyond MAX_SHOWN such buffers. */
bool output_queue_composited(struct dispman_output *out, struct dispman_buffer *buf);
/*
 * The queued frame, which holds the from buffers of its reused scene, shares the
 * composited layers' buffers of the frame on screen (output_queue_composited()), for a frame
 * that keeps the shape and changed no composited layer: no buffer is referenced again.
 * False (nothing shared) when the frame on screen is not such a frame.
 */
bool output_queue_shown_rest(struct dispman_output *out, size_t from);
/* The reused queued scene got new rectangles: a new number, so that no frame reuses an
 * older copy of it. */
void output_scene_renew(struct dispman_output *out);
/* A new entry on top of the queued scene, for the caller to fill in place; NULL (nothing
 * added) beyond MAX_SCENE. Its buf must be in the committed frame (output_queue_buffer()
 * returned true for it): the scene holds no reference of its own. */
struct scene_entry *output_scene_push(struct dispman_output *out);

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
/* The output's frame was committed by a call that started at begin_ns
 * (output_frame_committed()): its cost and the vblank it aims at, when the cost is learned. */
void output_pace_committed(struct dispman_output *out, bool modeset, int64_t begin_ns);
/* The output's frame flipped (flip_ts set, before output_count_pacing()): did it make the
 * vblank it aimed at; one sample of the commit cost. */
void output_pace_flipped(struct dispman_output *out);

#endif
