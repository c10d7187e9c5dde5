// SPDX-License-Identifier: GPL-2.0
/* Policy "adaptive": white box, on crafted leg states. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-adaptive.c"

#define US	1000ULL
#define MS	1000000ULL
#define NOW	(10000 * MS)
#define MIB	2048		/* sectors */
#define ROT	0x0UL		/* nonrot masks for rbt_setup */

static struct ad_ctx *actx(struct rbt *t)
{
	return t->pol.context;
}

static struct ad_leg *aleg(struct rbt *t, unsigned int leg)
{
	return &actx(t)->leg[leg];
}

static void setup(struct rbt *t, unsigned int n, unsigned long nonrot)
{
	shim_now_ns = NOW;
	rbt_setup(t, "adaptive", n, nonrot);
}

/* A measured leg: serial(b) = cost + b * ns_per_sector, plus lat. */
static void model(struct rbt *t, unsigned int leg, u64 cost,
		  u64 ns_per_sector, u64 lat)
{
	struct ad_leg *l = aleg(t, leg);

	l->cost = cost;
	l->rate = ns_per_sector << AD_K_SHIFT;
	l->idle = cost + lat;
	l->idle_rate = l->rate;
	l->cls[AD_IDLE_SMALL].sectors = 8 << AD_FIX;
	l->measured = true;
	l->idle_seen = AD_SURE_READS;
	ad_lat_line(l);
	l->probe_after = AD_PROBE_READS *
			 (ad_lat(l, AD_PROBE_SECTORS) + cost +
			  ((l->rate * AD_PROBE_SECTORS) >> AD_K_SHIFT));
	l->last_finish = NOW;
}

/* A small reads' pace of @per_read ns for @leg, set now. */
static void small_pace(struct rbt *t, unsigned int leg, u64 per_read)
{
	aleg(t, leg)->per_read[AD_PACE_SMALL] = per_read;
	aleg(t, leg)->pace_stamp[AD_PACE_SMALL] = shim_now_ns;
}

/* What the core does when it sends a read to @leg. */
static void start(struct rbt *t, unsigned int leg, sector_t sector,
		  unsigned int sectors)
{
	struct rb_io io = rd(sector, sectors, all_legs(t->set.nr_legs));

	atomic_set(&t->legs[leg].inflight,
		   atomic_read(&t->legs[leg].inflight) + 1);
	t->legs[leg].last_end = sector + sectors;
	t->pol.type->start_io(&t->pol, &t->legs[leg], &io);
}

/* ... and when that read ends, @ns after it started, at shim_now_ns. */
static void end(struct rbt *t, unsigned int leg, sector_t sector,
		unsigned int sectors, u64 ns)
{
	struct rb_io io = rd(sector, sectors, all_legs(t->set.nr_legs));

	io.start_ns = shim_now_ns - ns;
	atomic_set(&t->legs[leg].inflight,
		   atomic_read(&t->legs[leg].inflight) - 1);
	t->pol.type->end_io(&t->pol, &t->legs[leg], &io, ns);
}

/*
 * rb_route_read() from map(): chunk, then select; the part routed in
 * *sectors.  Returns the leg, accounted as the core does.
 */
static unsigned int route(struct rbt *t, sector_t sector,
			  unsigned int sectors, unsigned long eligible,
			  unsigned int *part)
{
	struct rb_io io = rd(sector, sectors, eligible);
	unsigned int n = t->pol.type->chunk(&t->pol, &io), leg;

	assert_true(n >= 1 && n <= sectors);
	io.sectors = n;
	leg = t->pol.type->select(&t->pol, &io);
	assert_true(leg < t->set.nr_legs && (eligible & (1UL << leg)));
	start(t, leg, sector, n);
	if (part)
		*part = n;
	return leg;
}

/* The leg whose tail a read at @sector goes on from (taking it), or -1 */
static int stream_of(struct rbt *t, sector_t sector, unsigned int sectors,
		     unsigned long eligible)
{
	struct rb_io io = rd(sector, sectors, eligible);

	return ad_stream(actx(t), &io);
}

static void test_defaults(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 3, 0x4);
	assert_string_equal(t.pol.type->knobs[0], "decay_ms");
	assert_string_equal(t.pol.type->knobs[1], "probe_ms");
	assert_string_equal(t.pol.type->knobs[2], "rot_chunk_kb");
	assert_string_equal(t.pol.type->knobs[3], "flash_chunk_kb");
	assert_string_equal(t.pol.type->knobs[4], "io_opt_kb");
	assert_null(t.pol.type->knobs[5]);
	assert_string_equal(knob_show(&t, "decay_ms"), "100");
	assert_string_equal(knob_show(&t, "probe_ms"), "1000");
	assert_string_equal(knob_show(&t, "rot_chunk_kb"), "1024");
	assert_string_equal(knob_show(&t, "flash_chunk_kb"), "128");
	assert_string_equal(knob_show(&t, "io_opt_kb"), "0");
	/* unmeasured: optimistic defaults by leg type, no streams */
	assert_true(aleg(&t, 0)->rate == AD_ROT_RATE);
	assert_true(aleg(&t, 2)->rate == AD_FLASH_RATE);
	for (i = 0; i < AD_TAIL_SLOTS; i++)
		assert_true(actx(&t)->tails[i] == 0);
	assert_false(ad_measured(aleg(&t, 0)));
	assert_true(aleg(&t, 0)->last_finish == NOW);
	rbt_teardown(&t);
}

static void test_knobs(void **state)
{
	static const struct {
		const char *knob, *value;
		int r;
	} cases[] = {
		{ "decay_ms", "1", 0 }, { "decay_ms", "60000", 0 },
		{ "decay_ms", "0", -EINVAL }, { "decay_ms", "60001", -EINVAL },
		{ "probe_ms", "0", 0 }, { "probe_ms", "3600000", 0 },
		{ "probe_ms", "3600001", -EINVAL },
		{ "rot_chunk_kb", "0", 0 }, { "rot_chunk_kb", "4", 0 },
		{ "rot_chunk_kb", "65536", 0 },
		{ "rot_chunk_kb", "6", -EINVAL },
		{ "rot_chunk_kb", "65540", -EINVAL },
		{ "flash_chunk_kb", "512", 0 },
		{ "flash_chunk_kb", "130", -EINVAL },
		{ "io_opt_kb", "262144", 0 }, { "io_opt_kb", "262148", -EINVAL },
		{ "io_opt_kb", "1022", -EINVAL },
		{ "decay_ms", "-1", -EINVAL }, { "probe_ms", "1x", -EINVAL },
		{ "io_opt_kb", "", -EINVAL },
	};
	char before[32];
	unsigned int i;
	struct rbt t;

	setup(&t, 2, 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(before, sizeof(before), "%s",
			 knob_show(&t, cases[i].knob));
		assert_int_equal(knob_set(&t, cases[i].knob, cases[i].value),
				 cases[i].r);
		if (cases[i].r)
			assert_string_equal(knob_show(&t, cases[i].knob),
					    before);
		else
			assert_string_equal(knob_show(&t, cases[i].knob),
					    cases[i].value);
	}
	assert_int_equal(knob_set(&t, "no_such_knob", "1"), -EINVAL);
	rbt_teardown(&t);
}

/* Time-weighted averages: a sample weighs its distance in decay_ms. */
static void test_weights(void **state)
{
	struct rbt t;
	struct ad_ctx *ctx;

	setup(&t, 2, 0);
	ctx = actx(&t);
	assert_int_equal(ad_weight(ctx, 0, NOW), AD_W_ONE);	/* first */
	assert_int_equal(ad_weight(ctx, NOW, NOW), AD_W_MIN);
	assert_int_equal(ad_weight(ctx, NOW - 10 * US, NOW), AD_W_MIN);
	assert_int_equal(ad_weight(ctx, NOW - 100 * MS, NOW), AD_W_ONE);
	assert_int_equal(ad_weight(ctx, NOW - 200 * MS, NOW), AD_W_ONE);
	assert_in_range(ad_weight(ctx, NOW - 5 * MS, NOW), 50, 53);
	assert_in_range(ad_weight(ctx, NOW - 50 * MS, NOW), 500, 530);
	assert_int_equal(knob_set(&t, "decay_ms", "1000"), 0);
	assert_in_range(ad_weight(ctx, NOW - 50 * MS, NOW), 50, 54);
	/* the clock going back counts as no time */
	assert_int_equal(ad_weight(ctx, NOW + MS, NOW), AD_W_MIN);

	assert_true(ad_ewma(1000, 2000, 512) == 1500);
	assert_true(ad_ewma(2000, 1000, 512) == 1500);
	assert_true(ad_ewma(1000, 2000, AD_W_ONE) == 2000);
	assert_true(ad_ewma(1000, 2000, 0) == 1000);
	rbt_teardown(&t);
}

static void set_class(struct ad_leg *l, unsigned int cls, u64 sectors,
		      u64 ns)
{
	l->cls[cls].sectors = sectors << AD_FIX;
	l->cls[cls].ns = ns << AD_FIX;
}

/* ... whose last sample was at @stamp */
static void set_class_at(struct ad_leg *l, unsigned int cls, u64 sectors,
			 u64 ns, u64 stamp)
{
	set_class(l, cls, sectors, ns);
	l->cls[cls].stamp = stamp;
}

/* The decay_ms knob in ns */
static u64 decay_ns(struct rbt *t)
{
	return (u64)ad_knob(actx(t), AD_DECAY_MS) * MS;
}

