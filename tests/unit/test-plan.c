/* SPDX-License-Identifier: MIT */
/*
 * The planner (src/plan.c) on its own: no libdrm, no mock, no device. One line per
 * scenario: the planes (bottom to top), the layers (bottom to top), the learned limits and
 * the expected assignment. Every case also checks what any plan must satisfy (planes and
 * zpos increasing upwards, the composition buffer exactly when the primary has no layer,
 * each placed layer fits its plane, the same input gives the same plan).
 *
 * Planes: TYPE[:FORMATS][/zMIN-MAX][/a][/b], TYPE P(rimary) O(verlay) C(ursor); formats
 *   X (XRGB8888), A (ARGB8888), R (RGB565), each with the LINEAR modifier; z a zpos range
 *   (equal ends: immutable), a an alpha property, b a blend mode property with all modes,
 *   r a rotation property with every value.
 * Layers: FS:F (the whole 100x100 screen) or X,Y,WxH:F, then flags: s source half the
 *   size (scaled 2x), S a 1x1 source (scaled beyond 16x), r unreadable by the CPU, m a
 *   tiled modifier, a plane alpha 0x8000, c blend mode COVERAGE, u updated every frame,
 *   k banned by a refused test (KERNEL_REJECTED), n no framebuffer, t turned by the plane
 *   (rotate-270: an output transform of 90).
 * Expected, per layer: N (plane index) or N@Z (and zpos), cR composited with reason R,
 *   -R not shown with reason R; R one of F(ormat) M(odifier) S(caling) A(lpha) N(o plane)
 *   T (stacking) K (kernel rejected) B(udget) R(otation).
 */
#include "plan.h"
#include "unit-main.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 100
#define H 100
#define MAXL 16
#define FOURCC(a, b, c, d) ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | \
	((uint32_t)(d) << 24))

struct scenario {
	const char *name, *planes, *layers, *expect;
	size_t cap;
	bool no_scaling;
};

