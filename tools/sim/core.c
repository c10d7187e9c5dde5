// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: what dm-readbal's target core (readbal-target.c) does around the
 * policy, on simulated legs.  A read: the policy selects a leg among the
 * healthy ones in the submitter's context (current->pid, this CPU, the
 * clock), the leg's inflight and last_end are updated and start_io called;
 * at the end the core's ewma_ns and the policy's end_io with the service
 * time.  A write: one clone per leg, ended when all are.  Bios larger than
 * a leg's max_kb are cut for that leg, as its queue would split them.
 * rb_leg_disk_read_wait_ns() (the latency policy) reads each leg's
 * part_stat, cached for a jiffy as the core does.  A policy with a chunk
 * hook may keep only the head of a read for the leg it picks; the rest is
 * routed on its own right away (dm_accept_partial_bio), and the bio ends
 * when all its parts have.  A policy's io_opt raises the read-ahead of
 * buffered readers to 2 * io_opt, as the kernel does at table load.
 */
#include <stdio.h>
#include <string.h>

#include "readbal.h"
#include "sim-int.h"

#define CORE_JIFFY_NS	4000000ULL	/* HZ=250, Debian's */

struct core {
	struct rb_leg legs[RB_MAX_LEGS];
	struct rb_set set;
	struct rb_policy pol;		/* type NULL: a leg alone */
	unsigned long alive;
	u64 reads[RB_MAX_LEGS];
	u64 wait_jiffy[RB_MAX_LEGS];	/* jiffy + 1 of shim_disk_wait_ns */
};

const char *sim_policy_name(unsigned int i)
{
	const struct rb_policy_type *type = rb_policy_type_at(i);

	return type ? type->name : NULL;
}

/* "name[:knob=value[,knob=value]...]" */
static int core_policy(struct core *c, const char *spec, char *err,
		       size_t errlen)
{
	char buf[256], *name, *knobs, *kv, *save = NULL, *val, *why;
	const struct rb_policy_type *type;
	int knob;

	snprintf(buf, sizeof(buf), "%s", spec);
	name = buf;
	knobs = strchr(buf, ':');
	if (knobs)
		*knobs++ = '\0';
	type = rb_policy_find(name);
	if (!type) {
		snprintf(err, errlen, "unknown policy '%s'", name);
		return -1;
	}
	c->pol.type = type;
	c->pol.set = &c->set;
	if (type->create(&c->pol)) {
		snprintf(err, errlen, "policy %s: create failed", name);
		c->pol.type = NULL;
		return -1;
	}
	for (kv = knobs ? strtok_r(knobs, ",", &save) : NULL; kv;
	     kv = strtok_r(NULL, ",", &save)) {
		val = strchr(kv, '=');
		if (val)
			*val++ = '\0';
		knob = rb_policy_knob_index(type, kv);
		why = "no such knob";
		if (!val || knob < 0 || !type->set_knob ||
		    type->set_knob(&c->pol, (unsigned int)knob, val, &why)) {
			snprintf(err, errlen, "policy %s: knob %s: %s", name,
				 kv, val ? why : "expected knob=value");
			return -1;
		}
	}
	return 0;
}

int core_init(struct sim *s, const char *policy, char *err, size_t errlen)
{
	struct core *c = sim_alloc(sizeof(*c));
	unsigned int i, nonrot = 0;

	s->core = c;
	for (i = 0; i < s->nr_legs; i++) {
		const struct leg_spec *spec = s->leg[i]->spec;

		c->legs[i].index = i;
		c->legs[i].nonrot = !spec->rotational;
		c->legs[i].queue_depth = spec->nr_requests ? spec->nr_requests :
							     1;
		nonrot += c->legs[i].nonrot;
		c->alive |= 1UL << i;
	}
	c->set.nr_legs = s->nr_legs;
	c->set.mixed = nonrot && nonrot < s->nr_legs;
	c->set.legs = c->legs;
	memset(shim_disk_wait_ns, 0, sizeof(shim_disk_wait_ns));
	shim_now_ns = 0;
	s->ra = s->cfg->wl.ra;
	if (!policy)
		return 0;
	if (core_policy(c, policy, err, errlen))
		return -1;
	/* disk_update_readahead(): ra_pages = max(2 * io_opt, the default) */
	if (c->pol.type->io_opt && 2ULL * c->pol.type->io_opt(&c->pol) > s->ra)
		s->ra = 2 * c->pol.type->io_opt(&c->pol);
	return 0;
}

void core_fini(struct sim *s)
{
	struct core *c = s->core;

	if (c && c->pol.type)
		c->pol.type->destroy(&c->pol);
	free(c);
	s->core = NULL;
}

uint64_t core_leg_reads(struct sim *s, unsigned int leg)
{
	return s->core->reads[leg];
}

/* Hand @b to leg @i, cut to what the leg takes in one request. */
static void core_to_leg(struct sim *s, struct sim_bio *b, unsigned int i)
{
	uint32_t max = s->leg[i]->spec->max_kb * 2, n;
	uint64_t sector = b->sector, end = b->sector + b->sectors;
	struct leg_req *r;

	for (; sector < end; sector += n) {
		n = max && end - sector > max ? max : (uint32_t)(end - sector);
		r = sim_req_get(s);
		r->sector = sector;
		r->sectors = n;
		r->write = b->write;
		r->bio = b;
		b->pending++;
		leg_submit(s->leg[i], r);
	}
}