/* The lines through the classes: serial(b), idle(b), and lat(b). */
static void test_fit(void **state)
{
	struct rb_leg leg = { .nonrot = true };
	struct ad_leg l;

	/* 8 sectors in 100 us, 256 in 1092 us: 4 us/sector, 68 us each */
	memset(&l, 0, sizeof(l));
	set_class(&l, AD_SMALL, 8, 100 * US);
	set_class(&l, AD_LARGE, 256, 1092 * US);
	set_class(&l, AD_IDLE_SMALL, 8, 400 * US);
	ad_fit(&l, &leg, 0);
	assert_true(l.rate == 4000 << AD_K_SHIFT);
	assert_true(l.cost == 68 * US);
	/* idle: small reads only, at the serial rate */
	assert_true(l.idle_rate == l.rate);
	assert_true(l.idle == 400 * US - 32 * US);
	assert_true(ad_lat(&l, 8) == 300 * US);	/* 400 - (68 + 8 * 4) */
	assert_true(ad_lat(&l, 1000) == 300 * US);
	/* and large idle reads: 2048 sectors in 10.2 ms */
	set_class(&l, AD_IDLE_LARGE, 2048, 10200 * US);
	ad_fit(&l, &leg, 0);
	assert_true(l.idle_rate == ((9800 * US) << AD_K_SHIFT) / 2040);
	assert_in_range(ad_lat(&l, 2048), 1900 * US, 2000 * US);

	/* large reads only: all transfer */
	memset(&l, 0, sizeof(l));
	set_class(&l, AD_LARGE, 2048, 40 * MS);
	ad_fit(&l, &leg, 0);
	assert_true(l.cost == 0);
	assert_true(l.rate == (40 * MS << AD_K_SHIFT) / 2048);
	/* large idle reads only: proportional, a small read looks quick */
	set_class(&l, AD_IDLE_LARGE, 2048, 42 * MS);
	ad_fit(&l, &leg, 0);
	assert_true(l.idle == 0);
	assert_in_range(ad_lat(&l, 2048), 2 * MS - 1, 2 * MS);
	assert_true(ad_lat(&l, 8) < 10 * US);

	/* small reads only: the default rate, unless they went faster */
	memset(&l, 0, sizeof(l));
	set_class(&l, AD_SMALL, 8, 100 * US);
	ad_fit(&l, &leg, 0);
	assert_true(l.rate == AD_FLASH_RATE);
	assert_in_range(l.cost, 100 * US - ((AD_FLASH_RATE * 8) >> AD_K_SHIFT)
			- 1, 100 * US - ((AD_FLASH_RATE * 8) >> AD_K_SHIFT));
	set_class(&l, AD_SMALL, 8, 1 * US);
	ad_fit(&l, &leg, 0);
	assert_true(l.rate == (1 * US << AD_K_SHIFT) / 8);
	assert_true(l.cost == 0);

	/*
	 * larger reads faster than small ones (a token bucket): no negative
	 * or zero rate, but a quarter of the large reads' time per sector
	 */
	memset(&l, 0, sizeof(l));
	set_class(&l, AD_SMALL, 8, 900 * US);
	set_class(&l, AD_LARGE, 256, 800 * US);
	ad_fit(&l, &leg, 0);
	assert_true(l.rate == ((800 * US) << AD_K_SHIFT) / 256 / 4);
	assert_true(l.cost == 900 * US - 8 * 800 * US / 256 / 4);

	/* idle reads quicker than their serial time: no negative lat */
	set_class(&l, AD_IDLE_SMALL, 8, 10 * US);
	ad_fit(&l, &leg, 0);
	assert_true(ad_lat(&l, 8) == 0);

	/* a stream's own rate */
	set_class(&l, AD_RUN, 1024, 10 * MS);
	ad_fit(&l, &leg, 0);
	assert_true(l.run_rate == (10 * MS << AD_K_SHIFT) / 1024);
}

/*
 * The pace: a busy leg's completions per window, and a backlog of at
 * least half of what its reads in flight take at that pace, whatever the
 * line says (a token bucket's reads pass in bursts, so their service
 * times say the leg is quick while its queue grows).
 */
static void test_pace(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);	/* no probes */
	model(&t, 0, 0, 100, 50 * US);		/* the line: a quick leg */
	model(&t, 1, 0, 100, 500 * US);		/* and a slower one */
	for (i = 0; i < 12; i++)
		start(&t, 0, 8 * i, 8);
	/* reads of 50 us end one a ms while more stay queued: 1 ms a read */
	for (i = 0; i < 10; i++) {
		shim_now_ns += MS;
		end(&t, 0, 8 * i, 8, 50 * US);
	}
	assert_in_range(aleg(&t, 0)->per_read[AD_PACE_SMALL], MS - 1, MS);
	assert_int_equal(aleg(&t, 0)->per_read[AD_PACE_LARGE], 0);
	/* 2 in flight at 1 ms a read: 1 ms of backlog (the line: 2 us) */
	assert_int_equal(sel(&t, 100000, 8, 0x3), 1);
	/*
	 * The last ones end: idle, and the window starts again.  Idle, it
	 * still serves a read no sooner than its pace (a throttle's budget
	 * may be spent): 1 ms, where leg 1 takes 500 us.
	 */
	end(&t, 0, 80, 8, 50 * US);
	end(&t, 0, 88, 8, 50 * US);
	assert_int_equal(aleg(&t, 0)->done_stamp, 0);
	assert_int_equal(sel(&t, 100000, 8, 0x3), 1);
	rbt_teardown(&t);
}

/* Leg @leg holds @n reads and has kept @pace ns a read, just now. */
static void paced(struct rbt *t, unsigned int leg, int n, u64 pace)
{
	inflight(t, leg, n);
	small_pace(t, leg, pace);
}

/*
 * A small read on a flash leg is done no sooner than the leg completes
 * what it holds and then it, at the whole pace.  Half of it (the backlog,
 * which lets a leg show that it serves reads side by side) made a
 * throttled leg holding more than keeps it busy look sooner than a slower
 * leg that serves its reads side by side.
 */
static void test_paced(void **state)
{
	struct rbt t;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);	/* no probes */
	/*
	 * Throttled: 50 us a read, but 1 ms apart; 4 in flight: 5 ms (half
	 * the pace and the line: 2.05 ms)
	 */
	model(&t, 0, 0, 100, 50 * US);
	paced(&t, 0, 4, MS);
	/* side by side: 1.5 ms a read, 1.2 ms apart; 3 in flight: 4.8 ms */
	model(&t, 1, 0, 100, 1500 * US);
	paced(&t, 1, 3, 1200 * US);
	assert_int_equal(sel(&t, 100000, 8, 0x3), 1);
	/* 3 in flight on leg 0: 4 ms */
	paced(&t, 0, 3, MS);
	assert_int_equal(sel(&t, 100000, 8, 0x3), 0);
	/* a write in flight there is a read more at its pace: 5 ms */
	atomic_set(&t.legs[0].writes, 1);
	assert_int_equal(sel(&t, 100000, 8, 0x3), 1);
	atomic_set(&t.legs[0].writes, 0);
	/* a large read goes by the large reads' pace (none) and the line */
	paced(&t, 0, 4, MS);
	assert_int_equal(sel(&t, 100000, 256, 0x3), 0);
	rbt_teardown(&t);
}

/* A throttled flash leg's @ticks of 20 ms: 100 reads wait, end in a burst. */
static void bucket_ticks(struct rbt *t, unsigned int leg, unsigned int ticks)
{
	unsigned int tick, i;

	for (tick = 0; tick < ticks; tick++) {
		/* 2 ms after the burst the next reads come, and wait */
		shim_now_ns += 2 * MS;
		for (i = 0; i < 100; i++)
			start(t, leg, 8 * i, 8);
		/* the next tick's budget: they end in a burst, 1 us apart */
		shim_now_ns += 18 * MS - 100 * US;
		for (i = 0; i < 100; i++) {
			shim_now_ns += US;
			end(t, leg, 8 * i, 8, 18 * MS);
		}
	}
}

/*
 * A token bucket's leg at 100 reads a 20 ms tick drains after every
 * burst: ad_pace() closes no window, and the queued pace, which leaves the
 * drained time out, stands in.  Not over ad_pace()'s own, not from windows
 * with writes in flight, not on a rotational leg.
 */
static void test_queued_pace(void **state)
{
	struct rbt t;

	setup(&t, 2, 0x1);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	model(&t, 0, 0, 100, 50 * US);
	model(&t, 1, 0, 100, 2 * MS);
	bucket_ticks(&t, 0, 20);
	/* 100 reads in the 18 ms they queued: 180 us a read */
	assert_in_range(aleg(&t, 0)->q_per_read, 170 * US, 190 * US);
	/* ad_pace() drained at every tick: no window closed */
	assert_int_equal(aleg(&t, 0)->per_read[AD_PACE_SMALL], 0);
	assert_in_range(ad_small_pace(actx(&t), aleg(&t, 0), shim_now_ns),
			170 * US, 190 * US);
	/* ad_pace()'s own, while fresh, comes first */
	small_pace(&t, 0, 3 * MS);
	assert_int_equal(ad_small_pace(actx(&t), aleg(&t, 0), shim_now_ns),
			 3 * MS);
	/* neither fresh: none */
	shim_now_ns += 10 * decay_ns(&t);
	assert_int_equal(ad_small_pace(actx(&t), aleg(&t, 0), shim_now_ns), 0);
	/* windows with a write in flight set nothing */
	atomic_set(&t.legs[0].writes, 1);
	bucket_ticks(&t, 0, 20);
	atomic_set(&t.legs[0].writes, 0);
	assert_int_equal(ad_small_pace(actx(&t), aleg(&t, 0), shim_now_ns), 0);
	/* a rotational leg keeps none */
	bucket_ticks(&t, 1, 20);
	assert_int_equal(aleg(&t, 1)->q_per_read, 0);
	rbt_teardown(&t);
}

/* end_io: solo reads teach lat, reads queued behind another serial(b). */
static void test_learning(void **state)
{
	struct rbt t;
	struct ad_leg *l;

	setup(&t, 2, 0x3);
	l = aleg(&t, 0);
	/* alone on an idle leg: a solo sample */
	start(&t, 0, 0, 8);
	assert_true(l->solo == 1);
	assert_true(atomic64_read(&l->queued) == 8);
	shim_now_ns += 300 * US;
	end(&t, 0, 0, 8, 300 * US);
	assert_true(atomic64_read(&l->queued) == 0);
	assert_true(l->solo == 0);
	assert_true(l->cls[AD_IDLE_SMALL].sectors == 8 << AD_FIX);
	assert_true(l->cls[AD_IDLE_SMALL].ns == (300 * US) << AD_FIX);
	assert_true(ad_measured(l));
	assert_in_range(ad_lat(l, 8), 300 * US -
			((AD_FLASH_RATE * 8) >> AD_K_SHIFT) - 1,
			300 * US - ((AD_FLASH_RATE * 8) >> AD_K_SHIFT));
	assert_true(l->last_finish == NOW + 300 * US);

	/* four reads at once: the first is solo, each next one queued */
	shim_now_ns += 10 * MS;
	start(&t, 0, 100, 64);
	start(&t, 0, 200, 64);
	start(&t, 0, 300, 64);
	start(&t, 0, 400, 64);
	shim_now_ns += 400 * US;
	end(&t, 0, 100, 64, 400 * US);		/* solo: lat */
	shim_now_ns += 100 * US;
	end(&t, 0, 200, 64, 500 * US);		/* gap 100 us */
	shim_now_ns += 100 * US;
	end(&t, 0, 300, 64, 600 * US);
	assert_true(l->cls[AD_SMALL].sectors == 64 << AD_FIX);
	assert_true(l->cls[AD_SMALL].ns == (100 * US) << AD_FIX);
	/* one read of a class: all of it; 64 sectors in 100 us */
	assert_true(l->rate <= AD_FLASH_RATE);
	assert_true(ad_serial(l, 64) <= 100 * US);
	assert_true(ad_serial(l, 64) > 99 * US);

	/* a read that started after the last one ended teaches nothing */
	shim_now_ns += 50 * MS;
	end(&t, 0, 400, 64, 10 * US);
	assert_true(l->cls[AD_SMALL].ns == (100 * US) << AD_FIX);
	assert_true(l->cls[AD_LARGE].sectors == 0);
	assert_true(atomic64_read(&l->queued) == 0);
	assert_int_equal(atomic_read(&t.legs[0].inflight), 0);
	rbt_teardown(&t);
}

