/* SPDX-License-Identifier: MIT */
/*
 * Idleness. Every input event the seat gets (from the dispman_input or injected) is
 * activity: it restarts the idle timers of ext_idle_notification_v1 objects (sending
 * resumed to those that had sent idled) and the blanking timer. A zwp_idle_inhibitor_v1
 * inhibits idleness while its surface is mapped (shown on the output): no idled event and
 * no blanking then, and the timers start again in full when the last such surface goes.
 *
 * Blanking (dispman_wayland_set_blank_timeout()) disables the output (its CRTC goes
 * inactive in one modeset commit); the scene stops committing (clients get no frame
 * callbacks, as on a screen that is off). The next input event enables the output in its
 * mode again and is not given to the clients; when it is a key or button press, its
 * release is not given either.
 */
#include "idle.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <dispman/input.h>

#include "scene.h"
#include "surface.h"

#include "ext-idle-notify-v1-server-protocol.h"
#include "idle-inhibit-unstable-v1-server-protocol.h"

struct idle_state {
	struct server *srv;
	struct wl_global *notifier;
	struct wl_global *inhibit_manager;
	struct wl_list notifications;   /* idle_notification.link */
	struct wl_list inhibitors;      /* idle_inhibitor.link */
	bool inhibited;                 /* a mapped surface has an inhibitor */
	uint32_t blank_ms;              /* 0: never blank */
	struct wl_event_source *blank_timer;
	bool blanked;                   /* the outputs are off (output.blanked says which) */
	/* the press that woke the output, whose release is kept from clients too */
	enum dispman_input_event_type wake_type;
	uint32_t wake_code;
	bool wake_held;
	struct wl_listener input;
	struct wl_listener map_changed;
	struct wl_listener surface_destroy;
};

struct idle_notification {
	struct idle_state *st;
	struct wl_resource *resource;
	uint32_t timeout_ms;
	struct wl_event_source *timer;
	bool idled;
	struct wl_list link;            /* idle_state.notifications */
};

struct idle_inhibitor {
	struct idle_state *st;
	struct wl_resource *resource;
	struct surface *surface;        /* NULL once the surface is gone */
	struct wl_list link;            /* idle_state.inhibitors */
};

/* A timer set to ms, where 0 (which would disarm it) becomes 1. */
static void arm(struct wl_event_source *timer, uint32_t ms)
{
	wl_event_source_timer_update(timer, ms > INT32_MAX ? INT32_MAX : ms ? (int)ms : 1);
}

/* ---- blanking ---- */

/* Turns one output off; false (logged) when the kernel refused. */
static bool blank_output(struct idle_state *st, struct output *o)
{
	const struct dispman_mode *m = dispman_output_get_current_mode(o->out);
	if (o->blanked || o->disconnected || !m)
		return false;
	o->blank_w = m->width;
	o->blank_h = m->height;
	o->blank_mhz = m->refresh_mhz;
	int ret = dispman_output_disable(o->out);
	if (ret == 0)
		ret = dispman_output_commit(o->out);
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "blanking %s failed: %s", dispman_output_get_name(o->out),
			strerror(-ret));
		dispman_output_enable(o->out, m);
		return false;
	}
	o->blanked = true;
	wlog(DISPMAN_LOG_INFO, "%s blanked after %u ms without input",
		dispman_output_get_name(o->out), st->blank_ms);
	return true;
}

static void blank(struct idle_state *st)
{
	struct server *srv = st->srv;
	if (st->blanked)
		return;
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link)
		if (blank_output(st, o))
			st->blanked = true;
	if (st->blanked)
		srv->stats.blanks++;
}

/* The output's mode from before the blanking (the preferred one if it is gone). */
static const struct dispman_mode *blanked_mode(struct output *o)
{
	for (size_t i = 0; i < dispman_output_get_mode_count(o->out); i++) {
		const struct dispman_mode *m = dispman_output_get_mode(o->out, i);
		if (m->width == o->blank_w && m->height == o->blank_h &&
		    m->refresh_mhz == o->blank_mhz)
			return m;
	}
	return NULL;
}

static void unblank_output(struct output *o)
{
	int ret = dispman_output_enable(o->out, blanked_mode(o));
	if (ret < 0) {
		wlog(DISPMAN_LOG_ERROR, "cannot turn %s on again: %s",
			dispman_output_get_name(o->out), strerror(-ret));
		return;
	}
	o->blanked = false;
	wlog(DISPMAN_LOG_INFO, "%s on again (flip pending: %d)", dispman_output_get_name(o->out),
		o->flip_pending);
	/* the frame cycle starts again with a modeset; a frame the blanking left in flight
	 * ends here, as after a capture's restoring modeset */
	o->dirty = true;
	if (o->flip_pending)
		scene_after_capture(o);
	else
		server_schedule_repaint(o->srv);
}

