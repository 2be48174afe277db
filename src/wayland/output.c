/* SPDX-License-Identifier: MIT */
/* wl_output and zxdg_output_manager_v1: the served output's mode, physical size, name and
 * its place in the (one-output) layout. */
#include "output.h"

#include <errno.h>

#include "xdg-output-unstable-v1-server-protocol.h"

static void output_release_req(struct wl_client *client, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct wl_output_interface output_impl = {
	.release = output_release_req,
};

static void output_unlink(struct wl_resource *res)
{
	wl_list_remove(wl_resource_get_link(res));
}

static void output_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct server *srv = data;
	struct wl_resource *res = wl_resource_create(client, &wl_output_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(res, &output_impl, srv, output_unlink);
	wl_list_insert(&srv->outputs, wl_resource_get_link(res));
	uint32_t wmm = 0, hmm = 0;
	dispman_output_get_physical_size(srv->out, &wmm, &hmm);
	wl_output_send_geometry(res, 0, 0, (int32_t)wmm, (int32_t)hmm,
		WL_OUTPUT_SUBPIXEL_UNKNOWN, "libdispman", dispman_output_get_name(srv->out),
		(int32_t)dispman_output_get_transform(srv->out));
	/* the mode as the panel has it; srv's size is the viewer's (the transform applied) */
	bool turned = (dispman_output_get_transform(srv->out) & 1) != 0;
	wl_output_send_mode(res, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED,
		turned ? srv->height : srv->width, turned ? srv->width : srv->height,
		(int32_t)srv->refresh_mhz);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION)
		wl_output_send_scale(res, 1);
	if (version >= WL_OUTPUT_NAME_SINCE_VERSION)
		wl_output_send_name(res, dispman_output_get_name(srv->out));
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(res);
}

/* ---- xdg-output ---- */

static void xdg_output_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zxdg_output_v1_interface xdg_output_impl = {
	.destroy = xdg_output_destroy,
};

static void manager_get_xdg_output(struct wl_client *c, struct wl_resource *res, uint32_t id,
	struct wl_resource *output)
{
	struct server *srv = wl_resource_get_user_data(res);
	int ver = wl_resource_get_version(res);
	struct wl_resource *xo = wl_resource_create(c, &zxdg_output_v1_interface, ver, id);
	if (!xo) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(xo, &xdg_output_impl, srv, NULL);
	/* one output, unscaled: logical = the mode turned by the output's transform */
	zxdg_output_v1_send_logical_position(xo, 0, 0);
	zxdg_output_v1_send_logical_size(xo, srv->width, srv->height);
	const char *name = dispman_output_get_name(srv->out);
	if (ver >= ZXDG_OUTPUT_V1_NAME_SINCE_VERSION) {
		zxdg_output_v1_send_name(xo, name);
		zxdg_output_v1_send_description(xo, "libdispman output");
	}
	/* from v3 the wl_output's done closes the batch */
	if (ver < 3)
		zxdg_output_v1_send_done(xo);
	else if (wl_resource_get_version(output) >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(output);
}

static void manager_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zxdg_output_manager_v1_interface manager_impl = {
	.destroy = manager_destroy,
	.get_xdg_output = manager_get_xdg_output,
};

static void manager_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c, &zxdg_output_manager_v1_interface,
		(int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &manager_impl, data, NULL);
}

bool output_update_mode(struct server *srv)
{
	const struct dispman_mode *m = dispman_output_get_current_mode(srv->out);
	/* the layout is the viewer's size (the mode turned by the output's transform);
	 * wl_output.mode says the panel's */
	struct dispman_size view = dispman_output_get_size(srv->out);
	if (!m || ((int32_t)view.width == srv->width && (int32_t)view.height == srv->height &&
		   m->refresh_mhz == srv->refresh_mhz))
		return false;
	bool resized = (int32_t)view.width != srv->width || (int32_t)view.height != srv->height;
	srv->width = (int32_t)view.width;
	srv->height = (int32_t)view.height;
	srv->refresh_mhz = m->refresh_mhz;
	wlog(DISPMAN_LOG_INFO, "%s now %dx%d@%u mHz", dispman_output_get_name(srv->out),
		srv->width, srv->height, srv->refresh_mhz);
	struct wl_resource *res;
	wl_resource_for_each(res, &srv->outputs) {
		wl_output_send_mode(res, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED,
			(int32_t)m->width, (int32_t)m->height, (int32_t)srv->refresh_mhz);
		if (wl_resource_get_version(res) >= WL_OUTPUT_DONE_SINCE_VERSION)
			wl_output_send_done(res);
	}
	return resized;
}

int output_init_global(struct server *srv)
{
	if (!wl_global_create(srv->display, &wl_output_interface, 4, srv, output_bind) ||
	    !wl_global_create(srv->display, &zxdg_output_manager_v1_interface, 3, srv,
		    manager_bind))
		return -ENOMEM;
	return 0;
}
