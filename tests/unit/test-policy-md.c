// SPDX-License-Identifier: GPL-2.0
/* Policy "md" (md raid1's read_balance()): white box, sees its context. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-md.c"

#define ALL3	0x7UL

/* What the core does around select: route a read and start it. */
static unsigned int route(struct rbt *t, sector_t sector, unsigned int n,
			  unsigned long eligible)
{
	struct rb_io io = rd(sector, n, eligible);
	unsigned int leg = sel(t, sector, n, eligible);

	atomic_set(&t->legs[leg].inflight,
		   atomic_read(&t->legs[leg].inflight) + 1);
	t->legs[leg].last_end = sector + n;
	t->pol.type->start_io(&t->pol, &t->legs[leg], &io);
	return leg;
}

/* ... and end it. */
static void finish(struct rbt *t, unsigned int leg, sector_t sector,
		   unsigned int n)
{
	struct rb_io io = rd(sector, n, ALL3);

	atomic_set(&t->legs[leg].inflight,
		   atomic_read(&t->legs[leg].inflight) - 1);
	t->pol.type->end_io(&t->pol, &t->legs[leg], &io, 1000);
}

static struct md_leg *mdleg(struct rbt *t, unsigned int leg)
{
	struct md_ctx *ctx = t->pol.context;

	return &ctx->leg[leg];
}

static void test_defaults(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 3, 0);
	assert_string_equal(t.pol.type->knobs[0], "io_opt");
	assert_null(t.pol.type->knobs[1]);
	assert_string_equal(knob_show(&t, "io_opt"), "0");
	assert_true(mdleg(&t, 2)->seq_start == MD_MAX_SECTOR);
	assert_true(mdleg(&t, 2)->head_position == 0);
	rbt_teardown(&t);
}

/* A read where a leg's last read ended stays there, however busy. */
static void test_sequential_sticks(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 3, 0x4);
	inflight(&t, 1, 50);
	t.legs[1].last_end = 800;
	assert_int_equal(sel(&t, 800, 8, ALL3), 1);
	/* not sequential: least pending (a non-rotational leg exists) */
	assert_int_equal(sel(&t, 808, 8, ALL3), 0);
	/* the first sequential leg in index order wins */
	t.legs[2].last_end = 800;
	assert_int_equal(sel(&t, 800, 8, ALL3), 1);
	rbt_teardown(&t);
}

/* The head position (end of the last completed read) also counts. */
static void test_head_position_sticks(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 3, 0);
	inflight(&t, 0, 1);
	inflight(&t, 1, 1);
	inflight(&t, 2, 1);
	assert_int_equal(route(&t, 5000, 8, 0x4), 2);
	t.legs[2].last_end = 0;		/* another policy's read since */
	finish(&t, 2, 5000, 8);
	assert_true(mdleg(&t, 2)->head_position == 5008);
	assert_int_equal(sel(&t, 5008, 8, ALL3), 2);
	rbt_teardown(&t);
}

static void test_least_pending_with_nonrot(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 3, 0x1);
	t.legs[0].last_end = t.legs[1].last_end = t.legs[2].last_end = 1;
	mdleg(&t, 0)->head_position = 1;
	mdleg(&t, 1)->head_position = 1;
	mdleg(&t, 2)->head_position = 1;
	inflight(&t, 0, 3);
	inflight(&t, 1, 2);
	inflight(&t, 2, 2);
	assert_int_equal(sel(&t, 9000, 8, ALL3), 1);	/* ties: lowest */
	inflight(&t, 1, 4);
	assert_int_equal(sel(&t, 9000, 8, ALL3), 2);
	assert_int_equal(sel(&t, 9000, 8, 0x3), 0);
	rbt_teardown(&t);
}

/* All rotational, every leg busy: the nearest head, whatever the load. */
static void test_nearest_head_all_rotational(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 3, 0);
	t.legs[0].last_end = t.legs[1].last_end = t.legs[2].last_end = 1;
	mdleg(&t, 0)->head_position = 1000;
	mdleg(&t, 1)->head_position = 100000;
	mdleg(&t, 2)->head_position = 50000;
	inflight(&t, 0, 1);
	inflight(&t, 1, 9);
	inflight(&t, 2, 1);
	assert_int_equal(sel(&t, 90000, 8, ALL3), 1);
	assert_int_equal(sel(&t, 1200, 8, ALL3), 0);
	assert_int_equal(sel(&t, 60000, 8, ALL3), 2);
	/* behind the head counts the same: |distance| */
	assert_int_equal(sel(&t, 99000, 8, 0x5), 2);
	/* equal distances: the lowest leg */
	mdleg(&t, 2)->head_position = 1000;
	assert_int_equal(sel(&t, 1500, 8, 0x6), 2);
	assert_int_equal(sel(&t, 1500, 8, ALL3), 0);
	rbt_teardown(&t);
}

/* All rotational with an idle leg: least pending beats nearest. */
static void test_idle_leg_all_rotational(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 3, 0);
	t.legs[0].last_end = t.legs[1].last_end = t.legs[2].last_end = 1;
	mdleg(&t, 0)->head_position = 1000;
	mdleg(&t, 2)->head_position = 900000;
	inflight(&t, 0, 2);
	inflight(&t, 1, 1);
	assert_int_equal(sel(&t, 1000 + 8, 8, ALL3), 2);
	rbt_teardown(&t);
}

