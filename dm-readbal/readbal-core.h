/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-readbal: the target core's private state, shared by
 * readbal-target.c (table, status, messages), readbal-io.c (the I/O path)
 * and readbal-sync.c (write barriers, read repair, leg resync).
 */
#ifndef DM_READBAL_CORE_H
#define DM_READBAL_CORE_H

#include <linux/device-mapper.h>
#include <linux/dm-kcopyd.h>
#include <linux/dm-region-hash.h>
#include <linux/bio.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "readbal.h"

#define DM_MSG_PREFIX "readbal"

/*
 * Writes and the repairs or resync copies that must not race them meet at
 * barriers, as in md raid1: the mirror is cut into units, hashed into
 * buckets; a write counts itself in its unit's bucket, a repair raises the
 * bucket's barrier and waits for those writes to drain.
 */
#define RB_UNIT_SHIFT		17	/* 64 MiB units, in sectors */
#define RB_BUCKET_BITS		10
#define RB_BUCKETS		BIT(RB_BUCKET_BITS)

/* Resync copies this much at a time, between barriers. */
#define RB_SYNC_CHUNK		2048	/* sectors */

#define RB_MAX_READ_ERRORS	20	/* md raid1's default */

/* The dirty region log's default region: 1 MiB, in sectors. */
#define RB_REGION_SIZE		2048

enum rb_log_sync {
	RB_LOG_DEFAULT,			/* core: in sync; disk: as logged */
	RB_LOG_SYNC,			/* copy every region at activation */
	RB_LOG_NOSYNC,			/* trust the legs at activation */
};

struct readbal_c;

/* A region copy's kcopyd job: up to DM_KCOPYD_MAX_REGIONS legs. */
struct rb_copy_batch {
	struct readbal_c *rc;
	unsigned long legs;
};

/* The one region being copied (dm-raid1's MAX_RECOVERY is 1, too). */
struct rb_recovery {
	struct dm_region *reg;
	unsigned int from;
	bool failed;
	atomic_t pending;		/* kcopyd jobs not yet ended */
	struct rb_copy_batch batch[DIV_ROUND_UP(RB_MAX_LEGS, 8)];
};

struct rb_leg_errors {
	atomic_t read;			/* reads the leg failed */
	atomic_t corrected;		/* ... rewritten and verified */
	atomic_t uncorrected;		/* ... whose rewrite failed */
	atomic_t write;			/* writes the leg failed */
};

/* A leg's probe (readbal-probe.c): a read of its own that nobody waits for */
struct rb_probe {
	struct bio bio;
	struct bio_vec bvec;
	struct page *page;		/* what it reads into */
	struct readbal_c *rc;
	unsigned int leg;
	unsigned long flags;		/* RB_PROBE_BUSY */
	struct rb_policy *policy;	/* that asked for it */
	struct rb_io io;
};

struct readbal_c {
	struct dm_target *ti;
	struct rb_set set;
	/* bit n: leg n is in sync and healthy: reads may go there */
	unsigned long alive;
	/* bit n: leg n takes writes: alive, or being resynced */
	unsigned long writable;
	struct rb_policy __rcu *policy;
	struct mutex lock;		/* serialises messages and policy changes */
	struct bio_set clones;		/* write clones, one per leg */
	struct work_struct event_work;	/* dm_table_event() may sleep */
	struct workqueue_struct *wq;	/* retries, repairs, resync */
	struct work_struct retry_work;
	spinlock_t slow_lock;		/* retries and deferred writes only */
	struct bio_list retries;
	struct bio_list deferred;	/* writes held at a barrier */
	struct rb_leg_stats *baseline;	/* counters at the last reset_stats */
	struct rb_leg_errors *errors;
	unsigned int max_read_errors;
	unsigned long depth_given;	/* bit n: leg n's queue_depth feature */
	struct rb_probe *probes;	/* one a leg */
	atomic_t probes_in_flight;

	/* barriers */
	atomic_t nr_writes[RB_BUCKETS];
	atomic_t barrier[RB_BUCKETS];
	wait_queue_head_t barrier_wait;
	struct dm_io_client *io_client;	/* repair writes and verifies */

	/* resync of legs in writable but not alive */
	struct work_struct sync_work;
	struct dm_kcopyd_client *kcopyd;
	sector_t sync_done;		/* sectors in sync (READ_ONCE) */
	bool sync_stop;			/* presuspend: stop copying */

