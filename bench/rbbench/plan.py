# SPDX-License-Identifier: GPL-2.0
"""What the benchmark runs: array profiles, workloads and the three modes.

Profile and workload names are rbsim's presets (tools/sim, docs/simulator.md)
so the two can be compared row by row."""

# Leg kinds in order; "hdd-seek" is the nbdkit seek emulator
# (tools/nbdkit-seek), the others tests/lib/disks.sh profiles.
PROFILES = {
    "3hdd": ["hdd", "hdd", "hdd"],
    "2hdd+ssd": ["hdd", "hdd", "ssd"],
    "ssd+nvme": ["ssd", "nvme"],
    "nvme+remote": ["nvme", "remote"],
    "2ram": ["ram", "ram"],
    "3hdd-seek": ["hdd-seek", "hdd-seek", "hdd-seek"],
    "2hdd-seek+ssd": ["hdd-seek", "hdd-seek", "ssd"],
}

# The null_blk kinds' bandwidth in the benchmark, MiB/s: about half of the
# tests/lib/disks.sh profiles, ratios kept (ssd 3x hdd, as the seeds' mixed
# arrays).  One buffered reader is one fio thread: in this TCG guest it
# copies 80-170 MiB/s depending on the host, so at the profiles' own rates
# (ssd+nvme 195, nvme+remote 160) the reader's CPU, not the legs, set the
# one-reader figures, and eight readers on ssd+nvme used both vCPUs.  At
# these rates every array's limit is near 100 MiB/s or below (issue 7:
# "disks calibrated so the guest CPU is not the bottleneck").
# Each rate passes a whole number of 128 KiB requests per null_blk tick:
# its mbps throttle sets a budget of mbps/50 MiB every 20 ms, not carried
# over, and a request that does not fit waits for the next tick.  At 12
# MiB/s one 128 KiB request fits a tick (6.2 MiB/s); at 13, two (12.5).
# So hdd 2, ssd 6, nvme 10, remote 3 requests a tick: 12.5, 37.5, 62.5 and
# 18.75 MiB/s for large reads, the rate itself for small ones.  Latency and
# queue depth stay the profiles'; ram stays uncapped (CPU-bound by design).
LEG_MBPS = {"hdd": 13, "ssd": 38, "nvme": 63, "remote": 19}

# The null_blk legs' largest request, in sectors: 128 KiB, ending on 4 KiB
# as a disk's max_sectors_kb does.  null_blk's own default is 255
# (BLK_SAFE_MAX_SECTORS), so a 4 KiB-aligned read split at a request ends
# on a runt (255 + 1), and the runts waste the ticks above: adaptive's 8
# readers on 3hdd read 33.2 to 36.4 MiB/s with 255 against md raid1's 37.4,
# and 37.3 to 37.4 with 256 (docs/policies-beyond.md, "null_blk's 255
# sectors are no disk's").  Larger requests would not fit an hdd's tick
# (532 sectors at 13 MiB/s): one that never fits is never served.
LEG_MAX_SECTORS = 256

# The hdd-seek legs' seek filter settings: the calibration of
# docs/benchmarks.md (Calibration); RB_SEEK_ARGS overrides them.
SEEK_ARGS = "seek-full=6000 seek-outer=20 seek-inner=10 seek-ra=1M seek-segment=1M"

# dm-linear goes on the fastest leg (first of equals); the device policy
# prefers it too, as the seed's "read_preferred" SSD.
KIND_RANK = {"ram": 5, "nvme": 4, "ssd": 3, "remote": 2, "hdd": 1, "hdd-seek": 0}

# workload -> (fio job file under fio/, label, seed)
WORKLOADS = {
    "seqread-1job": ("seqread-64k.fio", "64 KiB sequential read, buffered, 1 job", "000/002"),
    "seqread-8job": ("seqread-64k-8jobs.fio", "64 KiB sequential read, buffered, 8 jobs", "000/002"),
    "seqread-1280k": ("seqread-1280k.fio", "1280 KiB direct sequential read, 4 jobs x QD4", "001"),
    "seqwrite-1280k": ("seqwrite-1280k.fio", "1280 KiB direct sequential write, 4 jobs x QD4", "001"),
    "randread-qd1": ("randread-4k-qd1.fio", "4 KiB random read, QD1", "-"),
    "randread-qd32": ("randread-4k-qd32.fio", "4 KiB random read, QD32", "-"),
    "randrw-70": ("randrw-70.fio", "4 KiB random 70% read / 30% write, QD16", "-"),
}

