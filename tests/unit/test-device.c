/* SPDX-License-Identifier: MIT */
/*
 * Devices and outputs on the mock libdrm: opening, what is read from the mock's vkms-like
 * configuration (outputs, modes, planes and their formats, writeback, properties), and
 * every failure of dispman_device_create_for_fd() with its errno and log line.
 */
#include "unit.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crtc.h"
#include "device.h"
#include "output.h"
#include "plane.h"
#include "props.h"
#include "writeback.h"

static void test_open(void **state)
{
	struct unit_fixture *f = *state;
	unit_open_device(f);
	assert_true(unit_log_find(DISPMAN_LOG_INFO, "opened DRM device vkms"));
	assert_int_equal(unit_log_count(DISPMAN_LOG_WARNING), 0);

	/* The device works on its own duplicate of the fd. */
	int fd = dispman_device_get_drm_fd(f->dev);
	assert_true(fd >= 0);
	assert_int_not_equal(fd, f->mock_fd);
	assert_true(dispman_device_get_fd(f->dev) >= 0);
	dispman_device_destroy(f->dev);
	f->dev = NULL;
	assert_true(fcntl(f->mock_fd, F_GETFD) >= 0);

	/* The caller may close its fd right away. */
	int mine = mock_drm_open();
	f->dev = dispman_device_create_for_fd(mine);
	assert_non_null(f->dev);
	close(mine);
	assert_int_equal(dispman_device_get_output_count(f->dev), 1);
	assert_false(dispman_device_is_paused(f->dev));

}

static void test_open_path(void **state)
{
	struct unit_fixture *f = *state;
	(void)f;
	errno = 0;
	assert_null(dispman_device_open("/nonexistent/dri/card0"));
	assert_int_equal(errno, ENOENT);
	assert_error_logged("cannot open /nonexistent/dri/card0");

	/* A path that opens but is no DRM device. */
	unit_log_clear();
	errno = 0;
	assert_null(dispman_device_open("/dev/null"));
	assert_int_not_equal(errno, 0);
	assert_error_logged(NULL);
}

/* DISPMAN_DEVICE names the device of dispman_device_open(NULL), without fallback. */
static void test_open_env(void **state)
{
	struct unit_fixture *f = *state;
	setenv("DISPMAN_DEVICE", "/nonexistent/dri/card7", 1);
	errno = 0;
	assert_null(dispman_device_open(NULL));
	assert_int_equal(errno, ENOENT);
	assert_error_logged("cannot open /nonexistent/dri/card7 (named by DISPMAN_DEVICE)");
	/* an explicit path wins over the variable */
	unit_log_clear();
	assert_null(dispman_device_open("/nonexistent/dri/card3"));
	assert_error_logged("cannot open /nonexistent/dri/card3: ");
	assert_false(unit_log_find(DISPMAN_LOG_ERROR, "card7"));
	/* a node that opens but is no DRM device */
	setenv("DISPMAN_DEVICE", "/dev/null", 1);
	unit_log_clear();
	errno = 0;
	assert_null(dispman_device_open(NULL));
	assert_int_not_equal(errno, 0);
	assert_true(unit_log_find(DISPMAN_LOG_INFO, "using DRM device /dev/null (DISPMAN_DEVICE)"));
	/* empty: discovery (this host has no usable card: an error that says why) */
	setenv("DISPMAN_DEVICE", "", 1);
	unit_log_clear();
	struct dispman_device *d = dispman_device_open(NULL);
	if (!d) {
		assert_false(unit_log_find(DISPMAN_LOG_INFO, "(DISPMAN_DEVICE)"));
		assert_true(unit_log_find(DISPMAN_LOG_ERROR, "/dev/dri"));
	}
	dispman_device_destroy(d);
	unsetenv("DISPMAN_DEVICE");
	/* an fd that is no /dev node has no path */
	assert_null(dispman_device_get_path(f->dev));
}

static void test_bad_fd(void **state)
{
	(void)state;
	static const int fds[] = { -1, 999 };
	for (size_t i = 0; i < UNIT_ARRAY_LEN(fds); i++) {
		unit_log_clear();
		errno = 0;
		assert_null(dispman_device_create_for_fd(fds[i]));
		assert_int_equal(errno, EBADF);
		assert_error_logged("invalid DRM fd");
	}
}

