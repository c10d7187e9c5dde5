// SPDX-License-Identifier: GPL-2.0
/* Policy "round-robin" (btrfs 6.14 btrfs_read_rr): turns by bytes read. */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-round-robin.c"

static atomic64_t *counter(struct rbt *t)
{
	return &((struct round_robin_ctx *)t->pol.context)->sectors;
}

static void test_default(void **state)
{
	struct rbt t;

	rbt_setup(&t, "round-robin", 2, 0);
	assert_string_equal(knob_show(&t, "min_contig_read"), "262144");
	assert_int_equal(atomic64_read(counter(&t)), 0);
	rbt_teardown(&t);
}

/* 64 KiB reads, 256 KiB turns: four reads per leg. */
static void test_turns_two_legs(void **state)
{
	struct rbt t;
	unsigned int i;

	rbt_setup(&t, "round-robin", 2, 0);
	for (i = 0; i < 16; i++)
		assert_int_equal(sel(&t, i * 128, 128, 0x3), (i / 4) % 2);
	assert_int_equal(atomic64_read(counter(&t)), 16 * 128);
	rbt_teardown(&t);
}

static void test_turns_three_legs(void **state)
{
	struct rbt t;
	unsigned int i;

	rbt_setup(&t, "round-robin", 3, 0);
	assert_int_equal(knob_set(&t, "min_contig_read", "4096"), 0);
	for (i = 0; i < 9; i++)
		assert_int_equal(sel(&t, 0, 8, 0x7), i % 3);
	/* load and locality play no part */
	inflight(&t, 0, 1000);
	assert_int_equal(sel(&t, 0, 8, 0x7), 0);
	rbt_teardown(&t);
}

/* The read being routed is not yet counted (btrfs counts at submission). */
static void test_counts_before(void **state)
{
	struct rbt t;

	rbt_setup(&t, "round-robin", 3, 0);
	assert_int_equal(sel(&t, 0, 1024, 0x7), 0);	/* 0 sectors done */
	assert_int_equal(sel(&t, 0, 1024, 0x7), 2);	/* turn 2 */
	assert_int_equal(sel(&t, 0, 1024, 0x7), 1);	/* turn 4 */
	assert_int_equal(sel(&t, 0, 1, 0x7), 0);	/* turn 6 */
	assert_int_equal(sel(&t, 0, 511, 0x7), 0);	/* still turn 6 */
	assert_int_equal(sel(&t, 0, 1, 0x7), 1);	/* turn 7 */
	rbt_teardown(&t);
}

static void test_ineligible_passes_turn(void **state)
{
	static const unsigned int want[] = { 0, 2, 2, 0, 2, 2 };
	struct rbt t;
	unsigned int i;

	rbt_setup(&t, "round-robin", 3, 0);
	assert_int_equal(knob_set(&t, "min_contig_read", "4096"), 0);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		assert_int_equal(sel(&t, 0, 8, 0x5), want[i]);
	assert_int_equal(sel(&t, 0, 8, 0x1), 0);
	assert_int_equal(sel(&t, 0, 8, 0x2), 1);
	assert_int_equal(atomic64_read(counter(&t)), 8 * 8);
	rbt_teardown(&t);
}

/* The u64 count wraps: well defined, the turns carry on from 0. */
static void test_counter_wrap(void **state)
{
	struct rbt t;
	u64 done;
	unsigned int i, n;

	rbt_setup(&t, "round-robin", 2, 0);
	atomic64_set(counter(&t), -256);		/* U64_MAX - 255 */
	assert_int_equal(sel(&t, 0, 128, 0x3), 1);	/* (2^55 - 1) % 2 */
	assert_int_equal(sel(&t, 0, 128, 0x3), 1);
	assert_int_equal(atomic64_read(counter(&t)), 0);
	assert_int_equal(sel(&t, 0, 128, 0x3), 0);
	assert_int_equal(atomic64_read(counter(&t)), 128);
	rbt_teardown(&t);

	for (n = 1; n <= RB_MAX_LEGS; n++) {
		rbt_setup(&t, "round-robin", n, 0);
		assert_int_equal(knob_set(&t, "min_contig_read", "4096"), 0);
		done = U64_MAX - 40;
		atomic64_set(counter(&t), done);
		for (i = 0; i < 12; i++, done += 7)
			assert_int_equal(sel(&t, 0, 7, all_legs(n)),
					 (done / 8) % n);
		rbt_teardown(&t);
	}
}

static void test_knob(void **state)
{
	static const char *const bad[] = {
		"0", "1", "511", "513", "262145", "4294967295", "4294967296",
		"", "1x", "-512", " 512", "512 ", "0x200", "256k", "256K",
	};
	struct rbt t;
	unsigned int i;
	char *error = NULL;

	rbt_setup(&t, "round-robin", 2, 0);
	assert_int_equal(knob_set(&t, "min_contig_read", "512"), 0);
	assert_string_equal(knob_show(&t, "min_contig_read"), "512");
	for (i = 0; i < 4; i++)
		assert_int_equal(sel(&t, 0, 1, 0x3), i % 2);
	assert_int_equal(knob_set(&t, "min_contig_read", "4294966784"), 0);
	assert_string_equal(knob_show(&t, "min_contig_read"), "4294966784");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(knob_set(&t, "min_contig_read", bad[i]),
				 -EINVAL);
		assert_string_equal(knob_show(&t, "min_contig_read"),
				    "4294966784");
	}
	assert_int_equal(t.pol.type->set_knob(&t.pol, 1, "512", &error),
			 -EINVAL);
	assert_non_null(error);
	rbt_teardown(&t);
}

/* Concurrent selects: every read counted once, so the shares are exact. */
#define THREADS	4
#define READS	50000

static void *reader(void *arg)
{
	struct rbt *t = arg;
	struct rb_io io = rd(0, 8, 0x3);
	unsigned long *on1 = calloc(1, sizeof(*on1));
	int i;

	for (i = 0; i < READS; i++)
		*on1 += t->pol.type->select(&t->pol, &io);
	return on1;
}

static void test_concurrent(void **state)
{
	pthread_t th[THREADS];
	unsigned long on1 = 0;
	struct rbt t;
	void *r;
	int i;

	rbt_setup(&t, "round-robin", 2, 0);
	assert_int_equal(knob_set(&t, "min_contig_read", "4096"), 0);
	for (i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, reader, &t), 0);
	for (i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(th[i], &r), 0);
		on1 += *(unsigned long *)r;
		free(r);
	}
	assert_int_equal(on1, THREADS * READS / 2);
	assert_int_equal(atomic64_read(counter(&t)), THREADS * READS * 8);
	rbt_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_turns_two_legs),
		cmocka_unit_test(test_turns_three_legs),
		cmocka_unit_test(test_counts_before),
		cmocka_unit_test(test_ineligible_passes_turn),
		cmocka_unit_test(test_counter_wrap),
		cmocka_unit_test(test_knob),
		cmocka_unit_test(test_concurrent),
	};

	return cmocka_run_group_tests_name("round-robin", tests, NULL, NULL);
}
