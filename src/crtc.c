/* SPDX-License-Identifier: MIT */
/* The device's CRTCs (crtc.h): read from the kernel, claimed by outputs, and what the
 * accepted commits left on them. */
#include "crtc.h"

#include <errno.h>
#include <stdlib.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "device.h"
#include "log.h"
#include "props.h"

struct crtc {
	uint32_t id;
	unsigned index;
	struct crtc_props props;
	struct dispman_output *user; /* output using it in the pending state, or NULL */
	uint32_t cur_mode_blob; /* current MODE_ID blob id when created by us */
	bool cur_active;
};

struct crtc *crtc_create(struct dispman_device *dev, uint32_t id, unsigned index)
{
	struct crtc *crtc = calloc(1, sizeof(*crtc));
	if (!crtc) {
		errno = ENOMEM;
		return NULL;
	}
	crtc->id = id;
	crtc->index = index;
	int ret = props_get_crtc(device_fd(dev), crtc->id, &crtc->props);
	if (ret < 0)
		goto fail;
	drmModeCrtc *c = drmModeGetCrtc(device_fd(dev), crtc->id);
	if (c) {
		crtc->cur_active = c->mode_valid != 0;
		drmModeFreeCrtc(c);
	}
	if (!crtc->props.active || !crtc->props.mode_id) {
		dispman_log(DISPMAN_LOG_ERROR, "CRTC %u lacks ACTIVE/MODE_ID properties", crtc->id);
		ret = -EOPNOTSUPP;
		goto fail;
	}
	return crtc;
fail:
	free(crtc);
	errno = -ret;
	return NULL;
}

void crtc_destroy(struct dispman_device *dev, struct crtc *crtc)
{
	if (!crtc)
		return;
	if (crtc->cur_mode_blob)
		drmModeDestroyPropertyBlob(device_fd(dev), crtc->cur_mode_blob);
	free(crtc);
}

struct crtc *crtc_find(const struct dispman_device *dev, uint32_t id)
{
	for (size_t i = 0; i < device_n_crtcs(dev); i++)
		if (device_crtc(dev, i)->id == id)
			return device_crtc(dev, i);
	return NULL;
}

uint32_t crtc_id(const struct crtc *crtc)
{
	return crtc->id;
}

unsigned crtc_index(const struct crtc *crtc)
{
	return crtc->index;
}

const struct crtc_props *crtc_props(const struct crtc *crtc)
{
	return &crtc->props;
}

struct dispman_output *crtc_user(const struct crtc *crtc)
{
	return crtc->user;
}

void crtc_set_user(struct crtc *crtc, struct dispman_output *out)
{
	crtc->user = out;
}

bool crtc_cur_active(const struct crtc *crtc)
{
	return crtc->cur_active;
}

uint32_t crtc_cur_mode_blob(const struct crtc *crtc)
{
	return crtc->cur_mode_blob;
}

void crtc_record_on(struct dispman_device *dev, struct crtc *crtc, uint32_t blob)
{
	if (blob) {
		if (crtc->cur_mode_blob)
			drmModeDestroyPropertyBlob(device_fd(dev), crtc->cur_mode_blob);
		crtc->cur_mode_blob = blob;
	}
	crtc->cur_active = true;
}

void crtc_record_off(struct dispman_device *dev, struct crtc *crtc)
{
	if (crtc->cur_mode_blob)
		drmModeDestroyPropertyBlob(device_fd(dev), crtc->cur_mode_blob);
	crtc->cur_mode_blob = 0;
	crtc->cur_active = false;
}
