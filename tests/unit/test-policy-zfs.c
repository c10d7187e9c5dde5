// SPDX-License-Identifier: GPL-2.0
/* Policy "zfs" (OpenZFS vdev_mirror load): queue length + locality. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-zfs.c"

#define ALL3	0x7UL
#define MIB	2048	/* sectors */
#define FAR	(1000 * MIB)

/* Park every leg's last read end far from the reads the test makes. */
static void far_away(struct rbt *t)
{
	unsigned int i;

	for (i = 0; i < t->set.nr_legs; i++)
		t->legs[i].last_end = FAR;
}

static void test_defaults(void **state)
{
	static const char *const names[] = {
		"rotating_inc", "rotating_seek_inc", "rotating_seek_offset",
		"non_rotating_inc", "non_rotating_seek_inc",
	};
	static const char *const values[] = { "0", "5", "1048576", "0", "1" };
	struct rbt t;
	unsigned int i;

	rbt_setup(&t, "zfs", 3, 0);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		assert_string_equal(t.pol.type->knobs[i], names[i]);
		assert_string_equal(knob_show(&t, names[i]), values[i]);
	}
	assert_null(t.pol.type->knobs[ARRAY_SIZE(names)]);
	rbt_teardown(&t);
}

/* Same locality everywhere: the shortest queue. */
static void test_queue_length(void **state)
{
	struct rbt t;

	rbt_setup(&t, "zfs", 3, 0);
	far_away(&t);
	inflight(&t, 0, 3);
	inflight(&t, 1, 1);
	inflight(&t, 2, 2);
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	inflight(&t, 1, 4);
	assert_int_equal(sel(&t, 0, 8, ALL3), 2);
	rbt_teardown(&t);
}

/* Rotational: +0 sequential, +5/2 within 1 MiB either way, +5 beyond. */
static void test_rotating_increments(void **state)
{
	struct rbt t;

	rbt_setup(&t, "zfs", 2, 0);
	t.legs[0].last_end = FAR;		/* load 0 + 5 */
	t.legs[1].last_end = 4096;
	inflight(&t, 1, 4);			/* 4 + 0 sequential */
	assert_int_equal(sel(&t, 4096, 8, 0x3), 1);
	inflight(&t, 1, 3);			/* 3 + 2 near: ties */
	assert_int_equal(sel(&t, 4096 + MIB - 1, 8, 0x3),
			 ((4096 + MIB - 1) >> 12) % 2);
	inflight(&t, 1, 2);			/* 2 + 2 near beats 5 */
	assert_int_equal(sel(&t, 4096 + MIB - 1, 8, 0x3), 1);
	assert_int_equal(sel(&t, 4096 - MIB + 1, 8, 0x3), 1);
	/* exactly 1 MiB away is not "within" */
	inflight(&t, 1, 1);			/* 1 + 5 loses to 5 */
	assert_int_equal(sel(&t, 4096 + MIB, 8, 0x3), 0);
	assert_int_equal(sel(&t, 4096 - MIB, 8, 0x3), 0);
	rbt_teardown(&t);
}

/* Non-rotational: +0 sequential, +1 otherwise, however far. */
static void test_non_rotating_increments(void **state)
{
	struct rbt t;

	rbt_setup(&t, "zfs", 2, 0x3);
	t.legs[0].last_end = 100;
	t.legs[1].last_end = 900;
	inflight(&t, 0, 1);			/* 1 + 1 */
	inflight(&t, 1, 1);			/* 1 + 0 */
	assert_int_equal(sel(&t, 900, 8, 0x3), 1);
	assert_int_equal(sel(&t, 100, 8, 0x3), 0);
	inflight(&t, 1, 2);			/* 2 + 0 vs 1 + 1: tie */
	assert_int_equal(sel(&t, 900, 8, 0x3), (900 >> 12) % 2);
	inflight(&t, 1, 3);
	assert_int_equal(sel(&t, 900, 8, 0x3), 0);
	rbt_teardown(&t);
}

/* Ties: (byte offset >> 21) % number of tied legs, in leg order. */
static void test_tie_break_by_offset(void **state)
{
	struct rbt t;
	sector_t s;

	rbt_setup(&t, "zfs", 3, 0);
	far_away(&t);
	for (s = 0; s < 12 * 4096; s += 512)
		assert_int_equal(sel(&t, s, 8, ALL3), (s >> 12) % 3);
	/* one 2 MiB region stays on one leg */
	assert_int_equal(sel(&t, 4096, 8, ALL3), sel(&t, 8191, 8, ALL3));
	/* legs 0 and 2 tied, leg 1 loaded: the tied list is {0, 2} */
	inflight(&t, 1, 1);
	assert_int_equal(sel(&t, 0, 8, ALL3), 0);
	assert_int_equal(sel(&t, 4096, 8, ALL3), 2);
	assert_int_equal(sel(&t, 8192, 8, ALL3), 0);
	rbt_teardown(&t);
}

static void test_skips_ineligible(void **state)
{
	struct rbt t;

	rbt_setup(&t, "zfs", 3, 0);
	far_away(&t);
	t.legs[0].last_end = 64;
	assert_int_equal(sel(&t, 64, 8, 0x6), (64 >> 12) % 2 + 1);
	inflight(&t, 1, 1);
	assert_int_equal(sel(&t, 64, 8, 0x6), 2);
	assert_int_equal(sel(&t, 64, 8, 0x2), 1);
	assert_int_equal(sel(&t, 64, 8, ALL3), 0);
	rbt_teardown(&t);
}

