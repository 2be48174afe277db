/* SPDX-License-Identifier: MIT */
/* libdispman-wayland's public API (dispman/wayland.h): create, run and destroy the
 * compositor; every module's globals are made here and nowhere else. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <dispman/input.h>

#include "buffer.h"
#include "cursor.h"
#include "data-device.h"
#include "decoration.h"
#include "dmabuf.h"
#include "output.h"
#include "idle.h"
#include "presentation.h"
#include "repaint.h"
#include "scene.h"
#include "screencopy.h"
#include "seat.h"
#include "server.h"
#include "shm.h"
#include "surface.h"
#include "virtual-keyboard.h"
#include "virtual-input.h"
#include "virtual-pointer.h"
#include "vt-switch.h"
#include "xdg.h"

static int on_device_fd(int fd, uint32_t mask, void *data)
{
	struct server *srv = data;
	int ret = dispman_device_dispatch(srv->dev, 0);
	if (ret < 0)
		wlog(DISPMAN_LOG_ERROR, "device dispatch: %s", strerror(-ret));
	scene_after_flip(srv);
	return 0;
}

/* Whether any served output is connected. */
static bool any_connected(struct server *srv)
{
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link)
		if (!o->disconnected)
			return true;
	return false;
}

/*
 * After a hotplug (from an idle callback, outside the device's probe): outputs the
 * compositor added itself and that are now unplugged are removed (their wl_output global
 * goes, their toplevels go to another output), and, with serve_new_outputs, every connected
 * output not served yet is served at the end of the layout.
 */
static void outputs_sync(void *data)
{
	struct server *srv = data;
	srv->outputs_idle = NULL;
	bool changed = false;
	struct output *o, *tmp;
	wl_list_for_each_safe(o, tmp, &srv->output_list, link) {
		if (!o->hotplugged || !o->disconnected)
			continue;
		wlog(DISPMAN_LOG_INFO, "%s unplugged: no longer served",
			dispman_output_get_name(o->out));
		scene_output_finish(o);
		output_remove(o);
		changed = true;
	}
	for (size_t i = 0; srv->serve_new_outputs &&
	     i < dispman_device_get_output_count(srv->dev); i++) {
		struct dispman_output *out = dispman_device_get_output(srv->dev, i);
		if (dispman_output_get_status(out) != DISPMAN_CONNECTED || output_find(srv, out))
			continue;
		int ret = 0;
		o = output_add(srv, out, &ret);
		if (o && (ret = scene_output_init(o)) < 0) {
			output_remove(o);
			o = NULL;
		}
		if (!o) {
			wlog(DISPMAN_LOG_ERROR, "%s plugged in, not served: %s",
				dispman_output_get_name(out), strerror(-ret));
			continue;
		}
		o->hotplugged = true;
		wlog(DISPMAN_LOG_INFO, "%s plugged in: served at %d,%d in the layout",
			dispman_output_get_name(out), o->x, o->y);
		changed = true;
	}
	if (changed) {
		xdg_reconfigure_all(srv);
		server_schedule_repaint(srv);
	}
}

static void schedule_outputs_sync(struct server *srv)
{
	if (!srv->outputs_idle)
		srv->outputs_idle = wl_event_loop_add_idle(srv->loop, outputs_sync, srv);
}

/*
 * A hotplug re-probe changed a served output. The library has already disabled it if it
 * was unplugged (its frames stop; clients keep running; toplevels on it go to another
 * connected output, configured for its size) or enabled it again in its mode, or the
 * preferred one, when it came back (toplevels that asked for it go back). A new size
 * reaches the wl_outputs and every toplevel is configured again; then its frame cycle
 * starts again.
 */
static void on_output_event(struct dispman_device *dev, struct dispman_output *out,
	enum dispman_output_event event, void *data)
{
	struct server *srv = data;
	struct output *o = output_find(srv, out);
	if (!o) {
		if (event == DISPMAN_OUTPUT_CONNECTED && srv->serve_new_outputs)
			schedule_outputs_sync(srv);
		return;
	}
	if (event == DISPMAN_OUTPUT_DISCONNECTED) {
		o->disconnected = true;
		if (o->hotplugged)
			schedule_outputs_sync(srv);
		bool others = any_connected(srv);
		wlog(DISPMAN_LOG_INFO, "%s disconnected: clients keep running, %s",
			dispman_output_get_name(out), others ? "shown on the other outputs" :
			"no frames until it is back");
		if (others) {
			/* its frame in flight ends now (no flip will come): the callbacks of
			 * clients moving to another output are not held until a replug */
			if (o->flip_pending)
				scene_after_capture(o);
			xdg_reconfigure_all(srv);
			server_schedule_repaint(srv);
		}
		return;
	}
	bool was_disconnected = o->disconnected;
	o->disconnected = false;
	if (!dispman_output_is_enabled(out))
		return; /* blanked: the mode is read again when input turns it on */
	bool resized = output_update_mode(o);
	if (resized || (was_disconnected && wl_list_length(&srv->output_list) > 1))
		xdg_reconfigure_all(srv);
	o->dirty = true;
	if (o->flip_pending)
		scene_after_capture(o); /* a frame the unplug left in flight ends here */
	else
		server_schedule_repaint(srv);
}

