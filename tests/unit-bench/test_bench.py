#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the benchmark's parsing and tables (bench/rbbench) on a
captured smoke run (data/smoke-run, made by ./capture) and small inputs.
Expected numbers come from jq on the fixture, e.g.
  jq '.jobs[] | select(.jobname == "hdd-seek+ssd.randrw-70.rb-pid.p1") | .read.bw'
Prints "PASS name" / "FAIL name" per test; tests/unit-bench/run adds the
seek model's tests and the summary line."""

import io
import json
import os
import re
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "bench"))
from rbbench import fiojob, hostload, plan, report, results  # noqa: E402

DATA = os.path.join(HERE, "data", "smoke-run")
P1 = os.path.join(DATA, "fio", "001-hdd-seek+ssd-p1.json")
PROFILE = "hdd-seek+ssd"


def tag(w, c, phase=1):
    return f"{PROFILE}.{w}.{c}.p{phase}"


class FioJson(unittest.TestCase):
    def test_leading_and_trailing_text(self):
        text = "fio: connected to NBD server\n" + json.dumps({"jobs": []}) + "\nfio: warning\n"
        self.assertEqual(results.load_fio_json(text), {"jobs": []})

    def test_not_fio(self):
        with self.assertRaises(ValueError):
            results.load_fio_json("no json here")
        with self.assertRaises(ValueError):
            results.load_fio_json('{"a": 1}')

    def test_mixed_job(self):
        with open(P1) as f:
            jobs = results.fio_jobs(results.load_fio_json(f.read()))
        m = jobs[tag("randrw-70", "rb-pid")]
        self.assertAlmostEqual(m["mib_s"], (271 + 130) / 1024)
        self.assertAlmostEqual(m["iops"], 67.869416 + 32.646048, places=5)
        self.assertAlmostEqual(m["p50_us"], 154140.672)   # reads' percentiles
        self.assertAlmostEqual(m["p99_us"], 295698.432)
        self.assertEqual(m["runtime_ms"], 1163)
        self.assertEqual((m["read"]["ios"], m["write"]["ios"]), (79, 38))
        self.assertEqual(m["error"], 0)

    def test_group_reporting(self):
        with open(P1) as f:
            jobs = results.fio_jobs(results.load_fio_json(f.read()))
        self.assertEqual(len(jobs), 17)       # 8 clones appear once
        self.assertAlmostEqual(jobs[tag("seqread-8job", "leg-1")]["mib_s"], 58555 / 1024)

    def test_write_only_latency_is_writes(self):
        job = {"jobname": "w", "error": 0, "read": {"bw": 0, "iops": 0, "io_bytes": 0},
               "write": {"bw": 2048, "iops": 2.0, "io_bytes": 4096,
                         "clat_ns": {"percentile": {"50.000000": 5000, "99.000000": 9000}}}}
        m = results.job_metrics(job)
        self.assertEqual((m["mib_s"], m["p50_us"], m["p99_us"]), (2.0, 5.0, 9.0))

    def test_error_and_no_percentiles(self):
        m = results.job_metrics({"jobname": "e", "error": 5, "read": {"bw": 0}})
        self.assertEqual(m["error"], 5)
        self.assertIsNone(m["p50_us"])


class Samples(unittest.TestCase):
    TEXT = ("1000000000\t100,0,100,800,0,0,0,0\tsda:10,80,0,0 dm-0:5,40,0,0\n"
            "1100000000\t150,0,150,800,0,0,0,0\tsda:20,160,1,8 dm-0:10,80,1,8\n"
            "1200000000\t150,0,150,900,0,0,0,0\tsda:20,160,1,8 dm-0:10,80,1,8\n"
            "1300000000\t160,0")   # torn last line

    def test_parse(self):
        s = results.parse_samples(self.TEXT)
        self.assertEqual(len(s), 3)      # the torn last line is dropped
        self.assertEqual(s[0][1:3], (200, 1000))
        self.assertEqual(s[1][3]["sda"], (20, 160, 1, 8))

    def test_window_delta(self):
        s = results.parse_samples(self.TEXT)[:3]
        d = results.window_delta(s, 1_000_000_000, 1_100_000_000)
        self.assertAlmostEqual(d["cpu_busy_pct"], 100.0)     # 100 busy of 100 ticks
        self.assertAlmostEqual(d["cpu_busy_s"], 1.0)
        self.assertEqual(d["dev"]["sda"], {"r_ios": 10, "r_sectors": 80, "w_ios": 1, "w_sectors": 8})
        d = results.window_delta(s, 1_050_000_000, 1_150_000_000)   # interpolated
        self.assertAlmostEqual(d["cpu_busy_pct"], 50.0)
        with self.assertRaises(ValueError):
            results.window_delta(s, 500_000_000, 1_100_000_000)

    def test_bwlog_window(self):
        log = results.parse_bwlog("1000, 5, 0, 0, 0\n1100, 6, 0, 0, 0\nbad line\n")
        self.assertEqual(log, [(1000, 5, 0), (1100, 6, 0)])
        self.assertEqual(results.job_window([log, [(1200, 1, 1)]], 100), (900_000_000, 1_200_000_000))
        self.assertIsNone(results.job_window([[]], 100))

    def test_busy_fields(self):
        # user nice system idle iowait irq softirq steal
        self.assertEqual(results.cpu_busy_total([1, 2, 3, 10, 20, 4, 5, 6]), (21, 51))
        self.assertEqual(results.cpu_busy_total([1, 2, 3, 4]), (6, 10))


