/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-readbal: legs as the read policies see them, and the policy interface.
 *
 * This header is shared by the target core and by every policy file.  The
 * policy files include nothing else, so that tests/unit can build the very
 * same sources in user space against a thin shim of these few headers.
 *
 * The interface is modelled on dm-multipath's path selectors
 * (drivers/md/dm-path-selector.h): a policy type is registered by name and
 * provides create/destroy, select, optional start_io/end_io accounting, an
 * optional probe of a leg beside a read, and named knobs that are set by
 * table line or message and printed by status.
 */
#ifndef DM_READBAL_H
#define DM_READBAL_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

/* Legs per mirror: an unsigned long holds a bitmask of them on 32-bit too. */
#define RB_MAX_LEGS	16

/* Bits of rb_leg.flags */
#define RB_LEG_FAILED	0	/* never chosen for reads, not written */

/* Per-CPU read statistics of a leg: no shared cache line on the fast path. */
struct rb_leg_stats {
	u64 reads;
	u64 read_sectors;
	u64 read_ns;		/* sum of read service times */
};

/*
 * One leg of the mirror.  Fields a policy may read: index, nonrot,
 * queue_depth, max_sectors, inflight, writes, last_end, ewma_ns.  The
 * core keeps them current.
 */
struct rb_leg {
	/* written on every read: keep together */
	atomic_t inflight;		/* reads issued and not yet ended */
	sector_t last_end;		/* physical sector after the last read (READ_ONCE) */
	u64 ewma_ns;			/* recent read service time, 1/8 weight (READ_ONCE) */
	struct rb_leg_stats __percpu *stats;
	atomic_t writes;		/* write clones issued and not yet ended */

	/* set at construction */
	unsigned int index;
	bool nonrot;			/* bdev_nonrot() of the leg */
	unsigned int queue_depth;	/* the leg queue's nr_requests */
	unsigned int max_sectors;	/* its largest request */
	unsigned long flags;		/* RB_LEG_* bits */
	sector_t offset;		/* start of the mirror on the leg */
	struct dm_dev *dev;		/* core only */

	/* rb_leg_disk_read_wait_ns() cache: part_stat sums every CPU */
	u64 disk_wait_ns;
	unsigned long disk_wait_stamp;	/* jiffies of disk_wait_ns */
};

/* The legs of one mirror, as a policy sees them. */
struct rb_set {
	unsigned int nr_legs;
	bool mixed;			/* both rotational and non-rotational legs */
	struct rb_leg *legs;
};

/* One read to route. */
struct rb_io {
	sector_t sector;		/* physical sector, relative to each leg's offset */
	unsigned int sectors;
	unsigned long eligible;		/* bit n: leg n may serve this read */
	/*
	 * ktime_get_ns() when the core routed it: a policy's "now" in
	 * chunk/select, and start_ns + service_ns is when end_io runs, so
	 * policies read no clock of their own.
	 */
	u64 start_ns;
	/*
	 * end_io: a probe that failed (the core's, see probe): its time says
	 * nothing of the leg.  A read that fails is retried and counted.
	 */
	bool failed;
};

struct rb_policy;

struct rb_policy_type {
	const char *name;
	const char *const *knobs;	/* NULL terminated; table and status order */

	/* Allocate p->context and set default knob values. */
	int (*create)(struct rb_policy *p);
	void (*destroy)(struct rb_policy *p);

	/*
	 * Set knob number @knob from @value; on a bad value return -EINVAL
	 * with *error set, and change nothing.  Called while reads run.
	 */
	int (*set_knob)(struct rb_policy *p, unsigned int knob, const char *value,
			char **error);
	/* Print knob number @knob's value; returns the length printed. */
	int (*show_knob)(struct rb_policy *p, unsigned int knob, char *buf,
			 size_t len);

	/*
	 * Pick a leg for @io among io->eligible (never empty).  Lock free:
	 * runs concurrently on every CPU.  Returns the leg index.
	 */
	unsigned int (*select)(struct rb_policy *p, const struct rb_io *io);

