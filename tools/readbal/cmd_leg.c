// SPDX-License-Identifier: GPL-2.0
/* readbal fail / readbal reinstate: take a leg out of service, or back. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "common.h"
#include "dm.h"
#include "kmsg.h"
#include "util.h"

static int rb_leg_getopt(const struct rb_cmd *c, int argc, char **argv,
			 int *force)
{
	static const struct option fail_opts[] = {
		{ "force", no_argument, NULL, 'f' },
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	static const struct option opts[] = {
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	int opt, r;

	while ((opt = getopt_long(argc, argv, force ? "fhv" : "hv",
				  force ? fail_opts : opts, NULL)) != -1) {
		if (opt == 'f') {
			*force = 1;
			continue;
		}
		r = rb_common_opt(c, opt);
		if (r >= 0)
			return r;
	}
	if (argc - optind != 2)
		return rb_usage(c, "want NAME and LEG");
	return -1;
}

static void rb_leg_line(const struct rb_dev *d, int leg)
{
	struct rb_leg_info info[RB_PARSE_MAX_LEGS];
	const struct rb_leg_status *l = &d->st.legs[leg];

	rb_dev_leg_info(d, info);
	printf("%s: leg %d (%s, %s) is %s; %u of %u legs alive\n", d->name,
	       leg, info[leg].dm_name[0] ? info[leg].dm_name :
	       info[leg].name[0] ? info[leg].name : l->dev, l->dev,
	       l->state == 'A' ? "alive" : l->state == 'a' ? "resyncing" :
	       l->state == 'D' ? "failed" : "in an unknown state",
	       rb_status_alive(&d->st), d->st.nlegs);
}

static int rb_fail_run(int argc, char **argv)
{
	char msg[64];
	struct rb_dev d;
	int r, leg, force = 0;

	r = rb_leg_getopt(&rb_cmd_fail, argc, argv, &force);
	if (r >= 0)
		return r;
	r = rb_dev_load(argv[optind], &d);
	if (r)
		return r;
	leg = rb_dev_leg_arg(&d, argv[optind + 1]);
	if (leg < 0)
		return RB_EXIT_USAGE;
	if (d.st.legs[leg].state == 'D') {
		rb_leg_line(&d, leg);
		return RB_EXIT_OK;
	}
	if (d.st.legs[leg].state == 'A' && rb_status_in_sync(&d.st) == 1 &&
	    !force) {
		rb_err("%s: leg %d is the last leg in sync: failing it makes "
		       "reads of %s fail; use --force to do it anyway", d.name,
		       leg, d.name);
		return RB_EXIT_DEVICE;
	}
	snprintf(msg, sizeof(msg), "fail_leg %d", leg);
	r = rb_send(&d, msg, NULL, 0);
	if (r)
		return r;
	r = rb_dev_refresh(&d);
	if (r)
		return r;
	rb_leg_line(&d, leg);
	return RB_EXIT_OK;
}

static int rb_reinstate_run(int argc, char **argv)
{
	char msg[64], klog[1024];
	struct rb_dev d;
	int r, leg;

	r = rb_leg_getopt(&rb_cmd_reinstate, argc, argv, NULL);
	if (r >= 0)
		return r;
	r = rb_dev_load(argv[optind], &d);
	if (r)
		return r;
	leg = rb_dev_leg_arg(&d, argv[optind + 1]);
	if (leg < 0)
		return RB_EXIT_USAGE;
	if (d.st.legs[leg].state != 'D') {
		rb_leg_line(&d, leg);
		return RB_EXIT_OK;
	}
	snprintf(msg, sizeof(msg), "reinstate_leg %d", leg);
	rb_kmsg_mark();
	if (rbdm_message(d.name, msg, NULL, 0)) {
		if (rbdm_last_errno() == ENXIO) {
			rb_err("%s disappeared (removed meanwhile?)", d.name);
			return RB_EXIT_DEVICE;
		}
		if (!rb_kmsg_collect(klog, sizeof(klog)) ||
		    strstr(klog, "unrecognised message")) {
			rb_err("%s: the kernel refused '%s': this dm-readbal "
			       "module has no reinstate_leg message yet, so a "
			       "failed leg cannot be taken back into service",
			       d.name, msg);
			if (klog[0])
				fprintf(stderr, "  kernel log: %s\n", klog);
			fprintf(stderr, "  load a module that has it, or swap "
				"the leg for a fresh device: readbal replace %s "
				"%d NEWDEV\n", d.name, leg);
		} else {
			rb_err("%s: the kernel refused '%s': %s", d.name, msg,
			       strerror(rbdm_last_errno()));
			fprintf(stderr, "  kernel log: %s\n", klog);
		}
		return RB_EXIT_KERNEL;
	}
	r = rb_dev_refresh(&d);
	if (r)
		return r;
	rb_leg_line(&d, leg);
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_fail = {
	.name = "fail",
	.summary = "take a leg out of service",
	.usage =
"Usage: readbal fail NAME LEG [--force]\n"
"\n"
"Take leg LEG of NAME out of service (message fail_leg): it is neither\n"
"read nor written any more, as after a write error.  LEG is a leg number\n"
"(0-based, as readbal status shows) or the leg's device path.\n"
"\n"
"  -f, --force     also fail the last leg in sync (reads then fail)\n"
"  -v, --verbose   show libdevmapper's messages\n"
"  -h, --help      this help\n"
"\n"
"Exit: 0 ok (also if the leg had failed already), 1 usage or no such leg,\n"
"2 no such readbal device or the last leg in sync, 3 the kernel refused.\n",
	.run = rb_fail_run,
};

const struct rb_cmd rb_cmd_reinstate = {
	.name = "reinstate",
	.summary = "take a failed leg back into service",
	.usage =
"Usage: readbal reinstate NAME LEG\n"
"\n"
"Take the failed leg LEG of NAME back into service (message\n"
"reinstate_leg): it takes writes at once and, once resynced from the legs\n"
"in sync, reads (readbal status shows the progress).  LEG is a leg number\n"
"or the leg's device path.  Modules without the reinstate_leg message\n"
"(before readbal target 1.1) refuse it: use 'readbal replace' there.\n"
"\n"
"  -v, --verbose   show libdevmapper's messages\n"
"  -h, --help      this help\n"
"\n"
"Exit: 0 ok (also if the leg is not failed), 1 usage or no such leg, 2 no\n"
"such readbal device, 3 the kernel refused (no leg in sync to copy from,\n"
"or a module without reinstate_leg).\n",
	.run = rb_reinstate_run,
};
