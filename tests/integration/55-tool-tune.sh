#!/usr/bin/env bash
# readbal tune: a knob swept over values with a short fio job each, one row
# per value and the best one; the policy restored afterwards (or the best
# kept with --apply-best); refused values, knobs and job files.
# vm-timeout: 300
set -euo pipefail
source tests/lib/common.sh
source tests/lib/disks.sh
source tools/test-lib.sh

h0=$(rb_disk h0 hdd size=64)
h1=$(rb_disk h1 hdd size=64)
s0=$(rb_disk s0 ssd size=64)
expect_rc 0 "$RB" create t --policy roundrobin rot_nonlocal_inc=4 "$h0" "$h1" "$s0"
table=$(dmsetup table t)
cat >/tmp/rb-job.fio <<'JOB'
[global]
direct=1
ioengine=libaio
time_based
runtime=1
[randread]
rw=randread
bs=4k
iodepth=4
JOB

expect_rc 0 "$RB" tune t --knob rot_nonlocal_inc --values 0..2 --fio /tmp/rb-job.fio
out_line 'tune t: knob rot_nonlocal_inc of policy roundrobin, fio job /tmp/rb-job.fio on /dev/dm-[0-9]+'
for v in 0 1 2; do out_line "$v +[0-9.]+ +0\\.0 +[0-9.]+ +[0-9]+ +0  [0-9]+/[0-9]+/[0-9]+"; done
out_line 'best: rot_nonlocal_inc=[012] \([0-9.]+ MiB/s read\+write\)'
[[ $(dmsetup table t) == "$table" ]] || die "tune did not restore the knobs: $(dmsetup table t)"
# some row read at a real rate
awk '$1 ~ /^[012]$/ && $2 + 0 > 0 { ok = 1 } END { exit !ok }' <<<"$OUT" || die "no bandwidth measured"

# Another policy's knob, a list with a step, the best value kept.
expect_rc 0 "$RB" tune t --policy round-robin --knob min_contig_read --values 4096..12288:4096 \
	--fio /tmp/rb-job.fio --metric read --apply-best
out_line 'best: min_contig_read=(4096|8192|12288) \([0-9.]+ MiB/s read\)'
best=$(sed -nE 's/^best: min_contig_read=([0-9]+) .*/\1/p' <<<"$OUT")
read -ra t <<<"$(dmsetup table t)"
[[ ${t[10]} == round-robin && ${t[12]} == min_contig_read && ${t[13]} == "$best" ]] || die "--apply-best: ${t[*]}"
expect_rc 0 "$RB" policy t roundrobin rot_nonlocal_inc=4

# A value the kernel refuses: its row says so, the others run, exit 3.
expect_rc 3 "$RB" tune t --knob nonlocal_inc_mixed_only --value 1 --value 7 --fio /tmp/rb-job.fio
out_line '7 +refused by the kernel \(see above\)'
out_line '1 +[0-9.]+ .*'
err_has "the kernel refused the message 'set nonlocal_inc_mixed_only 7'"
[[ $(dmsetup table t) == "$table" ]] || die "tune did not restore the knobs after a refusal"

# Refusals before anything runs.
expect_rc 1 "$RB" tune t --knob speed --values 1 --fio /tmp/rb-job.fio
err_has "policy roundrobin has no knob 'speed'"
expect_rc 1 "$RB" tune t --knob rot_nonlocal_inc --values 3..1 --fio /tmp/rb-job.fio
expect_rc 1 "$RB" tune t --knob rot_nonlocal_inc --fio /tmp/rb-job.fio
expect_rc 1 "$RB" tune t --knob rot_nonlocal_inc --values 1
expect_rc 1 "$RB" tune t --knob rot_nonlocal_inc --values 1 --fio /tmp/no-such.fio
printf '[x]\nfilename=/dev/rb/h0\nrw=read\n' >/tmp/rb-bad.fio
expect_rc 1 "$RB" tune t --knob rot_nonlocal_inc --values 1 --fio /tmp/rb-bad.fio
err_has "/tmp/rb-bad.fio:2 sets filename: fio would not run on the readbal device"
expect_rc 1 "$RB" tune t --policy fastest --knob x --values 1 --fio /tmp/rb-job.fio
# a job that fails: fio's exit is reported, the knobs restored
printf '[x]\nrw=read\nbs=4k\nioengine=nosuchengine\n' >/tmp/rb-fail.fio
expect_rc 2 "$RB" tune t --knob rot_nonlocal_inc --values 1 --fio /tmp/rb-fail.fio
err_has "fio failed on /dev/dm-"
[[ $(dmsetup table t) == "$table" ]] || die "tune did not restore the knobs after fio failed"
expect_rc 0 "$RB" remove t
no_readbal_device
echo "55-tool-tune: ok"
