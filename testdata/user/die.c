/* Defined in one member of an archive, called from another (user.c) whose
 * translation unit declares it noreturn: in the archive, this member proves
 * it never returns (it ends in abort()). */
#include <stdio.h>
#include <stdlib.h>

void my_die(const char *why)
{
	fprintf(stderr, "fatal: %s\n", why);
	abort();
}
