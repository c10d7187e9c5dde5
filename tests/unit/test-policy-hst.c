// SPDX-License-Identifier: GPL-2.0
/* Policy "hst" (dm-multipath historical-service-time): white box. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-hst.c"

#define ALL3	0x7UL
#define US	1000ULL
#define MS	1000000ULL
#define NOW	(10000 * MS)
#define FRESH	(NOW + 1000 * MS)	/* stale_after in the future */

static struct hst_leg *hleg(struct rbt *t, unsigned int leg)
{
	struct hst_ctx *ctx = t->pol.context;

	return &ctx->leg[leg];
}

/* A leg with estimate @ns, @out reads in flight, stale after @stale. */
static void leg_state(struct rbt *t, unsigned int leg, u64 ns, int out,
		      u64 stale)
{
	hleg(t, leg)->hst = ns << HST_FIXED_SHIFT;
	hleg(t, leg)->stale_after = stale;
	inflight(t, leg, out);
}

static void setup(struct rbt *t, unsigned int n)
{
	rbt_setup(t, "hst", n, 0);
	shim_now_ns = NOW;
}

/* What the core does when a read of @leg ends @ns after it started. */
static void end_read(struct rbt *t, unsigned int leg, u64 ns)
{
	struct rb_io io = rd(0, 8, all_legs(t->set.nr_legs));

	io.start_ns = shim_now_ns - ns;
	t->pol.type->end_io(&t->pol, &t->legs[leg], &io, ns);
}

static void test_defaults(void **state)
{
	struct rbt t;

	setup(&t, 3);
	assert_string_equal(t.pol.type->knobs[0], "base_weight");
	assert_string_equal(t.pol.type->knobs[1], "threshold_multiplier");
	assert_null(t.pol.type->knobs[2]);
	assert_string_equal(knob_show(&t, "base_weight"), "972");
	assert_string_equal(knob_show(&t, "threshold_multiplier"), "0");
	assert_true(hleg(&t, 2)->hst == HST_FIXED_1);
	assert_null(t.pol.type->start_io);
	rbt_teardown(&t);
}

static void test_fixed_point(void **state)
{
	assert_int_equal(hst_fixed_power(972, 0), 1024);
	assert_int_equal(hst_fixed_power(972, 1), 972);
	assert_int_equal(hst_fixed_power(512, 2), 256);
	assert_int_equal(hst_fixed_power(512, 10), 1);
	/* the weight falls with the sample's length, in ~16.8 ms buckets */
	assert_int_equal(hst_weight(972, 0), 972);
	assert_int_equal(hst_weight(972, (1 << 24) - 1), 972);
	assert_int_equal(hst_weight(972, 1 << 24), hst_fixed_power(972, 2));
	assert_int_equal(hst_weight(972, 62ULL << 24),
			 hst_fixed_power(972, 63));
	assert_int_equal(hst_weight(972, 63ULL << 24), 0);
	assert_int_equal(hst_weight(972, ~0ULL), 0);
	assert_int_equal(hst_weight(0, 5), 0);
	assert_int_equal(hst_fixed_ema(1000, 2000, 512), 1500);
	assert_int_equal(hst_fixed_ema(1000, 2000, 1024), 1000);
	assert_int_equal(hst_fixed_ema(1000, 2000, 0), 2000);
}

/* end_io: EWMA of the service time, weight 972/1024 for short samples. */
static void test_ewma(void **state)
{
	struct rbt t;
	u64 h;

	setup(&t, 2);
	hleg(&t, 0)->hst = (100 * US) << HST_FIXED_SHIFT;
	end_read(&t, 0, 200 * US);
	h = (((100 * US) << 10) * 972 + ((200 * US) << 10) * 52 + 512) >> 10;
	assert_true(hleg(&t, 0)->hst == h);
	assert_true(hleg(&t, 0)->last_finish == NOW);
	/* fresh for #legs estimates */
	assert_true(hleg(&t, 0)->stale_after == NOW + 2 * (h >> 10));

	/* base_weight 0: the last sample only */
	assert_int_equal(knob_set(&t, "base_weight", "0"), 0);
	shim_now_ns += MS;
	end_read(&t, 0, 7 * US);
	assert_true(hleg(&t, 0)->hst == (7 * US) << 10);
	rbt_teardown(&t);
}