class Window(unittest.TestCase):
    @staticmethod
    def m(runtime_ms, io_bytes, ios, queue):
        d = {"bw_kib": io_bytes / 1024 / (runtime_ms / 1000), "iops": ios / (runtime_ms / 1000),
             "io_bytes": io_bytes, "ios": ios, "runtime_ms": runtime_ms}
        z = {"bw_kib": 0.0, "iops": 0.0, "io_bytes": 0, "ios": 0, "runtime_ms": 0}
        return {"read": d, "write": z, "mib_s": d["bw_kib"] / 1024, "iops": d["iops"], "queue": queue}

    def test_sizes_and_queue(self):
        self.assertEqual(results.fio_size("64k"), 65536)
        self.assertEqual(results.fio_size("1280K,4k"), 1280 * 1024)
        self.assertEqual(results.fio_size("4096"), 4096)
        self.assertIsNone(results.fio_size("1-4k"))
        job = {"job options": {"bs": "64k", "numjobs": "8"}}
        self.assertEqual(results.queue_of(job), (8, 8 * 65536))
        self.assertEqual(results.queue_of({"job options": {"bs": "4k", "iodepth": "32"}}), (32, 131072))

    def test_a_late_last_read_does_not_count(self):
        # run L, adaptive, 8 buffered readers on 3hdd: 8.5 s of an 8 s window
        mib = 1 << 20
        m = results.over_window(self.m(8495, 302 * mib, 4832, (8, 8 * 65536)), 8.0)
        self.assertAlmostEqual(m["mib_s"], (302 - 0.5) / 8)
        self.assertEqual(m["read"]["runtime_ms"], 8000)
        self.assertEqual(m["read"]["fio_runtime_ms"], 8495)
        self.assertAlmostEqual(m["iops"], (4832 - 8) / 8)

    def test_a_deep_queue_keeps_fios_rate(self):
        # 4 jobs x QD4 x 1280 KiB on a 13 MiB/s leg: 20 MiB queued, 13 MiB done
        m0 = self.m(1270, 13 << 20, 10, (16, 16 * 1280 * 1024))
        self.assertEqual(results.over_window(m0, 1.0), m0)
        # within the window, or no queue known: fio's figures
        m1 = self.m(990, 10 << 20, 160, (1, 65536))
        self.assertEqual(results.over_window(m1, 1.0), m1)
        m2 = self.m(1500, 10 << 20, 160, None)
        self.assertEqual(results.over_window(m2, 1.0), m2)


class Limits(unittest.TestCase):
    @staticmethod
    def leg(rbw, wbw, riops, wiops):
        return {"m": {"read": {"bw_kib": rbw, "iops": riops}, "write": {"bw_kib": wbw, "iops": wiops}}}

    def test_rules(self):
        legs = [self.leg(1024, 2048, 10, 20), self.leg(3072, 1024, 30, 5)]
        self.assertEqual(results.limit(legs, "read", "MiB/s"), 4.0)
        self.assertEqual(results.limit(legs, "write", "MiB/s"), 1.0)
        self.assertEqual(results.limit(legs, "mixed", "IOPS"), 45)
        self.assertIsNone(results.limit(legs + [{"problem": "x"}], "read", "MiB/s"))
        self.assertIsNone(results.limit([], "read", "MiB/s"))


