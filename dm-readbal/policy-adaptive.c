// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "adaptive": every read goes where it will be done
 * soonest, so each leg serves the share of the reads it can finish no later
 * than the others could, and one large read is split across legs.
 *
 * The model.  Each leg learns, online, from its own reads' service times:
 *
 *   serial(b) = cost + b * rate	how long the leg is busy with a read
 *					of b sectors before the next one can
 *					start: seek, transfer, a queue slot
 *   lat(b) = idle(b) - serial(b)	what it takes on top of that, beside
 *					other reads: a flash read, a round
 *					trip
 *
 * A read's serial time is the gap from the leg's previous completion to its
 * own, counted only for reads that were queued behind that one (started
 * more than lat(b) before it ended).  cost and rate are the line through
 * the moving averages of (sectors, serial time) of small reads (up to 32
 * KiB) and of large ones (its slope at least a quarter of the large reads'
 * own time per sector); reads that went on from their stream's last read
 * on a rotational leg (no seek) have a rate of their own, run_rate, while
 * it is no older than the line's samples (a slowed leg's streams move off);
 * large reads whose samples stopped 2 decay_ms before the small ones' leave
 * the line (a sequential job's slope would charge every small read after).
 * idle(b) is the same line through the service times of reads that found
 * the leg idle (large ones only: proportional, so a small read looks quick
 * until one is measured).  Averages are time-weighted: a sample weighs the
 * time since the class's last sample over decay_ms, at most all, so the
 * model follows a leg that slows down within a few decay_ms whatever its
 * IOPS; samples closer than decay_ms / 256 are skipped, which also keeps
 * the fitting off most completions of a busy leg.  A read that found its
 * leg idle for over decay_ms and was slower weighs 1/8 at most: it may have
 * woken the device.  Until a leg has
 * completed a read it gets one read at a time, on optimistic defaults.
 *
 * The estimate.  A read of b sectors sent to leg i now would be done after
 *
 *   E(i) = backlog(i) + serial_i(b) + lat_i(b)
 *   backlog(i) = inflight_i * cost_i + sectors_in_flight_i * rate_i
 *
 * but the backlog is at least half of inflight_i times the leg's pace: the
 * time per read it has completed while busy, counted over windows of
 * decay_ms / 16 (ad_pace()).  Service times can say a leg is quick while
 * its queue grows (a token bucket passes reads in bursts; a device may
 * queue inside); completions per second cannot.  Windows of mostly small
 * and of mostly large reads keep a pace each, and a small read's pace
 * counts for 2 decay_ms after it was set: small reads sent in bursts, or
 * too few of them to keep the leg busy, close no window, and an old pace
 * would call the leg saturated with too few reads in flight ever to learn
 * otherwise (ad_small_pace()).  A flash leg that drains within each of a
 * throttle's bursts closes no window either, while reads wait for its next
 * budget: there a pace over its time with reads queued only, the drained
 * time left out, stands in (ad_queued_pace()).  A small read on a flash
 * leg is done no sooner than (inflight_i + writes_i + 1) times the whole
 * pace: the half lets a leg take more reads than its pace says, so that
 * one serving them side by side can show it, but must not make a
 * throttled leg holding twice what keeps it busy look sooner than another.
 *
 * On a rotational leg the cost is scaled by how far the read is from
 * the end of the leg's last read (about the square root of the distance
 * over the leg's average seek distance), and is nothing for a read that
 * goes on from its stream (run_rate instead); but not on a flat one,
 * whose far reads are slow no more often than its near ones (a token
 * bucket with no head, a virtual disk that calls itself rotational:
 * ad_seek_learn(), from its small reads, queued or idle).  A leg is saturated
 * when backlog(i) >= lat_i(b) + cost_i + b * rate_i: it has as many reads
 * in flight as it serves beside each other, and another would only wait;
 * so is a leg with as many reads in flight as its queue depth
 * (nr_requests), where another would make the submitter wait for a tag.
 * A flash leg's small read, once the leg has a pace and a floor, judges the
 * backlog at the whole pace and saturates the leg only past its knee: in
 * flight times the pace over 5/4 of the floor and a pace more
 * (ad_past_knee()).  Each read more on a leg below its knee adds to the
 * throughput, each past it only waits.
 *
 * The choice.
 *  - Streams: the mirror remembers where recent reads ended, and on which
 *    leg (128 slots hashed by that sector, two to try).  A read that goes
 *    on from one, or any read over 32 KiB, goes to the leg with the lowest
 *    E: a stream gets its data in order as early as possible, and a slow
 *    leg gets a part of it only when it can deliver that part no later
 *    than the fast ones.  On a rotational leg a stream stays unless
 *    another leg would be done a quarter sooner.  On an array of
 *    rotational legs, all busy, a new stream (or a small read once every
 *    leg is saturated, unless the legs are flat) goes to the leg whose
 *    last read ends nearest (md's nearest head): streams near each other
 *    share a leg, and a saturated disk serves more the shorter its seeks.
 *  - Small random reads go to the unsaturated leg with the lowest E, else
 *    to the lowest E of a leg whose queue is not full, else to the lowest
 *    E less the time the leg's next completion has been under way (its
 *    next tag frees first: ad_full_e()): a fast leg takes reads until
 *    it is saturated and only then does a slow one add its throughput
 *    (queue depth 32); at queue depth 1 they all go to the fastest leg.
 *    A rotational leg busy with such a read 64 times as long as the
 *    quickest flash leg (seeks: an hdd beside an ssd, 100 to 500 times)
 *    has no room: it would add 1/64 of the reads at most, each holding
 *    one of the submitter's slots for a seek, and a fast leg's
 *    saturation is inferred (a submitter short of CPU sends in bursts).
 *    A disk that serves several reads at once keeps its room (null_blk
 *    hdds: 25 times an ssd's serial time within its token bucket's
 *    bursts): no room means no queued reads, and without a queued read
 *    it would never learn otherwise.  Flash peers (an array of flash legs
 *    whose idle small reads are within AD_PEER_RATIO of each other) at
 *    depth: the leg with the fewest in flight (ad_peer()), unless a leg
 *    whose reads do not queue would serve it sooner.
 *  - Probes: an idle leg that completed nothing for probe_ms, or for 256
 *    times its own 4 KiB read time if that is sooner, but at least 256
 *    times what that read takes over the quickest leg's, gets a probe
 *    beside the next read (the probe hook: the core reads 4 KiB of it
 *    there and nobody waits), so that a leg that was slow is measured
 *    again.  A leg judged by fewer than AD_SURE_READS small reads that
 *    found it idle (but one) gets one once idle for decay_ms: a new
 *    device's first read can take ten times its later ones, and a leg
 *    judged by it alone got no read.
 *  - chunk: a large read is split, and the core routes the rest on its
 *    own (dm resubmits it once this part is submitted); a small one is
 *    left whole to select(), which keeps it off full queues.  The part goes to
 *    the leg that can start first, and is that leg's share of the read so
 *    that every leg given a part is done with it at the same time
 *    (water-filling over each leg's E of nothing more and its rate); at
 *    most up to the leg's next chunk boundary (rot_chunk_kb on rotational
 *    legs, flash_chunk_kb on others, aligned to the mirror), and at most
 *    what its queue takes without the submitter waiting for a tag
 *    (nr_requests requests of max_sectors, less what is in flight there)
 *    if another leg would run dry while the submitter waits, and for the
 *    rest of a split read.  With every leg deep in work (many readers)
 *    the wait costs nothing, and a read cut to fit would only spread a
 *    reader's window over busy legs, each part waiting its turn.  A
 *    rotational leg keeps a whole read while no other leg would sit idle,
 *    and a stream on it keeps its leg; a flash leg keeps it while every
 *    other leg has twice the read in flight (many readers), and the read
 *    goes whole to the leg that ends it first.  The rest of a split read is no
 *    stream going on.  chunk() leaves its choice in per-CPU words for the
 *    select() that follows and for the rest of the read.
 *  - io_opt: half of a piece for every leg (its chunk, or half what its
 *    queue takes if less), at least 512 KiB (or io_opt_kb): the read-ahead
 *    the kernel derives from it at table load (2 * io_opt) gives one
 *    sequential reader a part on every leg.  A window is one bio that the
 *    reader waits for whole, so more would help one reader, but every
 *    reader keeps a window queued, which many readers all wait behind.
 *
 * Knobs (docs/readbal.rst): decay_ms (100), probe_ms (1000; 0: never),
 * rot_chunk_kb (1024) and flash_chunk_kb (128), 0 for no split, and
 * io_opt_kb (0: as above); sizes are multiples of 4 KiB.
 *
 * No lock: select reads the core's inflight and last_end, the model with
 * READ_ONCE and the sectors in flight from an atomic64 per leg; start_io
 * and end_io update the per-leg state with READ_ONCE/WRITE_ONCE.  The
 * clock is the core's (io->start_ns), read once per read.  Two
 * completions of a leg at once may lose a sample, as the core's ewma_ns
 * may, and two CPUs may both take a stream's tail or probe a leg: each is
 * one read routed as it could have been anyway.  Nothing is allocated
 * after create().
 */
#include <linux/cache.h>
#include <linux/ktime.h>

#include "readbal.h"

#define AD_SMALL_SECTORS	64		/* 32 KiB: small reads */
#define AD_PROBE_SECTORS	RB_PROBE_SECTORS /* the core's probe: 4 KiB */
#define AD_PROBE_READS		256		/* 1/256 of a leg's time */
#define AD_SURE_READS		3		/* idle small reads to trust */
#define AD_FIX			8		/* averages in 1/256 */
#define AD_K_SHIFT		8		/* rates: ns/sector in 1/256 */
#define AD_W_SHIFT		10		/* weights in 1/1024 */
#define AD_W_ONE		1024U		/* 1 << AD_W_SHIFT */
#define AD_W_MIN		4		/* a sample weighs >= 1/256 */
#define AD_NS_PER_MS		1000000ULL
#define AD_MAX_NS		68719476736ULL	/* 2^36: samples up to 68 s */
#define AD_MAX_SECTORS		4194304U	/* 2^22: 2 GiB */
#define AD_MAX_RATE		4294967296ULL	/* 2^32: 16 ms per sector */
#define AD_MAX_INFLIGHT		524288		/* 2^19 reads */
#define AD_MAX_QUEUED		16777216LL	/* 2^24 sectors: 8 GiB */
#define AD_MAX_CHUNK_KB		65536		/* 64 MiB */
#define AD_MAX_IO_OPT_KB	262144		/* 256 MiB */
#define AD_MIN_IO_OPT_KB	512		/* unless io_opt_kb says less */
#define AD_KB_SECTORS		2
#define AD_NO_SECTOR		(~(sector_t)0)
#define AD_NR_RUNS		8		/* runs in flight noted per leg */
#define AD_TAIL_BITS		7		/* streams remembered: 128 slots */
#define AD_TAIL_SLOTS		BIT(AD_TAIL_BITS)
#define AD_LEG_BITS		4		/* RB_MAX_LEGS in a tail's key */
#define AD_UNKNOWN		4611686018427387904ULL	/* 2^62: not measured */
#define AD_FULL			2305843009213693952ULL	/* 2^61: queue full */
#define AD_STICK_SHIFT		2		/* moving: 1/4 sooner */
#define AD_DEEP_SHIFT		1		/* deep in work: 2x a read */
#define AD_WORTH_SHIFT		6		/* 64x the quickest: no room */
#define AD_PEER_RATIO		4		/* flash legs this close: peers */
#define AD_QUEUED_RATIO		2		/* reads queue: 2x the floor */
#define AD_FULL_QUARTERS	5		/* knee: 5/4 of the floor */
#define AD_FLOOR_SHIFT		2		/* floor: 4 decay_ms at most */
#define AD_DIST_SHIFT		4		/* seek distance: 1/16 */
#define AD_JUMP			4		/* a sample: <= 4x the average */
#define AD_SLOPE_SHIFT		2		/* rate >= 1/4 of large reads' */
#define AD_RUN_STALE		2		/* decay_ms: run rate too old */
#define AD_PACE_SHIFT		1		/* backlog >= half the pace's */
#define AD_PACE_WINDOW_SHIFT	4		/* pace over decay_ms / 16 */
#define AD_PACE_SHIFT_W		2		/* a window weighs 1/4 */
#define AD_WAKE_SHIFT		3		/* a slow wake weighs 1/8 */
#define AD_SEEK_READS		128		/* near and far: judge seeks */
#define AD_SEEK_PART		10		/* far slow 1/10 more often */
#define AD_NEAR_EIGHTHS		3		/* d < dist / 4: near */
#define AD_FAR_EIGHTHS		11		/* d >= dist: far */

/* Before a leg has been measured: 100 MiB/s rotational, 1 GiB/s flash. */
#define AD_ROT_RATE		((1000000000ULL << AD_K_SHIFT) / 204800)
#define AD_FLASH_RATE		((1000000000ULL << AD_K_SHIFT) / 2097152)

enum {
	AD_DECAY_MS,
	AD_PROBE_MS,
	AD_ROT_CHUNK_KB,
	AD_FLASH_CHUNK_KB,
	AD_IO_OPT_KB,
	AD_NR_KNOBS
};

static const char *const ad_knobs[] = {
	"decay_ms",
	"probe_ms",
	"rot_chunk_kb",
	"flash_chunk_kb",
	"io_opt_kb",
	NULL
};

static const unsigned int ad_default[AD_NR_KNOBS] = {
	100, 1000, 1024, 128, 0
};

static const unsigned int ad_min[AD_NR_KNOBS] = { 1, 0, 0, 0, 0 };

static const unsigned int ad_max[AD_NR_KNOBS] = {
	60000, 3600000, AD_MAX_CHUNK_KB, AD_MAX_CHUNK_KB, AD_MAX_IO_OPT_KB
};

/* A moving average of (sectors, ns) of one class of reads. */
struct ad_class {
	u64 sectors;		/* << AD_FIX; 0: no sample yet */
	u64 ns;			/* << AD_FIX */
	u64 stamp;		/* ktime of the last sample */
};

/*
 * Serial times of small and of large reads, of reads that went on from
 * their stream's last read on a rotational leg (no seek); service times of
 * small and of large reads that found the leg idle.
 */
enum {
	AD_SMALL, AD_LARGE, AD_RUN, AD_IDLE_SMALL, AD_IDLE_LARGE,
	AD_NR_CLASSES
};

/* Paces of windows of mostly small, and of mostly large reads */
enum { AD_PACE_SMALL, AD_PACE_LARGE, AD_NR_PACES };

/*
 * Every field READ_ONCE/WRITE_ONCE, but queued.  A cache line of its own:
 * each leg's completions write it, on CPUs of their own (and the array is
 * indexed by a shift).
 */
struct ad_leg {
	/* the model, read by every select: serial(b) = cost + b * rate */
	u64 cost;		/* ns */
	u64 rate;		/* ns per sector << AD_K_SHIFT */
	u64 run_rate;		/* the same going on from a stream: no seek */
	u64 idle;		/* on an idle leg: idle + b * idle_rate */
	u64 idle_rate;
	u64 dist;		/* rotational: mean seek distance, sectors */
	u64 probe_after;	/* idle this long: probe it (AD_PROBE_READS) */
	/* lat(b) = lat0 + b * lat_rate, idle(b) - serial(b), kept by ad_fit */
	s64 lat0;
	s64 lat_rate;
	bool measured;		/* a read has been learnt from */
	/* written as reads start and end */
	struct ad_class cls[AD_NR_CLASSES];
	u64 last_finish;	/* ktime of the last read ended */
	u64 probe_stamp;	/* ktime of the last probe sent */
	u64 probe_ns;		/* what that probe took; 0: none yet */
	u32 idle_seen;		/* small reads learnt idle, to AD_SURE_READS */
	sector_t solo;		/* 1 + sector of a read that found it idle */
	sector_t pair;		/* ... that found one read in flight */
	atomic64_t queued;	/* sectors in flight */
	/* 1 + sector: the next read sent here goes on from its stream */
	sector_t run_next;
	sector_t runs[AD_NR_RUNS];	/* 1 + sector of such reads in flight */
	sector_t tail;		/* end of the last read sent */
	/* the pace of a busy leg, whatever the line says: see ad_pace() */
	u64 done;		/* reads completed since done_stamp */
	u64 done_large;		/* of which large ones */
	u64 done_stamp;		/* 0: not busy */
	u64 per_read[AD_NR_PACES];	/* ns per read completed while busy */
	u64 pace_stamp[AD_NR_PACES];	/* when per_read was last set */
	/* the same over its time with a queue only: see ad_queued_pace() */
	u64 q_done;		/* reads completed in the window */
	u64 q_large;		/* of which large ones */
	u64 q_stamp;		/* window start; 0: none yet */
	u64 q_idle_at;		/* since when it has no queue; 0: queued */
	u64 q_idle_sum;		/* ns of the window it had none */
	u64 q_per_read;		/* ns per small read completed queued */
	u64 q_pace_stamp;	/* when q_per_read was last set */
	bool q_writes;		/* a write was in flight in the window */
	/* the quickest small read that found it idle: ad_floor() */
	u64 floor;		/* ns; 0: none yet */
	u64 floor_stamp;	/* when it was set */
	/* rotational: do far reads take longer?  ad_seek_learn() */
	sector_t done_end;	/* end of the last read completed */
	u32 near, near_slow;	/* small reads near it, slow ones */
	u32 far, far_slow;	/* the same far from it */
	u8 verdicts;		/* the last two: bit set, flat */
	bool flat;		/* no, twice running: distance not charged */
} ____cacheline_aligned_in_smp;

struct ad_ctx {
	unsigned int knob[AD_NR_KNOBS];		/* READ_ONCE/WRITE_ONCE */
	u64 __percpu *pick;	/* chunk()'s choice, for select() */
	/* 1 + sector: the rest of a read chunk() split, mapped next */
	sector_t __percpu *rest;
	/*
	 * Where the streams' last reads ended, and on which leg: a read
	 * that starts there goes on from its stream.  Hashed by that end,
	 * two slots to try; a key is (end + 1) << AD_LEG_BITS | leg, 0 for
	 * none, so one WRITE_ONCE sets both.
	 */
	u64 tails[AD_TAIL_SLOTS];
	struct ad_leg leg[];	/* one per leg of the set */
};

static u64 ad_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static u64 ad_max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

static unsigned int ad_knob(struct ad_ctx *ctx, unsigned int knob)
{
	return READ_ONCE(ctx->knob[knob]);
}

static u64 ad_default_rate(const struct rb_leg *leg)
{
	return leg->nonrot ? AD_FLASH_RATE : AD_ROT_RATE;
}

static void ad_fit(struct ad_leg *l, const struct rb_leg *leg, u64 stale);

static int ad_create(struct rb_policy *p)
{
	unsigned int i, n = p->set->nr_legs;
	u64 now = ktime_get_ns();
	struct ad_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx) + n * sizeof(ctx->leg[0]), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->pick = alloc_percpu(u64);
	ctx->rest = alloc_percpu(sector_t);
	if (!ctx->pick || !ctx->rest) {
		free_percpu(ctx->pick);
		free_percpu(ctx->rest);
		kfree(ctx);
		return -ENOMEM;
	}
	for (i = 0; i < AD_NR_KNOBS; i++)
		ctx->knob[i] = ad_default[i];
	for (i = 0; i < n; i++) {
		ctx->leg[i].tail = AD_NO_SECTOR;
		ad_fit(&ctx->leg[i], &p->set->legs[i], 0);
		/* a leg is not stale before it had a chance to be read */
		ctx->leg[i].last_finish = now;
		atomic64_set(&ctx->leg[i].queued, 0);
	}
	p->context = ctx;
	return 0;
}

