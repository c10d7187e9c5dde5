#!/usr/bin/env bash
# vm-timeout: 600
# Reads land where each policy says: checked in readbal's status and in the
# legs' own /sys/block/*/stat.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

sysreads() { awk '{ print $1 }' "/sys/block/$(basename "$(readlink -f "$1")")/stat"; }

h0=$(rb_disk h0 hdd size=64)
h1=$(rb_disk h1 hdd size=64)
s0=$(rb_disk s0 ssd size=64)
legs=("$h0" "$h1" "$s0")
dm_create mix "$(rb_table "$(rb_sectors "$h0")" device "preferred 1" "${legs[@]}")"
dev=$(dm_dev mix)

# device: every read goes to the preferred leg 1.
before=(); for l in "${legs[@]}"; do before+=("$(sysreads "$l")"); done
rb_read_direct "$dev" 8
[ "$(rb_leg_reads mix 0)" = 0 ] && [ "$(rb_leg_reads mix 2)" = 0 ] ||
	die "device: reads left leg 1: $(rb_status mix)"
[ "$(rb_leg_reads mix 1)" -ge 8 ] || die "device: leg 1 read too little: $(rb_status mix)"
[ "$(sysreads "$h0")" = "${before[0]}" ] && [ "$(sysreads "$s0")" = "${before[2]}" ] ||
	die "device: /sys/block shows reads on a non-preferred leg"
[ "$(sysreads "$h1")" -gt "${before[1]}" ] || die "device: leg 1 disk saw no reads"
# Preferred legs 0 and 2 share the reads by queue length.
dmsetup message mix 0 set preferred 0,2
dmsetup message mix 0 reset_stats
fio --name=pref --filename="$dev" --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=8 --size=32M --io_size=8M --output-format=terse >/dev/null
[ "$(rb_leg_reads mix 1)" = 0 ] || die "device 0,2: leg 1 was read: $(rb_status mix)"
[ "$(rb_leg_reads mix 2)" -gt 0 ] || die "device 0,2: leg 2 unused: $(rb_status mix)"

# latency: the ssd has the lowest read wait: nearly every read goes there.
for l in "${legs[@]}"; do rb_read_direct "$l" 1; done	# give each disk a read history
dmsetup message mix 0 policy latency
dmsetup message mix 0 reset_stats
fio --name=lat --filename="$dev" --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=1 --size=32M --io_size=4M --output-format=terse >/dev/null
ssd=$(rb_leg_reads mix 2)
total=$(( $(rb_leg_reads mix 0) + $(rb_leg_reads mix 1) + ssd ))
echo "latency: ssd $ssd of $total reads; status $(rb_status mix)"
[ $((ssd * 100)) -ge $((total * 95)) ] || die "latency: ssd served only $ssd of $total reads"

# pid: each process reads from leg pid % 3.
dmsetup message mix 0 policy pid
for i in 1 2 3 4 5 6; do
	dmsetup message mix 0 reset_stats
	pid=$(bash -c 'echo $$; exec dd if="$0" of=/dev/null bs=64k count=16 iflag=direct status=none' "$dev")
	want=$((pid % 3))
	for l in 0 1 2; do
		r=$(rb_leg_reads mix $l)
		if [ $l = $want ]; then [ "$r" -ge 16 ] || die "pid $pid: leg $l got $r reads"
		else [ "$r" = 0 ] || die "pid $pid: leg $l (not $want) got $r reads"; fi
	done
done

# round-robin: a sequential stream moves to the next leg every
# min_contig_read bytes, so 3 MiB in 64 KiB reads gives each leg 1 MiB.
# The turns are counted per CPU: a reader the scheduler moves to another CPU
# mid-stream starts that CPU's turns at leg 0 (CI saw 20/16/12 reads), so
# dd stays on one CPU.
dmsetup message mix 0 policy round-robin min_contig_read 262144
dmsetup message mix 0 reset_stats
taskset -c 0 dd if="$dev" of=/dev/null bs=64k count=48 iflag=direct status=none
for l in 0 1 2; do
	s=$(rb_leg_field mix $l 4)
	[ "$s" = 2048 ] || die "round-robin: leg $l read $s sectors, want 2048: $(rb_status mix)"
done

# roundrobin: under load every leg of an all-ssd array serves reads.
dm_remove mix
n0=$(rb_disk n0 ssd size=64)
n1=$(rb_disk n1 ssd size=64)
dm_create hom "$(rb_table "$(rb_sectors "$n0")" roundrobin "" "$n0" "$n1")"
fio --name=rr --filename="$(dm_dev hom)" --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=32 --numjobs=2 --size=32M --io_size=8M --output-format=terse >/dev/null
echo "roundrobin: $(rb_status hom)"
[ "$(rb_leg_reads hom 0)" -gt 0 ] && [ "$(rb_leg_reads hom 1)" -gt 0 ] || die "roundrobin left a leg idle"
dm_remove hom
