/* SPDX-License-Identifier: MIT */
/*
 * dispman_input: libinput (udev or path backend) behind the device's epoll fd. Events are
 * translated into struct dispman_input_event with positions in the pixels of one output;
 * keysyms and text come from xkbcommon when the build has it. The pointer may drive a
 * cursor layer.
 *
 * This file is the input's life cycle: the libinput context and how it opens devices, the
 * device's listener, the constructors and setters. The module's other files
 * (input-private.h): input-events.c (the events and XKB), input-cursor.c (the target output
 * and the cursor layer), input-pointer.c (the pointer area); input-stub.c replaces them all
 * in a build without libinput.
 *
 * Two fds go into the device's epoll: libinput's own fd, and an eventfd that wakes the
 * dispatch when libinput queued events without its fd becoming readable (the DEVICE_ADDED
 * events of libinput_path_add_device() and libinput_udev_assign_seat()).
 */
#include <errno.h>

#include "event.h"
#include "input-private.h"
#include "log.h"
#include "output.h"
#include "seat.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <libinput.h>
#include <libudev.h>

static int open_restricted(const char *path, int flags, void *data)
{
	struct dispman_input *input = data;
	/* through the device's seat when it has one (seat.h), so that no root is needed */
	struct seat *seat = input->dev ? device_seat(input->dev) : NULL;
	int fd = seat ? seat_open_node(seat, path) : open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		int err = seat ? -fd : errno;
		input->open_err = err;
		if (seat && !input->path_backend &&
		    (!seat_is_enabled(seat) || err == EPERM || err == EACCES))
			/* the seat is being disabled (a VT switch), its event may not have come
			 * yet: libinput is suspended then, and its udev backend opens every
			 * device of the seat again on resume */
			dispman_log_errno(DISPMAN_LOG_INFO, err, "input: %s not opened now, the "
				"seat refused it (being disabled?): it is opened again when the "
				"seat is enabled", path);
		else
			dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: cannot open %s", path);
		return -err;
	}
	return fd;
}

static void close_restricted(int fd, void *data)
{
	struct dispman_input *input = data;
	/* without the device, its seat and the seat's devices are gone already */
	seat_close_node(input->dev ? device_seat(input->dev) : NULL, fd);
}

static const struct libinput_interface li_interface = {
	.open_restricted = open_restricted,
	.close_restricted = close_restricted,
};

DISPMAN_PRINTF(3, 0)
static void li_log(struct libinput *li, enum libinput_log_priority priority, const char *fmt,
	va_list args)
{
	enum dispman_log_level level = DISPMAN_LOG_DEBUG;
	if (priority >= LIBINPUT_LOG_PRIORITY_ERROR)
		level = DISPMAN_LOG_ERROR;
	else if (priority >= LIBINPUT_LOG_PRIORITY_INFO)
		level = DISPMAN_LOG_INFO;
	if (!log_enabled(level))
		return;
	char msg[512];
	vsnprintf(msg, sizeof(msg), fmt, args);
	size_t len = strlen(msg);
	if (len > 0 && msg[len - 1] == '\n')
		msg[len - 1] = '\0';
	log_print(level, "libinput: %s", msg);
}

/* Make the next dispatch drain events libinput queued without its fd becoming readable. */
static void wake(struct dispman_input *input)
{
	uint64_t one = 1;
	if (write(input->wake_fd, &one, sizeof(one)) < 0)
		dispman_log_errno(DISPMAN_LOG_WARNING, errno, "input: eventfd write failed");
}

/* The seat went away (VT or session switch; seatd revokes our evdev fds) or came back:
 * libinput closes its devices and opens them again through open_restricted(). */
static void seat_changed(struct device_listener *l, bool enabled)
{
	struct dispman_input *input = container_of(l, struct dispman_input, listener);
	if (enabled) {
		if (libinput_resume(input->li) < 0)
			dispman_log(DISPMAN_LOG_ERROR, "input: libinput_resume failed after the "
				"seat came back");
	} else {
		libinput_suspend(input->li);
	}
}

/* The device goes first: unregister from it, keep libinput until dispman_input_destroy(). */
static void device_destroyed(struct device_listener *l)
{
	struct dispman_input *input = container_of(l, struct dispman_input, listener);
	dispman_log(DISPMAN_LOG_DEBUG, "input: its device was destroyed first; the input is "
		"inert until dispman_input_destroy()");
	event_source_remove(input->li_source);
	event_source_remove(input->wake_source);
	input->li_source = input->wake_source = NULL;
	input->dev = NULL;
	input->output = NULL;
	input->cursor = NULL;
}

static void layer_destroyed(struct device_listener *l, struct dispman_layer *layer)
{
	struct dispman_input *input = container_of(l, struct dispman_input, listener);
	if (input->cursor == layer) {
		input->cursor = NULL;
		input->cursor_dirty = false;
	}
}

