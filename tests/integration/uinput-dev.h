/* uinput devices for the guest tests: create one, find its /dev/input node,
 * and make it visible to libinput without udevd. */
#ifndef DISPMAN_TEST_UINPUT_DEV_H
#define DISPMAN_TEST_UINPUT_DEV_H

struct uinput_dev {
	int fd;
	char sysname[64];   /* inputN */
	char event[32];     /* eventM */
	char devnode[64];   /* /dev/input/eventM */
};

/*
 * Creates a uinput device named `name` whose fd already has its UI_SET_*BIT
 * ioctls done (fd from uinput_open()), waits for its event node, and, when no
 * udevd runs (no /run/udev/control, as in the test guest), writes the udev
 * database entry udevd's input_id builtin would have written, with
 * `udev_props` ("E:ID_INPUT_KEY=1\nE:ID_INPUT_KEYBOARD=1\n"), since libinput
 * takes only tagged nodes. Exits the test with FAIL on any error.
 */
void uinput_create(struct uinput_dev *u, const char *name, const char *udev_props);
/* Opens /dev/uinput (exits on error). */
int uinput_open(void);
/* Writes one event (exits on error). */
void uinput_emit(int fd, unsigned type, unsigned code, int value);
/* One UI_SET_*BIT ioctl on a device being set up (exits on error). */
void uinput_set_bit(int fd, unsigned long req, int bit);
/* A keyboard with the keys KEY_ESC to KEY_KPDOT, and a relative mouse with the left and
 * right buttons, as udev would tag them (uinput_create()). */
void uinput_create_keyboard(struct uinput_dev *u, const char *name);
void uinput_create_mouse(struct uinput_dev *u, const char *name);
/* SYN_REPORT, then 20 ms for the reader to take the batch. */
void uinput_syn(int fd);
void uinput_destroy(struct uinput_dev *u);

#endif