/* Log lines name the file from the source root ("[src/lifecycle.c:207]"), not "../src/...". */
static void test_log_source_path(void **state)
{
	(void)state;
	unit_log_clear();
	assert_null(dispman_device_create_for_fd(-1));
	assert_error_logged("[src/lifecycle.c:");
	assert_false(unit_log_find(DISPMAN_LOG_ERROR, "../"));
	assert_false(unit_log_find(DISPMAN_LOG_ERROR, "/src/lifecycle.c"));
}

/* A libdrm call failing while the device is read: NULL, errno, a log line, nothing left. */
struct open_failure {
	const char *name;
	const char *func;
	int nth;
	int inject;
	int want_errno;
	const char *log;
};

static const struct open_failure open_failures[] = {
	{ "device@open-no-universal-planes", "drmSetClientCap", 1, EINVAL, EOPNOTSUPP,
		"universal planes" },
	{ "device@open-no-atomic", "drmSetClientCap", 2, EINVAL, EOPNOTSUPP, "atomic" },
	{ "device@open-no-resources", "drmModeGetResources", 1, ENOMEM, ENOMEM, "KMS resources" },
	{ "device@open-no-plane-resources", "drmModeGetPlaneResources", 1, EIO, EIO,
		"plane resources" },
	{ "device@open-no-plane", "drmModeGetPlane", 3, ENOENT, ENOENT, "cannot get plane" },
	{ "device@open-no-crtc-props", "drmModeObjectGetProperties", 1, EIO, EIO, NULL },
};

static void test_open_failure(void **state)
{
	struct unit_fixture *f = *state;
	const struct open_failure *tc = f->param;
	mock_drm_fail_nth(tc->func, tc->nth, tc->inject);
	errno = 0;
	assert_null(dispman_device_create_for_fd(f->mock_fd));
	assert_int_equal(errno, tc->want_errno);
	if (tc->log)
		assert_true(unit_log_find(DISPMAN_LOG_ERROR, tc->log));
	else
		assert_error_logged(NULL);
	/* The caller's fd is untouched. */
	assert_true(fcntl(f->mock_fd, F_GETFD) >= 0);
}

/* No writeback client cap: the device opens, without writeback connectors. */
static void test_no_writeback_cap(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_fail_nth("drmSetClientCap", 3, EINVAL);
	unit_open_device(f);
	assert_int_equal(device_n_writebacks(f->dev), 0);
	assert_int_equal(dispman_device_get_output_count(f->dev), 1);
}

static void test_outputs(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_device *dev = f->dev;
	/* The writeback connector is not an output. */
	assert_int_equal(dispman_device_get_output_count(dev), 1);
	struct dispman_output *out = dispman_device_get_output(dev, 0);
	assert_ptr_equal(out, f->out);
	assert_ptr_equal(dispman_output_get_device(out), dev);
	assert_string_equal(dispman_output_get_name(out), "Virtual-1");
	assert_int_equal(dispman_output_get_connector_id(out), MOCK_VKMS_VIRTUAL);
	assert_int_equal(dispman_output_get_status(out), DISPMAN_CONNECTED);
	assert_int_equal(dispman_output_get_crtc_id(out), 0);
	assert_false(dispman_output_is_enabled(out));
	assert_null(dispman_output_get_current_mode(out));
	dispman_output_get_physical_size(out, NULL, NULL);

	errno = 0;
	assert_null(dispman_device_get_output(dev, 1));
	assert_int_equal(errno, EINVAL);
	assert_error_logged("out of range");

	assert_int_equal(device_n_writebacks(dev), 1);
	assert_int_equal(writeback_connector_id(device_writeback(dev, 0)), MOCK_VKMS_WRITEBACK);
	assert_int_equal(writeback_possible_crtcs(device_writeback(dev, 0)), 1);
	assert_int_equal(device_n_crtcs(dev), 1);
	assert_int_equal(crtc_id(device_crtc(dev, 0)), MOCK_VKMS_CRTC);
	assert_int_equal(crtc_index(device_crtc(dev, 0)), 0);
	assert_ptr_equal(crtc_find(dev, MOCK_VKMS_CRTC), device_crtc(dev, 0));
	assert_null(crtc_find(dev, MOCK_VKMS_CRTC + 1));
}

