/* Video file sources for examples/player: see video.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "video.h"

#if HAVE_FFMPEG
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#endif

enum chroma { C420, C422, C444, CMONO };

struct video {
	bool loop;
	uint32_t width, height;
	double fps;
	/* Y4M */
	FILE *f;
	long data_start;
	enum chroma chroma;
	uint8_t *frame;
	size_t frame_size;
	/* scaling maps, rebuilt when the target size changes */
	uint32_t map_w, map_h, dx0, dy0, dw, dh;
	uint32_t *xmap, *ymap;
#if HAVE_FFMPEG
	AVFormatContext *fmt;
	AVCodecContext *codec;
	struct SwsContext *sws;
	AVPacket *pkt;
	AVFrame *av;
	int stream;
	bool drained;
#endif
};

static inline uint8_t clamp8(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static inline uint32_t yuv_pixel(int y, int u, int v)
{
	int c = 298 * (y - 16), d = u - 128, e = v - 128;
	return (uint32_t)clamp8((c + 409 * e + 128) >> 8) << 16 |
	       (uint32_t)clamp8((c - 100 * d - 208 * e + 128) >> 8) << 8 |
	       (uint32_t)clamp8((c + 516 * d + 128) >> 8) | 0xff000000u;
}

/* Fit the video into dst_w x dst_h, keeping its aspect ratio. */
static int build_maps(struct video *v, uint32_t dst_w, uint32_t dst_h)
{
	if (v->xmap && v->map_w == dst_w && v->map_h == dst_h)
		return 0;
	free(v->xmap);
	free(v->ymap);
	v->xmap = calloc(dst_w, sizeof(uint32_t));
	v->ymap = calloc(dst_h, sizeof(uint32_t));
	if (!v->xmap || !v->ymap)
		return -1;
	v->map_w = dst_w;
	v->map_h = dst_h;
	if ((uint64_t)dst_w * v->height <= (uint64_t)dst_h * v->width) {
		v->dw = dst_w;
		v->dh = (uint32_t)((uint64_t)dst_w * v->height / v->width);
	} else {
		v->dh = dst_h;
		v->dw = (uint32_t)((uint64_t)dst_h * v->width / v->height);
	}
	v->dx0 = (dst_w - v->dw) / 2;
	v->dy0 = (dst_h - v->dh) / 2;
	for (uint32_t x = 0; x < v->dw; x++)
		v->xmap[x] = (uint32_t)((uint64_t)x * v->width / v->dw);
	for (uint32_t y = 0; y < v->dh; y++)
		v->ymap[y] = (uint32_t)((uint64_t)y * v->height / v->dh);
	return 0;
}

static int y4m_header(struct video *v)
{
	char line[512];
	if (!fgets(line, sizeof(line), v->f) || strncmp(line, "YUV4MPEG2 ", 10) != 0) {
		fprintf(stderr, "video: not a YUV4MPEG2 file\n");
		return -1;
	}
	v->fps = 30;
	v->chroma = C420;
	for (char *tok = strtok(line + 10, " \n"); tok; tok = strtok(NULL, " \n")) {
		switch (tok[0]) {
		case 'W': v->width = (uint32_t)strtoul(tok + 1, NULL, 10); break;
		case 'H': v->height = (uint32_t)strtoul(tok + 1, NULL, 10); break;
		case 'F': {
			unsigned long n = 0, d = 1;
			if (sscanf(tok + 1, "%lu:%lu", &n, &d) == 2 && n && d)
				v->fps = (double)n / (double)d;
			break;
		}
		case 'C':
			if (strncmp(tok + 1, "420", 3) == 0)
				v->chroma = C420;
			else if (strcmp(tok + 1, "422") == 0)
				v->chroma = C422;
			else if (strcmp(tok + 1, "444") == 0)
				v->chroma = C444;
			else if (strcmp(tok + 1, "mono") == 0)
				v->chroma = CMONO;
			else {
				fprintf(stderr, "video: unsupported Y4M colour space %s\n", tok);
				return -1;
			}
			break;
		default:
			break;
		}
	}
	if (!v->width || !v->height || v->width > 8192 || v->height > 8192) {
		fprintf(stderr, "video: bad Y4M size %ux%u\n", v->width, v->height);
		return -1;
	}
	size_t luma = (size_t)v->width * v->height;
	size_t cw = v->chroma == C444 ? v->width : (v->width + 1) / 2;
	size_t ch = v->chroma == C420 ? (v->height + 1) / 2 : v->height;
	v->frame_size = luma + (v->chroma == CMONO ? 0 : 2 * cw * ch);
	v->frame = malloc(v->frame_size);
	v->data_start = ftell(v->f);
	return v->frame ? 0 : -1;
}

static int y4m_next(struct video *v, uint8_t *dst, uint32_t stride, uint32_t dst_w, uint32_t dst_h)
{
	char line[256];
	if (!fgets(line, sizeof(line), v->f)) {
		if (!v->loop || fseek(v->f, v->data_start, SEEK_SET) != 0 ||
		    !fgets(line, sizeof(line), v->f))
			return 0;
	}
	if (strncmp(line, "FRAME", 5) != 0) {
		fprintf(stderr, "video: broken Y4M frame header\n");
		return -1;
	}
	if (fread(v->frame, 1, v->frame_size, v->f) != v->frame_size) {
		/* a truncated last frame ends the clip (or restarts it) */
		if (!v->loop || ftell(v->f) <= v->data_start + (long)v->frame_size ||
		    fseek(v->f, v->data_start, SEEK_SET) != 0)
			return 0;
		return y4m_next(v, dst, stride, dst_w, dst_h);
	}
	if (build_maps(v, dst_w, dst_h) < 0)
		return -1;
	size_t cw = v->chroma == C444 ? v->width : (v->width + 1) / 2;
	size_t ch = v->chroma == C420 ? (v->height + 1) / 2 : v->height;
	const uint8_t *Y = v->frame, *U = Y + (size_t)v->width * v->height, *V = U + cw * ch;
	for (uint32_t y = 0; y < dst_h; y++) {
		uint32_t *row = (uint32_t *)(void *)(dst + (size_t)y * stride);
		if (y < v->dy0 || y >= v->dy0 + v->dh) {
			memset(row, 0, (size_t)dst_w * 4);
			continue;
		}
		uint32_t sy = v->ymap[y - v->dy0];
		size_t cy = v->chroma == C420 ? sy / 2 : sy;
		for (uint32_t x = 0; x < dst_w; x++) {
			if (x < v->dx0 || x >= v->dx0 + v->dw) {
				row[x] = 0xff000000u;
				continue;
			}
			uint32_t sx = v->xmap[x - v->dx0];
			size_t cx = v->chroma == C444 ? sx : sx / 2;
			int yy = Y[(size_t)sy * v->width + sx];
			row[x] = v->chroma == CMONO ? yuv_pixel(yy, 128, 128) :
				yuv_pixel(yy, U[cy * cw + cx], V[cy * cw + cx]);
		}
	}
	return 1;
}

#if HAVE_FFMPEG
static int ff_open(struct video *v, const char *path)
{
	if (avformat_open_input(&v->fmt, path, NULL, NULL) < 0 ||
	    avformat_find_stream_info(v->fmt, NULL) < 0) {
		fprintf(stderr, "video: FFmpeg cannot open %s\n", path);
		return -1;
	}
	const AVCodec *dec = NULL;
	v->stream = av_find_best_stream(v->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &dec, 0);
	if (v->stream < 0 || !dec) {
		fprintf(stderr, "video: no decodable video stream in %s\n", path);
		return -1;
	}
	v->codec = avcodec_alloc_context3(dec);
	if (!v->codec ||
	    avcodec_parameters_to_context(v->codec, v->fmt->streams[v->stream]->codecpar) < 0 ||
	    avcodec_open2(v->codec, dec, NULL) < 0) {
		fprintf(stderr, "video: cannot open the %s decoder\n", dec->name);
		return -1;
	}
	v->width = (uint32_t)v->codec->width;
	v->height = (uint32_t)v->codec->height;
	AVRational r = v->fmt->streams[v->stream]->avg_frame_rate;
	v->fps = r.num && r.den ? av_q2d(r) : 30.0;
	v->pkt = av_packet_alloc();
	v->av = av_frame_alloc();
	return v->pkt && v->av && v->width && v->height ? 0 : -1;
}

static int ff_decode(struct video *v)
{
	for (;;) {
		int r = avcodec_receive_frame(v->codec, v->av);
		if (r == 0)
			return 1;
		if (r == AVERROR_EOF) {
			if (!v->loop)
				return 0;
			av_seek_frame(v->fmt, v->stream, 0, AVSEEK_FLAG_BACKWARD);
			avcodec_flush_buffers(v->codec);
			v->drained = false;
			continue;
		}
		if (r != AVERROR(EAGAIN))
			return -1;
		if (v->drained) {
			avcodec_send_packet(v->codec, NULL);
			continue;
		}
		r = av_read_frame(v->fmt, v->pkt);
		if (r < 0) {
			v->drained = true;
			avcodec_send_packet(v->codec, NULL);
			continue;
		}
		if (v->pkt->stream_index == v->stream)
			avcodec_send_packet(v->codec, v->pkt);
		av_packet_unref(v->pkt);
	}
}

static int ff_next(struct video *v, uint8_t *dst, uint32_t stride, uint32_t dst_w, uint32_t dst_h)
{
	int r = ff_decode(v);
	if (r <= 0)
		return r;
	if (build_maps(v, dst_w, dst_h) < 0)
		return -1;
	v->sws = sws_getCachedContext(v->sws, v->av->width, v->av->height, v->av->format,
		(int)v->dw, (int)v->dh, AV_PIX_FMT_BGR0, SWS_POINT, NULL, NULL, NULL);
	if (!v->sws)
		return -1;
	for (uint32_t y = 0; y < dst_h; y++)
		memset(dst + (size_t)y * stride, 0, (size_t)dst_w * 4);
	uint8_t *planes[4] = { dst + (size_t)v->dy0 * stride + (size_t)v->dx0 * 4 };
	int strides[4] = { (int)stride };
	sws_scale(v->sws, (const uint8_t *const *)v->av->data, v->av->linesize, 0,
		v->av->height, planes, strides);
	return 1;
}
#endif

struct video *video_open(const char *path, bool loop)
{
	struct video *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->loop = loop;
	size_t n = strlen(path);
	if (n > 4 && strcmp(path + n - 4, ".y4m") == 0) {
		v->f = fopen(path, "rb");
		if (!v->f) {
			fprintf(stderr, "video: cannot open %s: %s\n", path, strerror(errno));
			goto fail;
		}
		if (y4m_header(v) < 0)
			goto fail;
		return v;
	}
#if HAVE_FFMPEG
	if (ff_open(v, path) == 0)
		return v;
#else
	fprintf(stderr, "video: %s: only .y4m files (this build has no FFmpeg)\n", path);
#endif
fail:
	video_close(v);
	return NULL;
}

void video_close(struct video *v)
{
	if (!v)
		return;
	if (v->f)
		fclose(v->f);
	free(v->frame);
	free(v->xmap);
	free(v->ymap);
#if HAVE_FFMPEG
	sws_freeContext(v->sws);
	av_frame_free(&v->av);
	av_packet_free(&v->pkt);
	avcodec_free_context(&v->codec);
	avformat_close_input(&v->fmt);
#endif
	free(v);
}

void video_get_info(struct video *v, uint32_t *width, uint32_t *height, double *fps)
{
	*width = v->width;
	*height = v->height;
	*fps = v->fps;
}

int video_next(struct video *v, uint8_t *dst, uint32_t stride, uint32_t dst_w, uint32_t dst_h)
{
	if (v->f)
		return y4m_next(v, dst, stride, dst_w, dst_h);
#if HAVE_FFMPEG
	return ff_next(v, dst, stride, dst_w, dst_h);
#else
	return -1;
#endif
}
