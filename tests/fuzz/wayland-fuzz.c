/* SPDX-License-Identifier: MIT */
/*
 * A seeded client-side fuzzer for dispman-kiosk (issue 29). It speaks every global the
 * compositor offers from libwayland's own protocol tables (the wl_interface structs
 * wayland-scanner generates from the protocol XMLs: requests, their since-versions,
 * argument types and new_id interfaces), writing raw wire messages on the socket so that
 * it can send what libwayland-client would refuse to marshal.
 *
 *   wayland-fuzz [--seed N] [--seconds S] [--clients K] [--invalid PERMILLE]
 *                [--session-seed N] [--stats FILE] [-v]
 *   wayland-fuzz --good FILE    a well-behaved shm client that writes its frame count
 *
 * The fuzzer keeps K clients connected at once, each a forked child with its own seed
 * (seed + session number, printed with -v; --session-seed replays one session alone). A
 * session binds globals, sends requests picked at random (mostly valid: objects of the
 * right interface, fresh new_ids, sizes that fit; a few recipes that map a toplevel with
 * an shm or dma-buf buffer and frame callbacks) and, at the rate --invalid (per mille of
 * requests), an invalid one: unknown object, bad opcode, a request above the bound
 * version, wrong object type, null for a non-null argument, bad new_id, a string
 * without its NUL, a message shorter or longer than its arguments, a missing or extra
 * fd. File descriptors are of every kind at hand: memfd (sized or sealed), pipe ends,
 * /dev/null, a socket, an eventfd, an O_PATH directory, a dma-buf of a dumb buffer. A
 * session ends at its request budget, when the compositor cuts it off (protocol error),
 * or by SIGKILL at a random point, sometimes in the middle of a message.
 *
 * Exit 0 when the compositor stayed reachable to the end; the last line gives the totals
 * (also written to --stats FILE as "key value" lines).
 */
#include <drm.h>
#include <drm_mode.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "primary-selection-unstable-v1-client-protocol.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define MAX_IDS 4096          /* client object ids per session */
#define MAX_SERVER_IDS 1024   /* server-created ids (0xff000000 + i) we track */
#define MAX_GLOBALS 64
#define SERVER_ID_START 0xff000000u

static const struct wl_interface *const known[] = {
	&wl_compositor_interface, &wl_subcompositor_interface, &wl_shm_interface,
	&wl_seat_interface, &wl_output_interface, &wl_data_device_manager_interface,
	&xdg_wm_base_interface, &zwp_linux_dmabuf_v1_interface, &wp_viewporter_interface,
	&wp_presentation_interface, &zxdg_output_manager_v1_interface,
	&zxdg_decoration_manager_v1_interface, &zwp_primary_selection_device_manager_v1_interface,
	&wp_single_pixel_buffer_manager_v1_interface,
};

/* Counters shared by the children with the parent (MAP_SHARED). */
struct totals {
	uint64_t sessions, requests, invalid, recipes, fds_sent, killed, cut_off, finished,
		connect_failed, events, popups, dmabufs;
};
static struct totals *tot;

static int verbose;

/* splitmix64: small, seedable, the same sequence everywhere */
static uint64_t rng_state;
static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static uint32_t rnd(uint32_t n) { return n ? (uint32_t)(rnd64() % n) : 0; }
static bool chance(uint32_t permille) { return rnd(1000) < permille; }

struct global {
	uint32_t name, version;
	char iface[64];
};

struct obj {
	const struct wl_interface *iface; /* NULL: no object here */
	uint32_t version;
	bool dying;                       /* a destructor was sent: no more requests */
};

struct session {
	int fd;
	struct obj objs[MAX_IDS];
	struct obj sobjs[MAX_SERVER_IDS];
	uint32_t next_id;
	uint32_t free_ids[MAX_IDS];
	unsigned n_free;
	struct global globals[MAX_GLOBALS];
	unsigned n_globals;
	uint32_t last_serial;
	uint32_t invalid_permille;
	int dmabuf_fd;                    /* a dma-buf to dup, or -1 */
	uint8_t in[65536];
	size_t in_len;
	bool dead;
	uint64_t requests, kill_at;
};

static struct obj *lookup(struct session *s, uint32_t id)
{
	if (id > 0 && id < MAX_IDS)
		return &s->objs[id];
	if (id >= SERVER_ID_START && id - SERVER_ID_START < MAX_SERVER_IDS)
		return &s->sobjs[id - SERVER_ID_START];
	return NULL;
}

static uint32_t new_id(struct session *s)
{
	if (s->n_free)
		return s->free_ids[--s->n_free];
	if (s->next_id >= MAX_IDS)
		return 0;
	return s->next_id++;
}

/* ---- file descriptors of every kind ---- */

static int make_memfd(size_t size, bool seal)
{
	int fd = memfd_create("wayland-fuzz", MFD_CLOEXEC | (seal ? MFD_ALLOW_SEALING : 0));
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	if (seal)
		fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	return fd;
}

