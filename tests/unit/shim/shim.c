// SPDX-License-Identifier: GPL-2.0
/* The state behind kshim.h's hooks, and the core function it replaces. */
#include "readbal.h"

int shim_fail_alloc_in;
int shim_live_allocs;
__thread unsigned int shim_cpu;
struct task_struct shim_current = { .pid = 1 };
u64 shim_disk_wait_ns[SHIM_MAX_LEGS];
u64 shim_now_ns;

u64 rb_leg_disk_read_wait_ns(struct rb_leg *leg)
{
	return shim_disk_wait_ns[leg->index];
}
