#!/bin/bash
# Guest script that does nothing: measures boot-run-poweroff.
set -euo pipefail