static void ad_destroy(struct rb_policy *p)
{
	struct ad_ctx *ctx = p->context;

	if (ctx) {
		free_percpu(ctx->pick);
		free_percpu(ctx->rest);
	}
	kfree(ctx);
	p->context = NULL;
}

static int ad_set_knob(struct rb_policy *p, unsigned int knob,
		       const char *value, char **error)
{
	struct ad_ctx *ctx = p->context;
	unsigned int v;
	int r;

	if (knob >= AD_NR_KNOBS) {
		*error = "unknown knob";
		return -EINVAL;
	}
	r = rb_policy_parse_uint(value, ad_min[knob], ad_max[knob], &v, error);
	if (r)
		return r;
	if (knob >= AD_ROT_CHUNK_KB && v % 4) {
		*error = "chunk and io_opt sizes are multiples of 4 KiB";
		return -EINVAL;
	}
	WRITE_ONCE(ctx->knob[knob], v);
	return 0;
}

static int ad_show_knob(struct rb_policy *p, unsigned int knob, char *buf,
			size_t len)
{
	struct ad_ctx *ctx = p->context;

	if (knob >= AD_NR_KNOBS)
		return -EINVAL;
	return scnprintf(buf, len, "%u", ad_knob(ctx, knob));
}

/*
 * The model
 */