class Captured(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.res = results.Results(DATA)
        cls.m = report.Matrix(cls.res)

    def test_runs_joined(self):
        runs = [r for r in self.res.runs if r.get("section") == "matrix"]
        self.assertEqual(len(runs), 26)
        bad = [(r["tag"], r.get("problem")) for r in runs if r.get("problem")]
        self.assertEqual(bad, [])
        for r in runs:
            self.assertGreaterEqual(r["cpu_busy_pct"], 0)
            self.assertLessEqual(r["cpu_busy_pct"], 100.0001)

    def test_limits(self):
        # each phase's legs alone
        self.assertAlmostEqual(self.m.phase_limits[(PROFILE, "randrw-70", 1)],
                               61.485909 + 2205.970149 + 29.035013, places=4)
        self.assertAlmostEqual(self.m.phase_limits[(PROFILE, "randrw-70", 2)],
                               59.76431 + 2537.924152 + 31.144781, places=4)
        self.assertAlmostEqual(self.m.phase_limits[(PROFILE, "seqwrite-1280k", 1)], 10336 / 1024)
        # the limit: each leg's better run (here phase 2's, both legs), for both phases
        for phase in (1, 2):
            self.assertAlmostEqual(self.m.limits[(PROFILE, "randrw-70", phase)],
                                   59.76431 + 2537.924152 + 31.144781, places=4)
            self.assertAlmostEqual(self.m.limits[(PROFILE, "seqwrite-1280k", phase)], 11352 / 1024)

    def test_limit_takes_each_legs_better_run(self):
        res = results.Results(DATA)
        res.runs = []
        for phase, bws in ((1, (100, 50)), (2, (60, 90))):
            for i, bw in enumerate(bws):
                res.runs.append({"section": "matrix", "profile": "2ssd", "workload": "seqread-1job",
                                 "config": f"leg:{i}", "phase": phase, "io": "read",
                                 "m": {"mib_s": bw, "iops": 1, "read": {"bw_kib": bw * 1024, "iops": 1},
                                       "write": {"bw_kib": 0, "iops": 0}}})
        m = report.Matrix(res)
        self.assertEqual(m.phase_limits[("2ssd", "seqread-1job", 1)], 150)
        self.assertEqual(m.phase_limits[("2ssd", "seqread-1job", 2)], 150)
        self.assertEqual(m.limits[("2ssd", "seqread-1job", 1)], 190)

    def test_rounds_take_the_median_run(self):
        res = results.Results(DATA)
        res.meta = dict(res.meta, runtime=1)

        def run(cfg, r, iops, runtime=1):
            return {"section": "matrix", "profile": "2ssd", "workload": "randread-qd32", "config": cfg,
                    "phase": 1, "io": "read", "round": r, "duration_s": runtime, "ramp_s": 0,
                    "leg_share": [r, 100 - r],
                    "m": {"mib_s": iops / 256, "iops": iops, "read": {"bw_kib": iops * 4, "iops": iops},
                          "write": {"bw_kib": 0, "iops": 0}}}
        res.runs = [run("leg:0", 0, 900), run("leg:1", 0, 100), run("rb:pid", 0, 500),
                    run("leg:0", 1, 1000), run("leg:1", 1, 100), run("rb:pid", 1, 700),
                    run("leg:0", 2, 1100), run("leg:1", 2, 100), run("rb:pid", 2, 600)]
        m = report.Matrix(res)
        self.assertEqual(len(m.rounds[("2ssd", "randread-qd32", "rb:pid")]), 3)
        # the median run, whole: its shares come with it
        self.assertEqual(m.value("2ssd", "randread-qd32", "rb:pid"), 600)
        self.assertEqual(m.get("2ssd", "randread-qd32", "rb:pid")["leg_share"], [2, 98])
        self.assertEqual(m.limits[("2ssd", "randread-qd32", 1)], 1100)
        # of two, the lower; an unmeasured round counts lowest
        self.assertEqual(report.median_run(res.runs[2:3] + res.runs[5:6], "IOPS")["round"], 0)
        self.assertEqual(report.median_run([dict(res.runs[2], m=None), res.runs[5], res.runs[8]],
                                           "IOPS")["round"], 2)
        rep = report.Report(res, "/nonexistent", "/nonexistent.md")
        self.assertEqual(rep.rounds_note(), "; randread-qd32: the median of 3 interleaved rounds")
        self.assertEqual(rep.runtimes_note(), "")
        # the caveat says whether later rounds started further along
        rep.lines = []
        rep.howto()
        self.assertIn("in the same order", "\n".join(rep.lines))
        res.runs[3]["turn"] = 1
        rep.lines = []
        rep.howto()
        self.assertIn("each round starting further along", "\n".join(rep.lines))
        res.runs.append(run("rb:hst", 0, 650, runtime=3))
        self.assertEqual(report.Report(res, "/nonexistent", "/nonexistent.md").runtimes_note(),
                         " (randread-qd32: 3 s)")

    def test_issue7_targets(self):
        res = results.Results(DATA)
        res.meta = dict(res.meta, runtime=1, policies=["hst", "adaptive"])

        def run(p, w, cfg, r, v, phase=1):
            iops = v if w.startswith("randread") else v * 16
            return {"section": "matrix", "profile": p, "workload": w, "config": cfg, "phase": phase,
                    "io": "read", "round": r, "duration_s": 1, "ramp_s": 0,
                    "m": {"mib_s": iops / 256 if w.startswith("randread") else v, "iops": iops,
                          "read": {"bw_kib": iops * 4 if w.startswith("randread") else v * 1024,
                                   "iops": iops}, "write": {"bw_kib": 0, "iops": 0}}}
        res.runs = []
        # round 0: a slow spell over both runs
        for r, (a, lin) in enumerate(((700, 700), (980, 1000), (1000, 1000))):
            res.runs += [run("ssd+nvme", "randread-qd1", "leg:0", r, 500),
                         run("ssd+nvme", "randread-qd1", "leg:1", r, 1000),
                         run("ssd+nvme", "randread-qd1", "rb:adaptive", r, a),
                         run("ssd+nvme", "randread-qd1", "linear", r, lin)]
        for p, a, md in (("ssd+nvme", 96, 95), ("2ram", 40, 50)):
            res.runs += [run(p, "seqread-8job", "leg:0", 0, 50), run(p, "seqread-8job", "leg:1", 0, 50),
                         run(p, "seqread-8job", "rb:adaptive", 0, a),
                         run(p, "seqread-8job", "md", 0, md, phase=2)]
        res.runs += [run("ssd+nvme", "randread-qd32", "leg:0", 0, 900),
                     run("ssd+nvme", "randread-qd32", "leg:1", 0, 1100),
                     run("ssd+nvme", "randread-qd32", "rb:adaptive", 0, 1000),
                     run("ssd+nvme", "randread-qd32", "rb:hst", 0, 1010),
                     run("ssd+nvme", "randread-qd32", "linear", 0, 800)]
        def targets():
            """The section's lines, and its rows by (target, profile)."""
            rep = report.Report(res, "/nonexistent", "/nonexistent.md")
            rep.lines = []
            rep.targets()
            return rep.lines, {tuple(c.strip() for c in ln.split("|")[1:3]): ln
                               for ln in rep.lines if ln.startswith("| ") and "profile" not in ln}
        qd1_target = ("4 KiB QD1, mixed arrays: >= 0.95 of the fastest leg (dm-linear on it)", "ssd+nvme")
        lines, rows = targets()
        text = "\n".join(lines)
        qd1 = rows[qd1_target]
        # the median of the rounds' ratios (the medians' ratio: 0.98)
        self.assertIn("| 1.000 (median of 3 rounds' ratios, 0.98-1.00) | 0.95 | met |", qd1)
        eight = rows[("8 readers: >= 0.95 of the limit, >= md raid1", "ssd+nvme")]
        self.assertIn("0.960 of the limit, 1.011 of md raid1", eight)
        self.assertIn("| met |", eight)
        ram = rows[("8 readers: >= 0.95 of the limit, >= md raid1", "2ram")]
        self.assertIn("not judged: ram legs", ram)
        qd32 = rows[("4 KiB QD32: >= the fastest leg alone and the best other policy", "ssd+nvme")]
        self.assertIn("0.990 of hst", qd32)
        self.assertIn("**not met**", qd32)
        self.assertIn("**2 of 3 met.**", text)
        # where both read the legs' limit, 1% under the best is a tie (TIE_AT_LIMIT)
        saved = list(res.runs)
        for adaptive, verdict in ((1030, "| met | a tie at the legs' limit: both read 0.98 or more"),
                                  (1020, "| **not met** |")):
            res.runs = saved + [run("nvme+remote", "randread-qd32", "leg:0", 0, 500),
                                run("nvme+remote", "randread-qd32", "leg:1", 0, 550),
                                run("nvme+remote", "randread-qd32", "rb:adaptive", 0, adaptive),
                                run("nvme+remote", "randread-qd32", "rb:hst", 0, 1040)]
            row = targets()[1][("4 KiB QD32: >= the fastest leg alone and the best other policy",
                                "nvme+remote")]
            self.assertIn(verdict, row)
        # within 3% where not every round is below (TIE_ROUNDS_WITHIN): the
        # same 0.98 is a tie with one round of two at or above hst, a loss
        # with both below; 0.96 is a loss either way
        for rounds, verdict in (((1000, 1060), "| met | a tie at the legs' limit: both read 1.00 or more "
                                               "of it (0.97 or more, and within 3% and not below in every round"),
                                ((1000, 1010), "| **not met** |"), ((980, 1060), "| **not met** |")):
            res.runs = list(saved)
            for r, a in enumerate(rounds):
                res.runs += [run("nvme+remote", "randread-qd32", "leg:0", r, 450),
                             run("nvme+remote", "randread-qd32", "leg:1", r, 550),
                             run("nvme+remote", "randread-qd32", "rb:adaptive", r, a),
                             run("nvme+remote", "randread-qd32", "rb:hst", r, 1040 - 20 * r)]
            row = targets()[1][("4 KiB QD32: >= the fastest leg alone and the best other policy",
                                "nvme+remote")]
            self.assertIn(verdict, row)
        # 8 readers at the legs' limit: a tie with md raid1 counts as QD32's
        res.runs = [x for x in saved if x["workload"] != "seqread-8job" or x["profile"] != "ssd+nvme"
                    or x["config"] not in ("rb:adaptive", "md")]
        for r, (a, md) in enumerate(((99, 100), (101, 100), (98, 101))):
            res.runs += [run("ssd+nvme", "seqread-8job", "rb:adaptive", r, a),
                         run("ssd+nvme", "seqread-8job", "md", r, md, phase=2)]
        row = targets()[1][("8 readers: >= 0.95 of the limit, >= md raid1", "ssd+nvme")]
        self.assertIn("| met | a tie at the legs' limit", row)
        res.runs = saved
        # the same rounds side by side: those ratios judge, the control and
        # the back-to-back rounds are in the note
        saved = list(res.runs)
        for r, (a, lin, twin, lin_c) in enumerate(((940, 1000, 990, 1000), (700, 720, 700, 700),
                                                   (960, 1000, 1010, 1000)), 1):
            for side, cfg, v in (("test", "rb:adaptive", a), ("test", "linear", lin),
                                 ("control", "linear2", twin), ("control", "linear", lin_c)):
                res.runs.append(dict(run("ssd+nvme", "randread-qd1", cfg, r, v), section="side", side=side))
        rows = targets()[1]
        self.assertIn("| 0.960 side by side (median of 3 rounds, 0.94-0.97) | 0.95 | met | dm-linear beside "
                      "its twin 1.000 (0.99-1.01); back to back 1.000 (0.98-1.00) |", rows[qd1_target])
        # the matrix's tables leave them out
        self.assertEqual(report.Matrix(res).value("ssd+nvme", "randread-qd1", "linear"), 1000)
        # the same pairs by turns (run_turns): their rates judge, so named
        for r in res.runs:
            if r.get("section") == "side":
                r["method"] = "turns"
        rows = targets()[1]
        self.assertIn("| 0.960 by turns (median of 3 rounds, 0.94-0.97) | 0.95 | met | dm-linear against "
                      "its twin 1.000 (0.99-1.01); back to back 1.000 (0.98-1.00) |", rows[qd1_target])
        res.runs = saved
        # no adaptive runs: no section
        res.runs = [r for r in res.runs if r["config"] != "rb:adaptive"]
        self.assertEqual(targets()[0], [])

    def test_shared_limit(self):
        """A QD32 job's new limit after the slowdown: the best split of its
        32 reads, not the legs alone's sum (each had all 32)."""
        def leg(i, d, iops, phase="after-depth"):
            return {"section": "slowdown", "phase": phase, "config": f"leg:{i}", "io": "read",
                    "iodepth": d, "m": {"read": {"iops": iops, "bw_kib": iops * 4},
                                        "write": {"iops": 0, "bw_kib": 0}}}
        rs = []
        for d in (2, 4, 8, 16, 24, 32):    # two hdds: 4 tags, 1500 IOPS from 4 on
            rs += [leg(i, d, 1500 * min(d, 4) / 4, "after" if d == 32 else "after-depth") for i in (0, 1)]
            rs.append(leg(2, d, 35 * d, "after" if d == 32 else "after-depth"))  # delayed: 35 a read
        R = report.Report
        # the hdds 4 reads each, the slowed leg the other 24
        self.assertAlmostEqual(R._shared_limit(rs, "IOPS"), 3000 + 35 * 24)
        self.assertAlmostEqual(R._phase_limit(rs, "after", "IOPS"), 3000 + 35 * 32)
        self.assertAlmostEqual(R._shared_limit(rs, "MiB/s"), (3000 + 35 * 24) * 4 / 1024)
        # runs without the depth runs (before run O): the legs alone
        rep = report.Report(results.Results(DATA), "/nonexistent", "/nonexistent.md")
        after = [r for r in rs if r["phase"] == "after"]
        self.assertEqual(rep._new_limit(after, "IOPS"), (3000 + 35 * 32, 3000 + 35 * 32))
        self.assertEqual(rep._new_limit(rs, "IOPS"), (3000 + 35 * 24, 3000 + 35 * 32))

    def test_shares_use_their_phase(self):
        md = self.m.get(PROFILE, "randrw-70", "md")
        self.assertEqual(md["phase"], 2)
        self.assertAlmostEqual(self.m.share(PROFILE, "randrw-70", "md"),
                               results.value(md, "IOPS") / self.m.limits[(PROFILE, "randrw-70", 2)])

    def test_config_order(self):
        self.assertEqual(self.m.configs(p=PROFILE, w="randrw-70", legs=True),
                         ["leg:0", "leg:1", "rb:pid", "rb:roundrobin", "md", "mirror", "linear"])
        # write workloads run one readbal policy only
        self.assertEqual(self.m.configs(w="seqwrite-1280k"), ["rb:pid", "md", "mirror", "linear"])

    def test_leg_shares(self):
        r = self.m.get(PROFILE, "randrw-70", "leg:1")
        self.assertEqual([round(x) for x in r["leg_share"]], [0, 100])

    def test_legs_read_ratio(self):
        # direct I/O: the legs read what fio read (within the window's error)
        r = self.m.get(PROFILE, "randrw-70", "rb:pid")
        self.assertAlmostEqual(r["legs_read_ratio"], 1.0, delta=0.05)
        self.assertIsNone(self.m.get(PROFILE, "seqwrite-1280k", "rb:pid")["legs_read_ratio"])

    def test_write_amplification(self):
        r = [x for x in self.res.runs if x.get("section") == "seed004"][0]
        self.assertEqual(r["run_legs_w_sectors"], 2 * r["run_top_w_sectors"])

    def test_report_tables(self):
        with tempfile.TemporaryDirectory() as d:
            rep = report.Report(self.res, os.path.join(d, "plots"), os.path.join(d, "b.md"))
            text = rep.build()
        lines = text.splitlines()
        self.assertEqual(lines[0], "# dm-readbal benchmarks")
        i = lines.index("## randrw-70: 4 KiB random 70% read / 30% write, QD16")
        table = lines[i + 4:i + 6]
        self.assertEqual(table[0], "| configuration | hdd-seek+ssd |")
        lim = self.m.limits[(PROFILE, "randrw-70", 1)]
        self.assertIn(f"| **limit** | {report.num(lim)} |", lines)
        pid = self.m.get(PROFILE, "randrw-70", "rb:pid")
        v = results.value(pid, "IOPS")
        self.assertIn(f"| pid | {report.num(v)} ({v / lim:.2f}){'*' if pid['cpu_bound'] else ''} |", lines)
        # the CSV carries rbsim's --csv header
        self.assertIn("profile,scale,workload,policy,mibps,iops,p50_us,p99_us,of_limit,share0,share1", lines)
        self.assertTrue(any(ln.startswith("hdd-seek+ssd,guest-bench,randrw-70,pid,0.39,100.5,") for ln in lines))
        # seed 000's layout: fio's READ line
        self.assertTrue(any(re.fullmatch(r"READ: bw=[0-9.]+MiB/s \([0-9.]+MB/s\), io=[0-9.]+MiB, run=\d+msec", ln)
                            for ln in lines))
        # seed 004: amplification exactly the two legs
        self.assertTrue(any("**2.00** for 2 legs (exactly #legs)" in ln for ln in lines))
        # findings: each seed's claim against this run, readbal against the peers
        self.assertLess(lines.index("## Findings: the seeds reproduced"),
                        lines.index("## Headline: share of the physical limit"))
        self.assertTrue(any(ln.startswith("- **Seed 004, long random write**") and "2.00x" in ln
                            and "(exactly #legs)" in ln for ln in lines))
        i = lines.index("### Where readbal stands against md raid1 and dm-mirror")
        row = next(ln for ln in lines[i:] if ln.startswith(f"| {PROFILE} |"))
        best = max(self.m.mean_share(PROFILE, c)[0] for c in ("rb:pid", "rb:roundrobin"))
        md = self.m.mean_share(PROFILE, "md")[0]
        self.assertIn(f"| {best / md:.2f}x |", row)

    def smoke_checks(self, **conf):
        res = results.Results(DATA)
        res.conf = dict(res.conf, **conf)
        with tempfile.TemporaryDirectory() as d:
            rep = report.Report(res, os.path.join(d, "plots"), os.path.join(d, "b.md"))
            rep.build()
            rep.plots = []      # not drawn here
            return report.checks(res, rep)

    def test_smoke_checks(self):
        lines = self.smoke_checks(workloads=["randrw-70", "randread-qd1"], peers=plan.PEERS)
        self.assertIn("PASS bench-smoke:randrw-70", lines)
        self.assertIn("PASS bench-smoke:write-amplification", lines)
        self.assertIn("PASS bench-smoke:seek-emulator", lines)
        # the fixture holds three of the seven workloads: the others fail
        self.assertTrue(any(ln.startswith("FAIL bench-smoke:randread-qd1") for ln in lines))

    def test_smoke_checks_peers(self):
        """A workload needs the legs, a readbal policy and the mode's peers."""
        lines = self.smoke_checks(workloads=["randrw-70"], peers=["mirror"])
        self.assertIn("PASS bench-smoke:randrw-70", lines)
        lines = self.smoke_checks(workloads=["randrw-70"], peers=["mirror", "raid10"])
        self.assertTrue(any(re.fullmatch(r"FAIL bench-smoke:randrw-70 \(missing \['raid10'\]\)", ln)
                            for ln in lines), lines)


class Formatting(unittest.TestCase):
    def test_num(self):
        self.assertEqual([report.num(x) for x in (None, 1234.5, 56.78, 1.234, float("nan"))],
                         ["-", "1234", "56.8", "1.23", "-"])

    def test_md_table(self):
        self.assertEqual(report.md_table(["a", "b"], [["x", 1]]), ["| a | b |", "|:---|---:|", "| x | 1 |"])

    def test_kendall(self):
        self.assertEqual(report.kendall_tau([(1, 10), (2, 20), (3, 30)]), 1.0)
        self.assertEqual(report.kendall_tau([(1, 30), (2, 20), (3, 10)]), -1.0)
        self.assertIsNone(report.kendall_tau([(1, 1), (2, 2)]))
        self.assertIsNone(report.kendall_tau([(1, 1), (1, 1), (1, 1)]))

    def test_labels(self):
        self.assertEqual([report.config_label(c) for c in ("rb:md", "md", "leg:1", "linear")],
                         ["md", "md raid1", "leg 1 alone", "dm-linear (fastest leg)"])

    def test_seed003_layout(self):
        res = results.Results(DATA)
        res.runs = []
        for mode, nj in (("seq rd", 2), ("rnd wr", 2)):
            for i in range(nj):
                res.runs.append({"section": "seed003", "variant": "max", "config": "rb:pid", "mode": mode,
                                 "jobs": nj, "member": i, "limit": (i + 1) << 20,
                                 "m": {"mib_s": 0.5 * (i + 1), "iops": 1,
                                       "read": {"bw_kib": 512 * (i + 1)}, "write": {"bw_kib": 0}}})
        rep = report.Report(res, "/nonexistent/plots", "/nonexistent/b.md")
        rep.seed003()
        text = "\n".join(rep.lines)
        self.assertRegex(text, r"Mode RdWr N +rb:pid max")
        self.assertRegex(text, r"seq  rd   2 +1\.6")
        self.assertRegex(text, r"Test +Mode RdWr N test0 test1")
        self.assertRegex(text, r"rb:pid,max seq\s+rd\s+2\s+0\.5\s+1\.0")
        # half of each group's limit used
        self.assertIn("| rb:pid,max | seq rd | 2 | yes | 0.50-0.50 |  |", rep.lines)


class Calibration(unittest.TestCase):
    @staticmethod
    def cal_results(iops, mibps):
        res = results.Results(DATA)
        res.meta = dict(res.meta, seek_args="seek-full=8000", command="bench/run --calibrate")
        res.calibration, res.seekstats = {}, []
        res.runs = []
        for kind, test, unit, v in (("hdd-seek", "rand4k-qd1", "IOPS", iops),
                                    ("hdd-seek", "seq64k-qd1", "MiB/s", mibps)):
            m = {"iops": v, "mib_s": v, "runtime_ms": 1000, "p50_us": 1.0,
                 "read": {"bw_kib": v * 1024, "iops": v, "ios": 100}, "write": {"bw_kib": 0, "iops": 0}}
            res.runs.append({"section": "calibration", "kind": kind, "test": test, "m": m})
        return res

    def test_targets_and_separate_run(self):
        rep = report.Report(self.cal_results(40, 5), "/nonexistent/plots", "/nonexistent/b.md",
                            cal=self.cal_results(90, 23))
        rep.calibration()
        text = "\n".join(rep.lines)
        self.assertIn("## Calibration: the emulated disks alone", text)
        self.assertIn("### A separate calibration run", text)
        self.assertRegex(text, r"\| 4 KiB random read QD1 \| 75-150 IOPS \| 40\.0 IOPS \|.*\| FAIL")
        self.assertRegex(text, r"\| 4 KiB random read QD1 \| 75-150 IOPS \| 90\.0 IOPS \|.*\| PASS \|")
        # 23 MiB/s over the first 23 MiB: the media rate there is 25 - 12.5 x 11.5/256
        self.assertRegex(text, r"64 KiB sequential QD1 from 0 MiB \| 24\.4 MiB/s \+-10% \| 23\.0 MiB/s \(0\.94\)")


class Lvm(unittest.TestCase):
    def test_lvm_compare_table(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "lvm-compare.tsv"), "w") as f:
                f.write("# a note\nmirror\tworkload\tMiB/s\tIOPS\tleg0-hdd-reads\tleg1-ssd-reads\n"
                        "raid1\trandread-4k-qd8\t12\t3000\t250\t750\n"
                        "readbal\trandread-4k-qd8\t13\t3300\t0\t1000\n")
            res = results.Results(DATA)
            res.dir = d
            rep = report.Report(res, "/nonexistent/plots", "/nonexistent/b.md")
            rep.lvm()
        text = "\n".join(rep.lines)
        self.assertIn("## LVM: lvm raid1 and lvm mirror beside readbal", text)
        self.assertIn("a note", text)
        self.assertRegex(text, r"\| randread-4k-qd8 \| raid1 \| 12\.0 \| 3000 \| 1\.00x \| 75% \|")
        self.assertRegex(text, r"\| randread-4k-qd8 \| readbal \| 13\.0 \| 3300 \| 1\.10x \| 100% \|")

    def test_no_file_no_section(self):
        res = results.Results(DATA)
        res.dir = "/nonexistent"
        rep = report.Report(res, "/nonexistent/plots", "/nonexistent/b.md")
        rep.lvm()
        self.assertEqual(rep.lines, [])


