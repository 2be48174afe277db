/* SPDX-License-Identifier: MIT */
/*
 * A uinput keyboard for the input-to-photon benches (latency-kiosk, latency-input-floor):
 * created before the program under test opens its input, so that it finds the device.
 */
#ifndef BENCH_UINPUT_KBD_H
#define BENCH_UINPUT_KBD_H

#include <stddef.h>

struct uinput_kbd {
	int fd;               /* /dev/uinput, -1 when closed */
	char event[300];      /* its /dev/input/eventN */
	char udev_entry[64];  /* the udev database entry written without udevd, or "" */
};

/*
 * Creates the keyboard (KEY_ESC..KEY_SLASH) named NAME and waits up to 5 s for its event
 * node. Without udevd (no /run/udev/control), writes the node's udev database entry so
 * that libinput takes it as a keyboard. 0, or -1 with a message in err.
 */
int uinput_kbd_create(struct uinput_kbd *k, const char *name, char *err, size_t errlen);
/* One key event and a SYN_REPORT. 0, or -1 with errno. */
int uinput_kbd_key(struct uinput_kbd *k, int code, int value);
/* Destroys the device and removes the udev entry; safe on a destroyed one and on one
 * set to { .fd = -1 } whose create was never called. */
void uinput_kbd_destroy(struct uinput_kbd *k);

#endif
