/* Inline assembly that pushes: the compiler's CFI cannot describe it (the
 * kernel's native_save_fl() in arch/x86/include/asm/irqflags.h). */
unsigned long save_flags(void)
{
	unsigned long flags;

	asm volatile("pushf ; pop %0" : "=rm" (flags) : : "memory");
	return flags;
}

extern void other(unsigned long);

void save_and_call(void)
{
	other(save_flags());
}
