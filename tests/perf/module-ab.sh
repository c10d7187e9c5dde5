#!/usr/bin/env bash
# vm-timeout: 2400
# A/B of dm-readbal builds in one guest boot: each round loads each module
# in turn, and on a fresh device per profile runs 8 buffered sequential
# readers, 4 KiB random reads at QD1, then at QD32 (the benchmark's order;
# WORKLOADS chooses, seq1 adds the benchmark's one buffered reader),
# printing IOPS or MiB/s, each leg's share of the sectors read (as the
# benchmark's legs %), the mean size of
# the read bios the device got (its diskstats: a bio-based dm device counts
# each bio) and what it read in all (ramps included; beside fio's MiB/s x
# RUNTIME it shows read-ahead read but never used).  Interleaving
# the modules round by round puts a host stall on both sides: on this TCG
# guest one run's figures move by 25%, so a single before/after pair says
# little.  Legs: the benchmark's kinds, rates and sizes (bench/rbbench),
# hdd-seek ones with the benchmark's default seek filter settings.
#
# The guest gets no environment: the settings are in RESULTS/ab.conf
# (shell), where RESULTS is the results dir given to tests/vm/run:
#   KOS="/path/before.ko /path/after.ko"   required
#   ROUNDS=3  PROFILES="2hdd+ssd ssd+nvme"  POLICIES=adaptive  RUNTIME=3
#   LEG_SCALE=1   the legs' rates times this (the benchmark runs QD32 on
#                 ssd+nvme and nvme+remote at 0.5: plan.GUEST_LEG_SCALE)
#   WORKLOADS="seq8 qd1 qd32"   in this order; seq1: one buffered reader
#                 of 64 KiB reads after a 1 s ramp (fio/seqread-64k.fio)
#   SEQ8_RAMP=0   seconds seq8 runs before fio counts (fio ramp_time): with
#                 none, its figure is short of the device's by the readers'
#                 read-ahead in flight (8 windows) over RUNTIME
#   HOG=0         busy loops beside each fio run: a guest short of CPU, as
#                 on a loaded host, where fio submits in bursts
# QD32 runs as the benchmark's: 2 fio threads of QD16 (plan.GUEST_JOB_OPTIONS).
# (POLICIES="adaptive zfs" also puts policies side by side, each round;
# a policy may name knobs as rbsim does: adaptive:io_opt_kb=2048,decay_ms=50;
# "raid1" is md raid1 on the same fresh legs, as the benchmark builds it,
# run in the same round rather than a phase later)
# e.g.
#   mkdir /tmp/ab && echo 'KOS="/tmp/old.ko /tmp/new.ko"' > /tmp/ab/ab.conf
#   RB_RESULTS_DIR=/tmp/ab tests/vm/run tests/perf/module-ab.sh
# The lines go to the script's log (/tmp/ab/logs/) and to ab.txt there.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh
source bench/guest/seekdisk.sh
source tests/perf/bench-legs.sh

conf=$RB_RESULTS/ab.conf
[ -r "$conf" ] || { echo "module-ab: no $conf (see the header)" >&2 && exit 2; }
KOS='' ROUNDS=3 PROFILES='2hdd+ssd ssd+nvme' POLICIES=adaptive RUNTIME=3 LEG_SCALE=1
WORKLOADS='seq8 qd1 qd32' SEQ8_RAMP=0 HOG=0
# shellcheck source=/dev/null
source "$conf"
read -ra kos <<<"$KOS"
((${#kos[@]})) || { echo "module-ab: KOS is empty in $conf" >&2 && exit 2; }
out=$RB_RESULTS/ab.txt
: >"$out"

# md: 1 while one() measures md raid1 (POLICIES' raid1), not a readbal device
dev=/dev/mapper/ab legs=() md=0

# each leg's sectors read: field 4 of each leg's $5 (docs/readbal.rst,
# Status); under md raid1, the legs' own diskstats (field 3)
reads() {
	local l
	if ((!md)); then
		dmsetup status ab | awk '{ for (i = 0; i < $4; i++) printf "%s ", $(10 + $5 * i) }'
		return
	fi
	for l in "${legs[@]}"; do
		awk '{ printf "%s ", $3 }' "/sys/block/$(basename "$(readlink -f "$l")")/stat"
	done
}

# the share of each leg, in %, of the sectors between two reads() lines
shares() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x); split(b, y); t = 0
		for (i = 1; i <= n; i++) t += y[i] - x[i]
		for (i = 1; i <= n; i++)
			printf "%d%s", t ? 100 * (y[i] - x[i]) / t + 0.5 : 0, i < n ? "/" : ""
	}'
}

