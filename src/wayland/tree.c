/* SPDX-License-Identifier: MIT */
/* Queries over the scene: toplevels bottom to top, each surface's stack (the surface under a
 * point from the committed state; the top toplevel as last repainted). */
#include "tree.h"

#include "surface.h"
#include "xdg.h"

struct surface *tree_top_toplevel(struct server *srv)
{
	struct shell_surface *x;
	wl_list_for_each_reverse(x, &srv->toplevels, link) {
		if (!x->popup && x->surface && x->surface->mapped)
			return x->surface;
	}
	return NULL;
}

/* The topmost surface of s's tree at output position (x, y), s's origin at (ox, oy): placed
 * as the scene places them (scene.c's place_tree) but from the committed state, not from
 * the last repaint, so that input follows a commit at once (the repaint may wait for a
 * flip). */
static struct surface *tree_at(struct surface *s, int32_t ox, int32_t oy, bool parent_shown,
	double x, double y, double *sx, double *sy)
{
	bool shown = parent_shown && surface_has_content(s);
	struct stack_entry *e;
	wl_list_for_each_reverse(e, &s->stack, link) {
		if (e->surface != s) {
			struct subsurface *sub = e->surface->sub;
			struct surface *hit = tree_at(e->surface, ox + (sub ? sub->x : 0),
				oy + (sub ? sub->y : 0), shown, x, y, sx, sy);
			if (hit)
				return hit;
			continue;
		}
		if (!shown)
			continue;
		int32_t w, h;
		surface_get_size(s, &w, &h);
		if (x >= ox && y >= oy && x < (double)ox + w && y < (double)oy + h &&
		    surface_accepts_input(s, x - ox, y - oy)) {
			*sx = x - ox;
			*sy = y - oy;
			return s;
		}
	}
	return NULL;
}

struct surface *tree_surface_at(struct server *srv, double x, double y, double *sx,
	double *sy)
{
	struct shell_surface *t;
	wl_list_for_each_reverse(t, &srv->toplevels, link) {
		int32_t ox = 0, oy = 0;
		if (!t->surface || !t->configured || !xdg_surface_origin(t, &ox, &oy))
			continue;
		struct surface *hit = tree_at(t->surface, ox, oy, true, x, y, sx, sy);
		if (hit)
			return hit;
	}
	return NULL;
}

bool tree_surface_origin(struct surface *s, int32_t *ox, int32_t *oy)
{
	int32_t x = 0, y = 0;
	/* up the subsurfaces to the shell surface (a bounded depth: no cycle is possible,
	 * wl_subcompositor refuses them, but a broken tree must not hang input) */
	for (int depth = 0; s && s->sub && depth < 64; depth++) {
		x += s->sub->x;
		y += s->sub->y;
		s = s->sub->parent;
	}
	int32_t sx, sy;
	if (!s || s->sub || !s->xdg || !s->xdg->configured || !xdg_surface_origin(s->xdg, &sx, &sy))
		return false;
	*ox = x + sx;
	*oy = y + sy;
	return true;
}

struct surface *tree_keyboard_target(struct server *srv)
{
	struct shell_surface *x;
	wl_list_for_each_reverse(x, &srv->toplevels, link) {
		if (x->popup && x->grab && !x->done && x->surface && x->surface->mapped)
			return x->surface;
	}
	return tree_top_toplevel(srv);
}
