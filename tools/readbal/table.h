/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readbal(8): readbal table lines, built and parsed without touching a
 * device (docs/readbal.rst, "Table parameters"):
 *
 *   <#legs> {<dev> <offset>}... <policy> <#policy args> {<knob> <value>}...
 *   [<#features> {<feature>}...]
 *
 * A feature is a name and a value ("region_size 1024") or a flag alone
 * ("sync", "nosync"); the count is of words.
 */
#ifndef RB_TABLE_H
#define RB_TABLE_H

#include <stdint.h>
#include <stddef.h>

#define RB_MIN_LEGS	2
#define RB_MAX_LEGS	16	/* the target's limit (RB_MAX_LEGS in readbal.h) */
#define RB_PARSE_MAX_LEGS 64	/* what the parsers accept from a newer module */
#define RB_MAX_KNOBS	16	/* RB_MAX_POLICY_ARGS / 2 in the target */
#define RB_NAME_MAX	64	/* policy and knob names */
#define RB_VALUE_MAX	64	/* the target prints knob values into 64 bytes */
#define RB_DEV_MAX	256
#define RB_MAX_FEATURE_WORDS (5 * RB_PARSE_MAX_LEGS + 16)

struct rb_knob {
	char name[RB_NAME_MAX];
	char value[RB_VALUE_MAX];
};

struct rb_policy_spec {
	char name[RB_NAME_MAX];
	unsigned int nknobs;
	struct rb_knob knobs[RB_MAX_KNOBS];
};

struct rb_table_leg {
	char dev[RB_DEV_MAX];	/* "major:minor" or a path */
	uint64_t offset;	/* sectors */
};

struct rb_table {
	uint64_t length;	/* sectors */
	unsigned int nlegs;
	struct rb_table_leg legs[RB_PARSE_MAX_LEGS];
	struct rb_policy_spec policy;
	/* the feature words after "<#features>", in their order: a parsed
	 * table is rebuilt word for word */
	unsigned int nfeatures;
	char features[RB_MAX_FEATURE_WORDS][RB_DEV_MAX];
};

/* The dirty region log, as the table's features give it. */
enum rb_log_sync {
	RB_LOG_SYNC_DEFAULT,	/* core: in sync; disk: as the log recorded */
	RB_LOG_SYNC_SYNC,	/* "sync": copy every region at activation */
	RB_LOG_SYNC_NOSYNC,	/* "nosync": trust the legs at activation */
};

struct rb_log_spec {
	unsigned int region_size;	/* sectors; 0: not given (default) */
	char dev[RB_DEV_MAX];		/* log_dev; "": a core log */
	enum rb_log_sync sync;
};

/* Is @arg a "knob=value" word rather than a device path? */
int rb_knob_is_arg(const char *arg);
/* "knob=value" -> @k; on error a reason in @err. */
int rb_knob_parse(const char *arg, struct rb_knob *k, char *err, size_t errlen);
/* Append a knob; refuses a knob given twice and more than RB_MAX_KNOBS. */
int rb_policy_add_knob(struct rb_policy_spec *p, const struct rb_knob *k,
		       char *err, size_t errlen);
/* "name k v k v" or "name" as shown to people: "name k=v k=v". */
int rb_policy_describe(const struct rb_policy_spec *p, char *buf, size_t len);

/* The parameters after "<start> <length> readbal"; -1 when @len is short. */
int rb_table_params(const struct rb_table *t, char *buf, size_t len);
/* "0 <length> readbal <params>" */
int rb_table_line(const struct rb_table *t, char *buf, size_t len);
/* Parse the parameters (as dmsetup table prints them) into @t. */
int rb_table_parse(const char *params, uint64_t length, struct rb_table *t,
		   char *err, size_t errlen);

/*
 * Words a feature takes, its name included: 1 for sync/nosync, 3 for
 * queue_depth (<leg> <n>), else 2.
 */
unsigned int rb_feature_words(const char *name);
/*
 * Add the feature "<name> <value>", or the flag "<name>" when @value is
 * NULL, unless the table has it; -1 if full.
 */
int rb_table_add_feature(struct rb_table *t, const char *name,
			 const char *value);
/* Drop every "<name> [<value>]"; returns how many were dropped. */
unsigned int rb_table_del_feature(struct rb_table *t, const char *name);
/* The value of feature @name (its last one), the name for a flag, or NULL. */
const char *rb_table_feature(const struct rb_table *t, const char *name);

/*
 * Set leg @leg's "queue_depth <leg> <n>" to @depth, or drop it when @depth
 * is 0; -1 if full.
 */
int rb_table_set_queue_depth(struct rb_table *t, unsigned int leg,
			     unsigned int depth);

/* The log features of @t. */
void rb_table_log(const struct rb_table *t, struct rb_log_spec *log);
/* Append the log features in the target's order (region_size, log_dev,
 * sync or nosync); -1 if full. */
int rb_table_add_log(struct rb_table *t, const struct rb_log_spec *log);

/* Messages: "policy <name> [<k> <v>]..." and "set <k> <v> [<k> <v>]...". */
int rb_msg_policy(const struct rb_policy_spec *p, char *buf, size_t len);
int rb_msg_set(const struct rb_knob *k, unsigned int n, char *buf, size_t len);

/*
 * The mirror's length from its legs' usable sectors (size - offset) and
 * logical block sizes (bytes): the smallest leg, rounded down to the
 * largest block size so every leg can address its end.  0: no room.
 */
uint64_t rb_table_length(const uint64_t *usable, const unsigned int *lbs,
			 unsigned int n);

/*
 * Parse words of a policy part: "<name> <#args> {<k> <v>}...", starting
 * at w[*i]; advances *i.  Shared with the status parser.
 */
int rb_policy_parse_words(char **w, unsigned int n, unsigned int *i,
			  struct rb_policy_spec *p, char *err, size_t errlen);

#endif
