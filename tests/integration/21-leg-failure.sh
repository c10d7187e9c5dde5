#!/usr/bin/env bash
# vm-timeout: 600
# Write errors and resync (issue 4): a leg that fails writes during fio is
# marked D with a dm event, fio sees no error, the leg is not read again;
# reinstate_leg resyncs it and the legs end identical.  A table reload
# with "rebuild N" replaces a leg by a new device, resynced before reads;
# a failed leg is named "rebuild" in the table line, so a reload of that
# line copies it again.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

legs=() disks=()
for i in 0 1 2; do
	disks+=("$(rb_disk "w$i" ssd size=64)")
	dm_create "leg$i" "0 $(rb_sectors "${disks[$i]}") linear ${disks[$i]} 0"
	legs+=("$(dm_dev "leg$i")")
done
s=$(rb_sectors "${legs[0]}")
dm_create mir "$(rb_table "$s" roundrobin "" "${legs[@]}")"
dev=$(dm_dev mir)
event0=$(dmsetup info -c --noheadings -o events mir)

fio_write() {	# a write+verify job, 3 s of writes on any host; must see no error
	fio --name=w --filename="$dev" --size=48M --rw=randwrite --bs=16k --direct=1 --rate=16m \
		--ioengine=libaio --iodepth=16 --verify=crc32c --verify_fatal=1 \
		--randseed="$1" --output-format=terse >/tmp/fio.out 2>&1 || { cat /tmp/fio.out; return 1; }
}
fio_write 1 &
pid=$!
sleep 1
# leg 1 starts failing every I/O
dmsetup load leg1 --table "0 $s error"
dmsetup resume leg1
wait $pid || die "fio saw an error when leg 1 failed"
[ "$(rb_leg_state mir 1)" = D ] || die "leg 1 not D: $(rb_status mir)"
[ "$(rb_leg_write_errors mir 1)" -ge 1 ] || die "no write error counted on leg 1"
[ "$(dmsetup info -c --noheadings -o events mir)" -gt "$event0" ] || die "no dm event raised"
dmsetup message mir 0 reset_stats
fio --name=r --filename="$dev" --size=48M --rw=randread --bs=4k --direct=1 --ioengine=libaio \
	--iodepth=16 --io_size=8M --output-format=terse >/dev/null || die "reads failed with leg 1 down"
[ "$(rb_leg_reads mir 1)" = 0 ] || die "the failed leg was read"

# Fault cleared: reinstate; writes go on during the resync.
dmsetup load leg1 --table "0 $s linear ${disks[1]} 0"
dmsetup resume leg1
! dmsetup message mir 0 reinstate_leg 0 2>/dev/null || die "reinstated a healthy leg"
dmsetup message mir 0 reinstate_leg 1
fio_write 2 &
pid=$!
rb_wait_sync mir
wait $pid || die "fio failed during the resync"
echo "after reinstate: $(rb_status mir)"
dm_remove mir
cmp "${legs[0]}" "${legs[1]}" && cmp "${legs[0]}" "${legs[2]}" || die "legs differ after the resync"

# Replace leg 2 by a new, empty device with a table reload.
new=$(rb_disk fresh ssd size=64)
table=$(rb_table "$s" roundrobin "" "${legs[0]}" "${legs[1]}" "$new")
dm_create mir "$table 2 rebuild 2"
[ "$(rb_leg_state mir 2)" = a ] || [ "$(rb_sync mir | cut -d/ -f1)" = "$(rb_sync mir | cut -d/ -f2)" ] ||
	die "the new leg is not resyncing: $(rb_status mir)"
dmsetup message mir 0 reset_stats
dd if="$dev" of=/dev/null bs=64k count=64 iflag=direct status=none
rb_wait_sync mir
echo "after rebuild: $(rb_status mir)"
dmsetup table mir | grep -q rebuild && die "table still names rebuild once in sync"
dm_remove mir
cmp "${legs[0]}" "$new" || die "the rebuilt leg differs"

# A failed leg missed writes: the table line names it "rebuild", so
# reloading the line dmsetup prints copies it again instead of trusting it.
dm_create mir "$(rb_table "$s" pid "" "${legs[@]}")"
dev=$(dm_dev mir)
dd if=/dev/urandom of="$dev" bs=1M count=4 oflag=direct status=none
dmsetup message mir 0 fail_leg 1
dd if=/dev/urandom of="$dev" bs=1M count=4 oflag=direct status=none
line=$(dmsetup table mir)
[[ $line == *" 2 rebuild 1" ]] || die "failed leg 1 not named rebuild: $line"
dmsetup reload mir --table "$line"
dmsetup resume mir
rb_wait_sync mir
[[ $(dmsetup table mir) != *rebuild* ]] || die "rebuild still named once in sync: $(dmsetup table mir)"
dm_remove mir
cmp -n 4M "${legs[0]}" "${legs[1]}" || die "the failed leg was trusted after a reload of the table line"
cmp -n 4M "${legs[0]}" "${legs[2]}" || die "legs 0 and 2 differ"

# Every leg failed: I/O errors out at once; the device can be removed.
dm_create mir "$(rb_table "$s" pid "" "${legs[@]}")"
for i in 0 1 2; do dmsetup message mir 0 fail_leg $i; done
timeout 10 dd if="$(dm_dev mir)" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null &&
	die "read succeeded with every leg failed"
timeout 10 dmsetup remove mir || die "remove hung or failed with every leg failed"
