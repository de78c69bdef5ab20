// SPDX-License-Identifier: GPL-2.0
#include <linux/init.h>
#include <linux/module.h>

static int value = 3;
module_param(value, int, 0444);

/*
 * The bug: pr_err() returns, but the code after it is marked unreachable, so
 * for a negative value the CPU runs off the end of this function into
 * whatever follows it.
 */
static noinline int objlint_bad_scale(int v)
{
	if (v < 0) {
		pr_err("objlint_bad: negative value\n");
		__builtin_unreachable();
	}
	return v * 2;
}

static int __init objlint_bad_init(void)
{
	pr_info("objlint_bad: %d\n", objlint_bad_scale(value));
	return 0;
}

static void __exit objlint_bad_exit(void)
{
}

module_init(objlint_bad_init);
module_exit(objlint_bad_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("objlint example: a function that falls through");