static void test_modes(void **state)
{
	struct unit_fixture *f = *state;
	static const struct {
		uint32_t w, h, mhz_min, mhz_max;
		bool preferred;
	} want[] = {
		{ 1024, 768, 60003, 60005, true },  /* 65 MHz / (1344 * 806) */
		{ 1920, 1080, 60000, 60000, false },
		{ 1280, 720, 60000, 60000, false },
		{ 800, 600, 60316, 60317, false },
		{ 640, 480, 59940, 59941, false },
	};
	assert_int_equal(dispman_output_get_mode_count(f->out), UNIT_ARRAY_LEN(want));
	for (size_t i = 0; i < UNIT_ARRAY_LEN(want); i++) {
		const struct dispman_mode *m = dispman_output_get_mode(f->out, i);
		assert_non_null(m);
		assert_int_equal(m->width, want[i].w);
		assert_int_equal(m->height, want[i].h);
		assert_in_range(m->refresh_mhz, want[i].mhz_min, want[i].mhz_max);
		assert_int_equal((m->flags & DISPMAN_MODE_PREFERRED) != 0, want[i].preferred);
		assert_true(strlen(m->name) > 0);
	}
	const struct dispman_mode *pref = dispman_output_get_preferred_mode(f->out);
	assert_ptr_equal(pref, dispman_output_get_mode(f->out, 0));

	errno = 0;
	assert_null(dispman_output_get_mode(f->out, UNIT_ARRAY_LEN(want)));
	assert_int_equal(errno, EINVAL);
	assert_error_logged("mode index");

	/* enable() finds modes by pointer, by size and refresh, or by size alone. */
	assert_int_equal(dispman_output_enable(f->out, dispman_output_get_mode(f->out, 2)), 0);
	assert_int_equal(dispman_output_get_current_mode(f->out)->width, 1280);
	struct dispman_mode want_mode = { .width = 800, .height = 600 };
	assert_int_equal(dispman_output_enable(f->out, &want_mode), 0);
	assert_int_equal(dispman_output_get_current_mode(f->out)->width, 800);
	assert_int_equal(dispman_output_get_crtc_id(f->out), MOCK_VKMS_CRTC);
	unit_log_clear();
	want_mode = (struct dispman_mode){ .width = 800, .height = 600, .refresh_mhz = 75000 };
	assert_int_equal(dispman_output_enable(f->out, &want_mode), -ENOENT);
	assert_error_logged("no mode 800x600@75.000");
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	assert_ptr_equal(dispman_output_get_current_mode(f->out), pref);
	assert_int_equal(dispman_output_disable(f->out), 0);
	assert_false(dispman_output_is_enabled(f->out));
	assert_int_equal(dispman_output_get_crtc_id(f->out), 0);
}

/* The kernel's mode: the CRTC's MODE_ID blob in the mock, as a width (0: no blob). */
static uint32_t kernel_mode_width(struct unit_fixture *f, drmModeModeInfo *info)
{
	uint64_t blob_id = 0;
	assert_true(mock_drm_get_prop(MOCK_VKMS_CRTC, "MODE_ID", &blob_id));
	if (!blob_id)
		return 0;
	drmModePropertyBlobPtr blob = drmModeGetPropertyBlob(dispman_device_get_drm_fd(f->dev),
		(uint32_t)blob_id);
	assert_non_null(blob);
	assert_int_equal(blob->length, sizeof(*info));
	memcpy(info, blob->data, sizeof(*info));
	drmModeFreePropertyBlob(blob);
	return info->hdisplay;
}

/*
 * The active mode is the kernel's (the CRTC's MODE_ID after the commit), the current mode
 * the pending one: they differ between enable() with another mode and its commit.
 */
