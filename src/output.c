/* SPDX-License-Identifier: MIT */
#include "output-private.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xf86drm.h>

#include "buffer.h"
#include "clock.h"
#include "crtc.h"
#include "device.h"
#include "log.h"
#include "plane.h"
#include "sized.h"
#include "util.h"

const char *connector_type_name(uint32_t type)
{
	static const char *const names[] = {
		[DRM_MODE_CONNECTOR_Unknown] = "Unknown",
		[DRM_MODE_CONNECTOR_VGA] = "VGA",
		[DRM_MODE_CONNECTOR_DVII] = "DVI-I",
		[DRM_MODE_CONNECTOR_DVID] = "DVI-D",
		[DRM_MODE_CONNECTOR_DVIA] = "DVI-A",
		[DRM_MODE_CONNECTOR_Composite] = "Composite",
		[DRM_MODE_CONNECTOR_SVIDEO] = "SVIDEO",
		[DRM_MODE_CONNECTOR_LVDS] = "LVDS",
		[DRM_MODE_CONNECTOR_Component] = "Component",
		[DRM_MODE_CONNECTOR_9PinDIN] = "DIN",
		[DRM_MODE_CONNECTOR_DisplayPort] = "DP",
		[DRM_MODE_CONNECTOR_HDMIA] = "HDMI-A",
		[DRM_MODE_CONNECTOR_HDMIB] = "HDMI-B",
		[DRM_MODE_CONNECTOR_TV] = "TV",
		[DRM_MODE_CONNECTOR_eDP] = "eDP",
		[DRM_MODE_CONNECTOR_VIRTUAL] = "Virtual",
		[DRM_MODE_CONNECTOR_DSI] = "DSI",
		[DRM_MODE_CONNECTOR_DPI] = "DPI",
		[DRM_MODE_CONNECTOR_WRITEBACK] = "Writeback",
		[DRM_MODE_CONNECTOR_SPI] = "SPI",
		[DRM_MODE_CONNECTOR_USB] = "USB",
	};
	if (type < ARRAY_SIZE(names) && names[type])
		return names[type];
	return "Unknown";
}

static uint32_t mode_refresh_mhz(const drmModeModeInfo *m)
{
	if (!m->htotal || !m->vtotal)
		return 0;
	uint64_t r = (uint64_t)m->clock * 1000000u / m->htotal / m->vtotal;
	if (m->flags & DRM_MODE_FLAG_INTERLACE)
		r *= 2;
	if (m->flags & DRM_MODE_FLAG_DBLSCAN)
		r /= 2;
	if (m->vscan > 1)
		r /= m->vscan;
	return (uint32_t)r;
}

static enum dispman_connection connection_status(drmModeConnection c)
{
	switch (c) {
	case DRM_MODE_CONNECTED:
		return DISPMAN_CONNECTED;
	case DRM_MODE_DISCONNECTED:
		return DISPMAN_DISCONNECTED;
	default:
		return DISPMAN_CONNECTION_UNKNOWN;
	}
}

/* The connector's modes as our entries; NULL with *n 0 for none (or out of memory). */
static struct mode_entry *read_modes(drmModeConnector *conn, size_t *n)
{
	*n = 0;
	if (conn->count_modes <= 0)
		return NULL;
	struct mode_entry *modes = calloc((size_t)conn->count_modes, sizeof(*modes));
	if (!modes)
		return NULL;
	for (int i = 0; i < conn->count_modes; i++) {
		struct mode_entry *m = &modes[(*n)++];
		m->info = conn->modes[i];
		m->pub.width = m->info.hdisplay;
		m->pub.height = m->info.vdisplay;
		m->pub.refresh_mhz = mode_refresh_mhz(&m->info);
		m->pub.flags = (m->info.type & DRM_MODE_TYPE_PREFERRED) ? DISPMAN_MODE_PREFERRED : 0;
		snprintf(m->pub.name, sizeof(m->pub.name), "%.*s",
			(int)sizeof(m->info.name), m->info.name);
	}
	return modes;
}

/* Refresh period of a mode in ns, 0 when unknown. */
static int64_t mode_period_ns(const drmModeModeInfo *m)
{
	if (!m->clock || !m->htotal || !m->vtotal)
		return 0;
	return (int64_t)m->htotal * m->vtotal * 1000000 / m->clock;
}

/* The committed mode, and its frame period with it (cached: read at every flip), so that
 * the two never disagree. */
static void set_cur_mode(struct dispman_output *out, const drmModeModeInfo *mode)
{
	out->cur_mode = *mode;
	out->cur_period_ns = mode_period_ns(mode);
}

