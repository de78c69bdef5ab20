/* Functions that end in a system call. The compiler places nothing after
 * the call (__builtin_unreachable): exit_group and rt_sigreturn never
 * return, so the path ends there; write returns, so the function runs off
 * its end (a real fall-through: the source's __builtin_unreachable is wrong). */

#if defined(__x86_64__)
#define NR_write 1
#define NR_rt_sigreturn 15
#define NR_exit_group 231
static inline void sys1(long nr, long a)
{
	asm volatile("syscall" : : "a"(nr), "D"(a) : "rcx", "r11", "memory");
}
#elif defined(__aarch64__)
#define NR_write 64
#define NR_rt_sigreturn 139
#define NR_exit_group 94
static inline void sys1(long nr, long a)
{
	register long x8 asm("x8") = nr;
	register long x0 asm("x0") = a;
	asm volatile("svc #0" : : "r"(x8), "r"(x0) : "memory");
}
#endif

void exit_now(int code)
{
	sys1(NR_exit_group, code);
	__builtin_unreachable();
}

void restore(void)
{
	sys1(NR_rt_sigreturn, 0);
	__builtin_unreachable();
}

/* Wrong on purpose: write returns. Reported. */
void write_and_stop(int fd)
{
	sys1(NR_write, fd);
	__builtin_unreachable();
}

/* The number is not known where the call is made. Reported. */
void any_call(long nr)
{
	sys1(nr, 0);
	__builtin_unreachable();
}

int after(int x)
{
	return x + 1;
}
