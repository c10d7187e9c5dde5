// SPDX-License-Identifier: GPL-2.0
/*
 * readbal(8): build, inspect and steer dm-readbal mirrors through
 * libdevmapper.  Commands are in cmd_*.c; docs/readbal.8 is the manual.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "dm.h"
#include "util.h"

#define RB_TOOL_VERSION "0.1"

static const struct rb_cmd *const rb_cmds[] = {
	&rb_cmd_create, &rb_cmd_table, &rb_cmd_list, &rb_cmd_status,
	&rb_cmd_policy, &rb_cmd_set, &rb_cmd_policies, &rb_cmd_fail, &rb_cmd_reinstate,
	&rb_cmd_replace, &rb_cmd_remove, &rb_cmd_tune,
};

#define RB_NR_CMDS (sizeof(rb_cmds) / sizeof(rb_cmds[0]))

/* The synopsis: the usage text up to its first empty line. */
static int rb_synopsis_len(const struct rb_cmd *c)
{
	const char *end = strstr(c->usage, "\n\n");

	return end ? (int)(end - c->usage) + 1 : (int)strlen(c->usage);
}

int rb_usage(const struct rb_cmd *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "readbal %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%.*s", rb_synopsis_len(c), c->usage);
	fprintf(stderr, "(readbal %s --help for more)\n", c->name);
	return RB_EXIT_USAGE;
}

int rb_help(const struct rb_cmd *c)
{
	fputs(c->usage, stdout);
	return RB_EXIT_OK;
}

int rb_common_opt(const struct rb_cmd *c, int opt)
{
	switch (opt) {
	case 'h':
		return rb_help(c);
	case 'v':
		rb_verbose++;
		return -1;
	default:
		/* getopt said what it did not like, as "readbal CMD: ..." */
		fprintf(stderr, "%.*s", rb_synopsis_len(c), c->usage);
		fprintf(stderr, "(readbal %s --help for more)\n", c->name);
		return RB_EXIT_USAGE;
	}
}

static void rb_main_usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: readbal [-v] COMMAND [ARGS...]\n"
		"       readbal COMMAND --help | readbal help [COMMAND]\n"
		"\n"
		"Build, inspect and steer dm-readbal mirrors: N-way mirrors whose\n"
		"reads go to one leg chosen by a switchable read policy.\n"
		"\n"
		"Commands:\n");
	for (i = 0; i < RB_NR_CMDS; i++)
		fprintf(f, "  %-10s %s\n", rb_cmds[i]->name, rb_cmds[i]->summary);
	fprintf(f,
		"\n"
		"Options: -v, --verbose (libdevmapper's messages; twice: debug),\n"
		"         -h, --help, --version\n"
		"\n"
		"Exit status: 0 ok, 1 usage error (also an unknown policy or knob),\n"
		"2 device problem (missing, unsuitable, in use, not readbal),\n"
		"3 the kernel refused (a table, a message; its reason is printed).\n"
		"\n"
		"Environment: DM_DISABLE_UDEV=1 turns udev synchronisation off.\n"
		"See readbal(8).\n");
}

static const struct rb_cmd *rb_find(const char *name)
{
	size_t i;

	for (i = 0; i < RB_NR_CMDS; i++)
		if (!strcmp(rb_cmds[i]->name, name))
			return rb_cmds[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static char prog[64];
	const struct rb_cmd *c;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			rb_verbose++;
		} else if (!strcmp(argv[i], "-vv")) {
			rb_verbose += 2;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			rb_main_usage(stdout);
			return RB_EXIT_OK;
		} else if (!strcmp(argv[i], "--version")) {
			printf("readbal %s\n", RB_TOOL_VERSION);
			return RB_EXIT_OK;
		} else {
			fprintf(stderr, "readbal: unknown option '%s'\n\n",
				argv[i]);
			rb_main_usage(stderr);
			return RB_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		rb_main_usage(stderr);
		return RB_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			rb_main_usage(stdout);
			return RB_EXIT_OK;
		}
		c = rb_find(argv[i + 1]);
		if (!c) {
			fprintf(stderr, "readbal: no command '%s'\n\n",
				argv[i + 1]);
			rb_main_usage(stderr);
			return RB_EXIT_USAGE;
		}
		return rb_help(c);
	}
	c = rb_find(argv[i]);
	if (!c) {
		fprintf(stderr, "readbal: no command '%s'\n\n", argv[i]);
		rb_main_usage(stderr);
		return RB_EXIT_USAGE;
	}
	rbdm_init();
	optind = 1;
	/* getopt's messages start with argv[0] */
	snprintf(prog, sizeof(prog), "readbal %s", c->name);
	argv[i] = prog;
	return c->run(argc - i, argv + i);
}