struct dispman_output *output_create(struct dispman_device *dev, drmModeConnector *conn,
	size_t index)
{
	struct dispman_output *out = calloc(1, sizeof(*out));
	if (!out) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory creating an output");
		errno = ENOMEM;
		return NULL;
	}
	out->dev = dev;
	out->index = index;
	out->pace_fd = -1;
	out->queued = &out->frames[0];
	out->shown = &out->frames[1];
	out->old = &out->frames[2];
	list_init(&out->layers);
	out->connector_id = conn->connector_id;
	out->connector_type = conn->connector_type;
	snprintf(out->name, sizeof(out->name), "%s-%u", connector_type_name(conn->connector_type),
		conn->connector_type_id);
	out->status = connection_status(conn->connection);
	out->mm_width = conn->mmWidth;
	out->mm_height = conn->mmHeight;

	out->modes = read_modes(conn, &out->n_modes);
	if (conn->count_modes > 0 && !out->modes) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory reading modes of %s", out->name);
		free(out);
		errno = ENOMEM;
		return NULL;
	}

	for (int e = 0; e < conn->count_encoders; e++) {
		drmModeEncoder *enc = drmModeGetEncoder(device_fd(dev), conn->encoders[e]);
		if (!enc)
			continue;
		out->possible_crtcs |= enc->possible_crtcs;
		if (enc->encoder_id == conn->encoder_id)
			out->initial_crtc_id = enc->crtc_id;
		drmModeFreeEncoder(enc);
	}

	if (props_get_connector(device_fd(dev), out->connector_id, &out->props) < 0 ||
	    !out->props.crtc_id) {
		dispman_log(DISPMAN_LOG_WARNING, "%s has no CRTC_ID property", out->name);
	}

	/* Adopt the CRTC already driving the connector as committed state. */
	struct crtc *crtc = out->initial_crtc_id ? crtc_find(dev, out->initial_crtc_id) : NULL;
	if (crtc && crtc_cur_active(crtc)) {
		drmModeCrtc *c = drmModeGetCrtc(device_fd(dev), crtc_id(crtc));
		if (c) {
			out->active = true;
			out->cur_crtc = crtc;
			set_cur_mode(out, &c->mode);
			out->mode_is_cur = NULL;
			drmModeFreeCrtc(c);
		}
	}
	return out;
}

static void scene_clear(struct scene *scene)
{
	scene->n = 0;
	scene->valid = false;
	scene->gen = 0;
}

/* Whether the buffers of h (NULL: none) include buf. */
static inline __attribute__((always_inline)) bool held_has(const struct held *h, const struct dispman_buffer *buf)
{
	for (size_t i = 0; h && i < h->n; i++)
		if (h->bufs[i] == buf)
			return true;
	return false;
}

/* How many buffers h (NULL: none) holds. */
static size_t held_n(const struct held *h)
{
	return h ? h->n : 0;
}

/* Whether frame f holds buf (inline: each flip asks for every buffer that left a plane). */
static inline __attribute__((always_inline)) bool frame_has(const struct frame *f, const struct dispman_buffer *buf)
{
	return held_has(f->planes, buf) || held_has(f->rest, buf);
}

/* A frame lets its block *hp go (NULL after); the last of its users drops the references. */
static void held_drop(struct held **hp)
{
	struct held *h = *hp;
	*hp = NULL;
	if (!h || --h->users > 0)
		return;
	for (size_t i = 0; i < h->n; i++)
		dispman_buffer_unref(h->bufs[i]);
	h->n = 0;
}

/* A free block of out's for one frame, empty; NULL: none (cannot be: a frame has two at
 * most, and there are three frames). */
static struct held *held_take(struct dispman_output *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(out->helds); i++) {
		struct held *h = &out->helds[i];
		if (!h->users) {
			h->users = 1;
			h->n = 0;
			return h;
		}
	}
	return NULL;
}

/* buf (referenced here) goes after the buffers of a frame's block *hp, which is taken at the
 * first; false (nothing held) beyond MAX_SHOWN buffers. */
static inline bool held_push(struct dispman_output *out, struct held **hp,
	struct dispman_buffer *buf)
{
	if (!*hp && !(*hp = held_take(out)))
		return false;
	struct held *h = *hp;
	assert(h->users == 1); /* a block, once shared, changes no more */
	if (h->n >= MAX_SHOWN)
		return false;
	h->bufs[h->n++] = dispman_buffer_ref(buf);
	return true;
}

/* Drops the frame's references and its scene. */
static void frame_clear(struct frame *f)
{
	held_drop(&f->planes);
	held_drop(&f->rest);
	scene_clear(&f->scene);
}

/*
 * Whether an output of the device other than out still holds buf: on screen, queued, or
 * off its screen with the release still to come (its output_flip_release() not run yet:
 * that one releases it then). One buffer shown on several outputs (a mirrored scene) is
 * released when the last of them lets it go, once. Outputs before index from are not
 * looked at (the device's destruction frees them in order).
 */
static bool held_elsewhere(const struct dispman_output *out, const struct dispman_buffer *buf,
	size_t from)
{
	struct dispman_device *dev = out->dev;
	for (size_t i = from; i < device_n_outputs(dev); i++) {
		const struct dispman_output *o = device_output(dev, i);
		if (o == out)
			continue;
		if (output_holds_buffer(o, buf) || frame_has(o->old, buf))
			return true;
	}
	return false;
}

