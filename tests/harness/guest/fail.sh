#!/bin/bash
# Self-test guest script: fails on purpose; the runner must report FAIL with
# this output.
set -euo pipefail
echo "rb-selftest: about to fail on purpose"
false
