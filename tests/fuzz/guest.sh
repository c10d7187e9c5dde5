#!/usr/bin/env bash
# vm-timeout: 3600
# The long fuzz (tests/fuzz/run writes RESULTS/fuzz.conf): table lines over
# several seeds, messages to a live mirror of each policy while fio
# verifies, random faults and repairs under fio verify (tests/lib/dm-faults,
# a run a seed with a core log and one with a disk log), and the tool's
# argv (tests/fuzz/cli-fuzz). Any failure fails the script; each part
# prints its own summary line.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh
SEEDS=3 TABLES=1500 MESSAGES=4000 FAULTS=300 CLI=1000 CLI_BIN=
# shellcheck source=/dev/null
[ -f "$RB_RESULTS/fuzz.conf" ] && . "$RB_RESULTS/fuzz.conf"

a=$(rb_disk a ssd size=32)
b=$(rb_disk b hdd size=32)
c=$(rb_disk c ram size=32)
d=$(rb_disk d nvme size=32)
log=$(rb_disk log ram size=1)
rc=0
for seed in $(seq 1 "$SEEDS"); do
	tests/lib/dm-fuzz tables --seed "$seed" --count "$TABLES" --log "$log" \
		"$a" "$b" "$c" "$d" || rc=1
done
seed=0
for p in pid roundrobin latency device round-robin md zfs hst adaptive; do
	seed=$((seed + 1))
	rb_messages_run "$seed" "$MESSAGES" "$p" "$a" "$b" "$c" "$d" || rc=1
done
if ((FAULTS > 0)); then
	for seed in $(seq 1 "$SEEDS"); do
		rb_faults_run "$seed" "$FAULTS" "$a" "$b" "$c"
		rb_faults_run --log "$log" "$seed" "$FAULTS" "$a" "$b" "$d"
	done
fi
if [ -n "$CLI_BIN" ] && ((CLI > 0)); then
	tests/fuzz/cli-fuzz "$CLI_BIN" 1 "$CLI" "$a" "$b" "$c" "$d" || rc=1
fi
exit $rc