/* The frames go; what it showed is released, but for a buffer an output from index from on
 * holds (released when that one lets it go). */
static void release_frames(struct dispman_output *out, size_t from)
{
	frame_clear(out->old);
	frame_clear(out->queued);
	const struct held *blocks[] = { out->shown->planes, out->shown->rest };
	for (size_t k = 0; k < ARRAY_SIZE(blocks); k++)
		for (size_t i = 0; i < held_n(blocks[k]); i++)
			if (!held_elsewhere(out, blocks[k]->bufs[i], from))
				buffer_release(blocks[k]->bufs[i]);
	frame_clear(out->shown);
}

void output_release_all(struct dispman_output *out)
{
	release_frames(out, 0);
}

void output_destroy(struct dispman_output *out)
{
	if (!out)
		return;
	output_pace_finish(out);
	/* the device frees its outputs in order: the ones before out are gone */
	release_frames(out, out->index + 1);
	free(out->modes);
	free(out);
}

bool output_holds_buffer(const struct dispman_output *out, const struct dispman_buffer *buf)
{
	return frame_has(out->shown, buf) || frame_has(out->queued, buf);
}


void output_frame_committed(struct dispman_output *out, bool modeset, int64_t begin_ns)
{
	out->commit_ns = begin_ns;
	if (modeset)
		out->pacing_run = false;
	output_pace_committed(out, modeset, begin_ns);
}

/*
 * Vblanks between the previous flip and this one beyond the first, from the flips' own
 * counter when it advances, else (a driver without a vblank counter: virtio-gpu sends
 * sequence 0 with every flip) from their timestamps and the mode's period. Returns false
 * when neither clock can tell (no period, time not advancing).
 */
static bool pacing_gap(struct dispman_output *out, uint64_t seq, const struct timespec *ts,
	int64_t period, uint64_t *gap)
{
	struct dispman_output_stats *ps = &out->pacing;
	if (ps->clock != DISPMAN_PACING_TIMESTAMP && seq > ps->last_sequence) {
		ps->clock = DISPMAN_PACING_SEQUENCE;
		*gap = seq - ps->last_sequence - 1;
		return true;
	}
	if (ps->clock != DISPMAN_PACING_TIMESTAMP && seq < ps->last_sequence)
		return false; /* a counter that went back (another CRTC): a new run */
	if (ps->clock != DISPMAN_PACING_TIMESTAMP) {
		dispman_log(DISPMAN_LOG_INFO, "%s: the flips' vblank sequence does not advance "
			"(%" PRIu64 " -> %" PRIu64 "): counting vblanks from their timestamps",
			out->name, ps->last_sequence, seq);
		ps->clock = DISPMAN_PACING_TIMESTAMP;
	}
	int64_t dt = timespec_ns(ts) - out->pacing_t0_ns;
	if (period <= 0 || dt <= 0)
		return false;
	/*
	 * The vblank slot of this flip: the run's time in periods, rounded to the nearest
	 * (jitter of half a period is no miss). Counting slots from the run's start, not
	 * from the previous flip, keeps the sum of frames and gaps equal to the run's time
	 * even on a driver that completes flips faster than its refresh (virtio-gpu): a flip
	 * in the slot of the one before took no vblank of its own (early_flips).
	 */
	int64_t slot = (dt + period / 2) / period;
	out->flip_slot = slot;
	if (slot <= out->pacing_slot) {
		ps->early_flips++;
		*gap = 0;
		return true;
	}
	*gap = (uint64_t)(slot - out->pacing_slot - 1);
	out->pacing_slot = slot;
	return true;
}

void output_count_pacing(struct dispman_output *out, uint64_t seq, const struct timespec *ts)
{
	struct dispman_output_stats *ps = &out->pacing;
	int64_t period = out->cur_period_ns;
	uint64_t gap;
	if (out->pacing_run && pacing_gap(out, seq, ts, period, &gap)) {
		/* In time: its commit call started before the vblank that followed the
		 * previous flip. */
		bool in_time = period == 0 ||
			out->commit_ns < timespec_ns(&ps->last_time) + period;
		if (in_time) {
			ps->missed_vblanks += gap;
			if (gap)
				dispman_log(DISPMAN_LOG_DEBUG, "%s: frame committed in time missed "
					"%" PRIu64 " vblank(s) (sequence %" PRIu64 " -> %" PRIu64 ")",
					out->name, gap, ps->last_sequence, seq);
		} else {
			ps->late_frames++;
			ps->skipped_vblanks += gap;
		}
	}
	if (!out->pacing_run) {
		out->pacing_t0_ns = timespec_ns(ts);
		out->pacing_slot = 0;
		out->flip_slot = 0;
		out->cb_slot = -1; /* a new run: its first flip's callback runs at once */
	}
	ps->frames++;
	ps->last_sequence = seq;
	ps->last_time = *ts;
	out->pacing_run = out->active;
}

