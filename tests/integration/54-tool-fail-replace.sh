#!/usr/bin/env bash
# readbal fail, replace and reinstate.  A failed leg is not written;
# replace swaps a leg for a new device by a table reload that keeps the
# policy and its knobs, after checking the new device.  With a module that
# resyncs (target 1.1) the new leg and any failed leg are rebuilt from the
# legs in sync and end up holding the data; with an older one, replace
# wants the leg failed first and warns that nothing was copied.
# vm-timeout: 300
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tools/test-lib.sh

ver=$(dmsetup targets | awk '$1 == "readbal" { sub(/^v/, "", $2); print $2 }')
[[ -n $ver ]] || die "the readbal target is not loaded"
IFS=. read -r vmaj vmin _ <<<"$ver"
resync=0
((vmaj > 1 || (vmaj == 1 && vmin >= 1))) && resync=1
echo "readbal target $ver, resync $resync"

a=$(rb_disk a ram size=32)
b=$(rb_disk b ram size=32)
c=$(rb_disk c ram size=32)
n=$(rb_disk n ram size=32)
big=$(rb_disk big ram size=48)
small=$(rb_disk small ram size=16)
b4k=$(rb_disk b4k ram size=48 blocksize=4096)
expect_rc 0 "$RB" create r --policy device preferred=1 "$a" "$b" "$c"
sectors=$(blockdev --getsz /dev/mapper/r)
dd if=/dev/urandom of=/tmp/data bs=1M count=32 status=none
dd if=/tmp/data of=/dev/mapper/r bs=1M oflag=direct status=none

# wait_sync: until no leg of r resyncs (60 s at most).
wait_sync() {
	local i
	for ((i = 0; i < 300; i++)); do
		[[ $(dmsetup status r) != *' a '* ]] && return 0
		sleep 0.2
	done
	die "r still resyncing after 60 s: $(dmsetup status r)"
}
states() { "$RB" status r --json | jq -r '[.legs[].state] | join(" ")'; }

# A failed leg is not written.
expect_rc 0 "$RB" fail r 1
out_has "r: leg 1 ($(basename "$(readlink -f "$b")"), $(devnum "$b")) is failed; 2 of 3 legs alive"
expect_rc 0 "$RB" fail r 1
out_has "is failed"
w=$(leg_writes "$b")
dd if=/tmp/data of=/dev/mapper/r bs=1M count=1 oflag=direct status=none
[[ $(leg_writes "$b") == "$w" ]] || die "the failed leg was written"

# The new device is checked.
expect_rc 2 "$RB" replace r 1 "$a"
err_has "$a is leg 0 of r already"
expect_rc 2 "$RB" replace r 1 "$small"
err_has "$small is too small: r needs $sectors sectors from offset 0"
expect_rc 2 "$RB" replace r 1 "$big" --offset $((48 * 2048 - sectors + 1))
err_has "is too small"
expect_rc 2 "$RB" replace r 1 /dev/no-such-disk
err_has "no such device"
expect_rc 2 "$RB" replace r 1 "$b4k" --offset 1
err_has "4096-byte logical blocks"
expect_rc 1 "$RB" replace r 3 "$n"
err_has "r has no leg 3"
expect_rc 1 "$RB" replace r 1
dm_create hold "0 2048 linear $n 0"
expect_rc 2 "$RB" replace r 1 "$n"
err_has "$n is held by dm-"
dm_remove hold
[[ $(dmsetup status r | awk '{ print $7 }') == A ]] || die "a refused replace changed leg 0"

if ((!resync)); then
	# An older module: only a failed leg, no other failed leg, a warning.
	expect_rc 2 "$RB" replace r 0 "$n"
	err_has "r: leg 0 is alive: fail it first (readbal fail r 0), or use --force"
fi

# Replace leg 1: the new device, the policy and knobs kept.
expect_rc 0 "$RB" replace r 1 "$n"
out_has "r: leg 1 is now $n ($(devnum "$n"))"
if ((resync)); then
	out_has "r: resyncing leg 1 from the legs in sync"
	wait_sync
	cmp /tmp/data "$n" || die "the resync did not copy the data onto the new leg"
else
	err_has "$n was not resynchronised"
fi
table=$(dmsetup table r)
[[ $table == "0 $sectors readbal 3 $(devnum "$a") 0 $(devnum "$n") 0 $(devnum "$c") 0 device 2 preferred 1" ]] ||
	die "table after replace: $table"
[[ $(states) == "alive alive alive" ]] || die "states after replace: $(states)"
# writes reach the new leg; b is free again
dd if=/tmp/data of=/dev/mapper/r bs=1M count=4 oflag=direct status=none
cmp -n $((4 << 20)) /tmp/data "$n" || die "the new leg did not get the writes"
expect_rc 0 "$RB" table "$b" "$small"

# Two legs failed; leg 0 replaced by a bigger device at an offset.
expect_rc 0 "$RB" fail r 0
expect_rc 0 "$RB" fail r "$c"
out_has "r: leg 2 "
if ((resync)); then
	# both are rebuilt from leg 1, the failed leg 2 too
	expect_rc 0 "$RB" replace r "$a" "$big" --offset 2048
	out_has "r: resyncing leg 0 and the failed legs 2 from the legs in sync"
	table=$(dmsetup table r)
	[[ $table == *" device 2 preferred 1 4 rebuild 0 rebuild 2" || $(states) == "alive alive alive" ]] ||
		die "table while resyncing: $table"
	wait_sync
	cmp /tmp/data "$c" || die "the failed leg 2 was not resynced"
	cmp -i $((2048 * 512)):0 -n $((32 << 20)) "$big" /tmp/data || die "the new leg 0 lacks the data"
else
	expect_rc 2 "$RB" replace r 0 "$big"
	err_has "r: leg 2 failed too: the reload would bring it back into service with stale data"
	expect_rc 0 "$RB" replace r "$a" "$big" --force --offset 2048
fi
read -ra t <<<"$(dmsetup table r)"
[[ ${t[4]} == "$(devnum "$big")" && ${t[5]} == 2048 ]] || die "table after --offset: ${t[*]}"
[[ $(states) == "alive alive alive" ]] || die "states: $(states)"

# Reinstate: an alive leg is left alone; a failed one comes back.
expect_rc 0 "$RB" reinstate r 2
out_has "is alive"
expect_rc 0 "$RB" fail r 2
if ((resync)); then
	expect_rc 0 "$RB" reinstate r 2
	out_line "r: leg 2 \\(.*\\) is (resyncing|alive); 3 of 3 legs alive"
	wait_sync
	[[ $(states) == "alive alive alive" ]] || die "states after reinstate: $(states)"
	# no leg in sync to copy from: both commands refuse
	expect_rc 0 "$RB" fail r 0
	expect_rc 0 "$RB" fail r 1
	expect_rc 0 "$RB" fail r 2 --force
	expect_rc 2 "$RB" replace r 0 "$a"
	err_has "r: no other leg is in sync to copy leg 0 from"
	expect_rc 3 "$RB" reinstate r 0
	err_has "the kernel refused 'reinstate_leg 0'"
	err_has "no leg in sync"
else
	expect_rc 3 "$RB" reinstate r 2
	err_has "no reinstate_leg message"
fi
expect_rc 0 "$RB" remove r
no_readbal_device
echo "54-tool-fail-replace: ok"
