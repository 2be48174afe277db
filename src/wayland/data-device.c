/* SPDX-License-Identifier: MIT */
/*
 * wl_data_device_manager (v3: the clipboard, drag and drop with actions) and
 * zwp_primary_selection_device_manager_v1, on one model: a source is a client's list of
 * MIME types; an offer is a source shown to another client (or the same one); a transfer
 * is the offer's receive(mime, fd) passed on as the source's send(mime, fd), the fd closed
 * here afterwards. Each kind has one selection for the seat, sent to the client with
 * keyboard focus when the focus moves or the selection changes. A drag runs as a pointer
 * grab of the seat: the surface under the pointer gets enter, motion and leave with a new
 * offer each time, the button's release drops on it (if it accepted a type and an action)
 * or cancels; the drag's icon surface follows the pointer on a layer of its own (cursor.c).
 * Sources, offers and devices of either protocol share this code; only the
 * requests and events differ.
 */
#include "data-device.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cursor.h"
#include "seat.h"
#include "surface.h"
#include "tree.h"

#include "primary-selection-unstable-v1-server-protocol.h"

enum kind {
	CLIPBOARD,
	PRIMARY,
	KINDS,
};

#define DND_ALL (WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY | WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE | \
	WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK)

struct source {
	struct wl_resource *resource;
	struct data_device_manager *mgr;
	enum kind kind;
	struct wl_array mimes;          /* char * each, owned */
	uint32_t actions;               /* dnd: what the source offers */
	bool actions_set;
	bool used;                      /* given to set_selection or start_drag already */
	bool dnd;                       /* the source of a drag */
	bool accepted;                  /* dnd: the target accepted a type */
	uint32_t action;                /* dnd: the action chosen, sent to both */
};

struct offer {
	struct wl_resource *resource;
	struct data_device_manager *mgr;
	struct source *source;          /* NULL once the source is gone or replaced */
	enum kind kind;
	bool dnd;
	uint32_t actions, preferred;    /* dnd: what the target said (set_actions) */
	bool actions_set;
	struct wl_list link;            /* data_device_manager.offers */
};

struct drag {
	struct seat_pointer_grab grab;
	struct data_device_manager *mgr;
	struct source *source;          /* NULL: a drag inside one client, no offers */
	struct wl_client *client;       /* the client that started it */
	struct surface *focus;          /* the surface under the pointer, entered */
	struct offer *offer;            /* the offer sent to focus */
	bool active;
};

struct data_device_manager {
	struct server *srv;
	struct wl_list devices[KINDS];  /* wl_resource links */
	struct wl_list offers;          /* offer.link */
	struct source *selection[KINDS];
	struct drag drag;
	struct wl_listener keyboard_focus, surface_destroy;
};

/* ---- the two protocols' events, by kind ---- */

static void source_send(struct source *src, const char *mime, int fd)
{
	if (src->kind == CLIPBOARD)
		wl_data_source_send_send(src->resource, mime, fd);
	else
		zwp_primary_selection_source_v1_send_send(src->resource, mime, fd);
}

static void source_cancelled(struct source *src)
{
	if (src->kind == CLIPBOARD)
		wl_data_source_send_cancelled(src->resource);
	else
		zwp_primary_selection_source_v1_send_cancelled(src->resource);
}

/* ---- sources ---- */

static struct source *source_from(struct wl_resource *res)
{
	return wl_resource_get_user_data(res);
}

static void source_offer(struct wl_client *c, struct wl_resource *res, const char *mime)
{
	struct source *src = source_from(res);
	char **m;
	wl_array_for_each(m, &src->mimes)
		if (strcmp(*m, mime) == 0)
			return;
	char *copy = strdup(mime);
	char **slot = copy ? wl_array_add(&src->mimes, sizeof(char *)) : NULL;
	if (!slot) {
		free(copy);
		wl_client_post_no_memory(c);
		return;
	}
	*slot = copy;
}

static void source_destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void source_set_actions(struct wl_client *c, struct wl_resource *res, uint32_t actions)
{
	struct source *src = source_from(res);
	if (src->actions_set) {
		server_post_error(src->mgr->srv, res, WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK,
			"set_actions called twice");
		return;
	}
	if (actions & ~(uint32_t)DND_ALL) {
		server_post_error(src->mgr->srv, res, WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK,
			"action mask 0x%x has unknown actions", actions);
		return;
	}
	if (src->used) {
		server_post_error(src->mgr->srv, res, WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK,
			"set_actions after the source was used");
		return;
	}
	src->actions = actions;
	src->actions_set = true;
}

