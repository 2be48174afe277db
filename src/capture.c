/* SPDX-License-Identifier: MIT */
/*
 * Capture: through a writeback connector where the output's CRTC has one, else by composing
 * on the CPU what the library itself put on the output's planes in the frame on screen
 * (output_shown_scene()), with the fallback compositor's rules (compose.c).
 *
 * Writeback capture. Some drivers (vkms in Linux 6.1) refuse to drive the output's
 * connector and a writeback connector from one CRTC (failed clone check): then the CRTC is
 * routed to the writeback connector alone for one frame and restored afterwards, with two
 * blocking modesets.
 */
#include <errno.h>

#include "buffer.h"
#include "commit.h"
#include "compose.h"
#include "crtc.h"
#include "device.h"
#include "dispatch.h"
#include "log.h"
#include "master.h"
#include "output.h"
#include "request.h"
#include "transform.h"
#include "writeback.h"

#include <drm_fourcc.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

/* Software writeback is slow: vkms under emulation (TCG) takes about 4 s to compose one
 * 1024x768 RGB565 frame. Real hardware signals within a frame. */
#define FENCE_TIMEOUT_MS 10000

static struct writeback *find_writeback(struct dispman_device *dev, struct crtc *crtc)
{
	for (size_t i = 0; i < device_n_writebacks(dev); i++)
		if (writeback_possible_crtcs(device_writeback(dev, i)) & (1u << crtc_index(crtc)))
			return device_writeback(dev, i);
	return NULL;
}

static int wait_fence(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	for (;;) {
		int n = poll(&pfd, 1, FENCE_TIMEOUT_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "poll on the writeback fence failed");
			return -err;
		}
		if (n == 0) {
			dispman_log(DISPMAN_LOG_ERROR, "writeback fence did not signal within %d ms",
				FENCE_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
		return 0;
	}
}

/* One blocking modeset commit; alone: the output's connector is detached meanwhile. */
static int capture_commit(struct dispman_device *dev, struct dispman_output *out,
	struct writeback *wb, struct dispman_buffer *buf, bool alone, bool test)
{
	struct crtc *crtc = output_cur_crtc(out);
	uint32_t wb_id = writeback_connector_id(wb);
	const struct connector_props *wb_props = writeback_props(wb);
	struct atomic_req r;
	int32_t fence = -1;
	int ret = req_init(dev, &r);
	if (ret < 0)
		return ret;
	if (alone)
		req_add(&r, output_connector_id(out), output_props(out)->crtc_id, 0);
	req_add(&r, wb_id, wb_props->crtc_id, crtc_id(crtc));
	req_add(&r, wb_id, wb_props->writeback_fb_id, buffer_fb_id(buf));
	if (!test)
		req_add(&r, wb_id, wb_props->writeback_out_fence_ptr,
			(uint64_t)(uintptr_t)&fence);
	uint32_t flags = DRM_MODE_ATOMIC_ALLOW_MODESET | (test ? DRM_MODE_ATOMIC_TEST_ONLY : 0);
	ret = req_commit(dev, &r, flags, NULL);
	req_finish(dev, &r);
	if (ret == 0 && !test) {
		if (fence < 0) {
			dispman_log(DISPMAN_LOG_ERROR, "writeback commit returned no fence");
			ret = -EIO;
		} else {
			ret = wait_fence(fence);
		}
	}
	if (fence >= 0)
		close(fence);
	return ret;
}

/* Detach the writeback connector and give the CRTC back to the output. */
static int capture_restore(struct dispman_device *dev, struct dispman_output *out,
	struct writeback *wb, bool alone)
{
	struct atomic_req r;
	int ret = req_init(dev, &r);
	if (ret < 0)
		return ret;
	req_add(&r, writeback_connector_id(wb), writeback_props(wb)->crtc_id, 0);
	if (alone)
		req_add(&r, output_connector_id(out), output_props(out)->crtc_id,
			crtc_id(output_cur_crtc(out)));
	ret = req_commit(dev, &r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	req_finish(dev, &r);
	if (ret < 0)
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot restore the output after a capture",
			output_name(out));
	return ret;
}

static int capture_writeback(struct dispman_output *out, struct writeback *wb,
	struct dispman_buffer **frame)
{
	struct dispman_device *dev = output_device(out);
	const drmModeModeInfo *mode = output_cur_mode(out);
	struct dispman_buffer *buf = dispman_buffer_create_dumb(dev, mode->hdisplay,
		mode->vdisplay, DRM_FORMAT_XRGB8888);
	if (!buf)
		return -errno;
	bool alone = false;
	int ret = capture_commit(dev, out, wb, buf, false, true);
	if (ret < 0 && req_error_is_answer(-ret)) {
		dispman_log(DISPMAN_LOG_DEBUG, "%s: CRTC cannot drive the output and writeback at "
			"once, capturing with the writeback connector alone", output_name(out));
		alone = true;
	} else if (ret < 0) {
		goto err;
	}
	ret = capture_commit(dev, out, wb, buf, alone, false);
	int restore = capture_restore(dev, out, wb, alone);
	if (ret == 0)
		ret = restore;
	if (ret < 0)
		goto err;
	*frame = buf;
	return 0;
err:
	dispman_buffer_unref(buf);
	return ret;
}

/* Compose what the library put on the output's planes in the frame on screen. */
static int capture_cpu(struct dispman_output *out, struct dispman_buffer **frame)
{
	if (!output_shown_scene(out)->valid) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot capture on the CPU: no frame committed "
			"by this library is on screen", output_name(out));
		return -EINVAL;
	}
	const drmModeModeInfo *mode = output_cur_mode(out);
	struct dispman_buffer *buf = dispman_buffer_create_dumb(output_device(out), mode->hdisplay,
		mode->vdisplay, DRM_FORMAT_XRGB8888);
	if (!buf)
		return -errno;
	int ret = compose_scene(buf, output_shown_scene(out));
	if (ret < 0) {
		dispman_buffer_unref(buf);
		return ret;
	}
	*frame = buf;
	return 0;
}

