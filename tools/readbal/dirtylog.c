// SPDX-License-Identifier: GPL-2.0
/* readbal(8): dirty region log sizes and header; pure. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "dirtylog.h"
#include "util.h"

#define ERR(...) snprintf(err, errlen, __VA_ARGS__)

/* Bytes per unit of a size suffix; 512 for sectors, 0 if unknown. */
static uint64_t rb_size_unit(const char *sfx)
{
	static const struct {
		const char *name;
		uint64_t bytes;
	} units[] = {
		{ "", 512 }, { "s", 512 },
		{ "k", 1ULL << 10 }, { "kib", 1ULL << 10 },
		{ "m", 1ULL << 20 }, { "mib", 1ULL << 20 },
		{ "g", 1ULL << 30 }, { "gib", 1ULL << 30 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(sfx, units[i].name))
			return units[i].bytes;
	return 0;
}

int rb_region_size_parse(const char *arg, unsigned int min,
			 unsigned int *sectors, char *err, size_t errlen)
{
	char num[32], lo[32], hi[32];
	uint64_t v, unit, bytes;
	size_t n = 0;

	while (isdigit((unsigned char)arg[n]))
		n++;
	rb_human_bytes((uint64_t)min * 512, lo, sizeof(lo));
	rb_human_bytes((uint64_t)RB_REGION_SIZE_MAX * 512, hi, sizeof(hi));
	unit = rb_size_unit(arg + n);
	if (!n || n >= sizeof(num) || !unit) {
		ERR("--region-size '%s': give sectors (2048) or a size with a "
		    "unit (512K, 1M)", arg);
		return -1;
	}
	memcpy(num, arg, n);
	num[n] = '\0';
	if (rb_parse_u64(num, &v) || v > UINT64_MAX / unit) {
		ERR("--region-size '%s' is too large: the largest region is %s "
		    "(%u sectors)", arg, hi, RB_REGION_SIZE_MAX);
		return -1;
	}
	bytes = v * unit;
	if (bytes % 512) {
		ERR("--region-size '%s' is not a whole number of 512-byte "
		    "sectors: give a power of 2 from %s to %s, e.g. 512K or 1M",
		    arg, lo, hi);
		return -1;
	}
	v = bytes / 512;
	if (v < min) {
		ERR("--region-size '%s' is smaller than a page (%s, %u sectors), "
		    "the smallest region: give a power of 2 from %s to %s%s",
		    arg, lo, min, lo, hi, arg[n] ? "" :
		    " (a number alone counts 512-byte sectors: 1M is 2048)");
		return -1;
	}
	if (v & (v - 1)) {
		ERR("--region-size '%s' (%llu sectors) is not a power of 2: give "
		    "one from %s (%u sectors) to %s (%u sectors), e.g. 512K, "
		    "1M (the default) or 4M", arg, (unsigned long long)v, lo,
		    min, hi, RB_REGION_SIZE_MAX);
		return -1;
	}
	if (v > RB_REGION_SIZE_MAX) {
		ERR("--region-size '%s' is larger than %s (%u sectors), the "
		    "largest region: give a power of 2 from %s to %s", arg, hi,
		    RB_REGION_SIZE_MAX, lo, hi);
		return -1;
	}
	*sectors = (unsigned int)v;
	return 0;
}

uint64_t rb_log_regions(uint64_t length, unsigned int region_size)
{
	if (!region_size)
		region_size = RB_REGION_SIZE_DEFAULT;
	return length / region_size + !!(length % region_size);
}

uint64_t rb_log_bytes(uint64_t regions, unsigned int lbs)
{
	uint64_t bits = (regions + 63) / 64 * 64, bytes;

	if (lbs < 512)
		lbs = 512;
	bytes = RB_LOG_HEADER_BYTES + bits / 8;
	return (bytes + lbs - 1) / lbs * lbs;
}

static uint64_t rb_le(const unsigned char *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

int rb_log_header(const unsigned char *buf, size_t len, uint64_t *nr_regions)
{
	/* __le32 magic, __le32 version, __le64 nr_regions */
	if (len < 16 || rb_le(buf, 4) != RB_LOG_MAGIC)
		return 0;
	*nr_regions = rb_le(buf + 8, 8);
	return 1;
}

void rb_log_describe(const struct rb_log_spec *log, const char *devname,
		     char *buf, size_t len)
{
	unsigned int rs = log->region_size ? log->region_size :
			  RB_REGION_SIZE_DEFAULT;
	char size[32], where[RB_DEV_MAX + 80];
	const char *flag = "";

	rb_human_bytes((uint64_t)rs * 512, size, sizeof(size));
	if (!log->dev[0])
		snprintf(where, sizeof(where), "core (in memory)");
	else if (devname && *devname && strcmp(devname, log->dev))
		snprintf(where, sizeof(where), "disk on %s (%s)", devname,
			 log->dev);
	else
		snprintf(where, sizeof(where), "disk on %s", log->dev);
	if (log->sync == RB_LOG_SYNC_SYNC)
		flag = "; sync: every region is copied at activation";
	else if (log->sync == RB_LOG_SYNC_NOSYNC)
		flag = "; nosync: the legs are trusted at activation";
	snprintf(buf, len, "%s, regions of %s (%u sectors)%s", where, size, rs,
		 flag);
}
