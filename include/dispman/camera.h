/**
 * @file
 * libdispman camera: a V4L2 capture stream shown on a layer, zero-copy.
 *
 * Include this header to use it (it includes <dispman/dispman.h>).
 *
 * A camera owns a V4L2 capture node and a set of buffers that both the camera
 * driver and the display can use: either the driver's own buffers exported as
 * dma-bufs (V4L2_MEMORY_MMAP + VIDIOC_EXPBUF, imported into KMS), or dumb
 * buffers allocated on the display device and queued to the driver as
 * dma-bufs (V4L2_MEMORY_DMABUF). One KMS framebuffer per V4L2 buffer, created
 * once. No pixel is touched by the CPU on either path.
 *
 * Each dequeued frame is put on the camera's layer and a commit of the layer's output is
 * requested (as dispman_output_commit(); other outputs are not committed).
 * A frame goes back to the driver only after the page flip that replaced it
 * on screen completed. When the camera is faster than the display, the newest
 * frame wins; older frames go back unseen and are counted as dropped.
 *
 * When no plane can scan the camera's format out, a camera created with
 * DISPMAN_CAMERA_ALLOW_COPY converts each frame on the CPU into an XRGB8888
 * buffer (counted in bytes_copied; the layer's placement says ON_PLANE with
 * reason FORMAT); without it, creation fails with -ENOTSUP.
 *
 * Which buffers both sides can use depends on the pair: some displays cannot
 * import the camera's dma-bufs (virtio-gpu: the PRIME import fails with
 * ENODEV), some cameras cannot write into the display's. The automatic mode
 * tries the camera's buffers exported to the display, then display buffers
 * imported by the camera, then, only with DISPMAN_CAMERA_ALLOW_COPY, CPU
 * copies of each frame (rows copied as they are; the placement says ON_PLANE
 * with reason IMPORT). Zero copy stays the first choice; a path that fails
 * while another remains is logged at info level, not as an error. The stats'
 * memory field and the layer's placement say which path runs.
 *
 * A library built without V4L2 support (no linux/videodev2.h, or meson -Dv4l2=disabled)
 * declares and exports the same functions: dispman_camera_query_formats(),
 * dispman_camera_start(), dispman_camera_stop() and dispman_camera_set_control() return
 * -ENOTSUP, dispman_camera_create() returns NULL with errno ENOTSUP, each with a log line
 * saying why; the setters return -EINVAL (no camera can exist) and the others do
 * nothing.
 */
#ifndef DISPMAN_CAMERA_H
#define DISPMAN_CAMERA_H

#include <dispman/dispman.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dispman_camera;

enum dispman_camera_memory {
	/* Try the driver's buffers exported as dma-bufs, then display buffers
	 * imported by the driver. */
	DISPMAN_CAMERA_MEMORY_AUTO = 0,
	DISPMAN_CAMERA_MEMORY_EXPORT, /* V4L2_MEMORY_MMAP + VIDIOC_EXPBUF -> KMS */
	DISPMAN_CAMERA_MEMORY_IMPORT, /* KMS dumb buffers -> V4L2_MEMORY_DMABUF */
	/* The CPU copies each V4L2_MEMORY_MMAP frame into a display buffer. As config:
	 * force it (needs DISPMAN_CAMERA_ALLOW_COPY). EXPORT or IMPORT as config with
	 * ALLOW_COPY: that path, else this one. */
	DISPMAN_CAMERA_MEMORY_COPY,
};

enum dispman_camera_flags {
	/* Fall back to a CPU conversion when no plane takes the format, and to a CPU copy
	 * when the display and the camera share no buffers. */
	DISPMAN_CAMERA_ALLOW_COPY = 1 << 0,
	/* Do not request a commit for each new frame; the application commits. */
	DISPMAN_CAMERA_MANUAL_COMMIT = 1 << 1,
};

