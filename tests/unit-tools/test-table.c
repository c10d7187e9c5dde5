// SPDX-License-Identifier: GPL-2.0
/* Table lines: knob words, building (golden), parsing, lengths, messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "table.h"
#include "tooltest.h"

static void test_knob_is_arg(void **state)
{
	(void)state;
	assert_true(rb_knob_is_arg("rot_nonlocal_inc=2"));
	assert_true(rb_knob_is_arg("preferred=0,2"));
	assert_true(rb_knob_is_arg("min-contig=1"));
	assert_true(rb_knob_is_arg("k="));
	assert_false(rb_knob_is_arg("/dev/sdb"));
	assert_false(rb_knob_is_arg("/dev/disk/by-id/x=y"));
	assert_false(rb_knob_is_arg("./a=b"));
	assert_false(rb_knob_is_arg("=3"));
	assert_false(rb_knob_is_arg("nullb0"));
}

static void test_knob_parse(void **state)
{
	struct rb_knob k;
	char err[256];

	(void)state;
	assert_int_equal(rb_knob_parse("rot_nonlocal_inc=2", &k, err,
				       sizeof(err)), 0);
	assert_string_equal(k.name, "rot_nonlocal_inc");
	assert_string_equal(k.value, "2");
	assert_int_equal(rb_knob_parse("preferred=0,2", &k, err, sizeof(err)), 0);
	assert_string_equal(k.value, "0,2");
	/* the first '=' splits: the value may hold one */
	assert_int_equal(rb_knob_parse("a=b=c", &k, err, sizeof(err)), 0);
	assert_string_equal(k.name, "a");
	assert_string_equal(k.value, "b=c");

	assert_int_equal(rb_knob_parse("noequals", &k, err, sizeof(err)), -1);
	assert_string_equal(err, "'noequals': expected knob=value");
	assert_int_equal(rb_knob_parse("=1", &k, err, sizeof(err)), -1);
	assert_int_equal(rb_knob_parse("k=", &k, err, sizeof(err)), -1);
	assert_string_equal(err, "'k=': the value is missing (knob=value)");
	assert_int_equal(rb_knob_parse("k=a b", &k, err, sizeof(err)), -1);
	assert_int_equal(rb_knob_parse("k=a\tb", &k, err, sizeof(err)), -1);
	assert_int_equal(rb_knob_parse(
		"k=0123456789012345678901234567890123456789012345678901234567890123",
		&k, err, sizeof(err)), -1);
}

static void test_add_knob(void **state)
{
	struct rb_policy_spec p = { .name = "roundrobin" };
	struct rb_knob k = { "rot_nonlocal_inc", "1" };
	char err[256];
	unsigned int i;

	(void)state;
	assert_int_equal(rb_policy_add_knob(&p, &k, err, sizeof(err)), 0);
	assert_int_equal(rb_policy_add_knob(&p, &k, err, sizeof(err)), -1);
	assert_string_equal(err, "knob rot_nonlocal_inc is given twice");
	for (i = 1; i < RB_MAX_KNOBS; i++) {
		snprintf(k.name, sizeof(k.name), "k%u", i);
		assert_int_equal(rb_policy_add_knob(&p, &k, err, sizeof(err)), 0);
	}
	snprintf(k.name, sizeof(k.name), "one_too_many");
	assert_int_equal(rb_policy_add_knob(&p, &k, err, sizeof(err)), -1);
	assert_int_equal(p.nknobs, RB_MAX_KNOBS);
}

static void spec_legs(struct rb_table *t, unsigned int n)
{
	unsigned int i;

	t->nlegs = n;
	for (i = 0; i < n; i++) {
		snprintf(t->legs[i].dev, sizeof(t->legs[i].dev), "%u:%u",
			 i < 8 ? 8 : 259, i < 8 ? 16 * i : i);
		t->legs[i].offset = 0;
	}
}

