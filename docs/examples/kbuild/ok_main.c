// SPDX-License-Identifier: GPL-2.0
#include <linux/init.h>
#include <linux/module.h>
#include "ok.h"

static int limit = 8;
module_param(limit, int, 0444);

static noinline int objlint_ok_scale(int v)
{
	if (v > limit)
		objlint_ok_die("value over limit");
	return v * 2;
}

static int __init objlint_ok_init(void)
{
	pr_info("objlint_ok: %d\n", objlint_ok_scale(3));
	return 0;
}

static void __exit objlint_ok_exit(void)
{
}

module_init(objlint_ok_init);
module_exit(objlint_ok_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("objlint example: a clean module");
