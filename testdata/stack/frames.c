/* Stack frames compilers build: callee-saved registers, large and aligned
 * locals (gcc realigns with a DRAP register), variable-length arrays,
 * switch tables, early returns and tail calls, a cold path. Compiled for
 * both arches by build.sh; objtool finds nothing wrong in the x86 objects
 * and its ORC for them is the expected unwind table. */
#include <stdarg.h>
#include <stddef.h>

extern void sink(void *p, long n);
extern long ext(long a, long b);
extern void panic(const char *fmt, ...) __attribute__((noreturn, cold));

long saved(long a, long b, long c)
{
	long x = ext(a, b);
	long y = ext(x, c);
	return x + y + a + b + c;
}

long big_frame(long n)
{
	char buf[512];
	sink(buf, n);
	return buf[n & 511];
}

long aligned_local(long n)
{
	char buf[128] __attribute__((aligned(64)));
	sink(buf, n);
	return buf[1];
}

long vla(long n)
{
	char buf[n + 1];
	sink(buf, n);
	return buf[0];
}

long dispatch(int k, long a)
{
	switch (k) {
	case 0: return ext(a, 1);
	case 1: return ext(a, 2) + 1;
	case 2: return a * 3;
	case 3: return ext(a, 4) - 7;
	case 4: return a - 5;
	case 5: return ext(a + 1, a);
	case 6: return 66;
	case 7: return ext(7, a) * 2;
	default: return -1;
	}
}

long early(long *p)
{
	if (!p)
		return 0;
	if (*p > 100)
		panic("too big");
	return ext(*p, 1);
}

long tail(long a)
{
	if (a & 1)
		return ext(a, a);
	return a + 1;
}

long loop(long *v, long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += ext(v[i], s);
	return s;
}

long varargs(int n, ...)
{
	va_list ap;
	long s = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, long);
	va_end(ap);
	return ext(s, n);
}

static __attribute__((noinline)) long helper(long a)
{
	return ext(a, a) + 1;
}

long calls_helper(long a)
{
	return helper(a) * helper(a + 1);
}
