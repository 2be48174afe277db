/* SPDX-License-Identifier: MIT */
/*
 * The pointer's cursor (cursor.h). One layer, z above every surface, given to the input as
 * its cursor layer: the library moves it to the pointer minus the hotspot after each batch
 * of motion and commits, so the cursor follows the pointer without a repaint of the scene.
 * What it shows changes here (a client's cursor surface, the default cursor, nothing), and a
 * change is committed with the scene's next frame.
 *
 * A client's cursor is copied at each commit of its surface (shm) into a new dumb buffer of
 * the same format (padded to the device's cursor size when it has alpha); the layer keeps the old copy until the frame that replaces it is on
 * screen. dma-buf and single-pixel cursor buffers are shown as they are.
 */
#include "cursor.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>

#if HAVE_XCURSOR
#include <X11/Xcursor/Xcursor.h>
#endif

#include "buffer.h"
#include "surface.h"

struct cursor {
	struct server *srv;
	struct dispman_input *input;
	struct dispman_layer *layer;
	bool hide;                      /* the embedder's choice */
	unsigned pointers;              /* pointer devices of the seat */
	bool seen;                      /* a pointer event came (devices added before counted) */
	bool active;                    /* the layer is shown (by_input: the input's layer) */
	bool by_input;                  /* the input places the layer (one output) */

	/* An extended layout of several outputs (cursor_pointer_at()): the layer is made on
	 * the output under the pointer and placed here; the input moves nothing. */
	struct output *at;              /* that output; NULL: the input places the layer */
	double lx, ly;                  /* the pointer in the layout */
	struct dispman_output *on;      /* the output the layer was made on */
	struct dispman_output *left;    /* an output the layer left: committed without it */
	struct wl_event_source *commit_idle;

	/* the focused client's cursor: its surface, or hidden by it (set_cursor NULL) */
	struct surface *surface;
	bool client_hidden;
	int32_t hot_x, hot_y;
	struct dispman_buffer *image;   /* the surface's content (a reference) */

	struct dispman_buffer *def;     /* the default cursor (a reference), made when needed */
	int32_t def_hot_x, def_hot_y;
	bool def_tried;

	/* what the layer was last given */
	struct dispman_buffer *shown;   /* a reference */
	int32_t shown_hot_x, shown_hot_y;

	/* a drag's icon (wl_data_device.start_drag): its own layer below the cursor's, at the
	 * pointer plus the offsets its attaches accumulated */
	struct surface *icon;
	struct dispman_layer *icon_layer;
	struct dispman_buffer *icon_image;      /* what icon_layer shows (a reference) */
	struct buffer *icon_buffer;             /* the committed buffer icon_image copies */
	bool icon_new;                          /* icon_image not given to the layer yet */
	int32_t icon_dx, icon_dy;
	double icon_px, icon_py;                /* the pointer */

	struct wl_listener surface_destroy;
};

/* The built-in arrow (hotspot at its tip, 0, 0): X black, . white, space transparent. */
static const char *const arrow[] = {
	"X           ",
	"XX          ",
	"X.X         ",
	"X..X        ",
	"X...X       ",
	"X....X      ",
	"X.....X     ",
	"X......X    ",
	"X.......X   ",
	"X........X  ",
	"X.........X ",
	"X......XXXXX",
	"X...X..X    ",
	"X..XX..X    ",
	"X.X  X..X   ",
	"XX   X..X   ",
	"X     X..X  ",
	"      X..X  ",
	"       XX   ",
};

/*
 * A mapped dumb buffer for a w x h cursor image of format fourcc, cleared. An image with
 * alpha that fits the device's cursor size is padded to it (transparent right and below):
 * many cursor planes take that size only (virtio-gpu refuses a 24x24 one). Not beyond
 * 256x256 (vkms says 512x512: a MiB per image for a plane that takes any size). NULL: logged.
 */
