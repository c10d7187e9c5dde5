// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: a rotational disk with one head.
 *
 * A command is served in one of three ways:
 *  - hit: its sectors are in a read-ahead segment already: controller
 *    overhead plus the interface transfer;
 *  - stream: the head is reading ahead and the sectors are at most a track
 *    beyond it (or within the segment's limit): wait for them to pass under
 *    the head; the read-ahead goes on past them;
 *  - miss: the read-ahead stops; seek by distance (none within a track,
 *    else settle + (full - settle) * sqrt(distance / stroke)), wait for the
 *    sector to come round (the platter turns at rpm; a sector's angle is
 *    its place in its track), transfer at the zone's media rate (linear
 *    from outer_mibps at sector 0 to inner_mibps at the last).  A read
 *    then starts a segment that keeps filling at media rate up to
 *    ra_sectors past the read, until the next miss moves the head; a
 *    segment keeps its last seg_sectors.
 *
 * Up to ncq commands sit in the drive; when the head is free it takes the
 * one done soonest (seek and rotation both: NCQ's shortest access time),
 * or the oldest once one has waited longer than HDD_MAX_AGE_NS.  With ncq
 * 1 it serves in arrival order.  More commands wait outside, in order.
 * Writes go through to the media.  A slowed leg (slow > 1) takes that much
 * longer for everything, the platter included.
 */
#include <math.h>
#include <stdlib.h>

#include "sim-int.h"

#define HDD_MAX_NCQ	64
#define HDD_MAX_AGE_NS	250e6	/* NCQ's starvation guard */

struct seg {
	uint64_t start, end;		/* cached [start, end) */
	uint64_t used;			/* LRU stamp */
};

struct hdd {
	struct leg_req *head, *tail;	/* waiting outside the drive */
	struct leg_req *cmd[HDD_MAX_NCQ];	/* in the drive, arrival order */
	unsigned int nr_cmd;
	bool busy;
	/* the head: parked at pos, or filling segment fill */
	double pos;
	int fill;
	double fill_t0, fill_pos0, fill_limit, fill_rate;
	struct seg *seg;
	uint64_t lru;
	double rev_ns;
};

enum { HIT, STREAM, MISS };

static double sectors_per_ns(double mibps)
{
	return mibps * SIM_MIB / 512 / SIM_NS;
}

/* the media rate under @sector, zones linear from outer to inner */
static double media_rate(const struct hdd_params *hp, double sector)
{
	double f = sector / (double)hp->capacity;

	if (f > 1)
		f = 1;
	return sectors_per_ns(hp->outer_mibps -
			      (hp->outer_mibps - hp->inner_mibps) * f);
}

static double track_sectors(const struct hdd_params *hp, struct hdd *h,
			    double sector)
{
	return media_rate(hp, sector) * h->rev_ns;
}

static double seek_ns(const struct hdd_params *hp, struct hdd *h,
		      double from, double to)
{
	double d = fabs(to - from), f;

	if (d < track_sectors(hp, h, from))
		return 0;
	f = d / (double)hp->capacity;
	return hp->settle_ns + (hp->full_seek_ns - hp->settle_ns) *
				       sqrt(f > 1 ? 1 : f);
}

/* Time until @sector passes under the head, from @t on. */
static double rotation_ns(const struct hdd_params *hp, struct hdd *h,
			  double sector, double t)
{
	double track = track_sectors(hp, h, sector);
	double want = sector / track - floor(sector / track);
	double now = t / h->rev_ns - floor(t / h->rev_ns);
	double turn = want - now;

	return (turn < 0 ? turn + 1 : turn) * h->rev_ns;
}

/* where the head is now: parked, or as far as the read-ahead got */
static double head_at(struct hdd *h, double now)
{
	double p;

	if (h->fill < 0)
		return h->pos;
	p = h->fill_pos0 + h->fill_rate * (now > h->fill_t0 ? now - h->fill_t0 :
							      0);
	return p < h->fill_limit ? p : h->fill_limit;
}

static double seg_end(struct hdd *h, int i, double now)
{
	return i == h->fill ? head_at(h, now) : (double)h->seg[i].end;
}

/* a segment keeps the last seg_sectors it read */
static double seg_start(const struct hdd_params *hp, struct hdd *h, int i,
			double now)
{
	double end = seg_end(h, i, now), start = (double)h->seg[i].start;

	return end - start > hp->seg_sectors ? end - hp->seg_sectors : start;
}

/* How @r would be served now, and how long it would take. */
static int classify(struct leg_model *m, struct leg_req *r, double now,
		    double *cost)
{
	const struct hdd_params *hp = &m->spec->hdd;
	struct hdd *h = m->priv;
	double s = (double)r->sector, e = s + r->sectors, at;
	unsigned int i;

	if (!r->write) {
		for (i = 0; i < hp->segments; i++) {
			if (s >= seg_start(hp, h, (int)i, now) &&
			    e <= seg_end(h, (int)i, now) &&
			    h->seg[i].end > h->seg[i].start) {
				*cost = hp->cmd_ns + r->sectors * 512.0 * SIM_NS /
					(hp->iface_mibps * SIM_MIB);
				return HIT;
			}
		}
	}
	at = head_at(h, now);
	/* still to come, and joined to what the segment holds */
	if (!r->write && h->fill >= 0 && e > at &&
	    s >= seg_start(hp, h, h->fill, now) &&
	    (e <= h->fill_limit ||
	     (at < h->fill_limit && s <= at + track_sectors(hp, h, at)))) {
		double arrive = h->fill_t0 + (e - h->fill_pos0) / h->fill_rate;

		*cost = hp->cmd_ns + (arrive > now ? arrive - now : 0);
		return STREAM;
	}
	*cost = hp->cmd_ns + seek_ns(hp, h, at, s);
	*cost += rotation_ns(hp, h, s, now + *cost) +
		 r->sectors / media_rate(hp, s);
	return MISS;
}

static void hdd_end(struct sim *s, void *arg);

/* the segment to fill from @sector: one that holds it, else the LRU */
static int seg_for(struct leg_model *m, uint64_t sector)
{
	struct hdd *h = m->priv;
	unsigned int i, victim = 0;

	for (i = 0; i < m->spec->hdd.segments; i++) {
		if (sector >= h->seg[i].start && sector <= h->seg[i].end)
			return (int)i;
		if (h->seg[i].used < h->seg[victim].used)
			victim = i;
	}
	return (int)victim;
}

static double serve_miss(struct leg_model *m, struct leg_req *r, double now)
{
	const struct hdd_params *hp = &m->spec->hdd;
	struct hdd *h = m->priv;
	double s = (double)r->sector, t;
	int i;

	/* the head leaves the read-ahead */
	if (h->fill >= 0) {
		h->pos = head_at(h, now);
		h->seg[h->fill].start = (uint64_t)seg_start(hp, h, h->fill, now);
		h->seg[h->fill].end = (uint64_t)h->pos;
		h->fill = -1;
	}
	t = hp->cmd_ns + seek_ns(hp, h, h->pos, s);
	t += rotation_ns(hp, h, s, now + t) + r->sectors / media_rate(hp, s);
	t *= m->slow;
	if (r->write) {
		h->pos = s + r->sectors;
		return t;
	}
	i = seg_for(m, r->sector);
	h->seg[i].start = r->sector;
	h->seg[i].end = r->sector + r->sectors;
	h->seg[i].used = ++h->lru;
	h->fill = i;
	h->fill_t0 = now + t;
	h->fill_pos0 = s + r->sectors;
	h->fill_limit = h->fill_pos0 + hp->ra_sectors;
	h->fill_rate = media_rate(hp, s) / m->slow;
	return t;
}

/* The head is free: take the next command. */
static void hdd_next(struct leg_model *m)
{
	struct hdd *h = m->priv;
	double now = (double)m->sim->now, cost, best_cost = 0, t;
	unsigned int i, best = 0;
	int kind, best_kind = MISS;
	struct leg_req *r;

	if (h->busy || !h->nr_cmd)
		return;
	for (i = 0; i < h->nr_cmd; i++) {
		kind = classify(m, h->cmd[i], now, &cost);
		if (!i || cost < best_cost) {
			best = i;
			best_cost = cost;
			best_kind = kind;
		}
	}
	if (now - (double)h->cmd[0]->dispatched > HDD_MAX_AGE_NS && best) {
		best = 0;
		best_kind = classify(m, h->cmd[0], now, &best_cost);
	}
	r = h->cmd[best];
	for (i = best; i + 1 < h->nr_cmd; i++)
		h->cmd[i] = h->cmd[i + 1];
	h->nr_cmd--;

	if (best_kind == MISS) {
		t = serve_miss(m, r, now);
	} else {
		/* a stream waits on the platter, whose rate is slowed already */
		t = best_kind == HIT ? m->slow * best_cost : best_cost;
		if (best_kind == STREAM) {
			double e = (double)(r->sector + r->sectors);

			if (e + m->spec->hdd.ra_sectors > h->fill_limit)
				h->fill_limit = e + m->spec->hdd.ra_sectors;
		}
		h->seg[best_kind == STREAM ? h->fill :
		       seg_for(m, r->sector)].used = ++h->lru;
	}
	h->busy = true;
	sim_at(m->sim, sim_ns(now + t), hdd_end, r);
}

/* Move waiting commands into the drive while it has room. */
static void hdd_fill_queue(struct leg_model *m)
{
	struct hdd *h = m->priv;
	unsigned int ncq = m->spec->hdd.ncq;
	struct leg_req *r;

	if (ncq < 1 || ncq > HDD_MAX_NCQ)
		ncq = ncq ? HDD_MAX_NCQ : 1;
	while (h->head && h->nr_cmd < ncq) {
		r = h->head;
		h->head = r->next;
		if (!h->head)
			h->tail = NULL;
		leg_dispatched(m, r);
		h->cmd[h->nr_cmd++] = r;
	}
}

static void hdd_end(struct sim *s, void *arg)
{
	struct leg_req *r = arg;
	struct leg_model *m = r->leg;
	struct hdd *h = m->priv;

	(void)s;
	h->busy = false;
	hdd_fill_queue(m);
	hdd_next(m);
	leg_done(m, r);
}

static void hdd_submit(struct leg_model *m, struct leg_req *r)
{
	struct hdd *h = m->priv;

	r->next = NULL;
	if (h->tail)
		h->tail->next = r;
	else
		h->head = r;
	h->tail = r;
	hdd_fill_queue(m);
	hdd_next(m);
}

static void hdd_destroy(struct leg_model *m)
{
	struct hdd *h = m->priv;

	free(h->seg);
	free(h);
}

void leg_hdd_init(struct leg_model *m)
{
	const struct hdd_params *hp = &m->spec->hdd;
	struct hdd *h = sim_alloc(sizeof(*h));

	h->seg = sim_alloc((hp->segments ? hp->segments : 1) *
			   sizeof(*h->seg));
	h->fill = -1;
	h->rev_ns = 60 * SIM_NS / hp->rpm;
	m->priv = h;
	m->submit = hdd_submit;
	m->destroy = hdd_destroy;
}
