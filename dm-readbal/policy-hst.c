// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "hst": dm-multipath's historical-service-time path
 * selector (drivers/md/dm-ps-historical-service-time.c, Linux 6.1).
 *
 * Each leg keeps a time-weighted EWMA of its service time: a read's time
 * counts from its start, or from the leg's previous completion if that came
 * later (requests served one after another), and the weight of the history
 * falls with the length of the sample: base_weight^(1 + sample / ~16.8 ms),
 * none past 63 buckets.  A read goes to the leg with the lowest estimate
 * (1 + reads in flight) * EWMA.  A leg that finished nothing for #legs *
 * EWMA is stale: if idle it gets the next read (a probe, so a leg that
 * looked slow is measured again); if it would win while busy, it only
 * gets reads while it has no more in flight than the other.  When two
 * estimates are within threshold_multiplier of each other, reads in flight
 * alone decide.  Legs are compared in dm-ps-hst's list order, least
 * recently chosen first, and a later leg wins an exact tie: the most
 * recently chosen leg keeps it, as in dm-ps-hst.
 *
 * Knobs, dm-ps-hst's selector arguments: "base_weight" (0-1023, the EWMA
 * weight in 1/1024, default 972 = 0.95) and "threshold_multiplier" (default
 * 0: any difference counts).  Its per-path repeat_count is unused there too.
 *
 * dm-ps-hst updates a path under a spinlock and picks under another.  Here
 * select takes no lock and writes nothing shared: the reads in flight are
 * the core's atomic counter, and the list order is kept per CPU (each CPU's
 * own picks, least recently chosen first), so the reads of different CPUs
 * do not bounce a line.  end_io updates the EWMA with plain
 * READ_ONCE/WRITE_ONCE.  Two reads of one leg ending at once may lose
 * one sample of the EWMA, as the core's ewma_ns may: a moving average of
 * thousands of samples does not notice, and a cmpxchg loop would make the
 * completions of a busy leg contend on one cache line to save it.
 *
 * Samples are capped at 2^40 ns and reads in flight at 2^19 so that the
 * products of the comparison cannot overflow (dm-ps-hst's could above a
 * million in flight).
 */
#include "readbal.h"

#define HST_FIXED_SHIFT		10	/* 10 bits of fraction */
#define HST_FIXED_1		1024ULL	/* 1 << HST_FIXED_SHIFT */
#define HST_FIXED_95		972
#define HST_MAX_INFLIGHT	1024	/* HST_FIXED_1 reads */
#define HST_BUCKET_SHIFT	24	/* buckets of ~16.8 ms */
#define HST_WEIGHT_COUNT	64
#define HST_MAX_SAMPLE_NS	1099511627776ULL	/* 2^40: 18 minutes */
#define HST_MAX_OUT		524288	/* 2^19 */

enum { HST_BASE_WEIGHT, HST_THRESHOLD, HST_NR_KNOBS };

static const char *const hst_knobs[] = {
	"base_weight",
	"threshold_multiplier",
	NULL
};

struct hst_leg {
	u64 hst;		/* EWMA of service time, ns << HST_FIXED_SHIFT */
	u64 last_finish;	/* ktime of the last read ended */
	u64 stale_after;	/* ktime from which the leg is stale */
};

/* One CPU's list order: its picks, and each leg's stamp when last chosen. */
struct hst_order {
	u64 picks;
	u64 chosen[RB_MAX_LEGS];
};

/* Every field of leg[] and knob[] READ_ONCE/WRITE_ONCE. */
struct hst_ctx {
	unsigned int knob[HST_NR_KNOBS];
	struct hst_order __percpu *order;
	struct hst_leg leg[];	/* one per leg of the set */
};

