# SPDX-License-Identifier: GPL-2.0
"""Parsing what the guest left: fio's JSON, rbhook snapshots, runs.jsonl.

Every number the report prints comes through here, so the unit tests
(tests/unit-bench) feed it captured fio output."""

import bisect
import json
import os

from . import hostload

USER_HZ = 100          # /proc/stat ticks
CPU_BOUND_PCT = 80.0   # guest CPU busy above this: the CPU, not the disks, set the pace
MIN_IOS = 4            # fewer completed I/Os in a run: no figure


def load_fio_json(text):
    """fio's JSON output; fio and its engines may print lines before it
    ("fio: connected to NBD server") or after it (warnings)."""
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON object in fio output")
    obj, _ = json.JSONDecoder().raw_decode(text[start:])
    if "jobs" not in obj:
        raise ValueError("fio output has no 'jobs'")
    return obj


def _pct(clat, p):
    """Percentile p (50, 99) of a fio clat_ns/lat_ns block, in us."""
    if not clat:
        return None
    pcts = clat.get("percentile") or {}
    for k, v in pcts.items():
        try:
            if abs(float(k) - p) < 1e-6:
                return v / 1000.0
        except ValueError:
            continue
    return None


def _dir(d):
    """One direction (read or write) of a fio job entry."""
    if not d:
        d = {}
    clat = d.get("clat_ns") or d.get("lat_ns") or {}
    return {
        "bw_kib": float(d.get("bw", 0)),           # KiB/s
        "iops": float(d.get("iops", 0.0)),
        "io_bytes": int(d.get("io_bytes", 0)),
        "ios": int(d.get("total_ios", 0)),
        "runtime_ms": int(d.get("runtime", 0)),
        "p50_us": _pct(clat, 50.0),
        "p99_us": _pct(clat, 99.0),
        "mean_us": (clat.get("mean") / 1000.0) if clat.get("mean") is not None else None,
    }


def job_metrics(job):
    """The numbers of one fio job (or group) entry."""
    r, w = _dir(job.get("read")), _dir(job.get("write"))
    main = r if r["io_bytes"] or not w["io_bytes"] else w
    return {
        "name": job.get("jobname"),
        "error": int(job.get("error", 0)),
        "read": r,
        "write": w,
        "mib_s": (r["bw_kib"] + w["bw_kib"]) / 1024.0,
        "iops": r["iops"] + w["iops"],
        "p50_us": main["p50_us"],
        "p99_us": main["p99_us"],
        "runtime_ms": int(job.get("job_runtime") or max(r["runtime_ms"], w["runtime_ms"])),
        "usr_cpu": float(job.get("usr_cpu", 0.0)),
        "sys_cpu": float(job.get("sys_cpu", 0.0)),
        "queue": queue_of(job),
    }


def fio_size(v):
    """Bytes of a fio size ("64k", "1280k", "4096"; the first of "r,w"),
    with fio's default of k = 1024; None if unreadable."""
    t = str(v).split(",")[0].strip().lower()
    units = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
             "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20}
    num = t.rstrip("kmbi")
    try:
        return int(float(num) * units[t[len(num):]])
    except (ValueError, KeyError):
        return None


def turns_metrics(t):
    """The numbers of one device's reads in a tools/qd1-alternate run
    (the driver's run_turns): one reader, one read at a time, its rate
    over the time spent in that device's reads."""
    secs = t["read_s"]
    kib = t["reads"] * t["bs"] / 1024.0
    r = {"bw_kib": kib / secs if secs else 0.0, "iops": t["iops"], "io_bytes": t["reads"] * t["bs"],
         "ios": t["reads"], "runtime_ms": int(secs * 1000), "p50_us": None, "p99_us": None,
         "mean_us": 1e6 * secs / t["reads"] if t["reads"] else None}
    return {"name": None, "error": 0, "read": r, "write": _dir(None), "mib_s": r["bw_kib"] / 1024.0,
            "iops": r["iops"], "p50_us": None, "p99_us": None, "runtime_ms": r["runtime_ms"],
            "usr_cpu": 0.0, "sys_cpu": 0.0, "queue": (1, t["bs"])}


def queue_of(job):
    """(I/Os, bytes) a fio job (or group) can have in flight: numjobs x
    iodepth x bs from its options; None if they do not say."""
    o = job.get("job options") or {}
    bs = fio_size(o.get("bs", "4k"))
    try:
        n = int(o.get("numjobs", 1)) * int(o.get("iodepth", 1))
    except ValueError:
        return None
    return (n, n * bs) if bs else None


