/* SPDX-License-Identifier: MIT */
/*
 * Zero-copy wl_shm. A client's pool is usually a memfd; sealed against shrinking
 * (F_SEAL_SHRINK), its pages can become a dma-buf through /dev/udmabuf, and that dma-buf a
 * framebuffer: the client's memory is then scanned out as it is, with no copy. The
 * wl_buffer is then held like a dma-buf's: until the flip that takes it off screen.
 *
 * libwayland's wl_shm closes the pool's fd once it has mapped it, so the fd is taken
 * where libwayland shows it: a protocol logger sees wl_shm.create_pool (with its fd)
 * before the request runs and keeps a duplicate; the client's resource-created signal
 * then attaches it to the new wl_shm_pool resource. Each wl_shm_pool.create_buffer is
 * seen the same way, and its wl_buffer resource gets the pool's file and its offset.
 * Requests are dispatched one at a time, so one pending record is enough.
 *
 * The compositor adds F_SEAL_SHRINK to a memfd that allows sealing: wl_shm_pool.resize
 * may only grow a pool, so a well-behaved client never shrinks it, and the seal makes a
 * misbehaving one fail at ftruncate instead of taking pages from under the display.
 * udmabuf takes whole pages inside the file only; a file that ends inside a buffer's last
 * page is padded with zeros to the page's end (unless sealed against growing).
 */
#include "udmabuf.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/udmabuf.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

/* The pool's file, shared by the pool and its buffers' records. */
struct shm_file {
	int fd;
	unsigned refs;
	bool logged;                    /* its first decision was logged at info */
};

struct pool_rec {
	struct wl_listener destroy;
	struct shm_file *file;
};

struct buffer_rec {
	struct wl_listener destroy;
	struct shm_file *file;
	int64_t offset;
};

enum pending_kind { PENDING_NONE, PENDING_POOL, PENDING_BUFFER };

struct udmabuf {
	struct server *srv;
	int fd;                         /* /dev/udmabuf, or -1 */
	int open_errno;
	bool enabled;
	bool logged_absent;
	struct wl_protocol_logger *logger;
	struct wl_listener client_created;
	struct wl_list watches;         /* client_watch.link */
	struct {
		enum pending_kind kind;
		struct wl_client *client;
		uint32_t id;
		struct shm_file *file;  /* a reference */
		int64_t offset;
	} pending;
};

struct client_watch {
	struct udmabuf *u;
	struct wl_client *client;
	struct wl_listener resource_created;
	struct wl_listener destroy;
	struct wl_list link;
};

/* ---- the decision ---- */

static uint32_t format_bpp(uint32_t fourcc)
{
	switch (fourcc) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
		return 4;
	case DRM_FORMAT_RGB565:
		return 2;
	default:
		return 0;
	}
}

enum shm_import_verdict shm_import_check(const struct shm_import_facts *f,
	struct shm_import_range *r)
{
	if (!f->enabled)
		return SHM_IMPORT_DISABLED;
	if (!f->have_udmabuf)
		return SHM_IMPORT_NO_UDMABUF;
	if (!f->have_file)
		return SHM_IMPORT_NO_POOL_FILE;
	if (f->seals < 0)
		return SHM_IMPORT_NOT_MEMFD;
	if (!(f->seals & F_SEAL_SHRINK))
		return SHM_IMPORT_NOT_SEALED;
	if (f->seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE))
		return SHM_IMPORT_WRITE_SEALED;
	uint32_t bpp = format_bpp(f->fourcc);
	if (bpp == 0)
		return SHM_IMPORT_FORMAT;
	if (f->width <= 0 || f->height <= 0 || f->stride <= 0 ||
	    (uint64_t)f->stride < (uint64_t)f->width * bpp || f->offset < 0 ||
	    f->page_size == 0 || (f->page_size & (f->page_size - 1)) != 0)
		return SHM_IMPORT_STRIDE;
	uint64_t end = (uint64_t)f->offset + (uint64_t)f->stride * (uint64_t)f->height;
	if (end > f->file_size)
		return SHM_IMPORT_BEYOND_FILE;
	uint64_t start = (uint64_t)f->offset & ~(f->page_size - 1);
	uint64_t size = (end - start + f->page_size - 1) & ~(f->page_size - 1);
	uint64_t grow_to = 0;
	if (start + size > f->file_size) {
		if (f->seals & F_SEAL_GROW)
			return SHM_IMPORT_LAST_PAGE;
		grow_to = start + size;
	}
	r->start = start;
	r->size = size;
	r->fb_offset = (uint32_t)((uint64_t)f->offset - start);
	r->grow_to = grow_to;
	return SHM_IMPORT_OK;
}

