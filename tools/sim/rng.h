/* SPDX-License-Identifier: GPL-2.0 */
/* rbsim: splitmix64, so that a seed gives the same run everywhere. */
#ifndef RBSIM_RNG_H
#define RBSIM_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s;
};

static inline void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	r->s = seed * 0x9e3779b97f4a7c15ULL + stream * 0xbf58476d1ce4e5b9ULL +
	       0x94d049bb133111ebULL;
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

/* uniform in [0, n) */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}

#endif
