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

/*
 * A disk log takes "sync" or "nosync" at every activation of a table that
 * has it: keep it for the first only, by reloading the table without it
 * (the log read again at the resume holds what the first one made of it).
 */
static int rb_create_drop_flag(const char *name, struct rb_build *b)
{
	const char *flag = b->log.sync == RB_LOG_SYNC_SYNC ? "sync" : "nosync";
	char params[RB_LINE_MAX], what[64];

	rb_table_del_feature(&b->table, flag);
	if (rb_table_params(&b->table, params, sizeof(params)))
		return RB_EXIT_USAGE;
	rb_debug("reload %s without %s: 0 %llu readbal %s", name, flag,
		 (unsigned long long)b->table.length, params);
	rb_kmsg_mark();
	snprintf(what, sizeof(what), "the table without '%s'", flag);
	if (rbdm_reload(name, b->table.length, "readbal", params)) {
		rb_report_refusal(name, what, NULL);
		return RB_EXIT_KERNEL;
	}
	if (rbdm_resume(name)) {
		rb_report_refusal(name, what, NULL);
		return RB_EXIT_KERNEL;
	}
	return RB_EXIT_OK;
}

/* What to tell after a refused table, if we can tell more. */
static const char *rb_create_hint(const struct rb_build *b, char *ver,
				  size_t len)
{
	if (!rbdm_target_version("readbal", ver, len))
		return "the readbal target is not loaded: modprobe dm-readbal "
		       "(or insmod dm-readbal.ko) first";
	if ((b->opt.region_size || b->opt.log_dev || b->opt.sync) &&
	    !rb_module_logs())
		return "this dm-readbal module has no dirty region log (readbal "
		       "target 1.2): leave out --region-size, --log-dev, --sync "
		       "and --assume-clean";
	return NULL;
}

static int rb_create_run(int argc, char **argv)
{
	const char *name;
	char params[RB_LINE_MAX], ver[32], size[32];
	struct rb_build_opts o;
	struct rbdm_info info;
	struct rb_build b;
	struct rb_dev d;
	int r;

	r = rb_build_getopt(&rb_cmd_create, argc, argv, &o);
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
	r = rb_build_args(&rb_cmd_create, &o, argv + optind + 1,
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
		rb_report_refusal(name, "the table", rb_create_hint(&b, ver,
								sizeof(ver)));
		if (!rbdm_get_info(name, &info) && info.exists)
			rb_err("%s was left behind: remove it with 'dmsetup "
			       "remove %s'", name, name);
		else
			rb_note("nothing was created");
		return RB_EXIT_KERNEL;
	}
	if (b.log.dev[0] && b.log.sync) {
		r = rb_create_drop_flag(name, &b);
		if (r) {
			rbdm_clear(name);
			if (rbdm_remove(name))
				rb_err("%s was left behind: remove it with "
				       "'dmsetup remove %s'", name, name);
			else
				rb_note("%s was removed again", name);
			return r;
		}
	}
	r = rb_dev_load(name, &d);
	if (r)
		return r;
	rb_dev_node(&d, params, sizeof(params));
	rb_human_bytes(d.length * 512, size, sizeof(size));
	printf("created %s (%s): %u legs, %s\n", name, params, d.st.nlegs,
	       size);
	rb_print_policy(&d);
	rb_dev_load_log(&d);
	rb_print_log(&d);
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_create = {
	.name = "create",
	.summary = "create and activate a readbal device",
	.usage =
"Usage: readbal create NAME [--policy POLICY] [--region-size SIZE]\n"
"                      [--log-dev DEV] [--sync | --assume-clean]\n"
"                      [KNOB=VALUE...] DEVICE...\n"
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
"The dirty region log is kept in memory (core) unless --log-dev names a\n"
"device for it (a disk log: after a crash only the regions being written\n"
"are copied again).  The log device is checked as a leg is, must not be a\n"
"leg, must hold a 1 KiB header and one bit per region, and must not hold\n"
"another mirror's log.  A core log trusts the legs unless --sync; a new\n"
"disk log copies every region from the first leg unless --assume-clean.\n"
"With a disk log, --sync and --assume-clean apply to this first\n"
"activation only: the table is reloaded without them at once, so that\n"
"later activations and reloads go by the log.\n"
"\n"
"With udev running, creation waits for udev (cookies); with\n"
"DM_DISABLE_UDEV=1 or without udev, libdevmapper makes /dev/mapper/NAME.\n"
"\n"
RB_BUILD_OPTIONS_HELP
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
"NAME exists, the log device too small or holding another log), 3 the\n"
"kernel refused the table (nothing is left behind).\n",
	.run = rb_create_run,
};
