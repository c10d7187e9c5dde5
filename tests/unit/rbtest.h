/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the unit tests: a mirror of up to RB_MAX_LEGS legs with
 * one policy on it, reads, and knob access by name.  Include after cmocka.h.
 */
#ifndef RBTEST_H
#define RBTEST_H

#include "readbal.h"

#define QD	64	/* default queue depth of a test leg */
#define MAX_SECTORS 256	/* and its largest request: 128 KiB */

struct rbt {
	struct rb_leg legs[RB_MAX_LEGS];
	struct rb_set set;
	struct rb_policy pol;
};

static inline unsigned long all_legs(unsigned int n)
{
	return n >= sizeof(unsigned long) * 8 ? ~0UL : (1UL << n) - 1;
}

/* @nonrot: bit n set makes leg n non-rotational. */
static inline void rbt_init_set(struct rbt *t, unsigned int n,
				unsigned long nonrot)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		t->legs[i].index = i;
		t->legs[i].queue_depth = QD;
		t->legs[i].max_sectors = MAX_SECTORS;
		t->legs[i].nonrot = nonrot & (1UL << i);
	}
	nonrot &= all_legs(n);
	t->set.nr_legs = n;
	t->set.mixed = nonrot && nonrot != all_legs(n);
	t->set.legs = t->legs;
	t->pol.set = &t->set;
}

static inline void rbt_create(struct rbt *t, const struct rb_policy_type *type)
{
	assert_non_null(type);
	t->pol.type = type;
	assert_int_equal(type->create(&t->pol), 0);
}

static inline void rbt_setup(struct rbt *t, const char *policy,
			     unsigned int n, unsigned long nonrot)
{
	shim_live_allocs = 0;
	shim_fail_alloc_in = 0;
	shim_cpu = 0;
	memset(shim_disk_wait_ns, 0, sizeof(shim_disk_wait_ns));
	rbt_init_set(t, n, nonrot);
	rbt_create(t, rb_policy_find(policy));
}

static inline void rbt_teardown(struct rbt *t)
{
	t->pol.type->destroy(&t->pol);
	assert_int_equal(shim_live_allocs, 0);
}

static inline struct rb_io rd(sector_t sector, unsigned int sectors,
			      unsigned long eligible)
{
	struct rb_io io = {
		.sector = sector,
		.sectors = sectors,
		.eligible = eligible,
		.start_ns = shim_now_ns,	/* the core's clock as it routes */
	};

	return io;
}

static inline unsigned int sel(struct rbt *t, sector_t sector,
			       unsigned int sectors, unsigned long eligible)
{
	struct rb_io io = rd(sector, sectors, eligible);
	unsigned int leg = t->pol.type->select(&t->pol, &io);

	assert_true(leg < t->set.nr_legs);
	assert_true(eligible & (1UL << leg));
	return leg;
}

static inline void inflight(struct rbt *t, unsigned int leg, int n)
{
	atomic_set(&t->legs[leg].inflight, n);
}

/* Set knob @name; returns the policy's result, *error checked on failure. */
static inline int knob_set(struct rbt *t, const char *name, const char *value)
{
	int i = rb_policy_knob_index(t->pol.type, name);
	char *error = NULL;
	int r;

	if (i < 0)
		return i;
	r = t->pol.type->set_knob(&t->pol, i, value, &error);
	if (r)
		assert_non_null(error);
	return r;
}

static inline const char *knob_show(struct rbt *t, const char *name)
{
	static char buf[128];
	int i = rb_policy_knob_index(t->pol.type, name);
	int n;

	assert_true(i >= 0);
	n = t->pol.type->show_knob(&t->pol, i, buf, sizeof(buf));
	assert_true(n >= 0 && (size_t)n == strlen(buf));
	return buf;
}

#endif
