// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: a leg as null_blk with irqmode=2 serves it (and, with other
 * numbers, flash, a remote disk or ram).  Up to `slots` requests are in
 * service at once; each first passes the transfer path, shared by all, in
 * cmd_ns + bytes / mibps (null_blk's mbps throttle, a flash channel, a
 * network link), then completes lat_ns later (null_blk's completion_nsec,
 * flash read time, the round trip), +-jitter.  Requests beyond the slots
 * wait in order, as for a tag.
 *
 * With tick_ns (rbsim --bucket), the transfer path is null_blk's own mbps
 * throttle instead: a bucket set to mibps * tick every tick (20 ms, not
 * accumulated); a request passes if the bucket holds its bytes, else it
 * and every request behind it wait for the next tick.  A 4 KiB read can
 * then take a tick more than a 128 KiB one, as on the guest's legs.
 */
#include <stdlib.h>

#include "sim-int.h"

struct pipe {
	unsigned int busy;		/* slots in use */
	struct leg_req *head, *tail;	/* waiting for a slot */
	double path_free;		/* when the transfer path is free */
	double tick;			/* bucket: the tick it was set in */
	double bucket;			/* bytes left in it */
};

static void pipe_end(struct sim *s, void *arg);

static void pipe_start(struct leg_model *m, struct leg_req *r)
{
	const struct pipe_params *pp = &m->spec->pipe;
	struct pipe *p = m->priv;
	double now = (double)m->sim->now, t, lat;
	double bytes = (double)r->sectors * 512;

	p->busy++;
	leg_dispatched(m, r);
	t = p->path_free > now ? p->path_free : now;
	if (pp->tick_ns > 0 && pp->mibps > 0) {
		double per = pp->mibps * SIM_MIB * pp->tick_ns / SIM_NS /
			     m->slow;
		double tick = (double)(uint64_t)(t / pp->tick_ns);

		if (tick != p->tick) {
			p->tick = tick;
			p->bucket = per;
		}
		if (p->bucket < bytes) {
			p->tick = tick + 1;
			p->bucket = per;
			t = p->tick * pp->tick_ns;
		}
		p->bucket -= bytes;
		t += m->slow * pp->cmd_ns;
	} else {
		t += m->slow * (pp->cmd_ns +
				(pp->mibps > 0 ?
				 bytes * SIM_NS / (pp->mibps * SIM_MIB) : 0));
	}
	p->path_free = t;
	lat = pp->lat_ns * (1 + pp->jitter * (2 * rng_unit(&m->rng) - 1));
	sim_at(m->sim, sim_ns(t + m->slow * lat), pipe_end, r);
}

static void pipe_end(struct sim *s, void *arg)
{
	struct leg_req *r = arg, *next;
	struct leg_model *m = r->leg;
	struct pipe *p = m->priv;

	(void)s;
	p->busy--;
	next = p->head;
	if (next) {
		p->head = next->next;
		if (!p->head)
			p->tail = NULL;
		pipe_start(m, next);
	}
	leg_done(m, r);
}

static void pipe_submit(struct leg_model *m, struct leg_req *r)
{
	struct pipe *p = m->priv;

	if (p->busy < m->spec->pipe.slots) {
		pipe_start(m, r);
		return;
	}
	r->next = NULL;
	if (p->tail)
		p->tail->next = r;
	else
		p->head = r;
	p->tail = r;
}

static void pipe_destroy(struct leg_model *m)
{
	free(m->priv);
}

void leg_pipe_init(struct leg_model *m)
{
	struct pipe *p = sim_alloc(sizeof(struct pipe));

	p->tick = -1;	/* null_blk starts with a full bucket */
	m->priv = p;
	m->submit = pipe_submit;
	m->destroy = pipe_destroy;
}