static void send_selection(struct data_device_manager *mgr, enum kind kind,
	struct wl_client *client);
static void drag_end(struct drag *d, bool cancel_source);

static void source_resource_destroy(struct wl_resource *res)
{
	struct source *src = source_from(res);
	struct data_device_manager *mgr = src->mgr;
	struct offer *o;
	wl_list_for_each(o, &mgr->offers, link)
		if (o->source == src)
			o->source = NULL;
	if (mgr->drag.active && mgr->drag.source == src) {
		mgr->drag.source = NULL;
		drag_end(&mgr->drag, false);
	}
	if (mgr->selection[src->kind] == src) {
		mgr->selection[src->kind] = NULL;
		struct surface *f = seat_keyboard_focus(mgr->srv);
		if (f)
			send_selection(mgr, src->kind, wl_resource_get_client(f->resource));
	}
	char **m;
	wl_array_for_each(m, &src->mimes)
		free(*m);
	wl_array_release(&src->mimes);
	free(src);
}

static const struct wl_data_source_interface data_source_impl = {
	.offer = source_offer,
	.destroy = source_destroy_req,
	.set_actions = source_set_actions,
};

static const struct zwp_primary_selection_source_v1_interface primary_source_impl = {
	.offer = source_offer,
	.destroy = source_destroy_req,
};

static void create_source(struct wl_client *c, struct wl_resource *mgr_res, uint32_t id,
	enum kind kind)
{
	struct data_device_manager *mgr = wl_resource_get_user_data(mgr_res);
	struct source *src = calloc(1, sizeof(*src));
	if (src)
		src->resource = wl_resource_create(c, kind == CLIPBOARD ? &wl_data_source_interface :
			&zwp_primary_selection_source_v1_interface,
			wl_resource_get_version(mgr_res), id);
	if (!src || !src->resource) {
		free(src);
		wl_client_post_no_memory(c);
		return;
	}
	src->mgr = mgr;
	src->kind = kind;
	wl_array_init(&src->mimes);
	wl_resource_set_implementation(src->resource, kind == CLIPBOARD ?
		(const void *)&data_source_impl : (const void *)&primary_source_impl, src,
		source_resource_destroy);
}

/* ---- offers ---- */

static struct offer *offer_from(struct wl_resource *res)
{
	return wl_resource_get_user_data(res);
}

static void offer_receive(struct wl_client *c, struct wl_resource *res, const char *mime,
	int32_t fd)
{
	struct offer *o = offer_from(res);
	if (o && o->source)
		source_send(o->source, mime, fd);
	close(fd);
}

static void offer_destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void offer_resource_destroy(struct wl_resource *res)
{
	struct offer *o = offer_from(res);
	if (o->mgr->drag.offer == o)
		o->mgr->drag.offer = NULL;
	wl_list_remove(&o->link);
	free(o);
}

/* dnd: the action both sides can agree on, sent to both when it changes. */
static void offer_update_action(struct offer *o)
{
	struct source *src = o->source;
	if (!src || !o->dnd)
		return;
	uint32_t src_actions = src->actions_set ? src->actions :
		WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY;
	uint32_t both = src_actions & (o->actions_set ? o->actions : 0);
	uint32_t action = WL_DATA_DEVICE_MANAGER_DND_ACTION_NONE;
	if (both & o->preferred)
		action = o->preferred;
	else if (both & WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY)
		action = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY;
	else if (both & WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE)
		action = WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE;
	else if (both & WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK)
		action = WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK;
	if (action == src->action)
		return;
	src->action = action;
	if (wl_resource_get_version(o->resource) >= WL_DATA_OFFER_ACTION_SINCE_VERSION)
		wl_data_offer_send_action(o->resource, action);
	if (wl_resource_get_version(src->resource) >= WL_DATA_SOURCE_ACTION_SINCE_VERSION)
		wl_data_source_send_action(src->resource, action);
}

static void offer_accept(struct wl_client *c, struct wl_resource *res, uint32_t serial,
	const char *mime)
{
	struct offer *o = offer_from(res);
	if (!o->source || !o->dnd)
		return;
	o->source->accepted = mime != NULL;
	wl_data_source_send_target(o->source->resource, mime);
}

