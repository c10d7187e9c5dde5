// SPDX-License-Identifier: GPL-2.0
/* readbal(8): build and parse readbal table lines; pure string work. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "table.h"
#include "util.h"

#define ERR(...) snprintf(err, errlen, __VA_ARGS__)

static int rb_is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

int rb_knob_is_arg(const char *arg)
{
	const char *eq = strchr(arg, '=');
	const char *p;

	if (!eq || eq == arg)
		return 0;
	for (p = arg; p < eq; p++)
		if (!rb_is_name_char(*p))
			return 0;
	return 1;
}

static int rb_has_space(const char *s)
{
	for (; *s; s++)
		if (isspace((unsigned char)*s) || !isprint((unsigned char)*s))
			return 1;
	return 0;
}

int rb_knob_parse(const char *arg, struct rb_knob *k, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	size_t nlen;

	if (!eq) {
		ERR("'%s': expected knob=value", arg);
		return -1;
	}
	nlen = (size_t)(eq - arg);
	if (!nlen) {
		ERR("'%s': the knob name is missing (knob=value)", arg);
		return -1;
	}
	if (nlen >= sizeof(k->name)) {
		ERR("'%s': knob name too long", arg);
		return -1;
	}
	memcpy(k->name, arg, nlen);
	k->name[nlen] = '\0';
	if (rb_has_space(k->name)) {
		ERR("'%s': a knob name has no spaces", arg);
		return -1;
	}
	if (!eq[1]) {
		ERR("'%s': the value is missing (knob=value)", arg);
		return -1;
	}
	if (rb_has_space(eq + 1)) {
		ERR("'%s': a knob value has no spaces", arg);
		return -1;
	}
	if (rb_scpy(k->value, sizeof(k->value), eq + 1)) {
		ERR("'%s': value too long (at most %zu characters)", arg,
		    sizeof(k->value) - 1);
		return -1;
	}
	return 0;
}

int rb_policy_add_knob(struct rb_policy_spec *p, const struct rb_knob *k,
		       char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < p->nknobs; i++) {
		if (!strcmp(p->knobs[i].name, k->name)) {
			ERR("knob %s is given twice", k->name);
			return -1;
		}
	}
	if (p->nknobs >= RB_MAX_KNOBS) {
		ERR("too many knobs (at most %d)", RB_MAX_KNOBS);
		return -1;
	}
	p->knobs[p->nknobs++] = *k;
	return 0;
}

/* Appends to buf at *pos; -1 once the buffer is full. */
static int rb_cat(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int rb_cat(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *pos)
		return -1;
	*pos += (size_t)n;
	return 0;
}

int rb_policy_describe(const struct rb_policy_spec *p, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int i;

	if (rb_cat(buf, len, &pos, "%s", p->name))
		return -1;
	for (i = 0; i < p->nknobs; i++)
		if (rb_cat(buf, len, &pos, " %s=%s", p->knobs[i].name,
			   p->knobs[i].value))
			return -1;
	return 0;
}

static int rb_cat_policy(char *buf, size_t len, size_t *pos,
			 const struct rb_policy_spec *p)
{
	unsigned int i;

	if (rb_cat(buf, len, pos, "%s %u", p->name, 2 * p->nknobs))
		return -1;
	for (i = 0; i < p->nknobs; i++)
		if (rb_cat(buf, len, pos, " %s %s", p->knobs[i].name,
			   p->knobs[i].value))
			return -1;
	return 0;
}

int rb_table_params(const struct rb_table *t, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int i;

	if (!len)
		return -1;
	buf[0] = '\0';
	if (rb_cat(buf, len, &pos, "%u", t->nlegs))
		return -1;
	for (i = 0; i < t->nlegs; i++)
		if (rb_cat(buf, len, &pos, " %s %llu", t->legs[i].dev,
			   (unsigned long long)t->legs[i].offset))
			return -1;
	if (rb_cat(buf, len, &pos, " ") || rb_cat_policy(buf, len, &pos, &t->policy))
		return -1;
	if (t->nfeatures && rb_cat(buf, len, &pos, " %u", t->nfeatures))
		return -1;
	for (i = 0; i < t->nfeatures; i++)
		if (rb_cat(buf, len, &pos, " %s", t->features[i]))
			return -1;
	return 0;
}

unsigned int rb_feature_words(const char *name)
{
	/* the target compares feature names without case */
	if (!strcasecmp(name, "sync") || !strcasecmp(name, "nosync"))
		return 1;
	return !strcasecmp(name, "queue_depth") ? 3 : 2;
}

