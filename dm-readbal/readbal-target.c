// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal: an N-way mirror whose reads are routed by a read policy.
 *
 * Every write goes to all healthy legs; every read goes to one leg, chosen
 * by the active policy (readbal-policy.c and policy-*.c).  The read path
 * takes no lock: the policy is found under RCU, per-leg state is atomics
 * and per-CPU counters.  See docs/readbal.rst for the table, status and
 * message formats.
 */
#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/part_stat.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/ktime.h>

#include "readbal.h"

#define DM_MSG_PREFIX "readbal"

/* Fields per leg in status INFO: parsers skip the ones they do not know. */
#define RB_LEG_INFO_FIELDS	7
/* Room for every knob of a policy as "<knob> <value>" pairs. */
#define RB_MAX_POLICY_ARGS	32

struct readbal_c {
	struct dm_target *ti;
	struct rb_set set;
	unsigned long alive;		/* bit n: leg n is healthy (READ_ONCE) */
	struct rb_policy __rcu *policy;
	struct mutex lock;		/* serialises messages and policy changes */
	struct bio_set clones;		/* write clones, one per leg */
	struct work_struct event_work;	/* dm_table_event() may sleep */
	struct workqueue_struct *wq;	/* read retries */
	struct work_struct retry_work;
	spinlock_t retry_lock;		/* error path only */
	struct bio_list retries;
	struct rb_leg_stats *baseline;	/* counters at the last reset_stats */
	struct rb_leg legs[];
};

/*
 * What a read needs to be sent again after a leg failed it: the fields
 * dm-bio-record.h saves (that header is not in the headers packages).
 */
struct rb_bio_record {
	unsigned long flags;
	struct bvec_iter iter;
	int remaining;
};

/* Per-bio data of every bio the target maps. */
struct rb_bio {
	struct readbal_c *rc;
	struct rb_policy *policy;	/* the policy that routed the read */
	u64 start_ns;
	struct rb_io io;
	unsigned int leg;		/* the leg a read went to */
	unsigned long tried;		/* read: legs that failed it */
	struct rb_bio_record record;	/* read: the bio as mapped */
	atomic_t pending;		/* write clones not yet ended */
	unsigned long failed;		/* write: legs that failed it */
	blk_status_t status;		/* write: an error a leg returned */
};

/* A write clone: front_pad of the bio_set. */
struct rb_clone {
	struct bio *orig;
	unsigned int leg;
	struct bio clone;
};

static void rb_retry_work(struct work_struct *work);

static bool rb_leg_alive(struct readbal_c *rc, unsigned int leg)
{
	return READ_ONCE(rc->alive) & (1UL << leg);
}

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

static void rb_leg_sum_stats(struct rb_leg *leg, struct rb_leg_stats *sum)
{
	struct rb_leg_stats *s;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		s = per_cpu_ptr(leg->stats, cpu);
		sum->reads += READ_ONCE(s->reads);
		sum->read_sectors += READ_ONCE(s->read_sectors);
		sum->read_ns += READ_ONCE(s->read_ns);
	}
}

/* Counters since the last reset_stats. */
static void rb_leg_stats_since_reset(struct readbal_c *rc, unsigned int i,
				     struct rb_leg_stats *out)
{
	struct rb_leg_stats *base = &rc->baseline[i];

	rb_leg_sum_stats(&rc->legs[i], out);
	out->reads -= base->reads;
	out->read_sectors -= base->read_sectors;
	out->read_ns -= base->read_ns;
}

static void rb_event_work(struct work_struct *work)
{
	struct readbal_c *rc = container_of(work, struct readbal_c, event_work);

	dm_table_event(rc->ti->table);
}

/* Take a leg out of service; may run in interrupt context. */
static void rb_fail_leg(struct readbal_c *rc, unsigned int i, const char *why)
{
	if (test_and_set_bit(RB_LEG_FAILED, &rc->legs[i].flags))
		return;
	clear_bit(i, &rc->alive);
	DMERR("%s: leg %u (%s) failed: %s", dm_table_device_name(rc->ti->table),
	      i, rc->legs[i].dev->name, why);
	schedule_work(&rc->event_work);
}

/*
 * Policies
 */