/* ---- public API ---- */

struct dispman_wayland {
	struct server srv;
	struct wl_listener client_listener;
	unsigned n_clients;
};

static void on_client_destroy(struct wl_listener *l, void *data)
{
	struct dispman_wayland **owner = (void *)(l + 1);
	(*owner)->n_clients--;
	wl_list_remove(&l->link);
	free(l);
}

static void on_client_create(struct wl_listener *l, void *data)
{
	struct dispman_wayland *wl = wl_container_of(l, wl, client_listener);
	struct wl_client *client = data;
	struct wl_listener *d = calloc(1, sizeof(*d) + sizeof(wl));
	if (!d)
		return;
	*(struct dispman_wayland **)(void *)(d + 1) = wl;
	d->notify = on_client_destroy;
	wl_client_add_destroy_listener(client, d);
	wl->n_clients++;
}

/* The server's device, output and empty lists (nothing that can fail). */
static void server_init_lists(struct server *srv, struct dispman_device *dev,
	struct dispman_output *out)
{
	srv->dev = dev;
	srv->out = out;
	wl_list_init(&srv->output_list);
	wl_list_init(&srv->gone_globals);
	wl_list_init(&srv->surfaces);
	wl_list_init(&srv->toplevels);
	wl_list_init(&srv->buffers);
	wl_list_init(&srv->orphan_slots);
	wl_list_init(&srv->frames_waiting);
	wl_list_init(&srv->fb_waiting);
	wl_signal_init(&srv->events.surface_destroy);
	wl_signal_init(&srv->events.map_changed);
	wl_signal_init(&srv->events.keyboard_focus);
	wl_signal_init(&srv->events.press);
	wl_signal_init(&srv->events.input);
	wl_signal_init(&srv->events.grab_request);
}

struct dispman_wayland *dispman_wayland_create(struct dispman_device *dev,
	struct dispman_output *out)
{
	if (!dev || !out || dispman_output_get_device(out) != dev) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_create: %s", !dev || !out ?
			"NULL device or output" : "output of another device");
		errno = EINVAL;
		return NULL;
	}
	struct dispman_wayland *wl = calloc(1, sizeof(*wl));
	if (!wl) {
		errno = ENOMEM;
		return NULL;
	}
	struct server *srv = &wl->srv;
	server_init_lists(srv, dev, out);

	int ret;
	if (!dispman_output_is_enabled(out)) {
		ret = dispman_output_enable(out, NULL);
		if (ret < 0) {
			wlog(DISPMAN_LOG_ERROR, "cannot enable output %s: %s",
				dispman_output_get_name(out), strerror(-ret));
			free(wl);
			errno = -ret;
			return NULL;
		}
	}

	srv->display = wl_display_create();
	if (!srv->display) {
		free(wl);
		errno = ENOMEM;
		return NULL;
	}
	srv->loop = wl_display_get_event_loop(srv->display);
	wl->client_listener.notify = on_client_create;
	wl_display_add_client_created_listener(srv->display, &wl->client_listener);

	shm_init(srv);
	struct output *first = output_add(srv, out, &ret);
	if (!first)
		goto fail;
	if ((ret = output_init_global(srv)) < 0 || (ret = surface_init_globals(srv)) < 0 ||
	    (ret = xdg_init_global(srv)) < 0 || (ret = buffer_init_globals(srv)) < 0 ||
	    (ret = dmabuf_init_global(srv)) < 0 || (ret = presentation_init_global(srv)) < 0 ||
	    (ret = cursor_init(srv)) < 0 || (ret = seat_init(srv)) < 0 ||
	    (ret = data_device_init(srv)) < 0 ||
	    (ret = decoration_init_global(srv)) < 0 || (ret = screencopy_init(srv)) < 0 ||
	    (ret = idle_init(srv)) < 0 || (ret = virtual_keyboard_init(srv)) < 0 ||
	    (ret = virtual_pointer_init(srv)) < 0 || (ret = virtual_input_init(srv)) < 0)
		goto fail;

	srv->dev_source = wl_event_loop_add_fd(srv->loop, dispman_device_get_fd(dev),
		WL_EVENT_READABLE, on_device_fd, srv);
	if (!srv->dev_source) {
		ret = -errno;
		goto fail;
	}
	if ((ret = scene_init(srv)) < 0 || (ret = scene_output_init(first)) < 0)
		goto fail;
	dispman_device_set_output_callback(dev, on_output_event, srv);
	return wl;
