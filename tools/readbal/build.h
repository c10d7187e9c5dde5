/* SPDX-License-Identifier: GPL-2.0 */
/* readbal(8): from a command line of legs, policy and knobs to a checked
 * table (shared by table and create). */
#ifndef RB_BUILD_H
#define RB_BUILD_H

#include "checks.h"
#include "cmd.h"
#include "table.h"

/* The options table and create share, as given. */
struct rb_build_opts {
	const char *policy;
	const char *region_size;
	const char *log_dev;
	enum rb_log_sync sync;	/* --sync, --assume-clean */
};

struct rb_build {
	struct rb_build_opts opt;
	char *paths[RB_MAX_LEGS];
	unsigned int nlegs;
	struct rb_policy_spec policy;
	struct rb_legdev devs[RB_MAX_LEGS];
	struct rb_table table;
	char catalog_source[128];
	struct rb_log_spec log;		/* what goes into the table */
	struct rb_legdev logdev;	/* with --log-dev */
	uint64_t regions;
};

/*
 * Parse "[k=v...] DEV..." (getopt already ran: @args are the operands)
 * and the options' values.  Returns an exit code.
 */
int rb_build_args(const struct rb_cmd *c, const struct rb_build_opts *o,
		  char **args, int nargs, struct rb_build *b);
/* Checks (policy, devices, the log), sizes, and the table.  Exit code. */
int rb_build_table(const struct rb_cmd *c, struct rb_build *b);

/* Does getopt for table/create into @o.  Exit code or -1 to go on. */
int rb_build_getopt(const struct rb_cmd *c, int argc, char **argv,
		    struct rb_build_opts *o);

/* The options' lines of table's and create's --help. */
#define RB_BUILD_OPTIONS_HELP \
"  -p, --policy POLICY  read policy (default " RB_DEFAULT_POLICY ")\n" \
"  -R, --region-size SIZE\n" \
"                       dirty region log region: sectors or 512K, 1M...,\n" \
"                       a power of 2 from 4K to 64M (default 1M)\n" \
"      --log-dev DEV    keep the log on DEV (a disk log, crash safe);\n" \
"                       default: in memory (core)\n" \
"      --sync           copy every region from the first leg at activation\n" \
"                       (legs whose contents differ)\n" \
"      --assume-clean   trust the legs: no copy (freshly zeroed legs)\n"

#endif
