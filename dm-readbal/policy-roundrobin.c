// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "roundrobin": Michal Rostecki's btrfs RFC "btrfs: Add
 * roundrobin raid1 read policy" (linux-btrfs, 2021-02-09,
 * <20210209203041.21493-7-mrostecki@suse.de>).
 *
 * Start at this CPU's last chosen leg, inclusive, and take the first leg
 * whose load is below its queue depth; load = reads in flight + a penalty
 * when the read does not start where the leg's last read ended.  The
 * penalty depends on the leg being rotational or not and, by default, only
 * applies in arrays mixing both kinds.  If every leg is full, stay on the
 * last leg.  The choice becomes this CPU's last leg.
 *
 * Differences from the RFC, forced by the mirror: legs not eligible for the
 * read are skipped, and if the last leg is not eligible the fallback is the
 * next eligible leg after it.
 */
#include "readbal.h"

enum {
	RR_MIXED_ONLY,		/* 1: penalise only in mixed arrays */
	RR_ROT_INC,		/* penalty of a non-local read, rotational */
	RR_NONROT_INC,		/* penalty of a non-local read, non-rotational */
	RR_NR_KNOBS
};

static const char *const roundrobin_knobs[] = {
	"nonlocal_inc_mixed_only",
	"rot_nonlocal_inc",
	"nonrot_nonlocal_inc",
	NULL
};

/* RFC defaults: a slight preference for non-rotational legs in mixed arrays */
static const unsigned int roundrobin_default[RR_NR_KNOBS] = { 1, 1, 0 };
static const unsigned int roundrobin_max[RR_NR_KNOBS] = { 1, 1000, 1000 };

struct roundrobin_ctx {
	unsigned int __percpu *last_leg;
	unsigned int knob[RR_NR_KNOBS];	/* READ_ONCE/WRITE_ONCE */
};

static int roundrobin_create(struct rb_policy *p)
{
	struct roundrobin_ctx *ctx;
	unsigned int i;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->last_leg = alloc_percpu(unsigned int);
	if (!ctx->last_leg) {
		kfree(ctx);
		return -ENOMEM;
	}
	for (i = 0; i < RR_NR_KNOBS; i++)
		ctx->knob[i] = roundrobin_default[i];
	p->context = ctx;
	return 0;
}

static void roundrobin_destroy(struct rb_policy *p)
{
	struct roundrobin_ctx *ctx = p->context;

	free_percpu(ctx->last_leg);
	kfree(ctx);
	p->context = NULL;
}

static const struct rb_uint_knobs roundrobin_ranges = {
	.nr = RR_NR_KNOBS,
	.min = NULL,
	.max = roundrobin_max,
};

static int roundrobin_set_knob(struct rb_policy *p, unsigned int knob,
			       const char *value, char **error)
{
	struct roundrobin_ctx *ctx = p->context;

	return rb_uint_knob_set(&roundrobin_ranges, ctx->knob, knob, value,
				error);
}

static int roundrobin_show_knob(struct rb_policy *p, unsigned int knob,
				char *buf, size_t len)
{
	struct roundrobin_ctx *ctx = p->context;

	return rb_uint_knob_show(&roundrobin_ranges, ctx->knob, knob, buf,
				 len);
}

/* The RFC's mirror_queue_not_filled(): load below the queue depth. */
static bool roundrobin_has_room(struct roundrobin_ctx *ctx, struct rb_leg *leg,
				const struct rb_io *io, bool penalise)
{
	/* s64: a penalty added to a huge inflight must not wrap */
	s64 load = atomic_read(&leg->inflight);

	if (penalise && io->sector != READ_ONCE(leg->last_end))
		load += leg->nonrot ? READ_ONCE(ctx->knob[RR_NONROT_INC]) :
				      READ_ONCE(ctx->knob[RR_ROT_INC]);
	return load < leg->queue_depth;
}

static unsigned int roundrobin_select(struct rb_policy *p,
				      const struct rb_io *io)
{
	struct roundrobin_ctx *ctx = p->context;
	struct rb_set *set = p->set;
	unsigned int n = set->nr_legs;
	unsigned int last = this_cpu_read(*ctx->last_leg);
	unsigned int i, leg;
	bool penalise = !READ_ONCE(ctx->knob[RR_MIXED_ONLY]) || set->mixed;

	if (last >= n)
		last = 0;
	leg = last;
	for (i = 0; i < n; i++) {
		if (rb_leg_eligible(io, leg) &&
		    roundrobin_has_room(ctx, &set->legs[leg], io, penalise))
			goto out;
		if (++leg == n)
			leg = 0;
	}

	/* Every leg is full: the RFC stays on the last one. */
	leg = rb_leg_eligible(io, last) ? last :
					  rb_next_leg(io->eligible, last, n);
out:
	/* A hint only: a migration between read and write is harmless. */
	this_cpu_write(*ctx->last_leg, leg);
	return leg;
}

const struct rb_policy_type rb_policy_roundrobin = {
	.name = "roundrobin",
	.knobs = roundrobin_knobs,
	.create = roundrobin_create,
	.destroy = roundrobin_destroy,
	.set_knob = roundrobin_set_knob,
	.show_knob = roundrobin_show_knob,
	.select = roundrobin_select,
};