/* A dma-buf: a 64x64 XRGB8888 dumb buffer exported from the first DRM card (-1 if none). */
static int make_dmabuf(void)
{
	char path[32];
	for (int i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		int card = open(path, O_RDWR | O_CLOEXEC);
		if (card < 0)
			continue;
		struct drm_mode_create_dumb c = { .width = 64, .height = 64, .bpp = 32 };
		struct drm_prime_handle p = { .flags = DRM_CLOEXEC | DRM_RDWR };
		int fd = -1;
		if (ioctl(card, DRM_IOCTL_MODE_CREATE_DUMB, &c) == 0) {
			p.handle = c.handle;
			if (ioctl(card, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) == 0)
				fd = p.fd;
		}
		close(card); /* the dma-buf keeps the buffer */
		if (fd >= 0)
			return fd;
	}
	return -1;
}

static const size_t pool_sizes[] = { 0, 1, 4096, 16384, 65536, 64 * 64 * 4, 1 << 20, 4 << 20 };

static int random_fd(struct session *s)
{
	int p[2], fd = -1;
	switch (rnd(10)) {
	case 0: case 1: case 2:
		return make_memfd(pool_sizes[rnd(sizeof(pool_sizes) / sizeof(pool_sizes[0]))], false);
	case 3:
		return make_memfd(65536, true);
	case 4:
	case 5:
		if (pipe2(p, O_CLOEXEC) < 0)
			return -1;
		fd = p[rnd(2)];
		close(p[fd == p[0] ? 1 : 0]);
		return fd;
	case 6:
		return open("/dev/null", O_RDWR | O_CLOEXEC);
	case 7:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0)
			return -1;
		close(p[1]);
		return p[0];
	case 8:
		return rnd(2) ? eventfd(0, EFD_CLOEXEC) : open("/", O_PATH | O_CLOEXEC);
	default:
		if (s->dmabuf_fd >= 0)
			return fcntl(s->dmabuf_fd, F_DUPFD_CLOEXEC, 3);
		return make_memfd(64 * 64 * 4, false);
	}
}

/* ---- the wire ---- */

struct msg {
	uint32_t w[1024];   /* 4096 bytes: libwayland's largest message */
	size_t n;           /* words */
	int fds[8];
	unsigned nfds;
};

static void put(struct msg *m, uint32_t v)
{
	if (m->n < 1024)
		m->w[m->n++] = v;
}

static void put_string(struct msg *m, const char *str, bool nul)
{
	if (!str) {
		put(m, 0);
		return;
	}
	size_t len = strlen(str) + (nul ? 1 : 0);
	put(m, (uint32_t)len);
	size_t words = (len + 3) / 4;
	if (m->n + words > 1024)
		return;
	memset(&m->w[m->n], 0, words * 4);
	memcpy(&m->w[m->n], str, len);
	m->n += words;
}

static void put_fd(struct msg *m, int fd)
{
	if (fd >= 0 && m->nfds < 8)
		m->fds[m->nfds++] = fd;
}

/* Send one message; `cut` bytes of it only (then the caller dies), 0: all of it. */
static void send_msg(struct session *s, struct msg *m, uint32_t sender, uint32_t opcode,
	int size_delta, size_t cut)
{
	m->w[0] = sender;
	long size = (long)(m->n * 4) + size_delta;
	if (size < 8)
		size = 8;
	if (size > 4096)
		size = 4096;
	m->w[1] = ((uint32_t)size << 16) | (opcode & 0xffff);
	size_t len = m->n * 4;
	if (cut && cut < len)
		len = cut;
	char cbuf[CMSG_SPACE(sizeof(int) * 8)];
	struct iovec iov = { .iov_base = m->w, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (m->nfds) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * m->nfds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * m->nfds);
		memcpy(CMSG_DATA(c), m->fds, sizeof(int) * m->nfds);
	}
	while (!s->dead) {
		ssize_t r = sendmsg(s->fd, &mh, MSG_NOSIGNAL);
		if (r >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN) {
			/* the compositor reads slowly: wait, bounded, then give up on it */
			struct pollfd p = { .fd = s->fd, .events = POLLOUT };
			if (poll(&p, 1, 10000) <= 0) {
				fprintf(stderr, "wayland-fuzz: the compositor read nothing for 10 s\n");
				exit(3);
			}
			continue;
		}
		s->dead = true;
	}
	__atomic_add_fetch(&tot->fds_sent, m->nfds, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < m->nfds; i++)
		close(m->fds[i]);
	m->nfds = 0;
	s->requests++;
	__atomic_add_fetch(&tot->requests, 1, __ATOMIC_RELAXED);
}

/* ---- events ---- */