int dispman_output_get_stats(struct dispman_output *out, struct dispman_output_stats *stats)
{
	if (refuse_null(out, "out"))
		return -EINVAL;
	struct dispman_output_stats s = out->pacing;
	s.refresh_mhz = out->active ? mode_refresh_mhz(&out->cur_mode) : 0;
	return sized_copy_out(stats, &s, sizeof(s), "dispman_output_stats");
}

bool output_flip_event(struct dispman_output *out, uint32_t crtc_id, uint64_t seq,
	const struct timespec *ts)
{
	if (!out->flip_pending || out->flip_done || out->flip_crtc_id != crtc_id)
		return false;
	out->flip_done = true;
	out->flip_seq = seq;
	out->flip_ts = *ts;
	return true;
}

void output_flip_complete(struct dispman_output *out)
{
	/* pending -> done (output_flip_event()) -> complete, once per flip */
	assert(out->flip_pending && out->flip_done);
	out->flip_done = false;
	/* the previous flip's releases, if a callback read this flip's event before they ran */
	output_flip_release(out);
	output_pace_flipped(out);
	output_count_pacing(out, out->flip_seq, &out->flip_ts);
	/* Move the flipped frame on screen first, so that every callback of
	 * output_flip_notify() (shown, frame, release) sees the new state, and a commit
	 * made from one of them fills a fresh queue. */
	struct frame *left = out->old; /* empty: released above */
	out->old = out->shown;
	out->shown = out->queued;
	out->queued = left;
	left->scene.valid = false; /* its entries stay, for output_scene_reuse() */
	out->flip_pending = false;
	out->flip_notify = true;
}

void output_flip_notify(struct dispman_output *out)
{
	out->flip_notify = false;
	struct timespec ts = out->flip_ts;
	/* The shown callbacks are the library's own (the camera's), which neither commit nor
	 * dispatch: the frames stay as they are while they run. */
	const struct frame *old = out->old, *shown = out->shown;
	/* a block the frame before had too was on screen before */
	const struct held *blocks[] = {
		shown->planes != old->planes ? shown->planes : NULL,
		shown->rest != old->rest ? shown->rest : NULL,
	};
	for (size_t k = 0; k < ARRAY_SIZE(blocks); k++)
		for (size_t j = 0; j < held_n(blocks[k]); j++) {
			struct dispman_buffer *b = blocks[k]->bufs[j];
			if (buffer_has_shown_callback(b) && !frame_has(old, b))
				buffer_notify_shown(b, &ts); /* not on screen before this flip */
		}
	/* the application's callback may dispatch events itself: it comes last */
	if (out->frame_cb && output_pace_frame(out))
		out->frame_cb(out, out->flip_seq, &ts, out->frame_data);
}

/*
 * The buffers of the blocks that left with the frame before the one on screen (p's first
 * n_old, h's first n_rest; their last users gone): each is released unless a frame of the
 * output's, or another output, still holds it, and dropped. Apart from
 * output_flip_release(), which a flip that shares every block returns from at once.
 */
static __attribute__((noinline)) void release_left(struct dispman_output *out, struct held *p,
	size_t n_old, struct held *h, size_t n_rest)
{
	const struct held *now = out->shown->planes;
	if (!n_rest && n_old <= held_n(now) && p->bufs[0] == now->bufs[0] &&
	    !memcmp(p->bufs, now->bufs, n_old * sizeof(p->bufs[0]))) {
		/* the usual frame with a new buffer: the new one holds every buffer at the
		 * same place (commit.c queues them in the same order each frame), so none
		 * left the screen and no callback runs; its references keep them */
		p->n = 0;
		for (size_t i = 0; i < n_old; i++)
			dispman_buffer_unref(p->bufs[i]);
		return;
	}
	/* the release callbacks may dispatch (another flip handled): iterate over a copy */
	struct dispman_buffer *old[2 * MAX_SHOWN];
	if (n_old) {
		memcpy(old, p->bufs, n_old * sizeof(old[0]));
		p->n = 0;
	}
	if (n_rest) {
		memcpy(old + n_old, h->bufs, n_rest * sizeof(old[0]));
		h->n = 0;
	}
	/* A buffer left the screen when neither the new frame nor a frame
	 * committed since (the callbacks' commits) holds it. */
	for (size_t i = 0; i < n_old + n_rest; i++) {
		/* the usual case first: the new frame holds it at the same place (commit.c
		 * queues a frame's buffers in the same order each frame), which spares the
		 * walk of both frames per buffer */
		const struct frame *shown = out->shown;
		bool same = i < n_old ? i < held_n(shown->planes) && shown->planes->bufs[i] == old[i] :
			shown->rest && i - n_old < shown->rest->n &&
			shown->rest->bufs[i - n_old] == old[i];
		if (!same && !frame_has(shown, old[i]) && !frame_has(out->queued, old[i]) &&
		    (device_n_outputs(out->dev) == 1 || !held_elsewhere(out, old[i], 0)))
			buffer_release(old[i]);
		dispman_buffer_unref(old[i]);
	}
}