class Slowdown(unittest.TestCase):
    def test_series_and_recovery(self):
        # two clones, 100 ms bins, 4 KiB reads: 4000 KiB/s per clone is 1000 IOPS
        t0 = 1_000_000
        logs = [[(t0 + 100 * i, 4000 if i < 20 else (400 if i < 25 else 2000), 0) for i in range(50)]
                for _ in range(2)]
        r = {"bw_series": logs, "swap_unix": (t0 + 2000) / 1000.0,
             "m": {"read": {"bw_kib": 4000.0, "iops": 1000.0}}}
        series, swap = report.Report.slowdown_series(r, "IOPS")
        self.assertEqual(len(series), 50)
        self.assertAlmostEqual(series[0][1], 2000.0)
        self.assertAlmostEqual(swap, 2.0)
        # the sample stamped 2.5 s (fio: the end of its interval) is back at 1000 IOPS:
        # every later second averages 900 or more from the one stamped 2.4 s on
        # (200 and nine of 1000), 0.3 s after the swap; half seconds from 2.5 s on
        self.assertAlmostEqual(report.Report.recovery_s(series, swap, 1000.0), 0.3, places=5)
        self.assertAlmostEqual(report.Report.recovery_s(series, swap, 1000.0, window_s=0.5), 0.4, places=5)
        self.assertIsNone(report.Report.recovery_s(series, swap, 2000.0))
        mib, _ = report.Report.slowdown_series(r, "MiB/s")
        self.assertAlmostEqual(mib[0][1], 8000 / 1024.0)

    def test_an_interval_without_a_sample_is_zero(self):
        # fio logs an interval only if it moved bytes: one buffered reader
        # at 60 MiB/s in every interval it logs, one interval in five empty
        t0 = 1_000_000
        r = {"bw_series": [[(t0 + 100 * i, 61440, 0) for i in range(50) if i % 5 != 4]],
             "swap_unix": (t0 + 2000) / 1000.0}
        series, _ = report.Report.slowdown_series(r, "MiB/s")
        self.assertEqual(len(series), 49)
        self.assertEqual([v for _, v in series[:5]], [60.0, 60.0, 60.0, 60.0, 0.0])
        steady, _, _ = report.Report.slowdown_after(series, 2.0, 48.0)
        self.assertAlmostEqual(steady, 48.0, delta=1.0)
        # 48 MiB/s in every second: not within 10% of 60
        self.assertIsNone(report.Report.recovery_s(series, 2.0, 60.0))

    def test_the_array_series_counts_reads_across_a_late_sample(self):
        # the array (dm-9) completes 1000 reads a second, 8 sectors each;
        # the sampler ran late once (no sample at 1.2 s): both bins still
        # get their 100 reads, where fio's averaged log would leave one empty
        res = results.Results(DATA)
        t0 = 1_000
        res.samples = [(int((t0 + k / 10) * 1e9), 0, 0, {"dm-9": (100 * k, 800 * k, 0, 0)})
                       for k in range(40) if k != 12]
        r = {"top": "dm-9", "t0": t0 + 0.5, "t1": t0 + 3.0, "duration_s": 2.0, "ramp_s": 0,
             "swap_unix": t0 + 1.5}
        rep = report.Report(res, "/nonexistent", "/nonexistent.md")
        series, swap = rep.array_series(r, "IOPS")
        self.assertEqual(len(series), 20)       # the runtime, not the window's last sample
        self.assertAlmostEqual(swap, 1.0)
        for _, v in series:
            self.assertAlmostEqual(v, 1000.0)
        mib, _ = rep.array_series(r, "MiB/s")
        self.assertAlmostEqual(mib[7][1], 8000 * 512 / 1048576.0)
        self.assertEqual(rep.run_series(r, "IOPS"), (series, swap))
        # no samples of the array: fio's log
        self.assertEqual(rep.array_series(dict(r, top="dm-8"), "IOPS"), ([], None))
        self.assertEqual(rep.run_series(dict(r, top="dm-8"), "IOPS"), ([], None))


