/* SPDX-License-Identifier: MIT */
#include "commit.h"

#include <errno.h>

#include "alloc.h"
#include "buffer.h"
#include "clock.h"
#include "compose.h"
#include "crtc.h"
#include "device.h"
#include "layer.h"
#include "log.h"
#include "master.h"
#include "output.h"
#include "proposal.h"
#include "request.h"
#include "transform.h"

#include <stdint.h>
#include <stdlib.h>

/* What commit.c keeps per device between commits (dispman_device.commit: commit_init() to
 * commit_finish()). */
struct commit_state {
	bool all_queued;       /* a whole-device commit waits for every flip */
	size_t outputs_queued; /* outputs whose commit_queued is set */
	int hold;              /* > 0: commits are queued, not made (capture) */
	int defer;             /* > 0: handlers or callbacks run, commits queued */
};

int commit_init(struct dispman_device *dev)
{
	struct commit_state *st = calloc(1, sizeof(*st));
	if (!st) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating the commit state");
		return -ENOMEM;
	}
	device_set_commit_state(dev, st);
	return 0;
}

void commit_finish(struct dispman_device *dev)
{
	free(device_commit_state(dev));
	device_set_commit_state(dev, NULL);
}

/* Outputs of a usual device: one commit's values of them need no allocation. */
#define COMMIT_INLINE_OUTPUTS 16

/*
 * One commit (commit_wanted()): the outputs asked for, and what its request covers (scope,
 * which goes down the frame path with the proposal). A value on the stack of the commit:
 * nothing of it outlives the commit.
 */
struct commit_run {
	struct commit_scope scope;
	bool *want; /* index i is device_output(dev, i): asked for (select_outputs() takes it) */
	struct scope_output inline_outputs[COMMIT_INLINE_OUTPUTS];
	bool inline_want[COMMIT_INLINE_OUTPUTS];
};

static void run_finish(struct commit_run *run)
{
	if (run->scope.outputs != run->inline_outputs)
		free(run->scope.outputs);
	if (run->want != run->inline_want)
		free(run->want);
}

/* A commit of dev's outputs, none asked for yet. -ENOMEM (logged) on a device with more
 * outputs than fit inline when they cannot be allocated. */
static int run_init(struct dispman_device *dev, struct commit_run *run)
{
	size_t n = device_n_outputs(dev);
	bool inl = n <= COMMIT_INLINE_OUTPUTS;
	/* Nothing is cleared (a frame's commit): the caller sets every want[i],
	 * select_outputs() every scope.outputs[i] (in, and mode_blob 0, which
	 * prepare_blobs() sets for a modeset), each before anything reads them. */
	run->scope = (struct commit_scope){ .n_outputs = n,
		.outputs = inl ? run->inline_outputs : calloc(n, sizeof(*run->scope.outputs)) };
	run->want = inl ? run->inline_want : calloc(n, sizeof(*run->want));
	if (!run->scope.outputs || !run->want) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory for a commit of %zu outputs", n);
		run_finish(run);
		return -ENOMEM;
	}
	return 0;
}

/* The blobs of the first n outputs (prepare_blobs() set those) are destroyed. */
static void rollback_blobs(struct dispman_device *dev, struct commit_scope *scope, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct scope_output *o = &scope->outputs[i];
		if (o->mode_blob)
			drmModeDestroyPropertyBlob(device_fd(dev), o->mode_blob);
		o->mode_blob = 0;
	}
}

/* modeset: select_outputs() found an output that needs one (else none needs a blob, and
 * select_outputs() cleared every mode_blob) */
static int prepare_blobs(struct dispman_device *dev, struct commit_scope *scope, bool modeset)
{
	for (size_t i = 0; modeset && i < device_n_outputs(dev); i++) {
		struct dispman_output *out = device_output(dev, i);
		scope->outputs[i].mode_blob = 0;
		if (!scope->outputs[i].in || !output_enabled(out) || !output_needs_modeset(out))
			continue;
		uint32_t blob = 0;
		if (drmModeCreatePropertyBlob(device_fd(dev), output_mode(out),
				sizeof(*output_mode(out)), &blob) != 0) {
			int err = errno ? errno : EINVAL;
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "%s: cannot create MODE_ID blob",
				output_name(out));
			rollback_blobs(dev, scope, i);
			return -err;
		}
		scope->outputs[i].mode_blob = blob;
	}
	return 0;
}