static void offer_finish(struct wl_client *c, struct wl_resource *res)
{
	struct offer *o = offer_from(res);
	struct server *srv = o->mgr->srv;
	if (!o->dnd) {
		server_post_error(srv, res, WL_DATA_OFFER_ERROR_INVALID_FINISH,
			"finish on a selection's offer");
		return;
	}
	if (!o->source)
		return; /* the source went away: nothing to tell it */
	if (o->source->action == WL_DATA_DEVICE_MANAGER_DND_ACTION_NONE ||
	    o->source->action == WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK) {
		server_post_error(srv, res, WL_DATA_OFFER_ERROR_INVALID_FINISH,
			"finish with the action %u", o->source->action);
		return;
	}
	if (wl_resource_get_version(o->source->resource) >=
	    WL_DATA_SOURCE_DND_FINISHED_SINCE_VERSION)
		wl_data_source_send_dnd_finished(o->source->resource);
	o->source = NULL;
}

static void offer_set_actions(struct wl_client *c, struct wl_resource *res, uint32_t actions,
	uint32_t preferred)
{
	struct offer *o = offer_from(res);
	if ((actions & ~(uint32_t)DND_ALL) || (preferred & ~(uint32_t)DND_ALL)) {
		wl_resource_post_error(res, WL_DATA_OFFER_ERROR_INVALID_ACTION_MASK,
			"unknown actions 0x%x / 0x%x", actions, preferred);
		return;
	}
	if (preferred && (preferred & (preferred - 1))) {
		wl_resource_post_error(res, WL_DATA_OFFER_ERROR_INVALID_ACTION,
			"preferred action 0x%x is not one action", preferred);
		return;
	}
	if (!o->dnd) {
		wl_resource_post_error(res, WL_DATA_OFFER_ERROR_INVALID_OFFER,
			"set_actions on a selection's offer");
		return;
	}
	o->actions = actions;
	o->preferred = preferred;
	o->actions_set = true;
	offer_update_action(o);
}

static const struct wl_data_offer_interface data_offer_impl = {
	.accept = offer_accept,
	.receive = offer_receive,
	.destroy = offer_destroy_req,
	.finish = offer_finish,
	.set_actions = offer_set_actions,
};

static const struct zwp_primary_selection_offer_v1_interface primary_offer_impl = {
	.receive = offer_receive,
	.destroy = offer_destroy_req,
};

/* A new offer of src on the data device dev: created, announced with data_offer and its
 * MIME types. NULL (the client is told it is out of memory) on failure. */
