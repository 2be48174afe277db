/*
 * Control interface of the mock libdrm (tests/mock).
 *
 * The mock replaces libdrm.so.2 for unit tests: the libdrm entry points the library uses are
 * implemented against one fake KMS device that tests configure here. See README.md for what
 * the fake atomic commit checks; a driver's policy is scripted (mock_drm_script_commit).
 *
 * Not thread-safe. All state lives in one global and is freed by mock_drm_reset().
 */
#ifndef MOCK_DRM_H
#define MOCK_DRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

/* Object ids carry their type in the top byte. */
enum mock_drm_obj_type {
	MOCK_DRM_CRTC = 0x01,
	MOCK_DRM_CONNECTOR = 0x02,
	MOCK_DRM_ENCODER = 0x03,
	MOCK_DRM_PLANE = 0x04,
	MOCK_DRM_PROPERTY = 0x05,
	MOCK_DRM_BLOB = 0x06,
	MOCK_DRM_FB = 0x07,
};

/*
 * Frees every object, buffer, fd and pending event of the fake device and starts again
 * with an empty device (no CRTCs, connectors or planes), default caps, master held,
 * no scripted verdicts, no failure injection. The fds returned by
 * mock_drm_open() before the reset stop being recognised (calls on them fail with ENOTTY).
 */
void mock_drm_reset(void);

/*
 * Returns a new fd for the fake device (a pipe's read end, readable while page-flip
 * events are pending). The caller owns it and closes it. Initialises the mock if needed.
 * Returns -1 with errno set on failure.
 */
int mock_drm_open(void);

/*
 * Resets, then builds a device like vkms on Linux 6.1 with enable_writeback=1,
 * enable_overlay=1, enable_cursor=1: one CRTC; a Virtual connector (1024x768 preferred,
 * plus 1920x1080, 1280x720, 800x600, 640x480); a writeback connector; a primary plane
 * (XR24, XR48, RG16); 8 overlays and 1 cursor (AR24, XR24, XR48, AR48, RG16); LINEAR only;
 * no zpos, alpha or rotation. Driver "vkms", dumb pitch = width * cpp. vkms' policy (the
 * primary must cover the CRTC, no scaling, Virtual and Writeback are no clones) is not
 * modelled: a test that needs one of those refusals scripts it.
 */
void mock_drm_setup_vkms_like(void);

/* Ids of the vkms-like device, valid after mock_drm_setup_vkms_like(). */
#define MOCK_VKMS_CRTC 0x01000001u
#define MOCK_VKMS_VIRTUAL 0x02000001u
#define MOCK_VKMS_WRITEBACK 0x02000002u
#define MOCK_VKMS_PRIMARY 0x04000001u
#define MOCK_VKMS_OVERLAY(i) (0x04000002u + (uint32_t)(i)) /* i in 0..7 */
#define MOCK_VKMS_CURSOR 0x0400000au

/*
 * A mode with plausible timings for w x h at refresh Hz; preferred sets
 * DRM_MODE_TYPE_PREFERRED. The frame time used for event timestamps follows from
 * clock, htotal and vtotal.
 */
drmModeModeInfo mock_drm_mode(uint16_t w, uint16_t h, uint32_t refresh, bool preferred);

/* Adds a CRTC; returns its id. CRTC index i is bit i of possible_crtcs masks. */
uint32_t mock_drm_add_crtc(void);

struct mock_drm_connector_info {
	uint32_t type;                  /* DRM_MODE_CONNECTOR_* */
	drmModeConnection status;       /* 0 means DRM_MODE_CONNECTED */
	uint32_t mm_width, mm_height;
	const drmModeModeInfo *modes;   /* copied */
	int num_modes;
	uint32_t possible_crtcs;        /* of its one encoder; 0 means all CRTCs */
	uint32_t possible_clones;       /* encoder index mask; the connector itself is added */
	/* WRITEBACK only: WRITEBACK_PIXEL_FORMATS; NULL means XR24 only */
	const uint32_t *writeback_formats;
	int num_writeback_formats;
};

/* Adds a connector and its encoder (same index); returns the connector id. */
uint32_t mock_drm_add_connector(const struct mock_drm_connector_info *info);

/* Changes a connector's status (hotplug). Returns 0 or -ENOENT. */
int mock_drm_set_connector_status(uint32_t connector_id, drmModeConnection status);

enum mock_drm_zpos {
	MOCK_DRM_ZPOS_NONE = 0,
	MOCK_DRM_ZPOS_IMMUTABLE,        /* RANGE|IMMUTABLE, min = max = zpos_default */
	MOCK_DRM_ZPOS_MUTABLE,          /* RANGE zpos_min..zpos_max, initial zpos_default */
};

