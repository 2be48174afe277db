/* SPDX-License-Identifier: MIT */
/*
 * The wlcs integration module for libdispman-wayland (wlcs/display_server.h): wlcs loads it
 * and drives a compositor on $DISPMAN_DEVICE (else the first card with a screen), served on
 * its first connected output with the free window policy, so that tests place windows.
 *
 * Threads: the compositor runs on a thread of its own, dispatching in a loop. Every call
 * wlcs makes from its test thread (a client socket, a window's position, fake input) is
 * queued, the server thread woken through an eventfd in the display's event loop, and the
 * caller waits until the server thread has done it (the compositor is not thread-safe).
 *
 * Built twice: wlcs-dispman.so on $DISPMAN_DEVICE (the guest test), and wlcs-dispman-mock.so
 * on tests/mock's fake vkms, for a quick look on the host without a KMS device (its flips
 * complete at once; wlcs checks no pixels): run-wlcs.sh with it on the host.
 *
 * What the library should not expose stays here: finding the server's wl_surface of a
 * client's proxy (the client's socket -> its wl_client, the proxy's id -> the resource).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client-core.h>
#include <wayland-server-core.h>

#include <dispman/input.h>
#include <dispman/wayland.h>

#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

#ifdef WLCS_DISPMAN_MOCK
#include "mock-drm.h"
#endif

#define EXPORT __attribute__((visibility("default")))
#define MAX_TOUCH 16

struct server_ctx;

struct call {
	void (*fn)(struct server_ctx *ctx, void *arg);
	void *arg;
	bool done;
	struct call *next;
};

/* A client made by create_client_socket(): the fd wlcs got, for position_window_absolute(). */
struct client_entry {
	struct server_ctx *ctx;
	int client_fd;
	struct wl_client *client;
	struct wl_listener destroy;
	struct wl_list link;
};

struct server_ctx {
	WlcsDisplayServer base;
	struct dispman_device *dev;
	struct dispman_output *out;
	struct dispman_wayland *wl;
	struct wl_event_loop *loop;
	struct wl_event_source *wake_source;
	int wake_fd;
	pthread_t thread;
	bool started, running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct call *queue, **queue_tail;
	struct wl_list clients;         /* client_entry.link (server thread only) */
	bool touch_used[MAX_TOUCH];
};

static void die(const char *what, int err)
{
	fprintf(stderr, "wlcs-dispman: %s: %s\n", what, strerror(err));
	abort();
}

/* ---- running work on the server thread ---- */

static int on_wake(int fd, uint32_t mask, void *data)
{
	struct server_ctx *ctx = data;
	uint64_t n;
	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		die("read eventfd", errno);
	pthread_mutex_lock(&ctx->lock);
	struct call *c = ctx->queue;
	ctx->queue = NULL;
	ctx->queue_tail = &ctx->queue;
	pthread_mutex_unlock(&ctx->lock);
	while (c) {
		struct call *next = c->next;
		c->fn(ctx, c->arg);
		pthread_mutex_lock(&ctx->lock);
		c->done = true;
		pthread_cond_broadcast(&ctx->cond);
		pthread_mutex_unlock(&ctx->lock);
		c = next;
	}
	return 0;
}

/* Runs fn(ctx, arg) on the server thread (here when it is not running) and waits for it. */
static void run_on_server(struct server_ctx *ctx, void (*fn)(struct server_ctx *, void *),
	void *arg)
{
	if (!ctx->started) {
		fn(ctx, arg);
		return;
	}
	struct call c = { .fn = fn, .arg = arg };
	pthread_mutex_lock(&ctx->lock);
	*ctx->queue_tail = &c;
	ctx->queue_tail = &c.next;
	uint64_t one = 1;
	if (write(ctx->wake_fd, &one, sizeof(one)) < 0)
		die("write eventfd", errno);
	while (!c.done)
		pthread_cond_wait(&ctx->cond, &ctx->lock);
	pthread_mutex_unlock(&ctx->lock);
}

