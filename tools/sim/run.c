// SPDX-License-Identifier: GPL-2.0
/* rbsim: one run: legs, core and jobs wired up, the event loop, results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim-int.h"

#define POOL_CHUNK	256

void *sim_alloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		perror("rbsim");
		exit(2);
	}
	return p;
}

void *pool_get(struct pool *p)
{
	void *obj = p->free;
	size_t i, size = (p->size + 15) & ~(size_t)15;
	char *chunk;

	if (!obj) {
		chunk = sim_alloc(POOL_CHUNK * size);
		p->chunks = realloc(p->chunks,
				    (p->nr_chunks + 1) * sizeof(*p->chunks));
		if (!p->chunks) {
			perror("rbsim");
			exit(2);
		}
		p->chunks[p->nr_chunks++] = chunk;
		for (i = 0; i < POOL_CHUNK; i++)
			pool_put(p, chunk + i * size);
		obj = p->free;
	}
	p->free = *(void **)obj;
	memset(obj, 0, p->size);
	return obj;
}

void pool_put(struct pool *p, void *obj)
{
	*(void **)obj = p->free;
	p->free = obj;
}

void pool_fini(struct pool *p)
{
	size_t i;

	for (i = 0; i < p->nr_chunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
	p->chunks = NULL;
	p->nr_chunks = 0;
	p->free = NULL;
}

static void apply_slowdown(struct sim *s, void *arg)
{
	struct leg_model *m = arg;

	m->slow = s->cfg->slow.factor;
	m->delay = (simtime_t)(s->cfg->slow.delay_ms * 1e6);
}

static void sim_free(struct sim *s)
{
	unsigned int i;

	jobs_fini(s);
	core_fini(s);
	for (i = 0; i < s->nr_legs; i++)
		leg_free(s->leg[i]);
	pool_fini(&s->bios);
	pool_fini(&s->reqs);
	pool_fini(&s->apps);
	evq_free(&s->q);
}

static void sim_results(struct sim *s, struct sim_result *res)
{
	double secs = s->cfg->seconds;
	uint64_t total = 0;
	unsigned int i;

	memset(res, 0, sizeof(*res));
	res->read_mibps = (double)s->st.read_bytes / SIM_MIB / secs;
	res->mibps = res->read_mibps +
		     (double)s->st.write_bytes / SIM_MIB / secs;
	res->ios = s->st.ios;
	res->iops = (double)s->st.ios / secs;
	res->p50_us = stats_percentile(&s->st, 50) / 1000;
	res->p99_us = stats_percentile(&s->st, 99) / 1000;
	res->nr_legs = s->nr_legs;
	res->events = s->events;
	for (i = 0; i < s->nr_legs; i++) {
		res->leg_reads[i] = core_leg_reads(s, i);
		total += res->leg_reads[i];
	}
	for (i = 0; total && i < s->nr_legs; i++)
		res->share[i] = 100.0 * (double)res->leg_reads[i] /
				(double)total;
	res->nr_jobs = s->cfg->wl.jobs ? s->cfg->wl.jobs : 1;
	for (i = 0; i < res->nr_jobs; i++) {
		double mibps = (double)jobs_bytes(s, i) / SIM_MIB / secs;

		if (i < SIM_JOB_STATS)
			res->job_mibps[i] = mibps;
		if (!i || mibps < res->job_min_mibps)
			res->job_min_mibps = mibps;
		if (mibps > res->job_max_mibps)
			res->job_max_mibps = mibps;
	}
	res->nr_bins = (unsigned int)((s->cfg->wl.ramp_s + secs) / SIM_BIN_S);
	if (res->nr_bins > SIM_BINS)
		res->nr_bins = SIM_BINS;
	for (i = 0; i < res->nr_bins; i++)
		res->bin_mibps[i] = (double)s->st.bin_bytes[i] / SIM_MIB /
				    SIM_BIN_S;
}

int sim_run(const struct sim_config *cfg, const char *policy, int alone,
	    struct sim_result *res, char *err, size_t errlen)
{
	struct sim s;
	struct event e;
	unsigned int i;
	int slow_leg = cfg->slow.leg;

	memset(&s, 0, sizeof(s));
	s.cfg = cfg;
	s.st.from_ns = (uint64_t)(cfg->wl.ramp_s * SIM_NS);
	s.end = (simtime_t)((cfg->wl.ramp_s + cfg->seconds) * SIM_NS);
	s.alone = alone;
	s.bios.size = sizeof(struct sim_bio);
	s.reqs.size = sizeof(struct leg_req);
	if (alone >= 0) {
		s.nr_legs = 1;
		s.leg[0] = leg_new(&s, &cfg->legs[alone], 0);
		slow_leg = slow_leg == alone ? 0 : -1;
		policy = NULL;
	} else {
		s.nr_legs = cfg->nr_legs;
		for (i = 0; i < s.nr_legs; i++)
			s.leg[i] = leg_new(&s, &cfg->legs[i], i);
	}
	if (core_init(&s, policy, err, errlen)) {
		sim_free(&s);
		return -1;
	}
	/* slow from the start: before the first read, not just after it */
	if (slow_leg >= 0 && (unsigned int)slow_leg < s.nr_legs &&
	    cfg->slow.at_s <= 0)
		apply_slowdown(&s, s.leg[slow_leg]);
	jobs_init(&s);
	jobs_start(&s);
	if (slow_leg >= 0 && (unsigned int)slow_leg < s.nr_legs &&
	    cfg->slow.at_s > 0)
		sim_at(&s, (simtime_t)(cfg->slow.at_s * SIM_NS),
		       apply_slowdown, s.leg[slow_leg]);

	while (evq_pop(&s.q, &e) && e.t <= s.end) {
		s.now = e.t;
		s.events++;
		e.fn(&s, e.arg);
	}
	sim_results(&s, res);
	sim_free(&s);
	return 0;
}

