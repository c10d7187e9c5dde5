// SPDX-License-Identifier: GPL-2.0
/* readbal create: check the legs, build the table, create the device. */
#include <getopt.h>
#include <stdio.h>

#include "build.h"
#include "cmd.h"
#include "common.h"
#include "dm.h"
#include "kmsg.h"
#include "util.h"

static int rb_create_run(int argc, char **argv)
{
	const char *policy = NULL, *name;
	char params[RB_LINE_MAX], ver[32], size[32];
	struct rbdm_info info;
	struct rb_build b;
	struct rb_dev d;
	int r;

	r = rb_build_getopt(&rb_cmd_create, argc, argv, &policy);
	if (r >= 0)
		return r;
	if (optind >= argc)
		return rb_usage(&rb_cmd_create, "the device NAME is missing");
	name = argv[optind];
	if (name[0] == '/')
		return rb_usage(&rb_cmd_create, "'%s' looks like a device: the "
				"first argument is the NAME of the new device, "
				"e.g. readbal create mir /dev/sdb /dev/sdc", name);
	r = rb_check_name(name);
	if (r)
		return r;
	r = rb_build_args(&rb_cmd_create, policy, argv + optind + 1,
			  argc - optind - 1, &b);
	if (r)
		return r;
	if (rbdm_get_info(name, &info)) {
		rb_err("cannot talk to device-mapper: %s (is dm-mod loaded, "
		       "and are you root?)", rbdm_last_error());
		return RB_EXIT_DEVICE;
	}
	if (info.exists) {
		rb_err("a device named %s exists already: pick another name, "
		       "or remove it first (readbal remove %s)", name, name);
		return RB_EXIT_DEVICE;
	}
	r = rb_build_table(&rb_cmd_create, &b);
	if (r)
		return r;
	if (rb_table_params(&b.table, params, sizeof(params))) {
		rb_err("the table line is too long");
		return RB_EXIT_USAGE;
	}
	rb_debug("create %s: 0 %llu readbal %s", name,
		 (unsigned long long)b.table.length, params);
	rb_kmsg_mark();
	if (rbdm_create(name, b.table.length, "readbal", params)) {
		rb_report_refusal(name, "the table",
				  rbdm_target_version("readbal", ver, sizeof(ver)) ?
				  NULL :
				  "the readbal target is not loaded: modprobe "
				  "dm-readbal (or insmod dm-readbal.ko) first");
		if (!rbdm_get_info(name, &info) && info.exists)
			rb_err("%s was left behind: remove it with 'dmsetup "
			       "remove %s'", name, name);
		else
			rb_note("nothing was created");
		return RB_EXIT_KERNEL;
	}
	r = rb_dev_load(name, &d);
	if (r)
		return r;
	rb_dev_node(&d, params, sizeof(params));
	rb_human_bytes(d.length * 512, size, sizeof(size));
	printf("created %s (%s): %u legs, %s\n", name, params, d.st.nlegs,
	       size);
	rb_print_policy(&d);
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_create = {
	.name = "create",
	.summary = "create and activate a readbal device",
	.usage =
"Usage: readbal create NAME [--policy POLICY] [KNOB=VALUE...] DEVICE...\n"
"\n"
"Create the readbal device NAME (/dev/mapper/NAME) mirroring the DEVICEs\n"
"(2 to 16) and activate it.  Before anything is created every DEVICE is\n"
"checked: it must be a block device, not mounted (nor a partition of it),\n"
"not swap, not held by another device (dm, md) and free for an exclusive\n"
"open; no device may be given twice, also through another path; the\n"
"policy and knob names must exist.  The mirror is as long as the smallest\n"
"leg; a warning names the legs that lose space.  If the kernel refuses the\n"
"table, its reason (from the kernel log) is printed and no device is left.\n"
"\n"
"With udev running, creation waits for udev (cookies); with\n"
"DM_DISABLE_UDEV=1 or without udev, libdevmapper makes /dev/mapper/NAME.\n"
"\n"
"  -p, --policy POLICY  read policy (default " RB_DEFAULT_POLICY ")\n"
"  KNOB=VALUE           a knob of the policy, e.g. preferred=0,2\n"
"  -v, --verbose        show libdevmapper's messages\n"
"  -h, --help           this help\n"
"\n"
"Policy and knob names are checked against the loaded module when a\n"
"readbal device exists to ask (messages list_policies, list_knobs), else\n"
"against the list built into this tool from dm-readbal's sources; the\n"
"error says which.  'readbal policies' prints the list.  Values are\n"
"checked by the kernel.\n"
"\n"
"Exit: 0 created, 1 usage or unknown policy/knob, 2 device problem (also:\n"
"NAME exists), 3 the kernel refused the table.\n",
	.run = rb_create_run,
};
