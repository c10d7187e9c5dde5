// SPDX-License-Identifier: GPL-2.0
/* readbal policy / readbal set: switch the read policy, set its knobs. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "cmd.h"
#include "common.h"
#include "util.h"

static int rb_simple_getopt(const struct rb_cmd *c, int argc, char **argv)
{
	static const struct option opts[] = {
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	int opt, r;

	while ((opt = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
		r = rb_common_opt(c, opt);
		if (r >= 0)
			return r;
	}
	return -1;
}

static void rb_print_catalog(const struct rb_catalog *cat)
{
	unsigned int i, j;

	printf("policies (%s):\n", cat->source);
	for (i = 0; i < cat->n; i++) {
		printf("  %-14s", cat->p[i].name);
		if (!cat->p[i].nknobs)
			printf(" (no knobs)");
		for (j = 0; j < cat->p[i].nknobs; j++)
			printf(" %s", cat->p[i].knobs[j]);
		putchar('\n');
	}
}

/* knob=value words -> knobs; exit code. */
static int rb_knob_args(const struct rb_cmd *c, char **args, int n,
			struct rb_policy_spec *spec)
{
	char err[256];
	struct rb_knob k;
	int i;

	for (i = 0; i < n; i++) {
		if (!rb_knob_is_arg(args[i]))
			return rb_usage(c, "'%s': expected KNOB=VALUE", args[i]);
		if (rb_knob_parse(args[i], &k, err, sizeof(err)) ||
		    rb_policy_add_knob(spec, &k, err, sizeof(err)))
			return rb_usage(c, "%s", err);
	}
	return RB_EXIT_OK;
}

/* Send @msg, then show the policy as the kernel now has it. */
static int rb_send_and_show(struct rb_dev *d, const char *msg)
{
	int r = rb_send(d, msg, NULL, 0);

	if (!r)
		r = rb_dev_refresh(d);
	if (!r)
		rb_print_policy(d);
	return r;
}

static int rb_policy_run(int argc, char **argv)
{
	struct rb_policy_spec spec;
	char msg[RB_LINE_MAX], err[2048];
	struct rb_catalog cat;
	struct rb_dev d;
	int r;

	r = rb_simple_getopt(&rb_cmd_policy, argc, argv);
	if (r >= 0)
		return r;
	if (optind >= argc)
		return rb_usage(&rb_cmd_policy, "the device NAME is missing");
	r = rb_dev_load(argv[optind], &d);
	if (r)
		return r;
	rb_catalog_load(&cat, d.name);
	if (optind + 1 >= argc) {
		rb_print_policy(&d);
		rb_print_catalog(&cat);
		return RB_EXIT_OK;
	}
	memset(&spec, 0, sizeof(spec));
	if (rb_scpy(spec.name, sizeof(spec.name), argv[optind + 1]))
		return rb_usage(&rb_cmd_policy, "policy name too long");
	r = rb_knob_args(&rb_cmd_policy, argv + optind + 2, argc - optind - 2,
			 &spec);
	if (r)
		return r;
	if (rb_catalog_check(&cat, &spec, err, sizeof(err))) {
		rb_err("%s", err);
		return RB_EXIT_USAGE;
	}
	if (rb_msg_policy(&spec, msg, sizeof(msg)))
		return rb_usage(&rb_cmd_policy, "message too long");
	return rb_send_and_show(&d, msg);
}

static int rb_set_run(int argc, char **argv)
{
	const struct rb_catalog_policy *p;
	struct rb_policy_spec spec;
	char msg[RB_LINE_MAX], err[2048];
	struct rb_catalog cat;
	struct rb_dev d;
	int r;

	r = rb_simple_getopt(&rb_cmd_set, argc, argv);
	if (r >= 0)
		return r;
	if (optind >= argc)
		return rb_usage(&rb_cmd_set, "the device NAME is missing");
	if (optind + 1 >= argc)
		return rb_usage(&rb_cmd_set, "no KNOB=VALUE given");
	memset(&spec, 0, sizeof(spec));
	r = rb_knob_args(&rb_cmd_set, argv + optind + 1, argc - optind - 1,
			 &spec);
	if (r)
		return r;
	r = rb_dev_load(argv[optind], &d);
	if (r)
		return r;
	rb_catalog_load(&cat, d.name);
	p = rb_catalog_find(&cat, d.st.policy.name);
	if (p && rb_catalog_check_knobs(&cat, p, spec.knobs, spec.nknobs, err,
					sizeof(err))) {
		rb_err("%s (to change the policy: readbal policy %s POLICY "
		       "[KNOB=VALUE...])", err, d.name);
		return RB_EXIT_USAGE;
	}
	if (rb_msg_set(spec.knobs, spec.nknobs, msg, sizeof(msg)))
		return rb_usage(&rb_cmd_set, "message too long");
	return rb_send_and_show(&d, msg);
}

static int rb_policies_run(int argc, char **argv)
{
	struct rb_catalog cat;
	int r;

	r = rb_simple_getopt(&rb_cmd_policies, argc, argv);
	if (r >= 0)
		return r;
	if (optind < argc)
		return rb_usage(&rb_cmd_policies, "unexpected '%s'", argv[optind]);
	rb_catalog_load(&cat, NULL);
	rb_print_catalog(&cat);
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_policies = {
	.name = "policies",
	.summary = "list the read policies and their knobs",
	.usage =
"Usage: readbal policies\n"
"\n"
"List the read policies and their knobs: as the loaded module lists them\n"
"when a readbal device exists to ask, else the list built into this tool\n"
"from dm-readbal's sources.  The first line says which.\n"
"\n"
"  -v, --verbose   show libdevmapper's messages\n"
"  -h, --help      this help\n"
"\n"
"Exit: 0 ok, 1 usage.\n",
	.run = rb_policies_run,
};

const struct rb_cmd rb_cmd_policy = {
	.name = "policy",
	.summary = "show or switch the read policy",
	.usage =
"Usage: readbal policy NAME [POLICY [KNOB=VALUE...]]\n"
"\n"
"Without POLICY: show NAME's policy with its knobs, and the policies the\n"
"module offers with their knobs.  With POLICY: switch NAME's reads to\n"
"POLICY (or restart it with fresh state), knobs not given at their\n"
"defaults; I/O does not pause.  Then show the new policy.\n"
"Unknown policy and knob names are refused with the valid ones, as the\n"
"module lists them; values are checked by the kernel.\n"
"\n"
"  -v, --verbose   show libdevmapper's messages\n"
"  -h, --help      this help\n"
"\n"
"Exit: 0 ok, 1 usage or unknown policy/knob, 2 no such readbal device,\n"
"3 the kernel refused (a bad value; the reason is printed).\n",
	.run = rb_policy_run,
};

const struct rb_cmd rb_cmd_set = {
	.name = "set",
	.summary = "set knobs of the active policy",
	.usage =
"Usage: readbal set NAME KNOB=VALUE...\n"
"\n"
"Set knobs of NAME's active policy.  All are checked first: if one is\n"
"refused, none is set.  Then show the policy.\n"
"\n"
"  -v, --verbose   show libdevmapper's messages\n"
"  -h, --help      this help\n"
"\n"
"Exit: 0 ok, 1 usage or unknown knob, 2 no such readbal device, 3 the\n"
"kernel refused a value (the reason is printed).\n",
	.run = rb_set_run,
};
