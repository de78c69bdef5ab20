/* A helper in a header, inlined into its callers: the finding in driver.c's
 * object maps to this file. */
#ifndef FATAL_H
#define FATAL_H

void report_fatal(const char *msg); /* logs and returns */

static inline void fatal(const char *msg)
{
	report_fatal(msg);
#ifdef FIXED
	__builtin_trap();
#else
	__builtin_unreachable(); /* wrong: report_fatal returns */
#endif
}

#endif
