// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: simulate dm-readbal's read policies on modelled legs.
 *
 *   rbsim --profile 2hdd+ssd --workload seqread-1job --policy all \
 *         --seconds 10 --seed 1
 *
 * See docs/simulator.md, or rbsim --help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sim.h"

#define MAX_NAMES	32

static const char usage[] =
"usage: rbsim --profile P --workload W [options]\n"
"  --profile P      legs: [N]kind joined by '+' (kinds hdd hdd-seek ssd\n"
"                   nvme remote ram), or 'all' for every preset profile\n"
"  --workload W     a preset, or 'all' (--list shows them)\n"
"  --policy P       name[:knob=value,...], repeatable; 'all' (default):\n"
"                   every policy dm-readbal registers\n"
"  --seconds S      measured time (default 10)\n"
"  --ramp S         time before it, not measured: fio's ramp_time (default\n"
"                   the preset's: 1 s seqread-1job, 4 s seqread-8job)\n"
"  --seed N         random seed (default 1)\n"
"  --scale guest|real  guest: the benchmark's emulated disks (default);\n"
"                   real: ordinary devices\n"
"  --seek           hdd legs use the seek model (hdd-seek)\n"
"  --bucket         guest legs throttle as null_blk's mbps does: a bucket\n"
"                   set every 20 ms, not a steady rate\n"
"  --rw read|randread|write|randwrite|rw|randrw  --bs SIZE  --jobs N\n"
"  --qd N  --buffered | --direct  --ra SIZE  --rwmixread PCT\n"
"                   change the workload preset\n"
"  --size SIZE      mirror size (default 1g guest, hdd-seek legs too;\n"
"                   64g real)\n"
"  --cpus N         CPUs the jobs run on, 1-4 (default 2)\n"
"  --pid-base N     job j is pid N + j (default 1000)\n"
"  --copy-mibps R   page cache copy rate of buffered reads\n"
"  --cpu-us U       each I/O's completion takes U us of its submitter's\n"
"                   CPU, one at a time per CPU (the TCG guest: about 87)\n"
"  --think-us U     a direct job's next I/O starts U us after one ends\n"
"                   (fio's reap and submit in the guest)\n"
"  --prelude Q:S:G  first each direct job keeps Q I/Os in flight for S\n"
"                   seconds, then none for G (the benchmark's QD1 runs\n"
"                   and the other devices' before this one's); count them\n"
"                   in --ramp\n"
"  --leg-rate F     pipe legs' transfer rates times F (the benchmark's\n"
"                   QD32 on ssd+nvme and nvme+remote: 0.5)\n"
"  --slow L:F@S     leg L gets F times slower at S seconds (ramp included)\n"
"  --delay L:MS@S   a delay of MS ms in front of leg L from S seconds on\n"
"                   (dm-delay: reads keep their rate if the queue is deep)\n"
"  --no-limit       skip the legs-alone runs (limit column 0)\n"
"  --bins           after each row, its MiB/s per 100 ms, ramp included\n"
"  --per-job        after each row, each job's own MiB/s (the first 64)\n"
"  --csv            comma-separated output\n"
"  --list           list profiles, workloads and policies\n";

struct opts {
	const char *profiles[MAX_NAMES], *workloads[MAX_NAMES];
	const char *policies[MAX_NAMES];
	unsigned int nr_profiles, nr_workloads, nr_policies;
	const char *scale;
	bool seek, csv, no_limit, bucket, bins, per_job;
	int argc;
	char **argv;
};

/* options apply() reads, each with a value */
static bool takes_value(const char *opt)
{
	static const char *const opts[] = {
		"--seconds", "--ramp", "--seed", "--rw", "--bs", "--jobs",
		"--qd", "--ra",
		"--rwmixread", "--size", "--cpus", "--pid-base", "--copy-mibps",
		"--slow", "--delay", "--cpu-us", "--think-us", "--leg-rate",
		"--prelude",
	};
	unsigned int i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(opt, opts[i]))
			return true;
	return false;
}

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "rbsim: %s%s%s\n", msg, arg ? ": " : "",
		arg ? arg : "");
	exit(2);
}

/* "4096", "64k", "1m", "2g" */
static unsigned long long parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (end == s || *end)
		die("bad size", s);
	return v;
}

static unsigned int parse_uint(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (end == s || *end || v > 1000000000UL)
		die("bad number", s);
	return (unsigned int)v;
}

static void list(void)
{
	unsigned int i;

	printf("profiles:");
	for (i = 0; sim_profile_name(i); i++)
		printf(" %s", sim_profile_name(i));
	printf("\nworkloads:");
	for (i = 0; sim_workload_name(i); i++)
		printf(" %s", sim_workload_name(i));
	printf("\npolicies:");
	for (i = 0; sim_policy_name(i); i++)
		printf(" %s", sim_policy_name(i));
	printf("\n");
}

