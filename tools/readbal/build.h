/* SPDX-License-Identifier: GPL-2.0 */
/* readbal(8): from a command line of legs, policy and knobs to a checked
 * table (shared by table and create). */
#ifndef RB_BUILD_H
#define RB_BUILD_H

#include "checks.h"
#include "cmd.h"
#include "table.h"

struct rb_build {
	char *paths[RB_MAX_LEGS];
	unsigned int nlegs;
	struct rb_policy_spec policy;
	struct rb_legdev devs[RB_MAX_LEGS];
	struct rb_table table;
	char catalog_source[128];
};

/*
 * Parse "[NAME] [--policy P] [k=v...] DEV..." (getopt already ran: @args
 * are the operands).  Returns an exit code.
 */
int rb_build_args(const struct rb_cmd *c, const char *policy, char **args,
		  int nargs, struct rb_build *b);
/* Checks (policy, then devices), sizes, and the table.  Exit code. */
int rb_build_table(const struct rb_cmd *c, struct rb_build *b);

/* Does getopt for table/create; sets *policy.  Exit code or -1 to go on. */
int rb_build_getopt(const struct rb_cmd *c, int argc, char **argv,
		    const char **policy);

#endif