/* start_io keeps md's run bookkeeping; a jump starts a new run. */
static void test_run_bookkeeping(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 2, 0x3);
	/* as in md: a run from sector 0 continues the initial next_seq 0 */
	assert_int_equal(route(&t, 0, 128, 0x3), 0);
	assert_true(mdleg(&t, 0)->seq_start == MD_MAX_SECTOR);
	t.legs[0].last_end = 0;
	inflight(&t, 0, 0);
	assert_int_equal(route(&t, 1024, 128, 0x3), 0);
	assert_true(mdleg(&t, 0)->seq_start == 1024);
	assert_int_equal(route(&t, 1152, 128, 0x3), 0);
	assert_true(mdleg(&t, 0)->seq_start == 1024);
	assert_true(mdleg(&t, 0)->next_seq_sect == 1280);
	t.legs[0].last_end = 4096;	/* pretend it got there */
	assert_int_equal(route(&t, 4096, 8, 0x3), 0);
	assert_true(mdleg(&t, 0)->seq_start == 4096);
	assert_true(mdleg(&t, 0)->next_seq_sect == 4104);
	rbt_teardown(&t);
}

/* io_opt set: a long run on a non-rotational leg spills to an idle leg. */
static void test_spill_to_idle(void **state)
{
	struct rbt t;
	sector_t s = 1024;

	rbt_setup(&t, "md", 3, 0x7);
	assert_int_equal(knob_set(&t, "io_opt", "131072"), 0); /* 256 sect. */
	/* the run stays on leg 0 until it is io_opt long */
	assert_int_equal(route(&t, s, 128, ALL3), 0);
	s += 128;
	assert_int_equal(route(&t, s, 128, ALL3), 0);
	s += 128;
	/* 256 sectors read: an idle leg takes the next */
	inflight(&t, 1, 1);
	assert_int_equal(route(&t, s, 128, ALL3), 2);
	s += 128;
	/* leg 2 runs now; leg 0 is busy, leg 1 is busy: the run goes on */
	inflight(&t, 0, 1);
	assert_int_equal(route(&t, s, 128, ALL3), 2);
	s += 128;
	assert_int_equal(route(&t, s, 128, ALL3), 2);
	s += 128;
	/* no idle leg: the run continues though it is long */
	assert_int_equal(route(&t, s, 128, ALL3), 2);
	s += 128;
	/* an idle leg appears: it takes over */
	inflight(&t, 1, 0);
	assert_int_equal(route(&t, s, 128, ALL3), 1);
	rbt_teardown(&t);
}

/* io_opt 0 (6.1 with any device without io_opt), or rotational: no spill */
static void test_no_spill(void **state)
{
	struct rbt t;
	sector_t s;

	rbt_setup(&t, "md", 2, 0x3);
	for (s = 1024; s < 100 * 128; s += 128)
		assert_int_equal(route(&t, s, 128, 0x3), 0);
	rbt_teardown(&t);

	rbt_setup(&t, "md", 2, 0);
	assert_int_equal(knob_set(&t, "io_opt", "4096"), 0);
	for (s = 1024; s < 100 * 128; s += 128)
		assert_int_equal(route(&t, s, 128, 0x3), 0);
	rbt_teardown(&t);
}

static void test_skips_ineligible(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 3, 0x4);
	t.legs[0].last_end = 64;
	inflight(&t, 2, 1);
	assert_int_equal(sel(&t, 64, 8, 0x6), 1);
	assert_int_equal(sel(&t, 64, 8, 0x4), 2);
	assert_int_equal(sel(&t, 64, 8, 0x5), 0);
	rbt_teardown(&t);
}

static void test_extremes(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", RB_MAX_LEGS, 0);
	inflight(&t, 0, INT_MAX);
	mdleg(&t, RB_MAX_LEGS - 1)->head_position = ~(sector_t)0 - 8;
	assert_int_equal(sel(&t, ~(sector_t)0 - 16, 8,
			     all_legs(RB_MAX_LEGS)), 1);
	rbt_teardown(&t);

	rbt_setup(&t, "md", 2, 0x3);
	assert_int_equal(knob_set(&t, "io_opt", "512"), 0);
	t.legs[0].last_end = 8;
	mdleg(&t, 0)->seq_start = 0;
	inflight(&t, 0, INT_MAX);	/* pending + 1 must not wrap */
	inflight(&t, 1, INT_MAX);
	assert_int_equal(sel(&t, 8, 8, 0x3), 0);
	rbt_teardown(&t);
}

static void test_knobs(void **state)
{
	struct rbt t;

	rbt_setup(&t, "md", 2, 0);
	assert_int_equal(knob_set(&t, "io_opt", "1048576"), 0);
	assert_string_equal(knob_show(&t, "io_opt"), "1048576");
	assert_int_equal(knob_set(&t, "io_opt", "4294966784"), 0);
	assert_int_equal(knob_set(&t, "io_opt", "1000"), -EINVAL);
	assert_int_equal(knob_set(&t, "io_opt", "-512"), -EINVAL);
	assert_int_equal(knob_set(&t, "io_opt", "4294967296"), -EINVAL);
	assert_string_equal(knob_show(&t, "io_opt"), "4294966784");
	assert_int_equal(knob_set(&t, "io_opt", "0"), 0);
	assert_string_equal(knob_show(&t, "io_opt"), "0");
	rbt_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_sequential_sticks),
		cmocka_unit_test(test_head_position_sticks),
		cmocka_unit_test(test_least_pending_with_nonrot),
		cmocka_unit_test(test_nearest_head_all_rotational),
		cmocka_unit_test(test_idle_leg_all_rotational),
		cmocka_unit_test(test_run_bookkeeping),
		cmocka_unit_test(test_spill_to_idle),
		cmocka_unit_test(test_no_spill),
		cmocka_unit_test(test_skips_ineligible),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_knobs),
	};

	return cmocka_run_group_tests_name("md", tests, NULL, NULL);
}