static int hst_create(struct rb_policy *p)
{
	unsigned int i, n = p->set->nr_legs;
	struct hst_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx) + n * sizeof(ctx->leg[0]), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->order = alloc_percpu(struct hst_order);
	if (!ctx->order) {
		kfree(ctx);
		return -ENOMEM;
	}
	ctx->knob[HST_BASE_WEIGHT] = HST_FIXED_95;
	for (i = 0; i < n; i++)
		ctx->leg[i].hst = HST_FIXED_1;	/* 1 ns, as dm-ps-hst */
	p->context = ctx;
	return 0;
}

static void hst_destroy(struct rb_policy *p)
{
	struct hst_ctx *ctx = p->context;

	free_percpu(ctx->order);
	kfree(ctx);
	p->context = NULL;
}

static int hst_set_knob(struct rb_policy *p, unsigned int knob,
			const char *value, char **error)
{
	struct hst_ctx *ctx = p->context;
	unsigned int v;
	int r;

	if (knob >= HST_NR_KNOBS) {
		*error = "unknown knob";
		return -EINVAL;
	}
	r = rb_policy_parse_uint(value, 0, knob == HST_BASE_WEIGHT ?
				 HST_FIXED_1 - 1 : UINT_MAX, &v, error);
	if (r)
		return r;
	WRITE_ONCE(ctx->knob[knob], v);
	return 0;
}

static int hst_show_knob(struct rb_policy *p, unsigned int knob, char *buf,
			 size_t len)
{
	struct hst_ctx *ctx = p->context;

	if (knob >= HST_NR_KNOBS)
		return -EINVAL;
	return scnprintf(buf, len, "%u", READ_ONCE(ctx->knob[knob]));
}

/* x^n in fixed point, as kernel/sched/loadavg.c */
static u64 hst_fixed_power(u64 x, unsigned int n)
{
	u64 result = HST_FIXED_1;

	while (n) {
		if (n & 1) {
			result = (result * x + (HST_FIXED_1 >> 1)) >>
				 HST_FIXED_SHIFT;
		}
		n >>= 1;
		x = (x * x + (HST_FIXED_1 >> 1)) >> HST_FIXED_SHIFT;
	}
	return result;
}

/*
 * dm-ps-hst's weights[] table computed on demand, so that a base_weight
 * set while reads run never meets a half-rewritten table.
 */
static u64 hst_weight(unsigned int base, u64 sample_ns)
{
	u64 bucket = sample_ns >> HST_BUCKET_SHIFT;

	if (bucket >= HST_WEIGHT_COUNT - 1)
		return 0;
	return hst_fixed_power(base, bucket + 1);
}

/* last * weight + next * (1 - weight), all fixed point */
static u64 hst_fixed_ema(u64 last, u64 next, u64 weight)
{
	return (last * weight + next * (HST_FIXED_1 - weight) +
		(HST_FIXED_1 >> 1)) >> HST_FIXED_SHIFT;
}

static s64 hst_outstanding(struct rb_leg *leg)
{
	int n = atomic_read(&leg->inflight);

	return n < 0 ? 0 : n > HST_MAX_OUT ? HST_MAX_OUT : n;
}

/* Are the estimates far enough apart: the larger > threshold * smaller? */
static bool hst_over_threshold(u64 hst1, u64 hst2, unsigned int mult)
{
	u64 hi = hst1 > hst2 ? hst1 : hst2;
	u64 lo = hst1 > hst2 ? hst2 : hst1;

	/* a product past U64_MAX is above any hi */
	if (mult && lo > U64_MAX / mult)
		return false;
	return hi > mult * lo;
}

static bool hst_stale(u64 stale_after, u64 now)
{
	return (s64)(now - stale_after) > 0;
}

