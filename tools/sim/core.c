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
 * when all its parts have.  A policy's probe hook gets the leg it names a
 * read of its own beside the read (readbal-probe.c), one a leg at a time,
 * that nobody waits for and the workload does not count.  A policy's io_opt raises the read-ahead of
 * buffered readers to 2 * io_opt, as the kernel does at table load.
 *
 * The submitter waits for tags: each request takes one of its leg's
 * nr_requests (blk_mq_get_tag()), or the submitter sleeps until one frees.
 * A bio is submitted once all its requests have tags; only then is the
 * rest of a split read mapped (dm resubmits it after the part), and only
 * then may the submitter go on (core_submit() returns false until then and
 * calls the bio's submitted()).
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
	unsigned long probing;		/* bit n: leg n's probe in flight */
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
		c->legs[i].max_sectors = spec->max_kb * 2;
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

/*
 * Hand @b to leg @i, cut to what the leg takes in one request; each
 * request waits for a tag if the leg has none free (b->untagged).
 */
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
		b->leg_pending[i]++;
		if (!leg_queue(s->leg[i], r))
			b->untagged++;
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

/* The submitter's context, as the policy sees it: pid, CPU, clock */
static void core_context(struct sim *s, struct sim_bio *b)
{
	shim_current.pid = b->pid;
	shim_cpu = b->cpu;
	shim_now_ns = s->now;
	core_disk_waits(s);
}

/* A probe ended: nobody waits for it */
static void core_probe_done(struct sim *s, struct sim_bio *b)
{
	sim_bio_put(s, b);
}

/*
 * rb_probe_start(): leg @k gets a read of its own beside @io, unless its
 * probe is in flight (one a leg) or @io is at the mirror's very end.
 */
static void core_probe(struct sim *s, const struct sim_bio *by,
		       const struct rb_io *io, unsigned int k)
{
	struct core *c = s->core;
	struct rb_policy *p = &c->pol;
	struct rb_leg *leg = &c->legs[k];
	uint64_t sector = io->sector & ~(uint64_t)(RB_PROBE_SECTORS - 1);
	struct rb_io pio = {
		.sector = sector,
		.sectors = RB_PROBE_SECTORS,
		.eligible = 1UL << k,
		.start_ns = io->start_ns,
	};
	struct sim_bio *b;

	if (!(c->alive & (1UL << k)) || c->probing & (1UL << k) ||
	    sector + RB_PROBE_SECTORS > s->cfg->size)
		return;
	c->probing |= 1UL << k;
	b = sim_bio_get(s);
	b->sector = sector;
	b->sectors = RB_PROBE_SECTORS;
	b->pid = by->pid;
	b->cpu = by->cpu;
	b->done = core_probe_done;
	b->probe = true;
	b->eligible = pio.eligible;
	b->leg = k;
	b->start = s->now;
	atomic_set(&leg->inflight, atomic_read(&leg->inflight) + 1);
	WRITE_ONCE(leg->last_end, sector + RB_PROBE_SECTORS);
	if (p->type->start_io)
		p->type->start_io(p, leg, &pio);
	core_to_leg(s, b, k);
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
		.start_ns = s->now,
	};
	unsigned int i = 0;
	struct rb_leg *leg;

	if (p->type) {
		core_context(s, b);
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
	if (p->type && p->type->probe) {
		int k = p->type->probe(p, &io, i);

		if (k >= 0 && k < (int)c->set.nr_legs && k != (int)i)
			core_probe(s, b, &io, k);
	}
}

/* A part of a split read ended: the read ends with its last part. */
static void core_part_done(struct sim *s, struct sim_bio *part)
{
	struct sim_bio *b = part->owner;

	sim_bio_put(s, part);
	if (!--b->pending)
		b->done(s, b);
}

/* A part of @n sectors from the head of the rest of split read @b */
static struct sim_bio *core_route_part(struct sim *s, struct sim_bio *b,
				       unsigned int n);

static bool core_map_rest(struct sim *s, struct sim_bio *b);

/* Every part is mapped and has its tags: drop the read's own count. */
static void core_part_mapped(struct sim *s, struct sim_bio *b)
{
	if (!--b->pending)
		b->done(s, b);
}

/* A part has its tags: dm maps the rest of the read now. */
static void core_part_submitted(struct sim *s, struct sim_bio *part)
{
	struct sim_bio *b = part->owner;

	b->untagged--;
	if (!core_map_rest(s, b))
		return;
	if (b->submitted)
		b->submitted(s, b);
	core_part_mapped(s, b);
}

static struct sim_bio *core_route_part(struct sim *s, struct sim_bio *b,
				       unsigned int n)
{
	struct sim_bio *part = sim_bio_get(s);

	if (!n || n > b->rest_sectors)
		n = b->rest_sectors;
	part->sector = b->rest;
	part->sectors = n;
	part->pid = b->pid;
	part->cpu = b->cpu;
	part->done = core_part_done;
	part->submitted = core_part_submitted;
	part->owner = b;
	b->pending++;
	b->rest += n;
	b->rest_sectors -= n;
	core_route(s, part);
	if (part->untagged)
		b->untagged++;
	return part;
}

/* The chunk hook on the rest of @b, in its submitter's context */
static unsigned int core_chunk(struct sim *s, struct sim_bio *b,
			       sector_t sector, unsigned int sectors)
{
	struct rb_policy *p = &s->core->pol;
	struct rb_io io = {
		.sector = sector,
		.sectors = sectors,
		.eligible = s->core->alive,
		.start_ns = s->now,
	};

	core_context(s, b);
	return p->type->chunk(p, &io);
}

/*
 * Map the rest of split read @b, a part at a time, each once the one
 * before has its tags (dm_accept_partial_bio(): dm resubmits the rest
 * after the part).  Returns true once every part has its tags: the
 * submitter goes on.  The read holds a pending count of its own until
 * every part is mapped, so that it cannot end before.
 */
static bool core_map_rest(struct sim *s, struct sim_bio *b)
{
	while (b->rest_sectors && !b->untagged)
		core_route_part(s, b, core_chunk(s, b, b->rest,
						 b->rest_sectors));
	if (b->rest_sectors || b->untagged)
		return false;
	return true;
}

/*
 * rb_map_read(): the policy's chunk hook may keep the head of the read for
 * the leg it picks (dm_accept_partial_bio()); the rest is mapped as parts
 * of their own, each on its leg.  Returns true if the submitter may go on
 * now, else b->submitted() says when.
 */
static bool core_read(struct sim *s, struct sim_bio *b)
{
	unsigned int n = 0;

	if (s->core->pol.type && s->core->pol.type->chunk)
		n = core_chunk(s, b, b->sector, b->sectors);
	if (!n || n >= b->sectors) {
		core_route(s, b);
		return !b->untagged;
	}
	b->pending++;			/* the read's own, while mapping */
	b->rest = b->sector;
	b->rest_sectors = b->sectors;
	core_route_part(s, b, n);
	if (!core_map_rest(s, b))
		return false;
	b->pending--;			/* no part can have ended yet */
	return true;
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
		.start_ns = b->start,
	};
	u64 ns = s->now - b->start, ewma;

	ewma = READ_ONCE(leg->ewma_ns);
	WRITE_ONCE(leg->ewma_ns, ewma - (ewma >> 3) + (ns >> 3));
	atomic_set(&leg->inflight, atomic_read(&leg->inflight) - 1);
	if (b->probe)
		c->probing &= ~(1UL << b->leg);
	if (p->type && p->type->end_io) {
		shim_now_ns = s->now;
		p->type->end_io(p, leg, &io, ns);
	}
}

