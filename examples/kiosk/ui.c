/* SPDX-License-Identifier: MIT */
/* The kiosk's UI: layout, the frame as rectangles, buttons toggled by touch, pointer and
 * keys, and the cursor. */
#include "kiosk.h"

#include <drm_fourcc.h>
#include <linux/input-event-codes.h>
#include <stdio.h>

#define CURSOR_SIZE 32

#define COLOR_BG 0x00101820u
#define COLOR_BAR 0x00283848u
#define COLOR_SLIDER 0x00e0a020u
#define COLOR_OFF 0x00404858u
#define COLOR_ON 0x0020c060u
#define COLOR_FOCUS 0x00ffffffu
#define COLOR_MARK 0x00f0f0f0u

void ui_layout(struct kiosk *k)
{
	int w = (int)k->width, h = (int)k->height;
	int bw = w / 4, gap = w / 16, bh = h / 5;
	int x0 = (w - (N_BUTTONS * bw + (N_BUTTONS - 1) * gap)) / 2;
	for (int i = 0; i < N_BUTTONS; i++)
		k->buttons[i] = (struct rect){ x0 + i * (bw + gap), h / 2 + h / 20, bw, bh };
	printf("kiosk: ready %ux%u", k->width, k->height);
	for (int i = 0; i < N_BUTTONS; i++)
		printf(" button%d=%d,%d,%d,%d", i + 1, k->buttons[i].x, k->buttons[i].y,
			k->buttons[i].w, k->buttons[i].h);
	printf("\n");
}

void ui_draw(struct kiosk *k, struct painter *p)
{
	uint32_t w = k->width, h = k->height;
	p->fill(p, (struct rect){ 0, 0, (int)w, (int)h }, COLOR_BG);
	/* the animation: a block sliding along the top bar */
	int bar_h = (int)h / 10;
	p->fill(p, (struct rect){ 0, 0, (int)w, bar_h }, COLOR_BAR);
	int slider = (int)h / 8;
	int pos = (int)((k->anim * 8u) % (w + (unsigned)slider)) - slider;
	p->fill(p, (struct rect){ pos, bar_h / 4, slider, bar_h / 2 }, COLOR_SLIDER);
	for (int i = 0; i < N_BUTTONS; i++) {
		struct rect r = k->buttons[i];
		if (i == k->focus)
			p->fill(p, (struct rect){ r.x - 6, r.y - 6, r.w + 12, r.h + 12 },
				COLOR_FOCUS);
		p->fill(p, r, k->on[i] ? COLOR_ON : COLOR_OFF);
		/* i + 1 marks tell the buttons apart */
		int m = r.h / 8;
		for (int j = 0; j <= i; j++)
			p->fill(p, (struct rect){ r.x + m + j * 2 * m, r.y + m, m, m }, COLOR_MARK);
	}
}

static void toggle(struct kiosk *k, int i, const char *how)
{
	k->focus = i;
	k->on[i] = !k->on[i];
	k->presses++;
	printf("kiosk: button %d pressed (%s)\n", i + 1, how);
	printf("kiosk: button %d %s\n", i + 1, k->on[i] ? "on" : "off");
}

static int hit(struct kiosk *k, double x, double y)
{
	for (int i = 0; i < N_BUTTONS; i++) {
		struct rect r = k->buttons[i];
		if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h)
			return i;
	}
	return -1;
}

/* A touch or a left click: the button under it toggles. */
static void press_at(struct kiosk *k, const char *what, const char *how, double x, double y)
{
	int i = hit(k, x, y);
	printf("kiosk: %s %.0f,%.0f\n", what, x, y);
	if (i >= 0)
		toggle(k, i, how);
}

static void on_key(struct kiosk *k, uint32_t key)
{
	if (key >= KEY_1 && key < KEY_1 + N_BUTTONS) {
		toggle(k, (int)(key - KEY_1), "key");
	} else if (key == KEY_TAB || key == KEY_RIGHT) {
		k->focus = (k->focus + 1) % N_BUTTONS;
		printf("kiosk: focus %d\n", k->focus + 1);
	} else if (key == KEY_LEFT) {
		k->focus = (k->focus + N_BUTTONS - 1) % N_BUTTONS;
		printf("kiosk: focus %d\n", k->focus + 1);
	} else if (key == KEY_ENTER || key == KEY_SPACE) {
		toggle(k, k->focus, "key");
	} else if (key == KEY_ESC || key == KEY_Q) {
		printf("kiosk: quit (key)\n");
		k->quit = true;
	}
}

void ui_on_input(struct dispman_input *input, const struct dispman_input_event *ev,
	void *data)
{
	struct kiosk *k = data;
	switch (ev->type) {
	case DISPMAN_INPUT_DEVICE_ADDED:
		printf("kiosk: input device %s (%s)\n", ev->device_sysname, ev->device_name);
		break;
	case DISPMAN_INPUT_TOUCH_DOWN:
		press_at(k, "touch", "touch", ev->x, ev->y);
		break;
	case DISPMAN_INPUT_POINTER_BUTTON:
		if (ev->state == DISPMAN_INPUT_PRESSED && ev->button == BTN_LEFT)
			press_at(k, "click", "pointer", ev->x, ev->y);
		break;
	case DISPMAN_INPUT_KEY:
		if (ev->state == DISPMAN_INPUT_PRESSED)
			on_key(k, ev->key);
		break;
	default:
		break;
	}
}

/* An arrow: a white triangle with a dark edge, transparent elsewhere. */
static void draw_arrow(void *data, uint32_t stride)
{
	for (int y = 0; y < CURSOR_SIZE; y++) {
		uint32_t *row = (uint32_t *)(void *)((char *)data + (size_t)y * stride);
		for (int x = 0; x < CURSOR_SIZE; x++) {
			bool inside = x <= y / 2 + y / 4 && y < CURSOR_SIZE - 4;
			bool edge = inside && (x == 0 || x == y / 2 + y / 4 || y == CURSOR_SIZE - 5);
			row[x] = !inside ? 0 : edge ? 0xff000000u : 0xffffffffu;
		}
	}
}

void ui_make_cursor(struct kiosk *k)
{
	k->cursor_buf = dispman_buffer_create_dumb(k->dev, CURSOR_SIZE, CURSOR_SIZE,
		DRM_FORMAT_ARGB8888);
	if (!k->cursor_buf)
		return;
	void *data;
	uint32_t stride;
	if (dispman_buffer_map(k->cursor_buf, &data, &stride) < 0)
		return;
	draw_arrow(data, stride);
	k->cursor = dispman_layer_create(k->out);
	if (!k->cursor)
		return;
	dispman_layer_set_buffer(k->cursor, k->cursor_buf);
	dispman_layer_set_z(k->cursor, 1000);
	if (k->input)
		dispman_input_set_cursor_layer(k->input, k->cursor, 0, 0);
	else
		dispman_layer_set_visible(k->cursor, false);
}
