#!/usr/bin/env bash
# vm-timeout: 300
# A read error on the leg a resync copies from.  With another leg in sync,
# the source is failed and the copy goes on from that leg.  The last leg
# in sync is never failed for a read error (md raid1 keeps its last
# device): the legs it was being copied to are failed instead, the mirror
# keeps reading, and once the sector is rewritten reinstate_leg copies
# again.  The source legs are dm-dust devices (bad blocks fail reads until
# rewritten, as a disk's bad sector does).
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

legs=()
for i in 0 1 2; do legs+=("$(rb_dust_leg "rs$i" "rsdust$i" 16)"); done
s=$(rb_sectors "${legs[0]}")
bad=20000	# past the first resync chunk
head -c $((s * 512)) /dev/urandom >/tmp/rs-pattern
for i in 0 1; do dd if=/tmp/rs-pattern of="${legs[$i]}" bs=1M oflag=direct status=none; done
head -c $((s * 512)) /dev/zero | dd of="${legs[2]}" bs=1M oflag=direct iflag=fullblock status=none

echo "== two legs in sync, the source has a bad sector: copied from the other"
dmsetup message rsdust0 0 addbadblock $bad
dmsetup message rsdust0 0 enable
dm_create rsmir "$(rb_table "$s" pid "" "${legs[@]}") 2 rebuild 2"
rb_wait_sync rsmir 60 || true
[ "$(rb_leg_state rsmir 0)" = D ] || die "the source with a read error was not failed: $(rb_status rsmir)"
[ "$(rb_leg_state rsmir 1)" = A ] && [ "$(rb_leg_state rsmir 2)" = A ] ||
	die "the copy did not finish from leg 1: $(rb_status rsmir)"
dmsetup message rsdust0 0 disable
cmp "${legs[1]}" "${legs[2]}" || die "the rebuilt leg differs from leg 1"
dm_remove rsmir
echo "source failed, leg 2 rebuilt from leg 1"

echo "== the last leg in sync has a bad sector: it stays, the copy stops"
head -c $((s * 512)) /dev/zero | dd of="${legs[2]}" bs=1M oflag=direct iflag=fullblock status=none
dmsetup message rsdust0 0 enable
dmesg -C
dm_create rsmir "$(rb_table "$s" pid "" "${legs[0]}" "${legs[2]}") 2 rebuild 1"
dev=$(dm_dev rsmir)
for _ in $(seq 100); do
	[ "$(rb_leg_state rsmir 1)" = D ] && break
	sleep 0.1
done
[ "$(rb_leg_state rsmir 1)" = D ] || die "the leg being copied was not failed: $(rb_status rsmir)"
[ "$(rb_leg_state rsmir 0)" = A ] || die "the last leg in sync was failed: $(rb_status rsmir)"
dmesg | grep -q 'the last leg in sync: it stays, the copy stops' || die "no reason in the kernel log"
# Everything but the bad sector reads, right; the bad sector fails alone.
dd if="$dev" of=/tmp/rs-got bs=512 count=$bad iflag=direct status=none || die "the mirror stopped reading"
cmp /tmp/rs-got <(head -c $((bad * 512)) /tmp/rs-pattern) || die "wrong data before the bad sector"
! dd if="$dev" of=/dev/null bs=512 skip=$bad count=1 iflag=direct status=none 2>/dev/null ||
	die "the bad sector read with no leg to read it from"
[ "$(rb_leg_state rsmir 0)" = A ] || die "leg 0 failed by a read error while the last in sync: $(rb_status rsmir)"
# The fix: rewrite the sector (dust remaps it), then copy again.
dd if=/tmp/rs-pattern of="$dev" bs=512 skip=$bad seek=$bad count=1 oflag=direct status=none
dmsetup message rsmir 0 reinstate_leg 1
rb_wait_sync rsmir 60 || die "the second copy did not finish: $(rb_status rsmir)"
dmsetup message rsdust0 0 disable
cmp "${legs[0]}" "${legs[2]}" || die "leg 1 differs from leg 0 after the second copy"
dm_remove rsmir
echo "last leg in sync kept, copy stopped, reinstate_leg finished it"

echo "== sync: a bad sector on the leg copied from keeps its region out of sync"
# Only leg 0 holds the data; failing it would let the copy come from leg 1.
head -c $((s * 512)) /dev/zero | dd of="${legs[2]}" bs=1M oflag=direct iflag=fullblock status=none
dmsetup message rsdust0 0 addbadblock $bad
dmsetup message rsdust0 0 enable
dm_create rsmir "$(rb_table "$s" pid "" "${legs[0]}" "${legs[2]}") 1 sync"
dev=$(dm_dev rsmir)
total=$(rb_sync rsmir | cut -d/ -f2)
for _ in $(seq 100); do
	[ "$(rb_sync rsmir)" = "$((total - 1))/$total" ] && break
	sleep 0.1
done
[ "$(rb_sync rsmir)" = "$((total - 1))/$total" ] || die "not every region but one copied: $(rb_status rsmir)"
[ "$(rb_leg_state rsmir 0)" = A ] && [ "$(rb_leg_state rsmir 1)" = A ] ||
	die "a leg was failed for one bad sector: $(rb_status rsmir)"
dd if="$dev" of=/tmp/rs-got bs=512 count=$bad iflag=direct status=none || die "the mirror stopped reading"
dd if="$dev" bs=512 skip=$((bad + 1)) iflag=direct status=none >>/tmp/rs-got || die "reads past the bad sector failed"
cmp <(head -c $((bad * 512)) /tmp/rs-pattern; tail -c +$(((bad + 1) * 512 + 1)) /tmp/rs-pattern) /tmp/rs-got ||
	die "the mirror read data leg 0 does not hold (the region out of sync came from leg 1)"
dd if=/tmp/rs-pattern of="$dev" bs=512 skip=$bad seek=$bad count=1 oflag=direct status=none
dmsetup suspend rsmir
dmsetup resume rsmir
rb_wait_sync rsmir 60 || die "the region was not copied again after resume: $(rb_status rsmir)"
dmsetup message rsdust0 0 disable
cmp "${legs[0]}" "${legs[2]}" || die "legs differ after the region was copied again"
dm_remove rsmir
echo "region kept out of sync and read from leg 0; copied after rewrite and resume"

echo "== max_read_errors: the last leg in sync is not failed"
dm_create rsmir "$(rb_table "$s" pid "" "${legs[0]}" "${legs[1]}")"
dev=$(dm_dev rsmir)
dmsetup message rsmir 0 fail_leg 1
dmsetup message rsmir 0 max_read_errors 0
for b in 30001 30002; do dmsetup message rsdust0 0 addbadblock $b; done
dmsetup message rsdust0 0 enable
for b in 30001 30002; do
	! dd if="$dev" of=/dev/null bs=512 skip=$b count=1 iflag=direct status=none 2>/dev/null ||
		die "bad sector $b read with no leg to read it from"
done
[ "$(rb_leg_state rsmir 0)" = A ] || die "the last leg in sync was failed past max_read_errors: $(rb_status rsmir)"
[ "$(rb_leg_read_errors rsmir 0)" = 2 ] || die "read errors not counted: $(rb_status rsmir)"
rb_read_direct "$dev" 4 || die "the mirror stopped reading"
dmsetup message rsdust0 0 disable
dm_remove rsmir
echo "last leg kept past max_read_errors; its bad sectors fail alone"

for i in 0 1 2; do
	dm_remove "rsdust$i"
	rb_disk_rm "rs$i"
done
rm -f /tmp/rs-pattern /tmp/rs-got