/* A leg ten times slower: the model follows within a few decay_ms. */
static void test_follows_slowdown(void **state)
{
	struct rbt t;
	struct ad_leg *l;
	unsigned int i;
	u64 before;

	setup(&t, 2, 0x3);
	l = aleg(&t, 1);
	for (i = 0; i < 200; i++) {	/* 1 ms each */
		start(&t, 1, i * 8, 8);
		shim_now_ns += 1 * MS;
		end(&t, 1, i * 8, 8, 1 * MS);
	}
	before = ad_lat(l, 8);
	assert_in_range(before, 990 * US, 1000 * US);
	/* now 10 ms each: after 300 ms the estimate is near 10 ms */
	for (i = 0; i < 30; i++) {
		start(&t, 1, i * 8, 8);
		shim_now_ns += 10 * MS;
		end(&t, 1, i * 8, 8, 10 * MS);
	}
	assert_in_range(ad_lat(l, 8), 9 * MS, 10 * MS);
	rbt_teardown(&t);
}

/* QD1 random reads: the fastest leg, whatever the index order. */
static void test_qd1_fastest(void **state)
{
	struct rbt t;

	setup(&t, 3, 0x4);
	model(&t, 0, 8 * MS, 40 * US, 0);	/* hdd: seek-bound */
	model(&t, 1, 8 * MS, 40 * US, 0);
	model(&t, 2, 0, 100, 200 * US);		/* ssd */
	assert_int_equal(sel(&t, 12345, 8, 0x7), 2);
	assert_int_equal(sel(&t, 999999, 8, 0x7), 2);
	/* not eligible: the better of the others */
	model(&t, 1, 6 * MS, 40 * US, 0);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	rbt_teardown(&t);
}

/*
 * QD32: the fast leg takes small random reads until it is saturated, then
 * the slow leg adds its throughput (though the fast one would still be
 * sooner for that read).
 */
static void test_saturation(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 2, 0x3);
	model(&t, 0, 0, 4000, 50 * US);		/* nvme: 33 us/4k, 50 us */
	model(&t, 1, 0, 12000, 5 * MS);		/* remote: 5 ms away */
	for (i = 0; i < 2; i++) {
		assert_int_equal(sel(&t, 1000 * i, 8, 0x3), 0);
		start(&t, 0, 1000 * i, 8);
	}
	/* 2 in flight: 64 us of backlog >= 50 + 32: saturated */
	start(&t, 0, 5000, 8);
	assert_int_equal(sel(&t, 7777, 8, 0x3), 1);
	/* a large read still goes where it is done first */
	assert_int_equal(sel(&t, 7777, 128, 0x3), 0);
	/* the remote saturates too (2 ms of backlog): back to the lowest E */
	for (i = 0; i < 60; i++)
		start(&t, 1, 100000 + 8 * i, 8);
	assert_int_equal(sel(&t, 7777, 8, 0x3), 0);
	rbt_teardown(&t);
}

/*
 * A disk 64 times slower than the quickest flash leg has no room for a
 * small random read: it would add at most 1/64 of the reads and hold a
 * queue slot for all its time.  It still gets one where that read is done
 * first.  A disk that serves 4 reads at once, 25 times the ssd's serial
 * time, keeps its room.
 */
static void test_worth(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 3, 0x4);
	model(&t, 0, 8 * MS, 40 * US, 0);	/* hdd-seek: 8.3 ms a 4k read */
	model(&t, 1, 8 * MS, 40 * US, 0);
	model(&t, 2, 100 * US, 1000, 100 * US);	/* ssd: 108 us */
	for (i = 0; i < 32; i++)
		start(&t, 2, 1000 * i, 8);
	/* saturated at 3.5 ms of backlog, yet sooner than an hdd */
	assert_int_equal(sel(&t, 77777, 8, 0x7), 2);
	/* past an hdd's 8.3 ms, the lowest E is an hdd's */
	for (i = 32; i < 80; i++)
		start(&t, 2, 1000 * i, 8);
	assert_in_range(sel(&t, 77777, 8, 0x7), 0, 1);
	/* hdds only 7 times slower (0.7 ms) have room */
	for (i = 32; i < 80; i++)
		end(&t, 2, 1000 * i, 8, 100 * US);
	model(&t, 0, 400 * US, 40 * US, 2 * MS);
	model(&t, 1, 400 * US, 40 * US, 2 * MS);
	assert_in_range(sel(&t, 77777, 8, 0x7), 0, 1);
	/*
	 * null_blk hdds at depth 4 (520 us a read, 2 ms each) beside an ssd
	 * whose token bucket passes reads 20 us apart: 25 times, room
	 */
	model(&t, 0, 200 * US, 40 * US, 2 * MS);
	model(&t, 1, 200 * US, 40 * US, 2 * MS);
	model(&t, 2, 20 * US, 100, 100 * US);
	assert_in_range(sel(&t, 77777, 8, 0x7), 0, 1);
	rbt_teardown(&t);
}

/* A stream's read goes to the leg done with it first, even a slow one. */
static void test_stream_lowest_e(void **state)
{
	struct rbt t;

	setup(&t, 2, 0x3);
	model(&t, 0, 0, 100, 200 * US);		/* 5 GiB/s */
	model(&t, 1, 0, 1000, 2 * MS);		/* 500 MiB/s, far */
	assert_int_equal(sel(&t, 0, 256, 0x3), 0);
	/* 16 MiB queued on the fast leg: 3.4 ms against 2.3 ms */
	start(&t, 0, 0, 16 * MIB);
	assert_int_equal(sel(&t, 16 * MIB, 256, 0x3), 1);
	/* 8 MiB: 1.9 ms, it is still sooner */
	atomic64_set(&aleg(&t, 0)->queued, 8 * MIB);
	assert_int_equal(sel(&t, 16 * MIB, 256, 0x3), 0);
	rbt_teardown(&t);
}

/* A stream on a rotational leg stays unless another is a quarter sooner. */
static void test_rotational_stickiness(void **state)
{
	struct rbt t;

	setup(&t, 2, 0);
	model(&t, 0, 8 * MS, 40000, 0);		/* 12 MiB/s, 8 ms seeks */
	model(&t, 1, 8 * MS, 40000, 0);
	/* the stream's last read went to leg 1, which is busier */
	start(&t, 1, 0, 256);
	start(&t, 1, 90000, 256);		/* another stream */
	start(&t, 0, 500000, 256);
	/* leg 1: 2 * 8 + 2 * 10.24 + 10.24 ms; leg 0: 8 + 10.24 + 8 + 10.24 */
	assert_int_equal(sel(&t, 256, 256, 0x3), 1);
	/* a third read ahead of it: moving is a quarter sooner */
	start(&t, 1, 256, 256);
	start(&t, 1, 190000, 1024);
	assert_int_equal(sel(&t, 512, 256, 0x3), 0);
	/* the tail moved with it: leg 0 holds the stream now */
	start(&t, 0, 512, 256);
	assert_int_equal(stream_of(&t, 768, 8, 0x3), 0);
	assert_int_equal(stream_of(&t, 768, 8, 0x3), -1);
	rbt_teardown(&t);
}

/*
 * After a sequential job, small reads: the large reads' point of the serial
 * line stops charging a small read once it is AD_RUN_STALE decay_ms older
 * than the small reads' samples, and the large reads' pace never charges
 * one (it called a null_blk hdd saturated at two 4 KiB reads: 7 ms a
 * read).  The small reads' own pace counts for AD_RUN_STALE decay_ms.
 */
static void test_stale_large(void **state)
{
	struct rbt t;
	struct ad_ctx *ctx;
	struct ad_leg *l;
	struct rb_io io = rd(12345, 8, 0x3);
	u64 decay, now = 10 * 1000 * MS, steep;
	bool sat;

	setup(&t, 2, 0x3);
	ctx = actx(&t);
	decay = decay_ns(&t);
	l = aleg(&t, 0);
	/* 1 MiB reads at 110 ms each, busy at 4 ms a read */
	set_class_at(l, AD_LARGE, 2048, 110 * MS, now);
	l->measured = true;
	l->per_read[AD_PACE_LARGE] = 4 * MS;
	l->pace_stamp[AD_PACE_LARGE] = now;
	ad_learn(ctx, l, &t.legs[0], AD_SMALL, 8, 150 * US, now + decay / 2);
	steep = ad_serial(l, 8);
	assert_true(steep > 300 * US);		/* through the 1 MiB point */
	io.start_ns = now + decay / 2;
	atomic_set(&t.legs[0].inflight, 4);
	/* 4 in flight: not 4 x 4 ms / 2 of the large reads' pace */
	assert_true(ad_expect(ctx, &t.legs[0], &io, 8, false, &sat) < 8 * MS);
	/* a small reads' pace of 4 ms set then does count */
	l->per_read[AD_PACE_SMALL] = 4 * MS;
	l->pace_stamp[AD_PACE_SMALL] = now;
	assert_true(ad_expect(ctx, &t.legs[0], &io, 8, false, &sat) >= 8 * MS);
	/* 3 decay_ms on, nothing learnt since: that pace is gone */
	io.start_ns = now + 3 * decay;
	assert_true(ad_expect(ctx, &t.legs[0], &io, 8, false, &sat) < 8 * MS);
	/* only small reads since: their own line */
	ad_learn(ctx, l, &t.legs[0], AD_SMALL, 8, 150 * US, now + 3 * decay);
	assert_true(ad_serial(l, 8) <= 150 * US);
	assert_true(ad_expect(ctx, &t.legs[0], &io, 8, false, &sat) < 2 * MS);
	/* a large read still sees the large reads' pace */
	io.sectors = 2048;
	assert_true(ad_expect(ctx, &t.legs[0], &io, 2048, false, &sat) >=
		    8 * MS);
	atomic_set(&t.legs[0].inflight, 0);
	rbt_teardown(&t);
}

/*
 * A rotational leg slows down and its streams move off: its run class
 * stops learning while the serial line follows.  The stale run rate must
 * not call a stream's next read there quick (rbsim: one reader on 3hdd
 * stayed on the slowed leg for a 500 KiB part and stalled for a second).
 */
static void test_stale_run(void **state)
{
	struct rbt t;
	struct ad_ctx *ctx;
	struct ad_leg *l;
	u64 decay, now = 10 * 1000 * MS, fast;

	setup(&t, 2, 0);
	ctx = actx(&t);
	decay = decay_ns(&t);
	l = aleg(&t, 0);
	/* 40 us a sector in a stream, then only serial samples, 10x slower */
	set_class_at(l, AD_RUN, 1024, 40 * MS, now);
	ad_fit(l, &t.legs[0], 2 * decay);
	fast = l->run_rate;
	assert_true(fast == (40 * MS << AD_K_SHIFT) / 1024);
	ad_learn(ctx, l, &t.legs[0], AD_SMALL, 8, 20 * MS, now + decay);
	assert_true(l->run_rate == fast);	/* the same time: both count */
	ad_learn(ctx, l, &t.legs[0], AD_LARGE, 1024, 400 * MS,
		 now + 3 * decay);
	assert_true(l->run_rate == 0);		/* serial(b) stands for it */
	/* a stream read again: its rate counts again */
	ad_learn(ctx, l, &t.legs[0], AD_RUN, 1024, 400 * MS, now + 4 * decay);
	assert_true(l->run_rate != 0);
	rbt_teardown(&t);
}

