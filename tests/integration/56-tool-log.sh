#!/usr/bin/env bash
# readbal(8) and the dirty region log (target 1.2): --region-size,
# --log-dev, --sync and --assume-clean in table and create; the log in
# status and the table; a disk log resumed at re-creation; replace keeps
# the log features and leaves out what would act again; every refusal of
# the new options, with nothing left behind.
# vm-timeout: 180
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tests/lib/readbal.sh
source tools/test-lib.sh

a=$(rb_disk a ram size=16)
b=$(rb_disk b ram size=16)
n=$(rb_disk n ram size=16)
lg=$(rb_disk lg ram size=1)
lg2=$(rb_disk lg2 ram size=1)
legs="$(devnum "$a") 0 $(devnum "$b") 0"
L=$(devnum "$lg")
head="0 32768 readbal 2 $legs"

# --- table: the log features in the target's order, the log device checked
echo "== table (${SECONDS}s)"
expect_rc 0 "$RB" table --region-size 512K --log-dev "$lg" "$a" "$b"
[[ $OUT == "$head adaptive 0 4 region_size 1024 log_dev $L" ]] || die "table: $OUT"
err_has "$lg holds no dirty region log yet: every region will be copied from the first leg"
expect_rc 0 "$RB" table -R 1024 --log-dev "$lg" --assume-clean --policy pid "$a" "$b"
[[ $OUT == "$head pid 0 5 region_size 1024 log_dev $L nosync" ]] || die "table --assume-clean: $OUT"
err_has "warning: with a disk log, 'nosync' trusts the legs, even after a crash, at every activation of this line"
err_has "  $head pid 0 4 region_size 1024 log_dev $L"
expect_rc 0 "$RB" table --sync -R 1M "$a" "$b"
[[ $OUT == "$head adaptive 0 3 region_size 2048 sync" ]] || die "table --sync: $OUT"
[[ $ERR != *warning* ]] || die "a core log's sync warned"
# the line works with dmsetup as it is
dmsetup --noudevsync create viadmsetup --table "$("$RB" table -R 64K --log-dev "$lg2" "$a" "$b" 2>/dev/null)"
[[ $(dmsetup table viadmsetup) == "$head adaptive "*" 4 region_size 128 log_dev $(devnum "$lg2")" ]] ||
	die "dmsetup table: $(dmsetup table viadmsetup)"
dmsetup --noudevsync remove viadmsetup

# --- refusals: usage (1), devices (2); nothing is created
echo "== refusals (${SECONDS}s)"
expect_rc 1 "$RB" create x --region-size 1000 "$a" "$b"
err_has "--region-size '1000' (1000 sectors) is not a power of 2: give one from 4 KiB (8 sectors) to 64 MiB"
expect_rc 1 "$RB" create x --region-size 128M "$a" "$b"
err_has "is larger than 64 MiB (131072 sectors), the largest region"
expect_rc 1 "$RB" table -R 2K "$a" "$b"
err_has "is smaller than a page (4 KiB, 8 sectors)"
expect_rc 1 "$RB" table -R 1.5M "$a" "$b"
err_has "give sectors (2048) or a size with a unit (512K, 1M)"
expect_rc 1 "$RB" create x --sync --assume-clean "$a" "$b"
err_has "exclude each other"
expect_rc 1 "$RB" create x -R 32M "$a" "$b"
err_has "the mirror (16 MiB, 32768 sectors) is smaller than one region of 32 MiB: give a --region-size of at most 16 MiB"
expect_rc 2 "$RB" create x --log-dev "$b" "$a" "$b"
err_has "--log-dev $b is leg 1 ($b, $(devnum "$b")): the log needs a device of its own"
expect_rc 2 "$RB" create x --log-dev /dev/no-such-disk "$a" "$b"
err_has "/dev/no-such-disk: no such device"
: >/tmp/rb-file
expect_rc 2 "$RB" table --log-dev /tmp/rb-file "$a" "$b"
err_has "/tmp/rb-file is a regular file, not a block device"
# 16 MiB of 1 MiB regions: 1 KiB header + 8 bytes, in 512-byte blocks
dm_create tiny "0 2 linear $lg2 0"
dm_create fits "0 3 linear $lg2 8"
expect_rc 2 "$RB" create x --log-dev "$(dm_dev tiny)" "$a" "$b"
err_has "is too small for this mirror's log: it needs 1536 bytes (1.5 KiB: a 1024-byte header and one bit per region, 16 regions of 1 MiB, in whole 512-byte blocks)"
expect_rc 2 "$RB" create x --log-dev "$lg2" "$a" "$b"
err_has "$lg2 is held by dm-"
no_readbal_device
# the smallest log device that fits: the kernel agrees
expect_rc 0 "$RB" create x --log-dev "$(dm_dev fits)" "$a" "$b"
expect_rc 0 "$RB" remove x
dm_remove tiny
dm_remove fits