/* The weight in 1/1024 of a sample at @now, the previous one at @stamp */
static u64 ad_weight(struct ad_ctx *ctx, u64 stamp, u64 now)
{
	u64 decay = (u64)ad_knob(ctx, AD_DECAY_MS) * AD_NS_PER_MS;
	u64 w;

	if (!stamp)
		return AD_W_ONE;
	if ((s64)(now - stamp) <= 0)
		return AD_W_MIN;
	w = div_u64(now - stamp, (u32)(decay >> AD_W_SHIFT) ?: 1);
	return w < AD_W_MIN ? AD_W_MIN : ad_min_u64(w, AD_W_ONE);
}

/* avg + (sample - avg) * w / 1024; both below 2^45 */
static u64 ad_ewma(u64 avg, u64 sample, u64 w)
{
	if (sample >= avg)
		return avg + (((sample - avg) * w) >> AD_W_SHIFT);
	return avg - (((avg - sample) * w) >> AD_W_SHIFT);
}

/*
 * The line through the averages of a small and of a large class: *rate (ns
 * per sector << AD_K_SHIFT) and the return value, ns at 0 sectors.  Large
 * reads only: proportional, nothing at 0 sectors.  Small reads only: *rate
 * as given, unless they went faster, and the rest at 0 sectors.
 */
static u64 ad_line(const struct ad_class *small, const struct ad_class *large,
		   u64 *rate)
{
	u64 bs = READ_ONCE(small->sectors), ts = READ_ONCE(small->ns);
	u64 bl = READ_ONCE(large->sectors), tl = READ_ONCE(large->ns);
	u64 fixed;

	if (bl > bs && bs) {
		*rate = tl > ts ? div_u64((tl - ts) << AD_K_SHIFT,
					  (u32)(bl - bs)) : 0;
		/*
		 * At least a quarter of the large reads' own time per
		 * sector: where large reads took hardly longer than small
		 * ones (a token bucket's wait, a late completion), the
		 * slope says the leg is infinitely fast, and it would be
		 * given every share.
		 */
		*rate = ad_max_u64(*rate, div_u64(tl << AD_K_SHIFT, (u32)bl) >>
					  AD_SLOPE_SHIFT);
	} else if (bl) {
		*rate = div_u64(tl << AD_K_SHIFT, (u32)bl);
	} else if (bs) {
		*rate = ad_min_u64(*rate, div_u64(ts << AD_K_SHIFT, (u32)bs));
	}
	*rate = ad_min_u64(*rate, AD_MAX_RATE);
	if (!bs)
		return 0;
	fixed = (*rate * bs) >> AD_K_SHIFT;
	return ts > fixed ? (ts - fixed) >> AD_FIX : 0;
}

/* What a read of @sectors takes beside others: idle(b) - serial(b), >= 0 */
static u64 ad_lat(const struct ad_leg *l, u64 sectors)
{
	s64 lat = READ_ONCE(l->lat0), r = READ_ONCE(l->lat_rate);

	if (r >= 0)
		lat += ((u64)r * sectors) >> AD_K_SHIFT;
	else
		lat -= ((u64)-r * sectors) >> AD_K_SHIFT;
	return lat > 0 ? lat : 0;
}

/* What a read of @sectors adds to the leg's queue: serial(b) */
static u64 ad_serial(const struct ad_leg *l, u64 sectors)
{
	return READ_ONCE(l->cost) +
	       ((READ_ONCE(l->rate) * sectors) >> AD_K_SHIFT);
}

/* What a read of @sectors takes on the idle leg: idle(b) */
static u64 ad_idle_ns(const struct ad_leg *l, u64 sectors)
{
	return READ_ONCE(l->idle) +
	       ((READ_ONCE(l->idle_rate) * sectors) >> AD_K_SHIFT);
}

/* The lat(b) line from the idle and serial lines (each below 2^45) */
static void ad_lat_line(struct ad_leg *l)
{
	WRITE_ONCE(l->lat0, (s64)READ_ONCE(l->idle) - (s64)READ_ONCE(l->cost));
	WRITE_ONCE(l->lat_rate, (s64)READ_ONCE(l->idle_rate) -
				(s64)READ_ONCE(l->rate));
}

/*
 * Is the run rate's last sample more than @stale ns (0: never) older than
 * the serial line's newest?  A leg that slows down loses its streams, so
 * its run class stops learning while the serial line follows: a stale run
 * rate would call a stream's next read there quick and keep the stream on
 * a leg ten times slower.
 */
/* When the serial line last learnt: its newest sample, small or large */
static u64 ad_line_stamp(const struct ad_leg *l)
{
	u64 small = READ_ONCE(l->cls[AD_SMALL].stamp);
	u64 large = READ_ONCE(l->cls[AD_LARGE].stamp);

	return (s64)(large - small) > 0 ? large : small;
}

/* Did class @cls stop learning more than @stale ns (0: never) before @than? */
static bool ad_older(const struct ad_leg *l, unsigned int cls, u64 than,
		     u64 stale)
{
	return stale &&
	       (s64)(than - READ_ONCE(l->cls[cls].stamp)) > (s64)stale;
}

static bool ad_run_stale(const struct ad_leg *l, u64 stale)
{
	return ad_older(l, AD_RUN, ad_line_stamp(l), stale);
}

/*
 * Class @cls of @l, or none if its samples stopped more than @stale ns
 * (0: never) before those of class @other: through a point that old a
 * line would charge a read the times of a past workload (after 1 MiB
 * reads, 4 KiB at 0.35 ms on an ssd that now takes 0.15).
 */
static const struct ad_class *ad_fresh(const struct ad_leg *l,
				       unsigned int cls, unsigned int other,
				       u64 stale)
{
	static const struct ad_class none;

	if (ad_older(l, cls, READ_ONCE(l->cls[other].stamp), stale))
		return &none;
	return &l->cls[cls];
}

/*
 * serial(b) = cost + b * rate through the serial times of small and large
 * reads, idle(b) through the service times of reads that found the leg
 * idle (large ones only: proportional, optimistic for small reads, which
 * then get measured), each without its large reads once they are @stale
 * beside the small ones (ad_fresh(); idle(b) on flash only, where small
 * reads leave it too once they are @stale beside the large ones), and
 * the rate of reads that go on from their stream unless it is stale
 * (ad_run_stale()); and how long an idle leg waits for a probe.
 */
static void ad_fit(struct ad_leg *l, const struct rb_leg *leg, u64 stale)
{
	u64 rate = ad_default_rate(leg), idle_rate, run_rate = 0;
	u64 idle_stale = leg->nonrot ? stale : 0;

	WRITE_ONCE(l->cost, ad_line(&l->cls[AD_SMALL],
				    ad_fresh(l, AD_LARGE, AD_SMALL, stale),
				    &rate));
	WRITE_ONCE(l->rate, rate);
	idle_rate = rate;
	/*
	 * A flash leg's idle line is what an idle flash leg is charged
	 * (ad_expect()): a null_blk nvme's large reads that found it idle
	 * under 8 readers waited for its token bucket (128 KiB in 15 ms), and
	 * through that point a 4 KiB read at QD1 would cost 470 us where it
	 * takes 150: every read would go to a slower ssd.  So are its
	 * small reads that found it idle long before its other reads: the
	 * first reads of a new device (a udev probe as the table loads,
	 * null_blk's first pages) took 1 to 86 ms for 4 KiB, and many readers
	 * leave no small read idle to correct it, so at QD1 after them the
	 * leg looked 300 times slower until a probe, up to probe_ms later.
	 * Without that point the line is proportional, optimistic for small
	 * reads, which then get measured.  (Against the serial line's
	 * samples instead, an idle point would go at QD32, where flash legs
	 * are seldom idle, and an idle leg would look free.)
	 */
	WRITE_ONCE(l->idle, ad_line(ad_fresh(l, AD_IDLE_SMALL, AD_IDLE_LARGE,
					     idle_stale),
				    ad_fresh(l, AD_IDLE_LARGE, AD_IDLE_SMALL,
					     idle_stale),
				    &idle_rate));
	WRITE_ONCE(l->idle_rate, idle_rate);
	if (!ad_run_stale(l, stale))
		ad_line(&l->cls[AD_RUN], &l->cls[AD_RUN], &run_rate);
	WRITE_ONCE(l->run_rate, run_rate);
	ad_lat_line(l);
	WRITE_ONCE(l->probe_after, AD_PROBE_READS *
		   (ad_lat(l, AD_PROBE_SECTORS) +
		    ad_serial(l, AD_PROBE_SECTORS)));
}

/*
 * The leg's pace for a small read at @now: none if it was set more than
 * AD_RUN_STALE decay_ms ago.  A leg whose submitter now sends small reads
 * in bursts, or that holds too few of them to stay busy, closes no pace
 * window, and would keep the pace of the 1 MiB reads it served last: that
 * pace (7 ms a read on a null_blk hdd) called it saturated at two small
 * reads, so it never held enough to learn otherwise.
 */
static u64 ad_small_pace(struct ad_ctx *ctx, const struct ad_leg *l, u64 now)
{
	u64 stale = (u64)ad_knob(ctx, AD_DECAY_MS) * AD_NS_PER_MS *
		    AD_RUN_STALE;

	if ((s64)(now - READ_ONCE(l->pace_stamp[AD_PACE_SMALL])) <= (s64)stale)
		return READ_ONCE(l->per_read[AD_PACE_SMALL]);
	/*
	 * None: the queued pace stands in (set on flash legs only).  Not
	 * the quicker of the two: an ssd beside seeking hdds then looked
	 * free, and the hdds' 1 to 2% of the reads at QD32 were lost
	 * (rbsim --bucket --think-us 100: 0.991 to 0.976 of the limit).
	 */
	if ((s64)(now - READ_ONCE(l->q_pace_stamp)) <= (s64)stale)
		return READ_ONCE(l->q_per_read);
	return 0;
}

/* Has the leg completed a read yet? */
static bool ad_measured(const struct ad_leg *l)
{
	return READ_ONCE(l->measured);
}

/*
 * What a small read spends on the leg now, with @more reads in flight on
 * top: its reads in flight times its pace (Little's law), at least its
 * floor; 0 if it has no pace.
 */
static u64 ad_spent_at(const struct rb_leg *leg, const struct ad_leg *l,
		       u64 pace, unsigned int more)
{
	s64 n = atomic_read(&leg->inflight) + atomic_read(&leg->writes);

	if (!pace)
		return 0;
	n = n < 0 ? 0 : n > AD_MAX_INFLIGHT ? AD_MAX_INFLIGHT : n;
	return ad_max_u64((n + more) * pace, READ_ONCE(l->floor));
}

/* ad_spent_at() at the leg's small-read pace now */
static u64 ad_spent(struct ad_ctx *ctx, const struct rb_leg *leg,
		    const struct ad_leg *l, u64 now, unsigned int more)
{
	return ad_spent_at(leg, l, ad_small_pace(ctx, l, now), more);
}

