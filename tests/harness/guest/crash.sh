#!/bin/bash
# Self-test guest script: crashes the guest kernel (sysrq c). The runner must
# fail this script, the guest-timeout check (no clean power-off) and the
# kernel-log check (from the console log, as no dmesg dump is made).
set -euo pipefail
echo "rb-selftest: crashing the guest"
sync
echo c >/proc/sysrq-trigger
