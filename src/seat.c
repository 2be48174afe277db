/* SPDX-License-Identifier: MIT */
/* Seat integration through libseat: see seat.h. */
#include "config.h"

#include "seat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "event.h"
#include "log.h"

#if HAVE_LIBSEAT
#include <libseat.h>
#endif

#define MAX_SEAT_NODES 64

struct seat {
#if HAVE_LIBSEAT
	struct libseat *ls;
#endif
	bool enabled;
	struct { int fd, id; } nodes[MAX_SEAT_NODES];
	size_t n_nodes;
	struct dispman_device *dev;  /* seat_attach()'s, which changed() is told about */
	seat_changed_func changed;
	struct event_source *source;
};

static int open_direct(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

bool seat_is_enabled(const struct seat *s)
{
	return !s || s->enabled;
}

#if HAVE_LIBSEAT

static void seat_log(enum libseat_log_level level, const char *fmt, va_list args)
	DISPMAN_PRINTF(2, 0);
static void seat_log(enum libseat_log_level level, const char *fmt, va_list args)
{
	char msg[512];
	vsnprintf(msg, sizeof(msg), fmt, args);
	log_print(level == LIBSEAT_LOG_LEVEL_ERROR ? DISPMAN_LOG_WARNING : DISPMAN_LOG_DEBUG,
		"libseat: %s", msg);
}

static void handle_enable(struct libseat *ls, void *data)
{
	struct seat *s = data;
	s->enabled = true;
	if (!s->changed)
		return;
	dispman_log(DISPMAN_LOG_INFO, "seat %s enabled: restoring the state with one modeset",
		libseat_seat_name(ls));
	s->changed(s->dev, true);
}

static void handle_disable(struct libseat *ls, void *data)
{
	struct seat *s = data;
	s->enabled = false;
	if (s->changed) {
		dispman_log(DISPMAN_LOG_INFO, "seat %s disabled: commits are paused until it "
			"comes back", libseat_seat_name(ls));
		s->changed(s->dev, false);
	}
	if (libseat_disable_seat(ls) < 0)
		dispman_log_errno(DISPMAN_LOG_ERROR, errno, "libseat_disable_seat failed");
}

static const struct libseat_seat_listener listener = {
	.enable_seat = handle_enable,
	.disable_seat = handle_disable,
};

struct seat *seat_open(void)
{
	const char *env = getenv("DISPMAN_SEAT");
	bool want = env && *env ? strcmp(env, "0") != 0 : geteuid() != 0;
	if (!want)
		return NULL;
	struct seat *s = calloc(1, sizeof(*s));
	if (!s) {
		dispman_log(DISPMAN_LOG_ERROR, "out of memory opening the seat");
		return NULL;
	}
	libseat_set_log_handler(seat_log);
	libseat_set_log_level(LIBSEAT_LOG_LEVEL_INFO);
	s->ls = libseat_open_seat(&listener, s);
	if (!s->ls) {
		dispman_log_errno(geteuid() == 0 ? DISPMAN_LOG_INFO : DISPMAN_LOG_ERROR, errno,
			"cannot open a seat through libseat (is seatd or logind running, and may "
			"this user use it?)%s", geteuid() == 0 ? ": opening devices directly" : "");
		free(s);
		return NULL;
	}
	int64_t deadline = monotonic_ms() + 5000;
	while (!s->enabled && monotonic_ms() < deadline)
		if (libseat_dispatch(s->ls, 100) < 0)
			break;
	if (!s->enabled) {
		dispman_log(DISPMAN_LOG_ERROR, "seat %s was not enabled within 5 s",
			libseat_seat_name(s->ls));
		libseat_close_seat(s->ls);
		free(s);
		return NULL;
	}
	dispman_log(DISPMAN_LOG_INFO, "using seat %s through libseat", libseat_seat_name(s->ls));
	return s;
}

int seat_open_node(struct seat *s, const char *path)
{
	if (!s)
		return open_direct(path);
	if (s->n_nodes >= MAX_SEAT_NODES) {
		dispman_log(DISPMAN_LOG_ERROR, "seat: too many open devices for %s", path);
		return -EMFILE;
	}
	int fd = -1;
	int id = libseat_open_device(s->ls, path, &fd);
	if (id < 0) {
		int err = errno ? errno : EACCES;
		dispman_log_errno(DISPMAN_LOG_DEBUG, err, "seat: cannot open %s", path);
		return -err;
	}
	s->nodes[s->n_nodes].fd = fd;
	s->nodes[s->n_nodes].id = id;
	s->n_nodes++;
	dispman_log(DISPMAN_LOG_DEBUG, "seat: opened %s (seat device %d)", path, id);
	return fd;
}

void seat_close_node(struct seat *s, int fd)
{
	for (size_t i = 0; s && i < s->n_nodes; i++) {
		if (s->nodes[i].fd != fd)
			continue;
		libseat_close_device(s->ls, s->nodes[i].id);
		s->nodes[i] = s->nodes[--s->n_nodes];
		break;
	}
	if (fd >= 0)
		close(fd);
}

void seat_rekey(struct seat *s, int old_fd, int new_fd)
{
	for (size_t i = 0; s && i < s->n_nodes; i++)
		if (s->nodes[i].fd == old_fd)
			s->nodes[i].fd = new_fd;
}

void seat_destroy(struct seat *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_nodes; i++)
		libseat_close_device(s->ls, s->nodes[i].id);
	libseat_close_seat(s->ls);
	free(s);
}

