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
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/rcupdate.h>

#include "readbal-core.h"

/* Fields per leg in status INFO: parsers skip the ones they do not know. */
#define RB_LEG_INFO_FIELDS	11
/* Room for every knob of a policy as "<knob> <value>" pairs. */
#define RB_MAX_POLICY_ARGS	32

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
		if (r) {
			/* the caller's error names neither: say which */
			DMWARN("%s %s %s: %s", type->name, argv[i], argv[i + 1],
			       *error);
			goto bad;
		}
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
	leg->max_sectors = queue_max_sectors(bdev_get_queue(leg->dev->bdev));
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

/*
 * [<#features> {max_read_errors <n> | rebuild <leg> | region_size <sectors> |
 *               log_dev <dev> | sync | nosync | queue_depth <leg> <n>}...]
 */
static int rb_parse_features(struct readbal_c *rc, struct dm_arg_set *as)
{
	static const struct dm_arg feature_args = {
		0, 5 * RB_MAX_LEGS + 7, "Invalid number of features"
	};
	static const struct dm_arg queue_depth = {
		1, 65536, "Invalid queue_depth"
	};
	static const struct dm_arg max_errors = {
		0, INT_MAX, "Invalid max_read_errors"
	};
	static const struct dm_arg region_size = {
		1, UINT_MAX, "Invalid region_size"
	};
	struct dm_target *ti = rc->ti;
	struct dm_arg_set group;
	const char *name;
	unsigned int argc, leg;
	int r;

	if (!as->argc)
		return 0;
	r = dm_read_arg_group(&feature_args, as, &argc, &ti->error);
	if (r)
		return r;
	group.argc = argc;
	group.argv = as->argv;
	dm_consume_args(as, argc);
	if (as->argc) {
		ti->error = "Unexpected arguments after the features";
		return -EINVAL;
	}
	while (group.argc) {
		name = dm_shift_arg(&group);
		if (!strcasecmp(name, "sync") || !strcasecmp(name, "nosync")) {
			if (rc->log_sync) {
				ti->error = "Give only one of sync and nosync";
				return -EINVAL;
			}
			rc->log_sync = strcasecmp(name, "sync") ?
				RB_LOG_NOSYNC : RB_LOG_SYNC;
			continue;
		}
		if (!group.argc) {
			ti->error = "Feature without its value";
			return -EINVAL;
		}
		if (!strcasecmp(name, "max_read_errors")) {
			r = dm_read_arg(&max_errors, &group,
					&rc->max_read_errors, &ti->error);
			if (r)
				return r;
		} else if (!strcasecmp(name, "rebuild")) {
			if (kstrtouint(dm_shift_arg(&group), 10, &leg) ||
			    leg >= rc->set.nr_legs) {
				ti->error = "rebuild names no leg";
				return -EINVAL;
			}
			clear_bit(leg, &rc->alive);
		} else if (!strcasecmp(name, "queue_depth")) {
			/*
			 * A stacked leg (an LV, dm-crypt) has no tags of its
			 * own: its submitter waits for the disk's below.
			 */
			if (group.argc < 2 ||
			    kstrtouint(dm_shift_arg(&group), 10, &leg) ||
			    leg >= rc->set.nr_legs) {
				ti->error = "queue_depth names no leg";
				return -EINVAL;
			}
			r = dm_read_arg(&queue_depth, &group,
					&rc->legs[leg].queue_depth, &ti->error);
			if (r)
				return r;
			set_bit(leg, &rc->depth_given);
		} else if (!strcasecmp(name, "region_size")) {
			r = dm_read_arg(&region_size, &group,
					&rc->region_size, &ti->error);
			if (r)
				return r;
		} else if (!strcasecmp(name, "log_dev")) {
			kfree(rc->log_dev_path);
			rc->log_dev_path = kstrdup(dm_shift_arg(&group),
						   GFP_KERNEL);
			if (!rc->log_dev_path) {
				ti->error = "Cannot allocate log device name";
				return -ENOMEM;
			}
		} else {
			ti->error = "Unrecognised feature";
			return -EINVAL;
		}
	}
	if (!rc->alive) {
		ti->error = "Every leg is to be rebuilt: no leg to copy from";
		return -EINVAL;
	}
	return 0;
}