/* output_commit_queued(), counted in outputs_queued (device_run_queued() looks at that) */
static void set_queued(struct dispman_device *dev, struct dispman_output *out, bool queued)
{
	if (output_commit_queued(out) != queued)
		device_commit_state(dev)->outputs_queued += queued ? 1 : (size_t)-1;
	output_set_commit_queued(out, queued);
}

static void scene_add(struct dispman_output *out, struct dispman_layer *layer)
{
	struct scene_entry *e = output_scene_push(out);
	if (!e)
		return;
	e->buf = layer_buffer(layer);
	e->layer = layer;
	e->alpha = layer_alpha(layer);
	e->blend = layer_blend(layer);
	layer_scanout_entry(layer, e); /* on the scanout: the output's transform applied */
}

/* The buffers of out's composited layers, after the scene's (see record_frame()). */
static void queue_composited(struct dispman_output *out)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, output_layers(out)) {
		struct dispman_layer *layer = layer_from_link(pos);
		if (!layer_plane(layer) && layer_composited(layer) && layer_buffer(layer))
			output_queue_composited(out, layer_buffer(layer));
	}
}

/*
 * What the commit queued on the output: the buffers it holds until they leave the screen
 * and its scene, what it puts on the planes bottom to top (the composition buffer, always
 * on the primary below every other plane, then the layers on planes in their stacking
 * order, which the plane assignment keeps). The frame holds the scene's buffers in one
 * block, in its order, and the composited layers' buffers in another, in the layers' order.
 *
 * A frame that keeps the assignment (keep) is the output's last frame with the changes
 * applied: its scene with the layers' new buffers and the moved layers' new rectangles
 * (geometry). It shares the blocks of the frame on screen that it would hold again: the
 * scene's when no layer on a plane got a new buffer, and, when no composited layer changed
 * (same_composited), the composited layers', without a walk of the layers.
 */
static void record_frame(struct dispman_output *out, bool keep, bool geometry,
	bool same_composited)
{
	struct scene *kept = keep ? output_scene_reuse(out) : NULL;
	bool moved = false;
	for (size_t i = 0; kept && i < kept->n; i++) {
		struct scene_entry *e = &kept->e[i];
		e->buf = layer_buffer(e->layer);
		if (!e->buf) {
			kept = NULL; /* not the shape it was: a new scene (output_scene_start()) */
		} else if (geometry && layer_geom_dirty(e->layer)) {
			layer_scanout_entry(e->layer, e);
			moved = true;
		}
	}
	if (kept) {
		if (moved)
			output_scene_renew(out); /* the other frames' copies are older */
		output_queue_scene(out); /* the frame on screen's buffers, when the same */
		if (!same_composited || !output_queue_shown_rest(out, kept->n))
			queue_composited(out);
		return;
	}
	/* a new scene: the layers on planes in stacking order (a handful, usually in order),
	 * above the composition buffer */
	struct dispman_layer *comp = compose_peek_layer(out), *on[MAX_SCENE];
	size_t n = 0;
	if (comp && layer_plane(comp) && layer_buffer(comp))
		on[n++] = comp;
	size_t first = n;
	bool composited = false;
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, output_layers(out)) {
		struct dispman_layer *layer = layer_from_link(pos);
		if (!layer_buffer(layer))
			continue;
		if (layer_plane(layer) && n < MAX_SCENE)
			on[n++] = layer;
		else if (layer_composited(layer))
			composited = true;
	}
	for (size_t j = first + 1; j < n; j++) {
		struct dispman_layer *layer = on[j];
		size_t i = j;
		for (; i > first && layer_below(layer, on[i - 1]); i--)
			on[i] = on[i - 1];
		on[i] = layer;
	}
	output_scene_start(out);
	for (size_t i = 0; i < n; i++)
		if (output_queue_buffer(out, layer_buffer(on[i])))
			scene_add(out, on[i]);
	if (composited)
		queue_composited(out);
}