/* A policy and what frees it once no read can still see it. */
struct rb_policy_box {
	struct rb_policy p;
	struct rcu_work free_work;
};

static void rb_policy_free(struct rb_policy *p)
{
	if (!p)
		return;
	p->type->destroy(p);
	kfree(container_of(p, struct rb_policy_box, p));
}

static void rb_policy_free_work(struct work_struct *work)
{
	struct rb_policy_box *box = container_of(to_rcu_work(work),
						 struct rb_policy_box,
						 free_work);

	rb_policy_free(&box->p);
}

/*
 * Build a policy from "<knob> <value>" pairs.  On error nothing is left
 * allocated and *error says why.
 */
static struct rb_policy *rb_policy_new(struct readbal_c *rc,
				       const struct rb_policy_type *type,
				       unsigned int argc, char **argv,
				       char **error)
{
	struct rb_policy_box *box;
	struct rb_policy *p;
	unsigned int i;
	int knob, r;

	if (argc % 2) {
		*error = "Policy arguments must be <knob> <value> pairs";
		return ERR_PTR(-EINVAL);
	}
	box = kzalloc(sizeof(*box), GFP_KERNEL);
	if (!box) {
		*error = "Cannot allocate policy";
		return ERR_PTR(-ENOMEM);
	}
	INIT_RCU_WORK(&box->free_work, rb_policy_free_work);
	p = &box->p;
	p->type = type;
	p->set = &rc->set;
	r = type->create(p);
	if (r) {
		kfree(box);
		*error = "Cannot create policy";
		return ERR_PTR(r);
	}
	for (i = 0; i < argc; i += 2) {
		knob = rb_policy_knob_index(type, argv[i]);
		if (knob < 0 || !type->set_knob) {
			*error = "Unknown knob for this policy";
			r = -EINVAL;
			goto bad;
		}
		r = type->set_knob(p, knob, argv[i + 1], error);
		if (r)
			goto bad;
	}
	return p;
bad:
	rb_policy_free(p);
	return ERR_PTR(r);
}

/* Emit "<name> <#args> [<knob> <value>]..." */
static unsigned int rb_policy_emit(struct rb_policy *p, char *result,
				   unsigned int maxlen, unsigned int sz)
{
	unsigned int i, n = rb_policy_nr_knobs(p->type);
	char value[64];

	DMEMIT("%s %u", p->type->name, 2 * n);
	for (i = 0; i < n; i++) {
		p->type->show_knob(p, i, value, sizeof(value));
		DMEMIT(" %s %s", p->type->knobs[i], value);
	}
	return sz;
}

/*
 * Construct: see docs/readbal.rst.
 *
 * <#legs> {<dev> <offset>}... <policy> <#policy args> {<knob> <value>}...
 * [<#features> <feature>...]
 */
static int rb_parse_leg(struct readbal_c *rc, struct dm_arg_set *as,
			unsigned int i)
{
	struct dm_target *ti = rc->ti;
	struct rb_leg *leg = &rc->legs[i];
	unsigned long long offset;
	const char *path = dm_shift_arg(as);
	const char *off = dm_shift_arg(as);
	unsigned int j;
	char dummy;
	int r;

	if (!path || !off) {
		ti->error = "Missing leg device or offset";
		return -EINVAL;
	}
	if (sscanf(off, "%llu%c", &offset, &dummy) != 1 ||
	    offset != (sector_t)offset) {
		ti->error = "Invalid leg offset";
		return -EINVAL;
	}
	r = dm_get_device(ti, path, dm_table_get_mode(ti->table), &leg->dev);
	if (r) {
		ti->error = "Leg device lookup failed";
		return r;
	}
	for (j = 0; j < i; j++) {
		if (rc->legs[j].dev->bdev == leg->dev->bdev) {
			ti->error = "The same device is given as two legs";
			return -EINVAL;
		}
	}
	if (offset + ti->len > bdev_nr_sectors(leg->dev->bdev)) {
		ti->error = "Leg is smaller than offset + target length";
		return -EINVAL;
	}
	leg->index = i;
	leg->offset = offset;
	leg->nonrot = bdev_nonrot(leg->dev->bdev);
	/* roundrobin never finds room below a depth of 0 */
	leg->queue_depth = bdev_get_queue(leg->dev->bdev)->nr_requests ?: 1;
	leg->disk_wait_stamp = jiffies - 1;
	leg->stats = alloc_percpu(struct rb_leg_stats);
	if (!leg->stats) {
		ti->error = "Cannot allocate leg statistics";
		return -ENOMEM;
	}
	return 0;
}