static void handle_event(struct session *s, const uint32_t *w, size_t size)
{
	uint32_t sender = w[0], opcode = w[1] & 0xffff;
	__atomic_add_fetch(&tot->events, 1, __ATOMIC_RELAXED);
	const uint32_t *p = w + 2, *end = w + size / 4;
	if (sender == 1 && opcode == 0) { /* wl_display.error */
		if (verbose >= 1 && end - p >= 3) {
			const char *text = (const char *)(p + 3);
			fprintf(stderr, "  cut off: object %u code %u: %.*s\n", p[0], p[1],
				(int)((end - p - 3) * 4), text);
		}
		s->dead = true;
		return;
	}
	if (sender == 1 && opcode == 1 && p < end) { /* wl_display.delete_id */
		struct obj *o = lookup(s, p[0]);
		if (o && p[0] < MAX_IDS) {
			o->iface = NULL;
			o->dying = false;
			if (s->n_free < MAX_IDS)
				s->free_ids[s->n_free++] = p[0];
		}
		return;
	}
	struct obj *o = lookup(s, sender);
	if (!o || !o->iface || (int)opcode >= o->iface->event_count)
		return;
	const struct wl_message *ev = &o->iface->events[opcode];
	if (o->iface == &wl_registry_interface && opcode == 0 && end - p >= 3) {
		if (s->n_globals < MAX_GLOBALS) {
			uint32_t len = p[1];
			if (len > 0 && len < 64 && (size_t)(end - p) >= 2 + (len + 3) / 4 + 1) {
				struct global *g = &s->globals[s->n_globals++];
				g->name = p[0];
				memcpy(g->iface, p + 2, len);
				g->iface[len - 1] = '\0';
				g->version = p[2 + (len + 3) / 4];
			}
		}
		return;
	}
	/* serials to echo back, pings to answer (most of the time) */
	if ((strcmp(ev->name, "configure") == 0 && o->iface == &xdg_surface_interface) ||
	    strcmp(ev->name, "enter") == 0 || strcmp(ev->name, "ping") == 0) {
		if (p < end)
			s->last_serial = p[0];
		if (strcmp(ev->name, "ping") == 0 && chance(900)) {
			struct msg m = { .n = 2 };
			put(&m, p[0]);
			send_msg(s, &m, sender, 3 /* xdg_wm_base.pong */, 0, 0);
		}
	}
	/* new objects the compositor makes (data offers): known from the event's signature */
	unsigned arg = 0;
	for (const char *c = ev->signature; *c && p < end; c++) {
		if (*c == '?' || (*c >= '0' && *c <= '9'))
			continue;
		switch (*c) {
		case 's': case 'a': {
			uint32_t len = *p++;
			p += (len + 3) / 4;
			break;
		}
		case 'h':
			break;
		case 'n': {
			struct obj *n = lookup(s, *p);
			if (n && ev->types[arg]) {
				n->iface = ev->types[arg];
				n->version = o->version;
				n->dying = false;
			}
			p++;
			break;
		}
		default:
			p++;
		}
		arg++;
	}
}

/* Read what the compositor sent, waiting at most timeout_ms for the first byte. */
static void pump(struct session *s, int timeout_ms)
{
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
	while (!s->dead && poll(&pfd, 1, timeout_ms) > 0) {
		timeout_ms = 0;
		char cbuf[CMSG_SPACE(sizeof(int) * 28)];
		struct iovec iov = { .iov_base = s->in + s->in_len,
			.iov_len = sizeof(s->in) - s->in_len };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			.msg_controllen = sizeof(cbuf) };
		ssize_t r = recvmsg(s->fd, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0) {
			s->dead = true;
			break;
		}
		/* the fds the compositor sends (keymaps, format tables, offers) are not used */
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			int fds[28];
			memcpy(fds, CMSG_DATA(c), n * sizeof(int));
			for (size_t i = 0; i < n; i++)
				close(fds[i]);
		}
		s->in_len += (size_t)r;
		size_t off = 0;
		while (s->in_len - off >= 8) {
			uint32_t hdr[2];
			memcpy(hdr, s->in + off, 8);
			size_t size = hdr[1] >> 16;
			if (size < 8 || size % 4) {
				s->dead = true; /* the compositor speaks garbage: not ours to fix */
				fprintf(stderr, "wayland-fuzz: malformed event of %zu bytes\n", size);
				exit(4);
			}
			if (s->in_len - off < size)
				break;
			uint32_t w[1024];
			memcpy(w, s->in + off, size);
			handle_event(s, w, size);
			off += size;
		}
		memmove(s->in, s->in + off, s->in_len - off);
		s->in_len -= off;
	}
}

/* ---- requests ---- */

static const int32_t ints[] = { 0, 1, -1, 2, 4, 16, 32, 64, 100, 256, 1000, 4096, 65536,
	-65536, INT32_MAX, INT32_MIN, 0x7fff, 1 << 20 };
static const char *const strings[] = { "", "text/plain", "text/plain;charset=utf-8",
	"UTF8_STRING", "wl_compositor", "xdg_wm_base", "app", "kiosk",
	"a very long title that goes on and on and on past any sensible width to be drawn",
	"\xff\xfe invalid utf-8 \xc0\x80" };

static int32_t rnd_int(void)
{
	/* mostly what a client would send (small sizes, positions), then the edges */
	if (chance(600))
		return (int32_t)rnd(257);
	return chance(700) ? ints[rnd(sizeof(ints) / sizeof(ints[0]))] : (int32_t)rnd64();
}

