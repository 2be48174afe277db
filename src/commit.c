/* SPDX-License-Identifier: MIT */
#include "private.h"

#include <stdint.h>
#include <stdlib.h>

int req_init(struct atomic_req *r)
{
	r->failed = 0;
	r->req = drmModeAtomicAlloc();
	if (!r->req) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating an atomic request");
		r->failed = -ENOMEM;
		return -ENOMEM;
	}
	return 0;
}

void req_finish(struct atomic_req *r)
{
	drmModeAtomicFree(r->req);
	r->req = NULL;
}

void req_add(struct atomic_req *r, uint32_t obj_id, uint32_t prop_id, uint64_t value)
{
	if (r->failed)
		return;
	if (!prop_id) {
		dispman_log(DISPMAN_LOG_ERROR, "object %u lacks a property the request needs",
			obj_id);
		r->failed = -EINVAL;
		return;
	}
	if (drmModeAtomicAddProperty(r->req, obj_id, prop_id, value) < 0) {
		r->failed = -ENOMEM;
		dispman_log(DISPMAN_LOG_ERROR, "cannot add property %u of object %u to the request",
			prop_id, obj_id);
	}
}

bool commit_error_is_answer(int err)
{
	return err == EINVAL || err == ERANGE || err == ENOSPC;
}

bool device_check_master_lost(struct dispman_device *dev, int err)
{
	if (err != EACCES && err != EPERM)
		return false;
	if (!dev->paused) {
		dispman_log(DISPMAN_LOG_ERROR, "DRM master lost (%s): commits are paused until "
			"master comes back", strerror(err));
		dev->master_try_ms = monotonic_ms();
		master_timer_set(dev, true);
	}
	dev->paused = true;
	return true;
}

int req_commit(struct dispman_device *dev, struct atomic_req *r, uint32_t flags, void *user_data)
{
	if (r->failed)
		return r->failed;
	bool test = (flags & DRM_MODE_ATOMIC_TEST_ONLY) != 0;
	int ret, err = 0;
	for (int tries = 0; tries < 64; tries++) {
		ret = drmModeAtomicCommit(dev->fd, r->req, flags, user_data);
		err = ret == 0 ? 0 : (errno ? errno : EINVAL);
		if (err != EINTR && err != EAGAIN)
			break;
	}
	if (test)
		dev->stats.test_commits++;
	if (err == 0) {
		if (!test) {
			dev->stats.commits++;
			if (flags & DRM_MODE_ATOMIC_ALLOW_MODESET)
				dev->stats.modesets++;
		}
		return 0;
	}
	if (!test)
		dev->stats.failed_commits++;
	if (device_check_master_lost(dev, err))
		return -err;
	if (test && commit_error_is_answer(err))
		dispman_log_errno(DISPMAN_LOG_DEBUG, err, "TEST_ONLY commit refused");
	else
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "atomic commit (flags 0x%x) failed", flags);
	return -err;
}

void commit_build_request(struct dispman_device *dev, struct atomic_req *r)
{
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		if (out->enabled) {
			if (out->new_mode_blob) {
				req_add(r, out->connector_id, out->props.crtc_id, out->crtc->id);
				req_add(r, out->crtc->id, out->crtc->props.mode_id, out->new_mode_blob);
			}
			/* always: puts the CRTC in the state so that it sends a flip event */
			req_add(r, out->crtc->id, out->crtc->props.active, 1);
		} else if (out->active) {
			req_add(r, out->connector_id, out->props.crtc_id, 0);
			if (out->cur_crtc && !out->cur_crtc->user) {
				req_add(r, out->cur_crtc->id, out->cur_crtc->props.active, 0);
				req_add(r, out->cur_crtc->id, out->cur_crtc->props.mode_id, 0);
			}
		}
	}
	alloc_apply(dev, r);
}

static void rollback_blobs(struct dispman_device *dev)
{
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		if (out->new_mode_blob)
			drmModeDestroyPropertyBlob(dev->fd, out->new_mode_blob);
		out->new_mode_blob = 0;
	}
}

static int prepare_blobs(struct dispman_device *dev)
{
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		out->new_mode_blob = 0;
		if (!out->enabled || !output_needs_modeset(out))
			continue;
		if (drmModeCreatePropertyBlob(dev->fd, &out->mode->info, sizeof(out->mode->info),
				&out->new_mode_blob) != 0) {
			int err = errno ? errno : EINVAL;
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "%s: cannot create MODE_ID blob",
				out->name);
			out->new_mode_blob = 0;
			rollback_blobs(dev);
			return -err;
		}
	}
	return 0;
}

