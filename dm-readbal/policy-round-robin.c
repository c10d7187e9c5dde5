// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "round-robin": btrfs_read_rr() of mainline btrfs (6.14,
 * CONFIG_BTRFS_EXPERIMENTAL, "round-robin[:min_contig_read]"):
 *
 *	leg = (blocks read so far / blocks per turn) % number of legs
 *
 * counted over the whole mirror, so the legs take turns every
 * min_contig_read bytes of reads whoever issues them.  As in btrfs the count
 * excludes the read being routed.  A leg that is not eligible passes its
 * turn to the next eligible one.
 *
 * Knob "min_contig_read": bytes per turn, default 256 KiB.  btrfs wants it
 * above zero, in a u32, and rounds it up to a multiple of its block size;
 * here it must be a multiple of 512 (a sector_t unit) and is never rounded,
 * so that the table shows what was loaded.
 */
#include "readbal.h"

#define RR_SECTOR_SHIFT		9
#define RR_DEFAULT_MIN_CONTIG	(256U * 1024)

struct round_robin_ctx {
	atomic64_t sectors;		/* read so far; wraps harmlessly */
	unsigned int min_contig_read;	/* bytes; READ_ONCE/WRITE_ONCE */
};

static const char *const round_robin_knobs[] = { "min_contig_read", NULL };

static int round_robin_create(struct rb_policy *p)
{
	struct round_robin_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	atomic64_set(&ctx->sectors, 0);
	ctx->min_contig_read = RR_DEFAULT_MIN_CONTIG;
	p->context = ctx;
	return 0;
}

static void round_robin_destroy(struct rb_policy *p)
{
	kfree(p->context);
	p->context = NULL;
}

static int round_robin_set_knob(struct rb_policy *p, unsigned int knob,
				const char *value, char **error)
{
	struct round_robin_ctx *ctx = p->context;
	unsigned int v;
	int r;

	if (knob) {
		*error = "unknown knob";
		return -EINVAL;
	}
	r = rb_policy_parse_uint(value, 1U << RR_SECTOR_SHIFT, UINT_MAX, &v,
				 error);
	if (r)
		return r;
	if (v & ((1U << RR_SECTOR_SHIFT) - 1)) {
		*error = "min_contig_read: not a multiple of 512";
		return -EINVAL;
	}
	WRITE_ONCE(ctx->min_contig_read, v);
	return 0;
}

static int round_robin_show_knob(struct rb_policy *p, unsigned int knob,
				 char *buf, size_t len)
{
	struct round_robin_ctx *ctx = p->context;

	if (knob)
		return -EINVAL;
	return scnprintf(buf, len, "%u", READ_ONCE(ctx->min_contig_read));
}

static unsigned int round_robin_select(struct rb_policy *p,
				       const struct rb_io *io)
{
	struct round_robin_ctx *ctx = p->context;
	unsigned int n = p->set->nr_legs;
	u32 per_turn = READ_ONCE(ctx->min_contig_read) >> RR_SECTOR_SHIFT;
	u64 done = atomic64_fetch_add(io->sectors, &ctx->sectors);
	u32 leg;

	/* u64 all along: a wrap of the count only shifts one turn */
	div_u64_rem(div_u64(done, per_turn), n, &leg);
	if (rb_leg_eligible(io, leg))
		return leg;
	return rb_next_leg(io->eligible, leg, n);
}

const struct rb_policy_type rb_policy_round_robin = {
	.name = "round-robin",
	.knobs = round_robin_knobs,
	.create = round_robin_create,
	.destroy = round_robin_destroy,
	.set_knob = round_robin_set_knob,
	.show_knob = round_robin_show_knob,
	.select = round_robin_select,
};