/* A live object of interface `want` (any, if NULL), or 0. */
static uint32_t pick_object(struct session *s, const struct wl_interface *want)
{
	uint32_t cand[64];
	unsigned n = 0;
	for (uint32_t id = 1; id < s->next_id && n < 64; id++) {
		const struct obj *o = &s->objs[id];
		if (o->iface && !o->dying && (!want || o->iface == want))
			cand[n++] = id;
	}
	for (uint32_t i = 0; i < MAX_SERVER_IDS && n < 64; i++) {
		const struct obj *o = &s->sobjs[i];
		if (o->iface && !o->dying && (!want || o->iface == want))
			cand[n++] = SERVER_ID_START + i;
	}
	/* prefer recent objects: the newest are where the session is going */
	if (!n)
		return 0;
	return chance(500) ? cand[n - 1 - rnd(n < 4 ? n : 4)] : cand[rnd(n)];
}

static const struct wl_interface *find_iface(const char *name)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(known[i]->name, name) == 0)
			return known[i];
	return NULL;
}

enum bad {
	BAD_NONE, BAD_OBJECT, BAD_OPCODE, BAD_VERSION, BAD_TYPE, BAD_NULL, BAD_NEW_ID,
	BAD_STRING, BAD_SHORT, BAD_LONG, BAD_NO_FD, BAD_EXTRA_FD, BAD_COUNT
};

/*
 * Send request `op` of object `id` with generated arguments; `fixed` gives the value of
 * each argument instead (ints, ids) when not NULL. Returns the first new_id it made, 0 if
 * none (or when the request was skipped for lack of an object argument).
 */
static uint32_t request(struct session *s, uint32_t id, uint32_t op, const int64_t *fixed,
	enum bad bad)
{
	struct obj *o = lookup(s, id);
	const struct wl_interface *iface = o ? o->iface : NULL;
	struct msg m = { .n = 2 };
	uint32_t made = 0, opcode = op;
	if (bad == BAD_OPCODE)
		opcode = (iface ? (uint32_t)iface->method_count : 0) + rnd(3);
	if (bad == BAD_OBJECT)
		id = chance(500) ? s->next_id + 1 + rnd(100) : SERVER_ID_START + rnd(4);
	if (!iface || (int)op >= iface->method_count) {
		put(&m, (uint32_t)rnd_int());
		send_msg(s, &m, id, opcode, 0, 0);
		return 0;
	}
	const struct wl_message *req = &iface->methods[op];
	unsigned arg = 0;
	bool nullable = false;
	int size_delta = 0;
	for (const char *c = req->signature; *c; c++) {
		if (*c >= '0' && *c <= '9')
			continue;
		if (*c == '?') {
			nullable = true;
			continue;
		}
		int64_t fx = fixed ? fixed[arg] : INT64_MIN;
		switch (*c) {
		case 'i': case 'u': case 'f':
			if (fx != INT64_MIN)
				put(&m, (uint32_t)fx);
			else if (*c == 'u' && chance(400))
				put(&m, chance(700) ? s->last_serial : rnd(8));
			else
				put(&m, (uint32_t)rnd_int());
			break;
		case 's':
			if (bad == BAD_STRING) {
				put_string(&m, "no terminating nul", false);
				bad = BAD_NONE;
			} else if (nullable && chance(200)) {
				put(&m, 0);
			} else {
				put_string(&m, strings[rnd(sizeof(strings) / sizeof(strings[0]))], true);
			}
			break;
		case 'o': {
			uint32_t target = fx != INT64_MIN ? (uint32_t)fx :
				pick_object(s, req->types[arg]);
			if (bad == BAD_TYPE) {
				target = pick_object(s, NULL);
				bad = BAD_NONE;
			} else if (bad == BAD_NULL && !nullable) {
				target = 0;
				bad = BAD_NONE;
			} else if (nullable && chance(150)) {
				target = 0;
			} else if (!target && !nullable) {
				/* nothing to point at: skip, and give back the id made */
				if (made) {
					s->objs[made].iface = NULL;
					s->free_ids[s->n_free++] = made;
				}
				return 0;
			}
			put(&m, target);
			break;
		}
		case 'n': {
			const struct wl_interface *ni = req->types[arg];
			uint32_t version = o->version;
			if (!ni) { /* wl_registry.bind: name, interface, version, id */
				if (!s->n_globals)
					return 0;
				struct global *g = &s->globals[rnd(s->n_globals)];
				ni = find_iface(g->iface);
				version = 1 + rnd(g->version);
				if (chance(20))
					version = chance(500) ? 0 : g->version + 1;
				m.n = 2;
				put(&m, g->name);
				put_string(&m, g->iface, true);
				put(&m, version);
			}
			uint32_t nid = new_id(s);
			if (bad == BAD_NEW_ID) {
				nid = chance(500) ? s->next_id + 1 + rnd(10) : (id ? id : 1);
				bad = BAD_NONE;
			} else if (!nid) {
				return 0; /* out of ids: the session ends by itself */
			} else {
				s->objs[nid].iface = ni ? ni : &wl_callback_interface;
				s->objs[nid].version = version;
				s->objs[nid].dying = false;
				if (!ni) /* an unknown global: keep its id, send it nothing */
					s->objs[nid].dying = true;
			}
			if (!made)
				made = nid;
			put(&m, nid);
			break;
		}
		case 'a': {
			uint32_t len = rnd(64);
			char buf[64];
			for (uint32_t i = 0; i < len; i++)
				buf[i] = (char)rnd(256);
			put(&m, len);
			for (uint32_t i = 0; i < (len + 3) / 4; i++) {
				uint32_t wv = 0;
				memcpy(&wv, buf + i * 4, len - i * 4 < 4 ? len - i * 4 : 4);
				put(&m, wv);
			}
			break;
		}
		case 'h':
			if (bad == BAD_NO_FD) {
				bad = BAD_NONE;
				break;
			}
			put_fd(&m, fx != INT64_MIN ? (int)fx : random_fd(s));
			break;
		}
		nullable = false;
		arg++;
	}
	if (bad == BAD_EXTRA_FD) {
		for (unsigned i = 1 + rnd(3); i > 0; i--)
			put_fd(&m, random_fd(s));
	}
	if (bad == BAD_SHORT)
		size_delta = -4 * (int)(1 + rnd(3));
	if (bad == BAD_LONG) {
		for (unsigned i = 1 + rnd(4); i > 0; i--)
			put(&m, (uint32_t)rnd64());
		size_delta = chance(500) ? 0 : -4; /* extra words, counted or not */
	}
	/* SIGKILL in the middle of a message: the compositor gets half of it */
	size_t cut = s->requests == s->kill_at && chance(500) ? 4 + 4 * rnd((uint32_t)m.n) : 0;
	send_msg(s, &m, id, opcode, size_delta, cut);
	if (cut) {
		__atomic_add_fetch(&tot->killed, 1, __ATOMIC_RELAXED);
		raise(SIGKILL);
	}
	if (strcmp(req->name, "destroy") == 0 || strcmp(req->name, "release") == 0)
		o->dying = true;
	return made;
}

