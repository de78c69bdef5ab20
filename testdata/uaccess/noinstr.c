/* noinstr fixtures: code in .noinstr.text may call only noinstr code,
 * except between instrumentation_begin() and instrumentation_end(). */
#include "alt.h"

#define noinstr __attribute__((section(".noinstr.text"), noinline))

extern int ext_helper(int);
extern void __ubsan_handle_out_of_bounds(void *data, void *index);

__attribute__((noinline)) int traced(int x)
{
	return x * 3 + ext_helper(x);
}

noinstr int quiet(int x)
{
	asm volatile("" : "+r"(x));
	return x + 1;
}

/* Clean: calls another noinstr function. */
noinstr int enter_ok(int x)
{
	return quiet(x) + 2;
}

/* noinstr-call: calls instrumentable code of this object. */
noinstr int enter_bad(int x)
{
	return quiet(traced(x)) + 2;
}

/* Clean: the call is inside an instrumentation region. */
noinstr int enter_annotated(int x)
{
	int y;
	instrumentation_begin();
	y = traced(x);
	instrumentation_end();
	return quiet(y);
}

/* noinstr-call: only the first call is inside the region. */
noinstr int enter_half_annotated(int x)
{
	int y;
	instrumentation_begin();
	y = traced(x);
	instrumentation_end();
	return traced(y) + 1;
}

/* noinstr-call: an indirect call may reach anything. */
noinstr int enter_indirect(int (*fn)(int), int x)
{
	return fn(x) + 1;
}

/* noinstr-call only with --link: where ext_helper lives is unknown per object.
 * __ubsan_handle_*() is allowed anywhere. */
noinstr int enter_external(int x, void *d)
{
	if (x < 0)
		__ubsan_handle_out_of_bounds(d, d);
	return ext_helper(x) + 1;
}
