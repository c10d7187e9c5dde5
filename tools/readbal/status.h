/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): the status INFO line of a readbal target, parsed
 * (docs/readbal.rst, "Status"):
 *
 *   <#legs> <#leg fields> {<dev> <state> <inflight> <reads> <read sectors>
 *   <avg read us> <head> [<read errors> <corrected> <uncorrected>
 *   <write errors>]}... <policy> <#policy args> {<knob> <value>}...
 *   [<in-sync regions>/<regions> <max_read_errors>]
 *
 * Target 1.0 has 7 fields per leg and nothing after the policy; 1.1 has
 * 11 and the resync progress.  Fields a leg has beyond the known ones, and
 * words after the known ones, are skipped: a newer module may add them.
 */
#ifndef RB_STATUS_H
#define RB_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "table.h"

#define RB_LEG_FIELDS	7	/* fields per leg every module has */
#define RB_LEG_FIELDS_ERRORS 11	/* ... with the error counters */

struct rb_leg_status {
	char dev[32];		/* "major:minor" as printed */
	unsigned int major, minor;
	/* 'A' alive and in sync, 'a' alive and resyncing, 'D' failed, or
	 * what a newer module says */
	char state;
	int64_t inflight;
	uint64_t reads;
	uint64_t read_sectors;
	uint64_t avg_read_us;
	uint64_t head;
	int has_errors;		/* the counters below were reported */
	uint64_t read_errors, corrected, uncorrected, write_errors;
};

struct rb_status {
	unsigned int nlegs;
	unsigned int leg_fields;	/* as the module said */
	struct rb_leg_status legs[RB_PARSE_MAX_LEGS];
	struct rb_policy_spec policy;
	int has_sync;			/* resync progress was reported */
	uint64_t sync_done, sync_total;	/* regions */
	int has_max_read_errors;
	unsigned int max_read_errors;
};

int rb_status_parse(const char *params, struct rb_status *st, char *err,
		    size_t errlen);
uint64_t rb_status_total_reads(const struct rb_status *st);
/* Legs not failed ('A' and 'a'), and legs in sync ('A'). */
unsigned int rb_status_alive(const struct rb_status *st);
unsigned int rb_status_in_sync(const struct rb_status *st);
/* Is a resync running? */
int rb_status_syncing(const struct rb_status *st);
/* "A", "D", ... one character per leg: "AAD". */
void rb_status_states(const struct rb_status *st, char *buf, size_t len);
/* "major:minor" -> numbers. */
int rb_parse_devnum(const char *s, unsigned int *major, unsigned int *minor);

#endif
