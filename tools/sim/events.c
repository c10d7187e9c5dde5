// SPDX-License-Identifier: GPL-2.0
/* rbsim: the event queue. */
#include <stdio.h>
#include <stdlib.h>

#include "events.h"

static int before(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void evq_push(struct evq *q, simtime_t t, event_fn fn, void *arg)
{
	struct event e = { .t = t, .seq = q->seq++, .fn = fn, .arg = arg };
	size_t i, up;

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 1024;
		q->h = realloc(q->h, q->cap * sizeof(*q->h));
		if (!q->h) {
			perror("rbsim");
			exit(2);
		}
	}
	for (i = q->n++; i; i = up) {
		up = (i - 1) / 2;
		if (!before(&e, &q->h[up]))
			break;
		q->h[i] = q->h[up];
	}
	q->h[i] = e;
}

int evq_pop(struct evq *q, struct event *e)
{
	struct event last;
	size_t i, c;

	if (!q->n)
		return 0;
	*e = q->h[0];
	last = q->h[--q->n];
	for (i = 0; (c = 2 * i + 1) < q->n; i = c) {
		if (c + 1 < q->n && before(&q->h[c + 1], &q->h[c]))
			c++;
		if (!before(&q->h[c], &last))
			break;
		q->h[i] = q->h[c];
	}
	q->h[i] = last;
	return 1;
}

void evq_free(struct evq *q)
{
	free(q->h);
	q->h = NULL;
	q->n = q->cap = 0;
}
