// SPDX-License-Identifier: GPL-2.0
/* Policy "pid": current->pid modulo the number of legs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rbtest.h"
#include "policy-pid.c"

static void test_pid_modulo(void **state)
{
	struct rbt t;
	int pid;

	rbt_setup(&t, "pid", 3, 0);
	for (pid = 0; pid < 9; pid++) {
		shim_current.pid = pid;
		assert_int_equal(sel(&t, 0, 8, 0x7), pid % 3);
	}
	shim_current.pid = 0x7fffffff;
	assert_int_equal(sel(&t, 0, 8, 0x7), 0x7fffffff % 3);
	rbt_teardown(&t);
}

static void test_pid_ineligible(void **state)
{
	struct rbt t;

	rbt_setup(&t, "pid", 3, 0);
	shim_current.pid = 4;			/* leg 1 */
	assert_int_equal(sel(&t, 0, 8, 0x5), 2);
	shim_current.pid = 5;			/* leg 2 */
	assert_int_equal(sel(&t, 0, 8, 0x3), 0);
	assert_int_equal(sel(&t, 0, 8, 0x2), 1);
	rbt_teardown(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pid_modulo),
		cmocka_unit_test(test_pid_ineligible),
	};

	return cmocka_run_group_tests_name("pid", tests, NULL, NULL);
}
