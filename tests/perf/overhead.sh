#!/usr/bin/env bash
# Overhead of the readbal target itself (issue 3), measured in one guest run:
# 4 KiB random reads at QD32 on ram-backed legs (no device delay, so the CPU
# cost of the stack is all there is), readbal vs dm-linear on one leg vs
# dm-mirror, each run twice, interleaved; guest CPU time per I/O from
# /proc/stat.  Writes a markdown table to $RB_RESULTS/overhead.md.
# vm-timeout: 600
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

secs=${RB_OVERHEAD_SECONDS:-8}
a=$(rb_disk oa ram size=256)
b=$(rb_disk ob ram size=256)
s=$(rb_sectors "$a")
dm_create lin "0 $s linear $a 0"
dm_create rb "$(rb_table "$s" roundrobin "" "$a" "$b")"
dm_create mirr "0 $s mirror core 2 1024 nosync 2 $a 0 $b 0 0"

cpu_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }	# jiffies
run() {	# DEV -> "IOPS cpu_us_per_io"
	local c0 c1 iops
	c0=$(cpu_busy)
	iops=$(fio --name=o --filename="$1" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
		--iodepth=32 --runtime="$secs" --time_based --size=200M --output-format=json |
		jq '.jobs[0].read.iops')
	c1=$(cpu_busy)
	awk -v i="$iops" -v c=$((c1 - c0)) -v t="$secs" -v hz="$(getconf CLK_TCK)" \
		'BEGIN { printf "%.0f %.1f\n", i, c / hz * 1e6 / (i * t) }'
}
declare -A iops cpu
for round in 1 2; do
	for d in lin rb mirr; do
		read -r i c < <(run "$(dm_dev $d)")
		iops[$d]=$(( ${iops[$d]:-0} + i ))
		cpu[$d]=$(awk -v a="${cpu[$d]:-0}" -v b="$c" 'BEGIN { print a + b }')
		echo "round $round $d: $i IOPS, $c us CPU per I/O"
	done
done
{
	echo "| stack (2 ram legs, 4 KiB random read, QD32) | IOPS | vs dm-linear | guest CPU µs per I/O |"
	echo "| --- | --- | --- | --- |"
	for d in lin rb mirr; do
		name=$(case $d in lin) echo "dm-linear on one leg" ;; rb) echo "readbal (roundrobin)" ;; mirr) echo "dm-mirror (core log, nosync)" ;; esac)
		awk -v n="$name" -v i="${iops[$d]}" -v l="${iops[lin]}" -v c="${cpu[$d]}" \
			'BEGIN { printf "| %s | %.0f | %.2f | %.1f |\n", n, i / 2, i / l, c / 2 }'
	done
} | tee "$RB_RESULTS/overhead.md"