# 4 KiB QD32 on the flash arrays was the guest CPU's figure, not the
# legs' or the policy's (issue 7: "disks calibrated so the guest CPU is not
# the bottleneck").  As one fio thread it saturated its vCPU (run P:
# dm-linear on the nvme 0.77 of the leg alone); as two, the mirrors of
# ssd+nvme used 87 to 94% of both vCPUs at 0.8 of their 25400 IOPS (about
# 87 us of guest CPU per read through dm).  So QD32 runs as two threads of
# QD16, 32 reads in flight still, and on those arrays over legs at half
# their rate (ratios kept; their own legs, made for it), where the legs,
# not the CPU, bound it.
# fio options the guest adds to a workload's job file:
GUEST_JOB_OPTIONS = {
    "randread-qd32": {"numjobs": "2", "iodepth": "16", "group_reporting": None},
}
# workload -> {profile: scale of its legs' LEG_MBPS}:
GUEST_LEG_SCALE = {
    "randread-qd32": {"ssd+nvme": 0.5, "nvme+remote": 0.5},
}


def leg_scale(workload, profile):
    """The scale of PROFILE's legs' rates under WORKLOAD (1: LEG_MBPS)."""
    return GUEST_LEG_SCALE.get(workload, {}).get(profile, 1)


def scale_groups(workloads, profile):
    """[(scale, [workload])] of WORKLOADS on PROFILE grouped by their legs'
    scale (leg_scale), the legs at their own rate first: each group runs
    on legs of its own."""
    groups = {}
    for w in workloads:
        groups.setdefault(leg_scale(w, profile), []).append(w)
    return sorted(groups.items(), key=lambda x: x[0] != 1)


def job_depth(options):
    """(numjobs, reads in flight in all) of a direct job's fio OPTIONS."""
    n = int(options.get("numjobs", "1"))
    return n, n * int(options.get("iodepth", "1"))


def leg_mbps(kind, scale=1):
    """KIND's null_blk mbps at SCALE of LEG_MBPS, at least 1; 0 for a kind
    without a cap (ram, hdd-seek)."""
    return max(1, round(LEG_MBPS[kind] * scale)) if kind in LEG_MBPS else 0

# The peers a mode runs unless it names fewer: md raid1 (a second phase, on
# the legs freed by dm), dm-mirror, dm-linear on the fastest leg.
PEERS = ["md", "mirror", "linear"]

# Random workloads are reported in IOPS, the others in MiB/s.
IOPS_WORKLOADS = ("randread-qd1", "randread-qd32", "randrw-70")

# What every set of slowdowns shares: the policies, when the leg slows (s)
# and the run's length (s).
SLOWDOWN_RUN = {"policies": ["adaptive", "hst", "md", "latency"], "at": 1.5, "runtime": 5}

