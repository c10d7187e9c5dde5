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

void leg_submit(struct leg_model *m, struct leg_req *r)
{
	r->leg = m;
	r->queued = m->sim->now;
	m->submit(m, r);
}

/* The request got a slot: the block layer's request starts its clock. */
void leg_dispatched(struct leg_model *m, struct leg_req *r)
{
	r->dispatched = m->sim->now;
}

/* The request ended now: part_stat, then the core. */
void leg_done(struct leg_model *m, struct leg_req *r)
{
	if (!r->write) {
		m->disk_reads++;
		m->disk_read_ns += m->sim->now - r->dispatched;
	}
	core_req_done(m->sim, r);
}
