/* The same as die.c, but weak: the program may replace it with a
 * definition that returns, so it never counts as noreturn. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((weak)) void my_die(const char *why)
{
	fprintf(stderr, "fatal: %s\n", why);
	abort();
}
