# shellcheck shell=bash
# Helpers of the readbal tool's guest tests (tests/integration/5*-tool-*.sh).
# Source after tests/lib/common.sh.  Builtins where it matters: every new
# process costs ~0.5 s in the TCG guest.

RB=$RB_REPO/tools/readbal/readbal
[[ -x $RB ]] || die "no $RB: build it on the host first (make -C tools); the guest sees the host's root read-only"

# expect_rc RC CMD...: run CMD, show its output, want exit status RC.  Its
# stdout and stderr are left in OUT and ERR (last newline cut).
expect_rc() {
	local want=$1 rc=0
	shift
	"$@" >/tmp/rb-out 2>/tmp/rb-err || rc=$?
	OUT='' ERR=''
	IFS= read -r -d '' OUT </tmp/rb-out || true
	IFS= read -r -d '' ERR </tmp/rb-err || true
	OUT=${OUT%$'\n'} ERR=${ERR%$'\n'}
	echo "\$ ${*#"$RB_REPO/tools/readbal/"} -> exit $rc"
	[[ -z $OUT ]] || printf '%s\n' "$OUT"
	[[ -z $ERR ]] || printf '  stderr: %s\n' "${ERR//$'\n'/$'\n'  stderr: }"
	[[ $rc == "$want" ]] || die "want exit $want, got $rc: $*"
}

# out_has STRING / err_has STRING: the last expect_rc printed STRING.
out_has() { [[ $OUT == *"$1"* ]] || die "stdout lacks '$1'"; }
err_has() { [[ $ERR == *"$1"* ]] || die "stderr lacks '$1'"; }
# out_line REGEX: some line of stdout matches the (anchored) extended regex.
out_line() {
	local l
	while IFS= read -r l; do
		[[ $l =~ ^$1$ ]] && return 0
	done <<<"$OUT"
	die "no stdout line matches '$1'"
}

# The readbal devices there are, one name a line.
readbal_devices() { dmsetup ls --target readbal | grep -v '^No devices' | awk '{ print $1 }' || true; }
# no_device_but NAME...: only these readbal devices exist.
no_device_but() {
	local want got
	want=$(printf '%s\n' "$@" | sort)
	got=$(readbal_devices | sort)
	[[ $got == "$want" ]] || die "readbal devices: '${got//$'\n'/ }', want '${want//$'\n'/ }'"
}
# no_readbal_device: none is left.
no_readbal_device() {
	local got
	got=$(readbal_devices)
	[[ -z $got ]] || die "readbal devices left: ${got//$'\n'/ }"
}

# devnum DEV: "major:minor" of a block device (following symlinks).
devnum() {
	local t
	t=$(stat -L -c '%t %T' "$1") || return
	read -r -a t <<<"$t"
	printf '%d:%d' "0x${t[0]}" "0x${t[1]}"
}
