/* SPDX-License-Identifier: MIT */
/* The shared state's few helpers: repaint scheduling, protocol errors, resource lists. */
#include "server.h"

#include <stdarg.h>
#include <stdio.h>

static void idle_repaint(void *data)
{
	struct server *srv = data;
	srv->idle = NULL;
	if (srv->repaint)
		srv->repaint(srv);
}

void server_schedule_repaint(struct server *srv)
{
	srv->dirty = true;
	bool any_free = false;
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link) {
		o->dirty = true;
		any_free = any_free || !o->flip_pending;
	}
	if (!any_free || srv->idle)
		return;
	srv->idle = wl_event_loop_add_idle(srv->loop, idle_repaint, srv);
}

void server_schedule_others(struct server *srv, struct output *except)
{
	bool any_free = false;
	struct output *o;
	wl_list_for_each(o, &srv->output_list, link) {
		if (o == except)
			continue;
		o->dirty = true;
		any_free = any_free || !o->flip_pending;
	}
	if (any_free && !srv->idle)
		srv->idle = wl_event_loop_add_idle(srv->loop, idle_repaint, srv);
}

void server_post_error(struct server *srv, struct wl_resource *res, uint32_t code,
	const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	wl_resource_post_error(res, code, "%s", msg);
	srv->stats.protocol_errors++;
}

void server_unlink_resource(struct wl_resource *res)
{
	wl_list_remove(wl_resource_get_link(res));
}
