#!/usr/bin/env bash
# Malformed table lines: each is refused with a clear error in the kernel
# log, and no device is left behind.
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh

a=$(rb_disk a ram size=32)
b=$(rb_disk b ram size=32)
small=$(rb_disk small ram size=8)
s=$(rb_sectors "$a")
a_other_path=$(readlink -f "$a")

cases=(
	"readbal|Invalid number of legs"
	"readbal 1 $a 0 pid 0|Invalid number of legs"
	"readbal 17 $a 0 $b 0 pid 0|Invalid number of legs"
	"readbal two $a 0 $b 0 pid 0|Invalid number of legs"
	"readbal 3 $a 0 $b 0 pid 0|Leg device lookup failed"
	"readbal 2 $a 0 $b|Missing leg device or offset"
	"readbal 2 $a 0 $b 0|Missing read policy"
	"readbal 2 $a 0 $b 0 fastest 0|Unknown read policy"
	"readbal 2 $a 0 $b 0 pid 3 x|Invalid number of policy arguments"
	"readbal 2 $a 0 $b 0 roundrobin 1 rot_nonlocal_inc|Policy arguments must be <knob> <value> pairs"
	"readbal 2 $a 0 $b 0 roundrobin 2 speed 3|Unknown knob"
	"readbal 2 $a 0 $b 0 roundrobin 2 rot_nonlocal_inc -1|"
	"readbal 2 $a 0 $b 0 round-robin 2 min_contig_read 12k|"
	"readbal 2 $a 0 $b 0 device 2 preferred 5|"
	"readbal 2 $a 0 $b 0 device 2 preferred 0,,1|"
	"readbal 2 $a 0 $small 0 pid 0|Leg is smaller than offset + target length"
	"readbal 2 $a 0 $a 0 pid 0|The same device is given as two legs"
	"readbal 2 $a 0 $a_other_path 0 pid 0|The same device is given as two legs"
	"readbal 2 $a 0 /dev/no-such-disk 0 pid 0|Leg device lookup failed"
	"readbal 2 $a 0 $b 0 pid 0 garbage|"
	"readbal 2 $a 0 $b 0 pid 0 1 nosuchfeature|Feature without its value"
	"readbal 2 $a 0 $b 0 pid 0 2 nosuchfeature 1|Unrecognised feature"
	"readbal 2 $a 0 $b 0 pid 0 2 max_read_errors x|Invalid max_read_errors"
	"readbal 2 $a 0 $b 0 pid 0 2 rebuild 5|rebuild names no leg"
	"readbal 2 $a 0 $b 0 pid 0 4 rebuild 0 rebuild 1|Every leg is to be rebuilt"
	"readbal 2 $a 0 $b 0 pid 0 3 rebuild 0|Invalid number of features"
	"readbal 2 $a 0 $b 0 pid 0 3 queue_depth 2 4|queue_depth names no leg"
	"readbal 2 $a 0 $b 0 pid 0 2 queue_depth 0|queue_depth names no leg"
	"readbal 2 $a 0 $b 0 pid 0 3 queue_depth 0 0|Invalid queue_depth"
	"readbal 2 $a 0 $b 0 pid 0 3 queue_depth 1 many|Invalid queue_depth"
	"readbal 2 $a x $b 0 pid 0|Invalid leg offset"
	"readbal 2 $a 0 $b 1 pid 0|Leg is smaller than offset + target length"
	"readbal 2 $a 0 $b -5 pid 0|Invalid leg offset"
)
n=0
for c in "${cases[@]}"; do
	params=${c%%|*}
	want=${c#*|}
	dmesg -C
	if dmsetup --noudevsync create bad --table "0 $s $params" 2>/tmp/err; then
		die "accepted: $params"
	fi
	log=$(dmesg | grep -m1 'readbal:' || true)
	[ -n "$log" ] || die "no readbal error in the kernel log for: $params"
	[ -z "$want" ] || grep -qF -- "$want" <<<"$log" || die "for '$params' want '$want', got: $log"
	! dmsetup info bad >/dev/null 2>&1 || die "device left behind after: $params"
	echo "refused: $params -> ${log#*readbal: }"
	n=$((n + 1))
done
echo "$n malformed tables refused"
[ -z "$(dmsetup ls | grep -v 'No devices')" ] || die "devices left behind: $(dmsetup ls)"
