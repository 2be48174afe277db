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

/* Linux 6.8 uapi, missing from older libdrm headers */
#define CLIENT_CAP_CURSOR_PLANE_HOTSPOT 6

/*
 * The umbrella of the core modules: every module header. A .c that needs only a few may
 * include those instead (doc/architecture.md); plan.c includes none of them.
 */
#include "util.h"
#include "clock.h"
#include "list.h"
#include "log.h"
#include "props.h"
#include "rect.h"
#include "plan.h"
#include "event.h"
#include "plane.h"
#include "device.h"
#include "output.h"
#include "buffer.h"
#include "layer.h"
#include "proposal.h"
#include "request.h"
#include "commit.h"
#include "alloc.h"
#include "compose.h"
#include "udev.h"

#endif
