/* SPDX-License-Identifier: GPL-2.0 */
/* rbsim: the event queue, a binary heap ordered by (time, insertion). */
#ifndef RBSIM_EVENTS_H
#define RBSIM_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

struct sim;
typedef void (*event_fn)(struct sim *s, void *arg);

struct event {
	simtime_t t;
	uint64_t seq;		/* equal times run in insertion order */
	event_fn fn;
	void *arg;
};

struct evq {
	struct event *h;
	size_t n, cap;
	uint64_t seq;
};

void evq_push(struct evq *q, simtime_t t, event_fn fn, void *arg);
/* The earliest event into *e; 0 if the queue is empty. */
int evq_pop(struct evq *q, struct event *e);
void evq_free(struct evq *q);

#endif
