/* SPDX-License-Identifier: MIT */
/* Zero-copy wl_shm: a client's pool file imported as a dma-buf through /dev/udmabuf. */
#ifndef DISPMAN_WAYLAND_UDMABUF_H
#define DISPMAN_WAYLAND_UDMABUF_H

#include "server.h"

/* Why an shm wl_buffer is (SHM_IMPORT_OK) or is not scanned out from its pool. */
enum shm_import_verdict {
	SHM_IMPORT_OK = 0,
	SHM_IMPORT_DISABLED,            /* DISPMAN_SHM_ZERO_COPY=0 */
	SHM_IMPORT_NO_UDMABUF,          /* no /dev/udmabuf (or not allowed to open it) */
	SHM_IMPORT_NO_POOL_FILE,        /* the pool's fd was not seen */
	SHM_IMPORT_NOT_MEMFD,           /* the file takes no seals (not a memfd) */
	SHM_IMPORT_NOT_SEALED,          /* may shrink: no F_SEAL_SHRINK, and none can be added */
	SHM_IMPORT_WRITE_SEALED,        /* F_SEAL_WRITE: udmabuf refuses it */
	SHM_IMPORT_FORMAT,              /* a format the compositor does not scan out */
	SHM_IMPORT_STRIDE,              /* size or stride out of range */
	SHM_IMPORT_BEYOND_FILE,         /* the buffer reaches beyond the file's end */
	SHM_IMPORT_LAST_PAGE,           /* it ends in a page the file only partly has, and
					 * F_SEAL_GROW forbids padding the file to it */
};

/* What the decision needs to know of a buffer and its pool's file (no fd in here). */
struct shm_import_facts {
	bool enabled;                   /* not turned off by DISPMAN_SHM_ZERO_COPY=0 */
	bool have_udmabuf;              /* /dev/udmabuf is open */
	bool have_file;                 /* the pool's file is known */
	int seals;                      /* F_GET_SEALS after adding F_SEAL_SHRINK; -1: none */
	uint64_t file_size;
	int64_t offset;                 /* the buffer's offset in the pool */
	int32_t width, height, stride;
	uint32_t fourcc;                /* DRM fourcc */
	uint64_t page_size;             /* a power of two */
};

/* The udmabuf to make: [start, start + size) of the file, pages; the framebuffer starts
 * fb_offset bytes into it. udmabuf takes only pages wholly inside the file: grow_to, when
 * not 0, is the size the file must first be padded to (its last page made whole). */
struct shm_import_range {
	uint64_t start, size;
	uint32_t fb_offset;
	uint64_t grow_to;
};

/* The decision, a pure function: SHM_IMPORT_OK with *r filled, or why not (*r untouched). */
enum shm_import_verdict shm_import_check(const struct shm_import_facts *f,
	struct shm_import_range *r);
/* A short reason for logs ("the pool is not a memfd", ...). */
const char *shm_import_reason(enum shm_import_verdict v);

/* Opens /dev/udmabuf and starts watching wl_shm pools (their fds). -ENOMEM or 0; a
 * missing /dev/udmabuf is no error (every shm buffer is then copied, logged once). */
int udmabuf_init(struct server *srv);
/* After every client is gone. */
void udmabuf_finish(struct server *srv);
/* The shm wl_buffer's pool as a dma-buf framebuffer: a new dispman_buffer (the caller's
 * reference), or NULL with *verdict saying why (an import the kernel refused is
 * SHM_IMPORT_OK with *err its negative errno). Logged at info once per pool, else debug. */
struct dispman_buffer *udmabuf_import(struct server *srv, struct wl_resource *buffer,
	enum shm_import_verdict *verdict, int *err);

#endif
