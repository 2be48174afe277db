/* SPDX-License-Identifier: MIT */
/* An intrusive, doubly linked list. */
#ifndef DISPMAN_LIST_H
#define DISPMAN_LIST_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct list {
	struct list *prev, *next;
};

static inline void list_init(struct list *l)
{
	l->prev = l->next = l;
}

static inline void list_insert_tail(struct list *head, struct list *elm)
{
	/* an element is in at most one list: fresh (zeroed) or removed (self-linked) */
	assert(!elm->next || elm->next == elm);
	elm->next = head;
	elm->prev = head->prev;
	head->prev->next = elm;
	head->prev = elm;
}

static inline void list_remove(struct list *elm)
{
	/* removing an element that is not linked where its neighbours say corrupts the list */
	assert(elm->prev->next == elm && elm->next->prev == elm);
	elm->prev->next = elm->next;
	elm->next->prev = elm->prev;
	elm->prev = elm->next = elm;
}

static inline bool list_empty(const struct list *l)
{
	return l->next == l;
}

#define list_for_each_safe(pos, tmp, head) \
	for (pos = (head)->next, tmp = pos->next; pos != (head); pos = tmp, tmp = pos->next)

#endif
