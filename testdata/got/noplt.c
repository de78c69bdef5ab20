/* Calls through the GOT (`call *sym@GOTPCREL(%rip)`, gcc -fno-plt; rustc
 * calls every other crate's function so): a call to a function that never
 * returns ends the path as a direct call does. */
#include <stdlib.h>

extern int check(int);

void give_up(int code)
{
	if (check(code))
		abort();
	exit(code);
}

int next(int x)
{
	return check(x) + 1;
}
