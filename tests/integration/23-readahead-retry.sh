#!/usr/bin/env bash
# vm-timeout: 300
# Read-ahead a leg fails goes to another leg.  A suspended dm leg fails
# every read-ahead bio at once (dm core); dropped, those pages would stay
# in the page cache not up to date and the reader would fetch them one
# page at a time.  Here leg 0 (a dm-linear device) is suspended while
# read-ahead is started over a mirror whose policy sends every read to
# leg 0: the pages must come in from leg 1, right, and leg 0 must show no
# read error and stay in the mirror.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

legs=()
for i in 0 1; do
	d=$(rb_disk "ra$i" ram size=32)
	dm_create "ralin$i" "0 $(rb_sectors "$d") linear $d 0"
	legs+=("$(dm_dev "ralin$i")")
done
s=$(rb_sectors "${legs[0]}")
dm_create ramir "$(rb_table "$s" device "preferred 0" "${legs[@]}")"
dev=$(dm_dev ramir)
head -c $((s * 512)) /dev/urandom >/tmp/ra-pattern
dd if=/tmp/ra-pattern of="$dev" bs=1M oflag=direct status=none
dmsetup message ramir 0 reset_stats

cleanup() { dmsetup resume ralin0 2>/dev/null || true; }
trap cleanup EXIT

# resident DEV BYTES: pages of the first BYTES of DEV up to date in the
# page cache (mincore counts only those), after POSIX_FADV_WILLNEED.
resident() {
	python3 - "$1" "$2" <<'EOF'
import ctypes, os, sys, time
dev, size = sys.argv[1], int(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                      ctypes.c_int, ctypes.c_long]
fd = os.open(dev, os.O_RDONLY)
os.posix_fadvise(fd, 0, size, os.POSIX_FADV_WILLNEED)
addr = libc.mmap(None, size, 1, 1, fd, 0)         # PROT_READ, MAP_SHARED
if addr in (None, ctypes.c_void_p(-1).value):
    sys.exit("mmap: " + os.strerror(ctypes.get_errno()))
pages = size // 4096
vec = (ctypes.c_ubyte * pages)()
n = 0
for _ in range(100):                               # read-ahead is async: 10 s
    if libc.mincore(ctypes.c_void_p(addr), ctypes.c_size_t(size), vec):
        sys.exit("mincore: " + os.strerror(ctypes.get_errno()))
    n = sum(v & 1 for v in vec)
    if n == pages:
        break
    time.sleep(0.1)
print(n)
EOF
}

bytes=$((4 << 20))
# WILLNEED reads at most the device's read-ahead: make that the 4 MiB
blockdev --setra $((bytes / 512)) "$dev"
sync
echo 3 >/proc/sys/vm/drop_caches
dmsetup suspend ralin0
got=$(resident "$dev" $bytes) || die "could not check the page cache of $dev"
[ "$got" = $((bytes / 4096)) ] ||
	die "read-ahead failed on suspended leg 0 was not sent to leg 1: $got of $((bytes / 4096)) pages up to date"
# From the page cache: a page not there would be read from leg 0 and wait.
timeout 20 dd if="$dev" of=/tmp/ra-got bs=64k count=$((bytes / 65536)) status=none ||
	die "reading the read-ahead back waited for the suspended leg"
dmsetup resume ralin0
cmp /tmp/ra-got <(head -c $bytes /tmp/ra-pattern) || die "read-ahead from leg 1 returned wrong data"
[ "$(rb_leg_read_errors ramir 0)" = 0 ] ||
	die "failed read-ahead counted as a read error: $(rb_status ramir)"
[ "$(rb_leg_corrected ramir 0)" = 0 ] || die "failed read-ahead was repaired: $(rb_status ramir)"
[ "$(rb_leg_state ramir 0)" = A ] || die "leg 0 left the mirror: $(rb_status ramir)"
echo "read-ahead failed by suspended leg 0: $got pages read from leg 1, leg 0 still A"

# Read-ahead that every leg fails ends without an error message.
sync
echo 3 >/proc/sys/vm/drop_caches
logged=$(dmesg | grep -c 'read error' || true)
dmsetup suspend ralin0
dmsetup suspend ralin1
python3 -c "import os; fd = os.open('$dev', os.O_RDONLY); os.posix_fadvise(fd, 0, $bytes, os.POSIX_FADV_WILLNEED)"
sleep 1
dmsetup resume ralin1
dmsetup resume ralin0
[ "$(dmesg | grep -c 'read error' || true)" = "$logged" ] ||
	die "read-ahead failed on every leg was logged as a read error: $(dmesg | grep 'read error' | tail -3)"
[ "$(rb_leg_state ramir 0)" = A ] && [ "$(rb_leg_state ramir 1)" = A ] || die "a leg left the mirror: $(rb_status ramir)"
dd if="$dev" of=/tmp/ra-got bs=64k count=$((bytes / 65536)) status=none || die "read after resume failed"
cmp /tmp/ra-got <(head -c $bytes /tmp/ra-pattern) || die "wrong data after resume"
echo "read-ahead failed by every leg: dropped, no error logged, legs A"

trap - EXIT
dm_remove ramir
dm_remove ralin0
dm_remove ralin1
rb_disk_rm ra0
rb_disk_rm ra1
rm -f /tmp/ra-pattern /tmp/ra-got
