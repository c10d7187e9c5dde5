// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal: the registry of read policies and helpers they share.
 *
 * Every policy is built into the module, so the registry is a static table
 * rather than dm-path-selector.c's list with module references.
 */
#include "readbal.h"

static const struct rb_policy_type *const rb_policies[] = {
	&rb_policy_pid,
	&rb_policy_roundrobin,
	&rb_policy_latency,
	&rb_policy_device,
	&rb_policy_round_robin,
	&rb_policy_md,
	&rb_policy_zfs,
	&rb_policy_hst,
	&rb_policy_adaptive,
};

const struct rb_policy_type *rb_policy_type_at(unsigned int i)
{
	return i < ARRAY_SIZE(rb_policies) ? rb_policies[i] : NULL;
}

const struct rb_policy_type *rb_policy_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rb_policies); i++)
		if (!strcmp(rb_policies[i]->name, name))
			return rb_policies[i];
	return NULL;
}

unsigned int rb_policy_nr_knobs(const struct rb_policy_type *type)
{
	unsigned int n = 0;

	while (type->knobs && type->knobs[n])
		n++;
	return n;
}

int rb_policy_knob_index(const struct rb_policy_type *type, const char *name)
{
	unsigned int i;

	for (i = 0; type->knobs && type->knobs[i]; i++)
		if (!strcmp(type->knobs[i], name))
			return i;
	return -EINVAL;
}

int rb_policy_parse_uint(const char *value, unsigned int min, unsigned int max,
			 unsigned int *out, char **error)
{
	unsigned int v;

	if (kstrtouint(value, 10, &v) || v < min || v > max) {
		*error = "knob value out of range";
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* Values change while reads run: READ_ONCE/WRITE_ONCE on both sides. */
int rb_uint_knob_set(const struct rb_uint_knobs *k, unsigned int *values,
		     unsigned int knob, const char *value, char **error)
{
	unsigned int v;
	int r;

	if (knob >= k->nr) {
		*error = "unknown knob";
		return -EINVAL;
	}
	r = rb_policy_parse_uint(value, k->min ? k->min[knob] : 0,
				 k->max[knob], &v, error);
	if (r)
		return r;
	WRITE_ONCE(values[knob], v);
	return 0;
}

int rb_uint_knob_show(const struct rb_uint_knobs *k,
		      const unsigned int *values, unsigned int knob, char *buf,
		      size_t len)
{
	if (knob >= k->nr)
		return -EINVAL;
	return scnprintf(buf, len, "%u", READ_ONCE(values[knob]));
}

unsigned int rb_first_leg(unsigned long mask)
{
	return __ffs(mask);
}

/* The first leg in @mask after @after, wrapping around. */
unsigned int rb_next_leg(unsigned long mask, unsigned int after,
			 unsigned int nr_legs)
{
	unsigned int i, leg;

	for (i = 1; i <= nr_legs; i++) {
		leg = (after + i) % nr_legs;
		if (mask & (1UL << leg))
			return leg;
	}
	return rb_first_leg(mask);
}

/* The leg of @mask with the fewest reads in flight; ties to the lowest index. */
unsigned int rb_least_inflight(struct rb_set *set, unsigned long mask)
{
	unsigned int i, best = rb_first_leg(mask);
	int best_n = INT_MAX, n;

	for (i = best; i < set->nr_legs; i++) {
		if (!(mask & (1UL << i)))
			continue;
		n = atomic_read(&set->legs[i].inflight);
		if (n < best_n) {
			best_n = n;
			best = i;
		}
	}
	return best;
}
