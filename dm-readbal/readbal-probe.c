// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal: probes.  A policy that wants a leg measured (its probe hook)
 * gets a read of that leg beside the read it routed, not in its place: 4
 * KiB into a page of the mirror's own, which nobody waits for.  A reader
 * at queue depth 1 then never waits for a slow leg's probe (a seeking hdd
 * beside an ssd: 10 to 20 ms where its reads take 0.3).
 *
 * Each leg has one probe: a bio and a page allocated with the table, so a
 * probe takes no allocation and no lock; a leg whose probe is in flight
 * gets none.  The policy's start_io and end_io see it as a read on that
 * leg (io->failed if it failed); the core's statistics do not count it,
 * and a failed one is no read error.  Suspend waits for the probes in
 * flight, as dm waits for the mirror's reads.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/ktime.h>
#include <linux/wait_bit.h>

#include "readbal-core.h"

#define RB_PROBE_BUSY	0	/* bit of rb_probe.flags: in flight */

int rb_probe_init(struct readbal_c *rc)
{
	unsigned int i;

	rc->probes = kcalloc(rc->set.nr_legs, sizeof(*rc->probes),
			     GFP_KERNEL);
	if (!rc->probes)
		return -ENOMEM;
	for (i = 0; i < rc->set.nr_legs; i++) {
		rc->probes[i].rc = rc;
		rc->probes[i].leg = i;
		rc->probes[i].page = alloc_page(GFP_KERNEL);
		if (!rc->probes[i].page)
			return -ENOMEM;
	}
	return 0;
}

/* After rb_probe_wait(), or when no probe was ever sent */
void rb_probe_exit(struct readbal_c *rc)
{
	unsigned int i;

	if (!rc->probes)
		return;
	for (i = 0; i < rc->set.nr_legs; i++)
		if (rc->probes[i].page)
			__free_page(rc->probes[i].page);
	kfree(rc->probes);
	rc->probes = NULL;
}

/* Wait for the probes in flight: no new one is sent without a read. */
void rb_probe_wait(struct readbal_c *rc)
{
	wait_var_event(&rc->probes_in_flight,
		       !atomic_read(&rc->probes_in_flight));
}

static void rb_probe_endio(struct bio *bio)
{
	struct rb_probe *pr = container_of(bio, struct rb_probe, bio);
	struct readbal_c *rc = pr->rc;

	/* a probe that failed is no read's: no error counted, no repair */
	pr->io.failed = bio->bi_status != BLK_STS_OK;
	rb_read_ended(rc, &rc->legs[pr->leg], pr->policy, &pr->io,
		      ktime_get_ns() - pr->io.start_ns);
	bio_uninit(bio);
	clear_bit_unlock(RB_PROBE_BUSY, &pr->flags);
	if (atomic_dec_and_test(&rc->probes_in_flight))
		wake_up_var(&rc->probes_in_flight);
}

/*
 * A probe of leg @i for policy @p beside @io: at io->sector, rounded down
 * to RB_PROBE_SECTORS, started for the policy; the caller submits it once
 * out of RCU (the retry worker's submission may wait for a tag).  NULL if
 * the leg is out of service, its probe is in flight, or the read is at
 * the mirror's very end.  Under RCU.
 */
struct bio *rb_probe_start(struct readbal_c *rc, struct rb_policy *p,
			   unsigned int i, const struct rb_io *io)
{
	sector_t sector = io->sector & ~(sector_t)(RB_PROBE_SECTORS - 1);
	struct rb_probe *pr;
	struct rb_leg *leg;

	if (i >= rc->set.nr_legs || !rb_leg_alive(rc, i) ||
	    sector + RB_PROBE_SECTORS > rc->ti->len)
		return NULL;
	pr = &rc->probes[i];
	if (test_and_set_bit_lock(RB_PROBE_BUSY, &pr->flags))
		return NULL;
	atomic_inc(&rc->probes_in_flight);
	leg = &rc->legs[i];
	pr->policy = p;
	pr->io.sector = sector;
	pr->io.sectors = RB_PROBE_SECTORS;
	pr->io.eligible = 1UL << i;
	pr->io.start_ns = io->start_ns;
	pr->io.failed = false;
	bio_init(&pr->bio, leg->dev->bdev, &pr->bvec, 1, REQ_OP_READ);
	__bio_add_page(&pr->bio, pr->page, RB_PROBE_SECTORS << SECTOR_SHIFT, 0);
	pr->bio.bi_iter.bi_sector = leg->offset + sector;
	pr->bio.bi_end_io = rb_probe_endio;
	atomic_inc(&leg->inflight);
	WRITE_ONCE(leg->last_end, sector + RB_PROBE_SECTORS);
	if (p->type->start_io)
		p->type->start_io(p, leg, &pr->io);
	return &pr->bio;
}
