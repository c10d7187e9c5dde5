// SPDX-License-Identifier: GPL-2.0
/* readbal remove: remove a readbal device. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <sys/sysmacros.h>

#include "checks.h"
#include "cmd.h"
#include "common.h"
#include "dm.h"
#include "sysfs.h"
#include "util.h"

static int rb_remove_run(int argc, char **argv)
{
	static const struct option opts[] = {
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	char mnt[512], fstype[64], part[64], holders[512];
	struct rbdm_info info;
	struct rb_dev d;
	int opt, r;

	while ((opt = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
		r = rb_common_opt(&rb_cmd_remove, opt);
		if (r >= 0)
			return r;
	}
	if (optind >= argc)
		return rb_usage(&rb_cmd_remove, "the device NAME is missing");
	if (optind + 1 < argc)
		return rb_usage(&rb_cmd_remove, "one device at a time");
	r = rb_dev_load(argv[optind], &d);
	if (r)
		return r;
	if (rb_dev_mounted(makedev(d.major, d.minor), mnt, sizeof(mnt), fstype,
			   sizeof(fstype), part, sizeof(part))) {
		rb_err("%s is mounted on %s (%s): unmount it first (umount %s)",
		       d.name, mnt, fstype, mnt);
		return RB_EXIT_DEVICE;
	}
	if (rb_sysfs_holders(d.major, d.minor, holders, sizeof(holders))) {
		rb_err("%s is held by %s: remove that first", d.name, holders);
		return RB_EXIT_DEVICE;
	}
	if (rbdm_remove(d.name)) {
		if (rbdm_last_errno() == EBUSY) {
			if (rbdm_get_info(d.name, &info))
				info.open_count = d.open_count;
			rb_err("%s is in use (open %d time%s): close what has it "
			       "open, then try again", d.name, info.open_count,
			       info.open_count == 1 ? "" : "s");
			return RB_EXIT_DEVICE;
		}
		rb_report_refusal(d.name, "the removal", NULL);
		return RB_EXIT_KERNEL;
	}
	printf("removed %s\n", d.name);
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_remove = {
	.name = "remove",
	.summary = "remove a readbal device",
	.usage =
"Usage: readbal remove NAME\n"
"\n"
"Remove the readbal device NAME; its legs are released, their data stays.\n"
"A mounted or otherwise open device is not removed.\n"
"\n"
"  -v, --verbose   show libdevmapper's messages\n"
"  -h, --help      this help\n"
"\n"
"Exit: 0 removed, 1 usage, 2 no such readbal device or in use, 3 the\n"
"kernel refused.\n",
	.run = rb_remove_run,
};