/* An enabled output's commit was accepted: its CRTC is on (with blob, the new MODE_ID blob,
 * which it now owns; 0: none), the CRTC it leaves is off, and what it queued and when
 * (prop: how the frame was made, see record_frame(); modeset: the commit allowed one). */
static void record_output_on(struct dispman_device *dev, struct dispman_output *out,
	uint32_t blob, const struct proposal *prop, bool modeset, int64_t begin_ns)
{
	struct crtc *crtc = output_crtc(out), *cur = output_cur_crtc(out);
	crtc_record_on(dev, crtc, blob);
	if (cur && cur != crtc && !crtc_user(cur) && crtc_cur_mode_blob(cur))
		crtc_record_off(dev, cur);
	output_record_enabled(out, blob != 0);
	record_frame(out, prop->diff, prop->geometry, !layer_compose_dirty(output_device(out)));
	output_frame_committed(out, modeset, begin_ns);
}

/* The kernel accepted the commit of prop (whose mode blobs the CRTCs take from scope;
 * modeset: it allowed one): record it, then what it queued on each output and when (a
 * frame that kept the shape and every rectangle keeps the scenes too, see
 * record_frame()). */
static void apply_success(struct dispman_device *dev, const struct proposal *prop,
	struct commit_scope *scope, bool modeset, int64_t begin_ns)
{
	proposal_record(prop, dev);
	for (size_t i = 0; i < device_n_outputs(dev); i++) {
		struct dispman_output *out = device_output(dev, i);
		if (!scope->outputs[i].in)
			continue;
		if (output_enabled(out)) {
			record_output_on(dev, out, scope->outputs[i].mode_blob, prop, modeset,
				begin_ns);
			scope->outputs[i].mode_blob = 0; /* the CRTC's now */
		} else if (output_active(out)) {
			struct crtc *old = output_record_disabled(out);
			if (old && !crtc_user(old))
				crtc_record_off(dev, old);
			if (!old)
				output_release_all(out);
		}
	}
	if (scope->full)
		device_shape_committed(dev);
}

/*
 * Which outputs go into the request. A commit that changes the shape of the scene (plane
 * assignment search) or needs a modeset covers the whole device and waits until no flip is
 * pending anywhere. Otherwise (only new buffers) each wanted output without a pending flip
 * is committed now, and a wanted output whose flip is pending gets its commit queued: it
 * runs from device_run_queued() after its own flip, never waiting for another output's.
 * Takes the outputs asked for (run->want, cleared); returns true when a request is to be
 * made now, and what it covers in run->scope.
 */
static bool select_outputs(struct dispman_device *dev, struct commit_run *run, bool *modeset)
{
	alloc_check_geometry(dev); /* new rectangles the assignment cannot hold: a search */
	struct commit_scope *scope = &run->scope;
	bool any = false, pending = false;
	bool full = device_shape_dirty(dev) || device_modeset_forced(dev);
	*modeset = device_modeset_forced(dev);
	for (size_t i = 0; i < device_n_outputs(dev); i++) {
		struct dispman_output *out = device_output(dev, i);
		scope->outputs[i].in = false;
		scope->outputs[i].mode_blob = 0; /* prepare_blobs() sets them for a modeset */
		if (!output_enabled(out) && !output_active(out))
			run->want[i] = false;
		any = any || run->want[i];
		pending = pending || output_flip_pending(out);
		if ((output_enabled(out) || output_active(out)) && output_needs_modeset(out))
			*modeset = full = true;
	}
	if (!any)
		return false;
	if (device_commit_state(dev)->hold > 0 || (full && pending)) {
		if (full)
			device_commit_state(dev)->all_queued = true;
		for (size_t i = 0; i < device_n_outputs(dev); i++) {
			struct dispman_output *out = device_output(dev, i);
			set_queued(dev, out, output_commit_queued(out) || run->want[i]);
			run->want[i] = false;
		}
		return false;
	}
	scope->full = full;
	scope->n_in = 0;
	bool now = false;
	for (size_t i = 0; i < device_n_outputs(dev); i++) {
		struct dispman_output *out = device_output(dev, i);
		bool live = output_enabled(out) || output_active(out);
		bool want = run->want[i];
		if (full ? live : want && !output_flip_pending(out)) {
			scope->outputs[i].in = true;
			scope->n_in++;
			set_queued(dev, out, false);
			now = true;
		} else if (want) {
			set_queued(dev, out, true);
		}
		run->want[i] = false;
	}
	if (full)
		device_commit_state(dev)->all_queued = false;
	return now;
}

