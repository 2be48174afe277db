/* SPDX-License-Identifier: MIT */
#include "layer.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "device.h"
#include "log.h"
#include "output.h"
#include "scanout.h"

/* What layer.c keeps per device (dispman_device.layers: layer_init() to layer_finish()). */
struct layer_state {
	unsigned next_serial; /* creation order of the device's layers */
	/* The layers whose rectangles changed since an accepted commit took them (geom_dirty
	 * set: n_dirty of them), so that a frame that only moves layers visits those, not
	 * every layer. The first LAYER_MOVED_MAX are listed in moved; the list is whole
	 * (layer_moved_list()) when n_moved == n_dirty. */
	struct dispman_layer *moved[LAYER_MOVED_MAX];
	size_t n_moved, n_dirty;
	/* The same for the layers whose buffer was set since an accepted commit took it
	 * (fb_dirty set: n_fb_dirty of them; layer_new_buffer_list()), so that a frame that
	 * keeps the assignment sends and records only the planes whose framebuffer changes. */
	struct dispman_layer *new_fb[LAYER_MOVED_MAX];
	size_t n_new_fb, n_fb_dirty;
	/* a composited layer got new content or rectangles since every output last composed
	 * (layer_compose_dirty()) */
	bool compose_dirty;
	/* a commit runs (layer_frame_begin() to layer_frame_end()): the layers' rectangles on
	 * the scanout stay as they are, and each is computed once (layer_scanout_cached()) */
	bool in_frame;
	unsigned frame; /* the commit's number, never 0 */
};

int layer_init(struct dispman_device *dev)
{
	struct layer_state *st = calloc(1, sizeof(*st));
	if (!st) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory allocating the layer state");
		return -ENOMEM;
	}
	device_set_layer_state(dev, st);
	return 0;
}

void layer_finish(struct dispman_device *dev)
{
	free(device_layer_state(dev));
	device_set_layer_state(dev, NULL);
}

struct dispman_layer {
	struct dispman_output *out;
	struct dispman_buffer *buf;
	bool src_set, dst_set;
	uint32_t src_x, src_y, src_w, src_h; /* 16.16 */
	int32_t dst_x, dst_y;
	uint32_t dst_w, dst_h;
	int z;
	int32_t hot_x, hot_y;  /* cursor hotspot in buffer pixels (HOTSPOT_X/Y) */
	uint16_t alpha;
	enum dispman_blend_mode blend;
	bool visible;
	unsigned serial; /* creation order */
	/* where the last accepted commit put it (proposal.c: layer_record_placement()) */
	struct dispman_placement placement;
	struct plane *plane;
	struct list link;    /* dispman_output.layers */
	unsigned content_serial;  /* bumped by every dispman_layer_set_buffer() */
	/* the update rate (layer_update_rate()): an average over the prepared commits of its
	 * output (output_prepared_commits()), brought to date only when read or when the
	 * content changes (rate_settle()) */
	unsigned rate_serial;     /* content_serial counted by commit rate_at */
	unsigned rate_at;         /* the output's prepared commits when update_rate was */
	unsigned update_rate;     /* 0..256: how often the buffer changes per commit (EMA) */
	/* compose.c: layer_note_composed() */
	unsigned composed_serial; /* content_serial in the composition buffer */
	bool composited;          /* placement COMPOSITED: in the composition buffer */
	/* camera copy path (camera.c: layer_set_copy_reason()): its buffer holds a CPU copy,
	 * and why (FORMAT: no plane takes the camera's format; IMPORT: the display and the
	 * camera share no memory); else NONE */
	enum dispman_placement_reason copy_reason;
	bool needs_plane;         /* dispman_layer_set_needs_plane(): placed first */
	char name[DISPMAN_LAYER_NAME_MAX + 1]; /* dispman_layer_set_name(); "" when none */
	/* rectangles changed since the last accepted commit (alloc.c clears it) */
	bool geom_dirty;
	/* a buffer set since the last accepted commit of its output (alloc.c clears it) */
	bool fb_dirty;
	int32_t composed_box[4];  /* compose.c: x1, y1, x2, y2 where it was last drawn */
	enum dispman_transform transform; /* of its buffer's content */
	bool composition;         /* an output's composition layer (layer_create_composition()) */
	/* its rectangles on the scanout, unclipped [0] and clipped [1], as computed during the
	 * commit numbered scan_frame[i] (layer_scanout_cached()); 0: none */
	struct transform_geom scan[2];
	unsigned scan_frame[2];
};