static uint32_t global_object(struct session *s, const struct wl_interface *iface)
{
	uint32_t id = pick_object(s, iface);
	if (id)
		return id;
	for (unsigned i = 0; i < s->n_globals; i++) {
		if (strcmp(s->globals[i].iface, iface->name) != 0)
			continue;
		id = new_id(s);
		if (!id)
			return 0;
		uint32_t v = s->globals[i].version;
		if ((uint32_t)iface->version < v)
			v = (uint32_t)iface->version;
		struct msg m = { .n = 2 };
		put(&m, s->globals[i].name);
		put_string(&m, iface->name, true);
		put(&m, v);
		put(&m, id);
		s->objs[id] = (struct obj){ .iface = iface, .version = v };
		send_msg(s, &m, 2, 0, 0, 0);
		return id;
	}
	return 0;
}

#define X INT64_MIN /* "generate this argument" */

/* Recipes: the valid sequences that reach deep states, from random parts. */
static void recipe(struct session *s)
{
	__atomic_add_fetch(&tot->recipes, 1, __ATOMIC_RELAXED);
	uint32_t comp = global_object(s, &wl_compositor_interface);
	switch (rnd(5)) {
	case 0: { /* an xdg toplevel (or popup) on a new surface */
		uint32_t wm = global_object(s, &xdg_wm_base_interface);
		if (!comp || !wm)
			return;
		uint32_t surf = request(s, comp, 0, NULL, BAD_NONE);
		int64_t a[] = { X, surf };
		uint32_t xs = request(s, wm, 2, a, BAD_NONE);
		if (!xs)
			return;
		if (chance(800)) {
			request(s, xs, 1, NULL, BAD_NONE); /* get_toplevel */
		} else {
			uint32_t pos = request(s, wm, 1, NULL, BAD_NONE);
			int64_t sz[] = { 1 + rnd(300), 1 + rnd(300) };
			request(s, pos, 1, sz, BAD_NONE); /* set_size */
			int64_t ar[] = { rnd(50), rnd(50), 1 + rnd(100), 1 + rnd(100) };
			request(s, pos, 2, ar, BAD_NONE); /* set_anchor_rect */
			int64_t pa[] = { X, pick_object(s, &xdg_surface_interface), pos };
			if (pa[1] != xs && request(s, xs, 2, pa, BAD_NONE)) /* get_popup */
				__atomic_add_fetch(&tot->popups, 1, __ATOMIC_RELAXED);
		}
		request(s, surf, 6, NULL, BAD_NONE); /* commit */
		pump(s, 50);
		int64_t ack[] = { s->last_serial };
		request(s, xs, 4, ack, BAD_NONE);
		break;
	}
	case 1: { /* an shm buffer attached with a frame callback */
		uint32_t shm = global_object(s, &wl_shm_interface);
		uint32_t surf = pick_object(s, &wl_surface_interface);
		if (!shm || !surf)
			return;
		int w = 1 + (int)rnd(128), h = 1 + (int)rnd(128);
		size_t size = (size_t)w * (size_t)h * 4;
		int64_t pa[] = { X, make_memfd(size, chance(200)), (int64_t)size };
		uint32_t pool = request(s, shm, 0, pa, BAD_NONE);
		int64_t ba[] = { X, 0, w, h, w * 4, chance(500) ? 0 : 1 };
		uint32_t buf = request(s, pool, 0, ba, BAD_NONE);
		if (chance(500))
			request(s, pool, 1, NULL, BAD_NONE); /* pool destroy: buffer stays */
		int64_t at[] = { buf, 0, 0 };
		request(s, surf, 1, at, BAD_NONE);
		int64_t dm[] = { 0, 0, w, h };
		request(s, surf, 2, dm, BAD_NONE);
		request(s, surf, 3, NULL, BAD_NONE); /* frame */
		request(s, surf, 6, NULL, BAD_NONE);
		break;
	}
	case 2: { /* a dma-buf buffer (create_immed) on a surface */
		uint32_t dmabuf = global_object(s, &zwp_linux_dmabuf_v1_interface);
		uint32_t surf = pick_object(s, &wl_surface_interface);
		if (!dmabuf || !surf || s->dmabuf_fd < 0)
			return;
		uint32_t params = request(s, dmabuf, 1, NULL, BAD_NONE);
		uint64_t mod = chance(800) ? 0 : 0x00ffffffffffffffull;
		int64_t ad[] = { fcntl(s->dmabuf_fd, F_DUPFD_CLOEXEC, 3), 0, 0, 256,
			(int64_t)(mod >> 32), (int64_t)(mod & 0xffffffff) };
		request(s, params, 1, ad, BAD_NONE);
		int64_t ci[] = { X, 64, 64, 0x34325258 /* XR24 */, 0 };
		uint32_t buf = request(s, params, 3, ci, BAD_NONE);
		if (buf)
			__atomic_add_fetch(&tot->dmabufs, 1, __ATOMIC_RELAXED);
		int64_t at[] = { buf, 0, 0 };
		request(s, surf, 1, at, BAD_NONE);
		request(s, surf, 3, NULL, BAD_NONE);
		request(s, surf, 6, NULL, BAD_NONE);
		break;
	}
	case 3: { /* a subsurface, a viewport, a presentation feedback */
		uint32_t sub = global_object(s, &wl_subcompositor_interface);
		uint32_t parent = pick_object(s, &wl_surface_interface);
		if (!comp || !sub || !parent)
			return;
		uint32_t surf = request(s, comp, 0, NULL, BAD_NONE);
		int64_t a[] = { X, surf, parent };
		request(s, sub, 1, a, BAD_NONE);
		uint32_t vp = global_object(s, &wp_viewporter_interface);
		int64_t v[] = { X, parent };
		if (vp)
			request(s, vp, 1, v, BAD_NONE);
		uint32_t pres = global_object(s, &wp_presentation_interface);
		int64_t f[] = { parent, X };
		if (pres)
			request(s, pres, 1, f, BAD_NONE);
		request(s, parent, 6, NULL, BAD_NONE);
		break;
	}
	default: { /* the clipboard: a data source offered as the selection */
		uint32_t ddm = global_object(s, &wl_data_device_manager_interface);
		uint32_t seat = global_object(s, &wl_seat_interface);
		if (!ddm || !seat)
			return;
		uint32_t src = request(s, ddm, 0, NULL, BAD_NONE);
		int64_t mime[] = { X };
		request(s, src, 0, mime, BAD_NONE);
		int64_t dd[] = { X, seat };
		uint32_t dev = request(s, ddm, 1, dd, BAD_NONE);
		int64_t sel[] = { src, s->last_serial };
		request(s, dev, 1, sel, BAD_NONE);
		break;
	}
	}
}

