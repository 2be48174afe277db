/* SPDX-License-Identifier: MIT */
/* The kiosk's CPU renderer: two dumb buffers, each drawn when the display released it. */
#include "kiosk.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <stddef.h>

static void fill(struct painter *p, struct rect r, uint32_t color)
{
	int x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
	int x1 = r.x + r.w > (int)p->w ? (int)p->w : r.x + r.w;
	int y1 = r.y + r.h > (int)p->h ? (int)p->h : r.y + r.h;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			p->px[(size_t)y * p->stride_px + (size_t)x] = color;
}

static void draw(struct kiosk *k, struct dispman_buffer *buf)
{
	void *data;
	uint32_t stride;
	if (dispman_buffer_map(buf, &data, &stride) < 0)
		return;
	struct painter p = { .fill = fill, .px = data, .stride_px = stride / 4,
		.w = k->width, .h = k->height };
	ui_draw(k, &p);
}

static void on_release(struct dispman_buffer *buf, void *data)
{
	struct kiosk *k = data;
	for (int i = 0; i < 2; i++)
		if (k->bufs[i] == buf)
			k->busy[i] = false;
}

void cpu_free_buffers(struct kiosk *k)
{
	for (int i = 0; i < 2; i++) {
		dispman_buffer_unref(k->bufs[i]);
		k->bufs[i] = NULL;
		k->busy[i] = false;
	}
	k->current = -1;
}

int cpu_make_buffers(struct kiosk *k)
{
	cpu_free_buffers(k);
	for (int i = 0; i < 2; i++) {
		k->bufs[i] = dispman_buffer_create_dumb(k->dev, k->width, k->height,
			DRM_FORMAT_XRGB8888);
		if (!k->bufs[i])
			return -errno;
		dispman_buffer_set_release_callback(k->bufs[i], on_release, k);
	}
	return 0;
}

int cpu_frame(struct kiosk *k)
{
	int i = k->current == 0 ? 1 : 0;
	if (k->busy[i])
		return 1; /* the display still reads it: the next release brings us back */
	k->anim++;
	draw(k, k->bufs[i]);
	dispman_output_set_buffer(k->out, k->bufs[i]);
	int ret = dispman_device_commit(k->dev);
	k->current = i;
	k->busy[i] = true;
	return ret;
}