/* The rectangles changed: nothing computed before holds. */
static void scan_forget(struct dispman_layer *layer)
{
	layer->scan_frame[0] = layer->scan_frame[1] = 0;
}

struct dispman_layer *dispman_layer_create(struct dispman_output *out)
{
	if (refuse_null(out, "out"))
		return NULL;
	struct dispman_layer *layer = calloc(1, sizeof(*layer));
	if (!layer) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: out of memory creating a layer",
			output_name(out));
		errno = ENOMEM;
		return NULL;
	}
	layer->out = out;
	layer->rate_at = output_prepared_commits(out);
	layer->alpha = 0xffff;
	layer->blend = DISPMAN_BLEND_PREMULTIPLIED;
	layer->visible = true;
	layer->serial = device_layer_state(output_device(out))->next_serial++;
	layer->placement.reason = DISPMAN_REASON_INVISIBLE;
	list_insert_tail(output_layers(out), &layer->link);
	device_shape_changed(output_device(out));
	return layer;
}

void layer_destroy_internal(struct dispman_layer *layer)
{
	layer_geometry_committed(layer); /* off the moved list */
	layer_buffer_committed(layer);   /* off the new buffer list */
	device_notify_layer_destroyed(output_device(layer->out), layer);
	list_remove(&layer->link);
	if (output_base_layer(layer->out) == layer)
		output_set_base_layer(layer->out, NULL);
	if (output_top_composited(layer->out) == layer)
		output_set_top_composited(layer->out, NULL);
	dispman_buffer_unref(layer->buf);
	free(layer);
}

void layer_destroy_all(struct dispman_output *out)
{
	struct list *pos, *tmp;
	list_for_each_safe(pos, tmp, output_layers(out))
		layer_destroy_internal(container_of(pos, struct dispman_layer, link));
}

void dispman_layer_destroy(struct dispman_layer *layer)
{
	if (!layer)
		return;
	device_shape_changed(output_device(layer->out));
	layer_destroy_internal(layer);
}

/* Its rectangles changed: on the device's moved list (layer_moved_list()). */
static void mark_moved(struct dispman_layer *layer)
{
	struct dispman_device *dev = output_device(layer->out);
	struct layer_state *st = device_layer_state(dev);
	if (layer->composited)
		st->compose_dirty = true;
	scan_forget(layer);
	device_geometry_changed(dev);
	if (layer->geom_dirty)
		return;
	layer->geom_dirty = true;
	if (st->n_dirty++ == st->n_moved && st->n_moved < LAYER_MOVED_MAX)
		st->moved[st->n_moved++] = layer;
}

/* A buffer was set: on the device's new buffer list (layer_new_buffer_list()). */
static void mark_new_buffer(struct dispman_layer *layer)
{
	if (layer->fb_dirty)
		return;
	struct layer_state *st = device_layer_state(output_device(layer->out));
	layer->fb_dirty = true;
	if (st->n_fb_dirty++ == st->n_new_fb && st->n_new_fb < LAYER_MOVED_MAX)
		st->new_fb[st->n_new_fb++] = layer;
}

/* The setters' common check: a layer to set. */
static void rate_settle(struct dispman_layer *layer);

static bool have_layer(const struct dispman_layer *layer, const char *fn)
{
	return !refuse_null_at(layer == NULL, fn, "layer", __FILE__, __LINE__);
}