static void test_active_mode(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_mode m;
	drmModeModeInfo k;
	unit_log_clear();
	assert_int_equal(dispman_output_get_active_mode(f->out, &m), -ENODATA);
	assert_true(unit_log_find(DISPMAN_LOG_DEBUG, "no active mode"));
	assert_int_equal(dispman_output_get_active_mode(NULL, &m), -EINVAL);
	assert_error_logged("out is NULL");
	assert_int_equal(dispman_output_get_active_mode(f->out, NULL), -EINVAL);
	assert_error_logged("mode is NULL");

	/* enabled, not committed: pending only */
	assert_int_equal(dispman_output_enable(f->out, NULL), 0);
	assert_non_null(dispman_output_get_current_mode(f->out));
	assert_int_equal(dispman_output_get_active_mode(f->out, &m), -ENODATA);
	struct dispman_buffer *base = unit_show_first_frame(f, 0);
	assert_int_equal(dispman_output_get_active_mode(f->out, &m), 0);
	assert_int_equal(kernel_mode_width(f, &k), 1024);
	assert_int_equal(m.width, k.hdisplay);
	assert_int_equal(m.height, k.vdisplay);
	assert_true(m.flags & DISPMAN_MODE_PREFERRED);
	assert_memory_equal(&m, dispman_output_get_preferred_mode(f->out), sizeof(m));

	/* another mode pending: the active one stays until the commit */
	const struct dispman_mode *other = dispman_output_get_mode(f->out, 3); /* 800x600 */
	assert_int_equal(dispman_output_enable(f->out, other), 0);
	assert_ptr_equal(dispman_output_get_current_mode(f->out), other);
	assert_int_equal(dispman_output_get_active_mode(f->out, &m), 0);
	assert_int_equal(m.width, 1024);
	struct dispman_buffer *small = unit_pattern_buffer(f->dev, 800, 600, DRM_FORMAT_XRGB8888,
		1);
	assert_int_equal(dispman_output_set_buffer(f->out, small), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	/* the commit returned: the kernel has the mode, before its flip completes */
	assert_int_equal(dispman_output_get_active_mode(f->out, &m), 0);
	assert_int_equal(kernel_mode_width(f, &k), 800);
	assert_memory_equal(&m, other, sizeof(m));
	assert_int_equal(m.refresh_mhz, other->refresh_mhz);
	unit_drain(f->dev);

	/* a refused modeset leaves the kernel's mode, and the active one, as they were */
	assert_int_equal(dispman_output_enable(f->out, dispman_output_get_mode(f->out, 4)), 0);
	mock_drm_fail_next("drmModeAtomicCommit/apply", EINVAL);
	assert_true(dispman_device_commit(f->dev) < 0);
	assert_int_equal(kernel_mode_width(f, &k), 800);
	assert_int_equal(dispman_output_get_active_mode(f->out, &m), 0);
	assert_int_equal(m.width, 800);

	/* disabled by a commit: no active mode */
	assert_int_equal(dispman_output_disable(f->out), 0);
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	assert_int_equal(kernel_mode_width(f, &k), 0);
	assert_int_equal(dispman_output_get_active_mode(f->out, &m), -ENODATA);
	dispman_buffer_unref(small);
	dispman_buffer_unref(base);
}

/* A connector without modes, a disconnected one, and one CRTC for two outputs. */
static void test_custom_outputs(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888 };
	drmModeModeInfo mode = mock_drm_mode(640, 480, 60, false);
	mock_drm_add_crtc();
	mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_DisplayPort,
		.status = DRM_MODE_DISCONNECTED,
	});
	mock_drm_add_connector(&(struct mock_drm_connector_info){
		.type = DRM_MODE_CONNECTOR_HDMIA,
		.mm_width = 600,
		.mm_height = 340,
		.modes = &mode,
		.num_modes = 1,
	});
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY,
		.formats = formats,
		.num_formats = 1,
	});
	unit_open_device(f);
	assert_int_equal(dispman_device_get_output_count(f->dev), 2);
	struct dispman_output *dp = dispman_device_get_output(f->dev, 0);
	struct dispman_output *hdmi = dispman_device_get_output(f->dev, 1);
	assert_string_equal(dispman_output_get_name(dp), "DP-1");
	assert_string_equal(dispman_output_get_name(hdmi), "HDMI-A-1");
	assert_int_equal(dispman_output_get_status(dp), DISPMAN_DISCONNECTED);
	assert_ptr_equal(f->out, hdmi);
	uint32_t w = 0, h = 0;
	dispman_output_get_physical_size(hdmi, &w, &h);
	assert_int_equal(w, 600);
	assert_int_equal(h, 340);

	/* The only mode is preferred when none is flagged. */
	assert_int_equal(dispman_output_get_preferred_mode(hdmi)->width, 640);
	unit_log_clear();
	errno = 0;
	assert_null(dispman_output_get_preferred_mode(dp));
	assert_int_equal(errno, ENOENT);
	assert_error_logged("has no modes");
	unit_log_clear();
	assert_int_equal(dispman_output_enable(dp, NULL), -ENOENT);
	assert_error_logged("has no modes");
}

static void test_no_connected_output(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_set_connector_status(MOCK_VKMS_VIRTUAL, DRM_MODE_DISCONNECTED);
	f->dev = dispman_device_create_for_fd(f->mock_fd);
	assert_non_null(f->dev);
	errno = 0;
	assert_null(dispman_device_get_first_connected_output(f->dev));
	assert_int_equal(errno, ENOENT);
	assert_error_logged("no connected output");
}

