#!/usr/bin/env bash
# make demo: an emulated 2 hdd + 1 ssd mirror, a short fio read under each
# policy, and a table of what each policy made of it.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

h0=$(rb_disk h0 hdd size=256)
h1=$(rb_disk h1 hdd size=256)
s0=$(rb_disk s0 ssd size=256)
echo "legs: h0=$h0 (hdd) h1=$h1 (hdd) s0=$s0 (ssd)"
dm_create demo "$(rb_table "$(rb_sectors "$h0")" pid "" "$h0" "$h1" "$s0")"
dev=$(dm_dev demo)
echo "dmsetup table demo: $(dmsetup table demo)"
echo

run() {	# fio args...: prints "MiB/s IOPS"
	fio --name=demo --filename="$dev" --direct=1 --ioengine=libaio \
		--runtime=3 --time_based --output-format=json "$@" |
		jq -r '.jobs | [ (map(.read.bw) | add) / 1024, (map(.read.iops) | add) ] | "\(.[0]) \(.[1])"'
}
share() {	# per-leg share of reads in percent
	local r0 r1 r2 t
	r0=$(rb_leg_reads demo 0); r1=$(rb_leg_reads demo 1); r2=$(rb_leg_reads demo 2)
	t=$((r0 + r1 + r2)); [ "$t" -gt 0 ] || t=1
	printf '%3d/%3d/%3d' $((r0 * 100 / t)) $((r1 * 100 / t)) $((r2 * 100 / t))
}

printf '%-12s | %-28s | %-28s\n' "" "64k seq read, 4 jobs QD4" "4k random read, QD1"
printf '%-12s | %9s %18s | %9s %18s\n' policy "MiB/s" "h0/h1/s0 share %" IOPS "h0/h1/s0 share %"
policies=()
for p in $(dmsetup message demo 0 list_policies); do
	[ "$p" = device ] && p="device preferred 2"	# the ssd
	policies+=("$p")
done
for p in "${policies[@]}"; do
	# shellcheck disable=SC2086
	dmsetup message demo 0 policy $p
	dmsetup message demo 0 reset_stats
	read -r bw _ < <(run --rw=read --bs=64k --iodepth=4 --numjobs=4 --offset_increment=64M --size=64M)
	seq_share=$(share)
	dmsetup message demo 0 reset_stats
	read -r _ iops < <(run --rw=randread --bs=4k --iodepth=1)
	printf '%-12s | %9.1f %18s | %9.0f %18s\n' "${p%% *}" "$bw" "$seq_share" "$iops" "$(share)"
done
echo
echo "dmsetup status demo: $(dmsetup status demo)"
dm_remove demo
