/* SPDX-License-Identifier: GPL-2.0 */
/* readbal(8): exit codes, messages and small parsers shared by every file. */
#ifndef RB_UTIL_H
#define RB_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Exit codes (docs/readbal.8). */
enum {
	RB_EXIT_OK = 0,
	RB_EXIT_USAGE = 1,	/* bad command line */
	RB_EXIT_DEVICE = 2,	/* a device is missing, unsuitable or busy */
	RB_EXIT_KERNEL = 3,	/* the kernel refused a table or message */
};

extern int rb_verbose;

void rb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rb_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rb_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copy with truncation check: 0, or -1 when @src does not fit. */
int rb_scpy(char *dst, size_t size, const char *src);
/* snprintf that reports truncation: 0, or -1. */
int rb_sfmt(char *dst, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Strict unsigned decimal: digits only, no sign, no overflow. */
int rb_parse_u64(const char *s, uint64_t *out);
int rb_parse_uint(const char *s, unsigned int max, unsigned int *out);
/* Positive decimal number with an optional fraction ("0.5"). */
int rb_parse_seconds(const char *s, double *out);

/* "512 MiB", "1.5 GiB": binary units, one decimal above KiB. */
void rb_human_bytes(uint64_t bytes, char *buf, size_t len);

/* A whitespace-split copy of a string. */
struct rb_words {
	char *buf;
	char **w;
	unsigned int n;
};
int rb_words_split(const char *s, struct rb_words *out);
void rb_words_free(struct rb_words *w);

#endif