static void destroy_input(struct dispman_input *input)
{
	if (input->dev)
		device_remove_listener(&input->listener);
	event_source_remove(input->li_source);
	event_source_remove(input->wake_source);
	if (input->li)
		libinput_unref(input->li);
	if (input->udev)
		udev_unref(input->udev);
	if (input->wake_fd >= 0)
		close(input->wake_fd);
	input_xkb_finish(input);
	free(input);
}

/* Common part of both constructors; returns NULL with errno set. */
static struct dispman_input *create_input(struct dispman_device *dev, bool path_backend)
{
	struct dispman_input *input = calloc(1, sizeof(*input));
	if (!input) {
		dispman_log(DISPMAN_LOG_ERROR, "input: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	input->dev = dev;
	input->path_backend = path_backend;
	input->wake_fd = -1;
	input->listener.destroyed = device_destroyed;
	input->listener.layer_destroyed = layer_destroyed;
	input->listener.seat_changed = seat_changed;
	device_add_listener(dev, &input->listener);
	int err;

	input->udev = udev_new();
	if (!input->udev) {
		err = errno ? errno : ENOMEM;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: udev_new failed");
		goto fail;
	}
	input->li = path_backend ? libinput_path_create_context(&li_interface, input) :
		libinput_udev_create_context(&li_interface, input, input->udev);
	if (!input->li) {
		err = errno ? errno : ENOMEM;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: cannot create a libinput context");
		goto fail;
	}
	libinput_log_set_handler(input->li, li_log);
	libinput_log_set_priority(input->li, log_enabled(DISPMAN_LOG_DEBUG) ?
		LIBINPUT_LOG_PRIORITY_DEBUG : LIBINPUT_LOG_PRIORITY_INFO);

	input->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (input->wake_fd < 0) {
		err = errno;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: eventfd failed");
		goto fail;
	}
	input->li_source = event_source_add(dev, libinput_get_fd(input->li), EPOLLIN,
		input_handle_events, input);
	if (!input->li_source) {
		err = errno;
		goto fail; /* logged by event_source_add() */
	}
	input->wake_source = event_source_add(dev, input->wake_fd, EPOLLIN, input_handle_events,
		input);
	if (!input->wake_source) {
		err = errno;
		goto fail;
	}
	input_xkb_init(input);
	input_target_output(input); /* centre the pointer on the output */
	return input;

fail:
	destroy_input(input);
	errno = err;
	return NULL;
}

struct dispman_input *dispman_input_create_udev(struct dispman_device *dev, const char *seat)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	struct dispman_input *input = create_input(dev, false);
	if (!input)
		return NULL;
	if (!seat)
		seat = "seat0";
	if (libinput_udev_assign_seat(input->li, seat) != 0) {
		int err = errno ? errno : EIO;
		dispman_log_errno(DISPMAN_LOG_ERROR, err, "input: cannot assign seat %s", seat);
		destroy_input(input);
		errno = err;
		return NULL;
	}
	wake(input);
	return input;
}

int dispman_input_add_device(struct dispman_input *input, const char *path)
{
	if (refuse_null(input, "input") || refuse_null(path, "path"))
		return -EINVAL;
	if (!input->path_backend) {
		dispman_log(DISPMAN_LOG_ERROR, "%s: input is not of the path backend", __func__);
		return -EINVAL;
	}
	input->open_err = 0;
	struct libinput_device *d = libinput_path_add_device(input->li, path);
	if (!d) {
		int err = input->open_err ? input->open_err : ENODEV;
		if (err == ENODEV)
			dispman_log(DISPMAN_LOG_ERROR, "input: libinput does not take %s (not an "
				"event node, or no ID_INPUT_* udev properties)", path);
		return -err;
	}
	wake(input);
	return 0;
}

struct dispman_input *dispman_input_create_path(struct dispman_device *dev,
	const char *const *paths, size_t n)
{
	if (refuse_null(dev, "dev"))
		return NULL;
	if (n > 0 && !paths) {
		dispman_log(DISPMAN_LOG_ERROR, "input: %zu paths but no array", n);
		errno = EINVAL;
		return NULL;
	}
	struct dispman_input *input = create_input(dev, true);
	if (!input)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int ret = dispman_input_add_device(input, paths[i]);
		if (ret < 0) {
			destroy_input(input);
			errno = -ret;
			return NULL;
		}
	}
	return input;
}

void dispman_input_destroy(struct dispman_input *input)
{
	if (input)
		destroy_input(input);
}

int dispman_input_set_callback(struct dispman_input *input, dispman_input_callback cb,
	void *data)
{
	if (refuse_null(input, "input"))
		return -EINVAL;
	input->cb = cb;
	input->cb_data = data;
	return 0;
}

int dispman_input_set_output(struct dispman_input *input, struct dispman_output *out)
{
	if (refuse_null(input, "input"))
		return -EINVAL;
	if (out && output_device(out) != input->dev) {
		dispman_log(DISPMAN_LOG_ERROR, "input: output %s belongs to another device",
			output_name(out));
		return -EINVAL;
	}
	input->output = out;
	input_target_output(input);
	return 0;
}
