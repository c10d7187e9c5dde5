# SPDX-License-Identifier: GPL-2.0
"""The host's load while a benchmark guest runs: other engineers' QEMU
guests share the 2 cores, and the report must say when they disturbed a
run.  bench/run starts this on the host for the length of the run:

    python3 -m rbbench.hostload OUT.tsv MARK

Every 5 s one line: unix time, load average (1 min), host CPU busy %
(all cores), the number of other qemu-system processes (those whose
command line lacks MARK, the benchmark's results dir), the CPU seconds
they used over the interval, and the CPU seconds the whole host used
beyond the benchmark's own guest (other guests, builds, anything).
summary() reads the file back.

That last column is the run time of every other task (threads included,
/proc/*/task/*/schedstat), not /proc/stat's busy time less our guest's:
/proc/stat counts a core busy for a whole tick when a task ran at the
tick, and QEMU's short bursts made that 0.2 to 0.6 cores more than any
task ran (measured with nothing else on the host).  Tasks that began and
ended within one interval are not seen."""

import os
import sys
import time

PERIOD_S = 5.0
HZ = os.sysconf("SC_CLK_TCK")


def _host_busy():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def _qemus(mark):
    """{pid: utime + stime ticks} of qemu-system processes: (not ours, ours)."""
    out, ours = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            if not cmd.startswith("qemu-system") and "/qemu-system" not in cmd.split(" ", 1)[0]:
                continue
            with open(f"/proc/{pid}/stat") as f:
                st = f.read().rsplit(")", 1)[1].split()
            (ours if mark in cmd else out)[int(pid)] = int(st[11]) + int(st[12])
        except (OSError, IndexError, ValueError):
            continue
    return out, ours


def _tasks_ns(mark):
    """{tid: ns on a CPU} of every task but our guest's (MARK in its
    command line), or None where schedstat is missing."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if mark.encode() in f.read():
                    continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    out[int(tid)] = int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            continue        # gone meanwhile
        except (OSError, IndexError, ValueError):
            return None
    return out


def _delta(now, before, unit=HZ):
    """CPU seconds of processes alive at both ends, new ones from their
    start; UNIT: their counters' ticks per second."""
    return sum(t - before.get(pid, 0) for pid, t in now.items()) / unit


def sample(path, mark):
    prev_q, prev_o = _qemus(mark)
    prev_b, prev_t = _host_busy(), _tasks_ns(mark)
    while True:
        time.sleep(PERIOD_S)
        (q, o), b, t = _qemus(mark), _host_busy(), _tasks_ns(mark)
        cpu = _delta(q, prev_q)
        busy = 100.0 * (b[0] - prev_b[0]) / max(1, b[1] - prev_b[1])
        if t is not None and prev_t is not None:
            rest = _delta(t, prev_t, 1e9)
        else:
            rest = max(0.0, (b[0] - prev_b[0]) / HZ - _delta(o, prev_o))
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
        with open(path, "a") as f:
            f.write(f"{time.time():.0f}\t{load}\t{busy:.1f}\t{len(q)}\t{cpu:.2f}\t{rest:.2f}\n")
        prev_q, prev_o, prev_b, prev_t = q, o, b, t


def parse(text):
    """[(unix time, load1, busy %, other guests, their CPU s, the rest's CPU
    s or None)] per sample (files of an older sampler lack the last)."""
    rows = []
    for line in text.splitlines():
        f = line.split("\t")
        try:
            rows.append((float(f[0]), float(f[1]), float(f[2]), int(f[3]), float(f[4]),
                         float(f[5]) if len(f) > 5 else None))
        except (IndexError, ValueError):
            continue
    return rows


def summary(text, start=None, end=None):
    """{samples, seconds, load_mean, load_max, busy_mean, others_frac
    (share of the time another guest ran), others_cores (their mean CPU,
    in cores)} over the samples whose interval overlaps [start, end] (unix
    seconds; all by default), or None without samples."""
    rows = [r for r in parse(text) if (start is None or r[0] > start) and
            (end is None or r[0] - PERIOD_S < end)]
    if not rows:
        return None
    n = len(rows)
    secs = n * PERIOD_S
    return {
        "samples": n, "seconds": secs,
        "load_mean": sum(r[1] for r in rows) / n, "load_max": max(r[1] for r in rows),
        "busy_mean": sum(r[2] for r in rows) / n,
        "others_frac": sum(1 for r in rows if r[3]) / n,
        "others_cores": sum(r[4] for r in rows) / secs,
        "rest_cores": (sum(r[5] for r in rows) / secs) if all(r[5] is not None for r in rows) else None,
    }


# Other guests using more than this many host cores on average disturbed
# the run: the benchmark guest alone keeps the 2 cores near busy.  The
# rest of the host (other guests included) may use a little more.
DISTURBED_CORES = 0.2
DISTURBED_REST_CORES = 0.3


def disturbed(s):
    return bool(s) and (s["others_cores"] > DISTURBED_CORES or
                        (s.get("rest_cores") or 0) > DISTURBED_REST_CORES)


def load_cores(s):
    """What else ran on the host, in cores: the rest if sampled, else other guests."""
    return s["rest_cores"] if s.get("rest_cores") is not None else s["others_cores"]


def describe(s):
    """One sentence for the report's header."""
    if not s:
        return "not sampled"
    text = (f"load average {s['load_mean']:.1f} mean, {s['load_max']:.1f} max; host CPU "
            f"{s['busy_mean']:.0f}% busy; other QEMU guests ran {100 * s['others_frac']:.0f}% of "
            f"the time and used {s['others_cores']:.2f} of the 2 cores on average")
    if s.get("rest_cores") is not None:
        text += f"; all but this guest {s['rest_cores']:.2f} cores"
    if disturbed(s):
        return text + " — **disturbed**: compare within a table, not across runs"
    return text + " — undisturbed"


if __name__ == "__main__":
    try:
        sample(sys.argv[1], sys.argv[2])
    except KeyboardInterrupt:
        pass
