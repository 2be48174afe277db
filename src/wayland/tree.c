/* SPDX-License-Identifier: MIT */
/* Queries over the scene as last repainted: toplevels bottom to top, each surface's stack. */
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

static bool point_in(const struct surface *s, double x, double y)
{
	return s->mapped && x >= s->x && y >= s->y && x < s->x + s->w && y < s->y + s->h &&
		surface_accepts_input(s, x - s->x, y - s->y);
}

static struct surface *tree_at(struct surface *s, double x, double y)
{
	struct stack_entry *e;
	wl_list_for_each_reverse(e, &s->stack, link) {
		struct surface *hit = e->surface == s ? (point_in(s, x, y) ? s : NULL) :
			tree_at(e->surface, x, y);
		if (hit)
			return hit;
	}
	return NULL;
}

struct surface *tree_surface_at(struct server *srv, double x, double y, double *sx,
	double *sy)
{
	struct shell_surface *t;
	wl_list_for_each_reverse(t, &srv->toplevels, link) {
		if (!t->surface || !t->surface->mapped)
			continue;
		struct surface *hit = tree_at(t->surface, x, y);
		if (hit) {
			*sx = x - hit->x;
			*sy = y - hit->y;
			return hit;
		}
	}
	return NULL;
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
