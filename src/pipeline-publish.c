/* SPDX-License-Identifier: MIT */
/*
 * Publishing a running program's pipeline (dispman_device_publish_pipeline()): a listening
 * unix socket on the device's event loop. Each client writes one line naming a format and
 * reads a fresh snapshot in it; the answer is made inside dispman_device_dispatch(), on the
 * device's thread, so the snapshot sees the device as its owner does.
 */
#include "pipeline-private.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "clock.h"
#include "event.h"
#include "log.h"

/* Each half of the exchange with one client (its line, then the answer) is bounded: it
 * runs inside the owner's dispatch, so a client that dribbles its line or reads slowly
 * must not hold the device's thread longer than this for each. */
#define PUBLISH_DEADLINE_MS 1000

struct pipeline_publish {
	struct dispman_device *dev;
	int fd;
	struct event_source *source;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

void pipeline_publish_free(struct pipeline_publish *pub)
{
	if (!pub)
		return;
	if (pub->source)
		event_source_remove(pub->source);
	if (pub->fd >= 0)
		close(pub->fd);
	unlink(pub->path);
	free(pub);
}

/* Reads the client's line (at most 15 bytes) before the monotonic time DEADLINE (ms). */
static int read_request(int fd, char *line, size_t n, int64_t deadline)
{
	size_t len = 0;
	while (len + 1 < n) {
		int64_t left = deadline - monotonic_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -ETIMEDOUT;
		ssize_t got = read(fd, line + len, 1);
		if (got <= 0)
			return got == 0 ? -ECONNRESET : -errno;
		if (line[len] == '\n')
			break;
		len++;
	}
	line[len] = 0;
	return 0;
}

static void answer(struct pipeline_publish *pub, int fd)
{
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0 ||
	    (cred.uid != geteuid() && cred.uid != 0)) {
		dispman_log(DISPMAN_LOG_WARNING, "pipeline: %s: a client of another user; "
			"not answered", pub->path);
		return;
	}
	int64_t deadline = monotonic_ms() + PUBLISH_DEADLINE_MS;
	char line[16];
	if (read_request(fd, line, sizeof(line), deadline) < 0) {
		dispman_log(DISPMAN_LOG_INFO, "pipeline: %s: a client sent no request line "
			"within %d ms", pub->path, PUBLISH_DEADLINE_MS);
		return;
	}
	enum dispman_describe_format format;
	if (strcmp(line, "text") == 0) {
		format = DISPMAN_DESCRIBE_TEXT;
	} else if (strcmp(line, "json") == 0) {
		format = DISPMAN_DESCRIBE_JSON;
	} else if (strcmp(line, "dot") == 0) {
		format = DISPMAN_DESCRIBE_DOT;
	} else {
		static const char msg[] = "error: unknown format (text, json or dot)\n";
		if (write(fd, msg, sizeof(msg) - 1) < 0)
			return;
		return;
	}
	char *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);
	if (!mem)
		return;
	struct dispman_pipeline *p = dispman_pipeline_create(pub->dev);
	if (p)
		dispman_pipeline_write(p, format, mem);
	else
		fprintf(mem, "error: %s\n", strerror(errno));
	dispman_pipeline_destroy(p);
	fclose(mem);
	deadline = monotonic_ms() + PUBLISH_DEADLINE_MS;
	for (size_t off = 0; off < size;) {
		int64_t left = deadline - monotonic_ms();
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		int r = left > 0 ? poll(&pfd, 1, (int)left) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		ssize_t w = r > 0 ? send(fd, buf + off, size - off, MSG_NOSIGNAL | MSG_DONTWAIT)
				  : -1;
		if (w < 0 && r > 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w <= 0) {
			dispman_log(DISPMAN_LOG_INFO, "pipeline: %s: the client did not read the "
				"answer within %d ms", pub->path, PUBLISH_DEADLINE_MS);
			break;
		}
		off += (size_t)w;
	}
	free(buf);
}

static int on_client(int fd, uint32_t events, void *data)
{
	struct pipeline_publish *pub = data;
	(void)events;
	int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (c < 0)
		return 0; /* EAGAIN: another reader took it */
	answer(pub, c);
	close(c);
	return 1;
}

/* $XDG_RUNTIME_DIR/dispman-PID-CARD.sock, or in /tmp. */
static int socket_path(struct dispman_device *dev, char *out, size_t n)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	if (!dir || !*dir)
		dir = "/tmp";
	const char *node = dispman_device_get_path(dev);
	const char *card = node && strrchr(node, '/') ? strrchr(node, '/') + 1 : "card";
	int r = snprintf(out, n, "%s/dispman-%ld-%s.sock", dir, (long)getpid(), card);
	return r < 0 || (size_t)r >= n ? -ENAMETOOLONG : 0;
}

int dispman_device_publish_pipeline(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	struct pipeline_state *st = pipeline_state_get(dev);
	if (!st)
		return -ENOMEM;
	struct pipeline_publish **slot = pipeline_state_publish(st);
	if (*slot)
		return 0;
	struct pipeline_publish *pub = calloc(1, sizeof(*pub));
	if (!pub) {
		dispman_log(DISPMAN_LOG_ERROR, "pipeline: out of memory");
		return -ENOMEM;
	}
	pub->dev = dev;
	int r = socket_path(dev, pub->path, sizeof(pub->path));
	if (r < 0) {
		dispman_log(DISPMAN_LOG_ERROR, "pipeline: the socket path is too long for a unix "
			"socket ($XDG_RUNTIME_DIR)");
		free(pub);
		return r;
	}
	pub->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (pub->fd < 0) {
		r = -errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, -r, "pipeline: socket");
		free(pub);
		return r;
	}
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	memcpy(addr.sun_path, pub->path, strlen(pub->path) + 1);
	unlink(pub->path); /* a stale one of an earlier process of this PID */
	mode_t old = umask(0177);
	r = bind(pub->fd, (struct sockaddr *)&addr, sizeof(addr));
	umask(old);
	if (r < 0 || listen(pub->fd, 4) < 0) {
		r = -errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, -r, "pipeline: cannot listen on %s",
			pub->path);
		close(pub->fd);
		if (r != -EADDRINUSE)
			unlink(pub->path);
		free(pub);
		return r;
	}
	pub->source = event_source_add(dev, pub->fd, EPOLLIN, on_client, pub);
	if (!pub->source) {
		r = errno ? -errno : -ENOMEM;
		pipeline_publish_free(pub);
		return r;
	}
	*slot = pub;
	dispman_log(DISPMAN_LOG_INFO, "pipeline: published on %s", pub->path);
	return 0;
}

int dispman_device_unpublish_pipeline(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return -EINVAL;
	struct pipeline_state *st = device_pipeline_state(dev);
	if (!st)
		return 0;
	struct pipeline_publish **slot = pipeline_state_publish(st);
	pipeline_publish_free(*slot);
	*slot = NULL;
	return 0;
}

const char *dispman_device_get_pipeline_socket(struct dispman_device *dev)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	struct pipeline_state *st = device_pipeline_state(dev);
	struct pipeline_publish *pub = st ? *pipeline_state_publish(st) : NULL;
	return pub ? pub->path : NULL;
}
