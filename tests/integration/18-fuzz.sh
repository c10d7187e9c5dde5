#!/usr/bin/env bash
# vm-timeout: 600
# Random and mutated table lines and messages (tests/lib/dm-fuzz): every
# refused one fails with EINVAL and a readbal error in the kernel log and
# leaves nothing loaded or changed; every table line taken reads back as one
# that loads the same; messages, policy switches among them, land while fio
# writes and verifies. Then faults and repairs at random (tests/lib/dm-faults)
# under fio verify. Fixed seeds: a failure is reproduced by running the same
# line again.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

a=$(rb_disk a ssd size=32)
b=$(rb_disk b hdd size=32)
c=$(rb_disk c ram size=32)
log=$(rb_disk log ram size=1)

tests/lib/dm-fuzz tables --seed 1 --count 600 --log "$log" "$a" "$b" "$c" ||
	die "table lines: see above"
# shellcheck disable=SC2143 # grep -q could end dmsetup early: pipefail
[ -z "$(dmsetup ls | grep -v 'No devices')" ] || die "devices left behind: $(dmsetup ls)"

s=$(rb_sectors "$a")
dm_create fz "$(rb_table "$s" adaptive "" "$a" "$b" "$c")"
dev=$(dm_dev fz)
done_flag=/tmp/fuzz-done
fio_verify_until "$done_flag" "$dev" 24M randrw --bsrange=4k-1m
fio_pid=$!
sleep 2
rc=0
tests/lib/dm-fuzz messages --seed 1 --count 1500 --sectors "$s" fz || rc=1
touch "$done_flag"
wait "$fio_pid" || die "fio failed beside the messages"
((rc == 0)) || die "messages: see above"
for l in 0 1 2; do [ "$(rb_leg_state fz $l)" = A ] || die "leg $l not in service: $(rb_status fz)"; done
dm_remove fz
# Whatever the messages did, every leg holds what fio wrote (bounded: see
# 13-switch-under-load.sh on a null_blk queue that once stalled).
timeout -k 10 120 cmp -n $((s * 512)) "$a" "$b" || die "legs a and b differ (or cmp stalled)"
timeout -k 10 120 cmp -n $((s * 512)) "$a" "$c" || die "legs a and c differ (or cmp stalled)"

# Faults and repairs at random (a leg swapped to error and back, fail_leg,
# reinstate_leg, a reload of the mirror's own table line, suspends, policy
# switches) while fio verifies: no error, no stale read, legs identical.
rb_faults_run 1 40 "$(rb_disk fa ssd size=32)" "$(rb_disk fb hdd size=32)" "$(rb_disk fc ram size=32)"
