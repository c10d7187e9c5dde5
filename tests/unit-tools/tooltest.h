/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the readbal tool's unit tests: golden files and output
 * capture.  Include after cmocka.h.
 *
 * Golden files live in tests/unit-tools/golden/.  After an intended change
 * of the output, rewrite them with
 *   UPDATE_GOLDEN=1 make -C tools test
 * and review the diff.
 */
#ifndef TOOLTEST_H
#define TOOLTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GOLDEN_DIR
#error "GOLDEN_DIR must be defined (tools/Makefile does)"
#endif

/* The whole file, malloc'd; NULL if it cannot be read. */
static inline char *tt_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Compare @got with golden/@name (or write it under UPDATE_GOLDEN=1). */
static inline void tt_golden(const char *name, const char *got)
{
	char path[1024];
	char *want;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", GOLDEN_DIR, name);
	if (getenv("UPDATE_GOLDEN")) {
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(got, 1, strlen(got), f), strlen(got));
		assert_int_equal(fclose(f), 0);
		return;
	}
	want = tt_read_file(path);
	if (!want)
		fail_msg("no golden file %s: UPDATE_GOLDEN=1 make -C tools test "
			 "writes it", path);
	if (strcmp(want, got)) {
		print_error("golden %s differs\n--- want\n%s--- got\n%s---\n",
			    name, want, got);
		free(want);
		fail();
	}
	free(want);
}

/* An in-memory FILE; tt_end() returns what was written (malloc'd). */
struct tt_buf {
	FILE *f;
	char *data;
	size_t len;
};

static inline FILE *tt_begin(struct tt_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->f = open_memstream(&b->data, &b->len);
	assert_non_null(b->f);
	return b->f;
}

static inline char *tt_end(struct tt_buf *b)
{
	assert_int_equal(fclose(b->f), 0);
	return b->data;
}

#endif