static int rb_parse_policy(struct readbal_c *rc, struct dm_arg_set *as)
{
	static const struct dm_arg policy_args = {
		0, RB_MAX_POLICY_ARGS, "Invalid number of policy arguments"
	};
	struct dm_target *ti = rc->ti;
	const struct rb_policy_type *type;
	const char *name = dm_shift_arg(as);
	struct rb_policy *p;
	unsigned int argc;
	int r;

	if (!name) {
		ti->error = "Missing read policy";
		return -EINVAL;
	}
	type = rb_policy_find(name);
	if (!type) {
		ti->error = "Unknown read policy (see the list_policies message)";
		return -EINVAL;
	}
	r = dm_read_arg_group(&policy_args, as, &argc, &ti->error);
	if (r)
		return r;
	p = rb_policy_new(rc, type, argc, as->argv, &ti->error);
	if (IS_ERR(p))
		return PTR_ERR(p);
	dm_consume_args(as, argc);
	RCU_INIT_POINTER(rc->policy, p);
	return 0;
}

static int rb_parse_features(struct readbal_c *rc, struct dm_arg_set *as)
{
	static const struct dm_arg feature_args = {
		0, 0, "Invalid number of features (none are defined yet)"
	};
	struct dm_target *ti = rc->ti;
	unsigned int argc;
	int r;

	if (!as->argc)
		return 0;
	r = dm_read_arg_group(&feature_args, as, &argc, &ti->error);
	if (r)
		return r;
	if (as->argc) {
		ti->error = "Unexpected arguments after the features";
		return -EINVAL;
	}
	return 0;
}

static void readbal_dtr(struct dm_target *ti)
{
	struct readbal_c *rc = ti->private;
	unsigned int i;

	flush_work(&rc->event_work);
	if (rc->wq) {
		rcu_barrier();	/* queues the old policies' free_work */
		destroy_workqueue(rc->wq);
	}
	rb_policy_free(rcu_dereference_protected(rc->policy, 1));
	for (i = 0; i < rc->set.nr_legs; i++) {
		if (rc->legs[i].dev)
			dm_put_device(ti, rc->legs[i].dev);
		free_percpu(rc->legs[i].stats);
	}
	bioset_exit(&rc->clones);
	kfree(rc->baseline);
	kfree(rc);
}

static int readbal_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	static const struct dm_arg leg_count = {
		2, RB_MAX_LEGS, "Invalid number of legs (2 to 16)"
	};
	struct dm_arg_set as = { .argc = argc, .argv = argv };
	struct readbal_c *rc;
	unsigned int nr_legs, i, nonrot = 0;
	int r;

	r = dm_read_arg(&leg_count, &as, &nr_legs, &ti->error);
	if (r)
		return r;

	rc = kzalloc(struct_size(rc, legs, nr_legs), GFP_KERNEL);
	if (!rc) {
		ti->error = "Cannot allocate mirror context";
		return -ENOMEM;
	}
	rc->ti = ti;
	rc->set.legs = rc->legs;
	mutex_init(&rc->lock);
	INIT_WORK(&rc->event_work, rb_event_work);
	INIT_WORK(&rc->retry_work, rb_retry_work);
	spin_lock_init(&rc->retry_lock);
	bio_list_init(&rc->retries);
	ti->private = rc;

	rc->wq = alloc_workqueue("kreadbald", WQ_MEM_RECLAIM, 0);
	if (!rc->wq) {
		ti->error = "Cannot allocate workqueue";
		r = -ENOMEM;
		goto bad;
	}

	rc->baseline = kcalloc(nr_legs, sizeof(*rc->baseline), GFP_KERNEL);
	if (!rc->baseline) {
		ti->error = "Cannot allocate statistics";
		r = -ENOMEM;
		goto bad;
	}
	/*
	 * Writes are cloned from map(), inside the submitter's bio list: the
	 * rescuer keeps the clone allocations from deadlocking there.
	 */
	r = bioset_init(&rc->clones, BIO_POOL_SIZE * nr_legs,
			offsetof(struct rb_clone, clone), BIOSET_NEED_RESCUER);
	if (r) {
		ti->error = "Cannot allocate bio set";
		goto bad;
	}

	for (i = 0; i < nr_legs; i++) {
		rc->set.nr_legs = i + 1;	/* what the destructor frees */
		r = rb_parse_leg(rc, &as, i);
		if (r)
			goto bad;
		nonrot += rc->legs[i].nonrot;
		rc->alive |= 1UL << i;
	}
	rc->set.mixed = nonrot && nonrot < nr_legs;

	r = rb_parse_policy(rc, &as);
	if (r)
		goto bad;
	r = rb_parse_features(rc, &as);
	if (r)
		goto bad;

	ti->num_flush_bios = 1;
	ti->num_discard_bios = 1;
	ti->num_write_zeroes_bios = 1;
	ti->per_io_data_size = sizeof(struct rb_bio);
	return 0;