/* On a rotational leg a near read costs less seek than a far one. */
static void test_seek_distance(void **state)
{
	struct rbt t;
	struct ad_leg *l;

	setup(&t, 2, 0);
	l = aleg(&t, 0);
	l->dist = 1 << 20;
	assert_int_equal(ad_seek_eighths(l, 0), 0);
	assert_int_equal(ad_seek_eighths(l, 1), 1);
	assert_int_equal(ad_seek_eighths(l, (1 << 20) / 32), 2);
	assert_int_equal(ad_seek_eighths(l, (1 << 20) / 8), 3);
	assert_int_equal(ad_seek_eighths(l, (1 << 20) / 2), 6);
	assert_int_equal(ad_seek_eighths(l, 1 << 20), 11);
	assert_int_equal(ad_seek_eighths(l, 1 << 23), 16);
	l->dist = 0;
	assert_int_equal(ad_seek_eighths(l, 12345), 8);

	/* two busy legs alike: the read goes to the nearer head */
	model(&t, 0, 8 * MS, 40000, 0);
	model(&t, 1, 8 * MS, 40000, 0);
	aleg(&t, 0)->dist = 1 << 19;
	aleg(&t, 1)->dist = 1 << 19;
	start(&t, 0, 100, 8);
	start(&t, 1, 1 << 20, 8);
	assert_int_equal(sel(&t, (1 << 20) + 5000, 8, 0x3), 1);
	assert_int_equal(sel(&t, 9000, 8, 0x3), 0);
	/* start_io keeps the average distance of reads that seek */
	start(&t, 0, 200000, 8);
	assert_true(aleg(&t, 0)->dist ==
		    (1 << 19) - (1 << 15) + ((200000 - 108) >> 4));
	rbt_teardown(&t);
}

/*
 * Queued small reads ending on rotational @leg, AD_SEEK_READS near its
 * last read's end and as many far from it: @near_slow and @far_slow of
 * them took longer than the leg's cost.
 */
static void seek_reads(struct rbt *t, unsigned int leg, u32 near_slow,
		       u32 far_slow)
{
	struct ad_leg *l = aleg(t, leg);
	u64 slow = 2 * l->cost, quick = l->cost / 2;
	u32 i;

	for (i = 0; i < AD_SEEK_READS; i++) {
		struct rb_io n = rd(l->done_end + 1000, 8, 0x1);
		struct rb_io f = rd(l->done_end + l->dist, 8, 0x1);

		ad_seek_learn(l, &n, i < near_slow ? slow : quick, l->cost);
		ad_seek_learn(l, &f, i < far_slow ? slow : quick, l->cost);
	}
}

/*
 * A rotational leg whose far reads are slow no more often than its near
 * ones (by 1/10 of them), judged so twice running, is flat: no distance is
 * charged (null_blk hdds, a token bucket with no head: 3hdd's QD32 at 0.95
 * of zfs's when the nearer head got reads queued behind a tick while
 * another leg had budget left).  Two verdicts running turn it back.
 */
static void test_seek_flat(void **state)
{
	struct rbt t;
	struct ad_leg *l;
	struct rb_io io;
	unsigned int i;

	setup(&t, 2, ROT);
	for (i = 0; i < 2; i++) {
		model(&t, i, 8 * MS, 40000, 0);
		aleg(&t, i)->dist = 1 << 20;
	}
	l = aleg(&t, 0);
	assert_false(ad_flat(l));		/* a new leg seeks */
	seek_reads(&t, 0, 32, 32);
	assert_int_equal(l->verdicts, 1);
	assert_false(ad_flat(l));		/* once may be chance */
	assert_int_equal(l->near + l->far, 0);
	seek_reads(&t, 0, 32, 44);		/* 12 of 128 more far: flat */
	assert_true(ad_flat(l));
	seek_reads(&t, 0, 32, 45);		/* 13: seeks, but once */
	assert_true(ad_flat(l));
	seek_reads(&t, 0, 0, 128);
	assert_false(ad_flat(l));
	assert_int_equal(l->verdicts, 0);
	/* mid-distance reads count for neither */
	io = rd(l->done_end + l->dist / 2, 8, 0x1);
	ad_seek_learn(l, &io, MS, l->cost);
	assert_int_equal(l->near + l->far, 0);

	/*
	 * Leg 0 has two reads in flight and its head near the read, leg 1
	 * one and its head far: a disk that seeks takes it nearer, a flat
	 * one where fewer wait.
	 */
	start(&t, 0, 10000, 8);
	start(&t, 0, 20000, 8);
	start(&t, 1, 4 << 20, 8);
	for (i = 0; i < 2; i++)
		aleg(&t, i)->dist = 1 << 20;
	assert_int_equal(sel(&t, 30000, 8, 0x3), 0);
	for (i = 0; i < 2; i++) {
		seek_reads(&t, i, 0, 0);
		seek_reads(&t, i, 0, 0);
	}
	assert_int_equal(sel(&t, 30000, 8, 0x3), 1);

	/* end_io: a queued small read is a sample, from the last one's end */
	l = aleg(&t, 1);
	l->done_end = 5000;
	l->last_finish = shim_now_ns - 2 * MS;
	end(&t, 1, 6000, 8, 10 * MS);
	assert_int_equal(l->near, 1);
	assert_int_equal(l->near_slow, 0);	/* 2 ms of 8 */
	assert_int_equal(l->done_end, 6008);
	rbt_teardown(&t);
}

/*
 * Small reads that find rotational @leg idle, one at a time as at QD1:
 * AD_SEEK_READS near the end of its last read, taking @near_ns each, and
 * as many far from it, taking @far_ns.
 */
static void idle_seek_reads(struct rbt *t, unsigned int leg, u64 near_ns,
			    u64 far_ns)
{
	struct ad_leg *l = aleg(t, leg);
	sector_t s;
	u32 i;

	for (i = 0; i < AD_SEEK_READS; i++) {
		s = l->done_end + l->dist / 8;
		start(t, leg, s, 8);
		shim_now_ns += near_ns;
		end(t, leg, s, 8, near_ns);
		s = l->done_end + 2 * l->dist;
		start(t, leg, s, 8);
		shim_now_ns += far_ns;
		end(t, leg, s, 8, far_ns);
	}
}

/*
 * Reads that found the leg idle judge it too, against its idle line: the
 * benchmark's QD1 runs queue no read, and 3hdd's legs were first judged
 * flat at QD32, distance charged for its first 0.6 s (rbsim --prelude
 * 1:7:10, the first second 0.964 -> 0.977 of zfs).  A read after an idle
 * spell over decay_ms does not count: its time may be the device waking.
 */
static void test_seek_flat_idle(void **state)
{
	struct rbt t;
	struct ad_leg *l;
	struct rb_io io;
	unsigned int i;
	u32 near;

	setup(&t, 2, ROT);
	for (i = 0; i < 2; i++) {
		model(&t, i, 500 * US, 100, 1500 * US);
		aleg(&t, i)->dist = 1 << 20;
	}
	/* null_blk: 2 ms wherever the read is */
	l = aleg(&t, 0);
	idle_seek_reads(&t, 0, 2 * MS, 2 * MS);
	assert_int_equal(l->verdicts, 1);
	assert_false(ad_flat(l));
	idle_seek_reads(&t, 0, 2 * MS, 2 * MS);
	assert_true(ad_flat(l));
	/* a disk: far reads seek */
	l = aleg(&t, 1);
	idle_seek_reads(&t, 1, 1 * MS, 8 * MS);
	idle_seek_reads(&t, 1, 1 * MS, 8 * MS);
	assert_false(ad_flat(l));
	assert_int_equal(l->verdicts, 0);
	/* after 200 ms idle: not a sample */
	near = l->near;
	shim_now_ns += 200 * MS;
	io = rd(l->done_end + l->dist / 8, 8, 0x3);
	start(&t, 1, io.sector, 8);
	shim_now_ns += MS;
	end(&t, 1, io.sector, 8, MS);
	assert_int_equal(l->near, near);
	rbt_teardown(&t);
}

/* chunk: cut at the leg's chunk boundary; select takes chunk's leg. */
static void test_chunk(void **state)
{
	unsigned int part, leg;
	struct rbt t;

	setup(&t, 2, 0x3);
	model(&t, 0, 0, 100, 100 * US);
	model(&t, 1, 0, 100, 100 * US);
	/* 1 MiB over two idle flash legs: 128 KiB pieces, alternating */
	leg = route(&t, 0, MIB, 0x3, &part);
	assert_int_equal(part, 256);
	assert_int_equal(route(&t, 256, MIB - 256, 0x3, &part), !leg);
	assert_int_equal(part, 256);
	/* unaligned: up to the next boundary */
	route(&t, 1000, 4096, 0x3, &part);
	assert_int_equal(part, 24);
	/* small reads whole */
	route(&t, 5000, 8, 0x3, &part);
	assert_int_equal(part, 8);
	/* no split on flash: whole */
	assert_int_equal(knob_set(&t, "flash_chunk_kb", "0"), 0);
	route(&t, 9000, 4096, 0x3, &part);
	assert_int_equal(part, 4096);
	rbt_teardown(&t);

	/*
	 * Large chunks: each leg its share, so that both are done at once:
	 * a quarter for the leg a third as fast, which starts as soon
	 */
	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "flash_chunk_kb", "65536"), 0);
	model(&t, 0, 0, 300, 100 * US);
	model(&t, 1, 0, 100, 100 * US);
	assert_int_equal(route(&t, 0, 4 * MIB, 0x3, &part), 0);
	/* fixed point, down to whole requests: no short last one */
	assert_true(part >= MIB - MAX_SECTORS && part <= MIB);
	assert_int_equal(part % MAX_SECTORS, 0);
	assert_int_equal(route(&t, part, 4 * MIB - part, 0x3, &part), 1);
	assert_true(part >= 3 * MIB - MAX_SECTORS && part <= 3 * MIB + 16);
	assert_int_equal(part % MAX_SECTORS, 0);
	/*
	 * A leg whose queue holds 4 x 127 KiB, idle, starts first; leg 0
	 * still has its quarter to do, 0.7 ms, longer than the submitter
	 * would wait for leg 1's tags (27 requests of 25 us): leg 1 takes
	 * its whole share, as no leg runs dry meanwhile.
	 */
	t.legs[1].queue_depth = 4;
	t.legs[1].max_sectors = 254;
	atomic64_set(&aleg(&t, 0)->queued, MIB - 8);
	atomic64_set(&aleg(&t, 1)->queued, 0);
	inflight(&t, 1, 0);
	assert_int_equal(route(&t, 8 * MIB, 4 * MIB, 0x3, &part), 1);
	assert_true(part > 7 * MIB / 2);
	/*
	 * ... but the rest of a split read no more than its queue takes: a
	 * reader's window already spread over legs would otherwise wait
	 * for a submitter stuck on each leg in turn.  (As if that rest were
	 * 4 MiB and leg 1 idle again.)
	 */
	atomic64_set(&aleg(&t, 1)->queued, 0);
	inflight(&t, 1, 0);
	assert_int_equal(route(&t, 8 * MIB + part, 4 * MIB, 0x3, &part), 1);
	assert_int_equal(part, 4 * 254);
	/* and one request when it is full */
	atomic64_set(&aleg(&t, 1)->queued, 4 * 254);
	assert_int_equal(ad_room(actx(&t), &t.legs[1]), 254);
	/*
	 * Leg 0 nearly done (32 KiB, 0.1 ms): it would run dry while the
	 * submitter waits on leg 1, so leg 1 takes what its queue holds.
	 */
	atomic64_set(&aleg(&t, 0)->queued, 64);
	inflight(&t, 0, 1);
	atomic64_set(&aleg(&t, 1)->queued, 0);
	inflight(&t, 1, 0);
	assert_int_equal(route(&t, 16 * MIB, 4 * MIB, 0x3, &part), 1);
	assert_int_equal(part, 4 * 254);
	rbt_teardown(&t);

	/* rotational: 1 MiB pieces while another leg is idle ... */
	setup(&t, 2, ROT);
	model(&t, 0, 5 * MS, 10000, 0);
	model(&t, 1, 5 * MS, 10000, 0);
	route(&t, 512, 4 * MIB, 0x3, &part);
	assert_int_equal(part, MIB - 512);
	/* ... the whole read once every other leg has work */
	start(&t, 0, 10 * MIB, MIB);
	start(&t, 1, 20 * MIB, MIB);
	route(&t, 30 * MIB + 8, 4 * MIB, 0x3, &part);
	assert_int_equal(part, 4 * MIB);
	rbt_teardown(&t);
}