static struct offer *offer_create(struct wl_resource *dev, struct source *src, bool dnd)
{
	struct wl_client *c = wl_resource_get_client(dev);
	struct offer *o = calloc(1, sizeof(*o));
	if (o)
		o->resource = wl_resource_create(c, src->kind == CLIPBOARD ?
			&wl_data_offer_interface : &zwp_primary_selection_offer_v1_interface,
			wl_resource_get_version(dev), 0);
	if (!o || !o->resource) {
		free(o);
		wl_client_post_no_memory(c);
		return NULL;
	}
	o->source = src;
	o->mgr = src->mgr;
	o->kind = src->kind;
	o->dnd = dnd;
	wl_list_insert(&src->mgr->offers, &o->link);
	wl_resource_set_implementation(o->resource, src->kind == CLIPBOARD ?
		(const void *)&data_offer_impl : (const void *)&primary_offer_impl, o,
		offer_resource_destroy);
	char **m;
	if (src->kind == CLIPBOARD) {
		wl_data_device_send_data_offer(dev, o->resource);
		wl_array_for_each(m, &src->mimes)
			wl_data_offer_send_offer(o->resource, *m);
		if (dnd && wl_resource_get_version(o->resource) >=
		    WL_DATA_OFFER_SOURCE_ACTIONS_SINCE_VERSION)
			wl_data_offer_send_source_actions(o->resource, src->actions_set ?
				src->actions : WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
	} else {
		zwp_primary_selection_device_v1_send_data_offer(dev, o->resource);
		wl_array_for_each(m, &src->mimes)
			zwp_primary_selection_offer_v1_send_offer(o->resource, *m);
	}
	return o;
}

/* ---- selections ---- */

/* The kind's selection to every data device of client: a new offer, or none. */
static void send_selection(struct data_device_manager *mgr, enum kind kind,
	struct wl_client *client)
{
	struct source *src = mgr->selection[kind];
	struct wl_resource *dev;
	wl_resource_for_each(dev, &mgr->devices[kind]) {
		if (wl_resource_get_client(dev) != client)
			continue;
		struct offer *o = src ? offer_create(dev, src, false) : NULL;
		if (src && !o)
			continue;
		if (kind == CLIPBOARD)
			wl_data_device_send_selection(dev, o ? o->resource : NULL);
		else
			zwp_primary_selection_device_v1_send_selection(dev,
				o ? o->resource : NULL);
	}
}

static void set_selection(struct data_device_manager *mgr, struct wl_resource *dev,
	struct wl_resource *source_res, enum kind kind)
{
	struct source *src = source_res ? source_from(source_res) : NULL;
	if (src && (src->used || src->dnd)) {
		if (kind == CLIPBOARD) {
			server_post_error(mgr->srv, source_res, WL_DATA_SOURCE_ERROR_INVALID_SOURCE,
				"the source was given to set_selection or start_drag before");
		} else {
			/* the primary selection protocol has no error for this */
			wlog(DISPMAN_LOG_WARNING, "primary selection source %u used twice: "
				"ignored", wl_resource_get_id(source_res));
		}
		return;
	}
	/* only the client with keyboard focus sets the selection (others' requests are stale) */
	struct surface *focus = seat_keyboard_focus(mgr->srv);
	if (!focus || wl_resource_get_client(focus->resource) != wl_resource_get_client(dev)) {
		wlog(DISPMAN_LOG_DEBUG, "set_selection from a client without keyboard focus: "
			"ignored");
		if (src)
			source_cancelled(src);
		return;
	}
	if (src)
		src->used = true;
	struct source *old = mgr->selection[kind];
	mgr->selection[kind] = src;
	if (old && old != src)
		source_cancelled(old);
	send_selection(mgr, kind, wl_resource_get_client(focus->resource));
}

static void on_keyboard_focus(struct wl_listener *l, void *data)
{
	struct data_device_manager *mgr = wl_container_of(l, mgr, keyboard_focus);
	struct surface *s = data;
	if (!s)
		return;
	for (int k = 0; k < KINDS; k++)
		send_selection(mgr, (enum kind)k, wl_resource_get_client(s->resource));
}

/* ---- drag and drop ---- */

static struct wl_resource *device_of(struct data_device_manager *mgr, struct wl_client *c)
{
	struct wl_resource *dev;
	wl_resource_for_each(dev, &mgr->devices[CLIPBOARD])
		if (wl_resource_get_client(dev) == c)
			return dev;
	return NULL;
}

static void drag_leave(struct drag *d)
{
	if (!d->focus)
		return;
	struct wl_resource *dev = device_of(d->mgr, wl_resource_get_client(d->focus->resource));
	if (dev)
		wl_data_device_send_leave(dev);
	if (d->offer)
		d->offer->source = NULL; /* a left offer transfers nothing more */
	d->offer = NULL;
	d->focus = NULL;
}

static void drag_enter(struct drag *d, struct surface *s, double sx, double sy)
{
	struct wl_client *c = wl_resource_get_client(s->resource);
	/* without a source a drag stays inside its own client */
	if (!d->source && c != d->client)
		return;
	struct wl_resource *dev = device_of(d->mgr, c);
	if (!dev)
		return;
	d->focus = s;
	struct offer *o = NULL;
	if (d->source) {
		d->source->accepted = false;
		d->source->action = WL_DATA_DEVICE_MANAGER_DND_ACTION_NONE;
		o = offer_create(dev, d->source, true);
	}
	d->offer = o;
	wl_data_device_send_enter(dev, seat_next_serial(d->mgr->srv), s->resource,
		wl_fixed_from_double(sx), wl_fixed_from_double(sy), o ? o->resource : NULL);
}

static void drag_motion(struct seat_pointer_grab *g, uint32_t ms, double x, double y)
{
	struct drag *d = wl_container_of(g, d, grab);
	cursor_drag_motion(d->mgr->srv, x, y);
	double sx = 0, sy = 0;
	struct surface *s = tree_surface_at(d->mgr->srv, x, y, &sx, &sy);
	if (s != d->focus) {
		drag_leave(d);
		if (s)
			drag_enter(d, s, sx, sy);
		return;
	}
	if (!s)
		return;
	struct wl_resource *dev = device_of(d->mgr, wl_resource_get_client(s->resource));
	if (dev)
		wl_data_device_send_motion(dev, ms, wl_fixed_from_double(sx),
			wl_fixed_from_double(sy));
}

/* Ends the drag; cancel_source: the source did not drop (it gets cancelled). */
static void drag_end(struct drag *d, bool cancel_source)
{
	if (!d->active)
		return;
	d->active = false;
	if (cancel_source && d->source)
		source_cancelled(d->source);
	drag_leave(d);
	d->source = NULL;
	cursor_drag_icon(d->mgr->srv, NULL, 0, 0);
	seat_pointer_ungrab(d->mgr->srv, &d->grab);
}

static void drag_button(struct seat_pointer_grab *g, uint32_t ms, uint32_t button, bool pressed)
{
	struct drag *d = wl_container_of(g, d, grab);
	if (pressed)
		return;
	struct source *src = d->source;
	bool drop = d->focus && (!src || (src->accepted &&
		src->action != WL_DATA_DEVICE_MANAGER_DND_ACTION_NONE));
	if (!drop) {
		drag_end(d, true);
		return;
	}
	struct wl_resource *dev = device_of(d->mgr, wl_resource_get_client(d->focus->resource));
	if (dev)
		wl_data_device_send_drop(dev);
	if (src && wl_resource_get_version(src->resource) >=
	    WL_DATA_SOURCE_DND_DROP_PERFORMED_SINCE_VERSION)
		wl_data_source_send_dnd_drop_performed(src->resource);
	/* the target keeps its offer for the transfer and finish: not left */
	d->offer = NULL;
	d->focus = NULL;
	drag_end(d, false);
}

static void drag_cancel(struct seat_pointer_grab *g)
{
	struct drag *d = wl_container_of(g, d, grab);
	d->active = false;
	if (d->source)
		source_cancelled(d->source);
	drag_leave(d);
	d->source = NULL;
	cursor_drag_icon(d->mgr->srv, NULL, 0, 0);
}

static void device_start_drag(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *source_res, struct wl_resource *origin_res,
	struct wl_resource *icon_res, uint32_t serial)
{
	struct data_device_manager *mgr = wl_resource_get_user_data(res);
	struct source *src = source_res ? source_from(source_res) : NULL;
	struct surface *origin = surface_from_resource(origin_res);
	struct surface *icon = NULL;
	if (icon_res) {
		icon = surface_from_resource(icon_res);
		if (icon->role != ROLE_NONE && icon->role != ROLE_DND_ICON) {
			server_post_error(mgr->srv, res, WL_DATA_DEVICE_ERROR_ROLE,
				"the drag icon surface has another role");
			return;
		}
		icon->role = ROLE_DND_ICON;
	}
	if (src && (src->used || src->dnd)) {
		server_post_error(mgr->srv, source_res, WL_DATA_SOURCE_ERROR_INVALID_SOURCE,
			"the source was given to set_selection or start_drag before");
		return;
	}
	double x, y;
	struct surface *pressed = seat_pointer_pressed_on(mgr->srv, &x, &y);
	if (mgr->drag.active || !pressed || pressed != origin) {
		/* no button held on the origin (the implicit grab a drag starts from) */
		wlog(DISPMAN_LOG_DEBUG, "start_drag without a button held on its origin: "
			"cancelled");
		if (src)
			source_cancelled(src);
		return;
	}
	if (src) {
		src->used = true;
		src->dnd = true;
	}
	struct drag *d = &mgr->drag;
	*d = (struct drag){
		.grab = { .motion = drag_motion, .button = drag_button, .cancel = drag_cancel },
		.mgr = mgr, .source = src, .client = c, .active = true,
	};
	seat_pointer_grab(mgr->srv, &d->grab);
	cursor_drag_icon(mgr->srv, icon, x, y);
	drag_motion(&d->grab, 0, x, y);
}

/* ---- data devices ---- */

static void device_set_selection(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *source, uint32_t serial)
{
	set_selection(wl_resource_get_user_data(res), res, source, CLIPBOARD);
}

static void primary_device_set_selection(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *source, uint32_t serial)
{
	set_selection(wl_resource_get_user_data(res), res, source, PRIMARY);
}

static void device_release(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wl_data_device_interface data_device_impl = {
	.start_drag = device_start_drag,
	.set_selection = device_set_selection,
	.release = device_release,
};

static const struct zwp_primary_selection_device_v1_interface primary_device_impl = {
	.set_selection = primary_device_set_selection,
	.destroy = device_release,
};

static void get_device(struct wl_client *c, struct wl_resource *mgr_res, uint32_t id,
	enum kind kind)
{
	struct data_device_manager *mgr = wl_resource_get_user_data(mgr_res);
	struct wl_resource *dev = wl_resource_create(c, kind == CLIPBOARD ?
		&wl_data_device_interface : &zwp_primary_selection_device_v1_interface,
		wl_resource_get_version(mgr_res), id);
	if (!dev) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(dev, kind == CLIPBOARD ? (const void *)&data_device_impl :
		(const void *)&primary_device_impl, mgr, server_unlink_resource);
	wl_list_insert(&mgr->devices[kind], wl_resource_get_link(dev));
	/* a client that has the keyboard focus already hears of the selection now */
	struct surface *focus = seat_keyboard_focus(mgr->srv);
	if (focus && wl_resource_get_client(focus->resource) == c) {
		struct source *src = mgr->selection[kind];
		struct offer *o = src ? offer_create(dev, src, false) : NULL;
		if (kind == CLIPBOARD)
			wl_data_device_send_selection(dev, o ? o->resource : NULL);
		else
			zwp_primary_selection_device_v1_send_selection(dev, o ? o->resource : NULL);
	}
}

/* ---- the managers ---- */

static void manager_create_source(struct wl_client *c, struct wl_resource *res, uint32_t id)
{
	create_source(c, res, id, CLIPBOARD);
}

static void manager_get_device(struct wl_client *c, struct wl_resource *res, uint32_t id,
	struct wl_resource *seat)
{
	get_device(c, res, id, CLIPBOARD);
}

static const struct wl_data_device_manager_interface manager_impl = {
	.create_data_source = manager_create_source,
	.get_data_device = manager_get_device,
};

static void primary_create_source(struct wl_client *c, struct wl_resource *res, uint32_t id)
{
	create_source(c, res, id, PRIMARY);
}

static void primary_get_device(struct wl_client *c, struct wl_resource *res, uint32_t id,
	struct wl_resource *seat)
{
	get_device(c, res, id, PRIMARY);
}

static void primary_manager_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zwp_primary_selection_device_manager_v1_interface primary_manager_impl = {
	.create_source = primary_create_source,
	.get_device = primary_get_device,
	.destroy = primary_manager_destroy,
};

static void manager_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c, &wl_data_device_manager_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &manager_impl, data, NULL);
}

