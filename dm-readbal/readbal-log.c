// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal: crash consistency with the kernel's dirty region log.
 *
 * As in dm-raid1, the mirror is cut into regions, tracked by dm-region-hash
 * over a dm-dirty-log ("core" in memory, "disk" on a log device): a region
 * is marked dirty, and the mark made stable, before a write to it goes to
 * any leg, and cleaned once its writes have ended on every leg.  After a
 * crash the disk log names the regions whose legs may differ; on
 * activation dm-kcopyd copies them from the first leg in sync to the
 * others.  Until a region is in sync its reads go only to that leg, the
 * copy's source, so a read never returns what a later read might not.
 *
 * Marking a region may write the log device: the writes that need it are
 * sent from the worker (readbal_c.log_work), never from map().  A core log
 * whose regions are all in sync marks nothing worth keeping (it is lost
 * with the machine), so then writes skip the region hash and go out from
 * map() as before.
 *
 * Recovery and writes exclude each other through the region hash: a region
 * is copied once its writes have drained (dm_rh_recovery_prepare), and
 * writes arriving meanwhile are held (dm_rh_delay) until the copy ends.
 */
#include <linux/dm-dirty-log.h>
#include <linux/dm-io.h>
#include <linux/dm-region-hash.h>

#include "readbal-core.h"

#define RB_MAX_RECOVERY		1	/* regions copied at once, as dm-raid1 */

/* Region hash callbacks */

static void rb_log_dispatch_bios(void *context, struct bio_list *bios)
{
	struct readbal_c *rc = context;
	unsigned long flags;

	if (bio_list_empty(bios))
		return;
	spin_lock_irqsave(&rc->slow_lock, flags);
	bio_list_merge(&rc->log_writes, bios);
	spin_unlock_irqrestore(&rc->slow_lock, flags);
	queue_work(rc->wq, &rc->log_work);
}

static void rb_log_wakeup_worker(void *context)
{
	struct readbal_c *rc = context;

	queue_work(rc->wq, &rc->log_work);
}

static void rb_log_wakeup_recovery_waiters(void *context)
{
	struct readbal_c *rc = context;

	wake_up_all(&rc->recovery_wait);
}

/*
 * The disk log calls this before it writes clean marks: the data those
 * regions' writes left on the legs must be stable first.
 */
static int rb_log_flush_legs(struct dm_target *ti)
{
	struct readbal_c *rc = ti->private;
	unsigned long legs = READ_ONCE(rc->writable), error_bits;
	struct dm_io_region where[RB_MAX_LEGS];
	struct dm_io_request req = {
		.bi_opf = REQ_OP_WRITE | REQ_PREFLUSH | REQ_SYNC,
		.mem.type = DM_IO_KMEM,
		.mem.ptr.addr = NULL,
		.client = rc->io_client,
	};
	unsigned int i, n = 0;

	for_each_set_bit(i, &legs, rc->set.nr_legs) {
		where[n].bdev = rc->legs[i].dev->bdev;
		where[n].sector = 0;
		where[n].count = 0;
		n++;
	}
	if (!n)
		return -EIO;
	error_bits = 0;
	if (rb_dm_io(&req, n, where, &error_bits) || error_bits)
		return -EIO;
	return 0;
}

/*
 * Table
 */

/*
 * Create the log and the region hash from the table's features.  The
 * core log starts in sync unless "sync" is given: it cannot tell a first
 * activation from a reload, and a reload must not copy the whole mirror.
 */