static void session(uint64_t seed, uint32_t invalid_permille, uint64_t budget)
{
	rng_state = seed;
	struct session *s = calloc(1, sizeof(*s));
	if (!s)
		exit(1);
	s->invalid_permille = invalid_permille;
	s->next_id = 2;
	s->objs[1] = (struct obj){ .iface = &wl_display_interface, .version = 1 };
	s->dmabuf_fd = make_dmabuf();

	const char *dir = getenv("XDG_RUNTIME_DIR"), *name = getenv("WAYLAND_DISPLAY");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (!name)
		name = "wayland-0";
	if (name[0] == '/')
		snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", name);
	else
		snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s", dir ? dir : "/tmp", name);
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		__atomic_add_fetch(&tot->connect_failed, 1, __ATOMIC_RELAXED);
		fprintf(stderr, "wayland-fuzz: connect %s: %s\n", addr.sun_path, strerror(errno));
		exit(3);
	}
	/* the registry (id 2) and a sync (id 3) to have the globals before the rest */
	struct msg m = { .n = 2 };
	uint32_t reg = new_id(s);
	s->objs[reg] = (struct obj){ .iface = &wl_registry_interface, .version = 1 };
	put(&m, reg);
	send_msg(s, &m, 1, 1, 0, 0);
	uint32_t cb = new_id(s);
	s->objs[cb] = (struct obj){ .iface = &wl_callback_interface, .version = 1 };
	m = (struct msg){ .n = 2 };
	put(&m, cb);
	send_msg(s, &m, 1, 0, 0, 0);
	for (int i = 0; i < 100 && !s->n_globals && !s->dead; i++)
		pump(s, 100);
	pump(s, 20);

	s->kill_at = chance(300) ? rnd((uint32_t)budget) : UINT64_MAX;
	while (!s->dead && s->requests < budget) {
		if (s->requests == s->kill_at && chance(500)) {
			__atomic_add_fetch(&tot->killed, 1, __ATOMIC_RELAXED);
			raise(SIGKILL);
		}
		if (chance(150)) {
			recipe(s);
		} else if (chance(80)) {
			/* a global, mostly at a valid version */
			request(s, reg, 0, NULL, BAD_NONE);
		} else {
			uint32_t id = pick_object(s, NULL);
			struct obj *o = lookup(s, id);
			if (!o || !o->iface || !o->iface->method_count)
				continue;
			uint32_t op = rnd((uint32_t)o->iface->method_count);
			enum bad bad = BAD_NONE;
			if (chance(s->invalid_permille)) {
				bad = (enum bad)(1 + rnd(BAD_COUNT - 1));
				__atomic_add_fetch(&tot->invalid, 1, __ATOMIC_RELAXED);
			}
			/* a request newer than the object's version is invalid */
			int since = atoi(o->iface->methods[op].signature);
			if (since > (int)o->version && bad == BAD_NONE) {
				if (chance(900))
					continue;
				__atomic_add_fetch(&tot->invalid, 1, __ATOMIC_RELAXED);
			}
			if (bad == BAD_VERSION) {
				/* pick a request above the version when there is one */
				for (int k = 0; k < o->iface->method_count; k++)
					if (atoi(o->iface->methods[k].signature) > (int)o->version)
						op = (uint32_t)k;
			}
			/* the display's own requests are left to the setup above */
			if (id == 1 && bad == BAD_NONE)
				continue;
			request(s, id, op, NULL, bad);
		}
		if (chance(100))
			pump(s, chance(100) ? 20 : 0);
	}
	if (s->dead)
		__atomic_add_fetch(&tot->cut_off, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&tot->finished, 1, __ATOMIC_RELAXED);
	/* sometimes linger to see the errors, sometimes just go */
	if (chance(300))
		pump(s, 100);
	exit(0);
}

