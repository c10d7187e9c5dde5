// SPDX-License-Identifier: GPL-2.0
/*
 * dm-readbal policy "device": after Anand Jain's btrfs RFC "btrfs: introduce
 * new read_policy device" (January 2021).  Preferred legs take every read;
 * the others serve only when no preferred leg is eligible.
 *
 * The RFC read from the first preferred device; here the reads spread over
 * the eligible preferred legs by fewest reads in flight (ties to the lowest
 * index), and over all eligible legs the same way when none is preferred.
 *
 * Knob "preferred": leg numbers separated by commas ("0,2"), or "-" for no
 * preferred leg.  Default: leg 0.
 */
#include "readbal.h"

struct device_ctx {
	unsigned long preferred;	/* leg bitmask, READ_ONCE/WRITE_ONCE */
};

static const char *const device_knobs[] = { "preferred", NULL };

static int device_create(struct rb_policy *p)
{
	struct device_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->preferred = 1UL;
	p->context = ctx;
	return 0;
}

static void device_destroy(struct rb_policy *p)
{
	kfree(p->context);
	p->context = NULL;
}

/*
 * Parse "-" or "N[,N]...", each N a leg of the set listed once, nothing
 * else.  Returns NULL, or why @s is refused.
 */
static char *device_parse(const char *s, unsigned int nr_legs,
			  unsigned long *mask)
{
	unsigned long m = 0;
	unsigned int leg;

	if (!strcmp(s, "-")) {
		*mask = 0;
		return NULL;
	}
	for (;;) {
		if (*s < '0' || *s > '9')
			break;
		leg = 0;
		while (*s >= '0' && *s <= '9') {
			/* stops before leg * 10 can overflow */
			leg = leg * 10 + (*s++ - '0');
			if (leg >= nr_legs)
				return "preferred: no such leg";
		}
		if (m & (1UL << leg))
			return "preferred: leg listed twice";
		m |= 1UL << leg;
		if (!*s) {
			*mask = m;
			return NULL;
		}
		if (*s++ != ',')
			break;
	}
	return "preferred: expected leg numbers separated by commas, or -";
}

static int device_set_knob(struct rb_policy *p, unsigned int knob,
			   const char *value, char **error)
{
	struct device_ctx *ctx = p->context;
	unsigned long mask;
	char *why;

	if (knob) {
		*error = "unknown knob";
		return -EINVAL;
	}
	why = device_parse(value, p->set->nr_legs, &mask);
	if (why) {
		*error = why;
		return -EINVAL;
	}
	WRITE_ONCE(ctx->preferred, mask);
	return 0;
}

static int device_show_knob(struct rb_policy *p, unsigned int knob, char *buf,
			    size_t len)
{
	struct device_ctx *ctx = p->context;
	unsigned long mask;
	unsigned int i;
	int n = 0;

	if (knob)
		return -EINVAL;
	mask = READ_ONCE(ctx->preferred);
	if (!mask)
		return scnprintf(buf, len, "-");
	for (i = 0; i < p->set->nr_legs; i++)
		if (mask & (1UL << i))
			n += scnprintf(buf + n, len - n, "%s%u", n ? "," : "",
				       i);
	return n;
}

static unsigned int device_select(struct rb_policy *p, const struct rb_io *io)
{
	struct device_ctx *ctx = p->context;
	unsigned long mask = READ_ONCE(ctx->preferred) & io->eligible;

	return rb_least_inflight(p->set, mask ? mask : io->eligible);
}

const struct rb_policy_type rb_policy_device = {
	.name = "device",
	.knobs = device_knobs,
	.create = device_create,
	.destroy = device_destroy,
	.set_knob = device_set_knob,
	.show_knob = device_show_knob,
	.select = device_select,
};
