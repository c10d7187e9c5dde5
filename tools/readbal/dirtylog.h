/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): the numbers of the target's dirty region log (target 1.2):
 * region sizes as people write them, the disk log's size (the format of
 * dm-log's "disk" type, kernel drivers/md/dm-log.c) and its header.  Pure.
 */
#ifndef RB_DIRTYLOG_H
#define RB_DIRTYLOG_H

#include <stddef.h>
#include <stdint.h>

#include "table.h"

#define RB_REGION_SIZE_DEFAULT	2048	/* sectors: RB_REGION_SIZE, 1 MiB */
#define RB_REGION_SIZE_MAX	131072	/* sectors: 64 MiB, the target's unit */
#define RB_LOG_HEADER_BYTES	1024	/* dm-log's LOG_OFFSET, 2 sectors */
#define RB_LOG_MAGIC		0x4D695272	/* dm-log's MIRROR_MAGIC */

/*
 * --region-size: sectors ("1024", "1024s") or bytes with a binary unit
 * ("512K", "512k", "512KiB", "1M", "1G"), as lvm2's -R but sectors when
 * bare; a power of 2 from @min (a page, in sectors) to 64 MiB.  On error
 * a sentence naming the fix in @err.
 */
int rb_region_size_parse(const char *arg, unsigned int min,
			 unsigned int *sectors, char *err, size_t errlen);

/* Regions of a @length-sector mirror: the last one may be short. */
uint64_t rb_log_regions(uint64_t length, unsigned int region_size);
/*
 * Bytes a disk log needs (dm-log's create_log_context): the header, then
 * one bit per region in whole 64-bit words, rounded up to the log
 * device's logical block size @lbs.
 */
uint64_t rb_log_bytes(uint64_t regions, unsigned int lbs);
/*
 * Does the start of a device hold a disk log's header?  1 and its
 * region count in *nr_regions, else 0.
 */
int rb_log_header(const unsigned char *buf, size_t len, uint64_t *nr_regions);

/*
 * "disk on sde (8:64), regions of 512 KiB (1024 sectors)" for people;
 * @devname is the log device's kernel name or NULL.
 */
void rb_log_describe(const struct rb_log_spec *log, const char *devname,
		     char *buf, size_t len);

#endif