/* Would one more read on @leg make its submitter wait for a tag? */
static bool ad_queue_full(const struct rb_leg *leg)
{
	return atomic_read(&leg->inflight) + atomic_read(&leg->writes) >=
	       (int)leg->queue_depth;
}

/*
 * Do a flash leg's small reads go without queueing?  What a read spends
 * there now (its reads in flight times its pace, Little's law) is under
 * AD_QUEUED_RATIO times its floor, the quickest small read lately: it
 * serves its reads side by side (a round trip, a delay), so its count in
 * flight says nothing of when it would serve one more.  The floor, not the
 * idle line: reads that found a throttled leg idle at depth waited for its
 * next budget.  No pace (@pace: its small-read pace) or no floor: not known.
 */
static bool ad_unqueued_at(const struct rb_leg *leg, const struct ad_leg *l,
			   u64 pace)
{
	u64 spent = ad_spent_at(leg, l, pace, 0), floor = READ_ONCE(l->floor);

	return leg->nonrot && spent && floor &&
	       spent < floor * AD_QUEUED_RATIO;
}

/*
 * Is a flash leg with @n small reads in flight at @pace past its knee, its
 * reads waiting?  Once they spend there, n x pace (Little's law),
 * AD_FULL_QUARTERS/4 of its floor, the quickest idle small read lately,
 * and a pace more: a leg that serves reads side by side (a round trip, a
 * delay) spends no more than its floor whatever it holds.  Sharper than
 * ad_unqueued_at() (twice the floor), which only says when counts in
 * flight stop meaning anything among peers.  The pace more: a read whose
 * completion waits for a CPU still counts in flight, and an nvme fed by a
 * submitter short of CPU (3 reads at 66 us, a 120 us floor) is not past
 * it.  Reads only: writes lengthen a read's pace (its busy time had them),
 * and a remote with writes in flight looked full at one read.
 */
static bool ad_past_knee(const struct ad_leg *l, u64 n, u64 pace)
{
	return n * pace * 4 >=
	       READ_ONCE(l->floor) * AD_FULL_QUARTERS + 4 * pace;
}

/*
 * Keeps the quickest service time of a small read that found the leg idle,
 * of the last 4 decay_ms or so: a lower or equal one replaces it at once,
 * any after that span (a leg that slowed down is followed at its next idle
 * read).  Only idle reads lower it: at depth every read may have queued,
 * and the floor would rise with the depth it was meant to judge.  But a
 * read that found one other in flight (!@idle) replaces a floor older
 * than the span: an nvme slowed behind a 35 ms delay, never idle again
 * at QD32, kept its 130 us floor and looked queued at 2 reads.
 */
static void ad_floor(struct ad_ctx *ctx, struct ad_leg *l, u64 ns, u64 now,
		     bool idle)
{
	u64 span = (u64)ad_knob(ctx, AD_DECAY_MS) * AD_NS_PER_MS <<
		   AD_FLOOR_SHIFT;
	u64 floor = READ_ONCE(l->floor);

	if ((idle && (!floor || ns <= floor)) ||
	    (floor && (s64)(now - READ_ONCE(l->floor_stamp)) > (s64)span)) {
		WRITE_ONCE(l->floor, ns ?: 1);
		WRITE_ONCE(l->floor_stamp, now);
	}
}

/*
 * A sample is at most AD_JUMP times the class's time per sector: a read
 * that looks slow because its completion waited for a CPU (a preempted
 * vCPU, an interrupt storm) must not make a fast leg look slow at once, as
 * a sample that follows an idle spell weighs all.  A leg that really slows
 * down gets there within a few samples: each may be AD_JUMP times more.
 */
static u64 ad_clamp_sample(const struct ad_class *c, u64 sectors, u64 ns)
{
	u64 cs = READ_ONCE(c->sectors), cns = READ_ONCE(c->ns), per;

	if (!cs || !cns || !sectors)
		return ns;	/* nothing learnt yet */
	per = div_u64(cns, (u32)cs);	/* ns per sector: both << AD_FIX */
	return ad_min_u64(ns, AD_JUMP * ad_max_u64(per, 1) * sectors);
}

/*
 * A sample of @ns for a read of @sectors in class @cls.  Samples closer
 * than decay_ms / 256 to the class's last one are skipped: they would
 * weigh less than AD_W_MIN, and at a high read rate learning from every
 * read would cost more than the averages gain.
 */
static void ad_learn_woke(struct ad_ctx *ctx, struct ad_leg *l,
			  const struct rb_leg *leg, unsigned int cls,
			  u64 sectors, u64 ns, u64 now, bool woke)
{
	struct ad_class *c = &l->cls[cls];
	u64 stamp = READ_ONCE(c->stamp), w, cs = READ_ONCE(c->sectors);

	if (cs) {
		if ((s64)(now - stamp) <
		    (s64)(ad_knob(ctx, AD_DECAY_MS) * AD_NS_PER_MS >> 8))
			return;
		w = ad_weight(ctx, stamp, now);
		/*
		 * The first read after an idle spell may wake the device
		 * (a power state, a halted vCPU's timer: 725 us for a
		 * null_blk nvme's 130): slower than the class, it weighs
		 * 1/8 at most, or one such read calls the leg slow until
		 * its next probe.  A leg that did slow down shows it in
		 * the reads that follow.
		 */
		if (woke && ns > ad_max_u64(div_u64(READ_ONCE(c->ns),
						    (u32)cs), 1) * sectors)
			w = ad_min_u64(w, AD_W_ONE >> AD_WAKE_SHIFT);
	} else {
		w = AD_W_ONE;
	}
	WRITE_ONCE(c->stamp, now);
	WRITE_ONCE(l->measured, true);
	ns = ad_clamp_sample(c, sectors, ns);
	WRITE_ONCE(c->sectors, ad_ewma(READ_ONCE(c->sectors),
				       sectors << AD_FIX, w));
	WRITE_ONCE(c->ns, ad_ewma(READ_ONCE(c->ns), ns << AD_FIX, w));
	ad_fit(l, leg, (u64)ad_knob(ctx, AD_DECAY_MS) * AD_NS_PER_MS *
		       AD_RUN_STALE);
}

static void ad_learn(struct ad_ctx *ctx, struct ad_leg *l,
		     const struct rb_leg *leg, unsigned int cls, u64 sectors,
		     u64 ns, u64 now)
{
	ad_learn_woke(ctx, l, leg, cls, sectors, ns, now, false);
}

/*
 * Choosing
 */

/*
 * A rotational leg's cost for a read @d sectors from where its head will
 * be, in eighths: about sqrt(d / the leg's average seek distance), as seek
 * times grow; nothing for a read that goes on from there.
 */
static u64 ad_seek_eighths(const struct ad_leg *l, u64 d)
{
	u64 avg = READ_ONCE(l->dist);

	if (!d)
		return 0;
	if (!avg)
		return 8;
	if (d * 64 < avg)
		return 1;
	if (d * 16 < avg)
		return 2;
	if (d * 4 < avg)
		return 3;
	if (d < avg)
		return 6;
	return d < avg * 4 ? 11 : 16;
}

/* Is rotational @l flat: no distance charged?  See ad_seek_learn(). */
static bool ad_flat(const struct ad_leg *l)
{
	return READ_ONCE(l->flat);
}

/*
 * When a read of @sectors at io->sector sent to @leg now would complete;
 * @cont: it goes on from the leg's tail of its stream.
 */
static u64 ad_expect(struct ad_ctx *ctx, struct rb_leg *leg,
		     const struct rb_io *io, u64 sectors, bool cont,
		     bool *saturated)
{
	struct ad_leg *l = &ctx->leg[leg->index];
	u64 cost = READ_ONCE(l->cost), rate = READ_ONCE(l->rate);
	s64 n = atomic_read(&leg->inflight);
	s64 w = atomic_read(&leg->writes);
	s64 q = atomic64_read(&l->queued);
	sector_t head = READ_ONCE(leg->last_end);
	u64 backlog, serial, lat, pace, paced = 0;

	n = n < 0 ? 0 : n > AD_MAX_INFLIGHT ? AD_MAX_INFLIGHT : n;
	w = w < 0 ? 0 : w > AD_MAX_INFLIGHT ? AD_MAX_INFLIGHT : w;
	q = q < 0 ? 0 : q > AD_MAX_QUEUED ? AD_MAX_QUEUED : q;
	sectors = ad_min_u64(sectors, AD_MAX_SECTORS);
	lat = ad_lat(l, sectors);
	backlog = n * cost + ((q * rate) >> AD_K_SHIFT);
	/*
	 * At least half of what the reads in flight take at the pace the
	 * leg has kept while busy: where service times say little (a token
	 * bucket, a queue inside the device), the line can call a leg idle
	 * while its queue grows.
	 */
	pace = io->sectors > AD_SMALL_SECTORS ?
	       READ_ONCE(l->per_read[AD_PACE_LARGE]) :
	       ad_small_pace(ctx, l, io->start_ns);
	backlog = ad_max_u64(backlog, (n * pace) >> AD_PACE_SHIFT);
	serial = (rate * sectors) >> AD_K_SHIFT;
	/*
	 * As many reads in flight as the leg serves beside each other.  A
	 * flash leg's small read, with a pace and a floor, judges it by
	 * them: the backlog at the whole pace, and reads past its knee
	 * (ad_past_knee()).  Not by the serial line alone: it learns the
	 * gaps between completions, and where reads come no faster than
	 * the leg serves them (a submitter short of CPU) the gaps are the
	 * submitter's; an nvme was called full at 3 reads, and a remote
	 * beside it took every read until it held 28 and the nvme ran dry.
	 * Nor at half the pace: a remote beside an nvme slowed behind a
	 * 35 ms delay held 28 where 12 keep it busy, while each read more
	 * on the nvme, whose reads do not queue, adds to the throughput.
	 */
	if (leg->nonrot && io->sectors <= AD_SMALL_SECTORS && pace &&
	    READ_ONCE(l->floor))
		*saturated = ad_max_u64(backlog, n * pace) >=
			     lat + cost + serial &&
			     ad_past_knee(l, n, pace);
	else
		*saturated = backlog >= lat + cost + serial;
	/*
	 * But a small read on a flash leg is done no sooner than the leg,
	 * at its pace, completes what it holds and then this read (writes
	 * too: the pace's busy time had them).  Half the pace lets a leg
	 * take more reads than its pace says, so that one that serves them
	 * side by side gets to show it; at the whole pace, a throttled leg
	 * holding twice what keeps it busy (a remote: 28 reads where 12 do)
	 * no longer looks sooner than a quick one with a few.
	 */
	if (leg->nonrot && io->sectors <= AD_SMALL_SECTORS)
		paced = (n + w + 1) * pace;
	/* a write ahead of the read: as long as a 4 KiB read */
	backlog += w * ad_serial(l, AD_PROBE_SECTORS);
	if (leg->nonrot)
		serial += cost;
	else if (cont)
		serial = ((READ_ONCE(l->run_rate) ?: rate) * sectors) >>
			 AD_K_SHIFT;
	else if (ad_flat(l))
		serial += cost;
	else
		serial += (cost * ad_seek_eighths(l, rb_sector_dist(io->sector,
								    head))) >> 3;
	/* a leg not measured yet gets one read at a time */
	if (n && !ad_measured(l)) {
		*saturated = true;
		return AD_UNKNOWN + backlog + serial;
	}
	/* a full queue: the submitter would wait for a tag */
	if (n + w >= leg->queue_depth)
		*saturated = true;
	/*
	 * An idle flash leg serves a read as it served the reads that found
	 * it idle.  The serial line may say slower: it learns only while
	 * reads queue, and may be from long ago (a token bucket's waits
	 * under 8 readers), while lat(b), which is never below 0, cannot
	 * take that back.  At QD1 no read queues, and the line would stay.
	 */
	if (!n && leg->nonrot && READ_ONCE(l->cls[AD_IDLE_SMALL].sectors))
		return ad_max_u64(paced,
				  backlog + ad_min_u64(serial + lat,
						       ad_idle_ns(l, sectors)));
	return ad_max_u64(paced, backlog + serial + lat);
}

