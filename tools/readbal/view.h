/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): what status and list print, as text for people and JSON for
 * scripts.  Pure: everything it shows is passed in, so tests compare the
 * output with golden files.
 */
#ifndef RB_VIEW_H
#define RB_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "status.h"

/* What sysfs says about a leg (sysfs.c fills it). */
struct rb_leg_info {
	char name[64];		/* kernel name: "sdb", "nullb0", "dm-3"; "" unknown */
	char dm_name[128];	/* a dm device's name ("vg-lv"), else "" */
	char model[128];	/* device/model, else "" */
	int rotational;		/* 1, 0, or -1 unknown */
};

struct rb_view {
	const char *name;		/* the readbal device */
	const char *kname;		/* its block device ("dm-0"), or NULL */
	uint64_t sectors;
	const struct rb_status *st;
	const struct rb_leg_info *info;	/* st->nlegs entries, or NULL */
	/* --watch: the previous sample and the seconds since it */
	const struct rb_status *prev;
	double interval;
	long long time;			/* unix time of the sample (watch) */
	/* the dirty region log, or NULL when unknown; its device's name */
	const struct rb_log_spec *log;
	const char *log_name;
};

void rb_view_text(FILE *f, const struct rb_view *v);
void rb_view_json(FILE *f, const struct rb_view *v);

struct rb_list_entry {
	char name[128];
	char kname[64];
	uint64_t sectors;
	unsigned int nlegs;
	char states[72];
	char policy[64];
	int ok;			/* 0: status could not be read/parsed */
};

void rb_list_text(FILE *f, const struct rb_list_entry *e, unsigned int n);
void rb_list_json(FILE *f, const struct rb_list_entry *e, unsigned int n);

/* A JSON string literal with the quotes. */
void rb_json_string(FILE *f, const char *s);

#endif
