/* SPDX-License-Identifier: MIT */
/* wl_output: the served output's mode, physical size and name. */
#include "output.h"

#include <errno.h>

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
		WL_OUTPUT_TRANSFORM_NORMAL);
	wl_output_send_mode(res, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED, srv->width,
		srv->height, (int32_t)srv->refresh_mhz);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION)
		wl_output_send_scale(res, 1);
	if (version >= WL_OUTPUT_NAME_SINCE_VERSION)
		wl_output_send_name(res, dispman_output_get_name(srv->out));
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(res);
}

int output_init_global(struct server *srv)
{
	if (!wl_global_create(srv->display, &wl_output_interface, 4, srv, output_bind))
		return -ENOMEM;
	return 0;
}