def over_window(m, window_s):
    """M's rates over the measured window of WINDOW_S seconds.  fio
    divides a group's bytes by its longest job's runtime, and a job's
    runtime goes on past the window until its last I/O returns.  A
    buffered reader's last 64 KiB read can wait for a read-ahead window
    queued behind the other readers': 8 readers with 2 MiB windows on
    3hdd ran 8.5 s of an 8 s window, which takes 6% off the rate for
    nothing.  What returns after the window is at most the job's queue,
    so the window's rate is at least (bytes - queue) / window; M's rates
    are raised to that bound where fio's are lower, and left as fio's
    where the queue is large against the window (deep direct queues on
    slow legs)."""
    q = m.get("queue")
    if not window_s or not q:
        return m
    ms = window_s * 1000.0
    out = dict(m)
    for d in ("read", "write"):
        x = m[d]
        if x["runtime_ms"] <= ms:
            continue
        bw = (x["io_bytes"] - q[1]) / 1024.0 / window_s
        if bw > x["bw_kib"]:
            out[d] = dict(x, bw_kib=bw, iops=max(x["iops"], (x["ios"] - q[0]) / window_s),
                          runtime_ms=round(ms), fio_runtime_ms=x["runtime_ms"])
    out["mib_s"] = (out["read"]["bw_kib"] + out["write"]["bw_kib"]) / 1024.0
    out["iops"] = out["read"]["iops"] + out["write"]["iops"]
    return out


def fio_jobs(obj):
    """{jobname: metrics} of a fio JSON object; with group_reporting a
    group appears once, under its first job's name."""
    out = {}
    for job in obj.get("jobs", []):
        m = job_metrics(job)
        out[m["name"]] = m
    return out


def cpu_busy_total(fields):
    """(busy, total) ticks of a /proc/stat cpu line: idle and iowait are
    idle; user nice system irq softirq steal are busy (guest time is inside
    user already)."""
    f = list(fields)
    f += [0] * (8 - len(f))
    busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7]
    return busy, busy + f[3] + f[4]


def parse_samples(text):
    """samples.tsv of the guest sampler: one line per ~100 ms,
    "t_ns<TAB>cpu fields,...<TAB>dev:r_ios,r_sect,w_ios,w_sect ...".
    Returns a list of (t_ns, busy, total, {dev: (r_ios, r_sect, w_ios,
    w_sect)}) in time order; a torn last line is dropped."""
    out = []
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) < 2:
            continue
        try:
            t = int(parts[0])
            fields = [int(x) for x in parts[1].split(",")]
            if len(fields) < 8:
                continue
            busy, total = cpu_busy_total(fields)
            devs = {}
            for item in (parts[2].split() if len(parts) > 2 else []):
                name, _, vals = item.rpartition(":")
                v = tuple(int(x) for x in vals.split(","))
                if len(v) == 4:
                    devs[name] = v
        except ValueError:
            continue
        out.append((t, busy, total, devs))
    out.sort(key=lambda s: s[0])
    return out


def parse_bwlog(text):
    """fio bandwidth log lines "time, value, ddir, bs, offset[, prio]":
    returns [(time_ms, kib_s, ddir)]."""
    out = []
    for line in text.splitlines():
        f = [x.strip() for x in line.split(",")]
        if len(f) < 3:
            continue
        try:
            out.append((int(f[0]), int(f[1]), int(f[2])))
        except ValueError:
            continue
    return out


def job_window(bwlogs, interval_ms):
    """(start_ns, end_ns) of a job from the bandwidth logs of its clones
    (unix time stamps): the first interval starts one interval before the
    first sample.  None without samples."""
    times = [t for log in bwlogs for t, _, _ in log]
    if not times:
        return None
    return (min(times) - interval_ms) * 1_000_000, max(times) * 1_000_000


def _interp(samples, t, i):
    """busy and total ticks at time t, linear between samples i-1 and i."""
    if i <= 0:
        return samples[0][1], samples[0][2]
    if i >= len(samples):
        return samples[-1][1], samples[-1][2]
    (t0, b0, c0, _), (t1, b1, c1, _) = samples[i - 1], samples[i]
    f = (t - t0) / (t1 - t0) if t1 > t0 else 1.0
    return b0 + f * (b1 - b0), c0 + f * (c1 - c0)


def _interp_dev(samples, t, i, name):
    """A device's counters at time t, linear between samples i-1 and i."""
    i = min(max(i, 1), len(samples) - 1)
    (t0, _, _, d0), (t1, _, _, d1) = samples[i - 1], samples[i]
    v0, v1 = d0.get(name), d1.get(name)
    if v0 is None or v1 is None:
        return None
    f = min(1.0, max(0.0, (t - t0) / (t1 - t0))) if t1 > t0 else 1.0
    return tuple(a + f * (b - a) for a, b in zip(v0, v1))