/** A struct that grows (see <dispman/dispman.h>): set size first. */
struct dispman_camera_config {
	size_t size;           /* set by the caller: sizeof(struct dispman_camera_config) */
	const char *path;      /* capture node, e.g. "/dev/video0"; read during the call only */
	uint32_t width;        /* 0: the driver's current width */
	uint32_t height;       /* 0: the driver's current height */
	uint32_t fourcc;       /* DRM fourcc; 0: the first the driver offers that a plane takes */
	uint32_t n_buffers;    /* 0: 4; at least 2 */
	enum dispman_camera_memory memory;
	uint32_t flags;        /* enum dispman_camera_flags */
};

/** A struct that grows (see <dispman/dispman.h>): set size first. */
struct dispman_camera_stats {
	size_t size;               /* set by the caller: sizeof(struct dispman_camera_stats) */
	uint64_t frames_captured;  /* dequeued from the driver without error */
	uint64_t frames_shown;     /* reached the screen (a page flip showed them) */
	uint64_t frames_dropped;   /* went back to the driver without being shown */
	uint64_t frames_error;     /* the driver flagged them broken (not shown) */
	uint64_t bytes_copied;     /* by the CPU: 0 on the zero-copy path */
	uint64_t latency_ns_last;  /* capture timestamp to the page flip that showed it */
	uint64_t latency_ns_max;
	uint64_t latency_ns_sum;   /* divide by latency_samples for the mean */
	uint64_t latency_samples;  /* shown frames measured (capture time: the driver's
				    * timestamp, or the time of the commit that queued
				    * the frame when the timestamp is later than that
				    * commit or missing; flip time: the event's, plus one refresh
				    * period when the driver stamps the previous vblank,
				    * as vkms does) */
	uint64_t sequence_gaps;    /* frames the driver skipped (its sequence jumped):
				    * non-zero when it ran out of queued buffers */
	uint32_t n_buffers;
	uint32_t buffers_queued;   /* now in the driver's queue */
	enum dispman_camera_memory memory; /* the path in use: EXPORT, IMPORT or COPY */
	bool zero_copy;            /* the camera makes no CPU copy of its frames (whether a
				    * plane shows them: frames_composed) */
	/* Appended (a struct that grows): what the display's side costs. */
	uint64_t frames_composed;  /* shown frames the CPU compositor drew into the
				    * composition buffer (the layer had no plane: no overlay
				    * left, as on virtio-gpu, or a format no plane takes) */
	uint64_t bytes_composed;   /* bytes it wrote for them: the layer's destination
				    * area x 4 (XRGB8888) per composed frame */
};

/**
 * Called from dispman_device_dispatch() when the stream failed (the device was
 * removed or disconnected, a fatal streaming error, or too many broken frames
 * in a row). err is a negative errno. The camera has stopped; its layer keeps
 * showing the last good frame (hide it with dispman_layer_set_visible() if
 * wanted). Do not destroy the camera from the callback: destroy it after
 * dispman_device_dispatch() returned.
 */
typedef void (*dispman_camera_error_callback)(struct dispman_camera *cam, int err, void *data);

/** One pixel format and frame size a capture node offers. */
struct dispman_camera_format {
	uint32_t v4l2_fourcc;  /* V4L2_PIX_FMT_* */
	uint32_t drm_fourcc;   /* the DRM format with the same memory layout, 0 if none */
	uint32_t width, height; /* a discrete size, or the largest of a range */
	bool scanout;          /* a plane of the device takes it (linear): zero-copy */
	bool convertible;      /* DISPMAN_CAMERA_ALLOW_COPY can convert it */
};

/**
 * List what the capture node at path offers: every pixel format with each of
 * its frame sizes, in the driver's order, into formats (at most max entries,
 * caller-owned). dev decides `scanout`. Returns the number of entries written
 * or a negative errno (-EINVAL for NULL arguments, or the node's errno).
 */
int dispman_camera_query_formats(struct dispman_device *dev, const char *path,
	struct dispman_camera_format *formats, size_t max);

