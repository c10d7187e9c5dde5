# shellcheck shell=bash
# The benchmark's legs for one of its profiles, for the guest scripts of
# tests/perf: its kinds, their rates (plan.leg_mbps, times a scale), its
# null_blk request size, and its seek disks.  Source after
# tests/lib/disks.sh and bench/guest/seekdisk.sh.
: "${RB_SEEK_ARGS:=$(python3 -c 'import sys; sys.path.insert(0, "bench"); from rbbench import plan; print(plan.SEEK_ARGS)')}"
# read once: an exec is slow under TCG
_bench_max_sectors=$(python3 -c 'import sys; sys.path.insert(0, "bench"); from rbbench import plan; print(plan.LEG_MAX_SECTORS)')

# "kind:mbps ..." of PROFILE at SCALE, then on a second line the index of
# its fastest leg (plan.KIND_RANK)
bench_legs_of() { # PROFILE [SCALE]
	python3 - "$1" "${2:-1}" <<'PY'
import sys
sys.path.insert(0, "bench")
from rbbench import plan
kinds = plan.profile_kinds(sys.argv[1])
print(" ".join(f"{k}:{plan.leg_mbps(k, float(sys.argv[2]))}" for k in kinds))
print(max(range(len(kinds)), key=lambda i: plan.KIND_RANK[kinds[i]]))
PY
}

# Creates the legs "kind:mbps ..." as disks PREFIX0, PREFIX1, ... of 1 GiB
# and prints their devices, one line; rb_disks_rm_all and
# rb_seek_disks_rm_all remove them.
bench_legs() { # PREFIX "kind:mbps ..."
	local kl n=0 devs=()
	for kl in $2; do
		if [ "${kl%%:*}" = hdd-seek ]; then
			devs+=("$(rb_seek_disk "$1$n" size=1024)") || return
		else
			devs+=("$(rb_disk "$1$n" "${kl%%:*}" size=1024 mbps="${kl#*:}" \
				max_sectors="$_bench_max_sectors")") || return
		fi
		n=$((n + 1))
	done
	echo "${devs[@]}"
}