static int handle_seat_fd(int fd, uint32_t events, void *data)
{
	struct seat *s = data;
	if (libseat_dispatch(s->ls, 0) < 0) {
		dispman_log_errno(DISPMAN_LOG_ERROR, errno, "libseat_dispatch failed");
		return -EIO;
	}
	return 1;
}

int seat_attach(struct seat *s, struct dispman_device *dev, seat_changed_func changed)
{
	s->dev = dev;
	s->changed = changed;
	s->source = event_source_add(dev, libseat_get_fd(s->ls), EPOLLIN, handle_seat_fd, s);
	if (!s->source)
		return -ENOMEM;
	return 0;
}

int seat_switch_session(struct seat *s, int n)
{
	if (libseat_switch_session(s->ls, n) < 0) {
		int err = errno ? errno : EIO;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "seat %s: cannot switch to VT %d",
			libseat_seat_name(s->ls), n);
		return -err;
	}
	dispman_log(DISPMAN_LOG_INFO, "seat %s: switching to VT %d", libseat_seat_name(s->ls), n);
	return 0;
}

#else /* !HAVE_LIBSEAT */

struct seat *seat_open(void)
{
	const char *env = getenv("DISPMAN_SEAT");
	if (env && strcmp(env, "1") == 0)
		dispman_log(DISPMAN_LOG_WARNING, "DISPMAN_SEAT=1, but libdispman was built "
			"without libseat: opening devices directly");
	return NULL;
}

int seat_open_node(struct seat *s, const char *path)
{
	(void)s;
	return open_direct(path);
}

void seat_close_node(struct seat *s, int fd)
{
	(void)s;
	if (fd >= 0)
		close(fd);
}

void seat_rekey(struct seat *s, int old_fd, int new_fd)
{
	(void)s, (void)old_fd, (void)new_fd;
}

void seat_destroy(struct seat *s)
{
	(void)s;
}

int seat_attach(struct seat *s, struct dispman_device *dev, seat_changed_func changed)
{
	(void)s, (void)dev, (void)changed;
	return -ENOTSUP;
}

int seat_switch_session(struct seat *s, int n)
{
	(void)s, (void)n;
	dispman_log(DISPMAN_LOG_ERROR, "cannot switch VTs: libdispman was built without libseat");
	return -ENOTSUP;
}

#endif

void seat_detach(struct seat *s)
{
	if (!s)
		return;
	if (s->source)
		event_source_remove(s->source);
	s->source = NULL;
	s->dev = NULL;
	s->changed = NULL;
	seat_destroy(s);
}