/* commit_selected(): the kernel refused untested new rectangles; search and commit again */
#define RETRY_WITH_SEARCH 1

static int commit_selected(struct dispman_device *dev, struct commit_scope *scope,
	bool modeset)
{
	int64_t begin_ns = clock_ns(); /* the frame's commit time (pacing, commit cost) */
	int ret = prepare_blobs(dev, scope, modeset);
	if (ret < 0)
		return ret;

	uint32_t mode_flag = modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0;
	struct atomic_req r;
	r.buf = NULL; /* for req_finish() before req_init(); req_init() sets the rest */
	/* Plane assignment (TEST_ONLY search only for a new shape) and CPU composition into a
	 * proposal: recorded in the planes and layers only if the kernel accepts it. */
	struct proposal prop;
	proposal_init(&prop, scope);
	ret = alloc_prepare(dev, mode_flag, &prop);
	if (ret < 0)
		goto out;
	ret = req_init(dev, &r);
	if (ret < 0)
		goto out;
	req_build(dev, &prop, &r);
	if (r.failed) {
		ret = r.failed;
		goto out;
	}

	uint32_t flags = DRM_MODE_PAGE_FLIP_EVENT |
		(modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : DRM_MODE_ATOMIC_NONBLOCK);
	ret = req_commit(dev, &r, flags, dev);
	if (ret == 0) {
		/* new buffers alone on the planes one output showed (a camera's, a video's
		 * frame): counted as such */
		if (prop.diff && !prop.geometry && !scope->full && scope->n_in == 1 &&
		    !layer_compose_dirty(dev))
			device_stats(dev)->buffer_commits++;
		apply_success(dev, &prop, scope, modeset, begin_ns);
		alloc_done(dev, &prop, true);
	} else if (req_error_is_answer(-ret)) {
		/* a reused shape failed: test again next time */
		device_shape_changed(dev);
		if (alloc_done(dev, &prop, false))
			ret = RETRY_WITH_SEARCH; /* untested new rectangles: search now */
	}
out:
	req_finish(dev, &r);
	proposal_finish(&prop);
	if (ret < 0)
		rollback_blobs(dev, scope, device_n_outputs(dev));
	return ret;
}

/* Commit the outputs run asks for (run->want; see select_outputs()). */
static int commit_wanted(struct dispman_device *dev, struct commit_run *run)
{
	bool modeset;
	layer_frame_begin(dev);
	if (!select_outputs(dev, run, &modeset)) {
		layer_frame_end(dev);
		return 0;
	}
	int ret = commit_selected(dev, &run->scope, modeset);
	if (ret == RETRY_WITH_SEARCH) {
		/* The kernel refused new rectangles on the committed planes, which changed
		 * nothing: search (the whole device) and commit this frame again now, or as
		 * soon as the other outputs' flips are done. */
		for (size_t i = 0; i < device_n_outputs(dev); i++)
			run->want[i] = run->scope.outputs[i].in;
		ret = select_outputs(dev, run, &modeset) ?
			commit_selected(dev, &run->scope, modeset) : 0;
	}
	layer_frame_end(dev);
	return ret;
}

void commit_queue_all(struct dispman_device *dev)
{
	device_commit_state(dev)->all_queued = true;
}

