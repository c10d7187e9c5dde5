#!/usr/bin/env bash
# readbal(8) over emulated disks: table, create (with the size warning),
# I/O through /dev/mapper, list, every policy switched and knobs set, the
# module's policy list, remove; 2- and 16-leg arrays.  The tool is built on
# the host (make -C tools): the guest sees the host's root read-only.
# vm-timeout: 240
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tools/test-lib.sh

a=$(rb_disk a hdd size=64)
b=$(rb_disk b hdd size=64)
c=$(rb_disk c ssd size=96)
sectors=$(blockdev --getsz "$a")
legs3="$(devnum "$a") 0 $(devnum "$b") 0 $(devnum "$c") 0"

# table: legs as major:minor, the smallest leg's length, a warning for c.
expect_rc 0 "$RB" table "$a" "$b" "$c"
[[ $OUT == "0 $sectors readbal 3 $legs3 adaptive 0" ]] || die "table: $OUT (adaptive is the default policy)"
err_has "warning: $c (96 MiB) is larger than the smallest leg $a (64 MiB): 32 MiB of it stays unused"
# the line works with dmsetup as it is
line=$OUT
dmsetup --noudevsync create viadmsetup --table "$line"
dmsetup --noudevsync remove viadmsetup

# create; the kernel holds the same legs and length.
expect_rc 0 "$RB" create mir --policy roundrobin rot_nonlocal_inc=3 "$a" "$b" "$c"
out_line 'created mir \(/dev/dm-[0-9]+\): 3 legs, 64 MiB'
out_line 'mir: policy roundrobin nonlocal_inc_mixed_only=1 rot_nonlocal_inc=3 nonrot_nonlocal_inc=0'
err_has "larger than the smallest leg"
[[ -b /dev/mapper/mir ]] || die "/dev/mapper/mir missing (libdevmapper makes it without udev)"
table=$(dmsetup table mir)
[[ $table == "0 $sectors readbal 3 $legs3 roundrobin 6 nonlocal_inc_mixed_only 1 rot_nonlocal_inc 3 nonrot_nonlocal_inc 0" ]] ||
	die "dmsetup table mir: $table"

# Data written through the mirror is on every leg and reads back.
dd if=/dev/urandom of=/tmp/data bs=1M count=8 status=none
dd if=/tmp/data of=/dev/mapper/mir bs=1M oflag=direct status=none
for leg in "$a" "$b" "$c" /dev/mapper/mir; do
	cmp -n $((8 << 20)) /tmp/data "$leg" || die "$leg does not hold the data"
done

# list, text and JSON.
expect_rc 0 "$RB" list
out_line 'mir +dm-[0-9]+ +64 MiB +3  AAA +roundrobin'
expect_rc 0 "$RB" list --json
[[ $(jq -r '.[] | select(.name == "mir") | "\(.legs) \(.states) \(.policy) \(.sectors)"' <<<"$OUT") == "3 AAA roundrobin $sectors" ]] ||
	die "list --json"

# With a readbal device present the policy list comes from the module.
expect_rc 0 "$RB" policies
out_has "(as the loaded module lists them, asked through device mir)"
read -ra policies <<<"$(dmsetup message mir 0 list_policies)"
((${#policies[@]} >= 5)) || die "list_policies: ${policies[*]}"
expect_rc 0 "$RB" policy mir
out_line 'mir: policy roundrobin .*'
for p in "${policies[@]}"; do out_line "  $p .*"; done

# Every policy; each switch shows the new state, the table follows.
for p in "${policies[@]}"; do
	expect_rc 0 "$RB" policy mir "$p"
	out_line "mir: policy $p( .*)?"
	read -ra t <<<"$(dmsetup table mir)"
	[[ ${t[10]} == "$p" ]] || die "table after policy $p: ${t[*]}"
	dd if=/dev/mapper/mir of=/dev/null bs=64k count=16 iflag=direct status=none
done
expect_rc 0 "$RB" policy mir device preferred=2
[[ $OUT == "mir: policy device preferred=2" ]] || die "policy device"
dmsetup message mir 0 reset_stats
dd if=/dev/mapper/mir of=/dev/null bs=64k count=32 iflag=direct status=none
expect_rc 0 "$RB" status mir --json
[[ $(jq -r '[.legs[].reads] | map(tostring) | join(" ")' <<<"$OUT") =~ ^0\ 0\ [1-9][0-9]*$ ]] ||
	die "device preferred=2 did not send every read to leg 2"
expect_rc 0 "$RB" set mir preferred=0,1
[[ $OUT == "mir: policy device preferred=0,1" ]] || die "set preferred"
expect_rc 0 "$RB" policy mir roundrobin rot_nonlocal_inc=5 nonrot_nonlocal_inc=2
expect_rc 0 "$RB" set mir rot_nonlocal_inc=7 nonlocal_inc_mixed_only=0
[[ $OUT == "mir: policy roundrobin nonlocal_inc_mixed_only=0 rot_nonlocal_inc=7 nonrot_nonlocal_inc=2" ]] ||
	die "set two knobs"

# remove; a second remove finds nothing.
expect_rc 0 "$RB" remove mir
[[ $OUT == "removed mir" ]] || die "remove"
! dmsetup info mir >/dev/null 2>&1 || die "mir still exists"
[[ ! -e /dev/mapper/mir ]] || die "/dev/mapper/mir left behind"
expect_rc 2 "$RB" remove mir
err_has "no device mir"

# 2 and 16 legs.
legs=()
for i in $(seq 0 14); do legs+=("$(rb_disk "s$i" ram size=8)"); done
expect_rc 0 "$RB" create two "${legs[@]:0:2}"
expect_rc 0 "$RB" create sixteen --policy round-robin min_contig_read=4096 "${legs[@]:2}" "$a" "$b" "$c"
out_line 'created sixteen \(/dev/dm-[0-9]+\): 16 legs, 8 MiB'
expect_rc 0 "$RB" list
out_line 'two .*'
out_line 'sixteen .* 16  A{16} +round-robin'
expect_rc 0 "$RB" remove two
expect_rc 0 "$RB" remove sixteen
no_readbal_device
echo "50-tool-create: ok"