fail:
	dispman_wayland_destroy(wl);
	errno = ret < 0 ? -ret : EINVAL;
	return NULL;
}

void dispman_wayland_destroy(struct dispman_wayland *wl)
{
	if (!wl)
		return;
	struct server *srv = &wl->srv;
	if (srv->dev)
		dispman_device_set_output_callback(srv->dev, NULL, NULL);
	/* first: a virtual pointer's buttons still down are released to a whole compositor */
	virtual_pointer_finish(srv);
	if (srv->loop)
		scene_finish(srv);
	if (srv->display)
		wl_display_destroy_clients(srv->display);
	if (srv->idle)
		wl_event_source_remove(srv->idle);
	late_repaint_finish(srv);
	if (srv->outputs_idle)
		wl_event_source_remove(srv->outputs_idle);
	if (srv->dev_source)
		wl_event_source_remove(srv->dev_source);
	vt_switch_finish(srv);
	virtual_input_finish(srv);
	virtual_keyboard_finish(srv);
	idle_finish(srv);
	screencopy_finish(srv);
	data_device_finish(srv);
	xdg_finish(srv);
	seat_finish(srv);
	cursor_finish(srv);
	dmabuf_finish(srv);
	shm_finish(srv);
	buffer_finish(srv);
	if (srv->loop)
		output_finish(srv);
	if (srv->display) {
		wl_list_remove(&wl->client_listener.link);
		wl_display_destroy(srv->display);
	}
	free(wl);
}

const char *dispman_wayland_add_socket(struct dispman_wayland *wl, const char *name)
{
	if (!getenv("XDG_RUNTIME_DIR")) {
		wlog(DISPMAN_LOG_ERROR, "XDG_RUNTIME_DIR is not set: no place for a socket");
		errno = ENOENT;
		return NULL;
	}
	if (name) {
		if (wl_display_add_socket(wl->srv.display, name) < 0) {
			wlog(DISPMAN_LOG_ERROR, "cannot listen on %s: %s", name, strerror(errno));
			return NULL;
		}
		return name;
	}
	const char *n = wl_display_add_socket_auto(wl->srv.display);
	if (!n)
		wlog(DISPMAN_LOG_ERROR, "cannot create a Wayland socket: %s", strerror(errno));
	return n;
}

struct wl_display *dispman_wayland_get_display(struct dispman_wayland *wl)
{
	return wl->srv.display;
}

int dispman_wayland_get_fd(struct dispman_wayland *wl)
{
	return wl_event_loop_get_fd(wl->srv.loop);
}

int dispman_wayland_dispatch(struct dispman_wayland *wl, int timeout_ms)
{
	wl_display_flush_clients(wl->srv.display);
	int ret = wl_event_loop_dispatch(wl->srv.loop, timeout_ms);
	wl_display_flush_clients(wl->srv.display);
	if (ret < 0 && errno != EINTR)
		return -errno;
	return 0;
}

int dispman_wayland_capture(struct dispman_wayland *wl, struct dispman_buffer **frame)
{
	struct server *srv = &wl->srv;
	int ret = dispman_output_capture(srv->out, frame);
	if (ret < 0)
		wlog(DISPMAN_LOG_ERROR, "capture failed: %s", strerror(-ret));
	scene_after_capture(output_first(srv));
	return ret;
}

int dispman_wayland_set_input(struct dispman_wayland *wl, struct dispman_input *input)
{
	if (!wl)
		return -EINVAL;
	return seat_set_input(&wl->srv, input);
}

