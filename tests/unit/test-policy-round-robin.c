// SPDX-License-Identifier: GPL-2.0
/*
 * Policy "round-robin" (btrfs 6.14 btrfs_read_rr): turns by bytes read,
 * counted per CPU.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-round-robin.c"

/* This CPU's turn: whose it is, and the sectors left of it */
static struct round_robin_turn *turn(struct rbt *t)
{
	return this_cpu_ptr(((struct round_robin_ctx *)t->pol.context)->turn);
}

static void test_default(void **state)
{
	struct rbt t;

	rbt_setup(&t, "round-robin", 2, 0);
	assert_string_equal(knob_show(&t, "min_contig_read"), "262144");
	assert_int_equal(turn(&t)->leg, 0);
	assert_int_equal(turn(&t)->left, 0);
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
	/* 16 * 128 sectors: four whole turns */
	assert_int_equal(turn(&t)->leg, 0);
	assert_int_equal(turn(&t)->left, 512);
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
	/* every read counted, whichever leg served it: 8 turns of 3 */
	assert_int_equal(turn(&t)->leg, 2);
	assert_int_equal(turn(&t)->left, 8);
	rbt_teardown(&t);
}

/*
 * The turns are btrfs's (sectors so far / sectors per turn) % legs for any
 * read sizes and turn lengths, however many turns one read covers.
 */
static void test_formula(void **state)
{
	static const char *const turns[] = { "512", "4096", "4608", "262144" };
	unsigned int i, k, n, size, per;
	struct rbt t;
	u64 done;

	for (n = 1; n <= RB_MAX_LEGS; n++) {
		for (k = 0; k < ARRAY_SIZE(turns); k++) {
			rbt_setup(&t, "round-robin", n, 0);
			assert_int_equal(knob_set(&t, "min_contig_read",
						  turns[k]), 0);
			per = atoi(turns[k]) / 512;
			done = 0;
			for (i = 0; i < 200; i++) {
				/* 1 sector to 2 MiB, often past a turn */
				size = 1 + (i * 7919) % (i % 3 ? 64 : 4096);
				assert_int_equal(sel(&t, 0, size, all_legs(n)),
						 (done / per) % n);
				done += size;
			}
			rbt_teardown(&t);
		}
	}
}

/* Each CPU takes its own turns. */
static void test_per_cpu(void **state)
{
	struct rbt t;

	rbt_setup(&t, "round-robin", 2, 0);
	assert_int_equal(sel(&t, 0, 512, 0x3), 0);
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	shim_cpu = 1;
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);	/* its first read */
	assert_int_equal(sel(&t, 0, 504, 0x3), 0);
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	shim_cpu = 0;
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);	/* 16 into turn 1 */
	rbt_teardown(&t);
}

/* A smaller min_contig_read cuts the turn in progress down to it. */
static void test_knob_shrinks_turn(void **state)
{
	struct rbt t;

	rbt_setup(&t, "round-robin", 2, 0);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);	/* 504 left */
	assert_int_equal(knob_set(&t, "min_contig_read", "4096"), 0);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);	/* 8 left: it ends */
	assert_int_equal(sel(&t, 0, 8, 0x3), 1);
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	rbt_teardown(&t);
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

/* Concurrent selects, each thread a CPU: each takes exact turns. */
#define THREADS	4
#define READS	50000

struct reader_arg {
	struct rbt *t;
	unsigned int cpu;
};

static void *reader(void *arg)
{
	struct reader_arg *a = arg;
	struct rbt *t = a->t;
	struct rb_io io = rd(0, 8, 0x3);
	unsigned long *on1 = calloc(1, sizeof(*on1));
	int i;

	shim_cpu = a->cpu;
	for (i = 0; i < READS; i++)
		*on1 += t->pol.type->select(&t->pol, &io);
	return on1;
}

static void test_concurrent(void **state)
{
	struct reader_arg arg[THREADS];
	pthread_t th[THREADS];
	unsigned long on1 = 0;
	struct rbt t;
	void *r;
	int i;

	rbt_setup(&t, "round-robin", 2, 0);
	assert_int_equal(knob_set(&t, "min_contig_read", "4096"), 0);
	for (i = 0; i < THREADS; i++) {
		arg[i].t = &t;
		arg[i].cpu = i % SHIM_NR_CPUS;
		assert_int_equal(pthread_create(&th[i], NULL, reader, &arg[i]),
				 0);
	}
	for (i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(th[i], &r), 0);
		on1 += *(unsigned long *)r;
		free(r);
	}
	assert_int_equal(on1, THREADS * READS / 2);
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
		cmocka_unit_test(test_formula),
		cmocka_unit_test(test_per_cpu),
		cmocka_unit_test(test_knob_shrinks_turn),
		cmocka_unit_test(test_knob),
		cmocka_unit_test(test_concurrent),
	};

	return cmocka_run_group_tests_name("round-robin", tests, NULL, NULL);
}