/* ---- the well-behaved client ---- */

static struct wl_compositor *g_comp;
static struct wl_shm *g_shm;
static struct xdg_wm_base *g_wm;
static uint64_t g_frames;
static bool g_configured;

static void g_global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
	uint32_t version)
{
	if (strcmp(iface, "wl_compositor") == 0)
		g_comp = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(iface, "wl_shm") == 0)
		g_shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (strcmp(iface, "xdg_wm_base") == 0)
		g_wm = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
}
static void g_global_remove(void *data, struct wl_registry *r, uint32_t name) {}
static const struct wl_registry_listener g_reg_l = { g_global, g_global_remove };
static void g_ping(void *data, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}
static const struct xdg_wm_base_listener g_wm_l = { g_ping };
static void g_xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	xdg_surface_ack_configure(xs, serial);
	g_configured = true;
}
static const struct xdg_surface_listener g_xs_l = { g_xs_configure };
static void g_tl_configure(void *d, struct xdg_toplevel *t, int32_t w, int32_t h,
	struct wl_array *st) {}
static void g_tl_close(void *d, struct xdg_toplevel *t) {}
static const struct xdg_toplevel_listener g_tl_l = { g_tl_configure, g_tl_close };

static void g_draw(struct wl_surface *surf);
static void g_done(void *data, struct wl_callback *cb, uint32_t ms)
{
	wl_callback_destroy(cb);
	g_frames++;
	g_draw(data);
}
static const struct wl_callback_listener g_cb_l = { g_done };
static struct wl_buffer *g_buf;
static void g_draw(struct wl_surface *surf)
{
	struct wl_callback *cb = wl_surface_frame(surf);
	wl_callback_add_listener(cb, &g_cb_l, surf);
	wl_surface_attach(surf, g_buf, 0, 0);
	wl_surface_damage(surf, 0, 0, 64, 64);
	wl_surface_commit(surf);
}