def window_delta(samples, start_ns, end_ns, interpolate=False):
    """Guest CPU busy over [start, end] (interpolated) and each device's
    I/O from the last sample before start to the first after end (between
    jobs the disks are idle, so that counts the job's I/O exactly); with
    INTERPOLATE, the devices' counters too are taken at start and end
    (rates over intervals of a running job)."""
    ts = [s[0] for s in samples]
    i0 = bisect.bisect_right(ts, start_ns) - 1
    i1 = bisect.bisect_left(ts, end_ns)
    if i0 < 0 or i1 >= len(samples):
        raise ValueError("job window outside the samples")
    b0, c0 = _interp(samples, start_ns, i0 + 1)
    b1, c1 = _interp(samples, end_ns, i1)
    total = max(1e-9, c1 - c0)
    d0, d1 = samples[i0][3], samples[i1][3]
    devs = {}
    for name, v1 in d1.items():
        v0 = d0.get(name)
        if interpolate:
            v0 = _interp_dev(samples, start_ns, i0 + 1, name)
            v1 = _interp_dev(samples, end_ns, i1, name)
        if v0 is None or v1 is None:
            continue
        devs[name] = {"r_ios": v1[0] - v0[0], "r_sectors": v1[1] - v0[1],
                      "w_ios": v1[2] - v0[2], "w_sectors": v1[3] - v0[3]}
    return {
        "secs": (end_ns - start_ns) / 1e9,
        "cpu_busy_pct": 100.0 * (b1 - b0) / total,
        "cpu_busy_s": (b1 - b0) / USER_HZ,
        "dev": devs,
    }


