// SPDX-License-Identifier: GPL-2.0
/* readbal replace: swap one leg for another device by a table reload. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "checks.h"
#include "cmd.h"
#include "common.h"
#include "dm.h"
#include "kmsg.h"
#include "sysfs.h"
#include "util.h"

/* Is @path already a leg of @d?  Its index, else -1. */
static int rb_leg_of(const struct rb_dev *d, const char *path)
{
	struct stat st;
	unsigned int i;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return -1;
	for (i = 0; i < d->st.nlegs; i++)
		if (makedev(d->st.legs[i].major, d->st.legs[i].minor) ==
		    st.st_rdev)
			return (int)i;
	return -1;
}

/* Is @path the device @dev names ("major:minor" or a path)? */
static int rb_same_dev(const char *path, const char *dev)
{
	unsigned int ma, mi;
	struct stat a, b;

	if (stat(path, &a) || !S_ISBLK(a.st_mode))
		return 0;
	if (!rb_parse_devnum(dev, &ma, &mi))
		return a.st_rdev == makedev(ma, mi);
	return !stat(dev, &b) && S_ISBLK(b.st_mode) && a.st_rdev == b.st_rdev;
}

/*
 * "sync" and "nosync" act at every activation, this reload's too: leave
 * them out where they would undo what the log knows.  A disk log
 * remembers which regions are in sync; a core log forgets it at a reload
 * and takes every region as in sync, so its "sync" stays while the first
 * copy is not done ("nosync" means the same as nothing there).
 */
static void rb_replace_flags(const struct rb_dev *d, struct rb_table *t)
{
	struct rb_log_spec log;
	int done = d->st.has_sync && d->st.sync_done == d->st.sync_total;

	rb_table_log(t, &log);
	if (log.sync == RB_LOG_SYNC_NOSYNC && log.dev[0]) {
		rb_table_del_feature(t, "nosync");
		rb_note("%s: the new table leaves out 'nosync', which would take "
			"every region as in sync: the disk log keeps what it "
			"recorded", d->name);
	} else if (log.sync == RB_LOG_SYNC_SYNC && (log.dev[0] || done)) {
		rb_table_del_feature(t, "sync");
		rb_note("%s: the new table leaves out 'sync', which would copy "
			"every region again: %s", d->name, log.dev[0] ?
			"the disk log knows which regions are still to copy" :
			"every region is in sync");
	} else if (log.sync == RB_LOG_SYNC_SYNC) {
		rb_note("%s: the new table keeps 'sync': the first copy is not "
			"done (%llu/%llu regions in sync) and a core log forgets "
			"it at a reload, so the copy starts again", d->name,
			(unsigned long long)d->st.sync_done,
			(unsigned long long)d->st.sync_total);
	}
}