int dispman_layer_set_buffer(struct dispman_layer *layer, struct dispman_buffer *buf)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	if (buf && buffer_device(buf) != output_device(layer->out)) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: buffer belongs to another device",
			output_name(layer->out));
		return -EINVAL;
	}
	struct dispman_buffer *old = layer->buf;
	if (!old || !buf || !buffer_same_shape(old, buf))
		device_shape_changed(output_device(layer->out));
	layer->buf = buf ? dispman_buffer_ref(buf) : NULL;
	scan_forget(layer); /* the default source and destination are the buffer's */
	rate_settle(layer);
	layer->content_serial++; /* new content, even with the same buffer: redraw it */
	mark_new_buffer(layer);
	if (layer->composited)
		device_layer_state(output_device(layer->out))->compose_dirty = true;
	dispman_buffer_unref(old);
	return 0;
}

int dispman_layer_set_source(struct dispman_layer *layer, uint32_t x, uint32_t y, uint32_t w,
	uint32_t h)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	if ((uint64_t)x + w > UINT32_MAX || (uint64_t)y + h > UINT32_MAX) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: layer z=%d: source %.2fx%.2f at (%.2f, %.2f) "
			"ends beyond 65536 pixels (16.16 coordinates)", output_name(layer->out),
			layer->z, w / 65536.0, h / 65536.0, x / 65536.0, y / 65536.0);
		return -ERANGE;
	}
	layer->src_set = w && h;
	layer->src_x = x;
	layer->src_y = y;
	layer->src_w = w;
	layer->src_h = h;
	/* rectangles only: the frame may keep its planes (alloc.c) */
	mark_moved(layer);
	return 0;
}

int dispman_layer_set_destination(struct dispman_layer *layer, int32_t x, int32_t y,
	uint32_t w, uint32_t h)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	if ((int64_t)x + w > INT32_MAX || (int64_t)y + h > INT32_MAX) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: layer z=%d: destination %ux%u at (%d, %d) "
			"ends beyond %d", output_name(layer->out), layer->z, w, h, x, y, INT32_MAX);
		return -ERANGE;
	}
	layer->dst_set = w && h;
	layer->dst_x = x;
	layer->dst_y = y;
	layer->dst_w = w;
	layer->dst_h = h;
	/* rectangles only: the frame may keep its planes (alloc.c) */
	mark_moved(layer);
	return 0;
}

int dispman_layer_set_z(struct dispman_layer *layer, int z)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	layer->z = z;
	device_shape_changed(output_device(layer->out));
	return 0;
}

int dispman_layer_set_alpha(struct dispman_layer *layer, uint32_t alpha)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	if (alpha > 0xffff) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: layer z=%d: alpha 0x%x is beyond 0xffff",
			output_name(layer->out), layer->z, alpha);
		return -ERANGE;
	}
	layer->alpha = (uint16_t)alpha;
	device_shape_changed(output_device(layer->out));
	return 0;
}

int dispman_layer_set_transform(struct dispman_layer *layer, enum dispman_transform transform)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	if ((int)transform < DISPMAN_TRANSFORM_NORMAL ||
	    (int)transform > DISPMAN_TRANSFORM_FLIPPED_270) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: layer z=%d: unknown transform %d",
			output_name(layer->out), layer->z, (int)transform);
		return -EINVAL;
	}
	if (layer->transform != transform) {
		layer->transform = transform;
		scan_forget(layer);
		device_shape_changed(output_device(layer->out));
	}
	return 0;
}

enum dispman_transform layer_transform(const struct dispman_layer *layer)
{
	return layer->transform;
}

bool layer_is_composition(const struct dispman_layer *layer)
{
	return layer->composition;
}

int dispman_layer_set_blend_mode(struct dispman_layer *layer, enum dispman_blend_mode mode)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	switch (mode) {
	case DISPMAN_BLEND_PREMULTIPLIED:
	case DISPMAN_BLEND_COVERAGE:
	case DISPMAN_BLEND_NONE:
		break;
	default:
		dispman_log(DISPMAN_LOG_ERROR, "%s: layer z=%d: unknown blend mode %d",
			output_name(layer->out), layer->z, (int)mode);
		return -EINVAL;
	}
	layer->blend = mode;
	device_shape_changed(output_device(layer->out));
	return 0;
}