struct mock_drm_plane_info {
	uint32_t type;                  /* DRM_PLANE_TYPE_* */
	uint32_t possible_crtcs;        /* 0 means all CRTCs */
	const uint32_t *formats;        /* copied */
	int num_formats;
	const uint64_t *modifiers;      /* every format supports every modifier; NULL: LINEAR */
	int num_modifiers;
	enum mock_drm_zpos zpos;
	uint64_t zpos_min, zpos_max, zpos_default;
	bool alpha;                     /* "alpha" and "pixel blend mode" properties */
	/*
	 * CURSOR only: a virtualized cursor plane like virtio-gpu's on Linux 6.8+: it has
	 * HOTSPOT_X/HOTSPOT_Y (signed range, atomic, initially 0) and drmModeGetPlaneResources
	 * lists it only to a client that set DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT.
	 */
	bool hotspot;
};

/* DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT (Linux 6.8), which older libdrm headers lack. The
 * mock takes it after DRM_CLIENT_CAP_ATOMIC, as the kernel does for any atomic driver. */
#define MOCK_DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT 6

/*
 * Adds a plane; returns its id. The first primary plane that can drive a CRTC without a
 * primary becomes that CRTC's primary plane.
 */
uint32_t mock_drm_add_plane(const struct mock_drm_plane_info *info);

/* Sets (or adds) a value reported by drmGetCap(). */
void mock_drm_set_cap(uint64_t cap, uint64_t value);
/* Makes drmGetCap() fail with EINVAL for cap, as for an unknown cap. */
void mock_drm_unset_cap(uint64_t cap);
/* Driver name reported by drmGetVersion() (copied). */
void mock_drm_set_driver_name(const char *name);
/* Pitch alignment in bytes of DRM_IOCTL_MODE_CREATE_DUMB (default 64; vkms-like: 1). */
void mock_drm_set_dumb_pitch_align(uint32_t align);

/*
 * Scripted kernel verdicts. The mock knows the KMS API (objects, properties, their types
 * and ranges, FBs, blobs, events) but no driver's policy: which planes scale, how many
 * planes the hardware can feed, which encoders can share a CRTC. A test that needs the
 * kernel to refuse a configuration states that answer here, as an input: "a TEST_ONLY
 * commit with overlays 0 and 1 enabled fails with ENOSPC".
 *
 * A verdict matches a commit when all its conditions hold for the state the commit asks
 * for (the current state with the request applied; a request that cannot be parsed fails
 * before any verdict is consulted). The first matching verdict refuses the commit with its
 * errno and without side effects. Verdicts are consulted before the mock's own checks of
 * the request (a plane with an FB but no CRTC, a modeset without ALLOW_MODESET, ...).
 */
enum mock_drm_commit_kind {
	MOCK_DRM_ANY_COMMIT = 0,        /* TEST_ONLY or not */
	MOCK_DRM_TEST_ONLY,             /* only TEST_ONLY commits */
	MOCK_DRM_REAL_COMMIT,           /* only commits without TEST_ONLY */
};

#define MOCK_DRM_MATCH_PLANES 8
#define MOCK_DRM_MATCH_PROPS 4

struct mock_drm_match {
	enum mock_drm_commit_kind kind;
	/* Planes that carry an FB after the commit (others may too); 0 ends the list. */
	uint32_t planes[MOCK_DRM_MATCH_PLANES];
	/* Properties with these values after the commit; obj 0 ends the list. */
	struct {
		uint32_t obj;
		const char *prop;       /* a property of obj (its name); unknown: abort() */
		uint64_t value;
	} props[MOCK_DRM_MATCH_PROPS];
	/* 0: refuse every matching commit; n: only the nth matching one from now on. */
	int nth;
};

/*
 * Adds a verdict: matching commits fail with err (a positive errno). Returns the verdict's
 * number for mock_drm_script_hits(). Up to 16 verdicts; mock_drm_reset() clears them.
 */
int mock_drm_script_commit(const struct mock_drm_match *match, int err);
/* How many commits the verdict refused so far. */
unsigned mock_drm_script_hits(int verdict);

/*
 * Whether this client is DRM master (default true). false models another client
 * taking master: atomic commits fail with EACCES and drmSetMaster() fails with EBUSY
 * (as the kernel answers while another master exists) until mock_drm_set_master(true)
 * gives it back. drmDropMaster() drops it without another client taking it.
 */