static void readbal_dtr(struct dm_target *ti)
{
	struct readbal_c *rc = ti->private;
	unsigned int i;

	WRITE_ONCE(rc->sync_stop, true);
	if (rc->wq) {
		rcu_barrier();	/* queues the old policies' free_work */
		destroy_workqueue(rc->wq);
	}
	flush_work(&rc->event_work);
	rb_log_destroy(rc);
	kfree(rc->log_dev_path);
	if (rc->kcopyd)
		dm_kcopyd_client_destroy(rc->kcopyd);
	if (rc->io_client)
		dm_io_client_destroy(rc->io_client);
	rb_probe_wait(rc);
	rb_probe_exit(rc);
	rb_policy_free(rcu_dereference_protected(rc->policy, 1));
	for (i = 0; i < rc->set.nr_legs; i++) {
		if (rc->legs[i].dev)
			dm_put_device(ti, rc->legs[i].dev);
		free_percpu(rc->legs[i].stats);
	}
	bioset_exit(&rc->clones);
	kfree(rc->errors);
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
	INIT_WORK(&rc->sync_work, rb_sync_work);
	INIT_WORK(&rc->log_work, rb_log_work);
	bio_list_init(&rc->log_writes);
	init_waitqueue_head(&rc->recovery_wait);
	spin_lock_init(&rc->slow_lock);
	bio_list_init(&rc->retries);
	bio_list_init(&rc->deferred);
	init_waitqueue_head(&rc->barrier_wait);
	rc->max_read_errors = RB_MAX_READ_ERRORS;
	ti->private = rc;

	rc->wq = alloc_workqueue("kreadbald", WQ_MEM_RECLAIM, 0);
	if (!rc->wq) {
		ti->error = "Cannot allocate workqueue";
		r = -ENOMEM;
		goto bad;
	}

	rc->baseline = kcalloc(nr_legs, sizeof(*rc->baseline), GFP_KERNEL);
	rc->errors = kcalloc(nr_legs, sizeof(*rc->errors), GFP_KERNEL);
	if (!rc->baseline || !rc->errors) {
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
	rc->io_client = dm_io_client_create();
	if (IS_ERR(rc->io_client)) {
		r = PTR_ERR(rc->io_client);
		rc->io_client = NULL;
		ti->error = "Cannot create dm-io client";
		goto bad;
	}
	rc->kcopyd = rb_kcopyd_create();
	if (IS_ERR(rc->kcopyd)) {
		r = PTR_ERR(rc->kcopyd);
		rc->kcopyd = NULL;
		ti->error = "Cannot create kcopyd client";
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
	rc->writable = rc->alive;
	r = rb_probe_init(rc);
	if (r) {
		ti->error = "Cannot allocate probes";
		goto bad;
	}

	r = rb_parse_policy(rc, &as);
	if (r)
		goto bad;
	r = rb_parse_features(rc, &as);
	if (r)
		goto bad;
	r = rb_log_create(rc);
	if (r)
		goto bad;
	rc->region_shift = __ffs(rc->region_size);

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
 * Status
 */

/* As dm-raid: A in sync, a taking writes while it resyncs, D failed. */
static char rb_leg_state_char(struct readbal_c *rc, unsigned int i)
{
	if (rb_leg_alive(rc, i))
		return 'A';
	return READ_ONCE(rc->writable) & (1UL << i) ? 'a' : 'D';
}

static unsigned long rb_syncing(struct readbal_c *rc)
{
	return READ_ONCE(rc->writable) & ~READ_ONCE(rc->alive);
}

/*
 * Regions in sync: in the log, and, while a leg is rebuilt, below the
 * point its copy has reached.
 */
static u64 rb_regions_in_sync(struct readbal_c *rc)
{
	u64 n = rb_log_sync_count(rc);

	if (rb_syncing(rc))
		n = min_t(u64, n, READ_ONCE(rc->sync_done) >> rc->region_shift);
	return n;
}

/*
 * The legs a reload of the table line must copy again: those resyncing,
 * and the failed ones, which missed writes (a reload of a line without
 * them would trust them; readbal replace adds them too).  Not with every
 * leg failed: there is no leg to copy from, and the line must still load.
 */
static unsigned long rb_emit_rebuild(struct readbal_c *rc)
{
	unsigned long alive = READ_ONCE(rc->alive);

	if (!alive)
		return rb_syncing(rc);
	return ~alive & GENMASK(rc->set.nr_legs - 1, 0);
}

/* Features as the table line gives them: non-default ones only. */
static unsigned int rb_emit_features(struct readbal_c *rc, char *result,
				     unsigned int maxlen, unsigned int sz)
{
	unsigned long rebuild = rb_emit_rebuild(rc);
	bool errors = rc->max_read_errors != RB_MAX_READ_ERRORS;
	bool region = rc->region_size != RB_REGION_SIZE;
	bool log_dev = rc->log_dev_path;
	unsigned int i, n;

	n = 2 * (hweight_long(rebuild) + errors + region + log_dev) +
		3 * hweight_long(rc->depth_given) +
		(rc->log_sync != RB_LOG_DEFAULT);
	if (!n)
		return sz;
	DMEMIT(" %u", n);
	if (errors)
		DMEMIT(" max_read_errors %u", rc->max_read_errors);
	for_each_set_bit(i, &rebuild, rc->set.nr_legs)
		DMEMIT(" rebuild %u", i);
	for_each_set_bit(i, &rc->depth_given, rc->set.nr_legs)
		DMEMIT(" queue_depth %u %u", i, rc->legs[i].queue_depth);
	if (region)
		DMEMIT(" region_size %u", rc->region_size);
	if (log_dev)
		DMEMIT(" log_dev %s", rc->log_dev_path);
	if (rc->log_sync != RB_LOG_DEFAULT)
		DMEMIT(" %s", rc->log_sync == RB_LOG_SYNC ? "sync" : "nosync");
	return sz;
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

			struct rb_leg_errors *e = &rc->errors[i];

			rb_leg_stats_since_reset(rc, i, &s);
			DMEMIT(" %s %c %d %llu %llu %llu %llu", leg->dev->name,
			       rb_leg_state_char(rc, i),
			       atomic_read(&leg->inflight), s.reads,
			       s.read_sectors,
			       s.reads ? div64_u64(s.read_ns, s.reads * 1000) : 0,
			       (u64)(leg->offset + READ_ONCE(leg->last_end)));
			DMEMIT(" %d %d %d %d", atomic_read(&e->read),
			       atomic_read(&e->corrected),
			       atomic_read(&e->uncorrected),
			       atomic_read(&e->write));
		}
		DMEMIT(" ");
		sz = rb_policy_emit(p, result, maxlen, sz);
		DMEMIT(" %llu/%llu %u", rb_regions_in_sync(rc),
		       (u64)rc->nr_regions, rc->max_read_errors);
		break;
	case STATUSTYPE_TABLE:
		DMEMIT("%u", rc->set.nr_legs);
		for (i = 0; i < rc->set.nr_legs; i++)
			DMEMIT(" %s %llu", rc->legs[i].dev->name,
			       (u64)rc->legs[i].offset);
		DMEMIT(" ");
		sz = rb_policy_emit(p, result, maxlen, sz);
		sz = rb_emit_features(rc, result, maxlen, sz);
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

static int rb_msg_reinstate_leg(struct readbal_c *rc, const char *arg)
{
	struct rb_leg *leg;
	unsigned int i;

	if (kstrtouint(arg, 10, &i) || i >= rc->set.nr_legs) {
		DMWARN("reinstate_leg: no leg %s", arg);
		return -EINVAL;
	}
	leg = &rc->legs[i];
	if (!test_bit(RB_LEG_FAILED, &leg->flags)) {
		DMWARN("reinstate_leg: leg %u is not failed", i);
		return -EINVAL;
	}
	if (!READ_ONCE(rc->alive)) {
		DMWARN("reinstate_leg: no leg in sync to copy leg %u from", i);
		return -EINVAL;
	}
	/* It takes writes now, reads once the resync has copied it all. */
	WRITE_ONCE(rc->sync_done, 0);
	clear_bit(RB_LEG_FAILED, &leg->flags);
	set_bit(i, &rc->writable);
	DMINFO("%s: leg %u (%s) reinstated, resyncing", rb_name(rc), i,
	       leg->dev->name);
	rb_sync_start(rc);
	return 0;
}

static int rb_msg_max_read_errors(struct readbal_c *rc, const char *arg)
{
	unsigned int n;

	if (kstrtouint(arg, 10, &n) || n > INT_MAX) {
		DMWARN("max_read_errors: bad count %s", arg);
		return -EINVAL;
	}
	WRITE_ONCE(rc->max_read_errors, n);
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
	} else if (!strcasecmp(cmd, "reinstate_leg") && argc == 2) {
		r = rb_msg_reinstate_leg(rc, argv[1]);
	} else if (!strcasecmp(cmd, "max_read_errors") && argc == 2) {
		r = rb_msg_max_read_errors(rc, argv[1]);
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
		rb_limits_io_opt(limits, io_opt);
}

/* Resync stops for a suspend and goes on at resume. */
static void readbal_presuspend(struct dm_target *ti)
{
	struct readbal_c *rc = ti->private;

	WRITE_ONCE(rc->sync_stop, true);
	flush_work(&rc->sync_work);
	rb_log_presuspend(rc);
}

static void readbal_presuspend_undo(struct dm_target *ti)
{
	struct readbal_c *rc = ti->private;

	rb_log_presuspend_undo(rc);
	rb_sync_start(rc);
}

static void readbal_postsuspend(struct dm_target *ti)
{
	rb_probe_wait(ti->private);
	rb_log_postsuspend(ti->private);
}

static void readbal_resume(struct dm_target *ti)
{
	struct readbal_c *rc = ti->private;

	rb_log_resume(rc);
	rb_sync_start(rc);
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
	.version = {1, 3, 0},
	.module = THIS_MODULE,
	.ctr = readbal_ctr,
	.dtr = readbal_dtr,
	.map = rb_map,
	.end_io = rb_end_io,
	.presuspend = readbal_presuspend,
	.presuspend_undo = readbal_presuspend_undo,
	.postsuspend = readbal_postsuspend,
	.resume = readbal_resume,
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
/* The target's .version; tests/style/version checks that they agree. */
MODULE_VERSION("1.3.0");
