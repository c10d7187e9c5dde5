// SPDX-License-Identifier: GPL-2.0
/* readbal(8): device checks before a table is loaded. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "checks.h"
#include "mountinfo.h"
#include "sysfs.h"
#include "util.h"

static const char *rb_file_kind(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISFIFO(m))
		return "a fifo";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a block device";
}

/* Is @dev (exactly) mounted?  Matches st_dev and the mount's source. */
static int rb_mounted_exact(dev_t dev, char *mnt, size_t mntlen, char *fstype,
			    size_t fslen)
{
	struct rb_mount m;
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		if (rb_mountinfo_parse(line, &m))
			continue;
		if (makedev(m.major, m.minor) == dev)
			found = 1;
		else if (m.source[0] == '/' && !stat(m.source, &st) &&
			 S_ISBLK(st.st_mode) && st.st_rdev == dev)
			found = 1;
		if (found) {
			rb_scpy(mnt, mntlen, m.mountpoint);
			rb_scpy(fstype, fslen, m.fstype);
		}
	}
	free(line);
	fclose(f);
	return found;
}

int rb_dev_mounted(dev_t dev, char *mnt, size_t mntlen, char *fstype,
		   size_t fslen, char *what, size_t whatlen)
{
	dev_t parts[64];
	unsigned int i, n;

	what[0] = '\0';
	if (rb_mounted_exact(dev, mnt, mntlen, fstype, fslen))
		return 1;
	n = rb_sysfs_partitions(major(dev), minor(dev), parts, 64);
	for (i = 0; i < n; i++) {
		if (rb_mounted_exact(parts[i], mnt, mntlen, fstype, fslen)) {
			if (rb_sysfs_kname(major(parts[i]), minor(parts[i]),
					   what, whatlen))
				snprintf(what, whatlen, "%u:%u",
					 major(parts[i]), minor(parts[i]));
			return 1;
		}
	}
	return 0;
}

/* Is @dev a swap area?  /proc/swaps names it by path. */
static int rb_is_swap(dev_t dev)
{
	char line[512], path[512];
	struct stat st;
	int found = 0;
	FILE *f;

	f = fopen("/proc/swaps", "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%511s", path) == 1 && path[0] == '/' &&
		    !stat(path, &st) && S_ISBLK(st.st_mode) && st.st_rdev == dev)
			found = 1;
	}
	fclose(f);
	return found;
}

/* Every check of one device but the ones across legs; @role: "a leg". */
static int rb_check_one(const char *path, const char *role,
			struct rb_legdev *d)
{
	char mnt[512], fstype[64], part[64], holders[512];
	uint64_t bytes = 0;
	int fd, lbs = 512;

	if (rb_dev_mounted(d->rdev, mnt, sizeof(mnt), fstype, sizeof(fstype),
			   part, sizeof(part))) {
		if (part[0])
			rb_err("%s: its partition %s is mounted on %s (%s): a "
			       "device in use cannot be %s; unmount it first "
			       "(umount %s)", path, part, mnt, fstype, role, mnt);
		else
			rb_err("%s is mounted on %s (%s): a device in use cannot "
			       "be %s; unmount it first (umount %s)", path,
			       mnt, fstype, role, mnt);
		return -1;
	}
	if (rb_is_swap(d->rdev)) {
		rb_err("%s is in use as swap: turn it off first (swapoff %s)",
		       path, path);
		return -1;
	}
	if (rb_sysfs_holders(major(d->rdev), minor(d->rdev), holders,
			     sizeof(holders))) {
		rb_err("%s is held by %s: a device in use cannot be %s; "
		       "remove the holder first (dmsetup remove NAME for a dm "
		       "device, mdadm --stop for md)", path, holders, role);
		return -1;
	}
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (e == EBUSY)
			rb_err("%s is in use: the kernel refused an exclusive "
			       "open (%s); stop what has it open (a mount, swap, "
			       "md or dm device, or a program such as a "
			       "filesystem tool)", path, strerror(e));
		else if (e == EACCES || e == EPERM)
			rb_err("%s: %s: run readbal as root", path, strerror(e));
		else
			rb_err("%s: cannot open it: %s", path, strerror(e));
		return -1;
	}
	if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs)) {
		rb_err("%s: cannot read its size: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	d->sectors = bytes / 512;
	d->lbs = lbs > 0 ? (unsigned int)lbs : 512;
	if (!d->sectors) {
		rb_err("%s has no space (0 bytes): check that the disk or "
		       "volume is present and sized", path);
		return -1;
	}
	return 0;
}

/* Is @path a block device?  Fills d->path, rdev and kname; -1 after an
 * error message. */
static int rb_check_blk(const char *path, struct rb_legdev *d)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->path = path;
	if (stat(path, &st)) {
		if (errno == ENOENT)
			rb_err("%s: no such device: check the path (lsblk lists "
			       "the block devices)", path);
		else
			rb_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		rb_err("%s is %s, not a block device: give a disk, partition or "
		       "logical volume (attach a file with 'losetup --find "
		       "--show FILE' first)", path, rb_file_kind(st.st_mode));
		return -1;
	}
	d->rdev = st.st_rdev;
	if (rb_sysfs_kname(major(st.st_rdev), minor(st.st_rdev), d->kname,
			   sizeof(d->kname)))
		snprintf(d->kname, sizeof(d->kname), "%u:%u", major(st.st_rdev),
			 minor(st.st_rdev));
	return 0;
}