int dispman_layer_set_cursor_hotspot(struct dispman_layer *layer, int32_t x, int32_t y)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	if (layer->hot_x != x || layer->hot_y != y)
		device_shape_changed(output_device(layer->out));
	layer->hot_x = x;
	layer->hot_y = y;
	return 0;
}

int dispman_layer_set_visible(struct dispman_layer *layer, bool visible)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	layer->visible = visible;
	device_shape_changed(output_device(layer->out));
	return 0;
}

int dispman_layer_get_placement(struct dispman_layer *layer, struct dispman_placement *placement)
{
	if (refuse_null(layer, "layer") || refuse_null(placement, "placement"))
		return -EINVAL;
	*placement = layer->placement;
	/* A camera that shows CPU copies (a format no plane takes, or memory the display
	 * cannot import): on a plane, but not zero-copy; say why. */
	if (layer->copy_reason && placement->reason == DISPMAN_REASON_NONE)
		placement->reason = layer->copy_reason;
	return 0;
}

void layer_get_src(const struct dispman_layer *layer, uint32_t *x, uint32_t *y, uint32_t *w,
	uint32_t *h)
{
	if (layer->src_set) {
		*x = layer->src_x;
		*y = layer->src_y;
		*w = layer->src_w;
		*h = layer->src_h;
	} else {
		*x = *y = 0;
		*w = layer->buf ? buffer_width(layer->buf) << 16 : 0;
		*h = layer->buf ? buffer_height(layer->buf) << 16 : 0;
	}
}

void layer_get_dst(const struct dispman_layer *layer, int32_t *x, int32_t *y, uint32_t *w,
	uint32_t *h)
{
	if (layer->dst_set) {
		*x = layer->dst_x;
		*y = layer->dst_y;
		*w = layer->dst_w;
		*h = layer->dst_h;
	} else {
		*x = layer->dst_x;
		*y = layer->dst_y;
		*w = layer->buf ? buffer_width(layer->buf) : 0;
		*h = layer->buf ? buffer_height(layer->buf) : 0;
		if ((unsigned)layer->transform & 1u) { /* turned by 90 or 270: upright size */
			uint32_t t = *w;
			*w = *h;
			*h = t;
		}
	}
}

int dispman_layer_get_buffer(struct dispman_layer *layer, struct dispman_buffer **buf)
{
	if (refuse_null(layer, "layer") || refuse_null(buf, "buf"))
		return -EINVAL;
	*buf = layer->buf ? dispman_buffer_ref(layer->buf) : NULL;
	return 0;
}

bool layer_below(const struct dispman_layer *la, const struct dispman_layer *lb)
{
	return la->z != lb->z ? la->z < lb->z : la->serial < lb->serial;
}

int dispman_output_set_buffer(struct dispman_output *out, struct dispman_buffer *buf)
{
	if (refuse_null(out, "out"))
		return -EINVAL;
	struct dispman_layer *base = output_base_layer(out);
	if (!base) {
		if (!buf)
			return 0;
		base = dispman_layer_create(out);
		if (!base)
			return -errno;
		output_set_base_layer(out, base);
		dispman_layer_set_z(base, INT_MIN);
	}
	return dispman_layer_set_buffer(base, buf);
}

struct dispman_output *layer_output(const struct dispman_layer *layer)
{
	return layer->out;
}

struct dispman_buffer *layer_buffer(const struct dispman_layer *layer)
{
	return layer->buf;
}

int layer_z(const struct dispman_layer *layer)
{
	return layer->z;
}

uint16_t layer_alpha(const struct dispman_layer *layer)
{
	return layer->alpha;
}

enum dispman_blend_mode layer_blend(const struct dispman_layer *layer)
{
	return layer->blend;
}

bool layer_visible(const struct dispman_layer *layer)
{
	return layer->visible;
}

void layer_get_hotspot(const struct dispman_layer *layer, int32_t *x, int32_t *y)
{
	*x = layer->hot_x;
	*y = layer->hot_y;
}

int layer_move(struct dispman_layer *layer, int32_t x, int32_t y)
{
	return dispman_layer_set_destination(layer, x, y, layer->dst_set ? layer->dst_w : 0,
		layer->dst_set ? layer->dst_h : 0);
}

