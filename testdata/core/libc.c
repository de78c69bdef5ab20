/* User-space code, as a kernel tree's host tools are: calls to C library
 * functions that never return end the caller (rules/noreturn.toml). Each
 * function below ends in such a call. Declared as glibc declares them. */
__attribute__((noreturn)) void exit(int);
__attribute__((noreturn)) void abort(void);
__attribute__((noreturn)) void err(int, const char *, ...);
__attribute__((noreturn)) void __assert_fail(const char *, const char *,
					     unsigned int, const char *);

void usage(void)
{
	exit(1);
}

void bad_arg(const char *a)
{
	err(1, "bad argument %s", a);
}

int check(int ok)
{
	if (!ok)
		__assert_fail("ok", "libc.c", 22, "check");
	return ok;
}

void stop(void)
{
	abort();
}
