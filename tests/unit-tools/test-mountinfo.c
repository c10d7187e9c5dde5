// SPDX-License-Identifier: GPL-2.0
/* /proc/self/mountinfo lines, as the mounted-leg check reads them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "mountinfo.h"
#include "tooltest.h"

static void test_lines(void **state)
{
	char l1[] = "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n";
	char l2[] = "100 29 251:3 / /tmp/my\\040mount rw,relatime - ext4 /dev/rb/a\\040b rw";
	char l3[] = "22 1 0:21 / /proc rw shared:5 master:7 - proc proc rw";
	char l4[] = "38 25 0:33 / /mnt/btrfs rw - btrfs /dev/vdb rw,space_cache";
	struct rb_mount m;

	(void)state;
	assert_int_equal(rb_mountinfo_parse(l1, &m), 0);
	assert_int_equal(m.major, 98);
	assert_int_equal(m.minor, 0);
	assert_string_equal(m.mountpoint, "/mnt2");
	assert_string_equal(m.fstype, "ext3");
	assert_string_equal(m.source, "/dev/root");

	assert_int_equal(rb_mountinfo_parse(l2, &m), 0);
	assert_int_equal(m.major, 251);
	assert_int_equal(m.minor, 3);
	assert_string_equal(m.mountpoint, "/tmp/my mount");
	assert_string_equal(m.source, "/dev/rb/a b");

	assert_int_equal(rb_mountinfo_parse(l3, &m), 0);
	assert_string_equal(m.fstype, "proc");
	assert_string_equal(m.source, "proc");

	/* btrfs: an anonymous st_dev; the source names the device */
	assert_int_equal(rb_mountinfo_parse(l4, &m), 0);
	assert_int_equal(m.major, 0);
	assert_string_equal(m.source, "/dev/vdb");
}

static void test_bad_lines(void **state)
{
	char b1[] = "";
	char b2[] = "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 ext3 /dev/root";
	char b3[] = "36 35 980 /mnt1 /mnt2 rw - ext3 /dev/root rw";
	char b4[] = "36 35 98:0 /mnt1 /mnt2 rw - ext3";
	struct rb_mount m;

	(void)state;
	assert_int_equal(rb_mountinfo_parse(b1, &m), -1);
	assert_int_equal(rb_mountinfo_parse(b2, &m), -1);
	assert_int_equal(rb_mountinfo_parse(b3, &m), -1);
	assert_int_equal(rb_mountinfo_parse(b4, &m), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_bad_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