static void add(const char **names, unsigned int *n, const char *name,
		const char *(*all)(unsigned int))
{
	unsigned int i;

	if (all && !strcmp(name, "all")) {
		for (i = 0; all(i); i++)
			add(names, n, all(i), NULL);
		return;
	}
	if (*n == MAX_NAMES)
		die("too many names", name);
	names[(*n)++] = name;
}

static enum sim_rw parse_rw(const char *s)
{
	static const char *const names[] = {
		"read", "randread", "write", "randwrite", "rw", "randrw",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (enum sim_rw)i;
	die("bad --rw", s);
	return RW_READ;
}

/* Workload and run options, applied over the preset. */
static void apply(struct sim_config *cfg, int argc, char **argv)
{
	int i;
	char *colon, *at;
	double leg_rate = 1;

	for (i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--seconds") && v)
			cfg->seconds = strtod(v, NULL);
		else if (!strcmp(o, "--ramp") && v)
			cfg->wl.ramp_s = strtod(v, NULL);
		else if (!strcmp(o, "--seed") && v)
			cfg->seed = strtoull(v, NULL, 10);
		else if (!strcmp(o, "--rw") && v)
			cfg->wl.rw = parse_rw(v);
		else if (!strcmp(o, "--bs") && v)
			cfg->wl.bs = (unsigned int)parse_size(v);
		else if (!strcmp(o, "--jobs") && v)
			cfg->wl.jobs = parse_uint(v);
		else if (!strcmp(o, "--qd") && v)
			cfg->wl.qd = parse_uint(v);
		else if (!strcmp(o, "--ra") && v)
			cfg->wl.ra = (unsigned int)parse_size(v);
		else if (!strcmp(o, "--rwmixread") && v)
			cfg->wl.rwmixread = parse_uint(v);
		else if (!strcmp(o, "--size") && v)
			cfg->size = parse_size(v) / 512;
		else if (!strcmp(o, "--cpus") && v)
			cfg->cpus = parse_uint(v);
		else if (!strcmp(o, "--pid-base") && v)
			cfg->pid_base = parse_uint(v);
		else if (!strcmp(o, "--copy-mibps") && v)
			cfg->copy_mibps = strtod(v, NULL);
		else if (!strcmp(o, "--cpu-us") && v)
			cfg->cpu_ns = strtod(v, NULL) * 1000;
		else if (!strcmp(o, "--prelude") && v) {
			if (sscanf(v, "%u:%lf:%lf", &cfg->pre_qd, &cfg->pre_s,
				   &cfg->gap_s) != 3 || !cfg->pre_qd ||
			    cfg->pre_s <= 0 || cfg->gap_s < 0 ||
			    cfg->pre_s + cfg->gap_s > 60)
				die("--prelude wants QD:SECONDS:GAP, seconds and "
				    "gap up to 60 together, e.g. 1:7:10", NULL);
		} else if (!strcmp(o, "--think-us") && v)
			cfg->think_ns = strtod(v, NULL) * 1000;
		else if (!strcmp(o, "--leg-rate") && v)
			leg_rate = strtod(v, NULL);
		else if ((!strcmp(o, "--slow") || !strcmp(o, "--delay")) &&
			 v) {
			colon = strchr(v, ':');
			at = colon ? strchr(colon, '@') : NULL;
			if (!at)
				die("--slow wants LEG:FACTOR@SECONDS, --delay "
				    "LEG:MS@SECONDS", v);
			cfg->slow.leg = atoi(v);
			if (o[2] == 's')
				cfg->slow.factor = strtod(colon + 1, NULL);
			else
				cfg->slow.delay_ms = strtod(colon + 1, NULL);
			cfg->slow.at_s = strtod(at + 1, NULL);
		} else if (!strcmp(o, "--buffered") || !strcmp(o, "--direct")) {
			cfg->wl.buffered = o[2] == 'b';
			if (cfg->wl.buffered && !cfg->wl.ra)
				cfg->wl.ra = 128 * 1024;
			continue;
		} else {
			continue;	/* parsed by main */
		}
		i++;
	}
	sim_config_leg_rate(cfg, leg_rate);
	if (!cfg->wl.bs || cfg->wl.bs % 512 || !cfg->wl.jobs ||
	    cfg->wl.bs > (16U << 20) || cfg->wl.ra > (16U << 20) ||
	    cfg->seconds <= 0 || cfg->wl.ramp_s < 0 ||
	    cfg->wl.ramp_s + cfg->seconds > 60 ||
	    cfg->cpus < 1 || cfg->cpus > SIM_MAX_CPUS ||
	    cfg->size < 2ULL * cfg->wl.bs / 512 * cfg->wl.jobs ||
	    cfg->wl.rwmixread > 100 || cfg->slow.factor < 0 ||
	    cfg->slow.delay_ms < 0 || cfg->slow.delay_ms > 10000 ||
	    cfg->cpu_ns < 0 || cfg->cpu_ns > 1e7 ||
	    cfg->think_ns < 0 || cfg->think_ns > 1e7 ||
	    leg_rate <= 0 || leg_rate > 100 ||
	    (cfg->slow.leg >= (int)cfg->nr_legs))
		die("option out of range (bs a multiple of 512, bs and ra up "
		    "to 16m, ramp and seconds up to 60 together, cpus 1-4, "
		    "size for 2 I/Os per job, --slow leg of the profile, "
		    "cpu-us and think-us up to 10000, leg-rate above 0 up to 100)", NULL);
}

static void run_one(const struct opts *o, const char *profile,
		    const char *workload)
{
	struct sim_config cfg;
	struct sim_result r;
	double leg_mibps[SIM_MAX_LEGS] = { 0 }, limit = 0, slowed = 0;
	double recover[MAX_NAMES];
	char err[256];
	unsigned int i, j;
	static bool header_done;
	bool slow;

	if (sim_config_init(&cfg, profile, workload, o->scale, o->seek, err,
			    sizeof(err)))
		die(err, NULL);
	apply(&cfg, o->argc, o->argv);
	if (o->bucket)
		sim_config_bucket(&cfg);
	if (!o->no_limit && sim_limit(&cfg, leg_mibps, &limit))
		die("legs-alone run failed", NULL);
	if (!o->csv || !header_done)
		report_header(stdout, &cfg, leg_mibps, limit, o->csv);
	header_done = true;
	slow = !o->csv && cfg.slow.leg >= 0;
	if (slow && sim_limit_slowed(&cfg, &slowed))
		die("legs-alone run failed", NULL);
	for (i = 0; i < o->nr_policies; i++) {
		if (sim_run(&cfg, o->policies[i], -1, &r, err, sizeof(err)))
			die(err, NULL);
		report_row(stdout, &cfg, o->policies[i], &r, limit, o->csv);
		for (j = 0; o->bins && j < r.nr_bins; j++)
			printf("%.0f%c", r.bin_mibps[j],
			       j + 1 < r.nr_bins ? ' ' : '\n');
		for (j = 0; o->per_job && j < r.nr_jobs && j < SIM_JOB_STATS;
		     j++)
			printf("%.1f%c", r.job_mibps[j],
			       j + 1 < r.nr_jobs && j + 1 < SIM_JOB_STATS ?
			       ' ' : '\n');
		if (slow)
			recover[i] = sim_recovery_s(&cfg, &r, slowed, 0.9);
	}
	if (slow) {
		if (cfg.slow.delay_ms > 0)
			printf("\nleg %d behind a %g ms delay", cfg.slow.leg,
			       cfg.slow.delay_ms);
		else
			printf("\nleg %d %gx slower", cfg.slow.leg,
			       cfg.slow.factor);
		printf(" at %g s: limit %.1f MiB/s; seconds until every "
		       "later %g s is within 10%% of it:\n", cfg.slow.at_s,
		       slowed, SIM_RECOVER_WINDOW_S);
		for (i = 0; i < o->nr_policies; i++) {
			if (recover[i] < 0)
				printf("%-14s never\n", o->policies[i]);
			else
				printf("%-14s %.1f\n", o->policies[i],
				       recover[i]);
		}
	}
	if (!o->csv)
		printf("\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct opts o = { .argc = argc, .argv = argv };
	unsigned int p, w;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--list")) {
			list();
			return 0;
		} else if (!strcmp(a, "--csv")) {
			o.csv = true;
		} else if (!strcmp(a, "--seek")) {
			o.seek = true;
		} else if (!strcmp(a, "--bucket")) {
			o.bucket = true;
		} else if (!strcmp(a, "--no-limit")) {
			o.no_limit = true;
		} else if (!strcmp(a, "--bins")) {
			o.bins = true;
		} else if (!strcmp(a, "--per-job")) {
			o.per_job = true;
		} else if (!strcmp(a, "--buffered") || !strcmp(a, "--direct")) {
			continue;
		} else if (!v || strncmp(a, "--", 2)) {
			die("bad argument (--help)", a);
		} else {
			if (!strcmp(a, "--profile"))
				add(o.profiles, &o.nr_profiles, v,
				    sim_profile_name);
			else if (!strcmp(a, "--workload"))
				add(o.workloads, &o.nr_workloads, v,
				    sim_workload_name);
			else if (!strcmp(a, "--policy"))
				add(o.policies, &o.nr_policies, v,
				    sim_policy_name);
			else if (!strcmp(a, "--scale"))
				o.scale = v;
			else if (!takes_value(a))
				die("unknown option (--help)", a);
			i++;
		}
	}
	if (!o.nr_profiles || !o.nr_workloads)
		die("--profile and --workload are needed (--help)", NULL);
	if (!o.nr_policies)
		add(o.policies, &o.nr_policies, "all", sim_policy_name);
	for (p = 0; p < o.nr_profiles; p++)
		for (w = 0; w < o.nr_workloads; w++)
			run_one(&o, o.profiles[p], o.workloads[w]);
	return 0;
}