# the device's reads and sectors read so far (diskstats fields 1 and 3)
dm_reads() {
	local d=$dev
	((md)) || d=$(dm_dev ab)
	awk '{ print $1, $3 }' "/sys/block/$(basename "$(readlink -f "$d")")/stat"
}

# fio's read figure: MiB/s for the sequential jobs, IOPS for the others
run_fio() { # WHAT fio-args...
	local what=$1 hogs=() i
	shift
	for ((i = 0; i < HOG; i++)); do
		(while :; do :; done) &
		hogs+=($!)
	done
	fio --name="$what" --filename="$dev" --output-format=json \
		--time_based --runtime="$RUNTIME" "$@" >/tmp/ab.json
	if ((HOG)); then
		kill "${hogs[@]}"
		wait "${hogs[@]}" 2>/dev/null || true
	fi
	python3 -c 'import json, sys
j = json.load(open("/tmp/ab.json"))["jobs"]
seq = sys.argv[1].startswith("seq")
r = sum(x["read"]["bw"] for x in j) / 1024 if seq else sum(x["read"]["iops"] for x in j)
print("%.1f MiB/s" % r if seq else "%.0f IOPS" % r)' "$what"
}

one() { # ROUND KO PROFILE POLICY[:KNOB=VALUE,...]
	local kls a b what fig err slice knobs='' s0 s1
	kls=$(bench_legs_of "$3" "$LEG_SCALE" | sed -n 1p)
	read -ra legs <<<"$(bench_legs ab "$kls")"
	[[ $4 == *:* ]] && knobs=$(tr ',=' '  ' <<<"${4#*:}")
	if [[ $4 == raid1 ]]; then
		dev=/dev/md/ab md=1
		err=$(mdadm --create "$dev" --run --assume-clean --level=1 \
			--raid-devices=${#legs[@]} --bitmap=none --metadata=1.2 \
			"${legs[@]}" 2>&1) || { echo "module-ab: mdadm --create: $err" >&2 && exit 1; }
	else
		dev=/dev/mapper/ab md=0
		dm_create ab "$(rb_table "$(rb_sectors "${legs[0]}")" "${4%%:*}" "$knobs" "${legs[@]}")"
	fi
	# each reader an eighth of the device: a slice that wraps within the
	# run makes fio drop the device's cache (invalidate) and with it
	# every reader's read-ahead, which costs large read-ahead most
	slice=$(($(blockdev --getsize64 "$dev") / 8 / 1048576))M
	for what in $WORKLOADS; do
		a=$(reads)
		s0=$(dm_reads)
		case $what in
		seq1) fig=$(run_fio seq1 --rw=read --bs=64k --ioengine=libaio \
			--ramp_time=1 --invalidate=1) ;;
		seq8) fig=$(run_fio seq8 --rw=read --bs=1M --numjobs=8 --size="$slice" \
			--offset_increment="$slice" --ioengine=psync --invalidate=1 \
			--ramp_time="$SEQ8_RAMP") ;;
		qd1) fig=$(run_fio qd1 --rw=randread --bs=4k --direct=1 --ioengine=psync) ;;
		qd32) fig=$(run_fio qd32 --rw=randread --bs=4k --direct=1 \
			--ioengine=libaio --numjobs=2 --iodepth=16 --thread) ;;
		*) echo "module-ab: unknown workload '$what' in WORKLOADS" >&2 && exit 2 ;;
		esac
		b=$(reads)
		s1=$(dm_reads)
		echo "round $1 $2 $3 $4 $what $fig legs $(shares "$a" "$b") bios $(awk -v a="$s0" -v b="$s1" 'BEGIN {
			split(a, x); split(b, y)
			printf "%.0f KiB, %.1f MiB in all", (y[1] > x[1] ? (y[2] - x[2]) / (y[1] - x[1]) / 2 : 0),
				(y[2] - x[2]) / 2048 }')" | tee -a "$out"
	done
	if ((!md)); then
		dm_remove ab
	else
		mdadm --stop "$dev" >/dev/null
		mdadm --zero-superblock "${legs[@]}"
	fi
	rb_disks_rm_all
	rb_seek_disks_rm_all
}

for r in $(seq 1 "$ROUNDS"); do
	for ko in "${kos[@]}"; do
		rmmod dm_readbal 2>/dev/null || true
		insmod "$ko" || { echo "module-ab: insmod $ko failed" >&2 && exit 1; }
		for p in $PROFILES; do
			for pol in $POLICIES; do
				one "$r" "$ko" "$p" "$pol"
			done
		done
	done
done
