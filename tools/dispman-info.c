/* SPDX-License-Identifier: MIT */
/*
 * dispman-info [--json|--dot|--text] [--pipeline [--pid PID]] [device path]: print the KMS
 * pipeline, or the whole pipeline graph (cameras, buffers, layers, planes, CRTCs,
 * connectors) of a device or of a running program that publishes it.
 */
#include <dispman/dispman.h>
#include <dispman/pipeline.h>

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int usage(FILE *f)
{
	fprintf(f, "usage: dispman-info [--json|--dot|--text] [--pipeline [--pid PID]] "
		"[device path]\n"
		"  without a path: $DISPMAN_DEVICE, else the first card with a connected connector\n"
		"  --pipeline: the whole pipeline graph (cameras, buffers, layers, planes, CRTCs,\n"
		"              connectors) of the device as this process sees it (no layers)\n"
		"  --pid PID:  the live pipeline a running program publishes\n"
		"              (dispman_device_publish_pipeline(): $XDG_RUNTIME_DIR or /tmp,\n"
		"              dispman-PID-CARD.sock), each of its devices in turn\n");
	return f == stdout ? 0 : 2;
}

/* Ask one published socket for its pipeline in format; copy the answer to stdout. */
static int query_socket(const char *path, const char *format)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (fd < 0 || strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "dispman-info: %s: %s\n", path, fd < 0 ? strerror(errno) :
			"path too long");
		if (fd >= 0)
			close(fd);
		return 1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		fprintf(stderr, "dispman-info: cannot connect to %s: %s\n", path, strerror(errno));
		close(fd);
		return 1;
	}
	/* the program answers from its event loop: give it time (a slow guest) */
	struct timeval tv = { .tv_sec = 30 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	char req[16];
	int n = snprintf(req, sizeof(req), "%s\n", format);
	if (write(fd, req, (size_t)n) != n) {
		fprintf(stderr, "dispman-info: %s: %s\n", path, strerror(errno));
		close(fd);
		return 1;
	}
	char buf[4096];
	ssize_t got;
	size_t total = 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, (size_t)got, stdout);
		total += (size_t)got;
	}
	int err = got < 0 ? errno : 0;
	close(fd);
	if (got < 0 || total == 0) {
		fprintf(stderr, "dispman-info: %s: %s\n", path, got < 0 ? strerror(err) :
			"no answer");
		return 1;
	}
	return 0;
}

/* Every dispman-PID-*.sock in $XDG_RUNTIME_DIR and /tmp. The names a publisher makes
 * (dispman-PID-NODE.sock, NODE a name in /dev/dri, or "card") are looked up first by
 * name: a directory listing of the guests' /tmp was seen to miss a socket that existed
 * (a readdir racing other files' creation and removal). The listing then adds any other
 * name with the prefix. */
static bool seen(char (*paths)[512], int n, const char *path)
{
	for (int i = 0; i < n && i < 64; i++)
		if (!strcmp(paths[i], path))
			return true;
	return false;
}

static int query_pid(long pid, const char *format)
{
	const char *dirs[] = { getenv("XDG_RUNTIME_DIR"), "/tmp" };
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "dispman-%ld-", pid);
	static char paths[64][512];
	int found = 0, ret = 0;
	for (size_t d = 0; d < 2; d++) {
		if (!dirs[d] || !*dirs[d] || (d == 1 && dirs[0] && !strcmp(dirs[0], "/tmp")))
			continue;
		char names[66][256];
		int n_names = 0;
		snprintf(names[n_names++], sizeof(names[0]), "card");
		DIR *dri = opendir("/dev/dri");
		struct dirent *e;
		while (dri && (e = readdir(dri)) && n_names < 65)
			if (e->d_name[0] != '.')
				snprintf(names[n_names++], sizeof(names[0]), "%s", e->d_name);
		if (dri)
			closedir(dri);
		for (int i = 0; i < n_names; i++) {
			char path[512];
			struct stat st;
			int len = snprintf(path, sizeof(path), "%s/%s%s.sock", dirs[d], prefix,
				names[i]);
			if (len > 0 && (size_t)len < sizeof(path) && stat(path, &st) == 0 && S_ISSOCK(st.st_mode) && found < 64)
				snprintf(paths[found++], sizeof(paths[0]), "%s", path);
		}
		DIR *dir = opendir(dirs[d]);
		while (dir && (e = readdir(dir))) {
			size_t len = strlen(e->d_name);
			if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < 5 ||
			    strcmp(e->d_name + len - 5, ".sock") != 0)
				continue;
			char path[512];
			snprintf(path, sizeof(path), "%s/%s", dirs[d], e->d_name);
			if (!seen(paths, found, path) && found < 64)
				snprintf(paths[found++], sizeof(paths[0]), "%s", path);
		}
		if (dir)
			closedir(dir);
	}
	for (int i = 0; i < found; i++) {
		if (i && !strcmp(format, "text"))
			putchar('\n');
		if (query_socket(paths[i], format) != 0)
			ret = 1;
	}
	if (!found) {
		fprintf(stderr, "dispman-info: process %ld publishes no pipeline (no "
			"dispman-%ld-*.sock in $XDG_RUNTIME_DIR or /tmp)\n", pid, pid);
		return 1;
	}
	return ret;
}

int main(int argc, char **argv)
{
	enum dispman_describe_format format = DISPMAN_DESCRIBE_TEXT;
	const char *path = NULL;
	bool pipeline = false;
	long pid = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			format = DISPMAN_DESCRIBE_JSON;
		} else if (strcmp(argv[i], "--dot") == 0) {
			format = DISPMAN_DESCRIBE_DOT;
		} else if (strcmp(argv[i], "--text") == 0) {
			format = DISPMAN_DESCRIBE_TEXT;
		} else if (strcmp(argv[i], "--pipeline") == 0) {
			pipeline = true;
		} else if (strcmp(argv[i], "--pid") == 0 && i + 1 < argc) {
			char *end;
			pid = strtol(argv[++i], &end, 10);
			if (*end || pid <= 0)
				return usage(stderr);
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			return usage(stdout);
		} else if (argv[i][0] == '-' || path) {
			return usage(stderr);
		} else {
			path = argv[i];
		}
	}
	static const char *const names[] = { "text", "json", "dot" };
	if (pid) {
		if (!pipeline || path)
			return usage(stderr);
		return query_pid(pid, names[format]);
	}
	struct dispman_device *dev = dispman_device_open(path);
	if (!dev) {
		fprintf(stderr, "dispman-info: cannot open %s: %s\n", path ? path : "a DRM device",
			strerror(errno));
		return 1;
	}
	int ret;
	if (pipeline) {
		struct dispman_pipeline *p = dispman_pipeline_create(dev);
		ret = p ? dispman_pipeline_write(p, format, stdout) : -errno;
		dispman_pipeline_destroy(p);
	} else {
		ret = dispman_device_describe(dev, format, stdout);
	}
	dispman_device_destroy(dev);
	return ret < 0 ? 1 : 0;
}