int rb_log_create(struct readbal_c *rc)
{
	struct dm_target *ti = rc->ti;
	struct dm_dirty_log *log;
	char size[16], *argv[3];
	unsigned int argc = 0;
	const char *flag = NULL;

	if (!rc->region_size)
		rc->region_size = RB_REGION_SIZE;
	if (!is_power_of_2(rc->region_size) ||
	    rc->region_size < (PAGE_SIZE >> SECTOR_SHIFT) ||
	    rc->region_size > (1U << RB_UNIT_SHIFT)) {
		ti->error = "region_size must be a power of 2 from a page to 64 MiB";
		return -EINVAL;
	}
	if (rc->region_size > ti->len) {
		ti->error = "region_size is larger than the mirror";
		return -EINVAL;
	}
	snprintf(size, sizeof(size), "%u", rc->region_size);
	if (rc->log_sync == RB_LOG_SYNC)
		flag = "sync";
	else if (rc->log_sync == RB_LOG_NOSYNC || !rc->log_dev_path)
		flag = "nosync";
	if (rc->log_dev_path)
		argv[argc++] = rc->log_dev_path;
	argv[argc++] = size;
	if (flag)
		argv[argc++] = (char *)flag;

	log = dm_dirty_log_create(rc->log_dev_path ? "disk" : "core", ti,
				  rb_log_flush_legs, argc, argv);
	if (!log) {
		ti->error = rc->log_dev_path ?
			"Cannot create the disk log (is log_dev big enough?)" :
			"Cannot create the core log";
		return -EINVAL;
	}
	rc->nr_regions = dm_sector_div_up(ti->len, rc->region_size);
	rc->rh = dm_region_hash_create(rc, rb_log_dispatch_bios,
				       rb_log_wakeup_worker,
				       rb_log_wakeup_recovery_waiters,
				       ti->begin, RB_MAX_RECOVERY, log,
				       rc->region_size, rc->nr_regions);
	if (IS_ERR(rc->rh)) {
		rc->rh = NULL;
		dm_dirty_log_destroy(log);
		ti->error = "Cannot create the region hash";
		return -ENOMEM;
	}
	return 0;
}

void rb_log_destroy(struct readbal_c *rc)
{
	if (rc->rh)
		dm_region_hash_destroy(rc->rh);	/* and the log */
}

static struct dm_dirty_log *rb_log(struct readbal_c *rc)
{
	return dm_rh_dirty_log(rc->rh);
}

/* Regions in sync, as status shows them */
u64 rb_log_sync_count(struct readbal_c *rc)
{
	return rb_log(rc)->type->get_sync_count(rb_log(rc));
}

/*
 * Reads
 */

/* rb_log_range_in_sync() when some region is not in sync */
bool rb_log_range_in_sync_slow(struct readbal_c *rc, sector_t sector,
			       unsigned int sectors)
{
	struct dm_dirty_log *log = rb_log(rc);
	region_t r, last;

	last = (sector + max(sectors, 1U) - 1) >> rc->region_shift;
	for (r = sector >> rc->region_shift; r <= last; r++)
		if (log->type->in_sync(log, r, 0) != 1)
			return false;
	return true;
}

/*
 * Writes
 */

/*
 * From map(): does this write go through the region hash?  If so it is
 * cut at its region's end and queued for the worker.
 */
bool rb_log_queue_write(struct readbal_c *rc, struct bio *bio,
			struct rb_bio *pb)
{
	sector_t sector, region_end;
	unsigned long flags;

	pb->counted = false;
	if (!bio_sectors(bio) || bio_op(bio) == REQ_OP_DISCARD)
		return false;	/* flushes and discards mark no region */
	if (!rc->log_dev_path && READ_ONCE(rc->regions_in_sync))
		return false;
	sector = dm_target_offset(rc->ti, bio->bi_iter.bi_sector);
	region_end = round_up(sector + 1, (sector_t)rc->region_size);
	if (sector + bio_sectors(bio) > region_end)
		dm_accept_partial_bio(bio, region_end - sector);
	pb->region = sector >> rc->region_shift;

	spin_lock_irqsave(&rc->slow_lock, flags);
	bio_list_add(&rc->log_writes, bio);
	spin_unlock_irqrestore(&rc->slow_lock, flags);
	queue_work(rc->wq, &rc->log_work);
	return true;
}

/* A write that marked its region has ended on every leg. */
void rb_log_write_done(struct readbal_c *rc, struct rb_bio *pb)
{
	if (pb->counted) {
		pb->counted = false;
		dm_rh_dec(rc->rh, pb->region);
	}
}