bad:
	readbal_dtr(ti);
	return r;
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
	struct rb_policy *p;
	struct rb_leg *leg;
	unsigned int i, n;

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
	rcu_read_unlock();

	pb->policy = p;
	pb->leg = i;
	pb->start_ns = ktime_get_ns();
	bio_set_dev(bio, leg->dev->bdev);
	bio->bi_iter.bi_sector = leg->offset + pb->io.sector;
}

static int rb_map_read(struct readbal_c *rc, struct bio *bio,
		       struct rb_bio *pb)
{
	pb->io.sector = dm_target_offset(rc->ti, bio->bi_iter.bi_sector);
	pb->io.sectors = bio_sectors(bio);
	pb->io.eligible = READ_ONCE(rc->alive);
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

/*
 * Read errors: the read goes again to a healthy leg that has not failed
 * it, from the worker (dm-raid1 does the same); only when every healthy
 * leg failed it does the caller see the error.
 */
static void rb_retry_work(struct work_struct *work)
{
	struct readbal_c *rc = container_of(work, struct readbal_c, retry_work);
	struct bio_list bios;
	struct rb_bio *pb;
	struct bio *bio;

	spin_lock_irq(&rc->retry_lock);
	bios = rc->retries;
	bio_list_init(&rc->retries);
	spin_unlock_irq(&rc->retry_lock);

	while ((bio = bio_list_pop(&bios))) {
		pb = dm_per_bio_data(bio, sizeof(*pb));
		pb->io.eligible = READ_ONCE(rc->alive) & ~pb->tried;
		if (!pb->io.eligible) {
			DMERR_LIMIT("%s: read error at sector %llu (+%u) on every leg",
				    dm_table_device_name(rc->ti->table),
				    (u64)pb->io.sector, pb->io.sectors);
			pb->policy = NULL;	/* end_io: nothing to account */
			bio_endio(bio);		/* bi_status holds the error */
			continue;
		}
		bio->bi_flags = pb->record.flags;
		bio->bi_iter = pb->record.iter;
		atomic_set(&bio->__bi_remaining, pb->record.remaining);
		bio->bi_status = BLK_STS_OK;
		rb_route_read(rc, bio, pb, false);
		submit_bio_noacct(bio);
	}
}

/* end_io of a failed read: returns true if it was queued for a retry. */
static bool rb_queue_retry(struct readbal_c *rc, struct bio *bio,
			   struct rb_bio *pb, blk_status_t error)
{
	unsigned long flags;