int dispman_wayland_set_window_policy(struct dispman_wayland *wl,
	enum dispman_wayland_window_policy policy)
{
	if (!wl || (policy != DISPMAN_WAYLAND_POLICY_KIOSK && policy != DISPMAN_WAYLAND_POLICY_FREE)) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_window_policy: %s",
			!wl ? "the compositor is NULL" : "unknown policy");
		return -EINVAL;
	}
	if (wl->srv.policy != policy) {
		wl->srv.policy = policy;
		xdg_reconfigure_all(&wl->srv);
	}
	return 0;
}

int dispman_wayland_set_xdg_shell_version(struct dispman_wayland *wl, uint32_t version)
{
	if (!wl) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_xdg_shell_version: the compositor is "
			"NULL");
		return -EINVAL;
	}
	return xdg_set_version(&wl->srv, version);
}

int dispman_wayland_place_surface(struct dispman_wayland *wl, struct wl_resource *surface,
	int32_t x, int32_t y)
{
	struct shell_surface *t = wl && surface ? xdg_toplevel_of(surface) : NULL;
	if (!t) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_place_surface: %s", !wl ?
			"the compositor is NULL" : !surface ? "the surface is NULL" :
			"the surface is not an xdg toplevel");
		return -EINVAL;
	}
	t->placed = true;
	t->place_x = x;
	t->place_y = y;
	server_schedule_repaint(&wl->srv);
	return 0;
}

int dispman_wayland_hide_cursor(struct dispman_wayland *wl, bool hide)
{
	if (!wl) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_hide_cursor: the compositor is NULL");
		return -EINVAL;
	}
	cursor_hide(&wl->srv, hide);
	return 0;
}

int dispman_wayland_set_vt_switch(struct dispman_wayland *wl, bool enable)
{
	if (!wl) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_vt_switch: the compositor is NULL");
		return -EINVAL;
	}
	int ret = vt_switch_enable(&wl->srv, enable);
	if (ret < 0)
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_vt_switch: out of memory");
	return ret;
}

int dispman_wayland_get_stats(struct dispman_wayland *wl, struct dispman_wayland_stats *stats)
{
	if (!wl || !stats) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_get_stats: %s is NULL",
			!wl ? "the compositor" : "stats");
		return -EINVAL;
	}
	size_t want;
	memcpy(&want, stats, sizeof(want));
	if (want < sizeof(size_t)) {
		wlog(DISPMAN_LOG_ERROR, "struct dispman_wayland_stats: size %zu; set it to "
			"sizeof(struct dispman_wayland_stats)", want);
		return -EINVAL;
	}
	struct server *srv = &wl->srv;
	struct dispman_wayland_stats all = srv->stats;
	all.clients = wl->n_clients;
	all.surfaces = (uint64_t)wl_list_length(&srv->surfaces);
	all.buffers = (uint64_t)wl_list_length(&srv->buffers);
	all.layers = srv->layers;
	size_t n = want < sizeof(all) ? want : sizeof(all);
	all.size = n;
	memcpy(stats, &all, n);
	return 0;
}


int dispman_wayland_set_seat_capabilities(struct dispman_wayland *wl, uint32_t caps)
{
	const uint32_t known = DISPMAN_INPUT_CAP_KEYBOARD | DISPMAN_INPUT_CAP_POINTER |
		DISPMAN_INPUT_CAP_TOUCH;
	if (!wl || (caps & ~known)) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_seat_capabilities: %s",
			!wl ? "the compositor is NULL" : "unknown capability bits");
		return -EINVAL;
	}
	seat_set_caps(&wl->srv,
		(caps & DISPMAN_INPUT_CAP_KEYBOARD ? WL_SEAT_CAPABILITY_KEYBOARD : 0) |
		(caps & DISPMAN_INPUT_CAP_POINTER ? WL_SEAT_CAPABILITY_POINTER : 0) |
		(caps & DISPMAN_INPUT_CAP_TOUCH ? WL_SEAT_CAPABILITY_TOUCH : 0));
	return 0;
}

int dispman_wayland_inject_input(struct dispman_wayland *wl,
	const struct dispman_input_event *ev)
{
	if (!wl || !ev) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_inject_input: %s is NULL",
			!wl ? "the compositor" : "the event");
		return -EINVAL;
	}
	switch (ev->type) {
	case DISPMAN_INPUT_KEY:
	case DISPMAN_INPUT_TOUCH_CANCEL:
	case DISPMAN_INPUT_TOUCH_FRAME:
		break;
	case DISPMAN_INPUT_POINTER_MOTION:
	case DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE:
	case DISPMAN_INPUT_POINTER_BUTTON:
	case DISPMAN_INPUT_POINTER_AXIS:
	case DISPMAN_INPUT_TOUCH_DOWN:
	case DISPMAN_INPUT_TOUCH_MOTION:
	case DISPMAN_INPUT_TOUCH_UP:
		if (!isfinite(ev->x) || !isfinite(ev->y)) {
			wlog(DISPMAN_LOG_ERROR, "dispman_wayland_inject_input: position not finite");
			return -EINVAL;
		}
		break;
	default:
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_inject_input: event type %d is not "
			"input for the seat", (int)ev->type);
		return -EINVAL;
	}
	seat_inject(&wl->srv, ev);
	return 0;
}

