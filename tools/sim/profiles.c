// SPDX-License-Identifier: GPL-2.0
/*
 * rbsim: leg kinds at two scales, array profiles and workload presets.
 *
 * "guest" legs are the guest benchmark's emulated disks: the null_blk
 * profiles of tests/lib/disks.sh (fixed completion latency, hw_queue_depth,
 * 128 KiB requests: LEG_MAX_SECTORS) at the benchmark's bandwidth caps, about half the
 * profiles' (LEG_MBPS in bench/rbbench/plan.py), and hdd-seek, a one-head disk served
 * one request at a time as the benchmark's nbdkit seek emulator (issue 6)
 * at the benchmark's settings (SEEK_ARGS in bench/rbbench/plan.py: 20 to
 * 10 MiB/s, a 6 ms full stroke, 1 MiB of read-ahead in 1 MiB segments;
 * the nbd round trip is not modelled).  "real" legs are ordinary devices: a 7200 rpm SATA disk, a
 * SATA SSD, an NVMe drive, a disk across 10 GbE, brd.
 *
 * A profile names its legs: "3hdd", "2hdd+ssd", "ssd+nvme", any
 * "[N]kind[+[N]kind]..." of the kinds below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/*
 * Sectors of the guest benchmark's legs: 1 GiB, null_blk and seek legs
 * alike (no run wraps around; a seek leg's stroke is its size).
 */
#define GUEST_SIZE	(1024ULL << 11)
#define REAL_SIZE	(64ULL << 21)	/* 64 GiB at the outer edge */
#define REAL_STROKE	(1000000000000ULL / 512)	/* a 1 TB disk */
#define MS		1e6
#define US		1e3

#define PIPE(rot, nr, max, slots_, lat, mib, cmd, jit)			\
	{ .kind = LEG_PIPE, .rotational = rot, .nr_requests = nr,	\
	  .max_kb = max, .pipe = { .slots = slots_, .lat_ns = lat,	\
	  .mibps = mib, .cmd_ns = cmd, .jitter = jit } }

#define HDD(nr, max, ncq_, full, outer, inner, cap, ra, segs, seg, cmd) \
	{ .kind = LEG_HDD, .rotational = true, .nr_requests = nr,	\
	  .max_kb = max, .hdd = { .ncq = ncq_, .rpm = 7200,		\
	  .settle_ns = 1 * MS, .full_seek_ns = full,			\
	  .outer_mibps = outer, .inner_mibps = inner, .cmd_ns = cmd,	\
	  .iface_mibps = 550, .capacity = cap, .ra_sectors = ra,	\
	  .segments = segs, .seg_sectors = seg } }

struct kind {
	const char *name;
	struct leg_spec guest, real;
};

static const struct kind kinds[] = {
	{ "hdd",
	  PIPE(true, 4, 128, 4, 2000 * US, 13, 0, 0),
	  HDD(64, 1280, 32, 15 * MS, 200, 100, REAL_STROKE, 2048, 16, 8192, 50 * US) },
	{ "hdd-seek",
	  HDD(128, 1280, 1, 6 * MS, 20, 10, GUEST_SIZE, 2048, 4, 2048, 100 * US),
	  HDD(64, 1280, 32, 15 * MS, 200, 100, REAL_STROKE, 2048, 16, 8192, 50 * US) },
	{ "ssd",
	  PIPE(false, 32, 128, 32, 200 * US, 38, 0, 0),
	  PIPE(false, 64, 1280, 32, 80 * US, 530, 10 * US, 0.2) },
	{ "nvme",
	  PIPE(false, 64, 128, 64, 50 * US, 63, 0, 0),
	  PIPE(false, 1023, 512, 128, 70 * US, 3000, 1.5 * US, 0.2) },
	{ "remote",
	  PIPE(false, 32, 128, 32, 5000 * US, 19, 0, 0),
	  PIPE(false, 128, 512, 64, 300 * US, 1100, 5 * US, 0.3) },
	/* ram null_blk is CPU-bound in the guest: a path cost stands for it */
	{ "ram",
	  PIPE(false, 64, 128, 64, 0, 400, 20 * US, 0),
	  PIPE(false, 128, 1280, 64, 1 * US, 6000, 1 * US, 0) },
};

static const char *const profiles[] = {
	"3hdd", "2hdd+ssd", "ssd+nvme", "nvme+remote", "2ram",
	"3hdd-seek", "2hdd-seek+ssd",
};

#define KIB	1024U

static const struct workload workloads[] = {
	/* seeds 000/002: 64 KiB sequential read, buffered, fio's ramps */
	{ "seqread-1job", RW_READ, 64 * KIB, 1, 1, true, 128 * KIB, 100, 1 },
	{ "seqread-8job", RW_READ, 64 * KIB, 8, 1, true, 128 * KIB, 100, 4 },
	/* seed 001: large direct bios at iodepth 64 */
	{ "seqread-1280k", RW_READ, 1280 * KIB, 4, 64, false, 0, 100, 0 },
	{ "seqwrite-1280k", RW_WRITE, 1280 * KIB, 4, 64, false, 0, 0, 0 },
	{ "randread-qd1", RW_RANDREAD, 4 * KIB, 1, 1, false, 0, 100, 0 },
	{ "randread-qd32", RW_RANDREAD, 4 * KIB, 1, 32, false, 0, 100, 0 },
	{ "randrw-70", RW_RANDRW, 4 * KIB, 1, 16, false, 0, 70, 0 },
	{ "randwrite", RW_RANDWRITE, 4 * KIB, 1, 16, false, 0, 0, 0 },
};