	/* Read-ahead may fail; nowait reads must not wait for a retry. */
	if ((bio->bi_opf & REQ_RAHEAD) || error == BLK_STS_AGAIN)
		return false;
	DMERR_LIMIT("%s: read error %d at sector %llu (+%u) on leg %u (%s), trying another leg",
		    dm_table_device_name(rc->ti->table),
		    blk_status_to_errno(error), (u64)pb->io.sector,
		    pb->io.sectors, pb->leg, rc->legs[pb->leg].dev->name);
	pb->tried |= 1UL << pb->leg;
	spin_lock_irqsave(&rc->retry_lock, flags);
	bio_list_add(&rc->retries, bio);
	spin_unlock_irqrestore(&rc->retry_lock, flags);
	queue_work(rc->wq, &rc->retry_work);
	return true;
}

static void rb_end_read(struct readbal_c *rc, struct rb_bio *pb)
{
	struct rb_leg *leg = &rc->legs[pb->leg];
	u64 ns = ktime_get_ns() - pb->start_ns;
	struct rb_leg_stats *s;
	struct rb_policy *p;
	u64 ewma;

	s = get_cpu_ptr(leg->stats);
	s->reads++;
	s->read_sectors += pb->io.sectors;
	s->read_ns += ns;
	put_cpu_ptr(leg->stats);

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
	if (p == pb->policy && p->type->end_io)
		p->type->end_io(p, leg, &pb->io, ns);
	rcu_read_unlock();
}

/*
 * Writes, flushes, discards and write-zeroes: one clone per healthy leg.
 * Clones share the original's pages, so any size passes; each leg splits
 * what it cannot take in one request.  dm-io would copy the bio vector
 * and needs a worker thread to stay out of the submitter's bio list.
 */

static void rb_write_done(struct rb_bio *pb)
{
	struct bio *orig = dm_bio_from_per_bio_data(pb, sizeof(*pb));
	struct readbal_c *rc = pb->rc;
	unsigned long failed = READ_ONCE(pb->failed);
	unsigned int i;

	/* A write fails to the caller only if it reached no leg. */
	if (failed) {
		for_each_set_bit(i, &failed, rc->set.nr_legs)
			rb_fail_leg(rc, i, "write error");
		if (!(READ_ONCE(rc->alive) & ~failed))
			orig->bi_status = pb->status;
	}
	bio_endio(orig);
}

static void rb_clone_endio(struct bio *bio)
{
	struct rb_clone *c = container_of(bio, struct rb_clone, clone);
	struct bio *orig = c->orig;
	struct rb_bio *pb = dm_per_bio_data(orig, sizeof(*pb));

	if (bio->bi_status && !(bio_op(bio) == REQ_OP_DISCARD &&
				bio->bi_status == BLK_STS_NOTSUPP)) {
		set_bit(c->leg, &pb->failed);
		pb->status = bio->bi_status;
	}
	bio_put(bio);
	if (atomic_dec_and_test(&pb->pending))
		rb_write_done(pb);
}

static int rb_map_write(struct readbal_c *rc, struct bio *bio,
			struct rb_bio *pb)
{
	unsigned long legs = READ_ONCE(rc->alive);
	struct rb_clone *c;
	struct bio *clone;
	unsigned int i;

	if (unlikely(!legs))
		return DM_MAPIO_KILL;
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
		submit_bio_noacct(clone);
	}
	return DM_MAPIO_SUBMITTED;
}

static int readbal_map(struct dm_target *ti, struct bio *bio)
{
	struct readbal_c *rc = ti->private;
	struct rb_bio *pb = dm_per_bio_data(bio, sizeof(*pb));

	pb->rc = rc;
	if (bio_op(bio) == REQ_OP_READ)
		return rb_map_read(rc, bio, pb);
	pb->policy = NULL;
	return rb_map_write(rc, bio, pb);
}

static int readbal_end_io(struct dm_target *ti, struct bio *bio,
			  blk_status_t *error)
{
	struct readbal_c *rc = ti->private;
	struct rb_bio *pb = dm_per_bio_data(bio, sizeof(*pb));

	if (bio_op(bio) != REQ_OP_READ || !pb->policy)
		return DM_ENDIO_DONE;
	rb_end_read(rc, pb);
	if (unlikely(*error) && rb_queue_retry(rc, bio, pb, *error))
		return DM_ENDIO_INCOMPLETE;
	return DM_ENDIO_DONE;
}

/*
 * Status
 */

static char rb_leg_state_char(struct readbal_c *rc, unsigned int i)
{
	return rb_leg_alive(rc, i) ? 'A' : 'D';
}

