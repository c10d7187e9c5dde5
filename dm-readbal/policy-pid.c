// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "pid": the leg is current->pid modulo the number of legs,
 * as btrfs raid1 does by default since 5.11.  No load, no locality: kept as
 * the baseline the seeds measure against.  A leg that is not eligible passes
 * the read to the next eligible one.
 */
#include "readbal.h"

static int pid_create(struct rb_policy *p)
{
	return 0;
}

static void pid_destroy(struct rb_policy *p)
{
}

static unsigned int pid_select(struct rb_policy *p, const struct rb_io *io)
{
	unsigned int n = p->set->nr_legs;
	unsigned int leg = (unsigned int)current->pid % n;

	if (rb_leg_eligible(io, leg))
		return leg;
	return rb_next_leg(io->eligible, leg, n);
}

const struct rb_policy_type rb_policy_pid = {
	.name = "pid",
	.create = pid_create,
	.destroy = pid_destroy,
	.select = pid_select,
};
