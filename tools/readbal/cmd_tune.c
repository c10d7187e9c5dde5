// SPDX-License-Identifier: GPL-2.0
/*
 * readbal tune: sweep a knob over values; for each, set it, zero the
 * statistics, run a fio job on the device and collect the bandwidth.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog.h"
#include "checks.h"
#include "cmd.h"
#include "common.h"
#include "fiojson.h"
#include "util.h"

enum { RB_METRIC_TOTAL, RB_METRIC_READ, RB_METRIC_WRITE };

struct rb_tune_row {
	int done;		/* 0: the kernel refused the value */
	struct rb_fio_result fio;
	char shares[128];
};

/*
 * The job must run on the readbal device: refuse job files that name their
 * own target (fio's job file wins over --filename).
 */
static int rb_job_check(const char *job)
{
	static const char *const keys[] = { "filename", "directory", "opendir",
					    "filename_format" };
	char line[1024], *p, *eq;
	unsigned int lineno = 0;
	size_t i, klen;
	FILE *f;

	f = fopen(job, "re");
	if (!f) {
		rb_err("%s: %s: give a readable fio job file", job,
		       strerror(errno));
		return RB_EXIT_USAGE;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		for (p = line; isspace((unsigned char)*p); p++)
			;
		eq = strchr(p, '=');
		if (!eq)
			continue;
		for (klen = (size_t)(eq - p); klen && isspace((unsigned char)p[klen - 1]);)
			klen--;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (klen != strlen(keys[i]) || strncmp(p, keys[i], klen))
				continue;
			if (strstr(eq, "${RB_DEV}"))
				continue;
			rb_err("%s:%u sets %s: fio would not run on the readbal "
			       "device; remove the line (readbal passes "
			       "--filename) or write %s=${RB_DEV}", job, lineno,
			       keys[i], keys[i]);
			fclose(f);
			return RB_EXIT_USAGE;
		}
	}
	fclose(f);
	return RB_EXIT_OK;
}

