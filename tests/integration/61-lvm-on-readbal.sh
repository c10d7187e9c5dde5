#!/usr/bin/env bash
# vm-timeout: 180
# LVM on top of a readbal device. Every leg holds a copy of the PV label,
# so without a filter LVM sees the PV three times, may pick a leg (and
# then write to one leg behind the mirror's back), and refuses vgcreate
# ("Cannot use device ... with duplicates"). The filter that hides the legs
# (docs/howto-lvm.md) leaves the readbal device as the only PV: vgcreate,
# lvcreate and I/O through the LV work, and the data is on both legs.
source tests/lvm/inittest

aux prepare_devs 2 40
dm_create ${PREFIX}rb "$(rb_table "$(rb_sectors "$dev1")" roundrobin '' "$dev1" "$dev2")"
rb=/dev/mapper/${PREFIX}rb
pvcreate -q $rb >/dev/null

# No filter for the legs: the PV is seen on the legs too.
out=$(pvs -o pv_name --noheadings 2>&1 || true)
[[ $out == *"Not using device"* ]] || die "no duplicate PV warning without the filter: $out"
expect_fail vgcreate -q ${PREFIX}top $rb

# The filter of docs/howto-lvm.md: reject the legs, by name.
aux lvmconf "devices/global_filter = [ \"r|^$dev1\$|\", \"r|^$dev2\$|\", \"a|^/dev/mapper/$PREFIX|\", \"r|.*|\" ]"
out=$(pvs -o pv_name --noheadings 2>&1)
[[ $out != *WARNING* ]] || die "warnings with the filter: $out"
[[ ${out//[[:space:]]/} == "$rb" ]] || die "PVs with the filter: '$out', expected $rb"
vgcreate -q ${PREFIX}top $rb >/dev/null
lvcreate -q -y -L 16M -n data ${PREFIX}top >/dev/null
check lv_field ${PREFIX}top/data devices "$rb(0)"

lv=/dev/mapper/${PREFIX}top-data
dd if=/dev/urandom of=/tmp/lvm61 bs=1M count=16 status=none
dd if=/tmp/lvm61 of=$lv bs=1M oflag=direct status=none
cmp /tmp/lvm61 $lv || die "the LV reads back wrong"
# The LV's data starts after the PV's metadata area: same place on each leg.
start=$(get pv_field $rb pe_start)
cmp -n $((16 << 20)) /tmp/lvm61 <(dd if="$dev1" bs=512 skip="$start" iflag=direct status=none) ||
	die "leg 0 lacks the LV's data"
check legs_equal "$(rb_sectors $rb)" "$dev1" "$dev2"
echo "61-lvm-on-readbal: ok"