/* hst_compare(): < 0 if leg a is better, > 0 if leg b is, 0 if equal */
static s64 hst_compare(struct hst_ctx *ctx, struct rb_set *set,
		       unsigned int a, unsigned int b, u64 now)
{
	u64 hst1 = READ_ONCE(ctx->leg[a].hst);
	u64 hst2 = READ_ONCE(ctx->leg[b].hst);
	s64 out1 = hst_outstanding(&set->legs[a]);
	s64 out2 = hst_outstanding(&set->legs[b]);
	u64 stale1 = READ_ONCE(ctx->leg[a].stale_after);
	u64 stale2 = READ_ONCE(ctx->leg[b].stale_after);
	bool b_better;

	/* Estimates too close: compare reads in flight, idle legs first */
	if (!hst_over_threshold(hst1, hst2,
				READ_ONCE(ctx->knob[HST_THRESHOLD])))
		return out1 - out2;

	/* An idle stale leg is probed; of two idle legs, the more stale */
	if ((!out1 && hst_stale(stale1, now)) ||
	    (!out2 && hst_stale(stale2, now)) || (!out1 && !out2))
		return (s64)(!out2 * stale1) - (s64)(!out1 * stale2);

	if (out1 == out2) {
		b_better = hst1 > hst2;
	} else {
		if (out1 >= HST_MAX_INFLIGHT || out2 >= HST_MAX_INFLIGHT) {
			hst1 >>= HST_FIXED_SHIFT;
			hst2 >>= HST_FIXED_SHIFT;
		}
		b_better = (1 + out1) * hst1 > (1 + out2) * hst2;
	}

	/* A stale winner is limited to equal use */
	if (b_better)
		return hst_stale(stale2, now) ? out1 - out2 : 1;
	return hst_stale(stale1, now) ? out1 - out2 : -1;
}

static unsigned int hst_select(struct rb_policy *p, const struct rb_io *io)
{
	struct hst_ctx *ctx = p->context;
	struct rb_set *set = p->set;
	unsigned int order[RB_MAX_LEGS] = { 0 };
	unsigned int i, j, n = 0, best;
	struct hst_order *o = get_cpu_ptr(ctx->order);
	u64 stamp;

	/* eligible legs, least recently chosen first (stable on ties) */
	for (i = 0; i < set->nr_legs; i++) {
		if (!rb_leg_eligible(io, i))
			continue;
		stamp = o->chosen[i];
		for (j = n; j && o->chosen[order[j - 1]] > stamp; j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}

	best = order[0];
	for (j = 1; j < n; j++)
		if (hst_compare(ctx, set, order[j], best, io->start_ns) < 0)
			best = order[j];
	o->chosen[best] = ++o->picks;
	put_cpu_ptr(ctx->order);
	return best;
}

static unsigned int hst_nr_legs(unsigned long mask)
{
	unsigned int n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

static void hst_end_io(struct rb_policy *p, struct rb_leg *leg,
		       const struct rb_io *io, u64 service_ns)
{
	struct hst_ctx *ctx = p->context;
	struct hst_leg *h = &ctx->leg[leg->index];
	u64 start = io->start_ns, now = start + service_ns;
	u64 last = READ_ONCE(h->last_finish);
	u64 sample, hst;

	/* A read that ended after this one started: count from its end */
	if ((s64)(last - start) > 0)
		start = last;
	WRITE_ONCE(h->last_finish, now);
	sample = (s64)(now - start) > 0 ? now - start : 0;
	if (sample > HST_MAX_SAMPLE_NS)
		sample = HST_MAX_SAMPLE_NS;

	hst = hst_fixed_ema(READ_ONCE(h->hst), sample << HST_FIXED_SHIFT,
			    hst_weight(READ_ONCE(ctx->knob[HST_BASE_WEIGHT]),
				       sample));
	WRITE_ONCE(h->hst, hst);
	/* fresh until #legs estimates from now */
	WRITE_ONCE(h->stale_after, now + hst_nr_legs(io->eligible) *
				   (hst >> HST_FIXED_SHIFT));
}

const struct rb_policy_type rb_policy_hst = {
	.name = "hst",
	.knobs = hst_knobs,
	.create = hst_create,
	.destroy = hst_destroy,
	.set_knob = hst_set_knob,
	.show_knob = hst_show_knob,
	.select = hst_select,
	.end_io = hst_end_io,
};
