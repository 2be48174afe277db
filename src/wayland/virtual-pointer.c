/* SPDX-License-Identifier: MIT */
/*
 * zwlr_virtual_pointer_manager_v1 (version 2): a client (wayvnc) moves a pointer, presses
 * its buttons and scrolls; the seat delivers it as it delivers the dispman_input's pointer
 * (seat_inject(): focus, enter/leave, grabs, idle and blanking alike). The global exists
 * only while allowed (virtual-input.c), as the virtual keyboard's.
 *
 * Relative motion moves the seat's pointer from where it is (the seat carries it across
 * an extended layout by its dx, dy: output.c), absolute motion maps the client's extent
 * onto the output it named (create_virtual_pointer_with_output), else onto the first
 * output, as an absolute input device's.
 * Each request is delivered at once, each with its own wl_pointer.frame: `frame` groups
 * nothing more. The client's timestamps have no defined base, so events carry the
 * compositor's CLOCK_MONOTONIC time. Buttons still down when a virtual pointer goes are
 * released.
 */
#include "virtual-pointer.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "output.h"
#include "seat.h"

#include "wlr-virtual-pointer-unstable-v1-server-protocol.h"

/* buttons a virtual pointer may hold down at once */
#define MAX_BUTTONS_DOWN 16

struct vptr_manager {
	struct server *srv;
	struct wl_list pointers;        /* vptr.link */
};

struct vptr {
	struct vptr_manager *mgr;
	struct wl_resource *resource;
	struct wl_list link;
	uint32_t buttons[MAX_BUTTONS_DOWN];
	unsigned nbuttons;
	enum dispman_input_axis_source source; /* for the next axis events */
	uint32_t output_id;             /* output.id of the output named, 0: none */
};

static uint64_t now_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static double clamp(double v, double hi)
{
	return v < 0 ? 0 : v > hi ? hi : v;
}

/* An event of type at the pointer's position, with the fields every type shares. */
static struct dispman_input_event vptr_event(struct vptr *vp, enum dispman_input_event_type t)
{
	struct server *srv = vp->mgr->srv;
	struct dispman_input_event ev = {
		.type = t,
		.time_usec = now_usec(),
		.device_name = "virtual pointer",
		.device_sysname = "",
		.device_caps = DISPMAN_INPUT_CAP_POINTER,
		.slot = -1,
		.seat_slot = -1,
		.output = srv->out,
	};
	seat_pointer_position(srv, &ev.x, &ev.y);
	return ev;
}

static void move_to(struct vptr *vp, double x, double y, double dx, double dy)
{
	struct server *srv = vp->mgr->srv;
	struct dispman_input_event ev = vptr_event(vp, DISPMAN_INPUT_POINTER_MOTION);
	ev.x = clamp(x, srv->width > 0 ? srv->width - 1 : 0);
	ev.y = clamp(y, srv->height > 0 ? srv->height - 1 : 0);
	ev.dx = ev.dx_unaccel = dx;
	ev.dy = ev.dy_unaccel = dy;
	seat_inject(srv, &ev);
}

static void vptr_motion(struct wl_client *c, struct wl_resource *res, uint32_t time,
	wl_fixed_t dx, wl_fixed_t dy)
{
	struct vptr *vp = wl_resource_get_user_data(res);
	double x, y;
	seat_pointer_position(vp->mgr->srv, &x, &y);
	double fdx = wl_fixed_to_double(dx), fdy = wl_fixed_to_double(dy);
	move_to(vp, x + fdx, y + fdy, fdx, fdy);
}