/* Lines with every combination of the log options create has. */
static void log_lines(FILE *f, struct rb_table *t)
{
	static const unsigned int sizes[] = { 0, 1024 };
	static const char *const devs[] = { "", "8:48" };
	static const char *const flags[] = { "", "sync", "nosync" };
	struct rb_log_spec log;
	char line[RB_DEV_MAX * 40];
	size_t s, d, fl;

	for (s = 0; s < 2; s++)
		for (d = 0; d < 2; d++)
			for (fl = 0; fl < 3; fl++) {
				memset(&log, 0, sizeof(log));
				log.region_size = sizes[s];
				strcpy(log.dev, devs[d]);
				log.sync = (enum rb_log_sync)fl;
				t->nfeatures = 0;
				assert_int_equal(rb_table_add_log(t, &log), 0);
				assert_int_equal(rb_table_line(t, line,
							       sizeof(line)), 0);
				fprintf(f, "log: region_size %u, log_dev '%s', "
					"flag '%s':\n%s\n", sizes[s], devs[d],
					flags[fl], line);
			}
	/* after the rebuild features replace adds */
	t->nfeatures = 0;
	assert_int_equal(rb_table_add_feature(t, "rebuild", "1"), 0);
	memset(&log, 0, sizeof(log));
	log.region_size = 8;
	strcpy(log.dev, "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4-part1");
	log.sync = RB_LOG_SYNC_NOSYNC;
	assert_int_equal(rb_table_add_log(t, &log), 0);
	assert_int_equal(rb_table_line(t, line, sizeof(line)), 0);
	fprintf(f, "rebuild 1, then a log on a long path:\n%s\n", line);
}

/* Every line the tool builds for a set of specs, in one golden file. */
static void test_lines_golden(void **state)
{
	struct rb_table t;
	struct tt_buf b;
	char line[RB_DEV_MAX * 40];
	FILE *f = tt_begin(&b);
	char *got;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.length = 976773168;
	spec_legs(&t, 2);
	strcpy(t.policy.name, "pid");
	assert_int_equal(rb_table_line(&t, line, sizeof(line)), 0);
	fprintf(f, "2 legs, pid:\n%s\n", line);

	spec_legs(&t, 3);
	strcpy(t.policy.name, "roundrobin");
	assert_int_equal(rb_table_line(&t, line, sizeof(line)), 0);
	fprintf(f, "3 legs, roundrobin, knobs at defaults:\n%s\n", line);

	t.policy.nknobs = 2;
	strcpy(t.policy.knobs[0].name, "rot_nonlocal_inc");
	strcpy(t.policy.knobs[0].value, "2");
	strcpy(t.policy.knobs[1].name, "nonlocal_inc_mixed_only");
	strcpy(t.policy.knobs[1].value, "0");
	assert_int_equal(rb_table_line(&t, line, sizeof(line)), 0);
	fprintf(f, "3 legs, roundrobin, 2 knobs in the order given:\n%s\n", line);

	memset(&t.policy, 0, sizeof(t.policy));
	strcpy(t.policy.name, "device");
	t.policy.nknobs = 1;
	strcpy(t.policy.knobs[0].name, "preferred");
	strcpy(t.policy.knobs[0].value, "0,2");
	t.legs[1].offset = 2048;
	assert_int_equal(rb_table_line(&t, line, sizeof(line)), 0);
	fprintf(f, "device preferred 0,2, leg 1 at offset 2048:\n%s\n", line);

	t.legs[1].offset = 0;
	memset(&t.policy, 0, sizeof(t.policy));
	strcpy(t.policy.name, "round-robin");
	spec_legs(&t, 16);
	t.length = 32768;
	assert_int_equal(rb_table_line(&t, line, sizeof(line)), 0);
	fprintf(f, "16 legs, round-robin:\n%s\n", line);

	spec_legs(&t, 2);
	strcpy(t.legs[0].dev, "/dev/rb/a");
	assert_int_equal(rb_table_params(&t, line, sizeof(line)), 0);
	fprintf(f, "params only, a path, no features:\n%s\n", line);
	assert_int_equal(rb_table_add_feature(&t, "max_read_errors", "5"), 0);
	assert_int_equal(rb_table_add_feature(&t, "rebuild", "1"), 0);
	assert_int_equal(rb_table_add_feature(&t, "rebuild", "1"), 0);
	assert_int_equal(rb_table_add_feature(&t, "rebuild", "0"), 0);
	assert_int_equal(rb_table_line(&t, line, sizeof(line)), 0);
	fprintf(f, "features max_read_errors 5, rebuild 1 (twice), rebuild 0:\n%s\n",
		line);

	/* the log features as create writes them, in the target's order */
	t.nfeatures = 0;
	strcpy(t.legs[0].dev, "8:0");
	log_lines(f, &t);
	got = tt_end(&b);
	tt_golden("table-lines.txt", got);
	free(got);
}