class JobFiles(unittest.TestCase):
    def test_parse_merge_render(self):
        text = "# c\n[global]\nbs=4k\ntime_based\n; x\n[a]\nbs=8k\n[b]\nrw=write\n"
        self.assertEqual(fiojob.jobs(text), [("a", {"bs": "8k", "time_based": None}),
                                             ("b", {"bs": "4k", "time_based": None, "rw": "write"})])
        back = fiojob.jobs(fiojob.render(fiojob.jobs(text)))
        self.assertEqual(back, fiojob.jobs(text))
        with self.assertRaises(ValueError):
            fiojob.parse("bs=4k\n")

    def test_helpers(self):
        self.assertEqual(fiojob.duration_s({"runtime": "2", "ramp_time": "500ms"}), 2.5)
        self.assertEqual(fiojob.parse_time("1m"), 60)
        # fio would read "1.25" as 1 s and "0.5" as no ramp at all
        self.assertEqual(fiojob.render([("a", {"runtime": "1.25", "ramp_time": "0.5", "bs": "1.5k"})]),
                         "[a]\nruntime=1250ms\nramp_time=500ms\nbs=1.5k\n")
        self.assertEqual([fiojob.fio_time(v) for v in ("30", "1.0", "1m", "250ms")],
                         ["30", "1", "60", "250ms"])
        self.assertTrue(fiojob.is_buffered({"direct": "0"}))
        self.assertFalse(fiojob.is_buffered({"direct": "1"}))
        self.assertEqual([fiojob.io_kind({"rw": x}) for x in ("randread", "write", "randrw")],
                         ["read", "write", "mixed"])

    def test_repo_job_files(self):
        """Every workload's file exists, has one job, names its seed and
        what was scaled down, and parses; fio/ has no stray file."""
        names = {f for f, _, _ in plan.WORKLOADS.values()} | {"iocontrol.fio", "longwrite.fio"}
        self.assertEqual(names, {f for f in os.listdir(os.path.join(REPO, "fio")) if f.endswith(".fio")})
        for f in names:
            path = os.path.join(REPO, "fio", f)
            text = open(path).read()
            self.assertRegex(text, r"(?i)seeds? \d{3}|issue 6", f)
            if text.startswith("# Seed"):
                self.assertIn("Scaled down", text, f)
            jobs = fiojob.load(path)
            if f != "iocontrol.fio":
                self.assertEqual(len(jobs), 1, f)
            self.assertNotIn("filename", jobs[0][1], f)     # --filename on the command line


