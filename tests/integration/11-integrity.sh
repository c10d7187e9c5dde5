#!/usr/bin/env bash
# vm-timeout: 600
# Data integrity: fio writes with verify=crc32c through the mirror, then
# reads back and verifies under every policy; the legs end byte-identical.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

a=$(rb_disk a hdd size=64)
b=$(rb_disk b hdd size=64)
c=$(rb_disk c ssd size=64)
sectors=$(rb_sectors "$a")
dm_create mir "$(rb_table "$sectors" pid "" "$a" "$b" "$c")"
dev=$(dm_dev mir)

common=(--filename="$dev" --size=48M --bsrange=4k-256k --direct=1
	--ioengine=libaio --iodepth=8 --verify=crc32c --verify_fatal=1
	--randseed=1234 --rw=randwrite --name=w)
fio "${common[@]}" --do_verify=0 --output-format=terse >/dev/null
# every policy the module has (adaptive splits reads across legs)
for p in $(dmsetup message mir 0 list_policies) "device preferred 2"; do
	# shellcheck disable=SC2086
	dmsetup message mir 0 policy $p
	dmsetup message mir 0 reset_stats
	# The same job with verify only: reads the blocks back and checks them.
	out=$(fio "${common[@]}" --verify_only --output-format=json)
	errs=$(jq '.jobs[0].error' <<<"$out")
	[ "$errs" = 0 ] || die "policy $p: fio verify error $errs"
	echo "policy $p: verified; status $(rb_status mir)"
done
dm_remove mir
cmp "$a" "$b" || die "legs a and b differ"
cmp "$a" "$c" || die "legs a and c differ"