static void primary_manager_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c,
		&zwp_primary_selection_device_manager_v1_interface, (int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &primary_manager_impl, data, NULL);
}

/* A surface under a drag is going away: the drag leaves it first. */
static void on_surface_destroy(struct wl_listener *l, void *data)
{
	struct data_device_manager *mgr = wl_container_of(l, mgr, surface_destroy);
	if (mgr->drag.active && mgr->drag.focus == data)
		drag_leave(&mgr->drag);
}

int data_device_init(struct server *srv)
{
	struct data_device_manager *mgr = calloc(1, sizeof(*mgr));
	if (!mgr)
		return -ENOMEM;
	mgr->srv = srv;
	for (int k = 0; k < KINDS; k++)
		wl_list_init(&mgr->devices[k]);
	wl_list_init(&mgr->offers);
	mgr->keyboard_focus.notify = on_keyboard_focus;
	wl_signal_add(&srv->events.keyboard_focus, &mgr->keyboard_focus);
	mgr->surface_destroy.notify = on_surface_destroy;
	wl_signal_add(&srv->events.surface_destroy, &mgr->surface_destroy);
	srv->data = mgr;
	if (!wl_global_create(srv->display, &wl_data_device_manager_interface, 3, mgr,
		    manager_bind) ||
	    !wl_global_create(srv->display, &zwp_primary_selection_device_manager_v1_interface, 1,
		    mgr, primary_manager_bind))
		return -ENOMEM;
	return 0;
}

void data_device_finish(struct server *srv)
{
	struct data_device_manager *mgr = srv->data;
	if (!mgr)
		return;
	wl_list_remove(&mgr->keyboard_focus.link);
	wl_list_remove(&mgr->surface_destroy.link);
	free(mgr);
	srv->data = NULL;
}
