/* SPDX-License-Identifier: MIT */
/*
 * Who sees the virtual keyboard and pointer globals. They exist while virtual input is
 * allowed for every client or while a virtual input socket exists; a global filter shows
 * them to every client in the first case, else only to the clients that connected through
 * one of those sockets. A socket is listened on and accepted here (libwayland's own
 * sockets do not tell which one a client came from), with a NAME.lock beside it as
 * libwayland keeps, so that two compositors do not take the same name and a stale socket
 * is replaced.
 */
#include "virtual-input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "seat.h"
#include "virtual-keyboard.h"
#include "virtual-pointer.h"

#include "virtual-keyboard-unstable-v1-server-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-server-protocol.h"

struct vinput_socket {
	struct wl_list link;
	int fd, lock_fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char lock_path[sizeof(((struct sockaddr_un *)0)->sun_path) + 5];
	struct wl_event_source *source;
};

struct vinput_client {
	struct wl_list link;
	struct wl_client *client;
	struct wl_listener destroy;
};

struct vinput {
	struct server *srv;
	bool all;                       /* every client may */
	struct wl_global *keyboards;    /* zwp_virtual_keyboard_manager_v1, NULL: none */
	struct wl_global *pointers;     /* zwlr_virtual_pointer_manager_v1, NULL: none */
	struct wl_list sockets;         /* vinput_socket.link */
	struct wl_list clients;         /* vinput_client.link: of those sockets */
};

static bool trusted(struct vinput *vi, const struct wl_client *c)
{
	struct vinput_client *tc;
	wl_list_for_each(tc, &vi->clients, link)
		if (tc->client == c)
			return true;
	return false;
}

static bool filter(const struct wl_client *c, const struct wl_global *g, void *data)
{
	struct vinput *vi = data;
	const struct wl_interface *i = wl_global_get_interface(g);
	if (i != &zwp_virtual_keyboard_manager_v1_interface &&
	    i != &zwlr_virtual_pointer_manager_v1_interface)
		return true;
	return vi->all || trusted(vi, c);
}

static void destroy_globals(struct vinput *vi)
{
	if (vi->keyboards)
		wl_global_destroy(vi->keyboards);
	if (vi->pointers)
		wl_global_destroy(vi->pointers);
	vi->keyboards = vi->pointers = NULL;
}

/* The globals exist while anyone may use them (keyboards and pointers made before they
 * go keep working); the seat has a keyboard and a pointer then. 0 or -ENOMEM. */
static int update_globals(struct vinput *vi)
{
	struct server *srv = vi->srv;
	bool on = vi->all || !wl_list_empty(&vi->sockets);
	if (on && !vi->keyboards)
		vi->keyboards = wl_global_create(srv->display,
			&zwp_virtual_keyboard_manager_v1_interface, 1, srv->vkbd,
			virtual_keyboard_bind);
	if (on && !vi->pointers)
		vi->pointers = wl_global_create(srv->display,
			&zwlr_virtual_pointer_manager_v1_interface, 2, srv->vptr,
			virtual_pointer_bind);
	int ret = 0;
	if (!on || !vi->keyboards || !vi->pointers) {
		ret = on ? -ENOMEM : 0;
		destroy_globals(vi);
		on = false;
	}
	seat_set_virtual_caps(srv, on ? WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_POINTER : 0);
	return ret;
}

int virtual_input_allow(struct server *srv, bool allow)
{
	struct vinput *vi = srv->vinput;
	vi->all = allow;
	return update_globals(vi);
}

static void client_gone(struct wl_listener *l, void *data)
{
	struct vinput_client *tc = wl_container_of(l, tc, destroy);
	wl_list_remove(&tc->link);
	wl_list_remove(&tc->destroy.link);
	free(tc);
}

static int on_accept(int fd, uint32_t mask, void *data)
{
	struct vinput *vi = data;
	int cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (cfd < 0) {
		wlog(DISPMAN_LOG_WARNING, "virtual input socket: accept: %s", strerror(errno));
		return 0;
	}
	struct vinput_client *tc = calloc(1, sizeof(*tc));
	struct wl_client *c = tc ? wl_client_create(vi->srv->display, cfd) : NULL;
	if (!c) {
		wlog(DISPMAN_LOG_WARNING, "virtual input socket: no memory for a client");
		free(tc);
		close(cfd);
		return 0;
	}
	tc->client = c;
	tc->destroy.notify = client_gone;
	wl_client_add_destroy_listener(c, &tc->destroy);
	wl_list_insert(&vi->clients, &tc->link);
	wlog(DISPMAN_LOG_INFO, "a client connected to a virtual input socket");
	return 0;
}