/*
 * The index of the next feature at or after word *i whose name is @name
 * (any name when NULL), or -1.  *i moves past it.
 */
static int rb_feature_next(const struct rb_table *t, const char *name,
			   unsigned int *i)
{
	unsigned int at;

	while (*i < t->nfeatures) {
		at = *i;
		*i += rb_feature_words(t->features[at]);
		if (*i > t->nfeatures)
			return -1;	/* a pair cut short: parse refuses it */
		if (!name || !strcasecmp(t->features[at], name))
			return (int)at;
	}
	return -1;
}

int rb_table_add_feature(struct rb_table *t, const char *name,
			 const char *value)
{
	unsigned int i = 0, n = value ? 2 : 1;
	int at;

	while ((at = rb_feature_next(t, name, &i)) >= 0)
		if (!value || !strcmp(t->features[at + 1], value))
			return 0;
	if (t->nfeatures + n > RB_MAX_FEATURE_WORDS ||
	    rb_scpy(t->features[t->nfeatures], RB_DEV_MAX, name) ||
	    (value && rb_scpy(t->features[t->nfeatures + 1], RB_DEV_MAX,
			      value)))
		return -1;
	t->nfeatures += n;
	return 0;
}

unsigned int rb_table_del_feature(struct rb_table *t, const char *name)
{
	unsigned int i = 0, n, dropped = 0;
	int at;

	while ((at = rb_feature_next(t, name, &i)) >= 0) {
		n = i - (unsigned int)at;
		memmove(t->features[at], t->features[i],
			(t->nfeatures - i) * sizeof(t->features[0]));
		t->nfeatures -= n;
		i = (unsigned int)at;
		dropped++;
	}
	return dropped;
}

int rb_table_set_queue_depth(struct rb_table *t, unsigned int leg,
			     unsigned int depth)
{
	unsigned int i = 0, l;
	int at;

	while ((at = rb_feature_next(t, "queue_depth", &i)) >= 0) {
		if (rb_parse_uint(t->features[at + 1], UINT32_MAX, &l) ||
		    l != leg)
			continue;
		memmove(t->features[at], t->features[i],
			(t->nfeatures - i) * sizeof(t->features[0]));
		t->nfeatures -= 3;
		i = (unsigned int)at;
	}
	if (!depth)
		return 0;
	if (t->nfeatures + 3 > RB_MAX_FEATURE_WORDS)
		return -1;
	snprintf(t->features[t->nfeatures], RB_DEV_MAX, "queue_depth");
	snprintf(t->features[t->nfeatures + 1], RB_DEV_MAX, "%u", leg);
	snprintf(t->features[t->nfeatures + 2], RB_DEV_MAX, "%u", depth);
	t->nfeatures += 3;
	return 0;
}

const char *rb_table_feature(const struct rb_table *t, const char *name)
{
	const char *v = NULL;
	unsigned int i = 0;
	int at;

	while ((at = rb_feature_next(t, name, &i)) >= 0)
		v = t->features[i - 1];
	return v;
}

void rb_table_log(const struct rb_table *t, struct rb_log_spec *log)
{
	const char *v;

	memset(log, 0, sizeof(*log));
	v = rb_table_feature(t, "region_size");
	if (v && rb_parse_uint(v, UINT32_MAX, &log->region_size))
		log->region_size = 0;
	v = rb_table_feature(t, "log_dev");
	if (v)
		rb_scpy(log->dev, sizeof(log->dev), v);
	if (rb_table_feature(t, "sync"))
		log->sync = RB_LOG_SYNC_SYNC;
	else if (rb_table_feature(t, "nosync"))
		log->sync = RB_LOG_SYNC_NOSYNC;
}

int rb_table_add_log(struct rb_table *t, const struct rb_log_spec *log)
{
	char size[16];

	snprintf(size, sizeof(size), "%u", log->region_size);
	if (log->region_size && rb_table_add_feature(t, "region_size", size))
		return -1;
	if (log->dev[0] && rb_table_add_feature(t, "log_dev", log->dev))
		return -1;
	if (log->sync == RB_LOG_SYNC_SYNC)
		return rb_table_add_feature(t, "sync", NULL);
	if (log->sync == RB_LOG_SYNC_NOSYNC)
		return rb_table_add_feature(t, "nosync", NULL);
	return 0;
}

int rb_table_line(const struct rb_table *t, char *buf, size_t len)
{
	size_t pos = 0;

	if (rb_cat(buf, len, &pos, "0 %llu readbal ",
		   (unsigned long long)t->length))
		return -1;
	return rb_table_params(t, buf + pos, len - pos);
}