bool commit_all_queued(const struct dispman_device *dev)
{
	return device_commit_state(dev)->all_queued;
}

void commit_hold(struct dispman_device *dev, bool on)
{
	device_commit_state(dev)->hold += on ? 1 : -1;
}

void commit_defer(struct dispman_device *dev, bool on)
{
	device_commit_state(dev)->defer += on ? 1 : -1;
}

/* A commit made at once (device_commit_internal() outside handlers): out of line, so that
 * the frequent queued case (a camera frame, a frame callback) does not set up its stack. */
static __attribute__((noinline)) int commit_now(struct dispman_device *dev,
	struct dispman_output *only)
{
	struct commit_run run;
	int ret = run_init(dev, &run);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		run.want[i] = !only || device_output(dev, i) == only;
	ret = commit_wanted(dev, &run);
	run_finish(&run);
	return ret;
}

int device_commit_internal(struct dispman_device *dev, struct dispman_output *only)
{
	if (master_paused(dev) && !device_try_regain_master(dev, false)) {
		dispman_log(DISPMAN_LOG_DEBUG, "commit skipped: paused (DRM master lost)");
		return -EACCES;
	}
	if (device_commit_state(dev)->defer > 0) {
		/* From a handler or callback: queued, made by device_run_queued() when they
		 * are done (each output still after its own flip). */
		for (size_t i = 0; i < device_n_outputs(dev); i++)
			if (!only || device_output(dev, i) == only)
				set_queued(dev, device_output(dev, i), true);
		return 0;
	}
	return commit_now(dev, only);
}

/* device_run_queued() once something is queued: kept out of line, so that the frequent
 * call with nothing queued (every frame's flip comes here) stays a few instructions. */
static __attribute__((noinline)) void run_queued(struct dispman_device *dev)
{
	struct commit_state *c = device_commit_state(dev);
	size_t n = device_n_outputs(dev);
	/* a whole-device commit waits until no flip is pending anywhere */
	bool all = c->all_queued;
	for (size_t i = 0; all && i < n; i++)
		all = !output_flip_pending(device_output(dev, i));
	struct commit_run run;
	if (run_init(dev, &run) < 0)
		return; /* logged; still queued */
	/* in one walk: the outputs this commit takes, and the count of those left queued
	 * (counted again: a destroyed output may have left it) */
	bool any = false;
	size_t queued = 0;
	for (size_t i = 0; i < n; i++) {
		struct dispman_output *out = device_output(dev, i);
		bool commit_queued = output_commit_queued(out);
		bool want = all || (commit_queued && !output_flip_pending(out));
		run.want[i] = want;
		any = any || want;
		if (want)
			output_set_commit_queued(out, false);
		else
			queued += commit_queued;
	}
	c->outputs_queued = queued;
	if (all)
		c->all_queued = false;
	if (!any) {
		run_finish(&run);
		return;
	}
	int ret = commit_wanted(dev, &run);
	if (ret < 0 && ret != -EACCES) { /* a lost master is logged once, by the pause */
		dispman_log(DISPMAN_LOG_ERROR, "queued commit failed: %s", strerror(-ret));
		/* No call returns this error: each output the commit covered tells its error
		 * callback. A commit asked for from there is queued, as from any callback, and
		 * made with the next events (never in a loop of failures here). */
		commit_defer(dev, true);
		for (size_t i = 0; i < n && i < device_n_outputs(dev); i++)
			if (run.scope.outputs[i].in) /* select_outputs() set each */
				output_commit_failed(device_output(dev, i), ret);
		commit_defer(dev, false);
	}
	run_finish(&run);
}

void device_run_queued(struct dispman_device *dev)
{
	const struct commit_state *c = device_commit_state(dev);
	if ((c->all_queued || c->outputs_queued) && c->hold == 0 && !master_paused(dev))
		run_queued(dev);
}

int dispman_device_commit(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	return device_commit_internal(dev, NULL);
}

int dispman_output_commit(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return -EINVAL;
	return device_commit_internal(output_device(out), out);
}