/* Mark the writes' regions dirty, make that stable, then send them. */
static void rb_log_do_writes(struct readbal_c *rc, struct bio_list *writes)
{
	struct bio_list go;
	struct rb_bio *pb;
	struct bio *bio;

	bio_list_init(&go);
	while ((bio = bio_list_pop(writes))) {
		pb = dm_per_bio_data(bio, sizeof(*pb));
		if (dm_rh_get_state(rc->rh, pb->region, 1) ==
		    DM_RH_RECOVERING)
			dm_rh_delay(rc->rh, bio);	/* sent after the copy */
		else
			bio_list_add(&go, bio);
	}
	if (bio_list_empty(&go))
		return;
	dm_rh_inc_pending(rc->rh, &go);
	if (dm_rh_flush(rc->rh) && !rc->log_failed) {
		/* Writes go on; a crash now may leave the legs different. */
		rc->log_failed = true;
		DMERR("%s: the dirty region log failed: legs are not crash-safe until the table is reloaded",
		      rb_name(rc));
		schedule_work(&rc->event_work);
	}
	while ((bio = bio_list_pop(&go))) {
		pb = dm_per_bio_data(bio, sizeof(*pb));
		pb->counted = true;
		if (rb_map_write(rc, bio, pb) == DM_MAPIO_KILL) {
			rb_log_write_done(rc, pb);
			bio_io_error(bio);
		}
	}
}

/*
 * Recovery
 */

/*
 * A read error on the leg a region is copied from.  Until the region is in
 * sync only that leg holds data to trust ("sync" says the others may hold
 * anything), so the region stays out of sync and is read from that leg
 * only, where just the bad sector fails; failing the leg would let the
 * next copy come from one of the others.  The error counts as a read's
 * would (max_read_errors); a suspend and resume copies the region again.
 */
static void rb_log_source_error(struct readbal_c *rc, struct rb_recovery *rec)
{
	sector_t sector = dm_rh_region_to_sector(rc->rh,
						 dm_rh_get_region_key(rec->reg));
	unsigned int i = rec->from;

	DMERR_LIMIT("%s: read error on leg %u (%s) copying the region at sector %llu: it stays out of sync, read from that leg only; rewrite the bad sector, then suspend and resume to copy it again",
		    rb_name(rc), i, rc->legs[i].dev->name, (u64)sector);
	if (atomic_inc_return(&rc->errors[i].read) >
	    READ_ONCE(rc->max_read_errors))
		rb_fail_source(rc, i, sector, "too many read errors");
}

/* One kcopyd copy of a region to up to DM_KCOPYD_MAX_REGIONS legs ended. */
static void rb_log_copy_done(int read_err, unsigned long write_err,
			     void *context)
{
	struct rb_copy_batch *batch = context;
	struct readbal_c *rc = batch->rc;
	struct rb_recovery *rec = &rc->recovery;
	unsigned long legs = batch->legs;
	unsigned int i, bit = 0;

	if (read_err) {
		rec->failed = true;
		rb_log_source_error(rc, rec);
	}
	for_each_set_bit(i, &legs, rc->set.nr_legs) {
		if (write_err & BIT(bit++)) {
			rec->failed = true;
			atomic_inc(&rc->errors[i].write);
			rb_fail_leg(rc, i, "write error during region recovery");
		}
	}
	if (atomic_dec_and_test(&rec->pending))
		dm_rh_recovery_end(rec->reg, !rec->failed);
}

