/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbsim: a deterministic discrete-event simulator of a dm-readbal mirror.
 * The read policies are dm-readbal's own sources, built against the unit
 * tests' kernel shim; this header is what callers (rbsim.c, the regression
 * gate in tests/unit) see: a configuration, one run, its result.
 */
#ifndef RBSIM_SIM_H
#define RBSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_MAX_LEGS	16		/* RB_MAX_LEGS */
#define SIM_MAX_CPUS	4		/* rbsim --cpus */
#define SIM_NS		1000000000.0	/* ns per second */
#define SIM_MIB		1048576.0
#define SIM_BIN_S	0.1		/* throughput over time: 100 ms bins */
#define SIM_BINS	600		/* the first minute */
#define SIM_JOB_STATS	64		/* jobs a result lists */

typedef uint64_t simtime_t;		/* ns since the run started */

enum leg_kind {
	LEG_PIPE,	/* fixed latency, bandwidth cap, parallel slots */
	LEG_HDD,	/* one head: seek, rotation, zones, read-ahead */
};

/* null_blk, flash, remote and ram legs: see leg-pipe.c */
struct pipe_params {
	unsigned int slots;	/* requests served at once */
	double lat_ns;		/* added to every request */
	double mibps;		/* shared transfer rate; 0: no cap */
	double cmd_ns;		/* transfer-path time per request */
	double jitter;		/* latency varies by +-jitter (fraction) */
	double tick_ns;		/* > 0: mibps is null_blk's token bucket */
};

/* rotational disks: see leg-hdd.c */
struct hdd_params {
	unsigned int ncq;	/* commands the drive may reorder; 1: FIFO */
	double rpm;
	double settle_ns;	/* track-to-track seek */
	double full_seek_ns;	/* full-stroke seek */
	double outer_mibps;	/* media rate at sector 0 */
	double inner_mibps;	/* media rate at the last sector */
	double cmd_ns;		/* controller overhead per command */
	double iface_mibps;	/* cache hits move at this rate */
	uint64_t capacity;	/* sectors: the full stroke */
	uint32_t ra_sectors;	/* read-ahead after a read */
	unsigned int segments;	/* read-ahead cache segments */
	uint32_t seg_sectors;	/* what a segment holds */
};

struct leg_spec {
	char name[16];		/* "hdd", "ssd", ... */
	enum leg_kind kind;
	bool rotational;	/* what the policy sees as !nonrot */
	unsigned int nr_requests;	/* the policy's leg->queue_depth */
	unsigned int max_kb;	/* larger requests are split for the leg */
	struct pipe_params pipe;
	struct hdd_params hdd;
};

enum sim_rw {
	RW_READ, RW_RANDREAD, RW_WRITE, RW_RANDWRITE, RW_RW, RW_RANDRW,
};

/* An fio-like job description; every job of a run is alike. */
struct workload {
	char name[32];
	enum sim_rw rw;
	unsigned int bs;	/* bytes per I/O */
	unsigned int jobs;
	unsigned int qd;	/* direct I/O: I/Os in flight per job */
	bool buffered;		/* sequential reads through the page cache */
	unsigned int ra;	/* bytes: the read-ahead window (buffered) */
	unsigned int rwmixread;	/* percent of reads in RW_RW/RW_RANDRW */
	double ramp_s;		/* fio's ramp_time: not measured */
};

/*
 * Make leg @leg @factor times slower from @at_s seconds on, or put a delay
 * of @delay_ms in front of it (dm-delay, as the benchmark does).
 */
struct slowdown {
	int leg;		/* < 0: none */
	double factor;
	double at_s;
	double delay_ms;
};

