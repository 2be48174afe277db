/* SPDX-License-Identifier: MIT */
/*
 * Layer basics on the mock libdrm: what a layer reports after a commit in the simplest cases.
 * The plane assignment itself is tested table by table in test-alloc.c.
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>

#include "device.h"
#include "layer.h"
#include "plane.h"

static struct dispman_placement placement(struct dispman_layer *layer)
{
	struct dispman_placement p;
	assert_int_equal(dispman_layer_get_placement(layer, &p), 0);
	return p;
}

static void commit(struct unit_fixture *f)
{
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(unit_drain(f->dev), 1);
}

/* One full-screen XR24 layer goes on the primary plane. */
static void test_fullscreen_on_primary(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_non_null(layer);
	struct dispman_placement p = placement(layer);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_NOT_SHOWN);
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888,
		0);
	assert_int_equal(dispman_layer_set_buffer(layer, buf), 0);
	commit(f);
	p = placement(layer);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_ON_PLANE);
	assert_int_equal(p.plane_id, MOCK_VKMS_PRIMARY);
	assert_int_equal(p.reason, DISPMAN_REASON_NONE);
	uint64_t fb = 0;
	assert_true(mock_drm_get_prop(MOCK_VKMS_PRIMARY, "FB_ID", &fb));
	assert_int_equal(fb, dispman_buffer_get_fb_id(buf));

	/* The layer holds its own reference; get_buffer gives a new one. */
	struct dispman_buffer *got = NULL;
	assert_int_equal(dispman_layer_get_buffer(layer, &got), 0);
	assert_ptr_equal(got, buf);
	dispman_buffer_unref(got);
	dispman_buffer_unref(buf);
	assert_int_equal(dispman_layer_get_placement(layer, NULL), -EINVAL);
	assert_int_equal(dispman_layer_get_placement(NULL, &p), -EINVAL);
}

/* A small layer above the full-screen one goes on some other plane. */
static void test_overlay_on_plane(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_buffer *base = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888,
		0);
	assert_int_equal(dispman_output_set_buffer(f->out, base), 0);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, 128, 64, DRM_FORMAT_ARGB8888, 0);
	assert_int_equal(dispman_layer_set_buffer(layer, buf), 0);
	dispman_layer_set_destination(layer, 200, 100, 0, 0);
	dispman_layer_set_z(layer, 5);
	commit(f);
	struct dispman_placement p = placement(layer);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_ON_PLANE);
	assert_int_not_equal(p.plane_id, MOCK_VKMS_PRIMARY);
	uint64_t v = 0;
	assert_true(mock_drm_get_prop(p.plane_id, "FB_ID", &v));
	assert_int_equal(v, dispman_buffer_get_fb_id(buf));
	assert_true(mock_drm_get_prop(p.plane_id, "CRTC_X", &v));
	assert_int_equal(v, 200);
	assert_true(mock_drm_get_prop(p.plane_id, "CRTC_W", &v));
	assert_int_equal(v, 128);

	/* Destroyed: it leaves the screen at the next commit. */
	dispman_layer_destroy(layer);
	commit(f);
	assert_true(mock_drm_get_prop(p.plane_id, "FB_ID", &v));
	assert_int_equal(v, 0);
	dispman_buffer_unref(buf);
	dispman_buffer_unref(base);
}

/* Invisible layers and layers without a buffer are NOT_SHOWN/INVISIBLE. */
static void test_invisible(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_buffer *base = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888,
		0);
	assert_int_equal(dispman_output_set_buffer(f->out, base), 0);
	struct dispman_layer *hidden = dispman_layer_create(f->out);
	struct dispman_layer *empty = dispman_layer_create(f->out);
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_ARGB8888, 0);
	assert_int_equal(dispman_layer_set_buffer(hidden, buf), 0);
	dispman_layer_set_z(hidden, 1);
	dispman_layer_set_visible(hidden, false);
	commit(f);
	struct dispman_placement p = placement(hidden);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_NOT_SHOWN);
	assert_int_equal(p.reason, DISPMAN_REASON_INVISIBLE);
	assert_int_equal(p.plane_id, 0);
	p = placement(empty);
	assert_int_equal(p.state, DISPMAN_PLACEMENT_NOT_SHOWN);
	assert_int_equal(p.reason, DISPMAN_REASON_INVISIBLE);

	/* Visible again: shown. */
	dispman_layer_set_visible(hidden, true);
	commit(f);
	assert_int_equal(placement(hidden).state, DISPMAN_PLACEMENT_ON_PLANE);
	struct dispman_buffer *got = (void *)1;
	assert_int_equal(dispman_layer_get_buffer(empty, &got), 0);
	assert_null(got);
	dispman_buffer_unref(buf);
	dispman_buffer_unref(base);
}

/* A format that no plane of the output's CRTC takes (another CRTC's plane does, so the FB
 * exists): never ON_PLANE; NOT_SHOWN says FORMAT (composition may show it instead). */
