/* SPDX-License-Identifier: GPL-2.0 */
/* rbsim: application I/O counts and a latency histogram for percentiles. */
#ifndef RBSIM_STATS_H
#define RBSIM_STATS_H

#include <stdint.h>

/* log-linear buckets: 64 per power of two, under 1% error */
#define STATS_SUB_BITS	6
#define STATS_BUCKETS	(64 << STATS_SUB_BITS)

struct stats {
	uint64_t ios;
	uint64_t read_bytes, write_bytes;
	uint64_t bucket[STATS_BUCKETS];
};

void stats_io(struct stats *st, uint64_t bytes, int write, uint64_t lat_ns);
/* The latency below which @p percent of the I/Os fall, in ns. */
double stats_percentile(const struct stats *st, double p);

#endif