/*
 * A bio from a submitter: a read is mapped, a write cloned to every leg.
 * Returns true if the submitter may go on now; else b->submitted() is
 * called once every request has a tag.
 */
bool core_submit(struct sim *s, struct sim_bio *b)
{
	struct core *c = s->core;
	unsigned int i;

	b->pending = 0;
	b->untagged = 0;
	if (!b->write)
		return core_read(s, b);
	for (i = 0; i < s->nr_legs; i++)
		if (c->alive & (1UL << i)) {
			/* rb_map_write(): a clone in flight on each leg */
			atomic_inc(&c->legs[i].writes);
			core_to_leg(s, b, i);
		}
	return !b->untagged;
}

/* A request waiting for a tag got one: its bio is submitted with its last. */
void core_req_tagged(struct sim *s, struct leg_req *r)
{
	struct sim_bio *b = r->bio;

	if (!--b->untagged && b->submitted)
		b->submitted(s, b);
}

/* The bio's completion ran on its CPU: the policy and the submitter see it. */
static void core_bio_end(struct sim *s, void *arg)
{
	struct sim_bio *b = arg;

	if (!b->write)
		core_end_read(s, b);
	b->done(s, b);
}

void core_req_done(struct sim *s, struct leg_req *r)
{
	struct sim_bio *b = r->bio;
	unsigned int i = r->leg->index;
	simtime_t *cpu;

	sim_req_put(s, r);
	/* rb_clone_endio(): that leg's clone ended */
	if (b->write && !--b->leg_pending[i])
		atomic_dec(&s->core->legs[i].writes);
	if (--b->pending)
		return;
	if (s->cfg->cpu_ns <= 0) {
		core_bio_end(s, b);
		return;
	}
	/* completions queue for the submitter's CPU, one at a time */
	cpu = &s->cpu_free[b->cpu % SIM_MAX_CPUS];
	*cpu = (*cpu > s->now ? *cpu : s->now) + sim_ns(s->cfg->cpu_ns);
	sim_at(s, *cpu, core_bio_end, b);
}