static void test_two_outputs_one_crtc(void **state)
{
	struct unit_fixture *f = *state;
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888 };
	drmModeModeInfo mode = mock_drm_mode(640, 480, 60, true);
	mock_drm_add_crtc();
	for (int i = 0; i < 2; i++)
		mock_drm_add_connector(&(struct mock_drm_connector_info){
			.type = DRM_MODE_CONNECTOR_HDMIA,
			.modes = &mode,
			.num_modes = 1,
		});
	mock_drm_add_plane(&(struct mock_drm_plane_info){
		.type = DRM_PLANE_TYPE_PRIMARY,
		.formats = formats,
		.num_formats = 1,
	});
	unit_open_device(f);
	struct dispman_output *a = dispman_device_get_output(f->dev, 0);
	struct dispman_output *b = dispman_device_get_output(f->dev, 1);
	assert_string_equal(dispman_output_get_name(b), "HDMI-A-2");
	assert_int_equal(dispman_output_enable(a, NULL), 0);
	unit_log_clear();
	assert_int_equal(dispman_output_enable(b, NULL), -EBUSY);
	assert_error_logged("no free CRTC");
	assert_false(dispman_output_is_enabled(b));
	/* Freed by disabling the other one. */
	assert_int_equal(dispman_output_disable(a), 0);
	assert_int_equal(dispman_output_enable(b, NULL), 0);
}

static bool has_pair(const struct plane *p, uint32_t format, uint64_t modifier)
{
	size_t n;
	const struct plan_format *formats = plane_formats(p, &n);
	for (size_t i = 0; i < n; i++)
		if (formats[i].format == format && formats[i].modifier == modifier)
			return true;
	return false;
}

static void check_vkms_planes(struct dispman_device *dev, bool in_formats)
{
	static const uint32_t primary[] = {
		DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB16161616, DRM_FORMAT_RGB565,
	};
	static const uint32_t others[] = {
		DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB16161616,
		DRM_FORMAT_ARGB16161616, DRM_FORMAT_RGB565,
	};
	assert_int_equal(device_n_planes(dev), 10);
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		const struct plane *p = device_plane(dev, i);
		const uint32_t *fmts = i == 0 ? primary : others;
		size_t n = i == 0 ? UNIT_ARRAY_LEN(primary) : UNIT_ARRAY_LEN(others);
		int type = i == 0 ? DRM_PLANE_TYPE_PRIMARY :
			i == 9 ? DRM_PLANE_TYPE_CURSOR : DRM_PLANE_TYPE_OVERLAY;
		assert_int_equal(plane_id(p), i == 0 ? MOCK_VKMS_PRIMARY :
			i == 9 ? MOCK_VKMS_CURSOR : MOCK_VKMS_OVERLAY(i - 1));
		assert_int_equal(plane_type(p), type);
		assert_int_equal(plane_possible_crtcs(p), 1);
		/* IN_FORMATS: LINEAR only. The plain list: LINEAR and implicit. */
		size_t n_formats;
		plane_formats(p, &n_formats);
		assert_int_equal(n_formats, in_formats ? n : 2 * n);
		for (size_t j = 0; j < n; j++) {
			assert_true(plane_has_format(p, fmts[j]));
			assert_true(has_pair(p, fmts[j], DRM_FORMAT_MOD_LINEAR));
			assert_int_equal(has_pair(p, fmts[j], DRM_FORMAT_MOD_INVALID), !in_formats);
			assert_true(plane_has_format_modifier(p, fmts[j], DRM_FORMAT_MOD_INVALID));
			assert_false(plane_has_format_modifier(p, fmts[j],
				I915_FORMAT_MOD_X_TILED));
		}
		assert_false(plane_has_format(p, DRM_FORMAT_NV12));
		assert_int_equal(plane_has_format(p, DRM_FORMAT_ARGB8888), i != 0);
		assert_false(plane_zpos_mutable(p));
		assert_int_equal(plane_props(p)->zpos, 0);
		assert_int_equal(plane_props(p)->alpha, 0);
		assert_int_equal(plane_props(p)->rotation, 0);
		assert_int_equal(plane_props(p)->in_formats != 0, in_formats);
	}
}

