// SPDX-License-Identifier: GPL-2.0
/*
 * The policy catalog: the built-in list must match dm-readbal's sources
 * (registry order, names, knobs), and refusals list the valid names.
 */
#include <glob.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "catalog.h"
#include "tooltest.h"

#ifndef REPO_DIR
#error "REPO_DIR must be defined (tools/Makefile does)"
#endif

/* The next "..." literal at or after @p into @out; returns past it. */
static const char *next_literal(const char *p, const char *end, char *out,
				size_t len)
{
	const char *q;

	p = memchr(p, '"', (size_t)(end - p));
	if (!p)
		return NULL;
	q = memchr(p + 1, '"', (size_t)(end - p - 1));
	if (!q || (size_t)(q - p - 1) >= len)
		return NULL;
	memcpy(out, p + 1, (size_t)(q - p - 1));
	out[q - p - 1] = '\0';
	return q + 1;
}

/* Finds "const struct rb_policy_type @sym = {" in policy-*.c; fills the
 * policy's name and knobs as the source spells them. */
static void source_policy(const char *sym, struct rb_catalog_policy *p)
{
	char pattern[256], knobsym[128], decl[160];
	const char *start, *end, *k, *kend;
	glob_t g;
	size_t i;

	memset(p, 0, sizeof(*p));
	snprintf(pattern, sizeof(pattern), "%s/dm-readbal/policy-*.c", REPO_DIR);
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	snprintf(decl, sizeof(decl), "const struct rb_policy_type %s = {", sym);
	for (i = 0; i < g.gl_pathc; i++) {
		char *src = tt_read_file(g.gl_pathv[i]);

		assert_non_null(src);
		start = strstr(src, decl);
		if (!start) {
			free(src);
			continue;
		}
		end = strstr(start, "};");
		assert_non_null(end);
		k = strstr(start, ".name");
		assert_true(k && k < end);
		assert_non_null(next_literal(k, end, p->name, sizeof(p->name)));
		k = strstr(start, ".knobs");
		if (k && k < end) {
			assert_int_equal(sscanf(k, ".knobs = %127[A-Za-z0-9_]",
						knobsym), 1);
			snprintf(decl, sizeof(decl), "%s[] = {", knobsym);
			k = strstr(src, decl);
			assert_non_null(k);
			kend = strstr(k, "NULL");
			assert_non_null(kend);
			while ((k = next_literal(k, kend, p->knobs[p->nknobs],
						 RB_NAME_MAX)))
				p->nknobs++;
		}
		free(src);
		globfree(&g);
		return;
	}
	globfree(&g);
	fail_msg("no definition of %s in dm-readbal/policy-*.c", sym);
}

static void test_builtin_matches_module_source(void **state)
{
	char path[512], sym[128];
	struct rb_catalog c;
	const char *p, *end;
	unsigned int n = 0, j;
	char *src;

	(void)state;
	rb_catalog_builtin(&c);
	snprintf(path, sizeof(path), "%s/dm-readbal/readbal-policy.c", REPO_DIR);
	src = tt_read_file(path);
	assert_non_null(src);
	p = strstr(src, "rb_policies[] = {");
	assert_non_null(p);
	end = strstr(p, "};");
	assert_non_null(end);
	while ((p = strchr(p, '&')) && p < end) {
		struct rb_catalog_policy want;

		assert_int_equal(sscanf(p, "&%127[A-Za-z0-9_]", sym), 1);
		source_policy(sym, &want);
		if (n >= c.n)
			fail_msg("the module has policy %s; add it to "
				 "tools/readbal/catalog.c", want.name);
		if (strcmp(c.p[n].name, want.name))
			fail_msg("policy %u is %s in the module, %s in "
				 "tools/readbal/catalog.c", n, want.name,
				 c.p[n].name);
		assert_int_equal(c.p[n].nknobs, want.nknobs);
		for (j = 0; j < want.nknobs; j++)
			assert_string_equal(c.p[n].knobs[j], want.knobs[j]);
		n++;
		p++;
	}
	free(src);
	if (n != c.n)
		fail_msg("tools/readbal/catalog.c lists %u policies, the module "
			 "%u", c.n, n);
}

static void test_check(void **state)
{
	struct rb_policy_spec s = { .name = "roundrobin" };
	struct rb_catalog c;
	char err[2048];

	(void)state;
	rb_catalog_builtin(&c);
	assert_int_equal(rb_catalog_check(&c, &s, err, sizeof(err)), 0);
	s.nknobs = 1;
	strcpy(s.knobs[0].name, "rot_nonlocal_inc");
	strcpy(s.knobs[0].value, "9");
	assert_int_equal(rb_catalog_check(&c, &s, err, sizeof(err)), 0);
	strcpy(s.knobs[0].name, "speed");
	assert_int_equal(rb_catalog_check(&c, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "policy roundrobin has no knob 'speed'; its "
			    "knobs are: nonlocal_inc_mixed_only rot_nonlocal_inc "
			    "nonrot_nonlocal_inc (built-in list; no readbal "
			    "device exists to ask the module)");
	strcpy(s.name, "pid");
	assert_int_equal(rb_catalog_check(&c, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "policy pid has no knobs, so 'speed' is "
			    "refused (built-in list; no readbal device exists "
			    "to ask the module)");
	strcpy(s.name, "fastest");
	assert_int_equal(rb_catalog_check(&c, &s, err, sizeof(err)), -1);
	/* the first five policies; more may follow */
	assert_memory_equal(err, "unknown read policy 'fastest'; the policies "
			    "are: pid roundrobin latency device round-robin",
			    strlen("unknown read policy 'fastest'; the policies "
				   "are: pid roundrobin latency device round-robin"));
	assert_non_null(strstr(err, " (built-in list; no readbal device exists "
			       "to ask the module)"));
}

/* A catalog filled from the module's answers, as common.c does. */
static void test_from_module_answers(void **state)
{
	struct rb_policy_spec s = { .name = "newpolicy", .nknobs = 1 };
	struct rb_catalog c;
	char err[2048], names[256];

	(void)state;
	memset(&c, 0, sizeof(c));
	strcpy(c.source, "as the loaded module lists them");
	assert_int_equal(rb_catalog_add(&c, "pid", ""), 0);
	assert_int_equal(rb_catalog_add(&c, "newpolicy", "alpha  beta\n"), 0);
	rb_catalog_names(&c, names, sizeof(names));
	assert_string_equal(names, "pid newpolicy");
	assert_int_equal(rb_catalog_find(&c, "newpolicy")->nknobs, 2);
	assert_null(rb_catalog_find(&c, "newpolic"));
	strcpy(s.knobs[0].name, "beta");
	assert_int_equal(rb_catalog_check(&c, &s, err, sizeof(err)), 0);
	strcpy(s.knobs[0].name, "gamma");
	assert_int_equal(rb_catalog_check(&c, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "policy newpolicy has no knob 'gamma'; its "
			    "knobs are: alpha beta (as the loaded module lists "
			    "them)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_matches_module_source),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_from_module_answers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