/* Reads queued behind one another: each counts from the previous end. */
static void test_serialised_service_time(void **state)
{
	struct rbt t;

	setup(&t, 2);
	assert_int_equal(knob_set(&t, "base_weight", "0"), 0);
	end_read(&t, 1, 300 * US);
	shim_now_ns += 100 * US;
	end_read(&t, 1, 400 * US);	/* started before the last ended */
	assert_true(hleg(&t, 1)->hst == (100 * US) << 10);
	shim_now_ns += 1 * MS;
	end_read(&t, 1, 50 * US);	/* started after: its own time */
	assert_true(hleg(&t, 1)->hst == (50 * US) << 10);
	/* a read that took no time */
	end_read(&t, 1, 0);
	assert_true(hleg(&t, 1)->hst == 0);
	rbt_teardown(&t);
}

/* Lowest (1 + in flight) * estimate wins. */
static void test_estimate(void **state)
{
	struct rbt t;

	setup(&t, 3);
	leg_state(&t, 0, 100 * US, 2, FRESH);	/* 300 */
	leg_state(&t, 1, 50 * US, 4, FRESH);	/* 250 */
	leg_state(&t, 2, 400 * US, 1, FRESH);	/* 800 */
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	inflight(&t, 1, 6);			/* 350 */
	assert_int_equal(sel(&t, 0, 8, ALL3), 0);
	/* equal in flight: the lower estimate, however close */
	leg_state(&t, 2, 99 * US, 2, FRESH);
	assert_int_equal(sel(&t, 0, 8, ALL3), 2);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	rbt_teardown(&t);
}

/* An idle stale leg gets one read, however slow it looked. */
static void test_stale_probe(void **state)
{
	struct rbt t;

	setup(&t, 2);
	leg_state(&t, 0, 10 * US, 1, FRESH);
	leg_state(&t, 1, 100 * MS, 0, NOW - 1);	/* idle, stale */
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	inflight(&t, 1, 1);			/* the probe is out */
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	/* fresh again and idle: the estimate decides (20 us < 100 ms) */
	leg_state(&t, 1, 100 * MS, 0, FRESH);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	rbt_teardown(&t);
}

/* Two idle legs: the more stale one (earlier stale_after). */
static void test_both_idle(void **state)
{
	struct rbt t;

	setup(&t, 2);
	leg_state(&t, 0, 10 * US, 0, FRESH + 5);
	leg_state(&t, 1, 900 * US, 0, FRESH);
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	leg_state(&t, 1, 900 * US, 0, FRESH + 9);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	rbt_teardown(&t);
}

/* A stale leg that would win while busy only gets an equal share. */
static void test_stale_winner_limited(void **state)
{
	struct rbt t;

	setup(&t, 2);
	leg_state(&t, 0, 1 * MS, 1, FRESH);		/* 2 ms */
	leg_state(&t, 1, 10 * US, 3, NOW - 1);		/* 40 us, stale */
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);	/* 1 < 3 in flight */
	inflight(&t, 0, 4);
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	rbt_teardown(&t);
}