static void *server_thread(void *data)
{
	struct server_ctx *ctx = data;
	while (ctx->running) {
		int ret = dispman_wayland_dispatch(ctx->wl, -1);
		if (ret < 0)
			die("dispman_wayland_dispatch", -ret);
	}
	return NULL;
}

static void stop_call(struct server_ctx *ctx, void *arg)
{
	ctx->running = false;
}

static void start(WlcsDisplayServer *server)
{
	struct server_ctx *ctx = (struct server_ctx *)server;
	ctx->running = true;
	int err = pthread_create(&ctx->thread, NULL, server_thread, ctx);
	if (err)
		die("pthread_create", err);
	ctx->started = true;
}

static void stop(WlcsDisplayServer *server)
{
	struct server_ctx *ctx = (struct server_ctx *)server;
	if (!ctx->started)
		return;
	run_on_server(ctx, stop_call, NULL);
	pthread_join(ctx->thread, NULL);
	ctx->started = false;
}

/* ---- clients ---- */

static void on_client_destroy(struct wl_listener *l, void *data)
{
	struct client_entry *e = wl_container_of(l, e, destroy);
	wl_list_remove(&e->link);
	wl_list_remove(&e->destroy.link);
	free(e);
}

struct socket_call {
	int server_fd, client_fd;
	bool ok;
};

static void create_client_socket_call(struct server_ctx *ctx, void *arg)
{
	struct socket_call *sc = arg;
	struct client_entry *e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->ctx = ctx;
	e->client_fd = sc->client_fd;
	e->client = wl_client_create(dispman_wayland_get_display(ctx->wl), sc->server_fd);
	if (!e->client) {
		free(e);
		return;
	}
	e->destroy.notify = on_client_destroy;
	wl_client_add_destroy_listener(e->client, &e->destroy);
	wl_list_insert(&ctx->clients, &e->link);
	sc->ok = true;
}

static int create_client_socket(WlcsDisplayServer *server)
{
	struct server_ctx *ctx = (struct server_ctx *)server;
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
		die("socketpair", errno);
	struct socket_call sc = { .server_fd = fds[0], .client_fd = fds[1] };
	run_on_server(ctx, create_client_socket_call, &sc);
	if (!sc.ok) {
		/* wl_client_create() closes its fd only on success */
		close(fds[0]);
		close(fds[1]);
		fprintf(stderr, "wlcs-dispman: wl_client_create failed\n");
		return -1;
	}
	return fds[1];
}

/* ---- window placement ---- */

struct place_call {
	int client_fd;
	uint32_t id;
	int x, y;
	int ret;
	uint64_t repaints;              /* the compositor's count when it was placed */
};

static uint64_t repaints_now(struct server_ctx *ctx)
{
	struct dispman_wayland_stats st;
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	dispman_wayland_get_stats(ctx->wl, &st);
	return st.repaints;
}

static void place_call(struct server_ctx *ctx, void *arg)
{
	struct place_call *pc = arg;
	struct client_entry *e;
	pc->ret = -ENOENT;
	pc->repaints = repaints_now(ctx);
	wl_list_for_each(e, &ctx->clients, link) {
		if (e->client_fd != pc->client_fd)
			continue;
		struct wl_resource *res = wl_client_get_object(e->client, pc->id);
		if (res)
			pc->ret = dispman_wayland_place_surface(ctx->wl, res, pc->x, pc->y);
		return;
	}
}

static void repaints_call(struct server_ctx *ctx, void *arg)
{
	*(uint64_t *)arg = repaints_now(ctx);
}

static uint64_t repaints(struct server_ctx *ctx)
{
	uint64_t n = 0;
	run_on_server(ctx, repaints_call, &n);
	return n;
}