static void test_line_too_long(void **state)
{
	struct rb_table t;
	char line[40];

	(void)state;
	memset(&t, 0, sizeof(t));
	t.length = 1;
	spec_legs(&t, 4);
	strcpy(t.policy.name, "pid");
	assert_int_equal(rb_table_line(&t, line, sizeof(line)), -1);
	assert_int_equal(rb_table_params(&t, line, 0), -1);
}

/* What dmsetup table prints parses back into the same line. */
static void test_parse_round_trip(void **state)
{
	static const char *const lines[] = {
		"3 8:16 0 8:32 0 259:0 0 roundrobin 6 nonlocal_inc_mixed_only 1 rot_nonlocal_inc 2 nonrot_nonlocal_inc 0",
		"2 251:0 0 251:1 0 pid 0",
		"2 251:0 2048 251:1 0 device 2 preferred 0,1",
		"2 251:0 0 251:1 0 latency 0 2 feat_a feat_b",
		"3 251:0 0 251:1 0 251:2 0 pid 0 6 max_read_errors 7 rebuild 1 rebuild 2",
		/* target 1.2's log features, as dmsetup table prints them */
		"2 251:0 0 251:1 0 pid 0 4 region_size 1024 log_dev 251:3",
		"2 251:0 0 251:1 0 pid 0 1 sync",
		"2 251:0 0 251:1 0 pid 0 1 nosync",
		"2 251:0 0 251:1 0 pid 0 3 log_dev 251:3 nosync",
		"3 251:0 0 251:1 0 251:2 0 roundrobin 2 rot_nonlocal_inc 3 9 max_read_errors 7 rebuild 1 region_size 8 log_dev /dev/rb/glog sync",
		"2 251:0 0 251:1 0 pid 0 3 SYNC region_size 16",
	};
	struct rb_table t;
	char err[256], out[1024];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(rb_table_parse(lines[i], 100, &t, err,
						sizeof(err)), 0);
		assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
		assert_string_equal(out, lines[i]);
		assert_int_equal(t.length, 100);
	}
	assert_int_equal(rb_table_parse(lines[2], 100, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nlegs, 2);
	assert_string_equal(t.legs[0].dev, "251:0");
	assert_int_equal(t.legs[0].offset, 2048);
	assert_string_equal(t.policy.name, "device");
	assert_int_equal(t.policy.nknobs, 1);
	assert_string_equal(t.policy.knobs[0].value, "0,1");

	/* "0" features is the same as none */
	assert_int_equal(rb_table_parse("2 251:0 0 251:1 0 pid 0 0", 8, &t, err,
					sizeof(err)), 0);
	assert_int_equal(t.nfeatures, 0);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "2 251:0 0 251:1 0 pid 0");
	/* a feature added to a parsed table goes after the ones there */
	assert_int_equal(rb_table_parse(lines[4], 8, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nfeatures, 6);
	assert_int_equal(rb_table_add_feature(&t, "rebuild", "2"), 0);
	assert_int_equal(rb_table_add_feature(&t, "rebuild", "0"), 0);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "3 251:0 0 251:1 0 251:2 0 pid 0 8 "
			    "max_read_errors 7 rebuild 1 rebuild 2 rebuild 0");
}

