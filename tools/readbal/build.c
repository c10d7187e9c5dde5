// SPDX-License-Identifier: GPL-2.0
/* readbal(8): legs, policy and knobs from the command line to a table. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "build.h"
#include "catalog.h"
#include "common.h"
#include "util.h"

int rb_build_getopt(const struct rb_cmd *c, int argc, char **argv,
		    const char **policy)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	int opt, r;

	while ((opt = getopt_long(argc, argv, "p:hv", opts, NULL)) != -1) {
		if (opt == 'p') {
			*policy = optarg;
			continue;
		}
		r = rb_common_opt(c, opt);
		if (r >= 0)
			return r;
	}
	return -1;
}

int rb_build_args(const struct rb_cmd *c, const char *policy, char **args,
		  int nargs, struct rb_build *b)
{
	char err[256];
	struct rb_knob k;
	int i;

	memset(b, 0, sizeof(*b));
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

int rb_build_table(const struct rb_cmd *c, struct rb_build *b)
{
	uint64_t usable[RB_MAX_LEGS], smallest = UINT64_MAX;
	unsigned int lbs[RB_MAX_LEGS], i, small = 0;
	struct rb_catalog cat;
	char err[2048], a[32], s[32], u[32];
	int r;

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
	b->table.policy = b->policy;
	return RB_EXIT_OK;
}