static void position_window_absolute(WlcsDisplayServer *server, struct wl_display *client,
	struct wl_surface *surface, int x, int y)
{
	struct server_ctx *ctx = (struct server_ctx *)server;
	struct place_call pc = {
		.client_fd = wl_display_get_fd(client),
		.id = wl_proxy_get_id((struct wl_proxy *)surface),
		.x = x, .y = y,
	};
	run_on_server(ctx, place_call, &pc);
	if (pc.ret < 0) {
		fprintf(stderr, "wlcs-dispman: cannot place surface %u at %d,%d: %s\n", pc.id, x,
			y, strerror(-pc.ret));
		return;
	}
	/* Input finds surfaces where the last repaint put them: wait for the repaint that
	 * moves this one (up to a second: it may have nothing to repaint). */
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (repaints(ctx) > pc.repaints)
			return;
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - t0.tv_sec) * 1000000000L + (now.tv_nsec - t0.tv_nsec) <
		1000000000L);
}

/* ---- fake input ---- */

static uint64_t now_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void inject_call(struct server_ctx *ctx, void *arg)
{
	const struct dispman_input_event *ev = arg;
	int ret = dispman_wayland_inject_input(ctx->wl, ev);
	if (ret < 0)
		die("dispman_wayland_inject_input", -ret);
}

static void inject(struct server_ctx *ctx, struct dispman_input_event *ev)
{
	ev->time_usec = now_usec();
	ev->device_name = "wlcs";
	ev->device_sysname = "wlcs";
	ev->output = ctx->out;
	run_on_server(ctx, inject_call, ev);
}

struct pointer {
	WlcsPointer base;
	struct server_ctx *ctx;
	double x, y;
};

static void pointer_move_absolute(WlcsPointer *p, wl_fixed_t x, wl_fixed_t y)
{
	struct pointer *ptr = (struct pointer *)p;
	ptr->x = wl_fixed_to_double(x);
	ptr->y = wl_fixed_to_double(y);
	struct dispman_input_event ev = {
		.type = DISPMAN_INPUT_POINTER_MOTION_ABSOLUTE,
		.device_caps = DISPMAN_INPUT_CAP_POINTER,
		.x = ptr->x, .y = ptr->y,
	};
	inject(ptr->ctx, &ev);
}

static void pointer_move_relative(WlcsPointer *p, wl_fixed_t dx, wl_fixed_t dy)
{
	struct pointer *ptr = (struct pointer *)p;
	struct dispman_input_event ev = {
		.type = DISPMAN_INPUT_POINTER_MOTION,
		.device_caps = DISPMAN_INPUT_CAP_POINTER,
		.dx = wl_fixed_to_double(dx), .dy = wl_fixed_to_double(dy),
	};
	ev.dx_unaccel = ev.dx;
	ev.dy_unaccel = ev.dy;
	ptr->x += ev.dx;
	ptr->y += ev.dy;
	ev.x = ptr->x;
	ev.y = ptr->y;
	inject(ptr->ctx, &ev);
}

static void pointer_button(WlcsPointer *p, int button, enum dispman_input_state state)
{
	struct pointer *ptr = (struct pointer *)p;
	struct dispman_input_event ev = {
		.type = DISPMAN_INPUT_POINTER_BUTTON,
		.device_caps = DISPMAN_INPUT_CAP_POINTER,
		.button = (uint32_t)button, .state = state,
		.x = ptr->x, .y = ptr->y,
	};
	inject(ptr->ctx, &ev);
}

static void pointer_button_up(WlcsPointer *p, int button)
{
	pointer_button(p, button, DISPMAN_INPUT_RELEASED);
}

static void pointer_button_down(WlcsPointer *p, int button)
{
	pointer_button(p, button, DISPMAN_INPUT_PRESSED);
}

static void pointer_destroy(WlcsPointer *p)
{
	free(p);
}

static WlcsPointer *create_pointer(WlcsDisplayServer *server)
{
	struct pointer *p = calloc(1, sizeof(*p));
	if (!p)
		die("calloc", ENOMEM);
	p->base.version = WLCS_POINTER_VERSION;
	p->base.move_absolute = pointer_move_absolute;
	p->base.move_relative = pointer_move_relative;
	p->base.button_up = pointer_button_up;
	p->base.button_down = pointer_button_down;
	p->base.destroy = pointer_destroy;
	p->ctx = (struct server_ctx *)server;
	return &p->base;
}

