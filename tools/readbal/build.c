// SPDX-License-Identifier: GPL-2.0
/* readbal(8): legs, policy and knobs from the command line to a table. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "build.h"
#include "catalog.h"
#include "common.h"
#include "dirtylog.h"
#include "sysfs.h"
#include "util.h"

/* The smallest region: a page, as the target wants. */
static unsigned int rb_page_sectors(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 512 ? (unsigned int)(page / 512) : 8;
}

int rb_build_getopt(const struct rb_cmd *c, int argc, char **argv,
		    struct rb_build_opts *o)
{
	enum { OPT_LOG_DEV = 256, OPT_SYNC, OPT_ASSUME_CLEAN };
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "region-size", required_argument, NULL, 'R' },
		{ "log-dev", required_argument, NULL, OPT_LOG_DEV },
		{ "sync", no_argument, NULL, OPT_SYNC },
		{ "assume-clean", no_argument, NULL, OPT_ASSUME_CLEAN },
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	int opt, r;

	memset(o, 0, sizeof(*o));
	while ((opt = getopt_long(argc, argv, "p:R:hv", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			o->policy = optarg;
			break;
		case 'R':
			o->region_size = optarg;
			break;
		case OPT_LOG_DEV:
			o->log_dev = optarg;
			break;
		case OPT_SYNC:
		case OPT_ASSUME_CLEAN:
			r = opt == OPT_SYNC ? RB_LOG_SYNC_SYNC :
					      RB_LOG_SYNC_NOSYNC;
			if (o->sync && o->sync != (enum rb_log_sync)r)
				return rb_usage(c, "--sync (copy every region) "
						"and --assume-clean (copy "
						"nothing) exclude each other: "
						"give one");
			o->sync = r;
			break;
		default:
			r = rb_common_opt(c, opt);
			if (r >= 0)
				return r;
		}
	}
	return -1;
}

int rb_build_args(const struct rb_cmd *c, const struct rb_build_opts *o,
		  char **args, int nargs, struct rb_build *b)
{
	const char *policy = o->policy;
	char err[512];
	struct rb_knob k;
	int i;

	memset(b, 0, sizeof(*b));
	b->opt = *o;
	b->log.sync = o->sync;
	if (o->region_size &&
	    rb_region_size_parse(o->region_size, rb_page_sectors(),
				 &b->log.region_size, err, sizeof(err)))
		return rb_usage(c, "%s", err);
	if (rb_scpy(b->policy.name, sizeof(b->policy.name),
		    policy ? policy : RB_DEFAULT_POLICY))
		return rb_usage(c, "policy name '%s' too long", policy);
	for (i = 0; i < nargs; i++) {
		if (rb_knob_is_arg(args[i])) {
			if (rb_knob_parse(args[i], &k, err, sizeof(err)) ||
			    rb_policy_add_knob(&b->policy, &k, err, sizeof(err)))
				return rb_usage(c, "%s", err);
			continue;
		}
		if (b->nlegs >= RB_MAX_LEGS)
			return rb_usage(c, "too many legs: a readbal device has "
					"%d to %d", RB_MIN_LEGS, RB_MAX_LEGS);
		b->paths[b->nlegs++] = args[i];
	}
	if (b->nlegs < RB_MIN_LEGS)
		return rb_usage(c, "%s leg%s given: a mirror needs %d to %d legs",
				b->nlegs ? "one" : "no", b->nlegs ? "" : "s",
				RB_MIN_LEGS, RB_MAX_LEGS);
	return RB_EXIT_OK;
}

/* The region size against the mirror's length: regions fit, not too many. */
static int rb_build_regions(struct rb_build *b)
{
	unsigned int rs = b->log.region_size ? b->log.region_size :
			  RB_REGION_SIZE_DEFAULT;
	char len[32], reg[32];

	rb_human_bytes(b->table.length * 512, len, sizeof(len));
	rb_human_bytes((uint64_t)rs * 512, reg, sizeof(reg));
	if (rs > b->table.length) {
		rb_err("the mirror (%s, %llu sectors) is smaller than one region "
		       "of %s: give a --region-size of at most %s", len,
		       (unsigned long long)b->table.length, reg, len);
		return b->opt.region_size ? RB_EXIT_USAGE : RB_EXIT_DEVICE;
	}
	b->regions = rb_log_regions(b->table.length, rs);
	if (b->regions > UINT32_MAX) {
		rb_err("the mirror (%s) has %llu regions of %s, more than the "
		       "log holds (%u): give a larger --region-size", len,
		       (unsigned long long)b->regions, reg, UINT32_MAX);
		return RB_EXIT_USAGE;
	}
	return RB_EXIT_OK;
}

/*
 * The disk log's device: fit, big enough, and holding no other mirror's
 * log (whose bits the kernel would trust).
 */
