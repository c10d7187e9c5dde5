# SPDX-License-Identifier: GPL-2.0
"""Device-mapper through its ioctls (linux/dm-ioctl.h), without dmsetup:
under TCG each dmsetup run costs 0.7 s and the benchmark makes a dozen dm
devices per array.  No udev is involved: the kernel's devtmpfs makes
/dev/dm-N.  Used in the guest only."""

import fcntl
import struct
import time

NAME_LEN, UUID_LEN = 128, 129
HEADER = struct.Struct(f"=3I7IQ{NAME_LEN}s{UUID_LEN}s7s")   # struct dm_ioctl
SPEC = struct.Struct("=QQiI16s")                             # struct dm_target_spec
BUF = 16384
DM_VERSION = (4, 0, 0)
DM_SUSPEND_FLAG = 1 << 1
DM_DATA_OUT_FLAG = 1 << 16


def _ioc(nr):
    return (3 << 30) | (HEADER.size << 16) | (0xFD << 8) | nr


DM_DEV_CREATE, DM_DEV_REMOVE, DM_DEV_SUSPEND = _ioc(3), _ioc(4), _ioc(6)
DM_TABLE_LOAD, DM_TARGET_MSG = _ioc(9), _ioc(14)


def _call(cmd, name, payload=b"", target_count=0, flags=0):
    head = HEADER.pack(*DM_VERSION, BUF, HEADER.size, target_count, 0, flags, 0, 0, 0,
                       name.encode(), b"", b"")
    buf = bytearray(head + payload + bytes(BUF - HEADER.size - len(payload)))
    with open("/dev/mapper/control", "rb", buffering=0) as ctl:
        fcntl.ioctl(ctl, cmd, buf)
    return buf


def _devno(buf):
    dev = struct.unpack_from("=Q", buf, 40)[0]       # dm_ioctl.dev
    major = (dev >> 8) & 0xFFF
    minor = (dev & 0xFF) | ((dev >> 12) & 0xFFF00)
    return major, minor


def _load(name, table):
    """Loads the one-line TABLE into NAME's inactive slot."""
    start, length, target, params = table.split(None, 3)
    p = params.encode() + b"\0"
    p += bytes(-(SPEC.size + len(p)) % 8)
    spec = SPEC.pack(int(start), int(length), 0, SPEC.size + len(p), target.encode())
    _call(DM_TABLE_LOAD, name, spec + p, target_count=1)


def create(name, table):
    """Creates and resumes NAME with a one-line TABLE "start len target
    params"; returns its kernel name (dm-N).  Raises OSError (the reason is
    in the kernel log) and leaves nothing behind."""
    _call(DM_DEV_CREATE, name)
    try:
        _load(name, table)
        buf = _call(DM_DEV_SUSPEND, name)                # no suspend flag: resume
    except OSError:
        remove(name)
        raise
    return "dm-%d" % _devno(buf)[1]


def reload(name, table):
    """Swaps NAME's table for the one-line TABLE, as "dmsetup load" and
    "dmsetup resume": the device is suspended (its I/O drained) for the
    swap.  Raises OSError and keeps the old table if the kernel refuses."""
    _load(name, table)
    _call(DM_DEV_SUSPEND, name)                          # resume: swaps in the new table


def remove(name, tries=20):
    """Removes NAME; retries while it is still open (fio just exited)."""
    for i in range(tries):
        try:
            _call(DM_DEV_REMOVE, name)
            return
        except OSError as e:
            if e.errno == 6:       # ENXIO: no such device
                return
            if e.errno != 16 or i == tries - 1:   # EBUSY
                raise
            time.sleep(0.2)


def message(name, text):
    """A target message, as "dmsetup message NAME 0 TEXT"; returns the
    answer (list_policies, list_knobs) or ""."""
    body = struct.pack("=Q", 0) + text.encode() + b"\0"
    buf = _call(DM_TARGET_MSG, name, body)
    flags = struct.unpack_from("=I", buf, 28)[0]
    if flags & DM_DATA_OUT_FLAG:
        return bytes(buf[HEADER.size:]).split(b"\0", 1)[0].decode()
    return ""
