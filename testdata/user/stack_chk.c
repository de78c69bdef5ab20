/* glibc's __stack_chk_fail: in user space, not a function called with user
 * access open (a kernel convention, rules/uaccess_safe.toml): no uaccess
 * finding unless --profile kernel. */
extern void __fortify_fail(const char *msg) __attribute__((noreturn));

void __stack_chk_fail(void)
{
	__fortify_fail("stack smashing detected");
}
