#!/usr/bin/env bash
# vm-timeout: 600
# adaptive's probes go beside the reads (readbal-probe.c): at queue depth 1
# on an hdd + ssd mirror every read is the ssd's in readbal's status, while
# the hdd's own disk statistics show the probes.  Suspend and remove wait
# for a probe in flight (no hang, no oops); a probe that fails fails
# neither the leg nor a read.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

h=$(rb_disk ph hdd size=64)
s=$(rb_disk ps ssd size=64)
n=$(rb_sectors "$h")
dm_create probes "$(rb_table "$n" adaptive "probe_ms 50" "$h" "$s")"
dev=$(dm_dev probes)
fio --name=fill --filename="$dev" --rw=write --bs=64k --direct=1 --ioengine=libaio \
	--iodepth=4 --size=32M --verify=crc32c --verify_pattern=0x5a5a --do_verify=0 \
	--output-format=terse >/dev/null

qd1() { # SECONDS
	fio --name=qd1 --filename="$dev" --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --size=32M --time_based --runtime="$1" \
		--output-format=terse >/dev/null
}

qd1 1		# the hdd's first reads, before it is measured, may be user reads
dmsetup message probes 0 reset_stats
before=$(leg_reads "$h")
qd1 4
probed=$(( $(leg_reads "$h") - before ))
echo "hdd: $(rb_leg_reads probes 0) reads in status, $probed on its disk; $(rb_status probes)"
[ "$(rb_leg_reads probes 0)" = 0 ] || die "a QD1 read went to the hdd: $(rb_status probes)"
[ "$(rb_leg_reads probes 1)" -gt 100 ] || die "the ssd served too few reads: $(rb_status probes)"
[ "$probed" -ge 2 ] || die "the hdd saw $probed probes in 4 s (probe_ms 50)"

# suspend, resume and a table reload under QD1 reads: each suspend waits
# for the probe in flight
qd1 6 &
reader=$!
for _ in 1 2 3 4 5 6; do
	sleep 0.5
	dmsetup suspend probes
	dmsetup resume probes
done
dmsetup table probes | dmsetup reload probes
dmsetup suspend probes
dmsetup resume probes
wait "$reader" || die "the reader failed across suspends"

# probes that fail: every hdd sector bad; the leg stays, reads do not fail
rb_disk_set ph badblocks=+0-$((n - 1))
dmsetup message probes 0 reset_stats
qd1 2
[ "$(rb_leg_state probes 0)" = A ] || die "failed probes failed the hdd: $(rb_status probes)"
[ "$(rb_leg_read_errors probes 0)" = 0 ] || die "a failed probe counted as a read error: $(rb_status probes)"
rb_disk_set ph badblocks=-0-$((n - 1))
fio --name=check --filename="$dev" --rw=read --bs=64k --direct=1 --ioengine=libaio \
	--iodepth=4 --size=32M --verify=crc32c --verify_pattern=0x5a5a --verify_only \
	--output-format=terse >/dev/null || die "data did not verify"

# remove right after a run: the destructor waits for the probe in flight
qd1 1
dm_remove probes
echo "probes: ok"