static const struct scenario scenarios[] = {
	/* basics */
	{ "one-fullscreen", "P:X O:X", "FS:X", "0@0" },
	{ "primary-must-cover", "P:X", "10,10,50x50:X", "cN" },
	{ "overlays-stack", "P:X O:XA O:XA O:XA",
	  "FS:X 10,10,20x20:A 20,20,20x20:A 30,30,20x20:A", "0@0 1@1 2@2 3@3" },
	{ "nothing", "P:X O:X", "", "" },
	/* libliftoff-style: more layers than planes; the biggest get them */
	{ "more-layers-than-planes", "P:X O:A O:A",
	  "FS:X 0,0,30x30:A 40,40,20x20:A 70,70,10x10:A", "cN 1 2 cN" },
	{ "more-layers-than-planes-cap", "P:X O:A O:A O:A",
	  "FS:X 0,0,30x30:A 40,40,20x20:A 70,70,10x10:A", "cN 1 cN cN", .cap = 2 },
	/* priority: a layer updated every frame before a bigger static one */
	{ "priority-size", "P:X O:X", "FS:X 10,10,40x40:X 60,60,10x10:X", "cN 1 cN" },
	{ "priority-rate", "P:X O:X", "FS:X 10,10,40x40:X 60,60,10x10:Xu", "cN cN 1" },
	/* needs a plane (dispman_layer_set_needs_plane()): before size and update rate */
	{ "needs-plane", "P:X O:X", "FS:X 10,10,40x40:X 60,60,10x10:Xp", "cN cN 1" },
	{ "needs-plane-over-rate", "P:X O:X", "FS:X 10,10,40x40:Xp 60,60,10x10:Xu", "cN 1 cN" },
	/* zpos: mutable ranges number the planes upwards; two planes sharing an immutable
	 * zpos cannot stack, so only the top layer keeps an overlay */
	{ "zpos-range", "P:X/z0-0 O:A/z1-3 O:A/z1-3",
	  "FS:X 10,10,30x30:A 20,20,30x30:A", "0@0 1@1 2@2" },
	{ "zpos-primary-above-min", "P:X/z2-4 O:A/z0-5", "FS:X 10,10,30x30:A", "0@2 1@3" },
	{ "zpos-same-immutable", "P:X/z0-0 O:A/z1-1 O:A/z1-1",
	  "FS:X 10,10,20x20:A 20,20,10x10:A", "cN cN 1@1" },
	{ "zpos-disjoint-still-ordered", "P:X/z0-0 O:A/z1-1 O:A/z1-1",
	  "FS:X 0,0,20x20:A 50,50,10x10:A", "cN 1@1 cN" },
	/* a layer that must stay under an overlay: the only plane it takes is above the one
	 * the layer over it takes, so it is composited and the upper one keeps its plane */
	{ "under-an-overlay", "P:X O:X O:XA",
	  "FS:X 10,10,30x30:A 20,20,30x30:X", "cN cN 1" },
	/* planes follow the layers' order even when the layers are disjoint: the same */
	{ "under-an-overlay-disjoint", "P:X O:X O:XA",
	  "FS:X 10,10,30x30:A 60,60,30x30:X", "cN cN 1" },
	/* format and modifier on no overlay */
	{ "format-on-no-overlay", "P:X O:X O:X", "FS:X 10,10,20x20:A", "cT cF" },
	{ "format-unreadable", "P:X O:X O:X", "FS:X 10,10,20x20:Ar", "0 -F" },
	{ "format-beside", "P:X O:X", "FS:X 10,10,20x20:R 60,60,20x20:X", "cT cF 1" },
	{ "modifier", "P:X O:X", "FS:X 10,10,20x20:Xm", "cT cM" },
	{ "no-framebuffer", "P:X O:X", "FS:X 10,10,20x20:Xn", "cT cF" },
	/* scaling: refused once the kernel said so, and beyond 16x always */
	{ "scaling-allowed", "P:X O:X", "FS:X 10,10,40x40:Xs", "0 1" },
	{ "scaling-refused", "P:X O:X", "FS:X 10,10,40x40:Xs", "cT cS", .no_scaling = true },
	{ "scaling-beyond-16x", "P:X O:X", "FS:X 10,10,40x40:XS", "cT cS" },
	{ "scaling-primary-refused", "P:X O:X", "FS:Xs", "cS", .no_scaling = true },
	/* plane alpha and blend modes */
	{ "alpha-no-property", "P:X O:X", "FS:X 10,10,20x20:Xa", "cT cA" },
	{ "alpha-property", "P:X O:X/a", "FS:X 10,10,20x20:Xa", "0 1" },
	{ "blend-no-property", "P:X O:A", "FS:X 10,10,20x20:Ac", "cT cA" },
	{ "blend-property", "P:X O:A/b", "FS:X 10,10,20x20:Ac", "0 1" },
	/* cursor planes: only layers within the cursor size */
	/* output transforms: a turned layer needs a plane with the rotation it needs */
	{ "rotation-no-property", "P:X O:X", "FS:X 10,10,20x20:Xt", "cT cR" },
	{ "rotation-property", "P:X/r O:X/r", "FS:Xt 10,10,20x20:Xt", "0 1" },
	{ "rotation-overlay-only", "P:X O:X/r", "FS:Xt 10,10,20x20:Xt", "cN 1" },
	{ "rotation-primary-only", "P:X/r O:X", "FS:Xt 10,10,20x20:Xt", "cT cR" },
	{ "cursor-fits", "P:X C:A", "FS:X 10,10,32x32:A", "0 1" },
	{ "cursor-too-big", "P:X C:A", "FS:X 10,10,80x80:A", "cT cN" },
	/* occluded: a layer wholly under another gets no plane; the one on top keeps it */
	{ "occluded", "P:X O:X", "FS:X 10,10,20x20:X 0,0,50x50:X", "cN cN 1" },
	{ "occluded-enough-planes", "P:X O:X O:X", "FS:X 10,10,20x20:X 0,0,50x50:X", "0 1 2" },
	/* refused by the kernel: banned layers are composited, and so is what they cover */
	{ "kernel-rejected", "P:X O:X O:X", "FS:X 10,10,20x20:Xk 60,60,20x20:X", "cT cK 1" },
	{ "kernel-rejected-unreadable", "P:X O:X", "FS:X 10,10,20x20:Xrk", "0 -K" },
};

