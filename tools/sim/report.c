// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: the table.  Per policy: bandwidth (reads and writes the
 * application moved), IOPS (application I/Os, read() calls when
 * buffered), latency p50/p99 of those, each leg's share of the reads
 * routed, and the bandwidth as a fraction of the physical limit: the sum of
 * the legs' own bandwidth on the same workload, each simulated alone.
 */
#include <string.h>

#include "report.h"

static void leg_names(const struct sim_config *cfg, char *buf, size_t len,
		      const char *sep)
{
	size_t n = 0;
	unsigned int i;
	int w;

	buf[0] = '\0';
	for (i = 0; i < cfg->nr_legs && n < len; i++) {
		w = snprintf(buf + n, len - n, "%s%s", i ? sep : "",
			     cfg->legs[i].name);
		if (w < 0)
			return;
		n += (size_t)w;
	}
}

/* the share column fits "hdd/hdd/ssd share %" */
static int share_width(const struct sim_config *cfg)
{
	char legs[256];
	size_t w;

	leg_names(cfg, legs, sizeof(legs), "/");
	w = strlen(legs) + strlen(" share %");
	return w > 22 ? (int)w : 22;
}

void report_header(FILE *f, const struct sim_config *cfg,
		   const double leg_mibps[SIM_MAX_LEGS], double limit,
		   bool csv)
{
	char legs[256], wl[128];
	unsigned int i;

	if (csv) {
		fprintf(f, "profile,scale,workload,policy,mibps,iops,p50_us,"
			"p99_us,of_limit");
		for (i = 0; i < cfg->nr_legs; i++)
			fprintf(f, ",share%u", i);
		fprintf(f, "\n");
		return;
	}
	leg_names(cfg, legs, sizeof(legs), " ");
	sim_workload_describe(&cfg->wl, wl, sizeof(wl));
	fprintf(f, "rbsim: %s (%s scale: %s), %s (%s), %g s, seed %llu\n",
		cfg->profile, cfg->scale, legs, cfg->wl.name, wl,
		cfg->seconds, (unsigned long long)cfg->seed);
	fprintf(f, "legs alone, MiB/s:");
	for (i = 0; i < cfg->nr_legs; i++)
		fprintf(f, "%s %s %.1f", i ? "," : "", cfg->legs[i].name,
			leg_mibps[i]);
	fprintf(f, "; physical limit %.1f\n\n", limit);
	leg_names(cfg, legs, sizeof(legs), "/");
	strcat(legs, " share %");
	fprintf(f, "%-14s %9s %9s %9s %9s  %-*s %6s\n", "policy", "MiB/s",
		"IOPS", "p50 us", "p99 us", share_width(cfg), legs, "limit");
}

void report_row(FILE *f, const struct sim_config *cfg, const char *policy,
		const struct sim_result *r, double limit, bool csv)
{
	char share[128];
	size_t n = 0;
	unsigned int i;
	int w;

	if (csv) {
		fprintf(f, "%s,%s,%s,%s,%.2f,%.1f,%.1f,%.1f,%.3f", cfg->profile,
			cfg->scale, cfg->wl.name, policy, r->mibps, r->iops,
			r->p50_us, r->p99_us, limit > 0 ? r->mibps / limit : 0);
		for (i = 0; i < r->nr_legs; i++)
			fprintf(f, ",%.1f", r->share[i]);
		fprintf(f, "\n");
		return;
	}
	share[0] = '\0';
	for (i = 0; i < r->nr_legs && n < sizeof(share); i++) {
		w = snprintf(share + n, sizeof(share) - n, "%s%.0f",
			     i ? "/" : "", r->share[i]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	fprintf(f, "%-14s %9.1f %9.0f %9.0f %9.0f  %-*s %6.2f\n", policy,
		r->mibps, r->iops, r->p50_us, r->p99_us, share_width(cfg),
		share, limit > 0 ? r->mibps / limit : 0);
}