/*
 * The frame as the viewer sees it: the scanout (frame, the mode's size) turned back by the
 * output's transform, into a new buffer that replaces *frame.
 */
static int capture_upright(struct dispman_output *out, struct dispman_buffer **frame)
{
	enum dispman_transform t = output_transform(out);
	if (t == DISPMAN_TRANSFORM_NORMAL)
		return 0;
	struct dispman_buffer *mode_frame = *frame;
	uint32_t w = buffer_width(mode_frame), h = buffer_height(mode_frame);
	bool swap = transform_swaps(t);
	struct scene *sc = calloc(1, sizeof(*sc));
	struct dispman_buffer *buf = sc ? dispman_buffer_create_dumb(output_device(out),
		swap ? h : w, swap ? w : h, DRM_FORMAT_XRGB8888) : NULL;
	if (!buf) {
		int err = sc ? errno : ENOMEM;
		free(sc);
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "%s: no buffer to turn the capture",
			output_name(out));
		return -err;
	}
	sc->n = 1;
	sc->valid = true;
	sc->e[0] = (struct scene_entry){
		.buf = mode_frame,
		.src_w = w << 16,
		.src_h = h << 16,
		.dst_w = swap ? h : w,
		.dst_h = swap ? w : h,
		.alpha = 0xffff,
		.blend = DISPMAN_BLEND_NONE,
		.transform = transform_invert(t),
	};
	int ret = compose_scene(buf, sc);
	free(sc);
	if (ret < 0) {
		dispman_buffer_unref(buf);
		return ret;
	}
	dispman_buffer_unref(mode_frame);
	*frame = buf;
	return 0;
}

static const char *path_name(enum dispman_capture_path path)
{
	return path == DISPMAN_CAPTURE_WRITEBACK ? "writeback" : "CPU composition";
}

int dispman_output_capture_with(struct dispman_output *out, enum dispman_capture_path path,
	struct dispman_buffer **frame, enum dispman_capture_path *used)
{
	if (used)
		*used = DISPMAN_CAPTURE_AUTO;
	if (refuse_null(out, "out") || refuse_null(frame, "frame"))
		return -EINVAL;
	*frame = NULL;
	const char *name = output_name(out);
	if (path != DISPMAN_CAPTURE_AUTO && path != DISPMAN_CAPTURE_WRITEBACK &&
	    path != DISPMAN_CAPTURE_CPU) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: unknown capture path %d", name, (int)path);
		return -EINVAL;
	}
	struct dispman_device *dev = output_device(out);
	if (master_paused(dev)) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot capture, DRM master lost", name);
		return -EACCES;
	}
	if (!output_enabled(out) || !output_active(out) || !output_cur_crtc(out)) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot capture an output that is not enabled "
			"and committed", name);
		return -EINVAL;
	}
	struct writeback *wb = find_writeback(dev, output_cur_crtc(out));
	if (path == DISPMAN_CAPTURE_WRITEBACK && !wb) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot capture through writeback, the device "
			"has no writeback connector for CRTC %u", name,
			crtc_id(output_cur_crtc(out)));
		return -ENOTSUP;
	}
	if (path == DISPMAN_CAPTURE_AUTO)
		path = wb ? DISPMAN_CAPTURE_WRITEBACK : DISPMAN_CAPTURE_CPU;

	/* A commit the caller made before this call but that waits for a pending flip is
	 * part of what it asked to capture: let it go (it runs after that flip) first. */
	int ret = 0;
	if (output_commit_queued(out) || commit_all_queued(dev))
		for (size_t i = 0; i < device_n_outputs(dev) && ret == 0; i++)
			if (output_flip_pending(device_output(dev, i)))
				ret = output_wait_flip(device_output(dev, i), FENCE_TIMEOUT_MS);
	/* Capture the frame in flight once it is on screen. Meanwhile (and during the
	 * capture) frame callbacks run as usual; the commits they make are held and made
	 * right after the capture. */
	commit_hold(dev, true);
	if (ret == 0)
		ret = output_wait_flip(out, FENCE_TIMEOUT_MS);
	if (ret == 0 && (!output_active(out) || !output_cur_crtc(out) || master_paused(dev))) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: the output was %s while waiting for its frame",
			name, master_paused(dev) ? "paused (DRM master lost)" : "disabled");
		ret = master_paused(dev) ? -EACCES : -EINVAL;
	}
	if (ret == 0)
		ret = path == DISPMAN_CAPTURE_WRITEBACK ? capture_writeback(out, wb, frame) :
			capture_cpu(out, frame);
	if (ret == 0 && (ret = capture_upright(out, frame)) < 0) {
		dispman_buffer_unref(*frame);
		*frame = NULL;
	}
	commit_hold(dev, false);
	device_run_queued(dev);
	if (ret < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: capture through %s failed: %s", name,
			path_name(path), strerror(-ret));
		*frame = NULL;
		return ret;
	}
	dispman_log(DISPMAN_LOG_DEBUG, "%s: captured through %s", name, path_name(path));
	if (used)
		*used = path;
	return 0;
}

int dispman_output_capture(struct dispman_output *out, struct dispman_buffer **frame)
{
	return dispman_output_capture_with(out, DISPMAN_CAPTURE_AUTO, frame, NULL);
}
