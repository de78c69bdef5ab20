/* Code as Linux 6.1 builds it, checked clean (tests/core.rs). Debian's 6.1
 * modules showed two things objlint tuned on 6.12 got wrong:
 * - 6.1 declares noreturn functions under names 6.12 dropped: fortify_panic
 *   (6.9 made it a macro calling __fortify_panic), __invalid_creds and
 *   lbug_with_loc (objtool 6.1's global_noreturns[]); a cold block ending in
 *   such a call ends its section or runs into the next function's.
 * - module_init() makes init_module an alias of the init function; the
 *   compiler names the function's cold part after the function (here
 *   fixture_init.cold), not after the alias the model keeps for both.
 * - 6.1's default arch_cpu_idle_dead() is weak and empty, so it returns
 *   (6.4 made it __noreturn; objlint's x86 list names it): a caller's code
 *   after the call runs. */
struct cred;
void fortify_panic(const char *name) __attribute__((noreturn, cold));
void __invalid_creds(const struct cred *cred, const char *file,
		     unsigned int line) __attribute__((noreturn, cold));
void lbug_with_loc(void *msgdata) __attribute__((noreturn, cold));
void report(const char *fmt, ...) __attribute__((cold));
int probe(int);

char buf[8];

void copy_name(const char *s, unsigned long n)
{
	if (n > sizeof(buf))
		fortify_panic(__func__);
	__builtin_memcpy(buf, s, n);
}

int check_cred(const struct cred *c, int magic)
{
	if (magic != 0x43736564)
		__invalid_creds(c, "linux61.c", 33);
	return probe(magic);
}

int lustre_assert(void *msg, int ok)
{
	if (!ok)
		lbug_with_loc(msg);
	return probe(ok);
}

static int failures;

static int fixture_init(void)
{
	int r = probe(1);

	if (r < 0) {
		report("fixture: probe failed: %d\n", r);
		failures++;
		return r;
	}
	return 0;
}
int init_module(void) __attribute__((alias("fixture_init")));

void __attribute__((weak)) arch_cpu_idle_dead(void)
{
}

int idle_once(int cpu)
{
	if (probe(cpu))
		arch_cpu_idle_dead();
	return probe(cpu + 1);
}
