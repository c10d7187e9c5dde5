// SPDX-License-Identifier: GPL-2.0
/* readbal(8): the catalog of read policies and their knobs; pure. */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "util.h"

#define ERR(...) snprintf(err, errlen, __VA_ARGS__)

/*
 * The policies of the module built from the same tree, in registry order:
 * tools/gen-catalog reads them from dm-readbal/ at build time.
 */
static const struct {
	const char *name;
	const char *knobs;
} rb_builtin[] = {
#include "catalog-builtin.h"
};

void rb_catalog_builtin(struct rb_catalog *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < sizeof(rb_builtin) / sizeof(rb_builtin[0]); i++)
		rb_catalog_add(c, rb_builtin[i].name, rb_builtin[i].knobs);
	rb_scpy(c->source, sizeof(c->source),
		"built-in list; no readbal device exists to ask the module");
}

int rb_catalog_add(struct rb_catalog *c, const char *name, const char *knobs)
{
	struct rb_catalog_policy *p;
	struct rb_words w;
	unsigned int i;

	if (c->n >= RB_MAX_POLICIES)
		return -1;
	p = &c->p[c->n];
	memset(p, 0, sizeof(*p));
	if (rb_scpy(p->name, sizeof(p->name), name))
		return -1;
	if (rb_words_split(knobs ? knobs : "", &w))
		return -1;
	for (i = 0; i < w.n && i < RB_MAX_KNOBS; i++)
		if (rb_scpy(p->knobs[p->nknobs++], RB_NAME_MAX, w.w[i]))
			p->nknobs--;
	rb_words_free(&w);
	c->n++;
	return 0;
}

const struct rb_catalog_policy *rb_catalog_find(const struct rb_catalog *c,
						const char *name)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->p[i].name, name))
			return &c->p[i];
	return NULL;
}

void rb_catalog_names(const struct rb_catalog *c, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int i;
	int n;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < c->n && pos < len; i++) {
		n = snprintf(buf + pos, len - pos, "%s%s", i ? " " : "",
			     c->p[i].name);
		if (n < 0)
			return;
		pos += (size_t)n;
	}
}

static void rb_knob_names(const struct rb_catalog_policy *p, char *buf,
			  size_t len)
{
	size_t pos = 0;
	unsigned int i;
	int n;

	buf[0] = '\0';
	for (i = 0; i < p->nknobs && pos < len; i++) {
		n = snprintf(buf + pos, len - pos, "%s%s", i ? " " : "",
			     p->knobs[i]);
		if (n < 0)
			return;
		pos += (size_t)n;
	}
}

int rb_catalog_check_knobs(const struct rb_catalog *c,
			   const struct rb_catalog_policy *p,
			   const struct rb_knob *k, unsigned int n, char *err,
			   size_t errlen)
{
	char names[RB_MAX_KNOBS * RB_NAME_MAX];
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < p->nknobs; j++)
			if (!strcmp(p->knobs[j], k[i].name))
				break;
		if (j < p->nknobs)
			continue;
		if (!p->nknobs) {
			ERR("policy %s has no knobs, so '%s' is refused (%s)",
			    p->name, k[i].name, c->source);
			return -1;
		}
		rb_knob_names(p, names, sizeof(names));
		ERR("policy %s has no knob '%s'; its knobs are: %s (%s)",
		    p->name, k[i].name, names, c->source);
		return -1;
	}
	return 0;
}

int rb_catalog_check(const struct rb_catalog *c,
		     const struct rb_policy_spec *spec, char *err,
		     size_t errlen)
{
	char names[RB_MAX_POLICIES * RB_NAME_MAX];
	const struct rb_catalog_policy *p = rb_catalog_find(c, spec->name);

	if (!p) {
		rb_catalog_names(c, names, sizeof(names));
		ERR("unknown read policy '%s'; the policies are: %s (%s)",
		    spec->name, names, c->source);
		return -1;
	}
	return rb_catalog_check_knobs(c, p, spec->knobs, spec->nknobs, err,
				      errlen);
}