/* Estimates within threshold_multiplier: reads in flight alone decide. */
static void test_threshold(void **state)
{
	struct rbt t;

	setup(&t, 2);
	leg_state(&t, 0, 100 * US, 1, FRESH);	/* 200 */
	leg_state(&t, 1, 150 * US, 2, FRESH);	/* 450 */
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	inflight(&t, 0, 3);			/* 400 < 450 */
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	assert_int_equal(knob_set(&t, "threshold_multiplier", "2"), 0);
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);	/* 2 < 3 in flight */
	leg_state(&t, 1, 250 * US, 2, FRESH);	/* 2.5x: estimates again */
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	/* a product past 64 bits is never over the threshold */
	assert_int_equal(knob_set(&t, "threshold_multiplier", "4294967295"),
			 0);
	hleg(&t, 0)->hst = ~0ULL >> 1;
	hleg(&t, 1)->hst = ~0ULL;
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);	/* 2 < 3 in flight */
	rbt_teardown(&t);
}

/*
 * Legs are compared least recently chosen first and a later leg wins an
 * exact tie, so the tie goes to the most recently chosen (dm-ps-hst's
 * list tail).
 */
static void test_ties(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, 3);
	for (i = 0; i < 3; i++)
		leg_state(&t, i, 100 * US, 1, FRESH);
	assert_int_equal(sel(&t, 0, 8, ALL3), 2);
	assert_int_equal(sel(&t, 0, 8, ALL3), 2);
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	assert_int_equal(sel(&t, 0, 8, 0x5), 2);
	assert_int_equal(sel(&t, 0, 8, ALL3), 2);
	rbt_teardown(&t);
}

static void test_skips_ineligible(void **state)
{
	struct rbt t;

	setup(&t, 3);
	leg_state(&t, 0, 10 * US, 0, NOW - 1);
	leg_state(&t, 1, 900 * US, 5, FRESH);
	leg_state(&t, 2, 900 * US, 7, FRESH);
	assert_int_equal(sel(&t, 0, 8, ALL3), 0);
	assert_int_equal(sel(&t, 0, 8, 0x6), 1);
	assert_int_equal(sel(&t, 0, 8, 0x4), 2);
	rbt_teardown(&t);
}

static void test_extremes(void **state)
{
	struct rbt t;
	unsigned int i;

	setup(&t, RB_MAX_LEGS);
	for (i = 0; i < RB_MAX_LEGS; i++)
		leg_state(&t, i, 1ULL << 40, INT_MAX, FRESH);
	inflight(&t, 7, 1000);		/* the others count as 2^19 */
	assert_int_equal(sel(&t, 0, 8, all_legs(RB_MAX_LEGS)), 7);
	/* an hour-long service time is capped, the EWMA stays sane */
	assert_int_equal(knob_set(&t, "base_weight", "0"), 0);
	shim_now_ns = ~0ULL >> 1;
	end_read(&t, 3, 3600ULL * 1000 * MS);
	assert_true(hleg(&t, 3)->hst == HST_MAX_SAMPLE_NS << HST_FIXED_SHIFT);
	rbt_teardown(&t);
}

static void test_knobs(void **state)
{
	struct rbt t;

	setup(&t, 2);
	assert_int_equal(knob_set(&t, "base_weight", "1023"), 0);
	assert_string_equal(knob_show(&t, "base_weight"), "1023");
	assert_int_equal(knob_set(&t, "base_weight", "1024"), -EINVAL);
	assert_string_equal(knob_show(&t, "base_weight"), "1023");
	assert_int_equal(knob_set(&t, "threshold_multiplier", "3"), 0);
	assert_string_equal(knob_show(&t, "threshold_multiplier"), "3");
	assert_int_equal(knob_set(&t, "threshold_multiplier", "-1"), -EINVAL);
	assert_string_equal(knob_show(&t, "threshold_multiplier"), "3");
	rbt_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_fixed_point),
		cmocka_unit_test(test_ewma),
		cmocka_unit_test(test_serialised_service_time),
		cmocka_unit_test(test_estimate),
		cmocka_unit_test(test_stale_probe),
		cmocka_unit_test(test_both_idle),
		cmocka_unit_test(test_stale_winner_limited),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_skips_ineligible),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_knobs),
	};

	return cmocka_run_group_tests_name("hst", tests, NULL, NULL);
}
