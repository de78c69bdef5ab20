/* Calls a function another member of the archive defines; built without
 * -g, so nothing in this object says it never returns. */
extern void my_die(const char *why) __attribute__((noreturn));

int parse(int x)
{
	if (x < 0)
		my_die("negative");
	return x + 1;
}

int parse2(int x)
{
	if (x > 100)
		my_die("too large");
	return parse(x) * 2;
}