static int good_client(const char *path)
{
	struct wl_display *d = wl_display_connect(NULL);
	if (!d) {
		fprintf(stderr, "wayland-fuzz --good: cannot connect: %s\n", strerror(errno));
		return 1;
	}
	struct wl_registry *r = wl_display_get_registry(d);
	wl_registry_add_listener(r, &g_reg_l, NULL);
	wl_display_roundtrip(d);
	if (!g_comp || !g_shm || !g_wm) {
		fprintf(stderr, "wayland-fuzz --good: a global is missing\n");
		return 1;
	}
	xdg_wm_base_add_listener(g_wm, &g_wm_l, NULL);
	int fd = make_memfd(64 * 64 * 4, false);
	uint32_t *px = mmap(NULL, 64 * 64 * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd < 0 || px == MAP_FAILED)
		return 1;
	for (int i = 0; i < 64 * 64; i++)
		px[i] = 0xff00ff00;
	struct wl_shm_pool *pool = wl_shm_create_pool(g_shm, fd, 64 * 64 * 4);
	g_buf = wl_shm_pool_create_buffer(pool, 0, 64, 64, 256, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	struct wl_surface *surf = wl_compositor_create_surface(g_comp);
	struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(g_wm, surf);
	xdg_surface_add_listener(xs, &g_xs_l, NULL);
	struct xdg_toplevel *tl = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(tl, &g_tl_l, NULL);
	xdg_toplevel_set_title(tl, "wayland-fuzz good client");
	wl_surface_commit(surf);
	while (!g_configured)
		if (wl_display_dispatch(d) < 0)
			return 1;
	g_draw(surf);
	uint64_t written = UINT64_MAX;
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	while (wl_display_dispatch(d) >= 0) {
		if (g_frames == written)
			continue;
		FILE *f = fopen(tmp, "w");
		if (f) {
			fprintf(f, "%" PRIu64 "\n", g_frames);
			fclose(f);
			rename(tmp, path);
		}
		written = g_frames;
	}
	fprintf(stderr, "wayland-fuzz --good: connection lost after %" PRIu64 " frames\n",
		g_frames);
	return 1;
}

/* ---- the parent: K sessions at a time for S seconds ---- */

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	double seconds = 30;
	unsigned clients = 2;
	uint32_t invalid = 20;
	int64_t one = -1;
	const char *stats = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--good") == 0 && v)
			return good_client(v);
		else if (strcmp(a, "--seed") == 0 && v)
			seed = strtoull(v, NULL, 0), i++;
		else if (strcmp(a, "--seconds") == 0 && v)
			seconds = atof(v), i++;
		else if (strcmp(a, "--clients") == 0 && v)
			clients = (unsigned)atoi(v), i++;
		else if (strcmp(a, "--invalid") == 0 && v)
			invalid = (uint32_t)atoi(v), i++;
		else if (strcmp(a, "--session-seed") == 0 && v)
			one = (int64_t)strtoull(v, NULL, 0), i++;
		else if (strcmp(a, "--stats") == 0 && v)
			stats = v, i++;
		else if (strcmp(a, "-v") == 0)
			verbose++;
		else {
			fprintf(stderr, "usage: wayland-fuzz [--seed N] [--seconds S] [--clients K] "
				"[--invalid PERMILLE] [--session-seed N] [--stats FILE] [-v] | "
				"--good FILE\n");
			return 2;
		}
	}
	if (clients < 1 || clients > 16)
		clients = 2;
	tot = mmap(NULL, sizeof(*tot), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tot == MAP_FAILED)
		return 1;
	signal(SIGPIPE, SIG_IGN);
	printf("wayland-fuzz: seed %" PRIu64 " (--seed %" PRIu64 " replays it), %u clients, "
		"%.0f s, %u/1000 invalid\n", seed, seed, clients, seconds, invalid);
	fflush(stdout);
	double t0 = now();
	uint64_t n = 0;
	unsigned running = 0;
	int rc = 0;
	while (one < 0 ? now() - t0 < seconds || running : n == 0 || running) {
		while (running < clients && (one < 0 ? now() - t0 < seconds : n == 0)) {
			uint64_t sseed = one >= 0 ? (uint64_t)one : seed + n;
			rng_state = sseed ^ 0x5bd1e995u;
			uint64_t budget = 1 + rnd(chance(100) ? 5000 : 600);
			pid_t pid = fork();
			if (pid == 0)
				session(sseed, invalid, budget);
			if (pid < 0)
				break;
			if (verbose)
				fprintf(stderr, "session %" PRIu64 ": --session-seed %" PRIu64
					", %" PRIu64 " requests at most\n", n, sseed, budget);
			tot->sessions++;
			n++;
			running++;
		}
		int status;
		pid_t pid = wait(&status);
		if (pid < 0)
			break;
		running--;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
			fprintf(stderr, "wayland-fuzz: the compositor is unreachable\n");
			rc = 1;
			seconds = 0;
		} else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
			fprintf(stderr, "wayland-fuzz: a session died of signal %d\n",
				WTERMSIG(status));
			rc = 1;
		}
	}
	char line[512];
	snprintf(line, sizeof(line),
		"sessions %" PRIu64 "\nrequests %" PRIu64 "\ninvalid %" PRIu64 "\nrecipes %" PRIu64
		"\nfds_sent %" PRIu64 "\nkilled %" PRIu64 "\ncut_off %" PRIu64 "\nfinished %" PRIu64
		"\nevents %" PRIu64 "\nseconds %.0f\npopups %" PRIu64 "\ndmabufs %" PRIu64 "\n",
		tot->sessions, tot->requests, tot->invalid, tot->recipes, tot->fds_sent, tot->killed,
		tot->cut_off, tot->finished, tot->events, now() - t0, tot->popups, tot->dmabufs);
	if (stats) {
		FILE *f = fopen(stats, "w");
		if (f) {
			fputs(line, f);
			fclose(f);
		}
	}
	printf("wayland-fuzz: seed %" PRIu64 ": %" PRIu64 " sessions, %" PRIu64 " requests (%"
		PRIu64 " invalid, %" PRIu64 " recipes), %" PRIu64 " fds, %" PRIu64
		" killed themselves, %" PRIu64 " cut off by the compositor, %" PRIu64
		" finished, %.0f s\n", seed, tot->sessions, tot->requests, tot->invalid, tot->recipes,
		tot->fds_sent, tot->killed, tot->cut_off, tot->finished, now() - t0);
	return rc;
}
