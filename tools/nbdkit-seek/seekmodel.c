// SPDX-License-Identifier: GPL-2.0
/* The one-head disk model of nbdkit-seek-filter.so: see seekmodel.h. */
#include <math.h>
#include <string.h>

#include "seekmodel.h"

#define NS	1e9
#define MIB	1048576.0

const char *const sm_kind_name[SM_NR_KINDS] = { "hit", "stream", "miss",
						 "write" };

void sm_default_params(struct sm_params *p)
{
	*p = (struct sm_params){
		.rpm = 7200,
		.outer_mibps = 25,
		.inner_mibps = 12.5,
		.settle_ns = 1e6,
		.full_ns = 15e6,
		.cmd_ns = 100e3,
		.iface_mibps = 550,
		.ra_sectors = 512,
		.seg_sectors = 512,
		.segments = 4,
		.capacity = 256ULL << 11,	/* 256 MiB */
	};
}

int sm_init(struct sm *m, const struct sm_params *p)
{
	if (p->rpm <= 0 || p->outer_mibps <= 0 || p->inner_mibps <= 0 ||
	    p->settle_ns < 0 || p->full_ns < p->settle_ns || p->cmd_ns < 0 ||
	    p->iface_mibps <= 0 || p->ra_sectors < 0 || p->seg_sectors < 0 ||
	    p->segments < 1 || p->segments > SM_MAX_SEGMENTS || !p->capacity)
		return -1;
	memset(m, 0, sizeof(*m));
	m->p = *p;
	m->rev_ns = 60 * NS / p->rpm;
	m->fill = -1;
	return 0;
}

static double sectors_per_ns(double mibps)
{
	return mibps * MIB / 512 / NS;
}

double sm_media_rate(const struct sm *m, double sector)
{
	double f = sector / (double)m->p.capacity;

	if (f > 1)
		f = 1;
	if (f < 0)
		f = 0;
	return sectors_per_ns(m->p.outer_mibps -
			      (m->p.outer_mibps - m->p.inner_mibps) * f);
}

double sm_mean_mibps(const struct sm *m, uint64_t start, uint64_t end)
{
	double mid = (start + end) / 2.0;

	/* the rate is linear in the sector: its mean is the rate at the middle */
	return sm_media_rate(m, mid) * 512 * NS / MIB;
}

static double track_sectors(const struct sm *m, double sector)
{
	return sm_media_rate(m, sector) * m->rev_ns;
}

static double seek_time(const struct sm *m, double from, double to)
{
	double d = fabs(to - from), f;

	if (d < track_sectors(m, from))
		return 0;
	f = d / (double)m->p.capacity;
	return m->p.settle_ns +
	       (m->p.full_ns - m->p.settle_ns) * sqrt(f > 1 ? 1 : f);
}

/* time until @sector passes under the head, from @t on */
static double rotation_time(const struct sm *m, double sector, double t)
{
	double track = track_sectors(m, sector);
	double want = sector / track - floor(sector / track);
	double now = t / m->rev_ns - floor(t / m->rev_ns);
	double turn = want - now;

	return (turn < 0 ? turn + 1 : turn) * m->rev_ns;
}

/* where the head is at @t: parked, or as far as the read-ahead got */
static double head_at(const struct sm *m, double t)
{
	double p;

	if (m->fill < 0)
		return m->pos;
	p = m->fill_pos0 + m->fill_rate * (t > m->fill_t0 ? t - m->fill_t0 : 0);
	return p < m->fill_limit ? p : m->fill_limit;
}

static double seg_end(const struct sm *m, int i, double t)
{
	return i == m->fill ? head_at(m, t) : m->seg[i].end;
}

static double seg_start(const struct sm *m, int i, double t)
{
	double end = seg_end(m, i, t), start = m->seg[i].start;

	return end - start > m->p.seg_sectors ? end - m->p.seg_sectors : start;
}

