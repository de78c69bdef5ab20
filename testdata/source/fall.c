/* Each function ends with a call to fixture_die(), which never returns but
 * is not known to objlint: a `fallthrough` finding in each. */
#include "die.h"

int direct(int x)
{
	if (x < 0)
		fixture_die("negative"), __builtin_unreachable();
	return x * 3;
}

int inlined(int x)
{
	must_be_positive(x);
	return x + 7;
}

int clean(int x)
{
	return x - 1;
}