static void test_planes(void **state)
{
	struct unit_fixture *f = *state;
	check_vkms_planes(f->dev, true);
	assert_string_equal(plane_type_name(DRM_PLANE_TYPE_CURSOR), "cursor");
}

/* Without DRM_CAP_ADDFB2_MODIFIERS there is no IN_FORMATS: the plain format list is read. */
static void test_planes_without_modifiers(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_set_cap(DRM_CAP_ADDFB2_MODIFIERS, 0);
	unit_open_device(f);
	assert_false(device_addfb2_modifiers(f->dev));
	check_vkms_planes(f->dev, false);
}

static void test_limits(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_limits l = { .size = sizeof(l) };
	dispman_device_get_limits(f->dev, &l);
	assert_int_equal(l.min_width, 10);
	assert_int_equal(l.min_height, 10);
	assert_int_equal(l.max_width, 8192);
	assert_int_equal(l.max_height, 8192);
	assert_int_equal(l.cursor_width, 512);
	assert_int_equal(l.cursor_height, 512);
}

/* Without the cursor caps the limits fall back to 64x64. */
static void test_limits_default_cursor(void **state)
{
	struct unit_fixture *f = *state;
	mock_drm_unset_cap(DRM_CAP_CURSOR_WIDTH);
	mock_drm_unset_cap(DRM_CAP_CURSOR_HEIGHT);
	unit_open_device(f);
	struct dispman_limits l = { .size = sizeof(l) };
	dispman_device_get_limits(f->dev, &l);
	assert_int_equal(l.cursor_width, 64);
	assert_int_equal(l.cursor_height, 64);
}

static void test_properties(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_device *dev = f->dev;
	const struct crtc *crtc = device_crtc(dev, 0);
	const struct crtc_props *cp = crtc_props(crtc);
	assert_int_equal(cp->active, mock_drm_prop_id(MOCK_VKMS_CRTC, "ACTIVE"));
	assert_int_equal(cp->mode_id, mock_drm_prop_id(MOCK_VKMS_CRTC, "MODE_ID"));
	assert_int_equal(cp->out_fence_ptr, mock_drm_prop_id(MOCK_VKMS_CRTC, "OUT_FENCE_PTR"));
	assert_int_not_equal(cp->active, 0);

	const struct dispman_output *out = f->out;
	assert_int_equal(output_props(out)->crtc_id,
		mock_drm_prop_id(MOCK_VKMS_VIRTUAL, "CRTC_ID"));
	assert_int_equal(output_props(out)->writeback_fb_id, 0);

	const struct connector_props *wp = writeback_props(device_writeback(dev, 0));
	assert_int_equal(wp->crtc_id, mock_drm_prop_id(MOCK_VKMS_WRITEBACK, "CRTC_ID"));
	assert_int_equal(wp->writeback_fb_id,
		mock_drm_prop_id(MOCK_VKMS_WRITEBACK, "WRITEBACK_FB_ID"));
	assert_int_equal(wp->writeback_out_fence_ptr,
		mock_drm_prop_id(MOCK_VKMS_WRITEBACK, "WRITEBACK_OUT_FENCE_PTR"));
	assert_int_equal(wp->writeback_pixel_formats,
		mock_drm_prop_id(MOCK_VKMS_WRITEBACK, "WRITEBACK_PIXEL_FORMATS"));

	static const char *const plane_prop_names[] = {
		"FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y",
		"CRTC_W", "CRTC_H", "type", "IN_FORMATS",
	};
	for (size_t i = 0; i < device_n_planes(dev); i++) {
		const struct plane *p = device_plane(dev, i);
		const struct plane_props *pp = plane_props(p);
		const uint32_t ids[] = {
			pp->fb_id, pp->crtc_id, pp->src_x, pp->src_y, pp->src_w, pp->src_h,
			pp->crtc_x, pp->crtc_y, pp->crtc_w, pp->crtc_h, pp->type, pp->in_formats,
		};
		for (size_t j = 0; j < UNIT_ARRAY_LEN(plane_prop_names); j++) {
			assert_int_not_equal(ids[j], 0);
			assert_int_equal(ids[j], mock_drm_prop_id(plane_id(p), plane_prop_names[j]));
		}
	}

	/* props_get_value / props_get_enum_value / props_is_immutable against the mock. */
	uint64_t v = 0;
	int fd = device_fd(dev);
	assert_int_equal(props_get_value(fd, MOCK_VKMS_PRIMARY, DRM_MODE_OBJECT_PLANE, "type",
		&v), 0);
	assert_int_equal(v, DRM_PLANE_TYPE_PRIMARY);
	assert_int_equal(props_get_value(fd, MOCK_VKMS_CURSOR, DRM_MODE_OBJECT_PLANE, "type",
		&v), 0);
	assert_int_equal(v, DRM_PLANE_TYPE_CURSOR);
	assert_int_equal(props_get_value(fd, MOCK_VKMS_PRIMARY, DRM_MODE_OBJECT_PLANE, "zpos",
		&v), -ENOENT);
	const struct plane_props *pp0 = plane_props(device_plane(dev, 0));
	assert_int_equal(props_get_enum_value(device_fd(dev), pp0->type, "Overlay", &v), 0);
	assert_int_equal(v, DRM_PLANE_TYPE_OVERLAY);
	assert_int_equal(props_get_enum_value(device_fd(dev), pp0->type, "Sideways", &v), -ENOENT);
	assert_true(props_is_immutable(device_fd(dev), pp0->type));
	assert_false(props_is_immutable(device_fd(dev), pp0->fb_id));
	assert_false(props_is_immutable(device_fd(dev), 0x05ffffffu));

	/* Nothing is on screen after opening. */
	assert_true(mock_drm_get_prop(MOCK_VKMS_CRTC, "ACTIVE", &v));
	assert_int_equal(v, 0);
	assert_false(crtc_cur_active(crtc));
	assert_int_equal(crtc_cur_mode_blob(crtc), 0);
	assert_null(crtc_user(crtc));
	assert_false(output_active(out));
}