static uint32_t fourcc(char c)
{
	switch (c) {
	case 'X': return FOURCC('X', 'R', '2', '4');
	case 'A': return FOURCC('A', 'R', '2', '4');
	case 'R': return FOURCC('R', 'G', '1', '6');
	default: return 0;
	}
}

static enum dispman_placement_reason reason(char c)
{
	switch (c) {
	case 'F': return DISPMAN_REASON_FORMAT;
	case 'M': return DISPMAN_REASON_MODIFIER;
	case 'S': return DISPMAN_REASON_SCALING;
	case 'A': return DISPMAN_REASON_ALPHA;
	case 'N': return DISPMAN_REASON_NO_PLANE;
	case 'T': return DISPMAN_REASON_STACKING;
	case 'K': return DISPMAN_REASON_KERNEL_REJECTED;
	case 'B': return DISPMAN_REASON_BUDGET;
	case 'R': return DISPMAN_REASON_ROTATION;
	default: return (enum dispman_placement_reason)-1;
	}
}

struct setup {
	struct plan_plane planes[PLAN_MAX_PLANES];
	struct plan_format formats[PLAN_MAX_PLANES][4];
	struct plan_layer layers[MAXL];
	struct plan_input in;
};

static int bad(const char *name, const char *what, const char *tok)
{
	fprintf(stderr, "%s: bad %s \"%s\"\n", name, what, tok);
	return -1;
}

static int parse_planes(const struct scenario *s, struct setup *st)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s->planes);
	size_t n = 0;
	for (char *save, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		struct plan_plane *p = &st->planes[n];
		*p = (struct plan_plane){ .formats = st->formats[n] };
		p->type = tok[0] == 'P' ? PLAN_PLANE_PRIMARY : tok[0] == 'C' ? PLAN_PLANE_CURSOR :
			PLAN_PLANE_OVERLAY;
		const char *c = tok + 1;
		if (*c == ':')
			for (c++; *c && *c != '/'; c++)
				st->formats[n][p->n_formats++] = (struct plan_format){ fourcc(*c), 0 };
		while (*c == '/') {
			c++;
			unsigned a, b;
			if (*c == 'z' && sscanf(c, "z%u-%u", &a, &b) == 2) {
				p->has_zpos = true;
				p->zpos_min = a;
				p->zpos_max = b;
			} else if (*c == 'a') {
				p->has_alpha = true;
			} else if (*c == 'r') {
				p->rotations = 0x3f; /* rotate-0/90/180/270, reflect-x/y */
			} else if (*c == 'b') {
				p->has_blend_mode = p->blend[0] = p->blend[1] = p->blend[2] = true;
			} else {
				return bad(s->name, "plane", tok);
			}
			while (*c && *c != '/')
				c++;
		}
		n++;
	}
	st->in.planes = st->planes;
	st->in.n_planes = n;
	return 0;
}

