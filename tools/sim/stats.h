/* SPDX-License-Identifier: GPL-2.0 */
/* rbsim: application I/O counts and a latency histogram for percentiles. */
#ifndef RBSIM_STATS_H
#define RBSIM_STATS_H

#include <stdint.h>

/* log-linear buckets: 64 per power of two, under 1% error */
#define STATS_SUB_BITS	6
#define STATS_BUCKETS	(64 << STATS_SUB_BITS)
/* bytes done per 100 ms of the run, for throughput over time */
#define STATS_BIN_NS	100000000ULL
#define STATS_BINS	600

struct stats {
	uint64_t from_ns;	/* I/Os that end before are not counted */
	uint64_t ios;
	uint64_t read_bytes, write_bytes;
	uint64_t bucket[STATS_BUCKETS];
	uint64_t bin_bytes[STATS_BINS];
};

/* An I/O of @bytes ended at @now_ns after @lat_ns; bins count every I/O. */
void stats_io(struct stats *st, uint64_t bytes, int write, uint64_t lat_ns,
	      uint64_t now_ns);
/* The latency below which @p percent of the I/Os fall, in ns. */
double stats_percentile(const struct stats *st, double p);

#endif
