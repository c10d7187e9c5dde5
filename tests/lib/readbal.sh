# shellcheck shell=bash
# Guest helpers for readbal devices: table lines and status fields.
# Status INFO (docs/readbal.rst):
#   <#legs> <#leg fields> {<dev> <state> <inflight> <reads> <read sectors>
#   <avg read us> <head> <read errors> <corrected> <uncorrected>
#   <write errors>}... <policy> <#args> {<knob> <value>}...
#   <in-sync>/<total regions> <max_read_errors>

# rb_table SECTORS POLICY "KNOB VALUE..." DEV...: a readbal table line.
rb_table() {
	local sectors=$1 policy=$2 args=$3 dev nargs=0 line
	shift 3
	line="0 $sectors readbal $#"
	for dev in "$@"; do line+=" $dev 0"; done
	[ -n "$args" ] && nargs=$(wc -w <<<"$args")
	line+=" $policy $nargs${args:+ $args}"
	echo "$line"
}

# rb_sectors DEV: size of a block device in 512-byte sectors.
rb_sectors() { blockdev --getsz "$1"; }

# rb_status NAME: the status INFO line's parameters (after "start len readbal").
rb_status() { dmsetup status "$1" | cut -d' ' -f4-; }

# rb_leg_field NAME LEG FIELD: field FIELD (0 = dev .. 10 = write errors) of leg LEG.
rb_leg_field() {
	rb_status "$1" | awk -v leg="$2" -v f="$3" '{ print $(3 + leg * $2 + f) }'
}
rb_leg_reads() { rb_leg_field "$1" "$2" 3; }
rb_leg_state() { rb_leg_field "$1" "$2" 1; }
rb_leg_inflight() { rb_leg_field "$1" "$2" 2; }
rb_leg_read_errors() { rb_leg_field "$1" "$2" 7; }
rb_leg_corrected() { rb_leg_field "$1" "$2" 8; }
rb_leg_uncorrected() { rb_leg_field "$1" "$2" 9; }
rb_leg_write_errors() { rb_leg_field "$1" "$2" 10; }

# rb_sync NAME: "<in-sync>/<total>" regions.
rb_sync() { rb_status "$1" | awk '{ n = 3 + $1 * $2; print $(n + 2 + $(n + 1)) }'; }

# rb_wait_sync NAME [SECONDS]: wait until every region is in sync.
rb_wait_sync() {
	local i s
	for ((i = 0; i < ${2:-120} * 10; i++)); do
		s=$(rb_sync "$1")
		[ "${s%/*}" = "${s#*/}" ] && ! rb_status "$1" | grep -q ' a ' && return 0
		sleep 0.1
	done
	echo "resync of $1 not done: $(rb_status "$1")" >&2
	return 1
}

# rb_policy_of NAME: "<policy> <#args> <knob> <value>..." from status.
rb_policy_of() { rb_status "$1" | awk '{ n = 3 + $1 * $2; e = n + 1 + $(n + 1); for (i = n; i <= e; i++) printf "%s%s", $i, (i < e ? " " : "\n") }'; }

# rb_read_direct DEV MB [SKIP_MB]: read MB MiB with O_DIRECT.
rb_read_direct() { dd if="$1" of=/dev/null bs=1M count="$2" skip="${3:-0}" iflag=direct status=none; }

# fio_verify_until FLAG DEV SIZE RW [FIO OPTION...]: in the background, fio
# writes and verifies DEV (direct, QD16) run after run until file FLAG
# exists; a failed run ends it with fio's output. Then: wait $!.
fio_verify_until() {
	local flag=$1 dev=$2 size=$3 rw=$4 out
	shift 4
	rm -f "$flag"
	out=$(mktemp)
	(
		runs=0
		while [ ! -e "$flag" ]; do
			fio --name=v --filename="$dev" --size="$size" --rw="$rw" \
				--direct=1 --ioengine=libaio --iodepth=16 \
				--verify=crc32c --verify_backlog=32 --verify_fatal=1 \
				--output-format=terse "$@" >"$out" 2>&1 ||
				{ echo "fio run $runs failed:"; cat "$out"; exit 1; }
			runs=$((runs + 1))
		done
		echo "fio: $runs verified runs"
	) &
}

