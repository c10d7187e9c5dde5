#!/bin/bash
# Guest script (tests/vm/run): dm-readbal is loaded and registers its target,
# the emulated disks and plain dm work in the guest, and the module unloads
# and loads again when no device uses it.
set -euo pipefail
# shellcheck source=SCRIPTDIR/../lib/common.sh
. "$RB_REPO/tests/lib/common.sh"
# shellcheck source=SCRIPTDIR/../lib/disks.sh
. "$RB_REPO/tests/lib/disks.sh"

[[ -n ${RB_MODULE:-} ]] || die "RB_MODULE is unset: run without --no-module"
dmsetup targets | grep -q '^readbal ' || die "dmsetup targets does not list readbal"

for p in hdd ssd nvme ram remote; do
	dev=$(rb_disk "leg-$p" "$p" size=16)
	[[ -b $dev ]] || die "$p: $dev is not a block device"
done

dm_create lin "0 $((16 * 2048)) linear /dev/rb/leg-ssd 0"
node=$(dm_dev lin)
[[ -b $node ]] || die "dm_dev lin: $node is not a block device"
r0=$(leg_reads /dev/rb/leg-ssd)
dd if="$node" of=/dev/null bs=4k count=4 iflag=direct status=none
(($(leg_reads /dev/rb/leg-ssd) > r0)) || die "reads through dm-linear did not reach the leg"
dm_remove lin
rb_disks_rm_all

rmmod dm_readbal
[[ ! -e /sys/module/dm_readbal ]] || die "dm_readbal still loaded after rmmod"
insmod "$RB_MODULE"
dmsetup targets | grep -q '^readbal ' || die "readbal missing after reloading"
echo "module load/unload OK"
