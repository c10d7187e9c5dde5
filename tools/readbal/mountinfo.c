// SPDX-License-Identifier: GPL-2.0
/*
 * readbal(8): parse a mountinfo line (proc(5)):
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
 *   id parent major:minor root mountpoint options [optional...] - fstype source superoptions
 */
#include <stdio.h>
#include <string.h>

#include "mountinfo.h"

/* "\040" -> ' ', as the kernel escapes space, tab, newline, backslash. */
static void rb_unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

int rb_mountinfo_parse(char *line, struct rb_mount *m)
{
	char *f[6], *save = NULL, *tok;
	unsigned int i;
	size_t n = strlen(line);

	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	for (i = 0; i < 6; i++) {
		f[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!f[i])
			return -1;
	}
	if (sscanf(f[2], "%u:%u", &m->major, &m->minor) != 2)
		return -1;
	m->mountpoint = f[4];
	/* optional fields up to the "-" separator */
	while ((tok = strtok_r(NULL, " ", &save)) && strcmp(tok, "-"))
		;
	if (!tok)
		return -1;
	m->fstype = strtok_r(NULL, " ", &save);
	m->source = strtok_r(NULL, " ", &save);
	if (!m->fstype || !m->source)
		return -1;
	rb_unescape(m->mountpoint);
	rb_unescape(m->source);
	return 0;
}
