#!/usr/bin/env bash
# readbal status over a 2 hdd + 1 ssd mirror: the per-leg view (names,
# rotational, state, reads, share, latency), --json, and --watch under load
# (with timeout, and with --count), also after a leg failed.
# vm-timeout: 240
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tools/test-lib.sh

h0=$(rb_disk h0 hdd size=64)
h1=$(rb_disk h1 hdd size=64)
s0=$(rb_disk s0 ssd size=64)
k0=$(basename "$(readlink -f "$h0")")
k1=$(basename "$(readlink -f "$h1")")
k2=$(basename "$(readlink -f "$s0")")
expect_rc 0 "$RB" create st --policy roundrobin "$h0" "$h1" "$s0"
dev=$(dm_dev st)

# A fresh device: no reads yet.
expect_rc 0 "$RB" status st
out_line "st \\(${dev#/dev/}\\): readbal, 3 legs, 3 alive, 64 MiB \\(131072 sectors\\)"
out_line 'policy: roundrobin nonlocal_inc_mixed_only=1 rot_nonlocal_inc=1 nonrot_nonlocal_inc=0'
out_line 'leg  device +model +rot  state +inflight +reads +share +avg_us( +errors r/c/u/w)?'
out_line "  0  $k0 +- +yes  alive +0 +0 +0\\.0% +0( +0/0/0/0)?"
out_line "  2  $k2 +- +no   alive +0 +0 +0\\.0% +0( +0/0/0/0)?"

# After reads: counts, shares that add up to 100, latencies.
fio --name=r --filename="$dev" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
	--iodepth=8 --size=32M --io_size=4M --output-format=terse >/dev/null
expect_rc 0 "$RB" status st --json
json=$OUT
jq -e . >/dev/null <<<"$json" || die "status --json is not JSON"
check() { jq -e "$1" >/dev/null <<<"$json" || die "status --json: $1 is false"; }
check '.name == "st" and .sectors == 131072 and .legs_alive == 3'
check '.policy.name == "roundrobin" and .policy.knobs.rot_nonlocal_inc == "1"'
check "[.legs[].name] == [\"$k0\", \"$k1\", \"$k2\"]"
check '[.legs[].rotational] == [true, true, false]'
check '[.legs[].state] == ["alive", "alive", "alive"]'
check '.total_reads == ([.legs[].reads] | add) and .total_reads >= 1024'
check '([.legs[].share_pct] | add) > 99.5 and ([.legs[].share_pct] | add) < 100.5'
check '[.legs[] | select(.reads > 0) | .avg_read_us > 0] | all'
check '[.legs[] | .read_sectors == .reads * 8] | all'
check '[.legs[].dev | test("^[0-9]+:[0-9]+$")] | all'
# error counters and resync progress: null from a module without them
check '[.legs[].errors | . == null or (.read == 0 and .write == 0)] | all'
check '.sync == null or (.sync.resyncing == false and .sync.in_sync == .sync.regions)'
check '.legs_in_sync == 3'
# the text view says the same
expect_rc 0 "$RB" status st
total=$(jq '.total_reads' <<<"$json")
reads0=$(jq '.legs[0].reads' <<<"$json")
out_line "  0  $k0 +- +yes  alive +0 +$reads0 +[0-9.]+% +[0-9]+( +0/0/0/0)?"

# --watch with timeout: reports keep coming until killed (exit 124).
fio --name=w --filename="$dev" --rw=randread --bs=4k --direct=1 --ioengine=libaio \
	--iodepth=4 --size=32M --time_based --runtime=30 --output-format=terse >/dev/null &
