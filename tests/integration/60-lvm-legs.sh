#!/usr/bin/env bash
# vm-timeout: 180
# Legs that are LVM logical volumes, one on each of three PVs: data written
# through the mirror is on every leg; one PV failing (its table swapped to
# error, as lvm2's tests do) fails only its leg, the writer sees no error
# and reads stay right; with the PV back, reinstate_leg resyncs the leg and
# the legs are the same again.
source tests/lvm/inittest

aux prepare_devs 3 40
aux prepare_vg
for i in 0 1 2; do
	lvcreate -q -y -L 32M -n "leg$i" "$vg" "/dev/mapper/${PREFIX}pv$((i + 1))" >/dev/null
done
# Each leg on its own PV, as the mirror needs.
check lv_field "$vg/leg1" devices "/dev/mapper/${PREFIX}pv2(0)"
legs=("/dev/mapper/$vg-leg0" "/dev/mapper/$vg-leg1" "/dev/mapper/$vg-leg2")
len=$(rb_sectors "${legs[0]}")
dm_create ${PREFIX}rb "$(rb_table "$len" roundrobin '' "${legs[@]}")"
rb=/dev/mapper/${PREFIX}rb

dd if=/dev/urandom of=/tmp/lvm60 bs=1M count=8 status=none
dd if=/tmp/lvm60 of=$rb bs=1M oflag=direct status=none
check legs_equal $((8 * 2048)) /tmp/lvm60 "${legs[@]}"

# PV 2 fails: leg 1 is failed on the first write, the rest goes on.
aux error_dev dev2
dd if=/tmp/lvm60 of=$rb bs=1M seek=8 oflag=direct status=none
[[ $(rb_leg_state ${PREFIX}rb 1) == D ]] || die "leg 1 not failed: $(rb_status ${PREFIX}rb)"
[[ $(rb_leg_write_errors ${PREFIX}rb 1) -gt 0 ]] || die "no write error counted on leg 1"
dmsetup message ${PREFIX}rb 0 reset_stats
for off in 0 $((8 << 20)); do
	cmp -n $((8 << 20)) /tmp/lvm60 $rb 0 $off || die "reads with leg 1 failed"
done
[[ $(rb_leg_reads ${PREFIX}rb 1) == 0 ]] || die "a failed leg served reads"

# PV 2 back: the leg is resynced from the others.
aux enable_dev dev2
dmsetup message ${PREFIX}rb 0 reinstate_leg 1
rb_wait_sync ${PREFIX}rb 60
[[ $(rb_leg_state ${PREFIX}rb 1) == A ]] || die "leg 1 not alive after resync: $(rb_status ${PREFIX}rb)"
check legs_equal "$len" "${legs[@]}"
echo "60-lvm-legs: ok"
