# shellcheck shell=bash
# Emulated disks for guest tests and benchmarks: named null_blk devices made
# through configfs, reachable as /dev/rb/NAME (a symlink to the kernel's node:
# /dev/NAME on Debian's 6.1, which names the disk after the configfs dir;
# /dev/nullbN elsewhere). Source it in a guest script.
#
#   dev=$(rb_disk NAME PROFILE [key=value ...])   # prints /dev/rb/NAME
#   rb_disk_set NAME key=value ...                 # live changes
#   rb_disk_rm NAME ; rb_disks_rm_all
#
# Profiles, scaled to the TCG guest (its CPU tops out near 230 MiB/s buffered
# and 20-30k IOPS, so every leg stays well below that and the disks, not the
# emulator, set the pace):
#
#   profile  rotational  mbps (MiB/s)  latency_us  queue_depth  irqmode
#   hdd      1           25            2000        4            2 (timer)
#   ssd      0           75            200         32           2 (timer)
#   nvme     0           120           50          64           2 (timer)
#   ram      0           0 (no cap)    0           64           0 (none)
#   remote   0           40            5000        32           2 (timer)
#
# The benchmark runs these kinds at about half the bandwidth (bench/rbbench/plan.py,
# LEG_MBPS): one buffered reader is one fio thread, which copies only
# 80-170 MiB/s in this guest.
#
# null_blk has no seek model: "hdd" is a slow, shallow-queued disk flagged
# rotational, not a disk whose cost depends on head position.
#
# Keys (rb_disk): size (MB, default 256), latency_us (0 = complete inline),
# mbps (0 = no cap), rotational (0/1), queue_depth, blocksize (default 512),
# max_sectors (largest request in 512-byte sectors; 0 = null_blk's default,
# 255 on 6.1, so a 4 KiB-aligned 128 KiB read goes out as 255 + 1; the
# benchmark's legs take 256, LEG_MAX_SECTORS in bench/rbbench/plan.py),
# badblocks (sector ranges "S-E[,S-E...]", reads and writes there fail with
# EIO). rb_disk_set takes rotational and badblocks; there a range may carry
# a sign: "+S-E" adds (the default), "-S-E" clears.

RB_NULLB_CFS=/sys/kernel/config/nullb
RB_DISK_DIR=/dev/rb

_rb_err() { echo "disks.sh: $*" >&2; return 1; }

# Sets the profile's defaults in the caller's locals.
_rb_profile() {
	case $1 in
	hdd) rotational=1 mbps=25 latency_us=2000 queue_depth=4 ;;
	ssd) rotational=0 mbps=75 latency_us=200 queue_depth=32 ;;
	nvme) rotational=0 mbps=120 latency_us=50 queue_depth=64 ;;
	ram) rotational=0 mbps=0 latency_us=0 queue_depth=64 ;;
	remote) rotational=0 mbps=40 latency_us=5000 queue_depth=32 ;;
	*) _rb_err "unknown profile '$1' (hdd ssd nvme ram remote)" ;;
	esac
}

# bash reports why a write failed (EBUSY, EINVAL...); this says what it was.
_rb_cfs_write() { # ATTR-PATH VALUE
	echo "$2" >"$1" || _rb_err "cannot write '$2' to $1"
}

# Writes each comma-separated range to the badblocks attribute; a bare
# "S-E" means add.
_rb_badblocks() { # CFS-DIR RANGES
	local r
	local -a ranges
	IFS=, read -ra ranges <<<"$2"
	for r in "${ranges[@]}"; do
		[[ $r == [+-]* ]] || r=+$r
		[[ $r =~ ^[+-][0-9]+-[0-9]+$ ]] || _rb_err "bad badblocks range '$r'" || return
		_rb_cfs_write "$1/badblocks" "$r" || return
	done
}

# Prints the kernel disk name behind NAME: Debian's 6.1 names the disk after
# its configfs dir (NAME), older kernels nullbN by index.
rb_disk_kname() {
	local idx
	read -r idx 2>/dev/null <"$RB_NULLB_CFS/$1/index" || _rb_err "no disk '$1'" || return
	if [[ -e /sys/block/$1 ]]; then
		echo "$1"
	else
		echo "nullb$idx"
	fi
}

# Writes the attributes from rb_disk's locals, then powers the disk on.
_rb_configure() { # CFS-DIR
	local attr
	for attr in size="$size" blocksize="$blocksize" memory_backed=1 \
		irqmode="$irqmode" completion_nsec="$nsec" mbps="$mbps" \
		hw_queue_depth="$queue_depth" max_sectors="$max_sectors"; do
		_rb_cfs_write "$1/${attr%%=*}" "${attr#*=}" || return
	done
	if [[ -n $badblocks ]]; then
		_rb_badblocks "$1" "$badblocks" || return
	fi
	_rb_cfs_write "$1/power" 1
}

