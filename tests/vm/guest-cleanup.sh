# shellcheck shell=bash
# Sourced by guest-main. rb_vm_cleanup runs after each script: it removes
# what the script left (mounts, dm, md, loop, nbd, brd, null_blk devices) so
# the next one starts clean, and loads dm-readbal again if it was removed.
# Returns 1 when something could not be removed: a leak that cleanup cannot
# undo is a finding, not noise. Every exec costs ~0.1 s under TCG: tools run
# only when sysfs shows there is something for them to do.

# shellcheck source=SCRIPTDIR/../lib/disks.sh
. "$RB_REPO/tests/lib/disks.sh"

_rb_some() { compgen -G "$1" >/dev/null; }

rb_vm_cleanup() {
	local dev mnt rest m p rc=0
	local -a mounts=()
	while read -r dev mnt rest; do
		[[ $dev == /dev/@(dm-|mapper/|md|nullb|rb/|loop|nbd|ram)* ]] && mounts=("$mnt" "${mounts[@]}")
	done </proc/self/mounts
	for m in "${mounts[@]}"; do
		umount -l "$m" || rc=1
	done

	if _rb_some '/sys/block/dm-*'; then
		dmsetup --noudevsync remove_all --force >/dev/null 2>&1
	fi
	if _rb_some '/sys/block/md*'; then
		mdadm --stop --scan >/dev/null 2>&1
		for m in /sys/block/md*; do
			[[ -e $m ]] && mdadm --stop "/dev/${m##*/}" >/dev/null 2>&1
		done
		# md arrays on dm devices and the reverse: one more pass.
		_rb_some '/sys/block/dm-*' && dmsetup --noudevsync remove_all --force >/dev/null 2>&1
	fi
	for p in /sys/block/nbd*/pid; do
		[[ -e $p ]] && nbd-client -d "/dev/$(basename "${p%/pid}")" >/dev/null 2>&1
	done
	if _rb_some '/sys/block/loop*/loop/backing_file'; then
		losetup -D
	fi
	rb_disks_rm_all || rc=1
	if _rb_some '/sys/module/brd'; then
		rmmod brd || rc=1
	fi

	if _rb_some '/sys/block/dm-*'; then
		echo "cleanup: dm devices left: $(dmsetup ls 2>&1)"
		rc=1
	fi
	if _rb_some '/sys/block/md*'; then
		echo "cleanup: md arrays left: $(cd /sys/block && echo md*)"
		rc=1
	fi
	if _rb_some "$RB_NULLB_CFS/*/"; then
		echo "cleanup: null_blk devices left: $(cd "$RB_NULLB_CFS" && echo */)"
		rc=1
	fi
	if [[ -n ${RB_MODULE:-} && ! -e /sys/module/dm_readbal ]]; then
		echo "cleanup: dm_readbal was unloaded; loading it again"
		insmod "$RB_MODULE" || rc=1
	fi
	# Benchmarks must not inherit the page cache of the previous script.
	echo 3 >/proc/sys/vm/drop_caches
	return $rc
}
