/* User-access fixtures, built for x86-64 (STAC/CLAC) and arm64 (PAN), with
 * the toggles emitted as alternatives the way the kernel does. */
#include "alt.h"

extern int helper(int);
extern void kasan_check_range(const void *p, unsigned long size, int write, unsigned long ip);

/* Clean: access is closed again before anything is called or returned. */
int get_ok(int *p)
{
	int x;
	stac();
	x = *(volatile int *)p;
	clac();
	return x;
}

/* uaccess-call: a direct call with access open. */
int call_open(int *p)
{
	int x;
	stac();
	x = helper(*(volatile int *)p);
	clac();
	return x;
}

/* Clean: a sanitizer hook is on the uaccess-safe list. */
int call_safe(int *p)
{
	int x;
	stac();
	kasan_check_range(p, 4, 0, 0);
	x = *(volatile int *)p;
	clac();
	return x;
}

/* uaccess-call: an indirect call with access open (a retpoline thunk on x86). */
int call_indirect(int (*fn)(int), int *p)
{
	int x;
	stac();
	x = fn(*(volatile int *)p);
	clac();
	return x;
}

/* uaccess-call: a tail call with access open. */
int tail_open(int *p)
{
	stac();
	return helper(*(volatile int *)p);
}

/* uaccess-return: only the path with c == 0 returns with access open. */
int one_path_open(int *p, int c)
{
	int x;
	stac();
	x = *(volatile int *)p;
	if (c) {
		clac();
		return x + c;
	}
	return x;
}

/* Clean: access is closed on every path before the call. */
int close_then_call(int *p, int c)
{
	int x;
	stac();
	x = *(volatile int *)p;
	if (c)
		x++;
	clac();
	return helper(x);
}

/* uaccess-redundant: closing access that is already closed. */
int close_twice(int *p)
{
	int x;
	stac();
	x = *(volatile int *)p;
	clac();
	clac();
	return x;
}

#ifdef __x86_64__
/* Clean: smap_save() (pushf; clac) closes access around the call and
 * smap_restore() (popf) reopens it. */
int save_restore_ok(int *p)
{
	unsigned long flags;
	int x;
	stac();
	flags = smap_save();
	x = helper(0);
	smap_restore(flags);
	x += *(volatile int *)p;
	clac();
	return x;
}

/* uaccess-call: popf restored the open state before the call. */
int save_restore_bad(int *p)
{
	unsigned long flags;
	int x;
	stac();
	flags = smap_save();
	smap_restore(flags);
	x = helper(*(volatile int *)p);
	clac();
	return x;
}
#endif
