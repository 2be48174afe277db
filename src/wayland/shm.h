/* SPDX-License-Identifier: MIT */
/* wl_shm content copied into per-surface dumb buffers, the damaged rectangle only. */
#ifndef DISPMAN_WAYLAND_SHM_H
#define DISPMAN_WAYLAND_SHM_H

#include "box.h"
#include "server.h"

struct surface;

/* A dumb copy of a surface's shm content (one of a few per surface). */
struct shm_slot {
	struct surface *surface;       /* NULL: orphaned, freed at its release */
	struct dispman_buffer *dbuf;
	struct box stale;             /* what must be copied before it is shown again */
	bool on_screen;
	struct buffer *source;         /* the shm buffer copied in, held while on screen */
	struct wl_list link;            /* surface.slots */
};

#define SHM_SLOTS_MAX 4

/* Listens for destroyed surfaces (their copies are orphaned, freed when off screen). */
void shm_init(struct server *srv);
/* After every client is gone: frees the orphaned copies. */
void shm_finish(struct server *srv);
/* Copy the surface's shm buffer (damage only) into a free dumb slot: the buffer to show,
 * or NULL (logged) when no dumb buffer could be made. */
struct dispman_buffer *shm_upload(struct surface *s);
/* The slot this repaint uploaded into is now on screen (holds its source). */
void shm_slots_committed(struct surface *s);

#endif
