/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): the few numbers tune needs from fio --output-format=json,
 * summed over its jobs, and the value lists tune sweeps.  Pure.
 */
#ifndef RB_FIOJSON_H
#define RB_FIOJSON_H

#include <stddef.h>

#include "table.h"

struct rb_fio_result {
	double read_kib_s;	/* sum of jobs[].read.bw (KiB/s) */
	double write_kib_s;	/* sum of jobs[].write.bw */
	double read_iops;
	double write_iops;
	unsigned int jobs;
	double errors;		/* sum of jobs[].error */
};

/* Parses fio's JSON report; text before the first '{' is skipped. */
int rb_fio_parse(const char *json, struct rb_fio_result *r, char *err,
		 size_t errlen);

#define RB_MAX_VALUES	256

struct rb_values {
	unsigned int n;
	char v[RB_MAX_VALUES][RB_VALUE_MAX];
};

/*
 * Add values from a list: items separated by commas or spaces, each a
 * word or an integer range "A..B" or "A..B:STEP" ("0..9", "0..1000:100").
 */
int rb_values_parse(const char *spec, struct rb_values *out, char *err,
		    size_t errlen);
/* Add one value as it is (commas kept: "0,2" for a leg list). */
int rb_values_add(struct rb_values *out, const char *v, char *err,
		  size_t errlen);

#endif
