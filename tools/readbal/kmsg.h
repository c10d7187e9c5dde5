/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): the kernel's reason for a refusal.  device-mapper puts it in
 * the kernel log, not in the ioctl's answer: mark the log before the
 * ioctl, collect the device-mapper lines written since after it fails.
 */
#ifndef RB_KMSG_H
#define RB_KMSG_H

#include <stddef.h>

void rb_kmsg_mark(void);
/* "readbal: ..." lines since the mark (else other device-mapper lines),
 * joined by "; ".  Returns how many; 0 when there are none or the log
 * cannot be read. */
int rb_kmsg_collect(char *buf, size_t len);
/* The text of a /dev/kmsg record ("6,1234,5678,-;text\n..."), or NULL. */
const char *rb_kmsg_text(char *record);

#endif
