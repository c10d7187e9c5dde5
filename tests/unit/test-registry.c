// SPDX-License-Identifier: GPL-2.0
/* The registry, the knob helpers, and what every policy type must honour. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"

static const char *const expected[] = {
	"pid", "roundrobin", "latency", "device", "round-robin",
	"md", "zfs", "hst", "adaptive",
};

static unsigned int nr_types(void)
{
	unsigned int n = 0;

	while (rb_policy_type_at(n))
		n++;
	return n;
}

static void test_find(void **state)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(expected); i++) {
		const struct rb_policy_type *t = rb_policy_find(expected[i]);

		assert_non_null(t);
		assert_string_equal(t->name, expected[i]);
	}
	assert_null(rb_policy_find(""));
	assert_null(rb_policy_find("round"));
	assert_null(rb_policy_find("Roundrobin"));
	assert_null(rb_policy_find("pid "));
}

static void test_types_complete(void **state)
{
	unsigned int i, j, k, n = nr_types();

	assert_int_equal(n, ARRAY_SIZE(expected));
	assert_null(rb_policy_type_at(n + 1));
	assert_null(rb_policy_type_at(UINT_MAX));
	for (i = 0; i < n; i++) {
		const struct rb_policy_type *t = rb_policy_type_at(i);
		unsigned int nk = rb_policy_nr_knobs(t);

		assert_non_null(t->name);
		assert_true(t->name[0]);
		assert_ptr_equal(rb_policy_find(t->name), t);
		for (j = 0; j < i; j++)
			assert_string_not_equal(rb_policy_type_at(j)->name,
						t->name);
		assert_non_null(t->create);
		assert_non_null(t->destroy);
		assert_non_null(t->select);
		/* knobs if and only if both set_knob and show_knob */
		assert_int_equal(nk > 0, t->set_knob != NULL);
		assert_int_equal(nk > 0, t->show_knob != NULL);
		for (j = 0; j < nk; j++) {
			assert_true(t->knobs[j][0]);
			assert_int_equal(rb_policy_knob_index(t, t->knobs[j]),
					 j);
			for (k = 0; k < j; k++)
				assert_string_not_equal(t->knobs[k],
							t->knobs[j]);
		}
		assert_int_equal(rb_policy_knob_index(t, "no_such_knob"),
				 -EINVAL);
		assert_int_equal(rb_policy_knob_index(t, ""), -EINVAL);
	}
}

static void test_nr_knobs(void **state)
{
	assert_int_equal(rb_policy_nr_knobs(rb_policy_find("pid")), 0);
	assert_int_equal(rb_policy_nr_knobs(rb_policy_find("latency")), 0);
	assert_int_equal(rb_policy_nr_knobs(rb_policy_find("roundrobin")), 3);
	assert_int_equal(rb_policy_nr_knobs(rb_policy_find("device")), 1);
	assert_int_equal(rb_policy_nr_knobs(rb_policy_find("round-robin")), 1);
	assert_int_equal(rb_policy_nr_knobs(rb_policy_find("adaptive")), 5);
}

/* Every policy: show -> set gives the same value, and a bad set is refused. */
static void test_knob_round_trip_all(void **state)
{
	unsigned int i, j;
	char before[128], after[128];

	for (i = 0; rb_policy_type_at(i); i++) {
		const struct rb_policy_type *type = rb_policy_type_at(i);
		struct rbt t;
		char *error;

		rbt_setup(&t, type->name, 3, 0);
		for (j = 0; j < rb_policy_nr_knobs(type); j++) {
			type->show_knob(&t.pol, j, before, sizeof(before));
			error = NULL;
			assert_int_equal(type->set_knob(&t.pol, j, before,
							&error), 0);
			type->show_knob(&t.pol, j, after, sizeof(after));
			assert_string_equal(before, after);
			assert_int_equal(type->set_knob(&t.pol, j, "junk",
							&error), -EINVAL);
			assert_non_null(error);
			type->show_knob(&t.pol, j, after, sizeof(after));
			assert_string_equal(before, after);
		}
		if (type->set_knob) {
			error = NULL;
			assert_int_equal(type->set_knob(&t.pol, j, "0",
							&error), -EINVAL);
			assert_non_null(error);
			assert_int_equal(type->show_knob(&t.pol, j, after,
							 sizeof(after)),
					 -EINVAL);
		}
		rbt_teardown(&t);
	}
}

/*
 * Every policy, every eligible set of 4 legs, several leg states: the leg
 * chosen is always eligible (a failed leg is never read).
 */
static void test_only_eligible_all(void **state)
{
	unsigned int i, s, cpu, r;
	unsigned long mask;

	for (i = 0; rb_policy_type_at(i); i++) {
		const struct rb_policy_type *type = rb_policy_type_at(i);
		struct rbt t;

		rbt_setup(&t, type->name, 4, 0x5);
		for (s = 0; s < 4; s++) {
			inflight(&t, 0, s == 1 ? QD : 0);
			inflight(&t, 1, s == 2 ? INT_MAX : 1);
			inflight(&t, 2, s == 3 ? 0 : QD + 5);
			inflight(&t, 3, s);
			shim_disk_wait_ns[0] = s == 1 ? 0 : 1000;
			shim_disk_wait_ns[1] = s == 2 ? U64_MAX : 10;
			for (mask = 1; mask < 16; mask++)
				for (cpu = 0; cpu < SHIM_NR_CPUS; cpu++)
					for (r = 0; r < 9; r++) {
						shim_cpu = cpu;
						shim_current.pid = r + cpu;
						sel(&t, r * 8 * s, 8 * r + 1,
						    mask);
					}
		}
		shim_cpu = 0;
		rbt_teardown(&t);
	}
}

