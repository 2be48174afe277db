/* SPDX-License-Identifier: MIT */
/**
 * @file
 * libdispman: show buffers on a Linux KMS device.
 *
 * The camera (V4L2) and input (libinput) APIs have headers of their own:
 * <dispman/camera.h> and <dispman/input.h>, each including this one.
 *
 * Conventions that hold for every function below unless its comment says otherwise:
 * - Constructors return NULL and set errno on failure.
 * - Operations return 0 (or a non-negative count) on success and a negative errno on
 *   failure.
 * - Destructors and unref functions accept NULL (and do nothing).
 * - Every other function refuses a NULL object (device, output, layer, buffer, camera,
 *   input) with one error logged ("function: argument is NULL"): an operation returns
 *   -EINVAL, a constructor or a getter returning a pointer returns NULL with errno EINVAL,
 *   and a getter without an error value returns 0 (false, DISPMAN_CONNECTION_UNKNOWN,
 *   DRM_FORMAT_MOD_INVALID for a modifier; output parameters set to 0) with errno EINVAL.
 * - Every failure is also reported through the log handler (see dispman_log_set_handler).
 * - Objects of one device are single-threaded: call them from one thread at a time. All
 *   callbacks run inside dispman_device_dispatch() (or inside the call named in the
 *   callback's comment). Different devices share no state and may each be used from a
 *   thread of its own; only the log handler and level are process-wide.
 * - Setters return 0 or a negative errno, and refuse (and log) a value they cannot take
 *   instead of storing it.
 *
 * Structs that grow: a struct whose first member is `size_t size` (dispman_stats,
 * dispman_limits, dispman_output_stats, dispman_camera_stats, dispman_camera_config) may
 * gain members at its end in a later version without an ABI break. Set size to the sizeof
 * you were compiled with and zero the rest, best in one go:
 *
 *     struct dispman_stats st = { .size = sizeof(st) };
 *     dispman_device_get_stats(dev, &st);
 *
 * A function filling such a struct writes only the first size bytes it knows of and sets
 * size to the number of bytes it wrote (so a program built against newer headers sees
 * which members an older library filled; the others keep the program's zeros). A function
 * reading one takes only the members within size and treats the others as 0. A size below
 * sizeof(size_t) (a struct not initialised like this) is refused with -EINVAL and a log
 * line; a struct larger than the library knows is read only when the bytes it does not know
 * are all 0, else refused with -E2BIG.
 */
#ifndef DISPMAN_DISPMAN_H
#define DISPMAN_DISPMAN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <dispman/version.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dispman_device;
struct dispman_output;
struct dispman_layer;
struct dispman_buffer;

/* ------------------------------------------------------------------------------------ */
/* Version */

/**
 * The version of the library the program runs with, as DISPMAN_VERSION_ENCODE(major, minor,
 * micro); compare it with DISPMAN_VERSION (the headers the program was built with) or with
 * DISPMAN_VERSION_ENCODE(...) of the version a feature appeared in.
 */
uint32_t dispman_version(void);

/** The same version as a string such as "0.1.0", owned by the library (static). */
const char *dispman_version_string(void);

/* ------------------------------------------------------------------------------------ */
/* Logging */

enum dispman_log_level {
	DISPMAN_LOG_SILENT = 0,
	DISPMAN_LOG_ERROR = 1,
	DISPMAN_LOG_WARNING = 2,
	DISPMAN_LOG_INFO = 3,
	DISPMAN_LOG_DEBUG = 4,
};

/**
 * A log handler. fmt and args are only valid during the call; the message has no
 * trailing newline. data is the pointer given to dispman_log_set_handler().
 */
typedef void (*dispman_log_handler)(enum dispman_log_level level, const char *fmt,
	va_list args, void *data);

/**
 * Replace the process-wide log handler. handler NULL restores the default handler, which
 * prints to stderr. data is not owned by the library; it is passed back to handler.
 * Not thread-safe against concurrent logging. Returns 0.
 */
int dispman_log_set_handler(dispman_log_handler handler, void *data);

/**
 * Set the most verbose level that reaches the handler. The default is
 * DISPMAN_LOG_ERROR, or DISPMAN_LOG_DEBUG when the environment variable
 * DISPMAN_DEBUG is set to 1 when the first message is logged. Returns 0, or -EINVAL (and
 * logs it; the level stays) for a value that is not a dispman_log_level.
 */
int dispman_log_set_level(enum dispman_log_level level);

/**
 * Log one printf-style message at level through the process-wide handler, if level is
 * enabled (dispman_log_set_level()). For libraries built on libdispman
 * (libdispman-wayland logs through it) and applications that want their lines in the
 * same place as the library's. fmt NULL or level DISPMAN_LOG_SILENT logs nothing.
 * Keeps errno as it was.
 */
