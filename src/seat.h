/* SPDX-License-Identifier: MIT */
/*
 * Seat integration (seat.c): the DRM node and input nodes opened through libseat (seatd,
 * logind or libseat's builtin backend) so that an unprivileged process can drive the
 * display, paused while the seat is disabled (VT switch, session switch) and restored
 * with one modeset when it is enabled again. Without libseat, or when no seat is used,
 * nodes are opened directly (root, or a user with access to them).
 *
 * Which one: DISPMAN_SEAT=1 always uses a seat, DISPMAN_SEAT=0 never; unset, a process
 * that is not root uses a seat and root opens directly (and falls back to direct opening
 * when the seat cannot be opened).
 */
#ifndef DISPMAN_SEAT_H
#define DISPMAN_SEAT_H

#include <stdbool.h>

struct dispman_device;
struct seat;

/* The seat to open nodes through, or NULL (policy above; failures logged). Waits up to
 * 5 s for the seat to be enabled. */
struct seat *seat_open(void);
/* Close the seat and every node still open through it. NULL is fine. */
void seat_destroy(struct seat *s);
/* Open path read-write: through the seat when s is not NULL, else directly. Returns an fd
 * (close it with seat_close_node()) or -errno. */
int seat_open_node(struct seat *s, const char *path);
/* Close fd, and its seat device when it was opened through s. */
void seat_close_node(struct seat *s, int fd);
/* The seat device opened as old_fd is now known as new_fd (a dup); old_fd may then be
 * closed with close(). */
void seat_rekey(struct seat *s, int old_fd, int new_fd);
/* Whether the seat is enabled (true without a seat). */
bool seat_is_enabled(const struct seat *s);

/* Ask the seat to switch to session (VT) n. Returns 0 or -errno (-ENOTSUP without
 * libseat); logs why it failed. */
int seat_switch_session(struct seat *s, int n);

/* The seat of dev was disabled (false) or enabled again (true). */
typedef void (*seat_changed_func)(struct dispman_device *dev, bool enabled);

/*
 * The device takes the seat: the seat's fd goes into the device's epoll set, and changed
 * hears when the seat is disabled (the device pauses: commits return -EACCES, input is
 * suspended; the seat acknowledges the disable after changed returns) and when it is
 * enabled again (the device restores its whole state with one modeset commit). The seat
 * knows the device only as the pointer it hands to changed. Returns 0 or -errno.
 */
int seat_attach(struct seat *s, struct dispman_device *dev, seat_changed_func changed);
/* Undo seat_attach() and destroy the seat (dispman_device_destroy()). NULL is fine. */
void seat_detach(struct seat *s);

#endif
