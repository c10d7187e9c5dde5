// SPDX-License-Identifier: GPL-2.0
/* Policy "roundrobin" (Rostecki's btrfs RFC): white box, sees its context. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-roundrobin.c"

#define ALL3	0x7UL

static unsigned int last_leg(struct rbt *t, unsigned int cpu)
{
	struct roundrobin_ctx *ctx = t->pol.context;

	return *per_cpu_ptr(ctx->last_leg, cpu);
}

static void test_defaults(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0);
	assert_string_equal(t.pol.type->knobs[0], "nonlocal_inc_mixed_only");
	assert_string_equal(t.pol.type->knobs[1], "rot_nonlocal_inc");
	assert_string_equal(t.pol.type->knobs[2], "nonrot_nonlocal_inc");
	assert_null(t.pol.type->knobs[3]);
	assert_string_equal(knob_show(&t, "nonlocal_inc_mixed_only"), "1");
	assert_string_equal(knob_show(&t, "rot_nonlocal_inc"), "1");
	assert_string_equal(knob_show(&t, "nonrot_nonlocal_inc"), "0");
	rbt_teardown(&t);
}

/* The search starts at the last leg itself: an idle mirror stays on it. */
static void test_sticks_to_last(void **state)
{
	struct rbt t;
	int i;

	rbt_setup(&t, "roundrobin", 3, 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(sel(&t, i * 8, 8, ALL3), 0);
	inflight(&t, 0, QD);			/* leg 0 full */
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	assert_int_equal(last_leg(&t, 0), 1);
	inflight(&t, 0, 0);			/* free again: stay on 1 */
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	inflight(&t, 1, QD - 1);		/* one slot left is room */
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	rbt_teardown(&t);
}

static void test_wraps_around(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0);
	inflight(&t, 0, QD);
	inflight(&t, 1, QD);
	assert_int_equal(sel(&t, 0, 8, ALL3), 2);
	inflight(&t, 2, QD);
	inflight(&t, 0, 0);
	assert_int_equal(sel(&t, 0, 8, ALL3), 0);
	assert_int_equal(last_leg(&t, 0), 0);
	rbt_teardown(&t);
}

static void test_per_cpu_last(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0);
	inflight(&t, 0, QD);
	shim_cpu = 0;
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	shim_cpu = 2;
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	inflight(&t, 0, 0);
	shim_cpu = 1;			/* never moved: starts at 0 */
	assert_int_equal(sel(&t, 0, 8, ALL3), 0);
	shim_cpu = 0;
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	assert_int_equal(last_leg(&t, 0), 1);
	assert_int_equal(last_leg(&t, 1), 0);
	assert_int_equal(last_leg(&t, 2), 1);
	assert_int_equal(last_leg(&t, 3), 0);
	rbt_teardown(&t);
}

/* No leg has room: the RFC keeps the last leg. */
static void test_all_full(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0);
	inflight(&t, 0, QD);
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	inflight(&t, 1, QD);
	inflight(&t, 2, QD + 100);
	assert_int_equal(sel(&t, 0, 8, ALL3), 1);
	assert_int_equal(last_leg(&t, 0), 1);
	/* ... unless it may not serve the read: the next eligible one */
	assert_int_equal(sel(&t, 0, 8, 0x5), 2);
	assert_int_equal(last_leg(&t, 0), 2);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	rbt_teardown(&t);
}

static void test_skips_ineligible(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0);
	assert_int_equal(sel(&t, 0, 8, 0x6), 1);	/* leg 0 failed */
	assert_int_equal(sel(&t, 0, 8, 0x5), 2);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	assert_int_equal(sel(&t, 0, 8, 0x4), 2);
	rbt_teardown(&t);
}

/* Mixed array (leg 2 non-rotational): a non-local read costs a rot leg 1. */
static void test_penalty_mixed(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0x4);
	assert_true(t.set.mixed);
	inflight(&t, 0, QD - 1);
	t.legs[0].last_end = 100;
	assert_int_equal(sel(&t, 100, 8, ALL3), 0);	/* local: room */
	assert_int_equal(sel(&t, 200, 8, ALL3), 1);	/* non-local: full */
	/* non-rotational legs pay nothing by default */
	inflight(&t, 1, QD);
	inflight(&t, 2, QD - 1);
	assert_int_equal(sel(&t, 200, 8, ALL3), 2);
	rbt_teardown(&t);
}

/* Homogeneous array, mixed_only=1 (default): no penalty at all. */
static void test_no_penalty_homogeneous(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0);
	assert_false(t.set.mixed);
	inflight(&t, 0, QD - 1);
	t.legs[0].last_end = 100;
	assert_int_equal(sel(&t, 200, 8, ALL3), 0);
	rbt_teardown(&t);

	rbt_setup(&t, "roundrobin", 3, ALL3);		/* all flash */
	assert_false(t.set.mixed);
	assert_int_equal(knob_set(&t, "nonrot_nonlocal_inc", "5"), 0);
	inflight(&t, 0, QD - 1);
	assert_int_equal(sel(&t, 200, 8, ALL3), 0);
	rbt_teardown(&t);
}

static void test_mixed_only_off(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0);
	assert_int_equal(knob_set(&t, "nonlocal_inc_mixed_only", "0"), 0);
	inflight(&t, 0, QD - 1);
	t.legs[0].last_end = 100;
	assert_int_equal(sel(&t, 100, 8, ALL3), 0);
	assert_int_equal(sel(&t, 200, 8, ALL3), 1);
	rbt_teardown(&t);
}