class Results:
    """A results dir (RESULTS/bench): its meta, runs and samples."""

    def __init__(self, resdir):
        self.dir = resdir
        self.meta = self._json("meta.json", {})
        self.conf = self._json("conf.json", {})
        self.calibration = self._json("calibration.json", {})
        self.errors = self._jsonl("errors.jsonl")
        self.seekstats = self._jsonl("seekstats.jsonl")
        try:
            with open(os.path.join(resdir, "hostload.tsv")) as f:
                self.hostload_text = f.read()
        except OSError:
            self.hostload_text = ""
        self.hostload = hostload.summary(self.hostload_text)
        try:
            with open(os.path.join(resdir, "samples.tsv")) as f:
                self.samples = parse_samples(f.read())
        except OSError:
            self.samples = []
        self.interval_ms = self.meta.get("log_ms", 100)
        self._fio = {}
        self.fiostats = {x["fio"]: x for x in self._jsonl("fiostats.jsonl")}
        self.runs = [self._join(r) for r in self._jsonl("runs.jsonl")]

    def _json(self, name, default):
        try:
            with open(os.path.join(self.dir, name)) as f:
                return json.load(f)
        except (OSError, ValueError):
            return default

    def _jsonl(self, name):
        out = []
        try:
            with open(os.path.join(self.dir, name)) as f:
                for line in f:
                    if line.strip():
                        out.append(json.loads(line))
        except OSError:
            pass
        return out

    def hostload_during(self, runs):
        """The host's load over the span of these runs, or None."""
        ts = [(r["t0"], r["t1"]) for r in runs if "t0" in r]
        if not ts:
            return None
        return hostload.summary(self.hostload_text, min(t for t, _ in ts), max(t for _, t in ts))

    def bwlogs(self, prefix):
        d = os.path.join(self.dir, "bwlog")
        logs = []
        try:
            names = os.listdir(d)
        except OSError:
            return logs
        for n in sorted(names):
            if n.startswith(prefix + "_bw.") and n.endswith(".log"):
                with open(os.path.join(d, n)) as f:
                    logs.append(parse_bwlog(f.read()))
        return logs

    def _legs_read_ratio(self, win, legs, bw_kib):
        """The legs' read rate over the job's window (counters interpolated
        to its ends) over fio's read rate: above 1, read-ahead dropped
        before use or read twice; below 1, page cache hits.  Rates, not
        bytes: the window and fio's runtime differ by up to an interval.
        None without reads."""
        if not bw_kib or not legs:
            return None
        try:
            d = window_delta(self.samples, *win, interpolate=True)
        except ValueError:
            return None
        read = 512 * sum(d["dev"].get(k, {}).get("r_sectors", 0) for k in legs)
        return read / d["secs"] / (bw_kib * 1024) if d["secs"] > 0 else None

    def _join(self, rec):
        rec = dict(rec)
        if rec.get("skipped"):
            rec["problem"] = "skipped: " + rec["skipped"]
            return rec
        if "turns" in rec:
            rec["m"] = turns_metrics(rec["turns"])
            return rec
        fname = rec.get("fio")
        if fname not in self._fio:
            try:
                with open(os.path.join(self.dir, "fio", fname)) as f:
                    self._fio[fname] = fio_jobs(load_fio_json(f.read()))
            except (OSError, ValueError) as e:
                self._fio[fname] = e
        jobs = self._fio[fname]
        if isinstance(jobs, Exception):
            rec["problem"] = f"fio output unreadable: {jobs}"
            return rec
        m = jobs.get(rec["tag"])
        if m is None:
            rec["problem"] = "not in fio output"
            return rec
        if rec.get("duration_s") is not None:
            m = over_window(m, rec["duration_s"] - (rec.get("ramp_s") or 0))
        rec["m"] = m
        ios = m["read"]["ios"] + m["write"]["ios"]
        if m["error"]:
            rec["problem"] = f"fio error {m['error']}"
        elif ios < MIN_IOS:
            # slow legs at a deep queue of 1280 KiB I/Os can finish next to
            # nothing within a short run: no figure rather than a wrong one
            rec["problem"] = f"only {ios} I/Os completed in the run"
        logs = self.bwlogs(rec.get("bwlog", rec["tag"]))
        rec["bw_series"] = logs
        win = job_window(logs, self.interval_ms)
        if win is None or not self.samples:
            rec.setdefault("problem", "no job window (no bandwidth log or samples)")
            return rec
        try:
            d = window_delta(self.samples, *win)
        except ValueError as e:
            rec.setdefault("problem", str(e))
            return rec
        rec["window"] = d
        rec["t0"], rec["t1"] = win[0] / 1e9, win[1] / 1e9     # unix seconds
        rec["cpu_busy_pct"] = d["cpu_busy_pct"]
        rec["cpu_bound"] = d["cpu_busy_pct"] > CPU_BOUND_PCT
        legs = rec.get("legs") or []
        rs = [d["dev"].get(k, {}).get("r_sectors", 0) for k in legs]
        tot = sum(rs)
        rec["leg_share"] = [100.0 * x / tot for x in rs] if tot else None
        rec["legs_read_ratio"] = self._legs_read_ratio(win, legs, m["read"]["bw_kib"])
        ios = m["read"]["ios"] + m["write"]["ios"]
        # CPU time per I/O over the measured window: fio's I/Os (after ramp)
        rec["cpu_us_per_io"] = 1e6 * d["cpu_busy_s"] / ios if ios else None
        rec["legs_w_sectors"] = sum(d["dev"].get(k, {}).get("w_sectors", 0) for k in legs)
        top = d["dev"].get(rec.get("top"))
        rec["top_w_sectors"] = top["w_sectors"] if top else None
        fs = self.fiostats.get(fname)
        if fs:
            # counted around the whole fio process: exact when it ran one job
            def w(dev):
                b, a = fs["before"].get(dev), fs["after"].get(dev)
                return a[3] - b[3] if a and b else None
            rec["run_legs_w_sectors"] = sum(w(k) or 0 for k in legs)
            rec["run_top_w_sectors"] = w(rec.get("top"))
        return rec


def value(run, unit):
    """The run's figure in UNIT: "MiB/s" or "IOPS"."""
    m = run.get("m")
    if not m or run.get("problem"):
        return None
    return m["iops"] if unit == "IOPS" else m["mib_s"]


def limit(leg_runs, io, unit):
    """The physical limit of a mirror from its legs measured alone: reads
    add up (each leg serves its own), writes go to every leg (the slowest
    sets the pace), a mix gets the sum of the reads plus the slowest
    writes.  None if a leg's figure is missing."""
    if not leg_runs or any(r.get("problem") or not r.get("m") for r in leg_runs):
        return None
    if unit == "IOPS":
        rd = [r["m"]["read"]["iops"] for r in leg_runs]
        wr = [r["m"]["write"]["iops"] for r in leg_runs]
    else:
        rd = [r["m"]["read"]["bw_kib"] / 1024.0 for r in leg_runs]
        wr = [r["m"]["write"]["bw_kib"] / 1024.0 for r in leg_runs]
    if io == "read":
        return sum(rd)
    if io == "write":
        return min(wr)
    return sum(rd) + min(wr)
