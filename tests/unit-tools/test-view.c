// SPDX-License-Identifier: GPL-2.0
/* What status and list print, text and JSON, against golden files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "status.h"
#include "view.h"
#include "tooltest.h"

#define DOC_EXAMPLE \
	"3 7 8:16 A 0 1200 76800 8120 3145728 8:32 A 1 1187 75968 " \
	"8201 2097152 259:0 A 3 9034 578176 140 4194304 roundrobin 6 " \
	"nonlocal_inc_mixed_only 1 rot_nonlocal_inc 2 nonrot_nonlocal_inc 0"

/* One second later: 100 more reads on leg 0, 300 on leg 2. */
#define DOC_LATER \
	"3 7 8:16 D 0 1300 83200 8000 3145728 8:32 A 1 1187 75968 " \
	"8201 2097152 259:0 A 0 9334 597376 150 4194304 roundrobin 6 " \
	"nonlocal_inc_mixed_only 1 rot_nonlocal_inc 2 nonrot_nonlocal_inc 0"

static const struct rb_leg_info infos[3] = {
	{ "sdb", "", "WDC WD40EFRX-68N", 1 },
	{ "dm-4", "vg0-leg1", "", 0 },
	{ "nvme0n1", "", "Samsung SSD 980 PRO 1TB \"x\"\n", 0 },
};

static void parse(const char *line, struct rb_status *st)
{
	char err[256];

	if (rb_status_parse(line, st, err, sizeof(err)))
		fail_msg("%s", err);
}

static char *render(const struct rb_view *v, int json)
{
	struct tt_buf b;
	FILE *f = tt_begin(&b);

	if (json)
		rb_view_json(f, v);
	else
		rb_view_text(f, v);
	return tt_end(&b);
}

static void check(const struct rb_view *v, const char *name_txt,
		  const char *name_json)
{
	char *got = render(v, 0);

	tt_golden(name_txt, got);
	free(got);
	got = render(v, 1);
	tt_golden(name_json, got);
	free(got);
}

static void test_status_view(void **state)
{
	struct rb_status st;
	struct rb_view v = {
		.name = "mix", .kname = "dm-0", .sectors = 976773168,
		.st = &st, .info = infos,
	};

	(void)state;
	parse(DOC_EXAMPLE, &st);
	check(&v, "view-status.txt", "view-status.json");
}

static void test_status_view_no_sysfs(void **state)
{
	struct rb_status st;
	struct rb_view v = {
		.name = "m", .kname = NULL, .sectors = 65536, .st = &st,
		.info = NULL,
	};

	(void)state;
	parse("2 7 251:0 A 0 0 0 0 0 251:1 D 0 0 0 0 0 device 2 preferred -",
	      &st);
	check(&v, "view-nosysfs.txt", "view-nosysfs.json");
}

static void test_watch_view(void **state)
{
	struct rb_status st, prev;
	struct rb_view v = {
		.name = "mix", .kname = "dm-0", .sectors = 976773168,
		.st = &st, .info = infos, .prev = &prev, .interval = 2.0,
		.time = 1700000000,
	};

	(void)state;
	parse(DOC_EXAMPLE, &prev);
	parse(DOC_LATER, &st);
	check(&v, "view-watch.txt", "view-watch.json");
}

/* After reset_stats the counters drop: the interval counts from zero. */
static void test_watch_after_reset(void **state)
{
	struct rb_status st, prev;
	struct rb_view v = {
		.name = "mix", .kname = "dm-0", .sectors = 976773168,
		.st = &st, .info = infos, .prev = &prev, .interval = 1.0,
		.time = 1700000001,
	};

	(void)state;
	parse(DOC_LATER, &prev);
	parse("3 7 8:16 A 0 10 80 100 0 8:32 A 0 20 160 200 0 259:0 A 0 70 "
	      "560 50 0 pid 0", &st);
	check(&v, "view-reset.txt", "view-reset.json");
}

