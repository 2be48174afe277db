/**
 * @file
 * libdispman pipeline: the path a frame takes, from a camera's media controller graph to
 * the connector, as one graph of nodes and links.
 *
 * Include this header to use it (it includes <dispman/camera.h> and <dispman/dispman.h>).
 *
 * dispman_pipeline_create() takes a snapshot of a device and of every camera shown on one
 * of its layers: for each camera the entities, pads and links of the media device
 * (/dev/mediaN, MEDIA_IOC_G_TOPOLOGY) whose entity owns the camera's video node (the part
 * of the media graph connected to that entity), the video node, the camera, its buffers and
 * how they travel (the driver's buffers exported as dma-bufs to the display, display
 * buffers imported by the driver, or CPU copies); then every layer with the plane it is on
 * or the composition buffer it is drawn into (and why it got no plane), every plane, CRTC,
 * encoder and connector, writeback connectors included. Text, JSON and Graphviz forms come
 * from dispman_pipeline_write(); dispman_device_publish_pipeline() lets another process
 * (`dispman-info --pipeline --pid N`) read the live graph of a running program.
 *
 * The conventions of <dispman/dispman.h> hold; a NULL pipeline is refused like a NULL
 * object (-EINVAL, NULL with errno EINVAL, and a log line).
 */
#ifndef DISPMAN_PIPELINE_H
#define DISPMAN_PIPELINE_H

#include <dispman/camera.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dispman_pipeline;

enum dispman_pipeline_node_type {
	DISPMAN_PIPELINE_MEDIA_ENTITY = 1, /* an entity of a camera's media device */
	DISPMAN_PIPELINE_VIDEO_NODE,       /* the V4L2 device node a camera streams from */
	DISPMAN_PIPELINE_CAMERA,           /* a dispman_camera of the device */
	DISPMAN_PIPELINE_BUFFER,           /* a buffer of a camera, with its framebuffer */
	DISPMAN_PIPELINE_LAYER,            /* a dispman_layer */
	DISPMAN_PIPELINE_COMPOSITION,      /* an output's composition buffer (CPU-composed) */
	DISPMAN_PIPELINE_PLANE,
	DISPMAN_PIPELINE_CRTC,
	DISPMAN_PIPELINE_ENCODER,
	DISPMAN_PIPELINE_CONNECTOR,
	DISPMAN_PIPELINE_WRITEBACK,        /* a writeback connector */
};

/** A pad of a media entity (MEDIA_IOC_G_TOPOLOGY's media_v2_pad). */
struct dispman_pipeline_pad {
	uint32_t id;    /* the media graph's pad id */
	uint32_t index; /* the pad's index in its entity */
	bool source;    /* MEDIA_PAD_FL_SOURCE; false: a sink pad */
};

/**
 * One node. Members that do not apply to the node's type are 0 or NULL. Strings and the
 * pad array are owned by the pipeline and valid until it is destroyed.
 */
struct dispman_pipeline_node {
	enum dispman_pipeline_node_type type;
	/* The kernel's id: the DRM object id (plane, CRTC, encoder, connector), the media
	 * graph's entity id, or the interface id of a video node. Cameras, buffers, layers
	 * and compositions are numbered from 1 in each snapshot, per type. */
	uint32_t id;
	/* "vivid-000-vid-cap", "/dev/video0", the camera's card ("vivid"), "Virtual-1",
	 * "plane 31", "layer 2", ... */
	const char *name;
	/* What kind of it: the entity's function ("V4L2 I/O"), the plane's type ("primary",
	 * "overlay", "cursor"), the encoder's type, the CRTC's "on" or "off", the connector's
	 * status, the camera's
	 * memory path ("export", "import", "copy"), the buffer's state ("driver", "layer",
	 * "cpu"); NULL when there is nothing to say. */
	const char *kind;
	/* The device node it belongs to: the media device of an entity (/dev/media0), the
	 * video node's own path, the camera's capture node, the card of a KMS object. */
	const char *device;
	/* In use now: a streaming camera, a buffer on its layer or on screen, a shown
	 * layer, a plane showing a framebuffer, a lit CRTC, a connector a CRTC drives. */
	bool active;
	/* The framebuffer it holds (buffer, layer, composition) or shows now (plane, as the
	 * kernel says), its DRM fourcc and size; 0 when none. */
	uint32_t fb_id;
	uint32_t format;
	uint32_t width, height;
	/* Layers: where the last accepted commit put it and why (dispman_layer_get_placement()),
	 * its output's connector id, its z and destination. */
	struct dispman_placement placement;
	uint32_t connector_id;
	int z;
	int32_t x, y;
	/* Cameras: the memory path in use and whether frames reach a plane without a CPU
	 * copy. Video nodes: the device numbers of the node. */
	enum dispman_camera_memory memory;
	bool zero_copy;
	uint32_t major, minor;
	/* Media entities: their pads, n_pads of them. */
	const struct dispman_pipeline_pad *const *pads;
	size_t n_pads;
	/* For a video node, a camera, its buffers, its layer: which camera (its id), else 0. */
	uint32_t camera;
};