#define NR(a)	(sizeof(a) / sizeof((a)[0]))

const char *sim_profile_name(unsigned int i)
{
	return i < NR(profiles) ? profiles[i] : NULL;
}

const char *sim_workload_name(unsigned int i)
{
	return i < NR(workloads) ? workloads[i].name : NULL;
}

static const char *const rw_names[] = {
	[RW_READ] = "read", [RW_RANDREAD] = "randread",
	[RW_WRITE] = "write", [RW_RANDWRITE] = "randwrite",
	[RW_RW] = "rw", [RW_RANDRW] = "randrw",
};

void sim_workload_describe(const struct workload *wl, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s bs %uk, %u job%s", rw_names[wl->rw],
			 wl->bs / KIB, wl->jobs, wl->jobs == 1 ? "" : "s");

	if (n < 0 || (size_t)n >= len)
		return;
	if (wl->buffered && wl->rw == RW_READ)
		snprintf(buf + n, len - n, ", buffered, read-ahead %uk",
			 wl->ra / KIB);
	else if (wl->rw == RW_RW || wl->rw == RW_RANDRW)
		snprintf(buf + n, len - n, ", direct QD%u, %u%% reads", wl->qd,
			 wl->rwmixread);
	else
		snprintf(buf + n, len - n, ", direct QD%u", wl->qd);
}

static const struct kind *find_kind(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < NR(kinds); i++)
		if (strlen(kinds[i].name) == len &&
		    !strncmp(kinds[i].name, name, len))
			return &kinds[i];
	return NULL;
}

/* "[N]kind[+[N]kind]..." into cfg->legs */
static int parse_profile(struct sim_config *cfg, const char *profile,
			 bool real, bool seek, char *err, size_t errlen)
{
	const char *p = profile, *end;
	const struct kind *k;
	unsigned long n;
	char *num_end;

	cfg->nr_legs = 0;
	while (*p) {
		n = strtoul(p, &num_end, 10);
		if (num_end == p)
			n = 1;
		end = strchr(num_end, '+');
		if (!end)
			end = num_end + strlen(num_end);
		k = find_kind(num_end, (size_t)(end - num_end));
		if (!k || !n || cfg->nr_legs + n > SIM_MAX_LEGS) {
			snprintf(err, errlen, "bad profile '%s': legs are "
				 "[N]kind joined by '+', at most %d, kinds "
				 "hdd hdd-seek ssd nvme remote ram", profile,
				 SIM_MAX_LEGS);
			return -1;
		}
		if (seek && !strcmp(k->name, "hdd"))
			k = find_kind("hdd-seek", 8);
		while (n--) {
			cfg->legs[cfg->nr_legs] = real ? k->real : k->guest;
			snprintf(cfg->legs[cfg->nr_legs].name,
				 sizeof(cfg->legs[0].name), "%s", k->name);
			cfg->nr_legs++;
		}
		p = *end ? end + 1 : end;
	}
	if (cfg->nr_legs < 2) {
		snprintf(err, errlen, "profile '%s': a mirror needs 2 legs",
			 profile);
		return -1;
	}
	return 0;
}

void sim_config_bucket(struct sim_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_legs; i++)
		if (cfg->legs[i].kind == LEG_PIPE &&
		    !strcmp(cfg->scale, "guest"))
			cfg->legs[i].pipe.tick_ns = 20e6;	/* TICKS_PER_SEC 50 */
}

void sim_config_leg_rate(struct sim_config *cfg, double factor)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_legs; i++)
		if (cfg->legs[i].kind == LEG_PIPE)
			cfg->legs[i].pipe.mibps *= factor;
}

int sim_config_init(struct sim_config *cfg, const char *profile,
		    const char *workload, const char *scale, bool seek,
		    char *err, size_t errlen)
{
	bool real = scale && !strcmp(scale, "real");
	unsigned int i;

	memset(cfg, 0, sizeof(*cfg));
	if (scale && !real && strcmp(scale, "guest")) {
		snprintf(err, errlen, "scale is guest or real, not '%s'",
			 scale);
		return -1;
	}
	snprintf(cfg->scale, sizeof(cfg->scale), "%s", real ? "real" : "guest");
	snprintf(cfg->profile, sizeof(cfg->profile), "%s", profile);
	if (parse_profile(cfg, profile, real, seek, err, errlen))
		return -1;
	for (i = 0; i < NR(workloads); i++)
		if (!strcmp(workloads[i].name, workload))
			break;
	if (i == NR(workloads)) {
		snprintf(err, errlen, "unknown workload '%s' (--list)",
			 workload);
		return -1;
	}
	cfg->wl = workloads[i];
	cfg->size = real ? REAL_SIZE : GUEST_SIZE;
	cfg->seconds = 10;
	cfg->seed = 1;
	cfg->cpus = 2;		/* the guest's -smp 2 */
	cfg->pid_base = 1000;
	cfg->copy_mibps = real ? 8000 : 2000;
	cfg->slow.leg = -1;
	cfg->slow.factor = 1;
	return 0;
}
