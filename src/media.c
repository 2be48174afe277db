/* SPDX-License-Identifier: MIT */
/*
 * The media controller: which /dev/mediaN a V4L2 video node belongs to, and that media
 * device's graph (entities, pads, links, interfaces) as MEDIA_IOC_G_TOPOLOGY reports it.
 */
#include "media.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "log.h"

#define MEDIA_MAX_DEVICES 64

void media_graph_free(struct media_graph *g)
{
	free(g->entities);
	free(g->pads);
	free(g->links);
	free(g->intfs);
	memset(g, 0, sizeof(*g));
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;
	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && (errno == EINTR || errno == EAGAIN));
	return r < 0 ? -errno : 0;
}

/* The topology of the open media device fd into *g: retried while it changes under us. */
static int read_topology(int fd, struct media_graph *g)
{
	for (int attempt = 0; attempt < 4; attempt++) {
		struct media_v2_topology t = { 0 };
		int r = xioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t);
		if (r < 0)
			return r;
		uint64_t version = t.topology_version;
		struct media_v2_entity *ents = calloc(t.num_entities + 1u, sizeof(*ents));
		struct media_v2_interface *intfs = calloc(t.num_interfaces + 1u, sizeof(*intfs));
		struct media_v2_pad *pads = calloc(t.num_pads + 1u, sizeof(*pads));
		struct media_v2_link *links = calloc(t.num_links + 1u, sizeof(*links));
		if (!ents || !intfs || !pads || !links) {
			r = -ENOMEM;
			goto next;
		}
		t.ptr_entities = (uintptr_t)ents;
		t.ptr_interfaces = (uintptr_t)intfs;
		t.ptr_pads = (uintptr_t)pads;
		t.ptr_links = (uintptr_t)links;
		uint32_t ne = t.num_entities, ni = t.num_interfaces, np = t.num_pads,
			nl = t.num_links;
		if ((r = xioctl(fd, MEDIA_IOC_G_TOPOLOGY, &t)) < 0)
			goto next;
		if (t.topology_version != version || t.num_entities > ne ||
		    t.num_interfaces > ni || t.num_pads > np || t.num_links > nl) {
			r = -EAGAIN;
			goto next;
		}
		g->entities = calloc(t.num_entities + 1u, sizeof(*g->entities));
		g->intfs = calloc(t.num_interfaces + 1u, sizeof(*g->intfs));
		g->pads = calloc(t.num_pads + 1u, sizeof(*g->pads));
		g->links = calloc(t.num_links + 1u, sizeof(*g->links));
		if (!g->entities || !g->intfs || !g->pads || !g->links) {
			r = -ENOMEM;
			goto next;
		}
		for (uint32_t i = 0; i < t.num_entities; i++) {
			struct media_entity *e = &g->entities[g->n_entities++];
			e->id = ents[i].id;
			e->function = ents[i].function;
			snprintf(e->name, sizeof(e->name), "%.*s", (int)sizeof(ents[i].name),
				ents[i].name);
		}
		for (uint32_t i = 0; i < t.num_interfaces; i++)
			g->intfs[g->n_intfs++] = (struct media_intf){ .id = intfs[i].id,
				.type = intfs[i].intf_type, .major = intfs[i].devnode.major,
				.minor = intfs[i].devnode.minor };
		for (uint32_t i = 0; i < t.num_pads; i++)
			g->pads[g->n_pads++] = (struct media_pad){ .id = pads[i].id,
				.entity_id = pads[i].entity_id,
				.index = pads[i].index,
				.source = pads[i].flags & MEDIA_PAD_FL_SOURCE };
		for (uint32_t i = 0; i < t.num_links; i++)
			g->links[g->n_links++] = (struct media_link){ .id = links[i].id,
				.source_id = links[i].source_id, .sink_id = links[i].sink_id,
				.flags = links[i].flags };
		r = 0;
next:
		free(ents);
		free(intfs);
		free(pads);
		free(links);
		if (r == 0)
			return 0;
		media_graph_free(g);
		if (r != -EAGAIN)
			return r;
	}
	return -EAGAIN;
}

int media_find_video(uint32_t major, uint32_t minor, struct media_graph *g, uint32_t *intf_id)
{
	memset(g, 0, sizeof(*g));
	int last = -ENOENT;
	for (int n = 0; n < MEDIA_MAX_DEVICES; n++) {
		char path[32];
		snprintf(path, sizeof(path), "/dev/media%d", n);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				last = -errno;
			continue;
		}
		struct media_device_info info = { 0 };
		int r = xioctl(fd, MEDIA_IOC_DEVICE_INFO, &info);
		if (r == 0)
			r = read_topology(fd, g);
		close(fd);
		if (r < 0) {
			dispman_log(DISPMAN_LOG_INFO, "media: %s: cannot read its topology: %s", path,
				strerror(-r));
			last = r;
			continue;
		}
		for (size_t i = 0; i < g->n_intfs; i++) {
			if (g->intfs[i].type == MEDIA_INTF_T_V4L_VIDEO &&
			    g->intfs[i].major == major && g->intfs[i].minor == minor) {
				snprintf(g->path, sizeof(g->path), "%s", path);
				snprintf(g->driver, sizeof(g->driver), "%.*s",
					(int)sizeof(info.driver), info.driver);
				snprintf(g->model, sizeof(g->model), "%.*s", (int)sizeof(info.model),
					info.model);
				*intf_id = g->intfs[i].id;
				return 0;
			}
		}
		media_graph_free(g);
	}
	dispman_log(DISPMAN_LOG_INFO, "media: no media device has the video node %u:%u", major,
		minor);
	return last;
}

const char *media_function_name(uint32_t function)
{
	switch (function) {
	case MEDIA_ENT_F_IO_V4L: return "V4L2 I/O";
	case MEDIA_ENT_F_IO_VBI: return "VBI I/O";
	case MEDIA_ENT_F_IO_SWRADIO: return "SDR I/O";
	case MEDIA_ENT_F_CAM_SENSOR: return "camera sensor";
	case MEDIA_ENT_F_TUNER: return "tuner";
	case MEDIA_ENT_F_IF_VID_DECODER: return "IF video decoder";
	case MEDIA_ENT_F_PROC_VIDEO_PIXEL_FORMATTER: return "pixel formatter";
	case MEDIA_ENT_F_PROC_VIDEO_SCALER: return "scaler";
	case MEDIA_ENT_F_PROC_VIDEO_ISP: return "ISP";
	case MEDIA_ENT_F_VID_IF_BRIDGE: return "video interface bridge";
	case MEDIA_ENT_F_V4L2_SUBDEV_UNKNOWN: return "V4L2 subdevice";
	default: return "entity";
	}
}