static struct dispman_buffer *cursor_buffer(struct server *srv, uint32_t w, uint32_t h,
	uint32_t fourcc, void **data, uint32_t *stride)
{
	struct dispman_limits lim = { .size = sizeof(lim) };
	uint32_t bw = w, bh = h;
	if ((fourcc == DRM_FORMAT_ARGB8888 || fourcc == DRM_FORMAT_ABGR8888) &&
	    dispman_device_get_limits(srv->dev, &lim) == 0 && w <= lim.cursor_width &&
	    h <= lim.cursor_height && lim.cursor_width <= 256 && lim.cursor_height <= 256) {
		bw = lim.cursor_width;
		bh = lim.cursor_height;
	}
	struct dispman_buffer *b = dispman_buffer_create_dumb(srv->dev, bw, bh, fourcc);
	if (!b || dispman_buffer_map(b, data, stride) < 0) {
		wlog(DISPMAN_LOG_ERROR, "cursor: no %ux%u buffer: %s", bw, bh, strerror(errno));
		dispman_buffer_unref(b);
		return NULL;
	}
	memset(*data, 0, (size_t)*stride * bh);
	return b;
}

/* An ARGB8888 cursor buffer with w x h pixels (premultiplied, 0xAARRGGBB), or NULL. */
static struct dispman_buffer *argb_buffer(struct server *srv, uint32_t w, uint32_t h,
	const uint32_t *pixels)
{
	void *data;
	uint32_t stride;
	struct dispman_buffer *b = cursor_buffer(srv, w, h, DRM_FORMAT_ARGB8888, &data, &stride);
	if (!b)
		return NULL;
	for (uint32_t y = 0; y < h; y++)
		memcpy((uint8_t *)data + (size_t)y * stride, pixels + (size_t)y * w, (size_t)w * 4);
	return b;
}

static void load_builtin(struct cursor *c)
{
	enum { W = 12, H = sizeof(arrow) / sizeof(arrow[0]) };
	uint32_t px[W * H];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			px[y * W + x] = arrow[y][x] == 'X' ? 0xff000000u :
				arrow[y][x] == '.' ? 0xffffffffu : 0;
	c->def = argb_buffer(c->srv, W, H, px);
	c->def_hot_x = c->def_hot_y = 0;
}

/* left_ptr of $XCURSOR_THEME (else the "default" theme, which inherits the system's) at
 * $XCURSOR_SIZE (else 24); the built-in arrow when no theme has it. */
static void load_default(struct cursor *c)
{
	c->def_tried = true;
#if HAVE_XCURSOR
	const char *theme = getenv("XCURSOR_THEME");
	const char *size_env = getenv("XCURSOR_SIZE");
	int size = size_env ? atoi(size_env) : 0;
	if (size <= 0 || size > 256)
		size = 24;
	XcursorImage *img = XcursorLibraryLoadImage("left_ptr", theme, size);
	if (img && img->width > 0 && img->height > 0 && img->width <= 512 &&
	    img->height <= 512) {
		c->def = argb_buffer(c->srv, img->width, img->height, img->pixels);
		c->def_hot_x = (int32_t)img->xhot;
		c->def_hot_y = (int32_t)img->yhot;
		if (c->def)
			wlog(DISPMAN_LOG_INFO, "cursor: left_ptr of the XCursor theme %s, %ux%u",
				theme ? theme : "default", img->width, img->height);
	}
	if (img)
		XcursorImageDestroy(img);
	if (c->def)
		return;
	wlog(DISPMAN_LOG_INFO, "cursor: no XCursor theme has left_ptr (theme %s, size %d): "
		"the built-in arrow", theme ? theme : "default", size);
#else
	wlog(DISPMAN_LOG_INFO, "cursor: built without libXcursor: the built-in arrow");
#endif
	load_builtin(c);
}

