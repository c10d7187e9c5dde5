// SPDX-License-Identifier: GPL-2.0
/*
 * policy-cost: host CPU time of each read policy per read, the code the
 * target runs around a read with the policy's hooks (chunk, select,
 * start_io, end_io), on the same sources as the module, built against the
 * unit tests' shim.  The guest measures the whole stack under TCG, where a
 * run moves by 10% with the host's load; this is the policy alone, and the
 * same from run to run.  Reads are 4 KiB at random offsets with 32 in flight,
 * completed oldest first, as tests/perf/overhead.sh does on two ram legs;
 * or, with a slow factor, one at a time on legs whose last is that many
 * times slower, as the benchmark's QD1 on nvme+remote (0.15 ms and 5 ms).
 * Under valgrind's callgrind, collecting only in route() and end_read(),
 * the instructions per read come out exactly (make run-ir): host time moves
 * with the load of a shared host, instructions do not.
 *
 *   make -C tests/perf cost [SRC=dir of policy sources]
 *   tests/perf/build/policy-cost [legs [reads [policy|all [slow]]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "readbal.h"
#include "rng.h"		/* tools/sim's: the same reads every run */

#define QD		32
#define NS_PER_READ	3000	/* simulated time between completions */
#define SERVICE_NS	(QD * NS_PER_READ)
#define QD1_SERVICE_NS	150000	/* the nvme's 4 KiB read under TCG */

struct inflight {
	struct rb_io io;
	unsigned int leg;
};

static struct rng rng;
static unsigned int qd = QD;
static unsigned int slow;	/* 0: QD32 on equal legs */

/* A read's service time on @leg of @nr_legs. */
static u64 service_ns(unsigned int leg, unsigned int nr_legs)
{
	if (!slow)
		return SERVICE_NS;
	return leg == nr_legs - 1 ? (u64)slow * QD1_SERVICE_NS : QD1_SERVICE_NS;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What rb_end_read() does, then end_io. */
static __attribute__((noinline)) void end_read(struct rb_policy *p, struct inflight *f)
{
	struct rb_leg *leg = &p->set->legs[f->leg];
	u64 ewma = READ_ONCE(leg->ewma_ns);
	u64 ns = service_ns(f->leg, p->set->nr_legs);

	WRITE_ONCE(leg->ewma_ns, ewma - (ewma >> 3) + (ns >> 3));
	atomic_set(&leg->inflight, atomic_read(&leg->inflight) - 1);
	if (p->type->end_io)
		p->type->end_io(p, leg, &f->io, ns);
}

/* What rb_route_read() does around the policy. */
static __attribute__((noinline)) void route(struct rb_policy *p, struct inflight *f, sector_t sectors)
{
	struct rb_leg *leg;
	unsigned int n;

	f->io.sector = rng_below(&rng, sectors / 8) * 8;
	f->io.sectors = 8;
	f->io.eligible = (1UL << p->set->nr_legs) - 1;
	f->io.start_ns = shim_now_ns;
	if (p->type->chunk) {
		n = p->type->chunk(p, &f->io);
		if (n && n < f->io.sectors)
			f->io.sectors = n;
	}
	f->leg = p->type->select(p, &f->io);
	leg = &p->set->legs[f->leg];
	atomic_set(&leg->inflight, atomic_read(&leg->inflight) + 1);
	WRITE_ONCE(leg->last_end, f->io.sector + f->io.sectors);
	if (p->type->start_io)
		p->type->start_io(p, leg, &f->io);
	/* the hook only: the probe's read is not simulated */
	if (p->type->probe)
		p->type->probe(p, &f->io, f->leg);
}

static double run(const struct rb_policy_type *type, unsigned int nr_legs,
		  unsigned long reads)
{
	static struct rb_leg legs[RB_MAX_LEGS];
	static struct inflight ring[QD];
	struct rb_set set = { .nr_legs = nr_legs, .legs = legs };
	struct rb_policy p = { .type = type, .set = &set };
	const sector_t sectors = 256 * 2048;	/* 256 MiB legs */
	unsigned long i;
	double t;

	memset(legs, 0, sizeof(legs));
	for (i = 0; i < nr_legs; i++) {
		legs[i].index = i;
		legs[i].nonrot = true;
		legs[i].queue_depth = 64;
		legs[i].max_sectors = 254;
	}
	shim_now_ns = 1000000000ULL;
	rng_seed(&rng, 1, 0);
	if (type->create(&p)) {
		fprintf(stderr, "policy-cost: %s: create failed\n", type->name);
		exit(1);
	}
	for (i = 0; i < qd; i++)
		route(&p, &ring[i], sectors);
	t = now_s();
	for (i = 0; i < reads; i++) {
		struct inflight *f = &ring[i % qd];

		shim_now_ns += slow ? service_ns(f->leg, nr_legs) : NS_PER_READ;
		end_read(&p, f);
		route(&p, f, sectors);
	}
	t = now_s() - t;
	for (i = 0; i < qd; i++)
		end_read(&p, &ring[i]);
	type->destroy(&p);
	return t * 1e9 / reads;
}

int main(int argc, char **argv)
{
	unsigned int nr_legs = argc > 1 ? atoi(argv[1]) : 2;
	unsigned long reads = argc > 2 ? strtoul(argv[2], NULL, 10) : 4000000;
	const char *only = argc > 3 && strcmp(argv[3], "all") ? argv[3] : NULL;
	const struct rb_policy_type *type;
	double ns, best;
	unsigned int i, k;

	slow = argc > 4 ? atoi(argv[4]) : 0;
	if (nr_legs < 1 || nr_legs > RB_MAX_LEGS || !reads || slow == 1) {
		fprintf(stderr, "usage: policy-cost [legs (1-%d) [reads [policy|all [slow: 0 (QD32) or 2-]]]]\n",
			RB_MAX_LEGS);
		return 2;
	}
	if (slow)
		qd = 1;
	if (only) {
		type = rb_policy_find(only);
		if (!type) {
			fprintf(stderr, "policy-cost: no policy %s\n", only);
			return 2;
		}
		printf("%-12s %6.1f\n", only, run(type, nr_legs, reads));
		return 0;
	}
	if (slow)
		printf("%u flash legs, the last %u times slower, 4 KiB random reads, QD1: ns per read (best of 5)\n",
		       nr_legs, slow);
	else
		printf("%u flash legs, 4 KiB random reads, QD%d: ns per read (best of 5)\n",
		       nr_legs, QD);
	for (i = 0; (type = rb_policy_type_at(i)); i++) {
		best = 0;
		for (k = 0; k < 5; k++) {
			ns = run(type, nr_legs, reads);
			if (!k || ns < best)
				best = ns;
		}
		printf("%-12s %6.1f\n", type->name, best);
	}
	return 0;
}
