# SPDX-License-Identifier: GPL-2.0
"""fio job files: read the fio/*.fio templates, write the benchmark's own.

A job file is INI-like: "[section]" lines, "key=value" or bare "key" lines,
comments starting with '#' or ';'.  Options of [global] apply to every job
section after it; a job's own options override them.
"""

import re

_SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")


def parse(text):
    """Returns [(section, [(key, value-or-None)...])...] in file order."""
    sections = []
    current = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        m = _SECTION.match(line)
        if m:
            current = (m.group("name").strip(), [])
            sections.append(current)
            continue
        if current is None:
            raise ValueError(f"line {lineno}: option outside a section: {line}")
        key, eq, value = line.partition("=")
        current[1].append((key.strip(), value.strip() if eq else None))
    return sections


def jobs(text):
    """Returns [(job name, {key: value})...]: each job section with the
    [global] options before it merged in."""
    glob = {}
    out = []
    for name, opts in parse(text):
        if name == "global":
            for k, v in opts:
                glob[k] = v
            continue
        merged = dict(glob)
        for k, v in opts:
            merged[k] = v
        out.append((name, merged))
    return out


def load(path):
    with open(path) as f:
        return jobs(f.read())


# fio reads "1.25" as 1 s and "0.5" as none: time options go out in ms
TIME_KEYS = ("runtime", "ramp_time", "startdelay")


def fio_time(v):
    """A time value fio reads as meant: whole seconds as they are, else ms."""
    s = parse_time(v)
    return str(int(s)) if s == int(s) else f"{round(s * 1000)}ms"


def render(sections):
    """sections: [(name, {key: value or None})...] -> job file text."""
    lines = []
    for name, opts in sections:
        lines.append(f"[{name}]")
        for k, v in opts.items():
            if k in TIME_KEYS and v is not None:
                v = fio_time(v)
            lines.append(k if v is None else f"{k}={v}")
        lines.append("")
    return "\n".join(lines)


def duration_s(opts):
    """Seconds a time-based job runs: runtime plus ramp_time."""
    return parse_time(opts.get("runtime", "0")) + parse_time(opts.get("ramp_time", "0"))


def parse_time(v):
    """fio time values: plain numbers are seconds; s, m, h, ms, us suffixes."""
    if v is None:
        return 0.0
    m = re.fullmatch(r"\s*([0-9.]+)\s*(us|ms|s|m|h)?\s*", str(v))
    if not m:
        raise ValueError(f"not a fio time: {v!r}")
    n = float(m.group(1))
    return n * {None: 1, "s": 1, "m": 60, "h": 3600, "ms": 1e-3, "us": 1e-6}[m.group(2)]


def is_buffered(opts):
    return opts.get("direct", "0") in ("0", None) and opts.get("buffered", "1") != "0"


def io_kind(opts):
    """read, write or mixed, from rw/readwrite."""
    rw = opts.get("rw", opts.get("readwrite", "read"))
    if rw in ("read", "randread"):
        return "read"
    if rw in ("write", "randwrite", "trim", "randtrim"):
        return "write"
    return "mixed"
