#!/bin/bash
# Self-test guest script: every tests/lib/disks.sh profile makes a disk with
# the documented attributes; overrides, badblocks and removal work.
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../lib/common.sh
. "$RB_REPO/tests/lib/common.sh"
# shellcheck source=SCRIPTDIR/../../lib/disks.sh
. "$RB_REPO/tests/lib/disks.sh"

declare -A rot=([hdd]=1 [ssd]=0 [nvme]=0 [ram]=0 [remote]=0)
declare -A qd=([hdd]=4 [ssd]=32 [nvme]=64 [ram]=64 [remote]=32)
for p in hdd ssd nvme ram remote; do
	dev=$(rb_disk "d-$p" "$p" size=32)
	[[ $dev == /dev/rb/d-$p && -b $dev ]] || die "$p: $dev is not a block device"
	k=$(rb_disk_kname "d-$p")
	[[ $(readlink "$dev") == /dev/$k ]] || die "$p: $dev does not point at /dev/$k"
	[[ $(<"/sys/block/$k/queue/rotational") == "${rot[$p]}" ]] || die "$p: rotational"
	[[ $(<"/sys/block/$k/size") == $((32 * 2048)) ]] || die "$p: size"
	[[ $(<"/sys/block/$k/queue/logical_block_size") == 512 ]] || die "$p: block size"
	[[ $(<"$RB_NULLB_CFS/d-$p/hw_queue_depth") == "${qd[$p]}" ]] || die "$p: queue depth"
	[[ $(<"$RB_NULLB_CFS/d-$p/memory_backed") == 1 ]] || die "$p: memory_backed"
done
[[ $(<"$RB_NULLB_CFS/d-hdd/irqmode") == 2 && $(<"$RB_NULLB_CFS/d-hdd/completion_nsec") == 2000000 ]] ||
	die "hdd: latency"
[[ $(<"$RB_NULLB_CFS/d-ram/irqmode") == 0 && $(<"$RB_NULLB_CFS/d-ram/mbps") == 0 ]] || die "ram: no delay"
# null_blk's default largest request is 255 sectors; max_sectors sets it.
[[ $(<"/sys/block/$(rb_disk_kname d-ssd)/queue/max_sectors_kb") == 127 ]] || die "ssd: default max_sectors"
dev=$(rb_disk ms ssd size=16 max_sectors=256)
[[ $(<"/sys/block/$(rb_disk_kname ms)/queue/max_sectors_kb") == 128 ]] || die "max_sectors not applied"
rb_disk_rm ms

# Data survives: memory backed.
printf 'rb-data' | dd of=/dev/rb/d-ssd bs=512 count=1 conv=sync oflag=direct status=none
[[ $(dd if=/dev/rb/d-ssd bs=512 count=1 iflag=direct status=none | head -c7) == rb-data ]] || die "ssd: data lost"

# The hdd's 2 ms latency shows: 20 QD1 reads take at least 40 ms.
t0=${EPOCHREALTIME/./}
dd if=/dev/rb/d-hdd of=/dev/null bs=4k count=20 iflag=direct status=none
((${EPOCHREALTIME/./} - t0 >= 40000)) || die "hdd: reads faster than its latency"

# Overrides and badblocks: reads of a bad range fail with EIO, others work.
dev=$(rb_disk bad ssd size=16 rotational=1 queue_depth=2 badblocks=2048-2055,4096-4103)
k=$(rb_disk_kname bad)
[[ $(<"/sys/block/$k/queue/rotational") == 1 && $(<"$RB_NULLB_CFS/bad/hw_queue_depth") == 2 ]] ||
	die "overrides not applied"
dd if="$dev" of=/dev/null bs=512 count=1 iflag=direct status=none || die "good sector unreadable"
out=$(dd if="$dev" of=/dev/null bs=512 skip=2050 count=1 iflag=direct 2>&1) && die "bad sector readable"
[[ $out == *"Input/output error"* ]] || die "bad sector: expected EIO, got: $out"
expect_fail dd if="$dev" of=/dev/null bs=512 skip=4096 count=1 iflag=direct status=none
rb_disk_set bad badblocks=-2048-2055 rotational=0
dd if="$dev" of=/dev/null bs=512 skip=2050 count=1 iflag=direct status=none || die "cleared range still bad"
expect_fail dd if="$dev" of=/dev/null bs=512 skip=4100 count=1 iflag=direct status=none
[[ $(<"/sys/block/$k/queue/rotational") == 0 ]] || die "rb_disk_set rotational"

# Bad input is refused.
expect_fail rb_disk x floppy
expect_fail rb_disk x ssd colour=red
expect_fail rb_disk x ssd max_sectors=lots
expect_fail rb_disk bad ssd
expect_fail rb_disk_set bad mbps=10

# The leg counters see I/O.
r0=$(leg_reads /dev/rb/d-nvme)
dd if=/dev/rb/d-nvme of=/dev/null bs=4k count=8 iflag=direct status=none
(($(leg_reads /dev/rb/d-nvme) - r0 == 8)) || die "leg_reads"

rb_disk_rm bad
[[ ! -e $RB_NULLB_CFS/bad && ! -e /dev/rb/bad ]] || die "rb_disk_rm"
rb_disks_rm_all
! compgen -G "$RB_NULLB_CFS/*/" >/dev/null || die "rb_disks_rm_all left disks"
echo "disk profiles OK"
