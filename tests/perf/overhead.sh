#!/usr/bin/env bash
# vm-timeout: 900
# Overhead of the readbal target and of each read policy (issue 3), in one
# guest run: 4 KiB random reads at QD32 on two ram-backed legs (no device
# delay, completion inline, so the CPU cost of the stack is all there is).
#
# The host is shared with other guests, and a run's IOPS move by 30% from
# one second to the next.  So each stack runs side by side with dm-linear
# on the same leg, both fio jobs bound to one vCPU: the scheduler gives the
# two the same CPU time, a stall of the host hits both, and the ratio of
# their IOPS is the inverse ratio of their CPU cost per I/O.  dm-linear
# against a second dm-linear is the control (1.00 if the split is fair).
# RB_OVERHEAD_ROUNDS pairs of RB_OVERHEAD_SECONDS each; the median ratio
# is reported, with its spread.  Writes $RB_RESULTS/overhead.md.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

secs=${RB_OVERHEAD_SECONDS:-3}
rounds=${RB_OVERHEAD_ROUNDS:-5}
a=$(rb_disk oa ram size=256)
b=$(rb_disk ob ram size=256)
s=$(rb_sectors "$a")
dm_create lin "0 $s linear $a 0"
dm_create lin2 "0 $s linear $a 0"
dm_create mirr "0 $s mirror core 2 1024 nosync 2 $a 0 $b 0 0"
dm_create rbprobe "$(rb_table "$s" pid "" "$a" "$b")"
read -ra policies <<<"$(dmsetup message rbprobe 0 list_policies)"
dm_remove rbprobe
configs=(lin2 mirr)
for p in "${policies[@]}"; do
	dm_create "rb-$p" "$(rb_table "$s" "$p" "" "$a" "$b")"
	configs+=("rb-$p")
done

# Per round and stack a pair of jobs, run together, the pairs one after
# another (stonewall); which of the two is listed first alternates.
job=/tmp/overhead.fio
{
	printf '[global]\nioengine=libaio\nrw=randread\nbs=4k\ndirect=1\n'
	printf 'iodepth=32\nsize=200M\ntime_based\nruntime=%s\nthread\n' "$secs"
	printf 'norandommap\nrandrepeat=0\ncpus_allowed=0\n'
	for ((r = 0; r < rounds; r++)); do
		for c in "${configs[@]}"; do
			first=lin second=$c
			((r % 2)) && first=$c second=lin
			printf '[%s.%s.%d]\nstonewall\nnew_group\nfilename=%s\n' \
				"$first" "$c" "$r" "$(dm_dev "$first")"
			printf '[%s.%s.%d]\nnew_group\nfilename=%s\n' \
				"$second" "$c" "$r" "$(dm_dev "$second")"
		done
	done
} >"$job"
fio --output-format=json --output=/tmp/overhead.json "$job" >/dev/null

# per job: device pair round iops
jq -r '.jobs[] | (.jobname | split(".")) as $n |
	"\($n[0]) \($n[1]) \($n[2]) \(.read.iops)"' /tmp/overhead.json \
	>/tmp/overhead.txt
name() {
	case $1 in
	lin2) echo "dm-linear (control: a second one)" ;;
	mirr) echo "dm-mirror (core log, nosync)" ;;
	*) echo "readbal (${1#rb-})" ;;
	esac
}
{
	echo "| stack (2 ram legs, 4 KiB random read, QD32) | vs dm-linear | min-max of pairs | IOPS beside dm-linear |"
	echo "| --- | --- | --- | --- |"
	for c in "${configs[@]}"; do
		awk -v c="$c" -v n="$(name "$c")" '
			function median(a, k,   i, j, t) {
				for (i = 2; i <= k; i++)
					for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
						t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
					}
				return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
			}
			$2 == c && $1 == "lin" { lin[$3] = $4 }
			$2 == c && $1 == c { me[$3] = $4 }
			END {
				for (r in me) {
					k++; x[k] = me[r]
					q[k] = lin[r] ? me[r] / lin[r] : 0
				}
				mq = median(q, k); mi = median(x, k)
				printf "| %s | %.2f | %.2f-%.2f | %.0f |\n", n, mq, q[1], q[k], mi
			}' /tmp/overhead.txt
	done
} | tee "$RB_RESULTS/overhead.md"
echo "$rounds pairs of $secs s, each stack beside dm-linear on one vCPU; median of the pairs' IOPS ratios" |
	tee -a "$RB_RESULTS/overhead.md"
