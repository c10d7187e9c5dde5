// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "latency": Anand Jain's btrfs RFC "btrfs: add
 * read_policy latency" (v3/v4, linux-btrfs, January 2021): read from the
 * leg whose block device shows the lowest average read wait, part_stat
 * nsecs[READ] / ios[READ].  Those statistics count I/O from outside the
 * mirror too, so a leg kept busy by others is avoided.
 *
 * Ties go to the lowest index, as in the RFC (strict "<").  The RFC used a
 * zero wait as "nothing chosen yet", so a leg without statistics lost to any
 * leg after it; here zero is a plain value: an unmeasured leg is tried, and
 * its first reads measure it.
 */
#include "readbal.h"

static int latency_create(struct rb_policy *p)
{
	return 0;
}

static void latency_destroy(struct rb_policy *p)
{
}

static unsigned int latency_select(struct rb_policy *p, const struct rb_io *io)
{
	struct rb_set *set = p->set;
	unsigned int i, best = rb_first_leg(io->eligible);
	u64 wait, best_wait = rb_leg_disk_read_wait_ns(&set->legs[best]);

	for (i = best + 1; i < set->nr_legs; i++) {
		if (!rb_leg_eligible(io, i))
			continue;
		wait = rb_leg_disk_read_wait_ns(&set->legs[i]);
		if (wait < best_wait) {
			best_wait = wait;
			best = i;
		}
	}
	return best;
}

const struct rb_policy_type rb_policy_latency = {
	.name = "latency",
	.create = latency_create,
	.destroy = latency_destroy,
	.select = latency_select,
};