fiopid=$!
rc=0
timeout 6 "$RB" status st --watch 1 >/tmp/watch.txt 2>&1 || rc=$?
((rc == 124)) || die "status --watch under timeout exited $rc: $(cat /tmp/watch.txt)"
cat /tmp/watch.txt
n=$(grep -c '^st (dm-[0-9]*): readbal, 3 legs' /tmp/watch.txt)
((n >= 3)) || die "--watch 1 for 6 s printed $n reports"
grep -q '(counters since creation or reset_stats)' /tmp/watch.txt || die "first report not marked"
grep -q 'reads/s' /tmp/watch.txt || die "no interval report"
# some interval saw reads at a rate
awk '/reads\/s/ { on = 1; next } on && $1 ~ /^[0-9]+$/ && $7 + 0 > 0 { found = 1 } END { exit !found }' /tmp/watch.txt ||
	die "no leg showed reads/s > 0 under load"

# --watch --json --count: one JSON object per report, intervals after the first.
expect_rc 0 "$RB" status st --watch 0.5 --count 3 --json
mapfile -t reports <<<"$OUT"
((${#reports[@]} == 3)) || die "--count 3 printed ${#reports[@]} lines"
jq -e 'has("interval_s") | not' >/dev/null <<<"${reports[0]}" || die "first report has an interval"
for i in 1 2; do
	jq -e '.interval_s > 0.4 and (.legs | length) == 3 and ([.legs[].interval.reads_per_s] | add) > 0' \
		>/dev/null <<<"${reports[i]}" || die "report $i: ${reports[i]}"
done
kill "$fiopid" 2>/dev/null || true
wait "$fiopid" 2>/dev/null || true

# A failed leg shows as failed, in text, JSON, list and the watch.
expect_rc 0 "$RB" fail st 1
out_has "st: leg 1 ($k1, "
out_has ") is failed; 2 of 3 legs alive"
expect_rc 0 "$RB" status st
out_line "st \\(${dev#/dev/}\\): readbal, 3 legs, 2 alive, .*"
out_line "  1  $k1 +- +yes  failed .*"
expect_rc 0 "$RB" status st --json
jq -e '.legs_alive == 2 and .legs[1].state == "failed"' >/dev/null <<<"$OUT" || die "json after fail"
expect_rc 0 "$RB" list
out_line 'st +dm-[0-9]+ +64 MiB +3  ADA +roundrobin'
expect_rc 0 "$RB" status st --watch 0.2 --count 2
[[ $(grep -c 'failed' <<<"$OUT") == 2 ]] || die "watch does not show the failed leg twice"

# A module with resync (target 1.1): reinstate shows the progress; a read
# error on a leg shows in its error counters.
ver=$(dmsetup targets | awk '$1 == "readbal" { sub(/^v/, "", $2); print $2 }')
if [[ $ver != 1.0.* ]]; then
	expect_rc 0 "$RB" reinstate st 1
	expect_rc 0 "$RB" status st
	out_line 'resync: [0-9]+/64 regions in sync \([0-9.]+%\)(, resyncing)?; max_read_errors [0-9]+'
	for _ in $(seq 100); do
		"$RB" status st --json | jq -e '.sync.resyncing == false' >/dev/null && break
		sleep 0.3
	done
	expect_rc 0 "$RB" status st --json
	jq -e '.legs_in_sync == 3 and .sync.in_sync == .sync.regions and .legs[1].state == "alive"' \
		>/dev/null <<<"$OUT" || die "not in sync after reinstate"
	rb_disk_set h0 badblocks=0-7
	expect_rc 0 "$RB" policy st device preferred=0
	dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct status=none || true
	expect_rc 0 "$RB" status st --json
	jq -e '.legs[0].errors.read >= 1' >/dev/null <<<"$OUT" || die "no read error counted on leg 0"
	expect_rc 0 "$RB" status st
	out_line "  0  $k0 .* [1-9][0-9]*/[0-9]+/[0-9]+/[0-9]+"
fi

# Usage errors.
expect_rc 1 "$RB" status st --watch 0
expect_rc 1 "$RB" status st --watch x
expect_rc 1 "$RB" status st --count 2
expect_rc 1 "$RB" status
expect_rc 1 "$RB" status st other
expect_rc 0 "$RB" status --help
out_has "Usage: readbal status NAME"
expect_rc 0 "$RB" remove st
no_readbal_device
echo "52-tool-status: ok ($total reads counted)"
