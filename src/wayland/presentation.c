/* SPDX-License-Identifier: MIT */
/*
 * wp_presentation: feedback objects wait with the surface's commit, join the frame of the
 * next repaint and are answered from that frame's page flip (its CLOCK_MONOTONIC time and
 * the CRTC's vblank sequence), or discarded when a later commit superseded them.
 */
#include "presentation.h"

#include "surface.h"

#include <errno.h>
#include <stdlib.h>

#include "presentation-time-server-protocol.h"

static void feedback_resource_destroy(struct wl_resource *res)
{
	struct feedback *f = wl_resource_get_user_data(res);
	wl_list_remove(&f->link);
	free(f);
}

static void presentation_destroy(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static void presentation_feedback(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *surface_res, uint32_t id)
{
	struct surface *s = surface_from_resource(surface_res);
	struct feedback *f = calloc(1, sizeof(*f));
	if (f)
		f->resource = wl_resource_create(c, &wp_presentation_feedback_interface, 1, id);
	if (!f || !f->resource) {
		free(f);
		wl_client_post_no_memory(c);
		return;
	}
	f->surface = s;
	wl_list_insert(s->pending.feedbacks.prev, &f->link);
	wl_resource_set_implementation(f->resource, NULL, f, feedback_resource_destroy);
}

static const struct wp_presentation_interface presentation_impl = {
	.destroy = presentation_destroy,
	.feedback = presentation_feedback,
};

static void presentation_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c, &wp_presentation_interface, (int)version,
		id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &presentation_impl, data, NULL);
	wp_presentation_send_clock_id(res, CLOCK_MONOTONIC);
}

int presentation_init_global(struct server *srv)
{
	if (!wl_global_create(srv->display, &wp_presentation_interface, 1, srv,
		    presentation_bind))
		return -ENOMEM;
	return 0;
}