static int rb_replace_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "offset", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	char params[RB_LINE_MAX], err[256] = "", failed[128] = "";
	struct rbdm_target tt;
	struct rbdm_info info;
	struct rb_legdev nd;
	struct rb_table t;
	struct rb_dev d;
	uint64_t offset = 0;
	unsigned int i, align, source = 0;
	int opt, r, leg, other, force = 0, resync;
	const char *log_dev;
	char *newdev;

	while ((opt = getopt_long(argc, argv, "o:fhv", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			if (rb_parse_u64(optarg, &offset))
				return rb_usage(&rb_cmd_replace, "--offset wants "
						"sectors, not '%s'", optarg);
			break;
		case 'f':
			force = 1;
			break;
		default:
			r = rb_common_opt(&rb_cmd_replace, opt);
			if (r >= 0)
				return r;
		}
	}
	if (argc - optind != 3)
		return rb_usage(&rb_cmd_replace, "want NAME, LEG and NEWDEV");
	newdev = argv[optind + 2];
	r = rb_dev_load(argv[optind], &d);
	if (r)
		return r;
	leg = rb_dev_leg_arg(&d, argv[optind + 1]);
	if (leg < 0)
		return RB_EXIT_USAGE;
	other = rb_leg_of(&d, newdev);
	if (other >= 0) {
		rb_err("%s is leg %d of %s already: give a device that is not "
		       "in the mirror", newdev, other, d.name);
		return RB_EXIT_DEVICE;
	}
	resync = rb_module_resyncs();
	for (i = 0; i < d.st.nlegs; i++) {
		size_t n = strlen(failed);

		if ((int)i == leg)
			continue;
		if (d.st.legs[i].state == 'A')
			source++;
		else if (d.st.legs[i].state == 'D')
			snprintf(failed + n, sizeof(failed) - n, "%s%u",
				 n ? "," : "", i);
	}
	if (resync && !source) {
		rb_err("%s: no other leg is in sync to copy leg %d from: "
		       "replace a leg once another one is in sync (readbal "
		       "status %s)", d.name, leg, d.name);
		return RB_EXIT_DEVICE;
	}
	if (!resync && d.st.legs[leg].state == 'A' && !force) {
		rb_err("%s: leg %d is alive: fail it first (readbal fail %s %d), "
		       "or use --force", d.name, leg, d.name, leg);
		return RB_EXIT_DEVICE;
	}
	if (!resync && failed[0] && !force) {
		rb_err("%s: leg%s %s failed too: the reload would bring %s back "
		       "into service with stale data; replace %s first, or use "
		       "--force", d.name, strchr(failed, ',') ? "s" : "", failed,
		       strchr(failed, ',') ? "them" : "it",
		       strchr(failed, ',') ? "them" : "it");
		return RB_EXIT_DEVICE;
	}
	if (rbdm_get_target(d.name, 1, &tt) || !tt.count) {
		rb_err("%s: cannot read the table: %s", d.name,
		       rbdm_last_error());
		return RB_EXIT_DEVICE;
	}
	r = rb_table_parse(tt.params, tt.length, &t, err, sizeof(err));
	rbdm_target_free(&tt);
	if (r || t.nlegs != d.st.nlegs) {
		rb_err("%s: cannot parse the table: %s", d.name,
		       r ? err : "its legs differ from the status");
		return RB_EXIT_DEVICE;
	}
	log_dev = rb_table_feature(&t, "log_dev");
	if (log_dev && rb_same_dev(newdev, log_dev)) {
		rb_err("%s is the log device of %s (log_dev %s): give a device "
		       "that is not in use", newdev, d.name, log_dev);
		return RB_EXIT_DEVICE;
	}
	r = rb_check_legs(&newdev, 1, &nd);
	if (r)
		return r;
	if (nd.sectors < offset || nd.sectors - offset < d.length) {
		rb_err("%s is too small: %s needs %llu sectors from offset %llu, "
		       "the device has %llu", newdev, d.name,
		       (unsigned long long)d.length,
		       (unsigned long long)offset,
		       (unsigned long long)nd.sectors);
		return RB_EXIT_DEVICE;
	}
	align = nd.lbs / 512;
	if (align > 1 && (d.length % align || offset % align)) {
		rb_err("%s has %u-byte logical blocks: %s's length and the "
		       "offset must be multiples of them", newdev, nd.lbs,
		       d.name);
		return RB_EXIT_DEVICE;
	}
	snprintf(t.legs[leg].dev, sizeof(t.legs[leg].dev), "%u:%u",
		 major(nd.rdev), minor(nd.rdev));
	t.legs[leg].offset = offset;
	if (rb_module_depths() &&
	    rb_table_set_queue_depth(&t, (unsigned int)leg,
				     rb_sysfs_stacked_depth(major(nd.rdev),
							    minor(nd.rdev)))) {
		rb_err("the table line is too long");
		return RB_EXIT_USAGE;
	}
	/*
	 * A module that resyncs copies the new leg from the legs in sync, and
	 * the failed ones too: a reload would otherwise trust them.  (Legs
	 * resyncing already are in the table as "rebuild" features.)
	 */
	for (i = 0; resync && i < d.st.nlegs; i++) {
		char num[16];

		if ((int)i != leg && d.st.legs[i].state != 'D')
			continue;
		snprintf(num, sizeof(num), "%u", i);
		if (rb_table_add_feature(&t, "rebuild", num)) {
			rb_err("the table line is too long");
			return RB_EXIT_USAGE;
		}
	}
	rb_replace_flags(&d, &t);
	if (rb_table_params(&t, params, sizeof(params))) {
		rb_err("the table line is too long");
		return RB_EXIT_USAGE;
	}
	rb_debug("reload %s: 0 %llu readbal %s", d.name,
		 (unsigned long long)t.length, params);
	rb_kmsg_mark();
	if (rbdm_reload(d.name, t.length, "readbal", params)) {
		rb_report_refusal(d.name, "the new table", NULL);
		rbdm_clear(d.name);
		return RB_EXIT_KERNEL;
	}
	if (rbdm_resume(d.name)) {
		rb_report_refusal(d.name, "the switch to the new table",
				  "the old table stays active");
		rbdm_clear(d.name);
		if (!rbdm_get_info(d.name, &info) && info.suspended &&
		    rbdm_resume(d.name))
			rb_err("%s stays suspended: resume it with 'dmsetup "
			       "resume %s'", d.name, d.name);
		return RB_EXIT_KERNEL;
	}
	r = rb_dev_refresh(&d);
	if (r)
		return r;
	printf("%s: leg %d is now %s (%u:%u); %u of %u legs alive, %u in "
	       "sync\n", d.name, leg, newdev, major(nd.rdev), minor(nd.rdev),
	       rb_status_alive(&d.st), d.st.nlegs, rb_status_in_sync(&d.st));
	if (resync) {
		printf("%s: resyncing leg %d%s%s from the legs in sync; 'readbal "
		       "status %s' shows the progress\n", d.name, leg,
		       failed[0] ? " and the failed legs " : "", failed, d.name);
		return RB_EXIT_OK;
	}
	rb_warn("%s was not resynchronised (this dm-readbal module cannot): "
		"reads the policy routes to leg %d return what the device held "
		"before; writes from now on reach it", newdev, leg);
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_replace = {
	.name = "replace",
	.summary = "swap a leg for another device (table reload)",
	.usage =
"Usage: readbal replace NAME LEG NEWDEV [--offset SECTORS] [--force]\n"
"\n"
"Put NEWDEV in place of leg LEG (a number or the leg's device path) of\n"
"NAME: load NAME's table with that leg swapped and resume, keeping the\n"
"policy, its knobs and the features (max_read_errors, region_size,\n"
"log_dev).  I/O pauses for the switch only.  NEWDEV is checked as by\n"
"create, must not be the log device, and must hold the mirror's length\n"
"from SECTORS on.\n"
"\n"
"'sync' and 'nosync' would act again at the reload: 'nosync' is left out\n"
"with a disk log (the log keeps what it recorded), 'sync' with a disk log\n"
"and with a core log whose regions are all in sync (no second full copy);\n"
"a core log's 'sync' stays while its first copy is not done, which then\n"
"starts again.  A note says what was left out.\n"
"\n"
"With a module that resyncs (readbal target 1.1 and later) the new leg,\n"
"and any failed leg, is loaded as 'rebuild': it takes writes at once and\n"
"serves reads once copied from the legs in sync (status shows the\n"
"progress); at least one other leg must be in sync.\n"
"\n"
"An older module cannot resync: the new table starts every leg alive, so\n"
"LEG must have failed first (readbal fail NAME LEG) and no other leg may\n"
"have failed, unless --force, and reads routed to NEWDEV return what it\n"
"held: copy the data onto it first if the mirror must stay consistent.\n"
"\n"
"  -o, --offset SECTORS  where the mirror starts on NEWDEV (default 0)\n"
"  -f, --force           (older modules) replace an alive leg, or despite\n"
"                        other failed legs\n"
"  -v, --verbose         show libdevmapper's messages\n"
"  -h, --help            this help\n"
"\n"
"Exit: 0 ok, 1 usage or no such leg, 2 device problem, 3 the kernel\n"
"refused the new table (the old one stays).\n",
	.run = rb_replace_run,
};
