#!/bin/bash
set -euo pipefail
. "$RB_REPO/tests/lib/common.sh"
. "$RB_REPO/tests/lib/disks.sh"
cat <(echo procsubst ok)
env | grep -E '^(RB_|LVM_|DM_|MDADM|HOME|PATH)' | sort
a=$(rb_disk a ram size=64); b=$(rb_disk b ram size=64); c=$(rb_disk c ssd size=64); d=$(rb_disk d ssd size=64)
pvcreate -q "$a" "$b"
vgcreate -q vg "$a" "$b"
lvcreate -q -y -n lv -L 32M vg
lvs
ls -l /dev/mapper /dev/vg || true
mkfs.ext4 -q /dev/vg/lv 2>/dev/null || mkfs.ext4 -q "$(dm_dev vg-lv)"
mkdir -p /tmp/mnt && mount "$(dm_dev vg-lv)" /tmp/mnt && echo mounted
mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 "$c" "$d"
cat /proc/mdstat || true
dm_create dly "0 $((64*2048)) delay /dev/rb/a 0 10"
dd if="$(dm_dev dly)" of=/dev/null bs=4k count=2 iflag=direct status=none
modprobe nbd
nbdkit -U /tmp/nbd.sock memory 64M
sleep 1
nbd-client -unix /tmp/nbd.sock /dev/nbd0 -b 4096
dd if=/dev/nbd0 of=/dev/null bs=4k count=4 iflag=direct status=none && echo nbd ok
losetup -f --show /tmp/nbd.sock 2>/dev/null || { truncate -s 8M /tmp/img; losetup -f --show /tmp/img; }
sleep 100 &
echo leaving everything behind
