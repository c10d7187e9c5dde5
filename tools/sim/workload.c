// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: fio-like jobs.  Job j is process pid_base + j on CPU j % cpus.
 *
 * Direct jobs keep qd I/Os of bs bytes in flight (libaio): sequential ones
 * walk their own slice of the mirror (fio's offset_increment), random ones
 * pick bs-aligned offsets over the whole mirror; rw mixes pick reads with
 * rwmixread percent.  An I/O larger than 1 MiB goes down as 1 MiB bios
 * (BIO_MAX_VECS pages of the user's buffer), each routed on its own.
 *
 * A job submits in its own context: while a bio it submitted waits for a
 * leg's tags, the job does nothing else (io_submit() or the read-ahead in
 * read() sleeps in blk_mq_get_tag()).
 *
 * A buffered sequential reader does read() calls of bs bytes through the
 * page cache, whose read-ahead (mm/readahead.c, simplified) issues windows
 * of up to max(ra, bs) bytes: a miss issues one synchronously with the
 * next window's trigger bs into it; reading across a trigger issues the
 * next window, whose trigger is its first byte.  A window goes down as
 * one bio (its pages are new and mostly contiguous, so the bio's vectors
 * span many pages each), readable only once all of it has arrived; so
 * the next window starts when the one before has ended.  Windows grow as the
 * kernel's do: the first get_init_ra_size(), then get_next_ra_size() of
 * the one before (at the default 128 KiB, every window is the largest).  A read() returns when its
 * bytes have arrived, plus the copy at copy_mibps.  Random buffered reads
 * are direct reads at QD1 (read-ahead backs off on random access).
 */
#include <stdlib.h>

#include "sim-int.h"

#define BIO_MAX_SECTORS	2048		/* 1 MiB */
#define RA_MAX_BIOS	64		/* windows in flight or unread */

struct job {
	struct sim *sim;
	int pid;
	unsigned int cpu;
	struct rng rng;
	uint64_t base, len;		/* its slice of the mirror, sectors */
	uint64_t next;			/* sequential cursor in the slice */
	unsigned int qd;
	unsigned int inflight;		/* direct I/Os not yet ended */
	/* buffered reader */
	uint64_t pos, ra_end, marker;	/* relative to base */
	uint64_t ra_size;		/* sectors of the last window */
	struct sim_bio *ra[RA_MAX_BIOS];	/* in flight or unread, in order */
	unsigned int ra_n;
	bool waiting;
	simtime_t read_start;
	uint64_t bytes;			/* moved in the measured time */
	/* bios not yet submitted (waiting for tags), and what then */
	unsigned int blocked;
	unsigned int deferred;		/* direct I/Os to issue */
	bool resume_read;		/* the read() to go on */
};

/* One application I/O of a direct job. */
struct app_io {
	struct job *job;
	simtime_t submit;
	uint32_t sectors;
	bool write;
	unsigned int bios;		/* not yet ended */
};

static uint32_t bs_sectors(struct sim *s)
{
	return s->cfg->wl.bs / 512;
}

static bool is_seq(enum sim_rw rw)
{
	return rw == RW_READ || rw == RW_WRITE || rw == RW_RW;
}

static bool buffered_reader(struct sim *s)
{
	return s->cfg->wl.buffered && s->cfg->wl.rw == RW_READ;
}

static void job_resume(struct job *j);

/* An I/O of @j ended now: the run's statistics, and the job's own bytes */
static void job_io(struct job *j, uint64_t bytes, int write, uint64_t lat)
{
	struct sim *s = j->sim;

	stats_io(&s->st, bytes, write, lat, s->now);
	if (s->now >= s->st.from_ns)
		j->bytes += bytes;
}

/* A bio the job submitted has its tags: the job goes on once all have. */
static void job_submitted(struct sim *s, struct sim_bio *b)
{
	struct job *j = b->submitter;

	(void)s;
	if (!--j->blocked)
		job_resume(j);
}

/*
 * Submit [sector, +sectors) as bios of at most @max sectors; the job is
 * blocked until each has its tags.
 */
static unsigned int submit_bios(struct job *j, uint64_t sector,
				uint32_t sectors, uint32_t max, bool write,
				void (*done)(struct sim *, struct sim_bio *),
				void *owner, struct sim_bio **out)
{
	struct sim *s = j->sim;
	unsigned int n = 0;
	uint32_t len;

	for (; sectors; sectors -= len, sector += len) {
		struct sim_bio *b = sim_bio_get(s);

		len = sectors > max ? max : sectors;
		b->sector = sector;
		b->sectors = len;
		b->write = write;
		b->pid = j->pid;
		b->cpu = j->cpu;
		b->done = done;
		b->submitted = job_submitted;
		b->owner = owner;
		b->submitter = j;
		b->ended = false;
		if (out)
			out[n] = b;
		n++;
		if (!core_submit(s, b))
			j->blocked++;
	}
	return n;
}

/*
 * Direct I/O
 */

static void direct_issue(struct job *j);

/* When the prelude (--prelude Q:S:G) ends and the whole depth starts */
static simtime_t prelude_end(const struct sim *s)
{
	return sim_ns((s->cfg->pre_s + s->cfg->gap_s) * SIM_NS);
}

static void direct_issue_ev(struct sim *s, void *arg)
{
	(void)s;
	direct_issue(arg);
}

static void direct_bio_done(struct sim *s, struct sim_bio *b)
{
	struct app_io *io = b->owner;
	struct job *j = io->job;

	sim_bio_put(s, b);
	if (--io->bios)
		return;
	if (s->now <= s->end)
		job_io(j, (uint64_t)io->sectors * 512, io->write,
		       s->now - io->submit);
	pool_put(&s->apps, io);
	j->inflight--;
	if (s->cfg->think_ns > 0)	/* fio's turnaround: reap, then submit */
		sim_at(s, s->now + sim_ns(s->cfg->think_ns), direct_issue_ev,
		       j);
	else
		direct_issue(j);
}

static void direct_issue(struct job *j)
{
	struct sim *s = j->sim;
	const struct workload *wl = &s->cfg->wl;
	uint32_t n = bs_sectors(s);
	struct app_io *io;
	uint64_t off;
	bool write;

	if (s->now >= s->end)
		return;
	if (j->blocked) {		/* after the submission in progress */
		j->deferred++;
		return;
	}
	/* the prelude's depth, then the gap: direct_full() fills the queue */
	if (s->cfg->pre_s > 0 &&
	    s->now < prelude_end(s) &&
	    (s->now >= sim_ns(s->cfg->pre_s * SIM_NS) ||
	     j->inflight >= s->cfg->pre_qd))
		return;
	if (wl->rw == RW_READ || wl->rw == RW_RANDREAD)
		write = false;
	else if (wl->rw == RW_WRITE || wl->rw == RW_RANDWRITE)
		write = true;
	else
		write = rng_below(&j->rng, 100) >= wl->rwmixread;
	if (is_seq(wl->rw)) {
		if (j->next + n > j->len)
			j->next = 0;
		off = j->next;
		j->next += n;
	} else {
		off = rng_below(&j->rng, j->len / n) * n;
	}
	io = pool_get(&s->apps);
	j->inflight++;
	io->job = j;
	io->submit = s->now;
	io->sectors = n;
	io->write = write;
	io->bios = (n + BIO_MAX_SECTORS - 1) / BIO_MAX_SECTORS;
	submit_bios(j, j->base + off, n, BIO_MAX_SECTORS, write,
		    direct_bio_done, io, NULL);
}

static void direct_start(struct sim *s, void *arg)
{
	struct job *j = arg;
	unsigned int i;

	(void)s;
	for (i = 0; i < j->qd; i++)
		direct_issue(j);
}

/*
 * After a prelude's gap: the job's whole depth (those it cannot submit
 * while blocked on a tag wait as deferred ones, as direct_start()'s do)
 */
static void direct_full(struct sim *s, void *arg)
{
	struct job *j = arg;

	while (j->inflight + j->deferred < j->qd && s->now < s->end)
		direct_issue(j);
}

/*
 * Buffered sequential reader
 */

static void read_call(struct job *j);

/* Forget read-ahead the reader will not use; free what has ended. */
static void ra_drop(struct job *j, bool all)
{
	struct sim *s = j->sim;
	unsigned int i, keep = 0;

	for (i = 0; i < j->ra_n; i++) {
		struct sim_bio *b = j->ra[i];

		if (all || b->sector + b->sectors <= j->base + j->pos) {
			if (b->ended)
				sim_bio_put(s, b);
			else
				b->owner = NULL;	/* freed when it ends */
			continue;
		}
		j->ra[keep++] = b;
	}
	j->ra_n = keep;
}

/* Have [pos, pos + bs) arrived? */
static bool ra_ready(struct job *j)
{
	uint64_t lo = j->base + j->pos, hi = lo + bs_sectors(j->sim);
	unsigned int i;

	if (j->pos + bs_sectors(j->sim) > j->ra_end)
		return false;
	for (i = 0; i < j->ra_n; i++) {
		struct sim_bio *b = j->ra[i];

		if (b->sector < hi && b->sector + b->sectors > lo && !b->ended)
			return false;
	}
	return true;
}

static void read_done(struct sim *s, void *arg)
{
	struct job *j = arg;

	if (s->now <= s->end)
		job_io(j, s->cfg->wl.bs, 0, s->now - j->read_start);
	j->pos += bs_sectors(s);
	ra_drop(j, false);
	read_call(j);
}

/* The read's bytes are here: copy them out. */
static void read_copy(struct job *j)
{
	struct sim *s = j->sim;
	double mibps = s->cfg->copy_mibps;

	j->waiting = false;
	sim_at(s, s->now + (mibps > 0 ? sim_ns(s->cfg->wl.bs * SIM_NS /
					       (mibps * SIM_MIB)) : 0),
	       read_done, j);
}

static void ra_bio_done(struct sim *s, struct sim_bio *b)
{
	struct job *j = b->owner;

	b->ended = true;
	if (!j) {
		sim_bio_put(s, b);
		return;
	}
	if (j->waiting && ra_ready(j))
		read_copy(j);
}

/* mm/readahead.c: the first window for a read of @req, and the next ones */
static uint64_t ra_init_size(uint64_t req, uint64_t max)
{
	uint64_t size = 8;	/* a page */

	while (size < req)
		size <<= 1;
	if (size <= max / 32)
		return size * 4;
	if (size <= max / 4)
		return size * 2;
	return max;
}

static uint64_t ra_next_size(uint64_t cur, uint64_t max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/* Read ahead [ra_end, ra_end + len) of the slice; false if it cannot. */
static bool ra_window(struct job *j, uint64_t len)
{
	uint64_t start = j->ra_end;

	if (start + len > j->len)
		len = j->len - start;
	if (!len || j->ra_n + 1 > RA_MAX_BIOS)
		return false;
	j->ra_n += submit_bios(j, j->base + start, (uint32_t)len,
			       (uint32_t)len, false, ra_bio_done, j,
			       &j->ra[j->ra_n]);
	j->ra_end = start + len;
	return true;
}

/* The read's bytes: copy them now, or once they arrive. */
static void read_wait(struct job *j)
{
	if (ra_ready(j))
		read_copy(j);
	else
		j->waiting = true;
}

static void read_call(struct job *j)
{
	struct sim *s = j->sim;
	uint64_t bs = bs_sectors(s), win = s->ra / 512;

	if (s->now >= s->end)
		return;
	if (win < bs)
		win = bs;
	if (j->pos + bs > j->len) {	/* wrap: a new stream */
		ra_drop(j, true);
		j->pos = j->ra_end = j->marker = 0;
	}
	j->read_start = s->now;
	if (j->pos >= j->ra_end) {
		/* miss: synchronous read-ahead, next trigger bs into it */
		j->ra_end = j->pos;
		j->ra_size = ra_init_size(bs, win);
		ra_window(j, j->ra_size);
		j->marker = j->ra_size > bs ? j->pos + bs : j->ra_end;
	} else if (j->marker >= j->pos && j->marker < j->pos + bs) {
		/* across the trigger: the next window, triggered at its start */
		j->marker = j->ra_end;
		j->ra_size = ra_next_size(j->ra_size, win);
		ra_window(j, j->ra_size);
	}
	while (j->ra_end < j->pos + bs && ra_window(j, j->ra_size))
		;
	if (j->blocked) {		/* in submit_bio() still */
		j->resume_read = true;
		return;
	}
	read_wait(j);
}

static void job_resume(struct job *j)
{
	if (j->resume_read) {
		j->resume_read = false;
		read_wait(j);
	}
	while (!j->blocked && j->deferred) {
		j->deferred--;
		direct_issue(j);
	}
}

static void buffered_start(struct sim *s, void *arg)
{
	(void)s;
	read_call(arg);
}

void jobs_init(struct sim *s)
{
	const struct sim_config *cfg = s->cfg;
	const struct workload *wl = &cfg->wl;
	unsigned int i, n = wl->jobs ? wl->jobs : 1;
	uint64_t bs = bs_sectors(s), slice = cfg->size / n / bs * bs;

	s->apps.size = sizeof(struct app_io);
	s->jobs = sim_alloc(n * sizeof(*s->jobs));
	for (i = 0; i < n; i++) {
		struct job *j = &s->jobs[i];

		j->sim = s;
		j->pid = (int)(cfg->pid_base + i);
		j->cpu = cfg->cpus ? i % cfg->cpus : 0;
		rng_seed(&j->rng, cfg->seed, i);
		if (is_seq(wl->rw)) {
			j->base = i * slice;
			j->len = slice;
		} else {
			j->base = 0;
			j->len = cfg->size / bs * bs;
		}
		j->qd = wl->buffered ? 1 : (wl->qd ? wl->qd : 1);
	}
}

void jobs_start(struct sim *s)
{
	unsigned int i, n = s->cfg->wl.jobs ? s->cfg->wl.jobs : 1;

	for (i = 0; i < n; i++) {
		sim_at(s, 0, buffered_reader(s) ? buffered_start : direct_start,
		       &s->jobs[i]);
		if (s->cfg->pre_s > 0 && !buffered_reader(s))
			sim_at(s, prelude_end(s), direct_full, &s->jobs[i]);
	}
}

uint64_t jobs_bytes(const struct sim *s, unsigned int j)
{
	return s->jobs[j].bytes;
}

void jobs_fini(struct sim *s)
{
	free(s->jobs);
	s->jobs = NULL;
}