static void vptr_motion_absolute(struct wl_client *c, struct wl_resource *res, uint32_t time,
	uint32_t x, uint32_t y, uint32_t x_extent, uint32_t y_extent)
{
	struct vptr *vp = wl_resource_get_user_data(res);
	struct server *srv = vp->mgr->srv;
	if (x_extent == 0 || y_extent == 0) {
		wlog(DISPMAN_LOG_DEBUG, "virtual pointer: absolute motion in an empty extent "
			"%ux%u ignored", x_extent, y_extent);
		return;
	}
	double ox, oy;
	seat_pointer_position(srv, &ox, &oy);
	/* the output named (if it is still served), else the first */
	struct output *o, *on = NULL;
	wl_list_for_each(o, &srv->output_list, link)
		if (vp->output_id && o->id == vp->output_id)
			on = o;
	if (!on || on->width <= 0 || on->height <= 0) {
		double nx = (double)x * srv->width / x_extent;
		double ny = (double)y * srv->height / y_extent;
		move_to(vp, nx, ny, nx - ox, ny - oy);
		return;
	}
	double nx = (double)x * on->width / x_extent, ny = (double)y * on->height / y_extent;
	if (srv->layout != DISPMAN_WAYLAND_LAYOUT_EXTEND || wl_list_length(&srv->output_list) < 2) {
		move_to(vp, nx, ny, nx - ox, ny - oy);
		return;
	}
	/* in the extended layout, where the seat carries the pointer by dx, dy (output.c):
	 * from where it is in the layout to that output's point */
	if (!srv->pointer_in_layout) {
		srv->pointer_lx = ox;
		srv->pointer_ly = oy;
		srv->pointer_in_layout = true;
	}
	double lx = on->x + nx, ly = on->y + ny;
	move_to(vp, lx, ly, lx - srv->pointer_lx, ly - srv->pointer_ly);
}

static bool button_down(struct vptr *vp, uint32_t button, unsigned *at)
{
	for (unsigned i = 0; i < vp->nbuttons; i++) {
		if (vp->buttons[i] == button) {
			*at = i;
			return true;
		}
	}
	return false;
}

static void send_button(struct vptr *vp, uint32_t button, bool pressed)
{
	struct dispman_input_event ev = vptr_event(vp, DISPMAN_INPUT_POINTER_BUTTON);
	ev.button = button;
	ev.state = pressed ? DISPMAN_INPUT_PRESSED : DISPMAN_INPUT_RELEASED;
	seat_inject(vp->mgr->srv, &ev);
}

static void vptr_button(struct wl_client *c, struct wl_resource *res, uint32_t time,
	uint32_t button, uint32_t state)
{
	struct vptr *vp = wl_resource_get_user_data(res);
	if (state != WL_POINTER_BUTTON_STATE_PRESSED && state != WL_POINTER_BUTTON_STATE_RELEASED) {
		wlog(DISPMAN_LOG_DEBUG, "virtual pointer: button state %u ignored", state);
		return;
	}
	bool pressed = state == WL_POINTER_BUTTON_STATE_PRESSED;
	unsigned at;
	if (pressed == button_down(vp, button, &at))
		return; /* pressed twice, or released while up: nothing changes */
	if (pressed) {
		if (vp->nbuttons == MAX_BUTTONS_DOWN) {
			wlog(DISPMAN_LOG_WARNING, "virtual pointer: more than %d buttons down: "
				"button %u ignored", MAX_BUTTONS_DOWN, button);
			return;
		}
		vp->buttons[vp->nbuttons++] = button;
	} else {
		vp->buttons[at] = vp->buttons[--vp->nbuttons];
	}
	send_button(vp, button, pressed);
}

