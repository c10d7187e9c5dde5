#!/bin/bash
# Self-test guest script: the first time, sets the guest's clock 40 s
# ahead, as a snapshot of the host VM does to the guest's TSC (by hours), logs a
# hung-task report as the kernel then does, and fails.  The runner must
# report it VOID and run it again in a new guest (RB_VM_RERUN set), where
# it passes.
set -euo pipefail
if [[ -n ${RB_VM_RERUN:-} ]]; then
	echo "rb-selftest: the rerun passes"
	exit 0
fi
date -s "@$(($(date +%s) + 40))" >/dev/null
echo "<3>INFO: task rb-selftest:1 blocked for more than 40 seconds." >/dev/kmsg
echo "rb-selftest: failing after a clock jump"
exit 1
