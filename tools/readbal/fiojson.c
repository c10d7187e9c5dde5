// SPDX-License-Identifier: GPL-2.0
/*
 * readbal(8): a small JSON reader for fio's report.  It walks the whole
 * document and adds up the numbers at jobs[].read.bw, jobs[].write.bw,
 * jobs[].{read,write}.iops and jobs[].error; nothing is allocated.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiojson.h"
#include "util.h"

#define RB_JSON_MAX_DEPTH 64
#define RB_JSON_PATH 4

struct rb_json {
	const char *p;
	struct rb_fio_result *r;
	unsigned int depth;
	/* keys of the first levels ("[]" for an array element) */
	const char *key[RB_JSON_PATH];
	size_t keylen[RB_JSON_PATH];
	const char *why;
};

static void rb_json_ws(struct rb_json *j)
{
	while (isspace((unsigned char)*j->p))
		j->p++;
}

static int rb_key_is(const struct rb_json *j, unsigned int level,
		     const char *s)
{
	return level < j->depth && level < RB_JSON_PATH &&
	       j->keylen[level] == strlen(s) &&
	       !memcmp(j->key[level], s, j->keylen[level]);
}

static void rb_push(struct rb_json *j, const char *k, size_t len)
{
	if (j->depth < RB_JSON_PATH) {
		j->key[j->depth] = k;
		j->keylen[j->depth] = len;
	}
	j->depth++;
}

/* A string: on success @s and @len give its raw body (escapes kept). */
static int rb_json_str(struct rb_json *j, const char **s, size_t *len)
{
	const char *start;

	if (*j->p != '"') {
		j->why = "expected a string";
		return -1;
	}
	start = ++j->p;
	while (*j->p && *j->p != '"') {
		if (*j->p == '\\') {
			j->p++;
			if (!*j->p)
				break;
		}
		j->p++;
	}
	if (*j->p != '"') {
		j->why = "unterminated string";
		return -1;
	}
	*s = start;
	*len = (size_t)(j->p - start);
	j->p++;
	return 0;
}

static void rb_json_number_at(struct rb_json *j, double v)
{
	struct rb_fio_result *r = j->r;
	int rd, wr;

	if (!rb_key_is(j, 0, "jobs") || !rb_key_is(j, 1, "[]"))
		return;
	if (j->depth == 3 && rb_key_is(j, 2, "error")) {
		r->errors += v;
		return;
	}
	if (j->depth != 4)
		return;
	rd = rb_key_is(j, 2, "read");
	wr = rb_key_is(j, 2, "write");
	if (rb_key_is(j, 3, "bw")) {
		if (rd)
			r->read_kib_s += v;
		else if (wr)
			r->write_kib_s += v;
	} else if (rb_key_is(j, 3, "iops")) {
		if (rd)
			r->read_iops += v;
		else if (wr)
			r->write_iops += v;
	}
}

static int rb_json_value(struct rb_json *j);

static int rb_json_object(struct rb_json *j)
{
	const char *k;
	size_t klen;

	j->p++;
	rb_json_ws(j);
	if (*j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		rb_json_ws(j);
		if (rb_json_str(j, &k, &klen))
			return -1;
		rb_json_ws(j);
		if (*j->p != ':') {
			j->why = "expected ':'";
			return -1;
		}
		j->p++;
		rb_push(j, k, klen);
		if (rb_json_value(j))
			return -1;
		j->depth--;
		rb_json_ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p == '}') {
			j->p++;
			return 0;
		}
		j->why = "expected ',' or '}'";
		return -1;
	}
}

static int rb_json_array(struct rb_json *j)
{
	int jobs = j->depth == 1 && rb_key_is(j, 0, "jobs");

	j->p++;
	rb_json_ws(j);
	if (*j->p == ']') {
		j->p++;
		return 0;
	}
	for (;;) {
		rb_push(j, "[]", 2);
		if (jobs)
			j->r->jobs++;
		if (rb_json_value(j))
			return -1;
		j->depth--;
		rb_json_ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p == ']') {
			j->p++;
			return 0;
		}
		j->why = "expected ',' or ']'";
		return -1;
	}
}

