// SPDX-License-Identifier: GPL-2.0
/* readbal table: print the table line for some legs. */
#include <getopt.h>
#include <stdio.h>

#include "build.h"
#include "cmd.h"
#include "common.h"
#include "util.h"

static int rb_table_run(int argc, char **argv)
{
	struct rb_build_opts o;
	char line[RB_LINE_MAX];
	struct rb_build b;
	const char *flag;
	int r;

	r = rb_build_getopt(&rb_cmd_table, argc, argv, &o);
	if (r >= 0)
		return r;
	r = rb_build_args(&rb_cmd_table, &o, argv + optind, argc - optind, &b);
	if (r)
		return r;
	r = rb_build_table(&rb_cmd_table, &b);
	if (r)
		return r;
	if (rb_table_line(&b.table, line, sizeof(line))) {
		rb_err("the table line is too long");
		return RB_EXIT_USAGE;
	}
	printf("%s\n", line);
	if (!b.log.dev[0] || !b.log.sync)
		return RB_EXIT_OK;
	/* a disk log applies the flag at every activation of this line */
	flag = b.log.sync == RB_LOG_SYNC_SYNC ? "sync" : "nosync";
	rb_table_del_feature(&b.table, flag);
	if (rb_table_line(&b.table, line, sizeof(line)))
		return RB_EXIT_OK;
	rb_warn("with a disk log, '%s' %s at every activation of this line: "
		"use it for the first one only; later activations and reloads "
		"want it without '%s':\n  %s", flag,
		b.log.sync == RB_LOG_SYNC_SYNC ? "copies every region again" :
		"trusts the legs, even after a crash,", flag, line);
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_table = {
	.name = "table",
	.summary = "print the table line for some legs",
	.usage =
"Usage: readbal table [--policy POLICY] [--region-size SIZE] [--log-dev DEV]\n"
"                     [--sync | --assume-clean] [KNOB=VALUE...] DEVICE...\n"
"\n"
"Print the device-mapper table line of a readbal mirror of the DEVICEs,\n"
"for 'dmsetup create NAME --table \"$(readbal table ...)\"'.  Nothing is\n"
"created.  The legs are checked as by 'readbal create' (block devices, not\n"
"mounted, not held, each given once) and written as major:minor, as\n"
"'dmsetup table' prints them.  The mirror is as long as the smallest leg;\n"
"a warning names the legs that lose space.\n"
"\n"
"The dirty region log is in memory unless --log-dev names a device for it;\n"
"that device is checked as a leg is, must not be a leg, and must hold a\n"
"1 KiB header and one bit per region.  With a disk log, --sync and\n"
"--assume-clean act at every activation of the printed line: a warning\n"
"prints the line for the activations after the first.\n"
"\n"
RB_BUILD_OPTIONS_HELP
"  KNOB=VALUE           a knob of the policy, e.g. rot_nonlocal_inc=2\n"
"  -v, --verbose        show libdevmapper's messages\n"
"  -h, --help           this help\n"
"\n"
"Policy and knob names are checked against the loaded module when a\n"
"readbal device exists to ask (messages list_policies, list_knobs), else\n"
"against the list built into this tool from dm-readbal's sources; the\n"
"error says which.  'readbal policies' prints the list.  Values are\n"
"checked by the kernel.\n"
"\n"
"Exit: 0 ok, 1 usage or unknown policy/knob, 2 device problem.\n",
	.run = rb_table_run,
};
