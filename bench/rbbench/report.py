# SPDX-License-Identifier: GPL-2.0
"""The benchmark report: docs/benchmarks.md and its gnuplot PNGs, from a
results dir (bench/run).  Tables follow the seeds' layouts where a seed
has one (000/002: fio's READ lines; 001: per-configuration rows against a
base; 003: the IO-controller matrix and its per-job table; 004: throughput
per interval next to the disks' writes)."""

import argparse
import bisect
import datetime
import math
import os
import re
import shutil
import statistics
import subprocess

from . import hostload, plan, results

READ_WORKLOADS = ("seqread-1job", "seqread-8job", "seqread-1280k", "randread-qd1",
                  "randread-qd32", "randrw-70")
PEERS = ("md", "mirror", "linear")
# QD32 where every policy on all legs reads the legs' limit: a policy
# cannot pass another there, and one back-to-back measurement differs
# from its twin by up to 1% (dm-linear against its twin, QD1 by turns,
# run U: medians 0.991-1.005), so a ratio under 1 by no more than that
# is a tie, not a loss (issue 7: "within a small tolerance")
TIE_AT_LIMIT = (0.97, 0.01)
# ... and by up to TIE_ROUNDS_WITHIN where the rounds do not all say it
# is below: on 3hdd one 3 s round's ratio of adaptive to zfs, the same
# module, varies by 4% (standard deviation over 12 rounds, fb19704), so a
# median of 5 rounds carries about 2% of error and the 1% line alone
# calls two equal policies a loss about a third of the time.  Equal
# policies are below in every round 1 time in 2^rounds (5 rounds: 1 in
# 32); a policy that is below in every round is not called a tie.
TIE_ROUNDS_WITHIN = 0.03
PEER_LABEL = {"md": "md raid1", "mirror": "dm-mirror", "linear": "dm-linear (fastest leg)"}
# gnuplot repeats its 8 default colours: 16 distinct ones, so that nine
# policies and three peers never share one in a plot.
COLORS = "".join(f"set linetype {i + 1} lc rgb '{c}'\n" for i, c in enumerate((
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#000000", "#f5c518", "#aec7e8", "#98df8a", "#ff9896", "#c5b0d5")))


# ------------------------------------------------------------------ helpers
def num(v, unit=""):
    """A figure with three significant digits or so; "-" for None."""
    if v is None:
        return "-"
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return "-"
    a = abs(v)
    if a >= 100:
        s = f"{v:.0f}"
    elif a >= 10:
        s = f"{v:.1f}"
    else:
        s = f"{v:.2f}"
    return s + unit


def ratio(v):
    return "-" if v is None else f"{v:.2f}"


def ratio3(v):
    """A ratio judged against a threshold: three decimals, so that 0.948
    is not shown as the 0.95 it misses."""
    return "-" if v is None else f"{v:.3f}"


def spread(vs):
    """"lowest-highest" of ratios."""
    return f"{min(vs):.2f}-{max(vs):.2f}"


def md_table(header, rows, align=None):
    """A markdown table; align: string of 'l'/'r' per column."""
    align = align or "l" + "r" * (len(header) - 1)
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return out


def unit_of(workload):
    return "IOPS" if workload in plan.IOPS_WORKLOADS else "MiB/s"


def config_label(c):
    if c.startswith("rb:"):
        return c[3:]
    if c.startswith("leg:"):
        return "leg " + c[4:] + " alone"
    return PEER_LABEL.get(c, c)


def order_configs(configs, policies):
    """readbal policies in the module's order, then md, dm-mirror,
    dm-linear; legs alone first."""
    legs = sorted(c for c in configs if c.startswith("leg:"))
    rb = [f"rb:{p}" for p in policies if f"rb:{p}" in configs]
    rb += sorted(c for c in configs if c.startswith("rb:") and c not in rb)
    peers = [p for p in PEERS if p in configs]
    return legs + rb + peers


# ------------------------------------------------------------------- matrix
def median_run(runs, unit):
    """Of one configuration's rounds, the run of median value (the lower
    of the two middle ones), so its shares and latencies come with it;
    rounds not measured count below every measured one."""
    def v(r):
        x = results.value(r, unit)
        return -1 if x is None else x
    return sorted(runs, key=v)[(len(runs) - 1) // 2]


class Matrix:
    """The profile x workload x configuration runs with their limits."""

    def __init__(self, res):
        self.res = res
        self.policies = res.meta.get("policies") or []
        self.runs = {}
        # key -> every round's run; noisy workloads run in rounds
        self.rounds = {}
        self.profiles, self.workloads = [], []
        for r in res.runs:
            if r.get("section") != "matrix":
                continue
            c = r["config"]
            # legs alone run in both phases: phase 2's (md's limit) as leg:N@2
            if c.startswith("leg:") and r.get("phase") == 2:
                c += "@2"
            self.rounds.setdefault((r["profile"], r["workload"], c), []).append(r)
            if r["profile"] not in self.profiles:
                self.profiles.append(r["profile"])
            if r["workload"] not in self.workloads:
                self.workloads.append(r["workload"])
        for key, rs in self.rounds.items():
            self.runs[key] = median_run(rs, unit_of(key[1]))
        self.workloads.sort(key=lambda w: list(plan.WORKLOADS).index(w) if w in plan.WORKLOADS else 99)
        # Each phase measures the legs alone; a run the host disturbed only
        # reads low, so the limit takes each leg's better run of the two.
        self.limits, self.phase_limits = {}, {}
        for p in self.profiles:
            for w in self.workloads:
                by_leg = {}
                for phase in (1, 2):
                    legs = sorted((r for (pp, ww, c), r in self.runs.items()
                                   if pp == p and ww == w and c.startswith("leg:") and r.get("phase") == phase),
                                  key=lambda r: r["config"])
                    self.phase_limits[(p, w, phase)] = (results.limit(legs, legs[0]["io"], unit_of(w))
                                                        if legs else None)
                    for r in legs:
                        by_leg.setdefault(r["config"], []).append(r)
                best = [max(rs, key=lambda r: results.value(r, unit_of(w)) or -1)
                        for _, rs in sorted(by_leg.items())]
                lim = results.limit(best, best[0]["io"], unit_of(w)) if best else None
                self.limits[(p, w, 1)] = self.limits[(p, w, 2)] = lim

    def get(self, p, w, c):
        return self.runs.get((p, w, c))

    def configs(self, p=None, w=None, legs=False):
        cs = {c for (pp, ww, c) in self.runs if (p is None or pp == p) and (w is None or ww == w)}
        cs = {c for c in cs if legs or not c.startswith("leg:")}
        cs = {c for c in cs if not c.endswith("@2")}
        return order_configs(cs, self.policies)

    def limit(self, p, w, run):
        return self.limits.get((p, w, run.get("phase", 1))) if run else None

    def value(self, p, w, c):
        r = self.get(p, w, c)
        return results.value(r, unit_of(w)) if r else None

    def share(self, p, w, c):
        r = self.get(p, w, c)
        v = self.value(p, w, c)
        lim = self.limit(p, w, r)
        if v is None or not lim:
            return None
        return v / lim

    def mean_share(self, p, c, workloads=READ_WORKLOADS):
        s = [self.share(p, w, c) for w in workloads if w in self.workloads]
        s = [x for x in s if x is not None]
        return (sum(s) / len(s), len(s)) if s else (None, 0)


def kendall_tau(pairs):
    """Kendall's tau-b of (x, y) pairs; None with fewer than 3 or no order."""
    n = len(pairs)
    if n < 3:
        return None
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = pairs[i][0] - pairs[j][0]
            dy = pairs[i][1] - pairs[j][1]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif dx * dy > 0:
                conc += 1
            else:
                disc += 1
    den = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / den if den else None


def model_only(seek_args):
    """The seek model's own figures for these parameters, from the host
    build of tools/nbdkit-seek/test-seekmodel; {} if it is not built."""
    exe = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "nbdkit-seek", "test-seekmodel")
    if not os.access(exe, os.X_OK):
        return {}
    p = subprocess.run([exe, "--model"] + seek_args.split(), capture_output=True, text=True)
    out = {}
    for line in p.stdout.splitlines():
        k, _, v = line.partition(" ")
        try:
            out[k] = float(v)
        except ValueError:
            pass
    return out


# ------------------------------------------------------------------ report
class Report:
    def __init__(self, res, plots_dir, md_path, cal=None):
        self.res = res
        self.cal = cal          # a separate calibration run (Results), or None
        self.m = Matrix(res)
        self.plots_dir = plots_dir
        self.md_path = md_path
        self.rel = os.path.relpath(plots_dir, os.path.dirname(os.path.abspath(md_path)))
        self.plots = []
        self.lines = []

    def out(self, *lines):
        self.lines.extend(lines)

    # --------------------------------------------------------------- header
    def ramps(self):
        """", measured after fio's ramp_time of R s: W..." for the matrix's
        workloads that have one (fio counts nothing before)."""
        by = {}
        for r in self.res.runs:
            if r.get("section") == "matrix" and r.get("ramp_s"):
                by.setdefault(r["ramp_s"], set()).add(r["workload"])
        if not by:
            return ""
        return ", measured after a ramp (fio `ramp_time`): " + "; ".join(
            f"{s:g} s for {', '.join(sorted(ws))}" for s, ws in sorted(by.items()))

    def runtimes_note(self):
        """" (W: N s)" for workloads whose runs are longer than the
        header's run time."""
        rt = self.res.meta.get("runtime")
        by = {}
        for r in self.res.runs:
            if r.get("section") == "matrix" and r.get("duration_s") is not None:
                by.setdefault(r["workload"], set()).add(r["duration_s"] - (r.get("ramp_s") or 0))
        longer = {w: max(d) for w, d in by.items() if rt is not None and max(d) > float(rt) + 1e-6}
        if not longer:
            return ""
        return " (" + ", ".join(f"{w}: {d:g} s" for w, d in sorted(longer.items())) + ")"

    def rounds_note(self):
        """", W: median of N interleaved rounds" for workloads run in
        rounds."""
        by, some = {}, {}
        for (_, w, c), rs in self.m.rounds.items():
            if len(rs) > 1:
                by[w] = max(by.get(w, 0), len(rs))
                some.setdefault(w, set()).add(c)
        for (_, w, c), rs in self.m.rounds.items():
            if w in by and len(rs) == 1:
                some[w].add(None)      # not every configuration had rounds
        return "".join(f"; {w}: the median of {n} interleaved rounds"
                       + (f" ({', '.join(config_label(c) for c in sorted(some[w] - {None}))} only)"
                          if None in some[w] else "")
                       for w, n in sorted(by.items()))

    def header(self):
        meta, conf = self.res.meta, self.res.conf
        host = meta.get("host") or conf.get("host") or {}
        started = meta.get("started")
        when = datetime.datetime.utcfromtimestamp(started).strftime("%Y-%m-%d %H:%M UTC") if started else "?"
        self.out("# dm-readbal benchmarks", "",
                 "Generated by `bench/report` from the results of "
                 f"`{meta.get('command') or conf.get('command', 'bench/run')}` "
                 f"(`make bench` runs `bench/run --full`), {when}. Do not edit: rerun.", "")
        rows = [
            ("host", f"{host.get('cpu', '?')}, {host.get('cpus', '?')} cores, Linux {host.get('kernel', '?')}; "
                     f"load average {' '.join(host.get('load', []))} at the start (other QEMU guests share it)"),
            ("guest", f"Debian kernel {meta.get('kernel', '?')} ({meta.get('kernel_version', '')}) under "
                      f"{host.get('qemu', 'QEMU')}, TCG, {meta.get('guest_cpus', '?')} vCPUs "
                      f"({meta.get('guest_cpu', '?')}), {int(meta.get('guest_mem_kb', 0)) // 1024} MiB"),
            ("host load", "during the run (bench/run samples it every 5 s): "
                          + hostload.describe(self.res.hostload)),
            ("fio", meta.get("fio", "?")),
            ("runs", f"{meta.get('runtime', '?')} s each{self.runtimes_note()}, time-based{self.ramps()}"
                     f"{self.rounds_note()}; "
                     f"mode {meta.get('mode', '?')}; "
                     f"guest ran {num(meta.get('guest_seconds'))} s; status: {meta.get('status', 'unfinished')}"),
            ("policies", " ".join(meta.get("policies") or []) or "?"),
            ("seek emulator", f"tools/nbdkit-seek with `{meta.get('seek_args') or 'defaults'}`"),
        ]
        self.out(*md_table(["", ""], rows, "ll"), "")
        by = self.load_by_section()
        if by:
            rest = all(s.get("rest_cores") is not None for _, s in by)
            self.out(("All the host but this guest" if rest else "Other QEMU guests") +
                     "' CPU while each part of the run ran, in cores of the host's 2 (`*`: disturbed, "
                     f"above {hostload.DISTURBED_REST_CORES if rest else hostload.DISTURBED_CORES}): "
                     + ", ".join(f"{label} {hostload.load_cores(s):.2f}" + ("*" if hostload.disturbed(s) else "")
                                 for label, s in by) + ".", "")
        self.out(
            "Absolute numbers on an emulated guest mean little: read the **share of the limit**. "
            "The *physical limit* of an array is measured in the same run as the mirrors, "
            "minutes apart at most: each leg runs the workload alone, one after the other, "
            "reads add up (sum of the legs), "
            "writes go to every leg (the slowest leg), a read-write mix gets the sum of the legs' "
            "reads plus the slowest leg's writes (rbsim's definition). md raid1 cannot open legs that "
            "dm holds, so it runs in a second phase that measures the legs alone again; the limit "
            "takes each leg's better run of the two (a run the host disturbed only reads low).",
            "",
            "*CPU %* is the guest's CPU busy over the job's window (/proc/stat, both vCPUs, sampled "
            "every 100 ms); a `*` marks runs above 80%: CPU-bound, the guest rather than the disks "
            "set the figure. The host is shared, so guest CPU time includes time the vCPU thread "
            "waited for the host. *legs %* is each leg's share of the read sectors "
            "(/sys/block/*/stat over the same window); *read / got* is what the legs read for "
            "each byte fio read over that window: above 1, read-ahead dropped before use or "
            "read twice; below 1, page cache hits. Profiles and workloads carry rbsim's preset "
            "names (docs/simulator.md); the CSV at the end has rbsim's `--csv` columns.", "")
        if self.res.errors:
            self.out("Problems during the run:", "")
            for e in self.res.errors[:20]:
                self.out(f"- {e.get('step')}: {str(e.get('error')).strip()[:300]}")
            self.out("")

    # ------------------------------------------------------------- headline
    def headline(self):
        m = self.m
        if not m.profiles:
            return
        self.out("## Headline: share of the physical limit", "",
                 "Mean over the read workloads run (" +
                 ", ".join(w for w in READ_WORKLOADS if w in m.workloads) +
                 ") of each configuration's share of its array's limit. 1.00 means the mirror "
                 "reads as fast as all its legs together; a single leg of an n-leg array of equals "
                 "is 1/n. The first rows are readbal's policies (`md` is readbal's md policy), "
                 "then the peers: md raid1, dm-mirror, dm-linear on the fastest leg.", "")
        header = ["policy"] + m.profiles
        rows = []
        for c in m.configs():
            row = [config_label(c)]
            for p in m.profiles:
                v, _ = m.mean_share(p, c)
                row.append(ratio(v))
            rows.append(row)
        self.out(*md_table(header, rows), "")
        best = []
        for p in m.profiles:
            rb = [(m.mean_share(p, c)[0], c) for c in m.configs(p=p) if c.startswith("rb:")]
            rb = [x for x in rb if x[0] is not None]
            if rb:
                v, c = max(rb)
                md_v = m.mean_share(p, "md")[0]
                best.append(f"{p}: {config_label(c)} {ratio(v)}"
                            + (f" (md raid1 {ratio(md_v)})" if md_v is not None else ""))
        if best:
            self.out("Best readbal policy per profile: " + "; ".join(best) + ".", "")
        self.plot_headline()
        if "seqread-1job" in m.workloads:
            self.out("One buffered sequential reader (seeds 000/002), share of the limit:", "")
            rows = [[config_label(c)] + [ratio(m.share(p, "seqread-1job", c)) for p in m.profiles]
                    for c in m.configs(w="seqread-1job")]
            self.out(*md_table(header, rows), "")

    def load_by_section(self):
        """[(label, host load summary)] for each part of the run."""
        parts = []
        runs = self.res.runs
        parts.append(("calibration", [r for r in runs if r.get("section") == "calibration"]))
        for p in self.m.profiles:
            parts.append((p, [r for r in runs if r.get("section") == "matrix" and r.get("profile") == p]))
        for sec, label in (("cpu", "CPU overhead"), ("seed004", "seed 004"), ("seed003", "seed 003")):
            parts.append((label, [r for r in runs if r.get("section") == sec]))
        out = []
        for label, rs in parts:
            s = self.res.hostload_during(rs)
            if s:
                out.append((label, s))
        return out

    # ------------------------------------------------------------- findings
    def _legs_on(self, p, w, c, kinds_wanted):
        """Percent of a run's read sectors that went to legs of those kinds."""
        r = self.m.get(p, w, c)
        share = (r or {}).get("leg_share")
        if not share:
            return None
        kinds = plan.profile_kinds(p)
        return sum(x for x, k in zip(share, kinds) if k in kinds_wanted)

    def _leg_share(self, p, w, c):
        return (self.m.get(p, w, c) or {}).get("leg_share")

    def _fig(self, p, w, c):
        """"20.8 MiB/s (0.33 of the limit)", a * if CPU-bound; "-" if not measured."""
        v = self.m.value(p, w, c)
        if v is None:
            return "-"
        cpu = "*" if (self.m.get(p, w, c) or {}).get("cpu_bound") else ""
        return f"{num(v)} {unit_of(w)}{cpu} ({ratio(self.m.share(p, w, c))} of the limit)"

    @staticmethod
    def _pct(v):
        return "-" if v is None else f"{v:.0f}%"

    def _x(self, a, b):
        return f"{a / b:.2f}x" if a is not None and b else "-"

    def findings(self):
        """What each seed showed and what this run shows, in ratios of the
        same run: the section a reader wants first."""
        m = self.m
        out = []
        w1, w8 = "seqread-1job", "seqread-8job"
        mixed = "2hdd+ssd" if "2hdd+ssd" in m.profiles else None
        # seeds 000/002: pid against latency/device on a mixed array
        if mixed and m.get(mixed, w1, "rb:pid"):
            pid, lat, dev = (m.value(mixed, w1, c) for c in ("rb:pid", "rb:latency", "rb:device"))
            slow = self._legs_on(mixed, w1, "rb:pid", ("hdd",))
            where = ("an hdd" if slow and slow > 50 else "the ssd") if slow is not None else "?"
            got = lat and pid and lat / pid >= 1.5
            out.append(
                f"- **Seeds 000/002, one buffered reader on 2 hdd + ssd** (btrfs: pid 219 MiB/s, "
                f"latency and device 517, 2.4x, because pid leaves the reader on an hdd): pid read "
                f"{self._fig(mixed, w1, 'rb:pid')} with {self._pct(slow)} of its reads on the hdds "
                f"(the reader's pid picked {where}), latency {self._fig(mixed, w1, 'rb:latency')}, "
                f"device {self._fig(mixed, w1, 'rb:device')}: latency/pid {self._x(lat, pid)}, "
                f"device/pid {self._x(dev, pid)}. "
                + ("**Reproduced.**" if got else
                   "Not reproduced in this run" + (" (pid's reader landed on the ssd: pid % 3 is luck, "
                                                   "as in btrfs)." if where == "the ssd" else "."))
            )
        if mixed and m.get(mixed, w8, "rb:pid"):
            slow = self._legs_on(mixed, w8, "rb:pid", ("hdd",))
            lat_slow = self._legs_on(mixed, w8, "rb:latency", ("hdd",))
            pid8, lat8 = m.value(mixed, w8, "rb:pid"), m.value(mixed, w8, "rb:latency")
            out.append(
                f"- **Seeds 000/002, eight buffered readers on 2 hdd + ssd** (btrfs: pid 1843 MiB/s, "
                f"latency 4213): pid spread the readers by pid, leaving {self._pct(slow)} of the reads on "
                f"the two slow hdds; latency left {self._pct(lat_slow)} "
                f"there. pid {self._fig(mixed, w8, 'rb:pid')}, latency {self._fig(mixed, w8, 'rb:latency')}, "
                f"latency/pid {self._x(lat8, pid8)}. "
                + ("**The routing is reproduced** (pid leaves a large part of the reads on the slow legs, "
                   "latency fewer)" if slow is not None and slow >= 33 and (lat_slow or 0) < slow
                   else "The routing is not reproduced in this run")
                + ("; the throughput is not: here the legs together outrun the ssd alone, so spreading "
                   "wins (the seed's 4213 MiB/s was page cache, fio/seqread-64k-8jobs.fio)."
                   if lat8 and pid8 and lat8 < pid8 else ".")
            )
        if "3hdd" in m.profiles and m.get("3hdd", w1, "rb:pid"):
            pid, lat, rr = (m.value("3hdd", w1, c) for c in ("rb:pid", "rb:latency", "rb:roundrobin"))
            same = pid and lat and abs(lat / pid - 1) <= 0.2
            out.append(
                f"- **Seeds 000/002 on 3 hdd** (btrfs: pid 215, latency 219 MiB/s, equal; seed 002: "
                f"roundrobin better on all-hdd arrays): latency/pid {self._x(lat, pid)} "
                + ("(**reproduced**: equal within 20%)" if same else "(not equal in this run)")
                + f"; roundrobin/pid {self._x(rr, pid)} for one reader, "
                f"{self._x(m.value('3hdd', w8, 'rb:roundrobin'), m.value('3hdd', w8, 'rb:pid'))} for eight "
                + ("(seed 002's gain **not reproduced**: roundrobin sent "
                   f"{self._pct(max(self._leg_share('3hdd', w1, 'rb:roundrobin') or [0]))} of the one "
                   "reader's stream to one leg)"
                   if rr and pid and rr / pid < 1.2 else "(seed 002's gain **reproduced**)") + ". "
                "One sequential reader gains from spreading only with a policy that splits a stream "
                "across legs (round-robin, hst): "
                f"round-robin/pid {self._x(m.value('3hdd', w1, 'rb:round-robin'), pid)}, "
                f"hst/pid {self._x(m.value('3hdd', w1, 'rb:hst'), pid)}."
            )
        # locality on the seek emulator
        seek = "3hdd-seek" if "3hdd-seek" in m.profiles else None
        rows = []
        if seek and m.get(seek, w8, "rb:pid"):
            rows = [(m.share(seek, w8, c), c) for c in m.configs(p=seek, w=w8)]
            rows = sorted(((v, c) for v, c in rows if v is not None), reverse=True)
        if len(rows) >= 3:
            out.append(
                "- **Locality on the seek emulator** (3 hdd-seek, eight sequential readers; the reason "
                "for roundrobin's non-local penalty, md's head position, ZFS's seek increments): "
                + ", ".join(f"{config_label(c)} {ratio(v)}" for v, c in rows)
                + " of the limit (above 1: alone, a leg serves all eight streams and its head seeks "
                "between them; a mirror that keeps each stream on one leg seeks less). On null_blk "
                "hdds (3hdd, no seeks) the same policies: "
                + ", ".join(f"{config_label(c)} {ratio(m.share('3hdd', w8, c))}"
                            for _, c in rows[:3] if m.get("3hdd", w8, c)) + "."
            )
        # seed 001: large bios against md raid1 and dm-mirror
        s1 = self.seed001_rows()
        if s1:
            def xs(col):
                return [(float(r[col].rstrip("x")), r[0]) for r in s1 if r[col].endswith("x")]

            parts = []
            for col, what in ((3, "reads (best policy)"), (1, "writes")):
                v = xs(col)
                if v:
                    ok = sum(1 for x, _ in v if x >= 0.97)
                    low = min(v)
                    parts.append(f"{what} within -3% of md raid1 or better on {ok} of {len(v)} profiles"
                                 + (f" (lowest {low[0]:.2f}x on {low[1]})" if ok < len(v) else ""))
            verdict = ("**Reproduced**" if parts and all("lowest" not in x for x in parts)
                       else "**Partly reproduced**")
            out.append("- **Seed 001, 1280 KiB direct bios** (the seed: the patched kernel within -1% "
                       "to +3.5% of the old one, no regression): " + "; ".join(parts) + f". {verdict}; "
                       "the table after this list has every profile.")
        # seed 003
        s3 = [r for r in self.res.runs if r.get("section") == "seed003" and r.get("m")]
        if s3:
            cells = {}
            for r in s3:
                cells.setdefault((r["variant"], r["config"], r["mode"], r["jobs"]), []).append(r)
            summ = []
            for variant in ("max", "weight"):
                for config in sorted({k[1] for k in cells if k[0] == variant}):
                    ks = [k for k in cells if k[0] == variant and k[1] == config]
                    if variant == "max":
                        ok = sum(1 for k in ks if self._within(cells[k]))
                        who = f"readbal ({config[3:]})" if config.startswith("rb:") else config_label(config)
                        summ.append(f"io.max through {who}: every group within its limit in {ok} of "
                                    f"{len(ks)} cells")
                    else:
                        ok = sum(1 for k in ks if self._ordered(
                            [results.value(r, "MiB/s") or 0 for r in sorted(cells[k], key=lambda r: r["member"])]))
                        summ.append(f"io.weight on the legs under readbal ({config[3:]}): throughput in "
                                    f"weight order in {ok} of {len(ks)} cells")
            held = [x for x in summ if x.startswith("io.max through readbal")]
            rb_ok = held and all(re.search(r"in (\d+) of \1 cells", x) for x in held)
            out.append("- **Seed 003, per-group control through the mirror** (the seed: each group's "
                       "throughput grows with its share): " + "; ".join(summ) + ". "
                       + ("**Reproduced for io.max**: the limits set on the mirror hold through readbal"
                          if rb_ok else "**io.max does not hold through readbal in every cell**")
                       + "; io.weight can act only on the legs (the mirror is bio-based), and io.cost "
                       "orders groups only where a leg is saturated. Details in the seed 003 section.")
        # seed 004
        s4 = [r for r in self.res.runs if r.get("section") == "seed004" and r.get("m")]
        if s4:
            r = s4[0]
            n = len(r.get("legs") or [])
            top_w = r.get("run_top_w_sectors") or r.get("top_w_sectors")
            legs_w = r.get("run_legs_w_sectors") or r.get("legs_w_sectors")
            amp = legs_w / top_w if top_w else None
            app = [a for _, a, _ in self.seed004_series(r)]
            third = max(1, len(app) // 3)
            deg = statistics.mean(app[-third:]) / statistics.mean(app[:third]) if app and app[0] else None
            out.append(f"- **Seed 004, long random write** (btrfs: 21.5 MB/s from the application took "
                       f"63 MB/s of disk writes, and throughput fell 40% in 30 min): the {n} legs wrote "
                       f"{ratio(amp)}x what fio wrote ("
                       + ("exactly #legs" if amp is not None and abs(amp - n) < 0.005 else "NOT #legs")
                       + f"); last third/first third of the run {ratio(deg)} ("
                       + ("no degradation" if deg and deg >= 0.9 else "DEGRADED") + ").")
        runs = [(self.res, "in this run")]
        if self.cal:
            runs.append((self.cal, "in the separate calibration run"))
        parts = []
        for res, label in runs:
            by = self.calibration_runs(res)
            seek = self.seek_rows(by, res)
            if not seek:
                continue
            hl = res.hostload_during(list(by.values()))
            load = (f" (the rest of the host used {hostload.load_cores(hl):.2f} cores meanwhile"
                    + (", disturbed" if hostload.disturbed(hl) else "") + ")" if hl else "")
            parts.append(f"{label}{load}: " + "; ".join(f"{r[0]}: {r[2]}, {r[5]}" for r in seek))
        if parts:
            out.append("- **The seek emulator's calibration** (issue 6: 4 KiB random QD1 at 75-150 IOPS, "
                       "64 KiB sequential within 10% of the media rate), measured in the guest "
                       + ". Measured ".join(parts) + " (see Calibration).")
        if out:
            hl = self.res.hostload
            noisy = []
            if hostload.disturbed(hl):
                noisy = [f"**This run was disturbed**: the rest of the host used {hostload.load_cores(hl):.2f} "
                         "of its 2 cores on average (header), so the guest ran slower and unevenly; "
                         "single ratios below can be noise, read the tables' patterns.", ""]
            self.out("## Findings: the seeds reproduced", "",
                     "Each seed's claim, then this run's figures; ratios are between runs of this report "
                     "(same guest, same disks, minutes apart); `*`: the run was CPU-bound.", "", *noisy,
                     *out, "")
        if s1:
            self.out("Seed 001: readbal / md raid1 and readbal / dm-mirror, 1280 KiB direct I/O (writes: "
                     "the one readbal device that runs them; reads: the best and the worst policy):", "")
            self.out(*md_table(["profile", "write / md raid1", "write / dm-mirror", "read, best / md raid1",
                                "read, worst / md raid1", "read, best / dm-mirror"], s1), "")
        self.standing()

    def seed001_rows(self):
        m = self.m
        rows = []
        r1, w1 = "seqread-1280k", "seqwrite-1280k"
        for p in m.profiles:
            rb_r = [m.value(p, r1, c) for c in m.configs(p=p, w=r1) if c.startswith("rb:")]
            rb_r = [v for v in rb_r if v is not None]
            rb_w = [m.value(p, w1, c) for c in m.configs(p=p, w=w1) if c.startswith("rb:")]
            rb_w = [v for v in rb_w if v is not None]
            if not rb_r and not rb_w:
                continue
            wv = rb_w[0] if rb_w else None
            rows.append([p, self._x(wv, m.value(p, w1, "md")), self._x(wv, m.value(p, w1, "mirror")),
                         self._x(max(rb_r) if rb_r else None, m.value(p, r1, "md")),
                         self._x(min(rb_r) if rb_r else None, m.value(p, r1, "md")),
                         self._x(max(rb_r) if rb_r else None, m.value(p, r1, "mirror"))])
        return rows

    @staticmethod
    def _used(rs):
        """Seed 003's io.max: each group's throughput / its limit.  io.max
        caps reads (rbps) and writes (wbps) apart: a read-write job may
        move up to twice its limit in all, so the larger direction counts."""
        used = []
        for r in rs:
            lim, mm = r.get("limit") or 0, r.get("m") or {}
            if lim and mm:
                used.append(max(mm["read"]["bw_kib"], mm["write"]["bw_kib"]) * 1024 / lim)
        return used

    @classmethod
    def _within(cls, rs):
        used = cls._used(rs)
        return bool(used) and all(u <= 1.10 for u in used)

    @staticmethod
    def _ordered(vals):
        """Seed 003's io.weight: throughput grows with the group's weight."""
        return all(vals[i] <= vals[i + 1] * 1.05 for i in range(len(vals) - 1))

    def standing(self):
        """readbal's policies against md raid1 and dm-mirror, per profile."""
        m = self.m
        rows = []
        for p in m.profiles:
            rb = [(m.mean_share(p, c)[0], c) for c in m.configs(p=p) if c.startswith("rb:")]
            rb = sorted((x for x in rb if x[0] is not None), reverse=True)
            if not rb:
                continue
            md, mir = m.mean_share(p, "md")[0], m.mean_share(p, "mirror")[0]
            (best, bc), (worst, wc) = rb[0], rb[-1]
            beat = sum(1 for v, _ in rb if md is not None and v >= md)
            rows.append([p, f"{config_label(bc)} {ratio(best)}", f"{config_label(wc)} {ratio(worst)}",
                         ratio(md), ratio(mir), self._x(best, md), self._x(best, mir),
                         f"{beat} of {len(rb)}" if md is not None else "-"])
        if not rows:
            return
        self.out("### Where readbal stands against md raid1 and dm-mirror", "",
                 "Mean share of the limit over the read workloads (the headline table below), best and "
                 "worst readbal policy against the peers on the same legs in the same run.", "")
        self.out(*md_table(["profile", "best policy", "worst policy", "md raid1", "dm-mirror",
                            "best / md raid1", "best / dm-mirror", "policies >= md raid1"], rows, "lllrrrrr"),
                 "")

    # ---------------------------------------------------------- calibration
    def calibration(self):
        if self.calibration_runs():
            self.out("## Calibration: the emulated disks alone", "",
                     "Each disk kind of `tests/lib/disks.sh` and the seek emulator, alone, direct I/O. "
                     "`nbd path` is nbdkit's memory plugin without the seek filter: what the nbd round "
                     "trip itself costs in this guest.", "")
            self.calibration_tables(self.res)
        if self.cal and self.calibration_runs(self.cal):
            when = self.cal.meta.get("started")
            when = datetime.datetime.utcfromtimestamp(when).strftime("%Y-%m-%d %H:%M UTC") if when else "?"
            self.out("### A separate calibration run", "",
                     f"`{self.cal.meta.get('command') or 'bench/run --calibrate'}`, {when}, the same "
                     "disks alone in a guest of its own (the section above is this run's).", "")
            self.calibration_tables(self.cal)

    def calibration_tables(self, res):
        by = self.calibration_runs(res)
        cal = res.calibration.get("disks", {})
        conf_of = {v.get("kind"): v for v in cal.values()}
        hl = res.hostload_during(list(by.values()))
        if hl:
            self.out(f"Host while this section ran: {hostload.describe(hl)}.", "")
        rows = []
        for kind in ("hdd", "ssd", "nvme", "remote", "ram", "hdd-seek", "nbd-path"):
            r1 = by.get((kind, "rand4k-qd1"))
            if not r1:
                continue
            c = conf_of.get(kind, {})
            if "mbps" in c:
                cfg = (f"{c['mbps']} MB/s, {int(c.get('completion_nsec', 0)) // 1000} us, "
                       f"QD {c.get('hw_queue_depth')}, rot {c.get('rotational')}")
            elif kind == "hdd-seek":
                cfg = f"7200 rpm, {res.meta.get('seek_args') or 'defaults'}"
            else:
                cfg = "nbdkit memory"
            s64 = by.get((kind, "seq64k-qd1"))
            q32 = by.get((kind, "rand4k-qd32"))
            cpu = max((x.get("cpu_busy_pct") or 0) for x in (r1, s64, q32) if x)
            rows.append([kind, cfg, num(results.value(r1, "IOPS")),
                         num(r1.get("m", {}).get("p50_us")),
                         num(results.value(s64, "MiB/s")) if s64 else "-",
                         num(results.value(q32, "IOPS")) if q32 else "-",
                         num(cpu) + ("*" if cpu > results.CPU_BOUND_PCT else "")])
        self.out(*md_table(["kind", "configured", "4K QD1 IOPS", "p50 us", "64K seq QD1 MiB/s",
                            "4K QD32 IOPS", "CPU %"], rows), "")
        self.seek_calibration(res, by)

    def calibration_runs(self, res=None):
        return {(r["kind"], r["test"]): r for r in (res or self.res).runs if r.get("section") == "calibration"}

    def seek_calibration(self, res, by):
        """The issue's targets for the seek emulator, measured and model-only."""
        rows = self.seek_rows(by, res)
        if not rows:
            return
        self.out("Seek emulator targets (issue 6):", "")
        self.out(*md_table(["test", "target", "measured in the guest", "nbd path alone", "model alone", ""],
                           rows, "llrrrl"),
                 "", "*nbd path alone*: the same test on nbdkit's memory plugin without the filter, in the "
                 "same run: the transport's own ceiling. *Model alone*: `tools/nbdkit-seek/test-seekmodel "
                 "--model` with the same parameters and no client: what the filter charges per request. "
                 "The guest adds the nbd round trip to the model's time, and that round trip grows with "
                 "the host's load.", "")
        st = [s["stats"] for s in res.seekstats if s.get("disk", "").startswith("cal")]
        if st:
            s = st[0]
            n = sum(int(s.get(k, 0)) for k in ("hit", "stream", "miss", "write"))
            busy = float(s.get("busy_ms", 0))
            late = s.get("wakeup_late_us")
            self.out(f"The filter's own accounting over the calibration runs: {n} requests "
                     f"({s.get('miss')} misses, {s.get('stream')} streamed, {s.get('hit')} read-ahead hits), "
                     f"head busy {busy / 1000:.1f} s, of which seeking {float(s.get('seek_ms', 0)) / 1000:.1f} s "
                     f"and rotation {float(s.get('rotation_ms', 0)) / 1000:.1f} s"
                     + (f"; its sleeps woke {float(late) / 1000:.2f} ms late on average (seek-compensate "
                        "spins that off)" if late is not None else "") + ".", "")

    def seek_rows(self, by, res=None):
        """[test, target, measured, nbd path, model, verdict] rows, or []."""
        res = res or self.res
        r1 = by.get(("hdd-seek", "rand4k-qd1"))
        if not r1:
            return []
        args = dict(a.split("=", 1) for a in (res.meta.get("seek_args") or "").split() if "=" in a)
        outer = float(args.get("seek-outer", 25))
        inner = float(args.get("seek-inner", 12.5))
        cap_mib = 256.0

        def media(lo, hi):   # mean media rate over [lo, hi) MiB: linear zones
            mid = (lo + hi) / 2
            return outer - (outer - inner) * mid / cap_mib

        iops = results.value(r1, "IOPS")
        model = model_only(res.meta.get("seek_args") or "")

        def path_of(test, unit):
            r = by.get(("nbd-path", test))
            return results.value(r, unit) if r else None

        def verdict(ok, got, path):
            if ok:
                return "PASS"
            if got is not None and path and got >= 0.8 * path:
                return "FAIL: bound by the nbd path"
            return "FAIL"

        rows = []
        path_iops = path_of("rand4k-qd1", "IOPS")
        ok = iops is not None and 75 <= iops <= 150
        rows.append(["4 KiB random read QD1", "75-150 IOPS", num(iops) + " IOPS", num(path_iops) + " IOPS",
                     num(model.get("rand4k_qd1_iops")) + " IOPS",
                     "PASS" if ok else "FAIL" + (" (the nbd path adds %s us a request)" %
                                                 num(1e6 / path_iops) if path_iops else "")])
        for test, lo, key in (("seq64k-qd1", 0.0, "outer"), ("seq64k-qd1-inner", 224.0, "inner")):
            r = by.get(("hdd-seek", test))
            if not r or not r.get("m"):
                continue
            got = r["m"]["mib_s"]
            # fio wraps within [lo, 256) or reads [0, got x runtime)
            span = min(cap_mib - lo, max(1.0, got * r["m"]["runtime_ms"] / 1000.0))
            want = media(lo, lo + span)
            ok = abs(got / want - 1) <= 0.10
            mo = model.get(f"seq64k_{key}_mibps")
            mw = model.get(f"seq64k_{key}_media_mibps")
            path = path_of("seq64k-qd1", "MiB/s")
            rows.append([f"64 KiB sequential QD1 from {lo:.0f} MiB", f"{want:.1f} MiB/s +-10%",
                         f"{got:.1f} MiB/s ({got / want:.2f})", f"{num(path)} MiB/s",
                         f"{num(mo)} MiB/s ({ratio(mo / mw if mo and mw else None)})",
                         verdict(ok, got, path)])
        return rows

    # ------------------------------------------------------------ workloads
    def workloads(self):
        m = self.m
        for w in m.workloads:
            fname, label, seed = plan.WORKLOADS.get(w, ("?", w, "-"))
            unit = unit_of(w)
            self.out(f"## {w}: {label}", "",
                     f"Job file `fio/{fname}`" + (f", seed {seed}" if seed != "-" else "") +
                     f". {unit}; each cell: figure (share of the limit).", "")
            header = ["configuration"] + m.profiles
            rows = []
            lim_row = ["**limit**"]
            for p in m.profiles:
                one = m.get(p, w, "leg:0")
                lim_row.append(num(m.limit(p, w, one)) if one else "-")
            rows.append(lim_row)
            for c in m.configs(w=w):
                row = [config_label(c)]
                for p in m.profiles:
                    r = m.get(p, w, c)
                    if not r:
                        row.append("")
                        continue
                    v, s = m.value(p, w, c), m.share(p, w, c)
                    cell = "n/a" if v is None else f"{num(v)} ({ratio(s)})"
                    if r.get("cpu_bound"):
                        cell += "*"
                    row.append(cell)
                rows.append(row)
            self.out(*md_table(header, rows), "")
            self.plot_workload(w)
            self.out("<details><summary>Per profile: latency, leg shares, CPU</summary>", "")
            for p in m.profiles:
                if not m.get(p, w, "leg:0"):
                    continue
                kinds = plan.profile_kinds(p) if p in plan.PROFILES or "+" in p else []
                scale = m.get(p, w, "leg:0").get("leg_scale", 1)
                rate = f", legs at {scale:g} of their rate" if scale != 1 else ""
                self.out(f"**{p}** ({' + '.join(kinds)}{rate}); limit {num(m.limits.get((p, w, 1)))} {unit} "
                         f"(the legs alone: {num(m.phase_limits.get((p, w, 1)))} in the first phase, "
                         f"{num(m.phase_limits.get((p, w, 2)))} in md's)", "")
                rows = []
                for c in m.configs(p=p, w=w, legs=True):
                    r = m.get(p, w, c)
                    if not r:
                        continue
                    mm = r.get("m") or {}
                    share = r.get("leg_share")
                    rows.append([config_label(c), num(m.value(p, w, c)), num(mm.get("p50_us")),
                                 num(mm.get("p99_us")),
                                 "/".join(f"{x:.0f}" for x in share) if share and not c.startswith("leg:")
                                 else "-",
                                 "" if c.startswith("leg:") else ratio(m.share(p, w, c)),
                                 ratio(r.get("legs_read_ratio")),
                                 num(r.get("cpu_busy_pct")) + ("*" if r.get("cpu_bound") else ""),
                                 r.get("problem", "")])
                self.out(*md_table(["configuration", unit, "p50 us", "p99 us", "legs %", "share",
                                    "read / got", "CPU %", "note"], rows, "lrrrrrrrl"), "")
            self.out("</details>", "")
            if w == "seqread-1job" or w == "seqread-8job":
                self.seed000_layout(w)
        self.seed001_layout()

    def seed000_layout(self, w):
        """Seeds 000/002 print fio's READ summary line per policy and array."""
        m = self.m
        arrays = [p for p in ("3hdd", "2hdd+ssd") if m.get(p, w, "leg:0")]
        arrays = arrays or [p for p in m.profiles if m.get(p, w, "leg:0")]
        if not arrays:
            return
        self.out("In the seed's layout (fio's READ line; io and run of the measured window):", "", "```")
        for p in arrays:
            kinds = plan.profile_kinds(p)
            self.out(f"- {p}: {' + '.join(kinds)}")
            for c in m.configs(p=p, w=w):
                r = m.get(p, w, c)
                mm = (r or {}).get("m")
                if not mm:
                    continue
                rd = mm["read"]
                bw = rd["bw_kib"] / 1024
                self.out(f"* {config_label(c)}{' policy' if c.startswith('rb:') else ''}",
                         f"READ: bw={bw:.1f}MiB/s ({bw * 1.048576:.1f}MB/s), "
                         f"io={rd['io_bytes'] / 1048576:.1f}MiB, run={rd['runtime_ms']}msec")
        self.out("```", "")

    def seed001_layout(self):
        """Seed 001 compares two kernels per filesystem, read and write rows;
        here each configuration against md raid1 on the same array."""
        m = self.m
        ws = [w for w in ("seqread-1280k", "seqwrite-1280k") if w in m.workloads]
        if len(ws) < 1:
            return
        self.out("### Seed 001 layout: 1280 KiB bios, each configuration against md raid1", "", "```")
        for p in m.profiles:
            if not any(m.get(p, w, "md") for w in ws):
                continue
            self.out(f"{p}: {' + '.join(plan.profile_kinds(p))}",
                     f"{'':30s} {'md raid1':>10s} {'this':>10s}", f"{'':30s} {'(MB/s)':>10s} {'(MB/s)':>10s}")
            for c in m.configs(p=p):
                if c == "md":
                    continue
                for w in ws:
                    v, base = m.value(p, w, c), m.value(p, w, "md")
                    if v is None or base is None:
                        continue
                    d = 100.0 * (v - base) / base if base else 0.0
                    name = f"{config_label(c)} {'read' if 'read' in w else 'write'}:"
                    self.out(f"{name:30s} {base * 1.048576:10.2f} {v * 1.048576:10.2f} {d:+.2f}%")
            self.out("")
        self.out("```", "")

    # ------------------------------------------------------------------ CPU
    def cpu(self):
        runs = [r for r in self.res.runs if r.get("section") == "cpu" and r.get("m")]
        if not runs:
            return
        by = {}
        for r in runs:
            by.setdefault(r["config"], []).append(r)
        med = {c: statistics.median(results.value(r, "IOPS") or 0 for r in rs) for c, rs in by.items()}
        lin = med.get("linear")
        leg = med.get("leg:0")
        self.out("## CPU overhead: 4 KiB random read QD32 on two ram legs", "",
                 f"{max(len(v) for v in by.values())} interleaved round(s) of every configuration "
                 "(median IOPS). ram null_blk completes inline: the guest CPU is the only limit, so the "
                 "IOPS ratio is the cost of each layer. *CPU us per I/O* is guest CPU busy time over "
                 "the window divided by fio's I/Os (both vCPUs, so it includes fio itself). Issue 3's "
                 "aim: readbal at least 0.95 of dm-linear.", "")
        rows = []
        for c in order_configs(set(by), self.m.policies or self.res.meta.get("policies") or []):
            rs = by[c]
            cpu_io = statistics.median(r.get("cpu_us_per_io") or 0 for r in rs)
            busy = statistics.median(r.get("cpu_busy_pct") or 0 for r in rs)
            v = med[c]
            rows.append([config_label(c), num(v), ratio(v / lin) if lin else "-",
                         ratio(v / leg) if leg else "-", num(cpu_io), num(busy) + ("*" if busy > 80 else "")])
        self.out(*md_table(["configuration", "IOPS", "vs dm-linear", "vs leg alone", "CPU us per I/O",
                            "CPU %"], rows), "")
        rb = [(c, med[c]) for c in by if c.startswith("rb:")]
        if rb and lin:
            best = max(rb, key=lambda x: x[1])
            worst = min(rb, key=lambda x: x[1])
            verdict = "meets" if worst[1] / lin >= 0.95 else ("partly meets" if best[1] / lin >= 0.95
                                                             else "does not meet")
            self.out(f"readbal/dm-linear: {worst[1] / lin:.2f} ({config_label(worst[0])}) to "
                     f"{best[1] / lin:.2f} ({config_label(best[0])}): {verdict} the 0.95 aim in this run.",
                     "")

    # ------------------------------------------------------------- seed 003
    def seed003(self):
        runs = [r for r in self.res.runs if r.get("section") == "seed003"]
        if not runs:
            return
        groups = {}
        for r in runs:
            groups.setdefault((r["variant"], r["config"]), {}).setdefault((r["mode"], r["jobs"]), []).append(r)
        cols = list(groups)
        self.out("## Seed 003: per-group I/O control through the mirror", "",
                 "Each job in its own cgroup v2 group (`fio/iocontrol.fio`), 256 KiB direct I/O at QD8 on "
                 f"{len(runs[0].get('legs') or [])} legs. *max*: io.max on the mirror "
                 "device, group k limited to (k+1) x base (the limits sum to 80% of 60 MiB/s for reads, "
                 "20 MiB/s otherwise; as rbps and wbps both, so a read-write job is checked per "
                 "direction). *weight*: io.cost enabled on every leg, group k at io.weight "
                 "100 (k+1): the mirror is bio-based, so weights can only act on its legs, on the "
                 "clones readbal or md issues. Throughput in MB/s as the seed.", "")
        modes = []
        for g in groups.values():
            for k in g:
                if k not in modes:
                    modes.append(k)
        hdr = ["Mode", "RdWr", "N"] + [f"{c} {v}" for v, c in cols]
        rows = []
        for mode, nj in modes:
            row = mode.split() + [str(nj)]
            for col in cols:
                rs = groups[col].get((mode, nj), [])
                tot = sum(results.value(r, "MiB/s") or 0 for r in rs) * 1.048576
                row.append(f"{tot:.1f}" if rs else "")
            rows.append(row)
        self.out("```")
        widths = [max(len(str(x)) for x in col) for col in zip(hdr, *rows)]
        rule = " ".join("-" * w for w in widths)
        self.out(rule, " ".join(h.ljust(w) if i < 2 else h.rjust(w) for i, (h, w) in enumerate(zip(hdr, widths))),
                 rule)
        for row in rows:
            self.out(" ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
        self.out("```", "")
        maxn = max(nj for _, nj in modes)
        self.out("Per job (the seed's second table), MB/s; then how well each group got its due:", "", "```")
        hdr2 = ["Test", "Mode", "RdWr", "N"] + [f"test{i}" for i in range(maxn)]
        lines = []
        verdicts = []
        for col in cols:
            variant, config = col
            for mode, nj in modes:
                rs = sorted(groups[col].get((mode, nj), []), key=lambda r: r.get("member", 0))
                if not rs:
                    continue
                vals = [(results.value(r, "MiB/s") or 0) * 1.048576 for r in rs]
                lines.append([f"{config},{variant}"] + mode.split() + [str(nj)] + [f"{v:.1f}" for v in vals])
                verdicts.append((col, mode, nj, rs, vals))
            lines.append(None)
        widths = [max(len(str(x)) for x in c) for c in zip(hdr2, *[ln + [""] * (len(hdr2) - len(ln))
                                                                    for ln in lines if ln])]
        rule = " ".join("-" * w for w in widths)
        self.out(rule, " ".join(h.ljust(w) if i < 3 else h.rjust(w) for i, (h, w) in enumerate(zip(hdr2, widths))),
                 rule)
        for ln in lines:
            if ln is None:
                self.out("")
                continue
            self.out(" ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(ln, widths))))
        self.out("```", "")
        rows = []
        for (variant, config), mode, nj, rs, vals in verdicts:
            if variant == "max":
                used = self._used(rs)
                rows.append([f"{config},{variant}", mode, str(nj),
                             "yes" if self._within(rs) else "NO",
                             f"{min(used):.2f}-{max(used):.2f}" if used else "-", ""])
            else:
                ordered = self._ordered(vals)
                spread = vals[-1] / vals[0] if vals and vals[0] else None
                rows.append([f"{config},{variant}", mode, str(nj), "", "",
                             ("ordered" if ordered else "not ordered") + f", last/first {ratio(spread)} "
                             f"(weights {nj}:1)"])
        self.out(*md_table(["Test", "Mode", "N", "max: every group within its limit", "max: got/limit",
                            "weight: throughput by weight"], rows, "llrlll"), "")

    # ------------------------------------------------------------- seed 004
    def seed004(self):
        runs = [r for r in self.res.runs if r.get("section") == "seed004"]
        if not runs:
            return
        r = runs[0]
        self.out(f"## Seed 004: a long random write on {r.get('profile')}", "",
                 f"`fio/longwrite.fio` on readbal ({config_label(r.get('config', ''))}), 4 KiB random writes "
                 "at QD16; the guest sampled each leg's /sys/block/*/stat while fio logged its "
                 "bandwidth every second.", "")
        if r.get("problem") and not r.get("m"):
            self.out(f"Not measured: {r['problem']}", "")
            return
        series = self.seed004_series(r)
        n = len(r.get("legs") or [])
        top_w = r.get("run_top_w_sectors") or r.get("top_w_sectors")
        legs_w = r.get("run_legs_w_sectors") or r.get("legs_w_sectors")
        amp = legs_w / top_w if top_w else None
        app = [a for _, a, _ in series]
        third = max(1, len(app) // 3)
        first, last = (statistics.mean(app[:third]), statistics.mean(app[-third:])) if app else (None, None)
        self.out(f"Write amplification (the legs' written sectors / the mirror's): **{ratio(amp)}** "
                 f"for {n} legs ({'exactly #legs' if amp is not None and abs(amp - n) < 0.005 else 'NOT #legs'}). "
                 f"Throughput: first third {num(first)} MB/s, last third {num(last)} MB/s "
                 f"(ratio {ratio(last / first if first else None)}; "
                 f"{'no degradation' if first and last / first >= 0.9 else 'DEGRADED'}).", "")
        if series:
            step = max(1, math.ceil(len(series) / 20))
            self.out(f"Per interval ({'every second' if step == 1 else f'every {step}th second; all in the plot'}):",
                     "", "```", f"{'t (s)':>6s} {'fio MB/s':>9s} " +
                     " ".join(f"{k + ' MB/s':>12s}" for k in r["legs"]) + f" {'legs/fio':>9s}")
            for t, a, legs in series[step - 1::step]:
                tot = sum(legs)
                self.out(f"{t:6.0f} {a:9.2f} " + " ".join(f"{x:12.2f}" for x in legs)
                         + f" {tot / a if a else 0:9.2f}")
            self.out("```", "")
            self.plot_longwrite(r, series)

    def seed004_series(self, r):
        """[(t_s, app MB/s, [leg MB/s...])] per second of the run, from
        fio's log and the sampler."""
        logs = r.get("bw_series") or []
        if not logs or not self.res.samples:
            return []
        pts = sorted(t for t, _, _ in logs[0])
        if not pts:
            return []
        t0 = pts[0] - 1000
        app = {t: kib for t, kib, _ in logs[0]}
        samples = self.res.samples
        out = []
        prev_t = t0
        for t in pts:
            d = None
            try:
                d = results.window_delta(samples, prev_t * 1_000_000, t * 1_000_000, interpolate=True)
            except ValueError:
                pass
            secs = (t - prev_t) / 1000
            legs = [d["dev"].get(k, {}).get("w_sectors", 0) * 512 / 1e6 / secs if d else 0 for k in r["legs"]]
            out.append(((t - t0) / 1000, app[t] * 1.024 / 1000, legs))
            prev_t = t
        return out

    # ---------------------------------------------------------------- csv
    def csv(self):
        m = self.m
        if not m.profiles:
            return
        self.out("## For comparison with rbsim", "",
                 "`tools/sim/rbsim --profile P --workload W --policy all --csv` prints the same columns "
                 "(scale `guest` there; `guest-bench` here). Bench differences: pid depends on the "
                 "guest's real pids, `device` prefers the fastest leg, seqread-1280k runs 4 jobs at "
                 "QD4 (rbsim: QD64), the hdd legs of `hdd-seek` profiles are the nbdkit emulator with "
                 "the guest's nbd round trip on top.", "",
                 "<details><summary>CSV</summary>", "", "```")
        nmax = max(len(plan.profile_kinds(p)) for p in m.profiles)
        self.out("profile,scale,workload,policy,mibps,iops,p50_us,p99_us,of_limit," +
                 ",".join(f"share{i}" for i in range(nmax)))
        for p in m.profiles:
            for w in m.workloads:
                for c in m.configs(p=p, w=w):
                    r = m.get(p, w, c)
                    mm = (r or {}).get("m")
                    if not mm:
                        continue
                    sh = r.get("leg_share") or []
                    s = m.share(p, w, c)
                    self.out(f"{p},guest-bench,{w},{c[3:] if c.startswith('rb:') else c},"
                             f"{mm['mib_s']:.2f},{mm['iops']:.1f},{mm['p50_us'] or 0:.1f},{mm['p99_us'] or 0:.1f},"
                             f"{s if s is not None else float('nan'):.3f}," + ",".join(f"{x:.1f}" for x in sh))
        self.out("```", "", "</details>", "")

    # --------------------------------------------------------------- plots
    def _gnuplot(self, name, script):
        if not shutil.which("gnuplot"):
            return None
        os.makedirs(self.plots_dir, exist_ok=True)
        png = os.path.join(self.plots_dir, name + ".png")
        p = subprocess.run(["gnuplot"], input=f"set terminal pngcairo size 1400,560 font 'sans,10'\n"
                                               f"set output '{png}'\n" + COLORS + script,
                           capture_output=True, text=True)
        if p.returncode or not os.path.exists(png):
            self.out(f"(plot {name} failed: {p.stderr.strip()[:200]})", "")
            return None
        self.plots.append(png)
        self.out(f"![{name}]({self.rel}/{name}.png)", "")
        return png

    @staticmethod
    def _datablock(name, header, rows):
        out = [f"${name} << EOD", " ".join(f'"{h}"' for h in header)]
        for r in rows:
            out.append(" ".join(f'"{c}"' if isinstance(c, str) else ("NaN" if c is None else f"{c:.6g}")
                                for c in r))
        out.append("EOD")
        return "\n".join(out) + "\n"

    def _bars(self, name, title, ylabel, configs, profiles, val, log=False):
        rows = [[p] + [val(p, c) for c in configs] for p in profiles]
        data = self._datablock("d", ["profile"] + [config_label(c) for c in configs], rows)
        plots = ", ".join(f"$d using {i + 2}:xtic(1) title columnhead({i + 2})" for i in range(len(configs)))
        script = data + (
            f"set title '{title}'\nset ylabel '{ylabel}'\nset style data histograms\n"
            "set style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
            "set boxwidth 0.9\nset key outside right top vertical\nset grid ytics\n"
            "set datafile missing 'NaN'\n" + ("set logscale y\n" if log else "set yrange [0:*]\n") +
            f"plot {plots}\n")
        return self._gnuplot(name, script)

    def plot_headline(self):
        m = self.m
        configs = m.configs()
        self._bars("share-of-limit", "Mean share of the physical limit over the read workloads",
                   "share of the limit", configs, m.profiles, lambda p, c: m.mean_share(p, c)[0])

    def plot_workload(self, w):
        m = self.m
        configs = m.configs(w=w)
        self._bars(f"bw-{w}", f"{w}: {plan.WORKLOADS.get(w, ('', w))[1]} (log scale)", unit_of(w),
                   configs, m.profiles, lambda p, c: m.value(p, w, c), log=True)

    def plot_longwrite(self, r, series):
        legs = r["legs"]
        rows = [[t, a] + l_ + [sum(l_)] for t, a, l_ in series]
        data = self._datablock("d", ["t", "fio (application)"] + [f"leg {k}" for k in legs] + ["legs total"], rows)
        plots = ", ".join(f"$d using 1:{i + 2} with linespoints title columnhead({i + 2})"
                          for i in range(len(legs) + 2))
        self._gnuplot("longwrite", data + (
            "set title 'Seed 004: long random write, application vs each leg (MB/s)'\n"
            "set xlabel 'seconds'\nset ylabel 'MB/s written'\nset grid\nset key outside right top\n"
            f"set yrange [0:*]\nplot {plots}\n"))

    # --------------------------------------------------------------- rbsim
    def rbsim(self):
        """The simulator's view of the same profiles and workloads, if it is
        built: shares of the limit side by side, and whether the two rank
        the policies alike (Kendall's tau over the policies both ran)."""
        m = self.m
        exe = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "sim", "rbsim")
        if not m.profiles or not os.access(exe, os.X_OK):
            return
        args = [exe, "--policy", "all", "--csv", "--seconds", "3", "--seed", "1"]
        for p in m.profiles:
            args += ["--profile", p]
        for w in m.workloads:
            args += ["--workload", w]
        p = subprocess.run(args, capture_output=True, text=True)
        sim = {}
        for line in p.stdout.splitlines():
            f = line.split(",")
            if len(f) < 9 or f[0] == "profile":
                continue
            try:
                sim[(f[0], f[2], "rb:" + f[3])] = float(f[8])
            except ValueError:
                continue
        if not sim:
            self.out("## Side by side with rbsim", "", f"rbsim gave no rows: {p.stderr.strip()[:300]}", "")
            return
        self.out("## Side by side with rbsim", "",
                 "`tools/sim/rbsim --csv --seconds 3 --seed 1` on the same presets: each cell is the "
                 "share of the limit measured here / simulated. *tau* is Kendall's rank correlation of "
                 "the policies' shares (1: same order, -1: reversed). rbsim has no guest CPU ceiling and "
                 "its hdd-seek seeks up to 15 ms and reads ahead 256 KiB (here the seek emulator's "
                 "parameters in the header, plus the nbd round trip); its seqread-1280k runs at QD64 "
                 "(here QD4).", "")
        agree = []
        for w in m.workloads:
            rows = []
            for c in m.configs(w=w):
                if not c.startswith("rb:"):
                    continue
                row = [config_label(c)]
                for p in m.profiles:
                    b, sv = m.share(p, w, c), sim.get((p, w, c))
                    row.append("" if b is None and sv is None else f"{ratio(b)} / {ratio(sv)}")
                rows.append(row)
            taus = []
            for p in m.profiles:
                pairs = [(m.share(p, w, c), sim.get((p, w, c))) for c in m.configs(p=p, w=w)
                         if c.startswith("rb:")]
                pairs = [x for x in pairs if x[0] is not None and x[1] is not None]
                t = kendall_tau(pairs)
                taus.append(ratio(t))
                if t is not None:
                    agree.append(t)
            rows.append(["*tau*"] + taus)
            self.out(f"**{w}**", "", *md_table(["policy"] + m.profiles, rows), "")
        if agree:
            self.out(f"Mean tau over {len(agree)} profile x workload pairs: {statistics.mean(agree):.2f}.", "")

    # -------------------------------------------------------------- how to
    def howto(self):
        self.out("## How it runs", "",
                 "- `make bench` = `bench/run --full` (about 80 minutes): boots the test guest once "
                 "(`tests/vm/run`), runs `bench/guest/driver.py` there and writes this file and "
                 "`docs/plots/`. `make bench-quick` = `bench/run --quick` (under 5 minutes, two "
                 "profiles, the report in the results dir); `bench/run --calibrate` measures the disks "
                 "alone; `bench/run --report-only DIR [--docs]` redoes a report. These hold "
                 "`/tmp/rb-bench.lock` (one benchmark guest at a time) and sample the host's load "
                 "every 5 s (the header's *host load*: other engineers' guests share the host).",
                 "- `make check` runs `bench/run --smoke` (one profile with a seek leg, two policies and "
                 "dm-mirror, a read, a mixed and a write workload for a second or two, the report in a "
                 "temp dir; PASS/FAIL lines; a failed smoke run is tried once more, the first try's output "
                 "shown indented, and a fio past its time leaves what it waits on in `bench/logs/*.stuck`) "
                 "and `tests/unit-bench/run` (the report's parsing and tables "
                 "on a captured run, the seek model, and the seek filter under nbdkit on the host).",
                 "- Each job file of `fio/` runs on its own too: `fio fio/seqread-64k.fio "
                 "--filename=/dev/mapper/NAME`. The benchmark runs the same files, with its run time, "
                 "a bandwidth log and `thread` added; "
                 + "; ".join(f"{w} also with " + " ".join(k if v is None else f"{k}={v}" for k, v in o.items())
                             for w, o in plan.GUEST_JOB_OPTIONS.items())
                 + " (the reads in flight as the job file's; one fio thread saturated its vCPU at 4 KiB "
                 "QD32), and "
                 + "; ".join(f"{w} on " + ", ".join(f"{p} over legs at {x:g} of the rates below" for p, x in d.items())
                             for w, d in plan.GUEST_LEG_SCALE.items())
                 + ", legs of its own (their mirrors' reads, about 87 us of guest CPU each through dm, "
                 "used both vCPUs at the full rates: `GUEST_LEG_SCALE` in bench/rbbench/plan.py).",
                 "- Disks: `tests/lib/disks.sh` at about half its profiles' bandwidth (null_blk: hdd 13 MB/s "
                 "2 ms QD4 rotational, ssd 38 MB/s 200 us, nvme 63 MB/s 50 us, remote 19 MB/s 5 ms, ram "
                 "uncapped; `LEG_MBPS` in bench/rbbench/plan.py: at the profiles' own rates one buffered "
                 "reader was bound by its fio thread's CPU, not by the legs), requests of at most 128 KiB "
                 "(`LEG_MAX_SECTORS`: a disk's limit ends on 4 KiB; null_blk's default 255 sectors does "
                 "not), 2 GiB each (ram 512 MiB: its "
                 "uncapped writes fill a leg and two 1 GiB ones ran the guest out of memory; 256 MiB in the calibration and seed 004): no buffered read wraps around within a run, where "
                 "fio would flush the device's page cache, a 300 ms stall in this guest; "
                 "`hdd-seek` is `tools/nbdkit-seek`, 1 GiB (the size its calibration holds for; nbdkit memory "
                 "plugin behind the seek filter, "
                 "served to the guest's nbd over a unix socket).",
                 "- Per array: one readbal device per policy of the module (`list_policies`), all on "
                 "the same legs (dm lets its devices share legs), `device` preferring the fastest leg; "
                 "dm-mirror (`mirror core 2 1024 nosync`, reads from its first leg); dm-linear on the "
                 "fastest leg; then md raid1 (`mdadm --create --assume-clean --bitmap=none`). Writes do "
                 "not depend on the read policy: write-only workloads run one readbal device.",
                 "- One fio process per phase of an array, jobs as threads one after the other (an exec "
                 "costs seconds under TCG); a sampler thread reads /proc/stat and the disks' stat files "
                 "every 100 ms and fio's bandwidth logs place each job in time.",
                 "- Workloads that move by more than the differences between policies (4 KiB QD32: 15 to "
                 "20% between identical 1 s runs; QD1 as much between benchmarks) run in interleaved "
                 "rounds, every configuration once a round (`rounds` in bench/rbbench/plan.py; header)"
                 + (", each round starting further along the list (with 3 rounds, a third; with 5, a fifth): "
                    "each configuration's row is its median run, so a drift over the rounds reaches "
                    "every configuration alike, and a slow spell within a round falls on different "
                    "configurations in different rounds (ssd+nvme's QD32 in runs M and N: the nvme alone "
                    "and every policy that uses it ran up to 2.8 times slower for the first 20 to 25 s)."
                    if any(r.get("turn") for r in self.res.runs) else
                    "; each configuration's row is its median run, so the host's drift over the rounds "
                    "reaches every configuration alike. Every round ran the configurations in the same "
                    "order: a slow spell within a round falls on the same ones each time.")
                 + (self._side_text() if any(r.get("section") == "side" for r in self.res.runs) else ""), "")
        self.out("## Caveats", "",
                 "- The guest runs under TCG on a 2-core host that other QEMU guests share: absolute "
                 "numbers move by factors between runs, shares within a phase much less. Runs are "
                 "short (seconds): small differences are noise.",
                 "- Buffered sequential reads are measured after a ramp (fio `ramp_time`, header): a "
                 "reader's read-ahead window grows over its first reads, and then each reader keeps a "
                 "window queued while it reads the one before. `adaptive` advertises an `io_opt` that "
                 "makes the kernel's windows 1 to 3 MiB (the other policies and the legs alone keep "
                 "128 KiB; fio's `POSIX_FADV_SEQUENTIAL` doubles a reader's window), and filling that "
                 "pipeline (two windows a reader: 96 MiB for 8 readers at 3 MiB) takes 2.6 s of a "
                 "37 MiB/s array: the 8 readers ramp for 4 s. What is still filling after the ramp "
                 "is read by the legs but not yet delivered; a short "
                 "run without the ramp charges it to the policy (docs/policies-beyond.md, \"8 readers "
                 "in the guest\").",
                 "- Rates are over the measured window. fio divides a group's bytes by its longest "
                 "job's runtime, which goes on past the window until that job's last I/O returns: a "
                 "buffered reader's last read can wait for a whole read-ahead window queued behind the "
                 "other readers' (8 readers with 2 MiB windows: 8.5 s of an 8 s window). At most a "
                 "queue of I/Os (numjobs x iodepth x bs) returns after the window, so its rate is at "
                 "least (bytes - queue) / window; a row takes that bound where it is above fio's "
                 "(`over_window` in bench/rbbench/results.py), and fio's own figure where the queue is "
                 "large against the window (1280 KiB writes at QD16 on a 13 MiB/s leg).",
                 "- The 8 readers each read a slice of 12% of the array (the seed read 10 GiB files): "
                 "246 MiB (123 MiB on the seek arrays), which no reader comes to the end of in a 4 s ramp "
                 "and an 8 s run up to 160 MiB/s in all (80 on the seek arrays, which read under 40; there "
                 "fio would flush the device's page cache, the other readers' read-ahead too); on 2ram "
                 "(40 to 50 MiB/s a reader) they do wrap.",
                 "- `pid` routes by thread id: which leg a job gets is luck, as in btrfs.",
                 "- The nbd round trip of the guest is part of every `hdd-seek` request (see "
                 "Calibration); `hdd-seek` arrays are slower than the model alone, and much slower when "
                 "other guests load the host: the round trip is several wake-ups of the guest's vCPUs, "
                 "each one late on a busy host. On an undisturbed host the emulator meets issue 6's "
                 "targets in the guest (tools/nbdkit-seek/README.md).",
                 "- md raid1 runs minutes after the others; the legs alone run in both phases and the "
                 "limit takes each leg's better run.", "")


    # -------------------------------------------------------------- targets
    def _ratios(self, p, w, c, other):
        """Per-round ratios of C to OTHER (rounds of one index; md raid1's
        are a phase later)."""
        a = {r.get("round", 0): results.value(r, unit_of(w)) for r in self.m.rounds.get((p, w, c), [])}
        b = {r.get("round", 0): results.value(r, unit_of(w)) for r in self.m.rounds.get((p, w, other), [])}
        return [a[k] / b[k] for k in a if a[k] and b.get(k)]

    def _by_turns(self):
        """Did the side-by-side pairs run as one reader taking turns?"""
        return any(r.get("method") == "turns" for r in self.res.runs if r.get("section") == "side")

    def _side_text(self):
        if self._by_turns():
            return (" On the mixed arrays, after the rounds, one QD1 reader takes turns between adaptive "
                    "and dm-linear, a read of each at a time (`tools/qd1-alternate`), and each device's "
                    "reads are timed apart; then between dm-linear and a twin of itself (the control). "
                    "A slow spell of the host or the guest's CPU falls on both alike, and no second job "
                    "contends (`side_by_side` in plan.py, `run_turns` in the driver). These runs stay out "
                    "of the tables; the QD1 target takes the median of their ratios.")
        return (" On the mixed arrays, the rounds after the first also run adaptive and dm-linear "
                "side by side, two QD1 jobs at once on their own devices over the same fastest leg, "
                "then dm-linear beside a twin of itself (the control; who starts first alternates): "
                "both jobs of a pair meet the same slow spells of the host, which runs a few seconds "
                "apart do not (`side_by_side` in plan.py). These runs stay out of the tables; the QD1 "
                "target takes the median of their ratios.")

    def _side_ratios(self, p, w, side, c, other):
        """Per-round ratios of C to OTHER where the two ran side by side
        (section "side"; SIDE: "test" or "control")."""
        by = {}
        for r in self.res.runs:
            if r.get("section") == "side" and r.get("side") == side and "m" in r and \
                    (r["profile"], r["workload"]) == (p, w):
                by.setdefault(r.get("round"), {})[r["config"]] = results.value(r, unit_of(w))
        return [x[c] / x[other] for _, x in sorted(by.items()) if x.get(c) and x.get(other)]

    def _paired_text(self, p, w, c, other, rs=None):
        """" (rounds lo-hi)" of the per-round ratios RS (default: of C to
        OTHER), or "" with fewer than two."""
        rs = self._ratios(p, w, c, other) if rs is None else rs
        return f" (rounds {spread(rs)})" if len(rs) >= 2 else ""

    def _slowdown_recovery(self):
        """{(profile, workload, config): (recovered s, settled s, steady
        share of the new limit)}, None where never, of the slowdown runs
        as slowdown() reports them."""
        out = {}
        for (p, w), rs in self._slowdown_groups().items():
            unit = unit_of(w)
            new_lim = self._new_limit(rs, unit)[0]
            for r in (x for x in rs if x.get("phase") == "run"):
                series, swap = self.run_series(r, unit)
                if swap is None or not series:
                    out[(p, w, r["config"])] = (None, None, None)
                    continue
                steady, rec, settle = self.slowdown_after(series, swap, new_lim)
                out[(p, w, r["config"])] = (rec, settle,
                                            steady / new_lim if steady and new_lim else None)
        return out

    @staticmethod
    def tie_at_limit(r, share, best_share, rounds=()):
        """Is a ratio R under 1 a tie where the legs, not the policy, set
        the figure?  Both read TIE_AT_LIMIT[0] of the limit or more, and R
        is within TIE_AT_LIMIT[1] of 1, or within TIE_ROUNDS_WITHIN with
        one of the per-round ratios ROUNDS (two or more) at 1 or above.
        The note that says so, or "" if it is not a tie."""
        at, within = TIE_AT_LIMIT
        if r >= 1.0 or not (share and best_share) or min(share, best_share) < at:
            return ""
        if r >= 1.0 - within:
            how = f"within {within:.0%}"
        elif r >= 1.0 - TIE_ROUNDS_WITHIN and len(rounds) >= 2 and max(rounds) >= 1.0:
            how = f"within {TIE_ROUNDS_WITHIN:.0%} and not below in every round"
        else:
            return ""
        return (f"a tie at the legs' limit: both read {ratio(min(share, best_share))} or more of it "
                f"({at:g} or more, and {how}: TIE_AT_LIMIT)")

    def targets(self, policy="adaptive"):
        """Issue 7's targets for POLICY against this run, one verdict each:
        what `docs/policies-beyond.md` judges, from the same numbers."""
        m, c = self.m, f"rb:{policy}"
        if c not in m.configs():
            return
        rows = []
        shaken = {label for label, s in self.load_by_section() if hostload.disturbed(s)}

        def kinds(p):
            return plan.profile_kinds(p)

        def row(target, p, got, want, ok, note=""):
            # ram legs have no rate: the guest's CPU bounds them, and the
            # issue asks for disks calibrated so that it does not
            if any(k not in plan.LEG_MBPS and k != "hdd-seek" for k in kinds(p)):
                want, ok, note = "-", None, "not judged: ram legs, the guest CPU is the limit"
            elif p in shaken:
                note = "; ".join(x for x in (note, "the host disturbed this profile's runs") if x)
            rows.append([target, p, got, want, "-" if ok is None else ("met" if ok else "**not met**"), note])

        w = "seqread-8job"
        for p in (m.profiles if w in m.workloads else []):
            s, mdv, v = m.share(p, w, c), m.value(p, w, "md"), m.value(p, w, c)
            md_share, rounds = m.share(p, w, "md"), self._ratios(p, w, c, "md")
            tie = self.tie_at_limit(v / mdv, s, md_share, rounds) if v and mdv else ""
            ok = None if s is None or mdv is None else s >= 0.95 and (v >= mdv or bool(tie))
            row("8 readers: >= 0.95 of the limit, >= md raid1", p,
                f"{ratio3(s)} of the limit, {ratio3(v / mdv if v and mdv else None)} of md raid1"
                + self._paired_text(p, w, c, "md", rounds),
                f"0.95; md raid1 {ratio(md_share)}", ok, tie)
        w = "seqread-1job"
        for p in (m.profiles if w in m.workloads else []):
            k = kinds(p)
            want = (0.6 if "hdd-seek" in k else
                    0.8 if not {"hdd", "ram"} & set(k) else None)
            s = m.share(p, w, c)
            row("one reader: >= 0.8 of the limit on flash, >= 0.6 with the seek model", p, ratio(s),
                ratio(want) if want else "- (no target: null_blk hdds or ram)",
                None if want is None or s is None else s >= want)
        w = "randread-qd1"
        for p in (m.profiles if w in m.workloads else []):
            if len(set(kinds(p))) < 2:
                continue
            # rounds run back to back (plan.py, round_configs): the median
            # of their ratios, which a slow spell across rounds leaves alone;
            # where the pair also ran side by side, the median of those
            # ratios, which a slow spell within a round leaves alone too
            rs = self._ratios(p, w, c, "linear")
            side = self._side_ratios(p, w, "test", c, "linear")
            note = ""
            if len(side) >= 3:
                r = statistics.median(side)
                how, twin = ("by turns", "against") if self._by_turns() else ("side by side", "beside")
                got = f"{ratio3(r)} {how} (median of {len(side)} rounds, {spread(side)})"
                ctl = self._side_ratios(p, w, "control", "linear2", "linear")
                notes = []
                if ctl:
                    notes.append(f"dm-linear {twin} its twin {ratio3(statistics.median(ctl))} ({spread(ctl)})")
                if rs:
                    notes.append(f"back to back {ratio3(statistics.median(rs))} ({spread(rs)})")
                note = "; ".join(notes)
            elif len(rs) >= 3:
                r = statistics.median(rs)
                got = f"{ratio3(r)} (median of {len(rs)} rounds' ratios, {spread(rs)})"
            else:
                v, lin = m.value(p, w, c), m.value(p, w, "linear")
                r = v / lin if v and lin else None
                got = ratio3(r) + self._paired_text(p, w, c, "linear")
            row("4 KiB QD1, mixed arrays: >= 0.95 of the fastest leg (dm-linear on it)", p,
                got, "0.95", None if r is None else r >= 0.95, note)
        w = "randread-qd32"
        for p in (m.profiles if w in m.workloads else []):
            v = m.value(p, w, c)
            others = {o: m.value(p, w, o) for o in m.configs(p=p, w=w) if o != c}
            others = {o: x for o, x in others.items() if x}
            if not v or not others:
                continue
            best = max(others, key=others.get)
            r = v / others[best]
            shares = m.share(p, w, c), m.share(p, w, best)
            rounds = self._ratios(p, w, c, best)
            tie = self.tie_at_limit(r, *shares, rounds)
            row("4 KiB QD32: >= the fastest leg alone and the best other policy", p,
                f"{ratio3(r)} of {config_label(best)}" + self._paired_text(p, w, c, best, rounds),
                "1.00", r >= 1.0 or bool(tie), tie)
        for (p, w, cfg), rec in sorted(self._slowdown_recovery().items()):
            if cfg != c:
                continue
            rec, settle, steady = rec
            row(f"{w}, the fastest leg slowed to a tenth: within 10% of the new limit in < 2 s", p,
                "never" if rec is None else f"{rec:.1f} s", "2 s", rec is not None and rec < 2.0,
                "" if rec is not None else
                f"steady at {ratio(steady)} of the new limit, settled in "
                + ("never" if settle is None else f"{settle:.1f} s"))
        if not rows:
            return
        met = sum(1 for r in rows if r[4] == "met")
        judged = sum(1 for r in rows if r[4] != "-")
        self.out(f"## Issue 7's targets for {policy}", "",
                 f"From the tables above (each configuration's median run); *rounds*: the range of "
                 f"{policy}'s per-round ratios to the same configuration, rounds of one index "
                 "(md raid1's run a phase later). "
                 f"**{met} of {judged} met.**", "")
        self.out(*md_table(["target", "profile", policy, "wanted", "verdict", "note"], rows, "llllll"), "")

    # ------------------------------------------------------------- slowdown
    def run_series(self, r, unit):
        """A slowdown run's series and swap time: the array's own reads
        (array_series), or fio's log where the sampler did not see them."""
        series, swap = self.array_series(r, unit)
        return (series, swap) if series else self.slowdown_series(r, unit)

    def array_series(self, r, unit, bin_ms=100):
        """[(t_s from the job's start, figure)] per BIN_MS of the reads the
        array device (the run's "top") completed, in UNIT (IOPS: reads;
        MiB/s: their sectors), from the sampler's counters interpolated to
        the bins' edges over the job's window; the swap's time in the same
        scale, or None; ([], None) without samples of it.  Counters lose
        nothing where a sample comes late, as fio's averaged log does (an
        entry is its bytes over the time since fio's log thread last ran,
        so a guest stall stretches one entry over two bins and leaves the
        other without one), and a buffered reader's own log moves a
        read-ahead window at a time while the array reads on."""
        samples, top = self.res.samples, r.get("top")
        if not samples or not top or r.get("t0") is None or r.get("t1") is None:
            return [], None
        ts = [s[0] for s in samples]
        col = 0 if unit == "IOPS" else 1
        scale = 1.0 if unit == "IOPS" else 512 / 1048576.0

        def at(t):
            i = bisect.bisect_left(ts, t * 1e9)
            if i <= 0 or i >= len(samples):
                return None
            v = results._interp_dev(samples, t * 1e9, i, top)
            return v[col] if v else None

        # the job's runtime from its start, not the reads fio reaps after
        t0, dur = r["t0"], (r.get("duration_s") or 0) - (r.get("ramp_s") or 0)
        t1 = min(r["t1"], t0 + dur) if dur > 0 else r["t1"]
        n = int(round((t1 - t0) * 1000)) // bin_ms
        edges = [at(t0 + b * bin_ms / 1000.0) for b in range(n + 1)]
        if n <= 0 or None in edges:
            return [], None
        series = [(b * bin_ms / 1000.0, (edges[b + 1] - edges[b]) * scale * 1000.0 / bin_ms)
                  for b in range(n)]
        swap = r.get("swap_unix")
        return series, (swap - t0) if swap else None

    @staticmethod
    def slowdown_series(r, unit, bin_ms=100):
        """[(t_s from the first sample, figure)] summed over the job's
        clones per BIN_MS, in UNIT (IOPS from KiB/s by the run's KiB per
        I/O); the swap's time in the same scale, or None.  A bin without
        a sample is 0: fio logs an interval only if it moved bytes, and
        one buffered reader waits on a read-ahead window for whole
        intervals.  But an entry is its bytes over the time since fio's
        log thread last ran, which a stalled guest stretches over two
        bins: then the other bin is not 0 and this series reads low.
        Only for runs without samples of the array (run_series)."""
        logs = r.get("bw_series") or []
        m = r.get("m") or {}
        per_io = (m["read"]["bw_kib"] / m["read"]["iops"]) if m.get("read", {}).get("iops") else None
        bins = {}
        for lg in logs:
            for t, kib, _ in lg:
                bins[t // bin_ms] = bins.get(t // bin_ms, 0) + kib
        if not bins:
            return [], None
        b0 = min(bins)
        conv = (lambda k: k / per_io) if unit == "IOPS" and per_io else (lambda k: k / 1024.0)
        series = [((b - b0) * bin_ms / 1000.0, conv(bins.get(b, 0)))
                  for b in range(b0, max(bins) + 1)]
        swap = r.get("swap_unix")
        return series, (swap * 1000 / bin_ms - b0) * bin_ms / 1000.0 if swap else None

    @classmethod
    def slowdown_after(cls, series, swap, new_lim):
        """(steady, recovered s, settled s) of a slowdown run: the mean of
        its last 1.5 s, and the seconds from the swap until it stays within
        10% of the new limit, and of that steady level (None: never)."""
        end = series[-1][0] if series else 0
        tail = [v for t, v in series if t > end - 1.5]
        steady = statistics.mean(tail) if tail else None
        if swap is None:
            return steady, None, None
        return steady, cls.recovery_s(series, swap, new_lim), cls.recovery_s(series, swap, steady)

    @staticmethod
    def _shared_limit(rs, unit):
        """The new limit of a job that keeps N reads in flight (QD32): the
        best split of its N among the legs.  Each leg's rate at d reads is
        from the legs alone at d (the after-depth runs, and the after run
        at N), linear in between and from 0.  None for runs without them
        (before run O) and for writes."""
        after = [r for r in rs if r.get("phase") == "after"]
        deep = [r for r in rs if r.get("phase") == "after-depth"]
        if not after or not deep or after[0].get("io") != "read" or \
                any(r.get("problem") or not r.get("m") for r in after + deep):
            return None
        n = after[0].get("iodepth") or 0
        key = "iops" if unit == "IOPS" else "bw_kib"
        scale = 1.0 if unit == "IOPS" else 1 / 1024.0
        curves = {}
        for r in after + deep:
            curves.setdefault(r["config"], {0: 0.0})[r.get("iodepth") or n] = r["m"]["read"][key] * scale

        def rate(pts, d):
            xs = sorted(pts)
            if d >= xs[-1]:
                return pts[xs[-1]]
            hi = next(x for x in xs if x >= d)
            lo = max(x for x in xs if x <= d)
            return pts[lo] if hi == lo else pts[lo] + (pts[hi] - pts[lo]) * (d - lo) / (hi - lo)

        best = {0: 0.0}     # slots used -> best sum over the legs so far
        for pts in curves.values():
            best = {k: max(best[j] + rate(pts, k - j) for j in best if j <= k) for k in range(n + 1)}
        return max(best.values()) if n else None

    def _new_limit(self, rs, unit):
        """(the new limit a slowdown is judged against, the legs alone's
        sum): the shared limit where the run has it."""
        alone = self._phase_limit(rs, "after", unit)
        shared = self._shared_limit(rs, unit)
        return (shared if shared else alone), alone

    @staticmethod
    def _phase_limit(rs, phase, unit):
        """The limit of the legs alone of a slowdown's PHASE ("before",
        "after"), or None."""
        legs = sorted((r for r in rs if r.get("phase") == phase), key=lambda r: r["config"])
        return results.limit(legs, legs[0]["io"], unit) if legs else None

    def _slowdown_groups(self):
        """{(profile, workload): its slowdown runs}, in the runs' order."""
        groups = {}
        for r in self.res.runs:
            if r.get("section") == "slowdown":
                groups.setdefault((r["profile"], r["workload"]), []).append(r)
        return groups

    @staticmethod
    def recovery_s(series, swap, target, window_s=1.0):
        """Seconds from the swap until every later WINDOW_S average is
        within 10% of TARGET (at least 0.9 of it); None if never.  A
        second, as rbsim judges (SIM_RECOVER_WINDOW_S): 8 buffered
        readers get their data a read-ahead window at a time, and a half
        second holds too few windows to tell a steady policy from a
        slow one (run U's plot: adaptive's half seconds before the swap
        read about 0.55 to 1.15 of the limit it averaged 0.98 of)."""
        after = [(t, v) for t, v in series if t > swap]
        if not after or not target:
            return None
        n = max(1, int(round(window_s / 0.1)))
        ok_from = None
        for i in range(0, len(after) - n + 1):
            avg = sum(v for _, v in after[i:i + n]) / n
            if avg >= 0.9 * target:
                ok_from = after[i][0] if ok_from is None else ok_from
            else:
                ok_from = None
        return None if ok_from is None else max(0.0, ok_from - 0.1 - swap)

    def slowdown(self):
        runs = [r for r in self.res.runs if r.get("section") == "slowdown"]
        if not runs:
            return
        at = runs[0].get("at_s")
        qd = runs[0].get("queue_depths")
        self.out("## A leg slowed to a tenth mid-run (issue 7)", "",
                 "Every leg sits under a dm-linear wrapper" +
                 (" (the readbal table gives each its disk's `queue_depth`, as `readbal create` "
                  "does for stacked legs: a wrapper has no tags of its own)" if qd else "") +
                 "; the jobs and the legs' rates are the matrix's (the job options and legs at a scale "
                 "of their rate in *How it runs*; the scale in each table's heading)"
                 f"; {at} s into a 5 s run the fastest leg's "
                 "wrapper is swapped (suspend, load, resume) for dm-delay with 9 times that leg's own mean "
                 "latency under the workload, checked on that leg alone and corrected (up to four probes, "
                 "interpolated) until it runs at 0.07-0.14 of its rate (the delay and the share reached "
                 "are in each table's heading). *new limit*: "
                 "the legs alone afterwards, the slowed one included; for a job that keeps N reads in flight "
                 "(QD32), the best split of its N among the legs, from each leg alone at 2, 4, 8, 16, 24 and "
                 "N reads in flight (since run O; each leg alone has all N, and the sum of those, in the "
                 "heading, is more than a mirror reaches with N: the slowed leg's rate grows with its reads "
                 "in flight). *recovered*: seconds from the swap "
                 "until every later second is at least 0.9 of the new limit (the target: under 2 s; "
                 "a second, as rbsim judges: 8 buffered readers get their data a read-ahead window at a "
                 "time, and half seconds swing with the windows even before the swap); "
                 "*settled*: the same against the policy's own steady level; "
                 "*steady*: the last 1.5 s against the new limit; *before*: the last second before the swap "
                 "against the old limit (the legs alone before the swap). All four are from the reads the "
                 "array device completed in 100 ms bins (the sampler's counters, interpolated to the bins' "
                 "edges; fio's bandwidth log before run AL: an entry there is its bytes over the time "
                 "since fio's log thread last ran, so a stalled guest stretched one entry over two bins and "
                 "left the other empty, and a buffered reader's log moves a read-ahead window at a "
                 "time); the array's reads run ahead of fio's while buffered readers' windows grow, "
                 "so their *before* can exceed 1.", "")
        for (p, w), rs in self._slowdown_groups().items():
            unit = unit_of(w)
            new_lim, alone = self._new_limit(rs, unit)
            old_lim = self._phase_limit(rs, "before", unit)
            delay = next((r.get("delay_ms") for r in rs if r.get("phase") == "run" and r.get("delay_ms")), None)
            share = next((r.get("slowed_to") for r in rs if r.get("phase") == "run" and r.get("slowed_to")), None)
            rows, plot = [], []
            for r in (x for x in rs if x.get("phase") == "run"):
                series, swap = self.run_series(r, unit)
                if r.get("problem") and not series:
                    rows.append([config_label(r["config"]), "-", "-", "-", "-", r["problem"]])
                    continue
                pre = [v for t, v in series if swap is not None and swap - 1.0 <= t < swap]
                steady, rec, settle = self.slowdown_after(series, swap, new_lim)
                rows.append([config_label(r["config"]),
                             f"{num(statistics.mean(pre))} ({ratio(statistics.mean(pre) / old_lim if old_lim else None)})"
                             if pre else "-",
                             f"{num(steady)} ({ratio(steady / new_lim if new_lim and steady else None)})",
                             "never" if rec is None else f"{rec:.1f} s",
                             "never" if settle is None else f"{settle:.1f} s", ""])
                plot.append((config_label(r["config"]), series, swap))
            scale = rs[0].get("leg_scale", 1)
            self.out(f"**{p}, {w}** ({unit}; {f'legs at {scale:g} of their rate; ' if scale != 1 else ''}"
                     f"the fastest leg, leg {rs[0].get('fastest')}, delayed "
                     f"{delay} ms{f', alone at {share:.2f} of its rate' if share else ''}): new limit {num(new_lim)}"
                     f"{f' (the legs alone, each with all the reads: {num(alone)})' if alone != new_lim else ''}"
                     f", old limit {num(old_lim)}", "")
            self.out(*md_table(["policy", "before (share)", "steady after (share)", "recovered",
                                "settled", "note"], rows, "lrrrrl"), "")
            if plot:
                self.plot_slowdown(p, w, unit, plot, new_lim)

    def plot_slowdown(self, p, w, unit, plot, new_lim):
        ts = sorted({round(t, 1) for _, series, _ in plot for t, _ in series})
        cols = []
        for _, series, swap in plot:
            d = {round(t - (swap or 0) + (plot[0][2] or 0), 1): v for t, v in series}
            cols.append(d)
        rows = [[t] + [c.get(t, "NaN") for c in cols] + [new_lim or "NaN"] for t in ts]
        data = self._datablock("d", ["t"] + [lbl for lbl, _, _ in plot] + ["new limit"], rows)
        lines = ", ".join(f"$d using 1:{i + 2} with lines lw 2 title columnhead({i + 2})"
                          for i in range(len(plot)))
        swap = plot[0][2] or 0
        name = f"slowdown-{p}-{w}".replace("+", "_")
        self._gnuplot(name, data + (
            f"set title 'A leg slowed to a tenth at {swap:.1f} s: {p}, {w} ({unit} per 100 ms)'\n"
            f"set xlabel 'seconds'\nset ylabel '{unit}'\nset grid\nset key outside right top\n"
            f"set arrow from {swap},graph 0 to {swap},graph 1 nohead dt 2\nset yrange [0:*]\n"
            f"plot {lines}, $d using 1:{len(plot) + 2} with lines dt 3 lc rgb 'black' title 'new limit'\n"))

    # ------------------------------------------------------------------ lvm
    def lvm(self):
        """tests/integration/63-lvm-compare.sh's table, run in the same
        guest after the benchmark (bench/run --full)."""
        path = os.path.join(self.res.dir, "lvm-compare.tsv")
        if not os.path.exists(path):
            return
        with open(path) as f:
            lines = f.read().splitlines()
        notes = [ln[1:].strip() for ln in lines if ln.startswith("#")]
        rows = [ln.split("\t") for ln in lines if ln and not ln.startswith("#")]
        if len(rows) < 2:
            return
        rows = rows[1:]  # below the header row
        self.out("## LVM: lvm raid1 and lvm mirror beside readbal on the same PVs", "",
                 "`tests/integration/63-lvm-compare.sh`, run in the same guest right after the "
                 "benchmark: lvm2's `raid1` (md raid1 through dm-raid) and `mirror` (dm-mirror) "
                 "segment types and a readbal mirror over two linear LVs, all on the same two PVs "
                 "(an hdd and an ssd null_blk disk), each mirror alone in turn. "
                 + " ".join(notes), "")
        by = {}
        for r in rows:
            by.setdefault(r[1], {})[r[0]] = r
        table = []
        for w, ms in by.items():
            base = ms.get("raid1")
            for k, r in ms.items():
                try:
                    mib, iops, l0, l1 = float(r[2]), float(r[3]), int(r[4]), int(r[5])
                except (ValueError, IndexError):
                    continue
                rel = (f"{iops / float(base[3]):.2f}x" if base and float(base[3]) > 0 else "-")
                ssd = f"{100 * l1 / (l0 + l1):.0f}%" if l0 + l1 else "-"
                table.append([w, k, num(mib), num(iops), rel, ssd])
        self.out(*md_table(["workload", "mirror", "MiB/s", "IOPS", "/ lvm raid1", "reads on the ssd"],
                           table, "llrrrr"), "")

    # ---------------------------------------------------------------- main
    def build(self):
        self.header()
        self.findings()
        self.headline()
        self.calibration()
        self.workloads()
        self.cpu()
        self.seed004()
        self.seed003()
        self.slowdown()
        self.targets()
        self.lvm()
        self.csv()
        self.rbsim()
        self.howto()
        return "\n".join(self.lines).rstrip() + "\n"


# ------------------------------------------------------------------ checks
def checks(res, rep):
    """make check's smoke verdicts: one PASS/FAIL line each."""
    out = []

    def verdict(name, ok, why=""):
        out.append(f"{'PASS' if ok else 'FAIL'} bench-smoke:{name}" + ("" if ok else f" ({why})"))

    m = rep.m
    verdict("guest-finished", res.meta.get("status") == "complete", res.meta.get("status", "no meta.json"))
    mode = plan.MODES.get(res.conf.get("mode", ""), {})
    wanted = res.conf.get("workloads") or mode.get("workloads", [])
    peers = res.conf.get("peers", mode.get("peers", plan.PEERS))
    for w in wanted:
        rs = [r for r in res.runs if r.get("section") == "matrix" and r.get("workload") == w]
        bad = [f"{r['config']}: {r['problem']}" for r in rs if r.get("problem")]
        zero = [r["config"] for r in rs if not bad and (results.value(r, unit_of(w)) or 0) <= 0]
        configs = {r["config"] for r in rs}
        missing = [c for c in peers + ["leg:0"] if c not in configs]
        nolimit = [p for p in m.profiles if m.limits.get((p, w, 1)) is None]
        ok = rs and not bad and not zero and not missing and not nolimit and any(
            c.startswith("rb:") for c in configs)
        verdict(w, ok, "; ".join(bad[:3] + [f"zero: {zero}"] * bool(zero) + [f"missing {missing}"] * bool(missing)
                                 + [f"no limit on {nolimit}"] * bool(nolimit)) or "no runs")
    s4 = [r for r in res.runs if r.get("section") == "seed004"]
    if s4:
        r = s4[0]
        n = len(r.get("legs") or [])
        top_w = r.get("run_top_w_sectors") or r.get("top_w_sectors")
        legs_w = r.get("run_legs_w_sectors") or r.get("legs_w_sectors") or 0
        amp = legs_w / top_w if top_w else None
        verdict("write-amplification", amp is not None and abs(amp - n) < 0.005,
                f"legs wrote {ratio(amp)}x the mirror, want {n}")
    seek = [s for s in res.seekstats if int(s["stats"].get("miss", 0)) > 0]
    verdict("seek-emulator", bool(seek), "no seek filter statistics")
    verdict("report", os.path.exists(rep.md_path) and bool(rep.plots) and all(
        os.path.getsize(p) > 1000 for p in rep.plots), "markdown or plots missing")
    return out


KEEP_MARKER = ("<!-- End of the generated report (bench/report). Sections below this line are "
               "written by hand and kept when the report is regenerated. -->")


def kept_tail(path):
    """What follows KEEP_MARKER in the report being replaced: other issues'
    hand-written sections (e.g. issue 3's overhead table) survive a rerun."""
    try:
        with open(path) as f:
            old = f.read()
    except OSError:
        return ""
    i = old.find(KEEP_MARKER)
    return old[i + len(KEEP_MARKER):].lstrip("\n") if i >= 0 else ""


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/report", description=__doc__)
    ap.add_argument("results", help="RESULTS/bench dir of bench/run")
    ap.add_argument("--md", default=None, help="markdown output (default RESULTS/../report/benchmarks.md)")
    ap.add_argument("--plots", default=None, help="PNG dir (default next to the markdown, plots/)")
    ap.add_argument("--check", action="store_true", help="print PASS/FAIL lines (make check's smoke)")
    ap.add_argument("--calibration", default=None,
                    help="RESULTS/bench of a separate bench/run --calibrate, reported after this run's")
    a = ap.parse_args(argv)
    res = results.Results(a.results)
    cal = results.Results(a.calibration) if a.calibration else None
    md = a.md or os.path.join(a.results, "..", "report", "benchmarks.md")
    plots = a.plots or os.path.join(os.path.dirname(md), "plots")
    os.makedirs(os.path.dirname(os.path.abspath(md)), exist_ok=True)
    if os.path.isdir(plots):     # no stale plots of an earlier report
        for n in os.listdir(plots):
            if n.endswith(".png"):
                os.unlink(os.path.join(plots, n))
    rep = Report(res, plots, md, cal)
    text = rep.build() + "\n" + KEEP_MARKER + "\n" + kept_tail(md)
    with open(md, "w") as f:
        f.write(text)
    print(f"report: {md} ({len(text.splitlines())} lines), {len(rep.plots)} plots in {plots}")
    if a.check:
        lines = checks(res, rep)
        print("\n".join(lines))
        return 1 if any(ln.startswith("FAIL") for ln in lines) else 0
    return 0
