// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal: the I/O path.
 *
 * A read goes to the one leg the active policy picks, remapped in map()
 * without a lock: the policy is found under RCU, per-leg state is atomics
 * and per-CPU counters.  A read a leg fails goes again to another healthy
 * leg, and the good data is then written back over the failed copy
 * (readbal-sync.c).
 *
 * Writes, flushes, discards and write-zeroes are cloned once per leg that
 * takes writes.  Clones share the original's pages, so any size passes and
 * each leg splits what it cannot take in one request.  (dm-io, which
 * dm-raid1 uses, would walk the bio vector itself and needs a worker
 * thread to stay out of the submitter's bio list.)
 */
#include <linux/blkdev.h>
#include <linux/part_stat.h>
#include <linux/rcupdate.h>
#include <linux/ktime.h>

#include "readbal-core.h"

u64 rb_leg_disk_read_wait_ns(struct rb_leg *leg)
{
	struct block_device *bdev = leg->dev->bdev;
	unsigned long now = jiffies, ios;
	u64 wait = 0;

	if (READ_ONCE(leg->disk_wait_stamp) == now)
		return READ_ONCE(leg->disk_wait_ns);
	ios = part_stat_read(bdev, ios[STAT_READ]);
	if (ios)
		wait = div64_u64(part_stat_read(bdev, nsecs[STAT_READ]), ios);
	WRITE_ONCE(leg->disk_wait_ns, wait);
	WRITE_ONCE(leg->disk_wait_stamp, now);
	return wait;
}

/* Take a leg out of service; may run in interrupt context. */
void rb_fail_leg(struct readbal_c *rc, unsigned int i, const char *why)
{
	if (test_and_set_bit(RB_LEG_FAILED, &rc->legs[i].flags))
		return;
	clear_bit(i, &rc->alive);
	clear_bit(i, &rc->writable);
	DMERR("%s: leg %u (%s) failed: %s", rb_name(rc), i,
	      rc->legs[i].dev->name, why);
	schedule_work(&rc->event_work);
}

/*
 * A read error on @from while it is the source of a copy (resync, region
 * recovery).  Another leg in sync: @from is failed and the copy goes on
 * from that leg.  The last leg in sync is kept, as md raid1 keeps its last
 * device: failing it for one bad sector would leave nothing to read.  The
 * legs it was copied to are failed instead (reinstate_leg starts again),
 * and the mirror reads on.
 */
void rb_fail_source(struct readbal_c *rc, unsigned int from, sector_t sector,
		    const char *why)
{
	unsigned long to;
	unsigned int i;

	if (!rb_last_in_sync(rc, from)) {
		rb_fail_leg(rc, from, why);
		return;
	}
	DMERR("%s: %s at sector %llu on leg %u (%s), the last leg in sync: it stays, the copy stops",
	      rb_name(rc), why, (u64)sector, from, rc->legs[from].dev->name);
	to = READ_ONCE(rc->writable) & ~READ_ONCE(rc->alive);
	for_each_set_bit(i, &to, rc->set.nr_legs)
		rb_fail_leg(rc, i, "its copy could not be read");
}

/*
 * Reads
 */

/*
 * Send a read to the leg the policy picks among pb->io.eligible; from
 * map() (@may_split), the policy may first keep only a chunk of it.
 */
static void rb_route_read(struct readbal_c *rc, struct bio *bio,
			  struct rb_bio *pb, bool may_split)
{
	struct bio *probe = NULL;
	struct rb_policy *p;
	struct rb_leg *leg;
	unsigned int i, n;

	/* the policies' clock too: they read none of their own */
	pb->io.start_ns = ktime_get_ns();
	pb->io.failed = false;
	rcu_read_lock();
	p = rcu_dereference(rc->policy);
	if (may_split && p->type->chunk) {
		n = p->type->chunk(p, &pb->io);
		if (n && n < pb->io.sectors) {
			dm_accept_partial_bio(bio, n);
			pb->io.sectors = n;
		}
	}
	i = p->type->select(p, &pb->io);
	if (WARN_ON_ONCE(i >= rc->set.nr_legs ||
			 !rb_leg_eligible(&pb->io, i)))
		i = rb_first_leg(pb->io.eligible);
	leg = &rc->legs[i];
	atomic_inc(&leg->inflight);
	WRITE_ONCE(leg->last_end, pb->io.sector + pb->io.sectors);
	if (p->type->start_io)
		p->type->start_io(p, leg, &pb->io);
	if (p->type->probe) {
		int k = p->type->probe(p, &pb->io, i);

		if (k >= 0 && k != (int)i)
			probe = rb_probe_start(rc, p, k, &pb->io);
	}
	rcu_read_unlock();
	if (probe)
		submit_bio_noacct(probe);

	pb->policy = p;
	pb->leg = i;
	bio_set_dev(bio, leg->dev->bdev);
	bio->bi_iter.bi_sector = leg->offset + pb->io.sector;
}

static int rb_map_read(struct readbal_c *rc, struct bio *bio,
		       struct rb_bio *pb)
{
	pb->io.sector = dm_target_offset(rc->ti, bio->bi_iter.bi_sector);
	pb->io.sectors = bio_sectors(bio);
	pb->io.eligible = READ_ONCE(rc->alive);
	/* a resyncing leg may serve what is already copied to it */
	if (unlikely(READ_ONCE(rc->writable) != pb->io.eligible) &&
	    pb->io.sector + pb->io.sectors <= READ_ONCE(rc->sync_done))
		pb->io.eligible |= READ_ONCE(rc->writable);
	/* a region not yet in sync: only the leg it is copied from */
	if (unlikely(!rb_log_range_in_sync(rc, pb->io.sector,
					   pb->io.sectors)))
		pb->io.eligible &= rb_log_source(rc);
	if (unlikely(!pb->io.eligible))
		return DM_MAPIO_KILL;
	pb->tried = 0;
	rb_route_read(rc, bio, pb, true);
	/* what a retry restores: the bio as sent, less the leg's remap */
	pb->record.flags = bio->bi_flags;
	pb->record.iter = bio->bi_iter;
	pb->record.remaining = atomic_read(&bio->__bi_remaining);
	return DM_MAPIO_REMAPPED;
}

static void rb_restore(struct bio *bio, struct rb_bio *pb)
{
	bio->bi_flags = pb->record.flags;
	bio->bi_iter = pb->record.iter;
	atomic_set(&bio->__bi_remaining, pb->record.remaining);
}

/*
 * The worker's side of a failed read (dm-raid1 does the same): a read
 * that came good after some legs failed it repairs their copies; one that
 * failed goes again to a healthy leg that has not failed it, or, when no
 * such leg is left, ends with the error.
 */
void rb_retry_work(struct work_struct *work)
{
	struct readbal_c *rc = container_of(work, struct readbal_c, retry_work);
	struct bio_list bios;
	struct rb_bio *pb;
	struct bio *bio;

	spin_lock_irq(&rc->slow_lock);
	bios = rc->retries;
	bio_list_init(&rc->retries);
	spin_unlock_irq(&rc->slow_lock);

	while ((bio = bio_list_pop(&bios))) {
		pb = dm_per_bio_data(bio, sizeof(*pb));
		if (!bio->bi_status) {
			rb_repair(rc, bio, pb);
			pb->policy = NULL;	/* end_io: nothing more to do */
			bio_endio(bio);
			continue;
		}
		pb->io.eligible = READ_ONCE(rc->alive) & ~pb->tried;
		/* other legs may be stale where the region is not in sync */
		if (!rb_log_range_in_sync(rc, pb->io.sector, pb->io.sectors))
			pb->io.eligible = 0;
		if (!pb->io.eligible) {
			/* read-ahead may fail: no message */
			if (!(bio->bi_opf & REQ_RAHEAD))
				DMERR_LIMIT("%s: read error at sector %llu (+%u) on every leg",
					    rb_name(rc), (u64)pb->io.sector,
					    pb->io.sectors);
			pb->policy = NULL;
			bio_endio(bio);		/* bi_status holds the error */
			continue;
		}
		rb_restore(bio, pb);
		bio->bi_status = BLK_STS_OK;
		rb_route_read(rc, bio, pb, false);
		submit_bio_noacct(bio);
	}
}

static void rb_queue_for_worker(struct readbal_c *rc, struct bio *bio)
{
	unsigned long flags;

	spin_lock_irqsave(&rc->slow_lock, flags);
	bio_list_add(&rc->retries, bio);
	spin_unlock_irqrestore(&rc->slow_lock, flags);
	queue_work(rc->wq, &rc->retry_work);
}

/* end_io of a failed read: returns true if it was queued for a retry. */
static bool rb_read_failed(struct readbal_c *rc, struct bio *bio,
			   struct rb_bio *pb, blk_status_t error)
{
	unsigned int i = pb->leg;

	/* nowait reads must not wait for a retry */
	if (error == BLK_STS_AGAIN)
		return false;
	/*
	 * Read-ahead may fail without a bad sector: a suspended dm leg fails
	 * it at once.  Failed, its pages stay in the cache not up to date and
	 * the reader fetches them one page at a time, so try another leg (md
	 * raid1 does), but neither count it against the leg nor repair.
	 */
	if (bio->bi_opf & REQ_RAHEAD) {
		pb->tried |= 1UL << i;
		rb_queue_for_worker(rc, bio);	/* it ends there if no leg is left */
		return true;
	}
	DMERR_LIMIT("%s: read error %d at sector %llu (+%u) on leg %u (%s), trying another leg",
		    rb_name(rc), blk_status_to_errno(error), (u64)pb->io.sector,
		    pb->io.sectors, i, rc->legs[i].dev->name);
	/* the last leg in sync stays (md raid1's rule): reads fail alone */
	if (atomic_inc_return(&rc->errors[i].read) >
	    READ_ONCE(rc->max_read_errors) && !rb_last_in_sync(rc, i))
		rb_fail_leg(rc, i, "too many read errors");
	pb->tried |= 1UL << i;
	rb_queue_for_worker(rc, bio);
	return true;
}

/* A read or a probe on @leg ended @ns after it was routed by @routed. */
void rb_read_ended(struct readbal_c *rc, struct rb_leg *leg,
		   struct rb_policy *routed, const struct rb_io *io, u64 ns)
{
	struct rb_policy *p;
	u64 ewma;

	/* Racy read-modify-write: losing an update now and then is fine. */
	ewma = READ_ONCE(leg->ewma_ns);
	WRITE_ONCE(leg->ewma_ns, ewma - (ewma >> 3) + (ns >> 3));
	atomic_dec(&leg->inflight);

	/*
	 * Only the policy that routed the read accounts its end; after a
	 * switch the old one may be gone.  Were a new policy to reuse the
	 * old one's address, it would only see a read of its own legs end.
	 */
	rcu_read_lock();
	p = rcu_dereference(rc->policy);
	if (p == routed && p->type->end_io)
		p->type->end_io(p, leg, io, ns);
	rcu_read_unlock();
}

static void rb_end_read(struct readbal_c *rc, struct rb_bio *pb)
{
	struct rb_leg *leg = &rc->legs[pb->leg];
	u64 ns = ktime_get_ns() - pb->io.start_ns;
	struct rb_leg_stats *s;

	s = get_cpu_ptr(leg->stats);
	s->reads++;
	s->read_sectors += pb->io.sectors;
	s->read_ns += ns;
	put_cpu_ptr(leg->stats);
	rb_read_ended(rc, leg, pb->policy, &pb->io, ns);
}

/*
 * Writes
 */

static void rb_write_done(struct rb_bio *pb)
{
	struct bio *orig = dm_bio_from_per_bio_data(pb, sizeof(*pb));
	struct readbal_c *rc = pb->rc;
	unsigned long failed = READ_ONCE(pb->failed);
	unsigned int i;

	rb_write_exit(rc, pb);
	rb_log_write_done(rc, pb);
	/* A write fails to the caller only if no leg took it. */
	if (failed) {
		for_each_set_bit(i, &failed, rc->set.nr_legs) {
			atomic_inc(&rc->errors[i].write);
			rb_fail_leg(rc, i, "write error");
		}
		if (!(pb->io.eligible & ~failed))
			orig->bi_status = pb->status;
	} else if (pb->status == BLK_STS_NOTSUPP) {
		orig->bi_status = BLK_STS_NOTSUPP;
	}
	bio_endio(orig);
}

static void rb_clone_endio(struct bio *bio)
{
	struct rb_clone *c = container_of(bio, struct rb_clone, clone);
	struct bio *orig = c->orig;
	struct rb_bio *pb = dm_per_bio_data(orig, sizeof(*pb));

	if (bio->bi_status == BLK_STS_NOTSUPP && bio_op(bio) != REQ_OP_WRITE) {
		/*
		 * A leg without discard or write-zeroes is not failing; a
		 * write-zeroes one leg could not do fails as a whole, so
		 * the block layer writes zeroes instead, to every leg.
		 */
		if (bio_op(bio) == REQ_OP_WRITE_ZEROES)
			pb->status = BLK_STS_NOTSUPP;
	} else if (bio->bi_status) {
		set_bit(c->leg, &pb->failed);
		pb->status = bio->bi_status;
	}
	/* before bio_put(): c is the clone's */
	atomic_dec(&pb->rc->legs[c->leg].writes);
	bio_put(bio);
	if (atomic_dec_and_test(&pb->pending))
		rb_write_done(pb);
}

/* From map(), or from the worker for a write held at a barrier. */
int rb_map_write(struct readbal_c *rc, struct bio *bio, struct rb_bio *pb)
{
	struct rb_clone *c;
	struct bio *clone;
	unsigned long legs;
	unsigned int i;

	if (!rb_write_enter(rc, bio, pb))
		return DM_MAPIO_SUBMITTED;	/* held; sent when it drops */
	/* read after entering: a resync that starts then sees this write */
	legs = READ_ONCE(rc->writable);
	if (unlikely(!legs)) {
		rb_write_exit(rc, pb);
		return DM_MAPIO_KILL;
	}
	pb->io.eligible = legs;
	pb->failed = 0;
	pb->status = BLK_STS_OK;
	atomic_set(&pb->pending, hweight_long(legs));

	for_each_set_bit(i, &legs, rc->set.nr_legs) {
		struct rb_leg *leg = &rc->legs[i];

		clone = bio_alloc_clone(leg->dev->bdev, bio, GFP_NOIO,
					&rc->clones);
		c = container_of(clone, struct rb_clone, clone);
		c->orig = bio;
		c->leg = i;
		if (bio_sectors(bio))
			clone->bi_iter.bi_sector = leg->offset +
				dm_target_offset(rc->ti, bio->bi_iter.bi_sector);
		clone->bi_end_io = rb_clone_endio;
		atomic_inc(&leg->writes);
		submit_bio_noacct(clone);
	}
	return DM_MAPIO_SUBMITTED;
}

int rb_map(struct dm_target *ti, struct bio *bio)
{
	struct readbal_c *rc = ti->private;
	struct rb_bio *pb = dm_per_bio_data(bio, sizeof(*pb));

	pb->rc = rc;
	if (bio_op(bio) == REQ_OP_READ)
		return rb_map_read(rc, bio, pb);
	pb->policy = NULL;
	if (rb_log_queue_write(rc, bio, pb))
		return DM_MAPIO_SUBMITTED;	/* sent once its region is marked */
	return rb_map_write(rc, bio, pb);
}

int rb_end_io(struct dm_target *ti, struct bio *bio, blk_status_t *error)
{
	struct readbal_c *rc = ti->private;
	struct rb_bio *pb = dm_per_bio_data(bio, sizeof(*pb));

	if (bio_op(bio) != REQ_OP_READ || !pb->policy)
		return DM_ENDIO_DONE;
	rb_end_read(rc, pb);
	if (unlikely(*error)) {
		if (rb_read_failed(rc, bio, pb, *error))
			return DM_ENDIO_INCOMPLETE;
	} else if (unlikely(pb->tried) && !(bio->bi_opf & REQ_RAHEAD)) {
		rb_queue_for_worker(rc, bio);	/* repair the legs that failed */
		return DM_ENDIO_INCOMPLETE;
	}
	return DM_ENDIO_DONE;
}
