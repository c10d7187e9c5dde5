// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "md": read_balance() of md raid1 (drivers/md/raid1.c,
 * Linux 6.1), on legs without write-mostly, bad blocks or resync windows.
 * The legs are scanned in index order:
 *
 *  - A read that starts where the last read routed to a leg ended
 *    (next_seq_sect, the core's last_end) or at the leg's head position
 *    (where its last completed read ended) stays on that leg.
 *  - Otherwise, if any eligible leg is non-rotational or some leg is idle,
 *    the leg with the fewest reads in flight; else, on all-rotational
 *    arrays, the leg whose head is nearest the read.  Ties go to the
 *    lowest index (md's strict comparisons).
 *
 * Knob "io_opt" (bytes, default 0 = off): md's sequential spill.  md reads
 * bdev_io_opt() of a non-rotational leg; once a sequential run on it is
 * io_opt long, an idle leg should take the next read.  In 6.1 the loop
 * skips every later leg once it notices this, so the spill never happens;
 * here it works as in md's 6.9 rewrite (choose_best_rdev()): the run's leg
 * counts one read more, so an idle leg wins, else the run goes on.  With
 * io_opt 0, what most devices report, this is exactly 6.1.
 *
 * md counts writes in nr_pending and moves head_position on writes too;
 * the policy sees reads only.
 *
 * md keeps seq_start and head_position per leg; the core does not, so they
 * live here, written with WRITE_ONCE in start_io/end_io.  Concurrent reads
 * race on them as they do in md (it updates them under RCU only): the worst
 * outcome is a choice md could have made as well.
 */
#include "readbal.h"

#define MD_SECTOR_SHIFT	9
#define MD_MAX_SECTOR	(~(sector_t)0)	/* md's MaxSector: no run yet */

struct md_leg {
	sector_t next_seq_sect;		/* end of the last read started */
	sector_t seq_start;		/* start of the current run */
	sector_t head_position;		/* end of the last read ended */
};

struct md_ctx {
	unsigned int io_opt;		/* bytes; READ_ONCE/WRITE_ONCE */
	struct md_leg leg[];		/* one per leg of the set */
};

static const char *const md_knobs[] = { "io_opt", NULL };

static int md_create(struct rb_policy *p)
{
	unsigned int i, n = p->set->nr_legs;
	struct md_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx) + n * sizeof(ctx->leg[0]), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ctx->leg[i].seq_start = MD_MAX_SECTOR;
	p->context = ctx;
	return 0;
}

static void md_destroy(struct rb_policy *p)
{
	kfree(p->context);
	p->context = NULL;
}

static int md_set_knob(struct rb_policy *p, unsigned int knob,
		       const char *value, char **error)
{
	struct md_ctx *ctx = p->context;
	unsigned int v;
	int r;

	if (knob) {
		*error = "unknown knob";
		return -EINVAL;
	}
	r = rb_policy_parse_uint(value, 0, UINT_MAX, &v, error);
	if (r)
		return r;
	if (v & ((1U << MD_SECTOR_SHIFT) - 1)) {
		*error = "io_opt: not a multiple of 512";
		return -EINVAL;
	}
	WRITE_ONCE(ctx->io_opt, v);
	return 0;
}

static int md_show_knob(struct rb_policy *p, unsigned int knob, char *buf,
			size_t len)
{
	struct md_ctx *ctx = p->context;

	if (knob)
		return -EINVAL;
	return scnprintf(buf, len, "%u", READ_ONCE(ctx->io_opt));
}

/* md's should_choose_next(): has this leg's run reached io_opt? */
static bool md_spill(struct md_ctx *ctx, struct rb_leg *leg,
		     sector_t next_seq, sector_t opt)
{
	sector_t start = READ_ONCE(ctx->leg[leg->index].seq_start);

	return leg->nonrot && opt && start != MD_MAX_SECTOR &&
	       next_seq > opt && next_seq - opt >= start;
}

static unsigned int md_select(struct rb_policy *p, const struct rb_io *io)
{
	struct md_ctx *ctx = p->context;
	struct rb_set *set = p->set;
	sector_t opt = READ_ONCE(ctx->io_opt) >> MD_SECTOR_SHIFT;
	unsigned int i, first = rb_first_leg(io->eligible);
	unsigned int seq_leg = first, pending_leg = first, near_leg = first;
	sector_t dist, head, next_seq, best_dist = MD_MAX_SECTOR;
	u64 pending, min_pending = U64_MAX;
	bool has_nonrot = false, spilling = false;

	for (i = first; i < set->nr_legs; i++) {
		struct rb_leg *leg = &set->legs[i];

		if (!rb_leg_eligible(io, i))
			continue;
		has_nonrot |= leg->nonrot;
		pending = (u32)atomic_read(&leg->inflight);
		head = READ_ONCE(ctx->leg[i].head_position);
		dist = rb_sector_dist(io->sector, head);
		next_seq = READ_ONCE(leg->last_end);
		/* Don't change to another leg for sequential reads */
		if (next_seq == io->sector || !dist) {
			if (!md_spill(ctx, leg, next_seq, opt))
				return i;
			/* an idle leg beats the run; else the run goes on */
			pending++;
			seq_leg = i;
			spilling = true;
		}
		if (pending < min_pending) {
			min_pending = pending;
			pending_leg = i;
		}
		if (dist < best_dist) {
			best_dist = dist;
			near_leg = i;
		}
	}
	if (spilling && min_pending)
		return seq_leg;
	if (has_nonrot || !min_pending)
		return pending_leg;
	return near_leg;
}

/* md's update of seq_start and next_seq_sect once the leg is chosen */
static void md_start_io(struct rb_policy *p, struct rb_leg *leg,
			const struct rb_io *io)
{
	struct md_ctx *ctx = p->context;
	struct md_leg *m = &ctx->leg[leg->index];

	if (READ_ONCE(m->next_seq_sect) != io->sector)
		WRITE_ONCE(m->seq_start, io->sector);
	WRITE_ONCE(m->next_seq_sect, io->sector + io->sectors);
}

/* md's update_head_pos() */
static void md_end_io(struct rb_policy *p, struct rb_leg *leg,
		      const struct rb_io *io, u64 service_ns)
{
	struct md_ctx *ctx = p->context;

	WRITE_ONCE(ctx->leg[leg->index].head_position,
		   io->sector + io->sectors);
}

const struct rb_policy_type rb_policy_md = {
	.name = "md",
	.knobs = md_knobs,
	.create = md_create,
	.destroy = md_destroy,
	.set_knob = md_set_knob,
	.show_knob = md_show_knob,
	.select = md_select,
	.start_io = md_start_io,
	.end_io = md_end_io,
};