/**
 * Open a V4L2 capture node and prepare it to show frames on layer. The layer stays
 * owned by the caller; the camera sets its buffer. Either may be destroyed first: a
 * camera whose layer (or the layer's device) is destroyed before it stops streaming,
 * drops its buffers and stays inert until dispman_camera_destroy() (which then frees it
 * without touching the display; dispman_camera_start() returns -ENODEV, the getters still
 * answer). config is read during the
 * call only; it is a struct that grows: set config->size (members beyond it count
 * as 0). Unknown flags or memory values are refused. Streaming starts with
 * dispman_camera_start().
 *
 * Returns the camera, owned by the caller (dispman_camera_destroy()), or NULL
 * with errno: EINVAL (bad config or config->size, MEMORY_COPY without ALLOW_COPY),
 * E2BIG (config larger than this library knows, with a member it does not know set),
 * ENOENT/EACCES/ENODEV (node), ENOTSUP (not a streaming capture device, no
 * format a plane takes and no ALLOW_COPY, or the requested memory path is
 * unsupported), ENOMEM, or the errno of the driver or display (ENODEV: the
 * display cannot import the camera's buffers, on the pinned EXPORT path).
 */
struct dispman_camera *dispman_camera_create(struct dispman_layer *layer,
	const struct dispman_camera_config *config);

/**
 * Stop streaming, take the camera's frame off its layer (the layer is left without
 * buffer) and commit that (dispman_output_commit() of the layer's output; a layer that
 * loses its buffer changes the scene's shape, so the commit covers the device's other
 * outputs too), then block until no camera buffer is on screen or about to be.
 *
 * Blocking bound: it waits only while a page flip of the device is pending (normally the
 * next vblank or two: about 17-33 ms at 60 Hz) and never longer than 1 s in all, handling
 * the device's DRM events meanwhile (so frame callbacks may run inside this call). It does
 * not wait at all when the camera's frame was not on the layer, when the layer or device
 * was destroyed first, or while the device cannot commit (DRM master lost). Then it frees
 * everything. A buffer the display still holds after that keeps its own reference. Do not
 * call it from the camera's error callback. NULL is fine.
 */
void dispman_camera_destroy(struct dispman_camera *cam);

/** STREAMON. Returns 0 or a negative errno (-EINVAL for NULL, -EIO after a failed
 * stream, else the driver's). */
int dispman_camera_start(struct dispman_camera *cam);

/**
 * STREAMOFF. The frame on screen stays there (it is a display buffer now);
 * every other buffer returns to the camera. Returns 0 or a negative errno (-EINVAL
 * for NULL, else the driver's).
 */
int dispman_camera_stop(struct dispman_camera *cam);

/**
 * Copy the counters into *stats (caller-owned; a struct that grows: set stats->size
 * first). Returns 0 or -EINVAL (cam or stats NULL, stats->size too small).
 */
int dispman_camera_get_stats(struct dispman_camera *cam, struct dispman_camera_stats *stats);

/** The negotiated DRM fourcc, width and height. Any pointer may be NULL; a NULL cam
 * gives 0 for each (and a log line). */
void dispman_camera_get_format(struct dispman_camera *cam, uint32_t *fourcc, uint32_t *width,
	uint32_t *height);

/**
 * Called from dispman_device_dispatch() for every frame dequeued from the
 * driver, before it is shown: index is the V4L2 buffer index, sequence the
 * driver's frame counter, error whether the driver flagged the frame broken.
 */
typedef void (*dispman_camera_frame_callback)(struct dispman_camera *cam, uint32_t index,
	uint32_t sequence, bool error, void *data);

/**
 * Set (cb NULL: remove) the frame callback; data is passed back, never owned. Returns 0 or
 * -EINVAL (cam NULL).
 */
int dispman_camera_set_frame_callback(struct dispman_camera *cam,
	dispman_camera_frame_callback cb, void *data);

/**
 * Set (cb NULL: remove) the error callback; data is passed back, never owned. Returns 0 or
 * -EINVAL (cam NULL).
 */
int dispman_camera_set_error_callback(struct dispman_camera *cam,
	dispman_camera_error_callback cb, void *data);

/**
 * Set a V4L2 control by the name v4l2-ctl prints (e.g. "inject_v4l2_buf_flag_error"
 * on vivid). Returns 0, -EINVAL (cam or name NULL), -ENOENT (no such control) or the
 * driver's errno.
 */
int dispman_camera_set_control(struct dispman_camera *cam, const char *name, int64_t value);

#ifdef __cplusplus
}
#endif

#endif
