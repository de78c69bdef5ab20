// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include "ok.h"

/* Defined in another file than its callers: a check of ok_main.o alone can't
 * tell that it never returns; the linked module shows it (it calls panic). */
void objlint_ok_die(const char *why)
{
	panic("objlint_ok: %s\n", why);
}
