/* Control flow the fallthrough rule must follow, compiled by gcc and clang
 * for x86-64 and arm64 (see build.sh). Comments name what each function shows
 * and whether objlint must report it. */

#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

extern void panic(const char *fmt, ...) __attribute__((noreturn));
extern void my_fatal(void) __attribute__((noreturn)); /* not on any list */
extern int work(int);
extern void log_it(int);

/* Clean: ends with a call to a listed noreturn function (no ret after it). */
void calls_panic(int x)
{
	if (work(x))
		panic("bad %d", x);
	log_it(x);
}

/* Reported: my_fatal() never returns, but objlint cannot know that (it is
 * neither on the list nor defined here), as objtool cannot. */
void calls_unknown_noreturn(int x)
{
	log_it(x);
	my_fatal();
}

/* A chain of local functions that never return: inferred in-object.
 * die_loop spins, die_mid and die_top end in calls to their inner one. */
static NOINLINE void die_loop(int x)
{
	for (;;)
		log_it(x);
}

static NOINLINE void die_mid(int x)
{
	log_it(x + 1);
	die_loop(x);
}

NOINLINE void die_top(int x)
{
	log_it(x + 2);
	die_mid(x);
}

/* Clean: ends with a call to an inferred noreturn function. */
int calls_local_noreturn(int x)
{
	if (x > 3)
		die_top(x);
	return work(x);
}

/* A weak function may be replaced at link time by one that returns, so it
 * never counts as noreturn: the caller is reported. */
__attribute__((weak, noinline, noreturn)) void weak_die(int x)
{
	for (;;)
		log_it(x);
}

void calls_weak_noreturn(int x)
{
	log_it(x);
	weak_die(x);
}

/* Reported: __builtin_unreachable() after a call that does return lets the
 * compiler drop everything after the call, so the call is the last
 * instruction of the function. */
void unreachable_end(int x)
{
	if (x) {
		log_it(x);
		__builtin_unreachable();
	}
	work(x);
}

/* Clean: loops, conditional and unconditional jumps inside the function. */
int branches(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (work(i) & 1)
			continue;
		if (s > 100)
			break;
		s += work(s);
	}
	return s;
}

/* Clean: a jump table (indirect jump; x86 user space: PC-relative entries). */
int table(int x)
{
	switch (x) {
	case 0: return work(7);
	case 1: return work(3) + 1;
	case 2: log_it(2); return 5;
	case 3: return work(9) * 2;
	case 4: return work(11) - 3;
	case 5: log_it(6); return 1;
	default: return 0;
	}
}

/* Clean: a tail call. */
int tail(int x)
{
	return work(x + 1);
}

/* Clean: the unlikely path goes to a .cold part (gcc), which ends in a
 * jump back or a noreturn call. */
extern void __attribute__((cold)) slow_path(int);
int with_cold(int x)
{
	if (__builtin_expect(x < 0, 0)) {
		slow_path(x);
		log_it(x);
		if (x < -100)
			panic("neg");
		return -1;
	}
	return work(x);
}

/* Clean: __builtin_trap() (ud2 / brk) ends the path. */
void traps(int x)
{
	if (x)
		__builtin_trap();
	log_it(x);
}

/* Clean: address taken (kCFI preamble under clang). */
int (*const ptr)(int) = tail;