static int parse_layers(const struct scenario *s, struct setup *st)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s->layers);
	size_t n = 0;
	for (char *save, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int x = 0, y = 0, w = W, h = H, used = 0;
		if (strncmp(tok, "FS", 2) == 0)
			used = 2;
		else if (sscanf(tok, "%d,%d,%dx%d%n", &x, &y, &w, &h, &used) != 4)
			return bad(s->name, "layer", tok);
		if (tok[used] != ':' || !fourcc(tok[used + 1]) || n >= MAXL)
			return bad(s->name, "layer", tok);
		struct plan_layer *l = &st->layers[n++];
		*l = (struct plan_layer){
			.vis = { x < 0 ? 0 : x, y < 0 ? 0 : y, x + w > W ? W : x + w,
				 y + h > H ? H : y + h },
			.src_w = (uint32_t)w << 16, .src_h = (uint32_t)h << 16,
			.dst_x = x, .dst_y = y, .dst_w = (uint32_t)w, .dst_h = (uint32_t)h,
			.format = fourcc(tok[used + 1]),
			.modifier = PLAN_MOD_ANY,
			.has_fb = true,
			.has_alpha = tok[used + 1] == 'A',
			.alpha = 0xffff,
			.blend = DISPMAN_BLEND_PREMULTIPLIED,
			.readable = true,
		};
		for (const char *f = tok + used + 2; *f; f++) {
			switch (*f) {
			case 's': l->src_w /= 2; l->src_h /= 2; break;
			case 'S': l->src_w = l->src_h = 1 << 16; break;
			case 'r': l->readable = false; break;
			case 'm': l->modifier = 1; break;
			case 'a': l->alpha = 0x8000; break;
			case 'c': l->blend = DISPMAN_BLEND_COVERAGE; break;
			case 'u': l->update_rate = 256; break;
			case 'p': l->needs_plane = true; break;
			case 'k':
				l->banned = true;
				l->ban_reason = DISPMAN_REASON_KERNEL_REJECTED;
				break;
			case 'n': l->has_fb = false; break;
			case 't': l->rotation = 1u << 3; break; /* DRM_MODE_ROTATE_270 */
			default: return bad(s->name, "layer flag", tok);
			}
		}
	}
	st->in.layers = st->layers;
	st->in.n_layers = n;
	return 0;
}

/* What every plan must satisfy, whatever the scenario expects. */
static int check_invariants(const char *name, const struct plan_input *in,
	const struct plan_result *r)
{
	int fails = 0;
	int last_plane = -1;
	long last_z = -1;
	size_t above_primary = 0;
	bool primary_layer = false;
	if (r->comp)
		last_z = r->comp_zpos;
	for (size_t i = 0; i < in->n_layers; i++) {
		const struct plan_layer_result *e = &r->layers[i];
		if (e->plane < 0)
			continue;
		const struct plan_plane *p = &in->planes[e->plane];
		if (e->plane <= last_plane || (long)e->zpos <= last_z) {
			fprintf(stderr, "%s: layer %zu on plane %d zpos %u is not above the one "
				"below (plane %d zpos %ld)\n", name, i, e->plane, e->zpos, last_plane,
				last_z);
			fails++;
		}
		if (p->has_zpos && (e->zpos < p->zpos_min || e->zpos > p->zpos_max)) {
			fprintf(stderr, "%s: layer %zu zpos %u outside plane %d's range\n", name, i,
				e->zpos, e->plane);
			fails++;
		}
		if (plan_check_plane(in, p, e->plane == 0, &in->layers[i]) != DISPMAN_REASON_NONE) {
			fprintf(stderr, "%s: layer %zu is on plane %d, which cannot show it\n", name,
				i, e->plane);
			fails++;
		}
		primary_layer = primary_layer || e->plane == 0;
		above_primary += e->plane > 0;
		last_plane = e->plane;
		last_z = e->zpos;
	}
	if (r->comp == primary_layer) {
		fprintf(stderr, "%s: composition buffer %d but a layer on the primary %d\n", name,
			r->comp, primary_layer);
		fails++;
	}
	if (r->used != 1 + above_primary) {
		fprintf(stderr, "%s: %zu planes used, expected %zu\n", name, r->used,
			1 + above_primary);
		fails++;
	}
	return fails;
}

/* Field by field: padding bytes are no part of a result. */
static bool same_layer_result(const struct plan_layer_result *a,
	const struct plan_layer_result *b)
{
	return a->plane == b->plane && a->zpos == b->zpos && a->reason == b->reason &&
		a->priority == b->priority && a->placeable == b->placeable;
}