struct dispman_layer *layer_from_link(struct list *link)
{
	return container_of(link, struct dispman_layer, link);
}

struct plane *layer_plane(const struct dispman_layer *layer)
{
	return layer->plane;
}

const struct dispman_placement *layer_placement(const struct dispman_layer *layer)
{
	return &layer->placement;
}

bool layer_composited(const struct dispman_layer *layer)
{
	return layer->composited;
}

void layer_record_placement(struct dispman_layer *layer, struct plane *plane,
	const struct dispman_placement *placement)
{
	layer->plane = plane;
	layer->placement = *placement;
	layer->composited = placement->state == DISPMAN_PLACEMENT_COMPOSITED;
}

/*
 * Each prepared commit of the output moves the rate an eighth of the way to 256 when the
 * content changed since the commit before, else to 0 (integer steps: it stays below 8).
 * The commits since rate_at are counted here at once: the first of them sees the change of
 * content since rate_serial, if any; the others see none, since a change brings the rate
 * to date first (rate_settle(), from dispman_layer_set_buffer()).
 */
unsigned layer_update_rate(const struct dispman_layer *layer)
{
	unsigned k = output_prepared_commits(layer->out) - layer->rate_at;
	unsigned rate = layer->update_rate;
	if (k && layer->content_serial != layer->rate_serial) {
		rate = rate - rate / 8 + 32;
		k--;
	}
	for (; k && rate >= 8; k--)
		rate -= rate / 8;
	return rate;
}

/* The rate brought to date before the content changes (see layer_update_rate()). */
static void rate_settle(struct dispman_layer *layer)
{
	unsigned now = output_prepared_commits(layer->out);
	if (now == layer->rate_at)
		return;
	layer->update_rate = layer_update_rate(layer);
	layer->rate_serial = layer->content_serial;
	layer->rate_at = now;
}

bool layer_geom_dirty(const struct dispman_layer *layer)
{
	return layer->geom_dirty;
}

void layer_geometry_committed(struct dispman_layer *layer)
{
	if (!layer->geom_dirty)
		return;
	layer->geom_dirty = false;
	struct layer_state *st = device_layer_state(output_device(layer->out));
	st->n_dirty--;
	for (size_t i = 0; i < st->n_moved; i++) {
		if (st->moved[i] == layer) {
			st->moved[i] = st->moved[--st->n_moved];
			break;
		}
	}
	if (!st->n_dirty)
		st->n_moved = 0; /* whole again */
}

bool layer_moved_list(const struct dispman_device *dev, struct dispman_layer *const **list,
	size_t *n)
{
	const struct layer_state *st = device_layer_state(dev);
	*list = st->moved;
	*n = st->n_moved;
	return st->n_moved == st->n_dirty;
}

void layer_buffer_committed(struct dispman_layer *layer)
{
	if (!layer->fb_dirty)
		return;
	layer->fb_dirty = false;
	struct layer_state *st = device_layer_state(output_device(layer->out));
	st->n_fb_dirty--;
	/* from the end: alloc_done() clears the list backwards, each found at once */
	for (size_t i = st->n_new_fb; i-- > 0;) {
		if (st->new_fb[i] == layer) {
			st->new_fb[i] = st->new_fb[--st->n_new_fb];
			break;
		}
	}
	if (!st->n_fb_dirty)
		st->n_new_fb = 0; /* whole again */
}

void layer_new_buffers_committed(struct dispman_device *dev)
{
	struct layer_state *st = device_layer_state(dev);
	if (st->n_new_fb != st->n_fb_dirty)
		return; /* not whole: layer_buffer_committed() of each */
	for (size_t i = 0; i < st->n_new_fb; i++)
		st->new_fb[i]->fb_dirty = false;
	st->n_fb_dirty = st->n_new_fb = 0;
}

bool layer_new_buffer_list(const struct dispman_device *dev,
	struct dispman_layer *const **list, size_t *n)
{
	const struct layer_state *st = device_layer_state(dev);
	*list = st->new_fb;
	*n = st->n_new_fb;
	return st->n_new_fb == st->n_fb_dirty;
}

