// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the one-head disk model on a simulated clock: the calibration
 * targets of issue 6 (4 KiB random QD1 in 75-150 IOPS, 64 KiB sequential
 * within 10% of the media rate), with and without a per-request client
 * overhead like the guest's nbd path, and the model's basic laws.
 * Prints "PASS name" / "FAIL name" and "seekmodel: N passed, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seekmodel.h"

static int passed, failed;

static void check(int ok, const char *name, const char *fmt, double a,
		  double b)
{
	printf("%s %s: ", ok ? "PASS" : "FAIL", name);
	printf(fmt, a, b);
	printf("\n");
	if (ok)
		passed++;
	else
		failed++;
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* QD1 random reads of @bs bytes, @gap ns between a completion and the next
 * submission; returns IOPS */
static double random_qd1(const struct sm_params *p, uint32_t bs, double gap,
			 int n)
{
	struct sm m;
	double t = 0;
	uint64_t blocks;
	int i;

	sm_init(&m, p);
	blocks = p->capacity / (bs / 512);
	for (i = 0; i < n; i++) {
		uint64_t s = next_rand() % blocks * (bs / 512);

		t = sm_submit(&m, t, false, s, bs / 512, NULL) + gap;
	}
	return n / (t / 1e9);
}

/* QD1 sequential reads from @start; returns MiB/s */
static double seq_qd1(const struct sm_params *p, uint64_t start, uint32_t bs,
		      double gap, uint64_t bytes, bool write)
{
	struct sm m;
	double t = 1e6;	/* not at angle 0 */
	uint64_t s = start, end = start + bytes / 512;

	sm_init(&m, p);
	while (s < end) {
		t = sm_submit(&m, t, write, s, bs / 512, NULL) + gap;
		s += bs / 512;
	}
	return bytes / 1048576.0 / ((t - 1e6) / 1e9);
}

/* "seek-full=10000" etc., as the filter takes them (sizes in bytes or K) */
static int set_param(struct sm_params *p, const char *kv)
{
	const char *eq = strchr(kv, '=');
	double v;
	char *end;

	if (!eq)
		return -1;
	v = strtod(eq + 1, &end);
	if (*end == 'K' || *end == 'k')
		v *= 1024;
	else if (*end == 'M' || *end == 'm')
		v *= 1048576;
#define KEY(k) (!strncmp(kv, k "=", strlen(k) + 1))
	if (KEY("seek-rpm"))
		p->rpm = v;
	else if (KEY("seek-outer"))
		p->outer_mibps = v;
	else if (KEY("seek-inner"))
		p->inner_mibps = v;
	else if (KEY("seek-settle"))
		p->settle_ns = v * 1e3;
	else if (KEY("seek-full"))
		p->full_ns = v * 1e3;
	else if (KEY("seek-cmd"))
		p->cmd_ns = v * 1e3;
	else if (KEY("seek-iface"))
		p->iface_mibps = v;
	else if (KEY("seek-ra"))
		p->ra_sectors = v / 512;
	else if (KEY("seek-segment"))
		p->seg_sectors = v / 512;
	else if (KEY("seek-segments"))
		p->segments = (unsigned int)v;
	else
		return -1;
#undef KEY
	return 0;
}

/*
 * --model [seek-KEY=VALUE...]: the model alone, no client overhead, for
 * the benchmark report: "rand4k_qd1_iops N", "seq64k_outer_mibps N",
 * "seq64k_inner_mibps N" and the media rates they are held to.  Takes the
 * filter's command line as it is: its non-model keys are skipped.
 */
static int model_only(int argc, char **argv)
{
	struct sm_params p;
	struct sm m;
	uint64_t mib = 2048;
	int i;

	sm_default_params(&p);
	for (i = 0; i < argc; i++) {
		/* the filter's own keys, not the model's */
		if (!strncmp(argv[i], "seek-compensate=", 16) ||
		    !strncmp(argv[i], "seek-stats=", 11))
			continue;
		if (set_param(&p, argv[i])) {
			fprintf(stderr, "test-seekmodel: bad parameter %s\n", argv[i]);
			return 2;
		}
	}
	if (sm_init(&m, &p)) {
		fprintf(stderr, "test-seekmodel: parameters out of range\n");
		return 2;
	}
	printf("rand4k_qd1_iops %.1f\n", random_qd1(&p, 4096, 0, 4000));
	printf("seq64k_outer_mibps %.2f\n", seq_qd1(&p, 0, 65536, 0, 32 << 20, false));
	printf("seq64k_outer_media_mibps %.2f\n", sm_mean_mibps(&m, 0, 32 * mib));
	printf("seq64k_inner_mibps %.2f\n", seq_qd1(&p, 224 * mib, 65536, 0, 32 << 20, false));
	printf("seq64k_inner_media_mibps %.2f\n", sm_mean_mibps(&m, 224 * mib, 256 * mib));
	return 0;
}

int main(int argc, char **argv)
{
	struct sm_params p;
	struct sm m;
	double iops, bw, want, t1, t2, near, far;
	enum sm_kind k;
	uint64_t mib = 2048;	/* sectors */

	if (argc > 1 && !strcmp(argv[1], "--model"))
		return model_only(argc - 2, argv + 2);
	sm_default_params(&p);

	iops = random_qd1(&p, 4096, 0, 4000);
	check(iops >= 75 && iops <= 150, "random-4k-qd1",
	      "%.1f IOPS (want 75-150)%.0s", iops, 0);
	iops = random_qd1(&p, 4096, 1.0e6, 4000);
	check(iops >= 70, "random-4k-qd1-with-1ms-client-gap",
	      "%.1f IOPS (want >= 70)%.0s", iops, 0);

	bw = seq_qd1(&p, 0, 65536, 0, 32 << 20, false);
	want = (sm_init(&m, &p), sm_mean_mibps(&m, 0, 32 * mib));
	check(fabs(bw / want - 1) <= 0.10, "seq-64k-outer",
	      "%.2f MiB/s, media %.2f MiB/s", bw, want);
	bw = seq_qd1(&p, 0, 65536, 1.8e6, 32 << 20, false);
	check(fabs(bw / want - 1) <= 0.10, "seq-64k-outer-with-1.8ms-client-gap",
	      "%.2f MiB/s, media %.2f MiB/s", bw, want);
	bw = seq_qd1(&p, 224 * mib, 65536, 0, 32 << 20, false);
	want = sm_mean_mibps(&m, 224 * mib, 256 * mib);
	check(fabs(bw / want - 1) <= 0.10, "seq-64k-inner",
	      "%.2f MiB/s, media %.2f MiB/s", bw, want);
	/* one stream over half the disk slows down with the zones */
	bw = seq_qd1(&p, 0, 65536, 0, 128ULL << 20, false);
	want = sm_mean_mibps(&m, 0, 128 * mib);
	check(fabs(bw / want - 1) <= 0.03, "seq-64k-stream-follows-the-zones",
	      "%.2f MiB/s over 128 MiB, media %.2f MiB/s", bw, want);
	bw = seq_qd1(&p, 0, 1310720, 0, 64 << 20, true);
	want = sm_mean_mibps(&m, 0, 64 * mib);
	check(bw / want >= 0.75 && bw <= want * 1.01, "seq-1280k-write",
	      "%.2f MiB/s, media %.2f MiB/s (writes lose the rotation)",
	      bw, want);

	/* seek grows with distance: a far read costs more than a near one */
	sm_init(&m, &p);
	near = far = 0;
	for (int i = 0; i < 200; i++) {
		sm_init(&m, &p);
		sm_submit(&m, 0, true, 0, 8, NULL);
		t1 = m.busy_until;
		sm_submit(&m, t1, true, 4 * mib + (uint64_t)i * 97, 8, NULL);
		near += m.busy_until - t1;
		sm_init(&m, &p);
		sm_submit(&m, 0, true, 0, 8, NULL);
		t1 = m.busy_until;
		sm_submit(&m, t1, true, 250 * mib + (uint64_t)i * 97, 8, NULL);
		far += m.busy_until - t1;
	}
	check(far > near + 200 * 8e6, "seek-by-distance",
	      "near %.2f ms, far %.2f ms mean", near / 200e6, far / 200e6);

	/* one request at a time: two at once finish one after the other */
	sm_init(&m, &p);
	t1 = sm_submit(&m, 0, false, 100 * mib, 8, NULL);
	t2 = sm_submit(&m, 0, false, 10 * mib, 8, NULL);
	check(t2 > t1 && t2 - t1 >= p.cmd_ns, "one-at-a-time",
	      "first done %.2f ms, second %.2f ms", t1 / 1e6, t2 / 1e6);

	/* rotation: a miss waits at most one revolution after its seek */
	sm_init(&m, &p);
	sm_submit(&m, 0, false, 0, 8, NULL);
	t1 = m.busy_until;
	t2 = sm_submit(&m, t1, false, 128 * mib, 8, &k);
	check(k == SM_MISS && t2 - t1 <= p.cmd_ns + p.full_ns + 60e9 / p.rpm +
						 1e6,
	      "rotation-bounded", "%.2f ms for a %.0f ms revolution",
	      (t2 - t1) / 1e6, 60e3 / p.rpm);

	/*
	 * a client slower than the media (3 ms between 64 KiB reads, the
	 * media needs 2.6): every read after the first is found in the
	 * read-ahead, which goes on ahead of the reads (it stopped at its
	 * limit once, and the next read past it missed: a rotation each time)
	 */
	sm_init(&m, &p);
	t1 = 1e6;
	for (int i = 0; i < 512; i++)
		t1 = sm_submit(&m, t1, false, (uint64_t)i * 128, 128, NULL) + 3e6;
	check(m.count[SM_MISS] == 1, "read-ahead-follows-a-slow-client",
	      "%.0f misses in 512 reads, %.2f MiB/s", (double)m.count[SM_MISS],
	      32 / ((t1 - 1e6) / 1e9));

	/* a read just behind the head is served from the read-ahead */
	sm_init(&m, &p);
	t1 = sm_submit(&m, 0, false, 0, 128, NULL);
	t2 = sm_submit(&m, t1 + 10e6, false, 128, 128, &k);
	check(k == SM_HIT, "read-ahead-hit", "kind %.0f, %.3f ms", (double)k,
	      (t2 - t1 - 10e6) / 1e6);

	printf("seekmodel: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
