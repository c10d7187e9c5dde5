// SPDX-License-Identifier: GPL-2.0
/* Policy "device": preferred legs first, fewest reads in flight among them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-device.c"

static void test_default_leg0(void **state)
{
	struct rbt t;

	rbt_setup(&t, "device", 3, 0);
	assert_string_equal(knob_show(&t, "preferred"), "0");
	inflight(&t, 0, 50);		/* busier, still preferred */
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	rbt_teardown(&t);
}

static void test_least_inflight_among_preferred(void **state)
{
	struct rbt t;

	rbt_setup(&t, "device", 3, 0);
	assert_int_equal(knob_set(&t, "preferred", "0,2"), 0);
	inflight(&t, 0, 5);
	inflight(&t, 1, 0);
	inflight(&t, 2, 3);
	assert_int_equal(sel(&t, 0, 8, 0x7), 2);
	inflight(&t, 2, 5);			/* tie: lower index */
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	assert_int_equal(sel(&t, 0, 8, 0x6), 2);	/* leg 0 failed */
	rbt_teardown(&t);
}

/* No preferred leg eligible: every eligible leg, fewest in flight. */
static void test_fallback(void **state)
{
	struct rbt t;

	rbt_setup(&t, "device", 3, 0);
	inflight(&t, 1, 4);
	inflight(&t, 2, 2);
	assert_int_equal(sel(&t, 0, 8, 0x6), 2);
	inflight(&t, 2, 4);
	assert_int_equal(sel(&t, 0, 8, 0x6), 1);
	assert_int_equal(sel(&t, 0, 8, 0x4), 2);
	rbt_teardown(&t);
}

static void test_none_preferred(void **state)
{
	struct rbt t;

	rbt_setup(&t, "device", 3, 0);
	assert_int_equal(knob_set(&t, "preferred", "-"), 0);
	assert_string_equal(knob_show(&t, "preferred"), "-");
	inflight(&t, 0, 3);
	inflight(&t, 1, 1);
	inflight(&t, 2, 2);
	assert_int_equal(sel(&t, 0, 8, 0x7), 1);
	inflight(&t, 0, INT_MAX);
	inflight(&t, 1, INT_MAX);
	inflight(&t, 2, INT_MAX);
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	assert_int_equal(sel(&t, 0, 8, 0x6), 1);
	rbt_teardown(&t);
}

static void test_parse(void **state)
{
	static const struct {
		const char *in, *out;
	} good[] = {
		{ "0", "0" }, { "2", "2" }, { "0,2", "0,2" }, { "2,0", "0,2" },
		{ "1,0,2", "0,1,2" }, { "-", "-" }, { "00", "0" },
	};
	static const char *const bad[] = {
		"", "3", "0,3", "0,,1", ",0", "0,", "1x", "x", "-1", "+1",
		" 0", "0 ", "0, 1", "0;1", "0,0", "2,1,2", "--", "- ", "-,0",
		"none", "99999999999999999999999", "0x1", "1\n",
	};
	struct rbt t;
	unsigned int i;

	rbt_setup(&t, "device", 3, 0);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		assert_int_equal(knob_set(&t, "preferred", good[i].in), 0);
		assert_string_equal(knob_show(&t, "preferred"), good[i].out);
	}
	assert_int_equal(knob_set(&t, "preferred", "1"), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(knob_set(&t, "preferred", bad[i]), -EINVAL);
		assert_string_equal(knob_show(&t, "preferred"), "1");
	}
	rbt_teardown(&t);
}

static void test_max_legs(void **state)
{
	char all[64];
	struct rbt t;
	unsigned int i;
	int n = 0;

	rbt_setup(&t, "device", RB_MAX_LEGS, 0);
	assert_int_equal(knob_set(&t, "preferred", "15"), 0);
	assert_int_equal(sel(&t, 0, 8, all_legs(RB_MAX_LEGS)), 15);
	assert_int_equal(knob_set(&t, "preferred", "16"), -EINVAL);
	assert_int_equal(knob_set(&t, "preferred", "0,15"), 0);
	inflight(&t, 0, 1);
	assert_int_equal(sel(&t, 0, 8, all_legs(RB_MAX_LEGS)), 15);
	for (i = 0; i < RB_MAX_LEGS; i++)
		n += snprintf(all + n, sizeof(all) - n, "%s%u", i ? "," : "",
			      i);
	assert_int_equal(knob_set(&t, "preferred", all), 0);
	assert_string_equal(knob_show(&t, "preferred"), all);
	rbt_teardown(&t);
}

/* show_knob never writes past @len and says how much it wrote. */
static void test_show_short_buffer(void **state)
{
	char buf[4] = "zzz";
	struct rbt t;

	rbt_setup(&t, "device", 3, 0);
	assert_int_equal(knob_set(&t, "preferred", "0,1,2"), 0);
	assert_int_equal(t.pol.type->show_knob(&t.pol, 0, buf, 3), 2);
	assert_string_equal(buf, "0,");
	assert_int_equal(t.pol.type->show_knob(&t.pol, 0, buf, 0), 0);
	rbt_teardown(&t);
}

static void test_unknown_knob(void **state)
{
	struct rbt t;
	char *error = NULL;
	char buf[8];

	rbt_setup(&t, "device", 3, 0);
	assert_int_equal(t.pol.type->set_knob(&t.pol, 1, "0", &error),
			 -EINVAL);
	assert_non_null(error);
	assert_int_equal(t.pol.type->show_knob(&t.pol, 1, buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(knob_set(&t, "read_preferred", "0"), -EINVAL);
	rbt_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_leg0),
		cmocka_unit_test(test_least_inflight_among_preferred),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_none_preferred),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_max_legs),
		cmocka_unit_test(test_show_short_buffer),
		cmocka_unit_test(test_unknown_knob),
	};

	return cmocka_run_group_tests_name("device", tests, NULL, NULL);
}