/* A policy whose create fails allocates nothing; one that works frees all. */
static void test_create_enomem(void **state)
{
	unsigned int i, at;

	for (i = 0; rb_policy_type_at(i); i++) {
		const struct rb_policy_type *type = rb_policy_type_at(i);
		struct rbt t;
		int r;

		for (at = 1; at <= 3; at++) {
			shim_live_allocs = 0;
			rbt_init_set(&t, 2, 0);
			t.pol.type = type;
			shim_fail_alloc_in = at;
			r = type->create(&t.pol);
			if (r) {
				assert_int_equal(r, -ENOMEM);
				assert_int_equal(shim_live_allocs, 0);
			} else {
				type->destroy(&t.pol);
				assert_int_equal(shim_live_allocs, 0);
			}
			shim_fail_alloc_in = 0;
		}
	}
}

static void test_parse_uint(void **state)
{
	static const struct {
		const char *s;
		int r;
		unsigned int v;
	} cases[] = {
		{ "0", 0, 0 }, { "7", 0, 7 }, { "1000", 0, 1000 },
		{ "+5", 0, 5 }, { "5\n", 0, 5 }, { "007", 0, 7 },
		{ "1001", -EINVAL, 0 }, { "", -EINVAL, 0 },
		{ "1x", -EINVAL, 0 }, { "x1", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 }, { "-0", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 }, { "1 ", -EINVAL, 0 },
		{ "1\n\n", -EINVAL, 0 }, { "0x10", -EINVAL, 0 },
		{ "4294967295", -EINVAL, 0 }, { "4294967296", -EINVAL, 0 },
		{ "99999999999999999999", -EINVAL, 0 }, { "+", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
	};
	unsigned int i, v;
	char *error;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		v = 12345;
		error = NULL;
		assert_int_equal(rb_policy_parse_uint(cases[i].s, 0, 1000, &v,
						      &error), cases[i].r);
		if (cases[i].r) {
			assert_non_null(error);
			assert_int_equal(v, 12345);	/* untouched */
		} else {
			assert_int_equal(v, cases[i].v);
		}
	}
	/* bounds are inclusive, and the full range is usable */
	assert_int_equal(rb_policy_parse_uint("3", 3, 3, &v, &error), 0);
	assert_int_equal(rb_policy_parse_uint("2", 3, 3, &v, &error), -EINVAL);
	assert_int_equal(rb_policy_parse_uint("4", 3, 3, &v, &error), -EINVAL);
	assert_int_equal(rb_policy_parse_uint("4294967295", 0, UINT_MAX, &v,
					      &error), 0);
	assert_int_equal(v, UINT_MAX);
}

static void test_first_next_leg(void **state)
{
	assert_int_equal(rb_first_leg(0x1), 0);
	assert_int_equal(rb_first_leg(0x6), 1);
	assert_int_equal(rb_first_leg(1UL << (RB_MAX_LEGS - 1)),
			 RB_MAX_LEGS - 1);

	assert_int_equal(rb_next_leg(0x7, 0, 3), 1);
	assert_int_equal(rb_next_leg(0x7, 2, 3), 0);	/* wraps */
	assert_int_equal(rb_next_leg(0x5, 0, 3), 2);	/* skips leg 1 */
	assert_int_equal(rb_next_leg(0x5, 2, 3), 0);
	assert_int_equal(rb_next_leg(0x2, 1, 3), 1);	/* only itself */
	assert_int_equal(rb_next_leg(0x1, 1, 3), 0);
	assert_int_equal(rb_next_leg(0x8001, 0, 16), 15);
	assert_int_equal(rb_next_leg(0x8001, 15, 16), 0);
}

static void test_least_inflight(void **state)
{
	struct rbt t;

	rbt_init_set(&t, 4, 0);
	inflight(&t, 0, 3);
	inflight(&t, 1, 1);
	inflight(&t, 2, 1);
	inflight(&t, 3, 0);
	assert_int_equal(rb_least_inflight(&t.set, 0xf), 3);
	/* ties go to the lower index */
	assert_int_equal(rb_least_inflight(&t.set, 0x7), 1);
	assert_int_equal(rb_least_inflight(&t.set, 0x5), 2);
	assert_int_equal(rb_least_inflight(&t.set, 0x1), 0);
	/* full counters: still a leg of the mask, the lowest on a tie */
	inflight(&t, 0, INT_MAX);
	inflight(&t, 1, INT_MAX);
	inflight(&t, 2, INT_MAX - 1);
	assert_int_equal(rb_least_inflight(&t.set, 0x3), 0);
	assert_int_equal(rb_least_inflight(&t.set, 0x6), 2);
	assert_int_equal(rb_least_inflight(&t.set, 0x2), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_types_complete),
		cmocka_unit_test(test_nr_knobs),
		cmocka_unit_test(test_knob_round_trip_all),
		cmocka_unit_test(test_only_eligible_all),
		cmocka_unit_test(test_create_enomem),
		cmocka_unit_test(test_parse_uint),
		cmocka_unit_test(test_first_next_leg),
		cmocka_unit_test(test_least_inflight),
	};

	return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
