// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "zfs": the read child choice of OpenZFS mirrors
 * (module/zfs/vdev_mirror.c: vdev_mirror_load(), vdev_mirror_child_select(),
 * vdev_mirror_preferred_child_randomize()).
 *
 * Each eligible leg's load is its reads in flight plus an increment by the
 * locality of the read against the end of the last read routed to it:
 *
 *   non-rotational: +non_rotating_inc if the read starts exactly there,
 *                   else +non_rotating_seek_inc;
 *   rotational:     +rotating_inc if exactly there, +rotating_seek_inc / 2
 *                   if less than rotating_seek_offset bytes away (either
 *                   way), else +rotating_seek_inc.
 *
 * The lowest load wins; among equal loads the leg is picked by the read's
 * byte offset, (offset >> 21) % number of tied legs, so that a 2 MiB region
 * keeps to one leg and the regions spread over the tied legs.
 *
 * Knobs: ZFS's module parameters without their "zfs_vdev_mirror_" prefix,
 * with ZFS's defaults.  ZFS takes any int; here they are 0 or more.
 * ZFS's queue length and last offset count writes too; here they are the
 * core's reads in flight and last_end, reads only.
 */
#include "readbal.h"

#define ZFS_SECTOR_SHIFT	9
#define ZFS_MIRROR_SHIFT	21	/* vdev_mirror_shift: 2 MiB */

enum {
	ZFS_ROT_INC,
	ZFS_ROT_SEEK_INC,
	ZFS_ROT_SEEK_OFFSET,
	ZFS_NONROT_INC,
	ZFS_NONROT_SEEK_INC,
	ZFS_NR_KNOBS
};

static const char *const zfs_knobs[] = {
	"rotating_inc",
	"rotating_seek_inc",
	"rotating_seek_offset",
	"non_rotating_inc",
	"non_rotating_seek_inc",
	NULL
};

static const unsigned int zfs_default[ZFS_NR_KNOBS] = {
	0, 5, 1024 * 1024, 0, 1
};

/* increments up to a million reads; the offset up to ZFS's INT_MAX bytes */
static const unsigned int zfs_max[ZFS_NR_KNOBS] = {
	1000000, 1000000, INT_MAX, 1000000, 1000000
};

struct zfs_ctx {
	unsigned int knob[ZFS_NR_KNOBS];	/* READ_ONCE/WRITE_ONCE */
};

static int zfs_create(struct rb_policy *p)
{
	struct zfs_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	unsigned int i;

	if (!ctx)
		return -ENOMEM;
	for (i = 0; i < ZFS_NR_KNOBS; i++)
		ctx->knob[i] = zfs_default[i];
	p->context = ctx;
	return 0;
}

static void zfs_destroy(struct rb_policy *p)
{
	kfree(p->context);
	p->context = NULL;
}

static const struct rb_uint_knobs zfs_ranges = {
	.nr = ZFS_NR_KNOBS,
	.min = NULL,
	.max = zfs_max,
};

static int zfs_set_knob(struct rb_policy *p, unsigned int knob,
			const char *value, char **error)
{
	struct zfs_ctx *ctx = p->context;

	return rb_uint_knob_set(&zfs_ranges, ctx->knob, knob, value,
				error);
}

static int zfs_show_knob(struct rb_policy *p, unsigned int knob,
			 char *buf, size_t len)
{
	struct zfs_ctx *ctx = p->context;

	return rb_uint_knob_show(&zfs_ranges, ctx->knob, knob, buf,
				 len);
}

/* vdev_mirror_load(); s64 so that a huge inflight plus an increment fits */
static s64 zfs_load(struct zfs_ctx *ctx, struct rb_leg *leg,
		    const struct rb_io *io)
{
	s64 load = atomic_read(&leg->inflight);
	sector_t last = READ_ONCE(leg->last_end);
	u64 diff, near;

	if (leg->nonrot)
		return load + (last == io->sector ?
			       READ_ONCE(ctx->knob[ZFS_NONROT_INC]) :
			       READ_ONCE(ctx->knob[ZFS_NONROT_SEEK_INC]));
	if (last == io->sector)
		return load + READ_ONCE(ctx->knob[ZFS_ROT_INC]);

	/* bytes apart < offset  <=>  sectors apart < offset / 512 rounded up */
	diff = rb_sector_dist(last, io->sector);
	near = ((u64)READ_ONCE(ctx->knob[ZFS_ROT_SEEK_OFFSET]) +
		(1U << ZFS_SECTOR_SHIFT) - 1) >> ZFS_SECTOR_SHIFT;
	if (diff < near)
		return load + READ_ONCE(ctx->knob[ZFS_ROT_SEEK_INC]) / 2;
	return load + READ_ONCE(ctx->knob[ZFS_ROT_SEEK_INC]);
}

static unsigned int zfs_select(struct rb_policy *p, const struct rb_io *io)
{
	struct zfs_ctx *ctx = p->context;
	struct rb_set *set = p->set;
	unsigned int tied[RB_MAX_LEGS];
	unsigned int i, nr_tied = 0;
	s64 load, lowest = 0;
	u64 region;
	u32 pick;

	for (i = 0; i < set->nr_legs; i++) {
		if (!rb_leg_eligible(io, i))
			continue;
		load = zfs_load(ctx, &set->legs[i], io);
		if (nr_tied && load > lowest)
			continue;
		if (!nr_tied || load < lowest) {
			lowest = load;
			nr_tied = 0;
		}
		tied[nr_tied++] = i;
	}
	if (nr_tied == 1)
		return tied[0];
	/* vdev_mirror_preferred_child_randomize(): the byte offset >> 21 */
	region = io->sector >> (ZFS_MIRROR_SHIFT - ZFS_SECTOR_SHIFT);
	if (!(nr_tied & (nr_tied - 1)))
		pick = region & (nr_tied - 1);	/* no division for 2, 4... */
	else
		div_u64_rem(region, nr_tied, &pick);
	return tied[pick];
}

const struct rb_policy_type rb_policy_zfs = {
	.name = "zfs",
	.knobs = zfs_knobs,
	.create = zfs_create,
	.destroy = zfs_destroy,
	.set_knob = zfs_set_knob,
	.show_knob = zfs_show_knob,
	.select = zfs_select,
};
