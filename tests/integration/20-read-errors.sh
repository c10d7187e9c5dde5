#!/usr/bin/env bash
# vm-timeout: 600
# Read errors (issue 4): a read a leg fails is served by another leg and the
# failed copy is rewritten and verified; under every policy the reader sees
# the right data and no error; a range bad on every leg fails alone.
# Legs are dm-dust devices: their bad blocks fail reads and a write remaps
# them, as a disk's bad sector does.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

legs=()
for i in 0 1 2; do legs+=("$(rb_dust_leg "d$i" "dust$i" 32)"); done
s=$(rb_sectors "${legs[0]}")
dm_create mir "$(rb_table "$s" pid "" "${legs[@]}")"
dev=$(dm_dev mir)
head -c $((s * 512)) /dev/urandom >/tmp/pattern
dd if=/tmp/pattern of="$dev" bs=1M oflag=direct status=none
dmsetup message mir 0 reset_stats

# Deterministic: every read goes to leg 0, whose block 1000 is bad.
dmsetup message mir 0 policy device preferred 0
dmsetup message dust0 0 addbadblock 1000
for i in 0 1 2; do dmsetup message "dust$i" 0 enable; done
dd if="$dev" of=/tmp/got bs=4k skip=120 count=16 iflag=direct status=none ||
	die "the reader saw a read error"
cmp /tmp/got <(dd if=/tmp/pattern bs=4k skip=120 count=16 status=none) || die "wrong data read"
[ "$(rb_leg_read_errors mir 0)" = 1 ] && [ "$(rb_leg_corrected mir 0)" = 1 ] ||
	die "leg 0 should show 1 read error, 1 corrected: $(rb_status mir)"
[ "$(rb_leg_state mir 0)" = A ] || die "leg 0 failed after a corrected error"
# The rewrite remapped the block: leg 0 alone reads it, right.
cmp <(dd if="${legs[0]}" bs=512 skip=1000 count=1 iflag=direct status=none) \
    <(dd if=/tmp/pattern bs=512 skip=1000 count=1 status=none) || die "leg 0 block 1000 not repaired"
grep -q 'corrected' <(dmesg) || die "no 'corrected' in the kernel log"

# Every policy: bad blocks on every leg (different ones), the whole mirror
# read by 3 processes: right data, no error, each error corrected.
round=0
for p in $(dmsetup message mir 0 list_policies); do
	round=$((round + 1))
	dmsetup message mir 0 policy "$p"
	for i in 0 1 2; do
		for k in 1 2; do
			dmsetup message "dust$i" 0 addbadblock $(((round * 997 + i * 211 + k * 4099) % s))
		done
	done
	readers=()
	for j in 0 1 2; do
		dd if="$dev" of="/tmp/part$j" bs=64k skip=$((j * (s / 384))) count=$((s / 384)) iflag=direct status=none &
		readers+=($!)
	done
	for r in "${readers[@]}"; do wait "$r" || die "policy $p: a reader saw an error"; done
	cat /tmp/part0 /tmp/part1 /tmp/part2 | cmp -n $((3 * (s / 384) * 65536)) - /tmp/pattern ||
		die "policy $p: wrong data"
	errs=0 fixed=0
	for i in 0 1 2; do
		errs=$((errs + $(rb_leg_read_errors mir $i)))
		fixed=$((fixed + $(rb_leg_corrected mir $i)))
		[ "$(rb_leg_state mir $i)" = A ] || die "policy $p: leg $i failed: $(rb_status mir)"
	done
	[ "$errs" = "$fixed" ] || die "policy $p: $errs read errors but $fixed corrected"
	echo "policy $p: $errs read errors so far, all corrected"
done

# Bad on every leg: exactly that block fails; its neighbours read fine.
for i in 0 1 2; do dmsetup message "dust$i" 0 addbadblock 5000; done
! dd if="$dev" of=/dev/null bs=512 skip=5000 count=1 iflag=direct status=none 2>/dev/null ||
	die "a block bad on every leg read without error"
dd if="$dev" of=/dev/null bs=512 skip=4999 count=1 iflag=direct status=none || die "block 4999 failed"
dd if="$dev" of=/dev/null bs=512 skip=5001 count=1 iflag=direct status=none || die "block 5001 failed"
for i in 0 1 2; do [ "$(rb_leg_state mir $i)" = A ] || die "leg $i failed by an uncorrectable read"; done
for i in 0 1 2; do dmsetup message "dust$i" 0 disable; done

# max_read_errors: past it, the leg is failed.
dmsetup message mir 0 max_read_errors 2
dmsetup message mir 0 policy device preferred 1
for b in 7001 7002 7003 7004; do dmsetup message dust1 0 addbadblock $b; done
dmsetup message dust1 0 enable
for b in 7001 7002 7003 7004; do dd if="$dev" of=/dev/null bs=512 skip=$b count=1 iflag=direct status=none; done
[ "$(rb_leg_state mir 1)" = D ] || die "leg 1 not failed past max_read_errors: $(rb_status mir)"
dm_remove mir