/* Destructors take NULL. */
static void test_destroy_null(void **state)
{
	(void)state;
	dispman_device_destroy(NULL);
	dispman_buffer_unref(NULL);
	dispman_layer_destroy(NULL);
}

int main(int argc, char **argv)
{
	enum { N_FIXED = 18, N = N_FIXED + UNIT_ARRAY_LEN(open_failures) };
	struct CMUnitTest tests[N] = {
		{ "device@open", test_open, unit_setup_vkms_closed, unit_teardown, NULL },
		{ "device@open-env", test_open_env, unit_setup_vkms, unit_teardown, NULL },
		{ "device@open-path", test_open_path, unit_setup_vkms_closed, unit_teardown, NULL },
		{ "device@bad-fd", test_bad_fd, unit_setup_vkms_closed, unit_teardown, NULL },
		{ "device@log-source-path", test_log_source_path, unit_setup_vkms_closed,
			unit_teardown, NULL },
		{ "device@no-writeback-cap", test_no_writeback_cap, unit_setup_vkms_closed,
			unit_teardown, NULL },
		{ "device@outputs", test_outputs, unit_setup_vkms, unit_teardown, NULL },
		{ "device@modes", test_modes, unit_setup_vkms, unit_teardown, NULL },
		{ "device@active-mode", test_active_mode, unit_setup_vkms, unit_teardown, NULL },
		{ "device@custom-outputs", test_custom_outputs, unit_setup_empty, unit_teardown,
			NULL },
		{ "device@no-connected-output", test_no_connected_output, unit_setup_vkms_closed,
			unit_teardown, NULL },
		{ "device@two-outputs-one-crtc", test_two_outputs_one_crtc, unit_setup_empty,
			unit_teardown, NULL },
		{ "device@planes", test_planes, unit_setup_vkms, unit_teardown, NULL },
		{ "device@planes-without-modifiers", test_planes_without_modifiers,
			unit_setup_vkms_closed, unit_teardown, NULL },
		{ "device@limits", test_limits, unit_setup_vkms, unit_teardown, NULL },
		{ "device@limits-default-cursor", test_limits_default_cursor,
			unit_setup_vkms_closed, unit_teardown, NULL },
		{ "device@properties", test_properties, unit_setup_vkms, unit_teardown, NULL },
		{ "device@destroy-null", test_destroy_null, NULL, NULL, NULL },
	};
	for (size_t i = 0; i < UNIT_ARRAY_LEN(open_failures); i++)
		tests[N_FIXED + i] = (struct CMUnitTest){
			.name = open_failures[i].name,
			.test_func = test_open_failure,
			.setup_func = unit_setup_vkms_closed,
			.teardown_func = unit_teardown,
			.initial_state = (void *)&open_failures[i],
		};
	return unit_main("device", tests, N, argc, argv);
}
