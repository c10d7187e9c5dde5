#!/usr/bin/env bash
# vm-timeout: 1500
# What readbal costs a reader at queue depth 1, to within 1%: one reader
# takes turns, a 4 KiB random read at a time, between a readbal device and
# dm-linear over the array's fastest leg (tools/qd1-alternate), so the
# host's slow spells and the guest's CPU fall on both alike.  Each turn is
# timed apart; the ratio of the two rates is readbal's rate against
# dm-linear's.  dm-linear against a second dm-linear on the same leg is the
# control.  Arrays: the benchmark's mixed ones, legs at its rates.
#
# Settings in RESULTS/qd1-alternate.conf (shell; the guest gets no
# environment), RESULTS being the results dir given to tests/vm/run:
#   PROFILES="nvme+remote ssd+nvme 2hdd+ssd 2hdd-seek+ssd"
#   POLICIES="adaptive latency"   ROUNDS=3   SECONDS_EACH=6
# e.g.  RB_RESULTS_DIR=/tmp/alt tests/vm/run tests/perf/qd1-alternate.sh
# The lines go to the script's log and to RESULTS/qd1-alternate.txt.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh
source bench/guest/seekdisk.sh
source tests/perf/bench-legs.sh
alt=tools/qd1-alternate/qd1-alternate
[ -x $alt ] || { echo "qd1-alternate.sh: no $alt: make -C tools/qd1-alternate" >&2 && exit 2; }

PROFILES='nvme+remote ssd+nvme 2hdd+ssd 2hdd-seek+ssd' POLICIES='adaptive latency'
ROUNDS=3 SECONDS_EACH=6
conf=$RB_RESULTS/qd1-alternate.conf
# shellcheck source=/dev/null
[ -r "$conf" ] && source "$conf"
out=$RB_RESULTS/qd1-alternate.txt
: >"$out"

# "LABEL: a / b = ratio, windows median (min-max)" from qd1-alternate's JSON
summary() { # LABEL JSON
	python3 - "$1" "$2" <<'PY'
import json, statistics, sys
j = json.load(open(sys.argv[2]))
a, b = j["devices"]
w = [x / y for x, y in j["windows"] if x and y]
print(f"{sys.argv[1]}: {a['iops']:.0f} / {b['iops']:.0f} = {a['iops'] / b['iops']:.3f}, "
      f"windows {statistics.median(w):.3f} ({min(w):.3f}-{max(w):.3f})")
PY
}

for prof in $PROFILES; do
	{ read -r kls; read -r fast; } < <(bench_legs_of "$prof")
	read -ra legs <<<"$(bench_legs alt "$kls")"
	s=$(rb_sectors "${legs[0]}")
	dm_create lin "0 $s linear ${legs[$fast]} 0"
	dm_create lin2 "0 $s linear ${legs[$fast]} 0"
	pairs="lin2:lin"
	for p in $POLICIES; do
		dm_create "rb-$p" "$(rb_table "$s" "$p" "" "${legs[@]}")"
		# what the benchmark's run would have taught it by then
		$alt --seconds 2 "/dev/mapper/rb-$p" /dev/mapper/lin >/dev/null
		pairs+=" rb-$p:lin"
	done
	for r in $(seq 1 "$ROUNDS"); do
		for pair in $pairs; do
			$alt --seconds "$SECONDS_EACH" --windows 6 --seed "$r" \
				"/dev/mapper/${pair%%:*}" "/dev/mapper/${pair#*:}" >/tmp/alt.json
			summary "$prof round $r ${pair%%:*}/${pair#*:}" /tmp/alt.json | tee -a "$out"
		done
	done
	for p in $POLICIES; do
		echo "$prof rb-$p status: $(dmsetup status "rb-$p")" | tee -a "$out"
		dm_remove "rb-$p"
	done
	dm_remove lin
	dm_remove lin2
	rb_disks_rm_all
	rb_seek_disks_rm_all
done