	/* the dirty region log (readbal-log.c) */
	struct dm_region_hash *rh;
	char *log_dev_path;		/* disk log device; NULL: core log */
	enum rb_log_sync log_sync;
	unsigned int region_size;	/* sectors, a power of 2 */
	unsigned int region_shift;
	region_t nr_regions;
	bool regions_in_sync;		/* every region (READ_ONCE) */
	bool log_failed;
	struct work_struct log_work;
	struct bio_list log_writes;	/* writes waiting for their mark */
	wait_queue_head_t recovery_wait;
	struct rb_recovery recovery;

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
	struct rb_io io;
	unsigned int leg;		/* the leg a read went to */
	unsigned long tried;		/* read: legs that failed it */
	struct rb_bio_record record;	/* read: the bio as mapped */
	int bucket;			/* write: barrier bucket, or -1 */
	atomic_t pending;		/* write clones not yet ended */
	unsigned long failed;		/* write: legs that failed it */
	blk_status_t status;		/* write: an error a leg returned */
	region_t region;		/* write: its region in the log */
	bool counted;			/* write: pending in the region hash */
};

/* A write clone: front_pad of the bio_set. */
struct rb_clone {
	struct bio *orig;
	unsigned int leg;
	struct bio clone;
};

static inline bool rb_leg_alive(struct readbal_c *rc, unsigned int leg)
{
	return READ_ONCE(rc->alive) & (1UL << leg);
}

/* Is @leg the only leg in sync (md raid1 never fails its last device)? */
static inline bool rb_last_in_sync(struct readbal_c *rc, unsigned int leg)
{
	return !(READ_ONCE(rc->alive) & ~(1UL << leg));
}

/* Where reads of a region not in sync go: the leg recovery copies from. */
static inline unsigned long rb_log_source(struct readbal_c *rc)
{
	unsigned long alive = READ_ONCE(rc->alive);

	return alive ? BIT(rb_first_leg(alive)) : 0;
}

static inline const char *rb_name(struct readbal_c *rc)
{
	return dm_table_device_name(rc->ti->table);
}

/* readbal-io.c */
int rb_map(struct dm_target *ti, struct bio *bio);
int rb_end_io(struct dm_target *ti, struct bio *bio, blk_status_t *error);
void rb_retry_work(struct work_struct *work);
int rb_map_write(struct readbal_c *rc, struct bio *bio, struct rb_bio *pb);
void rb_read_ended(struct readbal_c *rc, struct rb_leg *leg,
		   struct rb_policy *routed, const struct rb_io *io, u64 ns);
void rb_fail_leg(struct readbal_c *rc, unsigned int i, const char *why);
void rb_fail_source(struct readbal_c *rc, unsigned int from, sector_t sector,
		    const char *why);

/* readbal-probe.c */
int rb_probe_init(struct readbal_c *rc);
void rb_probe_exit(struct readbal_c *rc);
void rb_probe_wait(struct readbal_c *rc);
struct bio *rb_probe_start(struct readbal_c *rc, struct rb_policy *p,
			   unsigned int i, const struct rb_io *io);

/* readbal-sync.c */
bool rb_write_enter(struct readbal_c *rc, struct bio *bio, struct rb_bio *pb);
void rb_write_exit(struct readbal_c *rc, struct rb_bio *pb);
bool rb_repair(struct readbal_c *rc, struct bio *bio, struct rb_bio *pb);
void rb_sync_work(struct work_struct *work);
void rb_sync_start(struct readbal_c *rc);
struct dm_kcopyd_client *rb_kcopyd_create(void);

/* readbal-log.c */
int rb_log_create(struct readbal_c *rc);
void rb_log_destroy(struct readbal_c *rc);
u64 rb_log_sync_count(struct readbal_c *rc);
bool rb_log_range_in_sync_slow(struct readbal_c *rc, sector_t sector,
			       unsigned int sectors);
bool rb_log_queue_write(struct readbal_c *rc, struct bio *bio,
			struct rb_bio *pb);
void rb_log_write_done(struct readbal_c *rc, struct rb_bio *pb);
void rb_log_work(struct work_struct *work);
void rb_log_presuspend(struct readbal_c *rc);
void rb_log_postsuspend(struct readbal_c *rc);
void rb_log_resume(struct readbal_c *rc);
void rb_log_presuspend_undo(struct readbal_c *rc);

/* Is every region of [sector, sector + sectors) in sync?  Reads ask. */
static inline bool rb_log_range_in_sync(struct readbal_c *rc, sector_t sector,
					unsigned int sectors)
{
	if (likely(READ_ONCE(rc->regions_in_sync)))
		return true;
	return rb_log_range_in_sync_slow(rc, sector, sectors);
}

#endif