enum dispman_pipeline_link_type {
	DISPMAN_PIPELINE_LINK_MEDIA = 1,   /* a media data link, entity pad to entity pad */
	DISPMAN_PIPELINE_LINK_INTERFACE,   /* entity -> the video node it is reached through */
	DISPMAN_PIPELINE_LINK_STREAM,      /* video node -> the camera streaming from it */
	/* camera -> buffer: the driver's buffer exported as a dma-buf, imported by KMS */
	DISPMAN_PIPELINE_LINK_EXPORT,
	/* camera -> buffer: a display buffer the driver imported (V4L2_MEMORY_DMABUF) */
	DISPMAN_PIPELINE_LINK_IMPORT,
	DISPMAN_PIPELINE_LINK_COPY,        /* camera -> buffer: the CPU copies each frame */
	DISPMAN_PIPELINE_LINK_SHOW,        /* buffer -> layer: the layer shows it */
	DISPMAN_PIPELINE_LINK_PLANE,       /* layer or composition -> the plane it is on */
	DISPMAN_PIPELINE_LINK_COMPOSED,    /* layer -> composition: drawn there by the CPU */
	DISPMAN_PIPELINE_LINK_CRTC,        /* plane -> CRTC */
	DISPMAN_PIPELINE_LINK_ENCODER,     /* CRTC -> encoder */
	DISPMAN_PIPELINE_LINK_CONNECTOR,   /* encoder -> connector (or writeback connector) */
};

/** One directed link between two nodes. */
struct dispman_pipeline_link {
	enum dispman_pipeline_link_type type;
	size_t source, sink; /* node indices (dispman_pipeline_get_node()) */
	/* Media links: the pad index in the source and in the sink entity; else 0. */
	uint32_t source_pad, sink_pad;
	/* The path frames take now (an enabled media link, the buffer on the layer, the
	 * plane's CRTC, ...); false: a possible link only (a plane's other CRTCs, ...). */
	bool active;
	uint32_t flags; /* media links: MEDIA_LNK_FL_*; else 0 */
};

/**
 * A snapshot of the device's pipeline now, owned by the caller (free it with
 * dispman_pipeline_destroy()); it does not change when the device does and may outlive
 * it. The media graph of a camera whose media device cannot be found or read (a driver
 * without a media device, no permission) is left out with an info line; the camera and its
 * video node are still there.
 *
 * Returns NULL with errno: EINVAL (dev NULL), ENOMEM, or the errno of the KMS resources
 * query.
 */
struct dispman_pipeline *dispman_pipeline_create(struct dispman_device *dev);

/** Free a snapshot and everything its getters returned. NULL is fine. */
void dispman_pipeline_destroy(struct dispman_pipeline *pipeline);

/**
 * The number of nodes of the snapshot; 0 with errno EINVAL for a NULL pipeline.
 */
size_t dispman_pipeline_get_node_count(const struct dispman_pipeline *pipeline);

/**
 * Node i (0 <= i < dispman_pipeline_get_node_count()). Nodes come grouped: each camera's
 * part (its media entities, its video node, the camera, its buffers), then the planes, then
 * for each output with layers its composition buffer (if it has one) and its layers, then
 * the CRTCs, encoders and connectors (writeback connectors among them). The node is owned
 * by the pipeline, valid until it is destroyed. Returns NULL with errno EINVAL (pipeline
 * NULL) or ERANGE (i too large), each logged.
 */
const struct dispman_pipeline_node *dispman_pipeline_get_node(
	const struct dispman_pipeline *pipeline, size_t i);

/** The number of links; 0 with errno EINVAL for a NULL pipeline. */
size_t dispman_pipeline_get_link_count(const struct dispman_pipeline *pipeline);

/**
 * Link i, as dispman_pipeline_get_node(): owned by the pipeline; NULL with errno EINVAL or
 * ERANGE.
 */
const struct dispman_pipeline_link *dispman_pipeline_get_link(
	const struct dispman_pipeline *pipeline, size_t i);

/**
 * Write the snapshot to out (caller-owned, not closed) as indented text, JSON
 * ({"device", "nodes": [...], "links": [...]}, the members of the structs above by their
 * names, enums as strings) or a Graphviz digraph (media entities with their pads as
 * records, links drawn solid when active and dashed when only possible). Returns 0, or
 * -EINVAL (NULL argument, unknown format) or the errno of a failed write, each logged.
 */
int dispman_pipeline_write(const struct dispman_pipeline *pipeline,
	enum dispman_describe_format format, FILE *out);

/**
 * Publish the device's live pipeline: a unix socket, mode 0600, at
 * $XDG_RUNTIME_DIR/dispman-PID-CARD.sock (PID the process's, CARD the device node's name
 * such as card0; without $XDG_RUNTIME_DIR, in /tmp), served from
 * dispman_device_dispatch(). A client (`dispman-info --pipeline --pid PID`) connects,
 * writes one line naming the format ("text", "json" or "dot") and reads a snapshot taken
 * then (dispman_pipeline_create()) until the end of the stream. Only clients of the same
 * user (or root) are answered; a client that does not send its whole line within one
 * second, or does not read the whole answer within the next second, is dropped. The
 * socket is removed with the device or by dispman_device_unpublish_pipeline().
 * Publishing twice is a no-op.
 *
 * Returns 0, or a negative errno (logged): -EINVAL (dev NULL), -ENAMETOOLONG (the path
 * does not fit a socket address), or the errno of socket(2), bind(2) or listen(2).
 */
int dispman_device_publish_pipeline(struct dispman_device *dev);

/**
 * Stop publishing: close and remove the socket. Returns 0 (also when nothing was
 * published), or -EINVAL (dev NULL).
 */
int dispman_device_unpublish_pipeline(struct dispman_device *dev);

/**
 * The path of the socket dispman_device_publish_pipeline() made, owned by the device and
 * valid until it stops publishing; NULL when it does not publish.
 */
const char *dispman_device_get_pipeline_socket(struct dispman_device *dev);

#ifdef __cplusplus
}
#endif

#endif
