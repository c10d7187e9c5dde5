// SPDX-License-Identifier: GPL-2.0
/*
 * nbdkit-seek-filter: makes the plugin below it behave, in time, like a
 * rotational disk with one head (seekmodel.h): seek time growing with
 * distance, rotational latency, a media rate falling from the outer to the
 * inner zone, read-ahead, and requests served one at a time in arrival
 * order.  The data itself comes from the plugin unchanged.
 *
 *   nbdkit -U SOCK --filter=/path/nbdkit-seek-filter.so memory size=256M \
 *       [seek-rpm=7200] [seek-outer=25] [seek-inner=12.5] (MiB/s) \
 *       [seek-settle=1000] [seek-full=15000] [seek-cmd=100] (us) \
 *       [seek-iface=550] (MiB/s) [seek-ra=256K] [seek-segment=256K] \
 *       [seek-segments=4] [seek-compensate=true] [seek-stats=FILE]
 *
 * The full stroke is the export's size.  seek-compensate (default true):
 * wake early by the measured wake-up lateness and spin the rest, so that
 * replies leave at the model's time even where sleeps wake late (TCG).
 * seek-stats=FILE: at unload, the counts of hits, streams, misses and
 * writes, the busy, seek and rotation times and the mean wake-up lateness,
 * one "key value" per line.  The export advertises itself as rotational.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-filter.h>

#include "seekmodel.h"

static struct sm_params params;
static struct sm model;
static bool model_ready;
static const char *stats_file;
static int compensate = 1;	/* seek-compensate: see sleep_until() */
static uint64_t bytes[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* -D seek.trace=1: one debug line per request (nbdkit -v shows them) */
NBDKIT_DLL_PUBLIC int seek_debug_trace;

static void seek_load(void)
{
	sm_default_params(&params);
}

static int parse_double(const char *key, const char *value, double *out,
			double scale)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || v < 0) {
		nbdkit_error("%s: not a number >= 0: %s", key, value);
		return -1;
	}
	*out = v * scale;
	return 0;
}

static int seek_config(nbdkit_next_config *next, nbdkit_backend *nxdata,
		       const char *key, const char *value)
{
	int64_t size;

	if (!strcmp(key, "seek-rpm"))
		return parse_double(key, value, &params.rpm, 1);
	if (!strcmp(key, "seek-outer"))
		return parse_double(key, value, &params.outer_mibps, 1);
	if (!strcmp(key, "seek-inner"))
		return parse_double(key, value, &params.inner_mibps, 1);
	if (!strcmp(key, "seek-settle"))
		return parse_double(key, value, &params.settle_ns, 1e3);
	if (!strcmp(key, "seek-full"))
		return parse_double(key, value, &params.full_ns, 1e3);
	if (!strcmp(key, "seek-cmd"))
		return parse_double(key, value, &params.cmd_ns, 1e3);
	if (!strcmp(key, "seek-iface"))
		return parse_double(key, value, &params.iface_mibps, 1);
	if (!strcmp(key, "seek-ra") || !strcmp(key, "seek-segment")) {
		size = nbdkit_parse_size(value);
		if (size < 0)
			return -1;
		if (key[6] == 'r')
			params.ra_sectors = (double)(size / 512);
		else
			params.seg_sectors = (double)(size / 512);
		return 0;
	}
	if (!strcmp(key, "seek-segments"))
		return nbdkit_parse_unsigned(key, value, &params.segments);
	if (!strcmp(key, "seek-compensate")) {
		compensate = nbdkit_parse_bool(value);
		return compensate < 0 ? -1 : 0;
	}
	if (!strcmp(key, "seek-stats")) {
		stats_file = value;
		return 0;
	}
	return next(nxdata, key, value);
}

static int seek_config_complete(nbdkit_next_config_complete *next,
				nbdkit_backend *nxdata)
{
	struct sm probe;

	if (sm_init(&probe, &params)) {
		nbdkit_error("seek: parameters out of range (rpm, rates > 0, "
			     "full >= settle, 1 to %d segments)",
			     SM_MAX_SEGMENTS);
		return -1;
	}
	return next(nxdata);
}

#define seek_config_help \
	"seek-rpm=RPM           Platter speed (default 7200).\n" \
	"seek-outer=MIBPS       Media rate at the outer edge (default 25).\n" \
	"seek-inner=MIBPS       Media rate at the inner edge (default 12.5).\n" \
	"seek-settle=US         Shortest seek (default 1000).\n" \
	"seek-full=US           Full-stroke seek (default 15000).\n" \
	"seek-cmd=US            Command overhead (default 100).\n" \
	"seek-iface=MIBPS       Interface rate of read-ahead hits (default 550).\n" \
	"seek-ra=SIZE           Read-ahead past a read (default 256K).\n" \
	"seek-segment=SIZE      Read-ahead segment size (default 256K).\n" \
	"seek-segments=N        Read-ahead segments (default 4).\n" \
	"seek-compensate=BOOL   Wake early by the measured wake-up lateness\n" \
	"                       and spin the rest (default true).\n" \
	"seek-stats=FILE        Write service statistics there at exit."