static void unblank(struct idle_state *st)
{
	struct output *o;
	bool still = false;
	wl_list_for_each(o, &st->srv->output_list, link) {
		if (o->blanked)
			unblank_output(o);
		still = still || o->blanked;
	}
	if (still)
		return; /* logged: the next input tries again */
	st->blanked = false;
	st->srv->stats.unblanks++;
}

static int on_blank_timer(void *data)
{
	struct idle_state *st = data;
	if (st->blank_ms && !st->inhibited)
		blank(st);
	return 0;
}

/* ---- ext_idle_notification_v1 ---- */

static int on_notification_timer(void *data)
{
	struct idle_notification *n = data;
	if (n->st->inhibited || n->idled)
		return 0;
	n->idled = true;
	ext_idle_notification_v1_send_idled(n->resource);
	wl_display_flush_clients(n->st->srv->display);
	return 0;
}

static void notification_destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct ext_idle_notification_v1_interface notification_impl = {
	.destroy = notification_destroy_req,
};

static void notification_resource_destroy(struct wl_resource *res)
{
	struct idle_notification *n = wl_resource_get_user_data(res);
	wl_list_remove(&n->link);
	wl_event_source_remove(n->timer);
	free(n);
}

static void notifier_get_idle_notification(struct wl_client *c, struct wl_resource *res,
	uint32_t id, uint32_t timeout, struct wl_resource *seat)
{
	struct idle_state *st = wl_resource_get_user_data(res);
	struct idle_notification *n = calloc(1, sizeof(*n));
	struct wl_resource *nres = n ? wl_resource_create(c, &ext_idle_notification_v1_interface,
		wl_resource_get_version(res), id) : NULL;
	if (nres)
		n->timer = wl_event_loop_add_timer(st->srv->loop, on_notification_timer, n);
	if (!nres || !n->timer) {
		if (nres)
			wl_resource_destroy(nres);
		free(n);
		wl_client_post_no_memory(c);
		return;
	}
	n->st = st;
	n->resource = nres;
	n->timeout_ms = timeout;
	wl_list_insert(&st->notifications, &n->link);
	wl_resource_set_implementation(nres, &notification_impl, n,
		notification_resource_destroy);
	if (!st->inhibited)
		arm(n->timer, timeout);
}

static void notifier_destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct ext_idle_notifier_v1_interface notifier_impl = {
	.destroy = notifier_destroy_req,
	.get_idle_notification = notifier_get_idle_notification,
};

static void notifier_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c, &ext_idle_notifier_v1_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &notifier_impl, data, NULL);
}

/* ---- activity and inhibition ---- */

/* Restart every count from now (or stop them while inhibited). */
static void restart_timers(struct idle_state *st)
{
	struct idle_notification *n;
	wl_list_for_each(n, &st->notifications, link)
		wl_event_source_timer_update(n->timer, 0);
	wl_event_source_timer_update(st->blank_timer, 0);
	if (st->inhibited)
		return;
	wl_list_for_each(n, &st->notifications, link) {
		if (!n->idled)
			arm(n->timer, n->timeout_ms);
	}
	if (st->blank_ms && !st->blanked)
		arm(st->blank_timer, st->blank_ms);
}

static void update_inhibited(struct idle_state *st)
{
	bool inhibited = false;
	struct idle_inhibitor *i;
	wl_list_for_each(i, &st->inhibitors, link)
		inhibited = inhibited || (i->surface && i->surface->mapped);
	if (inhibited == st->inhibited)
		return;
	st->inhibited = inhibited;
	wlog(DISPMAN_LOG_DEBUG, "idle %s", inhibited ? "inhibited" : "no longer inhibited");
	restart_timers(st);
}

static bool is_press(const struct dispman_input_event *ev)
{
	return (ev->type == DISPMAN_INPUT_KEY || ev->type == DISPMAN_INPUT_POINTER_BUTTON) &&
		ev->state == DISPMAN_INPUT_PRESSED;
}

static uint32_t code_of(const struct dispman_input_event *ev)
{
	return ev->type == DISPMAN_INPUT_KEY ? ev->key : ev->button;
}