struct sim_config {
	char profile[64];
	char scale[8];		/* "guest" or "real" */
	unsigned int nr_legs;
	struct leg_spec legs[SIM_MAX_LEGS];
	uint64_t size;		/* sectors of the mirror */
	struct workload wl;
	double seconds;		/* measured, after wl.ramp_s */
	uint64_t seed;
	unsigned int cpus;	/* job j runs on CPU j % cpus */
	unsigned int pid_base;	/* job j is pid pid_base + j */
	double copy_mibps;	/* page cache to user copy rate */
	/*
	 * CPU time of an I/O's completion on its submitter's CPU, one at a
	 * time per CPU (0: none).  A TCG guest spends about 87 us on a 4 KiB
	 * read through dm: at QD32 its completions wait for the CPU, and the
	 * policy sees that wait in the leg's service time.
	 */
	double cpu_ns;
	/* time from a direct I/O's end to its job's next I/O (0: none) */
	double think_ns;
	/*
	 * Before the workload: each direct job keeps pre_qd I/Os in flight
	 * for pre_s seconds, then none for gap_s (the benchmark's QD1 runs,
	 * then the other devices' runs before this one's QD32); pre_s 0: none.
	 */
	double pre_s, gap_s;
	unsigned int pre_qd;
	struct slowdown slow;
};

struct sim_result {
	double mibps;		/* application bytes, reads and writes */
	double read_mibps;
	double iops;		/* application I/Os (read calls if buffered) */
	double p50_us, p99_us;	/* application latency */
	uint64_t ios;
	unsigned int nr_legs;
	uint64_t leg_reads[SIM_MAX_LEGS];	/* reads routed to each leg */
	double share[SIM_MAX_LEGS];		/* percent of those */
	uint64_t events;
	/* each job's MiB/s (the first SIM_JOB_STATS), least and most of all */
	unsigned int nr_jobs;
	double job_mibps[SIM_JOB_STATS];
	double job_min_mibps, job_max_mibps;
	/* MiB/s over each SIM_BIN_S of the run, ramp too, reads and writes */
	unsigned int nr_bins;
	double bin_mibps[SIM_BINS];
};

/* profiles.c: a configuration from names; 0, or -1 and a reason in @err */
int sim_config_init(struct sim_config *cfg, const char *profile,
		    const char *workload, const char *scale, bool seek,
		    char *err, size_t errlen);
/*
 * Guest-scale pipe legs throttle as null_blk's mbps does: a token bucket
 * set every 20 ms (rbsim --bucket)
 */
void sim_config_bucket(struct sim_config *cfg);
/* pipe legs' transfer rates times @factor (rbsim --leg-rate) */
void sim_config_leg_rate(struct sim_config *cfg, double factor);
const char *sim_profile_name(unsigned int i);	/* NULL past the last */
const char *sim_workload_name(unsigned int i);
void sim_workload_describe(const struct workload *wl, char *buf, size_t len);

/* core.c: the registered policies, in registry order; NULL past the last */
const char *sim_policy_name(unsigned int i);

/*
 * run.c: one run.  @policy is "name" or "name:knob=value,knob=value"; NULL
 * with @alone >= 0 runs the workload on leg @alone by itself (no mirror).
 */
int sim_run(const struct sim_config *cfg, const char *policy, int alone,
	    struct sim_result *res, char *err, size_t errlen);

/*
 * The physical limit: each leg runs the workload alone; the limit is the
 * sum of their read bandwidth plus the smallest write bandwidth.
 */
int sim_limit(const struct sim_config *cfg, double leg_mibps[SIM_MAX_LEGS],
	      double *limit);

/*
 * A slowdown (cfg->slow): the limit once it applies (the legs alone, the
 * slowed one slow from the start), and the seconds from the slowdown until
 * the throughput over every later SIM_RECOVER_WINDOW_S of the run is at
 * least @frac of @limit; -1 if it never gets there.
 */
#define SIM_RECOVER_WINDOW_S	1.0
int sim_limit_slowed(const struct sim_config *cfg, double *limit);
double sim_recovery_s(const struct sim_config *cfg, const struct sim_result *r,
		      double limit, double frac);

#endif
