#!/usr/bin/env bash
# Guest side of the benchmark, run by tests/vm/run for bench/run: the
# driver reads $RB_RESULTS/bench/conf.json (written by bench/run) and leaves
# its results next to it. Its time budget is in the conf; bench/run sets
# this script's timeout (RB_SCRIPT_TIMEOUT) above it.
set -euo pipefail
[[ -f $RB_RESULTS/bench/conf.json ]] || { echo "no $RB_RESULTS/bench/conf.json: run bench/run" >&2; exit 2; }
exec python3 "$RB_REPO/bench/guest/driver.py"
