/* Small kernel queries the guest tests share (libdrm only). */
#ifndef DISPMAN_TEST_KMS_UTIL_H
#define DISPMAN_TEST_KMS_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <xf86drm.h>

/*
 * Whether the kernel keeps a vblank counter for the (active) CRTC: DRM_IOCTL_CRTC_GET_SEQUENCE
 * answers EOPNOTSUPP on a device without vblank support (virtio-gpu), whose flip events
 * then all carry sequence 0.
 */
static inline bool crtc_has_vblank_counter(int fd, uint32_t crtc_id)
{
	uint64_t seq, ns;
	return drmCrtcGetSequence(fd, crtc_id, &seq, &ns) == 0 || errno != EOPNOTSUPP;
}

/* /sys/kernel/debug/dri/<minor>/<name> of the device behind fd (card N is minor N). */
static inline int debugfs_dri_path(int fd, const char *name, char *buf, size_t len)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))
		return -1;
	snprintf(buf, len, "/sys/kernel/debug/dri/%u/%s", minor(st.st_rdev), name);
	return 0;
}

#endif
