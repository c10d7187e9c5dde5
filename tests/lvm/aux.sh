# shellcheck shell=bash
# LVM guest tests (tests/integration/6*-lvm-*.sh) in the style of lvm2's own
# test suite (test/lib/aux.sh and check.sh): PVs are dm-linear devices
# "LVMTESTpvN" over emulated disks, so a fault is a table swap on a PV; the
# test gets its own lvm.conf, whose filter sees only devices named LVMTEST*
# (not the disks under the PVs, which would show as duplicate PVs).
# Sourced by tests/lvm/inittest (after tests/lib/common.sh, disks.sh and
# readbal.sh), which every LVM test sources first:
#
#   aux prepare_devs N [SIZE_MB [PROFILE[,PROFILE...]]]  dev1..devN (and DEVICES)
#   aux prepare_vg [VG [N]]         vgcreate -s 1M VG over dev1..devN ($vg)
#   aux lvmconf 'section/key = value'...   set in the test's lvm.conf
#   aux error_dev DEV [START:LEN]   DEV's table becomes error (or only that
#                                   sector range); DEV may be dev1 or a path
#   aux delay_dev DEV MS            every I/O of DEV delayed by MS
#   aux enable_dev DEV              DEV's own table again
#   aux teardown                    the test's files (trap EXIT); the harness
#                                   removes the devices
#   get lv_field|vg_field|pv_field OBJ FIELD   the value, sizes in sectors
#   check lv_field|vg_field|pv_field OBJ FIELD VALUE
#   check legs_equal SECTORS DEV...  the devices hold the same first SECTORS
# Every lvm command costs 0.5-2 s in the TCG guest: use few.

PREFIX=LVMTEST
AUX_DIR=/tmp/lvmtest.$$
vg=${vg:-${PREFIX}vg}
DEVICES=()
# shellcheck disable=SC2034 # dev1..devN are set here for the tests
dev1='' dev2='' dev3='' dev4=''

aux() { "aux_$1" "${@:2}"; }
get() { "get_$1" "${@:2}"; }
check() { "check_$1" "${@:2}"; }

