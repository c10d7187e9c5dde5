// SPDX-License-Identifier: GPL-2.0
/* The status INFO line: parsed fields (golden), extra fields, errors. */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "status.h"
#include "tooltest.h"

/* The example of docs/readbal.rst, after "0 976773168 readbal". */
#define DOC_EXAMPLE \
	"3 7 8:16 A 0 1200 76800 8120 3145728 8:32 A 1 1187 75968 " \
	"8201 2097152 259:0 A 3 9034 578176 140 4194304 roundrobin 6 " \
	"nonlocal_inc_mixed_only 1 rot_nonlocal_inc 2 nonrot_nonlocal_inc 0"

/* Its target 1.1 version: 11 fields per leg, progress after the policy. */
#define DOC_EXAMPLE_11 \
	"3 11 8:16 A 0 1200 76800 8120 3145728 0 0 0 0 " \
	"8:32 A 1 1187 75968 8201 2097152 2 2 0 0 259:0 A 3 9034 578176 140 " \
	"4194304 0 0 0 0 roundrobin 6 nonlocal_inc_mixed_only 1 rot_nonlocal_inc 2 " \
	"nonrot_nonlocal_inc 0 476940/476940 20"

static void dump(FILE *f, const char *title, const struct rb_status *st)
{
	unsigned int i;

	fprintf(f, "== %s\nlegs %u, fields per leg %u, alive %u, reads %" PRIu64
		"\n", title, st->nlegs, st->leg_fields, rb_status_alive(st),
		rb_status_total_reads(st));
	for (i = 0; i < st->nlegs; i++) {
		const struct rb_leg_status *l = &st->legs[i];

		fprintf(f, "leg %u: dev %s (%u,%u) state %c inflight %" PRId64
			" reads %" PRIu64 " sectors %" PRIu64 " avg_us %" PRIu64
			" head %" PRIu64 "\n", i, l->dev, l->major, l->minor,
			l->state, l->inflight, l->reads, l->read_sectors,
			l->avg_read_us, l->head);
	}
	fprintf(f, "policy %s:", st->policy.name);
	for (i = 0; i < st->policy.nknobs; i++)
		fprintf(f, " %s=%s", st->policy.knobs[i].name,
			st->policy.knobs[i].value);
	fputc('\n', f);
	for (i = 0; i < st->nlegs; i++) {
		const struct rb_leg_status *l = &st->legs[i];

		if (l->has_errors)
			fprintf(f, "leg %u errors: read %" PRIu64 " corrected %"
				PRIu64 " uncorrected %" PRIu64 " write %" PRIu64
				"\n", i, l->read_errors, l->corrected,
				l->uncorrected, l->write_errors);
	}
	if (st->has_sync)
		fprintf(f, "sync %" PRIu64 "/%" PRIu64 " resyncing %d in_sync %u\n",
			st->sync_done, st->sync_total, rb_status_syncing(st),
			rb_status_in_sync(st));
	if (st->has_max_read_errors)
		fprintf(f, "max_read_errors %u\n", st->max_read_errors);
}

static void test_parse_golden(void **state)
{
	static const struct {
		const char *title, *line;
	} cases[] = {
		{ "target 1.0: the first docs/readbal.rst example", DOC_EXAMPLE },
		{ "target 1.1: docs/readbal.rst example with errors and sync",
		  DOC_EXAMPLE_11 },
		{ "target 1.1: leg 1 resyncing, leg 2 failed",
		  "3 11 251:0 A 0 10 80 5 80 0 0 0 0 251:1 a 0 0 0 0 0 0 0 0 0 "
		  "251:2 D 0 0 0 0 0 3 1 2 1 pid 0 12/64 5" },
		{ "a newer module: progress without max_read_errors",
		  "2 11 251:0 A 0 1 8 5 8 0 0 0 0 251:1 A 0 1 8 5 8 0 0 0 0 pid 0 "
		  "64/64" },
		{ "a newer module: words after max_read_errors skipped",
		  "2 12 251:0 A 0 1 8 5 8 0 0 0 0 z 251:1 A 0 1 8 5 8 0 0 0 0 z "
		  "pid 0 64/64 20 future words" },
		{ "2 legs, one failed, pid",
		  "2 7 251:0 A 0 10 80 5 80 251:1 D 0 0 0 0 0 pid 0" },
		{ "a newer module: 9 fields per leg, the extra ones skipped",
		  "2 9 251:0 A 2 10 80 5 80 x y 251:1 A 0 3 24 7 24 x y "
		  "device 2 preferred 0,1" },
		{ "unknown state letter, negative inflight kept",
		  "2 7 251:0 R -1 0 0 0 0 251:1 A 0 0 0 0 0 latency 0" },
		{ "big counters",
		  "2 7 259:1048575 A 2147483647 18446744073709551615 "
		  "18446744073709551615 18446744073709551615 18446744073709551615 "
		  "4095:0 A 0 0 0 0 0 round-robin 2 min_contig_read 262144" },
	};
	struct rb_status st;
	struct tt_buf b;
	char err[256];
	FILE *f = tt_begin(&b);
	char *got;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (rb_status_parse(cases[i].line, &st, err, sizeof(err)))
			fail_msg("%s: %s", cases[i].title, err);
		dump(f, cases[i].title, &st);
	}
	got = tt_end(&b);
	tt_golden("status-parse.txt", got);
	free(got);
}