/* rb_leg_disk_read_wait_ns(): part_stat read time / reads, per jiffy */
static void core_disk_waits(struct sim *s)
{
	struct core *c = s->core;
	u64 jiffy = s->now / CORE_JIFFY_NS + 1;
	unsigned int i;

	for (i = 0; i < s->nr_legs; i++) {
		struct leg_model *m = s->leg[i];

		if (c->wait_jiffy[i] == jiffy)
			continue;
		c->wait_jiffy[i] = jiffy;
		shim_disk_wait_ns[i] = m->disk_reads ?
			m->disk_read_ns / m->disk_reads : 0;
	}
}

/* rb_route_read(): the policy's leg for @b, accounted, then the leg's */
static void core_route(struct sim *s, struct sim_bio *b)
{
	struct core *c = s->core;
	struct rb_policy *p = &c->pol;
	struct rb_io io = {
		.sector = b->sector,
		.sectors = b->sectors,
		.eligible = c->alive,
	};
	unsigned int i = 0;
	struct rb_leg *leg;

	if (p->type) {
		i = p->type->select(p, &io);
		if (i >= c->set.nr_legs || !rb_leg_eligible(&io, i)) {
			fprintf(stderr, "rbsim: %s chose leg %u\n",
				p->type->name, i);
			i = rb_first_leg(io.eligible);
		}
	}
	leg = &c->legs[i];
	atomic_set(&leg->inflight, atomic_read(&leg->inflight) + 1);
	WRITE_ONCE(leg->last_end, io.sector + io.sectors);
	if (p->type && p->type->start_io)
		p->type->start_io(p, leg, &io);
	b->eligible = io.eligible;
	b->leg = i;
	b->start = s->now;
	c->reads[i]++;
	core_to_leg(s, b, i);
}

/* A part of a split read ended: the read ends with its last part. */
static void core_part_done(struct sim *s, struct sim_bio *part)
{
	struct sim_bio *b = part->owner;

	sim_bio_put(s, part);
	if (!--b->pending)
		b->done(s, b);
}

/*
 * rb_map_read(): the policy's chunk hook may keep the head of the read
 * (dm_accept_partial_bio); dm resubmits the rest, which is mapped on its
 * own, here at once.  Each part is a bio of its own on its leg.
 */
static void core_read(struct sim *s, struct sim_bio *b)
{
	struct rb_policy *p = &s->core->pol;
	struct rb_io io = {
		.sector = b->sector,
		.sectors = b->sectors,
		.eligible = s->core->alive,
	};
	struct sim_bio *part;
	unsigned int n = 0;

	if (p->type) {
		shim_current.pid = b->pid;
		shim_cpu = b->cpu;
		shim_now_ns = s->now;
		core_disk_waits(s);
		if (p->type->chunk)
			n = p->type->chunk(p, &io);
	}
	if (!n || n >= io.sectors) {
		core_route(s, b);
		return;
	}
	for (;;) {
		part = sim_bio_get(s);
		part->sector = io.sector;
		part->sectors = n;
		part->pid = b->pid;
		part->cpu = b->cpu;
		part->done = core_part_done;
		part->owner = b;
		b->pending++;
		core_route(s, part);
		io.sector += n;
		io.sectors -= n;
		if (!io.sectors)
			break;
		n = p->type->chunk(p, &io);
		if (!n || n > io.sectors)
			n = io.sectors;
	}
}

/* rb_end_read() */
static void core_end_read(struct sim *s, struct sim_bio *b)
{
	struct core *c = s->core;
	struct rb_leg *leg = &c->legs[b->leg];
	struct rb_policy *p = &c->pol;
	struct rb_io io = {
		.sector = b->sector,
		.sectors = b->sectors,
		.eligible = b->eligible,
	};
	u64 ns = s->now - b->start, ewma;

	ewma = READ_ONCE(leg->ewma_ns);
	WRITE_ONCE(leg->ewma_ns, ewma - (ewma >> 3) + (ns >> 3));
	atomic_set(&leg->inflight, atomic_read(&leg->inflight) - 1);
	if (p->type && p->type->end_io) {
		shim_now_ns = s->now;
		p->type->end_io(p, leg, &io, ns);
	}
}

void core_submit(struct sim *s, struct sim_bio *b)
{
	struct core *c = s->core;
	unsigned int i;

	b->pending = 0;
	if (!b->write) {
		core_read(s, b);
		return;
	}
	for (i = 0; i < s->nr_legs; i++)
		if (c->alive & (1UL << i))
			core_to_leg(s, b, i);
}

void core_req_done(struct sim *s, struct leg_req *r)
{
	struct sim_bio *b = r->bio;

	sim_req_put(s, r);
	if (--b->pending)
		return;
	if (!b->write)
		core_end_read(s, b);
	b->done(s, b);
}
