#!/usr/bin/env bash
# vm-timeout: 420
# The dirty region log (issue 4): the core log starts in sync; "sync"
# copies every region, reads of a region not yet copied go only to the
# source leg; policy switches, suspend/resume and a leg replaced by a
# table reload under fio verify lose nothing; a disk log keeps the sync
# state across suspend, reload and re-creation; bad log features are
# refused.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

throttle=/sys/module/dm_readbal/parameters/readbal_resync_throttle
legs=() disks=()
for i in 0 1 2 3; do
	disks+=("$(rb_disk "g$i" ssd size=64)")
	dm_create "leg$i" "0 $(rb_sectors "${disks[$i]}") linear ${disks[$i]} 0"
	legs+=("$(dm_dev "leg$i")")
done
s=$(rb_sectors "${legs[0]}")
regions=$((s / 2048))

echo "== core log, no features: in sync at once, table unchanged"
dm_create mir "$(rb_table "$s" pid "" "${legs[0]}" "${legs[1]}")"
[[ $(rb_sync mir) == "$regions/$regions" ]] || die "core log not in sync: $(rb_sync mir)"
dmsetup table mir | grep -q ' pid 0$' || die "table grew features: $(dmsetup table mir)"
dm_remove mir

echo "== core log with sync: legs made different are copied; reads wait for the copy"
dd if=/dev/urandom of="${legs[1]}" bs=1M count=64 oflag=direct status=none
echo 5 >"$throttle"	# slow copying, so that there is time to look
dm_create mir "$(rb_table "$s" roundrobin "" "${legs[0]}" "${legs[1]}") 1 sync"
dev=$(dm_dev mir)
dmsetup table mir | grep -q ' 1 sync$' || die "sync missing from the table: $(dmsetup table mir)"
sync1=$(rb_sync mir)
[[ ${sync1%/*} -lt $regions ]] || die "nothing to resync: $sync1"
# The last MiB is copied last: until then only leg 0 may serve it.
dmsetup message mir 0 reset_stats
for _ in {1..20}; do rb_read_direct "$dev" 1 $((regions - 1)); done
sync2=$(rb_sync mir)
[[ ${sync2%/*} -lt $regions ]] || die "resync ended too soon to tell ($sync2)"
[[ $(rb_leg_reads mir 1) == 0 ]] || die "leg 1 served a region not in sync: $(rb_status mir)"
echo "reads of the uncopied region: leg 0 $(rb_leg_reads mir 0), leg 1 0 (resync $sync2)"

echo "== under fio verify while resyncing: policy switches, suspend/resume"
fio --name=v --filename="$dev" --size=48M --rw=randrw --bs=16k --direct=1 \
	--ioengine=libaio --iodepth=8 --verify=crc32c --verify_fatal=1 \
	--do_verify=1 --randseed=7 --output-format=terse >/tmp/fio.out 2>&1 &
pid=$!
for p in pid roundrobin md adaptive zfs hst latency device round-robin pid; do
	dmsetup message mir 0 policy "$p"
	sleep 0.3
done
for _ in 1 2 3; do
	dmsetup suspend mir
	dmsetup resume mir
	sleep 0.3
done
echo 100 >"$throttle"
wait "$pid" || { cat /tmp/fio.out; die "fio verify failed during resync"; }
rb_wait_sync mir 120
cmp "${legs[0]}" "${legs[1]}" || die "legs differ after the resync"
dm_remove mir

echo "== a leg replaced by a table reload under fio verify"
dm_create mir "$(rb_table "$s" roundrobin "" "${legs[0]}" "${legs[1]}" "${legs[2]}")"
dev=$(dm_dev mir)
dd if=/dev/urandom of="${legs[3]}" bs=1M count=64 oflag=direct status=none
fio --name=r --filename="$dev" --size=48M --rw=randrw --bs=16k --direct=1 \
	--ioengine=libaio --iodepth=8 --verify=crc32c --verify_fatal=1 \
	--randseed=9 --output-format=terse >/tmp/fio.out 2>&1 &
pid=$!
sleep 1
dmsetup reload mir --table "$(rb_table "$s" roundrobin "" "${legs[0]}" "${legs[1]}" "${legs[3]}") 2 rebuild 2"
dmsetup suspend mir
dmsetup resume mir
wait "$pid" || { cat /tmp/fio.out; die "fio verify failed across the leg replacement"; }
rb_wait_sync mir 120
cmp "${legs[0]}" "${legs[3]}" || die "the new leg differs after its rebuild"
dm_remove mir

echo "== disk log: sync state kept across suspend, reload and re-creation"
logdisk=$(rb_disk glog ssd size=4)
table="$(rb_table "$s" roundrobin "" "${legs[0]}" "${legs[1]}") 4 region_size 1024 log_dev $logdisk"
dmesg -C
dm_create mir "$table"
rb_wait_sync mir 120
dmsetup table mir | grep -q "region_size 1024 log_dev " || die "log missing from the table: $(dmsetup table mir)"
dd if=/dev/urandom of="$(dm_dev mir)" bs=1M count=8 oflag=direct status=none
dmsetup suspend mir
dmsetup resume mir
dmsetup reload mir --table "$table"
dmsetup resume mir
dm_remove mir
dm_create mir "$table"
n=$(dmesg | grep -c 'regions to resync' || true)
[[ $n == 1 ]] || die "a clean disk log resynced again ($n times): $(dmesg | grep readbal)"
cmp "${legs[0]}" "${legs[1]}" || die "legs differ"
dm_remove mir

echo "== the log device fails: writes go on, the failure is logged with an event"
dm_create logdev "0 $(rb_sectors "$logdisk") linear $logdisk 0"
table="$(rb_table "$s" roundrobin "" "${legs[0]}" "${legs[1]}") 3 log_dev $(dm_dev logdev) sync"
dm_create mir "$table"
rb_wait_sync mir 120
event0=$(dmsetup info -c --noheadings -o events mir)
dmsetup suspend logdev
dmsetup load logdev --table "0 $(rb_sectors "$logdisk") error"
dmsetup resume logdev
dd if=/dev/urandom of="$(dm_dev mir)" bs=64k count=64 oflag=direct status=none ||
	die "a write failed because the log device did"
dmesg | grep -q 'dirty region log failed' || die "log failure not reported"
[[ $(dmsetup info -c --noheadings -o events mir) -gt $event0 ]] || die "no dm event for the log failure"
cmp "${legs[0]}" "${legs[1]}" || die "legs differ after the log failed"
dm_remove mir
dm_remove logdev

echo "== refusals"
expect_fail dmsetup create bad --table "$(rb_table "$s" pid "" "${legs[0]}" "${legs[1]}") 2 region_size 1000"
expect_fail dmsetup create bad --table "$(rb_table "$s" pid "" "${legs[0]}" "${legs[1]}") 2 sync nosync"
dm_create tiny "0 1 linear $logdisk 0"
expect_fail dmsetup create bad --table "$(rb_table "$s" pid "" "${legs[0]}" "${legs[1]}") 4 region_size 8 log_dev $(dm_dev tiny)"
dm_remove tiny
dmesg | grep -q 'region_size must be a power of 2' || die "no reason logged for region_size"
[[ -z $(dmsetup ls | grep -w bad) ]] || die "a refused table left a device"
echo "region log: all good"