static void on_input(struct wl_listener *l, void *data)
{
	struct idle_state *st = wl_container_of(l, st, input);
	struct server_input *in = data;
	const struct dispman_input_event *ev = in->ev;
	if (st->blanked) {
		unblank(st);
		in->consumed = true;
		st->wake_held = is_press(ev);
		st->wake_type = ev->type;
		st->wake_code = code_of(ev);
	} else if (st->wake_held && ev->type == st->wake_type && code_of(ev) == st->wake_code &&
		   ev->state == DISPMAN_INPUT_RELEASED) {
		in->consumed = true;
		st->wake_held = false;
	}
	struct idle_notification *n;
	wl_list_for_each(n, &st->notifications, link) {
		if (n->idled) {
			n->idled = false;
			ext_idle_notification_v1_send_resumed(n->resource);
		}
	}
	restart_timers(st);
}

static void on_map_changed(struct wl_listener *l, void *data)
{
	struct idle_state *st = wl_container_of(l, st, map_changed);
	update_inhibited(st);
}

static void on_surface_destroy(struct wl_listener *l, void *data)
{
	struct idle_state *st = wl_container_of(l, st, surface_destroy);
	struct surface *s = data;
	struct idle_inhibitor *i;
	wl_list_for_each(i, &st->inhibitors, link) {
		if (i->surface == s)
			i->surface = NULL;
	}
	update_inhibited(st);
}

/* ---- zwp_idle_inhibit_manager_v1 ---- */

static void inhibitor_destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zwp_idle_inhibitor_v1_interface inhibitor_impl = {
	.destroy = inhibitor_destroy_req,
};

static void inhibitor_resource_destroy(struct wl_resource *res)
{
	struct idle_inhibitor *i = wl_resource_get_user_data(res);
	struct idle_state *st = i->st;
	wl_list_remove(&i->link);
	free(i);
	update_inhibited(st);
}

static void inhibit_create_inhibitor(struct wl_client *c, struct wl_resource *res, uint32_t id,
	struct wl_resource *surface)
{
	struct idle_state *st = wl_resource_get_user_data(res);
	struct idle_inhibitor *i = calloc(1, sizeof(*i));
	struct wl_resource *ires = i ? wl_resource_create(c, &zwp_idle_inhibitor_v1_interface,
		wl_resource_get_version(res), id) : NULL;
	if (!ires) {
		free(i);
		wl_client_post_no_memory(c);
		return;
	}
	i->st = st;
	i->resource = ires;
	i->surface = surface_from_resource(surface);
	wl_list_insert(&st->inhibitors, &i->link);
	wl_resource_set_implementation(ires, &inhibitor_impl, i, inhibitor_resource_destroy);
	update_inhibited(st);
}

static void inhibit_destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zwp_idle_inhibit_manager_v1_interface inhibit_impl = {
	.destroy = inhibit_destroy_req,
	.create_inhibitor = inhibit_create_inhibitor,
};

static void inhibit_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c, &zwp_idle_inhibit_manager_v1_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &inhibit_impl, data, NULL);
}

int idle_init(struct server *srv)
{
	struct idle_state *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->srv = srv;
	wl_list_init(&st->notifications);
	wl_list_init(&st->inhibitors);
	st->blank_timer = wl_event_loop_add_timer(srv->loop, on_blank_timer, st);
	if (st->blank_timer)
		st->notifier = wl_global_create(srv->display, &ext_idle_notifier_v1_interface, 1,
			st, notifier_bind);
	if (st->notifier)
		st->inhibit_manager = wl_global_create(srv->display,
			&zwp_idle_inhibit_manager_v1_interface, 1, st, inhibit_bind);
	if (!st->inhibit_manager) {
		if (st->notifier)
			wl_global_destroy(st->notifier);
		if (st->blank_timer)
			wl_event_source_remove(st->blank_timer);
		free(st);
		return -ENOMEM;
	}
	st->input.notify = on_input;
	wl_signal_add(&srv->events.input, &st->input);
	st->map_changed.notify = on_map_changed;
	wl_signal_add(&srv->events.map_changed, &st->map_changed);
	st->surface_destroy.notify = on_surface_destroy;
	wl_signal_add(&srv->events.surface_destroy, &st->surface_destroy);
	srv->idle_state = st;
	return 0;
}

void idle_finish(struct server *srv)
{
	struct idle_state *st = srv->idle_state;
	if (!st)
		return;
	wl_list_remove(&st->input.link);
	wl_list_remove(&st->map_changed.link);
	wl_list_remove(&st->surface_destroy.link);
	wl_event_source_remove(st->blank_timer);
	wl_global_destroy(st->notifier);
	wl_global_destroy(st->inhibit_manager);
	free(st);
	srv->idle_state = NULL;
}

int idle_set_blank_timeout(struct server *srv, uint32_t ms)
{
	struct idle_state *st = srv->idle_state;
	st->blank_ms = ms;
	restart_timers(st);
	return 0;
}
