// SPDX-License-Identifier: GPL-2.0
/* readbal(8): read the kernel log lines a refusal left (/dev/kmsg). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kmsg.h"
#include "util.h"

static int rb_kmsg_fd = -1;

void rb_kmsg_mark(void)
{
	if (rb_kmsg_fd < 0)
		rb_kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rb_kmsg_fd >= 0 && lseek(rb_kmsg_fd, 0, SEEK_END) < 0) {
		close(rb_kmsg_fd);
		rb_kmsg_fd = -1;
	}
}

const char *rb_kmsg_text(char *record)
{
	char *text = strchr(record, ';'), *nl;

	if (!text)
		return NULL;
	text++;
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	return text;
}

static void rb_join(char *buf, size_t len, size_t *pos, const char *s)
{
	int n;

	if (*pos >= len)
		return;
	n = snprintf(buf + *pos, len - *pos, "%s%s", *pos ? "; " : "", s);
	if (n > 0)
		*pos += (size_t)n;
}

int rb_kmsg_collect(char *buf, size_t len)
{
	char rec[2048], other[1024];
	size_t pos = 0, opos = 0;
	const char *text;
	int found = 0, others = 0;
	ssize_t n;

	buf[0] = '\0';
	other[0] = '\0';
	if (rb_kmsg_fd < 0 || !len)
		return 0;
	for (;;) {
		n = read(rb_kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = rb_kmsg_text(rec);
		if (!text || !strstr(text, "device-mapper:"))
			continue;
		if (strstr(text, "readbal")) {
			rb_join(buf, len, &pos, text);
			found++;
		} else {
			rb_join(other, sizeof(other), &opos, text);
			others++;
		}
	}
	if (!found && others) {
		rb_scpy(buf, len, other);
		found = others;
	}
	return found;
}