void output_flip_release(struct dispman_output *out)
{
	struct frame *f = out->old;
	struct held *p = f->planes, *h = f->rest;
	if (!p && !h)
		return; /* released already (output_flip_complete() releases the last flip's) */
	f->planes = f->rest = NULL;
	/* nothing of a block left the screen while a newer frame shares it (a frame that
	 * shows the same buffers as the one before: a moving layer, no new buffer) */
	size_t n_old = p && --p->users == 0 ? p->n : 0;
	size_t n_rest = h && --h->users == 0 ? h->n : 0;
	if (n_old || n_rest)
		release_left(out, p, n_old, h, n_rest);
}

uint64_t output_period_ns(const struct dispman_output *out)
{
	return (uint64_t)out->cur_period_ns;
}

bool output_needs_modeset(struct dispman_output *out)
{
	if (!out->enabled)
		return out->active;
	if (!out->active || device_modeset_forced(out->dev) || out->crtc != out->cur_crtc)
		return true;
	if (out->mode == out->mode_is_cur)
		return false; /* compared since cur_mode and the mode list last changed */
	if (memcmp(&out->mode->info, &out->cur_mode, sizeof(out->cur_mode)) != 0)
		return true;
	out->mode_is_cur = out->mode;
	return false;
}

struct dispman_output *dispman_device_get_first_connected_output(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	for (size_t i = 0; i < device_n_outputs(dev); i++)
		if (device_output(dev, i)->status == DISPMAN_CONNECTED)
			return device_output(dev, i);
	dispman_log(DISPMAN_LOG_ERROR, "no connected output among %zu", device_n_outputs(dev));
	errno = ENOENT;
	return NULL;
}

struct dispman_device *dispman_output_get_device(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return NULL;
	return out->dev;
}

const char *dispman_output_get_name(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return NULL;
	return out->name;
}

uint32_t dispman_output_get_connector_id(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return 0;
	return out->connector_id;
}

uint32_t dispman_output_get_crtc_id(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return 0;
	return out->enabled && out->crtc ? crtc_id(out->crtc) : 0;
}

enum dispman_connection dispman_output_get_status(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return DISPMAN_CONNECTION_UNKNOWN;
	return out->status;
}

void dispman_output_get_physical_size(struct dispman_output *out, uint32_t *width_mm,
	uint32_t *height_mm)
{
	if (width_mm)
		*width_mm = out ? out->mm_width : 0;
	if (height_mm)
		*height_mm = out ? out->mm_height : 0;
	(void)refuse_null(out, "out");
}

size_t dispman_output_get_mode_count(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return 0;
	return out->n_modes;
}

const struct dispman_mode *dispman_output_get_mode(struct dispman_output *out, size_t i)
{
	if (refuse_null(out, "out"))
		return NULL;
	if (i >= out->n_modes) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: mode index %zu out of range (%zu modes)",
			out->name, i, out->n_modes);
		errno = EINVAL;
		return NULL;
	}
	return &out->modes[i].pub;
}

static struct mode_entry *preferred_mode(struct dispman_output *out)
{
	for (size_t i = 0; i < out->n_modes; i++)
		if (out->modes[i].pub.flags & DISPMAN_MODE_PREFERRED)
			return &out->modes[i];
	return out->n_modes ? &out->modes[0] : NULL;
}

const struct dispman_mode *dispman_output_get_preferred_mode(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return NULL;
	struct mode_entry *m = preferred_mode(out);
	if (!m) {
		dispman_log(DISPMAN_LOG_ERROR, "%s has no modes", out->name);
		errno = ENOENT;
		return NULL;
	}
	return &m->pub;
}

const struct dispman_mode *dispman_output_get_current_mode(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return NULL;
	return out->enabled && out->mode ? &out->mode->pub : NULL;
}

int dispman_output_get_active_mode(struct dispman_output *out, struct dispman_mode *mode)
{
	if (refuse_null(out, "out") || refuse_null(mode, "mode"))
		return -EINVAL;
	if (!out->active) {
		dispman_log(DISPMAN_LOG_DEBUG, "%s: no active mode: the kernel does not drive it",
			out->name);
		return -ENODATA;
	}
	/* the mode list's entry for it (its flags and name), else one made from the kernel's */
	for (size_t i = 0; i < out->n_modes; i++)
		if (!memcmp(&out->modes[i].info, &out->cur_mode, sizeof(out->cur_mode))) {
			*mode = out->modes[i].pub;
			return 0;
		}
	*mode = (struct dispman_mode){
		.width = out->cur_mode.hdisplay,
		.height = out->cur_mode.vdisplay,
		.refresh_mhz = mode_refresh_mhz(&out->cur_mode),
		.flags = (out->cur_mode.type & DRM_MODE_TYPE_PREFERRED) ?
			DISPMAN_MODE_PREFERRED : 0,
	};
	snprintf(mode->name, sizeof(mode->name), "%.*s", (int)sizeof(out->cur_mode.name),
		out->cur_mode.name);
	return 0;
}