/* The surface's content as a buffer the layer can show (a new reference), or NULL. */
static struct dispman_buffer *surface_image(struct cursor *c, struct surface *s)
{
	struct buffer *b = s->current.buffer;
	if (!b || b->width <= 0 || b->height <= 0)
		return NULL;
	if (b->type != BUFFER_SHM)
		return b->dbuf ? dispman_buffer_ref(b->dbuf) : NULL;
	struct wl_shm_buffer *shm = b->resource ? wl_shm_buffer_get(b->resource) : NULL;
	if (!shm)
		return NULL;
	uint32_t fourcc = buffer_shm_fourcc(wl_shm_buffer_get_format(shm));
	if (!fourcc)
		return NULL;
	uint32_t bpp = fourcc == DRM_FORMAT_RGB565 ? 2 : 4;
	uint32_t w = (uint32_t)b->width, h = (uint32_t)b->height;
	void *dst;
	uint32_t dst_stride;
	struct dispman_buffer *copy = cursor_buffer(c->srv, w, h, fourcc, &dst, &dst_stride);
	if (!copy)
		return NULL;
	int32_t src_stride = wl_shm_buffer_get_stride(shm);
	wl_shm_buffer_begin_access(shm);
	const uint8_t *src = wl_shm_buffer_get_data(shm);
	for (uint32_t y = 0; y < h; y++)
		memcpy((uint8_t *)dst + (size_t)y * dst_stride, src + (size_t)y * (size_t)src_stride,
			(size_t)w * bpp);
	wl_shm_buffer_end_access(shm);
	c->srv->stats.shm_copies++;
	c->srv->stats.bytes_copied += (uint64_t)w * h * bpp;
	return copy;
}

static void unset_layer(struct cursor *c)
{
	if (!c->active)
		return;
	c->active = false;
	if (c->input && c->by_input)
		dispman_input_set_cursor_layer(c->input, NULL, 0, 0);
	c->by_input = false;
	dispman_layer_set_visible(c->layer, false);
	server_schedule_repaint(c->srv);
}

/* Commits an output the cursor changed on, unless it is off or unplugged (the scene's next
 * frame there carries the change). */
static void commit_output(struct cursor *c, struct dispman_output *out)
{
	struct output *o, *found = NULL;
	wl_list_for_each(o, &c->srv->output_list, link)
		if (o->out == out)
			found = o;
	if (!out || !found || found->blanked || found->disconnected)
		return;
	int r = dispman_output_commit(out);
	if (r < 0 && r != -EACCES) /* a lost master is logged once by the device */
		wlog(DISPMAN_LOG_ERROR, "cursor: commit on %s failed: %s",
			dispman_output_get_name(out), strerror(-r));
}

/* After a batch of motion (an idle callback): the outputs the cursor moved on, as the
 * input does after its own batch, without a repaint of the scene. */
static void on_commit_idle(void *data)
{
	struct cursor *c = data;
	c->commit_idle = NULL;
	struct dispman_output *left = c->left;
	c->left = NULL;
	commit_output(c, left);
	if (c->at && c->at->out != left)
		commit_output(c, c->at->out);
}

static void schedule_commit(struct cursor *c)
{
	if (!c->commit_idle)
		c->commit_idle = wl_event_loop_add_idle(c->srv->loop, on_commit_idle, c);
}

/* The layer goes (it is on another output than the one the cursor is on now): that output
 * is committed without it. */
static void drop_layer(struct cursor *c)
{
	if (!c->layer)
		return;
	if (c->input && c->by_input)
		dispman_input_set_cursor_layer(c->input, NULL, 0, 0);
	c->by_input = false;
	c->active = false;
	dispman_layer_destroy(c->layer);
	c->layer = NULL;
	dispman_buffer_unref(c->shown);
	c->shown = NULL;
	if (c->left && c->left != c->on)
		commit_output(c, c->left);
	c->left = c->on;
	c->on = NULL;
	schedule_commit(c);
}