static void test_format_no_plane(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t xr24[] = { DRM_FORMAT_XRGB8888 };
	static const uint32_t xr24_rg16[] = { DRM_FORMAT_XRGB8888, DRM_FORMAT_RGB565 };
	drmModeModeInfo mode = mock_drm_mode(640, 480, 60, true);
	mock_drm_add_crtc();
	mock_drm_add_crtc();
	mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_HDMIA,
		.modes = &mode,
		.num_modes = 1,
		.possible_crtcs = 1,
	});
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY,
		.possible_crtcs = 1,
		.formats = xr24,
		.num_formats = 1,
	});
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY,
		.possible_crtcs = 2,
		.formats = xr24_rg16,
		.num_formats = 2,
	});
	unit_open_device(f);
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_buffer *base = unit_pattern_buffer(f->dev, 640, 480, DRM_FORMAT_XRGB8888,
		0);
	assert_int_equal(dispman_output_set_buffer(f->out, base), 0);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	struct dispman_buffer *buf = dispman_buffer_create_dumb(f->dev, 64, 64, DRM_FORMAT_RGB565);
	assert_non_null(buf);
	assert_int_equal(dispman_layer_set_buffer(layer, buf), 0);
	dispman_layer_set_z(layer, 1);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	struct dispman_placement p = placement(layer);
	assert_int_not_equal(p.state, DISPMAN_PLACEMENT_ON_PLANE);
	if (p.state == DISPMAN_PLACEMENT_NOT_SHOWN)
		assert_int_equal(p.reason, DISPMAN_REASON_FORMAT);
	dispman_buffer_unref(buf);
	dispman_buffer_unref(base);
}

/* A layer on a disabled output is not shown and nothing is committed. */
static void test_output_disabled(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_layer *layer = dispman_layer_create(f->out);
	struct dispman_buffer *buf = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_XRGB8888, 0);
	assert_int_equal(dispman_layer_set_buffer(layer, buf), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	assert_int_equal(placement(layer).state, DISPMAN_PLACEMENT_NOT_SHOWN);
	struct mock_drm_counters c;
	mock_drm_get_counters(&c);
	assert_int_equal(c.commits, 0);
	dispman_buffer_unref(buf);
}

/* A buffer of another device is refused by the layer. */
static void test_other_device_buffer(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_device *other = dispman_device_create_for_fd(f->mock_fd);
	assert_non_null(other);
	struct dispman_buffer *buf = dispman_buffer_create_dumb(other, 64, 64,
		DRM_FORMAT_XRGB8888);
	struct dispman_layer *layer = dispman_layer_create(f->out);
	assert_int_equal(dispman_layer_set_buffer(layer, buf), -EINVAL);
	assert_error_logged("another device");
	struct dispman_buffer *got = (void *)1;
	assert_int_equal(dispman_layer_get_buffer(layer, &got), 0);
	assert_null(got);
	dispman_buffer_unref(buf);
	dispman_device_destroy(other);
}

/* The eager average the update rate stands for: at each commit of the output, an eighth of
 * the way to 256 when the content changed since the commit before, else to 0. */
static unsigned eager_rate(unsigned r, bool changed)
{
	return r - r / 8 + (changed ? 32 : 0);
}

/* A layer's update rate, brought to date only when read or changed, is the eager average
 * over every commit of its output: while it changes every frame, every fifth frame (twice
 * in one frame, too), not at all for longer than the average takes to settle, and for a
 * layer created between commits. */
static void test_update_rate(void **state)
{
	struct unit_fixture *f = *state;
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	struct dispman_buffer *full = unit_pattern_buffer(f->dev, 1024, 768, DRM_FORMAT_XRGB8888,
		0);
	struct dispman_buffer *small = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_ARGB8888, 0);
	struct dispman_layer *a = dispman_layer_create(f->out);
	struct dispman_layer *b = dispman_layer_create(f->out);
	struct dispman_layer *c = NULL;
	assert_int_equal(dispman_layer_set_buffer(a, full), 0);
	assert_int_equal(dispman_layer_set_buffer(b, small), 0);
	dispman_layer_set_z(b, 1);
	unsigned ra = 0, rb = 0, rc = 0;
	bool ca = true, cb = true, cc = false;
	for (int i = 0; i < 120; i++) {
		if (i == 30) {
			c = dispman_layer_create(f->out);
			assert_int_equal(dispman_layer_set_buffer(c, small), 0);
			dispman_layer_set_z(c, 2);
			cc = true;
		}
		commit(f);
		ra = eager_rate(ra, ca);
		rb = eager_rate(rb, cb);
		if (c)
			rc = eager_rate(rc, cc);
		assert_int_equal(layer_update_rate(a), ra);
		assert_int_equal(layer_update_rate(b), rb);
		if (c)
			assert_int_equal(layer_update_rate(c), rc);
		/* the next frame's changes: a every frame until 60, then none; b every fifth,
		 * twice; c every other frame, read only now and then */
		ca = i < 60;
		cb = i % 5 == 0;
		cc = c && i % 2 == 0;
		if (ca)
			assert_int_equal(dispman_layer_set_buffer(a, full), 0);
		for (int k = 0; cb && k < 2; k++)
			assert_int_equal(dispman_layer_set_buffer(b, small), 0);
		if (cc)
			assert_int_equal(dispman_layer_set_buffer(c, small), 0);
	}
	assert_true(ra > 0 && ra < 8); /* settled: a changed last 60 commits ago */
	assert_true(rb > 32);
	dispman_buffer_unref(full);
	dispman_buffer_unref(small);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "layer@fullscreen-on-primary", test_fullscreen_on_primary, unit_setup_vkms,
			unit_teardown, NULL },
		{ "layer@overlay-on-plane", test_overlay_on_plane, unit_setup_vkms, unit_teardown,
			NULL },
		{ "layer@invisible", test_invisible, unit_setup_vkms, unit_teardown, NULL },
		{ "layer@format-no-plane", test_format_no_plane, unit_setup_empty, unit_teardown,
			NULL },
		{ "layer@output-disabled", test_output_disabled, unit_setup_vkms, unit_teardown,
			NULL },
		{ "layer@other-device-buffer", test_other_device_buffer, unit_setup_vkms,
			unit_teardown, NULL },
		{ "layer@update-rate", test_update_rate, unit_setup_vkms, unit_teardown, NULL },
	};
	return unit_main("layer", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