int rb_msg_policy(const struct rb_policy_spec *p, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int i;

	if (rb_cat(buf, len, &pos, "policy %s", p->name))
		return -1;
	for (i = 0; i < p->nknobs; i++)
		if (rb_cat(buf, len, &pos, " %s %s", p->knobs[i].name,
			   p->knobs[i].value))
			return -1;
	return 0;
}

int rb_msg_set(const struct rb_knob *k, unsigned int n, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int i;

	if (!n || rb_cat(buf, len, &pos, "set"))
		return -1;
	for (i = 0; i < n; i++)
		if (rb_cat(buf, len, &pos, " %s %s", k[i].name, k[i].value))
			return -1;
	return 0;
}

uint64_t rb_table_length(const uint64_t *usable, const unsigned int *lbs,
			 unsigned int n)
{
	uint64_t len = UINT64_MAX, align = 1;
	unsigned int i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		if (usable[i] < len)
			len = usable[i];
		if (lbs && lbs[i] / 512 > align)
			align = lbs[i] / 512;
	}
	return len - len % align;
}

int rb_policy_parse_words(char **w, unsigned int n, unsigned int *i,
			  struct rb_policy_spec *p, char *err, size_t errlen)
{
	unsigned int nargs, j;

	memset(p, 0, sizeof(*p));
	if (*i >= n) {
		ERR("the read policy is missing");
		return -1;
	}
	if (rb_scpy(p->name, sizeof(p->name), w[*i])) {
		ERR("policy name '%s' too long", w[*i]);
		return -1;
	}
	(*i)++;
	if (*i >= n || rb_parse_uint(w[*i], 2 * RB_MAX_KNOBS, &nargs) ||
	    nargs % 2) {
		ERR("policy %s: bad number of policy arguments '%s'", p->name,
		    *i < n ? w[*i] : "");
		return -1;
	}
	(*i)++;
	if (n - *i < nargs) {
		ERR("policy %s: %u policy arguments announced, %u present",
		    p->name, nargs, n - *i);
		return -1;
	}
	for (j = 0; j < nargs; j += 2) {
		struct rb_knob *k = &p->knobs[p->nknobs++];

		if (rb_scpy(k->name, sizeof(k->name), w[*i + j]) ||
		    rb_scpy(k->value, sizeof(k->value), w[*i + j + 1])) {
			ERR("policy %s: knob '%s' too long", p->name, w[*i + j]);
			return -1;
		}
	}
	*i += nargs;
	return 0;
}

int rb_table_parse(const char *params, uint64_t length, struct rb_table *t,
		   char *err, size_t errlen)
{
	struct rb_words w;
	unsigned int i = 0, j, nfeat;
	int r = -1;

	memset(t, 0, sizeof(*t));
	t->length = length;
	if (rb_words_split(params, &w)) {
		ERR("out of memory");
		return -1;
	}
	if (!w.n || rb_parse_uint(w.w[0], RB_PARSE_MAX_LEGS, &t->nlegs) ||
	    t->nlegs < 1) {
		ERR("bad number of legs '%s'", w.n ? w.w[0] : "");
		goto out;
	}
	i = 1;
	for (j = 0; j < t->nlegs; j++, i += 2) {
		if (i + 1 >= w.n) {
			ERR("leg %u: device or offset missing", j);
			goto out;
		}
		if (rb_scpy(t->legs[j].dev, sizeof(t->legs[j].dev), w.w[i]) ||
		    rb_parse_u64(w.w[i + 1], &t->legs[j].offset)) {
			ERR("leg %u: bad device or offset '%s %s'", j, w.w[i],
			    w.w[i + 1]);
			goto out;
		}
	}
	if (rb_policy_parse_words(w.w, w.n, &i, &t->policy, err, errlen))
		goto out;
	if (i < w.n) {
		if (rb_parse_uint(w.w[i], RB_MAX_FEATURE_WORDS, &nfeat) ||
		    w.n - i - 1 != nfeat) {
			ERR("bad feature list after the policy: '%s'", w.w[i]);
			goto out;
		}
		for (i++; i < w.n; i++)
			if (rb_scpy(t->features[t->nfeatures++], RB_DEV_MAX,
				    w.w[i])) {
				ERR("feature '%s' too long", w.w[i]);
				goto out;
			}
		/* each name with its value, as the target reads them */
		for (i = 0; i < t->nfeatures; i += nfeat) {
			nfeat = rb_feature_words(t->features[i]);
			if (i + nfeat > t->nfeatures) {
				ERR("feature %s without its value", t->features[i]);
				goto out;
			}
		}
	}
	r = 0;
out:
	rb_words_free(&w);
	return r;
}
