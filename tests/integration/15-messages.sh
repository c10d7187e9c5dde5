#!/usr/bin/env bash
# Messages: good ones act, malformed ones fail and change nothing; a failed
# leg is never read; the module cannot be removed while a device uses it.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

a=$(rb_disk a ram size=32)
b=$(rb_disk b ram size=32)
c=$(rb_disk c ram size=32)
dm_create m "$(rb_table "$(rb_sectors "$a")" roundrobin "" "$a" "$b" "$c")"
dev=$(dm_dev m)

policies=$(dmsetup message m 0 list_policies)
for p in pid roundrobin latency device round-robin; do
	grep -qw -- "$p" <<<"$policies" || die "list_policies lacks $p: $policies"
done
[ "$(dmsetup message m 0 list_knobs)" = "nonlocal_inc_mixed_only rot_nonlocal_inc nonrot_nonlocal_inc" ] ||
	die "list_knobs: $(dmsetup message m 0 list_knobs)"
[ "$(dmsetup message m 0 list_knobs round-robin)" = min_contig_read ] || die "list_knobs round-robin"

dmsetup message m 0 set rot_nonlocal_inc 4 nonrot_nonlocal_inc 2
[ "$(rb_policy_of m)" = "roundrobin 6 nonlocal_inc_mixed_only 1 rot_nonlocal_inc 4 nonrot_nonlocal_inc 2" ] ||
	die "set did not take: $(rb_policy_of m)"

table=$(dmsetup table m)
bad=(
	"" "nosuchmessage" "policy" "policy fastest" "policy roundrobin rot_nonlocal_inc"
	"policy roundrobin speed 1" "policy device preferred 9" "set" "set rot_nonlocal_inc"
	"set rot_nonlocal_inc x" "set rot_nonlocal_inc 1 speed 2" "set rot_nonlocal_inc 1 nonrot_nonlocal_inc -3"
	"set min_contig_read 4096" "reset_stats now" "fail_leg" "fail_leg 3" "fail_leg x"
	"list_knobs fastest"
)
for msg in "${bad[@]}"; do
	# shellcheck disable=SC2086
	if dmsetup message m 0 $msg >/dev/null 2>&1; then die "message accepted: '$msg'"; fi
	[ "$(dmsetup table m)" = "$table" ] || die "message '$msg' changed the table: $(dmsetup table m)"
done
echo "${#bad[@]} malformed messages refused, nothing changed"

# reset_stats zeroes the counters.
rb_read_direct "$dev" 4
dmsetup message m 0 reset_stats
for l in 0 1 2; do [ "$(rb_leg_reads m $l)" = 0 ] || die "reset_stats left reads on leg $l"; done

# A failed leg is never read, under any policy; writes skip it.
dmsetup message m 0 fail_leg 1
[ "$(rb_leg_state m 1)" = D ] || die "leg 1 not marked D: $(rb_status m)"
for p in pid roundrobin latency "device preferred 1" round-robin; do
	dmsetup message m 0 policy $p
	for i in 1 2 3 4; do
		bash -c 'exec dd if="$0" of=/dev/null bs=64k count=8 iflag=direct status=none' "$dev"
	done
	fio --name=f --filename="$dev" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
		--iodepth=16 --size=16M --io_size=2M --output-format=terse >/dev/null
	[ "$(rb_leg_reads m 1)" = 0 ] || die "policy $p read the failed leg: $(rb_status m)"
done
dmsetup message m 0 fail_leg 0
dmsetup message m 0 fail_leg 2
# With every leg failed, I/O errors out at once.
! dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null || die "read succeeded with no leg"
! dd if=/dev/zero of="$dev" bs=4k count=1 oflag=direct status=none 2>/dev/null || die "write succeeded with no leg"

# The module stays while a device uses it.
mod=dm_readbal
! rmmod $mod 2>/dev/null || die "rmmod succeeded with a device present"
dm_remove m
rmmod $mod
insmod "$RB_MODULE"
dmsetup targets | grep -q '^readbal' || die "readbal target missing after reload"