rb_disk() { # NAME PROFILE [key=value ...]
	local name=${1:?rb_disk NAME PROFILE [key=value ...]} profile=${2:?profile}
	shift 2
	local rotational mbps latency_us queue_depth size=256 blocksize=512
	local max_sectors=0
	local badblocks='' kv key val
	[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || _rb_err "bad disk name '$name'" || return
	# The kernel may name the disk NAME: it must not clash with a device.
	[[ ! -e /sys/block/$name && ! -e /dev/$name ]] ||
		_rb_err "disk name '$name' clashes with an existing device" || return
	_rb_profile "$profile" || return
	for kv in "$@"; do
		key=${kv%%=*} val=${kv#*=}
		[[ $kv == *=* ]] || _rb_err "expected key=value, got '$kv'" || return
		case $key in
		size | latency_us | mbps | rotational | queue_depth | blocksize | max_sectors)
			[[ $val =~ ^[0-9]+$ ]] || _rb_err "$key must be a number" || return
			printf -v "$key" %s "$val"
			;;
		badblocks) badblocks=$val ;;
		*) _rb_err "unknown key '$key'" || return ;;
		esac
	done

	[[ -d $RB_NULLB_CFS ]] || modprobe null_blk nr_devices=0 ||
		_rb_err "null_blk/configfs not available" || return
	local d=$RB_NULLB_CFS/$name
	[[ ! -e $d ]] || _rb_err "disk '$name' exists" || return
	mkdir "$d" || return
	local irqmode=0 nsec=0
	if ((latency_us > 0)); then
		irqmode=2 nsec=$((latency_us * 1000))
	fi
	if ! _rb_configure "$d"; then
		rmdir "$d" 2>/dev/null
		return 1
	fi

	local kname i
	kname=$(rb_disk_kname "$name") || return
	# rotational is reset when the queue is made: set it after power=1.
	_rb_cfs_write "/sys/block/$kname/queue/rotational" "$rotational" || return
	# devtmpfs makes the node asynchronously.
	for ((i = 0; i < 100; i++)); do
		[[ -b /dev/$kname ]] && break
		sleep 0.05
	done
	[[ -b /dev/$kname ]] || _rb_err "/dev/$kname did not appear" || return
	[[ -d $RB_DISK_DIR ]] || mkdir -p "$RB_DISK_DIR"
	ln -sfn "/dev/$kname" "$RB_DISK_DIR/$name"
	echo "$RB_DISK_DIR/$name"
}

rb_disk_set() { # NAME key=value ...
	local name=${1:?rb_disk_set NAME key=value ...} kv kname
	shift
	local d=$RB_NULLB_CFS/$name
	kname=$(rb_disk_kname "$name") || return
	for kv in "$@"; do
		case ${kv%%=*} in
		rotational) _rb_cfs_write "/sys/block/$kname/queue/rotational" "${kv#*=}" || return ;;
		badblocks) _rb_badblocks "$d" "${kv#*=}" || return ;;
		*) _rb_err "cannot change '${kv%%=*}' on a live disk (remove and remake it)" || return ;;
		esac
	done
}

rb_disk_rm() { # NAME
	local d=$RB_NULLB_CFS/${1:?rb_disk_rm NAME}
	[[ -d $d ]] || _rb_err "no disk '$1'" || return
	local power
	read -r power <"$d/power" || return
	if [[ $power == 1 ]]; then
		_rb_cfs_write "$d/power" 0 || return
	fi
	rmdir "$d" || return
	if [[ -L $RB_DISK_DIR/$1 ]]; then rm -f "$RB_DISK_DIR/$1"; fi
}

# Removes every configfs null_blk device, including ones not made here.
rb_disks_rm_all() {
	local d rc=0
	[[ -d $RB_NULLB_CFS ]] || return 0
	for d in "$RB_NULLB_CFS"/*/; do
		[[ -d $d ]] || continue
		rb_disk_rm "$(basename "$d")" || rc=1
	done
	if [[ -d $RB_DISK_DIR ]]; then rm -rf "$RB_DISK_DIR"; fi
	return $rc
}

# rb_dust_leg DISK DUST MB: a ram disk DISK of MB MiB under a dm-dust
# device DUST, whose bad blocks (512 bytes) fail reads until rewritten, as
# a disk's bad sector does; quiet, not yet enabled.  Prints DUST's path.
# dm-dust is built from Debian's linux-source by tests/modules/build.
rb_dust_leg() {
	local disk=${1:?rb_dust_leg DISK DUST MB} dust=${2:?dust} mb=${3:?MB} d
	insmod "${RB_DUST_KO:-$RB_CACHE/modules/$RB_KVER/dm-dust.ko}" 2>/dev/null || true
	dmsetup targets | grep -q '^dust' ||
		_rb_err "dm-dust missing: run tests/modules/build on the host" || return
	d=$(rb_disk "$disk" ram size="$mb") || return
	dm_create "$dust" "0 $(rb_sectors "$d") dust $d 0 512" >/dev/null || return
	dmsetup message "$dust" 0 quiet || return
	dm_dev "$dust"
}
