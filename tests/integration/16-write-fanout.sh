#!/usr/bin/env bash
# vm-timeout: 600
# Flush, discard and write-zeroes reach every leg; 1280 KiB bios (seed 001)
# pass both ways with data verified; the legs end identical.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

# Loop legs over tmpfs files take flush, discard and write-zeroes.
modprobe loop
legs=()
for i in 0 1 2; do
	truncate -s 64M "/tmp/leg$i.img"
	legs+=("$(losetup -f --show "/tmp/leg$i.img")")
done
dm_create fan "$(rb_table "$(rb_sectors "${legs[0]}")" pid "" "${legs[@]}")"
dev=$(dm_dev fan)
# /sys/block/X/stat: field 12 discards completed, 16 flushes completed
stat_field() { awk -v f="$2" '{ print $f }' "/sys/block/$(basename "$1")/stat"; }

dd if=/dev/urandom of="$dev" bs=1M count=8 oflag=direct status=none
before=(); for l in "${legs[@]}"; do before+=("$(stat_field "$l" 16)"); done
dd if=/dev/urandom of="$dev" bs=4k count=1 oflag=direct conv=fsync status=none
for i in 0 1 2; do
	[ "$(stat_field "${legs[$i]}" 16)" -gt "${before[$i]}" ] || die "leg $i saw no flush"
done

[ "$(cat /sys/block/"$(basename "$(readlink -f "$dev")")"/queue/discard_max_bytes)" -gt 0 ] ||
	die "mirror does not offer discard"
before=(); for l in "${legs[@]}"; do before+=("$(stat_field "$l" 12)"); done
blkdiscard -o 1M -l 2M "$dev"
for i in 0 1 2; do
	[ "$(stat_field "${legs[$i]}" 12)" -gt "${before[$i]}" ] || die "leg $i saw no discard"
	cmp -n 2M <(dd if="${legs[$i]}" bs=1M skip=1 count=2 iflag=direct status=none) /dev/zero ||
		die "leg $i: discarded range not zero"
done

blkdiscard -z -o 4M -l 1M "$dev"
for i in 0 1 2; do
	cmp -n 1M <(dd if="${legs[$i]}" bs=1M skip=4 count=1 iflag=direct status=none) /dev/zero ||
		die "leg $i: write-zeroes range not zero"
done
cmp "${legs[0]}" "${legs[1]}" && cmp "${legs[0]}" "${legs[2]}" || die "loop legs differ"
dm_remove fan
for l in "${legs[@]}"; do losetup -d "$l"; done

# seed 001: 1280 KiB direct I/O at iodepth 64 over null_blk legs that take
# at most 127 KiB a request.
a=$(rb_disk a ssd size=128)
b=$(rb_disk b ssd size=128)
dm_create big "$(rb_table "$(rb_sectors "$a")" round-robin "" "$a" "$b")"
dev=$(dm_dev big)
fio --name=big --filename="$dev" --bs=1280k --direct=1 --ioengine=libaio \
	--iodepth=64 --numjobs=1 --size=100M --rw=write --verify=crc32c \
	--verify_fatal=1 --output-format=terse >/dev/null || die "1280k write+verify failed"
fio --name=bigr --filename="$dev" --bs=1280k --direct=1 --ioengine=libaio \
	--iodepth=64 --numjobs=4 --size=100M --rw=read --output-format=terse >/dev/null ||
	die "1280k parallel read failed"
echo "status: $(rb_status big)"
[ "$(rb_leg_reads big 0)" -gt 0 ] && [ "$(rb_leg_reads big 1)" -gt 0 ] || die "a leg served no reads"
dm_remove big
cmp "$a" "$b" || die "legs differ after 1280k writes"
