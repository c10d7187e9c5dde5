// SPDX-License-Identifier: GPL-2.0
/* fio's JSON report (a real fio 3.33 report of 2 jobs) and value lists. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fiojson.h"
#include "tooltest.h"

static void test_real_report(void **state)
{
	struct rb_fio_result r;
	char err[256], *json;

	(void)state;
	json = tt_read_file(GOLDEN_DIR "/fio-2jobs.json");
	assert_non_null(json);
	/* the file starts with a line of text, as fio may print */
	if (rb_fio_parse(json, &r, err, sizeof(err)))
		fail_msg("%s", err);
	free(json);
	assert_int_equal(r.jobs, 2);
	/* jq '[.jobs[].read.bw] | add' and so on */
	assert_true(r.read_kib_s == 132129);
	assert_true(r.write_kib_s == 273066);
	assert_true(r.read_iops > 33032.25 && r.read_iops < 33032.26);
	assert_true(r.write_iops > 68266.66 && r.write_iops < 68266.67);
	assert_true(r.errors == 0);
}

static void test_small_reports(void **state)
{
	struct rb_fio_result r;
	char err[256];

	(void)state;
	assert_int_equal(rb_fio_parse(
		"{\"jobs\":[{\"error\":5,\"read\":{\"bw\":10,\"iops\":2.5,"
		"\"clat_ns\":{\"bw\":99}},\"write\":{\"bw\":1}},"
		"{\"read\":{\"bw\":20},\"write\":{\"bw\":-0.5e1}}],"
		"\"disk_util\":[{\"read\":{\"bw\":1000}}],"
		"\"x\":[true,false,null,\"a\\\"]\"]}", &r, err, sizeof(err)), 0);
	assert_int_equal(r.jobs, 2);
	assert_true(r.read_kib_s == 30);
	assert_true(r.write_kib_s == -4);
	assert_true(r.read_iops == 2.5);
	assert_true(r.errors == 5);

	assert_int_equal(rb_fio_parse("fio: no json here", &r, err,
				      sizeof(err)), -1);
	assert_string_equal(err, "no JSON object in fio's output");
	assert_int_equal(rb_fio_parse("{\"jobs\":[]}", &r, err, sizeof(err)), -1);
	assert_string_equal(err, "fio's JSON has no jobs");
	assert_int_equal(rb_fio_parse("{\"jobs\":[{\"read\":{\"bw\":1}}", &r,
				      err, sizeof(err)), -1);
	assert_int_equal(rb_fio_parse("{\"jobs\" [", &r, err, sizeof(err)), -1);
	assert_string_equal(err, "fio's JSON: expected ':' at offset 8");
	assert_int_equal(rb_fio_parse("{\"a\":\"unterminated}", &r, err,
				      sizeof(err)), -1);
	assert_int_equal(rb_fio_parse("{\"a\":tru}", &r, err, sizeof(err)), -1);
}

static void test_deep_nesting(void **state)
{
	struct rb_fio_result r;
	char err[256], deep[400];

	(void)state;
	memset(deep, '[', sizeof(deep) - 1);
	deep[0] = '{';
	deep[1] = '"';
	deep[2] = 'a';
	deep[3] = '"';
	deep[4] = ':';
	deep[sizeof(deep) - 1] = '\0';
	assert_int_equal(rb_fio_parse(deep, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nested too deeply"));
}

static void test_values(void **state)
{
	struct rb_values *v = calloc(1, sizeof(*v));
	char err[256];

	(void)state;
	assert_non_null(v);
	assert_int_equal(rb_values_parse("0..3", v, err, sizeof(err)), 0);
	assert_int_equal(v->n, 4);
	assert_string_equal(v->v[3], "3");
	assert_int_equal(rb_values_parse("10,20 30", v, err, sizeof(err)), 0);
	assert_int_equal(v->n, 7);
	assert_string_equal(v->v[6], "30");
	assert_int_equal(rb_values_parse("0..1000:300", v, err, sizeof(err)), 0);
	assert_int_equal(v->n, 11);
	assert_string_equal(v->v[7], "0");
	assert_string_equal(v->v[10], "900");
	assert_int_equal(rb_values_parse("131072..262144:131072", v, err,
					 sizeof(err)), 0);
	assert_int_equal(v->n, 13);
	assert_int_equal(rb_values_add(v, "0,2", err, sizeof(err)), 0);
	assert_string_equal(v->v[13], "0,2");
	assert_int_equal(rb_values_parse("-", v, err, sizeof(err)), 0);
	assert_string_equal(v->v[14], "-");

	assert_int_equal(rb_values_parse("", v, err, sizeof(err)), -1);
	assert_string_equal(err, "no values in ''");
	assert_int_equal(rb_values_parse(" , ", v, err, sizeof(err)), -1);
	assert_int_equal(rb_values_parse("3..1", v, err, sizeof(err)), -1);
	assert_string_equal(err, "bad range '3..1': want A..B or A..B:STEP "
			    "with A <= B, STEP > 0");
	assert_int_equal(rb_values_parse("1..3:0", v, err, sizeof(err)), -1);
	assert_int_equal(rb_values_parse("a..b", v, err, sizeof(err)), -1);
	assert_int_equal(rb_values_parse("0..100000", v, err, sizeof(err)), -1);
	assert_string_equal(err, "range '0..100000' has more than 256 values");
	assert_int_equal(rb_values_add(v, "a b", err, sizeof(err)), -1);
	assert_int_equal(rb_values_add(v, "", err, sizeof(err)), -1);
	/* the end of the range is kept near UINT64_MAX without wrapping */
	v->n = 0;
	assert_int_equal(rb_values_parse("18446744073709551614..18446744073709551615:5",
					 v, err, sizeof(err)), 0);
	assert_int_equal(v->n, 1);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_report),
		cmocka_unit_test(test_small_reports),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
