// SPDX-License-Identifier: GPL-2.0
/* rbsim: what every leg model shares: creation and the disk's accounting. */
#include <stdlib.h>

#include "sim-int.h"

struct leg_model *leg_new(struct sim *s, const struct leg_spec *spec,
			  unsigned int index)
{
	struct leg_model *m = sim_alloc(sizeof(*m));

	m->sim = s;
	m->spec = spec;
	m->index = index;
	m->slow = 1;
	/* its own stream: a leg's randomness does not depend on the others */
	rng_seed(&m->rng, s->cfg->seed, 1000 + index);
	if (spec->kind == LEG_HDD)
		leg_hdd_init(m);
	else
		leg_pipe_init(m);
	return m;
}

void leg_free(struct leg_model *m)
{
	if (!m)
		return;
	m->destroy(m);
	free(m);
}

static void leg_submit(struct leg_model *m, struct leg_req *r)
{
	m->tagged++;
	r->leg = m;
	r->queued = m->sim->now;
	m->submit(m, r);
}

/*
 * blk_mq_get_tag(): a request gets one of the leg's nr_requests tags and
 * goes to the model, or its submitter waits, in order, for one to free.
 * Returns true if it got one now.
 */
static bool leg_take_tag(struct leg_model *m, struct leg_req *r)
{
	unsigned int tags = m->spec->nr_requests ? m->spec->nr_requests : 1;

	if (m->tagged < tags && !m->tag_head) {
		leg_submit(m, r);
		return true;
	}
	r->tag_next = NULL;
	if (m->tag_tail)
		m->tag_tail->tag_next = r;
	else
		m->tag_head = r;
	m->tag_tail = r;
	return false;
}

/* dm-delay's timer: the held request goes on to the disk. */
static void leg_release(struct sim *s, void *arg)
{
	struct leg_req *r = arg;

	(void)s;
	leg_take_tag(r->leg, r);
}

/*
 * A delay in front of the disk (dm-delay, the benchmark's slowdown) takes
 * the request at once, so its submitter never waits for a tag, and holds
 * it; then it queues for a tag as any other.
 */
bool leg_queue(struct leg_model *m, struct leg_req *r)
{
	r->held = m->delay;
	if (!m->delay)
		return leg_take_tag(m, r);
	r->leg = m;
	sim_at(m->sim, m->sim->now + m->delay, leg_release, r);
	return true;
}

/* The request got a slot: the block layer's request starts its clock. */
void leg_dispatched(struct leg_model *m, struct leg_req *r)
{
	r->dispatched = m->sim->now;
}

/* The request ended now: part_stat, its tag to the next, then the core. */
void leg_done(struct leg_model *m, struct leg_req *r)
{
	struct leg_req *next = m->tag_head;

	if (!r->write) {
		m->disk_reads++;
		/* dm's accounting of the delay device counts the hold */
		m->disk_read_ns += m->sim->now - r->dispatched + r->held;
	}
	m->tagged--;
	if (next) {
		m->tag_head = next->tag_next;
		if (!m->tag_head)
			m->tag_tail = NULL;
		leg_submit(m, next);
		if (!next->held)
			core_req_tagged(m->sim, next);
	}
	core_req_done(m->sim, r);
}