/* The model starts with the first connection, once the size is known. */
static int seek_prepare(nbdkit_next *next, void *handle, int readonly)
{
	int64_t size = next->get_size(next);
	int r = 0;

	(void)handle;
	(void)readonly;
	if (size < 0)
		return -1;
	pthread_mutex_lock(&lock);
	if (!model_ready) {
		params.capacity = (uint64_t)size / 512;
		if (!params.capacity || sm_init(&model, &params)) {
			nbdkit_error("seek: cannot model a disk of %" PRIi64
				     " bytes", size);
			r = -1;
		} else {
			model_ready = true;
		}
	}
	pthread_mutex_unlock(&lock);
	return r;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void nanosleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(t / 1e9);
	ts.tv_nsec = (long)(t - (double)ts.tv_sec * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/*
 * Waits until @t, the model's completion time.  A sleeping thread wakes
 * late, under TCG by milliseconds (the idle vCPU must be woken through the
 * host): that would add to every request.  So the thread sleeps until @t
 * less the lateness seen so far (a moving average), then spins through
 * the rest, at most SPIN_MAX_NS; past that it sleeps again.
 */
#define SPIN_MAX_NS	500e3
#define LATE_MAX_NS	20e6

static double late_ns;		/* moving average of the wake-up lateness */
static uint64_t late_samples;
static double late_sum_ns;
static pthread_mutex_t late_lock = PTHREAD_MUTEX_INITIALIZER;

static void sleep_until(double t)
{
	double late, target, now = now_ns();

	if (!compensate) {
		nanosleep_until(t);
		return;
	}
	pthread_mutex_lock(&late_lock);
	late = late_ns;
	pthread_mutex_unlock(&late_lock);
	while (now < t) {
		target = t - late - SPIN_MAX_NS / 2;
		if (target > now) {
			nanosleep_until(target);
			now = now_ns();
			pthread_mutex_lock(&late_lock);
			late_ns += ((now - target) - late_ns) / 16;
			if (late_ns > LATE_MAX_NS)
				late_ns = LATE_MAX_NS;
			if (late_ns < 0)
				late_ns = 0;
			late = late_ns;
			late_samples++;
			late_sum_ns += now - target;
			pthread_mutex_unlock(&late_lock);
			continue;
		}
		if (t - now > SPIN_MAX_NS) {	/* too early to spin */
			late = 0;
			continue;
		}
		while ((now = now_ns()) < t)
			;
	}
}

/* Books the head for the request: returns when it will be done. */
static double book(bool write, uint32_t count, uint64_t offset)
{
	double done, now;
	enum sm_kind kind;

	pthread_mutex_lock(&lock);
	now = now_ns();
	done = sm_submit(&model, now, write, offset / 512, (count + 511) / 512,
			 &kind);
	bytes[write] += count;
	pthread_mutex_unlock(&lock);
	if (seek_debug_trace)
		nbdkit_debug("seek: %s %" PRIu32 "@%" PRIu64 " %s, done in %.3f ms",
			     write ? "write" : "read", count, offset,
			     sm_kind_name[kind], (done - now) / 1e6);
	return done;
}

static int seek_pread(nbdkit_next *next, void *handle, void *buf,
		      uint32_t count, uint64_t offset, uint32_t flags, int *err)
{
	double done = book(false, count, offset);
	int r = next->pread(next, buf, count, offset, flags, err);

	(void)handle;
	sleep_until(done);
	return r;
}

static int seek_pwrite(nbdkit_next *next, void *handle, const void *buf,
		       uint32_t count, uint64_t offset, uint32_t flags,
		       int *err)
{
	double done = book(true, count, offset);
	int r = next->pwrite(next, buf, count, offset, flags, err);

	(void)handle;
	sleep_until(done);
	return r;
}

/* Zeroing and trimming write the media too; a flush has nothing cached. */
static int seek_zero(nbdkit_next *next, void *handle, uint32_t count,
		     uint64_t offset, uint32_t flags, int *err)
{
	double done = book(true, count, offset);
	int r = next->zero(next, count, offset, flags, err);

	(void)handle;
	sleep_until(done);
	return r;
}

static int seek_is_rotational(nbdkit_next *next, void *handle)
{
	(void)next;
	(void)handle;
	return 1;
}

static void seek_unload(void)
{
	FILE *f;
	int k;

	if (!stats_file || !model_ready)
		return;
	f = fopen(stats_file, "w");
	if (!f)
		return;
	for (k = 0; k < SM_NR_KINDS; k++)
		fprintf(f, "%s %" PRIu64 "\n", sm_kind_name[k], model.count[k]);
	fprintf(f, "read_bytes %" PRIu64 "\nwrite_bytes %" PRIu64 "\n",
		bytes[0], bytes[1]);
	fprintf(f, "busy_ms %.1f\nseek_ms %.1f\nrotation_ms %.1f\n",
		model.busy_ns / 1e6, model.seek_ns / 1e6, model.rot_ns / 1e6);
	fprintf(f, "wakeup_late_us %.1f\n",
		late_samples ? late_sum_ns / late_samples / 1e3 : 0.0);
	fclose(f);
}

static struct nbdkit_filter filter = {
	.name = "seek",
	.longname = "nbdkit one-head rotational disk timing filter",
	.load = seek_load,
	.unload = seek_unload,
	.config = seek_config,
	.config_complete = seek_config_complete,
	.config_help = seek_config_help,
	.prepare = seek_prepare,
	.is_rotational = seek_is_rotational,
	.pread = seek_pread,
	.pwrite = seek_pwrite,
	.zero = seek_zero,
};

NBDKIT_REGISTER_FILTER(filter)