const char *shm_import_reason(enum shm_import_verdict v)
{
	switch (v) {
	case SHM_IMPORT_OK:
		return "importable";
	case SHM_IMPORT_DISABLED:
		return "zero-copy turned off (DISPMAN_SHM_ZERO_COPY=0)";
	case SHM_IMPORT_NO_UDMABUF:
		return "no /dev/udmabuf";
	case SHM_IMPORT_NO_POOL_FILE:
		return "the pool's file is unknown";
	case SHM_IMPORT_NOT_MEMFD:
		return "the pool is not a memfd (no seals)";
	case SHM_IMPORT_NOT_SEALED:
		return "the pool may shrink (no F_SEAL_SHRINK, and sealing is not allowed)";
	case SHM_IMPORT_WRITE_SEALED:
		return "the pool is sealed against writes";
	case SHM_IMPORT_FORMAT:
		return "a format not scanned out";
	case SHM_IMPORT_STRIDE:
		return "size or stride out of range";
	case SHM_IMPORT_BEYOND_FILE:
		return "the buffer reaches beyond the pool's file";
	case SHM_IMPORT_LAST_PAGE:
		return "its last page is partly beyond the file, which is sealed against growing";
	}
	return "?";
}

/* ---- the pool's fd, from the protocol stream ---- */

static struct shm_file *file_ref(struct shm_file *f)
{
	f->refs++;
	return f;
}

static void file_unref(struct shm_file *f)
{
	if (!f || --f->refs > 0)
		return;
	close(f->fd);
	free(f);
}

static void pending_clear(struct udmabuf *u)
{
	file_unref(u->pending.file);
	u->pending.file = NULL;
	u->pending.kind = PENDING_NONE;
}

static void pool_rec_destroy(struct wl_listener *l, void *data)
{
	struct pool_rec *p = wl_container_of(l, p, destroy);
	wl_list_remove(&p->destroy.link);
	file_unref(p->file);
	free(p);
}

static void buffer_rec_destroy(struct wl_listener *l, void *data)
{
	struct buffer_rec *b = wl_container_of(l, b, destroy);
	wl_list_remove(&b->destroy.link);
	file_unref(b->file);
	free(b);
}

