#!/usr/bin/env bash
# Every refusal of readbal(8), with its exit code (1 usage, 2 device, 3
# kernel) and nothing left behind: mounted, swap and held legs, the same
# leg through another path, one leg, unknown policy/knob (built-in list,
# then the module's), values the kernel refuses, missing and non-readbal
# devices, names in use, busy removal, the last leg, reinstate.
# vm-timeout: 300
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tools/test-lib.sh

a=$(rb_disk a ram size=32)
b=$(rb_disk b ram size=32)
m=$(rb_disk m ram size=32)
s=$(rb_disk s ram size=32)
h=$(rb_disk h ram size=32)
cleanup() {
	umount /tmp/rb-mnt 2>/dev/null || true
	swapoff "$s" 2>/dev/null || true
}
trap cleanup EXIT

# --- usage (exit 1)
expect_rc 1 "$RB"
expect_rc 1 "$RB" frobnicate
err_has "no command 'frobnicate'"
expect_rc 1 "$RB" --bogus
expect_rc 1 "$RB" create
expect_rc 1 "$RB" create x --bogus "$a" "$b"
expect_rc 1 "$RB" create 'a/b' "$a" "$b"
err_has "no '/'"
expect_rc 1 "$RB" create one "$a"
err_has "one leg given: a mirror needs 2 to 16 legs"
expect_rc 1 "$RB" table
err_has "no legs given"
fake=()
for i in $(seq 17); do fake+=("/dev/fake$i"); done
expect_rc 1 "$RB" create many "${fake[@]}"
err_has "too many legs"
expect_rc 1 "$RB" create k "$a" "$b" bad=
err_has "the value is missing"
expect_rc 1 "$RB" create k "$a" "$b" preferred=1 preferred=0
err_has "knob preferred is given twice"
for c in table create list status policy set policies fail reinstate replace remove tune; do
	expect_rc 0 "$RB" "$c" --help
	out_has "Usage: readbal $c"
done
expect_rc 0 "$RB" help replace
out_has "Usage: readbal replace"
no_readbal_device

# --- unknown policy or knob, no readbal device to ask: the built-in list
expect_rc 1 "$RB" create p --policy fastest "$a" "$b"
err_has "unknown read policy 'fastest'; the policies are: pid roundrobin latency device round-robin"
err_has "(built-in list; no readbal device exists to ask the module)"
expect_rc 1 "$RB" create p --policy roundrobin speed=3 "$a" "$b"
err_has "policy roundrobin has no knob 'speed'; its knobs are: nonlocal_inc_mixed_only rot_nonlocal_inc nonrot_nonlocal_inc"
expect_rc 1 "$RB" table --policy pid x=1 "$a" "$b"
err_has "policy pid has no knobs"
no_readbal_device

# --- legs that are not fit (exit 2)
expect_rc 2 "$RB" create p "$a" /dev/no-such-disk
err_has "/dev/no-such-disk: no such device"
: >/tmp/rb-file
expect_rc 2 "$RB" create p "$a" /tmp/rb-file
err_has "/tmp/rb-file is a regular file, not a block device"
expect_rc 2 "$RB" create p "$a" /dev/null
err_has "/dev/null is a character device"
# the same disk twice, by its name and through another node
expect_rc 2 "$RB" create p "$a" "$(readlink -f "$a")"
err_has "are the same device"
read -r maj min <<<"$(stat -L -c '0x%t 0x%T' "$a")"
mknod /tmp/rb-alias b "$maj" "$min"
expect_rc 2 "$RB" create p /tmp/rb-alias "$b" "$a"
err_has "/tmp/rb-alias and $a are the same device"
# mounted (ext4 is a module the initramfs may lack: load it from the cache)
grep -qw ext4 /proc/filesystems ||
	modprobe -d "${RB_CACHE:-/var/cache/dm-readbal}/kernel/$(uname -r)" ext4 ||
	die "no ext4 in the guest"
mkfs.ext4 -q "$m"
mkdir -p /tmp/rb-mnt
mount "$m" /tmp/rb-mnt
expect_rc 2 "$RB" create p "$a" "$m"
err_has "$m is mounted on /tmp/rb-mnt (ext4): a device in use cannot be a leg; unmount it first (umount /tmp/rb-mnt)"
umount /tmp/rb-mnt
# swap
mkswap -q "$s" >/dev/null
swapon "$s"
expect_rc 2 "$RB" create p "$a" "$s"
err_has "is in use as swap: turn it off first (swapoff $s)"
swapoff "$s"
# held by a dm device
dm_create lin "0 $(blockdev --getsz "$h") linear $h 0"
expect_rc 2 "$RB" create p "$a" "$h"
err_has "$h is held by dm-"
err_has "(lin): a device in use cannot be a leg"
# held by a program (exclusive open), with no holder link in sysfs
python3 -c 'import os, sys, time; os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); print("held", flush=True); time.sleep(60)' "$b" >/tmp/rb-held &
holder=$!
for _ in $(seq 50); do [[ -s /tmp/rb-held ]] && break; sleep 0.1; done
expect_rc 2 "$RB" create p "$a" "$b"
err_has "$b is in use: the kernel refused an exclusive open"
kill "$holder"
wait "$holder" 2>/dev/null || true
# all problems at once, each named
expect_rc 2 "$RB" create p "$a" /dev/no-such-disk "$h" /tmp/rb-file
err_has "/dev/no-such-disk: no such device"
err_has "$h is held by"
err_has "/tmp/rb-file is a regular file"
[[ -z $(dmsetup ls | grep -v -e '^lin' -e '^No devices' || true) ]] || die "devices left: $(dmsetup ls)"
no_readbal_device

