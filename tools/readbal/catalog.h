/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): which read policies exist and which knobs each one has.
 * Read from the loaded module (list_policies, list_knobs) where a readbal
 * device exists to ask, else the built-in copy of dm-readbal's registry.
 */
#ifndef RB_CATALOG_H
#define RB_CATALOG_H

#include <stddef.h>

#include "table.h"

#define RB_MAX_POLICIES	32

struct rb_catalog_policy {
	char name[RB_NAME_MAX];
	unsigned int nknobs;
	char knobs[RB_MAX_KNOBS][RB_NAME_MAX];
};

struct rb_catalog {
	unsigned int n;
	struct rb_catalog_policy p[RB_MAX_POLICIES];
	char source[128];	/* said in errors: where the list came from */
};

/* The built-in list: mirrors dm-readbal/readbal-policy.c and policy-*.c. */
void rb_catalog_builtin(struct rb_catalog *c);
/* Add a policy with its knobs as the module prints them ("a b c"). */
int rb_catalog_add(struct rb_catalog *c, const char *name, const char *knobs);
/* Policy names as the module prints them ("pid roundrobin ..."). */
const struct rb_catalog_policy *rb_catalog_find(const struct rb_catalog *c,
						const char *name);
/* "pid roundrobin latency": the names, for messages. */
void rb_catalog_names(const struct rb_catalog *c, char *buf, size_t len);

/*
 * Is @spec a known policy with known knobs?  0, or -1 with a message that
 * lists the valid names and says where the list came from.
 */
int rb_catalog_check(const struct rb_catalog *c,
		     const struct rb_policy_spec *spec, char *err,
		     size_t errlen);
/* Knobs alone, against one policy (for "set"). */
int rb_catalog_check_knobs(const struct rb_catalog *c,
			   const struct rb_catalog_policy *p,
			   const struct rb_knob *k, unsigned int n, char *err,
			   size_t errlen);

#endif
