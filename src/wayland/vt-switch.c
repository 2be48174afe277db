/* SPDX-License-Identifier: MIT */
/*
 * Ctrl+Alt+Fn: a key press of F1 to F12 while a Ctrl and an Alt key are held asks the
 * device's seat for VT n (dispman_device_switch_vt()). The Fn press and its release are
 * not delivered to clients; the modifiers are (they were pressed before anyone could know
 * a VT switch would follow). Keys are read as evdev codes, before the keymap, as the kernel's
 * own console does: the binding does not depend on the layout.
 */
#include "vt-switch.h"

#include <errno.h>
#include <stdlib.h>

#include <linux/input-event-codes.h>
#include <dispman/input.h>

struct vt_switch {
	struct server *srv;
	struct wl_listener input;
	unsigned ctrl, alt;   /* one bit per held key: left 1, right 2 */
	uint32_t swallowed;   /* the Fn key whose release is not delivered, or 0 */
};

/* The VT of an F key (1 to 12), or 0. */
static int vt_of_key(uint32_t key)
{
	if (key >= KEY_F1 && key <= KEY_F10)
		return (int)(key - KEY_F1) + 1;
	if (key == KEY_F11)
		return 11;
	if (key == KEY_F12)
		return 12;
	return 0;
}

static void track(unsigned *held, bool down, unsigned bit)
{
	*held = down ? *held | bit : *held & ~bit;
}

static void on_input(struct wl_listener *l, void *data)
{
	struct vt_switch *vs = wl_container_of(l, vs, input);
	struct server_input *in = data;
	const struct dispman_input_event *ev = in->ev;
	if (ev->type != DISPMAN_INPUT_KEY)
		return;
	bool down = ev->state == DISPMAN_INPUT_PRESSED;
	switch (ev->key) {
	case KEY_LEFTCTRL: track(&vs->ctrl, down, 1); return;
	case KEY_RIGHTCTRL: track(&vs->ctrl, down, 2); return;
	case KEY_LEFTALT: track(&vs->alt, down, 1); return;
	case KEY_RIGHTALT: track(&vs->alt, down, 2); return;
	default: break;
	}
	if (!down) {
		if (vs->swallowed && ev->key == vs->swallowed) {
			vs->swallowed = 0;
			in->consumed = true;
		}
		return;
	}
	int vt = vt_of_key(ev->key);
	if (!vt || !vs->ctrl || !vs->alt || in->consumed)
		return;
	in->consumed = true;
	vs->swallowed = ev->key;
	wlog(DISPMAN_LOG_INFO, "Ctrl+Alt+F%d: switching to VT %d", vt, vt);
	/* errors are logged by the library; the kiosk keeps running on its VT */
	dispman_device_switch_vt(vs->srv->dev, vt);
}

int vt_switch_enable(struct server *srv, bool enable)
{
	if (!enable) {
		vt_switch_finish(srv);
		return 0;
	}
	if (srv->vt_switch)
		return 0;
	struct vt_switch *vs = calloc(1, sizeof(*vs));
	if (!vs)
		return -ENOMEM;
	vs->srv = srv;
	vs->input.notify = on_input;
	wl_signal_add(&srv->events.input, &vs->input);
	srv->vt_switch = vs;
	return 0;
}

void vt_switch_finish(struct server *srv)
{
	struct vt_switch *vs = srv->vt_switch;
	if (!vs)
		return;
	wl_list_remove(&vs->input.link);
	free(vs);
	srv->vt_switch = NULL;
}
