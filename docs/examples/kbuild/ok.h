/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/compiler.h>

void __noreturn objlint_ok_die(const char *why);