struct touch {
	WlcsTouch base;
	struct server_ctx *ctx;
	int slot;
	bool down;
	double x, y;
};

static void touch_event(struct touch *t, enum dispman_input_event_type type, bool frame)
{
	struct dispman_input_event ev = {
		.type = type,
		.device_caps = DISPMAN_INPUT_CAP_TOUCH,
		.x = t->x, .y = t->y,
		.slot = t->slot, .seat_slot = t->slot,
	};
	inject(t->ctx, &ev);
	if (frame) {
		struct dispman_input_event f = {
			.type = DISPMAN_INPUT_TOUCH_FRAME,
			.device_caps = DISPMAN_INPUT_CAP_TOUCH,
			.slot = -1, .seat_slot = -1,
		};
		inject(t->ctx, &f);
	}
}

/* wlcs/touch.h declares touch_down and touch_move with wl_fixed_t coordinates, but wlcs
 * (1.5.0 and its main branch: wlcs::Touch::down_at()/move_to() in src/in_process_server.cpp)
 * passes whole output pixels, and Mir's module takes them as int: so do we. */
static void touch_down(WlcsTouch *touch, wl_fixed_t x, wl_fixed_t y)
{
	struct touch *t = (struct touch *)touch;
	t->x = (double)x;
	t->y = (double)y;
	t->down = true;
	touch_event(t, DISPMAN_INPUT_TOUCH_DOWN, true);
}

static void touch_move(WlcsTouch *touch, wl_fixed_t x, wl_fixed_t y)
{
	struct touch *t = (struct touch *)touch;
	t->x = (double)x;
	t->y = (double)y;
	touch_event(t, DISPMAN_INPUT_TOUCH_MOTION, true);
}

static void touch_up(WlcsTouch *touch)
{
	struct touch *t = (struct touch *)touch;
	t->down = false;
	/* the seat ends an up with its own frame */
	touch_event(t, DISPMAN_INPUT_TOUCH_UP, false);
}

static void touch_destroy(WlcsTouch *touch)
{
	struct touch *t = (struct touch *)touch;
	if (t->down)
		touch_up(touch);
	t->ctx->touch_used[t->slot] = false;
	free(t);
}

static WlcsTouch *create_touch(WlcsDisplayServer *server)
{
	struct server_ctx *ctx = (struct server_ctx *)server;
	struct touch *t = calloc(1, sizeof(*t));
	if (!t)
		die("calloc", ENOMEM);
	t->base.version = WLCS_TOUCH_VERSION;
	t->base.touch_down = touch_down;
	t->base.touch_move = touch_move;
	t->base.touch_up = touch_up;
	t->base.destroy = touch_destroy;
	t->ctx = ctx;
	t->slot = 0;
	while (t->slot < MAX_TOUCH - 1 && ctx->touch_used[t->slot])
		t->slot++;
	ctx->touch_used[t->slot] = true;
	return &t->base;
}

/* ---- what the server offers (the globals of src/wayland) ---- */

static const WlcsExtensionDescriptor extensions[] = {
	{ "wl_compositor", 5 },
	{ "wl_subcompositor", 1 },
	{ "wl_shm", 1 },
	{ "wl_output", 4 },
	{ "zxdg_output_manager_v1", 3 },
	{ "wl_seat", 7 },
	{ "wl_data_device_manager", 3 },
	{ "xdg_wm_base", 5 },
	{ "zxdg_decoration_manager_v1", 1 },
	{ "zwp_linux_dmabuf_v1", 4 },
	{ "wp_presentation", 1 },
	{ "wp_viewporter", 1 },
	{ "wp_single_pixel_buffer_manager_v1", 1 },
	{ "zwp_primary_selection_device_manager_v1", 1 },
};

