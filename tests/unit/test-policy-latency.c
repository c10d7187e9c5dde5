// SPDX-License-Identifier: GPL-2.0
/* Policy "latency" (Jain's btrfs RFC): lowest average disk read wait. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-latency.c"

static void waits(u64 w0, u64 w1, u64 w2)
{
	shim_disk_wait_ns[0] = w0;
	shim_disk_wait_ns[1] = w1;
	shim_disk_wait_ns[2] = w2;
}

static void test_lowest_wait(void **state)
{
	struct rbt t;

	rbt_setup(&t, "latency", 3, 0);
	waits(300, 100, 200);
	assert_int_equal(sel(&t, 0, 8, 0x7), 1);
	waits(100, 300, 200);
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	waits(300, 200, 100);
	assert_int_equal(sel(&t, 0, 8, 0x7), 2);
	/* load does not matter, only the disk's average wait */
	inflight(&t, 2, 1000);
	assert_int_equal(sel(&t, 0, 8, 0x7), 2);
	rbt_teardown(&t);
}

static void test_ties_lowest_index(void **state)
{
	struct rbt t;

	rbt_setup(&t, "latency", 3, 0);
	waits(100, 100, 200);
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	waits(300, 100, 100);
	assert_int_equal(sel(&t, 0, 8, 0x7), 1);
	waits(5, 5, 5);
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	assert_int_equal(sel(&t, 0, 8, 0x6), 1);
	rbt_teardown(&t);
}

static void test_skips_ineligible(void **state)
{
	struct rbt t;

	rbt_setup(&t, "latency", 3, 0);
	waits(300, 100, 200);
	assert_int_equal(sel(&t, 0, 8, 0x5), 2);
	assert_int_equal(sel(&t, 0, 8, 0x1), 0);
	waits(100, 300, 1);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	rbt_teardown(&t);
}

/* No statistics yet reads as 0: that leg is tried (the RFC skipped it). */
static void test_unmeasured_leg_tried(void **state)
{
	struct rbt t;

	rbt_setup(&t, "latency", 3, 0);
	waits(100, 0, 50);
	assert_int_equal(sel(&t, 0, 8, 0x7), 1);
	waits(0, 100, 0);
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	rbt_teardown(&t);
}

static void test_extremes(void **state)
{
	struct rbt t;

	rbt_setup(&t, "latency", 3, 0);
	waits(U64_MAX, U64_MAX, U64_MAX);
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	assert_int_equal(sel(&t, 0, 8, 0x6), 1);
	waits(U64_MAX, U64_MAX, U64_MAX - 1);
	assert_int_equal(sel(&t, 0, 8, 0x7), 2);
	rbt_teardown(&t);

	rbt_setup(&t, "latency", RB_MAX_LEGS, 0);
	memset(shim_disk_wait_ns, 0xff, sizeof(shim_disk_wait_ns));
	shim_disk_wait_ns[RB_MAX_LEGS - 1] = 7;
	assert_int_equal(sel(&t, 0, 8, all_legs(RB_MAX_LEGS)),
			 RB_MAX_LEGS - 1);
	rbt_teardown(&t);
}

static void test_no_knobs(void **state)
{
	const struct rb_policy_type *type = rb_policy_find("latency");

	assert_ptr_equal(type, &rb_policy_latency);
	assert_null(type->knobs);
	assert_null(type->set_knob);
	assert_null(type->show_knob);
	assert_int_equal(rb_policy_knob_index(type, "preferred"), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lowest_wait),
		cmocka_unit_test(test_ties_lowest_index),
		cmocka_unit_test(test_skips_ineligible),
		cmocka_unit_test(test_unmeasured_leg_tried),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_no_knobs),
	};

	return cmocka_run_group_tests_name("latency", tests, NULL, NULL);
}