/* Extended layout: the layer at the pointer minus the hotspot, in its output's pixels. */
static void place(struct cursor *c)
{
	int32_t x = (int32_t)floor(c->lx) - c->at->x - c->shown_hot_x;
	int32_t y = (int32_t)floor(c->ly) - c->at->y - c->shown_hot_y;
	int r = dispman_layer_move(c->layer, x, y);
	if (r < 0)
		wlog(DISPMAN_LOG_ERROR, "cursor: cannot move the layer to %d,%d: %s", x, y,
			strerror(-r));
	schedule_commit(c);
}

/* Brings the layer in line with what should be shown. */
static void update(struct cursor *c)
{
	struct dispman_buffer *buf = NULL;
	int32_t hx = 0, hy = 0;
	if (c->input && !c->hide && (c->pointers > 0 || c->seen)) {
		if (c->surface) {
			buf = c->image;
			hx = c->hot_x;
			hy = c->hot_y;
		} else if (!c->client_hidden) {
			if (!c->def_tried)
				load_default(c);
			buf = c->def;
			hx = c->def_hot_x;
			hy = c->def_hot_y;
		}
	}
	if (!buf) {
		unset_layer(c);
		return;
	}
	/* on the output under the pointer (extended layout), else the first */
	struct dispman_output *want = c->at ? c->at->out : c->srv->out;
	if (c->layer && c->on != want)
		drop_layer(c);
	if (!c->layer) {
		c->layer = dispman_layer_create(want);
		if (!c->layer) {
			wlog(DISPMAN_LOG_ERROR, "cursor: no layer: %s", strerror(errno));
			return;
		}
		c->on = want;
		dispman_layer_set_z(c->layer, INT_MAX);
	}
	bool changed = false;
	if (buf != c->shown) {
		int r = dispman_layer_set_buffer(c->layer, buf);
		if (r < 0) {
			wlog(DISPMAN_LOG_ERROR, "cursor: the layer refused its buffer: %s",
				strerror(-r));
			unset_layer(c);
			return;
		}
		dispman_buffer_unref(c->shown);
		c->shown = dispman_buffer_ref(buf);
		changed = true;
	}
	if (c->at) {
		/* placed here, not by the input */
		if (c->by_input)
			dispman_input_set_cursor_layer(c->input, NULL, 0, 0);
		c->by_input = false;
		if (!c->active || hx != c->shown_hot_x || hy != c->shown_hot_y) {
			dispman_layer_set_visible(c->layer, true);
			/* virtualized cursor planes take the hotspot too (HOTSPOT_X/Y) */
			dispman_layer_set_cursor_hotspot(c->layer, hx, hy);
			c->active = true;
			c->shown_hot_x = hx;
			c->shown_hot_y = hy;
			changed = true;
		}
		place(c);
		if (changed)
			server_schedule_repaint(c->srv);
		return;
	}
	if (!c->active || !c->by_input || hx != c->shown_hot_x || hy != c->shown_hot_y) {
		dispman_layer_set_visible(c->layer, true);
		int r = dispman_input_set_cursor_layer(c->input, c->layer, hx, hy);
		if (r < 0) {
			wlog(DISPMAN_LOG_ERROR, "cursor: the input refused its cursor layer: %s",
				strerror(-r));
			dispman_layer_set_visible(c->layer, false);
			c->active = false;
			server_schedule_repaint(c->srv);
			return;
		}
		c->active = true;
		c->by_input = true;
		c->shown_hot_x = hx;
		c->shown_hot_y = hy;
		changed = true;
	}
	if (changed)
		server_schedule_repaint(c->srv);
}

static void forget_surface(struct cursor *c)
{
	c->surface = NULL;
	dispman_buffer_unref(c->image);
	c->image = NULL;
}

/* The role's commit hook: a cursor surface (shown or not) committed. */
static void cursor_commit(struct surface *s, void *data)
{
	struct cursor *c = data;
	if (s != c->surface)
		return;
	dispman_buffer_unref(c->image);
	c->image = surface_image(c, s);
	update(c);
}

