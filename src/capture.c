/* SPDX-License-Identifier: MIT */
/*
 * Writeback capture. Some drivers (vkms in Linux 6.1) refuse to drive the output's
 * connector and a writeback connector from one CRTC (failed clone check): then the CRTC is
 * routed to the writeback connector alone for one frame and restored afterwards, with two
 * blocking modesets.
 */
#include "private.h"

#include <drm_fourcc.h>
#include <poll.h>
#include <unistd.h>

/* Software writeback is slow: vkms under emulation (TCG) takes about 4 s to compose one
 * 1024x768 RGB565 frame. Real hardware signals within a frame. */
#define FENCE_TIMEOUT_MS 10000

static struct writeback *find_writeback(struct dispman_device *dev, struct crtc *crtc)
{
	for (size_t i = 0; i < dev->n_writebacks; i++)
		if (dev->writebacks[i].possible_crtcs & (1u << crtc->index))
			return &dev->writebacks[i];
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
	struct crtc *crtc = out->cur_crtc;
	struct atomic_req r;
	int32_t fence = -1;
	int ret = req_init(&r);
	if (ret < 0)
		return ret;
	if (alone)
		req_add(&r, out->connector_id, out->props.crtc_id, 0);
	req_add(&r, wb->connector_id, wb->props.crtc_id, crtc->id);
	req_add(&r, wb->connector_id, wb->props.writeback_fb_id, buf->fb_id);
	if (!test)
		req_add(&r, wb->connector_id, wb->props.writeback_out_fence_ptr,
			(uint64_t)(uintptr_t)&fence);
	uint32_t flags = DRM_MODE_ATOMIC_ALLOW_MODESET | (test ? DRM_MODE_ATOMIC_TEST_ONLY : 0);
	ret = req_commit(dev, &r, flags, NULL);
	req_finish(&r);
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
	int ret = req_init(&r);
	if (ret < 0)
		return ret;
	req_add(&r, wb->connector_id, wb->props.crtc_id, 0);
	if (alone)
		req_add(&r, out->connector_id, out->props.crtc_id, out->cur_crtc->id);
	ret = req_commit(dev, &r, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	req_finish(&r);
	if (ret < 0)
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot restore the output after a capture",
			out->name);
	return ret;
}

int dispman_output_capture(struct dispman_output *out, struct dispman_buffer **frame)
{
	struct dispman_device *dev = out->dev;
	if (!frame)
		return -EINVAL;
	*frame = NULL;
	if (dev->paused) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot capture, DRM master lost", out->name);
		return -EACCES;
	}
	if (!out->enabled || !out->active || !out->cur_crtc) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot capture an output that is not enabled "
			"and committed", out->name);
		return -EINVAL;
	}
	struct writeback *wb = find_writeback(dev, out->cur_crtc);
	if (!wb) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: cannot capture, the device has no writeback "
			"connector for CRTC %u", out->name, out->cur_crtc->id);
		return -ENOTSUP;
	}
	int ret = device_wait_idle(dev, FENCE_TIMEOUT_MS);
	if (ret < 0)
		return ret;
	if (!out->active || !out->cur_crtc)
		return -EINVAL;

	struct dispman_buffer *buf = dispman_buffer_create_dumb(dev, out->cur_mode.hdisplay,
		out->cur_mode.vdisplay, DRM_FORMAT_XRGB8888);
	if (!buf)
		return -errno;

	bool alone = false;
	ret = capture_commit(dev, out, wb, buf, false, true);
	if (ret < 0 && commit_error_is_answer(-ret)) {
		dispman_log(DISPMAN_LOG_DEBUG, "%s: CRTC cannot drive the output and writeback at "
			"once, capturing with the writeback connector alone", out->name);
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
	dispman_log(DISPMAN_LOG_ERROR, "%s: capture failed: %s", out->name, strerror(-ret));
	dispman_buffer_unref(buf);
	return ret;
}