static void on_request(void *data, enum wl_protocol_logger_type dir,
	const struct wl_protocol_logger_message *m)
{
	struct udmabuf *u = data;
	if (dir != WL_PROTOCOL_LOGGER_REQUEST)
		return;
	if (u->pending.kind != PENDING_NONE)
		pending_clear(u);
	/* wl_shm.create_pool(new_id, fd, size) is request 0 of wl_shm */
	if (m->message == &wl_shm_interface.methods[0] && m->arguments_count >= 2) {
		int fd = fcntl(m->arguments[1].h, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return;
		struct shm_file *f = calloc(1, sizeof(*f));
		if (!f) {
			close(fd);
			return;
		}
		f->fd = fd;
		f->refs = 1;
		u->pending.kind = PENDING_POOL;
		u->pending.client = wl_resource_get_client(m->resource);
		u->pending.id = m->arguments[0].n;
		u->pending.file = f;
		return;
	}
	/* wl_shm_pool.create_buffer(new_id, offset, width, height, stride, format): request 0 */
	if (m->message == &wl_shm_pool_interface.methods[0] && m->arguments_count >= 2) {
		struct wl_listener *l = wl_resource_get_destroy_listener(m->resource,
			pool_rec_destroy);
		if (!l)
			return;
		struct pool_rec *p = wl_container_of(l, p, destroy);
		u->pending.kind = PENDING_BUFFER;
		u->pending.client = wl_resource_get_client(m->resource);
		u->pending.id = m->arguments[0].n;
		u->pending.file = file_ref(p->file);
		u->pending.offset = m->arguments[1].i;
	}
}

static void on_resource_created(struct wl_listener *l, void *data)
{
	struct client_watch *w = wl_container_of(l, w, resource_created);
	struct udmabuf *u = w->u;
	struct wl_resource *res = data;
	if (u->pending.kind == PENDING_NONE || u->pending.client != w->client ||
	    u->pending.id != wl_resource_get_id(res))
		return;
	if (u->pending.kind == PENDING_POOL &&
	    strcmp(wl_resource_get_class(res), wl_shm_pool_interface.name) == 0) {
		struct pool_rec *p = calloc(1, sizeof(*p));
		if (!p)
			goto done;
		p->destroy.notify = pool_rec_destroy;
		p->file = u->pending.file;
		u->pending.file = NULL;
		wl_resource_add_destroy_listener(res, &p->destroy);
	} else if (u->pending.kind == PENDING_BUFFER &&
		   strcmp(wl_resource_get_class(res), wl_buffer_interface.name) == 0) {
		struct buffer_rec *b = calloc(1, sizeof(*b));
		if (!b)
			goto done;
		b->destroy.notify = buffer_rec_destroy;
		b->file = u->pending.file;
		b->offset = u->pending.offset;
		u->pending.file = NULL;
		wl_resource_add_destroy_listener(res, &b->destroy);
	}
done:
	pending_clear(u);
}

static void watch_free(struct client_watch *w)
{
	wl_list_remove(&w->resource_created.link);
	wl_list_remove(&w->destroy.link);
	wl_list_remove(&w->link);
	free(w);
}

static void on_client_destroy(struct wl_listener *l, void *data)
{
	struct client_watch *w = wl_container_of(l, w, destroy);
	if (w->u->pending.client == w->client)
		pending_clear(w->u);
	watch_free(w);
}

static void on_client_created(struct wl_listener *l, void *data)
{
	struct udmabuf *u = wl_container_of(l, u, client_created);
	struct client_watch *w = calloc(1, sizeof(*w));
	if (!w) {
		wlog(DISPMAN_LOG_WARNING, "no memory to watch a client's shm pools: copied");
		return;
	}
	w->u = u;
	w->client = data;
	w->resource_created.notify = on_resource_created;
	wl_client_add_resource_created_listener(w->client, &w->resource_created);
	w->destroy.notify = on_client_destroy;
	wl_client_add_destroy_listener(w->client, &w->destroy);
	wl_list_insert(&u->watches, &w->link);
}

int udmabuf_init(struct server *srv)
{
	struct udmabuf *u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->srv = srv;
	wl_list_init(&u->watches);
	const char *env = getenv("DISPMAN_SHM_ZERO_COPY");
	u->enabled = !(env && strcmp(env, "0") == 0);
	u->fd = -1;
	if (u->enabled) {
		u->fd = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
		u->open_errno = u->fd < 0 ? errno : 0;
		u->logger = wl_display_add_protocol_logger(srv->display, on_request, u);
		if (!u->logger) {
			if (u->fd >= 0)
				close(u->fd);
			free(u);
			return -ENOMEM;
		}
		u->client_created.notify = on_client_created;
		wl_display_add_client_created_listener(srv->display, &u->client_created);
	}
	srv->udmabuf = u;
	return 0;
}

void udmabuf_finish(struct server *srv)
{
	struct udmabuf *u = srv->udmabuf;
	if (!u)
		return;
	struct client_watch *w, *tmp;
	wl_list_for_each_safe(w, tmp, &u->watches, link)
		watch_free(w);
	pending_clear(u);
	if (u->logger) {
		wl_protocol_logger_destroy(u->logger);
		wl_list_remove(&u->client_created.link);
	}
	if (u->fd >= 0)
		close(u->fd);
	free(u);
	srv->udmabuf = NULL;
}

/* ---- the import ---- */

static void decision_log(struct udmabuf *u, struct shm_file *f, struct wl_resource *res,
	const struct shm_import_facts *facts, const char *what, const char *why)
{
	enum dispman_log_level level = DISPMAN_LOG_DEBUG;
	if (f && !f->logged) {
		f->logged = true;
		level = DISPMAN_LOG_INFO;
	} else if (!f && !u->logged_absent) {
		u->logged_absent = true;
		level = DISPMAN_LOG_INFO;
	}
	uint32_t c = facts->fourcc;
	wlog(level, "wl_buffer %u (shm %dx%d %c%c%c%c, stride %d): %s%s%s",
		wl_resource_get_id(res), facts->width, facts->height, (char)(c & 0xff),
		(char)((c >> 8) & 0xff), (char)((c >> 16) & 0xff), (char)(c >> 24), facts->stride,
		what, why ? ": " : "", why ? why : "");
}

struct dispman_buffer *udmabuf_import(struct server *srv, struct wl_resource *res,
	enum shm_import_verdict *verdict, int *err)
{
	struct udmabuf *u = srv->udmabuf;
	struct wl_shm_buffer *shm = wl_shm_buffer_get(res);
	*err = 0;
	struct shm_import_facts f = {
		.enabled = u && u->enabled,
		.have_udmabuf = u && u->fd >= 0,
		.seals = -1,
		.page_size = (uint64_t)sysconf(_SC_PAGESIZE),
	};
	if (shm) {
		f.width = wl_shm_buffer_get_width(shm);
		f.height = wl_shm_buffer_get_height(shm);
		f.stride = wl_shm_buffer_get_stride(shm);
		f.fourcc = wl_shm_buffer_get_format(shm);
		if (f.fourcc == WL_SHM_FORMAT_ARGB8888)
			f.fourcc = DRM_FORMAT_ARGB8888;
		else if (f.fourcc == WL_SHM_FORMAT_XRGB8888)
			f.fourcc = DRM_FORMAT_XRGB8888;
	}
	struct wl_listener *l = u && u->enabled ?
		wl_resource_get_destroy_listener(res, buffer_rec_destroy) : NULL;
	struct buffer_rec *rec = l ? wl_container_of(l, rec, destroy) : NULL;
	if (rec) {
		f.have_file = true;
		f.offset = rec->offset;
		int fd = rec->file->fd;
		f.seals = fcntl(fd, F_GET_SEALS);
		if (f.seals >= 0 && !(f.seals & F_SEAL_SHRINK) && !(f.seals & F_SEAL_SEAL) &&
		    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) == 0)
			f.seals = fcntl(fd, F_GET_SEALS);
		struct stat st;
		f.file_size = fstat(fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
	}
	struct shm_import_range r;
	*verdict = shm ? shm_import_check(&f, &r) : SHM_IMPORT_NO_POOL_FILE;
	if (*verdict != SHM_IMPORT_OK) {
		const char *why = shm_import_reason(*verdict);
		char buf[128];
		if (*verdict == SHM_IMPORT_NO_UDMABUF) {
			snprintf(buf, sizeof(buf), "no /dev/udmabuf (%s)", strerror(u->open_errno));
			why = buf;
		}
		decision_log(u, rec ? rec->file : NULL, res, &f, "copied", why);
		return NULL;
	}
	/* udmabuf pins whole pages inside the file: pad a file that ends inside the buffer's
	 * last page (weston-simple-shm's pool is 250000 bytes) with zeros up to it; the pool
	 * and the client's mapping stay as they are */
	if (r.grow_to > f.file_size && ftruncate(rec->file->fd, (off_t)r.grow_to) < 0) {
		*err = -errno;
		char why[96];
		snprintf(why, sizeof(why), "cannot pad the file to %llu bytes: %s",
			(unsigned long long)r.grow_to, strerror(errno));
		decision_log(u, rec->file, res, &f, "copied", why);
		return NULL;
	}
	struct udmabuf_create create = {
		.memfd = (uint32_t)rec->file->fd,
		.flags = UDMABUF_FLAGS_CLOEXEC,
		.offset = r.start,
		.size = r.size,
	};
	int dfd = ioctl(u->fd, UDMABUF_CREATE, &create);
	if (dfd < 0) {
		*err = -errno;
		char why[96];
		snprintf(why, sizeof(why), "udmabuf refused pages %llu+%llu: %s",
			(unsigned long long)r.start, (unsigned long long)r.size, strerror(errno));
		decision_log(u, rec->file, res, &f, "copied", why);
		return NULL;
	}
	struct dispman_dmabuf_desc desc = {
		.width = (uint32_t)f.width,
		.height = (uint32_t)f.height,
		.fourcc = f.fourcc,
		.modifier = DRM_FORMAT_MOD_LINEAR,
		.n_planes = 1,
		.fds = { dfd, -1, -1, -1 },
		.offsets = { r.fb_offset },
		.pitches = { (uint32_t)f.stride },
	};
	struct dispman_buffer *dbuf = dispman_buffer_import_dmabuf(srv->dev, &desc);
	int e = errno;
	close(dfd);
	if (!dbuf) {
		*err = -e;
		char why[96];
		snprintf(why, sizeof(why), "the device refused the import: %s", strerror(e));
		decision_log(u, rec->file, res, &f, "copied", why);
		return NULL;
	}
	decision_log(u, rec->file, res, &f, "zero-copy, its pool imported through udmabuf",
		NULL);
	return dbuf;
}
