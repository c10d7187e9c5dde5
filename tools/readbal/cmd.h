/* SPDX-License-Identifier: GPL-2.0 */
/* readbal(8): the commands. */
#ifndef RB_CMD_H
#define RB_CMD_H

struct rb_cmd {
	const char *name;
	const char *summary;
	const char *usage;	/* full --help text */
	int (*run)(int argc, char **argv);
};

extern const struct rb_cmd rb_cmd_table, rb_cmd_create, rb_cmd_policy,
	rb_cmd_set, rb_cmd_policies, rb_cmd_status, rb_cmd_list, rb_cmd_remove, rb_cmd_fail,
	rb_cmd_reinstate, rb_cmd_replace, rb_cmd_tune;

/* Prints the command's usage to stderr (after an error) and returns 1. */
int rb_usage(const struct rb_cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints the command's help to stdout and returns 0. */
int rb_help(const struct rb_cmd *c);

/* Options every command takes. */
#define RB_COMMON_LONGOPTS \
	{ "help", no_argument, NULL, 'h' }, \
	{ "verbose", no_argument, NULL, 'v' }

/* Handles -h/-v and unknown options inside a getopt loop: returns -1 to
 * continue, else the exit code. */
int rb_common_opt(const struct rb_cmd *c, int opt);

#define RB_DEFAULT_POLICY "adaptive"

#endif