static void test_nonrot_inc(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0x1);		/* leg 0 flash */
	assert_int_equal(knob_set(&t, "nonrot_nonlocal_inc", "5"), 0);
	t.legs[0].last_end = 100;
	inflight(&t, 0, QD - 6);
	assert_int_equal(sel(&t, 200, 8, ALL3), 0);
	inflight(&t, 0, QD - 5);
	assert_int_equal(sel(&t, 100, 8, ALL3), 0);	/* local: no cost */
	assert_int_equal(sel(&t, 200, 8, ALL3), 1);
	rbt_teardown(&t);
}

static void test_rot_inc(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 3, 0x4);		/* leg 2 flash */
	assert_int_equal(knob_set(&t, "rot_nonlocal_inc", "0"), 0);
	inflight(&t, 0, QD - 1);
	assert_int_equal(sel(&t, 200, 8, ALL3), 0);
	/* a penalty above the queue depth: rot legs take local reads only */
	assert_int_equal(knob_set(&t, "rot_nonlocal_inc", "1000"), 0);
	inflight(&t, 0, 0);
	assert_int_equal(sel(&t, 200, 8, ALL3), 2);
	t.legs[0].last_end = 300;
	inflight(&t, 2, QD);
	assert_int_equal(sel(&t, 300, 8, ALL3), 0);
	rbt_teardown(&t);
}

/* inflight near INT_MAX plus a penalty must not wrap to "room". */
static void test_inflight_limits(void **state)
{
	struct rbt t;

	rbt_setup(&t, "roundrobin", 2, 0);
	assert_int_equal(knob_set(&t, "nonlocal_inc_mixed_only", "0"), 0);
	assert_int_equal(knob_set(&t, "rot_nonlocal_inc", "1000"), 0);
	inflight(&t, 0, INT_MAX);
	inflight(&t, 1, INT_MAX);
	t.legs[1].queue_depth = UINT_MAX;	/* INT_MAX + 1000 < UINT_MAX */
	assert_int_equal(sel(&t, 8, 8, 0x3), 1);
	t.legs[1].queue_depth = QD;		/* all full: stay */
	assert_int_equal(sel(&t, 8, 8, 0x3), 1);
	rbt_teardown(&t);
}

/* A last leg beyond the set (never stored by select) restarts at 0. */
static void test_stale_last(void **state)
{
	struct rbt t;
	struct roundrobin_ctx *ctx;

	rbt_setup(&t, "roundrobin", 3, 0);
	ctx = t.pol.context;
	*per_cpu_ptr(ctx->last_leg, 0) = 7;
	assert_int_equal(sel(&t, 0, 8, ALL3), 0);
	assert_int_equal(last_leg(&t, 0), 0);
	rbt_teardown(&t);
}

static void test_knobs(void **state)
{
	static const char *const bad[] = {
		"", "1x", "x", "-1", " 1", "1 ", "0x1", "1.0", "4294967296",
	};
	struct rbt t;
	unsigned int i;
	char *error = NULL;

	rbt_setup(&t, "roundrobin", 3, 0);
	assert_int_equal(knob_set(&t, "nonlocal_inc_mixed_only", "0"), 0);
	assert_string_equal(knob_show(&t, "nonlocal_inc_mixed_only"), "0");
	assert_int_equal(knob_set(&t, "nonlocal_inc_mixed_only", "2"),
			 -EINVAL);
	assert_string_equal(knob_show(&t, "nonlocal_inc_mixed_only"), "0");
	assert_int_equal(knob_set(&t, "rot_nonlocal_inc", "1000"), 0);
	assert_int_equal(knob_set(&t, "rot_nonlocal_inc", "1001"), -EINVAL);
	assert_string_equal(knob_show(&t, "rot_nonlocal_inc"), "1000");
	assert_int_equal(knob_set(&t, "nonrot_nonlocal_inc", "7"), 0);
	assert_string_equal(knob_show(&t, "nonrot_nonlocal_inc"), "7");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(knob_set(&t, "rot_nonlocal_inc", bad[i]),
				 -EINVAL);
		assert_string_equal(knob_show(&t, "rot_nonlocal_inc"), "1000");
	}
	/* btrfs's sysfs names are not ours */
	assert_int_equal(knob_set(&t, "roundrobin_rot_nonlocal_inc", "1"),
			 -EINVAL);
	assert_int_equal(t.pol.type->set_knob(&t.pol, 3, "1", &error),
			 -EINVAL);
	assert_non_null(error);
	rbt_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_sticks_to_last),
		cmocka_unit_test(test_wraps_around),
		cmocka_unit_test(test_per_cpu_last),
		cmocka_unit_test(test_all_full),
		cmocka_unit_test(test_skips_ineligible),
		cmocka_unit_test(test_penalty_mixed),
		cmocka_unit_test(test_no_penalty_homogeneous),
		cmocka_unit_test(test_mixed_only_off),
		cmocka_unit_test(test_nonrot_inc),
		cmocka_unit_test(test_rot_inc),
		cmocka_unit_test(test_inflight_limits),
		cmocka_unit_test(test_stale_last),
		cmocka_unit_test(test_knobs),
	};

	return cmocka_run_group_tests_name("roundrobin", tests, NULL, NULL);
}