static void readbal_status(struct dm_target *ti, status_type_t type,
			   unsigned int status_flags, char *result,
			   unsigned int maxlen)
{
	struct readbal_c *rc = ti->private;
	struct rb_leg_stats s;
	struct rb_policy *p;
	unsigned int i, sz = 0;

	rcu_read_lock();
	p = rcu_dereference(rc->policy);
	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("%u %u", rc->set.nr_legs, RB_LEG_INFO_FIELDS);
		for (i = 0; i < rc->set.nr_legs; i++) {
			struct rb_leg *leg = &rc->legs[i];

			rb_leg_stats_since_reset(rc, i, &s);
			DMEMIT(" %s %c %d %llu %llu %llu %llu", leg->dev->name,
			       rb_leg_state_char(rc, i),
			       atomic_read(&leg->inflight), s.reads,
			       s.read_sectors,
			       s.reads ? div64_u64(s.read_ns, s.reads * 1000) : 0,
			       (u64)(leg->offset + READ_ONCE(leg->last_end)));
		}
		DMEMIT(" ");
		sz = rb_policy_emit(p, result, maxlen, sz);
		break;
	case STATUSTYPE_TABLE:
		DMEMIT("%u", rc->set.nr_legs);
		for (i = 0; i < rc->set.nr_legs; i++)
			DMEMIT(" %s %llu", rc->legs[i].dev->name,
			       (u64)rc->legs[i].offset);
		DMEMIT(" ");
		sz = rb_policy_emit(p, result, maxlen, sz);
		break;
	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",nr_legs=%u", rc->set.nr_legs);
		for (i = 0; i < rc->set.nr_legs; i++)
			DMEMIT(",leg_device_%u=%s,leg_device_%u_status=%c", i,
			       rc->legs[i].dev->name, i,
			       rb_leg_state_char(rc, i));
		DMEMIT(",read_policy=%s;", p->type->name);
		break;
	}
	rcu_read_unlock();
}

/*
 * Messages
 */

/*
 * Replace the active policy.  Reads keep flowing: those that found the old
 * one finish with it, and it is freed after an RCU grace period, without
 * making the message wait for one.
 */
static int rb_msg_policy(struct readbal_c *rc, unsigned int argc, char **argv)
{
	const struct rb_policy_type *type = rb_policy_find(argv[1]);
	struct rb_policy *p, *old;
	char *error = NULL;

	if (!type) {
		DMWARN("unknown policy %s (see the list_policies message)",
		       argv[1]);
		return -EINVAL;
	}
	p = rb_policy_new(rc, type, argc - 2, argv + 2, &error);
	if (IS_ERR(p)) {
		DMWARN("policy %s: %s", argv[1], error);
		return PTR_ERR(p);
	}
	old = rcu_replace_pointer(rc->policy, p, lockdep_is_held(&rc->lock));
	queue_rcu_work(rc->wq, &container_of(old, struct rb_policy_box,
					     p)->free_work);
	return 0;
}

/* Set knobs of the active policy: all are checked before any is set. */
static int rb_msg_set(struct readbal_c *rc, unsigned int argc, char **argv)
{
	struct rb_policy *p = rcu_dereference_protected(rc->policy,
					lockdep_is_held(&rc->lock));
	const struct rb_policy_type *type = p->type;
	struct rb_policy *check;
	char *error = NULL;
	unsigned int i;
	int r;

	/* Validate on a scratch policy, so a bad pair changes nothing. */
	check = rb_policy_new(rc, type, argc - 1, argv + 1, &error);
	if (IS_ERR(check)) {
		DMWARN("set: %s", error);
		return PTR_ERR(check);
	}
	rb_policy_free(check);
	for (i = 1; i < argc; i += 2) {
		r = type->set_knob(p, rb_policy_knob_index(type, argv[i]),
				   argv[i + 1], &error);
		if (WARN_ON_ONCE(r))
			return r;
	}
	return 0;
}

static void rb_msg_reset_stats(struct readbal_c *rc)
{
	unsigned int i;

	for (i = 0; i < rc->set.nr_legs; i++)
		rb_leg_sum_stats(&rc->legs[i], &rc->baseline[i]);
}

static int rb_msg_fail_leg(struct readbal_c *rc, const char *arg)
{
	unsigned int i;

	if (kstrtouint(arg, 10, &i) || i >= rc->set.nr_legs) {
		DMWARN("fail_leg: no leg %s", arg);
		return -EINVAL;
	}
	rb_fail_leg(rc, i, "failed by message");
	return 0;
}