	/*
	 * Optional: how many sectors of @io (1 to io->sectors) the chosen leg
	 * serves; the core hands the rest back to dm as a new read
	 * (dm_accept_partial_bio), routed on its own.  Called before select,
	 * in map() only: a retried read is never split again.
	 */
	unsigned int (*chunk)(struct rb_policy *p, const struct rb_io *io);
	/*
	 * Optional: io_opt in bytes to advertise when the table is loaded,
	 * so the kernel's read-ahead can keep every leg busy; 0 for none.
	 */
	unsigned int (*io_opt)(struct rb_policy *p);

	/* Optional accounting, called for reads routed by this policy. */
	void (*start_io)(struct rb_policy *p, struct rb_leg *leg,
			 const struct rb_io *io);
	void (*end_io)(struct rb_policy *p, struct rb_leg *leg,
		       const struct rb_io *io, u64 service_ns);

	/*
	 * Optional: a leg to measure now, beside @io routed to @chosen, or
	 * -1.  The core sends it a probe of its own (RB_PROBE_SECTORS at
	 * io->sector, rounded down), which start_io and end_io see as a read
	 * on that leg and nobody waits for; at most one a leg at a time, so
	 * the leg may get none.  Called after select and start_io.
	 */
	int (*probe)(struct rb_policy *p, const struct rb_io *io,
		     unsigned int chosen);
};

/* What a probe reads: 4 KiB, the legs' largest logical block */
#define RB_PROBE_SECTORS	8

struct rb_policy {
	const struct rb_policy_type *type;
	struct rb_set *set;
	void *context;
};

/* readbal-policy.c: the registry and knob helpers */
const struct rb_policy_type *rb_policy_find(const char *name);
const struct rb_policy_type *rb_policy_type_at(unsigned int i);
int rb_policy_knob_index(const struct rb_policy_type *type, const char *name);
unsigned int rb_policy_nr_knobs(const struct rb_policy_type *type);
int rb_policy_parse_uint(const char *value, unsigned int min, unsigned int max,
			 unsigned int *out, char **error);
/*
 * Knobs kept as an array of unsigned ints, each within [min[i], max[i]]
 * (min may be NULL: 0): the set_knob/show_knob of most policies.
 */
struct rb_uint_knobs {
	unsigned int nr;
	const unsigned int *min;
	const unsigned int *max;
};

int rb_uint_knob_set(const struct rb_uint_knobs *k, unsigned int *values,
		     unsigned int knob, const char *value, char **error);
int rb_uint_knob_show(const struct rb_uint_knobs *k,
		      const unsigned int *values, unsigned int knob, char *buf,
		      size_t len);
unsigned int rb_first_leg(unsigned long mask);
unsigned int rb_next_leg(unsigned long mask, unsigned int after,
			 unsigned int nr_legs);
unsigned int rb_least_inflight(struct rb_set *set, unsigned long mask);

/*
 * Average read wait of the leg's block device from its disk statistics
 * (part_stat nsecs/ios of reads): counts I/O from outside the mirror too.
 * Refreshed at most once a jiffy.  Defined by the target core; the
 * unit-test shim provides its own.
 */
u64 rb_leg_disk_read_wait_ns(struct rb_leg *leg);

static inline bool rb_leg_eligible(const struct rb_io *io, unsigned int leg)
{
	return io->eligible & (1UL << leg);
}

/* How far apart two sectors are, either way round */
static inline sector_t rb_sector_dist(sector_t a, sector_t b)
{
	return a > b ? a - b : b - a;
}

extern const struct rb_policy_type rb_policy_pid;
extern const struct rb_policy_type rb_policy_roundrobin;
extern const struct rb_policy_type rb_policy_latency;
extern const struct rb_policy_type rb_policy_device;
extern const struct rb_policy_type rb_policy_round_robin;
extern const struct rb_policy_type rb_policy_md;
extern const struct rb_policy_type rb_policy_zfs;
extern const struct rb_policy_type rb_policy_hst;
extern const struct rb_policy_type rb_policy_adaptive;

#endif
