/* SPDX-License-Identifier: MIT */
/*
 * The body of an output, for the output module alone (output.c, output-pace.c); the other
 * modules use the functions of output.h.
 */
#ifndef DISPMAN_OUTPUT_PRIVATE_H
#define DISPMAN_OUTPUT_PRIVATE_H

#include "output.h"

#define MAX_SHOWN 32

/* Buffers of one or more frames of an output (each referenced once here, however many
 * frames share it): a frame that shows the same buffers as its predecessor at the same
 * places shares its predecessor's block instead of referencing each buffer again. */
struct held {
	unsigned users; /* frames whose block it is; 0: free */
	size_t n;
	struct dispman_buffer *bufs[MAX_SHOWN];
};

/* The buffers of one frame and its scene: what it put on the planes. planes holds the
 * scene's buffers, in its order, rest the composited layers' (NULL: none). The scene holds
 * no references: each of its buffers is among the frame's. */
struct frame {
	struct held *planes;
	struct held *rest;
	struct scene scene;
};

struct mode_entry {
	struct dispman_mode pub;
	drmModeModeInfo info;
};

struct dispman_output {
	struct dispman_device *dev;
	size_t index;                     /* in dev->outputs */
	uint32_t connector_id;
	uint32_t connector_type;
	char name[64];
	enum dispman_connection status;
	uint32_t mm_width, mm_height;
	struct mode_entry *modes;
	size_t n_modes;
	uint32_t possible_crtcs;
	struct connector_props props;
	uint32_t initial_crtc_id; /* CRTC driving the connector when we opened it */

	/* pending state */
	bool enabled;
	struct mode_entry *mode;
	struct crtc *crtc;
	struct list layers;              /* dispman_layer.link, creation order */
	struct dispman_layer *base_layer;/* for dispman_output_set_buffer() */
	struct dispman_layer *top_composited; /* output_top_composited() */
	struct compositor *comp;         /* compose.c: CPU composition, NULL until needed */
	enum dispman_transform transform;/* transform-layer.c: dispman_output_set_transform() */

	/* committed state */
	bool active;
	struct crtc *cur_crtc;
	drmModeModeInfo cur_mode;
	int64_t cur_period_ns; /* cur_mode's refresh period (mode_period_ns()), 0: unknown */
	/* a mode of the list found equal to cur_mode (output_needs_modeset()), NULL when
	 * cur_mode or the list changed since */
	const struct mode_entry *mode_is_cur;

	/* frames */
	bool flip_pending;
	uint32_t flip_crtc_id;            /* CRTC whose flip event completes the frame */
	bool flip_done;                   /* its event was read, not handled yet */
	bool flip_notify;                 /* on screen, its callbacks not run yet */
	uint64_t flip_seq;                /* of that event */
	struct timespec flip_ts;
	bool commit_queued;               /* a commit waits for this output's flip */
	unsigned prepared_commits;        /* alloc.c: output_count_prepared() */
	unsigned scene_gen;               /* the last scene built (output_scene_start()) */
	/* Three frames, which a flip rotates (no copies): the committed frame not yet flipped,
	 * the frame on screen, and the one that left the screen with the flip handled (its
	 * buffers until output_flip_release(); its scene is unused). */
	struct frame *queued, *shown, *old;
	struct frame frames[3];
	struct held helds[6]; /* the frames' blocks: two each at most */
	dispman_frame_callback frame_cb;
	void *frame_data;
	dispman_commit_error_callback error_cb;
	void *error_data;

	/* hotplug: the output was enabled when its connector went away */
	bool restore_enabled;
	drmModeModeInfo restore_mode;
	/* pacing */
	struct dispman_output_stats pacing;
	int64_t commit_ns;               /* when the frame in flight's commit call started */
	bool pacing_run;                 /* pacing.last_* describe the previous flip */
	int64_t pacing_t0_ns;            /* TIMESTAMP clock: first flip of the run */
	int64_t pacing_slot;             /* TIMESTAMP clock: vblank slot of the last counted flip */
	/* output-pace.c: frame callbacks at most once per vblank slot (TIMESTAMP clock) */
	int64_t flip_slot;               /* vblank slot of the flip being notified */
	int64_t cb_slot;                 /* slot of the last frame callback run */
	int64_t cb_pending_slot;         /* slot the deferred callback is for */
	bool cb_deferred;                /* a frame callback waits for the pace timer */
	int pace_fd;                     /* timerfd, -1 until first needed */
	struct event_source *pace_source;
	/* output-pace.c: the learned commit cost (dispman_output_get_commit_cost()), once
	 * asked for (cost_learning) */
	bool cost_learning;
	int64_t commit_begin_ns;         /* the last commit call started, 0: none measured */
	int64_t commit_cpu_ns;           /* the frame in flight: its call to the ioctl's return */
	int64_t aim_ns;                  /* the vblank it aimed at (predicted), 0: none */
	int64_t aim_slack_ns;            /* aim_ns - commit_begin_ns */
	int64_t cost_ring[32];           /* the last samples (COST_SAMPLES), oldest at cost_pos */
	unsigned cost_pos, cost_n;       /* next to write; how many are set */
};


#endif