static int run(const struct scenario *s)
{
	struct setup st = { .in = { .width = W, .height = H } };
	st.in.limits = (struct plan_limits){
		.plane_cap = s->cap, .no_scaling = s->no_scaling,
		.cursor_width = 64, .cursor_height = 64,
	};
	if (parse_planes(s, &st) < 0 || parse_layers(s, &st) < 0)
		return 1;
	struct plan_layer_result res[MAXL], again[MAXL];
	struct plan_result r = { .layers = res }, r2 = { .layers = again };
	if (plan_compute(&st.in, &r) != 0 || plan_compute(&st.in, &r2) != 0) {
		fprintf(stderr, "%s: plan_compute failed\n", s->name);
		return 1;
	}
	int fails = check_invariants(s->name, &st.in, &r);
	if (r.comp != r2.comp || r.comp_zpos != r2.comp_zpos || r.used != r2.used) {
		fprintf(stderr, "%s: a second plan differs (composition buffer or planes used)\n",
			s->name);
		fails++;
	}
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s->expect);
	size_t i = 0;
	for (char *save, *tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		if (i >= st.in.n_layers) {
			fprintf(stderr, "%s: more expectations than layers\n", s->name);
			return 1;
		}
		const struct plan_layer_result *e = &res[i];
		char got[32];
		if (e->plane >= 0)
			snprintf(got, sizeof(got), "%d@%u", e->plane, e->zpos);
		else
			snprintf(got, sizeof(got), "%s%d", st.layers[i].readable ? "c" : "-",
				(int)e->reason);
		bool ok;
		if (tok[0] == 'c' || tok[0] == '-')
			ok = e->plane < 0 && (tok[0] == 'c') == st.layers[i].readable &&
				e->reason == reason(tok[1]);
		else if (strchr(tok, '@'))
			ok = e->plane >= 0 && strcmp(got, tok) == 0;
		else
			ok = e->plane == atoi(tok);
		if (!ok) {
			fprintf(stderr, "%s: layer %zu: expected %s, got %s (reasons as numbers)\n",
				s->name, i, tok, got);
			fails++;
		}
		if (!same_layer_result(&res[i], &again[i])) {
			fprintf(stderr, "%s: layer %zu: a second plan differs\n", s->name, i);
			fails++;
		}
	}
	if (i != st.in.n_layers) {
		fprintf(stderr, "%s: %zu expectations for %zu layers\n", s->name, i,
			st.in.n_layers);
		return 1;
	}
	if (!fails)
		printf("%s: ok\n", s->name);
	return fails ? 1 : 0;
}

/* Bad input fails with EINVAL and touches nothing. */
static int run_invalid(void)
{
	struct plan_plane pl = { .type = PLAN_PLANE_PRIMARY };
	struct plan_layer l = { 0 };
	struct plan_layer_result res[1] = { { .plane = 7 } };
	struct plan_result r = { .layers = res };
	struct plan_input none = { .width = W, .height = H };
	struct plan_input no_array = { .n_layers = 1, .planes = &pl, .n_planes = 1 };
	struct plan_input too_many = { .layers = &l, .n_layers = 1, .planes = &pl,
		.n_planes = PLAN_MAX_PLANES + 1 };
	int fails = 0;
	fails += plan_compute(NULL, &r) != -EINVAL;
	fails += plan_compute(&none, &r) != -EINVAL;
	fails += plan_compute(&no_array, &r) != -EINVAL;
	fails += plan_compute(&too_many, &r) != -EINVAL;
	fails += res[0].plane != 7;
	if (fails)
		fprintf(stderr, "invalid: %d checks failed\n", fails);
	else
		printf("invalid: ok\n");
	return fails ? 1 : 0;
}

static void test_scenario(void **state)
{
	if (run(*state))
		fail();
}

static void test_invalid(void **state)
{
	(void)state;
	if (run_invalid())
		fail();
}

int main(int argc, char **argv)
{
	enum { N = sizeof(scenarios) / sizeof(scenarios[0]) };
	static char names[N][96];
	struct CMUnitTest tests[N + 1];
	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "plan@%s", scenarios[i].name);
		tests[i] = (struct CMUnitTest){ names[i], test_scenario, NULL, NULL,
			(void *)&scenarios[i] };
	}
	tests[N] = (struct CMUnitTest){ "plan@invalid", test_invalid, NULL, NULL, NULL };
	return unit_main("plan", tests, N + 1, argc, argv);
}