/* The sectors of @io up to @leg's next chunk boundary. */
static u64 ad_piece(struct ad_ctx *ctx, const struct rb_leg *leg,
		    const struct rb_io *io)
{
	unsigned int kb = ad_knob(ctx, leg->nonrot ? AD_FLASH_CHUNK_KB :
					 AD_ROT_CHUNK_KB);
	u32 size = kb * AD_KB_SECTORS, off;

	if (!size)
		return io->sectors;
	if (!(size & (size - 1)))
		off = io->sector & (size - 1);
	else
		div_u64_rem(io->sector, size, &off);
	return ad_min_u64(size - off, io->sectors);
}

/* The least probe_after of the legs eligible for @io */
static u64 ad_quickest_probe(struct ad_ctx *ctx, struct rb_set *set,
			     const struct rb_io *io)
{
	u64 quick = U64_MAX;
	unsigned int i;

	for (i = 0; i < set->nr_legs; i++)
		if (rb_leg_eligible(io, i))
			quick = ad_min_u64(quick,
					   READ_ONCE(ctx->leg[i].probe_after));
	return quick;
}

/*
 * An idle leg that has completed nothing for probe_ms, or for AD_PROBE_READS
 * of its own 4 KiB reads if that is sooner (a probe costs a slow leg
 * 1/AD_PROBE_READS of its time at most); -1 if none.  But not before
 * AD_PROBE_READS times what its 4 KiB read takes over the quickest leg's:
 * a read that comes for the leg meanwhile waits behind the probe, and a
 * probe then costs it at most 1/AD_PROBE_READS of the leg's time (a seeking
 * hdd beside an ssd: 10 to 20 ms a probe, one every 3 to 5 s).  (Probes
 * took the read itself until the core sent them beside it: a reader at
 * queue depth 1 waited for each, 1 to 3% of its time.)  What
 * its 4 KiB read takes is the more of its lines' and its last probe's: a
 * probe lands anywhere on the leg, and a seeking hdd's lines, learnt from
 * nearer reads, said 5 ms where its probes took 10 to 20.  A young leg,
 * judged by fewer than AD_SURE_READS small reads that found it idle (but
 * one), gets one once idle for decay_ms: a new device's first 4 KiB read
 * took 1 to 86 ms against 0.3 later, and an ssd judged by it alone got no
 * read for a second while a QD1 reader used an hdd.  Not a leg with no
 * such read: its line is proportional, optimistic for small reads (and
 * in rbsim, probes every decay_ms into a slowed hdd under one sequential
 * reader doubled its recovery).
 */
static int ad_probe(struct ad_ctx *ctx, struct rb_set *set,
		    const struct rb_io *io, u64 now)
{
	u64 probe = (u64)ad_knob(ctx, AD_PROBE_MS) * AD_NS_PER_MS;
	u64 decay = (u64)ad_knob(ctx, AD_DECAY_MS) * AD_NS_PER_MS;
	u64 last, stamp, after, quick = U64_MAX;
	unsigned int i, seen;
	bool young;

	if (!probe)
		return -1;
	for (i = 0; i < set->nr_legs; i++) {
		struct ad_leg *l = &ctx->leg[i];

		if (!rb_leg_eligible(io, i) ||
		    atomic_read(&set->legs[i].inflight))
			continue;
		last = READ_ONCE(l->last_finish);
		stamp = READ_ONCE(l->probe_stamp);
		if ((s64)(stamp - last) > 0)
			last = stamp;
		after = READ_ONCE(l->probe_after);
		seen = READ_ONCE(l->idle_seen);
		young = seen && seen < AD_SURE_READS;
		if (young)
			after = ad_min_u64(after, decay);
		if ((s64)(now - last) <= (s64)ad_min_u64(after, probe))
			continue;
		if (!young) {
			/* the quickest's, once a leg is due: most reads find none */
			if (quick == U64_MAX)
				quick = ad_quickest_probe(ctx, set, io);
			after = ad_max_u64(after, AD_PROBE_READS *
						  READ_ONCE(l->probe_ns));
			if ((s64)(now - last) <=
			    (s64)(after - ad_min_u64(quick, after)))
				continue;
		}
		WRITE_ONCE(l->probe_stamp, now);
		return i;
	}
	return -1;
}

/* The first of a stream tail's two slots */
static unsigned int ad_tail_slot(sector_t end)
{
	return ((u64)end * 0x61c8864680b583ebULL) >> (64 - AD_TAIL_BITS) & ~1U;
}

/*
 * The eligible leg holding the tail of the stream that @io goes on from,
 * or -1; that tail is forgotten: the stream moves on.
 */
static int ad_stream(struct ad_ctx *ctx, const struct rb_io *io)
{
	u64 want = ((u64)io->sector + 1) << AD_LEG_BITS, key;
	unsigned int i, slot = ad_tail_slot(io->sector);

	for (i = slot; i < slot + 2; i++) {
		key = READ_ONCE(ctx->tails[i]);
		if ((key & ~(u64)(RB_MAX_LEGS - 1)) != want ||
		    !rb_leg_eligible(io, key & (RB_MAX_LEGS - 1)))
			continue;
		WRITE_ONCE(ctx->tails[i], 0);
		return key & (RB_MAX_LEGS - 1);
	}
	return -1;
}

/* Is @io the rest of a read chunk() split on this CPU? */
static bool ad_is_rest(struct ad_ctx *ctx, const struct rb_io *io)
{
	return this_cpu_read(*ctx->rest) == io->sector + 1;
}

/* Is an eligible leg idle? */
static bool ad_any_idle(struct rb_set *set, const struct rb_io *io)
{
	unsigned int i;

	for (i = 0; i < set->nr_legs; i++)
		if (rb_leg_eligible(io, i) &&
		    !atomic_read(&set->legs[i].inflight))
			return true;
	return false;
}

/* The eligible leg whose last read ends nearest @io, and its piece */
static unsigned int ad_nearest(struct ad_ctx *ctx, struct rb_set *set,
			       const struct rb_io *io, bool split, u64 *n)
{
	unsigned int i, best = rb_first_leg(io->eligible);
	sector_t head, d, near = AD_NO_SECTOR;

	for (i = best; i < set->nr_legs; i++) {
		if (!rb_leg_eligible(io, i))
			continue;
		head = READ_ONCE(set->legs[i].last_end);
		d = rb_sector_dist(io->sector, head);
		if (d < near) {
			near = d;
			best = i;
		}
	}
	*n = split ? ad_piece(ctx, &set->legs[best], io) : io->sectors;
	return best;
}

/*
 * How long @l is busy with a read of @sectors, the least of what it has
 * learnt: its serial line (learnt only while reads queue there, and may be
 * old), its idle line, and its pace while busy unless that is stale
 * (ad_small_pace()).
 */
static u64 ad_busy(struct ad_ctx *ctx, const struct ad_leg *l, u64 sectors,
		   u64 now)
{
	u64 busy = ad_min_u64(ad_serial(l, sectors), ad_idle_ns(l, sectors));
	u64 pace = ad_small_pace(ctx, l, now);

	return pace ? ad_min_u64(busy, pace) : busy;
}

/*
 * The longest a rotational leg may be busy with a small random read of @io
 * and still have room for it: AD_WORTH_SHIFT times the quickest measured
 * flash leg's time (none: no bound).
 */
static u64 ad_worth(struct ad_ctx *ctx, struct rb_set *set,
		    const struct rb_io *io)
{
	u64 quick = AD_MAX_NS;
	unsigned int i;

	for (i = 0; i < set->nr_legs; i++)
		if (rb_leg_eligible(io, i) && set->legs[i].nonrot &&
		    ad_measured(&ctx->leg[i]))
			quick = ad_min_u64(quick, ad_busy(ctx, &ctx->leg[i],
							  io->sectors,
							  io->start_ns));
	return quick << AD_WORTH_SHIFT;
}

/*
 * Flash peers at depth: on an array of measured flash legs whose idle
 * reads of @io's size are within AD_PEER_RATIO of each other, a small
 * random read that finds a read in flight goes to the leg with the fewest
 * in flight (the quicker of equals), as md's least pending does; -1 if
 * that is not so.  At depth the estimates read the legs' queues through
 * a throttle's bursts and an idle leg's wait for its next tick, and send
 * the quicker leg more than its rate; the counts in flight follow the
 * rates by themselves.  With nothing in flight the estimates choose.
 */