static bool axis_ok(struct vptr *vp, uint32_t axis)
{
	if (axis == WL_POINTER_AXIS_VERTICAL_SCROLL || axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		return true;
	server_post_error(vp->mgr->srv, vp->resource, ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS,
		"axis %u is neither vertical nor horizontal", axis);
	return false;
}

static void send_axis(struct vptr *vp, uint32_t axis, double value, int32_t discrete)
{
	struct dispman_input_event ev = vptr_event(vp, DISPMAN_INPUT_POINTER_AXIS);
	ev.axis_source = vp->source;
	if (axis == WL_POINTER_AXIS_VERTICAL_SCROLL) {
		ev.axis_y = value;
		ev.axis_v120_y = discrete * 120.0;
	} else {
		ev.axis_x = value;
		ev.axis_v120_x = discrete * 120.0;
	}
	seat_inject(vp->mgr->srv, &ev);
}

static void vptr_axis(struct wl_client *c, struct wl_resource *res, uint32_t time,
	uint32_t axis, wl_fixed_t value)
{
	struct vptr *vp = wl_resource_get_user_data(res);
	if (axis_ok(vp, axis))
		send_axis(vp, axis, wl_fixed_to_double(value), 0);
}

static void vptr_axis_discrete(struct wl_client *c, struct wl_resource *res, uint32_t time,
	uint32_t axis, wl_fixed_t value, int32_t discrete)
{
	struct vptr *vp = wl_resource_get_user_data(res);
	if (axis_ok(vp, axis))
		send_axis(vp, axis, wl_fixed_to_double(value), discrete);
}

static void vptr_frame(struct wl_client *c, struct wl_resource *res)
{
	/* every event was delivered with its own frame */
}

static void vptr_axis_source(struct wl_client *c, struct wl_resource *res, uint32_t source)
{
	struct vptr *vp = wl_resource_get_user_data(res);
	switch (source) {
	case WL_POINTER_AXIS_SOURCE_WHEEL:
	case WL_POINTER_AXIS_SOURCE_WHEEL_TILT:
		vp->source = DISPMAN_INPUT_AXIS_WHEEL;
		break;
	case WL_POINTER_AXIS_SOURCE_FINGER:
		vp->source = DISPMAN_INPUT_AXIS_FINGER;
		break;
	case WL_POINTER_AXIS_SOURCE_CONTINUOUS:
		vp->source = DISPMAN_INPUT_AXIS_CONTINUOUS;
		break;
	default:
		server_post_error(vp->mgr->srv, res,
			ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE,
			"axis source %u is not one of wl_pointer's", source);
	}
}

static void vptr_axis_stop(struct wl_client *c, struct wl_resource *res, uint32_t time,
	uint32_t axis)
{
	struct vptr *vp = wl_resource_get_user_data(res);
	/* the seat has no axis_stop to send: the end of a finger scroll is not passed on */
	if (axis_ok(vp, axis))
		wlog(DISPMAN_LOG_DEBUG, "virtual pointer: axis_stop not passed on");
}

static void destroy_req(struct wl_client *c, struct wl_resource *res)
{
	wl_resource_destroy(res);
}

static const struct zwlr_virtual_pointer_v1_interface vptr_impl = {
	.motion = vptr_motion,
	.motion_absolute = vptr_motion_absolute,
	.button = vptr_button,
	.axis = vptr_axis,
	.frame = vptr_frame,
	.axis_source = vptr_axis_source,
	.axis_stop = vptr_axis_stop,
	.axis_discrete = vptr_axis_discrete,
	.destroy = destroy_req,
};

static void vptr_destroy(struct wl_resource *res)
{
	struct vptr *vp = wl_resource_get_user_data(res);
	while (vp->nbuttons > 0)
		send_button(vp, vp->buttons[--vp->nbuttons], false);
	wl_list_remove(&vp->link);
	free(vp);
}

static void create_pointer(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *seat, struct wl_resource *output, uint32_t id)
{
	struct vptr_manager *mgr = wl_resource_get_user_data(res);
	struct vptr *vp = calloc(1, sizeof(*vp));
	struct wl_resource *r = vp ? wl_resource_create(c, &zwlr_virtual_pointer_v1_interface,
		wl_resource_get_version(res), id) : NULL;
	if (!r) {
		free(vp);
		wl_client_post_no_memory(c);
		return;
	}
	vp->mgr = mgr;
	vp->resource = r;
	vp->source = DISPMAN_INPUT_AXIS_WHEEL;
	struct output *o = output_from_resource(output);
	vp->output_id = o ? o->id : 0;
	wl_list_insert(&mgr->pointers, &vp->link);
	wl_resource_set_implementation(r, &vptr_impl, vp, vptr_destroy);
	wlog(DISPMAN_LOG_INFO, "a client made a virtual pointer");
}

static void create_plain(struct wl_client *c, struct wl_resource *res,
	struct wl_resource *seat, uint32_t id)
{
	create_pointer(c, res, seat, NULL, id);
}

static const struct zwlr_virtual_pointer_manager_v1_interface manager_impl = {
	.create_virtual_pointer = create_plain,
	.destroy = destroy_req,
	.create_virtual_pointer_with_output = create_pointer,
};

void virtual_pointer_bind(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *res = wl_resource_create(c,
		&zwlr_virtual_pointer_manager_v1_interface, (int)version, id);
	if (!res) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(res, &manager_impl, data, NULL);
}

int virtual_pointer_init(struct server *srv)
{
	struct vptr_manager *mgr = calloc(1, sizeof(*mgr));
	if (!mgr)
		return -ENOMEM;
	mgr->srv = srv;
	wl_list_init(&mgr->pointers);
	srv->vptr = mgr;
	return 0;
}

void virtual_pointer_finish(struct server *srv)
{
	struct vptr_manager *mgr = srv->vptr;
	if (!mgr)
		return;
	struct vptr *vp, *tmp;
	wl_list_for_each_safe(vp, tmp, &mgr->pointers, link)
		wl_resource_destroy(vp->resource);
	free(mgr);
	srv->vptr = NULL;
}