/* Target 1.1: error counters, a resyncing and a failed leg, progress. */
static void test_status_view_11(void **state)
{
	struct rb_status st, prev;
	struct rb_view v = {
		.name = "mix", .kname = "dm-0", .sectors = 976773168,
		.st = &st, .info = infos,
	};
	char *got;

	(void)state;
	parse("3 11 8:16 A 2 1200 76800 8120 3145728 5 4 1 0 "
	      "8:32 a 0 0 0 0 0 0 0 0 0 259:0 D 0 9034 578176 140 4194304 "
	      "3 0 3 1 roundrobin 6 nonlocal_inc_mixed_only 1 "
	      "rot_nonlocal_inc 2 nonrot_nonlocal_inc 0 1200/476940 20", &st);
	check(&v, "view-status11.txt", "view-status11.json");
	/* the watch view of the same, one second on */
	prev = st;
	st.legs[0].reads += 50;
	st.legs[0].read_sectors += 400;
	st.sync_done = 476940;
	st.legs[1].state = 'A';
	v.prev = &prev;
	v.interval = 1.0;
	v.time = 1700000002;
	got = render(&v, 0);
	tt_golden("view-watch11.txt", got);
	free(got);
}

/* Target 1.2: the log from the table; a disk log resyncing, a core log. */
static void test_status_view_12(void **state)
{
	struct rb_log_spec log = {
		.region_size = 1024, .dev = "251:3",
		.sync = RB_LOG_SYNC_DEFAULT,
	};
	struct rb_status st;
	struct rb_view v = {
		.name = "mix", .kname = "dm-0", .sectors = 131072,
		.st = &st, .info = infos, .log = &log, .log_name = "glog",
	};
	struct tt_buf b;
	FILE *f;
	char *got;

	(void)state;
	parse("3 11 8:16 A 0 0 0 0 0 0 0 0 0 8:32 A 0 0 0 0 0 0 0 0 0 "
	      "259:0 A 0 0 0 0 0 0 0 0 0 pid 0 40/128 20", &st);
	check(&v, "view-status12.txt", "view-status12.json");
	/* a core log given sync, and one with nosync and the default size */
	f = tt_begin(&b);
	log.dev[0] = '\0';
	log.sync = RB_LOG_SYNC_SYNC;
	v.log_name = NULL;
	rb_view_text(f, &v);
	rb_view_json(f, &v);
	log.region_size = 0;
	log.sync = RB_LOG_SYNC_NOSYNC;
	rb_view_json(f, &v);
	got = tt_end(&b);
	tt_golden("view-status12-core.txt", got);
	free(got);
}

static void test_list(void **state)
{
	struct rb_list_entry e[3] = {
		{ "mix", "dm-0", 976773168, 3, "AaD", "roundrobin", 1 },
		{ "a-very-long-device-name-indeed", "dm-12", 2048, 16,
		  "AAAAAAAAAAAAAAAA", "round-robin", 1 },
		{ "broken", "", 8, 0, "", "", 0 },
	};
	struct tt_buf b;
	FILE *f;
	char *got;

	(void)state;
	f = tt_begin(&b);
	rb_list_text(f, e, 3);
	rb_list_text(f, e, 0);
	got = tt_end(&b);
	tt_golden("list.txt", got);
	free(got);
	f = tt_begin(&b);
	rb_list_json(f, e, 3);
	rb_list_json(f, e, 0);
	got = tt_end(&b);
	tt_golden("list.json", got);
	free(got);
}

static void test_json_string(void **state)
{
	struct tt_buf b;
	FILE *f = tt_begin(&b);
	char *got;

	(void)state;
	rb_json_string(f, "a\"b\\c\n\t\x01\x7f\xc3\xa9");
	got = tt_end(&b);
	assert_string_equal(got, "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\xc3\xa9\"");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_view),
		cmocka_unit_test(test_status_view_no_sysfs),
		cmocka_unit_test(test_status_view_11),
		cmocka_unit_test(test_status_view_12),
		cmocka_unit_test(test_watch_view),
		cmocka_unit_test(test_watch_after_reset),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_json_string),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