static int ad_peer(struct ad_ctx *ctx, struct rb_set *set,
		   const struct rb_io *io)
{
	unsigned int i;
	int n, best = -1, least = INT_MAX;
	u64 t, pace, lo = U64_MAX, hi = 0, best_t = U64_MAX;
	bool busy = false;

	for (i = 0; i < set->nr_legs; i++) {
		struct rb_leg *leg = &set->legs[i];

		if (!rb_leg_eligible(io, i))
			continue;
		if (!leg->nonrot || !ad_measured(&ctx->leg[i]))
			return -1;
		t = ad_idle_ns(&ctx->leg[i], io->sectors);
		lo = ad_min_u64(lo, t);
		hi = ad_max_u64(hi, t);
		n = atomic_read(&leg->inflight) + atomic_read(&leg->writes);
		if (n > 0)
			busy = true;
		if (n >= (int)leg->queue_depth)
			continue;
		if (n < least || (n == least && t < best_t)) {
			least = n;
			best = i;
			best_t = t;
		}
	}
	if (!busy || !lo || hi > lo * AD_PEER_RATIO)
		return -1;
	/*
	 * Least pending evens the counts, which suits legs whose reads
	 * queue: each serves at its rate whatever its count.  A quicker leg
	 * whose reads do not queue serves one more read sooner, and its
	 * count says nothing: the estimates choose.
	 */
	for (i = 0; i < set->nr_legs; i++) {
		struct rb_leg *leg = &set->legs[i];

		if (!rb_leg_eligible(io, i) || (int)i == best ||
		    ad_queue_full(leg))
			continue;
		pace = ad_small_pace(ctx, &ctx->leg[i], io->start_ns);
		if (ad_unqueued_at(leg, &ctx->leg[i], pace) &&
		    ad_spent_at(leg, &ctx->leg[i], pace, 0) <
		    ad_spent(ctx, &set->legs[best], &ctx->leg[best],
			     io->start_ns, 1))
			return -1;
	}
	return best;
}

/*
 * E of a read sent to full leg @l, @e, less the time its next completion
 * has been under way: since its last one, at most a pace (ad_small_pace(),
 * or the least it has learnt, ad_busy()).  With every queue full the
 * submitter sleeps for a tag on the leg it picks while tags free unused on
 * the others: of equal legs this takes the one whose next tag frees first,
 * and a slower leg's E still keeps it last.  E alone took whichever leg's
 * learnt cost was lowest (rbsim, 3hdd QD32: 0.94 of the limit, now 1.00);
 * the time to the tag alone sent reads to a leg slowed tenfold, each then
 * holding a submitter's slot for 50 ms; a pace per read ahead swung reads
 * to whichever leg's pace read lower.
 */
static u64 ad_full_e(struct ad_ctx *ctx, const struct ad_leg *l,
		     const struct rb_io *io, u64 e)
{
	u64 pace = ad_small_pace(ctx, l, io->start_ns) ?:
		   ad_busy(ctx, l, io->sectors, io->start_ns);
	s64 since = io->start_ns - READ_ONCE(l->last_finish);

	if (since <= 0)
		return e;
	return e - ad_min_u64(ad_min_u64(since, pace), e);
}

/*
 * The leg for @io, and in *sectors how much of it that leg takes: all of
 * it, or (@split) up to the leg's chunk boundary; *spare: another leg
 * would sit idle.
 */
static unsigned int ad_choose(struct ad_ctx *ctx, struct rb_set *set,
			      const struct rb_io *io, bool split,
			      u64 *sectors, bool *spare, int *stream)
{
	unsigned int i, best = rb_first_leg(io->eligible);
	bool seq, saturated, room, best_room = false;
	u64 e, n, best_e = U64_MAX, best_n = io->sectors, stick_e = 0;
	u64 stick_n = 0, worth;
	int cont = ad_stream(ctx, io);

	seq = cont >= 0 || io->sectors > AD_SMALL_SECTORS;
	/*
	 * The rest of a read chunk() split is no stream going on: its
	 * first part's tail is, but that is the same read, and a large one.
	 */
	if (split && ad_is_rest(ctx, io)) {
		cont = -1;
		seq = true;
	}
	*stream = cont;
	*spare = false;
	if (!seq && !set->mixed) {
		int peer = ad_peer(ctx, set, io);

		if (peer >= 0) {
			*sectors = io->sectors;
			return peer;
		}
	}
	/* only a mixed array has a disk to judge against flash */
	worth = !seq && set->mixed ? ad_worth(ctx, set, io) : U64_MAX;
	for (i = best; i < set->nr_legs; i++) {
		struct rb_leg *leg = &set->legs[i];

		if (!rb_leg_eligible(io, i))
			continue;
		/* small reads are not split: no piece to work out */
		n = split && io->sectors > AD_SMALL_SECTORS ?
		    ad_piece(ctx, leg, io) : io->sectors;
		e = ad_expect(ctx, leg, io, n, cont == (int)i, &saturated);
		/*
		 * Random reads stay off full queues while others have room;
		 * with none, they go where a tag frees first.
		 */
		if (!seq && ad_queue_full(leg))
			e = AD_FULL + ad_min_u64(ad_full_e(ctx, &ctx->leg[i],
							   io, e),
						 AD_FULL - 1);
		if (cont == (int)i) {
			stick_e = e;
			stick_n = n;
		} else if (!saturated) {
			*spare = true;
		}
		/* a disk 64 times slower than the quickest flash: no room */
		room = !seq && !saturated &&
		       (leg->nonrot || !ad_measured(&ctx->leg[i]) ||
			ad_busy(ctx, &ctx->leg[i], n,
				io->start_ns) <= worth);
		if ((room && !best_room) || (room == best_room && e < best_e)) {
			best = i;
			best_e = e;
			best_n = n;
			best_room = room;
		}
	}
	/*
	 * On an array of rotational legs, all busy: a new stream, or a small
	 * read once every leg is saturated, goes to the leg whose head will
	 * be nearest, as md raid1 does.  Streams near each other then share
	 * a leg, and a saturated disk serves more the shorter its seeks are
	 * (not a flat one: by E, the small read waits least); a queue full
	 * is still avoided.
	 */
	if (cont < 0 && (seq || !best_room) && !set->mixed &&
	    !set->legs[best].nonrot &&
	    (seq || !ad_flat(&ctx->leg[best])) && !ad_any_idle(set, io)) {
		i = ad_nearest(ctx, set, io, split, &n);
		if (seq || atomic_read(&set->legs[i].inflight) <
			   (int)set->legs[i].queue_depth) {
			best = i;
			best_n = n;
		}
	}
	/*
	 * A stream on a rotational leg stays there unless another leg would
	 * be done with the read a quarter sooner: with every leg busy, moving
	 * a stream only adds seeks.
	 */
	if (cont >= 0 && !set->legs[cont].nonrot && stick_e < AD_UNKNOWN &&
	    stick_e - (stick_e >> AD_STICK_SHIFT) <= best_e) {
		best = cont;
		best_n = stick_n;
	}
	if (cont == (int)best && !set->legs[best].nonrot)
		WRITE_ONCE(ctx->leg[best].run_next, io->sector + 1);
	*sectors = best_n;
	return best;
}

/* chunk()'s choice: low 32 bits of the sector, the sectors, the leg */
static u64 ad_pick_key(const struct rb_io *io, u64 sectors, unsigned int leg)
{
	return ((u64)(u32)io->sector << 32) |
	       ((sectors & 0x0fffffff) << 4) | (leg & 0xf);
}

/*
 * What @leg takes without its submitter waiting for a tag: its
 * queue_depth requests of max_sectors, less what is in flight there; at
 * least one request.
 */
static u64 ad_room(struct ad_ctx *ctx, const struct rb_leg *leg)
{
	u64 max = leg->max_sectors ?: AD_MAX_SECTORS;
	u64 cap = (u64)leg->queue_depth * max;
	s64 q = atomic64_read(&ctx->leg[leg->index].queued);

	if (q < 0)
		q = 0;
	return cap > (u64)q + max ? cap - q : max;
}

/*
 * Water-filling: how much of @io leg @k serves so that every leg given a
 * part is done with it at the same time T, each starting when it would
 * be done with nothing more (E of 0 sectors) and reading at its rate:
 *
 *	sum over those legs of (T - E_i(0)) / rate_i = io->sectors
 *
 * Speeds are sectors per ns << 20 (at most 2^26), starts at most 2^32 ns,
 * so the sums fit.  0 if @k is not among them.  @k < 0: the leg that
 * starts first, returned in *first.
 */
