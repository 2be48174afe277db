/*
 * The device discovery rule of dispman_device_open(NULL) on the guest's real devices
 * (profile multi: virtio-gpu card0 and vkms card1, both with a connected connector):
 *
 *   discovery
 *
 * 1. With DISPMAN_DEVICE set (the harness names the device under test), open(NULL) opens
 *    exactly that node.
 * 2. Without it, open(NULL) opens the first card node by number with a connected
 *    connector, worked out here independently from sysfs (/sys/class/drm/cardN-*).
 * 3. DISPMAN_DEVICE naming a missing node fails with ENOENT, no fallback.
 *
 * Exit 0 on success, 1 on the first failure.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dispman/dispman.h>

#include "check.h"

static bool same_node(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_rdev == sb.st_rdev;
}

/* The lowest card number with a connector whose sysfs status is "connected", or -1. */
static int first_connected_card(void)
{
	int best = -1;
	DIR *d = opendir("/sys/class/drm");
	CHECK(d, "no /sys/class/drm");
	struct dirent *e;
	while ((e = readdir(d))) {
		int n, len = 0;
		if (sscanf(e->d_name, "card%d-%n", &n, &len) != 1 || len == 0)
			continue;
		char path[512], buf[32] = "";
		snprintf(path, sizeof(path), "/sys/class/drm/%s/status", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strncmp(buf, "connected", 9) == 0 &&
		    (best < 0 || n < best))
			best = n;
		fclose(f);
	}
	closedir(d);
	return best;
}

static void print_device(const char *what, struct dispman_device *dev)
{
	printf("%s: %s\n", what, dispman_device_get_path(dev));
}

int main(void)
{
	char *env = getenv("DISPMAN_DEVICE") ? strdup(getenv("DISPMAN_DEVICE")) : NULL;
	if (env) {
		struct dispman_device *dev = dispman_device_open(NULL);
		CHECK(dev, "open(NULL) with DISPMAN_DEVICE=%s: %s", env, strerror(errno));
		print_device("DISPMAN_DEVICE set, open(NULL) opened", dev);
		CHECK(dispman_device_get_path(dev) && same_node(dispman_device_get_path(dev), env),
			"opened %s, not DISPMAN_DEVICE=%s", dispman_device_get_path(dev), env);
		dispman_device_destroy(dev);
	}
	unsetenv("DISPMAN_DEVICE");
	int want = first_connected_card();
	CHECK(want >= 0, "no card with a connected connector in sysfs");
	char want_path[64];
	snprintf(want_path, sizeof(want_path), "/dev/dri/card%d", want);
	struct dispman_device *dev = dispman_device_open(NULL);
	CHECK(dev, "open(NULL) without DISPMAN_DEVICE: %s", strerror(errno));
	print_device("DISPMAN_DEVICE unset, open(NULL) opened", dev);
	printf("first card with a connected connector (sysfs): %s\n", want_path);
	CHECK(dispman_device_get_path(dev) && same_node(dispman_device_get_path(dev), want_path),
		"discovery opened %s, the rule says %s", dispman_device_get_path(dev), want_path);
	dispman_device_destroy(dev);

	setenv("DISPMAN_DEVICE", "/dev/dri/card99", 1);
	errno = 0;
	CHECK(!dispman_device_open(NULL) && errno == ENOENT,
		"DISPMAN_DEVICE naming a missing node: errno %d", errno);
	if (env)
		setenv("DISPMAN_DEVICE", env, 1);
	free(env);
	printf("discovery: OK\n");
	return 0;
}
