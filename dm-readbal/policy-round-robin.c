// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "round-robin": btrfs_read_rr() of mainline btrfs (6.14,
 * CONFIG_BTRFS_EXPERIMENTAL, "round-robin[:min_contig_read]"):
 *
 *	leg = (blocks read so far / blocks per turn) % number of legs
 *
 * so the legs take turns every min_contig_read bytes of reads.  As in btrfs
 * the count excludes the read being routed.  A leg that is not eligible
 * passes its turn to the next eligible one.
 *
 * The count is per CPU: the reads each CPU issues take their own turns.
 * btrfs counts over the whole filesystem, summing a percpu_counter over
 * every CPU (percpu_counter_sum(), under its lock) for each read; one
 * count shared by every CPU would bounce its cache line on each read.  A
 * reader that stays on one CPU sees btrfs's turns exactly.  Each CPU keeps
 * its leg and what is left of the turn, so a read divides only when a turn
 * ends within it.
 *
 * Knob "min_contig_read": bytes per turn, default 256 KiB.  btrfs wants it
 * above zero, in a u32, and rounds it up to a multiple of its block size;
 * here it must be a multiple of 512 (a sector_t unit) and is never rounded,
 * so that the table shows what was loaded.
 */
#include "readbal.h"

#define RR_SECTOR_SHIFT		9
#define RR_DEFAULT_MIN_CONTIG	(256U * 1024)

/* Where this CPU's reads are in their turns. */
struct round_robin_turn {
	unsigned int leg;		/* whose turn it is */
	unsigned int left;		/* sectors left of it; 0: no read yet */
};

struct round_robin_ctx {
	struct round_robin_turn __percpu *turn;
	unsigned int min_contig_read;	/* bytes; READ_ONCE/WRITE_ONCE */
};

static const char *const round_robin_knobs[] = { "min_contig_read", NULL };

static int round_robin_create(struct rb_policy *p)
{
	struct round_robin_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->turn = alloc_percpu(struct round_robin_turn);
	if (!ctx->turn) {
		kfree(ctx);
		return -ENOMEM;
	}
	ctx->min_contig_read = RR_DEFAULT_MIN_CONTIG;
	p->context = ctx;
	return 0;
}

static void round_robin_destroy(struct rb_policy *p)
{
	struct round_robin_ctx *ctx = p->context;

	free_percpu(ctx->turn);
	kfree(ctx);
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
	struct round_robin_turn *t = get_cpu_ptr(ctx->turn);
	unsigned int leg = t->leg, left = t->left;
	u32 rem, next;
	u64 turns;

	/* a first read here, or a turn cut short by a smaller knob */
	if (!left || left > per_turn)
		left = per_turn;
	if (io->sectors < left) {
		t->left = left - io->sectors;
	} else {
		/* the turn ends within this read: skip the turns it covers */
		turns = div_u64_rem(io->sectors - left, per_turn, &rem);
		t->left = per_turn - rem;
		div_u64_rem(leg + 1 + turns, n, &next);
		t->leg = next;
	}
	put_cpu_ptr(ctx->turn);

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
