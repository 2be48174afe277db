/* SPDX-License-Identifier: MIT */
/*
 * dispman_pipeline_create() on the vkms-like mock device: layers linked to the planes the
 * commit put them on, planes to their CRTC, CRTC to encoder to connector; the three
 * written forms; the published socket answering a client from dispatch.
 */
#include "unit.h"

#include <dispman/pipeline.h>

#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The index of the node of type and id; fails the test when there is none. */
static size_t find(const struct dispman_pipeline *p, enum dispman_pipeline_node_type type,
	uint32_t id)
{
	for (size_t i = 0; i < dispman_pipeline_get_node_count(p); i++) {
		const struct dispman_pipeline_node *n = dispman_pipeline_get_node(p, i);
		if (n->type == type && n->id == id)
			return i;
	}
	fail_msg("no node of type %d and id %u", (int)type, id);
	return 0;
}

/* The active link of type from node source: its sink, or SIZE_MAX. */
static size_t active_sink(const struct dispman_pipeline *p, size_t source,
	enum dispman_pipeline_link_type type)
{
	for (size_t i = 0; i < dispman_pipeline_get_link_count(p); i++) {
		const struct dispman_pipeline_link *l = dispman_pipeline_get_link(p, i);
		if (l->source == source && l->type == type && l->active)
			return l->sink;
	}
	return SIZE_MAX;
}

/* A full-screen layer on the primary plane, a small one on an overlay: the graph's links
 * are the kernel's path. */
static void test_display(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_buffer *bg = unit_show_first_frame(f, 0x102030);
	struct dispman_layer *small = dispman_layer_create(f->out);
	struct dispman_buffer *sb = unit_pattern_buffer(f->dev, 64, 64, DRM_FORMAT_ARGB8888, 7);
	assert_int_equal(dispman_layer_set_buffer(small, sb), 0);
	assert_int_equal(dispman_layer_set_z(small, 5), 0);
	/* a named layer shows its name in the graph (the kiosk names a toplevel's by app_id) */
	assert_int_equal(dispman_layer_set_name(small, "sprite"), 0);
	assert_string_equal(dispman_layer_get_name(small), "sprite");
	char too_long[DISPMAN_LAYER_NAME_MAX + 2];
	memset(too_long, 'x', sizeof(too_long) - 1);
	too_long[sizeof(too_long) - 1] = '\0';
	assert_int_equal(dispman_layer_set_name(small, too_long), -EINVAL);
	assert_true(unit_log_find(DISPMAN_LOG_ERROR, "more than 63"));
	assert_string_equal(dispman_layer_get_name(small), "sprite"); /* unchanged */
	assert_int_equal(dispman_device_commit(f->dev), 0);
	unit_drain(f->dev);
	struct dispman_placement pl;
	assert_int_equal(dispman_layer_get_placement(small, &pl), 0);
	assert_int_equal(pl.state, DISPMAN_PLACEMENT_ON_PLANE);

	struct dispman_pipeline *p = dispman_pipeline_create(f->dev);
	assert_non_null(p);
	size_t layers = 0, ls = SIZE_MAX;
	for (size_t i = 0; i < dispman_pipeline_get_node_count(p); i++) {
		const struct dispman_pipeline_node *n = dispman_pipeline_get_node(p, i);
		if (n->type != DISPMAN_PIPELINE_LAYER)
			continue;
		layers++;
		if (n->z == 5)
			ls = i;
	}
	assert_int_equal(layers, 2);
	assert_true(ls != SIZE_MAX);
	const struct dispman_pipeline_node *ln = dispman_pipeline_get_node(p, ls);
	assert_non_null(strstr(ln->name, "(sprite)"));
	assert_int_equal(ln->fb_id, dispman_buffer_get_fb_id(sb));
	assert_int_equal(ln->placement.plane_id, pl.plane_id);
	size_t plane = active_sink(p, ls, DISPMAN_PIPELINE_LINK_PLANE);
	assert_int_equal(plane, find(p, DISPMAN_PIPELINE_PLANE, pl.plane_id));
	assert_string_equal(dispman_pipeline_get_node(p, plane)->kind, "overlay");
	size_t crtc = active_sink(p, plane, DISPMAN_PIPELINE_LINK_CRTC);
	assert_int_equal(crtc, find(p, DISPMAN_PIPELINE_CRTC, MOCK_VKMS_CRTC));
	size_t enc = active_sink(p, crtc, DISPMAN_PIPELINE_LINK_ENCODER);
	assert_true(enc != SIZE_MAX);
	size_t conn = active_sink(p, enc, DISPMAN_PIPELINE_LINK_CONNECTOR);
	assert_true(conn != SIZE_MAX);
	assert_int_equal(dispman_pipeline_get_node(p, conn)->type, DISPMAN_PIPELINE_CONNECTOR);
	assert_int_equal(dispman_pipeline_get_node(p, conn)->id,
		dispman_output_get_connector_id(f->out));
	bool writeback = false;
	for (size_t i = 0; i < dispman_pipeline_get_node_count(p); i++)
		writeback = writeback ||
			dispman_pipeline_get_node(p, i)->type == DISPMAN_PIPELINE_WRITEBACK;
	assert_true(writeback);

	for (int fmt = DISPMAN_DESCRIBE_TEXT; fmt <= DISPMAN_DESCRIBE_DOT; fmt++) {
		char *got = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&got, &len);
		assert_int_equal(dispman_pipeline_write(p, (enum dispman_describe_format)fmt,
			mem), 0);
		fclose(mem);
		char needle[32];
		snprintf(needle, sizeof(needle), "%u", pl.plane_id);
		assert_non_null(strstr(got, needle));
		assert_non_null(strstr(got, fmt == DISPMAN_DESCRIBE_DOT ? "digraph pipeline" :
			"Virtual-1"));
		if (fmt == DISPMAN_DESCRIBE_TEXT) {
			/* the named layer's line says its name once */
			assert_non_null(strstr(got, " (sprite) ["));
			assert_null(strstr(got, ": layer "));
		}
		free(got);
	}
	dispman_pipeline_destroy(p);
	dispman_layer_destroy(small);
	dispman_buffer_unref(sb);
	dispman_buffer_unref(bg);
}