/* the segment to fill from @sector: one that holds it, else the LRU one */
static int seg_for(const struct sm *m, double sector)
{
	unsigned int i, victim = 0;

	for (i = 0; i < m->p.segments; i++) {
		if (sector >= m->seg[i].start && sector <= m->seg[i].end &&
		    m->seg[i].end > m->seg[i].start)
			return (int)i;
		if (m->seg[i].used < m->seg[victim].used)
			victim = i;
	}
	return (int)victim;
}

static double serve_miss(struct sm *m, double t, bool write, double s,
			 double n)
{
	double seek, rot, cost;
	int i;

	if (m->fill >= 0) {	/* the head leaves the read-ahead */
		m->pos = head_at(m, t);
		m->seg[m->fill].start = seg_start(m, m->fill, t);
		m->seg[m->fill].end = m->pos;
		m->fill = -1;
	}
	seek = seek_time(m, m->pos, s);
	rot = rotation_time(m, s, t + m->p.cmd_ns + seek);
	cost = m->p.cmd_ns + seek + rot + n / sm_media_rate(m, s);
	m->seek_ns += seek;
	m->rot_ns += rot;
	if (write) {
		m->pos = s + n;
		return cost;
	}
	i = seg_for(m, s);
	m->seg[i].start = s;
	m->seg[i].end = s + n;
	m->seg[i].used = ++m->lru;
	m->fill = i;
	m->fill_t0 = t + cost;
	m->fill_pos0 = s + n;
	m->fill_limit = m->fill_pos0 + m->p.ra_sectors;
	m->fill_rate = sm_media_rate(m, s);
	return cost;
}

/*
 * A read of the filling segment up to @e: the read-ahead goes on to
 * ra_sectors past it, at the media rate of the zone the head is in now.
 * A head that had stopped at the old limit resumes there once that
 * sector comes round again.
 */
static void extend_fill(struct sm *m, double t, double e)
{
	double limit = e + m->p.ra_sectors, at;

	if (m->fill < 0 || limit <= m->fill_limit)
		return;
	at = head_at(m, t);
	if (at >= m->fill_limit) {
		m->fill_pos0 = m->fill_limit;
		m->fill_t0 = t + rotation_time(m, m->fill_limit, t);
	} else if (t > m->fill_t0) {
		m->fill_pos0 = at;
		m->fill_t0 = t;
	}
	m->fill_rate = sm_media_rate(m, m->fill_pos0);
	m->fill_limit = limit;
}

double sm_submit(struct sm *m, double now, bool write, uint64_t sector,
		 uint32_t sectors, enum sm_kind *kind)
{
	double t = now > m->busy_until ? now : m->busy_until;
	double s = (double)sector, n = sectors, e = s + n, at, cost;
	enum sm_kind k = write ? SM_WRITE : SM_MISS;
	unsigned int i;

	if (!write) {
		for (i = 0; i < m->p.segments; i++) {
			if (m->seg[i].end > m->seg[i].start &&
			    s >= seg_start(m, (int)i, t) &&
			    e <= seg_end(m, (int)i, t)) {
				k = SM_HIT;
				cost = m->p.cmd_ns +
				       n * 512 * NS / (m->p.iface_mibps * MIB);
				m->seg[i].used = ++m->lru;
				if ((int)i == m->fill)
					extend_fill(m, t, e);
				break;
			}
		}
		at = head_at(m, t);
		/* still to come, and joined to what the filling segment holds */
		if (k != SM_HIT && m->fill >= 0 && e > at &&
		    s >= seg_start(m, m->fill, t) &&
		    (e <= m->fill_limit ||
		     (at < m->fill_limit && s <= at + track_sectors(m, at)))) {
			double arrive;

			extend_fill(m, t, e);
			arrive = m->fill_t0 + (e - m->fill_pos0) / m->fill_rate;
			k = SM_STREAM;
			cost = m->p.cmd_ns + (arrive > t ? arrive - t : 0);
			m->seg[m->fill].used = ++m->lru;
		}
	}
	if (k == SM_MISS || k == SM_WRITE)
		cost = serve_miss(m, t, write, s, n);
	m->count[k]++;
	m->busy_ns += cost;
	m->busy_until = t + cost;
	if (kind)
		*kind = k;
	return m->busy_until;
}