static void test_knobs_change_loads(void **state)
{
	struct rbt t;

	rbt_setup(&t, "zfs", 2, 0);
	t.legs[0].last_end = FAR;
	t.legs[1].last_end = 0;
	inflight(&t, 1, 2);
	assert_int_equal(sel(&t, 16, 8, 0x3), 1);	/* 2 + 2 < 0 + 5 */
	assert_int_equal(knob_set(&t, "rotating_seek_offset", "0"), 0);
	assert_int_equal(sel(&t, 16, 8, 0x3), 0);	/* 2 + 5 > 0 + 5 */
	assert_int_equal(knob_set(&t, "rotating_seek_inc", "100"), 0);
	assert_int_equal(knob_set(&t, "rotating_inc", "99"), 0);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);	/* 2 + 99 > 100 */
	assert_int_equal(knob_set(&t, "rotating_inc", "97"), 0);
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);	/* 2 + 97 < 100 */
	rbt_teardown(&t);

	rbt_setup(&t, "zfs", 2, 0x3);
	t.legs[1].last_end = 8;
	inflight(&t, 1, 1);
	assert_int_equal(knob_set(&t, "non_rotating_seek_inc", "3"), 0);
	assert_int_equal(sel(&t, 8, 8, 0x3), 1);	/* 1 + 0 < 0 + 3 */
	assert_int_equal(knob_set(&t, "non_rotating_inc", "3"), 0);
	assert_int_equal(sel(&t, 8, 8, 0x3), 0);	/* 1 + 3 > 0 + 3 */
	rbt_teardown(&t);
}

static void test_extremes(void **state)
{
	struct rbt t;

	rbt_setup(&t, "zfs", RB_MAX_LEGS, 0);
	far_away(&t);
	for (unsigned int i = 0; i < RB_MAX_LEGS; i++)
		inflight(&t, i, INT_MAX);
	inflight(&t, 9, INT_MAX - 1);
	assert_int_equal(knob_set(&t, "rotating_seek_inc", "1000000"), 0);
	assert_int_equal(sel(&t, 0, 8, all_legs(RB_MAX_LEGS)), 9);
	assert_int_equal(sel(&t, ~(sector_t)0 - 8, 8, all_legs(RB_MAX_LEGS)),
			 9);
	rbt_teardown(&t);

	rbt_setup(&t, "zfs", 2, 0);
	assert_int_equal(knob_set(&t, "rotating_seek_offset", "2147483647"), 0);
	t.legs[0].last_end = ~(sector_t)0;
	t.legs[1].last_end = 0;
	inflight(&t, 1, 3);
	assert_int_equal(sel(&t, ~(sector_t)0 - 4194303, 8, 0x3), 0);
	rbt_teardown(&t);
}

static void test_knobs(void **state)
{
	struct rbt t;

	rbt_setup(&t, "zfs", 2, 0);
	assert_int_equal(knob_set(&t, "rotating_seek_inc", "7"), 0);
	assert_string_equal(knob_show(&t, "rotating_seek_inc"), "7");
	assert_int_equal(knob_set(&t, "rotating_seek_inc", "1000001"), -EINVAL);
	assert_int_equal(knob_set(&t, "rotating_seek_inc", "-1"), -EINVAL);
	assert_string_equal(knob_show(&t, "rotating_seek_inc"), "7");
	assert_int_equal(knob_set(&t, "rotating_seek_offset", "2147483648"),
			 -EINVAL);
	assert_int_equal(knob_set(&t, "rotating_seek_offset", "1000"), 0);
	assert_string_equal(knob_show(&t, "rotating_seek_offset"), "1000");
	assert_int_equal(knob_set(&t, "non_rotating_inc", "x"), -EINVAL);
	assert_string_equal(knob_show(&t, "non_rotating_inc"), "0");
	rbt_teardown(&t);
}

/* rotating_seek_offset need not be a multiple of 512: bytes < offset. */
static void test_offset_in_bytes(void **state)
{
	struct rbt t;

	rbt_setup(&t, "zfs", 2, 0);
	t.legs[0].last_end = FAR;
	t.legs[1].last_end = 0;
	inflight(&t, 1, 2);			/* 2 + 2 near, 2 + 5 far */
	assert_int_equal(knob_set(&t, "rotating_seek_offset", "1025"), 0);
	assert_int_equal(sel(&t, 2, 8, 0x3), 1);	/* 1024 B < 1025 */
	assert_int_equal(sel(&t, 3, 8, 0x3), 0);	/* 1536 B */
	assert_int_equal(knob_set(&t, "rotating_seek_offset", "1024"), 0);
	assert_int_equal(sel(&t, 2, 8, 0x3), 0);	/* 1024 B not < 1024 */
	assert_int_equal(sel(&t, 1, 8, 0x3), 1);
	rbt_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_queue_length),
		cmocka_unit_test(test_rotating_increments),
		cmocka_unit_test(test_non_rotating_increments),
		cmocka_unit_test(test_tie_break_by_offset),
		cmocka_unit_test(test_skips_ineligible),
		cmocka_unit_test(test_knobs_change_loads),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_offset_in_bytes),
	};

	return cmocka_run_group_tests_name("zfs", tests, NULL, NULL);
}
