#!/usr/bin/env bash
# readbal(8) where udev runs: create, replace's resume and remove wait for
# udev through libdevmapper's cookies, udev's rules (the host's
# 55-dm.rules, 95-dm-notify.rules) make /dev/mapper/NAME as a symlink and
# complete the cookie, and none is left over.  The guest has no udev of
# its own: this script starts the host's systemd-udevd for itself and
# stops it again (every other guest script runs with DM_DISABLE_UDEV=1).
# vm-timeout: 120
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tools/test-lib.sh

udevd=/lib/systemd/systemd-udevd
[[ -x $udevd ]] || die "no $udevd on the host: apt-get install udev"
a=$(rb_disk a ram size=8)
b=$(rb_disk b ram size=8)
n=$(rb_disk n ram size=8)

"$udevd" --resolve-names=never >/tmp/udevd.log 2>&1 &
pid=$!
stop_udevd() {
	kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	# libdevmapper takes a control socket left behind for a running udev
	rm -rf /run/udev
}
trap stop_udevd EXIT
for ((i = 0; i < 100; i++)); do
	[[ -S /run/udev/control ]] && break
	sleep 0.1
done
[[ -S /run/udev/control ]] || die "systemd-udevd did not start: $(cat /tmp/udevd.log)"
unset DM_DISABLE_UDEV

no_cookie() {
	local c
	c=$(dmsetup udevcookies | tail -n +2)
	[[ -z $c ]] || die "udev cookies left over: $c"
}

# a hung cookie would block forever: bound each command
expect_rc 0 timeout 60 "$RB" -vv create u --policy pid "$a" "$b"
err_has "udev synchronisation on"
err_has "libdevmapper: Udev cookie 0x"
err_has ") waiting for zero"
# udev ran dm's rules for that event, with the cookie's flags
udevadm info --query=property --name="$(dm_dev u)" | grep -qx 'DM_UDEV_PRIMARY_SOURCE_FLAG=1' ||
	die "udev did not run the dm rules: $(udevadm info --query=property --name="$(dm_dev u)")"
out_line 'created u \(/dev/dm-[0-9]+\): 2 legs, 8 MiB'
[[ -L /dev/mapper/u ]] || die "/dev/mapper/u is not udev's symlink: $(ls -l /dev/mapper)"
[[ $(readlink -f /dev/mapper/u) == "$(dm_dev u)" ]] || die "/dev/mapper/u -> $(readlink -f /dev/mapper/u)"
no_cookie
expect_rc 0 timeout 60 "$RB" replace u 1 "$n"
no_cookie
expect_rc 0 timeout 60 "$RB" remove u
[[ ! -e /dev/mapper/u ]] || die "/dev/mapper/u left behind"
no_cookie
# a refused table: nothing left, no cookie either
expect_rc 3 timeout 60 "$RB" create v --policy device preferred=5 "$a" "$b"
[[ ! -e /dev/mapper/v ]] || die "/dev/mapper/v left behind"
no_readbal_device
no_cookie
echo "57-tool-udev: ok"
