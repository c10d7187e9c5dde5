// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal: keeping the legs' copies the same.
 *
 * Barriers: a repair or a resync copy reads one leg and writes another; a
 * write landing in between would leave the legs different.  As in md
 * raid1 (wait_barrier/raise_barrier), writes count themselves per bucket
 * of 64 MiB units, and the copier raises the bucket's barrier and waits
 * for its writes to drain; writes arriving meanwhile are held and sent
 * when the barrier drops.  Reads never wait.
 *
 * Read repair (md's fix_read_error): under the barrier, read the range
 * again from a good leg, write it over each leg that failed the read, and
 * read it back to compare.
 *
 * Resync: a leg that is reinstated, or named in a "rebuild" feature, takes
 * writes at once but serves reads only once dm-kcopyd has copied every
 * chunk to it from a leg in sync, one chunk under its barrier at a time.
 */
#include <linux/dm-io.h>
#include <linux/hash.h>
#include <linux/ioprio.h>
#include <linux/mm.h>

#include "readbal-core.h"

/* Resync speed: a percentage like dm-raid1's raid1_resync_throttle. */
DECLARE_DM_KCOPYD_THROTTLE_WITH_MODULE_PARM(readbal_resync_throttle,
					   "A percentage of time for leg resync");

#define RB_REPAIR_CHUNK		128	/* sectors read and written at once */

static unsigned int rb_bucket(sector_t sector)
{
	return hash_long(sector >> RB_UNIT_SHIFT, RB_BUCKET_BITS);
}

/*
 * A write enters its unit's bucket, unless a barrier is up there: then it
 * is held (returns false) and sent again when the barrier drops.  In
 * map(), a write that crosses a unit's end is cut there first.
 */
bool rb_write_enter(struct readbal_c *rc, struct bio *bio, struct rb_bio *pb)
{
	sector_t sector, unit_end;
	unsigned long flags;
	unsigned int b;

	pb->bucket = -1;
	if (!bio_sectors(bio))
		return true;		/* an empty flush */
	sector = dm_target_offset(rc->ti, bio->bi_iter.bi_sector);
	unit_end = round_up(sector + 1, 1ULL << RB_UNIT_SHIFT);
	if (sector + bio_sectors(bio) > unit_end)
		dm_accept_partial_bio(bio, unit_end - sector);
	b = rb_bucket(sector);

	for (;;) {
		atomic_inc(&rc->nr_writes[b]);
		smp_mb__after_atomic();	/* pairs with rb_barrier_raise() */
		if (likely(!atomic_read(&rc->barrier[b]))) {
			pb->bucket = b;
			return true;
		}
		if (atomic_dec_and_test(&rc->nr_writes[b]))
			wake_up(&rc->barrier_wait);
		spin_lock_irqsave(&rc->slow_lock, flags);
		if (atomic_read(&rc->barrier[b])) {
			bio_list_add(&rc->deferred, bio);
			spin_unlock_irqrestore(&rc->slow_lock, flags);
			return false;
		}
		spin_unlock_irqrestore(&rc->slow_lock, flags);
	}
}

void rb_write_exit(struct readbal_c *rc, struct rb_bio *pb)
{
	if (pb->bucket < 0)
		return;
	/* a full barrier: pairs with rb_barrier_raise() */
	if (atomic_dec_and_test(&rc->nr_writes[pb->bucket]) &&
	    atomic_read(&rc->barrier[pb->bucket]))
		wake_up(&rc->barrier_wait);
	pb->bucket = -1;
}

static void rb_barrier_raise(struct readbal_c *rc, unsigned int b)
{
	atomic_inc(&rc->barrier[b]);
	smp_mb__after_atomic();	/* pairs with rb_write_enter() */
	wait_event(rc->barrier_wait, !atomic_read(&rc->nr_writes[b]));
}

static void rb_barrier_lower(struct readbal_c *rc, unsigned int b)
{
	struct bio_list held;
	struct rb_bio *pb;
	struct bio *bio;

	spin_lock_irq(&rc->slow_lock);
	atomic_dec(&rc->barrier[b]);
	held = rc->deferred;
	bio_list_init(&rc->deferred);
	spin_unlock_irq(&rc->slow_lock);

	/* Writes of other buckets still barred are held again. */
	while ((bio = bio_list_pop(&held))) {
		pb = dm_per_bio_data(bio, sizeof(*pb));
		if (rb_map_write(rc, bio, pb) == DM_MAPIO_KILL)
			bio_io_error(bio);
	}
}

/* One synchronous dm-io transfer between @buf and a leg. */
static int rb_leg_io(struct readbal_c *rc, unsigned int leg, blk_opf_t opf,
		     sector_t sector, unsigned int sectors, void *buf)
{
	struct dm_io_region where = {
		.bdev = rc->legs[leg].dev->bdev,
		.sector = rc->legs[leg].offset + sector,
		.count = sectors,
	};
	struct dm_io_request req = {
		.bi_opf = opf,
		.mem.type = DM_IO_KMEM,
		.mem.ptr.addr = buf,
		.client = rc->io_client,
	};
	unsigned long error_bits = 0;
	int r = rb_dm_io(&req, 1, &where, &error_bits);

	return r ?: (error_bits ? -EIO : 0);
}

/* Rewrite one chunk of each bad leg from @good; false if it cannot. */
static void rb_repair_chunk(struct readbal_c *rc, unsigned int good,
			    unsigned long *bad, sector_t sector,
			    unsigned int sectors, void *data, void *check)
{
	size_t len = (size_t)sectors << SECTOR_SHIFT;
	unsigned int i;

	if (rb_leg_io(rc, good, REQ_OP_READ, sector, sectors, data)) {
		*bad = 0;	/* the good leg failed too: leave it to retries */
		return;
	}
	for_each_set_bit(i, bad, rc->set.nr_legs) {
		if (!rb_leg_io(rc, i, REQ_OP_WRITE | REQ_SYNC, sector, sectors,
			       data) &&
		    !rb_leg_io(rc, i, REQ_OP_READ, sector, sectors, check) &&
		    !memcmp(data, check, len))
			continue;
		clear_bit(i, bad);
		atomic_inc(&rc->errors[i].uncorrected);
		rb_fail_leg(rc, i, "read error could not be corrected");
	}
}

/*
 * The read in @pb came good from pb->leg after the legs in pb->tried
 * failed it: fix their copies.  Runs in the worker; the read waits.
 */
bool rb_repair(struct readbal_c *rc, struct bio *bio, struct rb_bio *pb)
{
	sector_t start = pb->io.sector, end = start + pb->io.sectors, s;
	unsigned int b1 = rb_bucket(start), b2 = rb_bucket(end - 1), n, i;
	unsigned long bad = pb->tried & READ_ONCE(rc->writable);
	void *data, *check;

	if (!bad)
		return false;
	data = kmalloc(RB_REPAIR_CHUNK << SECTOR_SHIFT, GFP_NOIO);
	check = kmalloc(RB_REPAIR_CHUNK << SECTOR_SHIFT, GFP_NOIO);
	if (!data || !check) {
		kfree(data);
		kfree(check);
		return false;
	}
	rb_barrier_raise(rc, b1);
	if (b2 != b1)
		rb_barrier_raise(rc, b2);
	for (s = start; s < end && bad; s += n) {
		n = min_t(sector_t, RB_REPAIR_CHUNK, end - s);
		rb_repair_chunk(rc, pb->leg, &bad, s, n, data, check);
	}
	if (b2 != b1)
		rb_barrier_lower(rc, b2);
	rb_barrier_lower(rc, b1);
	kfree(data);
	kfree(check);

	for_each_set_bit(i, &bad, rc->set.nr_legs) {
		atomic_inc(&rc->errors[i].corrected);
		DMINFO("%s: leg %u (%s): read error at sector %llu (+%u) corrected",
		       rb_name(rc), i, rc->legs[i].dev->name, (u64)start,
		       pb->io.sectors);
	}
	return bad != 0;
}

/*
 * Resync
 */

struct rb_copy {
	struct completion done;
	int read_err;
	unsigned long write_err;
};

static void rb_copy_done(int read_err, unsigned long write_err, void *context)
{
	struct rb_copy *copy = context;

	copy->read_err = read_err;
	copy->write_err = write_err;
	complete(&copy->done);
}

/*
 * Copy one chunk from leg @from to the legs in @to, under its barrier;
 * kcopyd takes at most DM_KCOPYD_MAX_REGIONS destinations at once.
 */
static int rb_sync_chunk(struct readbal_c *rc, unsigned int from,
			 unsigned long to, sector_t sector, sector_t count)
{
	struct dm_io_region src, dst[DM_KCOPYD_MAX_REGIONS];
	unsigned int i, n = 0, b = rb_bucket(sector);
	unsigned int legs[DM_KCOPYD_MAX_REGIONS];
	struct rb_copy copy;
	int r = 0;

	src.bdev = rc->legs[from].dev->bdev;
	src.sector = rc->legs[from].offset + sector;
	src.count = count;
	rb_barrier_raise(rc, b);
	while (to && !r) {
		for (n = 0; to && n < DM_KCOPYD_MAX_REGIONS; n++) {
			i = rb_first_leg(to);
			to &= ~BIT(i);
			legs[n] = i;
			dst[n].bdev = rc->legs[i].dev->bdev;
			dst[n].sector = rc->legs[i].offset + sector;
			dst[n].count = count;
		}
		init_completion(&copy.done);
		dm_kcopyd_copy(rc->kcopyd, &src, n, dst, 0, rb_copy_done,
			       &copy);
		wait_for_completion(&copy.done);
		if (copy.read_err)
			r = -EIO;
		for (i = 0; i < n; i++) {
			if (copy.write_err & BIT(i)) {
				atomic_inc(&rc->errors[legs[i]].write);
				rb_fail_leg(rc, legs[i],
					    "write error during resync");
			}
		}
	}
	rb_barrier_lower(rc, b);
	return r;
}

void rb_sync_work(struct work_struct *work)
{
	struct readbal_c *rc = container_of(work, struct readbal_c, sync_work);
	sector_t len = rc->ti->len, s, n;
	unsigned long to, from_mask;
	unsigned int from;

	for (s = READ_ONCE(rc->sync_done); s < len; s += n) {
		to = READ_ONCE(rc->writable) & ~READ_ONCE(rc->alive);
		from_mask = READ_ONCE(rc->alive);
		if (!to || !from_mask || READ_ONCE(rc->sync_stop))
			return;
		from = rb_first_leg(from_mask);
		n = min_t(sector_t, RB_SYNC_CHUNK, len - s);
		if (rb_sync_chunk(rc, from, to, s, n)) {
			/* the same chunk again, from another leg, if any */
			rb_fail_source(rc, from, s, "read error during resync");
			n = 0;
			continue;
		}
		WRITE_ONCE(rc->sync_done, s + n);
		cond_resched();
	}
	to = READ_ONCE(rc->writable) & ~READ_ONCE(rc->alive);
	for_each_set_bit(from, &to, rc->set.nr_legs) {
		set_bit(from, &rc->alive);
		smp_mb__after_atomic();	/* pairs with rb_fail_leg() */
		if (test_bit(RB_LEG_FAILED, &rc->legs[from].flags))
			clear_bit(from, &rc->alive);
		else
			DMINFO("%s: leg %u (%s) in sync", rb_name(rc), from,
			       rc->legs[from].dev->name);
	}
	schedule_work(&rc->event_work);
}

/* Start or resume copying to the legs that take writes but not reads. */
void rb_sync_start(struct readbal_c *rc)
{
	WRITE_ONCE(rc->sync_stop, false);
	if (READ_ONCE(rc->writable) & ~READ_ONCE(rc->alive))
		queue_work(rc->wq, &rc->sync_work);
}

struct dm_kcopyd_client *rb_kcopyd_create(void)
{
	return dm_kcopyd_client_create(&dm_kcopyd_throttle);
}
