/* SPDX-License-Identifier: MIT */
/* dispman-info [--json|--dot|--text] [device path]: print the KMS pipeline. */
#include <dispman/dispman.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int usage(FILE *f)
{
	fprintf(f, "usage: dispman-info [--json|--dot|--text] [device path]\n"
		"  without a path: $DISPMAN_DEVICE, else the first card with a connected connector\n");
	return f == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
	enum dispman_describe_format format = DISPMAN_DESCRIBE_TEXT;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			format = DISPMAN_DESCRIBE_JSON;
		else if (strcmp(argv[i], "--dot") == 0)
			format = DISPMAN_DESCRIBE_DOT;
		else if (strcmp(argv[i], "--text") == 0)
			format = DISPMAN_DESCRIBE_TEXT;
		else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return usage(stdout);
		else if (argv[i][0] == '-' || path)
			return usage(stderr);
		else
			path = argv[i];
	}
	struct dispman_device *dev = dispman_device_open(path);
	if (!dev) {
		fprintf(stderr, "dispman-info: cannot open %s: %s\n", path ? path : "a DRM device",
			strerror(errno));
		return 1;
	}
	int ret = dispman_device_describe(dev, format, stdout);
	dispman_device_destroy(dev);
	return ret < 0 ? 1 : 0;
}