/*
 * Writes in flight on a leg (every leg takes every write): a read waits
 * behind them, and they hold the leg's tags.
 */
static void test_writes(void **state)
{
	struct rbt t;
	unsigned int i;

	/* two like flash legs, four writes on leg 0: leg 1 */
	setup(&t, 2, 0x3);
	model(&t, 0, 20 * US, 100, 50 * US);
	model(&t, 1, 20 * US, 100, 50 * US);
	atomic_set(&t.legs[0].writes, 4);
	assert_int_equal(sel(&t, 64, 8, 0x3), 1);
	rbt_teardown(&t);

	/*
	 * An hdd whose 4 tags hold writes has no room for a read, however
	 * saturated the ssd beside it is: the read would wait for a tag.
	 */
	setup(&t, 2, 0x2);
	model(&t, 0, 500 * US, 1000, 0);	/* 10 times the ssd's */
	model(&t, 1, 50 * US, 100, 200 * US);
	t.legs[0].queue_depth = 4;
	for (i = 0; i < 8; i++)
		start(&t, 1, 1000 * i, 8);
	assert_int_equal(sel(&t, 77777, 8, 0x3), 0);
	atomic_set(&t.legs[0].writes, 4);
	assert_int_equal(sel(&t, 77777, 8, 0x3), 1);
	rbt_teardown(&t);

	/*
	 * One read at a time, but writes keep the leg busy: the pace still
	 * learns (a pace from a burst long ago would stay for good)
	 */
	setup(&t, 2, 0x3);
	model(&t, 0, 0, 100, 50 * US);
	aleg(&t, 0)->per_read[AD_PACE_SMALL] = 5 * MS;
	atomic_set(&t.legs[0].writes, 3);
	for (i = 0; i < 10; i++) {
		start(&t, 0, 8 * i, 8);
		shim_now_ns += MS;
		end(&t, 0, 8 * i, 8, 50 * US);
	}
	assert_true(aleg(&t, 0)->per_read[AD_PACE_SMALL] < 5 * MS);
	assert_true(aleg(&t, 0)->pace_stamp[AD_PACE_SMALL] > NOW);
	rbt_teardown(&t);
	(void)state;
}

/*
 * Flash legs deep in work (each holds twice the read: many readers): the
 * whole read goes to the leg that ends it first; with less queued there
 * (one reader's previous window) it is cut up as before.
 */
static void test_deep(void **state)
{
	unsigned int part;
	struct rbt t;

	setup(&t, 2, 0x3);
	model(&t, 0, 0, 100, 0);
	model(&t, 1, 0, 300, 0);
	start(&t, 0, 10 * MIB, 2 * MIB);
	start(&t, 1, 20 * MIB, 2 * MIB);
	assert_int_equal(route(&t, 40 * MIB, MIB, 0x3, &part), 0);
	assert_int_equal(part, MIB);
	/* a read more than half of leg 1's queue: pieces */
	route(&t, 50 * MIB, 4 * MIB, 0x3, &part);
	assert_int_equal(part, 256);
	rbt_teardown(&t);

	/* the leg that ends it first, not the one that starts first */
	setup(&t, 2, 0x3);
	model(&t, 0, 0, 100, 0);
	model(&t, 1, 0, 1000, 0);
	start(&t, 0, 10 * MIB, 5 * MIB);	/* 1 ms to go */
	start(&t, 1, 20 * MIB, 2 * MIB / 5);	/* 0.8 ms to go */
	/* 8 sectors to the first chunk boundary: leg 1 would start first */
	assert_int_equal(route(&t, 40 * MIB + 248, MIB / 5, 0x3, &part), 0);
	assert_int_equal(part, MIB / 5);
	rbt_teardown(&t);
	(void)state;
}

/*
 * Rotational legs all saturated: a small read goes to the nearest head,
 * whatever the backlogs, unless that queue is full.
 */
static void test_nearest_saturated(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 3, ROT);
	for (i = 0; i < 3; i++)
		model(&t, i, 8 * MS, 40000, 0);
	/* leg 2 near 200000 has the longest queue */
	for (i = 0; i < 4; i++) {
		start(&t, 0, 1000 + 8 * i, 8);
		start(&t, 1, 100000 + 8 * i, 8);
	}
	for (i = 0; i < 8; i++)
		start(&t, 2, 200000 + 8 * i, 8);
	assert_int_equal(sel(&t, 199000, 8, 0x7), 2);
	assert_int_equal(sel(&t, 90000, 8, 0x7), 1);
	/* its queue full: by E again, the shorter queues */
	t.legs[2].queue_depth = 8;
	assert_true(sel(&t, 199000, 8, 0x7) != 2);
	/* not while a leg is idle */
	t.legs[2].queue_depth = QD;
	inflight(&t, 0, 0);
	atomic64_set(&aleg(&t, 0)->queued, 0);
	assert_int_equal(sel(&t, 199000, 8, 0x7), 0);
	rbt_teardown(&t);
}

/*
 * The idle line forgets large reads that stopped long before the small
 * ones, as the serial line does.  Guest trace, ssd+nvme: after 8 readers,
 * the null_blk nvme's 128 KiB reads that had found it idle had waited 15 ms
 * for its token bucket; through that point its 4 KiB reads at QD1 cost
 * 470 us where they took 100 to 300, and the ssd (320 us) got them all.
 */
static void test_stale_idle_large(void **state)
{
	struct rbt t;
	struct ad_ctx *ctx;
	struct ad_leg *l;
	struct rb_io io = rd(12345, 8, 0x3);
	u64 decay, now = 10 * 1000 * MS;
	bool sat;

	setup(&t, 2, 0x3);
	ctx = actx(&t);
	decay = decay_ns(&t);
	l = aleg(&t, 1);
	set_class_at(l, AD_IDLE_LARGE, 256, 15 * MS, now);
	l->measured = true;
	ad_learn(ctx, l, &t.legs[1], AD_IDLE_SMALL, 8, 150 * US,
		 now + decay / 2);
	assert_true(ad_idle_ns(l, 8) > 400 * US);	/* through the old point */
	/* 3 decay_ms on, only small reads found it idle: their own line */
	ad_learn(ctx, l, &t.legs[1], AD_IDLE_SMALL, 8, 150 * US, now + 3 * decay);
	assert_true(ad_idle_ns(l, 8) <= 150 * US);
	io.start_ns = now + 3 * decay;
	assert_true(ad_expect(ctx, &t.legs[1], &io, 8, false, &sat) <=
		    150 * US);
	/* a large read that finds it idle again brings its point back */
	ad_learn(ctx, l, &t.legs[1], AD_IDLE_LARGE, 256, 15 * MS,
		 now + 3 * decay + decay / 2);
	assert_true(ad_idle_ns(l, 8) > 400 * US);
	rbt_teardown(&t);
	(void)state;
}

/*
 * The other way round: a flash leg's first small read that found it idle
 * took 75 ms (a new device's first read, as udev probes the table), and
 * many readers then left it no small read idle, only large ones.  Once the
 * large ones are 2 decay_ms newer, the old small point leaves the idle
 * line, and at QD1 the leg is charged what its large idle reads say, not
 * 75 ms, so it gets reads and is measured again.
 */
static void test_stale_idle_small(void **state)
{
	struct rbt t;
	struct ad_ctx *ctx;
	struct ad_leg *l;
	u64 decay, now = 10 * 1000 * MS;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);	/* no probes */
	ctx = actx(&t);
	decay = decay_ns(&t);
	model(&t, 0, 0, 12000, 280 * US);	/* an ssd: 376 us for 4 KiB */
	l = aleg(&t, 1);
	set_class_at(l, AD_IDLE_SMALL, 8, 75 * MS, now);
	l->measured = true;
	ad_learn(ctx, l, &t.legs[1], AD_IDLE_LARGE, 256, 760 * US,
		 now + decay / 2);
	assert_true(ad_idle_ns(l, 8) > 70 * MS);	/* through the old point */
	shim_now_ns = now + 3 * decay;
	assert_int_equal(sel(&t, 12345, 8, 0x3), 0);
	/* 3 decay_ms on, only large reads found it idle: their line */
	ad_learn(ctx, l, &t.legs[1], AD_IDLE_LARGE, 256, 760 * US,
		 now + 3 * decay);
	assert_true(ad_idle_ns(l, 8) <= 24 * US);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	rbt_teardown(&t);
	(void)state;
}

/*
 * ssd + nvme at QD1 after 15 s idle: the nvme's first read took 725 us (it
 * woke: a halted vCPU's timer, a power state) where it reads 4 KiB in 130.
 * That read weighs 1/8 at most and the nvme keeps the reads; with all its
 * weight it would call the nvme slower than the ssd.  A slow read soon
 * after it is no wake, and counts.
 */
static void test_wake(void **state)
{
	u64 t0 = NOW + 15000 * MS;
	struct ad_leg *l;
	struct rbt t;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	model(&t, 0, 0, 1000, 280 * US);	/* ssd: 288 us idle */
	model(&t, 1, 0, 500, 126 * US);		/* nvme: 130 us idle */
	set_class_at(aleg(&t, 0), AD_IDLE_SMALL, 8, 288 * US, NOW);
	set_class_at(aleg(&t, 1), AD_IDLE_SMALL, 8, 130 * US, NOW);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	l = aleg(&t, 1);
	shim_now_ns = t0;
	start(&t, 1, 5000, 8);
	shim_now_ns = t0 + 725 * US;
	end(&t, 1, 5000, 8, 725 * US);
	assert_true(ad_idle_ns(l, 8) < 200 * US);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	/* 50 ms on, after 49 ms idle: 2 ms counts (clamped to 4 times) */
	shim_now_ns = t0 + 50 * MS;
	start(&t, 1, 6000, 8);
	shim_now_ns += 2 * MS;
	end(&t, 1, 6000, 8, 2 * MS);
	assert_true(ad_idle_ns(l, 8) > 288 * US);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 0);
	rbt_teardown(&t);
	(void)state;
}

