/* A function declared noreturn in this translation unit and defined
 * elsewhere: the compiler puts nothing after the call. With -g, DWARF says
 * so (DW_AT_noreturn on the declaration) and the path ends; without, the
 * object alone cannot tell and the fall-through is reported. */
extern void fatal(const char *why) __attribute__((noreturn));

int check(int x)
{
	if (x < 0)
		fatal("negative");
	return x * 2;
}

int twice(int x)
{
	return check(x) + check(-x);
}
