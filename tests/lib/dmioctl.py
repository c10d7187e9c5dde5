# SPDX-License-Identifier: GPL-2.0
"""The device-mapper ioctls the guest tests need, straight on
/dev/mapper/control (include/uapi/linux/dm-ioctl.h): no process per call,
so a test can make thousands of them.  Each raises OSError as the kernel
answers; names are dm device names.  Tests only: the tools use
libdevmapper."""
import fcntl
import os
import struct

DM_NAME_LEN, DM_UUID_LEN = 128, 129
HEADER = struct.Struct(f"=3I7IQ{DM_NAME_LEN}s{DM_UUID_LEN}s7s")  # struct dm_ioctl
SPEC = struct.Struct("=QQiI16s")  # struct dm_target_spec
BUF = 16384

# ioctl numbers: _IOWR(0xfd, nr, struct dm_ioctl)
DEV_CREATE, DEV_REMOVE, DEV_SUSPEND, DEV_STATUS = 3, 4, 6, 7
TABLE_LOAD, TABLE_CLEAR, TABLE_STATUS, TARGET_MSG = 9, 10, 12, 14

SUSPEND_FLAG = 1 << 1
STATUS_TABLE_FLAG = 1 << 4
INACTIVE_PRESENT_FLAG = 1 << 6
QUERY_INACTIVE_TABLE_FLAG = 1 << 12
DATA_OUT_FLAG = 1 << 16


def _call(ctl, nr, name, flags=0, data=b"", target_count=0):
    """One ioctl; returns (flags, target count, the data written back)."""
    head = HEADER.pack(4, 0, 0, BUF, HEADER.size, target_count, 0, flags,
                       0, 0, 0, name.encode(), b"", b"")
    buf = bytearray(head + data + bytes(BUF - HEADER.size - len(data)))
    fcntl.ioctl(ctl, (3 << 30) | (HEADER.size << 16) | (0xFD << 8) | nr, buf)
    # dm_ioctl.data_start, target_count, flags
    start, count = struct.unpack_from("=II", buf, 16)
    out_flags = struct.unpack_from("=I", buf, 28)[0]
    return out_flags, count, bytes(buf[start:])


def control():
    """/dev/mapper/control, opened for ioctls."""
    return open("/dev/mapper/control", "rb", buffering=0)


def message(ctl, name, text):
    """A target message to sector 0; returns its answer ('' if none)."""
    body = struct.pack("=Q", 0) + text.encode() + b"\0"  # struct dm_target_msg
    flags, _, out = _call(ctl, TARGET_MSG, name, data=body)
    if flags & DATA_OUT_FLAG:
        return out.split(b"\0", 1)[0].decode()
    return ""


def create(ctl, name):
    """A device with no table."""
    _call(ctl, DEV_CREATE, name)


def remove(ctl, name):
    _call(ctl, DEV_REMOVE, name)


def load(ctl, name, length, target, params):
    """Load one target of @length sectors as @name's inactive table: the
    target's constructor runs here."""
    p = params.encode() + b"\0"
    p += bytes(-(SPEC.size + len(p)) % 8)
    spec = SPEC.pack(0, length, 0, SPEC.size + len(p), target.encode())
    _call(ctl, TABLE_LOAD, name, data=spec + p, target_count=1)


def clear(ctl, name):
    """Drop the inactive table."""
    _call(ctl, TABLE_CLEAR, name)


def resume(ctl, name):
    """Resume, making an inactive table live."""
    _call(ctl, DEV_SUSPEND, name)


def suspend(ctl, name):
    """Suspend: in-flight I/O ends, new I/O waits for the resume."""
    _call(ctl, DEV_SUSPEND, name, flags=SUSPEND_FLAG)


def flags(ctl, name):
    """dm_ioctl.flags of DM_DEV_STATUS: which tables are present."""
    return _call(ctl, DEV_STATUS, name)[0]


def table_status(ctl, name, table=False, inactive=False):
    """The first target's status line: its table line (@table) or INFO,
    of the live or (@inactive) the inactive table; None with no table."""
    f = (STATUS_TABLE_FLAG if table else 0) | \
        (QUERY_INACTIVE_TABLE_FLAG if inactive else 0)
    _, count, out = _call(ctl, TABLE_STATUS, name, flags=f)
    if not count:
        return None
    return out[SPEC.size:].split(b"\0", 1)[0].decode()


def sectors_of(dev):
    """The size of block device @dev (a path) in 512-byte sectors."""
    k = os.path.basename(os.path.realpath(dev))
    with open(f"/sys/class/block/{k}/size") as f:
        return int(f.read())