/*
 * ssd + nvme at depth: a small random read that finds reads in flight goes
 * to the flash leg with the fewest, not to the one its estimate ends first
 * (the nvme here, holding 3); idle legs, or a leg 85 times slower idle (a
 * remote disk), leave the choice to the estimates.
 */
static void test_flash_peers(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	model(&t, 0, 20 * US, 1000, 150 * US);	/* ssd: 178 us idle */
	model(&t, 1, 5 * US, 500, 50 * US);	/* nvme: 59 us idle */
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);	/* idle: the quicker */
	start(&t, 0, 1000, 8);
	for (i = 0; i < 3; i++)
		start(&t, 1, 2000 + 100 * i, 8);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 0);
	/* the nvme's reads queue (recent service 17x its idle): still */
	t.legs[0].ewma_ns = 2 * MS;
	t.legs[1].ewma_ns = 1 * MS;
	assert_int_equal(sel(&t, 12345, 8, 0x3), 0);
	t.legs[0].ewma_ns = 0;
	t.legs[1].ewma_ns = 0;
	/* one read each: equals, the quicker */
	atomic_set(&t.legs[1].inflight, 1);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	/* a remote leg is no peer: the estimates send it to the nvme */
	atomic_set(&t.legs[1].inflight, 3);
	model(&t, 0, 20 * US, 1000, 5000 * US);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	rbt_teardown(&t);
	(void)state;
}

/* A small reads' pace of @per_read ns and a floor of @floor ns, set now. */
static void pace_floor(struct rbt *t, unsigned int leg, u64 per_read,
		       u64 floor)
{
	small_pace(t, leg, per_read);
	aleg(t, leg)->floor = floor;
	aleg(t, leg)->floor_stamp = shim_now_ns;
}

/*
 * nvme + remote at QD32 after the nvme was slowed behind an 18 ms delay:
 * its idle line and its floor are from before (it is never idle at depth),
 * its idle line within AD_PEER_RATIO of the remote's 5 ms, so the two look
 * like peers.  Least pending would even the counts, and every read the
 * nvme takes from the remote waits 18 ms for one 5 ms would serve.  The
 * remote's reads do not queue (20 in flight at 250 us a read: 5 ms, its
 * floor), so the estimates choose.
 */
static void test_peer_round_trip(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	model(&t, 0, 250 * US, 1000, 5 * MS);	/* remote: 5.25 ms idle */
	model(&t, 1, 3 * MS, 500, 0);		/* nvme: 3 ms, stale */
	for (i = 0; i < 20; i++)
		start(&t, 0, 1000 + 100 * i, 8);
	for (i = 0; i < 4; i++)
		start(&t, 1, 9000 + 100 * i, 8);
	/* no pace yet: peers, the fewest in flight */
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	pace_floor(&t, 0, 250 * US, 5 * MS);
	pace_floor(&t, 1, 4500 * US, 60 * US);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 0);
	/* the remote's reads queue too (11 ms, 2.2 times its floor): peers */
	pace_floor(&t, 0, 550 * US, 5 * MS);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	/* not queued, but the nvme would serve one sooner: peers */
	pace_floor(&t, 0, 250 * US, 5 * MS);
	pace_floor(&t, 1, 200 * US, 60 * US);
	assert_int_equal(sel(&t, 12345, 8, 0x3), 1);
	rbt_teardown(&t);
	(void)state;
}

/*
 * A floor is the quickest small read that found the leg idle: reads that
 * queued do not lower it, and after 4 decay_ms the next idle one replaces
 * it, slower or not (a leg that slowed down).
 */
static void test_floor(void **state)
{
	struct rbt t;

	setup(&t, 1, 0x1);
	model(&t, 0, 20 * US, 1000, 150 * US);
	start(&t, 0, 1000, 8);			/* found it idle */
	start(&t, 0, 2000, 8);			/* queued */
	shim_now_ns += 200 * US;
	end(&t, 0, 1000, 8, 200 * US);
	assert_int_equal(aleg(&t, 0)->floor, 200 * US);
	shim_now_ns += 50 * US;
	end(&t, 0, 2000, 8, 100 * US);		/* queued: not a floor */
	assert_int_equal(aleg(&t, 0)->floor, 200 * US);
	start(&t, 0, 3000, 8);
	shim_now_ns += 300 * US;
	end(&t, 0, 3000, 8, 300 * US);		/* slower, within the span */
	assert_int_equal(aleg(&t, 0)->floor, 200 * US);
	shim_now_ns += 401 * MS;
	start(&t, 0, 4000, 8);
	shim_now_ns += 18 * MS;
	end(&t, 0, 4000, 8, 18 * MS);		/* after it: a delay */
	assert_int_equal(aleg(&t, 0)->floor, 18 * MS);
	rbt_teardown(&t);
	(void)state;
}

/*
 * A read that found one other in flight replaces a floor older than 4
 * decay_ms (a leg slowed behind a delay, never idle again at depth), but
 * does not lower a fresh one: it may have queued, or not.
 */
static void test_floor_pair(void **state)
{
	struct rbt t;

	setup(&t, 1, 0x1);
	model(&t, 0, 20 * US, 1000, 150 * US);
	start(&t, 0, 1000, 8);			/* found it idle */
	shim_now_ns += 130 * US;
	end(&t, 0, 1000, 8, 130 * US);
	assert_int_equal(aleg(&t, 0)->floor, 130 * US);
	start(&t, 0, 2000, 8);			/* idle */
	start(&t, 0, 3000, 8);			/* one in flight */
	shim_now_ns += 100 * US;
	end(&t, 0, 3000, 8, 100 * US);		/* quicker: not a floor */
	assert_int_equal(aleg(&t, 0)->floor, 130 * US);
	shim_now_ns += 50 * US;
	end(&t, 0, 2000, 8, 150 * US);
	assert_int_equal(aleg(&t, 0)->floor, 130 * US);
	/* the span over: slower, from a read beside another, replaces it */
	shim_now_ns += 401 * MS;
	start(&t, 0, 4000, 8);
	start(&t, 0, 5000, 8);
	shim_now_ns += 35 * MS;
	end(&t, 0, 5000, 8, 35 * MS);
	assert_int_equal(aleg(&t, 0)->floor, 35 * MS);
	end(&t, 0, 4000, 8, 35 * MS);
	assert_int_equal(aleg(&t, 0)->floor, 35 * MS);
	rbt_teardown(&t);
	(void)state;
}

/*
 * QD32 on 2 hdds + ssd, every leg saturated and holding two reads or more:
 * a small random read still stays off a full queue, where its submitter
 * would wait for a tag.  chunk() once sent it to the leg that would end it
 * first (the whole-read rule of many readers), a null_blk hdd whose 4
 * reads all end at once, so its line calls a 5th quick.
 */
static void test_small_full_queue(void **state)
{
	struct rbt t;
	unsigned int i, part;

	setup(&t, 3, 0x4);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	model(&t, 0, 0, 2, 2 * MS);
	model(&t, 1, 0, 2, 2 * MS);
	model(&t, 2, 40 * US, 1, 300 * US);
	t.legs[0].queue_depth = 4;
	t.legs[1].queue_depth = 4;
	for (i = 0; i < 4; i++) {
		start(&t, 0, 1000 * i, 8);
		start(&t, 1, 100000 + 1000 * i, 8);
	}
	/* 60 on the ssd: 2.7 ms to go there, 2 ms on a full hdd */
	for (i = 0; i < 60; i++)
		start(&t, 2, 200000 + 1000 * i, 8);
	assert_int_equal(route(&t, 777777, 8, 0x7, &part), 2);
	assert_int_equal(part, 8);
	rbt_teardown(&t);
	(void)state;
}

/*
 * Every queue full (3 flat null_blk hdds at QD32, 4 tags each): the
 * submitter waits for a tag on the leg it picks, while tags free unused on
 * the others.  Of equal legs, the one whose next read ends first (the
 * longest since its last completion, up to its pace); a leg that has
 * slowed down stays last however long since its last; a free tag first.
 */
static void test_full_soonest_end(void **state)
{
	struct rbt t;
	unsigned int i, j;

	setup(&t, 3, ROT);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	for (i = 0; i < 3; i++) {
		model(&t, i, 500 * US, 0, 1500 * US);
		small_pace(&t, i, 500 * US);
		aleg(&t, i)->flat = true;
		t.legs[i].queue_depth = 4;
		for (j = 0; j < 4; j++)
			start(&t, i, 100000 * i + 1000 * j, 8);
	}
	aleg(&t, 0)->last_finish = shim_now_ns - 100 * US;
	aleg(&t, 1)->last_finish = shim_now_ns - 400 * US;
	aleg(&t, 2)->last_finish = shim_now_ns - 200 * US;
	assert_int_equal(sel(&t, 777777, 8, 0x7), 1);
	/* overdue: due now, but not before a read that waits for a tag */
	aleg(&t, 0)->last_finish = shim_now_ns - 3 * MS;
	assert_int_equal(sel(&t, 777777, 8, 0x7), 0);
	atomic_set(&t.legs[0].inflight, 5);
	assert_int_equal(sel(&t, 777777, 8, 0x7), 1);
	atomic_set(&t.legs[0].inflight, 4);
	/* leg 0 ten times slower: last, though longest since */
	model(&t, 0, 5 * MS, 0, 15 * MS);
	small_pace(&t, 0, 5 * MS);
	aleg(&t, 0)->last_finish = shim_now_ns - 4 * MS;
	assert_int_equal(sel(&t, 777777, 8, 0x7), 1);
	/* a tag free on leg 2 */
	atomic_set(&t.legs[2].inflight, 3);
	assert_int_equal(sel(&t, 777777, 8, 0x7), 2);
	rbt_teardown(&t);
	(void)state;
}

/*
 * A flash leg whose small reads do not queue (its reads in flight times
 * its pace under twice its floor) is not saturated, whatever its serial
 * line says: a null_blk nvme fed by a submitter short of CPU completes a
 * read every 66 us because reads come no faster, and its line, learnt
 * from those gaps, called it full at 3 reads.  A remote beside it, never
 * saturated at QD32 (5.6 ms a round trip), then had room and took every
 * read until it held 28 and the nvme ran dry.  Once the nvme's reads
 * queue, the remote's room counts again.
 */
static void test_unqueued_flash_room(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	model(&t, 0, 74 * US, 0, 95 * US);
	aleg(&t, 0)->floor = 120 * US;
	small_pace(&t, 0, 66 * US);
	model(&t, 1, 69 * US, 0, 5600 * US);
	aleg(&t, 1)->floor = 5100 * US;
	small_pace(&t, 1, 217 * US);
	for (i = 0; i < 3; i++)
		start(&t, 0, 1000 * i, 8);
	for (i = 0; i < 28; i++)
		start(&t, 1, 100000 + 1000 * i, 8);
	assert_int_equal(sel(&t, 777777, 8, 0x3), 0);
	/* 8 on the nvme: 528 us of its pace, over twice its floor */
	for (i = 3; i < 8; i++)
		start(&t, 0, 1000 * i, 8);
	assert_int_equal(sel(&t, 777777, 8, 0x3), 1);
	rbt_teardown(&t);
	(void)state;
}

