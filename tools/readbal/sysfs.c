// SPDX-License-Identifier: GPL-2.0
/* readbal(8): block device facts from sysfs. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sysfs.h"
#include "util.h"

/* First line of a sysfs file, trailing blanks cut; -1 if unreadable. */
static int rb_sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static void rb_devdir(unsigned int major, unsigned int minor, char *buf,
		      size_t len)
{
	snprintf(buf, len, "/sys/dev/block/%u:%u", major, minor);
}

int rb_sysfs_kname(unsigned int major, unsigned int minor, char *buf,
		   size_t len)
{
	char dir[64], link[PATH_MAX];
	const char *base;
	ssize_t n;

	rb_devdir(major, minor, dir, sizeof(dir));
	n = readlink(dir, link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	base = strrchr(link, '/');
	return rb_scpy(buf, len, base ? base + 1 : link);
}

/*
 * The sysfs directory of the disk whose queue @dir's device uses: a
 * partition's model and queue are its disk's, one level up.
 */
static void rb_queue_dir(const char *dir, char *buf, size_t len)
{
	char path[1024];

	/* sysfs paths of 8 levels of slaves stay far below these bounds */
	snprintf(path, sizeof(path), "%.1000s/partition", dir);
	snprintf(buf, len, "%.1000s%s", dir, access(path, F_OK) ? "" : "/..");
}

/* Has the queue at @qdir tags of its own (blk-mq), a real nr_requests? */
static int rb_has_tags(const char *qdir)
{
	char path[1024];

	snprintf(path, sizeof(path), "%.1000s/mq", qdir);
	return !access(path, F_OK);
}

void rb_sysfs_leg_info(unsigned int major, unsigned int minor,
		       struct rb_leg_info *info)
{
	char dir[64], disk[80], path[128], v[16];

	memset(info, 0, sizeof(*info));
	info->rotational = -1;
	if (rb_sysfs_kname(major, minor, info->name, sizeof(info->name)))
		info->name[0] = '\0';
	rb_devdir(major, minor, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/dm/name", dir);
	if (rb_sysfs_read(path, info->dm_name, sizeof(info->dm_name)))
		info->dm_name[0] = '\0';
	rb_queue_dir(dir, disk, sizeof(disk));
	snprintf(path, sizeof(path), "%s/device/model", disk);
	if (rb_sysfs_read(path, info->model, sizeof(info->model)))
		info->model[0] = '\0';
	snprintf(path, sizeof(path), "%s/queue/rotational", disk);
	if (!rb_sysfs_read(path, v, sizeof(v)))
		info->rotational = !strcmp(v, "1");
}

static void rb_holders_of(const char *dir, char *buf, size_t len, size_t *pos)
{
	char path[PATH_MAX], name[128];
	struct dirent *de;
	DIR *d;
	int n;

	snprintf(path, sizeof(path), "%s/holders", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/holders/%s/dm/name", dir,
			 de->d_name);
		if (rb_sysfs_read(path, name, sizeof(name)))
			name[0] = '\0';
		if (*pos >= len)
			break;
		n = snprintf(buf + *pos, len - *pos, "%s%s%s%s%s",
			     *pos ? ", " : "", de->d_name,
			     name[0] ? " (" : "", name, name[0] ? ")" : "");
		if (n > 0)
			*pos += (size_t)n;
	}
	closedir(d);
}

int rb_sysfs_holders(unsigned int major, unsigned int minor, char *buf,
		     size_t len)
{
	char dir[64], pdir[64];
	dev_t parts[64];
	unsigned int i, n;
	size_t pos = 0;

	buf[0] = '\0';
	rb_devdir(major, minor, dir, sizeof(dir));
	rb_holders_of(dir, buf, len, &pos);
	n = rb_sysfs_partitions(major, minor, parts, 64);
	for (i = 0; i < n; i++) {
		rb_devdir(major(parts[i]), minor(parts[i]), pdir, sizeof(pdir));
		rb_holders_of(pdir, buf, len, &pos);
	}
	return pos > 0;
}

/*
 * The tags below the block device at sysfs directory @dir: its own
 * nr_requests if it is blk-mq (a partition's are its disk's), else the
 * sum over what it stacks on, @level deep at most.
 */
static unsigned int rb_tags_below(const char *dir, int level)
{
	char path[PATH_MAX], base[1024], v[32];
	unsigned int sum = 0, n;
	struct dirent *de;
	DIR *d;

	rb_queue_dir(dir, base, sizeof(base));
	if (rb_has_tags(base)) {
		snprintf(path, sizeof(path), "%s/queue/nr_requests", base);
		return rb_sysfs_read(path, v, sizeof(v)) ||
		       rb_parse_uint(v, 1U << 20, &n) ? 0 : n;
	}
	if (level <= 0)
		return 0;
	snprintf(path, sizeof(path), "%s/slaves", base);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/slaves/%.255s", base,
			 de->d_name);
		sum += rb_tags_below(path, level - 1);
	}
	closedir(d);
	return sum;
}

unsigned int rb_sysfs_stacked_depth(unsigned int major, unsigned int minor)
{
	char dir[64], base[80];
	unsigned int n;

	rb_devdir(major, minor, dir, sizeof(dir));
	rb_queue_dir(dir, base, sizeof(base));
	if (rb_has_tags(base))
		return 0;
	/* an LV on dm-crypt on a disk is 2 deep; 8 is plenty; the target
	 * takes up to 65536 */
	n = rb_tags_below(base, 8);
	return n > 65536 ? 65536 : n;
}

unsigned int rb_sysfs_partitions(unsigned int major, unsigned int minor,
				 dev_t *out, unsigned int max)
{
	char dir[64], path[PATH_MAX], v[32];
	unsigned int n = 0, ma, mi;
	struct dirent *de;
	DIR *d;

	rb_devdir(major, minor, dir, sizeof(dir));
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", dir, de->d_name);
		if (access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir, de->d_name);
		if (rb_sysfs_read(path, v, sizeof(v)) ||
		    sscanf(v, "%u:%u", &ma, &mi) != 2)
			continue;
		out[n++] = makedev(ma, mi);
	}
	closedir(d);
	return n;
}

dev_t rb_sysfs_whole(dev_t dev)
{
	char path[128], v[32];
	unsigned int ma, mi;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition",
		 major(dev), minor(dev));
	if (access(path, F_OK))
		return dev;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev",
		 major(dev), minor(dev));
	if (rb_sysfs_read(path, v, sizeof(v)) ||
	    sscanf(v, "%u:%u", &ma, &mi) != 2)
		return dev;
	return makedev(ma, mi);
}
