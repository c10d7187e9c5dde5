// SPDX-License-Identifier: GPL-2.0
/*
 * qd1-alternate: one reader, one read in flight, taking turns between two
 * or more block devices: a 4 KiB random direct read of the first, then of
 * the second, and so on.  Each device's reads are timed as the reader sees
 * them, and its rate is what that reader would get from it alone.
 *
 * Why not two fio jobs at once: on this TCG guest the host's slow spells
 * and the two jobs' contention for the vCPUs move each job's rate by 5 to
 * 25% (docs/policies-beyond.md, "QD1 side by side").  Turns a read long
 * put every spell on every device alike, and one reader contends with
 * nothing.  fio cannot time one job's files apart, hence this helper.
 *
 * The order of a round alternates (A B, then B A) so that neither device
 * always follows the other.  The run is cut into windows; each window's
 * rates give a ratio to the first device, and the JSON output has both the
 * totals and the windows, for a median and its spread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVS	8
#define MAX_WINDOWS	1000

struct dev {
	const char *path;
	int fd;
	uint64_t blocks;		/* of bs bytes */
	uint64_t reads, ns;		/* totals */
	uint64_t win_reads[MAX_WINDOWS], win_ns[MAX_WINDOWS];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: qd1-alternate [--seconds S] [--windows N] [--bs BYTES] [--seed N] DEV DEV...\n"
		"One reader takes turns between the devices, one direct random read\n"
		"of BS bytes (default 4096) at a time, for S seconds (default 10),\n"
		"and prints JSON: each device's reads, seconds spent in them and\n"
		"rate (reads/s), and per window (N of them, default 10) each\n"
		"device's rate.  At most %d devices.\n", MAX_DEVS);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* splitmix64: the same offsets every run for one seed */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int open_dev(struct dev *d, size_t bs)
{
	uint64_t bytes;

	d->fd = open(d->path, O_RDONLY | O_DIRECT);
	if (d->fd < 0) {
		fprintf(stderr, "qd1-alternate: %s: %s (a block device to read, as root)\n",
			d->path, strerror(errno));
		return -1;
	}
	if (ioctl(d->fd, BLKGETSIZE64, &bytes) < 0) {
		fprintf(stderr, "qd1-alternate: %s: not a block device: %s\n",
			d->path, strerror(errno));
		return -1;
	}
	d->blocks = bytes / bs;
	if (!d->blocks) {
		fprintf(stderr, "qd1-alternate: %s: smaller than one read of %zu bytes\n",
			d->path, bs);
		return -1;
	}
	return 0;
}

static int read_one(struct dev *d, void *buf, size_t bs, uint64_t *rng,
		    unsigned int win)
{
	off_t off = (off_t)(next_rand(rng) % d->blocks) * bs;
	uint64_t t0 = now_ns(), t;
	ssize_t r = pread(d->fd, buf, bs, off);

	t = now_ns() - t0;
	if (r != (ssize_t)bs) {
		fprintf(stderr, "qd1-alternate: %s: read at %lld: %s\n", d->path,
			(long long)off, r < 0 ? strerror(errno) : "short read");
		return -1;
	}
	d->reads++;
	d->ns += t;
	d->win_reads[win]++;
	d->win_ns[win] += t;
	return 0;
}

static double rate(uint64_t reads, uint64_t ns)
{
	return ns ? reads * 1e9 / ns : 0;
}

static void print_json(struct dev *devs, unsigned int n, unsigned int windows,
		       double seconds, size_t bs)
{
	unsigned int i, w;

	printf("{\n  \"seconds\": %.3f,\n  \"bs\": %zu,\n  \"devices\": [\n",
	       seconds, bs);
	for (i = 0; i < n; i++)
		printf("    {\"path\": \"%s\", \"reads\": %" PRIu64
		       ", \"read_s\": %.6f, \"iops\": %.1f}%s\n",
		       devs[i].path, devs[i].reads, devs[i].ns / 1e9,
		       rate(devs[i].reads, devs[i].ns), i + 1 < n ? "," : "");
	printf("  ],\n  \"windows\": [\n");
	for (w = 0; w < windows; w++) {
		printf("    [");
		for (i = 0; i < n; i++)
			printf("%s%.1f", i ? ", " : "",
			       rate(devs[i].win_reads[w], devs[i].win_ns[w]));
		printf("]%s\n", w + 1 < windows ? "," : "");
	}
	printf("  ]\n}\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "windows", required_argument, NULL, 'w' },
		{ "bs", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct dev devs[MAX_DEVS];
	double seconds = 10;
	unsigned long windows = 10, round, k;
	unsigned long long seed = 1;
	size_t bs = 4096;
	uint64_t rng, t0, end, span;
	unsigned int n, i, w;
	char *e;
	void *buf;
	int c;

	while ((c = getopt_long(argc, argv, "s:w:b:r:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			seconds = strtod(optarg, &e);
			if (*e || !(seconds > 0 && seconds <= 3600)) {
				fprintf(stderr, "qd1-alternate: --seconds %s: give 0 to 3600 seconds\n", optarg);
				return 2;
			}
			break;
		case 'w':
			windows = strtoul(optarg, &e, 10);
			if (*e || !windows || windows > MAX_WINDOWS) {
				fprintf(stderr, "qd1-alternate: --windows %s: give 1 to %d\n", optarg, MAX_WINDOWS);
				return 2;
			}
			break;
		case 'b':
			bs = strtoul(optarg, &e, 10);
			if (*e || !bs || bs % 512 || bs > (1 << 20)) {
				fprintf(stderr, "qd1-alternate: --bs %s: give a multiple of 512 up to 1048576\n", optarg);
				return 2;
			}
			break;
		case 'r':
			seed = strtoull(optarg, &e, 10);
			if (*e) {
				fprintf(stderr, "qd1-alternate: --seed %s: give a number\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	n = argc - optind;
	if (n < 2 || n > MAX_DEVS) {
		fprintf(stderr, "qd1-alternate: give 2 to %d devices\n", MAX_DEVS);
		usage(stderr);
		return 2;
	}
	for (i = 0; i < n; i++) {
		devs[i].path = argv[optind + i];
		if (open_dev(&devs[i], bs))
			return 1;
	}
	if (posix_memalign(&buf, 4096, bs)) {
		fprintf(stderr, "qd1-alternate: no memory for a %zu byte buffer\n", bs);
		return 1;
	}
	rng = seed;
	span = (uint64_t)(seconds * 1e9);
	t0 = now_ns();
	end = t0 + span;
	for (round = 0;; round++) {
		uint64_t t = now_ns();

		if (t >= end)
			break;
		w = (t - t0) * windows / span;
		/* A B, then B A: neither device always follows the other */
		for (k = 0; k < n; k++) {
			i = round & 1 ? n - 1 - k : k;
			if (read_one(&devs[i], buf, bs, &rng, w))
				return 1;
		}
	}
	print_json(devs, n, windows, seconds, bs);
	free(buf);
	for (i = 0; i < n; i++)
		close(devs[i].fd);
	return 0;
}
