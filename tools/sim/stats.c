// SPDX-License-Identifier: GPL-2.0
/* rbsim: application I/O statistics. */
#include "stats.h"

static unsigned int bucket_of(uint64_t v)
{
	unsigned int e;

	if (v < (1U << STATS_SUB_BITS))
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v);
	return ((e - STATS_SUB_BITS + 1) << STATS_SUB_BITS) |
	       (unsigned int)((v >> (e - STATS_SUB_BITS)) &
			      ((1U << STATS_SUB_BITS) - 1));
}

static double bucket_mid(unsigned int i)
{
	unsigned int e, m;
	double lo, width;

	if (i < (1U << STATS_SUB_BITS))
		return i;
	e = (i >> STATS_SUB_BITS) + STATS_SUB_BITS - 1;
	m = i & ((1U << STATS_SUB_BITS) - 1);
	width = (double)(1ULL << (e - STATS_SUB_BITS));
	lo = ((1U << STATS_SUB_BITS) + m) * width;
	return lo + width / 2;
}

void stats_io(struct stats *st, uint64_t bytes, int write, uint64_t lat_ns,
	      uint64_t now_ns)
{
	uint64_t bin = now_ns / STATS_BIN_NS;

	if (bin < STATS_BINS)
		st->bin_bytes[bin] += bytes;
	if (now_ns < st->from_ns)
		return;
	st->ios++;
	if (write)
		st->write_bytes += bytes;
	else
		st->read_bytes += bytes;
	st->bucket[bucket_of(lat_ns)]++;
}

double stats_percentile(const struct stats *st, double p)
{
	uint64_t want, seen = 0;
	unsigned int i;

	if (!st->ios)
		return 0;
	want = (uint64_t)(p / 100.0 * (double)st->ios);
	if (want >= st->ios)
		want = st->ios - 1;
	for (i = 0; i < STATS_BUCKETS; i++) {
		seen += st->bucket[i];
		if (seen > want)
			return bucket_mid(i);
	}
	return bucket_mid(STATS_BUCKETS - 1);
}