void mock_drm_set_master(bool master);

/*
 * hold = true: flips of successful NONBLOCK commits stay pending (their events are not
 * readable, their out-fences not signalled) until mock_drm_release_flips(); a NONBLOCK
 * commit touching a CRTC with a pending flip fails with EBUSY. A blocking commit first
 * completes the pending flips of its CRTCs, like the kernel waiting for them.
 * hold = false (default): flips complete at commit time and events are readable at once.
 */
void mock_drm_set_flip_delay(bool hold);
/*
 * on = true: flip events as virtio-gpu sends them, with sequence 0 and the commit's own
 * CLOCK_MONOTONIC time (the flip does not wait for a vblank). Default false: sequence
 * counts and the time steps by the mode's frame time.
 */
void mock_drm_set_unpaced_flips(bool on);
/*
 * on = true: flip events counting their sequence but stamped with the commit's
 * CLOCK_MONOTONIC time (a vblank right at the commit), so that a prediction from the last
 * flip (dispman_output_get_next_vblank()) lies a period after it in the caller's clock.
 * Default false.
 */
void mock_drm_set_flips_now(bool on);
/* Completes all pending flips; returns how many were completed. */
int mock_drm_release_flips(void);
/* Completes the pending flips of one CRTC (its vblank); returns how many, or -ENOENT. */
int mock_drm_release_crtc_flips(uint32_t crtc_id);

/*
 * Makes the nth next call (1 = the very next) of func fail with err (a positive errno)
 * without side effects. func is a libdrm function name ("drmModeAddFB2",
 * "drmPrimeFDToHandle", "drmModeAtomicCommit", ...), an ioctl name handled by drmIoctl
 * ("DRM_IOCTL_MODE_CREATE_DUMB", "DRM_IOCTL_MODE_MAP_DUMB", "DRM_IOCTL_MODE_DESTROY_DUMB",
 * "DRM_IOCTL_GEM_CLOSE"; "drmIoctl" matches any of them), or "drmModeAtomicCommit/test"
 * and "drmModeAtomicCommit/apply" to count only TEST_ONLY or only non-TEST_ONLY commits.
 * Up to 16 injections at once.
 */
void mock_drm_fail_nth(const char *func, int n, int err);
static inline void mock_drm_fail_next(const char *func, int err)
{
	mock_drm_fail_nth(func, 1, err);
}

struct mock_drm_counters {
	unsigned commits;               /* drmModeAtomicCommit calls with items, any result */
	unsigned test_commits;          /* of those, TEST_ONLY */
	unsigned failed_commits;        /* of those, rejected */
	unsigned applied_commits;       /* non-TEST_ONLY commits that succeeded */
	unsigned modesets;              /* applied commits that needed ALLOW_MODESET */
	unsigned events_queued;         /* page-flip events created */
	unsigned events_delivered;      /* page-flip handlers called */
	unsigned pending_flips;         /* flips held by mock_drm_set_flip_delay() */
	unsigned writebacks;            /* writeback jobs completed */
	unsigned last_items;            /* properties in the last commit with items */
	unsigned empty_handle_event;    /* drmHandleEvent() with nothing to read (would block) */
	unsigned rmfb_disabled_planes;  /* planes turned off because their FB was removed */
	int live_fbs;
	int live_blobs;                 /* blobs created by drmModeCreatePropertyBlob */
	int live_gem_handles;
	int live_dumb_buffers;          /* dumb buffers whose memory is still referenced */
	int live_buffers;               /* all buffer objects: dumb and imported */
};

void mock_drm_get_counters(struct mock_drm_counters *counters);
/* live_fbs + live_blobs + live_gem_handles + live_buffers: 0 when nothing leaked. */
int mock_drm_live_objects(void);

/* Current value of the named property of an object; false if it has none. */
bool mock_drm_get_prop(uint32_t obj_id, const char *name, uint64_t *value);
/* Id of the named property of an object, or 0. */
uint32_t mock_drm_prop_id(uint32_t obj_id, const char *name);

struct mock_drm_fb_info {
	uint32_t width, height, format;
	uint64_t modifier;
	uint32_t pitches[4], offsets[4];
	int num_planes;
};
/* Describes a framebuffer; false if fb_id names none. */
bool mock_drm_get_fb(uint32_t fb_id, struct mock_drm_fb_info *info);

/*
 * Why the last failing call failed, like a kernel debug message ("" if none).
 * Set MOCK_DRM_DEBUG=1 in the environment to print every failure to stderr.
 */
const char *mock_drm_last_error(void);

#endif