/* ---- the drag icon ---- */

/* Brings the icon's layer in line with the icon surface's content and the pointer. */
static void icon_update(struct cursor *c)
{
	if (!c->icon || !c->icon_image) {
		if (c->icon_layer) {
			dispman_layer_destroy(c->icon_layer);
			c->icon_layer = NULL;
			server_schedule_repaint(c->srv);
		}
		return;
	}
	if (!c->icon_layer) {
		c->icon_layer = dispman_layer_create(c->srv->out);
		if (!c->icon_layer) {
			wlog(DISPMAN_LOG_ERROR, "drag icon: no layer: %s", strerror(errno));
			return;
		}
		dispman_layer_set_name(c->icon_layer, "drag-icon");
		dispman_layer_set_z(c->icon_layer, INT_MAX - 1);
		c->icon_new = true;
	}
	uint32_t w = dispman_buffer_get_width(c->icon_image);
	uint32_t h = dispman_buffer_get_height(c->icon_image);
	int r = 0;
	if (c->icon_new) {
		/* new content: the layer's buffer (a motion moves the layer only) */
		r = dispman_layer_set_buffer(c->icon_layer, c->icon_image);
		if (r == 0)
			r = dispman_layer_set_source(c->icon_layer, 0, 0, w << 16, h << 16);
		c->icon_new = false;
	}
	if (r == 0)
		r = dispman_layer_set_destination(c->icon_layer,
			(int32_t)c->icon_px + c->icon_dx, (int32_t)c->icon_py + c->icon_dy, w, h);
	if (r < 0) {
		wlog(DISPMAN_LOG_ERROR, "drag icon: the layer refused it: %s", strerror(-r));
		dispman_layer_destroy(c->icon_layer);
		c->icon_layer = NULL;
	}
	server_schedule_repaint(c->srv);
}

/* The icon's role commit hook: a new buffer or new content is copied and shown; the
 * commit's offset (attach's before wl_surface v5, wl_surface.offset's from v5) moves the
 * icon. */
static void icon_commit(struct surface *s, void *data)
{
	struct cursor *c = data;
	if (s != c->icon)
		return;
	/* moved by its new buffer's attach offset, or by wl_surface.offset (v5) */
	c->icon_dx += s->commit_dx;
	c->icon_dy += s->commit_dy;
	c->icon_buffer = s->current.buffer;
	dispman_buffer_unref(c->icon_image);
	c->icon_image = surface_image(c, s);
	c->icon_new = true;
	icon_update(c);
}

static void icon_forget(struct cursor *c)
{
	if (c->icon && c->icon->role_commit == icon_commit) {
		c->icon->role_commit = NULL;
		c->icon->role_data = NULL;
	}
	c->icon = NULL;
	c->icon_buffer = NULL;
	dispman_buffer_unref(c->icon_image);
	c->icon_image = NULL;
}

void cursor_drag_icon(struct server *srv, struct surface *icon, double x, double y)
{
	struct cursor *c = srv->cursor;
	icon_forget(c);
	c->icon_dx = c->icon_dy = 0;
	c->icon_px = x;
	c->icon_py = y;
	if (icon) {
		c->icon = icon;
		icon->role_commit = icon_commit;
		icon->role_data = c;
		c->icon_buffer = icon->current.buffer;
		c->icon_image = surface_image(c, icon);
		c->icon_new = true;
	}
	icon_update(c);
}

void cursor_drag_motion(struct server *srv, double x, double y)
{
	struct cursor *c = srv->cursor;
	if (!c->icon || (x == c->icon_px && y == c->icon_py))
		return;
	c->icon_px = x;
	c->icon_py = y;
	icon_update(c);
}

static void on_surface_destroy(struct wl_listener *l, void *data)
{
	struct cursor *c = wl_container_of(l, c, surface_destroy);
	if (data == c->icon) {
		icon_forget(c);
		icon_update(c);
		return;
	}
	if (data != c->surface)
		return;
	/* the client's cursor is gone: the default one until it sets another */
	forget_surface(c);
	c->client_hidden = false;
	update(c);
}

