#!/usr/bin/env bash
# Create and remove readbal devices of 2, 8 and 16 legs; the table prints
# back a line that creates the same device; status has the documented shape.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

legs=()
for i in $(seq 0 15); do legs+=("$(rb_disk "r$i" ram size=16)"); done
sectors=$(rb_sectors "${legs[0]}")

for n in 2 8 16; do
	dm_create "rb$n" "$(rb_table "$sectors" roundrobin "" "${legs[@]:0:n}")"
	status=$(rb_status "rb$n")
	echo "status rb$n: $status"
	set -- $status
	[ "$1" = "$n" ] || die "status names $1 legs, want $n"
	[ "$2" = 11 ] || die "status has $2 fields per leg, want 11"
	[ "$(rb_policy_of "rb$n")" = "roundrobin 6 nonlocal_inc_mixed_only 1 rot_nonlocal_inc 1 nonrot_nonlocal_inc 0" ] ||
		die "rb$n policy status: $(rb_policy_of "rb$n")"
	for ((i = 0; i < n; i++)); do
		[ "$(rb_leg_state "rb$n" $i)" = A ] || die "leg $i not alive"
	done
	# Round trip: the table line recreates an identical device.
	table=$(dmsetup table "rb$n")
	dm_create "rb${n}copy" "$table"
	[ "$(dmsetup table "rb${n}copy")" = "$table" ] || die "table round trip differs"
	dm_remove "rb${n}copy"
	dm_remove "rb$n"
done

# Knobs round trip too, for every policy.
for p in "pid" "roundrobin rot_nonlocal_inc 3 nonrot_nonlocal_inc 2 nonlocal_inc_mixed_only 0" \
	 "latency" "device preferred 1" "round-robin min_contig_read 131072"; do
	set -- $p
	name=$1
	shift
	dm_create rt "$(rb_table "$sectors" "$name" "$*" "${legs[@]:0:3}")"
	table=$(dmsetup table rt)
	echo "table: $table"
	for kv in "$@"; do
		grep -qw -- "$kv" <<<"$table" || die "$name: table lost '$kv': $table"
	done
	dm_remove rt
	dm_create rt "$table"
	[ "$(dmsetup table rt)" = "$table" ] || die "$name: round trip differs"
	dm_remove rt
done

# A stacked leg's queue depth: given, printed back, recreated.
dm_create qd "$(rb_table "$sectors" adaptive "" "${legs[@]:0:3}") 6 queue_depth 2 4 queue_depth 0 32"
table=$(dmsetup table qd)
echo "table: $table"
grep -q ' 6 queue_depth 0 32 queue_depth 2 4$' <<<"$table" || die "queue_depth not printed back: $table"
dm_remove qd
dm_create qd "$table"
[ "$(dmsetup table qd)" = "$table" ] || die "queue_depth: round trip differs"
dm_remove qd

[ -z "$(dmsetup ls --target readbal | grep -v 'No devices')" ] || die "devices left behind"
