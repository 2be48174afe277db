/* SPDX-License-Identifier: MIT */
/*
 * zxdg_decoration_manager_v1 answering server-side: a kiosk window has no frame, and a
 * client told its decoration is the server's draws none either. Whatever mode a client
 * asks for, the answer is server_side, followed by an xdg_surface.configure once the
 * toplevel has had its first one (before that, the first configure follows its commit).
 */
#include "decoration.h"

#include <errno.h>
#include <stdlib.h>

#include "surface.h"
#include "xdg.h"

#include "xdg-decoration-unstable-v1-server-protocol.h"

/* One per toplevel at most: its shell surface, NULL once the toplevel is gone. */
struct decoration {
	struct wl_resource *resource;
	struct server *srv;
	struct shell_surface *toplevel;
	struct wl_listener toplevel_gone;       /* the shell surface's destroy signal */
};

static void answer(struct decoration *d)
{
	zxdg_toplevel_decoration_v1_send_configure(d->resource,
		ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
	if (d->toplevel)
		xdg_configure(d->toplevel);
}

static void deco_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void deco_set_mode(struct wl_client *c, struct wl_resource *res, uint32_t mode)
{
	struct decoration *d = wl_resource_get_user_data(res);
	if (!d->toplevel) {
		server_post_error(d->srv, res, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED,
			"the toplevel is gone");
		return;
	}
	answer(d);
}

static void deco_unset_mode(struct wl_client *c, struct wl_resource *res)
{
	deco_set_mode(c, res, 0);
}

static const struct zxdg_toplevel_decoration_v1_interface deco_impl = {
	.destroy = deco_destroy,
	.set_mode = deco_set_mode,
	.unset_mode = deco_unset_mode,
};

static void deco_resource_destroy(struct wl_resource *res)
{
	struct decoration *d = wl_resource_get_user_data(res);
	if (d->toplevel) {
		wl_list_remove(&d->toplevel_gone.link);
		d->toplevel->decorated = false;
	}
	free(d);
}

static void on_toplevel_gone(struct wl_listener *l, void *data)
{
	struct decoration *d = wl_container_of(l, d, toplevel_gone);
	wl_list_remove(&l->link);
	d->toplevel = NULL;
}

static void manager_get(struct wl_client *c, struct wl_resource *res, uint32_t id,
	struct wl_resource *toplevel_res)
{
	struct server *srv = wl_resource_get_user_data(res);
	struct shell_surface *x = wl_resource_get_user_data(toplevel_res);
	if (!x || !x->surface) {
		server_post_error(srv, res, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED,
			"the toplevel is gone");
		return;
	}
	if (x->decorated) {
		server_post_error(srv, res, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED,
			"the toplevel has a decoration object already");
		return;
	}
	if (x->surface->current.buffer) {
		server_post_error(srv, res, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER,
			"the toplevel has a buffer already");
		return;
	}
	struct decoration *d = calloc(1, sizeof(*d));
	if (d)
		d->resource = wl_resource_create(c, &zxdg_toplevel_decoration_v1_interface,
			wl_resource_get_version(res), id);
	if (!d || !d->resource) {
		free(d);
		wl_client_post_no_memory(c);
		return;
	}
	d->srv = srv;
	d->toplevel = x;
	x->decorated = true;
	d->toplevel_gone.notify = on_toplevel_gone;
	wl_signal_add(&x->destroy_signal, &d->toplevel_gone);
	wl_resource_set_implementation(d->resource, &deco_impl, d, deco_resource_destroy);
	answer(d);
}

static void manager_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zxdg_decoration_manager_v1_interface manager_impl = {
	.destroy = manager_destroy,
	.get_toplevel_decoration = manager_get,
};

static void manager_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c, &zxdg_decoration_manager_v1_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &manager_impl, data, NULL);
}

int decoration_init_global(struct server *srv)
{
	if (!wl_global_create(srv->display, &zxdg_decoration_manager_v1_interface, 1, srv,
		    manager_bind))
		return -ENOMEM;
	return 0;
}
