// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test module: its init triggers WARN_ON(1) and then loads
 * fine, so tests/vm/run must report the warning from the guest kernel log
 * even though the guest script that loads it succeeds.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init rb_warn_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit rb_warn_exit(void)
{
}

module_init(rb_warn_init);
module_exit(rb_warn_exit);
MODULE_DESCRIPTION("dm-readbal test harness: WARN_ON at load");
MODULE_LICENSE("GPL");
