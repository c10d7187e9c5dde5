#!/usr/bin/env bash
# readbal(8) over LVM logical volumes: a mirror of three LVs on three PVs,
# its legs shown by their LV names, I/O, a policy switch; the PV under an
# active LV and an LV already in a mirror are refused as legs.
# vm-timeout: 240
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tools/test-lib.sh

vg=rbtoolvg
# LVM does not know null_blk's device type: name it (its /proc/devices name).
nullb_type=$(awk '$2 ~ /^nullb/ { print $2; exit }' /proc/devices)
[[ -n $nullb_type ]] || nullb_type=nullb
lvmconf="devices { types = [ \"$nullb_type\", 16 ] }"
lvm() { command lvm "$1" --config "$lvmconf" "${@:2}"; }
cleanup() {
	dmsetup --noudevsync remove lvmir >/dev/null 2>&1 || true
	lvm vgchange -an "$vg" >/dev/null 2>&1 || true
	lvm vgremove -ff "$vg" >/dev/null 2>&1 || true
}
trap cleanup EXIT

pvs=()
for i in 0 1 2; do pvs+=("$(readlink -f "$(rb_disk "pv$i" ram size=48)")"); done
lvm pvcreate -q "${pvs[@]}"
lvm vgcreate -q "$vg" "${pvs[@]}"
lvs=()
for i in 0 1 2; do
	lvm lvcreate -q -y -L 32M -n "leg$i" "$vg" "${pvs[i]}"
	lvs+=("/dev/mapper/$vg-leg$i")
	[[ -b ${lvs[i]} ]] || die "${lvs[i]} missing after lvcreate"
done
lvm lvcreate -q -y -L 8M -n small "$vg" "${pvs[0]}"

# The PV holds an active LV: refused, naming the LV.
expect_rc 2 "$RB" create bad "${pvs[0]}" "${pvs[1]}"
err_has "${pvs[0]} is held by dm-"
err_has "($vg-leg0"
no_readbal_device

expect_rc 0 "$RB" create lvmir --policy device preferred=1 "${lvs[@]}"
out_line 'created lvmir \(/dev/dm-[0-9]+\): 3 legs, 32 MiB'
[[ -z $ERR ]] || die "equal LVs: no warning expected"
# An LV has no request queue of its own: the table gives each leg its PV's depth.
qd=$(cat "/sys/block/$(basename "${pvs[0]}")/queue/nr_requests")
table=$(dmsetup table lvmir)
for i in 0 1 2; do
	grep -q "queue_depth $i $qd\b" <<<"$table" || die "leg $i: no queue_depth $qd in: $table"
done

# The legs are shown by their LV (dm) names.
expect_rc 0 "$RB" status lvmir
for i in 0 1 2; do out_line "  $i  $vg-leg$i +- +no +alive .*"; done
expect_rc 0 "$RB" status lvmir --json
[[ $(jq -r '[.legs[].dm_name] | join(" ")' <<<"$OUT") == "$vg-leg0 $vg-leg1 $vg-leg2" ]] || die "dm_name"
[[ $(jq -r '[.legs[].name | test("^dm-[0-9]+$")] | all' <<<"$OUT") == true ]] || die "name"

# I/O through the mirror reaches the LVs; reads go to the preferred one.
dd if=/dev/urandom of=/tmp/data bs=1M count=4 status=none
dd if=/tmp/data of=/dev/mapper/lvmir bs=1M oflag=direct status=none
for lv in "${lvs[@]}"; do cmp -n $((4 << 20)) /tmp/data "$lv" || die "$lv lacks the data"; done
dmsetup message lvmir 0 reset_stats
dd if=/dev/mapper/lvmir of=/dev/null bs=64k count=16 iflag=direct status=none
expect_rc 0 "$RB" status lvmir --json
[[ $(jq -r '[.legs[].reads > 0] | map(tostring) | join(" ")' <<<"$OUT") == "false true false" ]] ||
	die "reads did not go to the preferred leg 1"
expect_rc 0 "$RB" policy lvmir round-robin min_contig_read=65536
dmsetup message lvmir 0 reset_stats
dd if=/dev/mapper/lvmir of=/dev/null bs=64k count=30 iflag=direct status=none
expect_rc 0 "$RB" status lvmir --json
[[ $(jq -r '[.legs[].reads] | map(tostring) | join(" ")' <<<"$OUT") == "10 10 10" ]] ||
	die "round-robin 64k over 30 reads of 64k: want 10 per leg"

# An LV already in a mirror is held: refused.  A too-small LV warns.
expect_rc 2 "$RB" create again "${lvs[0]}" "/dev/mapper/$vg-small"
err_has "${lvs[0]} is held by dm-"
err_has "(lvmir)"
no_device_but lvmir

expect_rc 0 "$RB" remove lvmir
lvm lvchange -q -an "$vg/leg2"
[[ ! -e ${lvs[2]} ]] || die "deactivated LV still there"
# an inactive LV's path does not exist
expect_rc 2 "$RB" create nolv "${lvs[0]}" "${lvs[2]}"
err_has "${lvs[2]}: no such device"
lvm lvchange -q -ay "$vg/leg2"
expect_rc 0 "$RB" create lvmir2 "${lvs[0]}" "/dev/mapper/$vg-small" "${lvs[2]}"
err_has "is larger than the smallest leg /dev/mapper/$vg-small (8 MiB): 24 MiB of it stays unused"
out_line 'created lvmir2 \(/dev/dm-[0-9]+\): 3 legs, 8 MiB'
expect_rc 0 "$RB" remove lvmir2
no_readbal_device
echo "51-tool-lvm: ok"