# rb_legs_same SECTORS DEV...: the first SECTORS of every DEV equal the
# first's; says which differ. Each cmp is bounded: a null_blk queue once
# stalled a read of the raw legs for a test's whole timeout
# (13-switch-under-load.sh).
rb_legs_same() {
	local s=$1 first=$2 d rc=0
	shift 2
	for d in "$@"; do
		timeout -k 10 120 cmp -n $((s * 512)) "$first" "$d" ||
			{ echo "FAIL: $first and $d differ (or cmp stalled)"; rc=1; }
	done
	return $rc
}

# rb_messages_run SEED COUNT POLICY DISK...: a mirror (POLICY) of the DISKs,
# COUNT random and mutated messages to it (tests/lib/dm-fuzz) while fio
# writes and verifies; then every leg must be in service and the legs
# identical. Returns 1 with FAIL lines, or 0.
rb_messages_run() {
	local seed=$1 count=$2 policy=$3 s l fio_pid rc=0
	shift 3
	s=$(rb_sectors "$1")
	dm_create fz "$(rb_table "$s" "$policy" "" "$@")"
	fio_verify_until /tmp/fuzz-done "$(dm_dev fz)" 24M randrw --bsrange=4k-1m
	fio_pid=$!
	sleep 2	# let fio get going
	tests/lib/dm-fuzz messages --seed "$seed" --count "$count" --sectors "$s" fz || rc=1
	touch /tmp/fuzz-done
	wait "$fio_pid" || { echo "FAIL: fio beside the messages to $policy"; rc=1; }
	for ((l = 0; l < $#; l++)); do
		[ "$(rb_leg_state fz $l)" = A ] ||
			{ echo "FAIL: leg $l not in service: $(rb_status fz)"; rc=1; }
	done
	dm_remove fz
	rb_legs_same "$s" "$@" || rc=1
	return $rc
}

# rb_faults_run [--log DEV] SEED STEPS DISK...: a mirror (adaptive; with a
# disk log on DEV) of linear dm legs over the DISKs, random faults and
# repairs on it (tests/lib/dm-faults) while fio writes and verifies; then
# the legs must be identical. Fails the script.
rb_faults_run() {
	local seed steps i=0 d s fio_pid legs=() feats=""
	if [ "$1" = --log ]; then
		feats=" 4 region_size 256 log_dev $2"
		# a new log: the table fuzz may have left another one there
		dd if=/dev/zero of="$2" bs=1M count=1 oflag=direct status=none
		shift 2
	fi
	seed=$1 steps=$2
	shift 2
	for d in "$@"; do
		dm_create "fleg$i" "0 $(rb_sectors "$d") linear $d 0"
		legs+=("$(dm_dev "fleg$i")")
		i=$((i + 1))
	done
	s=$(rb_sectors "${legs[0]}")
	dm_create fm "$(rb_table "$s" adaptive "" "${legs[@]}")$feats"
	fio_verify_until /tmp/faults-done "$(dm_dev fm)" 24M randrw --bsrange=4k-256k
	fio_pid=$!
	tests/lib/dm-faults --seed "$seed" --steps "$steps" --sectors "$s" fm "${legs[@]}" ||
		{ touch /tmp/faults-done; wait "$fio_pid"; die "dm-faults: see above"; }
	touch /tmp/faults-done
	wait "$fio_pid" || die "fio saw an error or wrong data beside the faults"
	dm_remove fm
	rb_legs_same "$s" "${legs[@]}" || die "the legs differ after the faults"
	for ((i = 0; i < ${#legs[@]}; i++)); do dm_remove "fleg$i"; done
}
