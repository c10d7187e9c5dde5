/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): the libdevmapper calls.  Creating, resuming and removing use
 * udev cookies when udev runs; with DM_DISABLE_UDEV set or no udev
 * (/run/udev/control absent) libdevmapper makes the /dev nodes itself.
 */
#ifndef RB_DM_H
#define RB_DM_H

#include <stddef.h>
#include <stdint.h>

struct rbdm_info {
	int exists;
	unsigned int major, minor;
	int open_count;
	int suspended;
	int live_table;
	int inactive_table;
	int target_count;
};

/* One target of a device's table (status or table line). */
struct rbdm_target {
	uint64_t start, length;
	char type[64];
	char *params;		/* malloc'd */
	int count;		/* targets in the table */
};

void rbdm_init(void);
int rbdm_udev_sync(void);
/* The last libdevmapper error message and ioctl errno. */
const char *rbdm_last_error(void);
int rbdm_last_errno(void);

int rbdm_get_info(const char *name, struct rbdm_info *info);
/* First target: @table 0 for status INFO, 1 for the table.  -1 error. */
int rbdm_get_target(const char *name, int table, struct rbdm_target *t);
void rbdm_target_free(struct rbdm_target *t);

/* Create with one target; libdevmapper removes the device again when the
 * load or resume fails, and so do we if it is still there. */
int rbdm_create(const char *name, uint64_t length, const char *type,
		const char *params);
int rbdm_reload(const char *name, uint64_t length, const char *type,
		const char *params);
int rbdm_resume(const char *name);
int rbdm_clear(const char *name);
int rbdm_remove(const char *name);
/* Send a message to sector 0; @resp gets the kernel's answer if any. */
int rbdm_message(const char *name, const char *msg, char *resp,
		 size_t resplen);

/* All dm device names; *names is malloc'd, each name too. */
int rbdm_list(char ***names, unsigned int *n);
void rbdm_list_free(char **names, unsigned int n);
/* Is the target type registered?  Fills "1.0.0". */
int rbdm_target_version(const char *type, char *ver, size_t len);

#endif
