/* SPDX-License-Identifier: MIT */
/*
 * The planner: which layers of one output go on which planes, as a pure function.
 *
 * Inputs are values (plan_input): the output's visible layers sorted bottom to top, with
 * their geometry, format, alpha and blend mode; the planes the output's CRTC can use, with
 * their capabilities; and what the kernel taught the search so far (plan_limits). The
 * output is a value too (plan_result): for each layer a plane or none, with a reason. A
 * plan is a proposal: the caller tests it with a TEST_ONLY commit, and when the kernel
 * refuses it, changes the inputs (a banned layer, a lower plane cap, no scaling) and plans
 * again; a refused plan is simply thrown away.
 *
 * No libdrm, no device, no logging, no global state (src/alloc.c builds the inputs from
 * the device and applies the result). The rules are in doc/allocation.md.
 */
#ifndef DISPMAN_PLAN_H
#define DISPMAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dispman/dispman.h>

#include "rect.h"

/* At most this many planes per output (the plane masks are 64-bit). */
#define PLAN_MAX_PLANES 64
/* A layer's modifier that matches any modifier of its format (DRM_FORMAT_MOD_INVALID). */
#define PLAN_MOD_ANY 0x00ffffffffffffffull

enum plan_plane_type {
	PLAN_PLANE_OVERLAY,
	PLAN_PLANE_PRIMARY,
	PLAN_PLANE_CURSOR,
};

struct plan_format {
	uint32_t format;
	uint64_t modifier;
};

/* What one plane can do. planes[0] of a plan_input is the primary, the others follow in
 * stacking order, bottom to top. */
struct plan_plane {
	enum plan_plane_type type;
	const struct plan_format *formats; /* borrowed; (format, modifier) pairs */
	size_t n_formats;
	bool has_zpos;           /* a zpos property: zpos_min..zpos_max (equal: immutable) */
	uint64_t zpos_min, zpos_max;
	bool has_alpha;          /* an "alpha" property */
	bool has_blend_mode;     /* a "pixel blend mode" property ... */
	bool blend[3];           /* ... offering these enum dispman_blend_mode values */
	uint32_t rotations;      /* the "rotation" values it takes (DRM_MODE_ROTATE_*,
	                          * DRM_MODE_REFLECT_* bits); 0: no such property */
};

/* One layer, as the planner sees it. */
struct plan_layer {
	struct rect vis;         /* destination clipped to the screen, not empty */
	uint32_t src_w, src_h;   /* 16.16 */
	int32_t dst_x, dst_y;    /* unclipped destination */
	uint32_t dst_w, dst_h;
	/* on the scanout: the destination in the mode's space and the source's size as the
	 * plane turns it (src_w, src_h swapped for 90 and 270) */
	uint32_t rotation;       /* the plane "rotation" value it needs; 0: not turned */
	uint32_t format;         /* DRM fourcc */
	uint64_t modifier;       /* or PLAN_MOD_ANY */
	bool has_fb;             /* the kernel took a framebuffer (else: composition only) */
	bool has_alpha;          /* the format has an alpha channel */
	uint16_t alpha;          /* 0xffff: opaque */
	enum dispman_blend_mode blend; /* 0..2; anything else is treated as no plane can */
	bool readable;           /* the CPU compositor can draw it */
	unsigned update_rate;    /* 0..256: how often its content changes (priority) */
	bool needs_plane;        /* the application asked for a plane: placed first */
	/* set by the caller's search after a refused test: keep it off the planes */
	bool banned;
	enum dispman_placement_reason ban_reason;
};

/* What the search learned from the kernel, and device limits. */
struct plan_limits {
	size_t plane_cap;        /* most planes usable, primary included; 0: no limit */
	bool no_scaling;         /* a TEST_ONLY commit refused scaled planes */
	uint32_t cursor_width, cursor_height;
};

struct plan_input {
	const struct plan_layer *layers; /* bottom to top */
	size_t n_layers;
	const struct plan_plane *planes; /* [0] the primary */
	size_t n_planes;                 /* 1..PLAN_MAX_PLANES */
	int32_t width, height;           /* the mode's size */
	struct plan_limits limits;
};

struct plan_layer_result {
	int plane;               /* index into plan_input.planes, -1: not on a plane */
	unsigned zpos;           /* on a plane: its zpos */
	/* not on a plane: why (composited when readable, else not shown) */
	enum dispman_placement_reason reason;
	size_t priority;         /* 0: the first the search tried to place */
	bool placeable;          /* some plane could show it on its own (plan_check_plane) */
};

struct plan_result {
	struct plan_layer_result *layers; /* caller's array of n_layers entries */
	bool comp;               /* the composition buffer goes on planes[0] */
	unsigned comp_zpos;      /* then at this zpos */
	size_t used;             /* planes used, primary included */
};

/*
 * Plan one output: fills res->layers[0..n_layers) and the rest of res. Deterministic: the
 * same input gives the same result. Returns 0, -EINVAL (no planes, more than
 * PLAN_MAX_PLANES, NULL arrays) or -ENOMEM (scratch memory).
 */
int plan_compute(const struct plan_input *in, struct plan_result *res);

/*
 * Whether plane p can show layer l on its own (format, modifier, scaling, alpha, blend
 * mode, cursor size; as the primary, covering the screen), with in's screen size and
 * limits (in's layers and planes are not read): DISPMAN_REASON_NONE or why not.
 */
enum dispman_placement_reason plan_check_plane(const struct plan_input *in,
	const struct plan_plane *p, bool primary, const struct plan_layer *l);
/*
 * The part of plan_check_plane() that the layer's rectangles decide: scaling (l's src_w,
 * src_h, dst_w, dst_h), the cursor plane's size and the primary covering the screen (of p,
 * only type is read; of l, the rectangles). For a layer that only moved on the plane it
 * has: everything else (format, modifier, rotation, alpha, blend) is as when it got it.
 */
enum dispman_placement_reason plan_check_geometry(const struct plan_input *in,
	const struct plan_plane *p, bool primary, const struct plan_layer *l);

/* Whether the layer's source and destination sizes differ. */
bool plan_layer_scaled(const struct plan_layer *l);

#endif
