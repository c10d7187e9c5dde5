/* SPDX-License-Identifier: GPL-2.0 */
/* readbal(8): one line of /proc/self/mountinfo, parsed in place.  Pure. */
#ifndef RB_MOUNTINFO_H
#define RB_MOUNTINFO_H

struct rb_mount {
	unsigned int major, minor;	/* st_dev of the mounted filesystem */
	char *mountpoint;		/* octal escapes undone */
	char *fstype;
	char *source;			/* "/dev/sdb1", "none", ... */
};

/* Parses @line (modified); 0, or -1 when it is not a mountinfo line. */
int rb_mountinfo_parse(char *line, struct rb_mount *m);

#endif