# The test's lvm.conf: the guest's (no udev, no daemons) with the test's
# settings in place of the guest's lines for the same keys. Builtins only:
# an exec costs 0.1-1 s in the guest.
AUX_KEYS=()
declare -A AUX_CONF=()
_aux_write_conf() {
	local line k out='' sec key
	local -a base
	mapfile -t base <"$RB_REPO/tests/vm/lvm/lvm.conf"
	for line in "${base[@]}"; do
		k=${line#"${line%%[![:space:]]*}"}
		[[ $k == *=* && $k != \#* ]] || { out+=$line$'\n' && continue; }
		k=${k%%[[:space:]=]*}
		for key in "${AUX_KEYS[@]}"; do
			[[ ${key#*/} == "$k" ]] && continue 2
		done
		out+=$line$'\n'
	done
	for key in "${AUX_KEYS[@]}"; do
		sec=${key%%/*}
		out+="$sec {"$'\n\t'"${key#*/} = ${AUX_CONF[$key]}"$'\n}\n'
	done
	printf '%s' "$out" >"$AUX_DIR/etc/lvm.conf"
}

aux_lvmconf() { # 'section/key = value'...
	local s key
	for s in "$@"; do
		key=${s%%=*}
		key=${key%"${key##*[![:space:]]}"}
		[[ -n ${AUX_CONF[$key]+set} ]] || AUX_KEYS+=("$key")
		AUX_CONF[$key]=${s#*= }
	done
	_aux_write_conf
}

_aux_init() {
	mkdir -p "$AUX_DIR/etc" "$AUX_DIR/tables"
	export LVM_SYSTEM_DIR=$AUX_DIR/etc
	# Backups on (in the test's dir): without them every change warns.
	aux_lvmconf 'devices/global_filter = [ "a|^/dev/mapper/LVMTEST|", "r|.*|" ]' \
		'devices/hints = "none"' 'devices/scan_lvs = 0' 'backup/backup = 1' \
		"backup/backup_dir = \"$AUX_DIR/etc/backup\""
}

# A path for dev1 / LVMTESTpv1 / /dev/mapper/X; prints the dm name.
_aux_name() {
	local d=$1
	[[ $d == dev[0-9]* ]] && d=${!d}
	d=${d#/dev/mapper/}
	echo "$d"
}

aux_prepare_devs() { # N [SIZE_MB [PROFILES]]
	local n=$1 size=${2:-48} i disk
	local -a profiles
	IFS=, read -ra profiles <<<"${3:-ram}"
	for ((i = 1; i <= n; i++)); do
		disk=$(rb_disk "lvmtestd$i" "${profiles[(i - 1) % ${#profiles[@]}]}" size="$size") || return
		dm_create "${PREFIX}pv$i" "0 $(rb_sectors "$disk") linear $disk 0" || return
		printf -v "dev$i" %s "/dev/mapper/${PREFIX}pv$i"
		DEVICES+=("/dev/mapper/${PREFIX}pv$i")
	done
}

aux_prepare_vg() { # [VG [N]]
	vg=${1:-$vg}
	pvcreate -q "${DEVICES[@]:0:${2:-${#DEVICES[@]}}}" >/dev/null &&
		vgcreate -q -s 1M "$vg" "${DEVICES[@]:0:${2:-${#DEVICES[@]}}}" >/dev/null
}

# Replaces DEV's table (load + resume, as lvm2's aux does); the first
# swap keeps DEV's own table for enable_dev.
_aux_swap() { # DEV TABLE
	local name
	name=$(_aux_name "$1")
	[[ -f $AUX_DIR/tables/$name ]] || dmsetup table "$name" >"$AUX_DIR/tables/$name" || return
	printf '%s\n' "$2" | dmsetup --noudevsync load "$name" &&
		dmsetup --noudevsync resume "$name"
}

aux_error_dev() { # DEV [START:LEN]
	local name len t s l
	name=$(_aux_name "$1")
	len=$(blockdev --getsz "/dev/mapper/$name") || return
	if [[ -z ${2:-} ]]; then
		t="0 $len error"
	else
		s=${2%:*} l=${2#*:}
		# The rest still maps to the disk under the PV (the first table).
		local orig
		[[ -f $AUX_DIR/tables/$name ]] && orig=$(<"$AUX_DIR/tables/$name") ||
			orig=$(dmsetup table "$name")
		local -a o
		read -ra o <<<"$orig"
		[[ ${o[2]} == linear ]] || { echo "aux: error_dev with a range needs a linear $name" >&2 && return 1; }
		t=''
		((s > 0)) && t+="0 $s linear ${o[3]} ${o[4]}"$'\n'
		t+="$s $l error"
		((s + l < len)) && t+=$'\n'"$((s + l)) $((len - s - l)) linear ${o[3]} $((o[4] + s + l))"
	fi
	_aux_swap "$name" "$t"
}

aux_delay_dev() { # DEV MS
	local name orig
	local -a o
	name=$(_aux_name "$1")
	[[ -f $AUX_DIR/tables/$name ]] && orig=$(<"$AUX_DIR/tables/$name") || orig=$(dmsetup table "$name")
	read -ra o <<<"$orig"
	_aux_swap "$name" "0 ${o[1]} delay ${o[3]} ${o[4]} $2"
}

aux_enable_dev() { # DEV
	local name
	name=$(_aux_name "$1")
	[[ -f $AUX_DIR/tables/$name ]] || return 0
	_aux_swap "$name" "$(<"$AUX_DIR/tables/$name")" &&
		rm -f "$AUX_DIR/tables/$name"
}

# The guest harness removes dm devices (LVs included) and disks after each
# script (tests/vm/guest-cleanup.sh); under TCG the lvm commands a
# top-down teardown needs would cost more than the test.
# lvm's /dev/VG dirs outlive the devices: the next test's vgcreate of the
# same name would refuse.
aux_teardown() {
	rm -rf "$AUX_DIR" /dev/"${PREFIX:?}"*
}

# Report fields, trimmed; sizes in 512-byte sectors.
_aux_field() { # lvs|vgs|pvs OBJ FIELD [OPTION...]
	local v
	v=$("$1" --noheadings --units s --nosuffix -o "$3" "${@:4}" "$2") || return
	v=${v#"${v%%[![:space:]]*}"}
	echo "${v%"${v##*[![:space:]]}"}"
}
get_lv_field() { _aux_field lvs "$@" -a; } # -a: sub-LVs (rimage, mimage) too
get_vg_field() { _aux_field vgs "$@"; }
get_pv_field() { _aux_field pvs "$@"; }

_aux_check_field() { # KIND OBJ FIELD VALUE
	local v
	v=$("get_$1" "$2" "$3") || die "cannot read $3 of $2"
	[[ $v == "$4" ]] || die "$2: $3 is '$v', expected '$4'"
}
check_lv_field() { _aux_check_field lv_field "$@"; }
check_vg_field() { _aux_check_field vg_field "$@"; }
check_pv_field() { _aux_check_field pv_field "$@"; }

check_legs_equal() { # SECTORS DEV...
	local n=$1 first=$2 d
	shift 2
	for d in "$@"; do
		cmp -n $((n * 512)) "$first" "$d" || die "$d differs from $first in the first $n sectors"
	done
}

_aux_init