/* Is one device a partition of the other? */
static int rb_overlap(dev_t a, dev_t b)
{
	return rb_sysfs_whole(a) == b || rb_sysfs_whole(b) == a;
}

int rb_check_legs(char *const *paths, unsigned int n, struct rb_legdev *out)
{
	int bad = 0, *skip;
	unsigned int i, j;

	skip = calloc(n ? n : 1, sizeof(*skip));
	if (!skip) {
		rb_err("out of memory");
		return RB_EXIT_DEVICE;
	}
	for (i = 0; i < n; i++)
		if (rb_check_blk(paths[i], &out[i]))
			skip[i] = bad = 1;
	/* across legs: the same device twice, or a disk and its partition */
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (skip[i] || skip[j])
				continue;
			if (out[i].rdev == out[j].rdev) {
				rb_err("%s and %s are the same device (%s, "
				       "%u:%u): give each device once",
				       paths[j], paths[i], out[i].kname,
				       major(out[i].rdev), minor(out[i].rdev));
				skip[i] = bad = 1;
			} else if (rb_overlap(out[i].rdev, out[j].rdev)) {
				rb_err("%s and %s overlap (one is a partition of "
				       "the other): give separate disks",
				       paths[j], paths[i]);
				skip[i] = bad = 1;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (!skip[i] && rb_check_one(paths[i], "a leg", &out[i]))
			bad = 1;
	free(skip);
	return bad ? RB_EXIT_DEVICE : RB_EXIT_OK;
}

int rb_check_log_dev(const char *path, const struct rb_legdev *legs,
		     unsigned int n, struct rb_legdev *out)
{
	unsigned int i;

	if (rb_check_blk(path, out))
		return RB_EXIT_DEVICE;
	for (i = 0; i < n; i++) {
		if (out->rdev == legs[i].rdev) {
			rb_err("--log-dev %s is leg %u (%s, %u:%u): the log needs "
			       "a device of its own, not one of the legs", path,
			       i, legs[i].path, major(out->rdev),
			       minor(out->rdev));
			return RB_EXIT_DEVICE;
		}
		if (rb_overlap(out->rdev, legs[i].rdev)) {
			rb_err("--log-dev %s and leg %s overlap (one is a "
			       "partition of the other): put the log on another "
			       "device or partition", path, legs[i].path);
			return RB_EXIT_DEVICE;
		}
	}
	return rb_check_one(path, "the log device", out) ? RB_EXIT_DEVICE :
							   RB_EXIT_OK;
}

int rb_read_start(const char *path, unsigned int lbs, unsigned char *buf,
		  size_t len)
{
	size_t n = lbs > 4096 ? lbs : 4096;
	void *blk = NULL;
	ssize_t got;
	int fd;

	/* O_DIRECT: what the kernel wrote, not an old page cache copy */
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (posix_memalign(&blk, n, n)) {
		close(fd);
		return -1;
	}
	got = pread(fd, blk, lbs < 512 ? 512 : lbs, 0);
	close(fd);
	if (got < (ssize_t)len) {
		free(blk);
		return -1;
	}
	memcpy(buf, blk, len);
	free(blk);
	return 0;
}