int cursor_init(struct server *srv)
{
	struct cursor *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->srv = srv;
	c->surface_destroy.notify = on_surface_destroy;
	wl_signal_add(&srv->events.surface_destroy, &c->surface_destroy);
	srv->cursor = c;
	return 0;
}

void cursor_finish(struct server *srv)
{
	struct cursor *c = srv->cursor;
	if (!c)
		return;
	if (c->by_input && c->input)
		dispman_input_set_cursor_layer(c->input, NULL, 0, 0);
	if (c->commit_idle)
		wl_event_source_remove(c->commit_idle);
	dispman_layer_destroy(c->layer);
	icon_forget(c);
	dispman_layer_destroy(c->icon_layer);
	wl_list_remove(&c->surface_destroy.link);
	dispman_buffer_unref(c->shown);
	dispman_buffer_unref(c->image);
	dispman_buffer_unref(c->def);
	free(c);
	srv->cursor = NULL;
}

void cursor_set_input(struct server *srv, struct dispman_input *input)
{
	struct cursor *c = srv->cursor;
	if (c->input == input)
		return;
	unset_layer(c);
	c->input = input;
	c->pointers = 0;
	c->seen = false;
	update(c);
}

void cursor_device(struct server *srv, uint32_t caps, bool added)
{
	struct cursor *c = srv->cursor;
	if (added && !caps && c->seen)
		return;
	if (!caps)
		c->seen = true;
	else if (!(caps & DISPMAN_INPUT_CAP_POINTER))
		return;
	else if (added)
		c->pointers++;
	else if (c->pointers > 0 && --c->pointers == 0)
		c->seen = false;
	update(c);
}

void cursor_focus_changed(struct server *srv)
{
	struct cursor *c = srv->cursor;
	if (!c->surface && !c->client_hidden)
		return;
	forget_surface(c);
	c->client_hidden = false;
	update(c);
}

void cursor_set_surface(struct server *srv, struct wl_resource *pointer, struct surface *s,
	int32_t hot_x, int32_t hot_y)
{
	struct cursor *c = srv->cursor;
	if (s && s->role != ROLE_NONE && s->role != ROLE_CURSOR) {
		server_post_error(srv, pointer, WL_POINTER_ERROR_ROLE,
			"surface %u already has another role", wl_resource_get_id(s->resource));
		return;
	}
	if (s) {
		s->role = ROLE_CURSOR;
		s->role_commit = cursor_commit;
		s->role_data = c;
	}
	if (s != c->surface) {
		forget_surface(c);
		c->surface = s;
		if (s)
			c->image = surface_image(c, s);
	}
	c->client_hidden = !s;
	c->hot_x = hot_x;
	c->hot_y = hot_y;
	update(c);
}

void cursor_pointer_at(struct server *srv, struct output *o, double lx, double ly)
{
	struct cursor *c = srv->cursor;
	if (!c || (!o && !c->at))
		return;
	if (o == c->at && lx == c->lx && ly == c->ly)
		return;
	bool crossed = o != c->at;
	c->at = o;
	c->lx = lx;
	c->ly = ly;
	if (crossed || !c->active || !c->layer)
		update(c);
	else
		place(c);
}

void cursor_output_removed(struct server *srv, struct output *o)
{
	struct cursor *c = srv->cursor;
	if (!c)
		return;
	if (c->left == o->out)
		c->left = NULL;
	if (c->at != o && c->on != o->out)
		return;
	if (c->at == o)
		c->at = NULL;
	if (c->layer && c->on == o->out) {
		drop_layer(c);
		if (c->left == o->out)
			c->left = NULL;
	}
	update(c);
}

void cursor_hide(struct server *srv, bool hide)
{
	struct cursor *c = srv->cursor;
	c->hide = hide;
	update(c);
}