MODES = {
    # make bench: every profile and workload, seeds 003 and 004, the CPU
    # overhead rounds, the slowdowns: about 80 minutes on a quiet host with
    # the QD1 and QD32 rounds, 8 s runs of 8 readers after a 4 s ramp and
    # their rounds of adaptive and md raid1 (measured: 3939 s before those
    # rounds; 3291 s with 3 s runs; 2826 s before the QD1 rounds, 2184 s
    # before the others); what the 85-minute budget leaves out is
    # reported as skipped.
    "full": {
        "profiles": list(PROFILES),
        "workloads": list(WORKLOADS),
        "runtime": 1,
        "calibrate": 2,
        "seed003": {"profile": "3hdd", "configs": {"max": ["rb", "md"], "weight": ["rb"]},
                    "modes": ["rnd rd", "rnd wr", "rnd rdwr", "seq rd", "seq wr", "seq rdwr"],
                    "jobs": [2, 4, 8], "runtime": 1},
        "seed004": {"profile": "3hdd", "runtime": 45},
        "cpu": {"rounds": 3, "runtime": 1},
        # QD32 moves by 15-20% between identical 1 s runs, QD1 on the
        # mixed arrays by as much between benchmarks (2hdd+ssd, ssd+nvme:
        # 1.19 then 0.87 of dm-linear): three interleaved rounds, the
        # median of each (about 5 minutes each).  QD32 five: the guest's
        # CPU per read rises 1.3-1.8x for up to a minute at a time, and in
        # run AF one such spell took two of three rounds of nvme+remote,
        # the one array whose QD32 the guest's CPU bounds (about 5
        # minutes more)
        "rounds": {"randread-qd1": 7, "randread-qd32": 5, "seqread-8job": 3},
        # 8 readers: the target is adaptive against md raid1, both near
        # the limit, and one 8 s run of each moves by 1 to 3% (run O:
        # 0.989 and 0.997 of md raid1, a 3-round rerun above it): two more
        # rounds of those two only (about 7 minutes).  QD1: the target is
        # adaptive against dm-linear, and the host's slow spells last
        # seconds (one took three 2 s runs in a row to 0.36-0.65):
        # six more rounds of those two, back to back, 2 s each, judged by
        # the median of the rounds' ratios (run Q's rounds, 10 s apart:
        # 0.79-1.09 of dm-linear with every read on the fastest leg; 8
        # back-to-back pairs on 2hdd+ssd and ssd+nvme: median 0.95-0.99,
        # the medians' ratio 0.93-1.02)
        "round_configs": {"seqread-8job": ["rb:adaptive", "md"],
                          "randread-qd1": ["rb:adaptive", "linear"]},
        # and for those rounds, on the mixed arrays, the two by turns: one
        # QD1 reader alternating between their devices over the same
        # fastest leg, a read at a time, each device's reads timed apart
        # (tools/qd1-alternate, driver.run_turns), then dm-linear against
        # a twin of itself: both meet the same slow spells, and no second
        # job contends for the vCPUs.  The target's ratio (Report.targets).
        # Two fio jobs at once (run S) had the twins at 0.83-1.26 on
        # ssd+nvme and nvme+remote; by turns, tests/perf/qd1-alternate.sh's
        # twins were within 1% on every mixed array
        "side_by_side": {"randread-qd1": ["rb:adaptive", "linear"]},
        # 8 readers with 1 to 3 MiB read-ahead windows deliver in bursts
        # of about 0.5 s: nine 3 s runs of one module on 3hdd read 31 to 37
        # MiB/s, three 8 s runs 35.8 to 36.2 (docs/policies-beyond.md, "8
        # readers over 8 s").  The legs alone too: a 3 s run of one
        # 12.5 MiB/s null_blk hdd read up to 13.6, which raised the limit
        # by 5% (about 10 minutes more than 3 s runs)
        "runtimes": {"seqread-8job": 8, "randread-qd1": 2},
        # issue 7: the fastest leg slowed to a tenth, 1.5 s into a 5 s run;
        # sets of profiles x workloads.  One reader on 3hdd-seek too: the
        # simulator's slowed leg (its rate a tenth) costs that reader most
        # (docs/policies-beyond.md), dm-delay here is the target's (about
        # 80 s more)
        "slowdown": [dict(SLOWDOWN_RUN, profiles=["2hdd+ssd", "nvme+remote"],
                          workloads=["randread-qd32", "seqread-8job"]),
                     dict(SLOWDOWN_RUN, profiles=["3hdd-seek"], workloads=["seqread-1job"])],
        "deadline_s": 85 * 60,
    },
    # make bench-quick: two profiles, two workloads, short seeds.
    "quick": {
        "profiles": ["2hdd+ssd", "2hdd-seek+ssd"],
        "workloads": ["seqread-1job", "randread-qd32"],
        "runtime": 1,
        "calibrate": 0,
        "seed003": {"profile": "3hdd", "configs": {"max": ["rb"]},
                    "modes": ["seq rd", "rnd wr"], "jobs": [2, 4], "runtime": 1},
        "seed004": {"profile": "3hdd", "runtime": 6},
        "cpu": {"rounds": 1, "runtime": 1},
        "deadline_s": 4 * 60 + 20,
    },
    # make check (about 90 s with the boot): one small profile with a seek
    # leg, a read, a mixed and (seed 004) a write workload, two policies and
    # one peer: the path from job files to the report, not the numbers.
    "smoke": {
        "profiles": ["hdd-seek+ssd"],
        "workloads": ["seqread-1job", "randrw-70"],
        "runtime": 1,
        "calibrate": 0,
        "policies": 2,
        "peers": ["mirror"],
        "seed003": None,
        # null_blk legs: quicker to make than another nbdkit disk
        "seed004": {"profile": "2ssd", "runtime": 2},
        "cpu": None,
        # about 50 s on an idle host; room for a loaded one
        "deadline_s": 150,
    },
    # bench/run --calibrate: the disks alone, to tune the emulation.
    "calibrate": {
        "profiles": [],
        "workloads": [],
        "runtime": 1,
        "calibrate": 5,
        "seed003": None,
        "seed004": None,
        "cpu": None,
        "deadline_s": 240,
    },
}

SEED003_RW = {"rd": "read", "wr": "write", "rdwr": "rw"}


def profile_kinds(name):
    """Kinds of a preset, or of any "[N]kind[+[N]kind]..." name."""
    if name in PROFILES:
        return list(PROFILES[name])
    kinds = []
    for part in name.split("+"):
        n = 1
        i = 0
        while i < len(part) and part[i].isdigit():
            i += 1
        if i:
            n = int(part[:i])
        kind = part[i:]
        if kind not in KIND_RANK:
            raise ValueError(f"unknown leg kind {kind!r} in profile {name!r}")
        kinds += [kind] * n
    if not 2 <= len(kinds) <= 16:
        raise ValueError(f"profile {name!r}: 2 to 16 legs")
    return kinds


def fastest_leg(kinds):
    best = 0
    for i, k in enumerate(kinds):
        if KIND_RANK[k] > KIND_RANK[kinds[best]]:
            best = i
    return best


def seed003_mode_rw(mode):
    """"rnd rd" -> randread, "seq rdwr" -> rw."""
    pat, op = mode.split()
    rw = SEED003_RW[op]
    if pat == "rnd":
        rw = "rand" + rw
    return rw