int dispman_wayland_set_blank_timeout(struct dispman_wayland *wl, uint32_t ms)
{
	if (!wl) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_blank_timeout: the compositor is NULL");
		return -EINVAL;
	}
	return idle_set_blank_timeout(&wl->srv, ms);
}

int dispman_wayland_set_repaint_window(struct dispman_wayland *wl, int32_t window_us)
{
	if (!wl) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_repaint_window: the compositor is NULL");
		return -EINVAL;
	}
	int ret = scene_set_repaint_window(&wl->srv, window_us);
	if (ret < 0)
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_repaint_window(%" PRId32 "): %s",
			window_us, strerror(-ret));
	return ret;
}

int dispman_wayland_set_virtual_input(struct dispman_wayland *wl, bool allow)
{
	if (!wl) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_virtual_input: the compositor is NULL");
		return -EINVAL;
	}
	int ret = virtual_input_allow(&wl->srv, allow);
	if (ret < 0)
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_virtual_input: %s", strerror(-ret));
	return ret;
}

const char *dispman_wayland_add_virtual_input_socket(struct dispman_wayland *wl,
	const char *name)
{
	if (!wl || !name) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_add_virtual_input_socket: %s is NULL",
			!wl ? "the compositor" : "the name");
		errno = EINVAL;
		return NULL;
	}
	int ret = virtual_input_add_socket(&wl->srv, name);
	if (ret < 0) {
		errno = -ret;
		return NULL;
	}
	return name;
}

int dispman_wayland_set_lenient_configure(struct dispman_wayland *wl, bool lenient)
{
	if (!wl) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_lenient_configure: the compositor is "
			"NULL");
		return -EINVAL;
	}
	xdg_set_lenient(&wl->srv, lenient);
	return 0;
}

int dispman_wayland_add_output(struct dispman_wayland *wl, struct dispman_output *out)
{
	if (!wl || !out || dispman_output_get_device(out) != wl->srv.dev ||
	    output_find(&wl->srv, out)) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_add_output: %s", !wl ?
			"the compositor is NULL" : !out ? "the output is NULL" :
			dispman_output_get_device(out) != wl->srv.dev ? "output of another device" :
			"output served already");
		return -EINVAL;
	}
	struct server *srv = &wl->srv;
	int ret = 0;
	struct output *o = output_add(srv, out, &ret);
	if (!o)
		return ret;
	if ((ret = scene_output_init(o)) < 0) {
		output_remove(o);
		return ret;
	}
	wlog(DISPMAN_LOG_INFO, "serving %s too, at %d,%d in the layout",
		dispman_output_get_name(out), o->x, o->y);
	server_schedule_repaint(srv);
	return 0;
}

int dispman_wayland_serve_new_outputs(struct dispman_wayland *wl, bool serve)
{
	if (!wl) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_serve_new_outputs: the compositor is NULL");
		return -EINVAL;
	}
	wl->srv.serve_new_outputs = serve;
	return 0;
}

int dispman_wayland_set_layout(struct dispman_wayland *wl, enum dispman_wayland_layout layout)
{
	if (!wl || (layout != DISPMAN_WAYLAND_LAYOUT_EXTEND &&
		    layout != DISPMAN_WAYLAND_LAYOUT_MIRROR)) {
		wlog(DISPMAN_LOG_ERROR, "dispman_wayland_set_layout: %s",
			!wl ? "the compositor is NULL" : "unknown layout");
		return -EINVAL;
	}
	struct server *srv = &wl->srv;
	if (srv->layout == layout)
		return 0;
	/* every surface leaves its outputs under the old rules, and is shown again (and
	 * enters) under the new ones at the next repaint */
	struct surface *s;
	wl_list_for_each(s, &srv->surfaces, link)
		if (s->mapped || s->layer)
			surface_unmap(s);
	srv->layout = layout;
	output_arrange(srv);
	xdg_reconfigure_all(srv);
	return 0;
}
