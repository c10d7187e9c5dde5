#!/bin/bash
# Self-test guest script: blocks in uninterruptible I/O on a disk whose
# requests complete after 10 minutes, so no timeout can kill it and the
# guest never powers off: the runner's overall timeout must catch that.
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../lib/disks.sh
. "$RB_REPO/tests/lib/disks.sh"
dev=$(rb_disk stuck ram size=16 latency_us=600000000)
echo "rb-selftest: reading $dev, which never answers"
dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct
