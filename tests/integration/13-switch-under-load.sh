#!/usr/bin/env bash
# vm-timeout: 600
# 1000 policy and knob switches while fio writes and verifies: no verify
# error, no I/O error, no stuck I/O.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

a=$(rb_disk a ssd size=64)
b=$(rb_disk b hdd size=64)
c=$(rb_disk c ram size=64)
dm_create sw "$(rb_table "$(rb_sectors "$a")" roundrobin "" "$a" "$b" "$c")"
dev=$(dm_dev sw)
done_flag=/tmp/switches-done

# fio runs back to back until the switches are done; each run must pass.
fio_verify_until "$done_flag" "$dev" 32M randwrite --bsrange=4k-128k
fio_pid=$!

policies=("pid" "roundrobin" "latency" "device preferred 0" "round-robin"
	  "roundrobin rot_nonlocal_inc 5" "device preferred 1,2"
	  "round-robin min_contig_read 65536" "md" "zfs" "hst" "adaptive"
	  "adaptive flash_chunk_kb 64 rot_chunk_kb 256")
# The switches go through one process (tests/lib/dm-messages), not 1000
# dmsetup runs, so they come fast enough to land on reads in flight.
active=pid
for i in $(seq 0 999); do
	if [ $((i % 4)) = 3 ]; then
		# a knob of the active policy, when it has one
		case $active in
		roundrobin) echo "sw set rot_nonlocal_inc $((i % 7))" ;;
		device) echo "sw set preferred $((i % 3))" ;;
		round-robin) echo "sw set min_contig_read $(((i % 8 + 1) * 4096))" ;;
		adaptive) echo "sw set decay_ms $((i % 200 + 1))" ;;
		*) echo "sw reset_stats" ;;
		esac
	else
		p=${policies[$((i % ${#policies[@]}))]}
		echo "sw policy $p"
		active=${p%% *}
	fi
done >/tmp/switches
sleep 2	# let fio get going
start=$SECONDS
tests/lib/dm-messages </tmp/switches >/tmp/switches.out || die "a switch failed: $(grep -v '^ok' /tmp/switches.out | head -3)"
[ "$(grep -c '^ok' /tmp/switches.out)" = 1000 ] || die "not every switch answered ok"
echo "1000 switches in $((SECONDS - start)) s"
[ "$(rb_policy_of sw | cut -d' ' -f1)" = "$active" ] || die "active policy is not $active"
touch "$done_flag"
wait "$fio_pid" || die "fio failed during policy switches"
echo "status: $(rb_status sw)"
for l in 0 1 2; do [ "$(rb_leg_inflight sw $l)" = 0 ] || die "leg $l has reads in flight after the load"; done
dm_remove sw
# The legs' cmp once blocked for the test's whole timeout in CI (a null_blk
# queue left stopped, with no readbal device left; not reproduced): bound
# it, and say where the reads sit if it happens again.
rc=0 limit=120
timeout -k 10 $limit cmp "$a" "$b" && timeout -k 10 $limit cmp "$a" "$c" || rc=$?
if [ "$rc" != 0 ]; then
	# STOPPED with reads in flight: null_blk's bandwidth timer ended
	# (nullb_bwtimer_fn finds a full budget) while another CPU spent the
	# budget and stopped the queue, which only that timer starts again
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug || true
	for d in "$a" "$b" "$c"; do
		k=$(basename "$(realpath "$d")")
		echo "$d ($k): inflight $(cat "/sys/block/$k/inflight"), hctx state" \
			"$(cat "/sys/kernel/debug/block/$k"/hctx*/state 2>/dev/null | tr '\n' ' ')"
	done
	[ "$rc" -lt 124 ] || die "a read of the raw legs stalled for $limit s (null_blk; see the inflight counts above)"
	die "legs differ after the load"
fi
