// SPDX-License-Identifier: GPL-2.0
/* The dirty region log's numbers: --region-size, log size, header. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "dirtylog.h"
#include "tooltest.h"

/* Every --region-size form and refusal, with its message, in one file. */
static void test_region_size_golden(void **state)
{
	static const char *const args[] = {
		"2048", "2048s", "1024S", "8", "131072", "4K", "4k", "512K",
		"512KiB", "512kib", "1M", "1m", "1MiB", "64M", "64m",
		"1000", "3K", "4", "2K", "1", "0", "262144", "128M", "1G",
		"1.5M", "-1", "", "M", "1T", "1MB", "512b", "0x800",
		"99999999999999999999", "18014398509481984K",
	};
	unsigned int rs;
	struct tt_buf b;
	FILE *f = tt_begin(&b);
	char err[512], *got;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		err[0] = '\0';
		if (!rb_region_size_parse(args[i], 8, &rs, err, sizeof(err)))
			fprintf(f, "'%s' -> %u sectors\n", args[i], rs);
		else
			fprintf(f, "'%s' -> %s\n", args[i], err);
	}
	got = tt_end(&b);
	tt_golden("region-size.txt", got);
	free(got);
}

static void test_region_size_page(void **state)
{
	unsigned int rs = 0;
	char err[512];

	(void)state;
	/* 64 KiB pages: 128 sectors is the smallest region */
	assert_int_equal(rb_region_size_parse("64K", 128, &rs, err,
					      sizeof(err)), 0);
	assert_int_equal(rs, 128);
	assert_int_equal(rb_region_size_parse("32K", 128, &rs, err,
					      sizeof(err)), -1);
	assert_string_equal(err, "--region-size '32K' is smaller than a page "
			    "(64 KiB, 128 sectors), the smallest region: give a "
			    "power of 2 from 64 KiB to 64 MiB");
}

static void test_regions(void **state)
{
	(void)state;
	assert_int_equal(rb_log_regions(131072, 2048), 64);
	assert_int_equal(rb_log_regions(131073, 2048), 65);
	assert_int_equal(rb_log_regions(131072, 0), 64);	/* the default */
	assert_int_equal(rb_log_regions(1, 8), 1);
	assert_int_equal(rb_log_regions(0, 8), 0);
}

/* dm-log: round_up(1024 + round_up(regions, 64) / 8, logical block). */
static void test_log_bytes(void **state)
{
	(void)state;
	assert_int_equal(rb_log_bytes(1, 512), 1536);
	assert_int_equal(rb_log_bytes(64, 512), 1536);
	assert_int_equal(rb_log_bytes(65, 512), 1536);	/* 1040 bytes */
	assert_int_equal(rb_log_bytes(4096, 512), 1536);	/* 1024 + 512 */
	assert_int_equal(rb_log_bytes(4097, 512), 2048);
	assert_int_equal(rb_log_bytes(64, 4096), 4096);
	assert_int_equal(rb_log_bytes(28 * 1024 + 1, 4096), 8192);
	assert_int_equal(rb_log_bytes(64, 0), 1536);	/* unknown: 512 */
	/* 8 TiB of 1 MiB regions fit in 1 MiB, as docs/readbal.rst says */
	assert_true(rb_log_bytes(8ULL << 20, 4096) <= (1 << 20) + 4096);
	/* the most regions the log holds: 2^32 - 1 */
	assert_int_equal(rb_log_bytes(UINT32_MAX, 512), 1024 + 536870912);
}

static void test_header(void **state)
{
	unsigned char buf[512] = { 0 };
	uint64_t nr = 0;

	(void)state;
	assert_int_equal(rb_log_header(buf, sizeof(buf), &nr), 0);
	/* "rRiM", version 2, 0x0102 regions, little endian */
	buf[0] = 0x72; buf[1] = 0x52; buf[2] = 0x69; buf[3] = 0x4d;
	buf[4] = 2;
	buf[8] = 0x02; buf[9] = 0x01;
	assert_int_equal(rb_log_header(buf, sizeof(buf), &nr), 1);
	assert_int_equal(nr, 0x102);
	buf[15] = 0x80;
	assert_int_equal(rb_log_header(buf, sizeof(buf), &nr), 1);
	assert_true(nr == 0x8000000000000102ULL);
	assert_int_equal(rb_log_header(buf, 15, &nr), 0);	/* too short */
	buf[3] = 0x4e;
	assert_int_equal(rb_log_header(buf, sizeof(buf), &nr), 0);
}

static void test_describe(void **state)
{
	struct rb_log_spec log = { 0 };
	char buf[512];

	(void)state;
	rb_log_describe(&log, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "core (in memory), regions of 1 MiB (2048 "
			    "sectors)");
	log.region_size = 1024;
	log.sync = RB_LOG_SYNC_SYNC;
	rb_log_describe(&log, "", buf, sizeof(buf));
	assert_string_equal(buf, "core (in memory), regions of 512 KiB (1024 "
			    "sectors); sync: every region is copied at "
			    "activation");
	strcpy(log.dev, "251:3");
	log.sync = RB_LOG_SYNC_NOSYNC;
	rb_log_describe(&log, "glog", buf, sizeof(buf));
	assert_string_equal(buf, "disk on glog (251:3), regions of 512 KiB "
			    "(1024 sectors); nosync: the legs are trusted at "
			    "activation");
	log.sync = RB_LOG_SYNC_DEFAULT;
	log.region_size = 8;
	strcpy(log.dev, "/dev/sde1");
	rb_log_describe(&log, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "disk on /dev/sde1, regions of 4 KiB (8 "
			    "sectors)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_region_size_golden),
		cmocka_unit_test(test_region_size_page),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_log_bytes),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