/*
 * nvme + remote at QD32 after the nvme was slowed behind a 35 ms delay:
 * each read more on the nvme adds to the throughput (its reads do not
 * queue: 10 at 3.5 ms a read spend its floor), each one on the remote past
 * what keeps it busy (5 ms at 417 us a read: 12) only waits.  The remote
 * is saturated once its reads spend 5/4 of its floor and a pace more
 * there (17 reads), not at twice its floor (28): then the nvme, later by
 * E but with room, takes the read.
 */
static void test_remote_past_knee(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	model(&t, 0, 0, 1, 35 * MS);		/* nvme, delayed */
	pace_floor(&t, 0, 3500 * US, 35 * MS);
	model(&t, 1, 0, 1, 5 * MS);		/* remote */
	pace_floor(&t, 1, 417 * US, 5 * MS);
	for (i = 0; i < 10; i++)
		start(&t, 0, 1000 + 100 * i, 8);
	for (i = 0; i < 15; i++)
		start(&t, 1, 90000 + 100 * i, 8);
	/* 15 on the remote: 6.3 ms, under 5/4 of 5 ms and a pace */
	assert_int_equal(sel(&t, 777777, 8, 0x3), 1);
	start(&t, 1, 95000, 8);
	start(&t, 1, 95100, 8);
	/* 17: 7.1 ms, saturated */
	assert_int_equal(sel(&t, 777777, 8, 0x3), 0);
	rbt_teardown(&t);
	(void)state;
}

/* select without chunk (a retry), or chunk's choice for another read. */
static void test_pick(void **state)
{
	unsigned int n, leg;
	struct rb_io io;
	struct rbt t;

	setup(&t, 2, 0x3);
	io = rd(0, MIB, 0x3);	/* after setup(): now is the test's */
	model(&t, 0, 0, 100, 100 * US);
	model(&t, 1, 0, 100, 100 * US);
	start(&t, 0, 50000, 4096);		/* leg 0 busy */
	n = t.pol.type->chunk(&t.pol, &io);
	assert_int_equal(n, 256);
	assert_true(*actx(&t)->pick == ad_pick_key(&io, 256, 1));
	/* a different read on this CPU: chosen afresh, the word cleared */
	io = rd(7, 8, 0x3);
	assert_int_equal(t.pol.type->select(&t.pol, &io), 1);
	assert_true(*actx(&t)->pick == 0);
	/* chunk's leg failed meanwhile: chosen again among the others */
	io = rd(0, MIB, 0x3);
	n = t.pol.type->chunk(&t.pol, &io);
	io.sectors = n;
	io.eligible = 0x1;
	leg = t.pol.type->select(&t.pol, &io);
	assert_int_equal(leg, 0);
	/* chunk on another CPU: this one's word is its own */
	io = rd(0, MIB, 0x3);
	shim_cpu = 1;
	n = t.pol.type->chunk(&t.pol, &io);
	shim_cpu = 0;
	io.sectors = n;
	assert_int_equal(t.pol.type->select(&t.pol, &io), 1);
	shim_cpu = 1;
	assert_int_equal(t.pol.type->select(&t.pol, &io), 1);
	shim_cpu = 0;
	rbt_teardown(&t);
}

/*
 * One slow completion after an idle spell (a preempted vCPU) moves a fast
 * leg's estimate at most AD_JUMP times: it keeps the small reads.  A leg
 * that stays slow is followed within a few reads.
 */
static void test_outlier(void **state)
{
	unsigned int i;
	struct rbt t;

	setup(&t, 2, 0x3);
	model(&t, 0, 0, 100, 2 * MS);		/* remote: 2 ms a small read */
	model(&t, 1, 0, 100, 100 * US);		/* ssd */
	for (i = 0; i < 4; i++) {
		start(&t, 1, i * 8, 8);
		shim_now_ns += MS;
		end(&t, 1, i * 8, 8, 200 * US);
	}
	assert_int_equal(sel(&t, 64, 8, 0x3), 1);
	shim_now_ns += 500 * MS;
	start(&t, 1, 100, 8);
	shim_now_ns += 50 * MS;
	end(&t, 1, 100, 8, 50 * MS);
	aleg(&t, 0)->last_finish = shim_now_ns;	/* no probe due */
	assert_int_equal(sel(&t, 200, 8, 0x3), 1);
	/* it stays slow: within a few reads the remote leg is the faster one */
	for (i = 0; i < 8; i++) {
		start(&t, 1, 300 + i * 8, 8);
		shim_now_ns += 50 * MS;
		end(&t, 1, 300 + i * 8, 8, 50 * MS);
	}
	aleg(&t, 0)->last_finish = shim_now_ns;
	assert_int_equal(sel(&t, 400, 8, 0x3), 0);
	rbt_teardown(&t);
}

/*
 * QD1 after 8 readers: the serial lines were learnt under a token bucket's
 * waits and say 75 and 50 us a sector, nvme the slower; idle, the nvme
 * serves 4 KiB in 140 us and the ssd in 310 us.  No read queues at QD1, so
 * only the idle line is ever new, and an idle leg goes by it.
 */
static void test_idle_line(void **state)
{
	struct ad_leg *l;
	struct rbt t;

	setup(&t, 2, 0x3);
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);	/* no probes */
	model(&t, 0, 0, 75 * US, 0);		/* nvme: serial 600 us */
	model(&t, 1, 0, 50 * US, 0);		/* ssd: serial 400 us */
	l = aleg(&t, 0);
	l->idle = 100 * US;
	l->idle_rate = (5 * US) << AD_K_SHIFT;	/* 140 us for 8 sectors */
	ad_lat_line(l);
	l = aleg(&t, 1);
	l->idle = 230 * US;
	l->idle_rate = (10 * US) << AD_K_SHIFT;	/* 310 us */
	ad_lat_line(l);
	assert_int_equal(sel(&t, 1000, 8, 0x3), 0);
	/* busy, the queue goes by the serial line still */
	atomic_set(&t.legs[0].inflight, 1);
	assert_int_equal(sel(&t, 2000, 8, 0x3), 1);
	atomic_set(&t.legs[0].inflight, 0);
	/* without an idle sample the line is all there is */
	aleg(&t, 0)->cls[AD_IDLE_SMALL].sectors = 0;
	assert_int_equal(sel(&t, 3000, 8, 0x3), 1);
	rbt_teardown(&t);
}

/* The leg the probe hook names beside a read routed to @chosen, or -1 */
static int probe_of(struct rbt *t, sector_t sector, unsigned long eligible,
		    unsigned int chosen)
{
	struct rb_io io = rd(sector, 8, eligible);

	return t->pol.type->probe(&t->pol, &io, chosen);
}

/*
 * An idle leg that completed nothing for probe_ms gets a probe beside a
 * read: the read goes where the estimates say.
 */
static void test_probe(void **state)
{
	unsigned int part;
	u64 idle, last;
	struct rb_io io;
	struct rbt t;

	setup(&t, 2, 0x2);
	model(&t, 0, 8 * MS, 40000, 0);		/* hdd */
	model(&t, 1, 0, 100, 100 * US);		/* ssd */
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	assert_int_equal(probe_of(&t, 0, 0x3, 1), -1);
	/*
	 * probe_ms is not enough: a read that came for the hdd would wait
	 * 8.2 ms more behind the probe than the ssd's take, so 256 times
	 * that (2.1 s) first
	 */
	shim_now_ns += 1001 * MS;
	aleg(&t, 1)->last_finish = shim_now_ns;	/* the ssd is in use */
	assert_int_equal(probe_of(&t, 0, 0x3, 1), -1);
	shim_now_ns += 1200 * MS;
	aleg(&t, 1)->last_finish = shim_now_ns;
	/* the read goes to the ssd, whole; the hdd is probed beside it */
	assert_int_equal(route(&t, 0, 8, 0x3, &part), 1);
	assert_int_equal(part, 8);
	assert_int_equal(probe_of(&t, 0, 0x3, 1), 0);
	start(&t, 0, 0, 8);			/* the core's probe */
	/* once: the probe is in flight, and then it is fresh */
	assert_int_equal(probe_of(&t, 64, 0x3, 1), -1);
	shim_now_ns += 12 * MS;
	end(&t, 0, 0, 8, 12 * MS);		/* the probe took 12 ms */
	assert_int_equal(probe_of(&t, 64, 0x3, 1), -1);
	/* a busy leg is not probed; nor with probe_ms 0 */
	shim_now_ns += 2000 * MS;
	aleg(&t, 1)->last_finish = shim_now_ns;
	start(&t, 0, 100, 8);
	assert_int_equal(probe_of(&t, 64, 0x3, 1), -1);
	end(&t, 0, 100, 8, 8 * MS);
	shim_now_ns += 2000 * MS;
	aleg(&t, 1)->last_finish = shim_now_ns;
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	assert_int_equal(probe_of(&t, 64, 0x3, 1), -1);
	/*
	 * Its lines say 8.2 ms, 2.1 s of it, but its last probe took 12
	 * ms: 256 times that, 3.1 s, first
	 */
	assert_int_equal(knob_set(&t, "probe_ms", "1"), 0);
	shim_now_ns += 200 * MS;		/* 2.2 s idle */
	assert_int_equal(probe_of(&t, 64, 0x3, 1), -1);
	shim_now_ns += 900 * MS;		/* 3.1 s idle */
	/* not an eligible leg either */
	assert_int_equal(probe_of(&t, 64, 0x2, 1), -1);
	assert_int_equal(probe_of(&t, 64, 0x3, 1), 0);
	/* the reads still go to the ssd */
	assert_int_equal(sel(&t, 64, 8, 0x3), 1);
	/* a probe that fails at once teaches nothing: the leg stays as slow */
	start(&t, 0, 64, 8);
	idle = aleg(&t, 0)->idle;
	last = aleg(&t, 0)->last_finish;
	io = rd(64, 8, 0x3);
	io.failed = true;
	shim_now_ns += 10 * US;
	atomic_set(&t.legs[0].inflight, 0);
	t.pol.type->end_io(&t.pol, &t.legs[0], &io, 10 * US);
	assert_true(aleg(&t, 0)->idle == idle);
	assert_true(aleg(&t, 0)->last_finish == last);
	assert_true(aleg(&t, 0)->probe_ns == 12 * MS);
	assert_int_equal(atomic64_read(&aleg(&t, 0)->queued), 0);
	rbt_teardown(&t);

	/* sooner for a quicker leg: after 256 of its own 4 KiB reads */
	setup(&t, 2, 0x3);
	model(&t, 0, 0, 100, 1 * MS - 800);	/* 1 ms a read */
	model(&t, 1, 0, 100, 100 * US);
	shim_now_ns += 255 * MS;
	aleg(&t, 1)->last_finish = shim_now_ns;
	assert_int_equal(probe_of(&t, 64, 0x3, 1), -1);
	shim_now_ns += 2 * MS;
	aleg(&t, 1)->last_finish = shim_now_ns;
	assert_int_equal(probe_of(&t, 64, 0x3, 1), 0);
	assert_int_equal(sel(&t, 64, 8, 0x3), 1);
	rbt_teardown(&t);
}