static void socket_free(struct vinput_socket *s)
{
	if (s->source)
		wl_event_source_remove(s->source);
	if (s->fd >= 0) {
		close(s->fd);
		unlink(s->path);
	}
	if (s->lock_fd >= 0) {
		unlink(s->lock_path);
		close(s->lock_fd);
	}
	free(s);
}

int virtual_input_add_socket(struct server *srv, const char *name)
{
	struct vinput *vi = srv->vinput;
	const char *dir = getenv("XDG_RUNTIME_DIR");
	if (!dir) {
		wlog(DISPMAN_LOG_ERROR, "virtual input socket: XDG_RUNTIME_DIR is not set");
		return -ENOENT;
	}
	struct vinput_socket *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = s->lock_fd = -1;
	int ret;
	if (strchr(name, '/') || !name[0] ||
	    snprintf(s->path, sizeof(s->path), "%s/%s", dir, name) >= (int)sizeof(s->path)) {
		wlog(DISPMAN_LOG_ERROR, "virtual input socket: the name \"%s\" is empty, has a "
			"slash or makes too long a path", name);
		ret = -EINVAL;
		goto fail;
	}
	snprintf(s->lock_path, sizeof(s->lock_path), "%s.lock", s->path);
	s->lock_fd = open(s->lock_path, O_CREAT | O_RDWR | O_CLOEXEC, 0640);
	if (s->lock_fd < 0 || flock(s->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		ret = errno == EWOULDBLOCK ? -EADDRINUSE : -errno;
		wlog(DISPMAN_LOG_ERROR, "virtual input socket: %s: %s", s->lock_path,
			ret == -EADDRINUSE ? "in use by another compositor" : strerror(-ret));
		if (ret == -EADDRINUSE) {
			close(s->lock_fd); /* the lock file is the other compositor's */
			s->lock_fd = -1;
		}
		goto fail;
	}
	unlink(s->path); /* a stale socket: the lock was free */
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	memcpy(addr.sun_path, s->path, strlen(s->path) + 1);
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd >= 0 && bind(s->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		close(s->fd); /* no socket file of ours to remove */
		s->fd = -1;
	}
	if (s->fd < 0 || listen(s->fd, 16) < 0) {
		ret = -errno;
		wlog(DISPMAN_LOG_ERROR, "virtual input socket: %s: %s", s->path, strerror(errno));
		goto fail;
	}
	s->source = wl_event_loop_add_fd(srv->loop, s->fd, WL_EVENT_READABLE, on_accept, vi);
	if (!s->source) {
		ret = -ENOMEM;
		goto fail;
	}
	wl_list_insert(&vi->sockets, &s->link);
	ret = update_globals(vi);
	if (ret < 0) {
		wl_list_remove(&s->link);
		goto fail;
	}
	return 0;
fail:
	socket_free(s);
	return ret;
}

int virtual_input_init(struct server *srv)
{
	struct vinput *vi = calloc(1, sizeof(*vi));
	if (!vi)
		return -ENOMEM;
	vi->srv = srv;
	wl_list_init(&vi->sockets);
	wl_list_init(&vi->clients);
	srv->vinput = vi;
	wl_display_set_global_filter(srv->display, filter, vi);
	return 0;
}

void virtual_input_finish(struct server *srv)
{
	struct vinput *vi = srv->vinput;
	if (!vi)
		return;
	wl_display_set_global_filter(srv->display, NULL, NULL);
	destroy_globals(vi);
	/* the clients are gone (dispman_wayland_destroy()), their entries with them */
	struct vinput_client *tc, *ttmp;
	wl_list_for_each_safe(tc, ttmp, &vi->clients, link)
		client_gone(&tc->destroy, NULL);
	struct vinput_socket *s, *tmp;
	wl_list_for_each_safe(s, tmp, &vi->sockets, link) {
		wl_list_remove(&s->link);
		socket_free(s);
	}
	free(vi);
	srv->vinput = NULL;
}
