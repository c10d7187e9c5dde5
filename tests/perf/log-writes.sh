#!/usr/bin/env bash
# What crash safety costs writes (issue 4), in one guest run: 4 KiB random
# writes at QD32 and 1 MiB sequential writes at QD4 on two ram-backed legs
# per stack, so the CPU and the log's own I/O are all there is.  Peers with
# the same 1 MiB regions: dm-mirror (core log, disk log), md raid1 (no
# bitmap, internal bitmap), readbal (core log, disk log); dm-linear on one
# leg as the base.  Rounds interleave the stacks in one fio process; each
# round's result is divided by dm-linear's of the same round and the median
# ratio reported.  Writes a markdown table to $RB_RESULTS/log-writes.md.
# Run: flock /tmp/rb-bench.lock tests/vm/run tests/perf/log-writes.sh
# vm-timeout: 900
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

secs=${RB_LOGW_SECONDS:-2}
rounds=${RB_LOGW_ROUNDS:-5}
disk() { rb_disk "$1" ram size=64; }	# NAME
logdisk() { rb_disk "$1" ram size=4; }

configs=()
add() { configs+=("$1"); }
a=$(disk lin0)
s=$(rb_sectors "$a")
dm_create lin "0 $s linear $a 0" && add lin
a=$(disk mc0) b=$(disk mc1)
dm_create mir-core "0 $s mirror core 2 2048 nosync 2 $a 0 $b 0 0" && add mir-core
a=$(disk md0) b=$(disk md1) l=$(logdisk mdl)
dm_create mir-disk "0 $s mirror disk 3 $l 2048 nosync 2 $a 0 $b 0 0" && add mir-disk
# nosync marks the disk log all clean at load; reload without it, as lvm2 does
dmsetup reload mir-disk --table "0 $s mirror disk 2 $l 2048 2 $a 0 $b 0 0"
dmsetup resume mir-disk
a=$(disk mn0) b=$(disk mn1)
mdadm --create /dev/md/lw-none --run --quiet --level=1 --raid-devices=2 \
	--assume-clean --bitmap=none --metadata=1.2 "$a" "$b" && add md-none
a=$(disk mb0) b=$(disk mb1)
mdadm --create /dev/md/lw-bitmap --run --quiet --level=1 --raid-devices=2 \
	--assume-clean --bitmap=internal --bitmap-chunk=1M --metadata=1.2 "$a" "$b" &&
	add md-bitmap
a=$(disk rc0) b=$(disk rc1)
dm_create rb-core "$(rb_table "$s" pid "" "$a" "$b")" && add rb-core
a=$(disk rd0) b=$(disk rd1) l=$(logdisk rdl)
dm_create rb-disk "$(rb_table "$s" pid "" "$a" "$b") 3 log_dev $l nosync" && add rb-disk
dmsetup reload rb-disk --table "$(rb_table "$s" pid "" "$a" "$b") 2 log_dev $l"
dmsetup resume rb-disk
rb_wait_sync rb-disk 60

node() {
	case $1 in
	md-none) readlink -f /dev/md/lw-none ;;
	md-bitmap) readlink -f /dev/md/lw-bitmap ;;
	*) dm_dev "$1" ;;
	esac
}
job=/tmp/log-writes.fio
{
	printf '[global]\nioengine=libaio\ndirect=1\nsize=48M\ntime_based\n'
	printf 'runtime=%s\nthread\nnorandommap\nrandrepeat=0\nstonewall\nnew_group\n' "$secs"
	k=${#configs[@]}
	for w in rand seq; do
		for ((r = 0; r < rounds; r++)); do
			for ((i = 0; i < k; i++)); do
				c=${configs[(i + r) % k]}
				printf '[%s.%s.%d]\nfilename=%s\n' "$w" "$c" "$r" "$(node "$c")"
				if [[ $w == rand ]]; then
					printf 'rw=randwrite\nbs=4k\niodepth=32\n'
				else
					printf 'rw=write\nbs=1M\niodepth=4\n'
				fi
			done
		done
	done
} >"$job"
fio --output-format=json --output=/tmp/log-writes.json "$job" >/dev/null
# workload config round iops MiB/s
jq -r '.jobs[] | (.jobname | split(".")) as $n |
	"\($n[0]) \($n[1]) \($n[2]) \(.write.iops) \(.write.bw / 1024)"' \
	/tmp/log-writes.json >/tmp/log-writes.txt

name() {
	case $1 in
	lin) echo "dm-linear, one leg" ;;
	mir-core) echo "dm-mirror, core log" ;;
	mir-disk) echo "dm-mirror, disk log" ;;
	md-none) echo "md raid1, no bitmap" ;;
	md-bitmap) echo "md raid1, internal bitmap (1 MiB chunks)" ;;
	rb-core) echo "readbal, core log (default)" ;;
	rb-disk) echo "readbal, disk log" ;;
	esac
}
{
	echo "| stack (2 ram legs, 1 MiB regions) | 4 KiB rand write QD32 IOPS | vs dm-linear | 1 MiB seq write QD4 MiB/s | vs dm-linear |"
	echo "| --- | --- | --- | --- | --- |"
	for c in "${configs[@]}"; do
		row="| $(name "$c") "
		for w in rand seq; do
			row+=$(awk -v c="$c" -v w="$w" '
				function median(a, k,   i, j, t) {
					for (i = 2; i <= k; i++)
						for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
							t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
						}
					return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
				}
				$1 != w { next }
				{ v = (w == "rand") ? $4 : $5 }
				$2 == "lin" { lin[$3] = v }
				$2 == c { x[$3] = v }
				END {
					for (r in x) { k++; y[k] = x[r]; q[k] = lin[r] ? x[r] / lin[r] : 0 }
					printf "| %.0f | %.2f ", median(y, k), median(q, k)
				}' /tmp/log-writes.txt)
		done
		echo "$row|"
	done
	echo
	echo "$rounds rounds of $secs s per stack and workload; ratios: median of the per-round ratios to dm-linear."
} | tee "$RB_RESULTS/log-writes.md"
mdadm --stop /dev/md/lw-none /dev/md/lw-bitmap >/dev/null 2>&1 || true
