/* SPDX-License-Identifier: MIT */
/* A writeback connector, for captures (writeback.c; created and destroyed by lifecycle.c,
 * read by capture.c). */
#ifndef DISPMAN_WRITEBACK_H
#define DISPMAN_WRITEBACK_H

#include <stdint.h>

#include <xf86drmMode.h>

#include "props.h"

struct dispman_device;
struct writeback;

/* conn, a writeback connector, with the CRTCs its encoders can use and its properties:
 * *wb is NULL when it lacks those a capture needs (WRITEBACK_FB_ID, CRTC_ID). Returns 0,
 * or -ENOMEM. lifecycle.c only, as writeback_destroy(). */
int writeback_create(struct dispman_device *dev, const drmModeConnector *conn,
	struct writeback **wb);
void writeback_destroy(struct writeback *wb);

/* The body of struct writeback is writeback.c's; nothing changes it after creation. */
uint32_t writeback_connector_id(const struct writeback *wb);
/* bit i: the CRTC of index i (crtc_index()) can feed it */
uint32_t writeback_possible_crtcs(const struct writeback *wb);
const struct connector_props *writeback_props(const struct writeback *wb);

#endif