static struct mode_entry *find_mode(struct dispman_output *out, const struct dispman_mode *mode)
{
	if (!mode)
		return preferred_mode(out);
	for (size_t i = 0; i < out->n_modes; i++)
		if (&out->modes[i].pub == mode)
			return &out->modes[i];
	for (size_t i = 0; i < out->n_modes; i++) {
		const struct dispman_mode *m = &out->modes[i].pub;
		if (m->width == mode->width && m->height == mode->height &&
		    (mode->refresh_mhz == 0 || m->refresh_mhz == mode->refresh_mhz))
			return &out->modes[i];
	}
	return NULL;
}

static struct crtc *pick_crtc(struct dispman_output *out)
{
	struct dispman_device *dev = out->dev;
	if (out->crtc && crtc_user(out->crtc) == out)
		return out->crtc;
	struct crtc *best = NULL;
	for (size_t i = 0; i < device_n_crtcs(dev); i++) {
		struct crtc *crtc = device_crtc(dev, i);
		if (!(out->possible_crtcs & (1u << crtc_index(crtc))) || crtc_user(crtc))
			continue;
		/* A CRTC still active for another output in the committed state would need
		 * that output disabled in the same commit: avoid it when possible. */
		bool busy = false;
		for (size_t j = 0; j < device_n_outputs(dev); j++) {
			const struct dispman_output *o = device_output(dev, j);
			busy = busy || (o != out && o->active && o->cur_crtc == crtc);
		}
		if (crtc == out->cur_crtc || crtc_id(crtc) == out->initial_crtc_id)
			return crtc;
		if (!best && !busy)
			best = crtc;
	}
	return best;
}

int dispman_output_enable(struct dispman_output *out, const struct dispman_mode *mode)
{
	if (refuse_null(out, "out"))
		return -EINVAL;
	struct mode_entry *m = find_mode(out, mode);
	if (!m) {
		if (mode)
			dispman_log(DISPMAN_LOG_ERROR, "%s has no mode %ux%u@%u.%03u", out->name,
				mode->width, mode->height, mode->refresh_mhz / 1000,
				mode->refresh_mhz % 1000);
		else
			dispman_log(DISPMAN_LOG_ERROR, "%s has no modes", out->name);
		return -ENOENT;
	}
	struct crtc *crtc = pick_crtc(out);
	if (!crtc) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: no free CRTC (possible mask 0x%x)", out->name,
			out->possible_crtcs);
		return -EBUSY;
	}
	crtc_set_user(crtc, out);
	out->crtc = crtc;
	out->mode = m;
	out->enabled = true;
	out->restore_enabled = false;
	device_shape_changed(out->dev);
	return 0;
}

int dispman_output_disable(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return -EINVAL;
	if (out->crtc && crtc_user(out->crtc) == out)
		crtc_set_user(out->crtc, NULL);
	out->crtc = NULL;
	out->enabled = false;
	out->restore_enabled = false;
	device_shape_changed(out->dev);
	return 0;
}

/* The entry for a mode seen before: the same timings, else the same size and refresh,
 * else the preferred mode. NULL when the output has no modes. */
static struct mode_entry *match_mode(struct dispman_output *out, const drmModeModeInfo *info)
{
	for (size_t i = 0; i < out->n_modes; i++)
		if (memcmp(&out->modes[i].info, info, sizeof(*info)) == 0)
			return &out->modes[i];
	for (size_t i = 0; i < out->n_modes; i++) {
		const drmModeModeInfo *m = &out->modes[i].info;
		if (m->hdisplay == info->hdisplay && m->vdisplay == info->vdisplay &&
		    m->vrefresh == info->vrefresh)
			return &out->modes[i];
	}
	return preferred_mode(out);
}

static bool modes_equal(const struct dispman_output *out, const drmModeConnector *conn)
{
	if (out->n_modes != (size_t)(conn->count_modes > 0 ? conn->count_modes : 0))
		return false;
	for (size_t i = 0; i < out->n_modes; i++)
		if (memcmp(&out->modes[i].info, &conn->modes[i], sizeof(conn->modes[i])) != 0)
			return false;
	return true;
}