# --- values the kernel refuses (exit 3): its reason is shown, no device left
expect_rc 3 "$RB" create p --policy roundrobin rot_nonlocal_inc=5000 "$a" "$b"
err_has "p: the kernel refused the table"
err_has "kernel log:"
err_has "out of range"
err_has "nothing was created"
! dmsetup info p >/dev/null 2>&1 || die "p left behind"
expect_rc 3 "$RB" create p --policy device preferred=5 "$a" "$b"
err_has "preferred: no such leg"
no_readbal_device

# --- with a readbal device, names are checked against the module's lists
expect_rc 0 "$RB" create ref --policy roundrobin "$a" "$b"
expect_rc 1 "$RB" create p --policy fastest "$m" "$s"
err_has "(as the loaded module lists them, asked through device ref)"
expect_rc 1 "$RB" policy ref fastest
err_has "unknown read policy 'fastest'"
expect_rc 1 "$RB" policy ref roundrobin speed=1
err_has "policy roundrobin has no knob 'speed'"
expect_rc 1 "$RB" set ref preferred=1
err_has "policy roundrobin has no knob 'preferred'"
err_has "readbal policy ref POLICY"
expect_rc 1 "$RB" set ref
expect_rc 1 "$RB" set ref rot_nonlocal_inc
table=$(dmsetup table ref)
expect_rc 3 "$RB" set ref rot_nonlocal_inc=1 nonrot_nonlocal_inc=-3
err_has "ref: the kernel refused the message 'set rot_nonlocal_inc 1 nonrot_nonlocal_inc -3'"
err_has "kernel log:"
expect_rc 3 "$RB" policy ref device preferred=9
err_has "preferred: no such leg"
[[ $(dmsetup table ref) == "$table" ]] || die "a refused message changed the table"
# a name in use
expect_rc 2 "$RB" create ref "$m" "$s"
err_has "a device named ref exists already"
expect_rc 2 "$RB" create lin "$m" "$s"

# --- devices that do not exist, or are not readbal (exit 2)
for c in "status nosuch" "policy nosuch pid" "set nosuch a=1" "fail nosuch 0" \
	"reinstate nosuch 0" "replace nosuch 0 $m" "remove nosuch" \
	"tune nosuch --knob a --values 1 --fio /dev/null"; do
	# shellcheck disable=SC2086
	expect_rc 2 "$RB" $c
	err_has "no device nosuch: 'readbal list' shows the readbal devices"
done
for c in "status lin" "policy lin pid" "remove lin"; do
	# shellcheck disable=SC2086
	expect_rc 2 "$RB" $c
	err_has "lin is not a readbal device (its table has 1 target, the first 'linear')"
done
expect_rc 0 "$RB" list
[[ $OUT != *lin* ]] || die "list shows the linear device"

# --- legs: no such leg; the last leg in sync; reinstate refused
expect_rc 1 "$RB" fail ref 2
err_has "ref has no leg 2: its legs are 0 to 1"
expect_rc 1 "$RB" fail ref "$m"
err_has "is not a leg of ref"
expect_rc 0 "$RB" reinstate ref 0
out_has "is alive"
expect_rc 0 "$RB" fail ref "$b"
out_has "leg 1"
expect_rc 2 "$RB" fail ref 0
err_has "leg 0 is the last leg in sync"
[[ $(dmsetup status ref | awk '{ print $7 }') == A ]] || die "the last leg was failed"
expect_rc 0 "$RB" fail ref 0 --force
out_has "0 of 2 legs alive"
# no leg to copy from (a module with resync), or no such message (older)
expect_rc 3 "$RB" reinstate ref 1
err_has "the kernel refused 'reinstate_leg 1'"
err_has "kernel log:"

# --- removal of a busy device: open, mounted
dev=$(dm_dev ref)
exec 3<"$dev"
expect_rc 2 "$RB" remove ref
err_has "ref is in use (open 1 time)"
exec 3<&-
expect_rc 0 "$RB" remove ref
expect_rc 0 "$RB" create ref "$a" "$b"
mkfs.ext4 -q /dev/mapper/ref
mount /dev/mapper/ref /tmp/rb-mnt
expect_rc 2 "$RB" remove ref
err_has "ref is mounted on /tmp/rb-mnt (ext4)"
umount /tmp/rb-mnt
expect_rc 0 "$RB" remove ref
dm_remove lin
no_readbal_device
[[ -z $(dmsetup ls | grep -v '^No devices' || true) ]] || die "devices left: $(dmsetup ls)"
echo "53-tool-refusals: ok"