static void test_invalid(void **state)
{
	struct unit_fixture *f = *state;
	struct dispman_pipeline *p = dispman_pipeline_create(f->dev);
	assert_non_null(p);
	errno = 0;
	assert_null(dispman_pipeline_get_node(p, dispman_pipeline_get_node_count(p)));
	assert_int_equal(errno, ERANGE);
	assert_error_logged("dispman_pipeline_get_node: node");
	assert_null(dispman_pipeline_get_link(p, 1u << 30));
	assert_int_equal(dispman_pipeline_write(p, (enum dispman_describe_format)9, stdout),
		-EINVAL);
	assert_error_logged("unknown format 9");
	assert_int_equal(dispman_pipeline_write(p, DISPMAN_DESCRIBE_TEXT, NULL), -EINVAL);
	assert_error_logged("out is NULL");
	dispman_pipeline_destroy(p);
	mock_drm_fail_next("drmModeGetResources", EIO);
	errno = 0;
	assert_null(dispman_pipeline_create(f->dev));
	assert_int_equal(errno, EIO);
	assert_error_logged("cannot get KMS resources");
}

/* A client of the published socket gets the JSON, answered from dispatch. */
static void test_publish(void **state)
{
	struct unit_fixture *f = *state;
	char dir[] = "/tmp/dispman-unit-XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("XDG_RUNTIME_DIR", dir, 1);
	assert_null(dispman_device_get_pipeline_socket(f->dev));
	assert_int_equal(dispman_device_publish_pipeline(f->dev), 0);
	assert_int_equal(dispman_device_publish_pipeline(f->dev), 0);
	const char *path = dispman_device_get_pipeline_socket(f->dev);
	assert_non_null(path);
	char prefix[96];
	snprintf(prefix, sizeof(prefix), "%s/dispman-%ld-", dir, (long)getpid());
	assert_memory_equal(path, prefix, strlen(prefix));
	assert_int_equal(access(path, F_OK), 0);

	int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	assert_int_equal(connect(c, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(write(c, "json\n", 5), 5);
	assert_true(unit_dispatch(f->dev, 1000) > 0);
	char buf[65536];
	size_t n = 0;
	ssize_t got;
	while (n < sizeof(buf) - 1 && (got = read(c, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)got;
	buf[n] = 0;
	close(c);
	assert_non_null(strstr(buf, "\"nodes\": ["));
	assert_non_null(strstr(buf, "\"type\": \"crtc\""));

	char copy[128];
	snprintf(copy, sizeof(copy), "%s", path);
	assert_int_equal(dispman_device_unpublish_pipeline(f->dev), 0);
	assert_null(dispman_device_get_pipeline_socket(f->dev));
	assert_int_equal(access(copy, F_OK), -1);
	/* published again, then removed with the device (teardown) */
	assert_int_equal(dispman_device_publish_pipeline(f->dev), 0);
	snprintf(copy, sizeof(copy), "%s", dispman_device_get_pipeline_socket(f->dev));
	dispman_device_destroy(f->dev);
	f->dev = NULL;
	assert_int_equal(access(copy, F_OK), -1);
	assert_int_equal(rmdir(dir), 0);
	unsetenv("XDG_RUNTIME_DIR");
}

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A client that sends its request line one byte every 250 ms and never ends it: the
 * answer runs inside the owner's dispatch, which must come back within the exchange's
 * 1 s bound (it took 15 bytes x 250 ms, about 4 s, when the bound was 1 s a byte). */
static void test_publish_slow_client(void **state)
{
	struct unit_fixture *f = *state;
	char dir[] = "/tmp/dispman-unit-XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("XDG_RUNTIME_DIR", dir, 1);
	assert_int_equal(dispman_device_publish_pipeline(f->dev), 0);
	const char *path = dispman_device_get_pipeline_socket(f->dev);
	assert_non_null(path);
	int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(c >= 0);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	assert_int_equal(connect(c, (struct sockaddr *)&addr, sizeof(addr)), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		for (int i = 0; i < 40; i++) {
			if (write(c, "j", 1) != 1)
				_exit(0);
			usleep(250 * 1000);
		}
		_exit(0);
	}
	int64_t t0 = now_ms();
	assert_true(unit_dispatch(f->dev, 1000) > 0);
	int64_t took = now_ms() - t0;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_true(took >= 900);
	assert_true(took < 2500);
	/* the connection closed without an answer */
	char buf[64];
	ssize_t got = read(c, buf, sizeof(buf));
	close(c);
	assert_true(got <= 0);
	assert_int_equal(dispman_device_unpublish_pipeline(f->dev), 0);
	assert_int_equal(rmdir(dir), 0);
	unsetenv("XDG_RUNTIME_DIR");
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		{ "pipeline@display", test_display, unit_setup_vkms, unit_teardown, NULL },
		{ "pipeline@invalid", test_invalid, unit_setup_vkms, unit_teardown, NULL },
		{ "pipeline@publish", test_publish, unit_setup_vkms, unit_teardown, NULL },
		{ "pipeline@publish-slow-client", test_publish_slow_client, unit_setup_vkms,
			unit_teardown, NULL },
	};
	return unit_main("pipeline", tests, UNIT_ARRAY_LEN(tests), argc, argv);
}