static u64 ad_share(struct ad_ctx *ctx, struct rb_set *set,
		    const struct rb_io *io, int k, int cont,
		    unsigned int *first)
{
	u64 b[RB_MAX_LEGS], sp[RB_MAX_LEGS], e, rate, t = 0;
	u64 sum_s = 0, sum_sb = 0, want = ad_min_u64(io->sectors, AD_MAX_SECTORS);
	unsigned int order[RB_MAX_LEGS], i, j, n = 0;
	bool saturated;

	for (i = 0; i < set->nr_legs; i++) {
		struct rb_leg *leg = &set->legs[i];
		struct ad_leg *l = &ctx->leg[i];

		if (!rb_leg_eligible(io, i))
			continue;
		e = ad_expect(ctx, leg, io, 0, cont == (int)i, &saturated);
		if (e >= AD_FULL)
			continue;
		/* E's slope: serial(b) + lat(b) grows as the larger line */
		rate = READ_ONCE(l->rate);
		rate = ad_min_u64(rate, READ_ONCE(l->idle_rate)) ==
		       rate ? READ_ONCE(l->idle_rate) : rate;
		if (cont == (int)i && !leg->nonrot)
			rate = READ_ONCE(l->run_rate) ?: rate;
		b[i] = ad_min_u64(e, 1ULL << 32);
		sp[i] = ad_min_u64(div_u64(1ULL << 28,
					   (u32)ad_min_u64(rate, U32_MAX) ?: 1),
				   1ULL << 26) ?: 1;
		/* in order of start */
		for (j = n; j && b[order[j - 1]] > b[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	for (j = 0; j < n; j++) {
		i = order[j];
		if (j && b[i] >= t)
			break;
		sum_s += sp[i];
		sum_sb += sp[i] * b[i];
		t = div_u64((want << 20) + sum_sb, (u32)sum_s);
	}
	if (!n)
		return 0;
	if (k < 0)
		k = order[0];
	*first = k;
	if (k >= (int)set->nr_legs || !rb_leg_eligible(io, k) || b[k] >= t)
		return 0;
	return ((t - b[k]) * sp[k]) >> 20;
}

/*
 * Would another eligible leg run dry while the submitter of @n sectors to
 * @k waits for @k's tags: does it have less work than @k takes to serve
 * the requests beyond its @room (ad_room())?
 */
static bool ad_others_dry(struct ad_ctx *ctx, struct rb_set *set,
			  const struct rb_io *io, unsigned int k, u64 n,
			  u64 room)
{
	struct rb_leg *leg = &set->legs[k];
	struct ad_leg *l = &ctx->leg[k];
	u64 max = ad_min_u64(leg->max_sectors ?: AD_MAX_SECTORS, AD_MAX_SECTORS);
	u64 wait = ad_serial(l, max);
	unsigned int i;
	bool saturated;

	/* requests x their time: below 2^22 x 2^36 ns and so on */
	n = ad_min_u64(n, AD_MAX_SECTORS);
	if (n <= room)
		return false;
	wait = ad_max_u64(wait, READ_ONCE(l->per_read[AD_PACE_LARGE])) *
	       div_u64(n - room + max - 1, (u32)max);
	for (i = 0; i < set->nr_legs; i++) {
		if (i == k || !rb_leg_eligible(io, i))
			continue;
		if (ad_expect(ctx, &set->legs[i], io, 0, false, &saturated) <
		    wait)
			return true;
	}
	return false;
}

/*
 * Has every eligible leg but @k twice @io in flight (many readers)?  A part
 * there would wait behind all of it; cut up, the read only costs more
 * requests, and each a null_blk tick's budget or a seek.  One reader's
 * window finds its legs holding no more than its previous window.
 */
static bool ad_deep(struct ad_ctx *ctx, struct rb_set *set,
		    const struct rb_io *io, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < set->nr_legs; i++)
		if (i != k && rb_leg_eligible(io, i) &&
		    atomic64_read(&ctx->leg[i].queued) <
		    (s64)(io->sectors << AD_DEEP_SHIFT))
			return false;
	return true;
}

/* The eligible leg that would be done first with the whole of @io */
static unsigned int ad_whole(struct ad_ctx *ctx, struct rb_set *set,
			     const struct rb_io *io, int cont)
{
	unsigned int i, best = rb_first_leg(io->eligible);
	u64 e, best_e = U64_MAX;
	bool saturated;

	for (i = best; i < set->nr_legs; i++) {
		if (!rb_leg_eligible(io, i))
			continue;
		e = ad_expect(ctx, &set->legs[i], io, io->sectors,
			      cont == (int)i, &saturated);
		if (e < best_e) {
			best = i;
			best_e = e;
		}
	}
	return best;
}

static unsigned int ad_chunk(struct rb_policy *p, const struct rb_io *io)
{
	struct ad_ctx *ctx = p->context;
	struct rb_set *set = p->set;
	struct rb_leg *l;
	unsigned int leg;
	sector_t end;
	bool spare;
	u64 n, share, room;
	int cont;

	/*
	 * A small read is not split, and select() chooses its leg: the
	 * whole-read rule below is for many readers' large reads, and would
	 * send a small one to a leg whose queue is full, where the submitter
	 * waits for a tag (a null_blk hdd's 4 beside an ssd at QD32).
	 */
	if (io->sectors <= AD_SMALL_SECTORS && !ad_is_rest(ctx, io))
		return io->sectors;
	leg = ad_choose(ctx, set, io, true, &n, &spare, &cont);
	l = &set->legs[leg];
	if (!ad_knob(ctx, l->nonrot ? AD_FLASH_CHUNK_KB : AD_ROT_CHUNK_KB)) {
		n = io->sectors;	/* 0: no split */
		goto out;
	}
	if (!spare && !l->nonrot) {
		/* a rotational leg keeps a whole read unless another is idle */
		n = io->sectors;
	} else if (!spare && ad_deep(ctx, set, io, leg)) {
		/* every leg deep in work: the whole read where it ends first */
		leg = ad_whole(ctx, set, io, cont);
		l = &set->legs[leg];
		n = io->sectors;
	} else if (n > AD_SMALL_SECTORS) {
		/*
		 * Unless a stream stays on its rotational leg, the leg that
		 * can start first, and its share, so that the legs given a
		 * part are done with it together.
		 */
		if (cont == (int)leg && !l->nonrot) {
			share = ad_share(ctx, set, io, leg, cont, &leg);
		} else {
			share = ad_share(ctx, set, io, -1, cont, &leg);
			l = &set->legs[leg];
			n = ad_piece(ctx, l, io);
		}
		share &= ~(u64)7;
		n = ad_min_u64(n, share > AD_SMALL_SECTORS ? share :
						      AD_SMALL_SECTORS);
	}
	/*
	 * What its queue takes, if the submitter would wait for a tag while
	 * another leg runs dry, or would wait on each leg in turn with the
	 * parts of one window.
	 */
	if (n > l->max_sectors) {
		room = ad_room(ctx, l);
		if (n > room && (ad_is_rest(ctx, io) ||
				 ad_others_dry(ctx, set, io, leg, n, room)))
			n = room;
	}
	/*
	 * A part of more than one request is whole requests: a last short
	 * one costs a command, and on a throttled leg its share of a tick.
	 */
	if (n < io->sectors && n > l->max_sectors && l->max_sectors) {
		u32 rem;

		div_u64_rem(n, l->max_sectors, &rem);
		n -= rem;
	}
	/* a part ends on a 4 KiB boundary: legs may have 4 KiB blocks */
	if (n < io->sectors) {
		end = (io->sector + n) & ~(sector_t)7;
		if (end <= io->sector)
			end = (io->sector + 8) & ~(sector_t)7;
		n = ad_min_u64(end - io->sector, io->sectors);
	}
out:
	this_cpu_write(*ctx->pick, ad_pick_key(io, n, leg));
	this_cpu_write(*ctx->rest, n < io->sectors ? io->sector + n + 1 : 0);
	return n;
}

/* A leg due for a probe beside @io, routed to @chosen (busy now); or -1 */
static int ad_probe_leg(struct rb_policy *p, const struct rb_io *io,
			unsigned int chosen)
{
	return ad_probe(p->context, p->set, io, io->start_ns);
}

static unsigned int ad_select(struct rb_policy *p, const struct rb_io *io)
{
	struct ad_ctx *ctx = p->context;
	u64 key = this_cpu_read(*ctx->pick), n;
	unsigned int leg = key & 0xf;
	bool spare;
	int cont;

	if (key) {
		this_cpu_write(*ctx->pick, 0);
		if (key == ad_pick_key(io, io->sectors, leg) &&
		    leg < p->set->nr_legs && rb_leg_eligible(io, leg))
			return leg;
	}
	return ad_choose(ctx, p->set, io, false, &n, &spare, &cont);
}

/*
 * Remember @end as the tail of a stream on @leg: in the first free of its
 * two slots, else over the second.
 */
static void ad_add_tail(struct ad_ctx *ctx, unsigned int leg, sector_t end)
{
	unsigned int slot = ad_tail_slot(end);

	if (READ_ONCE(ctx->tails[slot]))
		slot++;
	WRITE_ONCE(ctx->tails[slot], (((u64)end + 1) << AD_LEG_BITS) | leg);
}

/* Note a read in flight that goes on from its stream; @key: 1 + sector */
static void ad_add_run(struct ad_leg *l, sector_t key)
{
	unsigned int i;

	for (i = 0; i < AD_NR_RUNS; i++) {
		if (!READ_ONCE(l->runs[i])) {
			WRITE_ONCE(l->runs[i], key);
			return;
		}
	}
	/* full: forget one; its sample then counts as a seeking read's */
	WRITE_ONCE(l->runs[0], key);
}

/* A pace window closed: @ns over @reads completed, into *@pace. */
static void ad_pace_learn(u64 *pace, u64 *stamp, u64 ns, u64 reads, u64 now)
{
	u64 per = div_u64(ad_min_u64(ns, AD_MAX_NS),
			  (u32)ad_min_u64(reads, U32_MAX));
	u64 old = READ_ONCE(*pace);

	WRITE_ONCE(*pace, old ? ad_ewma(old, per, AD_W_ONE >> AD_PACE_SHIFT_W) :
			  per);
	WRITE_ONCE(*stamp, now);
}

/*
 * ad_pace() over the leg's time with reads queued (two or more in flight)
 * only, windows of at least decay_ms / 16 of that time: small reads' ns
 * per read, for ad_small_pace() when ad_pace() has none.  ad_pace() ends
 * a window when the leg drains, and a throttled flash leg whose submitter
 * waits between reads (fio short of CPU) drains within each burst, then
 * waits for its next budget with its reads queued: no window closed, and
 * an nvme holding 31 reads looked as free as an idle one (rbsim --bucket
 * --think-us 100 --leg-rate 0.5: nvme+remote's QD32 at 0.77 of the limit,
 * every read on the nvme).  Flash legs only: two or three reads on a disk
 * with slots to spare are no queue (3hdd's QD32 0.98 to 0.965).  Windows
 * with no write in flight at a completion: the reads' completions alone
 * do not account for such time (nvme+remote's randrw-70 0.94 to 0.75, the
 * remote given reads beside its writes).
 */
static void ad_queued_pace(struct ad_ctx *ctx, struct ad_leg *l,
			   const struct rb_leg *leg, u64 now, bool large)
{
	u64 window = (u64)ad_knob(ctx, AD_DECAY_MS) * AD_NS_PER_MS >>
		     AD_PACE_WINDOW_SHIFT;
	u64 st, d, dl, busy, idle;

	if (!leg->nonrot)
		return;
	st = READ_ONCE(l->q_stamp);
	d = READ_ONCE(l->q_done) + 1;
	dl = READ_ONCE(l->q_large) + large;
	idle = READ_ONCE(l->q_idle_sum);
	if (atomic_read(&leg->writes))
		WRITE_ONCE(l->q_writes, true);
	/* ended without a queue: neither its time nor it counts */
	if (READ_ONCE(l->q_idle_at))
		return;
	if (atomic_read(&leg->inflight) <= 1)
		WRITE_ONCE(l->q_idle_at, now);
	busy = st && now - st > idle ? now - st - idle : 0;
	if (st && busy < window) {
		WRITE_ONCE(l->q_done, d);
		WRITE_ONCE(l->q_large, dl);
		return;
	}
	if (busy && d > 1 && dl * 2 <= d && !READ_ONCE(l->q_writes))
		ad_pace_learn(&l->q_per_read, &l->q_pace_stamp, busy, d, now);
	WRITE_ONCE(l->q_writes, false);
	WRITE_ONCE(l->q_stamp, now);
	WRITE_ONCE(l->q_done, 0);
	WRITE_ONCE(l->q_large, 0);
	WRITE_ONCE(l->q_idle_sum, 0);
}

/* Reads queue on the leg again: the window leaves out the time they did not. */
static void ad_queued_again(struct ad_leg *l, u64 now)
{
	u64 at = READ_ONCE(l->q_idle_at);

	if (!at)
		return;
	WRITE_ONCE(l->q_idle_at, 0);
	if ((s64)(now - at) > 0)
		WRITE_ONCE(l->q_idle_sum, READ_ONCE(l->q_idle_sum) + now - at);
}

/* Was the read at @key (1 + sector) one that went on from its stream? */
static bool ad_take_run(struct ad_leg *l, sector_t key)
{
	unsigned int i;

	for (i = 0; i < AD_NR_RUNS; i++) {
		if (READ_ONCE(l->runs[i]) == key) {
			WRITE_ONCE(l->runs[i], 0);
			return true;
		}
	}
	return false;
}

static void ad_start_io(struct rb_policy *p, struct rb_leg *leg,
			const struct rb_io *io)
{
	struct ad_ctx *ctx = p->context;
	struct ad_leg *l = &ctx->leg[leg->index];
	sector_t tail = READ_ONCE(l->tail), end = io->sector + io->sectors;
	int inflight = atomic_read(&leg->inflight);
	u64 d, avg;

	atomic64_fetch_add(io->sectors, &l->queued);
	/* the core counted this read already: was the leg idle? */
	if (inflight == 1)
		WRITE_ONCE(l->solo, io->sector + 1);
	else if (inflight == 2)
		WRITE_ONCE(l->pair, io->sector + 1);
	if (inflight >= 2)
		ad_queued_again(l, io->start_ns);
	ad_add_tail(ctx, leg->index, end);
	WRITE_ONCE(l->tail, end);
	if (!leg->nonrot && READ_ONCE(l->run_next) == io->sector + 1) {
		WRITE_ONCE(l->run_next, 0);
		ad_add_run(l, io->sector + 1);
	}
	if (leg->nonrot || tail == io->sector || tail == AD_NO_SECTOR)
		return;
	d = rb_sector_dist(io->sector, tail);
	avg = READ_ONCE(l->dist);
	WRITE_ONCE(l->dist, avg ? avg - (avg >> AD_DIST_SHIFT) +
				  (d >> AD_DIST_SHIFT) : d);
}

/*
 * The leg's pace while busy: reads completed over windows of decay_ms / 16
 * in which more reads or writes stayed queued, a moving average of ns per
 * read (a leg that takes one read at a time beside writes still learns).  It
 * counts completions, not service times, so bursts do not fool it.  Windows
 * of mostly small reads and of mostly large ones keep a pace each: a small
 * read's pace is not a 1 MiB read's.
 */
static void ad_pace(struct ad_ctx *ctx, struct ad_leg *l,
		    const struct rb_leg *leg, u64 now, bool large)
{
	u64 window = (u64)ad_knob(ctx, AD_DECAY_MS) * AD_NS_PER_MS >>
		     AD_PACE_WINDOW_SHIFT;
	u64 st = READ_ONCE(l->done_stamp), d = READ_ONCE(l->done) + 1;
	u64 dl = READ_ONCE(l->done_large) + large;
	unsigned int k;

	if (atomic_read(&leg->inflight) + atomic_read(&leg->writes) <= 1) {
		WRITE_ONCE(l->done_stamp, 0);	/* idle: a new window */
		return;
	}
	/* a completion stamped before the window began (another CPU) is in it */
	if (st && (s64)(now - st) < (s64)window) {
		WRITE_ONCE(l->done, d);
		WRITE_ONCE(l->done_large, dl);
		return;
	}
	if (st && d > 1) {
		k = dl * 2 > d ? AD_PACE_LARGE : AD_PACE_SMALL;
		ad_pace_learn(&l->per_read[k], &l->pace_stamp[k], now - st, d,
			      now);
	}
	WRITE_ONCE(l->done_stamp, now);
	WRITE_ONCE(l->done, 0);
	WRITE_ONCE(l->done_large, 0);
}

/*
 * Does distance cost on rotational @l?  A small read that waited behind
 * the previous one took @ns from that read's end to its own, and one that
 * found the leg idle took @ns from the start: either way the head went from
 * where the leg's last read ended.  Of AD_SEEK_READS near reads and as many
 * far ones (ad_seek_eighths()), how many took longer than @bar (the leg's
 * cost; its idle line for an idle read): far ones slow more often by
 * 1/AD_SEEK_PART of them, and the leg seeks.  Idle reads count too: the
 * benchmark's QD1 runs queue none, and a leg first judged at QD32 charged
 * distance there for its first 0.6 s (rbsim --prelude).
 * Counts, not averages: a token bucket (null_blk's mbps) completes reads
 * in bursts, gaps of nothing and one of 20 ms, which no average of 128
 * reads evens out, while the share of slow ones is alike near and far.
 * Two verdicts running decide (a new leg seeks): in the guest, far reads
 * of the seek emulator were slow 0.10 to 0.31 more often than near ones
 * (rotation is most of a near read's time), and null_blk hdds' -0.24 to
 * 0.11; one verdict in 20 or so goes the wrong way, two running seldom.
 */
static void ad_seek_learn(struct ad_leg *l, const struct rb_io *io, u64 ns,
			  u64 bar)
{
	u64 e = ad_seek_eighths(l, rb_sector_dist(io->sector,
						  READ_ONCE(l->done_end)));
	bool slow = ns > bar;
	u32 near = READ_ONCE(l->near), far = READ_ONCE(l->far);
	u32 near_slow = READ_ONCE(l->near_slow), far_slow;
	u8 v;

	if (e <= AD_NEAR_EIGHTHS) {
		WRITE_ONCE(l->near, ++near);
		WRITE_ONCE(l->near_slow, near_slow += slow);
	} else if (e >= AD_FAR_EIGHTHS) {
		WRITE_ONCE(l->far, ++far);
		WRITE_ONCE(l->far_slow, READ_ONCE(l->far_slow) + slow);
	}
	if (near < AD_SEEK_READS || far < AD_SEEK_READS)
		return;
	far_slow = READ_ONCE(l->far_slow);
	/* flat: far_slow / far - near_slow / near <= 1 / AD_SEEK_PART */
	v = READ_ONCE(l->verdicts) << 1 |
	    (((s64)far_slow * near - (s64)near_slow * far) * AD_SEEK_PART <=
	     (s64)far * near);
	v &= 3;
	WRITE_ONCE(l->verdicts, v);
	if (v == 3 || !v)
		WRITE_ONCE(l->flat, v == 3);
	WRITE_ONCE(l->near, 0);
	WRITE_ONCE(l->near_slow, 0);
	WRITE_ONCE(l->far, 0);
	WRITE_ONCE(l->far_slow, 0);
}

static void ad_end_io(struct rb_policy *p, struct rb_leg *leg,
		      const struct rb_io *io, u64 service_ns)
{
	struct ad_ctx *ctx = p->context;
	struct ad_leg *l = &ctx->leg[leg->index];
	u64 now = io->start_ns + service_ns, prev = READ_ONCE(l->last_finish);
	u64 ns = ad_min_u64(service_ns, AD_MAX_NS);
	u64 sectors = ad_min_u64(io->sectors ?: 1, AD_MAX_SECTORS);
	u64 start = now - ns;
	bool large = sectors > AD_SMALL_SECTORS;
	unsigned int cls = large ? AD_LARGE : AD_SMALL;

	if (!leg->nonrot && ad_take_run(l, io->sector + 1))
		cls = AD_RUN;
	atomic64_fetch_add(-(s64)io->sectors, &l->queued);
	if (io->failed) {
		/* a probe that failed: its time says nothing of the leg */
		if (READ_ONCE(l->solo) == io->sector + 1)
			WRITE_ONCE(l->solo, 0);
		if (READ_ONCE(l->pair) == io->sector + 1)
			WRITE_ONCE(l->pair, 0);
		return;
	}
	if (io->start_ns == READ_ONCE(l->probe_stamp))
		WRITE_ONCE(l->probe_ns, ns);	/* it was the probe */
	ad_pace(ctx, l, leg, now, large);
	ad_queued_pace(ctx, l, leg, now, large);
	WRITE_ONCE(l->last_finish, now);
	if (READ_ONCE(l->solo) == io->sector + 1) {
		/* idle for more than decay_ms before it: a wake */
		bool woke = prev && (s64)(start - prev) >
			    (s64)((u64)ad_knob(ctx, AD_DECAY_MS) *
				  AD_NS_PER_MS);

		WRITE_ONCE(l->solo, 0);
		if (!large) {
			ad_floor(ctx, l, ns, now, true);
			if (READ_ONCE(l->idle_seen) < AD_SURE_READS)
				WRITE_ONCE(l->idle_seen,
					   READ_ONCE(l->idle_seen) + 1);
		}
		/* a wake's time may be the device's, not the seek's */
		if (cls == AD_SMALL && !leg->nonrot && !woke)
			ad_seek_learn(l, io, ns, ad_idle_ns(l, sectors));
		ad_learn_woke(ctx, l, leg,
			      large ? AD_IDLE_LARGE : AD_IDLE_SMALL, sectors,
			      ns, now, woke);
	} else {
		/* beside one other: replaces a stale floor (ad_floor()) */
		if (READ_ONCE(l->pair) == io->sector + 1) {
			WRITE_ONCE(l->pair, 0);
			if (!large)
				ad_floor(ctx, l, ns, now, false);
		}
		/* it waited behind the previous read: the gap is its own */
		if ((s64)(prev - start) > (s64)ad_lat(l, sectors)) {
			if (cls == AD_SMALL && !leg->nonrot)
				ad_seek_learn(l, io, now - prev,
					      READ_ONCE(l->cost));
			ad_learn(ctx, l, leg, cls, sectors,
				 ad_min_u64(now - prev, AD_MAX_NS), now);
		}
	}
	if (!leg->nonrot)
		WRITE_ONCE(l->done_end, io->sector + io->sectors);
}

static unsigned int ad_io_opt(struct rb_policy *p)
{
	struct ad_ctx *ctx = p->context;
	struct rb_set *set = p->set;
	u64 kb = ad_knob(ctx, AD_IO_OPT_KB), chunk, room;
	unsigned int i;

	if (!kb) {
		/*
		 * Read-ahead (2 * io_opt) of a piece for every leg: a chunk,
		 * or less if half its queue holds less; at least
		 * AD_MIN_IO_OPT_KB.  More would keep more queued per reader,
		 * which many readers all wait behind.
		 */
		for (i = 0; i < set->nr_legs; i++) {
			const struct rb_leg *leg = &set->legs[i];

			chunk = ad_knob(ctx, leg->nonrot ? AD_FLASH_CHUNK_KB :
						    AD_ROT_CHUNK_KB);
			room = (u64)leg->queue_depth *
			       (leg->max_sectors ?: AD_MAX_SECTORS) /
			       (2 * AD_KB_SECTORS);
			kb += chunk ? ad_min_u64(chunk, room) : room;
		}
		kb /= 2;
		if (kb < AD_MIN_IO_OPT_KB)
			kb = AD_MIN_IO_OPT_KB;
		kb &= ~3ULL;	/* whole 4 KiB */
	}
	return ad_min_u64(kb, AD_MAX_IO_OPT_KB) * 1024;
}

const struct rb_policy_type rb_policy_adaptive = {
	.name = "adaptive",
	.knobs = ad_knobs,
	.create = ad_create,
	.destroy = ad_destroy,
	.set_knob = ad_set_knob,
	.show_knob = ad_show_knob,
	.select = ad_select,
	.chunk = ad_chunk,
	.io_opt = ad_io_opt,
	.start_io = ad_start_io,
	.end_io = ad_end_io,
	.probe = ad_probe_leg,
};
