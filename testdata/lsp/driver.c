#include "inc/fatal.h"

int scale(int v)
{
	if (v < 0)
		fatal("negative");
	return v * 2;
}

void stop(void)
{
	report_fatal("stop");
#ifndef FIXED
	__builtin_unreachable();
#else
	__builtin_trap();
#endif
}

int twice(int v)
{
	return v + v;
}