/* Features one word or two: found, added once, dropped, read as a log. */
static void test_feature_words(void **state)
{
	static const char *const line =
		"2 251:0 0 251:1 0 pid 0 7 rebuild 1 sync region_size 1024 "
		"log_dev 251:3";
	struct rb_log_spec log;
	struct rb_table t;
	char err[256], out[1024];

	(void)state;
	assert_int_equal(rb_feature_words("sync"), 1);
	assert_int_equal(rb_feature_words("NoSync"), 1);
	assert_int_equal(rb_feature_words("region_size"), 2);
	assert_int_equal(rb_feature_words("synced"), 2);
	assert_int_equal(rb_table_parse(line, 8, &t, err, sizeof(err)), 0);
	assert_string_equal(rb_table_feature(&t, "region_size"), "1024");
	assert_string_equal(rb_table_feature(&t, "log_dev"), "251:3");
	assert_string_equal(rb_table_feature(&t, "sync"), "sync");
	assert_string_equal(rb_table_feature(&t, "rebuild"), "1");
	assert_null(rb_table_feature(&t, "nosync"));
	/* "1" is rebuild's value, not a feature name */
	assert_null(rb_table_feature(&t, "1"));
	assert_null(rb_table_feature(&t, "1024"));
	rb_table_log(&t, &log);
	assert_int_equal(log.region_size, 1024);
	assert_string_equal(log.dev, "251:3");
	assert_int_equal(log.sync, RB_LOG_SYNC_SYNC);

	/* what is there is not added again; a value after "sync" counts */
	assert_int_equal(rb_table_add_feature(&t, "sync", NULL), 0);
	assert_int_equal(rb_table_add_feature(&t, "rebuild", "1"), 0);
	assert_int_equal(rb_table_add_feature(&t, "region_size", "1024"), 0);
	assert_int_equal(t.nfeatures, 7);
	assert_int_equal(rb_table_add_feature(&t, "rebuild", "0"), 0);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "2 251:0 0 251:1 0 pid 0 9 rebuild 1 sync "
			    "region_size 1024 log_dev 251:3 rebuild 0");

	/* dropped with its value, wherever it is */
	assert_int_equal(rb_table_del_feature(&t, "sync"), 1);
	assert_int_equal(rb_table_del_feature(&t, "sync"), 0);
	assert_int_equal(rb_table_del_feature(&t, "rebuild"), 2);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "2 251:0 0 251:1 0 pid 0 4 region_size 1024 "
			    "log_dev 251:3");
	assert_int_equal(rb_table_del_feature(&t, "region_size"), 1);
	assert_int_equal(rb_table_del_feature(&t, "log_dev"), 1);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "2 251:0 0 251:1 0 pid 0");
	rb_table_log(&t, &log);
	assert_int_equal(log.region_size, 0);
	assert_string_equal(log.dev, "");
	assert_int_equal(log.sync, RB_LOG_SYNC_DEFAULT);

	/* a flag alone, and nosync read as such */
	assert_int_equal(rb_table_add_feature(&t, "nosync", NULL), 0);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "2 251:0 0 251:1 0 pid 0 1 nosync");
	rb_table_log(&t, &log);
	assert_int_equal(log.sync, RB_LOG_SYNC_NOSYNC);
	assert_int_equal(rb_table_del_feature(&t, "nosync"), 1);
	assert_int_equal(t.nfeatures, 0);
}

/* A stacked leg's depth: three words, one per leg, replaced or dropped. */
static void test_queue_depth(void **state)
{
	static const char *const line =
		"3 251:0 0 251:1 0 251:2 0 pid 0 8 queue_depth 0 4 rebuild 1 "
		"queue_depth 2 32";
	struct rb_table t;
	char err[256], out[1024];

	(void)state;
	assert_int_equal(rb_feature_words("queue_depth"), 3);
	assert_int_equal(rb_feature_words("QUEUE_DEPTH"), 3);
	assert_int_equal(rb_table_parse(line, 8, &t, err, sizeof(err)), 0);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, line);
	/* the leg and the depth are values, not features */
	assert_null(rb_table_feature(&t, "4"));
	assert_null(rb_table_feature(&t, "2"));
	assert_string_equal(rb_table_feature(&t, "rebuild"), "1");
	/* leg 0's is replaced (at the end), leg 2's dropped, leg 1's added */
	assert_int_equal(rb_table_set_queue_depth(&t, 0, 8), 0);
	assert_int_equal(rb_table_set_queue_depth(&t, 2, 0), 0);
	assert_int_equal(rb_table_set_queue_depth(&t, 1, 16), 0);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "3 251:0 0 251:1 0 251:2 0 pid 0 8 rebuild 1 "
			    "queue_depth 0 8 queue_depth 1 16");
	assert_int_equal(rb_table_del_feature(&t, "queue_depth"), 2);
	assert_int_equal(rb_table_set_queue_depth(&t, 1, 0), 0);
	assert_int_equal(rb_table_params(&t, out, sizeof(out)), 0);
	assert_string_equal(out, "3 251:0 0 251:1 0 251:2 0 pid 0 2 rebuild 1");
	/* cut short: refused */
	assert_int_not_equal(rb_table_parse("2 251:0 0 251:1 0 pid 0 2 "
					    "queue_depth 0", 8, &t, err,
					    sizeof(err)), 0);
	assert_non_null(strstr(err, "queue_depth without its value"));
}