static void test_doc_example_fields(void **state)
{
	struct rb_status st;
	char err[256], states[8];

	(void)state;
	assert_int_equal(rb_status_parse(DOC_EXAMPLE, &st, err, sizeof(err)), 0);
	assert_int_equal(st.nlegs, 3);
	assert_int_equal(st.legs[2].major, 259);
	assert_int_equal(st.legs[2].minor, 0);
	assert_int_equal(st.legs[2].reads, 9034);
	assert_int_equal(st.legs[1].inflight, 1);
	assert_int_equal(rb_status_total_reads(&st), 1200 + 1187 + 9034);
	assert_string_equal(st.policy.name, "roundrobin");
	assert_int_equal(st.policy.nknobs, 3);
	assert_string_equal(st.policy.knobs[1].name, "rot_nonlocal_inc");
	assert_string_equal(st.policy.knobs[1].value, "2");
	rb_status_states(&st, states, sizeof(states));
	assert_string_equal(states, "AAA");
	rb_status_states(&st, states, 2);
	assert_string_equal(states, "A");
}

static void test_parse_errors(void **state)
{
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "", "status line too short: ''" },
		{ "2", "status line too short: '2'" },
		{ "0 7 pid 0", "bad number of legs '0'" },
		{ "65 7", "bad number of legs '65'" },
		{ "2 6 251:0 A 0 0 0 0 251:1 A 0 0 0 0 pid 0",
		  "bad number of fields per leg '6' (want at least 7)" },
		{ "2 7 251:0 A 0 0 0 0 0 251:1 A 0 0 0",
		  "leg 1: 7 fields announced, 5 left" },
		{ "2 7 251 A 0 0 0 0 0 251:1 A 0 0 0 0 0 pid 0",
		  "leg 0: bad device '251' (want major:minor)" },
		{ "2 7 251:x A 0 0 0 0 0 251:1 A 0 0 0 0 0 pid 0",
		  "leg 0: bad device '251:x' (want major:minor)" },
		{ "2 7 251:0 AD 0 0 0 0 0 251:1 A 0 0 0 0 0 pid 0",
		  "leg 0: bad state 'AD'" },
		{ "2 7 251:0 A x 0 0 0 0 251:1 A 0 0 0 0 0 pid 0",
		  "leg 0: bad inflight 'x'" },
		{ "2 7 251:0 A 0 -1 0 0 0 251:1 A 0 0 0 0 0 pid 0",
		  "leg 0: bad counters '-1 0 0 0'" },
		{ "2 7 251:0 A 0 0 0 0 0 251:1 A 0 0 0 0 18446744073709551616 pid 0",
		  "leg 1: bad counters '0 0 0 18446744073709551616'" },
		{ "2 7 251:0 A 0 0 0 0 0 251:1 A 0 0 0 0 0",
		  "the read policy is missing" },
		{ "2 7 251:0 A 0 0 0 0 0 251:1 A 0 0 0 0 0 roundrobin 2 a",
		  "policy roundrobin: 2 policy arguments announced, 1 present" },
		{ "2 7 251:0 A 0 0 0 0 0 251:1 A 0 0 0 0 0 pid 0 extra",
		  "unexpected words after the policy: 'extra'" },
		{ "2 7 251:0 A 0 0 0 0 0 251:1 A 0 0 0 0 0 pid 0 5/4 20",
		  "bad resync progress '5/4'" },
		{ "2 7 251:0 A 0 0 0 0 0 251:1 A 0 0 0 0 0 pid 0 x/4 20",
		  "bad resync progress 'x/4'" },
		{ "2 7 251:0 A 0 0 0 0 0 251:1 A 0 0 0 0 0 pid 0 4/4 -1",
		  "bad max_read_errors '-1'" },
		{ "2 11 251:0 A 0 0 0 0 0 0 0 0 x 251:1 A 0 0 0 0 0 0 0 0 0 pid 0",
		  "leg 0: bad error counters '0 0 0 x'" },
	};
	struct rb_status st;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (rb_status_parse(bad[i].line, &st, err, sizeof(err)) != -1)
			fail_msg("accepted: %s", bad[i].line);
		assert_string_equal(err, bad[i].err);
	}
}

static void test_devnum(void **state)
{
	unsigned int ma, mi;

	(void)state;
	assert_int_equal(rb_parse_devnum("8:16", &ma, &mi), 0);
	assert_int_equal(ma, 8);
	assert_int_equal(mi, 16);
	assert_int_equal(rb_parse_devnum("8:", &ma, &mi), -1);
	assert_int_equal(rb_parse_devnum(":1", &ma, &mi), -1);
	assert_int_equal(rb_parse_devnum("8-16", &ma, &mi), -1);
	assert_int_equal(rb_parse_devnum("8:16:1", &ma, &mi), -1);
	assert_int_equal(rb_parse_devnum("1048576:0", &ma, &mi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_golden),
		cmocka_unit_test(test_doc_example_fields),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_devnum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
