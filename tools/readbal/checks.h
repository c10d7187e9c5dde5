/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): is a device fit to be a leg?  A block device, not mounted,
 * not swap, not held by another device, free for an exclusive open, not
 * given twice (by any path) and not a partition of another leg.  The
 * same for the disk log's device.
 */
#ifndef RB_CHECKS_H
#define RB_CHECKS_H

#include <stdint.h>
#include <sys/types.h>

struct rb_legdev {
	const char *path;	/* as given */
	dev_t rdev;
	uint64_t sectors;	/* size in 512-byte sectors */
	unsigned int lbs;	/* logical block size, bytes */
	char kname[64];
};

/*
 * Check every path; print each problem with its fix.  Returns RB_EXIT_OK
 * or RB_EXIT_DEVICE.  @out gets the devices on success.
 */
int rb_check_legs(char *const *paths, unsigned int n, struct rb_legdev *out);

/*
 * Check the disk log's device: as a leg (not mounted, held, in use...),
 * and not a leg nor overlapping one.  Exit code; @out on success.
 */
int rb_check_log_dev(const char *path, const struct rb_legdev *legs,
		     unsigned int n, struct rb_legdev *out);

/* The first @len bytes of a block device, read past the page cache. */
int rb_read_start(const char *path, unsigned int lbs, unsigned char *buf,
		  size_t len);

/* The mount point of @dev or of one of its partitions; 1 if mounted. */
int rb_dev_mounted(dev_t dev, char *mnt, size_t mntlen, char *fstype,
		   size_t fslen, char *what, size_t whatlen);

#endif
