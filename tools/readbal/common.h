/* SPDX-License-Identifier: GPL-2.0 */
/* readbal(8): helpers the commands share: a readbal device, its legs,
 * the policy catalog, kernel refusals. */
#ifndef RB_COMMON_H
#define RB_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "status.h"
#include "view.h"

#define RB_DM_NAME_MAX	128	/* DM_NAME_LEN */
#define RB_LINE_MAX	8192

struct rb_dev {
	char name[RB_DM_NAME_MAX];
	unsigned int major, minor;
	int open_count;
	char kname[64];		/* "dm-3" */
	uint64_t length;	/* sectors */
	struct rb_status st;
	/* the dirty region log, from the table (rb_dev_load_log) */
	int has_log;		/* 0: unknown, or a module before 1.2 */
	struct rb_log_spec log;
	char log_name[64];	/* the log device's kernel name, or "" */
};

/* Checks that NAME is a usable dm device name. */
int rb_check_name(const char *name);
/* Loads NAME's status; prints why not and returns the exit code. */
int rb_dev_load(const char *name, struct rb_dev *d);
/* Reloads only the status (for --watch). */
int rb_dev_refresh(struct rb_dev *d);
/* Reads the log features from the table; 0, or -1 if it cannot tell. */
int rb_dev_load_log(struct rb_dev *d);
/* "NAME: log disk on ..., regions of ...; N/M regions in sync" if known. */
void rb_print_log(const struct rb_dev *d);
/* The /dev node of the device: /dev/dm-N, else /dev/mapper/NAME. */
void rb_dev_node(const struct rb_dev *d, char *buf, size_t len);
/* Fills one rb_leg_info per leg from sysfs. */
void rb_dev_leg_info(const struct rb_dev *d, struct rb_leg_info *info);
/* A leg given as an index or as a device path; -1 after an error. */
int rb_dev_leg_arg(const struct rb_dev *d, const char *arg);

/*
 * The catalog: from @device's module if given, else from any readbal
 * device, else the built-in list.
 */
void rb_catalog_load(struct rb_catalog *c, const char *device);

/* Send a message; on refusal print the kernel's reason and return 3. */
int rb_send(const struct rb_dev *d, const char *msg, char *resp,
	    size_t resplen);
/* Print a kernel refusal of @what with the kernel log's reason. */
void rb_report_refusal(const char *name, const char *what, const char *hint);

/*
 * Is the loaded readbal target at least version @major.@minor?  1.1
 * resyncs (the rebuild feature, reinstate_leg), 1.2 has the dirty region
 * log, 1.3 takes queue_depth.  0 when it is older or not loaded.
 */
int rb_module_at_least(unsigned int major, unsigned int minor);
#define rb_module_resyncs() rb_module_at_least(1, 1)
#define rb_module_logs() rb_module_at_least(1, 2)
#define rb_module_depths() rb_module_at_least(1, 3)

/* "policy: roundrobin a=1 b=2" of a device's current status. */
void rb_print_policy(const struct rb_dev *d);

#endif
