// SPDX-License-Identifier: GPL-2.0
/* readbal(8): parse the readbal status INFO line; pure string work. */
#include <stdio.h>
#include <string.h>

#include "status.h"
#include "util.h"

#define ERR(...) snprintf(err, errlen, __VA_ARGS__)

int rb_parse_devnum(const char *s, unsigned int *major, unsigned int *minor)
{
	char buf[32];
	char *colon;

	if (rb_scpy(buf, sizeof(buf), s))
		return -1;
	colon = strchr(buf, ':');
	if (!colon)
		return -1;
	*colon = '\0';
	if (rb_parse_uint(buf, 0xfffff, major) ||
	    rb_parse_uint(colon + 1, 0xfffff, minor))
		return -1;
	return 0;
}

static int rb_parse_i64(const char *s, int64_t *out)
{
	uint64_t v;
	int neg = *s == '-';

	if (rb_parse_u64(s + neg, &v) || v > INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

static int rb_leg_parse(char **f, unsigned int nfields,
			struct rb_leg_status *l, unsigned int idx, char *err,
			size_t errlen)
{
	if (rb_scpy(l->dev, sizeof(l->dev), f[0]) ||
	    rb_parse_devnum(f[0], &l->major, &l->minor)) {
		ERR("leg %u: bad device '%s' (want major:minor)", idx, f[0]);
		return -1;
	}
	if (strlen(f[1]) != 1) {
		ERR("leg %u: bad state '%s'", idx, f[1]);
		return -1;
	}
	l->state = f[1][0];
	if (rb_parse_i64(f[2], &l->inflight)) {
		ERR("leg %u: bad inflight '%s'", idx, f[2]);
		return -1;
	}
	if (rb_parse_u64(f[3], &l->reads) ||
	    rb_parse_u64(f[4], &l->read_sectors) ||
	    rb_parse_u64(f[5], &l->avg_read_us) ||
	    rb_parse_u64(f[6], &l->head)) {
		ERR("leg %u: bad counters '%s %s %s %s'", idx, f[3], f[4], f[5],
		    f[6]);
		return -1;
	}
	if (nfields < RB_LEG_FIELDS_ERRORS)
		return 0;
	if (rb_parse_u64(f[7], &l->read_errors) ||
	    rb_parse_u64(f[8], &l->corrected) ||
	    rb_parse_u64(f[9], &l->uncorrected) ||
	    rb_parse_u64(f[10], &l->write_errors)) {
		ERR("leg %u: bad error counters '%s %s %s %s'", idx, f[7], f[8],
		    f[9], f[10]);
		return -1;
	}
	l->has_errors = 1;
	return 0;
}

/* "<in-sync regions>/<regions> <max_read_errors>" after the policy. */
static int rb_tail_parse(char **w, unsigned int n, unsigned int i,
			 struct rb_status *st, char *err, size_t errlen)
{
	char buf[64], *slash;

	if (i >= n)
		return 0;
	if (rb_scpy(buf, sizeof(buf), w[i]) || !(slash = strchr(buf, '/'))) {
		ERR("unexpected words after the policy: '%s'", w[i]);
		return -1;
	}
	*slash = '\0';
	if (rb_parse_u64(buf, &st->sync_done) ||
	    rb_parse_u64(slash + 1, &st->sync_total) ||
	    st->sync_done > st->sync_total) {
		ERR("bad resync progress '%s'", w[i]);
		return -1;
	}
	st->has_sync = 1;
	if (++i >= n)
		return 0;
	if (rb_parse_uint(w[i], UINT32_MAX, &st->max_read_errors)) {
		ERR("bad max_read_errors '%s'", w[i]);
		return -1;
	}
	st->has_max_read_errors = 1;
	/* more words: a newer module's, skipped */
	return 0;
}

int rb_status_parse(const char *params, struct rb_status *st, char *err,
		    size_t errlen)
{
	struct rb_words w;
	unsigned int i, j;
	int r = -1;

	memset(st, 0, sizeof(*st));
	if (rb_words_split(params, &w)) {
		ERR("out of memory");
		return -1;
	}
	if (w.n < 2) {
		ERR("status line too short: '%s'", params);
		goto out;
	}
	if (rb_parse_uint(w.w[0], RB_PARSE_MAX_LEGS, &st->nlegs) ||
	    !st->nlegs) {
		ERR("bad number of legs '%s'", w.w[0]);
		goto out;
	}
	if (rb_parse_uint(w.w[1], 1000, &st->leg_fields) ||
	    st->leg_fields < RB_LEG_FIELDS) {
		ERR("bad number of fields per leg '%s' (want at least %d)",
		    w.w[1], RB_LEG_FIELDS);
		goto out;
	}
	i = 2;
	for (j = 0; j < st->nlegs; j++, i += st->leg_fields) {
		if (w.n - i < st->leg_fields) {
			ERR("leg %u: %u fields announced, %u left", j,
			    st->leg_fields, w.n - i);
			goto out;
		}
		if (rb_leg_parse(&w.w[i], st->leg_fields, &st->legs[j], j, err,
				 errlen))
			goto out;
	}
	if (rb_policy_parse_words(w.w, w.n, &i, &st->policy, err, errlen))
		goto out;
	if (rb_tail_parse(w.w, w.n, i, st, err, errlen))
		goto out;
	r = 0;
out:
	rb_words_free(&w);
	return r;
}

uint64_t rb_status_total_reads(const struct rb_status *st)
{
	uint64_t t = 0;
	unsigned int i;

	for (i = 0; i < st->nlegs; i++)
		t += st->legs[i].reads;
	return t;
}

unsigned int rb_status_alive(const struct rb_status *st)
{
	unsigned int i, n = 0;

	for (i = 0; i < st->nlegs; i++)
		n += st->legs[i].state == 'A' || st->legs[i].state == 'a';
	return n;
}

unsigned int rb_status_in_sync(const struct rb_status *st)
{
	unsigned int i, n = 0;

	for (i = 0; i < st->nlegs; i++)
		n += st->legs[i].state == 'A';
	return n;
}

int rb_status_syncing(const struct rb_status *st)
{
	return st->has_sync && st->sync_done < st->sync_total;
}

void rb_status_states(const struct rb_status *st, char *buf, size_t len)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; i < st->nlegs && i + 1 < len; i++)
		buf[i] = st->legs[i].state;
	buf[i] = '\0';
}