void dispman_log_write(enum dispman_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------------------------------ */
/* Devices */

/**
 * Open a KMS device.
 *
 * path: a DRM card node such as "/dev/dri/card0", read during the call only (the caller
 * keeps ownership of the string). NULL chooses a device by this rule:
 *
 * 1. The environment variable DISPMAN_DEVICE, when set and not empty: that node, and only
 *    it (a node that cannot be opened is an error, there is no fallback).
 * 2. Else the DRM card nodes (/dev/dri/cardN, listed through libudev, else by reading
 *    /dev/dri) in the order of their number N. A node is usable when it opens, has
 *    connectors and CRTCs and accepts DRM_CLIENT_CAP_ATOMIC. The first usable node with a
 *    connected connector wins; when no usable node has one, the first usable node.
 *
 * The choice is logged at info level; dispman_device_get_path() tells it afterwards. With
 * several drivers loaded (vkms beside a GPU, say) set DISPMAN_DEVICE: every example, tool
 * and test of this project opens its device with this rule or takes --device.
 *
 * Sets client caps UNIVERSAL_PLANES, ATOMIC (required) and WRITEBACK_CONNECTORS
 * (optional), and reads CRTCs, encoders, connectors and planes.
 *
 * Returns a device the caller owns (free with dispman_device_destroy()), or NULL with
 * errno set: ENOENT (no usable device found), EACCES (without a path: every card node
 * refused this process permission; run as root or through a seat), EOPNOTSUPP (the
 * driver has no atomic modesetting), ENOMEM, or the errno of open(2) or of a failed
 * libdrm call.
 */
struct dispman_device *dispman_device_open(const char *path);

/**
 * Create a device for an already open DRM fd. The fd is duplicated: the caller keeps
 * ownership of drm_fd and may close it at any time. Errors as dispman_device_open(),
 * plus EBADF for an invalid fd.
 */
struct dispman_device *dispman_device_create_for_fd(int drm_fd);

/**
 * The device node the device was opened on ("/dev/dri/card1"), owned by the device and
 * valid until it is destroyed; NULL when unknown (an fd that is not a /dev node).
 */
const char *dispman_device_get_path(struct dispman_device *dev);

/**
 * Destroy a device with its outputs and layers. Buffers still referenced by the caller
 * lose their kernel objects (framebuffer, GEM handles, mapping) and may only be unref'ed
 * afterwards. Outputs are left as they are on screen (no modeset). NULL is fine.
 */
void dispman_device_destroy(struct dispman_device *dev);

/**
 * The device's DRM fd. It stays owned by the device: do not close it. Useful for
 * libdrm queries the library does not cover.
 */
int dispman_device_get_drm_fd(struct dispman_device *dev);

/**
 * One pollable fd (an epoll fd) that becomes readable when dispman_device_dispatch()
 * has work. Owned by the device: do not close it, do not add or remove fds.
 */
int dispman_device_get_fd(struct dispman_device *dev);

/**
 * Wait up to timeout_ms for events (0: do not wait, -1: wait forever) and handle them:
 * page-flip completion, frame callbacks, buffer release callbacks, queued commits.
 *
 * Returns the number of events handled (0 on timeout) or a negative errno (EINTR is
 * returned as 0).
 */
int dispman_device_dispatch(struct dispman_device *dev, int timeout_ms);

/**
 * Commit the pending state of every output of the device.
 *
 * Page flips are nonblocking; a commit that needs a modeset (enable, disable, a new
 * mode) is blocking and uses ALLOW_MODESET. Layers are assigned to planes first (see
 * dispman_layer_get_placement()).
 *
 * Each output goes at its own pace: when only buffers changed since the last commit, the
 * outputs without a pending page flip are committed now in one atomic request, and an
 * output whose flip is still pending gets its new state queued and committed from
 * dispman_device_dispatch() right after its own flip event, without waiting for the other
 * outputs' flips. A commit that changes the scene's shape (layers created, destroyed,
 * moved, resized, restacked, shown, hidden, a buffer of another size or format, alpha or
 * blend changes) or needs a modeset covers the whole device: while any flip is pending it
 * is queued until every flip is done. A queued commit makes this function return 0.
 *
 * A commit asked for while the library handles events (from any callback it runs: frame,
 * shown, release, output or input callbacks; or a camera's new frame) is queued too and
 * returns 0: it is made once the callbacks of that batch of events are done, before
 * dispman_device_dispatch() (or the call that handled the events) returns, and after
 * each output's own flip as above. Its failure, like any queued commit's, is logged and
 * told to the error callback of each output it covered (see
 * dispman_output_set_error_callback()); -EACCES (paused) is still returned at once.
 *
 * Returns 0, or -EACCES when the device lost DRM master (commits are paused, logged
 * once; see dispman_device_resume()), -EINVAL/-ERANGE/-ENOSPC when the kernel rejected
 * even the smallest configuration (or dev NULL), -ENOMEM, or another negative errno from
 * the kernel.
 */
int dispman_device_commit(struct dispman_device *dev);

/**
 * Whether commits are paused because DRM master was lost (EACCES/EPERM from the kernel).
 */
bool dispman_device_is_paused(struct dispman_device *dev);

/**
 * Leave the paused state after DRM master was given back (by whoever manages the VT, e.g.
 * logind's ResumeDevice): the device tries drmSetMaster() on its fd and leaves the paused
 * state; the next commit restores the whole state (every enabled output with its mode and
 * layers, every other plane of the device turned off) as one modeset commit. If master is
 * in fact still held by someone else, that commit pauses again. Returns 0.
 *
 * While paused, the device also tries to regain master by itself, at most every 500 ms: on
 * a timer inside dispman_device_dispatch() (which then commits the restoring modeset at
 * once, even if the application is idle) and on each dispman_device_commit(). This
 * succeeds when no other process is master and the device's fd was master before (or the
 * process has CAP_SYS_ADMIN). Frames committed while paused are not shown: their buffers
 * get no release callback until a later frame replaced them on screen.
 */
int dispman_device_resume(struct dispman_device *dev);

/**
 * Ask the seat the device was opened through to switch to virtual terminal vt (1 to 63),
 * as Ctrl+Alt+Fn does on a desktop: libseat_switch_session() with seatd or logind. The
 * switch itself happens later, through the seat: the device is paused (commits return
 * -EACCES) when the seat disables it, and restored with one modeset when the seat comes
 * back (see dispman_device_is_paused()). Switching to the VT already in front does
 * nothing visible.
 *
 * Returns 0 when the request was sent; -EINVAL (dev NULL, vt out of range); -ENOTSUP (the
 * device was not opened through a seat: see dispman_device_open() and DISPMAN_SEAT, or
 * libdispman was built without libseat); or the -errno of libseat (its backend may not
 * support switching: libseat's builtin backend, or a seat without VTs). Each error is
 * logged with its reason.
 */
int dispman_device_switch_vt(struct dispman_device *dev, int vt);

enum dispman_output_event {
	DISPMAN_OUTPUT_CONNECTED = 1,    /* the connector became connected (or appeared) */
	DISPMAN_OUTPUT_DISCONNECTED = 2, /* the connector was unplugged (or disappeared) */
	DISPMAN_OUTPUT_CHANGED = 3,      /* still connected; modes or physical size changed */
};

/**
 * Called from dispman_device_dispatch() (or dispman_device_probe()) after a hotplug
 * re-probe changed an output. out is owned by the device and stays valid until the device
 * is destroyed: outputs are never freed by hotplug, a vanished connector just stays
 * DISCONNECTED. Mode pointers of out obtained before the callback may be stale (the mode
 * list is replaced when it changed): get them again.
 *
 * Before the callback runs, the library has already acted: an output that was enabled is
 * disabled when it is DISCONNECTED (its layers stay, with their buffers, but are not
 * committed; the buffers it had on screen are released after the disabling commit), and
 * enabled again when it is CONNECTED again, with the same mode (or the preferred one if
 * that mode is gone). A commit with that state follows the callback, so the callback may
 * adjust the scene (new buffers for a new mode size, dispman_output_disable(), ...).
 */
typedef void (*dispman_output_callback)(struct dispman_device *dev, struct dispman_output *out,
	enum dispman_output_event event, void *data);

/**
 * Set (cb NULL: remove) the output callback; data is passed back, never owned. Returns 0 or
 * -EINVAL (dev NULL).
 */
int dispman_device_set_output_callback(struct dispman_device *dev, dispman_output_callback cb,
	void *data);

/**
 * Re-probe every connector now (drmModeGetConnector, which may take a while on real
 * hardware) and handle changes as a hotplug event does. The library calls it itself on
 * DRM hotplug uevents: from udevd's monitor when udevd runs, else from the kernel's uevent
 * netlink group. Returns the number of outputs that changed, or a negative errno
 * (-EINVAL for NULL, or libdrm's when the resources cannot be read).
 */
int dispman_device_probe(struct dispman_device *dev);

struct dispman_stats {
	size_t size;            /* set by the caller: sizeof(struct dispman_stats) */
	uint64_t commits;       /* real (non TEST_ONLY) atomic commits accepted */
	uint64_t test_commits;  /* TEST_ONLY atomic commits issued */
	uint64_t failed_commits;/* real atomic commits rejected */
	uint64_t flips;         /* page-flip events handled */
	uint64_t modesets;      /* real commits with ALLOW_MODESET accepted */
	uint64_t searches;      /* plane assignments searched (new shapes) */
	uint64_t compositions;  /* frames drawn on the CPU into a composition buffer */
	/* commits that moved or resized layers on the previous assignment without a search */
	uint64_t geometry_commits;
	/* of those, refused by the kernel: searched and committed again in the same call */
	uint64_t geometry_refused;
	uint64_t damaged_pixels;   /* pixels of the regions redrawn in composition buffers */
	uint64_t composed_pixels;  /* pixels written there (black fill included) */
	uint64_t composition_bytes;      /* composition buffer memory allocated now */
	uint64_t composition_bytes_peak; /* the most allocated at once */
	/* of commits: frames that only put new buffers on the planes one output already
	 * showed (the committed assignment kept, no new rectangle, nothing drawn, one
	 * output in the request): the request is their FB_IDs alone */
	uint64_t buffer_commits;
};

/**
 * Copy the device's counters into *stats (caller-owned storage; a struct that grows, see
 * the top of this header: set stats->size first). Returns 0 or -EINVAL (dev or stats NULL,
 * stats->size too small).
 */
int dispman_device_get_stats(struct dispman_device *dev, struct dispman_stats *stats);

/**
 * Bound the search for a plane assignment that runs when the scene's shape changed (layers
 * added, removed, moved, restacked, new buffer sizes or formats): at most max_tests TEST_ONLY
 * commits and max_usec microseconds of CLOCK_MONOTONIC time per commit (the first test
 * always runs; time bounds the retries). 0 selects the default: 16 tests, 16000 us (a frame
 * at 60 Hz). When the budget runs out, every layer is composited (reason BUDGET). Frames
 * of an unchanged shape reuse the previous assignment without any TEST_ONLY commit.
 * Returns 0 or -EINVAL (dev NULL).
 */
int dispman_device_set_alloc_budget(struct dispman_device *dev, unsigned max_tests,
	unsigned max_usec);

struct dispman_limits {
	size_t size;                     /* set by the caller: sizeof(struct dispman_limits) */
	uint32_t min_width, max_width;   /* framebuffer size limits from the resources */
	uint32_t min_height, max_height;
	uint32_t cursor_width, cursor_height; /* DRM_CAP_CURSOR_*, 64x64 when unknown */
};

/**
 * Copy the device's limits into *limits (caller-owned storage; a struct that grows: set
 * limits->size first). Returns 0 or -EINVAL (dev or limits NULL, limits->size too small).
 */
int dispman_device_get_limits(struct dispman_device *dev, struct dispman_limits *limits);

/**
 * Number of outputs: one per connector, writeback connectors excluded.
 */
size_t dispman_device_get_output_count(struct dispman_device *dev);

/**
 * Output number i (0 <= i < count), owned by the device, valid until the device is
 * destroyed. Returns NULL (errno EINVAL) when i is out of range.
 */
struct dispman_output *dispman_device_get_output(struct dispman_device *dev, size_t i);

/**
 * The first output whose connector is connected, owned by the device, or NULL
 * (errno ENOENT, with a log line) when none is.
 */
struct dispman_output *dispman_device_get_first_connected_output(struct dispman_device *dev);

enum dispman_describe_format {
	DISPMAN_DESCRIBE_TEXT,
	DISPMAN_DESCRIBE_JSON,
	DISPMAN_DESCRIBE_DOT,
};

/**
 * Print the KMS pipeline: connectors (writeback included), encoders, CRTCs, planes with
 * type, formats, modifiers, possible CRTCs and every property with its current value.
 * DOT is a Graphviz graph planes -> CRTCs -> encoders -> connectors. The stream stays
 * owned by the caller and is not closed. Returns 0, -EINVAL or the errno of a failed
 * libdrm call or write.
 */
int dispman_device_describe(struct dispman_device *dev, enum dispman_describe_format format,
	FILE *out);

/* ------------------------------------------------------------------------------------ */
/* Outputs */

enum dispman_connection {
	DISPMAN_CONNECTED = 1,
	DISPMAN_DISCONNECTED = 2,
	DISPMAN_CONNECTION_UNKNOWN = 3,
};

#define DISPMAN_MODE_PREFERRED (1u << 0)

struct dispman_mode {
	uint32_t width, height;
	uint32_t refresh_mhz;   /* refresh rate in millihertz */
	uint32_t flags;         /* DISPMAN_MODE_* */
	char name[32];
};

/** The device the output belongs to (not owned by the caller). */
struct dispman_device *dispman_output_get_device(struct dispman_output *out);

/** Connector name such as "Virtual-1"; owned by the output, valid for its lifetime. */
const char *dispman_output_get_name(struct dispman_output *out);

/** The KMS connector id of the output (stable while the device is open). */
uint32_t dispman_output_get_connector_id(struct dispman_output *out);

/** The CRTC driving the output, 0 when the output is not enabled. */
uint32_t dispman_output_get_crtc_id(struct dispman_output *out);

/**
 * Whether a display is plugged in, as of the last probe (at open, and at each hotplug
 * event handled by dispman_device_dispatch()).
 */
enum dispman_connection dispman_output_get_status(struct dispman_output *out);

/** Physical size in millimetres (0 when unknown); either pointer may be NULL. */
void dispman_output_get_physical_size(struct dispman_output *out, uint32_t *width_mm,
	uint32_t *height_mm);

/** Number of modes of the output (0 when disconnected); see dispman_output_get_mode(). */
size_t dispman_output_get_mode_count(struct dispman_output *out);

/**
 * Mode number i, owned by the output, or NULL (errno EINVAL) when out of range. Valid
 * until a hotplug re-probe replaces the output's mode list (see dispman_output_callback)
 * or the device is destroyed.
 */
const struct dispman_mode *dispman_output_get_mode(struct dispman_output *out, size_t i);

/**
 * The preferred mode (the first one flagged preferred, else the first mode), owned by
 * the output, or NULL (errno ENOENT) when the output has no modes.
 */
const struct dispman_mode *dispman_output_get_preferred_mode(struct dispman_output *out);

/**
 * The mode of the pending state (after dispman_output_enable()), owned by the output, or
 * NULL when the output is disabled. This is what the next commit sets, not necessarily
 * what the kernel shows now: dispman_output_get_active_mode() gives that.
 */
const struct dispman_mode *dispman_output_get_current_mode(struct dispman_output *out);

/**
 * Enable the output with a mode at the next commit (a modeset, done only when needed).
 *
 * mode: NULL selects the preferred mode. A pointer returned by dispman_output_get_mode()
 * selects that mode; any other pointer (read during the call only) selects the first of
 * the output's modes with the same width, height and refresh_mhz (refresh_mhz 0: any).
 *
 * A CRTC is chosen among the encoders' possible CRTCs not used by another output.
 * Returns 0, -ENOENT (no such mode), -EBUSY (no free CRTC) or -ENOMEM.
 */
int dispman_output_enable(struct dispman_output *out, const struct dispman_mode *mode);

/** Disable the output at the next commit (a modeset). Returns 0. */
int dispman_output_disable(struct dispman_output *out);

/** Whether the pending state has the output enabled (dispman_output_enable()). */
bool dispman_output_is_enabled(struct dispman_output *out);

/**
 * How an output's picture is turned for its viewer, or how a layer's buffer content is
 * turned (dispman_layer_set_transform()): the eight wl_output.transform values, with the
 * same numbers and meaning. The transform maps the upright picture to the scanout buffer:
 * with DISPMAN_TRANSFORM_90, the upright picture's top edge is the scanout's right edge
 * (rotated 90 degrees clockwise: a screen turned 90 degrees counter-clockwise, its right
 * edge up, shows it upright). The FLIPPED ones first mirror the picture left to right,
 * then rotate it as their unflipped twin.
 */
enum dispman_transform {
	DISPMAN_TRANSFORM_NORMAL = 0,
	DISPMAN_TRANSFORM_90 = 1,
	DISPMAN_TRANSFORM_180 = 2,
	DISPMAN_TRANSFORM_270 = 3,
	DISPMAN_TRANSFORM_FLIPPED = 4,
	DISPMAN_TRANSFORM_FLIPPED_90 = 5,
	DISPMAN_TRANSFORM_FLIPPED_180 = 6,
	DISPMAN_TRANSFORM_FLIPPED_270 = 7,
};

/**
 * Turn everything the output shows from the next commit on (portrait signage, a screen
 * mounted upside down). Layer rectangles are then in the viewer's space: with 90 or 270
 * (and their FLIPPED twins) it is the mode's height wide and its width high
 * (dispman_output_get_size()). Each layer is turned by its plane's "rotation" property
 * where the plane has the values it needs (checked like any other plane capability: a
 * layer no plane can turn is composed on the CPU, placement reason ROTATION), else drawn
 * turned into the composition buffer. dispman_output_capture() returns the frame as the
 * viewer sees it, and dispman_input's pointer and touch positions follow the transform.
 * Returns 0, or -EINVAL (out NULL, or a value outside enum dispman_transform; logged).
 */
int dispman_output_set_transform(struct dispman_output *out, enum dispman_transform transform);

/** The output's transform (dispman_output_set_transform()); NORMAL (logged) for a NULL out. */
enum dispman_transform dispman_output_get_transform(struct dispman_output *out);

/**
 * Show buf full-screen on the output at the next commit through an internal layer at the
 * bottom of the stack (below every dispman_layer). The output takes its own reference to
 * buf; the caller keeps its own. buf NULL removes it. As with dispman_layer_set_buffer(),
 * the same buffer set again means new content (set it again after drawing into it).
 * Returns 0 or -EINVAL (out NULL, or a buffer of another device).
 */
int dispman_output_set_buffer(struct dispman_output *out, struct dispman_buffer *buf);

/**
 * Commit the pending state of this output only (see dispman_device_commit()): it does not
 * wait for, nor commit, the other outputs, unless the commit changes the scene's shape or
 * needs a modeset, which covers the whole device as in dispman_device_commit(). Errors
 * as dispman_device_commit(); -EINVAL when out is NULL.
 */
int dispman_output_commit(struct dispman_output *out);

/**
 * Called from dispman_device_dispatch() when a frame committed on the output reached the
 * screen (page-flip event). sequence is the CRTC's vblank counter (always 0 on drivers
 * without one, such as virtio-gpu), time its CLOCK_MONOTONIC timestamp (valid during the
 * call only). A commit from the callback is queued (see dispman_device_commit()) and made
 * once the frame callbacks of this batch of flips returned; then the buffers that left the
 * screen with this flip are released, except those that commit put back on screen.
 *
 * The callback runs at most once per refresh period on every driver. Where flips do not
 * wait for a vblank (no vblank counter: the pacing clock is DISPMAN_PACING_TIMESTAMP;
 * virtio-gpu completes a flip that changes nothing at once), the callback of a flip that
 * came within the period of the previous callback runs later, from a timer in
 * dispman_device_dispatch(), at the mode's next vblank time reckoned from the flips'
 * timestamps; it then carries the latest flip's sequence and time. Buffer releases are
 * not delayed.
 */
typedef void (*dispman_frame_callback)(struct dispman_output *out, uint64_t sequence,
	const struct timespec *time, void *data);

/**
 * Set (cb NULL: remove) the frame callback; data is passed back, never owned. Returns 0 or
 * -EINVAL (out NULL).
 */
int dispman_output_set_frame_callback(struct dispman_output *out, dispman_frame_callback cb,
	void *data);

/**
 * Called when a commit that was queued failed: one asked for from a callback, or while the
 * output's flip was pending, whose call returned 0 (see dispman_device_commit()). It runs
 * inside dispman_device_dispatch() (or dispman_output_capture*(), which handles events),
 * once for each output the failed commit covered, after the failure was logged.
 *
 * err is the negative errno the commit would have returned had it been made at once:
 * -EINVAL, -ERANGE or -ENOSPC (the kernel rejected even the smallest configuration),
 * -ENOMEM, or another kernel errno; never -EACCES (a lost DRM master pauses commits, see
 * dispman_device_is_paused()). Nothing of that commit reached the screen: no frame
 * callback will come for it, and the pending state stays as the application left it. An
 * application that commits its next frame from the frame callback must act here (or after
 * dispman_device_dispatch() returned): change the scene, commit again, or stop. A commit
 * asked for from this callback is queued like one from any callback and made with the
 * next events handled; one made after dispman_device_dispatch() returned is made at once
 * and returns its error. Do not destroy the device from the callback.
 */
typedef void (*dispman_commit_error_callback)(struct dispman_output *out, int err,
	void *data);

/**
 * Set (cb NULL: remove) the output's commit error callback; data is passed back, never
 * owned. Without one, the failure of a queued commit is only logged. Returns 0 or -EINVAL
 * (out NULL).
 */
int dispman_output_set_error_callback(struct dispman_output *out,
	dispman_commit_error_callback cb, void *data);

/** The clock frame pacing counts vblanks with (dispman_output_stats.clock). */
enum dispman_pacing_clock {
	DISPMAN_PACING_NONE = 0,      /* no two flips compared yet */
	DISPMAN_PACING_SEQUENCE = 1,  /* the CRTC's vblank counter in the flip events */
	/*
	 * The flips' timestamps and the mode's refresh period: the driver has no vblank
	 * counter (its flip events all carry one sequence, as virtio-gpu's carry 0). The
	 * vblanks between two flips are their time difference in periods, rounded.
	 */
	DISPMAN_PACING_TIMESTAMP = 2,
};

/**
 * Frame pacing of one output. A frame is "in time" when it was committed before the vblank
 * that followed the previous flip (previous flip's time + one refresh period); such a frame
 * should reach the screen at the very next vblank. missed_vblanks counts the vblanks it
 * came later than that (sequence - previous sequence - 1, summed). Frames committed late
 * (the application was slow, or idle) are counted in late_frames and their gap in
 * skipped_vblanks, not as misses. The first flip after a modeset starts a new run and counts
 * neither.
 *
 * The vblanks between two flips come from the flips' vblank sequence while it advances;
 * on the first flip whose sequence does not advance (a driver without a vblank counter,
 * logged at info level) the output counts with the flips' timestamps from then on. clock
 * says which of the two the counters come from.
 */
struct dispman_output_stats {
	size_t size;              /* set by the caller: sizeof(struct dispman_output_stats) */
	uint64_t frames;          /* page flips completed on the output */
	uint64_t missed_vblanks;  /* vblanks lost by frames committed in time */
	uint64_t late_frames;     /* frames whose commit call started after the vblank they
	                           * could have made */
	uint64_t skipped_vblanks; /* vblanks without a new frame because of late frames */
	uint64_t last_sequence;   /* CRTC vblank counter of the last flip */
	struct timespec last_time;/* CLOCK_MONOTONIC time of the last flip */
	uint32_t refresh_mhz;     /* refresh of the committed mode, 0 when inactive */
	enum dispman_pacing_clock clock; /* what the vblank counts above were counted with */
	/*
	 * TIMESTAMP clock only: flips that completed in the same refresh period as the one
	 * before (the driver does not hold flips to its refresh rate, as virtio-gpu does
	 * not). Such a flip took no vblank of its own: frames - early_flips + missed_vblanks +
	 * skipped_vblanks spans the run's time in refresh periods. Always 0 with SEQUENCE.
	 */
	uint64_t early_flips;
};

/**
 * Copy the output's pacing counters into *stats (caller-owned storage; a struct that grows:
 * set stats->size first). Returns 0 or -EINVAL (out or stats NULL, stats->size too small).
 */
int dispman_output_get_stats(struct dispman_output *out, struct dispman_output_stats *stats);

/**
 * Predict the output's next vblank: the first vblank after now on the grid of the last
 * page flip's timestamp (CLOCK_MONOTONIC, as the flip events and
 * dispman_output_stats.last_time) and the committed mode's refresh period. For a compositor
 * that commits late: a frame committed dispman_output_get_commit_cost() before this time
 * should reach the screen at it. On a driver whose flips do not wait for a vblank
 * (dispman_output_stats.clock DISPMAN_PACING_TIMESTAMP, virtio-gpu) the grid is the pacing
 * grid of its flips, not a vblank the device waits for.
 *
 * Writes *when (caller-owned storage). Returns 0, -EINVAL (out or when NULL), or -ENODATA:
 * the output is off, has not flipped since its last modeset, or its mode has no period.
 */
int dispman_output_get_next_vblank(struct dispman_output *out, struct timespec *when);

/**
 * The commit cost the library learned on this output, in nanoseconds: how long before the
 * vblank a frame aims at its commit call must start (dispman_output_commit() or
 * dispman_device_commit()) to make that vblank. Each flip gives one sample: the time its
 * commit call took to the atomic ioctl's return, or, when the flip came a vblank later
 * than the one predicted at the call's start (dispman_output_get_next_vblank()), the time
 * the call had before that vblank plus a tenth of a refresh period; a modeset gives none.
 * The cost is the 90th percentile of the last 32 samples (the 4th largest), each at most
 * one refresh period: one slow frame (a new buffer allocated in its commit) does not move
 * it, frames that miss their vblank more than one time in ten raise it. It does not count
 * the caller's own work before the call. The library learns it only on an output it was
 * asked for: the first call on an output starts the learning (and returns -ENODATA), so a
 * program that never asks pays no clock read for it; later calls give the cost of the
 * frames flipped since.
 *
 * Writes *cost_ns (caller-owned storage). Returns 0, -EINVAL (out or cost_ns NULL), or
 * -ENODATA: no frame (other than a modeset) flipped on this output since the first call.
 */
int dispman_output_get_commit_cost(struct dispman_output *out, uint64_t *cost_ns);

/** How dispman_output_capture_with() gets the frame. */
enum dispman_capture_path {
	/* writeback when the output's CRTC has a writeback connector, else CPU */
	DISPMAN_CAPTURE_AUTO = 0,
	/* the kernel composes the frame into a writeback connector's buffer */
	DISPMAN_CAPTURE_WRITEBACK = 1,
	/* the library composes, on the CPU, what it put on the output's planes */
	DISPMAN_CAPTURE_CPU = 2,
};

/**
 * Capture the frame of an enabled, committed output.
 *
 * path chooses how (DISPMAN_CAPTURE_AUTO: writeback first). The writeback path reads back
 * what the hardware composed. The CPU path composes, with the fallback compositor's rules
 * (stacking order, plane alpha, blend mode, source and destination rectangles, black
 * below), the buffers the library itself put on the output's planes in the frame on
 * screen; it reads those buffers, not the screen, so anything another client drew, the
 * CRTC's gamma or a hardware cursor the library did not set is not in it, and plane
 * scaling is the library's bilinear filter, not the hardware's.
 *
 * On success *frame is a new XRGB8888 dumb buffer of the output's size as the viewer sees
 * it (dispman_output_get_size(): with an output transform, the screen's picture turned
 * back upright, on the CPU; the mode's size otherwise); the caller owns one
 * reference (release it with dispman_buffer_unref()). If used is not NULL, *used is set to
 * the path taken (DISPMAN_CAPTURE_AUTO on failure).
 *
 * The frame captured is the newest one committed before the call, once it is on screen:
 * the one in flight, or one still queued behind a pending flip (it is let go first), or
 * the one on screen when none is in flight. The call handles DRM events while it waits,
 * so frame callbacks keep running: commits made from them (or from anywhere during the
 * call) are queued and made right after the capture. The wait for the frame and the
 * writeback fence last at most ten seconds each. Limit: some drivers (vkms in Linux 6.1)
 * cannot drive the output's connector and the writeback connector from one CRTC at once;
 * then the CRTC is routed to the writeback connector alone for one frame (a modeset: the
 * screen goes blank briefly) and the output is restored with a second modeset.
 *
 * Returns 0, or (each logged with the cause): -EINVAL (frame NULL, unknown path, output
 * not enabled and committed, or for the CPU path no frame of this library on screen),
 * -ENOTSUP (DISPMAN_CAPTURE_WRITEBACK without a writeback connector for the output's
 * CRTC; for the CPU path a buffer on a plane the CPU cannot read, such as a tiled
 * modifier or a format pixman lacks, or a build without pixman), -ETIMEDOUT (no page-flip
 * event for the frame in flight, or the writeback fence did not signal), -EACCES (DRM
 * master lost), or another negative errno.
 */
int dispman_output_capture_with(struct dispman_output *out, enum dispman_capture_path path,
	struct dispman_buffer **frame, enum dispman_capture_path *used);

/** dispman_output_capture_with(out, DISPMAN_CAPTURE_AUTO, frame, NULL). */
int dispman_output_capture(struct dispman_output *out, struct dispman_buffer **frame);

/* ------------------------------------------------------------------------------------ */
/* Layers */

enum dispman_blend_mode {
	DISPMAN_BLEND_PREMULTIPLIED = 0,
	DISPMAN_BLEND_COVERAGE = 1,
	DISPMAN_BLEND_NONE = 2,
};

enum dispman_placement_state {
	DISPMAN_PLACEMENT_NOT_SHOWN = 0,
	DISPMAN_PLACEMENT_ON_PLANE = 1,
	DISPMAN_PLACEMENT_COMPOSITED = 2, /* drawn by the CPU into the composition buffer */
};

enum dispman_placement_reason {
	DISPMAN_REASON_NONE = 0,
	DISPMAN_REASON_FORMAT,          /* no free plane takes the buffer's format */
	DISPMAN_REASON_MODIFIER,        /* format ok, modifier not */
	DISPMAN_REASON_SCALING,         /* source and destination sizes differ */
	DISPMAN_REASON_NO_PLANE,        /* no plane left for this output */
	DISPMAN_REASON_KERNEL_REJECTED, /* the TEST_ONLY commit refused it */
	DISPMAN_REASON_INVISIBLE,       /* not visible, no buffer, or wholly off-screen */
	DISPMAN_REASON_ALPHA,           /* plane alpha or blend mode no free plane can do */
	DISPMAN_REASON_STACKING,        /* below a composited layer it overlaps */
	DISPMAN_REASON_BUDGET,          /* the search ran out of TEST_ONLY commits or time */
	DISPMAN_REASON_SOURCE,          /* source not inside the buffer, or under one pixel */
	DISPMAN_REASON_DESTINATION,     /* destination beyond DISPMAN_MAX_COORD */
	/* a camera layer showing CPU copies: the display cannot import the camera's memory
	 * nor the camera the display's (see dispman_camera_create()) */
	DISPMAN_REASON_IMPORT,
	DISPMAN_REASON_ROTATION,        /* no free plane can turn it ("rotation" property) */
};

/**
 * Largest destination width or height, and largest distance of a destination's edge from
 * the output's origin, that a layer can have and still be shown (16-bit coordinates, as
 * the CPU compositor and most KMS drivers address them). A layer beyond it is NOT_SHOWN
 * with the reason DESTINATION.
 */
#define DISPMAN_MAX_COORD 32767

struct dispman_placement {
	enum dispman_placement_state state;
	uint32_t plane_id;              /* 0 unless state is ON_PLANE */
	enum dispman_placement_reason reason;
};

/**
 * Create a layer on an output. The output owns the layer: it is destroyed with the
 * device at the latest. New layers are visible, z 0, opaque, premultiplied, without a
 * buffer. Returns NULL with errno ENOMEM.
 */
struct dispman_layer *dispman_layer_create(struct dispman_output *out);

/** Destroy a layer (it leaves the screen at the next commit). NULL is fine. */
void dispman_layer_destroy(struct dispman_layer *layer);

/**
 * Set the layer's buffer. The layer takes a new reference (the caller keeps its own);
 * the previous buffer's reference is dropped. NULL shows nothing. Unless set explicitly,
 * source and destination rectangles follow the buffer's size. Setting the same buffer
 * again means new content: a buffer drawn into in place must be set again before the
 * commit, or a layer composited on the CPU keeps showing its old pixels. Returns 0 or
 * -EINVAL (layer NULL, or a buffer of another device).
 */
int dispman_layer_set_buffer(struct dispman_layer *layer, struct dispman_buffer *buf);

/*
 * Layer setters take effect at the next commit. Each returns 0, or a negative errno with a
 * log line and the layer unchanged: -EINVAL for a NULL layer or an unknown enum value,
 * -ERANGE for a number outside the range its comment gives.
 */

/**
 * Source rectangle in 16.16 fixed point. w or h 0 resets to the whole buffer. Returns
 * -ERANGE when x + w or y + h exceeds UINT32_MAX (no buffer reaches there). A rectangle
 * not inside the layer's buffer at commit time leaves the layer NOT_SHOWN (reason SOURCE).
 */
int dispman_layer_set_source(struct dispman_layer *layer, uint32_t x, uint32_t y, uint32_t w,
	uint32_t h);

/**
 * Destination rectangle on the output in pixels. w or h 0 resets to the buffer size.
 * Returns -ERANGE when x + w or y + h exceeds INT32_MAX. A destination beyond
 * DISPMAN_MAX_COORD at commit time leaves the layer NOT_SHOWN (reason DESTINATION).
 */
int dispman_layer_set_destination(struct dispman_layer *layer, int32_t x, int32_t y,
	uint32_t w, uint32_t h);

/** Stacking order: higher z is above. Equal z: creation order. Any int. */
int dispman_layer_set_z(struct dispman_layer *layer, int z);

/** Plane alpha, 0 (transparent) to 0xffff (opaque, the default); -ERANGE above 0xffff. */
int dispman_layer_set_alpha(struct dispman_layer *layer, uint32_t alpha);

/**
 * How the buffer's alpha channel is used: PREMULTIPLIED (the default), COVERAGE (straight
 * alpha) or NONE (alpha ignored); -EINVAL for any other value. Only buffers with an alpha
 * channel are affected. A plane without the "pixel blend mode" property takes only
 * PREMULTIPLIED; other modes are then composited (reason ALPHA).
 */
int dispman_layer_set_blend_mode(struct dispman_layer *layer, enum dispman_blend_mode mode);

/**
 * How the layer's buffer content is turned (wl_surface.set_buffer_transform): the buffer
 * holds the upright picture transformed by transform, and the layer shows it upright on
 * the output. The source rectangle stays in buffer coordinates; the default destination
 * size is the buffer's, swapped for 90 and 270. A buffer drawn with the output's own
 * transform (dispman_output_set_transform()) is scanned out as it is, with no plane
 * rotation and no composition. Default NORMAL. Returns 0, or -EINVAL (layer NULL, or a
 * value outside enum dispman_transform; logged).
 */
int dispman_layer_set_transform(struct dispman_layer *layer, enum dispman_transform transform);

/**
 * Show or hide the layer from the next commit on. A hidden layer keeps its buffer and
 * its settings; it is NOT_SHOWN with the reason INVISIBLE.
 */
int dispman_layer_set_visible(struct dispman_layer *layer, bool visible);

/**
 * The cursor hotspot of the layer: the pixel of its buffer (x, y from the buffer's top
 * left) that points. Drivers with virtualized cursor planes (virtio-gpu, vmwgfx, qxl) need
 * it to forward the pointer to the host: the library sets
 * DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT where the kernel has it (Linux 6.8+; without it
 * those kernels hide such cursor planes from atomic clients) and programs the plane's
 * HOTSPOT_X/HOTSPOT_Y from this when the layer is on such a plane. Planes without those
 * properties ignore it; the layer's destination is not moved by it.
 * dispman_input_set_cursor_layer() sets it from its own hot spot. Default (0, 0).
 * Returns 0 or -EINVAL (NULL layer).
 */
int dispman_layer_set_cursor_hotspot(struct dispman_layer *layer, int32_t x, int32_t y);

/**
 * The layer's buffer: *buf receives a new reference the caller owns (release it with
 * dispman_buffer_unref()), or NULL when the layer has none. Returns 0 or -EINVAL.
 */
int dispman_layer_get_buffer(struct dispman_layer *layer, struct dispman_buffer **buf);

/**
 * Where the last commit the kernel accepted (a queued one included, once made) put the
 * layer, into caller-owned *placement (a refused or failed commit leaves it unchanged):
 * ON_PLANE with the plane id; COMPOSITED (drawn on the CPU into the output's composition
 * buffer, which sits on the primary plane below every layer on another plane) with the
 * reason it got no plane; or NOT_SHOWN, nothing of it drawn, with the reason: INVISIBLE
 * (hidden, no buffer, alpha 0 or wholly off-screen), SOURCE (the source rectangle is not
 * inside the buffer, or is under one pixel wide or high), DESTINATION (width, height or an
 * edge beyond DISPMAN_MAX_COORD), or, for a buffer the CPU compositor cannot read, why no
 * plane took it (FORMAT, MODIFIER, NO_PLANE, ...). SOURCE and DESTINATION also log a
 * warning naming the rectangle. A camera layer whose frames a plane cannot
 * take in their own format and are converted on the CPU (DISPMAN_CAMERA_ALLOW_COPY)
 * reports ON_PLANE with the reason FORMAT; one whose frames are CPU copies because the
 * display and the camera could not share buffers reports ON_PLANE with the reason IMPORT. Returns 0 or -EINVAL.
 *
 * A layer whose content changes without a new buffer must be given its buffer again with
 * dispman_layer_set_buffer(): that is how the compositor learns what to redraw.
 */
int dispman_layer_get_placement(struct dispman_layer *layer, struct dispman_placement *placement);

/* ------------------------------------------------------------------------------------ */
/* Buffers */

/**
 * Create a CPU-mapped dumb buffer. fourcc must be a format the library knows
 * (DRM_FORMAT_XRGB8888, ARGB8888, XBGR8888, ABGR8888, RGB565, XRGB2101010, the packed YUV
 * formats YUYV, UYVY, ..., or a multi-planar YUV format: NV12, NV21, NV16, NV61, NV24,
 * YUV420, YVU420, YUV422, YUV444). A multi-planar buffer is one dumb object holding its
 * planes one after the other, all with the same pitch; write each plane through
 * dispman_buffer_map_plane() (dispman_buffer_map() maps single-plane buffers only).
 *
 * When the kernel refuses a framebuffer for it (AddFB2 fails with EINVAL, as vkms in
 * Linux 6.12 (not 6.1) and many drivers do for a format no plane takes, or ENOENT,
 * virtio-gpu's answer), the buffer is still created, without a framebuffer (dispman_buffer_get_fb_id() returns 0; logged at info level): it
 * can only be composed on the CPU, and a layer showing it reports COMPOSITED with the
 * reason FORMAT (NOT_SHOWN, FORMAT when the compositor cannot read the format either).
 *
 * Returns a buffer with one reference owned by the caller, or NULL with errno: EINVAL
 * (unknown format, zero size), ERANGE (beyond the device's limits), or the errno of the
 * kernel.
 */
struct dispman_buffer *dispman_buffer_create_dumb(struct dispman_device *dev, uint32_t width,
	uint32_t height, uint32_t fourcc);

/**
 * Create a GBM buffer object for scanout. modifiers (n entries, read during the call
 * only) lists acceptable modifiers; n 0 lets GBM choose a linear layout.
 * Returns a buffer with one reference owned by the caller, or NULL with errno: ENOTSUP
 * (built without GBM), EINVAL, ERANGE, or the errno of GBM.
 */
struct dispman_buffer *dispman_buffer_create_gbm(struct dispman_device *dev, uint32_t width,
	uint32_t height, uint32_t fourcc, const uint64_t *modifiers, size_t n);

struct dispman_dmabuf_desc {
	uint32_t width, height;
	uint32_t fourcc;
	uint64_t modifier;      /* DRM_FORMAT_MOD_INVALID: implicit */
	uint32_t n_planes;      /* 1..4, must match the format */
	int fds[4];             /* borrowed: duplicated by the import, never taken */
	uint32_t offsets[4];
	uint32_t pitches[4];
};

/**
 * Import a dma-buf. The descriptor and its fds stay owned by the caller (the fds are
 * duplicated). Returns a buffer with one reference owned by the caller, or NULL with
 * errno: EINVAL (unknown fourcc, n_planes wrong for the format, size 0, pitch too small,
 * plane beyond the dma-buf's size, a modifier no plane of the device takes), ERANGE
 * (size beyond the device's limits), EBADF (invalid fd), or the errno of the kernel.
 *
 * An explicit DRM_FORMAT_MOD_LINEAR also works on a device without
 * DRM_CAP_ADDFB2_MODIFIERS (virtio-gpu): the framebuffer is then made without modifiers,
 * which means linear there; any other explicit modifier fails there with EINVAL. The same
 * holds for every framebuffer the library creates (GBM buffers included).
 */
struct dispman_buffer *dispman_buffer_import_dmabuf(struct dispman_device *dev,
	const struct dispman_dmabuf_desc *desc);

/**
 * Export the buffer's first plane as a dma-buf. On success *fd is a new fd the caller
 * owns (close it). Returns 0 or a negative errno.
 */
int dispman_buffer_export_dmabuf(struct dispman_buffer *buf, int *fd);

/** Take a reference. Returns buf (NULL with errno EINVAL when buf is NULL). */
struct dispman_buffer *dispman_buffer_ref(struct dispman_buffer *buf);

/**
 * Drop a reference; the last one frees the buffer (framebuffer, handles, mapping, fds).
 * The library keeps its own references while a buffer is on screen. NULL is fine.
 */
void dispman_buffer_unref(struct dispman_buffer *buf);

/**
 * CPU access: *data receives the mapping of plane 0, owned by the buffer and valid until
 * it is freed; *stride its pitch in bytes. Either pointer may be NULL. Dumb buffers are
 * mapped at creation; other buffers are mapped on first use through their dma-buf (only
 * single-plane linear layouts; read-only when the driver allows only reading, as for some
 * GBM buffers: do not write to those). Returns 0, -EINVAL (buf NULL), -ENOTSUP (a
 * multi-planar buffer: see dispman_buffer_map_plane(); a non-linear modifier) or the errno
 * of mmap.
 */
int dispman_buffer_map(struct dispman_buffer *buf, void **data, uint32_t *stride);

/** Width of the buffer in pixels. */
uint32_t dispman_buffer_get_width(struct dispman_buffer *buf);
/** Height of the buffer in pixels. */
uint32_t dispman_buffer_get_height(struct dispman_buffer *buf);
/** The buffer's DRM fourcc (DRM_FORMAT_*). */
uint32_t dispman_buffer_get_format(struct dispman_buffer *buf);
/**
 * The buffer's format modifier: the one given at import, GBM's, or
 * DRM_FORMAT_MOD_INVALID (an implicit layout, as for dumb buffers, which are linear).
 */
uint64_t dispman_buffer_get_modifier(struct dispman_buffer *buf);
/**
 * The KMS framebuffer id, owned by the buffer: 0 when the device is gone, or for a dumb
 * buffer the kernel made no framebuffer for (see dispman_buffer_create_dumb()).
 */
uint32_t dispman_buffer_get_fb_id(struct dispman_buffer *buf);

/**
 * Called from dispman_device_dispatch() (or dispman_device_destroy()) each time the
 * buffer left the screen, i.e. after the page flip that replaced it completed: from then
 * on the display no longer reads it and it may be written. cb NULL removes it; data is
 * passed back, never owned.
 */
typedef void (*dispman_buffer_release_callback)(struct dispman_buffer *buf, void *data);

/**
 * Set (or with cb NULL remove) the buffer's release callback (see
 * dispman_buffer_release_callback); one per buffer, a new one replaces the old. data is
 * passed back to cb and never owned by the library. Returns 0 or -EINVAL (buf NULL).
 */
int dispman_buffer_set_release_callback(struct dispman_buffer *buf,
	dispman_buffer_release_callback cb, void *data);

/* ------------------------------------------------------------------------------------ */
/* Planes: which layers keep them, how many an output has */

/**
 * Ask that the layer keep a hardware plane (needs = true) or not (false, the default).
 * The planner places the layers that need a plane before all others (among them, the
 * usual order: content that changes most often, then the larger), so a composited layer
 * overlapping them or more layers than planes push the others into the composition
 * buffer first. It is a priority, not a promise: a layer no plane can show (its format,
 * scaling, the kernel's verdict) is still composed or not shown, and its placement says
 * why. Takes effect at the next commit. Returns 0 or -EINVAL (layer NULL).
 */
int dispman_layer_set_needs_plane(struct dispman_layer *layer, bool needs);

/** The longest layer name dispman_layer_set_name() takes, in bytes, without the NUL. */
#define DISPMAN_LAYER_NAME_MAX 63

/**
 * Name the layer for introspection: the pipeline graph (dispman_pipeline_create(),
 * `dispman-info --pipeline`) shows "layer N (name)". The library copies name; NULL or ""
 * takes the name away. Nothing else reads it. Returns 0, or -EINVAL (layer NULL, or name
 * longer than DISPMAN_LAYER_NAME_MAX bytes; logged).
 */
int dispman_layer_set_name(struct dispman_layer *layer, const char *name);

/**
 * The layer's name (dispman_layer_set_name()), owned by the layer and valid until the
 * next dispman_layer_set_name() or its destruction; NULL when it has none, or layer is
 * NULL (logged).
 */
const char *dispman_layer_get_name(struct dispman_layer *layer);

/** The kinds of hardware plane (the kernel's plane types). */
enum dispman_plane_kind {
	DISPMAN_PLANE_PRIMARY = 0,
	DISPMAN_PLANE_OVERLAY = 1,
	DISPMAN_PLANE_CURSOR = 2,
};

/**
 * How many planes of kind the output's CRTC can use (its pending CRTC, else the one last
 * committed; an output without either counts the planes any CRTC of the device can use).
 * Planes are shared between the CRTCs a plane may serve: outputs driven at once may
 * together use fewer than the sum. Returns the count, or -EINVAL (out NULL or an unknown
 * kind, with a log line).
 */
int dispman_output_get_plane_count(struct dispman_output *out, enum dispman_plane_kind kind);

/* ------------------------------------------------------------------------------------ */
/* Small helpers */

/**
 * Fill the whole buffer with one colour, given as 0xAARRGGBB (the alpha byte is written
 * as given: XRGB formats ignore it). Takes the 32-bit RGB formats XRGB8888, ARGB8888,
 * XBGR8888 and ABGR8888 (the channels swapped as the format says); maps the buffer if it
 * was not. The same buffer already on screen shows the new content only after it is
 * set again (dispman_layer_set_buffer()) and committed. Returns 0, -EINVAL (buf NULL),
 * -ENOTSUP (another format), or the error of dispman_buffer_map().
 */
int dispman_buffer_fill(struct dispman_buffer *buf, uint32_t argb);

/**
 * Move the layer's destination to (x, y), keeping its size (a destination never set
 * keeps following the buffer's size). Takes effect at the next commit. Returns 0,
 * -EINVAL (layer NULL) or -ERANGE (as dispman_layer_set_destination()).
 */
int dispman_layer_move(struct dispman_layer *layer, int32_t x, int32_t y);

/** A short English name of a placement state ("on a plane", ...); "unknown" for a value
 * this library does not know. The string is static: never free it. */
const char *dispman_placement_state_name(enum dispman_placement_state state);

/** A short English name of a placement reason ("format", "no plane left", ...);
 * "unknown" for a value this library does not know. The string is static. */
const char *dispman_placement_reason_name(enum dispman_placement_reason reason);

/** A width and a height in pixels. */
struct dispman_size {
	uint32_t width, height;
};

/**
 * The output's size in the viewer's space, by value: the width and height of
 * dispman_output_get_current_mode(), swapped when the output's transform
 * (dispman_output_set_transform()) turns by 90 or 270 degrees; layers' rectangles are in
 * this space. {0, 0} when the output is disabled, or out is NULL (with a log line).
 */
struct dispman_size dispman_output_get_size(struct dispman_output *out);

/**
 * A new CPU-mapped XRGB8888 dumb buffer of the output's size (dispman_output_get_size()),
 * to draw a full screen into, as dispman_buffer_create_dumb() makes it. Returns the
 * buffer, owned by the caller (dispman_buffer_unref()), or NULL with errno EINVAL (out
 * NULL, or disabled: no size) or the errno of dispman_buffer_create_dumb().
 */
struct dispman_buffer *dispman_output_create_buffer(struct dispman_output *out);

/**
 * Number of planes of the buffer's format (1 for RGB and packed YUV, 2 for NV12, 3 for
 * YUV420, ...): the planes dispman_buffer_map_plane() maps. 0 when buf is NULL (errno
 * EINVAL, with a log line).
 */
unsigned dispman_buffer_get_plane_count(struct dispman_buffer *buf);

/**
 * CPU access to plane `plane` of a buffer (0: luma or the only plane, 1: chroma of NV12,
 * 1 and 2: U and V of YUV420, ...): *data receives the address of the plane's first byte,
 * owned by the buffer and valid until it is freed; *stride the plane's pitch in bytes.
 * Either pointer may be NULL. Planes in one memory object (a dumb buffer, or a dma-buf
 * imported once for several planes) share one mapping; other planes are mapped on first
 * use through their own dma-buf (linear layouts only; read-only when the exporter allows
 * only reading). For plane 0 of a single-plane buffer this is dispman_buffer_map().
 * Returns 0, -EINVAL (buf NULL, or plane beyond dispman_buffer_get_plane_count()),
 * -ENODEV (the device is gone), -ENOTSUP (a non-linear modifier) or the errno of the
 * export or of mmap; each failure logged.
 */
int dispman_buffer_map_plane(struct dispman_buffer *buf, unsigned plane, void **data,
	uint32_t *stride);

/**
 * The mode the kernel drives the output with now: that of the last commit the kernel
 * accepted (its CRTC's MODE_ID), where dispman_output_get_current_mode() gives the pending
 * mode (what the next commit will set). The two differ between dispman_output_enable() with
 * another mode and the commit that applies it; after a modeset commit returns, this is the
 * new mode. Before the library's first commit it is the mode the CRTC already had when the
 * device was opened (a console's, say), if the connector was driven then.
 *
 * *mode (caller-owned storage) receives a copy: the entry of the output's mode list equal
 * to the kernel's mode (its name and flags), else one made from the kernel's mode.
 * Returns 0, -EINVAL (out or mode NULL, with a log line) or -ENODATA when the kernel
 * drives no mode on the output (never committed and not driven at open, or disabled by
 * the last commit; logged at debug level).
 */
int dispman_output_get_active_mode(struct dispman_output *out, struct dispman_mode *mode);

#ifdef __cplusplus
}
#endif

#endif
