# shellcheck shell=bash
# Small helpers for guest scripts (run by tests/vm/run). Source it:
#   . "$RB_REPO/tests/lib/common.sh"

die() {
	echo "FAIL: $*" >&2
	exit 1
}

# Passes when CMD fails; fails the script when CMD succeeds.
expect_fail() {
	if "$@"; then
		die "expected failure: $*"
	fi
	return 0
}

# Prints the /dev/dm-N node of a dm device: without udev the /dev/mapper
# name may be missing.
dm_dev() { # NAME
	local k
	k=$(dmsetup info -c --noheadings -o blkdevname "${1:?dm_dev NAME}") || return
	echo "/dev/${k// /}"
}

# TABLE may hold several lines; it goes to dmsetup on stdin.
dm_create() { # NAME TABLE
	local name=${1:?dm_create NAME TABLE} table=${2:?table}
	printf '%s\n' "$table" | dmsetup --noudevsync create "$name" || return
	dmsetup mknodes "$name"
}

dm_remove() { # NAME
	dmsetup --noudevsync remove --retry "${1:?dm_remove NAME}"
}

# Fields of /sys/block/X/stat for DEV (/dev/rb/NAME, /dev/dm-N, nullbN...).
# Builtins only where possible: an exec costs ~0.1 s under TCG.
_leg_stat() { # FIELD DEV
	local k=$2
	local -a f
	[[ -L $k ]] && k=$(readlink -f "$k")
	k=${k##*/}
	read -ra f 2>/dev/null <"/sys/block/$k/stat" || {
		echo "no /sys/block/$k/stat for $2" >&2
		return 1
	}
	echo "${f[$1 - 1]}"
}

leg_reads() { _leg_stat 1 "${1:?leg_reads DEV}"; }        # reads completed
leg_read_sectors() { _leg_stat 3 "${1:?leg_read_sectors DEV}"; }
leg_writes() { _leg_stat 5 "${1:?leg_writes DEV}"; }      # writes completed
leg_write_sectors() { _leg_stat 7 "${1:?leg_write_sectors DEV}"; }

# rb_crash WHY: ends the running script as passed, then resets the guest at
# once, as a power cut would (sysrq b: no sync, no unmount, no flush).
# tests/vm/run takes that end of the guest as intended.
rb_crash() {
	[[ -n ${RB_STATUS:-} && -n ${RB_RESULTS:-} ]] ||
		die "rb_crash: run me under tests/vm/run"
	printf 'PASS\n\n0\n' >"$RB_STATUS.tmp" && mv "$RB_STATUS.tmp" "$RB_STATUS"
	echo "${1:-crash}" >"$RB_RESULTS/guest.crashed"
	echo b >/proc/sysrq-trigger
	sleep 30
	die "rb_crash: the guest did not reset"
}
