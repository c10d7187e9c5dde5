/* SPDX-License-Identifier: GPL-2.0 */
/* readbal(8): block device facts from /sys/dev/block/MAJOR:MINOR. */
#ifndef RB_SYSFS_H
#define RB_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

#include "view.h"

/* Kernel name ("sdb", "dm-3"); -1 when sysfs does not know the device. */
int rb_sysfs_kname(unsigned int major, unsigned int minor, char *buf,
		   size_t len);
/* Name, dm name, model, rotational; unknown fields stay empty / -1. */
void rb_sysfs_leg_info(unsigned int major, unsigned int minor,
		       struct rb_leg_info *info);
/* Who holds the device or one of its partitions: "dm-3 (vg-lv), md0". */
int rb_sysfs_holders(unsigned int major, unsigned int minor, char *buf,
		     size_t len);
/* The partitions of a disk; returns how many were stored. */
unsigned int rb_sysfs_partitions(unsigned int major, unsigned int minor,
				 dev_t *out, unsigned int max);
/*
 * For a device with no request queue of its own (device-mapper, md): the
 * nr_requests of the disks below it, summed over the disks it stacks on
 * (/sys/.../slaves, followed down); 0 for a device with its own tags
 * (blk-mq: its nr_requests is real) or when sysfs does not say.
 */
unsigned int rb_sysfs_stacked_depth(unsigned int major, unsigned int minor);
/* The whole disk of a partition, else the device itself. */
dev_t rb_sysfs_whole(dev_t dev);

#endif
