/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbsim internals shared by its parts: one run's state, the bios the
 * mirror sees, the requests legs serve, the leg model interface.
 * The kernel shim (readbal.h) stays out of here: only core.c talks to
 * policies, so its macros (current, READ_ONCE...) meet nothing else.
 */
#ifndef RBSIM_SIM_INT_H
#define RBSIM_SIM_INT_H

#include "events.h"
#include "rng.h"
#include "sim.h"
#include "stats.h"

struct sim;
struct job;
struct core;

/* A bio as the mirror sees it: a read for one leg, or a write for all. */
struct sim_bio {
	uint64_t sector;
	uint32_t sectors;
	bool write;
	int pid;			/* the submitter's current->pid */
	unsigned int cpu;		/* and CPU */
	void (*done)(struct sim *s, struct sim_bio *b);
	/*
	 * Called when the submitter may go on: every request of the bio has
	 * a tag of its leg.  Only when core_submit() returned false.
	 */
	void (*submitted)(struct sim *s, struct sim_bio *b);
	void *owner;			/* the submitter's */
	void *submitter;		/* the submitter's, for submitted() */
	bool ended;			/* the submitter's: done was called */
	bool probe;			/* the core's probe of a leg */
	/* the core's per-bio data */
	unsigned long eligible;
	unsigned int leg;		/* read: the leg chosen */
	simtime_t start;
	unsigned int pending;		/* leg requests (or parts) not ended */
	unsigned int untagged;		/* leg requests waiting for a tag */
	unsigned int leg_pending[SIM_MAX_LEGS];	/* write: requests per leg */
	uint64_t rest;			/* split read: the part still to route */
	uint32_t rest_sectors;
	struct sim_bio *next_free;
};

/* What a leg serves: a bio, or a piece of it no larger than max_kb. */
struct leg_req {
	uint64_t sector;
	uint32_t sectors;
	bool write;
	simtime_t queued;		/* reached the leg */
	simtime_t dispatched;		/* got a slot: part_stat counts from here */
	simtime_t held;			/* held by a delay, counted as tagged */
	struct sim_bio *bio;
	struct leg_model *leg;
	struct leg_req *next;		/* the model's queues, the free list */
	struct leg_req *tag_next;	/* waiting for a tag */
};

struct leg_model {
	struct sim *sim;
	const struct leg_spec *spec;
	unsigned int index;
	double slow;			/* service time multiplier */
	simtime_t delay;		/* dm-delay in front: each request held */
	struct rng rng;
	void (*submit)(struct leg_model *m, struct leg_req *r);
	void (*destroy)(struct leg_model *m);
	void *priv;
	uint64_t disk_reads, disk_read_ns;	/* the disk's part_stat */
	/* nr_requests tags: a request holds one from submission to its end */
	unsigned int tagged;
	struct leg_req *tag_head, *tag_tail;	/* submitters waiting */
};

/* Objects of one size, recycled; all freed with the pool. */
struct pool {
	size_t size;
	void *free;
	void **chunks;
	size_t nr_chunks;
};

void *pool_get(struct pool *p);	/* zeroed */
void pool_put(struct pool *p, void *obj);
void pool_fini(struct pool *p);

struct sim {
	const struct sim_config *cfg;
	simtime_t now, end;
	struct evq q;
	uint64_t events;
	unsigned int nr_legs;
	struct leg_model *leg[SIM_MAX_LEGS];
	int alone;			/* >= 0: that leg by itself */
	struct core *core;
	struct job *jobs;
	struct stats st;
	struct pool bios, reqs, apps;
	unsigned int ra;		/* bytes: buffered readers' read-ahead */
	simtime_t cpu_free[SIM_MAX_CPUS];	/* busy until (cfg->cpu_ns) */
};

static inline void sim_at(struct sim *s, simtime_t t, event_fn fn, void *arg)
{
	evq_push(&s->q, t < s->now ? s->now : t, fn, arg);
}

/* ns as simulated time, rounded up so that nothing takes no time */
static inline simtime_t sim_ns(double ns)
{
	return ns <= 0 ? 0 : (simtime_t)ns + 1;
}

void *sim_alloc(size_t size);	/* zeroed; exits on failure */

static inline struct sim_bio *sim_bio_get(struct sim *s)
{
	return pool_get(&s->bios);
}

static inline void sim_bio_put(struct sim *s, struct sim_bio *b)
{
	pool_put(&s->bios, b);
}

static inline struct leg_req *sim_req_get(struct sim *s)
{
	return pool_get(&s->reqs);
}

static inline void sim_req_put(struct sim *s, struct leg_req *r)
{
	pool_put(&s->reqs, r);
}

/* legs.c: the model of spec->kind, and what every model calls at the end */
struct leg_model *leg_new(struct sim *s, const struct leg_spec *spec,
			  unsigned int index);
void leg_free(struct leg_model *m);
bool leg_queue(struct leg_model *m, struct leg_req *r);
void leg_dispatched(struct leg_model *m, struct leg_req *r);
void leg_done(struct leg_model *m, struct leg_req *r);
void leg_pipe_init(struct leg_model *m);
void leg_hdd_init(struct leg_model *m);

/* core.c: dm-readbal's map/end_io around the policy */
int core_init(struct sim *s, const char *policy, char *err, size_t errlen);
bool core_submit(struct sim *s, struct sim_bio *b);
void core_req_tagged(struct sim *s, struct leg_req *r);
void core_req_done(struct sim *s, struct leg_req *r);
uint64_t core_leg_reads(struct sim *s, unsigned int leg);
void core_fini(struct sim *s);

/* workload.c: fio-like jobs */
void jobs_init(struct sim *s);
void jobs_start(struct sim *s);
void jobs_fini(struct sim *s);
/* what job @j moved in the measured time, reads and writes */
uint64_t jobs_bytes(const struct sim *s, unsigned int j);

#endif