int output_update(struct dispman_output *out, drmModeConnector *conn)
{
	enum dispman_connection status = connection_status(conn->connection);
	bool same_modes = modes_equal(out, conn);
	if (status == out->status && same_modes && out->mm_width == conn->mmWidth &&
	    out->mm_height == conn->mmHeight)
		return 0;
	if (!same_modes) {
		size_t n;
		struct mode_entry *modes = read_modes(conn, &n);
		if (conn->count_modes > 0 && !modes) {
			dispman_log(DISPMAN_LOG_ERROR, "%s: out of memory re-reading modes",
				out->name);
			return -ENOMEM;
		}
		drmModeModeInfo cur;
		bool had_mode = out->mode != NULL;
		if (had_mode)
			cur = out->mode->info;
		free(out->modes);
		out->modes = modes;
		out->mode_is_cur = NULL; /* its entry is gone */
		out->n_modes = n;
		out->mode = had_mode ? match_mode(out, &cur) : NULL;
		if (had_mode && !out->enabled)
			out->mode = NULL;
		if (had_mode && out->enabled)
			out->restore_mode = cur;
	} else if (out->mode && out->enabled) {
		out->restore_mode = out->mode->info;
	}
	out->mm_width = conn->mmWidth;
	out->mm_height = conn->mmHeight;
	enum dispman_connection old = out->status;
	out->status = status;
	int ev = DISPMAN_OUTPUT_CHANGED;
	if (status == DISPMAN_DISCONNECTED && old != DISPMAN_DISCONNECTED)
		ev = DISPMAN_OUTPUT_DISCONNECTED;
	else if (status != DISPMAN_DISCONNECTED && old == DISPMAN_DISCONNECTED)
		ev = DISPMAN_OUTPUT_CONNECTED;

	if (out->enabled && (ev == DISPMAN_OUTPUT_DISCONNECTED || !out->mode)) {
		/* Stop scanning out to a screen that is gone; remember to come back. */
		dispman_output_disable(out);
		out->restore_enabled = true;
	} else if (!out->enabled && out->restore_enabled && status != DISPMAN_DISCONNECTED) {
		struct mode_entry *m = match_mode(out, &out->restore_mode);
		if (m && dispman_output_enable(out, &m->pub) < 0)
			out->restore_enabled = true; /* no CRTC free now: try at the next probe */
	}
	return ev;
}

bool dispman_output_is_enabled(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return false;
	return out->enabled;
}

int dispman_output_set_frame_callback(struct dispman_output *out, dispman_frame_callback cb,
	void *data)
{
	if (refuse_null(out, "out"))
		return -EINVAL;
	out->frame_cb = cb;
	out->frame_data = data;
	return 0;
}

int dispman_output_set_error_callback(struct dispman_output *out,
	dispman_commit_error_callback cb, void *data)
{
	if (refuse_null(out, "out"))
		return -EINVAL;
	out->error_cb = cb;
	out->error_data = data;
	return 0;
}

void output_commit_failed(struct dispman_output *out, int err)
{
	if (out->error_cb)
		out->error_cb(out, err, out->error_data);
}

struct dispman_device *output_device(const struct dispman_output *out)
{
	return out->dev;
}

const char *output_name(const struct dispman_output *out)
{
	return out->name;
}

uint32_t output_connector_id(const struct dispman_output *out)
{
	return out->connector_id;
}

const struct connector_props *output_props(const struct dispman_output *out)
{
	return &out->props;
}

enum dispman_connection output_status(const struct dispman_output *out)
{
	return out->status;
}

bool output_enabled(const struct dispman_output *out)
{
	return out->enabled;
}

struct crtc *output_crtc(const struct dispman_output *out)
{
	return out->crtc;
}

enum dispman_transform output_transform(const struct dispman_output *out)
{
	return out->transform;
}

void output_set_transform(struct dispman_output *out, enum dispman_transform t)
{
	out->transform = t;
}

const drmModeModeInfo *output_mode(const struct dispman_output *out)
{
	return out->mode ? &out->mode->info : NULL;
}

bool output_active(const struct dispman_output *out)
{
	return out->active;
}

struct crtc *output_cur_crtc(const struct dispman_output *out)
{
	return out->cur_crtc;
}

const drmModeModeInfo *output_cur_mode(const struct dispman_output *out)
{
	return &out->cur_mode;
}

struct list *output_layers(struct dispman_output *out)
{
	return &out->layers;
}

bool output_flip_pending(const struct dispman_output *out)
{
	return out->flip_pending;
}

uint32_t output_flip_crtc_id(const struct dispman_output *out)
{
	return out->flip_crtc_id;
}

bool output_flip_is_done(const struct dispman_output *out)
{
	return out->flip_done;
}

bool output_flip_notify_due(const struct dispman_output *out)
{
	return out->flip_notify;
}

size_t output_index(const struct dispman_output *out)
{
	return out->index;
}

const struct scene *output_shown_scene(const struct dispman_output *out)
{
	return &out->shown->scene;
}

int64_t output_commit_time(const struct dispman_output *out)
{
	return out->commit_ns;
}

struct compositor *output_compositor(const struct dispman_output *out)
{
	return out->comp;
}

void output_set_compositor(struct dispman_output *out, struct compositor *comp)
{
	out->comp = comp;
}

struct dispman_layer *output_base_layer(const struct dispman_output *out)
{
	return out->base_layer;
}

void output_set_base_layer(struct dispman_output *out, struct dispman_layer *layer)
{
	out->base_layer = layer;
}

struct dispman_layer *output_top_composited(const struct dispman_output *out)
{
	return out->top_composited;
}

void output_set_top_composited(struct dispman_output *out, struct dispman_layer *layer)
{
	out->top_composited = layer;
}

bool output_commit_queued(const struct dispman_output *out)
{
	return out->commit_queued;
}

