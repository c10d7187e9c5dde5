#!/usr/bin/env bash
# vm-timeout: 240
# One boot of the crash test (tests/crash/run drives it): the legs and the
# disk log are virtio disks backed by host files, so they outlive the
# guest.  Boot 1 creates the mirror; every boot re-creates it from the
# same table, waits for the resync of what the log calls dirty, compares
# the legs byte for byte, checks every acknowledged block, then (but on
# the last boot) writes again and resets the guest mid-write.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/readbal.sh

state=$RB_RESULTS/crash
boot=$(cat "$state/boot") last=$(cat "$state/boots")
modprobe virtio_blk
for d in vda vdb vdc; do
	for _ in {1..50}; do [[ -b /dev/$d ]] && break; sleep 0.1; done
done
legs=(/dev/vda /dev/vdb) log=/dev/vdc
s=$(rb_sectors "${legs[0]}")
# region_size 128: 64 KiB regions, so a crash leaves few of many dirty
features="4 region_size 128 log_dev $log"
# the control run (tests/crash/run --control): a core log forgets at a crash
[[ $(cat "$state/log" 2>/dev/null) != core ]] || features="2 region_size 128"
table="$(rb_table "$s" roundrobin "" "${legs[@]}") $features"
echo "boot $boot of $last: $table"
dm_create mir "$table"
dev=$(dm_dev mir)
# the log's verdict at resume (the copy may be done before status is read)
dirty=$(dmesg | sed -n 's/.*readbal: .*: \([0-9]*\) of [0-9]* regions to resync/\1/p' | tail -n1)
echo "regions the log called dirty at activation: ${dirty:-0}"
echo "${dirty:-0}" >"$state/dirty-at-boot-$boot"
rb_wait_sync mir 120
echo "resynced: $(rb_sync mir)"
dmsetup status mir

# the legs hold the same bytes, and every acknowledged write is there
cmp "${legs[0]}" "${legs[1]}" || die "legs differ after the resync (boot $boot)"
if compgen -G "$state/ack.*" >/dev/null; then
	tests/crash/blockwriter check "$dev" "$state"/ack.* ||
		die "an acknowledged write was lost (boot $boot)"
fi

if ((boot >= last)); then
	dm_remove mir
	echo "boot $boot: final check passed"
	exit 0
fi
# write for a few seconds; reset the guest at a moment that differs per boot
t=$(((boot * 37) % 30 + 5))	# tenths: 1.2 1.9 2.6 3.3 1.0 ... seconds
delay=$((t / 10)).$((t % 10))
tests/crash/blockwriter write "$dev" "$state/ack.$boot" "$boot" 30 4 &
acked() { cat "$state"/ack."$boot".* 2>/dev/null | wc -l; }
for _ in {1..300}; do (($(acked) > 0)) && break; sleep 0.1; done	# python starts slowly
sleep "$delay"
echo "acknowledged so far: $(acked) writes"
rb_crash "boot $boot: reset after ${delay}s of writes"