static int rb_build_log_dev(struct rb_build *b)
{
	struct rb_legdev *ld = &b->logdev;
	unsigned char hdr[16];
	uint64_t need, nr;
	char have[32], needs[32], reg[32];
	int r;

	r = rb_check_log_dev(b->opt.log_dev, b->devs, b->nlegs, ld);
	if (r)
		return r;
	need = rb_log_bytes(b->regions, ld->lbs);
	if (ld->sectors * 512 < need) {
		rb_human_bytes(ld->sectors * 512, have, sizeof(have));
		rb_human_bytes(need, needs, sizeof(needs));
		rb_human_bytes((uint64_t)(b->log.region_size ?
			       b->log.region_size : RB_REGION_SIZE_DEFAULT) * 512,
			       reg, sizeof(reg));
		rb_err("--log-dev %s (%s) is too small for this mirror's log: it "
		       "needs %llu bytes (%s: a %d-byte header and one bit per "
		       "region, %llu regions of %s, in whole %u-byte blocks); "
		       "give a device of at least that size, or a larger "
		       "--region-size", b->opt.log_dev, have,
		       (unsigned long long)need, needs, RB_LOG_HEADER_BYTES,
		       (unsigned long long)b->regions, reg, ld->lbs);
		return RB_EXIT_DEVICE;
	}
	snprintf(b->log.dev, sizeof(b->log.dev), "%u:%u", major(ld->rdev),
		 minor(ld->rdev));
	if (b->log.sync)	/* sync and nosync start a new log */
		return RB_EXIT_OK;
	if (rb_read_start(b->opt.log_dev, ld->lbs, hdr, sizeof(hdr))) {
		rb_err("--log-dev %s: cannot read its first block: check the "
		       "device (dmesg)", b->opt.log_dev);
		return RB_EXIT_DEVICE;
	}
	if (!rb_log_header(hdr, sizeof(hdr), &nr)) {
		rb_note("%s holds no dirty region log yet: every region will be "
			"copied from the first leg at activation (--assume-clean "
			"skips that for legs known to be the same)",
			b->opt.log_dev);
		return RB_EXIT_OK;
	}
	if (nr != b->regions) {
		rb_err("--log-dev %s holds a dirty region log of %llu regions, "
		       "this mirror has %llu: it is another mirror's log or was "
		       "made with another --region-size, and its bits would be "
		       "trusted.  Give the --region-size it was made with, "
		       "--sync to start a new log and copy every region, or "
		       "--assume-clean for legs known to be the same",
		       b->opt.log_dev, (unsigned long long)nr,
		       (unsigned long long)b->regions);
		return RB_EXIT_DEVICE;
	}
	rb_debug("%s holds a log of %llu regions: the mirror resumes from it",
		 b->opt.log_dev, (unsigned long long)nr);
	return RB_EXIT_OK;
}

int rb_build_table(const struct rb_cmd *c, struct rb_build *b)
{
	uint64_t usable[RB_MAX_LEGS], smallest = UINT64_MAX;
	unsigned int lbs[RB_MAX_LEGS], i, small = 0;
	struct rb_catalog cat;
	char err[2048], a[32], s[32], u[32];
	int r, depths;

	rb_catalog_load(&cat, NULL);
	rb_scpy(b->catalog_source, sizeof(b->catalog_source), cat.source);
	if (rb_catalog_check(&cat, &b->policy, err, sizeof(err))) {
		rb_err("%s", err);
		return RB_EXIT_USAGE;
	}
	(void)c;
	r = rb_check_legs(b->paths, b->nlegs, b->devs);
	if (r)
		return r;
	for (i = 0; i < b->nlegs; i++) {
		usable[i] = b->devs[i].sectors;
		lbs[i] = b->devs[i].lbs;
		if (usable[i] < smallest) {
			smallest = usable[i];
			small = i;
		}
	}
	b->table.length = rb_table_length(usable, lbs, b->nlegs);
	if (!b->table.length) {
		rb_err("%s is smaller than one logical block of the other legs: "
		       "give larger devices", b->paths[small]);
		return RB_EXIT_DEVICE;
	}
	rb_human_bytes(smallest * 512, s, sizeof(s));
	for (i = 0; i < b->nlegs; i++) {
		if (usable[i] <= smallest)
			continue;
		rb_human_bytes(usable[i] * 512, a, sizeof(a));
		rb_human_bytes((usable[i] - b->table.length) * 512, u, sizeof(u));
		rb_warn("%s (%s) is larger than the smallest leg %s (%s): %s of "
			"it stays unused", b->paths[i], a, b->paths[small], s, u);
	}
	b->table.nlegs = b->nlegs;
	for (i = 0; i < b->nlegs; i++) {
		snprintf(b->table.legs[i].dev, sizeof(b->table.legs[i].dev),
			 "%u:%u", major(b->devs[i].rdev), minor(b->devs[i].rdev));
		b->table.legs[i].offset = 0;
	}
	/* one target version query (an ioctl), not one per leg */
	depths = rb_module_depths();
	for (i = 0; i < b->nlegs && depths; i++) {
		unsigned int depth = rb_sysfs_stacked_depth(major(b->devs[i].rdev),
							    minor(b->devs[i].rdev));

		if (!depth)
			continue;
		rb_debug("%s has no request queue of its own: queue_depth %u, "
			 "the disks' below", b->paths[i], depth);
		if (rb_table_set_queue_depth(&b->table, i, depth)) {
			rb_err("the table line is too long");
			return RB_EXIT_USAGE;
		}
	}
	b->table.policy = b->policy;
	r = rb_build_regions(b);
	if (!r && b->opt.log_dev)
		r = rb_build_log_dev(b);
	if (r)
		return r;
	if (rb_table_add_log(&b->table, &b->log)) {
		rb_err("the table line is too long");
		return RB_EXIT_USAGE;
	}
	return RB_EXIT_OK;
}
