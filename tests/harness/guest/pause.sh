#!/bin/bash
# Self-test guest script: passes after 12 s, so that the script after it
# is timed from its own start, not from the guest's (clock-jump.sh).
set -euo pipefail
sleep 12