static void apply_success(struct dispman_device *dev)
{
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		if (out->enabled) {
			if (out->new_mode_blob) {
				if (out->crtc->cur_mode_blob)
					drmModeDestroyPropertyBlob(dev->fd, out->crtc->cur_mode_blob);
				out->crtc->cur_mode_blob = out->new_mode_blob;
				out->new_mode_blob = 0;
				out->cur_mode = out->mode->info;
			}
			if (out->cur_crtc && out->cur_crtc != out->crtc && !out->cur_crtc->user &&
			    out->cur_crtc->cur_mode_blob) {
				drmModeDestroyPropertyBlob(dev->fd, out->cur_crtc->cur_mode_blob);
				out->cur_crtc->cur_mode_blob = 0;
				out->cur_crtc->cur_active = false;
			}
			out->crtc->cur_active = true;
			out->active = true;
			out->cur_crtc = out->crtc;
			out->flip_pending = true;
			out->flip_crtc_id = out->crtc->id;
			struct list *pos, *tmp;
			list_for_each_safe(pos, tmp, &out->layers) {
				struct dispman_layer *layer =
					container_of(pos, struct dispman_layer, link);
				if (!layer->plane && !layer->composited)
					continue;
				if (out->n_queued < MAX_SHOWN)
					out->queued[out->n_queued++] = dispman_buffer_ref(layer->buf);
			}
			struct dispman_layer *comp = out->comp ? compose_get_layer(out) : NULL;
			if (comp && comp->plane && out->n_queued < MAX_SHOWN)
				out->queued[out->n_queued++] = dispman_buffer_ref(comp->buf);
		} else if (out->active) {
			struct crtc *old = out->cur_crtc;
			out->active = false;
			out->cur_crtc = NULL;
			out->flip_pending = old != NULL;
			out->flip_crtc_id = old ? old->id : 0;
			if (old && !old->user) {
				if (old->cur_mode_blob)
					drmModeDestroyPropertyBlob(dev->fd, old->cur_mode_blob);
				old->cur_mode_blob = 0;
				old->cur_active = false;
			}
			if (!old)
				output_release_all(out);
		}
	}
	for (size_t i = 0; i < dev->n_planes; i++) {
		struct plane *p = &dev->planes[i];
		p->cur_fb_id = p->pending_layer ? p->pending_layer->buf->fb_id : 0;
		p->cur_crtc_id = p->pending_layer ? p->pending_output->crtc->id : 0;
	}
	dev->force_modeset = false;
	dev->shape_dirty = false;
}

int device_commit_internal(struct dispman_device *dev)
{
	if (dev->paused && !device_try_regain_master(dev, false)) {
		dispman_log(DISPMAN_LOG_DEBUG, "commit skipped: paused (DRM master lost)");
		return -EACCES;
	}
	bool any = false, flip_pending = false, modeset = dev->force_modeset;
	for (size_t i = 0; i < dev->n_outputs; i++) {
		struct dispman_output *out = dev->outputs[i];
		any = any || out->enabled || out->active;
		flip_pending = flip_pending || out->flip_pending;
		modeset = modeset || output_needs_modeset(out);
	}
	if (!any)
		return 0;
	if (flip_pending) {
		dev->commit_queued = true;
		return 0;
	}
	int ret = prepare_blobs(dev);
	if (ret < 0)
		return ret;

	uint32_t mode_flag = modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0;
	struct atomic_req r = { 0 };
	/* Plane assignment (TEST_ONLY search only for a new shape) and CPU composition. */
	ret = alloc_prepare(dev, mode_flag);
	if (ret < 0)
		goto out;
	ret = req_init(&r);
	if (ret < 0)
		goto out;
	commit_build_request(dev, &r);
	if (r.failed) {
		ret = r.failed;
		goto out;
	}

	uint32_t flags = DRM_MODE_PAGE_FLIP_EVENT |
		(modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : DRM_MODE_ATOMIC_NONBLOCK);
	ret = req_commit(dev, &r, flags, dev);
	if (ret == 0) {
		apply_success(dev);
		alloc_done(dev, true);
		for (size_t i = 0; i < dev->n_outputs; i++)
			if (dev->outputs[i]->enabled)
				output_frame_committed(dev->outputs[i], modeset);
	} else if (commit_error_is_answer(-ret)) {
		/* a reused shape failed: test again next time */
		dev->shape_dirty = true;
		alloc_done(dev, false);
	}
out:
	req_finish(&r);
	if (ret < 0)
		rollback_blobs(dev);
	return ret;
}

int dispman_device_commit(struct dispman_device *dev)
{
	return device_commit_internal(dev);
}