/* A leg never measured gets one read at a time. */
static void test_unmeasured(void **state)
{
	struct rbt t;

	setup(&t, 2, 0x3);
	model(&t, 0, 0, 2000, 2 * MS);		/* slow but known */
	/* leg 1's defaults look fast: it gets a read to be measured */
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	start(&t, 1, 0, 8);
	assert_int_equal(sel(&t, 100, 8, 0x3), 0);
	assert_int_equal(sel(&t, 100, 2048, 0x3), 0);
	/* measured: it takes more */
	shim_now_ns += 100 * US;
	end(&t, 1, 0, 8, 100 * US);
	assert_int_equal(sel(&t, 100, 8, 0x3), 1);
	rbt_teardown(&t);
}

/*
 * A leg judged by fewer than AD_SURE_READS idle small reads is probed once
 * idle for decay_ms: a new ssd's first 4 KiB read took 3.2 ms, an hdd's
 * 2.4, and a QD1 reader used the hdd until the ssd's probe, 0.8 s later.
 */
static void test_young_probe(void **state)
{
	sector_t s = 1000;
	u64 idle;
	struct rbt t;

	setup(&t, 2, 0x2);
	start(&t, 1, 0, 8);
	shim_now_ns += 3200 * US;
	end(&t, 1, 0, 8, 3200 * US);		/* the ssd's first read */
	start(&t, 0, 8, 8);
	shim_now_ns += 2400 * US;
	end(&t, 0, 8, 8, 2400 * US);
	idle = shim_now_ns - aleg(&t, 1)->last_finish;
	/* the reads go to the hdd until the ssd has been idle for decay_ms */
	while (idle + 2 * MS <= 100 * MS) {
		assert_int_equal(probe_of(&t, s, 0x3, 0), -1);
		assert_int_equal(route(&t, s, 8, 0x3, NULL), 0);
		shim_now_ns += 2 * MS;
		idle += 2 * MS;
		end(&t, 0, s, 8, 2 * MS);
		s += 1000;
	}
	shim_now_ns += 2 * MS;
	assert_int_equal(probe_of(&t, s, 0x3, 0), 1);
	start(&t, 1, s + 8, 8);
	shim_now_ns += 300 * US;
	end(&t, 1, s + 8, 8, 300 * US);
	assert_int_equal(sel(&t, s, 8, 0x3), 1);
	/* the hdd found idle 3 times or more: probed by the usual rule */
	assert_true(aleg(&t, 0)->idle_seen == AD_SURE_READS);
	shim_now_ns += 150 * MS;
	aleg(&t, 1)->last_finish = shim_now_ns;
	assert_int_equal(probe_of(&t, s, 0x3, 1), -1);
	/* nor one no small read found idle: its line is optimistic */
	aleg(&t, 0)->idle_seen = 0;
	assert_int_equal(probe_of(&t, s, 0x3, 1), -1);
	/* nor a young leg with probe_ms 0 */
	aleg(&t, 0)->idle_seen = 1;
	assert_int_equal(knob_set(&t, "probe_ms", "0"), 0);
	assert_int_equal(probe_of(&t, s, 0x3, 1), -1);
	assert_int_equal(knob_set(&t, "probe_ms", "1000"), 0);
	assert_int_equal(probe_of(&t, s, 0x3, 1), 0);
	rbt_teardown(&t);
}

/*
 * io_opt: half of a piece for every leg (a chunk, or less if half its
 * queue holds less), at least 512 KiB, or the knob.
 */
static void test_io_opt(void **state)
{
	struct rbt t;

	setup(&t, 3, 0x4);			/* queues of 64 x 128 KiB */
	assert_int_equal(t.pol.type->io_opt(&t.pol), (1024 + 64) << 10);
	assert_int_equal(knob_set(&t, "rot_chunk_kb", "4096"), 0);
	assert_int_equal(t.pol.type->io_opt(&t.pol), (4096 + 64) << 10);
	/* a leg of 4 x 127 KiB requests: half its queue is 254 KiB */
	t.legs[0].queue_depth = 4;
	t.legs[0].max_sectors = 254;
	assert_int_equal(t.pol.type->io_opt(&t.pol),
			 ((254 + 4096 + 128) / 2 & ~3) << 10);
	/* no split: half of what the queue holds */
	assert_int_equal(knob_set(&t, "rot_chunk_kb", "0"), 0);
	assert_int_equal(t.pol.type->io_opt(&t.pol),
			 ((254 + 4096 + 128) / 2 & ~3) << 10);
	assert_int_equal(knob_set(&t, "io_opt_kb", "1024"), 0);
	assert_int_equal(t.pol.type->io_opt(&t.pol), 1 << 20);
	rbt_teardown(&t);

	setup(&t, 16, 0);
	assert_int_equal(t.pol.type->io_opt(&t.pol), 8 << 20);
	assert_int_equal(knob_set(&t, "rot_chunk_kb", "65536"), 0);
	assert_int_equal(t.pol.type->io_opt(&t.pol), (16 * 4096 / 2) << 10);
	assert_int_equal(knob_set(&t, "io_opt_kb", "262144"), 0);
	assert_int_equal(t.pol.type->io_opt(&t.pol), AD_MAX_IO_OPT_KB << 10);
	rbt_teardown(&t);

	/* at least 512 KiB */
	setup(&t, 2, 0x3);
	assert_int_equal(t.pol.type->io_opt(&t.pol), 512 << 10);
	rbt_teardown(&t);

	/* an odd half is rounded down to whole 4 KiB */
	setup(&t, 3, 0x7);
	assert_int_equal(knob_set(&t, "flash_chunk_kb", "4004"), 0);
	assert_int_equal(t.pol.type->io_opt(&t.pol), 6004 << 10);
	rbt_teardown(&t);
}

/* start_io and end_io keep the per-leg state straight. */
static void test_accounting(void **state)
{
	struct rbt t;
	struct ad_leg *l;
	unsigned int i, j;

	setup(&t, 2, 0);
	l = aleg(&t, 1);
	start(&t, 1, 0, 8);
	start(&t, 1, 8, 8);			/* not solo */
	assert_true(l->solo == 1);
	assert_true(atomic64_read(&l->queued) == 16);
	assert_true(l->tail == 16);
	/* the tails of streams; a read that goes on takes its tail */
	assert_int_equal(stream_of(&t, 8, 8, 0x3), 1);
	assert_int_equal(stream_of(&t, 16, 8, 0x3), 1);
	assert_int_equal(stream_of(&t, 16, 8, 0x3), -1);
	/* an ineligible leg's tails are not looked at */
	start(&t, 1, 100, 8);
	assert_int_equal(stream_of(&t, 108, 8, 0x1), -1);
	assert_int_equal(stream_of(&t, 108, 8, 0x3), 1);
	/* many streams: each tail is kept until two others share its slots */
	for (i = 0; i < 16; i++)
		start(&t, i % 2, 1000 * (i + 1), 8);
	for (i = 0; i < 16; i++)
		assert_int_equal(stream_of(&t, 1000 * (i + 1) + 8, 8, 0x3),
				 i % 2);
	for (i = 0; i < AD_TAIL_SLOTS; i++)
		assert_true(actx(&t)->tails[i] == 0);
	/* a third tail in a pair of slots replaces the second */
	for (i = 2; ad_tail_slot(i) != ad_tail_slot(1); i++)
		;
	for (j = i + 1; ad_tail_slot(j) != ad_tail_slot(1); j++)
		;
	start(&t, 0, 0, 1);
	start(&t, 0, i - 1, 1);
	start(&t, 1, j - 1, 1);
	assert_int_equal(stream_of(&t, i, 8, 0x3), -1);
	assert_int_equal(stream_of(&t, 1, 8, 0x3), 0);
	assert_int_equal(stream_of(&t, j, 8, 0x3), 1);
	/* a run: chosen as the stream's leg, noted, its sample a run's */
	model(&t, 0, 8 * MS, 40000, 0);
	model(&t, 1, 8 * MS, 40000, 0);
	atomic_set(&t.legs[0].inflight, 40);
	atomic64_set(&aleg(&t, 0)->queued, 40 * 8);
	start(&t, 1, 50000, 8);
	assert_int_equal(sel(&t, 50008, 8, 0x3), 1);
	assert_true(l->run_next == 50009);
	start(&t, 1, 50008, 8);
	assert_true(l->run_next == 0);
	assert_true(l->runs[0] == 50009);
	shim_now_ns += 100 * MS;
	end(&t, 1, 0, 8, 100 * MS);		/* solo */
	shim_now_ns += 1 * MS;
	end(&t, 1, 50008, 8, 101 * MS);		/* queued: a run sample */
	assert_true(l->runs[0] == 0);
	assert_true(l->cls[AD_RUN].sectors == 8 << AD_FIX);
	assert_true(l->cls[AD_RUN].ns == MS << AD_FIX);
	assert_true(l->run_rate == (MS << AD_K_SHIFT) / 8);
	rbt_teardown(&t);
}

/* Nothing overflows: huge counts, sizes and times still choose a leg. */
static void test_extremes(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 3, 0x4);
	for (i = 0; i < 3; i++)
		model(&t, i, AD_MAX_NS, AD_MAX_RATE >> AD_K_SHIFT, AD_MAX_NS);
	inflight(&t, 0, INT_MAX);
	inflight(&t, 1, -5);
	atomic64_set(&aleg(&t, 0)->queued, INT64_MAX);
	atomic64_set(&aleg(&t, 1)->queued, -1);
	assert_int_equal(sel(&t, 0, UINT_MAX, 0x7), 1);
	assert_int_equal(sel(&t, U64_MAX - 8, 8, 0x1), 0);
	start(&t, 2, 0, 8);
	shim_now_ns += 1;
	end(&t, 2, 0, UINT_MAX, U64_MAX);
	end(&t, 2, 0, 0, 0);
	sel(&t, 0, UINT_MAX, 0x7);
	rbt_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_learning),
		cmocka_unit_test(test_follows_slowdown),
		cmocka_unit_test(test_qd1_fastest),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_worth),
		cmocka_unit_test(test_stream_lowest_e),
		cmocka_unit_test(test_rotational_stickiness),
		cmocka_unit_test(test_stale_run),
		cmocka_unit_test(test_stale_large),
		cmocka_unit_test(test_stale_idle_large),
		cmocka_unit_test(test_stale_idle_small),
		cmocka_unit_test(test_seek_distance),
		cmocka_unit_test(test_seek_flat),
		cmocka_unit_test(test_seek_flat_idle),
		cmocka_unit_test(test_chunk),
		cmocka_unit_test(test_deep),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_nearest_saturated),
		cmocka_unit_test(test_small_full_queue),
		cmocka_unit_test(test_full_soonest_end),
		cmocka_unit_test(test_unqueued_flash_room),
		cmocka_unit_test(test_remote_past_knee),
		cmocka_unit_test(test_flash_peers),
		cmocka_unit_test(test_peer_round_trip),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_floor_pair),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_young_probe),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_pace),
		cmocka_unit_test(test_paced),
		cmocka_unit_test(test_queued_pace),
		cmocka_unit_test(test_idle_line),
		cmocka_unit_test(test_wake),
		cmocka_unit_test(test_unmeasured),
		cmocka_unit_test(test_io_opt),
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_extremes),
	};

	return cmocka_run_group_tests_name("adaptive", tests, NULL, NULL);
}
