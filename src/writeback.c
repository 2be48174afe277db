/* SPDX-License-Identifier: MIT */
/* The device's writeback connectors (writeback.h). */
#include "writeback.h"

#include <errno.h>
#include <stdlib.h>

#include "device.h"
#include "props.h"

struct writeback {
	uint32_t connector_id;
	uint32_t possible_crtcs;
	struct connector_props props;
};

int writeback_create(struct dispman_device *dev, const drmModeConnector *conn,
	struct writeback **out)
{
	*out = NULL;
	struct writeback *wb = calloc(1, sizeof(*wb));
	if (!wb)
		return -ENOMEM;
	wb->connector_id = conn->connector_id;
	for (int e = 0; e < conn->count_encoders; e++) {
		drmModeEncoder *enc = drmModeGetEncoder(device_fd(dev), conn->encoders[e]);
		if (enc) {
			wb->possible_crtcs |= enc->possible_crtcs;
			drmModeFreeEncoder(enc);
		}
	}
	if (props_get_connector(device_fd(dev), wb->connector_id, &wb->props) == 0 &&
	    wb->props.writeback_fb_id && wb->props.crtc_id)
		*out = wb;
	else
		free(wb);
	return 0;
}

void writeback_destroy(struct writeback *wb)
{
	free(wb);
}

uint32_t writeback_connector_id(const struct writeback *wb)
{
	return wb->connector_id;
}

uint32_t writeback_possible_crtcs(const struct writeback *wb)
{
	return wb->possible_crtcs;
}

const struct connector_props *writeback_props(const struct writeback *wb)
{
	return &wb->props;
}