# --- create with a disk log: table, status, JSON
echo "== create with a disk log (${SECONDS}s)"
expect_rc 0 "$RB" create m --region-size 512K --log-dev "$lg" --policy pid "$a" "$b"
out_line "m: log disk on lg \\($L\\), regions of 512 KiB \\(1024 sectors\\); [0-9]+/32 regions in sync.*"
[[ $(dmsetup table m) == "$head pid 0 4 region_size 1024 log_dev $L" ]] || die "dmsetup table m: $(dmsetup table m)"
rb_wait_sync m 60
expect_rc 0 "$RB" status m
out_line "log: disk on lg \\($L\\), regions of 512 KiB \\(1024 sectors\\)"
out_line "resync: 32/32 regions in sync \\(100.0%\\).*"
expect_rc 0 "$RB" status m --json
[[ $(jq -r '"\(.log.type) \(.log.dev) \(.log.name) \(.log.region_size) \(.log.flag) \(.sync.regions)"' <<<"$OUT") == "disk $L lg 1024 null 32" ]] ||
	die "status --json log: $OUT"
# the log device is in use now
expect_rc 2 "$RB" table --log-dev "$lg" "$n" "$lg2"
err_has "$lg is held by dm-"
expect_rc 2 "$RB" replace m 1 "$lg"
err_has "$lg is the log device of m (log_dev $L)"

# --- replace keeps the log features
echo "== replace keeps the log features (${SECONDS}s)"
dd if=/dev/urandom of=/dev/mapper/m bs=1M count=8 oflag=direct status=none
expect_rc 0 "$RB" replace m 1 "$n"
[[ $ERR != *"leaves out"* ]] || die "replace dropped a flag that was not there"
table=$(dmsetup table m)
[[ $table == "0 32768 readbal 2 $(devnum "$a") 0 $(devnum "$n") 0 pid 0 "@(6 rebuild 1 |4 )"region_size 1024 log_dev $L" ]] ||
	die "table after replace: $table"
rb_wait_sync m 60
cmp "$a" "$n" || die "the new leg lacks the data"
expect_rc 0 "$RB" remove m

# --- the disk log is resumed at re-creation, and must be this mirror's
echo "== the disk log is resumed at re-creation, and must be this mirror's (${SECONDS}s)"
expect_rc 0 "$RB" create m -R 1024 --log-dev "$lg" "$a" "$n"
out_line "m: log .*; 32/32 regions in sync"
[[ $ERR != *"no dirty region log yet"* ]] || die "the log was not found again"
expect_rc 0 "$RB" remove m
expect_rc 2 "$RB" create m --log-dev "$lg" "$a" "$n"
err_has "--log-dev $lg holds a dirty region log of 32 regions, this mirror has 16"
err_has "Give the --region-size it was made with, --sync to start a new log"
no_readbal_device

# --- --assume-clean with a disk log: nosync for this activation only
echo "== --assume-clean with a disk log (${SECONDS}s)"
dd if=/dev/urandom of="$b" bs=1M count=1 oflag=direct status=none
expect_rc 0 "$RB" create m --assume-clean --log-dev "$lg" --policy pid "$a" "$b"
out_line "m: log disk on lg \\($L\\), regions of 1 MiB \\(2048 sectors\\); 16/16 regions in sync"
[[ $(dmsetup table m) == "$head pid 0 2 log_dev $L" ]] || die "nosync kept: $(dmsetup table m)"
! cmp -s -n 1048576 "$a" "$b" || die "--assume-clean copied"
expect_rc 0 "$RB" remove m
# later activations go by the log: still in sync, nothing copied
expect_rc 0 "$RB" create m --log-dev "$lg" "$a" "$b"
out_line "m: log .*; 16/16 regions in sync"
expect_rc 0 "$RB" remove m

# --- --sync with a disk log: a new log, every region copied, then by the log
echo "== --sync with a disk log (${SECONDS}s)"
expect_rc 0 "$RB" create m --sync --log-dev "$lg" --policy pid "$a" "$b"
[[ $(dmsetup table m) == "$head pid 0 2 log_dev $L" ]] || die "sync kept: $(dmsetup table m)"
rb_wait_sync m 60
cmp "$a" "$b" || die "--sync did not copy"
expect_rc 0 "$RB" remove m

# --- a core log: sync stays in the table until every region is in sync
echo "== a core log (${SECONDS}s)"
expect_rc 0 "$RB" create c --sync -R 4M --policy pid "$a" "$b"
out_line "c: log core \\(in memory\\), regions of 4 MiB \\(8192 sectors\\); sync: every region is copied at activation.*"
[[ $(dmsetup table c) == "$head pid 0 3 region_size 8192 sync" ]] || die "core sync: $(dmsetup table c)"
rb_wait_sync c 60
expect_rc 0 "$RB" replace c 1 "$n"
err_has "c: the new table leaves out 'sync', which would copy every region again: every region is in sync"
read -ra t <<<"$(dmsetup table c)"
[[ " ${t[*]} " == *" region_size 8192 "* && " ${t[*]} " != *" sync "* ]] || die "table after replace: ${t[*]}"
expect_rc 0 "$RB" remove c
expect_rc 0 "$RB" create c --assume-clean --policy pid "$a" "$b"
[[ $(dmsetup table c) == "$head pid 0 1 nosync" ]] || die "core nosync: $(dmsetup table c)"
expect_rc 0 "$RB" remove c
no_readbal_device
echo "56-tool-log: ok"
