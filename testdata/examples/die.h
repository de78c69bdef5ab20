/* A helper that is noreturn in the source, but not on objlint's noreturn list:
 * a call to it at the end of a function looks like a fall-through. */
#ifndef DIE_H
#define DIE_H

__attribute__((noreturn)) void fixture_die(const char *why);

static inline __attribute__((always_inline)) void must_be_positive(int x)
{
	if (x <= 0)
		fixture_die("not positive");
}

#endif