static void test_features_full(void **state)
{
	struct rb_table t;
	unsigned int i;
	char v[16];

	(void)state;
	memset(&t, 0, sizeof(t));
	for (i = 0; i < RB_MAX_FEATURE_WORDS / 2; i++) {
		snprintf(v, sizeof(v), "%u", i);
		assert_int_equal(rb_table_add_feature(&t, "rebuild", v), 0);
	}
	assert_int_equal(rb_table_add_feature(&t, "rebuild", "x"), -1);
	assert_int_equal(t.nfeatures, RB_MAX_FEATURE_WORDS);
}

static void test_parse_errors(void **state)
{
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "", "bad number of legs ''" },
		{ "x 8:0 0", "bad number of legs 'x'" },
		{ "0 pid 0", "bad number of legs '0'" },
		{ "2 8:0 0 8:16", "leg 1: device or offset missing" },
		{ "2 8:0 0 8:16 -1 pid 0", "leg 1: bad device or offset '8:16 -1'" },
		{ "2 8:0 0 8:16 0", "the read policy is missing" },
		{ "2 8:0 0 8:16 0 pid", "policy pid: bad number of policy arguments ''" },
		{ "2 8:0 0 8:16 0 pid 1 x", "policy pid: bad number of policy arguments '1'" },
		{ "2 8:0 0 8:16 0 roundrobin 4 a 1", "policy roundrobin: 4 policy arguments announced, 2 present" },
		{ "2 8:0 0 8:16 0 pid 0 2 onlyone", "bad feature list after the policy: '2'" },
		{ "2 8:0 0 8:16 0 pid 0 junk", "bad feature list after the policy: 'junk'" },
		{ "2 8:0 0 8:16 0 pid 0 1 region_size", "feature region_size without its value" },
		{ "2 8:0 0 8:16 0 pid 0 3 sync nosync log_dev", "feature log_dev without its value" },
		{ "2 8:0 0 8:16 0 pid 0 3 rebuild 1 max_read_errors", "feature max_read_errors without its value" },
	};
	struct rb_table t;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(rb_table_parse(bad[i].line, 1, &t, err,
						sizeof(err)), -1);
		assert_string_equal(err, bad[i].err);
	}
}

static void test_length(void **state)
{
	uint64_t a[] = { 1000, 800, 1200 };
	unsigned int lbs512[] = { 512, 512, 512 };
	unsigned int lbs4k[] = { 512, 4096, 512 };
	uint64_t odd[] = { 1003, 1003 };

	(void)state;
	assert_int_equal(rb_table_length(a, lbs512, 3), 800);
	assert_int_equal(rb_table_length(a, NULL, 3), 800);
	assert_int_equal(rb_table_length(a, lbs4k, 3), 800);
	/* rounded down to the largest logical block: 8 sectors */
	assert_int_equal(rb_table_length(odd, lbs4k, 2), 1000);
	assert_int_equal(rb_table_length(odd, lbs512, 2), 1003);
	assert_int_equal(rb_table_length(a, lbs512, 0), 0);
	odd[0] = 7;
	assert_int_equal(rb_table_length(odd, lbs4k, 2), 0);
}

static void test_messages(void **state)
{
	struct rb_policy_spec p = { .name = "device" };
	struct rb_knob k[2] = { { "rot_nonlocal_inc", "4" },
				{ "nonrot_nonlocal_inc", "2" } };
	char buf[256], small[10];

	(void)state;
	assert_int_equal(rb_msg_policy(&p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "policy device");
	p.nknobs = 1;
	strcpy(p.knobs[0].name, "preferred");
	strcpy(p.knobs[0].value, "1");
	assert_int_equal(rb_msg_policy(&p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "policy device preferred 1");
	assert_int_equal(rb_policy_describe(&p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "device preferred=1");
	assert_int_equal(rb_msg_set(k, 2, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "set rot_nonlocal_inc 4 nonrot_nonlocal_inc 2");
	assert_int_equal(rb_msg_set(k, 0, buf, sizeof(buf)), -1);
	assert_int_equal(rb_msg_set(k, 2, small, sizeof(small)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knob_is_arg),
		cmocka_unit_test(test_knob_parse),
		cmocka_unit_test(test_add_knob),
		cmocka_unit_test(test_lines_golden),
		cmocka_unit_test(test_line_too_long),
		cmocka_unit_test(test_parse_round_trip),
		cmocka_unit_test(test_feature_words),
		cmocka_unit_test(test_queue_depth),
		cmocka_unit_test(test_features_full),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_length),
		cmocka_unit_test(test_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