class HostLoad(unittest.TestCase):
    TSV = ("1000\t2.10\t95.0\t0\t0.00\n"
           "1005\t3.90\t99.0\t1\t4.00\n"
           "bad\n"
           "1010\t4.00\t100.0\t2\t6.00\n")

    def test_summary(self):
        s = hostload.summary(self.TSV)
        self.assertEqual(s["samples"], 3)
        self.assertAlmostEqual(s["load_mean"], 10.0 / 3)
        self.assertEqual(s["load_max"], 4.0)
        self.assertAlmostEqual(s["others_frac"], 2 / 3)
        self.assertAlmostEqual(s["others_cores"], 10.0 / 15)    # CPU s over 3 x 5 s
        self.assertIsNone(hostload.summary(""))

    def test_window(self):
        # samples cover the 5 s before their time: 1005 and 1010 overlap [1003, 1006]
        s = hostload.summary(self.TSV, 1003, 1006)
        self.assertEqual(s["samples"], 2)
        self.assertAlmostEqual(s["others_cores"], 10.0 / 10)
        self.assertIsNone(hostload.summary(self.TSV, 2000, 2100))

    def test_rest_of_the_host(self):
        """The sampler's sixth column: CPU of all but the benchmark's guest."""
        busy = "1000\t2.0\t99.0\t0\t0.00\t2.50\n1005\t2.0\t99.0\t0\t0.00\t1.50\n"
        s = hostload.summary(busy)
        self.assertAlmostEqual(s["rest_cores"], 0.4)
        self.assertTrue(hostload.disturbed(s))          # no other guest, yet disturbed
        self.assertEqual(hostload.load_cores(s), s["rest_cores"])
        self.assertIsNone(hostload.summary(self.TSV)["rest_cores"])    # an older file

    def test_tasks_run_time(self):
        """The rest of the host is every task's run time but our guest's:
        this process is counted unless its command line has the mark."""
        me = threading.get_native_id()
        t = hostload._tasks_ns("no such mark in any command line \x01")
        self.assertIsNotNone(t)
        self.assertIn(me, t)
        mark = open("/proc/self/cmdline", "rb").read().split(b"\0")[0].decode()
        self.assertNotIn(me, hostload._tasks_ns(mark))

    def test_describe(self):
        self.assertIn("**disturbed**", hostload.describe(hostload.summary(self.TSV)))
        quiet = hostload.summary("1000\t1.90\t90.0\t0\t0.00\n")
        self.assertTrue(hostload.describe(quiet).endswith("undisturbed"))
        self.assertEqual(hostload.describe(None), "not sampled")


