#!/bin/bash
# vm-timeout: 3
# Self-test guest script: outlives its own 3 s timeout.
set -euo pipefail
echo "rb-selftest: sleeping past the timeout"
sleep 60