void output_set_commit_queued(struct dispman_output *out, bool queued)
{
	out->commit_queued = queued;
}

unsigned output_prepared_commits(const struct dispman_output *out)
{
	return out->prepared_commits;
}

void output_count_prepared(struct dispman_output *out)
{
	out->prepared_commits++;
}

void output_record_enabled(struct dispman_output *out, bool new_mode)
{
	if (new_mode) {
		set_cur_mode(out, &out->mode->info);
		out->mode_is_cur = NULL;
	}
	out->active = true;
	out->cur_crtc = out->crtc;
	out->flip_pending = true;
	out->flip_crtc_id = crtc_id(out->crtc);
}

struct crtc *output_record_disabled(struct dispman_output *out)
{
	struct crtc *old = out->cur_crtc;
	out->active = false;
	out->cur_crtc = NULL;
	out->flip_pending = old != NULL;
	out->flip_crtc_id = old ? crtc_id(old) : 0;
	scene_clear(&out->queued->scene);
	return old;
}

bool output_queue_buffer(struct dispman_output *out, struct dispman_buffer *buf)
{
	return held_push(out, &out->queued->planes, buf);
}

void output_scene_start(struct dispman_output *out)
{
	struct scene *scene = &out->queued->scene;
	scene_clear(scene);
	scene->valid = true;
	if (++out->scene_gen == 0)
		out->scene_gen = 1; /* 0 is no scene */
	scene->gen = out->scene_gen;
}

struct scene *output_scene_reuse(struct dispman_output *out)
{
	struct scene *q = &out->queued->scene;
	const struct scene *s = &out->shown->scene;
	if (!out->scene_gen)
		return NULL;
	if (q->gen != out->scene_gen) {
		if (!s->valid || s->gen != out->scene_gen)
			return NULL;
		memcpy(q->e, s->e, s->n * sizeof(s->e[0]));
		q->n = s->n;
		q->gen = s->gen;
	}
	q->valid = true;
	return q;
}

void output_queue_scene(struct dispman_output *out)
{
	struct frame *f = out->queued;
	const struct scene *q = &f->scene;
	struct held *s = out->shown->planes;
	_Static_assert(MAX_SCENE <= MAX_SHOWN, "a block holds a whole scene");
	assert(!f->planes); /* the frame's first buffers */
	if (!q->n)
		return;
	size_t i = 0;
	if (s && s->n == q->n)
		while (i < q->n && s->bufs[i] == q->e[i].buf)
			i++;
	if (i == q->n) {
		f->planes = s; /* the same buffers at the same places */
		s->users++;
		return;
	}
	struct held *h = held_take(out);
	if (!h)
		return;
	for (i = 0; i < q->n; i++)
		h->bufs[i] = dispman_buffer_ref(q->e[i].buf);
	h->n = q->n;
	f->planes = h;
}

bool output_queue_composited(struct dispman_output *out, struct dispman_buffer *buf)
{
	return held_push(out, &out->queued->rest, buf);
}

bool output_queue_shown_rest(struct dispman_output *out, size_t from)
{
	const struct frame *s = out->shown;
	struct frame *f = out->queued;
	/* the frame on screen holds its scene's buffers and its rest only (commit.c) */
	if (!s->scene.valid || s->scene.n != from || held_n(s->planes) != from ||
	    held_n(f->planes) != from || f->rest)
		return false;
	f->rest = s->rest;
	if (f->rest)
		f->rest->users++;
	return true;
}

void output_scene_renew(struct dispman_output *out)
{
	if (++out->scene_gen == 0)
		out->scene_gen = 1; /* 0 is no scene */
	out->queued->scene.gen = out->scene_gen;
}

struct scene_entry *output_scene_push(struct dispman_output *out)
{
	struct scene *scene = &out->queued->scene;
	return scene->n < MAX_SCENE ? &scene->e[scene->n++] : NULL;
}

int dispman_output_get_plane_count(struct dispman_output *out, enum dispman_plane_kind kind)
{
	static const int types[] = {
		[DISPMAN_PLANE_PRIMARY] = DRM_PLANE_TYPE_PRIMARY,
		[DISPMAN_PLANE_OVERLAY] = DRM_PLANE_TYPE_OVERLAY,
		[DISPMAN_PLANE_CURSOR] = DRM_PLANE_TYPE_CURSOR,
	};
	if (refuse_null(out, "out"))
		return -EINVAL;
	if ((unsigned)kind >= ARRAY_SIZE(types)) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: unknown plane kind %d", out->name, (int)kind);
		return -EINVAL;
	}
	const struct crtc *crtc = output_crtc(out) ? output_crtc(out) : output_cur_crtc(out);
	uint32_t mask = crtc ? 1u << crtc_index(crtc) : ~0u;
	struct dispman_device *dev = output_device(out);
	int n = 0;
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		const struct plane *p = device_plane(dev, i);
		n += plane_type(p) == types[kind] && (plane_possible_crtcs(p) & mask);
	}
	return n;
}
