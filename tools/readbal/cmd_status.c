// SPDX-License-Identifier: GPL-2.0
/* readbal status: the per-leg view of a device, once or every N seconds. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "common.h"
#include "util.h"
#include "view.h"

static double rb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void rb_sleep(double s)
{
	struct timespec ts = {
		.tv_sec = (time_t)s,
		.tv_nsec = (long)((s - (double)(time_t)s) * 1e9),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void rb_show(const struct rb_dev *d, const struct rb_status *prev,
		    double interval, int json)
{
	struct rb_leg_info info[RB_PARSE_MAX_LEGS];
	struct rb_view v = {
		.name = d->name,
		.kname = d->kname,
		.sectors = d->length,
		.st = &d->st,
		.info = info,
		.prev = prev,
		.interval = interval,
		.time = (long long)time(NULL),
		.log = d->has_log ? &d->log : NULL,
		.log_name = d->log_name,
	};

	rb_dev_leg_info(d, info);
	if (json)
		rb_view_json(stdout, &v);
	else
		rb_view_text(stdout, &v);
	fflush(stdout);
}

static int rb_status_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "watch", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		RB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	int opt, r, json = 0, tty = isatty(STDOUT_FILENO);
	unsigned int count = 0, k;
	double watch = 0, t, last = 0;
	struct rb_status prev;
	struct rb_dev d;
	char stamp[64];
	time_t now;

	while ((opt = getopt_long(argc, argv, "jw:c:hv", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 'w':
			if (rb_parse_seconds(optarg, &watch))
				return rb_usage(&rb_cmd_status, "--watch wants "
						"seconds > 0, e.g. 1 or 0.5, "
						"not '%s'", optarg);
			break;
		case 'c':
			if (rb_parse_uint(optarg, 1000000000, &count) || !count)
				return rb_usage(&rb_cmd_status, "--count wants a "
						"number > 0, not '%s'", optarg);
			break;
		default:
			r = rb_common_opt(&rb_cmd_status, opt);
			if (r >= 0)
				return r;
		}
	}
	if (optind >= argc)
		return rb_usage(&rb_cmd_status, "the device NAME is missing");
	if (optind + 1 < argc)
		return rb_usage(&rb_cmd_status, "one device at a time ('%s' "
				"is extra); readbal list shows them all",
				argv[optind + 1]);
	if (count && !watch)
		return rb_usage(&rb_cmd_status, "--count goes with --watch");
	r = rb_dev_load(argv[optind], &d);
	if (r)
		return r;
	rb_dev_load_log(&d);
	if (!watch) {
		rb_show(&d, NULL, 0, json);
		return RB_EXIT_OK;
	}
	for (k = 0; !count || k < count; k++) {
		if (k) {
			rb_sleep(watch);
			prev = d.st;
			r = rb_dev_refresh(&d);
			if (r)
				return r;
			rb_dev_load_log(&d);	/* a reload may change it */
		}
		t = rb_now();
		if (!json) {
			if (tty) {
				fputs("\033[H\033[J", stdout);
			} else if (k) {
				putchar('\n');
			}
			now = time(NULL);
			strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S",
				 localtime(&now));
			printf("%s%s\n", stamp,
			       k ? "" : "  (counters since creation or reset_stats)");
		}
		rb_show(&d, k ? &prev : NULL, k ? t - last : 0, json);
		last = t;
	}
	return RB_EXIT_OK;
}

const struct rb_cmd rb_cmd_status = {
	.name = "status",
	.summary = "show the legs: state, load, reads, share, latency",
	.usage =
"Usage: readbal status NAME [--json] [--watch SECONDS [--count N]]\n"
"\n"
"Show NAME's policy and, per leg: the device (its dm name for a dm device),\n"
"model and whether it is rotational (from sysfs), state (alive, resync:\n"
"being copied from the legs in sync, or failed), reads in flight, reads\n"
"completed, share of the mirror's reads in percent and average read\n"
"latency in microseconds, counted since creation or the last reset_stats;\n"
"from modules that report them (target 1.1), the read errors, corrected,\n"
"uncorrected and write errors of each leg, the resync progress and\n"
"max_read_errors; from target 1.2, the dirty region log as the table has\n"
"it (core or disk and its device, the region size, sync or nosync), and\n"
"the progress counts regions of that size.\n"
"\n"
"  -j, --json           one JSON object (per report) for scripts\n"
"  -w, --watch SECONDS  report again every SECONDS (e.g. 1 or 0.5), as\n"
"                       iostat does: the first report counts since the\n"
"                       reset, the next ones the last interval (reads/s,\n"
"                       MiB/s, share and latency of the interval); on a\n"
"                       terminal the screen is redrawn\n"
"  -c, --count N        stop after N reports (default: until interrupted)\n"
"  -v, --verbose        show libdevmapper's messages\n"
"  -h, --help           this help\n"
"\n"
"JSON fields: name, device, sectors, legs_alive, legs_in_sync, sync\n"
"{in_sync, regions, pct, resyncing}, max_read_errors, log {type (core or\n"
"disk), dev, name, region_size (sectors), flag (sync, nosync or null)},\n"
"policy {name, knobs\n"
"{knob: \"value\"}}, total_reads, legs [{leg, dev, name, dm_name, model,\n"
"rotational, state, inflight, reads, read_sectors, share_pct, avg_read_us,\n"
"head, errors {read, corrected, uncorrected, write}}]; with --watch also\n"
"time, interval_s and per leg interval {reads, reads_per_s,\n"
"read_mib_per_s, share_pct, avg_read_us}.  Unknown values are null.\n"
"\n"
"Exit: 0 ok, 1 usage, 2 no such readbal device.\n",
	.run = rb_status_run,
};
