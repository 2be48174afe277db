/* Video file sources for examples/player: Y4M always, other containers through
 * FFmpeg when the build has it. Frames come out as XRGB8888, scaled (nearest)
 * and letterboxed into the caller's buffer. */
#ifndef DISPMAN_EXAMPLE_VIDEO_H
#define DISPMAN_EXAMPLE_VIDEO_H

#include <stdbool.h>
#include <stdint.h>

struct video;

/* Opens path; NULL with a message on stderr when it cannot. loop: restart at
 * the end instead of reporting it. */
struct video *video_open(const char *path, bool loop);
void video_close(struct video *v);
void video_get_info(struct video *v, uint32_t *width, uint32_t *height, double *fps);
/* Decodes the next frame into dst (XRGB8888, dst_w x dst_h, stride bytes).
 * Returns 1 for a frame, 0 at the end (without loop), -1 on error. */
int video_next(struct video *v, uint8_t *dst, uint32_t stride, uint32_t dst_w, uint32_t dst_h);

#endif
