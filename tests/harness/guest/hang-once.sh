#!/bin/bash
# vm-timeout: 5
# Self-test guest script: the first time, blocks in uninterruptible I/O
# (as an emulated disk that stops answering does), past its timeout and
# its cleanup: the runner must stop that guest and run it again in a new
# one (RB_VM_RERUN set), where it passes.
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../lib/disks.sh
. "$RB_REPO/tests/lib/disks.sh"
if [[ -n ${RB_VM_RERUN:-} ]]; then
	echo "rb-selftest: the rerun passes"
	exit 0
fi
dev=$(rb_disk stuck ram size=16 latency_us=600000000)
dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct
