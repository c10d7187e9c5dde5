# shellcheck shell=bash
# hdd-seek disks for guest scripts: an nbdkit memory disk behind the seek
# filter (tools/nbdkit-seek: one head, seek by distance, rotation, zoned
# media rate, one request at a time), served to the kernel's nbd over a unix
# socket and flagged rotational. Reachable as /dev/rb/NAME, like the
# null_blk disks of tests/lib/disks.sh. Source it in a guest script.
#
#   dev=$(rb_seek_disk NAME [size=MB] [seek-KEY=VALUE ...])  # /dev/rb/NAME
#   rb_seek_disk_rm NAME ; rb_seek_disks_rm_all
#
# seek-* keys go to the filter (seek-full=15000 ...: see
# tools/nbdkit-seek/seek.c); the defaults are rbsim's hdd-seek (7200 rpm,
# 25 -> 12.5 MiB/s, seek 1 -> 15 ms, read-ahead 256 KiB in 4 segments),
# except where RB_SEEK_ARGS (the benchmark's calibration) says otherwise.
# The filter's statistics land in $RB_SEEK_DIR/NAME.stats when the disk is
# removed.

RB_SEEK_FILTER=${RB_SEEK_FILTER:-$RB_REPO/tools/nbdkit-seek/nbdkit-seek-filter.so}
RB_SEEK_DIR=${RB_SEEK_DIR:-/run/rb-seek}
RB_SEEK_ARGS=${RB_SEEK_ARGS:-}

_rb_seek_err() { echo "seekdisk.sh: $*" >&2; return 1; }

# The first free /dev/nbdN (no pid file: not connected).
_rb_seek_free_nbd() {
	local n
	for n in /sys/block/nbd*; do
		[[ -e $n/pid ]] && continue
		[[ -e $RB_SEEK_DIR/${n##*/}.busy ]] && continue
		echo "${n##*/}"
		return 0
	done
	return 1
}

rb_seek_disk() { # NAME [size=MB] [seek-KEY=VALUE ...]
	local name=${1:?rb_seek_disk NAME [size=MB] [seek-KEY=VALUE ...]}
	shift
	local size=256 kv nbd i
	local -a fargs=()
	# shellcheck disable=SC2206 # word splitting is the point
	local -a defaults=($RB_SEEK_ARGS)
	for kv in "${defaults[@]}" "$@"; do
		case $kv in
		size=*) size=${kv#size=} ;;
		seek-*=*) fargs+=("$kv") ;;
		*) _rb_seek_err "unknown key '$kv'" || return ;;
		esac
	done
	[[ -f $RB_SEEK_FILTER ]] || _rb_seek_err "no $RB_SEEK_FILTER (make -C tools/nbdkit-seek)" || return
	[[ -e /sys/block/nbd0 ]] || modprobe nbd nbds_max=16 || _rb_seek_err "no nbd module" || return
	mkdir -p "$RB_SEEK_DIR" /dev/rb
	[[ ! -e /dev/rb/$name ]] || _rb_seek_err "disk '$name' exists" || return
	nbd=$(_rb_seek_free_nbd) || _rb_seek_err "no free nbd device" || return
	: >"$RB_SEEK_DIR/$nbd.busy"
	local sock=$RB_SEEK_DIR/$name.sock
	rm -f "$sock"
	nbdkit -U "$sock" -P "$RB_SEEK_DIR/$name.pid" --filter="$RB_SEEK_FILTER" \
		memory "size=${size}M" "seek-stats=$RB_SEEK_DIR/$name.stats" "${fargs[@]}" ||
		_rb_seek_err "nbdkit failed" || return
	# nbd-client: newstyle over the unix socket, 512-byte blocks like null_blk.
	nbd-client -unix "$sock" "/dev/$nbd" -b 512 >"$RB_SEEK_DIR/$name.client" 2>&1 ||
		_rb_seek_err "nbd-client failed: $(<"$RB_SEEK_DIR/$name.client")" || return
	for ((i = 0; i < 100; i++)); do
		[[ -e /sys/block/$nbd/pid && -b /dev/$nbd ]] && break
		sleep 0.05
	done
	[[ -e /sys/block/$nbd/pid ]] || _rb_seek_err "/dev/$nbd did not connect" || return
	# 6.1's nbd marks itself non-rotational whatever the server says.
	echo 1 >"/sys/block/$nbd/queue/rotational"
	echo "$nbd" >"$RB_SEEK_DIR/$name.nbd"
	ln -sfn "/dev/$nbd" "/dev/rb/$name"
	echo "/dev/rb/$name"
}

rb_seek_disk_rm() { # NAME
	local name=${1:?rb_seek_disk_rm NAME} nbd pid i
	[[ -f $RB_SEEK_DIR/$name.nbd ]] || _rb_seek_err "no seek disk '$name'" || return
	read -r nbd <"$RB_SEEK_DIR/$name.nbd"
	nbd-client -d "/dev/$nbd" >/dev/null 2>&1
	if read -r pid 2>/dev/null <"$RB_SEEK_DIR/$name.pid"; then
		kill "$pid" 2>/dev/null
		# nbdkit writes the filter's statistics as it exits.
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.05
		done
	fi
	rm -f "/dev/rb/$name" "$RB_SEEK_DIR/$name.nbd" "$RB_SEEK_DIR/$name.pid" \
		"$RB_SEEK_DIR/$name.sock" "$RB_SEEK_DIR/$nbd.busy"
}

rb_seek_disks_rm_all() {
	local f rc=0
	for f in "$RB_SEEK_DIR"/*.nbd; do
		[[ -e $f ]] || continue
		f=${f##*/}
		rb_seek_disk_rm "${f%.nbd}" || rc=1
	done
	return $rc
}