/* Copy a quiesced region from the first leg in sync to the other legs. */
static void rb_log_recover(struct readbal_c *rc, struct dm_region *reg)
{
	struct rb_recovery *rec = &rc->recovery;
	struct dm_io_region from, to[DM_KCOPYD_MAX_REGIONS];
	region_t key = dm_rh_get_region_key(reg);
	sector_t sector = dm_rh_region_to_sector(rc->rh, key);
	unsigned long alive = READ_ONCE(rc->alive), legs;
	unsigned int i, n = 0, nr_batches = 0;

	if (!alive) {
		dm_rh_recovery_end(reg, 0);
		return;
	}
	rec->reg = reg;
	rec->failed = false;
	rec->from = rb_first_leg(alive);
	legs = READ_ONCE(rc->writable) & ~BIT(rec->from);
	/* the batches first, so that no copy ends before all are counted */
	memset(rec->batch, 0, sizeof(rec->batch));
	for_each_set_bit(i, &legs, rc->set.nr_legs) {
		rec->batch[n / DM_KCOPYD_MAX_REGIONS].legs |= BIT(i);
		n++;
	}
	nr_batches = DIV_ROUND_UP(n, DM_KCOPYD_MAX_REGIONS);
	if (!nr_batches) {
		dm_rh_recovery_end(reg, 1);	/* one copy: nothing differs */
		return;
	}
	atomic_set(&rec->pending, nr_batches);

	from.bdev = rc->legs[rec->from].dev->bdev;
	from.sector = rc->legs[rec->from].offset + sector;
	from.count = min_t(sector_t, rc->region_size, rc->ti->len - sector);
	for (n = 0; n < nr_batches; n++) {
		struct rb_copy_batch *batch = &rec->batch[n];
		unsigned int m = 0;

		batch->rc = rc;
		legs = batch->legs;
		for_each_set_bit(i, &legs, rc->set.nr_legs) {
			to[m].bdev = rc->legs[i].dev->bdev;
			to[m].sector = rc->legs[i].offset + sector;
			to[m].count = from.count;
			m++;
		}
		dm_kcopyd_copy(rc->kcopyd, &from, m, to, 0, rb_log_copy_done,
			       batch);
	}
}

static void rb_log_do_recovery(struct readbal_c *rc)
{
	struct dm_dirty_log *log = rb_log(rc);
	struct dm_region *reg;

	if (READ_ONCE(rc->regions_in_sync))
		return;
	if (READ_ONCE(rc->alive)) {
		dm_rh_recovery_prepare(rc->rh);
		while ((reg = dm_rh_recovery_start(rc->rh)))
			rb_log_recover(rc, reg);
	}
	if (log->type->get_sync_count(log) == rc->nr_regions) {
		WRITE_ONCE(rc->regions_in_sync, true);
		DMINFO("%s: every region in sync", rb_name(rc));
		schedule_work(&rc->event_work);
	}
}

/* The worker: region states, then recovery, then the queued writes. */
void rb_log_work(struct work_struct *work)
{
	struct readbal_c *rc = container_of(work, struct readbal_c, log_work);
	struct bio_list writes;

	spin_lock_irq(&rc->slow_lock);
	writes = rc->log_writes;
	bio_list_init(&rc->log_writes);
	spin_unlock_irq(&rc->slow_lock);

	dm_rh_update_states(rc->rh, 1);
	rb_log_do_recovery(rc);
	rb_log_do_writes(rc, &writes);
}

/*
 * Suspend and resume, as dm-raid1: copying stops and its held writes are
 * sent before the suspend completes; the disk log is flushed after it and
 * read again at resume, which tells which regions are in sync.
 */
void rb_log_presuspend(struct readbal_c *rc)
{
	struct dm_dirty_log *log = rb_log(rc);

	dm_rh_stop_recovery(rc->rh);
	wait_event(rc->recovery_wait, !dm_rh_recovery_in_flight(rc->rh));
	if (log->type->presuspend && log->type->presuspend(log))
		DMWARN("%s: log presuspend failed", rb_name(rc));
	flush_work(&rc->log_work);
}

void rb_log_postsuspend(struct readbal_c *rc)
{
	struct dm_dirty_log *log = rb_log(rc);

	if (log->type->postsuspend && log->type->postsuspend(log))
		DMWARN("%s: log postsuspend failed", rb_name(rc));
}

void rb_log_resume(struct readbal_c *rc)
{
	struct dm_dirty_log *log = rb_log(rc);

	if (log->type->resume && log->type->resume(log))
		DMWARN("%s: log resume failed", rb_name(rc));
	WRITE_ONCE(rc->regions_in_sync,
		   log->type->get_sync_count(log) == rc->nr_regions);
	if (!rc->regions_in_sync)
		DMINFO("%s: %llu of %llu regions to resync", rb_name(rc),
		       (u64)(rc->nr_regions - log->type->get_sync_count(log)),
		       (u64)rc->nr_regions);
	dm_rh_start_recovery(rc->rh);
}

/* A suspend that failed after presuspend: copying goes on. */
void rb_log_presuspend_undo(struct readbal_c *rc)
{
	dm_rh_start_recovery(rc->rh);
}
