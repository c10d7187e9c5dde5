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

rb_messages_run 1 1500 adaptive "$a" "$b" "$c" || die "messages: see above"

# Faults and repairs at random (a leg swapped to error and back, fail_leg,
# reinstate_leg, a reload of the mirror's own table line, suspends, policy
# switches) while fio verifies: no error, no stale read, legs identical.
rb_faults_run 1 40 "$(rb_disk fa ssd size=32)" "$(rb_disk fb hdd size=32)" "$(rb_disk fc ram size=32)"
