// SPDX-License-Identifier: GPL-2.0
/* readbal list: every readbal device, one line each. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "common.h"
#include "dm.h"
#include "sysfs.h"
#include "util.h"
#include "view.h"

static int rb_list_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct rb_list_entry *e;
	struct rbdm_target t;
	struct rbdm_info info;
	struct rb_status st;
	unsigned int n, i, k = 0;
	char **names, err[256];
	int opt, r, json = 0;

	while ((opt = getopt_long(argc, argv, "jhv", opts, NULL)) != -1) {
		if (opt == 'j') {
			json = 1;
			continue;
		}
		r = rb_common_opt(&rb_cmd_list, opt);
		if (r >= 0)
			return r;
	}
	if (optind < argc)
		return rb_usage(&rb_cmd_list, "unexpected '%s'", argv[optind]);
	if (rbdm_list(&names, &n)) {
		rb_err("cannot list the dm devices: %s (is dm-mod loaded, and "
		       "are you root?)", rbdm_last_error());
		return RB_EXIT_DEVICE;
	}
	e = calloc(n ? n : 1, sizeof(*e));
	if (!e) {
		rbdm_list_free(names, n);
		rb_err("out of memory");
		return RB_EXIT_DEVICE;
	}
	for (i = 0; i < n; i++) {
		if (rbdm_get_target(names[i], 0, &t))
			continue;
		if (t.count < 1 || strcmp(t.type, "readbal")) {
			rbdm_target_free(&t);
			continue;
		}
		rb_scpy(e[k].name, sizeof(e[k].name), names[i]);
		e[k].sectors = t.length;
		if (!rbdm_get_info(names[i], &info) && info.exists &&
		    rb_sysfs_kname(info.major, info.minor, e[k].kname,
				   sizeof(e[k].kname)))
			snprintf(e[k].kname, sizeof(e[k].kname), "dm-%u",
				 info.minor);
		if (!rb_status_parse(t.params, &st, err, sizeof(err))) {
			e[k].ok = 1;
			e[k].nlegs = st.nlegs;
			rb_status_states(&st, e[k].states, sizeof(e[k].states));
			rb_scpy(e[k].policy, sizeof(e[k].policy), st.policy.name);
		}
		rbdm_target_free(&t);
		k++;
	}
	if (json)
		rb_list_json(stdout, e, k);
	else
		rb_list_text(stdout, e, k);
	free(e);
	rbdm_list_free(names, n);
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_list = {
	.name = "list",
	.summary = "list the readbal devices",
	.usage =
"Usage: readbal list [--json]\n"
"\n"
"List the readbal devices: name, block device, size, number of legs, leg\n"
"states (one letter per leg: A alive, D failed) and read policy.\n"
"\n"
"  -j, --json      a JSON array of {name, device, sectors, legs, states,\n"
"                  policy}\n"
"  -v, --verbose   show libdevmapper's messages\n"
"  -h, --help      this help\n"
"\n"
"Exit: 0 ok (also with no device), 1 usage, 2 device-mapper unavailable.\n",
	.run = rb_list_run,
};
