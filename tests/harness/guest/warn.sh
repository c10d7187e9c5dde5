#!/bin/bash
# Self-test guest script: loads a module whose init does WARN_ON(1). The
# script itself succeeds; the runner must still fail guest-kernel-log.
set -euo pipefail
insmod "$RB_CACHE/harness/warn/rb_warn.ko"
rmmod rb_warn
