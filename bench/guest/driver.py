#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark inside the guest (started by bench/guest/bench.sh under
tests/vm/run).  Reads $RB_RESULTS/bench/conf.json, builds each array profile
on emulated disks, runs the fio/ job templates on every readbal policy and
the peers, and leaves fio's JSON and logs, samples.tsv and runs.jsonl (one
record per measured job) in $RB_RESULTS/bench for bench/report.

Every exec costs 0.1 s to several seconds under TCG (fio links 64
libraries; a fork of it copies their mappings), so:
- each phase of a profile is ONE fio process, its configurations following
  one another as stonewalled jobs run as threads;
- every policy gets its own readbal device on the same legs (dm lets its
  devices share legs), so nothing switches policy between jobs;
- dm devices are made through the dm ioctls (rbbench/dmioctl.py);
- a sampler thread reads /proc/stat and the disks' stat files every 100 ms;
  fio's bandwidth logs (unix time stamps) give each job's window, and the
  report takes guest CPU busy and each leg's I/O over that window.

Phase 1 of a profile: each leg alone (one after the other), readbal under every policy, dm-mirror,
dm-linear on the fastest leg.  Phase 2: each leg alone again (md's limit,
measured minutes later) and md raid1, which cannot open legs dm holds.
"""

import glob
import json
import math
import os
import shlex
import subprocess
import sys
import threading
import time

REPO = os.environ.get("RB_REPO") or os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
sys.path.insert(0, os.path.join(REPO, "bench"))
from rbbench import dmioctl, fiojob, plan, results  # noqa: E402

RES = os.path.join(os.environ.get("RB_RESULTS", "/tmp"), "bench")
LIBS = "; ".join(". " + shlex.quote(os.path.join(REPO, p)) for p in (
    "tests/lib/common.sh", "tests/lib/disks.sh", "bench/guest/seekdisk.sh"))
MIR = "rbb-mirror"    # dm-mirror
LIN = "rbb-linear"    # dm-linear on the fastest leg
LIN2 = "rbb-linear2"  # its twin: the control of the side-by-side rounds
MD = "md0"
CG = "/sys/fs/cgroup"
LOG_MS = 100          # fio log interval and sampler period
# the slowdown's runs: no ramp, its clock starts with the first read
SD_RUN = {"runtime": "1", "ramp_time": ""}
# reads in flight at which the slowdown measures each leg alone, below the
# job's own depth (the shared limit of bench/rbbench/report.py)
SD_DEPTHS = (2, 4, 8, 16, 24)
# null_blk legs of the arrays, MiB.  No buffered read may wrap around
# within a run: at each wrap fio invalidates the page cache of the whole
# device (BLKFLSBUF), a stall of about 300 ms in this guest that also drops
# the other readers' read-ahead.  2 GiB holds one reader at 300 MiB/s and
# each of 8 readers' 246 MiB slices for the 4 s ramp and the 8 s run up to
# 160 MiB/s in all (every array but 2ram, whose readers do wrap), and costs
# memory only where written (null_blk allocates on write; a write run
# rewrites its slices' starts).
LEG_MB = 2048
# Kinds whose legs are another size:
# - ram is 512 MiB: uncapped, its write runs cover most of a leg, and
#   null_blk's pages cannot be reclaimed: two 2 GiB legs outgrew the
#   guest's 2 GiB, and two 1 GiB ones did too once 8 readers ran 3 rounds
#   (run P: the OOM killer took fio at the end of 2ram's md phase); two
#   512 MiB legs hold at most 1 GiB.  Its readers wrap at any size.
# - hdd-seek stays at 1 GiB: the seek model's times and zones are fractions
#   of its capacity (sqrt(distance / capacity)), so the calibration holds
#   for this size, and its 8 readers (under 40 MiB/s) do not wrap 123 MiB
#   slices in 12 s; at 256 MiB, 8 readers on 2hdd-seek+ssd wrapped within
#   the run (strace: BLKFLSBUF every 0.5 s).
KIND_LEG_MB = {"ram": 512, "hdd-seek": 1024}
T0 = time.monotonic()


def log(*a):
    line = "[%7.1f] %s" % (time.monotonic() - T0, " ".join(str(x) for x in a))
    print(line, flush=True)
    with open(os.path.join(RES, "log.txt"), "a") as f:
        f.write(line + "\n")


def sh(cmd, check=True):
    """Runs a bash snippet with the disk helpers sourced; returns stdout."""
    p = subprocess.run(["bash", "-c", f"set -e; {LIBS}; {cmd}"], capture_output=True, text=True)
    if p.returncode and check:
        raise RuntimeError(f"failed ({p.returncode}): {cmd}\n{p.stdout}{p.stderr}")
    return p.stdout


def record(name, rec):
    with open(os.path.join(RES, name), "a") as f:
        f.write(json.dumps(rec, sort_keys=True) + "\n")


def rb_name(policy):
    return f"rbb-{policy}"


def readbal_table(sectors, paths, policy, preferred=None, depths=None):
    """A readbal table line over PATHS; the device policy gets PREFERRED
    (a leg index) as its preferred leg, every other policy no arguments.
    DEPTHS: each leg's queue_depth feature (legs stacked on another dm
    device, as `readbal create` gives them), 0 or None for none."""
    args = f"2 preferred {preferred}" if policy == "device" and preferred is not None else "0"
    feats = [f"queue_depth {i} {d}" for i, d in enumerate(depths or []) if d]
    return (f"0 {sectors} readbal {len(paths)} " + " ".join(f"{p} 0" for p in paths) + f" {policy} {args}"
            + (f" {3 * len(feats)} " + " ".join(feats) if feats else ""))


def nr_requests(path):
    """The request queue depth of the disk at PATH (0 if unknown)."""
    try:
        with open(f"/sys/block/{os.path.basename(os.path.realpath(path))}/queue/nr_requests") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 0


def mdadm_create(paths):
    subprocess.run(["mdadm", "--create", f"/dev/{MD}", "--run", "--assume-clean", "--level=1",
                    f"--raid-devices={len(paths)}", "--bitmap=none", "--metadata=1.2"] + paths,
                   check=True, capture_output=True)


def mdadm_stop():
    subprocess.run(["mdadm", "--stop", f"/dev/{MD}"], capture_output=True)


class Stuck(Exception):
    """fio did not exit when killed: its I/O is stuck, the disks with it."""


class Deadline(Exception):
    pass


class Bench:
    def __init__(self, conf):
        self.conf = conf
        self.mode = plan.MODES[conf["mode"]]
        self.deadline = T0 + conf.get("deadline_s", self.mode["deadline_s"])
        self.policies = None
        self.overhead = 1.0      # seconds per fio job beyond its runtime (learnt)
        self.fio_start = 5.0     # seconds to start fio (learnt)
        self.seq = 0
        self.dm = []             # dm devices made, for removal
        for d in ("fio", "work", "logs", "bwlog", "snaps"):
            os.makedirs(os.path.join(RES, d), exist_ok=True)

    # ---------------------------------------------------------------- setup
    def setup(self):
        # one exec each: an exec costs up to seconds under TCG
        subprocess.run(["modprobe", "-a", "dm-mirror", "raid1"], check=False)
        subprocess.run(["modprobe", "nbd", "nbds_max=16"], check=False)
        if not os.path.exists(f"{CG}/cgroup.controllers"):
            subprocess.run(["mount", "-t", "cgroup2", "none", CG], check=True)
        with open(f"{CG}/cgroup.subtree_control", "w") as f:
            f.write("+io +memory")
        # fio's page cache is held to 256 MiB (memory.high: reclaimed, never
        # an OOM kill; fio's own memory, shm for 90 jobs and 60 MiB of
        # 1280k buffers, stays well below): a reader that loops over its
        # slice (the calibration's 256 MiB seek disk) reads the disk, not
        # cache.  Probed over 3 s runs: at 96, 128 and 256 MiB the legs read
        # at least what fio did.
        os.makedirs(f"{CG}/rbbench/fio", exist_ok=True)
        with open(f"{CG}/rbbench/cgroup.subtree_control", "w") as f:
            f.write("+memory")
        with open(f"{CG}/rbbench/fio/memory.high", "w") as f:
            f.write(str(256 << 20))
        fio_v = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "?")
        meta = {
            "mode": self.conf["mode"], "command": self.conf.get("command", ""),
            "kernel": os.uname().release, "kernel_version": os.uname().version,
            "guest_cpu": model, "guest_cpus": os.cpu_count(),
            "guest_mem_kb": int(open("/proc/meminfo").readline().split()[1]),
            "fio": fio_v, "seek_args": os.environ.get("RB_SEEK_ARGS", ""),
            "host": self.conf.get("host", {}), "started": time.time(),
            "runtime": self.conf.get("runtime") or self.mode["runtime"], "log_ms": LOG_MS,
        }
        with open(os.path.join(RES, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
        self.sampler_stop = threading.Event()
        self.sampler = threading.Thread(target=self._sampler, daemon=True)
        self.sampler.start()

    def _sampler(self):
        """Every LOG_MS: time, the cpu line of /proc/stat, and fields 1, 3,
        5, 7 (reads, read sectors, writes, write sectors) of every disk's
        stat.  In-process reads: no exec."""
        with open(os.path.join(RES, "samples.tsv"), "w") as out:
            while not self.sampler_stop.is_set():
                t = time.time_ns()
                with open("/proc/stat") as f:
                    cpu = ",".join(f.readline().split()[1:9])
                devs = []
                for d in os.listdir("/sys/block"):
                    if d.startswith(("loop", "ram", "nbd")) and not os.path.exists(f"/sys/block/{d}/pid"):
                        continue
                    try:
                        with open(f"/sys/block/{d}/stat") as f:
                            s = f.read().split()
                    except OSError:
                        continue
                    devs.append(f"{d}:{s[0]},{s[2]},{s[4]},{s[6]}")
                out.write(f"{t}\t{cpu}\t{' '.join(devs)}\n")
                out.flush()
                self.sampler_stop.wait(LOG_MS / 1000)

    @staticmethod
    def disk_stats():
        """{disk: [reads, read sectors, writes, write sectors]} now."""
        out = {}
        for d in os.listdir("/sys/block"):
            try:
                with open(f"/sys/block/{d}/stat") as f:
                    s = f.read().split()
                out[d] = [int(s[0]), int(s[2]), int(s[4]), int(s[6])]
            except (OSError, IndexError, ValueError):
                continue
        return out

    def finish(self, status):
        time.sleep(0.3)
        self.sampler_stop.set()
        self.sampler.join()
        with open(os.path.join(RES, "meta.json")) as f:
            meta = json.load(f)
        meta.update({"finished": time.time(), "status": status, "policies": self.policies,
                     "guest_seconds": time.monotonic() - T0})
        with open(os.path.join(RES, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1, sort_keys=True)

    # ---------------------------------------------------------------- disks
    def make_legs(self, kinds, prefix, mb=None, scale=1):
        """Creates the legs (null_blk ones at plan.LEG_MBPS times SCALE and
        plan.LEG_MAX_SECTORS), of MB MiB or their kind's size (KIND_LEG_MB,
        else LEG_MB); returns [(name, /dev path, kernel name)]."""
        cmds, names = [], []
        for i, kind in enumerate(kinds):
            name = f"{prefix}{i}"
            size = mb or KIND_LEG_MB.get(kind, LEG_MB)
            rate = f" mbps={plan.leg_mbps(kind, scale)}" if kind in plan.LEG_MBPS else ""
            cmds.append(f"rb_seek_disk {name} size={size} >/dev/null" if kind == "hdd-seek"
                        else f"rb_disk {name} {kind} size={size}{rate} "
                             f"max_sectors={plan.LEG_MAX_SECTORS} >/dev/null")
            names.append(name)
        sh("; ".join(cmds))
        out = []
        for name in names:
            k = os.path.basename(os.path.realpath(f"/dev/rb/{name}"))
            out.append((name, f"/dev/{k}", k))
        return out

    def remove_legs(self, legs):
        # one shell for all (an exec each is slow); a failed removal stops no other
        sh("; ".join((f"rb_seek_disk_rm {name}" if os.path.exists(f"/run/rb-seek/{name}.nbd")
                      else f"rb_disk_rm {name}") + " || true" for name, _, _ in legs), check=False)
        for name, _, _ in legs:
            stats = f"/run/rb-seek/{name}.stats"
            if os.path.exists(stats):     # the seek filter's, written at exit
                with open(stats) as f:
                    record("seekstats.jsonl", {"disk": name, "t": time.time(),
                                               "stats": dict(ln.split() for ln in f if ln.strip())})
                os.unlink(stats)

    @staticmethod
    def sectors(kname):
        with open(f"/sys/block/{kname}/size") as f:
            return int(f.read())

    def dm_create(self, name, table):
        """Kernel name of the new device, or None if the kernel refused it."""
        try:
            k = dmioctl.create(name, table)
        except OSError as e:
            log(f"  dm create {name} refused ({e}): {table}")
            record("errors.jsonl", {"step": f"create {name}", "error": str(e), "table": table})
            return None
        self.dm.append(name)
        return k

    def dm_remove_all(self):
        for name in reversed(self.dm):
            try:
                dmioctl.remove(name)
            except OSError as e:
                log(f"  dm remove {name}: {e}")
        self.dm = []

    # ------------------------------------------------------------------ fio
    def job(self, tag, template, dev, overrides=None, alongside=False):
        """One job: the template's options on DEV, as threads, with a
        bandwidth log of unix time stamps (the job's window).  It waits for
        the jobs before it (stonewall) unless ALONGSIDE: then it runs with
        the previous one, reported apart (new_group)."""
        opts = dict(template[1])
        opts.update({"new_group": None, "filename": dev, "thread": None})
        if not alongside:
            opts = {"stonewall": None, **opts}
        for k, v in (overrides or {}).items():
            if v == "":
                opts.pop(k, None)
            else:
                opts[k] = v
        if "ramp_time" in opts and fiojob.parse_time(opts.get("runtime", "0")) < 2:
            # short runs: direct I/O fills its queue at once, but buffered
            # readers' read-ahead windows take their job file's ramp to grow
            cap = 2.0 if fiojob.is_buffered(opts) else 0
            opts["ramp_time"] = str(min(cap, fiojob.parse_time(opts["ramp_time"])))
        opts.update({"write_bw_log": os.path.join(RES, "bwlog", tag), "log_avg_msec": str(LOG_MS),
                     "log_unix_epoch": "1"})
        return (tag, opts)

    @staticmethod
    def _into_cgroup(cg):
        def move():
            with open(f"{CG}/{cg}/cgroup.procs", "w") as f:
                f.write(str(os.getpid()))
        return move

    @staticmethod
    def serial_s(jobs):
        """Seconds of I/O the jobs take, those run alongside counted once."""
        return sum(fiojob.duration_s(o) for _, o in jobs if "stonewall" in o or o is jobs[0][1])

    def run_fio(self, label, jobs, meta, cgroup="rbbench/fio", during=None):
        """Runs JOBS in one fio and records each job of META (tag ->
        record) in runs.jsonl.  DURING: (seconds, fn): fn() runs that long
        after fio started, and the dict it returns joins every record.
        Past the time budget: records them as skipped and raises
        Deadline."""
        serial = [o for _, o in jobs if "stonewall" in o] or [jobs[0][1]]
        est = self.fio_start + self.serial_s(jobs) + self.overhead * len(serial)
        left = self.deadline - time.monotonic()
        if est > left:
            log(f"SKIP {label}: needs ~{est:.0f}s, {left:.0f}s left")
            for tag, _ in jobs:
                if tag in meta:
                    record("runs.jsonl", dict(meta[tag], tag=tag, skipped="time budget"))
            raise Deadline(label)
        self.seq += 1
        base = f"{self.seq:03d}-{label}"
        jobfile = os.path.join(RES, "fio", base + ".fio")
        out = os.path.join(RES, "fio", base + ".json")
        with open(jobfile, "w") as f:
            f.write(fiojob.render(jobs))
        log(f"fio {label}: {len(jobs)} jobs, ~{est:.0f}s")
        before = self.disk_stats()
        t = time.monotonic()
        extra = {}
        p = subprocess.Popen(["fio", "--output-format=json", f"--output={out}", jobfile],
                             cwd=os.path.join(RES, "work"), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             preexec_fn=self._into_cgroup(cgroup) if cgroup else None)
        try:
            if during:
                time.sleep(during[0])
                extra = during[1]() or {}
            text = p.communicate(timeout=max(120, 3 * est + 60))[0]
            rc = p.returncode
        except subprocess.TimeoutExpired as e:
            self.stuck_report(base)
            p.kill()
            try:
                p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                raise Stuck(f"fio {label} timed out and did not exit when killed "
                            f"(logs/{base}.stuck)")
            for _ in range(20):  # a killed fio's reads still end, or never
                busy = self.in_flight()
                if not busy:
                    break
                time.sleep(0.5)
            else:
                raise Stuck(f"fio {label} timed out, and reads on {', '.join(busy)} "
                            f"never end (logs/{base}.stuck)")
            rc, text = "timeout", f"fio timed out: {e}"
        wall = time.monotonic() - t
        # every I/O of the run has ended with fio: exact counts per run
        record("fiostats.jsonl", {"fio": os.path.basename(out), "before": before, "after": self.disk_stats()})
        if rc:
            log(f"  fio exit {rc}{' (killed)' if rc == -9 else ''}: {text.strip()[:600]}")
            record("errors.jsonl", {"step": f"fio {label}", "error": f"exit {rc}: {text.strip()[:300]}"})
        with open(os.path.join(RES, "logs", base + ".out"), "w") as f:
            f.write(text)
        busy = self.serial_s(jobs)
        n = max(1, len(serial))
        per = max(0.0, wall - busy - self.fio_start) / n
        self.overhead = max(0.2, min(5.0, 0.5 * self.overhead + 0.5 * per))
        log(f"  {wall:.1f}s, {(wall - busy) / n:.2f}s per job beyond its runtime")
        for tag, o in jobs:
            if tag in meta:
                record("runs.jsonl", dict(meta[tag], **extra, tag=tag, fio=os.path.basename(out), wall=wall,
                                          duration_s=fiojob.duration_s(o),
                                          ramp_s=fiojob.parse_time(o.get("ramp_time", "0")),
                                          bwlog=tag))
        return out

    @staticmethod
    def in_flight():
        """{disk: (reads, writes)} of the disks with I/O in flight."""
        out = {}
        for d in sorted(os.listdir("/sys/block")):
            try:
                with open(f"/sys/block/{d}/inflight") as f:
                    r, w = f.read().split()
            except (OSError, ValueError):
                continue
            if r != "0" or w != "0":
                out[d] = (r, w)
        return out

    def stuck_report(self, base):
        """What a fio past its time waits on, in logs/BASE.stuck and the
        log: the disks with I/O in flight, the tasks in D state with their
        kernel stacks, nbdkit's threads; sysrq w dumps the rest in dmesg."""
        lines = [f"in flight on {d}: {r} reads, {w} writes" for d, (r, w) in self.in_flight().items()]
        tasks = {}  # (state, comm, stack): thread ids
        for t in glob.glob("/proc/[0-9]*/task/[0-9]*"):
            try:
                with open(f"{t}/stat") as f:
                    st = f.read()
                comm, state = st[st.index("(") + 1:st.rindex(")")], st[st.rindex(")") + 2]
                if state != "D" and not comm.startswith("nbdkit"):
                    continue
                with open(f"{t}/stack") as f:
                    frames = [ln.split()[1] for ln in f if len(ln.split()) > 1][:10]
            except (OSError, ValueError, IndexError):
                continue
            tasks.setdefault((state, comm, " < ".join(frames)), []).append(t.split("/")[-1])
        for (state, comm, stack), tids in tasks.items():
            lines.append(f"{state} {comm} {','.join(tids)}: {stack}")
        try:
            with open("/proc/sysrq-trigger", "w") as f:
                f.write("w")
        except OSError:
            pass
        with open(os.path.join(RES, "logs", base + ".stuck"), "w") as f:
            f.write("\n".join(lines) + "\n")
        for ln in lines[:20]:
            log(f"  stuck: {ln}")

    def templates(self, workloads):
        out = {}
        for w in workloads:
            fname = plan.WORKLOADS[w][0]
            t = fiojob.load(os.path.join(REPO, "fio", fname))
            if len(t) != 1:
                raise ValueError(f"fio/{fname}: one job section expected")
            out[w] = t[0]
        return out

    # ------------------------------------------------------------- profiles
    def readbal_devices(self, kinds, paths, sectors):
        """One readbal device per policy of the module (the device policy
        preferring the fastest leg, as the seed's read_preferred SSD):
        [(config label, kernel name)]."""
        if self.policies is None:
            k = self.dm_create("rbb-probe", readbal_table(sectors, paths, "pid"))
            if k is None:
                raise RuntimeError("cannot create a readbal device")
            self.policies = dmioctl.message("rbb-probe", "list_policies").split()
            dmioctl.remove("rbb-probe")
            self.dm.remove("rbb-probe")
            log("policies:", " ".join(self.policies))
        pols = self.policies[: self.mode["policies"]] if self.mode.get("policies") else self.policies
        out = []
        for p in pols:
            k = self.dm_create(rb_name(p), readbal_table(sectors, paths, p, plan.fastest_leg(kinds)))
            if k:
                out.append((f"rb:{p}", k))
        return out

    def peers(self, paths, sectors, fast, which=("mirror", "linear")):
        """dm-mirror and dm-linear on the fastest leg, those of WHICH
        ("linear2": dm-linear's twin)."""
        tables = {"mirror": (MIR, f"0 {sectors} mirror core 2 1024 nosync {len(paths)} "
                             + " ".join(f"{p} 0" for p in paths) + " 1 handle_errors"),
                  "linear": (LIN, f"0 {sectors} linear {paths[fast]} 0"),
                  "linear2": (LIN2, f"0 {sectors} linear {paths[fast]} 0")}
        out = []
        for cfg, (name, table) in tables.items():
            k = self.dm_create(name, table) if cfg in which else None
            if k:
                out.append((cfg, k))
        return out

    def profile(self, pname, workloads, runtime):
        kinds = plan.profile_kinds(pname)
        log(f"== profile {pname}: {' '.join(kinds)}")
        # workloads whose legs run at another rate (plan.GUEST_LEG_SCALE)
        # get legs of their own, after the others
        for scale, ws in plan.scale_groups(workloads, pname):
            if scale != 1:
                log(f"  {' '.join(ws)}: legs at {scale} of their rate")
            legs = self.make_legs(kinds, "bl", scale=scale)
            try:
                self._profile(pname, kinds, legs, ws, runtime, scale)
            finally:
                self.dm_remove_all()
                mdadm_stop()
                self.remove_legs(legs)

    def _profile(self, pname, kinds, legs, workloads, runtime, scale=1):
        n = len(legs)
        sectors = min(self.sectors(k) for _, _, k in legs)
        fast = plan.fastest_leg(kinds)
        paths = [p for _, p, _ in legs]
        knames = [k for _, _, k in legs]
        tmpl = self.templates(workloads)
        base = {"profile": pname, "kinds": kinds, "legs": knames, "fastest": fast, "section": "matrix",
                "leg_scale": scale}
        peers = self.conf.get("peers", self.mode.get("peers", plan.PEERS))
        # rounds whose pairs run side by side, on mixed arrays only
        sides = self.conf.get("side_by_side", self.mode.get("side_by_side", {})) \
            if len(set(kinds)) > 1 else {}
        tops_twin = []
        for phase in (1, 2) if "md" in peers else (1,):
            if phase == 1:
                tops = self.readbal_devices(kinds, paths, sectors) + self.peers(paths, sectors, fast, peers)
                if any(w in sides for w in workloads):
                    tops_twin = self.peers(paths, sectors, fast, ["linear2"])
            else:
                self.dm_remove_all()
                try:
                    mdadm_create(paths)
                    tops = [("md", MD)]
                except subprocess.CalledProcessError as e:
                    log(f"  mdadm --create failed: {e.stderr}")
                    record("errors.jsonl", {"step": f"{pname} md", "error": str(e.stderr)})
                    tops = []
            jobs, meta, turns = [], {}, []
            for w in workloads:
                t = tmpl[w]
                kind = fiojob.io_kind(t[1])
                confs = [(f"leg:{i}", knames[i]) for i in range(n)]
                for cfg, k in tops:
                    # writes go to every leg whatever the policy: one policy
                    if kind == "write" and cfg.startswith("rb:") and cfg != tops[0][0]:
                        continue
                    confs.append((cfg, k))
                # noisy workloads: interleaved rounds, the report takes
                # each configuration's median (the host drifts over a round)
                rounds = self.conf.get("rounds", self.mode.get("rounds", {})).get(w, 1)
                # rounds after the first for these configurations only
                only = self.conf.get("round_configs", self.mode.get("round_configs", {})).get(w)
                # and longer runs for bursty ones
                rt = {"runtime": str(self.conf.get("runtimes", self.mode.get("runtimes", {})).get(w, runtime))}
                rt.update(self.conf.get("job_options", plan.GUEST_JOB_OPTIONS).get(w, {}))
                for r in range(rounds):
                    cs = [c for c in confs if c[0] in only] if r and only else confs
                    # each round starts further along the list: a slow
                    # spell (ssd+nvme's QD32 in runs M and N: its first 20
                    # to 25 s at 0.35 to 0.8 of the rest) then falls on other
                    # configurations in other rounds, and the median
                    # leaves it out
                    at = r * len(cs) // rounds
                    for cfg, k in cs[at:] + cs[:at]:
                        tag = f"{pname}.{w}.{cfg.replace(':', '-')}.p{phase}"
                        if rounds > 1:
                            tag += f".r{r}"
                        # the legs alone one after the other: run together, legs
                        # that cost guest CPU (nbd) would slow the others down
                        jobs.append(self.job(tag, t, f"/dev/{k}", rt))
                        meta[tag] = dict(base, workload=w, config=cfg, phase=phase, top=k, io=kind, round=r,
                                         turn=at)
                    if r and phase == 1 and w in sides:
                        self._side_by_side(turns, dict(base, workload=w, phase=phase, io=kind, round=r),
                                           t, rt, sides[w], dict(tops + tops_twin))
            self.run_fio(f"{pname}-p{phase}" + (f"-x{scale}" if scale != 1 else ""), jobs, meta)
            if turns:
                self.run_turns(pname, turns)

    def _side_by_side(self, turns, rec, t, rt, pair, devs):
        """Queues the PAIR of configurations for run_turns(), then dm-linear
        beside its twin (the control), with REC's fields."""
        for side, (a, b) in (("test", pair), ("control", ("linear", "linear2"))):
            if a in devs and b in devs:
                turns.append({"rec": dict(rec, section="side", side=side, method="turns"),
                              "pair": ((a, devs[a]), (b, devs[b])),
                              "bs": results.fio_size(t[1].get("bs", "4k")) or 4096,
                              "secs": fiojob.parse_time(rt["runtime"])})

    def run_turns(self, label, turns):
        """Each queued pair as one QD1 reader taking turns between the two
        devices, a read at a time (tools/qd1-alternate), each device's
        reads timed apart: the host's slow spells and the guest's CPU fall
        on both alike, and no second job contends with the first (two fio
        jobs at once on the nvme arrays: twins 0.83-1.26 of each other in
        run S; by turns within 1%).  Each pair reads for twice the
        workload's runtime, so that each device gets its runtime; 2 s of
        the first pair first, not recorded: the workloads since the
        matrix's QD1 rounds left their state in the policy."""
        alt = os.path.join(REPO, "tools/qd1-alternate/qd1-alternate")
        need = 2 + sum(2 * x["secs"] + self.overhead for x in turns)
        if need > self.deadline - time.monotonic():
            log(f"SKIP {label} turns: needs ~{need:.0f}s")
            for x in turns:
                for cfg, _ in x["pair"]:
                    record("runs.jsonl", dict(x["rec"], config=cfg, skipped="time budget"))
            raise Deadline(label)
        log(f"turns {label}: {len(turns)} pairs, ~{need:.0f}s")
        subprocess.run([alt, "--seconds", "2"] + [f"/dev/{dev}" for _, dev in turns[0]["pair"]],
                       check=False, stdout=subprocess.DEVNULL, timeout=120)
        for x in turns:
            rec, secs = x["rec"], x["secs"]
            r = rec["round"]
            first, second = x["pair"][::-1] if r % 2 else x["pair"]
            t0 = time.time()
            try:
                p = subprocess.run([alt, "--seconds", str(2 * secs), "--windows", "4", "--seed", str(r),
                                    "--bs", str(x["bs"]), f"/dev/{first[1]}", f"/dev/{second[1]}"],
                                   capture_output=True, text=True, timeout=6 * secs + 60)
                out = json.loads(p.stdout) if p.returncode == 0 else None
                err = p.stderr.strip()[:300]
            except (subprocess.TimeoutExpired, ValueError) as e:
                out, err = None, str(e)[:300]
            t1 = time.time()
            if out is None:
                log(f"  qd1-alternate {first[0]}/{second[0]} round {r}: {err}")
                record("errors.jsonl", {"step": f"turns {label} round {r}", "error": err})
            for j, (cfg, dev) in enumerate((first, second)):
                rr = dict(rec, config=cfg, top=dev, first=j == 0, t0=t0, t1=t1, wall=t1 - t0,
                          duration_s=2 * secs)
                if out is None:
                    rr["skipped"] = f"qd1-alternate failed: {err}"
                else:
                    d = out["devices"][j]
                    rr["turns"] = {"reads": d["reads"], "read_s": d["read_s"], "iops": d["iops"],
                                   "bs": out["bs"], "windows": [w[j] for w in out["windows"]]}
                record("runs.jsonl", rr)

    # ----------------------------------------------------------- calibration
    def calibrate(self, runtime):
        """Each leg kind alone, and the nbd path without the seek model."""
        log("== calibration")
        kinds = ["hdd", "ssd", "nvme", "remote", "ram", "hdd-seek"]
        legs = self.make_legs(kinds, "cal", 256)   # the disks as configured
        nbd = sh("nbdkit -U $RB_SEEK_DIR/calnbd.sock -P $RB_SEEK_DIR/calnbd.pid memory size=256M; "
                 "n=$(_rb_seek_free_nbd); : >$RB_SEEK_DIR/$n.busy; "
                 "nbd-client -unix $RB_SEEK_DIR/calnbd.sock /dev/$n -b 512 >/dev/null 2>&1; "
                 "echo 1 >/sys/block/$n/queue/rotational; echo $n").strip()
        info = {}
        for (name, path, k), kind in zip(legs, kinds):
            cfs = f"/sys/kernel/config/nullb/{name}"
            attrs = {"kind": kind}
            if os.path.isdir(cfs):
                for a in ("mbps", "completion_nsec", "hw_queue_depth", "irqmode"):
                    attrs[a] = open(f"{cfs}/{a}").read().strip()
            for a in ("rotational", "max_sectors_kb", "nr_requests", "scheduler"):
                attrs[a] = open(f"/sys/block/{k}/queue/{a}").read().strip()
            info[k] = attrs
        info[nbd] = {"kind": "nbd-path"}
        with open(os.path.join(RES, "calibration.json"), "w") as f:
            json.dump({"disks": info, "seek_args": os.environ.get("RB_SEEK_ARGS", "")}, f, indent=1)
        targets = [(k, info[k]["kind"]) for _, _, k in legs] + [(nbd, "nbd-path")]
        common = {"ioengine": "libaio", "direct": "1", "time_based": None, "runtime": str(runtime),
                  "norandommap": None, "randrepeat": "0"}
        tests = {
            "rand4k-qd1": {"rw": "randread", "bs": "4k", "iodepth": "1"},
            "seq64k-qd1": {"rw": "read", "bs": "64k", "iodepth": "1"},
            "seq64k-qd1-inner": {"rw": "read", "bs": "64k", "iodepth": "1", "offset": "224m"},
            "rand4k-qd32": {"rw": "randread", "bs": "4k", "iodepth": "32"},
        }
        jobs, meta = [], {}
        for k, kind in targets:
            for tname, o in tests.items():
                if tname.endswith("inner") and kind != "hdd-seek":
                    continue
                tag = f"cal.{kind}.{tname}"
                jobs.append(self.job(tag, ("cal", dict(common, **o)), f"/dev/{k}"))
                meta[tag] = {"section": "calibration", "kind": kind, "test": tname, "legs": [k],
                             "top": k, "io": "read", "config": kind, "workload": tname}
        try:
            self.run_fio("calibration", jobs, meta)
        finally:
            sh(f"nbd-client -d /dev/{nbd} >/dev/null 2>&1; kill $(cat $RB_SEEK_DIR/calnbd.pid); "
               f"rm -f $RB_SEEK_DIR/{nbd}.busy", check=False)
            self.remove_legs(legs)

    # -------------------------------------------------------------- seed 003
    def seed003(self, cfg):
        pname = cfg["profile"]
        kinds = plan.profile_kinds(pname)
        log(f"== seed 003 on {pname}")
        legs = self.make_legs(kinds, "io")
        paths = [p for _, p, _ in legs]
        knames = [k for _, _, k in legs]
        sectors = min(self.sectors(k) for k in knames)
        tmpl = fiojob.load(os.path.join(REPO, "fio", "iocontrol.fio"))
        pol = self.conf.get("seed003_policy") or (self.policies or ["pid"])[0]
        configs = []
        for variant, confs in cfg["configs"].items():
            for c in confs:
                if c not in configs:
                    configs.append(c)
        try:
            for conf in configs:
                self._groups(max(cfg["jobs"]))
                if conf == "rb":
                    top = self.dm_create(rb_name(pol), readbal_table(sectors, paths, pol))
                    label = f"rb:{pol}"
                else:
                    mdadm_create(paths)
                    top, label = MD, "md"
                try:
                    for variant, confs in cfg["configs"].items():
                        if conf in confs:
                            self._seed003_variant(cfg, variant, label, top, knames, tmpl)
                finally:
                    # Debian 6.1's blk_throtl_cancel_bios() can loop forever
                    # in del_gendisk() when throttle groups of the disk are
                    # left (seen as an RCU stall in dm remove): the groups go
                    # first, then the device.
                    self._groups(0)
                    self.dm_remove_all()
                    mdadm_stop()
        finally:
            self.remove_legs(legs)

    def _groups(self, n):
        """rbio/test0..n-1 with the io controller, none left when n = 0."""
        base = f"{CG}/rbio"
        if os.path.isdir(base):
            for d in sorted(os.listdir(base)):
                if d.startswith("test") and os.path.isdir(f"{base}/{d}"):
                    for _ in range(50):     # fio's processes may still be exiting
                        try:
                            os.rmdir(f"{base}/{d}")
                            break
                        except OSError:
                            time.sleep(0.1)
            if not n:
                try:
                    os.rmdir(base)
                except OSError as e:
                    log(f"  cannot remove {base}: {e}")
        if n:
            for i in range(n):
                os.makedirs(f"{base}/test{i}", exist_ok=True)
            with open(f"{base}/cgroup.subtree_control", "w") as f:
                f.write("+io")

    @staticmethod
    def _cg_write(path, value):
        try:
            with open(path, "w") as f:
                f.write(value)
            return True
        except OSError as e:
            log(f"  cannot write {value!r} to {path}: {e}")
            record("errors.jsonl", {"step": "cgroup", "error": f"{path} <- {value}: {e}"})
            return False

    def _seed003_variant(self, cfg, variant, label, top, knames, tmpl):
        """"weight": io.cost on every leg, group k weighs 100 (k+1) (io.weight
        acts on request queues: the legs, not the bio-based mirror).
        "max": io.max on the mirror, group k limited to (k+1) x base, the
        limits summing to 80% of 60 MiB/s (reads) or 20 MiB/s (writes and
        read-write)."""
        maxjobs = max(cfg["jobs"])
        devno = {k: open(f"/sys/block/{k}/dev").read().strip() for k in knames + [top]}
        for i in range(maxjobs):
            g = f"{CG}/rbio/test{i}"
            self._cg_write(f"{g}/io.weight", "default 100")
            self._cg_write(f"{g}/io.max", f"{devno[top]} rbps=max wbps=max")
        if variant == "weight":
            for k in knames:
                self._cg_write(f"{CG}/io.cost.qos", f"{devno[k]} enable=1")
            for i in range(maxjobs):
                self._cg_write(f"{CG}/rbio/test{i}/io.weight", f"default {100 * (i + 1)}")
        jobs, meta = [], {}
        for mode in cfg["modes"]:
            rw = plan.seed003_mode_rw(mode)
            for nj in cfg["jobs"]:
                group = f"s003.{variant}.{label.replace(':', '-')}.{mode.replace(' ', '-')}-{nj}"
                if variant == "max":
                    cap = 60 if mode.split()[1] == "rd" else 20
                    base = max(4096, int(1.6 * cap / (nj * (nj + 1)) * (1 << 20)))
                    limits = [(i + 1) * base for i in range(nj)]
                else:
                    limits = [100 * (i + 1) for i in range(nj)]
                members = []
                for i in range(nj):
                    name, opts = tmpl[i]
                    o = dict(opts, rw=rw, runtime=str(cfg["runtime"]), filename=f"/dev/{top}")
                    if i == 0:
                        o.update({"stonewall": None, "new_group": None})
                    if variant == "max":
                        o["exec_prerun"] = "sh -c " + shlex.quote(
                            f"echo '{devno[top]} rbps={limits[i]} wbps={limits[i]}' > {CG}/rbio/test{i}/io.max")
                    o.update({"write_bw_log": os.path.join(RES, "bwlog", f"{group}.{name}"),
                              "log_avg_msec": str(LOG_MS), "log_unix_epoch": "1"})
                    jobs.append((f"{group}.{name}", o))
                    members.append(f"{group}.{name}")
                for i, tag in enumerate(members):
                    meta[tag] = {"section": "seed003", "variant": variant, "config": label, "mode": mode,
                                 "jobs": nj, "rw": rw, "legs": knames, "top": top, "member": i,
                                 "limit": limits[i], "group": group, "io": fiojob.io_kind({"rw": rw}),
                                 "workload": "iocontrol"}
        try:
            self.run_fio(f"seed003-{variant}-{label.replace(':', '-')}", jobs, meta, cgroup=None)
        finally:
            if variant == "weight":
                for k in knames:
                    self._cg_write(f"{CG}/io.cost.qos", f"{devno[k]} enable=0")

    # -------------------------------------------------------------- seed 004
    def seed004(self, cfg):
        pname = cfg["profile"]
        kinds = plan.profile_kinds(pname)
        log(f"== seed 004 on {pname}")
        legs = self.make_legs(kinds, "lw", 256)    # 45 s of random writes: memory
        paths = [p for _, p, _ in legs]
        knames = [k for _, _, k in legs]
        sectors = min(self.sectors(k) for k in knames)
        pol = self.conf.get("seed004_policy") or (self.policies or ["pid"])[0]
        try:
            top = self.dm_create(rb_name(pol), readbal_table(sectors, paths, pol))
            t = fiojob.load(os.path.join(REPO, "fio", "longwrite.fio"))[0]
            tag = f"s004.{pname}"
            job = self.job(tag, t, f"/dev/{top}", {"runtime": str(cfg["runtime"])})
            job[1]["log_avg_msec"] = "1000"    # the seed's per-interval throughput
            self.run_fio("seed004", [job], {tag: {"section": "seed004", "profile": pname, "legs": knames,
                                                  "top": top, "config": f"rb:{pol}", "kinds": kinds,
                                                  "io": "write", "workload": "longwrite"}})
        finally:
            self.dm_remove_all()
            self.remove_legs(legs)

    # ------------------------------------------------------------ slowdown
    def slowdown(self, cfgs):
        """Each set of CFGS (a list, or one set) in turn."""
        for cfg in cfgs if isinstance(cfgs, list) else [cfgs]:
            self._slowdown_set(cfg)

    def _slowdown_set(self, cfg):
        """Issue 7's recovery test: a leg slowed to about a tenth of its
        speed mid-run.  Every leg sits under a dm-linear wrapper; at AT s
        into a run the fastest leg's wrapper is swapped for dm-delay, with
        a delay of 9 times that leg's own mean latency under the workload,
        checked on that leg alone and corrected once if the leg did not
        end up near a tenth of its rate.  The legs alone after the swap
        give the new limit."""
        for pname in cfg["profiles"]:
            kinds = plan.profile_kinds(pname)
            log(f"== slowdown on {pname}")
            # the matrix's legs: at another rate for some workloads
            for scale, ws in plan.scale_groups(cfg["workloads"], pname):
                if scale != 1:
                    log(f"  {' '.join(ws)}: legs at {scale} of their rate")
                legs = self.make_legs(kinds, "sd", scale=scale)
                try:
                    self._slowdown(dict(cfg, workloads=ws), pname, kinds, legs, scale)
                finally:
                    self.dm_remove_all()
                    self.remove_legs(legs)

    def _wrap(self, i, dev, sectors, delay_ms=0):
        name = f"rbb-sd{i}"
        table = (f"0 {sectors} delay {dev} 0 {delay_ms}" if delay_ms
                 else f"0 {sectors} linear {dev} 0")
        if name in self.dm:
            dmioctl.reload(name, table)
            return None
        return self.dm_create(name, table)

    def _legs_alone(self, prefix, t, wraps, rec, extra=None):
        """Jobs of template T on each wrapped leg in turn (tag PREFIX<i>)
        and their records: REC with the leg's config and device.  EXTRA:
        more fio options."""
        jobs, meta = [], {}
        for i, k in enumerate(wraps):
            jobs.append(self.job(f"{prefix}{i}", t, f"/dev/{k}", dict(SD_RUN, **(extra or {}))))
            meta[f"{prefix}{i}"] = dict(rec, config=f"leg:{i}", top=k)
        return jobs, meta

    def _slowdown_probe(self, label, jobs, meta, tag):
        """Runs the jobs; returns (read KiB/s, mean completion ms) of TAG's."""
        out = self.run_fio(label, jobs, meta)
        try:
            with open(out) as f:
                text = f.read()
            for j in results.load_fio_json(text).get("jobs", []):
                if j["jobname"] == tag:
                    return j["read"]["bw"], j["read"]["clat_ns"]["mean"] / 1e6
        except (OSError, ValueError, KeyError):
            pass
        return None, 1.0

    def _slowdown_delay(self, pname, w, t, fast, paths, sectors, wpaths, base, io, rate0, delay):
        """The dm-delay (ms) that runs leg FAST alone at about a tenth of
        RATE0, from DELAY on: up to four probes.  Read-ahead in flight
        hides a delay until it is long, so rate ~ 1 / (latency + delay)
        misses by far (8 readers on an nvme: 490 ms left 0.02, the model's
        75 ms 0.64); between two probes that bracket a tenth the next is
        interpolated in log-log.  Returns (delay, the last probe's share)."""
        lo = hi = None          # (delay, share) above and below a tenth
        f = 0.1
        for n in range(4):
            tag = f"sd.{pname}.{w}.probe"
            self._wrap(fast, paths[fast], sectors, delay)
            try:
                rate1, _ = self._slowdown_probe(f"sd-{pname}-{w}-probe{n}",
                                                [self.job(tag, t, wpaths[fast], SD_RUN)],
                                                {tag: dict(base, workload=w, config=f"leg:{fast}",
                                                           phase="probe", top=wpaths[fast][5:], io=io,
                                                           delay_ms=delay)}, tag)
            finally:
                self._wrap(fast, paths[fast], sectors)
            if not (rate0 and rate1):
                return delay, 0.1
            f = rate1 / rate0
            if 0.07 <= f <= 0.14 or n == 3:
                break
            if f > 0.1:
                lo = (delay, f)
            else:
                hi = (delay, f)
            if lo and hi and lo[1] < 1:
                # log share linear in log delay between the two
                k = (math.log(0.1) - math.log(lo[1])) / (math.log(hi[1]) - math.log(lo[1]))
                nxt = math.exp(math.log(lo[0]) + k * (math.log(hi[0]) - math.log(lo[0])))
            elif hi:
                nxt = 9 * f * delay / (1 - f)         # a closed loop, a first guess
            else:
                nxt = delay * (4 if f > 0.5 else 2)
            nxt = max(1, round(nxt))
            if nxt == delay:
                break
            delay = nxt
        return delay, f

    def _slowdown(self, cfg, pname, kinds, legs, scale=1):
        paths = [p for _, p, _ in legs]
        sectors = min(self.sectors(k) for _, _, k in legs)
        fast = plan.fastest_leg(kinds)
        wraps = [self._wrap(i, p, sectors) for i, p in enumerate(paths)]
        if None in wraps:
            raise RuntimeError("cannot create the dm-linear wrappers")
        wpaths = [f"/dev/{k}" for k in wraps]
        tmpl = self.templates(cfg["workloads"])
        # the matrix's job options (QD32 as two threads of QD16)
        options = self.conf.get("job_options", plan.GUEST_JOB_OPTIONS)
        # the wrappers have no tags: each leg's disk's depth, as readbal create gives
        depths = [nr_requests(p) for p in paths]
        base = {"section": "slowdown", "profile": pname, "kinds": kinds, "legs": wraps,
                "fastest": fast, "at_s": cfg["at"], "queue_depths": depths, "leg_scale": scale}
        for w in cfg["workloads"]:
            t = (tmpl[w][0], dict(tmpl[w][1], **options.get(w, {})))
            io = fiojob.io_kind(t[1])
            # the legs alone (the old limit); the fastest one's latency sets
            # the delay, checked once on that leg alone
            jobs, meta = self._legs_alone(f"sd.{pname}.{w}.before", t, wraps,
                                          dict(base, workload=w, phase="before", io=io))
            stat = f"/sys/block/{wraps[fast]}/stat"
            before = open(stat).read().split()
            rate0, lat_ms = self._slowdown_probe(f"sd-{pname}-{w}-before", jobs, meta,
                                                 f"sd.{pname}.{w}.before{fast}")
            after = open(stat).read().split()
            if str(t[1].get("direct", "0")) != "1":    # buffered: fio sees the page cache, take the device's time
                reads, ticks = int(after[0]) - int(before[0]), int(after[3]) - int(before[3])
                lat_ms = ticks / reads if reads else 1.0
            delay, f = self._slowdown_delay(pname, w, t, fast, paths, sectors, wpaths, base, io,
                                            rate0, max(1, round(9 * lat_ms)))
            log(f"  {w}: leg {fast} alone {lat_ms:.2f} ms a read; delayed {delay} ms it ran at "
                f"{f:.2f} of its rate")
            for pol in cfg["policies"]:
                if self.policies is not None and pol not in self.policies:
                    continue
                top = self.dm_create(rb_name(pol), readbal_table(sectors, wpaths, pol, fast, depths))
                if top is None:
                    continue
                tag = f"sd.{pname}.{w}.{pol}"

                def swap(top=top):
                    stat = f"/sys/block/{top}/stat"
                    t_end = time.monotonic() + 60
                    first = open(stat).read().split()[0]
                    while time.monotonic() < t_end and open(stat).read().split()[0] == first:
                        time.sleep(0.05)
                    time.sleep(cfg["at"])
                    self._wrap(fast, paths[fast], sectors, delay)
                    return {"swap_unix": time.time(), "delay_ms": delay}

                try:
                    self.run_fio(f"sd-{pname}-{w}-{pol}",
                                 [self.job(tag, t, f"/dev/{top}", dict(SD_RUN, runtime=str(cfg["runtime"])))],
                                 {tag: dict(base, workload=w, config=f"rb:{pol}", phase="run", top=top,
                                            io=io, slowed_to=round(f, 3))}, during=(0, swap))
                finally:
                    dmioctl.remove(rb_name(pol))
                    self.dm.remove(rb_name(pol))
                    self._wrap(fast, paths[fast], sectors)
            # the new limit: each leg alone, the fastest one slowed
            self._wrap(fast, paths[fast], sectors, delay)
            # a job of N direct reads in flight shares them among the legs,
            # where each leg alone had all N: each leg alone at fewer gives
            # the best split of the N (the report's shared limit)
            # (iodepth: the reads in flight of all the job's threads)
            nj, qd = (1, 1) if fiojob.is_buffered(t[1]) else plan.job_depth(t[1])
            jobs, meta = self._legs_alone(f"sd.{pname}.{w}.leg", t, wraps,
                                          dict(base, workload=w, phase="after", io=io, delay_ms=delay,
                                               iodepth=qd))
            if qd > 1:
                for d in (x for x in SD_DEPTHS if x < qd and x % nj == 0):
                    j, m = self._legs_alone(f"sd.{pname}.{w}.qd{d}.leg", t, wraps,
                                            dict(base, workload=w, phase="after-depth", io=io,
                                                 delay_ms=delay, iodepth=d), {"iodepth": str(d // nj)})
                    jobs += j
                    meta.update(m)
            try:
                self.run_fio(f"sd-{pname}-{w}-after", jobs, meta)
            finally:
                self._wrap(fast, paths[fast], sectors)

    # ---------------------------------------------------------- CPU overhead
    def cpu(self, cfg):
        """4 KiB random read QD32 on two ram legs: rounds of the leg alone,
        dm-linear, dm-mirror and readbal under each policy, interleaved."""
        log("== CPU overhead on 2ram")
        kinds = ["ram", "ram"]
        legs = self.make_legs(kinds, "cpu")
        paths = [p for _, p, _ in legs]
        knames = [k for _, _, k in legs]
        sectors = min(self.sectors(k) for k in knames)
        try:
            tops = [("leg:0", knames[0])] + self.peers(paths, sectors, 0) + \
                self.readbal_devices(kinds, paths, sectors)
            t = self.templates(["randread-qd32"])["randread-qd32"]
            jobs, meta = [], {}
            for r in range(cfg["rounds"]):
                for c, k in tops:
                    tag = f"cpu.r{r}.{c.replace(':', '-')}"
                    jobs.append(self.job(tag, t, f"/dev/{k}", {"runtime": str(cfg["runtime"])}))
                    meta[tag] = {"section": "cpu", "round": r, "config": c, "legs": knames, "top": k,
                                 "profile": "2ram", "kinds": kinds, "workload": "randread-qd32", "io": "read"}
            self.run_fio("cpu", jobs, meta)
        finally:
            self.dm_remove_all()
            self.remove_legs(legs)

    # ------------------------------------------------------------------ main
    def main(self):
        self.setup()
        # the conf may override a mode's sections (experiments)
        m = dict(self.mode, **{k: self.conf[k] for k in ("calibrate", "cpu", "seed003", "seed004", "slowdown")
                               if k in self.conf})
        status = "complete"
        steps = []
        if m.get("calibrate"):
            steps.append(("calibration", lambda: self.calibrate(m["calibrate"])))
        runtime = self.conf.get("runtime") or m["runtime"]
        workloads = self.conf.get("workloads", m["workloads"])
        for p in self.conf.get("profiles", m["profiles"]):
            steps.append((f"profile {p}", lambda p=p: self.profile(p, workloads, runtime)))
        if m.get("cpu"):
            steps.append(("cpu", lambda: self.cpu(m["cpu"])))
        if m.get("seed004"):
            steps.append(("seed004", lambda: self.seed004(m["seed004"])))
        if m.get("seed003"):
            steps.append(("seed003", lambda: self.seed003(m["seed003"])))
        if m.get("slowdown"):
            steps.append(("slowdown", lambda: self.slowdown(m["slowdown"])))
        for label, fn in steps:
            try:
                fn()
            except Deadline:
                status = "partial: time budget"
            except Stuck as e:  # the disks cannot be used or removed
                log(f"ERROR in {label}: {e}")
                record("errors.jsonl", {"step": label, "error": str(e)})
                status = "partial: stuck I/O"
                break
            except Exception as e:  # one broken step must not lose the others
                log(f"ERROR in {label}: {e}")
                record("errors.jsonl", {"step": label, "error": str(e)})
                if status == "complete":
                    status = "partial: errors"
        self.finish(status)
        log(f"done: {status}")
        return 0


def main():
    with open(os.path.join(RES, "conf.json")) as f:
        conf = json.load(f)
    if conf.get("seek_args"):
        os.environ["RB_SEEK_ARGS"] = conf["seek_args"]
    return Bench(conf).main()


if __name__ == "__main__":
    sys.exit(main())