class Plan(unittest.TestCase):
    def test_profiles(self):
        self.assertEqual(plan.profile_kinds("2hdd-seek+ssd"), ["hdd-seek", "hdd-seek", "ssd"])
        self.assertEqual(plan.profile_kinds("hdd-seek+ssd"), ["hdd-seek", "ssd"])
        self.assertEqual(plan.fastest_leg(["hdd", "hdd", "ssd"]), 2)
        self.assertEqual(plan.fastest_leg(["nvme", "remote"]), 0)
        with self.assertRaises(ValueError):
            plan.profile_kinds("3floppy")
        with self.assertRaises(ValueError):
            plan.profile_kinds("hdd")
        self.assertEqual(plan.seed003_mode_rw("rnd rdwr"), "randrw")

    def test_scale_groups(self):
        # the matrix and the slowdown give half-rate QD32 legs of their own, after the others
        ws = ["randread-qd32", "seqread-8job", "randread-qd1"]
        self.assertEqual(plan.scale_groups(ws, "nvme+remote"),
                         [(1, ["seqread-8job", "randread-qd1"]), (0.5, ["randread-qd32"])])
        self.assertEqual(plan.scale_groups(ws, "2hdd+ssd"), [(1, ws)])
        # QD32 keeps 32 reads in flight as two threads
        self.assertEqual(plan.job_depth(plan.GUEST_JOB_OPTIONS["randread-qd32"]), (2, 32))
        self.assertEqual(plan.job_depth({"iodepth": "4"}), (1, 4))

    def test_modes(self):
        for name, m in plan.MODES.items():
            for p in m["profiles"] + [(m.get(s) or {}).get("profile") or "2ram" for s in ("seed003", "seed004")]:
                plan.profile_kinds(p)
            for w in m["workloads"]:
                self.assertIn(w, plan.WORKLOADS, name)
            self.assertLessEqual(set(m.get("peers", plan.PEERS)), set(plan.PEERS), name)
        # make check's lane stays small: one profile, two policies, one peer
        smoke = plan.MODES["smoke"]
        self.assertEqual((len(smoke["profiles"]), smoke["policies"], smoke["peers"]), (1, 2, ["mirror"]))