/* Run fio on @node, its JSON report into @out (malloc'd).  Exit code. */
static int rb_run_fio(const char *job, const char *node, char **out)
{
	char fname[4200];
	size_t len = 0, cap = 0;
	int pipefd[2], status;
	char *buf = NULL, *nb;
	ssize_t n;
	pid_t pid;

	*out = NULL;
	snprintf(fname, sizeof(fname), "--filename=%s", node);
	if (pipe(pipefd)) {
		rb_err("pipe: %s", strerror(errno));
		return RB_EXIT_DEVICE;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		rb_err("fork: %s", strerror(errno));
		return RB_EXIT_DEVICE;
	}
	if (!pid) {
		close(pipefd[0]);
		if (dup2(pipefd[1], STDOUT_FILENO) < 0)
			_exit(127);
		close(pipefd[1]);
		setenv("RB_DEV", node, 1);
		execlp("fio", "fio", "--output-format=json", fname, job,
		       (char *)NULL);
		fprintf(stderr, "readbal: cannot run fio: %s (install fio)\n",
			strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		if (len + 4096 > cap) {
			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		n = read(pipefd[0], buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!buf) {
		rb_err("out of memory");
		return RB_EXIT_DEVICE;
	}
	buf[len] = '\0';
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(buf);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return RB_EXIT_USAGE;
		rb_err("fio failed on %s (exit %d): see its messages above",
		       node, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return RB_EXIT_DEVICE;
	}
	*out = buf;
	return RB_EXIT_OK;
}

static void rb_shares(const struct rb_status *st, char *buf, size_t len)
{
	uint64_t total = rb_status_total_reads(st);
	size_t pos = 0;
	unsigned int i;
	int n;

	buf[0] = '\0';
	for (i = 0; i < st->nlegs && pos < len; i++) {
		n = snprintf(buf + pos, len - pos, "%s%.0f", i ? "/" : "",
			     total ? 100.0 * (double)st->legs[i].reads /
			     (double)total : 0.0);
		if (n > 0)
			pos += (size_t)n;
	}
}

static double rb_metric(const struct rb_fio_result *f, int metric)
{
	switch (metric) {
	case RB_METRIC_READ:
		return f->read_kib_s;
	case RB_METRIC_WRITE:
		return f->write_kib_s;
	default:
		return f->read_kib_s + f->write_kib_s;
	}
}

static int rb_tune_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "knob", required_argument, NULL, 'k' },
		{ "values", required_argument, NULL, 'V' },
		{ "value", required_argument, NULL, 'a' },
		{ "fio", required_argument, NULL, 'f' },
		{ "policy", required_argument, NULL, 'p' },
		{ "metric", required_argument, NULL, 'm' },
		{ "apply-best", no_argument, NULL, 'b' },
		{ "force", no_argument, NULL, 'F' },
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	const char *knob = NULL, *job = NULL, *policy = NULL;
	int opt, r, metric = RB_METRIC_TOTAL, apply = 0, force = 0, refused = 0;
	char err[2048], msg[RB_LINE_MAX], node[512], mnt[512], fstype[64];
	char part[64], pol[RB_LINE_MAX];
	const struct rb_catalog_policy *cp;
	struct rb_policy_spec orig, spec;
	struct rb_tune_row *rows = NULL;
	static struct rb_values values;
	struct rb_catalog cat;
	struct rb_knob k;
	struct rb_dev d;
	unsigned int i, best = 0;
	int have_best = 0;
	char *json;

	values.n = 0;
	while ((opt = getopt_long(argc, argv, "k:V:a:f:p:m:bFhv", opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'k':
			knob = optarg;
			break;
		case 'V':
			if (rb_values_parse(optarg, &values, err, sizeof(err)))
				return rb_usage(&rb_cmd_tune, "--values: %s", err);
			break;
		case 'a':
			if (rb_values_add(&values, optarg, err, sizeof(err)))
				return rb_usage(&rb_cmd_tune, "--value: %s", err);
			break;
		case 'f':
			job = optarg;
			break;
		case 'p':
			policy = optarg;
			break;
		case 'm':
			if (!strcmp(optarg, "read"))
				metric = RB_METRIC_READ;
			else if (!strcmp(optarg, "write"))
				metric = RB_METRIC_WRITE;
			else if (!strcmp(optarg, "total"))
				metric = RB_METRIC_TOTAL;
			else
				return rb_usage(&rb_cmd_tune, "--metric is read, "
						"write or total, not '%s'",
						optarg);
			break;
		case 'b':
			apply = 1;
			break;
		case 'F':
			force = 1;
			break;
		default:
			r = rb_common_opt(&rb_cmd_tune, opt);
			if (r >= 0)
				return r;
		}
	}
	if (argc - optind != 1)
		return rb_usage(&rb_cmd_tune, "want one device NAME");
	if (!knob)
		return rb_usage(&rb_cmd_tune, "--knob is missing");
	if (!values.n)
		return rb_usage(&rb_cmd_tune, "--values (or --value) is missing");
	if (!job)
		return rb_usage(&rb_cmd_tune, "--fio JOBFILE is missing");
	memset(&k, 0, sizeof(k));
	if (rb_scpy(k.name, sizeof(k.name), knob))
		return rb_usage(&rb_cmd_tune, "knob name too long");
	r = rb_job_check(job);
	if (r)
		return r;
	r = rb_dev_load(argv[optind], &d);
	if (r)
		return r;
	if (!force && rb_dev_mounted(makedev(d.major, d.minor), mnt,
				     sizeof(mnt), fstype, sizeof(fstype), part,
				     sizeof(part))) {
		rb_err("%s is mounted on %s (%s): fio on the device would go "
		       "under the filesystem; unmount it, or use --force",
		       d.name, mnt, fstype);
		return RB_EXIT_DEVICE;
	}
	rb_catalog_load(&cat, d.name);
	memset(&spec, 0, sizeof(spec));
	rb_scpy(spec.name, sizeof(spec.name),
		policy ? policy : d.st.policy.name);
	if (rb_catalog_check(&cat, &spec, err, sizeof(err))) {
		rb_err("%s", err);
		return RB_EXIT_USAGE;
	}
	cp = rb_catalog_find(&cat, spec.name);
	if (cp && rb_catalog_check_knobs(&cat, cp, &k, 1, err, sizeof(err))) {
		rb_err("%s", err);
		return RB_EXIT_USAGE;
	}
	rows = calloc(values.n, sizeof(*rows));
	if (!rows) {
		rb_err("out of memory");
		return RB_EXIT_DEVICE;
	}
	orig = d.st.policy;
	rb_dev_node(&d, node, sizeof(node));
	if (policy) {
		rb_msg_policy(&spec, msg, sizeof(msg));
		r = rb_send(&d, msg, NULL, 0);
		if (r)
			goto out;
	}
	printf("tune %s: knob %s of policy %s, fio job %s on %s\n", d.name,
	       knob, spec.name, job, node);
	printf("%-12s %11s %11s %11s %10s %10s  %s\n", "value", "read MiB/s",
	       "write MiB/s", "total MiB/s", "read IOPS", "write IOPS",
	       "read share % per leg");
	fflush(stdout);
	for (i = 0; i < values.n; i++) {
		struct rb_fio_result *f = &rows[i].fio;

		rb_scpy(k.value, sizeof(k.value), values.v[i]);
		rb_msg_set(&k, 1, msg, sizeof(msg));
		if (rb_send(&d, msg, NULL, 0)) {
			printf("%-12s refused by the kernel (see above)\n",
			       values.v[i]);
			refused = 1;
			continue;
		}
		r = rb_send(&d, "reset_stats", NULL, 0);
		if (r)
			goto restore;
		r = rb_run_fio(job, node, &json);
		if (r)
			goto restore;
		if (rb_fio_parse(json, f, err, sizeof(err))) {
			rb_err("%s", err);
			free(json);
			r = RB_EXIT_DEVICE;
			goto restore;
		}
		free(json);
		r = rb_dev_refresh(&d);
		if (r)
			goto restore;
		rb_shares(&d.st, rows[i].shares, sizeof(rows[i].shares));
		rows[i].done = 1;
		printf("%-12s %11.1f %11.1f %11.1f %10.0f %10.0f  %s\n",
		       values.v[i], f->read_kib_s / 1024, f->write_kib_s / 1024,
		       (f->read_kib_s + f->write_kib_s) / 1024, f->read_iops,
		       f->write_iops, rows[i].shares);
		fflush(stdout);
		if (!have_best || rb_metric(f, metric) >
				  rb_metric(&rows[best].fio, metric)) {
			best = i;
			have_best = 1;
		}
	}
	r = refused ? RB_EXIT_KERNEL : RB_EXIT_OK;
	if (have_best)
		printf("best: %s=%s (%.1f MiB/s %s)\n", knob, values.v[best],
		       rb_metric(&rows[best].fio, metric) / 1024,
		       metric == RB_METRIC_READ ? "read" :
		       metric == RB_METRIC_WRITE ? "write" : "read+write");
restore:
	if (apply && have_best && r != RB_EXIT_DEVICE) {
		rb_scpy(k.value, sizeof(k.value), values.v[best]);
		rb_msg_set(&k, 1, msg, sizeof(msg));
		if (rb_send(&d, msg, NULL, 0))
			r = RB_EXIT_KERNEL;
		else
			printf("kept: ");
	} else {
		rb_msg_policy(&orig, msg, sizeof(msg));
		if (!rb_send(&d, msg, NULL, 0)) {
			printf("restored: ");
		} else {
			rb_policy_describe(&orig, pol, sizeof(pol));
			rb_err("%s: could not restore the policy: readbal policy "
			       "%s %s", d.name, d.name, pol);
			r = RB_EXIT_KERNEL;
		}
	}
	if (!rb_dev_refresh(&d))
		rb_print_policy(&d);
out:
	free(rows);
	return r;
}

const struct rb_cmd rb_cmd_tune = {
	.name = "tune",
	.summary = "sweep a knob, run fio for each value, find the best",
	.usage =
"Usage: readbal tune NAME --knob KNOB --values LIST --fio JOBFILE\n"
"                    [--policy POLICY] [--metric read|write|total]\n"
"                    [--apply-best] [--force]\n"
"\n"
"For each value of KNOB: set it (message set), zero the statistics\n"
"(reset_stats), run 'fio --output-format=json --filename=DEV JOBFILE' on\n"
"NAME's block device and collect the read and write bandwidth (summed over\n"
"fio's jobs) and each leg's share of the reads.  Print a row per value, then\n"
"the best value.  Afterwards the policy and knobs NAME had are restored,\n"
"or with --apply-best the best value is kept.\n"
"\n"
"The job file must not name its own target (filename=, directory=):\n"
"readbal passes --filename; a job may use filename=${RB_DEV} instead.\n"
"Writing jobs destroy NAME's data.\n"
"\n"
"  -k, --knob KNOB        the knob to sweep (of the active policy, or of\n"
"                         --policy)\n"
"  -V, --values LIST      values separated by commas or spaces; A..B and\n"
"                         A..B:STEP are integer ranges: 0..9, 0..1000:100\n"
"  -a, --value VALUE      one value as it is (repeat it): --value 0,2\n"
"  -f, --fio JOBFILE      the fio job file\n"
"  -p, --policy POLICY    switch to POLICY (knobs at defaults) first\n"
"  -m, --metric M         what \"best\" maximises: read, write or total\n"
"                         (default total)\n"
"  -b, --apply-best       keep the best value instead of restoring\n"
"  -F, --force            run even if NAME is mounted\n"
"  -v, --verbose          show libdevmapper's messages\n"
"  -h, --help             this help\n"
"\n"
"Exit: 0 ok, 1 usage (unknown knob, bad job file, no fio), 2 device\n"
"problem or fio failed, 3 the kernel refused a value (the others ran).\n",
	.run = rb_tune_run,
};
