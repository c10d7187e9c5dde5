#!/usr/bin/env bash
# vm-timeout: 180
# Growing a readbal device whose legs are LVs and which is itself a PV
# (docs/howto-lvm.md, "Growing"): grow every leg LV, zero the new part of
# each leg (a grown mirror is not resynced: the legs must already agree
# there), reload the table with the new length, pvresize the PV on top and
# grow its LV. The data written before and after is intact and the legs
# are the same.
source tests/lvm/inittest

aux prepare_devs 2 48
aux prepare_vg
legs=("/dev/mapper/$vg-leg0" "/dev/mapper/$vg-leg1")
lvcreate -q -y -L 16M -n leg0 "$vg" "$dev1" >/dev/null
lvcreate -q -y -L 16M -n leg1 "$vg" "$dev2" >/dev/null
dm_create ${PREFIX}rb "$(rb_table $((16 * 2048)) roundrobin '' "${legs[@]}")"
rb=/dev/mapper/${PREFIX}rb
# The leg LVs are not scanned (scan_lvs = 0): no duplicate PVs.
pvcreate -q $rb >/dev/null
vgcreate -q -s 1M ${PREFIX}top $rb >/dev/null
lvcreate -q -y -l 100%FREE -n data ${PREFIX}top >/dev/null
lv=/dev/mapper/${PREFIX}top-data
before=$(rb_sectors $lv)
dd if=/dev/urandom of=/tmp/lvm62 bs=1M count=8 status=none
dd if=/tmp/lvm62 of=$lv bs=1M oflag=direct status=none

# Grow: every leg by 16 MiB, zero the new part, then the table.
for l in leg0 leg1; do
	lvextend -q -L +16M "$vg/$l" >/dev/null
	dd if=/dev/zero of="/dev/mapper/$vg-$l" bs=1M seek=16 count=16 oflag=direct status=none
done
new=$(rb_sectors "${legs[0]}")
((new == 32 * 2048)) || die "leg0 is $new sectors after lvextend"
rb_table "$new" roundrobin '' "${legs[@]}" | dmsetup --noudevsync load ${PREFIX}rb
dmsetup --noudevsync resume ${PREFIX}rb
[[ $(rb_sectors $rb) == "$new" ]] || die "readbal did not grow"

# The PV and the LV on top grow into it.
pvresize -q $rb >/dev/null
lvextend -q -l +100%FREE ${PREFIX}top/data >/dev/null
after=$(rb_sectors $lv)
((after >= before + 16 * 2048 - 2048)) || die "the LV on top grew from $before to $after sectors only"
dd if=/tmp/lvm62 of=$lv bs=1M seek=$((after / 2048 - 8)) oflag=direct status=none
cmp -n $((8 << 20)) /tmp/lvm62 $lv || die "the data written before the growth changed"
cmp -n $((8 << 20)) /tmp/lvm62 $lv 0 $(((after / 2048 - 8) << 20)) || die "the data at the new end reads wrong"
check legs_equal "$new" "${legs[@]}"
echo "62-lvm-resize: ok ($before -> $after sectors)"
