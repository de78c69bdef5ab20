/* Never returns, but only its callers say so (__builtin_unreachable()), not
 * its declaration nor objlint's list: a call to it ends like a fall-through. */
#ifndef DIE_H
#define DIE_H

void fixture_die(const char *why);

static inline __attribute__((always_inline)) void must_be_positive(int x)
{
	if (x <= 0)
		fixture_die("not positive"), __builtin_unreachable();
}

#endif