static int rb_json_value(struct rb_json *j)
{
	const char *s;
	size_t len;
	char *end;
	double v;

	if (j->depth > RB_JSON_MAX_DEPTH) {
		j->why = "nested too deeply";
		return -1;
	}
	rb_json_ws(j);
	switch (*j->p) {
	case '{':
		return rb_json_object(j);
	case '[':
		return rb_json_array(j);
	case '"':
		return rb_json_str(j, &s, &len);
	case 't':
		if (!strncmp(j->p, "true", 4)) {
			j->p += 4;
			return 0;
		}
		break;
	case 'f':
		if (!strncmp(j->p, "false", 5)) {
			j->p += 5;
			return 0;
		}
		break;
	case 'n':
		if (!strncmp(j->p, "null", 4)) {
			j->p += 4;
			return 0;
		}
		break;
	default:
		if (*j->p == '-' || isdigit((unsigned char)*j->p)) {
			v = strtod(j->p, &end);
			if (end == j->p)
				break;
			j->p = end;
			rb_json_number_at(j, v);
			return 0;
		}
	}
	j->why = "unexpected character";
	return -1;
}

int rb_fio_parse(const char *json, struct rb_fio_result *r, char *err,
		 size_t errlen)
{
	struct rb_json j = { .r = r };

	memset(r, 0, sizeof(*r));
	j.p = strchr(json, '{');
	if (!j.p) {
		snprintf(err, errlen, "no JSON object in fio's output");
		return -1;
	}
	if (rb_json_value(&j)) {
		snprintf(err, errlen, "fio's JSON: %s at offset %ld", j.why,
			 (long)(j.p - json));
		return -1;
	}
	if (!r->jobs) {
		snprintf(err, errlen, "fio's JSON has no jobs");
		return -1;
	}
	return 0;
}

int rb_values_add(struct rb_values *out, const char *v, char *err,
		  size_t errlen)
{
	const char *p;

	if (!*v) {
		snprintf(err, errlen, "empty value");
		return -1;
	}
	for (p = v; *p; p++)
		if (isspace((unsigned char)*p) || !isprint((unsigned char)*p)) {
			snprintf(err, errlen, "value '%s' has a space", v);
			return -1;
		}
	if (out->n >= RB_MAX_VALUES) {
		snprintf(err, errlen, "too many values (at most %d)",
			 RB_MAX_VALUES);
		return -1;
	}
	if (rb_scpy(out->v[out->n], RB_VALUE_MAX, v)) {
		snprintf(err, errlen, "value '%s' too long", v);
		return -1;
	}
	out->n++;
	return 0;
}

/* "A..B" or "A..B:STEP"; 1 if @item is a range, 0 if not, -1 if bad. */
static int rb_range(const char *item, struct rb_values *out, char *err,
		    size_t errlen)
{
	char buf[RB_VALUE_MAX], num[32];
	char *dots, *colon;
	uint64_t a, b, step = 1, v;

	dots = strstr(item, "..");
	if (!dots)
		return 0;
	if (rb_scpy(buf, sizeof(buf), item))
		goto bad;
	dots = buf + (dots - item);
	*dots = '\0';
	colon = strchr(dots + 2, ':');
	if (colon) {
		*colon = '\0';
		if (rb_parse_u64(colon + 1, &step) || !step)
			goto bad;
	}
	if (rb_parse_u64(buf, &a) || rb_parse_u64(dots + 2, &b) || a > b)
		goto bad;
	if ((b - a) / step >= RB_MAX_VALUES) {
		snprintf(err, errlen, "range '%s' has more than %d values",
			 item, RB_MAX_VALUES);
		return -1;
	}
	for (v = a; v <= b; v += step) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
		if (rb_values_add(out, num, err, errlen))
			return -1;
		if (b - v < step)
			break;
	}
	return 1;
bad:
	snprintf(err, errlen,
		 "bad range '%s': want A..B or A..B:STEP with A <= B, STEP > 0",
		 item);
	return -1;
}

int rb_values_parse(const char *spec, struct rb_values *out, char *err,
		    size_t errlen)
{
	char item[RB_VALUE_MAX];
	const char *p = spec, *start;
	unsigned int n0 = out->n;
	size_t len;
	int r;

	for (;;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && *p != ',' && !isspace((unsigned char)*p))
			p++;
		len = (size_t)(p - start);
		if (len >= sizeof(item)) {
			snprintf(err, errlen, "value too long in '%s'", spec);
			return -1;
		}
		memcpy(item, start, len);
		item[len] = '\0';
		r = rb_range(item, out, err, errlen);
		if (r < 0)
			return -1;
		if (!r && rb_values_add(out, item, err, errlen))
			return -1;
	}
	if (out->n == n0) {
		snprintf(err, errlen, "no values in '%s'", spec);
		return -1;
	}
	return 0;
}
