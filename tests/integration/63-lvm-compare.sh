#!/usr/bin/env bash
# vm-timeout: 240
# lvm's raid1 and mirror segment types side by side with readbal, all three
# two-leg mirrors on the same two PVs (an hdd and an ssd profile), as in
# lvm2's tests. Correctness: the same fio write-and-verify job on each
# passes and leaves its two legs the same. Speed: a 4 KiB random read and a
# 1 MiB sequential read on each, with each leg's share of the reads, go to
# $RB_RESULTS/lvm-compare.tsv for the benchmark report (emulated disks
# under TCG: compare the rows, not the absolute numbers).
source tests/lvm/inittest
policy=${RB_LVM_POLICY:-adaptive}

aux prepare_devs 2 64 hdd,ssd
aux prepare_vg
lvcreate -q -y --type raid1 -m 1 --nosync -L 16M -n r1 "$vg" "$dev1" "$dev2" >/dev/null 2>&1
lvcreate -q -y --type mirror -m 1 --mirrorlog core --nosync -L 16M -n mir "$vg" "$dev1" "$dev2" >/dev/null 2>&1
lvcreate -q -y -L 16M -n leg0 "$vg" "$dev1" >/dev/null
lvcreate -q -y -L 16M -n leg1 "$vg" "$dev2" >/dev/null
m=/dev/mapper/$vg
dm_create ${PREFIX}rb "$(rb_table $((16 * 2048)) "$policy" '' "$m-leg0" "$m-leg1")"
# Each mirror's legs, on PV 1 (hdd) and PV 2 (ssd) in that order.
declare -A dev=([raid1]=$m-r1 [mirror]=$m-mir [readbal]=/dev/mapper/${PREFIX}rb)
declare -A legs=([raid1]="$m-r1_rimage_0 $m-r1_rimage_1"
	[mirror]="$m-mir_mimage_0 $m-mir_mimage_1" [readbal]="$m-leg0 $m-leg1")
# The segment types, and each mirror's first leg on PV 1 (one lvs: each
# lvm command costs seconds here).
lvs=$(lvs -a --noheadings -o lv_name,segtype,devices "$vg")
for want in "r1 +raid1 " "mir +mirror " "\[r1_rimage_0\] +linear +$dev1\(" \
	"\[mir_mimage_0\] +linear +$dev1\("; do
	grep -Eq "^ *$want" <<<"$lvs" || die "lvs lacks /$want/: $lvs"
done

kinds=(raid1 mirror readbal)
# One fio run, a job per mirror (KIND as its name): fio starts once, not
# three times (seconds each under TCG). ARGS before the jobs apply to all.
fio_all() { # JOB-ARGS ARGS...: the JSON result
	local job=$1 k
	local -a a=(--direct=1 --ioengine=libaio --size=8M --verify_state_save=0
		--output-format=json "${@:2}")
	for k in "${kinds[@]}"; do a+=(--name="$k" --filename="${dev[$k]}" ${job:+"$job"}); done
	fio "${a[@]}"
}

# Correctness: the same random write-and-verify on each (at once), then
# each mirror's legs agree.
out=$(fio_all '' --size=4M --rw=randwrite --bs=4k --iodepth=8 --verify=crc32c \
	--do_verify=1 --verify_fatal=1)
[[ $(jq '[.jobs[].error] | add' <<<"$out") == 0 ]] || die "fio verify failed: $out"
for k in "${kinds[@]}"; do
	read -ra l <<<"${legs[$k]}"
	check legs_equal $((4 * 2048)) "${l[@]}"
done

# Speed: each mirror alone in turn (stonewall: they share the PVs); the
# reads per leg from the kernel's counters of its dm-N.
declare -A node=()
for k in "${kinds[@]}"; do
	for d in ${legs[$k]}; do node[$d]=$(dm_dev "${d#/dev/mapper/}"); done
done
res=$RB_RESULTS/lvm-compare.tsv
{
	echo "# $RB_SCRIPT on $RB_KVER: two-leg mirrors of 16 MiB LVs on the same"
	echo "# two PVs (disks.sh profiles hdd, ssd); readbal policy $policy."
	printf 'mirror\tworkload\tMiB/s\tIOPS\tleg0-hdd-reads\tleg1-ssd-reads\n'
} >"$res"
for w in randread:4k:8 read:1M:4; do
	IFS=: read -r rw bs qd <<<"$w"
	declare -A before=()
	for d in "${!node[@]}"; do before[$d]=$(leg_reads "${node[$d]}"); done
	out=$(fio_all --stonewall --rw="$rw" --bs="$bs" --iodepth="$qd" --time_based --runtime=2)
	for k in "${kinds[@]}"; do
		read -ra l <<<"${legs[$k]}"
		printf '%s\t%s\t%s\t%s\t%s\n' "$k" "$rw-$bs-qd$qd" \
			"$(jq -r --arg k "$k" '.jobs[] | select(.jobname == $k) | .read |
				"\(.bw / 1024 | floor)\t\(.iops | floor)"' <<<"$out")" \
			$(($(leg_reads "${node[${l[0]}]}") - ${before[${l[0]}]})) \
			$(($(leg_reads "${node[${l[1]}]}") - ${before[${l[1]}]})) >>"$res"
	done
done
cat "$res"
echo "63-lvm-compare: ok"