static void rb_msg_list_policies(char *result, unsigned int maxlen)
{
	const struct rb_policy_type *type;
	unsigned int i, sz = 0;

	for (i = 0; (type = rb_policy_type_at(i)); i++)
		DMEMIT("%s%s", i ? " " : "", type->name);
}

static int rb_msg_list_knobs(struct readbal_c *rc, const char *name,
			     char *result, unsigned int maxlen)
{
	const struct rb_policy_type *type;
	unsigned int i, sz = 0;

	type = name ? rb_policy_find(name) :
		rcu_dereference_protected(rc->policy,
					  lockdep_is_held(&rc->lock))->type;
	if (!type) {
		DMWARN("list_knobs: unknown policy %s", name);
		return -EINVAL;
	}
	for (i = 0; type->knobs && type->knobs[i]; i++)
		DMEMIT("%s%s", i ? " " : "", type->knobs[i]);
	return 0;
}

static int readbal_message(struct dm_target *ti, unsigned int argc,
			   char **argv, char *result, unsigned int maxlen)
{
	struct readbal_c *rc = ti->private;
	const char *cmd = argv[0];
	int r = -EINVAL;

	mutex_lock(&rc->lock);
	if (!strcasecmp(cmd, "policy") && argc >= 2) {
		r = rb_msg_policy(rc, argc, argv);
	} else if (!strcasecmp(cmd, "set") && argc >= 3 && argc % 2) {
		r = rb_msg_set(rc, argc, argv);
	} else if (!strcasecmp(cmd, "reset_stats") && argc == 1) {
		rb_msg_reset_stats(rc);
		r = 0;
	} else if (!strcasecmp(cmd, "fail_leg") && argc == 2) {
		r = rb_msg_fail_leg(rc, argv[1]);
	} else if (!strcasecmp(cmd, "list_policies") && argc == 1) {
		rb_msg_list_policies(result, maxlen);
		r = 1;	/* the result buffer holds the answer */
	} else if (!strcasecmp(cmd, "list_knobs") && argc <= 2) {
		r = rb_msg_list_knobs(rc, argc == 2 ? argv[1] : NULL,
				      result, maxlen);
		if (!r)
			r = 1;
	} else {
		DMWARN("unrecognised message: %s with %u arguments", cmd,
		       argc - 1);
	}
	mutex_unlock(&rc->lock);
	return r;
}

static void readbal_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
	struct readbal_c *rc = ti->private;
	struct rb_policy *p;
	unsigned int io_opt = 0;

	rcu_read_lock();
	p = rcu_dereference(rc->policy);
	if (p->type->io_opt)
		io_opt = p->type->io_opt(p);
	rcu_read_unlock();
	if (io_opt)
		blk_limits_io_opt(limits, io_opt);
}

static int readbal_iterate_devices(struct dm_target *ti,
				   iterate_devices_callout_fn fn, void *data)
{
	struct readbal_c *rc = ti->private;
	unsigned int i;
	int r = 0;

	for (i = 0; !r && i < rc->set.nr_legs; i++)
		r = fn(ti, rc->legs[i].dev, rc->legs[i].offset, ti->len, data);
	return r;
}

static struct target_type readbal_target = {
	.name = "readbal",
	.version = {1, 0, 0},
	.module = THIS_MODULE,
	.ctr = readbal_ctr,
	.dtr = readbal_dtr,
	.map = readbal_map,
	.end_io = readbal_end_io,
	.status = readbal_status,
	.message = readbal_message,
	.iterate_devices = readbal_iterate_devices,
	.io_hints = readbal_io_hints,
};

static int __init dm_readbal_init(void)
{
	int r = dm_register_target(&readbal_target);

	if (r < 0)
		DMERR("register failed %d", r);
	return r;
}

static void __exit dm_readbal_exit(void)
{
	dm_unregister_target(&readbal_target);
}

module_init(dm_readbal_init);
module_exit(dm_readbal_exit);

MODULE_DESCRIPTION(DM_NAME " N-way mirror with pluggable read balancing");
MODULE_AUTHOR("dm-readbal developers");
MODULE_LICENSE("GPL");
