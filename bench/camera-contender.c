/* SPDX-License-Identifier: MIT */
#include "camera-contender.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *const camera_contender_names[N_C] = {
	"floor (raw V4L2 -> KMS loop)",
	"libdispman camera layer",
	"gst v4l2src io-mode=dmabuf ! kmssink",
};

pid_t camera_contender_spawn(int c, const char *bindir, const char *video, unsigned w,
	unsigned h, unsigned long frames, const char *preload, const char *env_name,
	const char *env_value)
{
	char exe[512], nf[32], size[32], caps[128], dev_arg[128], nb[32];
	snprintf(nf, sizeof(nf), "%lu", frames);
	snprintf(size, sizeof(size), "%ux%u", w, h);
	snprintf(caps, sizeof(caps), "video/x-raw,format=BGRx,width=%u,height=%u", w, h);
	snprintf(dev_arg, sizeof(dev_arg), "device=%s", video);
	snprintf(nb, sizeof(nb), "num-buffers=%lu", frames);
	fflush(stdout);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	setenv("LD_PRELOAD", preload, 1);
	setenv(env_name, env_value, 1);
	if (!freopen("/dev/null", "w", stdout))
		_exit(127);
	if (c == C_FLOOR || c == C_DISPMAN) {
		snprintf(exe, sizeof(exe), "%s/%s", bindir,
			c == C_FLOOR ? "floor-camera" : "dispman-camera");
		execl(exe, exe, "--frames", nf, "--video", video, "--size", size, (char *)NULL);
	} else {
		execlp("gst-launch-1.0", "gst-launch-1.0", "-q", "v4l2src", dev_arg,
			"io-mode=dmabuf", nb, "!", caps, "!", "kmssink", "driver-name=vkms",
			(char *)NULL);
	}
	_exit(127);
}