bool layer_compose_dirty(const struct dispman_device *dev)
{
	return device_layer_state(dev)->compose_dirty;
}

void layer_compose_clean(struct dispman_device *dev)
{
	device_layer_state(dev)->compose_dirty = false;
}

void layer_set_copy_reason(struct dispman_layer *layer, enum dispman_placement_reason why)
{
	layer->copy_reason = why;
}

bool layer_content_composed(const struct dispman_layer *layer)
{
	return layer->composed_serial == layer->content_serial;
}

const int32_t *layer_composed_box(const struct dispman_layer *layer)
{
	return layer->composed_box;
}

void layer_note_composed(struct dispman_layer *layer, int32_t x1, int32_t y1, int32_t x2,
	int32_t y2)
{
	layer->composed_serial = layer->content_serial;
	layer->composed_box[0] = x1;
	layer->composed_box[1] = y1;
	layer->composed_box[2] = x2;
	layer->composed_box[3] = y2;
}

struct dispman_layer *layer_create_composition(struct dispman_output *out)
{
	struct dispman_layer *layer = calloc(1, sizeof(*layer));
	if (!layer)
		return NULL;
	layer->out = out;
	layer->rate_at = output_prepared_commits(out);
	layer->alpha = 0xffff;
	layer->visible = true;
	layer->composition = true;
	list_init(&layer->link);
	return layer;
}

void layer_set_composition_buffer(struct dispman_layer *layer, struct dispman_buffer *buf)
{
	layer->buf = buf;
	scan_forget(layer);
	mark_new_buffer(layer);
}

void layer_frame_begin(struct dispman_device *dev)
{
	struct layer_state *st = device_layer_state(dev);
	st->in_frame = true;
	if (++st->frame == 0)
		st->frame = 1; /* 0 is no commit */
}

void layer_frame_end(struct dispman_device *dev)
{
	device_layer_state(dev)->in_frame = false;
}

bool layer_scanout_cached(const struct dispman_layer *layer, bool clipped,
	struct transform_geom *g)
{
	const struct layer_state *st = device_layer_state(output_device(layer->out));
	if (!st->in_frame || layer->scan_frame[clipped] != st->frame)
		return false;
	*g = layer->scan[clipped];
	return true;
}

void layer_scanout_keep(const struct dispman_layer *layer, bool clipped,
	const struct transform_geom *g)
{
	const struct layer_state *st = device_layer_state(output_device(layer->out));
	if (!st->in_frame)
		return;
	/* a memo of what the layer's state gives: the layer stays the same to its readers */
	struct dispman_layer *l = (struct dispman_layer *)layer;
	l->scan[clipped] = *g;
	l->scan_frame[clipped] = st->frame;
}

void layer_destroy_composition(struct dispman_layer *layer)
{
	if (!layer)
		return;
	layer_buffer_committed(layer); /* off the new buffer list */
	free(layer);
}

int dispman_layer_set_needs_plane(struct dispman_layer *layer, bool needs)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	if (layer->needs_plane != needs) {
		layer->needs_plane = needs;
		device_shape_changed(output_device(layer->out));
	}
	return 0;
}

int dispman_layer_set_name(struct dispman_layer *layer, const char *name)
{
	if (!have_layer(layer, __func__))
		return -EINVAL;
	size_t len = name ? strlen(name) : 0;
	if (len > DISPMAN_LAYER_NAME_MAX) {
		dispman_log(DISPMAN_LOG_ERROR, "dispman_layer_set_name: a name of %zu bytes, more "
			"than %d", len, DISPMAN_LAYER_NAME_MAX);
		return -EINVAL;
	}
	memcpy(layer->name, name ? name : "", len);
	layer->name[len] = '\0';
	return 0;
}

const char *dispman_layer_get_name(struct dispman_layer *layer)
{
	if (!have_layer(layer, __func__))
		return NULL;
	return layer->name[0] ? layer->name : NULL;
}

bool layer_needs_plane(const struct dispman_layer *layer)
{
	return layer->needs_plane;
}