class Result(unittest.TextTestResult):
    """One PASS/FAIL line per test, the lane's format."""

    def addSuccess(self, test):
        super().addSuccess(test)
        print(f"PASS unit-bench:{test.id().split('.', 1)[1]}", flush=True)

    def _fail(self, test, err, kind):
        print(f"FAIL unit-bench:{test.id().split('.', 1)[1]} ({kind})", flush=True)
        print("    " + self._exc_info_to_string(err, test).strip().replace("\n", "\n    "), flush=True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._fail(test, err, "failure")

    def addError(self, test, err):
        super().addError(test, err)
        self._fail(test, err, "error")


class TestTurns(unittest.TestCase):
    """A tools/qd1-alternate device's numbers as the report reads a run's."""

    def test_turns_metrics(self):
        rec = results.Results.__new__(results.Results)
        rec._fio = {}
        turns = {"reads": 9000, "read_s": 2.0, "iops": 4500.0, "bs": 4096, "windows": [4400.0, 4600.0]}
        run = rec._join({"section": "side", "side": "test", "config": "rb:adaptive", "method": "turns",
                         "turns": turns, "tag": "x"})
        self.assertNotIn("problem", run)
        self.assertEqual(results.value(run, "IOPS"), 4500.0)
        self.assertAlmostEqual(results.value(run, "MiB/s"), 9000 * 4096 / 2.0 / (1 << 20))
        self.assertEqual(run["m"]["read"]["ios"], 9000)
        self.assertAlmostEqual(run["m"]["read"]["mean_us"], 2e6 / 9000)
        # a failed run: skipped, no figure
        run = rec._join({"section": "side", "config": "linear", "skipped": "qd1-alternate failed: x"})
        self.assertIsNone(results.value(run, "IOPS"))


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    runner = unittest.TextTestRunner(stream=io.StringIO(), resultclass=Result, verbosity=0)
    r = runner.run(suite)
    failed = len(r.failures) + len(r.errors)
    print(f"python: {r.testsRun - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
