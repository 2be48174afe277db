/* SPDX-License-Identifier: MIT */
/*
 * src/wayland/box.h at the edges of int32: the damage union and clip must not overflow
 * (tests/fuzz found wl_surface.damage at x = INT32_MAX, width 1000, overflowing the
 * union's edge sum in dispman-kiosk: UBSan "signed integer overflow").
 */
#include <stdint.h>
#include <stdio.h>

#include "box.h"

static int failed;

static void expect(const char *what, struct box got, struct box want)
{
	if (got.x != want.x || got.y != want.y || got.w != want.w || got.h != want.h) {
		printf("FAIL %s: %d,%d %dx%d, want %d,%d %dx%d\n", what, got.x, got.y, got.w,
			got.h, want.x, want.y, want.w, want.h);
		failed = 1;
	} else {
		printf("ok %s\n", what);
	}
}

int main(void)
{
	struct box a = { 0, 0, 64, 64 }, b = { INT32_MAX, INT32_MAX, 1000, 1000 };
	box_union(&a, &b);
	expect("union with a box past INT32_MAX", a, (struct box){ 0, 0, INT32_MAX, INT32_MAX });

	a = (struct box){ INT32_MIN, INT32_MIN, 10, 10 };
	b = (struct box){ INT32_MAX - 5, INT32_MAX - 5, 5, 5 };
	box_union(&a, &b);
	expect("union from INT32_MIN to INT32_MAX", a,
		(struct box){ INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX });

	a = (struct box){ 10, 20, 30, 40 };
	b = (struct box){ 5, 25, 10, 100 };
	box_union(&a, &b);
	expect("union of ordinary boxes", a, (struct box){ 5, 20, 35, 105 });

	a = (struct box){ INT32_MAX, 0, 1000, 10 };
	box_clip(&a, 64, 64);
	expect("clip of a box past INT32_MAX", a, (struct box){ 0 });

	a = (struct box){ -10, -10, INT32_MAX, INT32_MAX };
	box_clip(&a, 64, 48);
	expect("clip of a box as large as int32", a, (struct box){ 0, 0, 64, 48 });
	return failed;
}
