/* SPDX-License-Identifier: MIT */
/* The media controller (media.c): the graph of the media device a V4L2 node belongs to. */
#ifndef DISPMAN_MEDIA_H
#define DISPMAN_MEDIA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct media_entity {
	uint32_t id;
	char name[64];
	uint32_t function;            /* MEDIA_ENT_F_* */
};

struct media_pad {
	uint32_t id, entity_id, index;
	bool source;
};

struct media_link {
	uint32_t id, source_id, sink_id; /* pads, or interface -> entity for interface links */
	uint32_t flags;                  /* MEDIA_LNK_FL_* */
};

struct media_intf {
	uint32_t id, type, major, minor;
};

/* One media device's topology (MEDIA_IOC_G_TOPOLOGY), arrays owned by it. */
struct media_graph {
	char path[32];                /* /dev/mediaN */
	char driver[16], model[32];
	struct media_entity *entities;
	size_t n_entities;
	struct media_pad *pads;
	size_t n_pads;
	struct media_link *links;
	size_t n_links;
	struct media_intf *intfs;
	size_t n_intfs;
};

/*
 * Find the media device (/dev/media0 .. /dev/media63) with a V4L video interface of device
 * number (major, minor) and read its graph into *g. *intf_id gets that interface's id.
 * Returns 0, -ENOENT (no media device has it) or another negative errno; logs at info level.
 */
int media_find_video(uint32_t major, uint32_t minor, struct media_graph *g, uint32_t *intf_id);
void media_graph_free(struct media_graph *g);
/* A short name of an entity function ("V4L2 I/O", "camera sensor", ...). */
const char *media_function_name(uint32_t function);

#endif