/*
 * Reads add up over the legs; every write goes to every leg, so writes
 * are bounded by the slowest leg's.
 */
int sim_limit(const struct sim_config *cfg, double leg_mibps[SIM_MAX_LEGS],
	      double *limit)
{
	double reads = 0, writes = 0;
	struct sim_result r;
	unsigned int i;
	char err[128];

	for (i = 0; i < cfg->nr_legs; i++) {
		if (sim_run(cfg, NULL, (int)i, &r, err, sizeof(err)))
			return -1;
		leg_mibps[i] = r.mibps;
		reads += r.read_mibps;
		if (!i || r.mibps - r.read_mibps < writes)
			writes = r.mibps - r.read_mibps;
	}
	*limit = reads + writes;
	return 0;
}

int sim_limit_slowed(const struct sim_config *cfg, double *limit)
{
	struct sim_config slowed = *cfg;
	double leg_mibps[SIM_MAX_LEGS];

	slowed.slow.at_s = 0;
	return sim_limit(&slowed, leg_mibps, limit);
}

double sim_recovery_s(const struct sim_config *cfg, const struct sim_result *r,
		      double limit, double frac)
{
	unsigned int w = (unsigned int)(SIM_RECOVER_WINDOW_S / SIM_BIN_S + 0.5);
	unsigned int first = (unsigned int)(cfg->slow.at_s / SIM_BIN_S + 0.5);
	unsigned int i, j, ok = r->nr_bins + 1;
	double sum;

	/* the latest window start from which every window is good */
	for (i = r->nr_bins >= w ? r->nr_bins - w + 1 : 0; i-- > first;) {
		for (sum = 0, j = i; j < i + w; j++)
			sum += r->bin_mibps[j];
		if (sum / w < frac * limit)
			break;
		ok = i;
	}
	if (ok > r->nr_bins)
		return -1;
	return (ok + w) * SIM_BIN_S - cfg->slow.at_s;
}
