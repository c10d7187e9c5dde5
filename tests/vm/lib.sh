# shellcheck shell=bash
# Host-side settings shared by the tests/vm commands (sourced, not run).
# REPO is derived from this file's location so the tools work from any cwd
# and from any checkout (CI clones the repo elsewhere).

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck disable=SC2034 # used by the scripts that source this
REPO=$(cd "$VM_DIR/../.." && pwd)
CACHE=${CACHE:-/var/cache/dm-readbal}
export CACHE

die() { echo "${0##*/}: $*" >&2; exit 1; }
