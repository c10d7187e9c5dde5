/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A rotational disk with one head, served one request at a time: the
 * timing model behind nbdkit-seek-filter.so.  Pure arithmetic over a
 * caller-supplied clock, so it is tested on the host without nbdkit.
 *
 * It is the model of tools/sim/leg-hdd.c with ncq 1 (see docs/simulator.md
 * "hdd-seek"), so the guest benchmark and rbsim can be compared, except
 * that here a hit moves the read-ahead on too (leg-hdd.c: streamed reads
 * only, so a client slower than the media misses every ra_sectors) and the
 * read-ahead reads at the rate of the zone the head is in (leg-hdd.c: of
 * the zone where the stream began):
 *  - hit: the sectors are in a read-ahead segment: command overhead plus
 *    the interface transfer; a hit in the segment being filled moves the
 *    read-ahead on to ra_sectors past it (a head that had stopped at the
 *    old limit resumes when that sector comes round);
 *  - stream: the head is reading ahead and the sectors are at most a
 *    track beyond it (or within the read-ahead limit): wait for them to
 *    pass under the head; the read-ahead goes on past them;
 *  - miss: the read-ahead stops; seek (none within a track, else settle +
 *    (full - settle) * sqrt(distance / capacity)), wait for the sector to
 *    come round (rpm; a sector's angle is its place in its track), then
 *    transfer at the zone's media rate (linear from outer at sector 0 to
 *    inner at the last).  A read then starts a segment that keeps filling
 *    at the media rate up to ra_sectors past the read; each read of it
 *    moves that limit on and takes the rate of the head's zone.
 * Writes go to the media (no write cache).  Requests are served in
 * arrival order, one at a time.
 */
#ifndef SEEKMODEL_H
#define SEEKMODEL_H

#include <stdbool.h>
#include <stdint.h>

#define SM_MAX_SEGMENTS 16

enum sm_kind { SM_HIT, SM_STREAM, SM_MISS, SM_WRITE, SM_NR_KINDS };

struct sm_params {
	double rpm;		/* 7200 */
	double outer_mibps;	/* media rate at sector 0 */
	double inner_mibps;	/* media rate at the last sector */
	double settle_ns;	/* shortest seek (beyond one track) */
	double full_ns;		/* full-stroke seek */
	double cmd_ns;		/* controller overhead per command */
	double iface_mibps;	/* interface rate for read-ahead hits */
	double ra_sectors;	/* read-ahead past the end of a read */
	double seg_sectors;	/* a segment keeps its last seg_sectors */
	unsigned int segments;	/* read-ahead segments, 1..SM_MAX_SEGMENTS */
	uint64_t capacity;	/* sectors: the full stroke */
};

struct sm_seg {
	double start, end;	/* cached [start, end) */
	uint64_t used;		/* LRU stamp */
};

struct sm {
	struct sm_params p;
	double rev_ns;
	double busy_until;	/* the head is free from then on */
	double pos;		/* parked head, when not filling */
	int fill;		/* segment being filled, or -1 */
	double fill_t0, fill_pos0, fill_limit, fill_rate;
	struct sm_seg seg[SM_MAX_SEGMENTS];
	uint64_t lru;
	/* statistics */
	uint64_t count[SM_NR_KINDS];
	double busy_ns;		/* time the head was busy */
	double seek_ns;		/* of which seeking */
	double rot_ns;		/* of which waiting for rotation */
};

/* The defaults: those of rbsim's hdd-seek at guest scale. */
void sm_default_params(struct sm_params *p);
/* 0, or -1 if a parameter is out of range. */
int sm_init(struct sm *m, const struct sm_params *p);

/*
 * A request of @sectors at @sector arrives at @now (ns, any monotonic
 * clock): returns the time it completes.  *kind, if not NULL, says how it
 * was served.
 */
double sm_submit(struct sm *m, double now, bool write, uint64_t sector,
		 uint32_t sectors, enum sm_kind *kind);

/* media rate at @sector, sectors per ns */
double sm_media_rate(const struct sm *m, double sector);
/* mean media rate over [start, end) in MiB/s */
double sm_mean_mibps(const struct sm *m, uint64_t start, uint64_t end);

extern const char *const sm_kind_name[SM_NR_KINDS];

#endif