static const WlcsIntegrationDescriptor descriptor = {
	.version = 1,
	.num_extensions = sizeof(extensions) / sizeof(extensions[0]),
	.supported_extensions = extensions,
};

static const WlcsIntegrationDescriptor *get_descriptor(const WlcsDisplayServer *server)
{
	return &descriptor;
}

/* ---- create and destroy ---- */

static void destroy_server(WlcsDisplayServer *server)
{
	struct server_ctx *ctx = (struct server_ctx *)server;
	if (!ctx)
		return;
	stop(server);
	if (ctx->wake_source)
		wl_event_source_remove(ctx->wake_source);
	dispman_wayland_destroy(ctx->wl); /* its clients' destroy listeners empty ctx->clients */
	dispman_device_destroy(ctx->dev);
	if (ctx->wake_fd >= 0)
		close(ctx->wake_fd);
	pthread_cond_destroy(&ctx->cond);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
}

static WlcsDisplayServer *create_server(int argc, const char **argv)
{
	struct server_ctx *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		die("calloc", ENOMEM);
	ctx->base.version = 3;
	ctx->base.start = start;
	ctx->base.stop = stop;
	ctx->base.create_client_socket = create_client_socket;
	ctx->base.position_window_absolute = position_window_absolute;
	ctx->base.create_pointer = create_pointer;
	ctx->base.create_touch = create_touch;
	ctx->base.get_descriptor = get_descriptor;
	ctx->wake_fd = -1;
	pthread_mutex_init(&ctx->lock, NULL);
	pthread_cond_init(&ctx->cond, NULL);
	ctx->queue_tail = &ctx->queue;
	wl_list_init(&ctx->clients);

#ifdef WLCS_DISPMAN_MOCK
	/* the host's quick look (wlcs-dispman-mock.so): the mock device, flips at once */
	mock_drm_setup_vkms_like();
	ctx->dev = dispman_device_create_for_fd(mock_drm_open());
#else
	ctx->dev = dispman_device_open(NULL);
#endif
	if (!ctx->dev)
		die("dispman_device_open", errno);
	ctx->out = dispman_device_get_first_connected_output(ctx->dev);
	if (!ctx->out)
		die("no connected output", ENODEV);
	ctx->wl = dispman_wayland_create(ctx->dev, ctx->out);
	if (!ctx->wl)
		die("dispman_wayland_create", errno);
	int ret = dispman_wayland_set_window_policy(ctx->wl, DISPMAN_WAYLAND_POLICY_FREE);
	if (ret < 0)
		die("dispman_wayland_set_window_policy", -ret);
	/* wlcs 1.5's windows commit a buffer before they ack the first configure
	 * (create_xdg_shell_stable_surface(), fixed in wlcs 1.8.1): take it as the ack, as Mir
	 * does, so that the tests behind it run */
	ret = dispman_wayland_set_lenient_configure(ctx->wl, true);
	if (ret < 0)
		die("dispman_wayland_set_lenient_configure", -ret);
	ret = dispman_wayland_set_seat_capabilities(ctx->wl, DISPMAN_INPUT_CAP_KEYBOARD |
		DISPMAN_INPUT_CAP_POINTER | DISPMAN_INPUT_CAP_TOUCH);
	if (ret < 0)
		die("dispman_wayland_set_seat_capabilities", -ret);
	ctx->loop = wl_display_get_event_loop(dispman_wayland_get_display(ctx->wl));
	ctx->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ctx->wake_fd < 0)
		die("eventfd", errno);
	ctx->wake_source = wl_event_loop_add_fd(ctx->loop, ctx->wake_fd, WL_EVENT_READABLE,
		on_wake, ctx);
	if (!ctx->wake_source)
		die("wl_event_loop_add_fd", errno);
	return &ctx->base;
}

EXPORT const WlcsServerIntegration wlcs_server_integration = {
	.version = 1,
	.create_server = create_server,
	.destroy_server = destroy_server,
};
